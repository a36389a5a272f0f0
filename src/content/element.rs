//! What an element is, to the content stage: a block or inline, a heading, boilerplate by
//! its tag or role, what its class and id hint (Readability's unlikely, maybe, negative and
//! positive patterns, one automaton for all), a landmark of the main content, an item's
//! author pane or profile list, a post that forum software numbers, a microdata type. Each
//! question is about one element and its near neighbours; the pass ([`super::measure`])
//! asks them and records the answers as flags.
//!
//! The patterns are Mozilla Readability's (`Readability.js`: `_grabArticle`,
//! `_getClassWeight`; summarised in `docs/read.md`), with `<main>`, `<article>`, `role=main`
//! and `itemprop=articleBody` as hints Readability does not use.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use html5ever::{local_name, LocalName};

use crate::parse::{Dom, Element, NodeId};
use crate::text::{lower_words, mentions_any, TextBuf};

/// Elements that end a run of inline content (Readability's `DIV_TO_P_ELEMS` and the other
/// block containers).
pub(crate) fn is_block(el: Element<'_>) -> bool {
    el.in_html_ns()
        && matches!(
            *el.local(),
            local_name!("address")
                | local_name!("article")
                | local_name!("aside")
                | local_name!("blockquote")
                | local_name!("dd")
                | local_name!("details")
                | local_name!("div")
                | local_name!("dl")
                | local_name!("dt")
                | local_name!("fieldset")
                | local_name!("figcaption")
                | local_name!("figure")
                | local_name!("footer")
                | local_name!("form")
                | local_name!("h1")
                | local_name!("h2")
                | local_name!("h3")
                | local_name!("h4")
                | local_name!("h5")
                | local_name!("h6")
                | local_name!("header")
                | local_name!("hr")
                | local_name!("li")
                | local_name!("main")
                | local_name!("nav")
                | local_name!("ol")
                | local_name!("p")
                | local_name!("pre")
                | local_name!("section")
                | local_name!("summary")
                | local_name!("table")
                | local_name!("tbody")
                | local_name!("thead")
                | local_name!("tfoot")
                | local_name!("tr")
                | local_name!("td")
                | local_name!("th")
                | local_name!("caption")
                | local_name!("ul")
        )
}

pub(crate) fn heading_level(el: Element<'_>) -> Option<u32> {
    if !el.in_html_ns() {
        return None;
    }
    match *el.local() {
        local_name!("h1") => Some(1),
        local_name!("h2") => Some(2),
        local_name!("h3") => Some(3),
        local_name!("h4") => Some(4),
        local_name!("h5") => Some(5),
        local_name!("h6") => Some(6),
        _ => None,
    }
}

/// The first token of `role`, lower-cased, when it is one of `names`.
fn has_role(el: Element<'_>, names: &[&str]) -> bool {
    el.attr(&local_name!("role")).is_some_and(|r| {
        r.split_ascii_whitespace()
            .next()
            .is_some_and(|t| names.iter().any(|n| t.eq_ignore_ascii_case(n)))
    })
}

/// Never main content, by tag or role: Readability's unlikely roles and trafilatura's
/// deleted tags (navigation, complementary, forms and controls, dialogs, menus, alerts), and
/// a custom drop-down (`combobox`, `listbox`): its options are a control's, like a `<select>`'s.
pub(super) fn is_boilerplate(el: Element<'_>) -> bool {
    if has_role(
        el,
        &[
            "navigation",
            "complementary",
            "menu",
            "menubar",
            "alert",
            "alertdialog",
            "dialog",
            "listbox",
            "combobox",
            "banner",
            "contentinfo",
            "search",
        ],
    ) {
        return true;
    }
    if !el.in_html_ns() {
        // SVG drawings and MathML: no prose (an SVG <text> label is not article text).
        return true;
    }
    matches!(
        *el.local(),
        local_name!("nav")
            | local_name!("aside")
            | local_name!("footer")
            | local_name!("menu")
            | local_name!("dialog")
            | local_name!("button")
            | local_name!("input")
            | local_name!("select")
            | local_name!("textarea")
            | local_name!("iframe")
            | local_name!("object")
            | local_name!("embed")
            | local_name!("canvas")
            | local_name!("video")
            | local_name!("audio")
            | local_name!("map")
    )
}

