//! Stage 2: the page's own style sheets, cascaded onto every element.
//!
//! Offline there is no layout engine, but a page's `<style>` elements (and `<link
//! rel=stylesheet>` with a `data:` URL) are in the document, and a class rule is the commonest
//! way pages hide things: menus only one viewport shows, closed modals, cookie banners, and
//! text planted for a model (`.note{display:none}`). This stage reads those sheets and
//! computes, per element, the few properties that decide what a person sees:
//!
//! - `display` (`none`, or whether the box is inline, which decides word boundaries);
//! - `visibility` (`hidden | collapse | visible`, inherited: a descendant may show again);
//! - `content-visibility: hidden` (the content is skipped, like `display: none`);
//! - `text-transform`, which Chromium applies to the names and text it computes;
//! - and, from `style` attributes only, `opacity: 0` and `cursor: pointer`.
//!
//! Steps: [`sheet`] parses the sheets (`@media` for the configured [`Viewport`], `@supports`
//! taken as true, `@layer` ordered) and keeps only rules that set one of these properties
//! and may match the page (their selectors' classes and ids are on it: [`sheet::Vocabulary`]);
//! [`cascade`] files them by the rightmost id, class or tag of each selector and, for every
//! element, matches the rules filed under its own keys with the `selectors` crate, then takes
//! the winner per property by importance, `style` attribute, layer, specificity and order.
//! The result is a side table of two bytes per node, read by [`crate::aria::hidden`] (and so
//! by the walk, names, queries and `probe` alike); a page where nothing applies gets an
//! empty table.
//!
//! Below the page's sheets, `frameworks.css`: the hiding classes of common CSS frameworks
//! (`d-none d-lg-block`, `hidden md:flex`, `ipsHide`) and their closed modals, the external
//! sheets most pages link.
//!
//! Not supported, and why: other external sheets and `@import` (offline, nothing is fetched);
//! `@container` (needs layout); CSS nesting and `var()` in the properties above (rare in
//! hiding rules; a rule using them is dropped); `opacity` and `cursor` from sheets (fade-in
//! classes start at `opacity: 0` and scripts reveal them, so the sheet alone would hide live
//! content; the live script reads the computed values); dynamic states (`:hover`, `:focus`…
//! never hold). Selectors longer than [`cascade::MAX_COMPOUNDS`] parts hide wherever their
//! rightmost part matches.

pub mod cascade;
pub mod media;
pub mod sheet;

use std::borrow::Cow;
use std::cell::OnceCell;
use std::sync::{LazyLock, OnceLock};

use html5ever::{local_name, LocalName};

pub use media::Viewport;

use crate::parse::select::ClassNames;
use crate::parse::{Dom, Element, NodeId, View};
use crate::text::TextTransform;
use cascade::{Matcher, RuleIndex};
use selectors::parser::Component;
use sheet::{Decls, Display, Rule, Sheets, Vocabulary};

/// The attribute Webflow's interactions find their elements by (see `Styles::new`).
static DATA_W_ID: LazyLock<LocalName> = LazyLock::new(|| LocalName::from("data-w-id"));

/// The hiding utilities of common CSS frameworks (Bootstrap, Tailwind, Bulma, Foundation,
/// UIkit…), the external sheets most pages link: consulted where the page's own rules leave
/// `display` or `visibility` undecided, as a layer below them would be ([`Frameworks`]).
/// The file says which classes and why.
const FRAMEWORKS: &str = include_str!("frameworks.css");

/// Which style sheets count, and the device `@media` rules are evaluated for.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StyleOptions {
    /// Ignore the page's `<style>` sheets (`style` attributes still count).
    pub ignore_stylesheets: bool,
    /// The viewport `@media` rules are evaluated for (default: a 1280 × 800 screen).
    pub viewport: Viewport,
}

/// What the cascade decided for one element.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ElementStyle {
    /// `Some(true)` for `display:none`, `Some(false)` for any other author `display`.
    pub display_none: Option<bool>,
    /// Whether the author `display` is `inline` or `contents` (text flows into its
    /// neighbours'); `None` when the element keeps its default.
    pub display_inline: Option<bool>,
    /// Whether the author `display` is an inline-level box of its own (`inline-block`,
    /// `inline-flex`…): in the line, but a word of its own; `false` for any other.
    pub inline_box: bool,
    /// `Some(true)` for `visibility:hidden|collapse`, `Some(false)` for `visible`, `None` when
    /// inherited.
    pub visibility_hidden: Option<bool>,
    /// `content-visibility: hidden`: the element's content is not rendered.
    pub content_hidden: bool,
    /// An inline `opacity: 0`.
    pub opacity_zero: bool,
    /// An inline `cursor: pointer`: the page marks the element clickable.
    pub cursor_pointer: bool,
    /// The computed `text-transform` (inherited from the parent when not set).
    pub text_transform: TextTransform,
}

impl ElementStyle {
    fn from_decls(d: &Decls, inherited: TextTransform) -> ElementStyle {
        let value = |o: Option<sheet::Decl<bool>>| o.is_some_and(|d| d.value);
        ElementStyle {
            display_none: d.display.map(|x| x.value == Display::None),
            display_inline: d.display.map(|x| x.value == Display::Inline),
            inline_box: d.display.is_some_and(|x| x.value == Display::InlineBox),
            visibility_hidden: d.visibility.and_then(|x| x.value),
            content_hidden: value(d.content_hidden),
            opacity_zero: value(d.opacity_zero),
            cursor_pointer: value(d.cursor_pointer),
            text_transform: d.text_transform.and_then(|x| x.value).unwrap_or(inherited),
        }
    }

