//! The page's own style sheets → the rules that decide what a person sees.
//!
//! Parsed with `cssparser` the way browsers recover from errors: a bad declaration is dropped up
//! to its `;`, a bad rule (an unknown selector, a missing brace) up to its block, and parsing
//! goes on (<https://drafts.csswg.org/css-syntax-3/#error-handling>). Only declarations of the
//! properties in [`Decls`] are kept, and a rule that sets none of them is dropped before its
//! selector is even parsed: most of a real sheet is colours and margins.

use cssparser::{
    match_ignore_ascii_case, AtRuleParser, CowRcStr, DeclarationParser, ParseError, Parser,
    ParserState, QualifiedRuleParser, RuleBodyItemParser, RuleBodyParser, StyleSheetParser,
};
use selectors::parser::{ParseRelative, Selector, SelectorList};

use super::media::Viewport;
use crate::parse::select::{Impl, SelectorParser};
use crate::text::TextTransform;

/// `@media`, `@supports` and `@layer` blocks nested deeper than this are skipped: real sheets
/// nest two or three, and each level is a call.
const MAX_BLOCK_NESTING: usize = 32;

/// The computed `display` classes the snapshot tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Display {
    None,
    /// `inline` or `contents`: text runs into its neighbours'.
    Inline,
    /// Every other box (block, flex, grid, inline-block…): a word of its own.
    Other,
}

/// One declared value and whether it is `!important`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decl<T> {
    pub value: T,
    pub important: bool,
}

/// The declarations of one rule or `style` attribute that the snapshot reads. Within one
/// block a later declaration of a property wins, unless only the earlier one is `!important`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Decls {
    pub display: Option<Decl<Display>>,
    /// `Some(true)`: hidden or collapse; `Some(false)`: visible; `None`: inherit.
    pub visibility: Option<Decl<Option<bool>>>,
    /// `content-visibility: hidden`.
    pub content_hidden: Option<Decl<bool>>,
    /// `None`: inherit.
    pub text_transform: Option<Decl<Option<TextTransform>>>,
    /// Only read from `style` attributes (see the module docs of [`crate::style`]).
    pub opacity_zero: Option<Decl<bool>>,
    /// Only read from `style` attributes.
    pub cursor_pointer: Option<Decl<bool>>,
}

impl Decls {
    /// Whether no property the snapshot reads is declared.
    pub fn is_empty(&self) -> bool {
        *self == Decls::default()
    }

    /// Parses a declaration list (a `style` attribute or a rule's block).
    pub fn parse(css: &str) -> Decls {
        let mut decls = Decls::default();
        decls.parse_block(&mut Parser::new(css));
        decls
    }

    fn parse_block(&mut self, input: &mut Parser<'_>) {
        let mut parser = DeclParser(self);
        for _ in RuleBodyParser::new(input, &mut parser) {}
    }

    /// These declarations without those that hide (`display: none`, `visibility: hidden`,
    /// `content-visibility: hidden`, `opacity: 0`).
    pub fn without_hiding(self) -> Decls {
        Decls {
            display: self.display.filter(|d| d.value != Display::None),
            visibility: self.visibility.filter(|d| d.value != Some(true)),
            content_hidden: None,
            opacity_zero: None,
            ..self
        }
    }

    /// The declarations that only hide (for a selector too costly to match exactly).
    pub fn hiding_only(&self) -> Decls {
        Decls {
            display: self.display.filter(|d| d.value == Display::None),
            visibility: self.visibility.filter(|d| d.value == Some(true)),
            content_hidden: self.content_hidden.filter(|d| d.value),
            ..Decls::default()
        }
    }
}

fn set<T>(slot: &mut Option<Decl<T>>, value: T, important: bool) {
    if slot.as_ref().is_some_and(|d| d.important && !important) {
        return;
    }
    *slot = Some(Decl { value, important });
}

/// Reads declarations into [`Decls`]; everything else is a parse error, i.e. dropped.
struct DeclParser<'d>(&'d mut Decls);