/// Readability's `unlikelyCandidates` and `okMaybeItsACandidate` patterns, as substrings of
/// the lower-cased class and id.
const UNLIKELY_HINTS: &[&str] = &[
    "-ad-",
    "ai2html",
    "banner",
    "breadcrumbs",
    "combx",
    "comment",
    "community",
    "cover-wrap",
    "disqus",
    "extra",
    "footer",
    "gdpr",
    "legends",
    "menu",
    "related",
    "remark",
    "replies",
    "rss",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "social",
    "sponsor",
    "supplemental",
    "ad-break",
    "agegate",
    "pagination",
    "pager",
    "popup",
    "yom-remote",
    "cookie",
    "consent",
    // A forum post's signature (phpBB, vBulletin, MyBB, SMF, Invision): the same lines
    // under every post of its author, never the thread.
    "signature",
];
/// Words of a class or id that name a box asking for an e-mail address: a newsletter's
/// sign-up, a subscription's opt-in (`newsletter-form__wrapper`, `subscribe-widget`,
/// `signup-box`, `optin-form`).
const SIGN_UP_HINTS: &[&str] = &[
    "newsletter",
    "subscri",
    "signup",
    "sign-up",
    "optin",
    "opt-in",
];
const MAYBE_HINTS: &[&str] = &[
    "and", "article", "body", "column", "content", "main", "mathjax", "shadow",
];
/// `_getClassWeight`'s patterns, but `media`: a word of 2010's players and embeds that today's
/// CSS gives the media object, a picture with its text beside it (Bootstrap's `.media-body`,
/// OOCSS's `o-media`), where an article's body goes on after its figure. trafeval: one article
/// found (its body after the picture went with the block), 9 lost of 538 instead of 10, recall
/// 0.950 -> 0.951; web2025: F1 unchanged, some articles read their figures' alt text.
const NEGATIVE_HINTS: &[&str] = &[
    "-ad-",
    "hidden",
    "banner",
    "combx",
    "comment",
    "com-",
    "contact",
    "footer",
    "gdpr",
    "masthead",
    "meta",
    "outbrain",
    "promo",
    "related",
    "scroll",
    "share",
    "shoutbox",
    "sidebar",
    "skyscraper",
    "sponsor",
    "shopping",
    "tags",
    "widget",
];
const POSITIVE_HINTS: &[&str] = &[
    "article",
    "body",
    "content",
    "entry",
    "hentry",
    "h-entry",
    "main",
    "page",
    "pagination",
    "post",
    "text",
    "blog",
    "story",
];

/// Which hint lists a pattern is in.
const UNLIKELY_BIT: u16 = 1;
const MAYBE_BIT: u16 = 2;
const NEGATIVE_BIT: u16 = 4;
const POSITIVE_BIT: u16 = 8;
const SHARE_BIT: u16 = 16;
/// Readability's unlikely `header`, apart: a section's header inside the main landmark is
/// content (`AttrHints::header_only`).
const HEADER_BIT: u16 = 32;
const SIGNATURE_BIT: u16 = 64;
/// Readability's unlikely words that name a page's comments, apart (`AttrHints::comments`).
const COMMENTS_BIT: u16 = 128;
/// A picture's caption by its class (`wp-caption-text`, `image-caption`, `figure__caption`):
/// what a caption holds may be its picture's credit (`AttrHints::caption`).
const CAPTION_BIT: u16 = 256;
/// A picture's credit by its class (`span.credit`, `em.copyright`, `div.figure__copyright`),
/// `AttrHints::credit`.
const CREDIT_BIT: u16 = 512;
/// A sign-up box by its class (`newsletter-signup`, `subscribe-box`, `mc4wp-form`'s
/// `optin`), `AttrHints::sign_up`.
const SIGN_UP_BIT: u16 = 1024;
/// A box about the article's author by its class or id (`div.author-box`,
/// `#entry-author-info`), `AttrHints::author`.
const AUTHOR_BIT: u16 = 2048;

/// Microdata's attribute names, which are not among html5ever's static names: interned once,
/// as interning `itemprop` for each element the pass asks about was 1 % of a parse-and-read.
static ITEMPROP: LazyLock<LocalName> = LazyLock::new(|| LocalName::from("itemprop"));
static ITEMTYPE: LazyLock<LocalName> = LazyLock::new(|| LocalName::from("itemtype"));