    /// Two bytes: display (2 bits), visibility (2), three flags, text-transform (2), and
    /// whether the display is an inline box.
    fn pack(self) -> u16 {
        let tri = |o: Option<bool>| match o {
            None => 0u16,
            Some(false) => 1,
            Some(true) => 2,
        };
        let display = match (self.display_none, self.display_inline) {
            (Some(true), _) => 1u16,
            (Some(false), Some(true)) => 2,
            (Some(false), _) => 3,
            (None, _) => 0,
        };
        let transform = match self.text_transform {
            TextTransform::None => 0u16,
            TextTransform::Uppercase => 1,
            TextTransform::Lowercase => 2,
            TextTransform::Capitalize => 3,
        };
        display
            | tri(self.visibility_hidden) << 2
            | u16::from(self.content_hidden) << 4
            | u16::from(self.opacity_zero) << 5
            | u16::from(self.cursor_pointer) << 6
            | transform << 7
            | u16::from(self.inline_box) << 9
    }

    fn unpack(bits: u16) -> ElementStyle {
        let (display_none, display_inline) = match bits & 3 {
            1 => (Some(true), Some(false)),
            2 => (Some(false), Some(true)),
            3 => (Some(false), Some(false)),
            _ => (None, None),
        };
        ElementStyle {
            display_none,
            display_inline,
            visibility_hidden: match bits >> 2 & 3 {
                1 => Some(false),
                2 => Some(true),
                _ => None,
            },
            content_hidden: bits >> 4 & 1 == 1,
            opacity_zero: bits >> 5 & 1 == 1,
            cursor_pointer: bits >> 6 & 1 == 1,
            text_transform: match bits >> 7 & 3 {
                1 => TextTransform::Uppercase,
                2 => TextTransform::Lowercase,
                3 => TextTransform::Capitalize,
                _ => TextTransform::None,
            },
            inline_box: bits >> 9 & 1 == 1,
        }
    }
}

/// The computed style of every node of one document: read-only once built (and `Sync`, for
/// the walk's two threads).
#[derive(Clone, Debug, Default)]
pub struct Styles {
    /// Packed [`ElementStyle`] per arena index; empty when no author style applies.
    table: Vec<u16>,
}