impl<'i> DeclarationParser<'i> for DeclParser<'_> {
    type Declaration = ();
    type Error = ();

    fn parse_value(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
        _start: &ParserState,
    ) -> Result<(), ParseError<()>> {
        enum Prop {
            Display,
            Visibility,
            ContentVisibility,
            TextTransform,
            Opacity,
            Cursor,
        }
        let prop = match_ignore_ascii_case! { &name,
            "display" => Prop::Display,
            "visibility" => Prop::Visibility,
            "content-visibility" => Prop::ContentVisibility,
            "text-transform" => Prop::TextTransform,
            "opacity" => Prop::Opacity,
            "cursor" => Prop::Cursor,
            _ => return Err(ParseError::custom(())),
        };
        let d = &mut *self.0;
        if let Prop::Opacity = prop {
            let zero = match input.next()? {
                cssparser::Token::Number { value, .. } => *value == 0.0,
                cssparser::Token::Percentage { unit_value, .. } => *unit_value == 0.0,
                _ => return Err(ParseError::custom(())),
            };
            let important = important(input)?;
            set(&mut d.opacity_zero, zero, important);
            return Ok(());
        }
        // The other properties take keywords.
        let mut words: Vec<CowRcStr<'i>> = Vec::new();
        while let Ok(word) = input.try_parse(|i| i.expect_ident_cloned()) {
            words.push(word);
            if words.len() > 3 {
                return Err(ParseError::custom(()));
            }
        }
        let important = important(input)?;
        let [first, rest @ ..] = words.as_slice() else {
            return Err(ParseError::custom(()));
        };
        let invalid = || Err(ParseError::custom(()));
        let single = rest.is_empty();
        let global = single
            && matches!(
                first.to_ascii_lowercase().as_str(),
                "inherit" | "initial" | "unset" | "revert" | "revert-layer"
            );
        match prop {
            Prop::Display => {
                let value = match display(first, rest) {
                    Some(v) => v,
                    // `initial` and `unset` are `inline`; `inherit` and `revert` (to the UA
                    // sheet) are left to the element's default.
                    None if global => match first.to_ascii_lowercase().as_str() {
                        "initial" | "unset" => Display::Inline,
                        _ => return invalid(),
                    },
                    None => return invalid(),
                };
                set(&mut d.display, value, important);
            }
            Prop::Visibility if single => {
                let value = match_ignore_ascii_case! { first,
                    "hidden" | "collapse" => Some(true),
                    "visible" | "initial" => Some(false),
                    "inherit" | "unset" | "revert" | "revert-layer" => None,
                    _ => return invalid(),
                };
                set(&mut d.visibility, value, important);
            }
            Prop::ContentVisibility if single => {
                let value = match_ignore_ascii_case! { first,
                    "hidden" => true,
                    "visible" | "auto" | "initial" | "unset" | "revert" | "revert-layer" => false,
                    _ => return invalid(),
                };
                set(&mut d.content_hidden, value, important);
            }
            Prop::TextTransform => {
                let value = match_ignore_ascii_case! { first,
                    "uppercase" => Some(TextTransform::Uppercase),
                    "lowercase" => Some(TextTransform::Lowercase),
                    "capitalize" => Some(TextTransform::Capitalize),
                    "none" | "initial" | "full-width" | "full-size-kana" => Some(TextTransform::None),
                    "inherit" | "unset" | "revert" | "revert-layer" => None,
                    _ => return invalid(),
                };
                set(&mut d.text_transform, value, important);
            }
            Prop::Cursor if single => set(
                &mut d.cursor_pointer,
                first.eq_ignore_ascii_case("pointer"),
                important,
            ),
            _ => return invalid(),
        }
        Ok(())
    }
}

/// An optional `!important`, then the end of the value.
fn important<'i>(input: &mut Parser<'i>) -> Result<bool, ParseError<()>> {
    let important = input.try_parse(cssparser::parse_important).is_ok();
    input.expect_exhausted()?;
    Ok(important)
}