/// Every hint list in one automaton, with the lists each pattern is in: one pass over a
/// class string answers all of them (seventy substring searches per distinct class string
/// were a twentieth of a `read`). Patterns match case-insensitively, as Readability's `/i`
/// expressions do.
static HINTS: LazyLock<(AhoCorasick, Vec<u16>)> = LazyLock::new(|| {
    let mut patterns: Vec<&str> = Vec::new();
    let mut bits: Vec<u16> = Vec::new();
    let lists: [(&[&str], u16); 12] = [
        (UNLIKELY_HINTS, UNLIKELY_BIT),
        (&["header"], HEADER_BIT),
        (MAYBE_HINTS, MAYBE_BIT),
        (NEGATIVE_HINTS, NEGATIVE_BIT),
        (POSITIVE_HINTS, POSITIVE_BIT),
        (&["share"], SHARE_BIT),
        (&["signature"], SIGNATURE_BIT),
        (&["comment", "disqus", "replies"], COMMENTS_BIT),
        (&["caption"], CAPTION_BIT),
        (&["credit", "copyright"], CREDIT_BIT),
        (SIGN_UP_HINTS, SIGN_UP_BIT),
        (&["author"], AUTHOR_BIT),
    ];
    for (list, bit) in lists {
        for &p in list {
            match patterns.iter().position(|&q| q == p) {
                Some(i) => bits[i] |= bit,
                None => {
                    patterns.push(p);
                    bits.push(bit);
                }
            }
        }
    }
    let automaton = AhoCorasick::builder()
        .ascii_case_insensitive(true)
        // The simplest automaton: a DFA searches a little faster but takes 2.5 M instructions
        // to build (this one 0.7 M), more than a page's searches, and the command line builds
        // it once per page.
        .kind(Some(AhoCorasickKind::NoncontiguousNFA))
        .build(&patterns)
        // The patterns are the constant lists above, far under the automaton's limits.
        .expect("hint patterns build an automaton");
    (automaton, bits)
});

/// The lists (`*_BIT`) some pattern of which occurs in `s`.
fn hint_lists(s: &str) -> u16 {
    let (automaton, bits) = &*HINTS;
    // Overlapping, so that a pattern inside another ("-ad-" in "-ad-break") still counts.
    automaton
        .find_overlapping_iter(s)
        .fold(0, |acc, m| acc | bits[m.pattern().as_usize()])
}

/// What a `class` or an `id` value says, matched once per distinct value (a shop's 700 cards
/// share one class string: seventy substring searches each were a tenth of the snapshot).
#[derive(Clone, Copy, Default)]
pub(super) struct AttrHints {
    pub(super) unlikely: bool,
    /// Unlikely by `header` alone.
    pub(super) header_only: bool,
    maybe: bool,
    /// `_getClassWeight`'s part for this attribute: -25, 0 or +25 (both: 0).
    pub(super) weight: f32,
    pub(super) share: bool,
    /// Unlikely, and by `signature` (see [`SIGNATURE`]).
    pub(super) signature: bool,
    /// Unlikely, and by a word that names comments (`comment`, `disqus`, `replies`).
    pub(super) comments: bool,
    /// Names a picture's caption (`caption`).
    pub(super) caption: bool,
    /// Names a credit (`credit`, `copyright`): a picture's, inside its caption or figure.
    pub(super) credit: bool,
    /// Names a sign-up box ([`SIGN_UP_HINTS`]).
    pub(super) sign_up: bool,
    /// Names the author (`author`, not `authority`).
    pub(super) author: bool,
}

impl AttrHints {
    fn of(value: &str) -> AttrHints {
        let lists = hint_lists(value);
        let token_hid = value
            .split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case("hid"));
        let mut weight = 0.0;
        if token_hid || lists & NEGATIVE_BIT != 0 {
            weight -= 25.0;
        }
        if lists & POSITIVE_BIT != 0 {
            weight += 25.0;
        }
        AttrHints {
            unlikely: lists & (UNLIKELY_BIT | HEADER_BIT) != 0,
            header_only: lists & HEADER_BIT != 0 && lists & UNLIKELY_BIT == 0,
            maybe: lists & MAYBE_BIT != 0,
            weight,
            share: lists & SHARE_BIT != 0,
            signature: lists & SIGNATURE_BIT != 0,
            comments: lists & COMMENTS_BIT != 0,
            caption: lists & CAPTION_BIT != 0,
            credit: lists & CREDIT_BIT != 0,
            sign_up: lists & SIGN_UP_BIT != 0,
            // The author, not an authority or an authorization (`local-authority-results`).
            author: lists & AUTHOR_BIT != 0 && !mentions_any(value, &["authori"]),
        }
    }
}