impl Styles {
    /// Reads the page's sheets and `style` attributes and cascades them onto every element.
    ///
    /// ```
    /// use agent_snapshot::parse::Dom;
    /// use agent_snapshot::style::{StyleOptions, Styles};
    ///
    /// let dom = Dom::parse("<style>.note{display:none}</style><a href=/>Home<span class=note>x</span></a>");
    /// let styles = Styles::build(&dom, &StyleOptions::default());
    /// let (span, _) = dom.elements().find(|(_, e)| &**e.local() == "span").unwrap();
    /// assert_eq!(styles.get(span).display_none, Some(true));
    /// ```
    pub fn build(dom: &Dom, opts: &StyleOptions) -> Styles {
        // Sheets per tree scope ([`Dom::scope`]): a shadow tree's `<style>` styles that tree
        // only, and the page's sheets do not reach into it (inheritance does, through the
        // flattened tree). One scope on most pages.
        let mut texts: Vec<(u32, Cow<'_, str>)> = Vec::new();
        let mut any_inline = false;
        for (id, el) in dom.elements() {
            any_inline |= el.has_attr(&local_name!("style"));
            if !opts.ignore_stylesheets {
                if let Some(css) = sheet_text(dom, id, el, &opts.viewport) {
                    texts.push((dom.scope(id), css));
                }
            }
        }
        let classes = OnceCell::new();
        let vocabulary = Vocabulary::new(dom, &classes);
        let mut scopes: Vec<u32> = texts.iter().map(|(scope, _)| *scope).collect();
        scopes.sort_unstable();
        scopes.dedup();
        let scoped: Vec<(u32, Vec<Rule>, RuleIndex)> = scopes
            .into_iter()
            .map(|scope| {
                let mut sheets = Sheets::new(&opts.viewport, Some(&vocabulary));
                for (_, css) in texts.iter().filter(|(s, _)| *s == scope) {
                    sheets.add(css);
                }
                let mut rules = sheets.rules;
                let index = RuleIndex::build(&mut rules);
                (scope, rules, index)
            })
            .filter(|(_, rules, _)| !rules.is_empty())
            .collect();
        let frameworks =
            (!opts.ignore_stylesheets).then(|| Frameworks::for_viewport(&opts.viewport));
        if scoped.is_empty() && !any_inline && frameworks.is_none() {
            return Styles::default();
        }
        // What holds the page (its `<main>`, its first `<h1>`, and their ancestors): a
        // framework class or a fade-in's `opacity: 0` hiding one of these is a loading state
        // that a script lifts (`<div class="root hide">` under a preloader), not what people
        // see. Found the first time one of them applies.
        let holds_page = OnceCell::new();
        let holds_page_at = |id: NodeId| {
            holds_page
                .get_or_init(|| page_holders(dom))
                .get(id.index())
                .copied()
                .unwrap_or(false)
        };
        let mut styled = false;
        // Without rules nothing is matched (and no class is worth interning).
        // Sorted by scope, as `scoped` is.
        let mut matchers: Vec<(u32, Matcher<'_>)> = scoped
            .iter()
            .map(|(scope, rules, index)| {
                let classes = classes.get_or_init(|| ClassNames::new(dom));
                (*scope, Matcher::new(rules, index, classes))
            })
            .collect();
        // Critical-CSS snippets hide the page's `<main>` until the full sheet or a script has
        // loaded (`main { visibility: hidden }`): the guard of the body below, one level down.
        // A page with one `<main>` never shows people that landmark hidden; a page with several
        // hides all but one (the HTML spec's rule), so there each sheet rule counts.
        // (Counted when the first `<main>` is met: most pages with sheets have one or none,
        // and a page without one pays nothing.)
        let one_main = OnceCell::new();
        let mut table = vec![0u16; dom.len()];
        for (id, el) in dom.elements() {
            let inherited = dom
                .node(id)
                .parent
                .and_then(|p| table.get(p.index()))
                .map_or(TextTransform::None, |&bits| {
                    ElementStyle::unpack(bits).text_transform
                });
            let inline = el.attr(&local_name!("style")).map(Decls::parse);
            let scope = dom.scope(id);
            let matcher = matchers
                .binary_search_by_key(&scope, |(s, _)| *s)
                .ok()
                .and_then(|i| matchers.get_mut(i));
            let mut decls = match matcher {
                Some((_, matcher)) => matcher.cascade(dom, id, inline.as_ref()).decls,
                None => inline.unwrap_or_default(),
            };
            let from_frameworks = frameworks
                .as_ref()
                .filter(|_| scope == 0 && (decls.display.is_none() || decls.visibility.is_none()))
                .and_then(|f| f.decls(el.attr(&local_name!("class"))?));
            if let Some(from) = from_frameworks {
                if (decls.display.is_none() && from.display.is_some())
                    || (decls.visibility.is_none() && from.visibility.is_some())
                {
                    let from = if holds_page_at(id) {
                        from.without_hiding()
                    } else {
                        from
                    };
                    decls.display = decls.display.or(from.display);
                    decls.visibility = decls.visibility.or(from.visibility);
                }
            }
            // A script's state parked in the page as text (`<div class="state
            // aok-hidden">{"asins":[…]}</div>`) is hidden by the site's own external sheet,
            // which is out of reach offline: no page shows people a JSON document outside a
            // code block. Only where the page's rules leave `display` undecided, as with the
            // framework classes.
            if frameworks.is_some() && decls.display.is_none() && holds_script_state(dom, id, el) {
                decls.display = Some(sheet::Decl {
                    value: Display::None,
                    important: false,
                });
            }
            // Anti-flicker snippets (Chartbeat's `body { visibility: hidden !important }`,
            // A/B-testing `body { display: none }` / `opacity: 0`) hide the whole page until a
            // script shows it again: a person never sees the page so. Hiding is honoured on
            // every element below, never on the root or the body themselves.
            // The page's one `<main>` likewise (see `one_main`), but only the sheets' hiding
            // goes: a `style` attribute is the page's own word.
            let guarded = el.is_html(&local_name!("html"))
                || el.is_html(&local_name!("body"))
                || (el.is_html(&local_name!("main"))
                    && !inline.is_some_and(|d| d.hiding_only() != Decls::default())
                    && *one_main.get_or_init(|| {
                        dom.elements()
                            .filter(|(_, el)| el.is_html(&local_name!("main")))
                            .take(2)
                            .count()
                            == 1
                    }));
            if guarded {
                decls = decls.without_hiding();
            }
            // `opacity: 0` in a `style` attribute is how animation libraries render the first
            // frame of a fade-in (`initial={{ opacity: 0 }}`): on what holds the page's
            // headline, a loading state a script lifts, like the anti-flicker snippets above.
            // So is `opacity: 0` beside a `transform` or `will-change` in the same attribute,
            // anywhere: the element waits off its place, transparent, for a scroll-triggered
            // entrance (framer-motion's `opacity:0;transform:translateY(40px)`, GSAP's
            // `matrix(…)`), and on an element Webflow's interactions drive (`data-w-id`), whose
            // start state the site builder writes in the attribute. Elsewhere (a card, a
            // planted note) it hides. (The live script reads computed values: there a sheet's
            // transform counts too.)
            let entering = || inline.as_ref().is_some_and(|d| d.moves) || el.has_attr(&DATA_W_ID);
            if decls.opacity_zero.is_some_and(|d| d.value) && (holds_page_at(id) || entering()) {
                decls.opacity_zero = None;
            }
            // So is a sheet's `visibility: hidden` there: an animation library's start state
            // (Elementor's `.elementor-invisible` on the headline's block until its fade-in
            // runs), a critical-CSS `.container { opacity: 0; visibility: hidden }` a script
            // lifts. Not `display: none`: a responsive layout's other copy of the page (the
            // phone's) is hidden so, and its first `h1` may be the one hidden. A `style`
            // attribute's `visibility` is the page's own word.
            if decls.visibility.is_some_and(|d| d.value == Some(true))
                && inline.as_ref().is_none_or(|d| d.visibility.is_none())
                && holds_page_at(id)
            {
                decls.visibility = None;
            }
            if let Some(slot) = table.get_mut(id.index()) {
                *slot = ElementStyle::from_decls(&decls, inherited).pack();
                styled |= *slot != 0;
            }
        }
        // Nothing applied (no sheet, attribute or framework class said anything): the empty
        // table, as for a page without style.
        if !styled {
            return Styles::default();
        }
        Styles { table }
    }

    /// The style of an element (all defaults for other nodes, or when no style applies).
    pub fn get(&self, id: NodeId) -> ElementStyle {
        self.table
            .get(id.index())
            .map_or_else(ElementStyle::default, |&bits| ElementStyle::unpack(bits))
    }

    /// The `text-transform` a text node is shown with: its parent's.
    pub fn text_transform(&self, dom: &Dom, text: NodeId) -> TextTransform {
        if self.table.is_empty() {
            return TextTransform::None;
        }
        dom.node(text)
            .parent
            .map_or(TextTransform::None, |p| self.get(p).text_transform)
    }
}

/// The frameworks' hiding classes for one viewport: per class name, the rules whose selector
/// holds it first. Every selector there is one class or a compound of classes (`.d-none`,
/// `.modal.fade`), so a rule matches when all its classes are in the `class` attribute,
/// and the winner is the most specific, then the later: a lookup per class token, without a
/// selector matcher. Read once per process for the default viewport.
#[derive(Clone)]
struct Frameworks {
    by_class: foldhash::HashMap<Box<str>, Vec<FrameworkRule>>,
}

/// One rule of [`FRAMEWORKS`], filed under its selector's first class.
#[derive(Clone)]
struct FrameworkRule {
    /// The selector's other classes, all of which the element must carry too.
    also: Vec<Box<str>>,
    order: u32,
    decls: Decls,
}

impl Frameworks {
    fn for_viewport(viewport: &Viewport) -> Cow<'static, Frameworks> {
        static DEFAULT: OnceLock<Frameworks> = OnceLock::new();
        if *viewport == Viewport::default() {
            Cow::Borrowed(DEFAULT.get_or_init(|| Frameworks::read(viewport)))
        } else {
            Cow::Owned(Frameworks::read(viewport))
        }
    }

    fn read(viewport: &Viewport) -> Frameworks {
        let mut sheets = Sheets::new(viewport, None);
        sheets.add(FRAMEWORKS);
        let mut by_class: foldhash::HashMap<Box<str>, Vec<FrameworkRule>> =
            foldhash::HashMap::default();
        for rule in sheets.rules {
            // Only compounds of classes are read (the file holds no other selector; a test
            // checks every rule is kept).
            let classes: Option<Vec<Box<str>>> = rule
                .selector
                .iter_raw_match_order()
                .map(|part| match part {
                    Component::Class(class) => Some(class.as_str().into()),
                    _ => None,
                })
                .collect();
            if let Some((first, also)) = classes.as_deref().and_then(<[_]>::split_first) {
                by_class
                    .entry(first.clone())
                    .or_default()
                    .push(FrameworkRule {
                        also: also.to_vec(),
                        order: rule.order,
                        decls: rule.decls,
                    });
            }
        }
        Frameworks { by_class }
    }

    /// What the frameworks' classes in a `class` attribute declare; `None` for none of them.
    fn decls(&self, class: &str) -> Option<Decls> {
        let mut found: Vec<(usize, u32, Decls)> = Vec::new();
        for name in class.split_ascii_whitespace() {
            for rule in self.by_class.get(name).into_iter().flatten() {
                if rule
                    .also
                    .iter()
                    .all(|c| class.split_ascii_whitespace().any(|t| t == &**c))
                {
                    found.push((rule.also.len(), rule.order, rule.decls));
                }
            }
        }
        if found.is_empty() {
            return None;
        }
        // Specificity (the number of classes), then order: the last applied wins.
        found.sort_unstable_by_key(|&(specificity, order, _)| (specificity, order));
        let mut out = Decls::default();
        for (_, _, d) in found {
            out.display = d.display.or(out.display);
            out.visibility = d.visibility.or(out.visibility);
        }
        Some(out)
    }
}

/// The least text taken for a script's state: short JSON (`{"a": 1}`) is as likely an example
/// in a sentence.
const MIN_STATE_BYTES: usize = 200;

/// Whether the element's only content is a JSON object or array of [`MIN_STATE_BYTES`] or
/// more, outside any code block (`pre`, `code`, `samp`, `kbd`, `textarea`, where JSON is
/// what the page shows). Only text beginning with `{` or `[` is parsed, so most elements
/// cost a look at their first child.
fn holds_script_state(dom: &Dom, id: NodeId, el: Element<'_>) -> bool {
    let Some(first) = dom.node(id).first_child else {
        return false;
    };
    let Some(text) = dom.text(first).map(str::trim) else {
        return false;
    };
    if text.len() < MIN_STATE_BYTES || !(text.starts_with('{') || text.starts_with('[')) {
        return false;
    }
    let only_child =
        std::iter::successors(dom.node(first).next_sibling, |&n| dom.node(n).next_sibling)
            .all(|n| dom.text(n).is_some_and(|t| t.trim().is_empty()));
    let code = |e: Element<'_>| {
        e.in_html_ns()
            && matches!(
                *e.local(),
                local_name!("pre")
                    | local_name!("code")
                    | local_name!("samp")
                    | local_name!("kbd")
                    | local_name!("textarea")
            )
    };
    only_child
        && !code(el)
        && !dom.ancestors(id).any(|(_, a)| code(a))
        // Skipping a value (`IgnoredAny`) walks nesting without recursing, so a 100k-deep
        // `[[[…` costs no stack.
        && serde_json::from_str::<serde::de::IgnoredAny>(text).is_ok()
}