/// A `display` value (<https://drafts.csswg.org/css-display-3/#the-display-properties>):
/// one keyword or the two-keyword form; `None` for anything else.
fn display(first: &str, rest: &[CowRcStr<'_>]) -> Option<Display> {
    const OTHER: &[&str] = &[
        "block",
        "inline-block",
        "flex",
        "inline-flex",
        "grid",
        "inline-grid",
        "table",
        "inline-table",
        "table-row-group",
        "table-header-group",
        "table-footer-group",
        "table-row",
        "table-cell",
        "table-column-group",
        "table-column",
        "table-caption",
        "list-item",
        "flow-root",
        "run-in",
        "ruby",
        "ruby-base",
        "ruby-text",
        "ruby-base-container",
        "ruby-text-container",
        "math",
        "flow",
        "-webkit-box",
        "-webkit-inline-box",
        "-webkit-flex",
        "-webkit-inline-flex",
        "-ms-flexbox",
        "-ms-inline-flexbox",
        "-ms-grid",
        "-ms-inline-grid",
        "-moz-box",
        "-moz-inline-box",
    ];
    let lower = first.to_ascii_lowercase();
    let known = |w: &str| {
        let w = w.to_ascii_lowercase();
        w == "inline" || w == "contents" || w == "none" || OTHER.contains(&w.as_str())
    };
    match (lower.as_str(), rest) {
        ("none", []) => Some(Display::None),
        ("inline" | "contents", []) => Some(Display::Inline),
        (w, []) if OTHER.contains(&w) => Some(Display::Other),
        // `inline flow` is plain inline; every other pair is some box of its own.
        ("inline", [second]) if second.eq_ignore_ascii_case("flow") => Some(Display::Inline),
        (w, more) if known(w) && more.iter().all(|m| known(m)) && !more.is_empty() => {
            Some(Display::Other)
        }
        _ => None,
    }
}

impl<'i> AtRuleParser<'i> for DeclParser<'_> {
    type Prelude = ();
    type AtRule = ();
    type Error = ();
}

impl<'i> QualifiedRuleParser<'i> for DeclParser<'_> {
    type Prelude = ();
    type QualifiedRule = ();
    type Error = ();
}

impl<'i> RuleBodyItemParser<'i, (), ()> for DeclParser<'_> {
    fn parse_declarations(&self) -> bool {
        true
    }
    fn parse_qualified(&self) -> bool {
        false
    }
}

/// One selector of a kept rule, with its declarations and cascade position.
pub struct Rule {
    pub selector: Selector<Impl>,
    pub decls: Decls,
    /// Source order over all of the page's sheets.
    pub order: u32,
    /// Cascade layer rank: `u16::MAX` for rules outside any `@layer`.
    pub layer: u16,
}

/// The property names this stage reads (`content-visibility` contains `visibility`).
const READ_PROPERTIES: [&[u8]; 5] = [
    b"display",
    b"visibility",
    b"text-transform",
    b"opacity",
    b"cursor",
];

/// `css` without the style rules that cannot set a property this stage reads: a page's
/// sheet is mostly colours and boxes, and tokenizing all of it was most of the stage's time
/// (1 MB of CSS on a news page: 55 M instructions). A rule is left out only when its text
/// has none of the property names in any case, no `@` and no backslash (an escaped name,
/// `disp\lay`, must reach the parser); rules inside `@media`, `@supports`, `@layer` and
/// `@container` blocks are filtered the same way, other at-rules are kept whole. Strings,
/// comments and brackets are followed as CSS tokenizes them, and anything unbalanced keeps
/// the sheet whole: the parser then sees exactly what the page wrote.
fn relevant_rules(css: &str) -> std::borrow::Cow<'_, str> {
    let lower = css.to_ascii_lowercase();
    let finders = READ_PROPERTIES.map(memchr::memmem::Finder::new);
    let cx = Filter {
        css,
        lower: lower.as_bytes(),
        finders: &finders,
    };
    let mut out = String::with_capacity(css.len() / 2);
    match cx.rules(0, css.len(), &mut out, 0) {
        Ok(()) => std::borrow::Cow::Owned(out),
        Err(()) => std::borrow::Cow::Borrowed(css),
    }
}

/// Group rules whose blocks hold style rules (filtered inside, to this nesting depth).
const GROUP_RULES: [&str; 4] = ["media", "supports", "layer", "container"];
const MAX_GROUP_DEPTH: u32 = 8;

/// Bytes the filter stops at; it skips the rest in a tight loop.
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut k = 0;
    let special = b"/\"'{}()[];@\\";
    while k < special.len() {
        t[special[k] as usize] = true;
        k += 1;
    }
    t
};