/// Whether a class token styles rather than names (a utility framework's, Tailwind's): a
/// responsive or state variant (`md:flex`, `hover:shadow-lg`; not `md:hidden`, which hides
/// the element at that width), an overflow or a scroll margin (`overflow-hidden`,
/// `scroll-mt-24`, which documentation sites put on every heading an anchor scrolls to).
/// Readability's patterns find `hidden` and `scroll` in them.
fn is_style_utility(token: &str) -> bool {
    let t = token.to_ascii_lowercase();
    (t.contains(':') && !t.ends_with(":hidden"))
        || t.starts_with("overflow-")
        || t.starts_with("scroll-m")
        || t.starts_with("scroll-p")
}

/// `_getClassWeight` of a heading with its class's style utilities aside
/// ([`is_style_utility`]) and its `id` aside when the id spells the heading's own words
/// ([`is_slug_of`]): Readability removes an `h1` or `h2` of negative weight from the
/// content (`_cleanHeaders`), and a section's heading classed `scroll-mt-24`, or with the
/// anchor `what-is-social-media-marketing` (`media`), is no widget. Only for headings:
/// elsewhere the utilities' words decide among candidates and leaving them out moved
/// web2025's product and service pages both ways.
pub(super) fn heading_weight(el: Element<'_>, text: &str) -> f32 {
    let class = el.attr(&local_name!("class")).unwrap_or("");
    let named: Vec<&str> = class
        .split_ascii_whitespace()
        .filter(|t| !is_style_utility(t))
        .collect();
    let id = el
        .attr(&local_name!("id"))
        .filter(|id| !is_slug_of(id, text))
        .unwrap_or("");
    AttrHints::of(&named.join(" ")).weight + AttrHints::of(id).weight
}

/// Whether an anchor `id` is made of a text's words (`h-4-select-particular-times` of "4.
/// Select particular times during the day", `Healthy_shopping_list` of "Weekly shopping
/// list"): at least two words of the id, half of them or more in the text.
fn is_slug_of(id: &str, text: &str) -> bool {
    let said = lower_words(text);
    let id_words = lower_words(id);
    let found = id_words.iter().filter(|w| said.contains(w)).count();
    id_words.len() >= 2 && found * 2 >= id_words.len()
}

/// [`AttrHints`] of every distinct `class` and `id` value, filled as the pass meets them.
#[derive(Default)]
pub(super) struct HintCache<'a> {
    seen: foldhash::HashMap<&'a str, AttrHints>,
}

impl<'a> HintCache<'a> {
    fn get(&mut self, value: &'a str) -> AttrHints {
        if value.is_empty() {
            return AttrHints::default();
        }
        *self
            .seen
            .entry(value)
            .or_insert_with(|| AttrHints::of(value))
    }

    /// The element's class and id together: Readability's `unlikelyCandidates` test on
    /// "class id", `_getClassWeight` (±25 for each), and whether it names a share bar.
    pub(super) fn element(&mut self, el: Element<'a>) -> AttrHints {
        let class = self.get(el.attr(&local_name!("class")).unwrap_or(""));
        let id = self.get(el.attr(&local_name!("id")).unwrap_or(""));
        let unlikely = (class.unlikely || id.unlikely) && !(class.maybe || id.maybe);
        AttrHints {
            unlikely,
            header_only: unlikely
                && (!class.unlikely || class.header_only)
                && (!id.unlikely || id.header_only),
            maybe: class.maybe || id.maybe,
            weight: class.weight + id.weight,
            share: class.share || id.share,
            signature: unlikely && (class.signature || id.signature),
            comments: unlikely && (class.comments || id.comments),
            caption: class.caption || id.caption,
            credit: class.credit || id.credit,
            sign_up: class.sign_up || id.sign_up,
            author: class.author || id.author,
        }
    }
}

/// Whether an element can be unlikely content at all. The root and the body never are:
/// `<html class="hasRightSidebar">` says how the page is laid out, not that the page is a
/// sidebar. Nor is a heading (Readability removes one, trafilatura does not): its class
/// names a style (`h4.code-header`, the signature of every method of a rustdoc page; a
/// `menu-header`), and a heading of the chrome goes with the block around it. web2025: 9
/// pages read a heading more, none less. Nor is an emphasised label (`strong`, `b`, `em`,
/// `i`, `dt`, `label`): it names the value beside it (a spec row's
/// `<strong class="table__header">Weight:</strong>`), and chrome is a block, not a word.
pub(super) fn may_be_unlikely(el: Element<'_>) -> bool {
    !(el.is_html(&local_name!("html"))
        || el.is_html(&local_name!("body"))
        || el.is_html(&local_name!("a"))
        || heading_level(el).is_some()
        || matches!(
            *el.local(),
            local_name!("strong")
                | local_name!("b")
                | local_name!("em")
                | local_name!("i")
                | local_name!("dt")
                | local_name!("label")
        ))
}