/// Which elements hold the page: its `<main>` elements, its first `<h1>`, and their
/// ancestors (by arena index).
fn page_holders(dom: &Dom) -> Vec<bool> {
    let mut holds = vec![false; dom.len()];
    let mut h1 = false;
    for (id, el) in dom.elements() {
        let first_h1 = !h1 && el.is_html(&local_name!("h1"));
        h1 |= first_h1;
        if !(first_h1 || el.is_html(&local_name!("main"))) {
            continue;
        }
        holds[id.index()] = true;
        for (a, _) in dom.ancestors(id) {
            if std::mem::replace(&mut holds[a.index()], true) {
                break;
            }
        }
    }
    holds
}

/// The text of a style sheet the page applies: a `<style>` element, or a `<link
/// rel=stylesheet>` whose `href` is a `data:` URL; `None` when its `media` does not match
/// or its `type` is not CSS.
fn sheet_text<'d>(
    dom: &'d Dom,
    id: NodeId,
    el: Element<'_>,
    viewport: &Viewport,
) -> Option<Cow<'d, str>> {
    let media_ok = || {
        el.attr(&local_name!("media"))
            .is_none_or(|m| viewport.matches_str(m))
    };
    let is_style = *el.local() == local_name!("style") && (el.in_html_ns() || el.in_svg_ns());
    if is_style {
        let css_type = el
            .attr(&local_name!("type"))
            .is_none_or(|t| t.trim().is_empty() || t.trim().eq_ignore_ascii_case("text/css"));
        // With scripting on (as in the browsers agents drive), `<noscript>` content is text;
        // in the no-script view its sheets apply (a thread's `#splash { display: none }`).
        let in_noscript = dom.view() == View::Scripted
            && dom
                .ancestors(id)
                .any(|(_, a)| a.is_html(&local_name!("noscript")));
        if !css_type || in_noscript || !media_ok() {
            return None;
        }
        // One text node as a rule (a sheet can be megabytes: borrowed, not copied).
        let mut texts = dom.children(id).filter_map(|c| dom.text(c));
        let first = texts.next().unwrap_or_default();
        return Some(match texts.next() {
            None => Cow::Borrowed(first),
            Some(second) => {
                let mut css = String::from(first);
                css.push_str(second);
                texts.for_each(|t| css.push_str(t));
                Cow::Owned(css)
            }
        });
    }
    if el.is_html(&local_name!("link")) {
        let rel = el.attr(&local_name!("rel"))?;
        let words = || rel.split_ascii_whitespace();
        if !words().any(|w| w.eq_ignore_ascii_case("stylesheet"))
            || words().any(|w| w.eq_ignore_ascii_case("alternate"))
            || el.has_attr(&local_name!("disabled"))
            || !media_ok()
        {
            return None;
        }
        return data_url_text(el.attr(&local_name!("href"))?).map(Cow::Owned);
    }
    None
}