struct Filter<'a> {
    css: &'a str,
    /// `css` in ASCII lower case, for the property names in any case.
    lower: &'a [u8],
    finders: &'a [memchr::memmem::Finder<'static>; 5],
}

impl Filter<'_> {
    /// Copies to `out` the rules of `css[from..to]` that may matter.
    fn rules(&self, from: usize, to: usize, out: &mut String, depth: u32) -> Result<(), ()> {
        let (css, bytes) = (self.css, self.css.as_bytes());
        let mut unit_start = from;
        // Whether the unit holds a `@` or a backslash, and where its block opens.
        let mut marked = false;
        let mut block_open = from;
        let mut closers: Vec<u8> = Vec::new();
        let mut i = from;
        while i < to {
            if !SPECIAL[usize::from(bytes[i])] {
                i += 1;
                continue;
            }
            let b = bytes[i];
            match b {
                b'/' if i + 1 < to && bytes[i + 1] == b'*' => {
                    let end = memchr::memmem::find(&bytes[i + 2..to], b"*/").ok_or(())?;
                    i += end + 4;
                    continue;
                }
                b'"' | b'\'' => {
                    i += 1;
                    while i < to && bytes[i] != b && bytes[i] != b'\n' {
                        marked |= bytes[i] == b'\\';
                        i += if bytes[i] == b'\\' { 2 } else { 1 };
                    }
                }
                b'@' => marked = true,
                // An escaped character (`.a\\{`) is part of a name, never a bracket.
                b'\\' => {
                    marked = true;
                    i += 2;
                    continue;
                }
                b'{' => {
                    if closers.is_empty() {
                        block_open = i;
                    }
                    closers.push(b'}');
                }
                b'(' => closers.push(b')'),
                b'[' => closers.push(b']'),
                b';' if closers.is_empty() && self.is_at_rule(unit_start, i) => {
                    // An at-rule statement (`@import`, `@layer a, b;`): kept.
                    out.push_str(&css[unit_start..=i]);
                    unit_start = i + 1;
                    marked = false;
                }
                b'}' | b')' | b']' => {
                    if closers.pop() != Some(b) {
                        return Err(());
                    }
                    if b == b'}' && closers.is_empty() {
                        self.unit(unit_start, block_open, i, marked, out, depth)?;
                        unit_start = i + 1;
                        marked = false;
                    }
                }
                _ => {}
            }
            i += 1;
        }
        if !closers.is_empty() || i > to {
            return Err(());
        }
        out.push_str(&css[unit_start..to]);
        Ok(())
    }

    /// Whether the unit starting at `start` is an at-rule (its first significant byte `@`).
    fn is_at_rule(&self, start: usize, end: usize) -> bool {
        self.css[start..end].trim_start().starts_with('@')
    }

    /// One unit `css[start..=close]`, its block opening at `open`.
    fn unit(
        &self,
        start: usize,
        open: usize,
        close: usize,
        marked: bool,
        out: &mut String,
        depth: u32,
    ) -> Result<(), ()> {
        let css = self.css;
        if self.is_at_rule(start, open) {
            let keyword = css[start..open]
                .trim_start()
                .trim_start_matches('@')
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
                .next()
                .unwrap_or("");
            if depth < MAX_GROUP_DEPTH
                && GROUP_RULES.iter().any(|k| keyword.eq_ignore_ascii_case(k))
            {
                out.push_str(&css[start..=open]);
                self.rules(open + 1, close, out, depth + 1)?;
                out.push('}');
            } else {
                out.push_str(&css[start..=close]);
            }
        } else if marked
            || self
                .finders
                .iter()
                .any(|f| f.find(&self.lower[start..=close]).is_some())
        {
            out.push_str(&css[start..=close]);
        }
        Ok(())
    }
}

/// The page's sheets, parsed in document order.
pub struct Sheets<'v> {
    viewport: &'v Viewport,
    pub rules: Vec<Rule>,
    order: u32,
    /// Layer names in the order they first appear (their rank is the position).
    layers: Vec<String>,
}