/// The first class of an element, which names the kind of block it is (later ones mark this
/// one: the first post's `uix_threadAuthor`, a card `has-image`).
pub(super) fn first_class(el: Element<'_>) -> Option<&str> {
    el.attr(&local_name!("class"))
        .and_then(|c| c.split_ascii_whitespace().next())
}

/// Whether two elements come from one template: the same tag and the same first class (a
/// thread's posts, a listing's cards, a ranking's entries, a page builder's rows).
pub(super) fn same_template(a: Element<'_>, b: Element<'_>) -> bool {
    a.local() == b.local() && first_class(a) == first_class(b)
}

/// `<main>`, or an element whose role is `main`: the page's own word on its content.
pub(crate) fn is_main_landmark(el: Element<'_>) -> bool {
    el.is_html(&local_name!("main")) || has_role(el, &["main"])
}

/// Whether an element is the pane of a repeated item: inside an `article` or `section` that
/// has a sibling of the same tag and class (the next post, comment or review). A forum
/// post's author pane is the common case; an article's one pull quote or related box is not
/// an item's. Two kinds of element are panes:
/// - an `<aside>` (html-aam maps one inside an article or section to a generic, not a
///   complementary landmark);
/// - a block microdata names the author (`itemprop=author`, or a `Person` item) holding a
///   heading, the author's name, above badges and counts
///   (`<div itemprop=author><h3>name</h3><dl>Messages: 3…`);
///   its item may also be a list item (`<li class=message>`, one per post).
///
/// `author_block`: microdata names the element the author (see [`is_author_block`]).
pub(super) fn is_item_pane(dom: &Dom, id: NodeId, el: Element<'_>, author_block: bool) -> bool {
    let aside = el.is_html(&local_name!("aside")) && !has_role(el, &["complementary"]);
    let author = !aside
        && author_block
        && is_block(el)
        && dom
            .descendants(id)
            .take(PANE_HEADING_NODES)
            .any(|d| dom.element(d).and_then(heading_level).is_some());
    if !aside && !author {
        return false;
    }
    let Some((item, item_el)) = dom.ancestors(id).find(|(_, a)| {
        a.is_html(&local_name!("article"))
            || a.is_html(&local_name!("section"))
            || (author && a.is_html(&local_name!("li")))
            || a.is_html(&local_name!("body"))
    }) else {
        return false;
    };
    if item_el.is_html(&local_name!("body")) {
        return false;
    }
    let class = item_el.attr(&local_name!("class"));
    has_nearby_sibling(dom, item, |e| {
        e.local() == item_el.local() && e.attr(&local_name!("class")) == class
    })
}

/// Whether one of the element siblings of `item` nearest to it, [`PANE_LOOKAROUND`] each
/// way, is `same` (the next post). Items may be separated by anchors or ads
/// (`<a id=comment-5></a><article>`): a few siblings are looked at, never a whole long
/// parent per pane.
fn has_nearby_sibling(dom: &Dom, item: NodeId, same: impl Fn(Element<'_>) -> bool) -> bool {
    [false, true].into_iter().any(|ahead| {
        element_siblings(dom, item, ahead)
            .take(PANE_LOOKAROUND)
            .filter_map(|n| dom.element(n))
            .any(&same)
    })
}

/// Whether microdata names an element its item's author: `itemprop=author` (or `creator`), or
/// a `Person` item, which some forum software gives later posts instead.
pub(super) fn is_author_block(el: Element<'_>) -> bool {
    is_author(el) || is_microdata_person(el)
}

/// Whether a `<dl>` is a post's profile list: the member's name in its first term and the
/// member's details as "Label: value" definitions (phpBB's `dl.postprofile`: "Posts: 524",
/// "Joined: …"; FluxBB's "Registered: …", "Posts: 98"), in a repeated item. It is read as its
/// first term, as an author pane is read as its heading. A specification list says
/// "Weight" in a term and "2 kg" in its definition, and is not one.
pub(super) fn is_profile_list(dom: &Dom, id: NodeId, el: Element<'_>) -> bool {
    if !el.is_html(&local_name!("dl")) {
        return false;
    }
    let mut children = dom
        .children(id)
        .filter_map(|c| dom.element(c).map(|e| (c, e)));
    if !children
        .next()
        .is_some_and(|(_, e)| e.is_html(&local_name!("dt")))
    {
        return false;
    }
    let labelled = children
        .take(PROFILE_CHILDREN)
        .filter(|(c, e)| e.is_html(&local_name!("dd")) && is_label_value(&short_text(dom, *c)))
        .count();
    if labelled < 2 {
        return false;
    }
    // The profile is beside a post: its item holds at least as much text outside the list
    // as in it. A forum index whose every cell is a list ("Topics: 144, Posts: 1136" under
    // the forum's name) is a listing, and its counts are its content.
    repeated_item(dom, id).is_some_and(|item| {
        let inside: usize = texts(dom, id).sum();
        let mut total = 0;
        texts(dom, item).any(|n| {
            total += n;
            total >= 2 * inside
        })
    })
}

/// How many nodes of a list or an item are looked at for their text: the post's first
/// paragraphs say enough, and no item is walked whole for each list in it.
const ITEM_TEXT_NODES: usize = 512;

/// The characters of each text under an element (raw, trimmed), over its first
/// [`ITEM_TEXT_NODES`] nodes.
fn texts<'a>(dom: &'a Dom, id: NodeId) -> impl Iterator<Item = usize> + 'a {
    dom.descendants(id)
        .take(ITEM_TEXT_NODES)
        .filter_map(|d| dom.text(d))
        .map(|t| t.trim().chars().count())
}