/// The text of a `data:` URL (<https://fetch.spec.whatwg.org/#data-urls>): percent-decoded,
/// or base64-decoded when the media type ends in `;base64`. Other URLs are not fetched.
fn data_url_text(href: &str) -> Option<String> {
    use base64::Engine;
    let href = href.trim();
    let rest = href
        .get(..5)
        .filter(|s| s.eq_ignore_ascii_case("data:"))
        .map(|_| &href[5..])?;
    let (meta, body) = rest.split_once(',')?;
    let bytes = percent_decode(body);
    let bytes = if meta.trim_end().to_ascii_lowercase().ends_with(";base64") {
        let cleaned: Vec<u8> = bytes
            .into_iter()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        const FORGIVING: base64::engine::GeneralPurpose = base64::engine::GeneralPurpose::new(
            &base64::alphabet::STANDARD,
            base64::engine::GeneralPurposeConfig::new()
                .with_decode_padding_mode(base64::engine::DecodePaddingMode::Indifferent),
        );
        FORGIVING.decode(cleaned).ok()?
    } else {
        bytes
    };
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

fn percent_decode(s: &str) -> Vec<u8> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, ..) => {
                out.push(b);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style_of(html: &str, opts: &StyleOptions) -> ElementStyle {
        let dom = Dom::parse(html);
        let styles = Styles::build(&dom, opts);
        let (id, _) = dom
            .elements()
            .find(|(_, e)| e.has_attr(&html5ever::LocalName::from("data-t")))
            .expect("target");
        styles.get(id)
    }

    /// A phone's viewport, for `@media` rules.
    fn phone() -> StyleOptions {
        StyleOptions {
            viewport: Viewport {
                width: 390,
                height: 844,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    fn hidden(html: &str) -> bool {
        style_of(html, &StyleOptions::default()).display_none == Some(true)
    }

    #[test]
    fn packing_round_trips() {
        // An element nothing applies to packs to 0, which `build` reads as "no style".
        assert_eq!(ElementStyle::default().pack(), 0);
        for bits in 0u16..(1 << 10) {
            let s = ElementStyle::unpack(bits);
            assert_eq!(ElementStyle::unpack(s.pack()), s);
        }
    }

    #[test]
    fn a_hydration_guard_hides_nothing() {
        let invisible =
            |html: &str| style_of(html, &StyleOptions::default()).visibility_hidden == Some(true);
        // A rule that hides custom elements by name until their scripts run hides nothing,
        // nor what it lists beside them; the same rule without a custom element, or with one
        // only as an ancestor, still hides.
        assert!(!invisible(
            "<style>[slot], x-copy, .wrap{visibility:hidden}</style><h1>A</h1><div class=wrap data-t><p>x"
        ));
        assert!(!invisible(
            "<style>x-card:not(:defined){visibility:hidden}</style><h1>A</h1><x-card data-t><p>x</x-card>"
        ));
        assert!(invisible(
            "<style>[slot], .wrap{visibility:hidden}</style><h1>A</h1><div class=wrap data-t><p>x"
        ));
        assert!(invisible(
            "<style>x-card .n{visibility:hidden}</style><h1>A</h1><x-card><p class=n data-t></x-card>"
        ));
    }

    #[test]
    fn a_sheet_never_hides_the_one_main() {
        let shown = |html: &str| {
            let s = style_of(html, &StyleOptions::default());
            s.display_none != Some(true) && s.visibility_hidden != Some(true)
        };
        assert!(shown("<style>main{visibility:hidden}</style><main data-t>"));
        assert!(shown(
            "<style>main{display:none!important}</style><main data-t>"
        ));
        // The page's own `style` attribute stands, and so does a rule where two mains are.
        assert!(!shown("<main style='display:none' data-t>"));
        assert!(!shown(
            "<style>main.old{display:none}</style><main></main><main class=old data-t>"
        ));
    }

    #[test]
    fn framework_classes_hide_as_their_frameworks_do() {
        let phone = phone();
        let on_phone = |html: &str| style_of(html, &phone).display_none == Some(true);
        // Hidden everywhere: Invision's share menus, Bootstrap's and Tailwind's utilities.
        assert!(hidden("<div class='ipsMenu ipsHide' data-t>"));
        assert!(hidden("<p class='d-none' data-t>"));
        assert!(hidden("<p class='text-sm hidden' data-t>"));
        assert!(
            style_of("<p class=invisible data-t>", &StyleOptions::default()).visibility_hidden
                == Some(true)
        );
        // A desktop copy shows on the (1280 px) desktop and hides on a phone; a mobile copy
        // the other way round.
        for desktop in [
            "<p class='d-none d-lg-block' data-t>",
            "<p class='hidden md:flex' data-t>",
            "<p class='visible-lg' data-t>",
            "<p class='show-for-large' data-t>",
            "<p class='hidden-md-down' data-t>",
            "<aside class='cAuthorPane ipsResponsive_hidePhone' data-t>",
            "<div class='visible-desktop' data-t>",
            "<div class='elementor-element elementor-hidden-mobile' data-t>",
            "<p class='max-md:hidden' data-t>",
            "<ul class='ipsResponsive_showDesktop ipsResponsive_block' data-t>",
        ] {
            assert!(!hidden(desktop), "{desktop}");
            assert!(on_phone(desktop), "{desktop}");
        }
        for mobile in [
            "<p class='d-lg-none' data-t>",
            "<p class='lg:hidden' data-t>",
            "<p class='hidden-lg' data-t>",
            "<p class='is-hidden-desktop' data-t>",
            "<p class='uk-hidden@m' data-t>",
            "<p class='hidden-md-up' data-t>",
            "<div class='cAuthorPane_mobile ipsResponsive_showPhone' data-t>",
            "<ul class='ipsResponsive_hideDesktop' data-t>",
            "<div class='hidden-desktop' data-t>",
            "<div class='visible-phone' data-t>",
            "<div class='elementor-element elementor-hidden-desktop' data-t>",
            "<p class='hidden max-md:flex' data-t>",
        ] {
            assert!(hidden(mobile), "{mobile}");
            assert!(!on_phone(mobile), "{mobile}");
        }
        // Invision says how a device's copy shows: inline, its text runs into its line.
        let desktop_inline = "<span class='ipsResponsive_showDesktop ipsResponsive_inline' data-t>";
        assert_eq!(
            style_of(desktop_inline, &StyleOptions::default()).display_inline,
            Some(true)
        );
        assert!(on_phone(desktop_inline));
        // Tailwind's max-* variants hold below their breakpoint: 2xl is 1536 px.
        assert!(hidden("<p class='max-2xl:hidden' data-t>"));
        assert!(!hidden("<p class='max-xl:hidden' data-t>"));
        // The page's own word wins, whatever its specificity; the option that ignores the
        // page's sheets ignores these too.
        assert!(!hidden(
            "<style>p{display:block}</style><p class=hidden data-t>"
        ));
        assert!(!hidden("<p class=hidden style='display:flex' data-t>"));
        let off = StyleOptions {
            ignore_stylesheets: true,
            ..Default::default()
        };
        assert_eq!(style_of("<p class=hidden data-t>", &off).display_none, None);
        // What holds the page is a loading state a script lifts, not hidden content.
        assert!(!hidden(
            "<div class='root hide' data-t><main><p>text</main></div>"
        ));
        assert!(!hidden(
            "<div class='page hidden' data-t><h1>Title</h1></div>"
        ));
        assert!(hidden(
            "<h1>Title</h1><div class='page hidden' data-t><h1>Other</h1></div>"
        ));
        // A closed modal or popup hides, whatever the order of its classes; a site's own
        // `modal` box is the site's to show or hide.
        assert!(hidden("<div class='modal fade' role=dialog data-t>"));
        assert!(hidden("<div class='fade c-menu modal' data-t>"));
        assert!(hidden(
            "<div class='elementor elementor-location-popup' data-t>"
        ));
        assert!(!hidden("<div class='modal login_window' data-t>"));
        assert!(!hidden("<div class='fade' data-t>"));
    }

    #[test]
    fn every_framework_rule_is_read() {
        let viewport = Viewport::default();
        let mut sheets = Sheets::new(&viewport, None);
        sheets.add(FRAMEWORKS);
        let read = Frameworks::read(&viewport);
        let filed: usize = read.by_class.values().map(Vec::len).sum();
        assert_eq!(
            filed,
            sheets.rules.len(),
            "a selector of frameworks.css is not a class compound"
        );
    }

    #[test]
    fn a_script_state_in_the_page_is_hidden() {
        let state = format!(
            r#"{{"painterId":"Grid","asins":[{}],"limit":20}}"#,
            (0..30)
                .map(|i| format!(r#""B0{i:08}""#))
                .collect::<Vec<_>>()
                .join(",")
        );
        assert!(hidden(&format!(
            "<div class=grid-state data-t>{state}</div>"
        )));
        assert!(hidden(&format!("<div data-t>\n  {state}\n</div>")));
        // Shown: JSON a page presents (code blocks, a sentence around it), short JSON, text
        // that only looks like JSON, and a page rule that shows the element.
        assert!(!hidden(&format!("<pre data-t>{state}</pre>")));
        assert!(!hidden(&format!("<pre><span data-t>{state}</span></pre>")));
        assert!(!hidden(&format!("<p data-t>The reply is {state}</p>")));
        assert!(!hidden(&format!(
            "<p data-t>{state} <b>is the reply</b></p>"
        )));
        assert!(!hidden(r#"<p data-t>{"a": 1}</p>"#));
        assert!(!hidden(&format!(
            "<p data-t>{{{}</p>",
            "not json, ".repeat(30)
        )));
        assert!(!hidden(&format!(
            "<style>.grid-state{{display:block}}</style><div class=grid-state data-t>{state}</div>"
        )));
        // Deep nesting is skipped over without recursion: no stack overflow.
        assert!(hidden(&format!(
            "<p data-t>{}{}</p>",
            "[".repeat(100_000),
            "]".repeat(100_000)
        )));
    }

    #[test]
    fn a_fade_in_around_the_headline_is_a_loading_state() {
        let zero = |html: &str| style_of(html, &StyleOptions::default()).opacity_zero;
        // Server-rendered first frame of a page transition: the headline and its article.
        assert!(!zero(
            "<div style='opacity:0' data-t><h1>Title</h1><p>Text</p></div>"
        ));
        // Elsewhere the page's own style hides: a card fading in, a planted note, a second
        // headline after the page's first.
        assert!(zero(
            "<h1>Title</h1><div style='opacity:0' data-t><p>Note</p></div>"
        ));
        assert!(zero(
            "<h1>Title</h1><div style='opacity:0' data-t><h1>Other</h1></div>"
        ));
        // Not a licence for other hiding: `display: none` there still hides.
        assert!(hidden(
            "<div style='display:none' data-t><h1>Title</h1></div>"
        ));
    }

    #[test]
    fn an_entrance_animations_first_frame_is_no_hiding() {
        let zero = |html: &str| style_of(html, &StyleOptions::default()).opacity_zero;
        // Waiting off its place for a scroll-triggered entrance (framer-motion, GSAP), or
        // driven by Webflow's interactions: shown once the page runs.
        for html in [
            "<h1>Title</h1><section style='opacity:0;transform:translateY(40px)' data-t>",
            "<h1>Title</h1><div style='transform: matrix(1, 0, 0, 1, 0, 30); opacity: 0' data-t>",
            "<h1>Title</h1><p style='will-change:transform;opacity:0;transform:none' data-t>",
            "<h1>Title</h1><div data-w-id=19390221-462a style='opacity:0' data-t>",
        ] {
            assert!(!zero(html), "{html}");
        }
        // Without the movement, beside the headline: hidden. A sheet's transform moves
        // nothing here (only the attribute's first frame counts).
        for html in [
            "<h1>Title</h1><div style='opacity:0' data-t>",
            "<h1>Title</h1><div style='opacity:0;transition:opacity .25s' data-t>",
            "<h1>Title</h1><div style='opacity:0;transform:none;will-change:auto' data-t>",
            "<style>.m{transform:translateY(4px)}</style><h1>T</h1><p class=m style='opacity:0' data-t>",
        ] {
            assert!(zero(html), "{html}");
        }
    }

    #[test]
    fn a_sheets_visibility_hidden_around_the_headline_is_a_loading_state() {
        let vis = |html: &str| style_of(html, &StyleOptions::default()).visibility_hidden;
        let sheet = "<style>.invisible{visibility:hidden} .gone{display:none}</style>";
        // The headline's block before its fade-in (Elementor's `elementor-invisible`).
        assert_eq!(
            vis(&format!(
                "{sheet}<div class=invisible data-t><h1>Title</h1></div>"
            )),
            None
        );
        // A block beside the headline, a second headline, a `style` attribute: hidden.
        for html in [
            "<h1>Title</h1><div class=invisible data-t><p>Note</p></div>",
            "<h1>Title</h1><div class=invisible data-t><h1>Other</h1></div>",
            "<div style='visibility:hidden' data-t><h1>Title</h1></div>",
        ] {
            assert_eq!(vis(&format!("{sheet}{html}")), Some(true), "{html}");
        }
        // A sheet's `display: none` on the headline's copy still hides.
        assert!(hidden(&format!(
            "{sheet}<div class=gone data-t><h1>Title</h1></div>"
        )));
    }

    #[test]
    fn cascade_order() {
        assert!(hidden("<style>.n{display:none}</style><p class=n data-t>"));
        assert!(!hidden(
            "<style>.n{display:none} .n{display:block}</style><p class=n data-t>"
        ));
        assert!(
            !hidden("<style>#i{display:block} .n{display:none}</style><p id=i class=n data-t>"),
            "specificity"
        );
        assert!(hidden(
            "<style>#i{display:block} .n{display:none!important}</style><p id=i class=n data-t>"
        ));
        assert!(
            hidden(
                "<style>.n{display:none!important}</style><p class=n style='display:block' data-t>"
            ),
            "important beats inline"
        );
        assert!(
            !hidden("<style>.n{display:none}</style><p class=n style='display:block' data-t>"),
            "inline beats normal"
        );
        assert!(!hidden("<style>.n{display:none!important}</style><p class=n style='display:block!important' data-t>"));
        assert!(hidden("<style>@layer a{.n{display:none!important}} .n{display:block!important}</style><p class=n data-t>"), "important: earlier layer wins");
        assert!(!hidden("<style>@layer a{#i.n{display:none}} .n{display:block}</style><p id=i class=n data-t>"), "normal: unlayered wins");
        assert!(hidden(
            "<style>div > p.n{display:none}</style><div><p class=n data-t></div>"
        ));
        assert!(!hidden(
            "<style>section > p.n{display:none}</style><div><p class=n data-t></div>"
        ));
        assert!(hidden(
            "<style>[data-x=\"1\"]{display:none}</style><p data-x=1 data-t>"
        ));
        assert!(hidden("<style>:is(nav, main) :where(.a){display:none}</style><main><b class=a data-t></b></main>"));
        assert!(hidden(
            "<style>li:not(:first-child){display:none}</style><ul><li>a<li data-t>b</ul>"
        ));
        assert!(hidden(
            "<style>x-menu:not(:defined){display:none}</style><x-menu data-t></x-menu>"
        ));
        assert!(!hidden(
            "<style>.n:hover{display:none}</style><p class=n data-t>"
        ));
        assert!(hidden(
            "<style>.n::before, .n{display:none}</style><p class=n data-t>"
        ));
        assert!(!hidden(
            "<style media=print>.n{display:none}</style><p class=n data-t>"
        ));
        assert!(hidden(
            "<link rel=stylesheet href='data:text/css,.n%7Bdisplay:none%7D'><p class=n data-t>"
        ));
        assert!(hidden("<link rel=stylesheet href='data:text/css;base64,Lm57ZGlzcGxheTpub25lfQ=='><p class=n data-t>"));
        assert!(!hidden("<link rel='alternate stylesheet' href='data:text/css,.n{display:none}'><p class=n data-t>"));
        assert!(!hidden(
            "<style type=text/less>.n{display:none}</style><p class=n data-t>"
        ));
        assert!(!hidden(
            "<template><style>.n{display:none}</style></template><p class=n data-t>"
        ));
    }

    #[test]
    fn media_follows_the_viewport() {
        let html = "<style>@media (max-width: 767px){.desk{display:none}} @media (min-width: 768px){.mob{display:none}}</style><p class=mob data-t>";
        assert!(hidden(html));
        let phone = phone();
        assert_eq!(style_of(html, &phone).display_none, None);
        let off = StyleOptions {
            ignore_stylesheets: true,
            ..Default::default()
        };
        assert_eq!(style_of(html, &off).display_none, None);
    }

    #[test]
    fn text_transform_is_inherited() {
        let s = style_of(
            "<style>nav{text-transform:uppercase}</style><nav><ul><li><a data-t>x</a></ul></nav>",
            &StyleOptions::default(),
        );
        assert_eq!(s.text_transform, TextTransform::Uppercase);
        let s = style_of(
            "<nav style='text-transform:uppercase'><a style='text-transform:none' data-t>x</a></nav>",
            &StyleOptions::default(),
        );
        assert_eq!(s.text_transform, TextTransform::None);
    }
}