impl<'v> Sheets<'v> {
    pub fn new(viewport: &'v Viewport) -> Sheets<'v> {
        Sheets {
            viewport,
            rules: Vec::new(),
            order: 0,
            layers: Vec::new(),
        }
    }

    /// Adds one sheet (the text of a `<style>` or of a `data:` stylesheet).
    pub fn add(&mut self, css: &str) {
        let css = relevant_rules(css);
        let mut input = Parser::new(&css);
        let mut top = RuleParser {
            sheets: self,
            depth: 0,
            layer: u16::MAX,
            layer_name: String::new(),
        };
        for _ in StyleSheetParser::new(&mut input, &mut top) {}
    }

    /// The rank of a layer name, registering it the first time it is seen.
    fn layer(&mut self, name: String) -> u16 {
        if let Some(i) = self.layers.iter().position(|l| *l == name) {
            return i as u16;
        }
        // Past 65 534 layers, later ones share the last rank (only a hostile sheet has that
        // many); unlayered rules keep u16::MAX.
        let rank = self.layers.len().min(usize::from(u16::MAX - 1)) as u16;
        if self.layers.len() < usize::from(u16::MAX - 1) {
            self.layers.push(name);
        }
        rank
    }
}

/// Rules at the top level of a sheet or inside a conditional block.
struct RuleParser<'s, 'v> {
    sheets: &'s mut Sheets<'v>,
    depth: usize,
    layer: u16,
    /// The dotted name of the enclosing layer (`""` outside layers).
    layer_name: String,
}

/// What an at-rule's prelude said.
enum AtPrelude {
    /// `@media` (whether it matches the viewport), `@supports` (taken as true).
    Conditional(bool),
    /// `@layer name { … }` or an anonymous `@layer { … }`: the layer's rank.
    LayerBlock(u16, String),
    /// `@layer a, b;`: the names, declared in this order.
    LayerStatement,
}

impl<'i> AtRuleParser<'i> for RuleParser<'_, '_> {
    type Prelude = AtPrelude;
    type AtRule = ();
    type Error = ();

    fn parse_prelude(
        &mut self,
        name: CowRcStr<'i>,
        input: &mut Parser<'i>,
    ) -> Result<AtPrelude, ParseError<()>> {
        match_ignore_ascii_case! { &name,
            "media" => Ok(AtPrelude::Conditional(self.sheets.viewport.matches(input))),
            "supports" => {
                while input.next().is_ok() {}
                Ok(AtPrelude::Conditional(true))
            },
            "layer" => {
                let mut names = Vec::new();
                while !input.is_exhausted() {
                    let mut full = self.layer_name.clone();
                    loop {
                        let part = input.expect_ident_cloned()?;
                        if !full.is_empty() {
                            full.push('.');
                        }
                        full.push_str(&part);
                        if input.try_parse(|i| i.expect_delim('.')).is_err() {
                            break;
                        }
                    }
                    names.push(full);
                    if !input.is_exhausted() {
                        input.expect_comma()?;
                    }
                }
                if names.len() > 1 {
                    for n in names {
                        self.sheets.layer(n);
                    }
                    return Ok(AtPrelude::LayerStatement);
                }
                // Anonymous: a layer of its own that nothing else can name.
                let name = names.pop().unwrap_or_else(|| {
                    format!("{}\u{0}{}", self.layer_name, self.sheets.layers.len())
                });
                let rank = self.sheets.layer(name.clone());
                Ok(AtPrelude::LayerBlock(rank, name))
            },
            // @import (external), @font-face, @keyframes, @page, @container (needs layout)…
            _ => Err(ParseError::custom(())),
        }
    }

    fn rule_without_block(&mut self, prelude: AtPrelude, _: &ParserState) -> Result<(), ()> {
        match prelude {
            AtPrelude::LayerStatement | AtPrelude::LayerBlock(..) => Ok(()),
            AtPrelude::Conditional(_) => Err(()),
        }
    }