/// How many children of a list are looked at for its "Label: value" definitions.
const PROFILE_CHILDREN: usize = 16;
/// How far up a profile list its repeated item (the post) is looked for.
const PROFILE_ITEM_DEPTH: usize = 6;

/// The first characters of an element's text, whitespace collapsed (enough to tell a
/// "Label: value" line).
fn short_text(dom: &Dom, id: NodeId) -> String {
    let mut buf = TextBuf::new(64);
    for t in dom.descendants(id).take(32).filter_map(|d| dom.text(d)) {
        buf.push_str(t);
    }
    buf.finish().0
}

/// Whether a line reads "Label: value": one to three words of letters, a colon, and a
/// value ("Posts: 524", "Joined: Mon Jul 24, 2017").
fn is_label_value(line: &str) -> bool {
    let Some((label, value)) = line.split_once(':') else {
        return false;
    };
    let words = label.split_whitespace().count();
    (1..=3).contains(&words)
        && label.chars().all(|c| c.is_alphabetic() || c == ' ')
        && !value.trim().is_empty()
}

/// The repeated item an element sits in: the nearest of its ancestors (not the body) with a
/// nearby sibling of the same tag whose class starts with the same word (phpBB's
/// `div.post bg1`, `div.post bg2`; FluxBB's `div.blockpost blockpost1`).
fn repeated_item(dom: &Dom, id: NodeId) -> Option<NodeId> {
    dom.ancestors(id)
        .take(PROFILE_ITEM_DEPTH)
        .take_while(|(_, a)| !a.is_html(&local_name!("body")))
        .find(|&(item, item_el)| {
            first_class(item_el).is_some()
                && has_nearby_sibling(dom, item, |e| same_template(e, item_el))
        })
        .map(|(item, _)| item)
}

/// The element siblings of `id`, nearest first: those after it when `ahead`, else those
/// before it.
pub(super) fn element_siblings(
    dom: &Dom,
    id: NodeId,
    ahead: bool,
) -> impl Iterator<Item = NodeId> + '_ {
    let step = move |n: NodeId| {
        let node = dom.node(n);
        if ahead {
            node.next_sibling
        } else {
            node.prev_sibling
        }
    };
    std::iter::successors(step(id), move |&n| step(n)).filter(move |&n| dom.element(n).is_some())
}

/// The element siblings of `id` at most `each_side` away before it, nearest first, then
/// those after it: where a run of items like it is looked for.
pub(super) fn near_siblings(
    dom: &Dom,
    id: NodeId,
    each_side: usize,
) -> impl Iterator<Item = NodeId> + '_ {
    element_siblings(dom, id, false)
        .take(each_side)
        .chain(element_siblings(dom, id, true).take(each_side))
}

/// Element siblings looked at each way for the next item of a pane's post.
const PANE_LOOKAROUND: usize = 4;

/// How many nodes of an author block are looked at for its heading (the name comes first,
/// after an avatar), so that no block is searched whole.
const PANE_HEADING_NODES: usize = 32;

/// Whether the element is a landmark for the page's main content.
pub(super) fn is_main_hint(el: Element<'_>) -> bool {
    is_main_landmark(el)
        || el.is_html(&local_name!("article"))
        || has_role(el, &["article"])
        || el
            .attr(&ITEMPROP)
            .is_some_and(|v| v.eq_ignore_ascii_case("articleBody"))
}

/// Whether microdata names the element a post's or an article's author (`itemprop=author`
/// or `creator`): a forum post's author pane is a link or two and a join date, which the
/// conditional cleaning takes for a link list, but a thread is its posts with their authors.
pub(super) fn is_author(el: Element<'_>) -> bool {
    el.attr(&ITEMPROP).is_some_and(|v| {
        v.split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case("author") || t.eq_ignore_ascii_case("creator"))
    })
}

/// Words that end the `id` prefix forum software gives a post before its number: XenForo's
/// and vBulletin's `post-123`/`post_123`, SMF's `msg123`, Invision's `elComment_123`, and
/// replies and answers. (phpBB's `p123` is the bare letter, below.)
const POST_ID_WORDS: &[&str] = &["post", "msg", "message", "comment", "reply", "answer"];

/// Whether the element's `id` numbers it as a post: a prefix ending in one of
/// [`POST_ID_WORDS`] (case aside) or the bare letter `p`, an optional `-` or `_`, and two
/// digits or more.
pub(super) fn is_post_id(el: Element<'_>) -> bool {
    let Some(id) = el.attr(&local_name!("id")) else {
        return false;
    };
    let prefix = id.trim_end_matches(|c: char| c.is_ascii_digit());
    if id.len() - prefix.len() < 2 {
        return false;
    }
    let word = prefix.trim_end_matches(['-', '_']).as_bytes();
    let ends_with = |w: &str| {
        word.len() >= w.len() && word[word.len() - w.len()..].eq_ignore_ascii_case(w.as_bytes())
    };
    word.eq_ignore_ascii_case(b"p") || POST_ID_WORDS.iter().any(|w| ends_with(w))
}

/// How many element siblings on each side [`is_thread_post`] looks at for another post.
const THREAD_LOOKAROUND: usize = 3;

/// Whether the element is one post of a thread: its id numbers it as a post
/// ([`is_post_id`]), and so does a near sibling of its tag and first class (the post
/// before or after it).
pub(super) fn is_thread_post(dom: &Dom, id: NodeId, el: Element<'_>) -> bool {
    is_post_id(el)
        && near_siblings(dom, id, THREAD_LOOKAROUND)
            .filter_map(|s| dom.element(s))
            .any(|s| is_post_id(s) && same_template(s, el))
}

/// Whether the element is one entry of the page's hAtom markup (class `hentry`: one post,
/// as blog software marks each, WordPress's `post_class()` among them).
/// <http://microformats.org/wiki/hatom>
pub(super) fn is_hatom_entry(el: Element<'_>) -> bool {
    el.attr(&local_name!("class"))
        .is_some_and(|c| c.split_ascii_whitespace().any(|t| t == "hentry"))
}

/// The JSON-LD types of a product page.
pub(super) const PRODUCT_TYPES: &[&str] = &["Product", "ProductGroup", "IndividualProduct"];

/// Words that label a picture's credit before a colon ("Foto: dpa", "Crédits photos :
/// Bestimage", "Image credit: Pexels"), in the languages of the evaluation sets and their
/// neighbours; `©` labels one in any language. Not a bare "Source:": under a chart or a
/// table it names where the figures come from, which is part of them.
const CREDIT_LABELS: &[&str] = &[
    "bild",
    "bilder",
    "bildquelle",
    "copyright",
    "credit",
    "credits",
    "crédit",
    "crédits",
    "crédito",
    "créditos",
    "foto",
    "fotos",
    "fotografía",
    "fotograf",
    "fotoquelle",
    "image",
    "imagen",
    "photo",
    "photos",
    "photograph",
    "picture",
    "zdjęcie",
];

/// Longest label before a credit's colon, in characters ("crédits photos").
const CREDIT_LABEL_MAX: usize = 24;

/// Longest word that labels a numbered caption ("Abbildung", "Illustration").
const NUMBER_LABEL_MAX: usize = 12;