    fn parse_block(
        &mut self,
        prelude: AtPrelude,
        _: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<(), ParseError<()>> {
        if self.depth >= MAX_BLOCK_NESTING {
            return Err(ParseError::custom(()));
        }
        let (layer, layer_name) = match prelude {
            AtPrelude::Conditional(false) | AtPrelude::LayerStatement => {
                return Err(ParseError::custom(()))
            }
            AtPrelude::Conditional(true) => (self.layer, self.layer_name.clone()),
            AtPrelude::LayerBlock(rank, name) => (rank, name),
        };
        let mut nested = RuleParser {
            sheets: &mut *self.sheets,
            depth: self.depth + 1,
            layer,
            layer_name,
        };
        for _ in StyleSheetParser::new(input, &mut nested) {}
        Ok(())
    }
}

impl<'i> QualifiedRuleParser<'i> for RuleParser<'_, '_> {
    /// The selector text, parsed only if the block declares something the snapshot reads.
    type Prelude = &'i str;
    type QualifiedRule = ();
    type Error = ();

    fn parse_prelude(&mut self, input: &mut Parser<'i>) -> Result<&'i str, ParseError<()>> {
        let start = input.position();
        while input.next().is_ok() {}
        Ok(input.slice_from(start))
    }

    fn parse_block(
        &mut self,
        prelude: &'i str,
        _: &ParserState,
        input: &mut Parser<'i>,
    ) -> Result<(), ParseError<()>> {
        let mut decls = Decls::default();
        decls.parse_block(input);
        // `opacity` and `cursor` count from `style` attributes only (see the module doc):
        // fade-in classes start at `opacity: 0` and a script reveals them.
        decls.opacity_zero = None;
        decls.cursor_pointer = None;
        if decls.is_empty() {
            return Ok(());
        }
        let list = SelectorList::parse(
            &SelectorParser,
            &mut Parser::new(prelude),
            ParseRelative::No,
        )
        .map_err(|_| ParseError::custom(()))?;
        let order = self.sheets.order;
        self.sheets.order = order.saturating_add(1);
        for selector in list.slice() {
            if selector.has_pseudo_element() {
                continue;
            }
            self.sheets.rules.push(Rule {
                selector: selector.clone(),
                decls,
                order,
                layer: self.layer,
            });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_rules_that_cannot_matter_are_left_out() {
        let keep = |css: &str| relevant_rules(css).into_owned();
        // Colours go; any spelling of a property read stays.
        assert_eq!(keep(".a{color:red}.b{DISPLAY:none}"), ".b{DISPLAY:none}");
        assert_eq!(
            keep(".a{color:red} .b{cursor:pointer}"),
            " .b{cursor:pointer}"
        );
        // An escaped name, braces in strings, comments and selectors are followed.
        let escaped = ".a{disp\\lay:none}";
        assert_eq!(keep(escaped), escaped);
        assert_eq!(
            keep(".a::after{content:\"}{\"} .b{display:none}"),
            " .b{display:none}"
        );
        // (A comment goes with the rule after it.)
        assert_eq!(
            keep("/* { */.a{color:red}.b\\{{display:none}"),
            ".b\\{{display:none}"
        );
        // Group rules are filtered inside; other at-rules and statements are kept whole.
        assert_eq!(
            keep("@layer x;@media (min-width:1px){.a{color:red}.b{opacity:0}}"),
            "@layer x;@media (min-width:1px){.b{opacity:0}}"
        );
        let font = "@font-face{font-family:x}";
        assert_eq!(keep(font), font);
        // Unbalanced: the parser sees what the page wrote.
        for broken in [".a{color:red", ".a{color:red}}", ".a{x:(}", "/* open"] {
            assert_eq!(keep(broken), broken);
        }
    }

    #[test]
    fn leaving_rules_out_changes_no_computed_style() {
        let css =
            "@media (max-width:600px){.m{display:none}} .a{color:red} .b .c{visibility:hidden}\
                   .d{text-transform:uppercase} @supports (x:y){.e{display:none}.f{margin:0}}";
        let whole = {
            let v = Viewport::default();
            let mut s = Sheets::new(&v);
            let mut input = Parser::new(css);
            let mut top = RuleParser {
                sheets: &mut s,
                depth: 0,
                layer: u16::MAX,
                layer_name: String::new(),
            };
            for _ in StyleSheetParser::new(&mut input, &mut top) {}
            s.rules
                .iter()
                .map(|r| (format!("{:?}", r.decls), r.order, r.layer))
                .collect::<Vec<_>>()
        };
        let v = Viewport::default();
        let mut s = Sheets::new(&v);
        s.add(css);
        let filtered: Vec<_> = s
            .rules
            .iter()
            .map(|r| (format!("{:?}", r.decls), r.order, r.layer))
            .collect();
        assert_eq!(whole, filtered);
        // `.b .c`, `.d`, `.e` (the `@media` is for narrow screens).
        assert_eq!(filtered.len(), 3);
    }

    use super::*;

    #[test]
    fn declarations() {
        let d = Decls::parse("color:red; DISPLAY : None !important; display: block");
        assert_eq!(
            d.display,
            Some(Decl {
                value: Display::None,
                important: true
            }),
            "a normal declaration does not beat an important one in the same block"
        );
        assert_eq!(
            Decls::parse("display:none;display:flex")
                .display
                .map(|d| d.value),
            Some(Display::Other)
        );
        assert_eq!(
            Decls::parse("display:inline flow").display.map(|d| d.value),
            Some(Display::Inline)
        );
        assert!(Decls::parse("display: nonee").is_empty());
        assert!(Decls::parse("display: none garbage").is_empty());
        assert!(Decls::parse("display: var(--x)").is_empty());
        assert_eq!(
            Decls::parse("visibility:collapse")
                .visibility
                .map(|d| d.value),
            Some(Some(true))
        );
        assert_eq!(
            Decls::parse("opacity: 0.0").opacity_zero.map(|d| d.value),
            Some(true)
        );
        assert_eq!(
            Decls::parse("opacity: 0%").opacity_zero.map(|d| d.value),
            Some(true)
        );
        assert_eq!(
            Decls::parse("opacity: .5").opacity_zero.map(|d| d.value),
            Some(false)
        );
        assert_eq!(
            Decls::parse("text-transform: UPPERCASE")
                .text_transform
                .map(|d| d.value),
            Some(Some(TextTransform::Uppercase))
        );
        // Broken declarations are skipped one by one.
        let d = Decls::parse("display:;; visibility: hidden; ]] ; cursor: pointer");
        assert_eq!(d.visibility.map(|d| d.value), Some(Some(true)));
        assert_eq!(d.cursor_pointer.map(|d| d.value), Some(true));
    }

    fn rules(css: &str) -> Vec<(String, u32, u16)> {
        let vp = Viewport::default();
        let mut sheets = Sheets::new(&vp);
        sheets.add(css);
        sheets
            .rules
            .iter()
            .map(|r| {
                use cssparser::ToCss;
                (r.selector.to_css_string(), r.order, r.layer)
            })
            .collect()
    }

    #[test]
    fn rules_that_matter_are_kept() {
        let got = rules(
            "a{color:red} .x, #y::before, p:hover{display:none} @import url(x.css); \
             @media (max-width: 600px){.m{display:none}} @media screen{.d{display:none}} \
             @supports (display:grid){.s{visibility:hidden}} @font-face{font-family:x} \
             .bad{{display:none} .ok{display:none}",
        );
        let names: Vec<&str> = got.iter().map(|(s, ..)| s.as_str()).collect();
        assert_eq!(names, [".x", "p:hover", ".d", ".s"], "{got:?}");
    }

    #[test]
    fn layers_rank_by_first_appearance() {
        let got = rules(
            "@layer base, theme; @layer theme{.t{display:none}} @layer base{.b{display:none}} \
             .u{display:none} @layer{.anon{display:none}}",
        );
        let layer = |s: &str| got.iter().find(|r| r.0 == s).map(|r| r.2);
        assert_eq!(layer(".b"), Some(0));
        assert_eq!(layer(".t"), Some(1));
        assert_eq!(layer(".u"), Some(u16::MAX));
        assert_eq!(layer(".anon"), Some(2));
    }

    #[test]
    fn deep_nesting_is_cut_not_a_crash() {
        let css = "@media all{".repeat(50_000) + ".x{display:none}";
        assert!(rules(&css).is_empty());
        let css = "@media all{".repeat(10) + ".x{display:none}";
        assert_eq!(rules(&css).len(), 1);
    }
}