/// Whether a caption is numbered, as a technical text's figures, listings and tables are
/// ("Figure 4-1: The representation in memory…", "Listing 9-3", "Abb. 2", "Table 1."): a
/// word and a number open it. The text refers to it by its number, so it is part of the
/// text. A picture's counter in a gallery ("Photo 3 of 12") opens with a credit's word and
/// is not.
pub(super) fn is_numbered_caption(text: &str) -> bool {
    let mut words = text.split_whitespace();
    let (Some(label), Some(number)) = (words.next(), words.next()) else {
        return false;
    };
    let label = label.strip_suffix('.').unwrap_or(label);
    !label.is_empty()
        && label.chars().count() <= NUMBER_LABEL_MAX
        && label.chars().all(char::is_alphabetic)
        && number.starts_with(|c: char| c.is_ascii_digit())
        && !CREDIT_LABELS.contains(&label.to_lowercase().as_str())
}

/// Whether a caption's text is a picture's credit: it starts with `©` or with a credit
/// label's word ([`CREDIT_LABELS`]) and a colon, after an opening bracket if any.
pub(super) fn says_credit(text: &str) -> bool {
    let text = text
        .trim_start()
        .trim_start_matches(['(', '['])
        .trim_start();
    if text.starts_with('©') {
        return true;
    }
    let Some((label, _)) = text.split_once(':') else {
        return false;
    };
    if label.chars().count() > CREDIT_LABEL_MAX {
        return false;
    }
    label.split_whitespace().next().is_some_and(|word| {
        let word = word.to_lowercase();
        CREDIT_LABELS.contains(&word.as_str())
    })
}

/// Whether a `<script>` holds JSON-LD.
pub(super) fn is_json_ld(el: Element<'_>) -> bool {
    el.is_html(&local_name!("script"))
        && el
            .attr(&local_name!("type"))
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json"))
}

/// Whether an element is a microdata product (`itemtype` ending in `/Product`).
pub(super) fn is_microdata_product(el: Element<'_>) -> bool {
    has_microdata_type(el, PRODUCT_TYPES)
}

/// Class and id words of a block of other products on a product's page: "related products",
/// upsells and cross-sells, recommendations, "you may also like", the recently viewed.
const OTHER_PRODUCTS: &[&str] = &[
    "related",
    "upsell",
    "up-sell",
    "crosssell",
    "cross-sell",
    "recommend",
    "also-like",
    "alsolike",
    "recently-viewed",
    "recentlyviewed",
];

/// Whether an element's class or id names a block of other products ([`OTHER_PRODUCTS`]).
pub(super) fn is_other_products(el: Element<'_>) -> bool {
    [local_name!("class"), local_name!("id")]
        .iter()
        .filter_map(|a| el.attr(a))
        .any(|v| crate::text::mentions_any(v, OTHER_PRODUCTS))
}

/// schema.org types of a thread: the question with its answers (Stack Exchange's
/// `itemtype=https://schema.org/Question` holds both), or a discussion with its replies.
const THREAD_TYPES: &[&str] = &["Question", "DiscussionForumPosting"];

/// Whether an element is a microdata thread ([`THREAD_TYPES`]).
pub(super) fn is_microdata_thread(el: Element<'_>) -> bool {
    has_microdata_type(el, THREAD_TYPES)
}

/// Whether an element is a microdata person (`itemtype` ending in `/Person`): in a post, its
/// author, which some forum software names so without `itemprop=author` on every post.
fn is_microdata_person(el: Element<'_>) -> bool {
    has_microdata_type(el, &["Person"])
}

/// Whether one of the element's `itemtype` URLs ends in one of `types`.
fn has_microdata_type(el: Element<'_>, types: &[&str]) -> bool {
    el.attr(&ITEMTYPE).is_some_and(|t| {
        t.split_ascii_whitespace().any(|t| {
            let t = t.trim_end_matches('/');
            types
                .iter()
                .any(|p| t.rsplit('/').next().is_some_and(|last| last == *p))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forum_software_numbers_its_posts_and_page_builders_do_not() {
        let numbered = |id: &str| {
            let dom = Dom::parse(&format!("<div id='{id}'></div>"));
            let (_, el) = dom
                .elements()
                .find(|(_, e)| e.is_html(&local_name!("div")))
                .expect("div");
            is_post_id(el)
        };
        for id in [
            "post-4896267",
            "post_12",
            "msg4175421",
            "p123",
            "elComment_123",
            "reply-42",
        ] {
            assert!(numbered(id), "{id}");
        }
        for id in [
            "wrap123",
            "p1",
            "post",
            "brxe-tqckar",
            "SaleSection_13268",
            "hs_cos_wrapper_widget_1753110382057",
            "id-1.9.3.172.8",
        ] {
            assert!(!numbered(id), "{id}");
        }
    }
}
