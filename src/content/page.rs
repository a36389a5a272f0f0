//! Finding the main content: one bottom-up pass over the arena that measures every element
//! (visible text, link text, commas, paragraphs, images…), Readability's paragraph scoring on
//! top of it, and the choice of the top candidate and the siblings that join it.
//!
//! The constants are Mozilla Readability's (`Readability.js`: `_grabArticle`,
//! `_initializeNode`, `_getClassWeight`; summarised in `docs/read.md`), with `<main>`,
//! `<article>`, `role=main` and `itemprop=articleBody` as hints Readability does not use.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, AhoCorasickKind};
use html5ever::{local_name, LocalName};

use super::structured::{
    self, is_json_ld, is_microdata_person, is_microdata_product, is_microdata_thread,
};
use super::Cleaning;
use crate::aria::hidden::{closed_details_summary, subtree_hidden_styled};
use crate::aria::name::labeled_control;
use crate::aria::roles::input_type;
use crate::aria::Index;
use crate::parse::{push_in_order, Dom, Element, NodeData, NodeId};
use crate::style::Styles;
use crate::text::TextBuf;

/// Subtree not shown: hidden by markup or inline style (see [`crate::aria::hidden`]).
const HIDDEN: u16 = 1;
/// `visibility:hidden` applies here (resolved with inheritance): its own text is not shown.
const VIS_HIDDEN: u16 = 2;
/// Never content: navigation, forms, dialogs… by tag or role.
const BOILER: u16 = 4;
/// Unlikely content by its class or id (Readability's prepass); dropped on the strict attempt.
const UNLIKELY: u16 = 8;
/// Has a content score.
const CANDIDATE: u16 = 16;
/// Has a block-level element child (Readability's `_hasChildBlockElement`).
const BLOCK_CHILD: u16 = 32;
/// The pass looked at this node and found it shown: only such nodes are ever read. A subtree
/// the pass skipped (boilerplate, unlikely) was never checked for hidden descendants, so it
/// must not be read by another path either (a `<script>` under a skipped root came out as
/// text).
const VISITED: u16 = 64;
/// Its class or id names a share bar (`_clean` of share elements).
const SHARE: u16 = 128;
/// An item's pane: an `<aside>` inside a post, comment or review that repeats (a forum
/// post's author pane). Boilerplate to the measures, but looked at, so that its headings
/// (the author's name) can be read with the item.
const PANE: u16 = 256;
/// Inside a pane: looked at for visibility, never scored or counted.
const IN_PANE: u16 = 512;
/// Inside code (`code`, `pre`): never unlikely, as in Readability's prepass. Highlighters
/// class a code comment `hljs-comment` or `token comment`, and the comment is code.
const IN_CODE: u16 = 1024;
/// Inside the page's main landmark (`<main>`, `role=main`).
const IN_MAIN: u16 = 2048;
/// A repeated item's author block (`itemprop=author` or a `Person` item with a heading, or
/// a profile list: `is_profile_list`): measured with its post like any block, so the choice
/// of the content does not change, but read as its heading (a profile list as its first
/// term), as a pane is.
const AUTHOR_PANE: u16 = 4096;
/// A forum post's signature by its class or id: the same lines under every post of its
/// author, never the thread, whatever the cleaning ([`Page::left_out`]).
const SIGNATURE: u16 = 8192;

/// What the pass measured under an element (hidden and boilerplate subtrees count nothing).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Agg {
    /// Visible text, in characters, whitespace collapsed.
    pub text: u32,
    /// Text inside links, in characters; `#` links count 0.3 (Readability's weighting).
    pub link: f32,
    pub commas: u32,
    pub paragraphs: u32,
    pub images: u32,
    pub items: u32,
    pub inputs: u32,
    /// Text inside headings.
    pub heading_text: u32,
    /// Text inside headings outside their links, in whole characters.
    heading_prose: u32,
    /// Text inside code blocks (`pre`).
    pub code_text: u32,
    /// Text inside lists (`ul`, `ol`).
    list_text: u32,
    /// Text inside `<time>` elements.
    time_text: u32,
    /// `<table>` elements inside (not counting the element itself).
    pub tables: u32,
    /// Data tables (not [`Index::is_layout_table`]: Chromium's rules with Readability's size
    /// rule), the element itself included.
    data_tables: u32,
    /// Text of inline content directly inside the element (not in a block child).
    own_text: u32,
    own_commas: u32,
}

impl Agg {
    pub(crate) fn link_density(&self) -> f32 {
        if self.text == 0 {
            0.0
        } else {
            (self.link / self.text as f32).min(1.0)
        }
    }
}

/// The one place this stage asks the hidden rules about an element (so a change to how they
/// are called is one change here). `None`: the subtree is hidden; else whether
/// `visibility:hidden` applies, given what the parent passes on.
fn shown(styles: &Styles, id: NodeId, el: Element<'_>, inherited_vis_hidden: bool) -> Option<bool> {
    let style = styles.get(id);
    if subtree_hidden_styled(el, &style).is_some() {
        return None;
    }
    Some(style.visibility_hidden.unwrap_or(inherited_vis_hidden))
}

/// The measured page.
pub(crate) struct Page<'a> {
    pub dom: &'a Dom,
    /// The page's roles and layout tables (conditional cleaning reads them).
    index: &'a Index,
    /// The page's computed visibility (its own style sheets and `style` attributes).
    pub styles: &'a Styles,
    /// Pre-order position of every node reachable from the document (0 for the rest, such
    /// as template contents).
    pub order: Vec<u32>,
    pub flags: Vec<u16>,
    pub agg: Vec<Agg>,
    score: Vec<f32>,
    /// `_getClassWeight` of every element (0 without class and id).
    weight: Vec<f32>,
    candidates: Vec<NodeId>,
    /// What the pass and [`Page::left_out`] leave out of the content.
    cleaning: Cleaning,
    pub body: NodeId,
    /// JSON-LD scripts (read for where the page's product is, never output).
    pub json_ld: Vec<NodeId>,
    /// Shown microdata products (`itemtype=…/Product`), in document order.
    pub microdata_products: Vec<NodeId>,
    /// Shown `h1` elements, in document order.
    pub h1s: Vec<NodeId>,
}

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
fn is_boilerplate(el: Element<'_>) -> bool {
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
const MAYBE_HINTS: &[&str] = &[
    "and", "article", "body", "column", "content", "main", "mathjax", "shadow",
];
/// `_getClassWeight`'s patterns.
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
    "media",
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
const UNLIKELY_BIT: u8 = 1;
const MAYBE_BIT: u8 = 2;
const NEGATIVE_BIT: u8 = 4;
const POSITIVE_BIT: u8 = 8;
const SHARE_BIT: u8 = 16;
/// Readability's unlikely `header`, apart: a section's header inside the main landmark is
/// content (`AttrHints::header_only`).
const HEADER_BIT: u8 = 32;
const SIGNATURE_BIT: u8 = 64;

/// Microdata's attribute names, which are not among html5ever's static names: interned once,
/// as interning `itemprop` for each element the pass asks about was 1 % of a parse-and-read.
static ITEMPROP: LazyLock<LocalName> = LazyLock::new(|| LocalName::from("itemprop"));
static ITEMTYPE: LazyLock<LocalName> = LazyLock::new(|| LocalName::from("itemtype"));

/// Every hint list in one automaton, with the lists each pattern is in: one pass over a
/// class string answers all of them (seventy substring searches per distinct class string
/// were a twentieth of a `read`). Patterns match case-insensitively, as Readability's `/i`
/// expressions do.
static HINTS: LazyLock<(AhoCorasick, Vec<u8>)> = LazyLock::new(|| {
    let mut patterns: Vec<&str> = Vec::new();
    let mut bits: Vec<u8> = Vec::new();
    let lists: [(&[&str], u8); 7] = [
        (UNLIKELY_HINTS, UNLIKELY_BIT),
        (&["header"], HEADER_BIT),
        (MAYBE_HINTS, MAYBE_BIT),
        (NEGATIVE_HINTS, NEGATIVE_BIT),
        (POSITIVE_HINTS, POSITIVE_BIT),
        (&["share"], SHARE_BIT),
        (&["signature"], SIGNATURE_BIT),
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
fn hint_lists(s: &str) -> u8 {
    let (automaton, bits) = &*HINTS;
    // Overlapping, so that a pattern inside another ("-ad-" in "-ad-break") still counts.
    automaton
        .find_overlapping_iter(s)
        .fold(0, |acc, m| acc | bits[m.pattern().as_usize()])
}

/// What a `class` or an `id` value says, matched once per distinct value (a shop's 700 cards
/// share one class string: seventy substring searches each were a tenth of the snapshot).
#[derive(Clone, Copy, Default)]
struct AttrHints {
    unlikely: bool,
    /// Unlikely by `header` alone.
    header_only: bool,
    maybe: bool,
    /// `_getClassWeight`'s part for this attribute: -25, 0 or +25 (both: 0).
    weight: f32,
    share: bool,
    /// Unlikely, and by `signature` (see [`SIGNATURE`]).
    signature: bool,
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
        }
    }
}

/// [`AttrHints`] of every distinct `class` and `id` value, filled as the pass meets them.
#[derive(Default)]
struct HintCache<'a> {
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
    fn element(&mut self, el: Element<'a>) -> AttrHints {
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
fn may_be_unlikely(el: Element<'_>) -> bool {
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
fn first_class(el: Element<'_>) -> Option<&str> {
    el.attr(&local_name!("class"))
        .and_then(|c| c.split_ascii_whitespace().next())
}

/// `<main>`, or an element whose role is `main`: the page's own word on its content.
pub(crate) fn is_main_landmark(el: Element<'_>) -> bool {
    el.is_html(&local_name!("main")) || has_role(el, &["main"])
}

/// Pushes the children of `id` on the pass's stack (node, leaving, visibility hidden
/// inherited) so that they pop in document order.
fn push_children(stack: &mut Vec<(NodeId, bool, bool)>, dom: &Dom, id: NodeId, vis: bool) {
    push_in_order(stack, dom.children(id).map(|c| (c, false, vis)));
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
fn is_item_pane(dom: &Dom, id: NodeId, el: Element<'_>, author_block: bool) -> bool {
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
fn is_author_block(el: Element<'_>) -> bool {
    is_author(el) || is_microdata_person(el, &ITEMTYPE)
}

/// Whether a `<dl>` is a post's profile list: the member's name in its first term and the
/// member's details as "Label: value" definitions (phpBB's `dl.postprofile`: "Posts: 524",
/// "Joined: …"; FluxBB's "Registered: …", "Posts: 98"), in a repeated item. It is read as its
/// first term, as an author pane is read as its heading. A specification list says
/// "Weight" in a term and "2 kg" in its definition, and is not one.
fn is_profile_list(dom: &Dom, id: NodeId, el: Element<'_>) -> bool {
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
    fn first_class<'a>(e: Element<'a>) -> Option<&'a str> {
        e.attr(&local_name!("class"))?
            .split_ascii_whitespace()
            .next()
    }
    dom.ancestors(id)
        .take(PROFILE_ITEM_DEPTH)
        .take_while(|(_, a)| !a.is_html(&local_name!("body")))
        .find(|&(item, item_el)| {
            first_class(item_el).is_some_and(|class| {
                has_nearby_sibling(dom, item, |e| {
                    e.local() == item_el.local() && first_class(e) == Some(class)
                })
            })
        })
        .map(|(item, _)| item)
}

/// The element siblings of `id`, nearest first: those after it when `ahead`, else those
/// before it.
fn element_siblings(dom: &Dom, id: NodeId, ahead: bool) -> impl Iterator<Item = NodeId> + '_ {
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

/// Element siblings looked at each way for the next item of a pane's post.
const PANE_LOOKAROUND: usize = 4;

/// How many nodes of an author block are looked at for its heading (the name comes first,
/// after an avatar), so that no block is searched whole.
const PANE_HEADING_NODES: usize = 32;

/// Whether the element is a landmark for the page's main content.
fn is_main_hint(el: Element<'_>) -> bool {
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
fn is_author(el: Element<'_>) -> bool {
    el.attr(&ITEMPROP).is_some_and(|v| {
        v.split_ascii_whitespace()
            .any(|t| t.eq_ignore_ascii_case("author") || t.eq_ignore_ascii_case("creator"))
    })
}

/// Characters and commas of a text run as it renders (whitespace runs count one).
fn measure(s: &str) -> (u32, u32) {
    let mut chars = 0u32;
    let mut commas = 0u32;
    let mut space = false;
    for c in s.chars() {
        if crate::text::is_html_space(c) {
            space = true;
            continue;
        }
        if space && chars > 0 {
            chars = chars.saturating_add(1);
        }
        space = false;
        chars = chars.saturating_add(1);
        // Readability's `commas`: the comma in its Latin, Arabic and CJK forms.
        if matches!(
            c,
            ',' | '\u{060C}'
                | '\u{FE50}'
                | '\u{FE10}'
                | '\u{FE11}'
                | '\u{2E41}'
                | '\u{2E34}'
                | '\u{2E32}'
                | '\u{FF0C}'
        ) {
            commas = commas.saturating_add(1);
        }
    }
    (chars, commas)
}

/// Text a block says when it is only a label or a placeholder, in the languages
/// Readability knows (its `adWords` and `loadingWords`, which `_cleanConditionally` removes):
/// an "Advertisement" over an empty ad slot, a spinner's "Loading…" that a script replaces.
const AD_WORDS: &[&str] = &[
    "ad",
    "advertising",
    "advertisement",
    "pub",
    "publicité",
    "werb",
    "werbung",
    "广告",
    "реклама",
    "anuncio",
];
const LOADING_WORDS: &[&str] = &["loading", "正在加载", "загрузка", "chargement", "cargando"];
/// The longest of those words with an ellipsis, in characters.
const MAX_PLACEHOLDER: u32 = 16;
/// A spinner is an icon and a word: a placeholder's subtree has at most this many nodes.
const PLACEHOLDER_NODES: usize = 32;

/// Whether `text` (whitespace collapsed) is only an ad label or a loading placeholder.
fn is_placeholder(text: &str) -> bool {
    let text = text.trim().to_lowercase();
    let loading = text
        .strip_suffix('…')
        .or_else(|| text.strip_suffix("..."))
        .unwrap_or(&text);
    AD_WORDS.contains(&text.as_str()) || LOADING_WORDS.contains(&loading)
}

/// Readability scores text blocks of at least this many characters.
const MIN_PARAGRAPH: u32 = 25;
/// The share of the page's prose the main content holds at least, where an ancestor of the
/// top candidate holds it (`Page::main_content`). Measured on the web2025 pages: 0.3 to 0.7
/// score alike there; above 0.4 the reading set's articles gain their comment threads.
const COVER: f32 = 0.4;
/// A run of cards has this many at least, each with this much text.
const MIN_CARDS: u32 = 4;
const MIN_CARD_TEXT: u32 = 20;
/// The share of the page's visible text the largest text region's every step down holds
/// (`Page::largest_text_region`).
const REGION_SHARE: f32 = 0.6;
/// A share bar longer than this is more than a share bar (Readability's `_clean`).
const SHARE_BAR_MAX: u32 = 500;
/// A section's header holds its heading within this many nodes (`Page::pass`).
const SECTION_HEADER_NODES: usize = 32;
/// Levels above the top candidate where a post of a run is looked for (`Page::post_run`).
const POST_ANCESTORS: usize = 6;
/// A section of a run ([`Page::in_section_run`]) holds this much prose (text outside links),
/// a blurb's worth.
const MIN_SECTION_PROSE: f32 = 100.0;
/// The prose (text outside links) a headline's block holds to join the content
/// ([`Page::headline_block`]): a lead paragraph's, more than a title, a byline and a date.
/// At 200 an article's header with a one-line standfirst joined, and the web2025 articles
/// lost precision; at 300 `with` 0.834 -> 0.840 (forum 0.780 -> 0.798, service 0.768 ->
/// 0.786), the reading set's precision 0.973 -> 0.972.
const LEAD_PROSE: f32 = 300.0;
/// How many element siblings on each side [`Page::in_section_run`] looks at.
const SECTION_LOOKAROUND: usize = 2;
/// Among how many first children [`Page::holds_section_run`] looks for a run's start.
const SECTION_RUN_START: usize = 5;
/// Other posts the run has at least, each with this much prose.
const MIN_REPLIES: usize = 2;
const MIN_POST_PROSE: f32 = 25.0;
/// Ancestors a paragraph's score reaches.
const SCORE_ANCESTORS: usize = 5;

impl<'a> Page<'a> {
    /// Measures the page for an extraction with this `cleaning`: the strict one leaves
    /// unlikely-by-class subtrees out of the pass and weighs classes; the others measure
    /// them, and [`Page::left_out`] applies what their step of the cleaning removes.
    pub(crate) fn measure(dom: &'a Dom, index: &'a Index, cleaning: Cleaning) -> Page<'a> {
        let styles = index.styles();
        let n = dom.len();
        let body = dom
            .body()
            .or_else(|| dom.document_element())
            .unwrap_or(NodeId::DOCUMENT);
        let mut page = Page {
            dom,
            index,
            styles,
            order: vec![0; n],
            flags: vec![0; n],
            agg: vec![Agg::default(); n],
            score: vec![0.0; n],
            weight: vec![0.0; n],
            candidates: Vec::new(),
            cleaning,
            body,
            json_ld: Vec::new(),
            microdata_products: Vec::new(),
            h1s: Vec::new(),
        };
        page.pass();
        page
    }

    /// One pre-order walk (explicit stack) that flags, then aggregates children into parents
    /// on the way out.
    fn pass(&mut self) {
        let dom = self.dom;
        // (node, leaving, visibility hidden inherited)
        let mut stack: Vec<(NodeId, bool, bool)> = vec![(NodeId::DOCUMENT, false, false)];
        let mut next_order = 0u32;
        let mut hints = HintCache::default();
        let itemtype = &*ITEMTYPE;
        while let Some((id, leaving, vis)) = stack.pop() {
            let i = id.index();
            if leaving {
                self.leave(id);
                continue;
            }
            self.order[i] = next_order;
            next_order = next_order.saturating_add(1);
            match &dom.node(id).data {
                NodeData::Text(t) => {
                    if vis {
                        continue;
                    }
                    self.flags[i] |= VISITED;
                    let (chars, commas) = measure(dom.str(*t));
                    if let Some(p) = dom.node(id).parent {
                        let a = &mut self.agg[p.index()];
                        a.text = a.text.saturating_add(chars);
                        a.commas = a.commas.saturating_add(commas);
                        a.own_text = a.own_text.saturating_add(chars);
                        a.own_commas = a.own_commas.saturating_add(commas);
                    }
                }
                NodeData::Element(data) => {
                    let el = dom.element_of(data);
                    let Some(vis) = shown(self.styles, id, el, vis) else {
                        self.flags[i] |= HIDDEN;
                        // Never shown, but the page's word on what it is about.
                        if is_json_ld(el) {
                            self.json_ld.push(id);
                        } else if el.is_html(&local_name!("head")) {
                            self.json_ld.extend(
                                dom.descendants(id)
                                    .filter(|&d| dom.element(d).is_some_and(is_json_ld)),
                            );
                        }
                        continue;
                    };
                    self.flags[i] |= VISITED;
                    if vis {
                        self.flags[i] |= VIS_HIDDEN;
                    }
                    let parent = dom.node(id).parent;
                    let parent_flags = parent.map_or(0, |p| self.flags[p.index()]);
                    let in_pane = parent_flags & (PANE | IN_PANE) != 0;
                    if in_pane {
                        self.flags[i] |= IN_PANE;
                    }
                    if parent_flags & IN_CODE != 0
                        || parent.and_then(|p| dom.element(p)).is_some_and(|p| {
                            p.is_html(&local_name!("pre")) || p.is_html(&local_name!("code"))
                        })
                    {
                        self.flags[i] |= IN_CODE;
                    }
                    if parent_flags & IN_MAIN != 0
                        || parent
                            .and_then(|p| dom.element(p))
                            .is_some_and(is_main_landmark)
                    {
                        self.flags[i] |= IN_MAIN;
                    }
                    let boilerplate = is_boilerplate(el);
                    let author_block = is_author_block(el);
                    if !in_pane
                        && (boilerplate || author_block)
                        && is_item_pane(dom, id, el, author_block)
                    {
                        if boilerplate {
                            // Looked at (for what is shown) but measured as boilerplate; its
                            // class says nothing of the content.
                            self.flags[i] |= BOILER | PANE;
                            stack.push((id, true, vis));
                            push_children(&mut stack, dom, id, vis);
                            continue;
                        }
                        self.flags[i] |= AUTHOR_PANE;
                    } else if !in_pane && !boilerplate && is_profile_list(dom, id, el) {
                        self.flags[i] |= AUTHOR_PANE;
                    }
                    if boilerplate {
                        self.flags[i] |= BOILER;
                        self.count_control(id, el);
                        // Still numbered, so that a ref inside resolves to a position.
                        self.number_subtree(id, &mut next_order);
                        continue;
                    }
                    if is_microdata_product(el, itemtype) {
                        self.microdata_products.push(id);
                    }
                    let h = hints.element(el);
                    self.weight[i] = h.weight;
                    if h.share {
                        self.flags[i] |= SHARE;
                    }
                    // A section's header in the page's main landmark (its heading and intro,
                    // `div.PageSection_header`) is content; the page's header never sits there.
                    let section_header = || {
                        h.header_only
                            && self.flags[i] & IN_MAIN != 0
                            && dom.descendants(id).take(SECTION_HEADER_NODES).any(|d| {
                                dom.element(d)
                                    .and_then(heading_level)
                                    .is_some_and(|l| l > 1)
                            })
                    };
                    if h.unlikely
                        && may_be_unlikely(el)
                        && self.flags[i] & IN_CODE == 0
                        && !section_header()
                    {
                        self.flags[i] |= UNLIKELY;
                        if h.signature {
                            self.flags[i] |= SIGNATURE;
                        }
                        if self.strict() {
                            self.number_subtree(id, &mut next_order);
                            continue;
                        }
                    }
                    stack.push((id, true, vis));
                    match closed_details_summary(dom, id, el) {
                        Some(summary) => {
                            // A closed <details> shows its summary only (one child: nothing
                            // to order): the other children are hidden for every later pass.
                            for c in dom.children(id) {
                                if Some(c) == summary {
                                    stack.push((c, false, vis));
                                } else {
                                    self.flags[c.index()] |= HIDDEN;
                                }
                            }
                        }
                        None => push_children(&mut stack, dom, id, vis),
                    }
                }
                NodeData::Document => push_children(&mut stack, dom, id, vis),
                _ => {}
            }
        }
    }

    /// Controls are boilerplate, but Readability's conditional cleaning counts them in
    /// their container. Embeds (`iframe`, `object`, `embed`) are not counted: Readability's
    /// `_prepArticle` removes every one that is not a video before its conditional cleaning,
    /// and a video keeps its container, so none ever weighs against a container there.
    /// Counted here, a flash banner and its `<embed>` fallback took the paragraphs around them.
    fn count_control(&mut self, id: NodeId, el: Element<'_>) {
        if !matches!(
            *el.local(),
            local_name!("input") | local_name!("select") | local_name!("textarea")
        ) {
            return;
        }
        if let Some(p) = self.dom.node(id).parent {
            let a = &mut self.agg[p.index()];
            a.inputs = a.inputs.saturating_add(1);
        }
    }

    /// Positions for a subtree the pass does not measure.
    fn number_subtree(&mut self, root: NodeId, next: &mut u32) {
        for d in self.dom.descendants(root) {
            self.order[d.index()] = *next;
            *next = next.saturating_add(1);
        }
    }

    /// Leaving an element: finish its own numbers, score it if it is a paragraph, and add it
    /// to its parent.
    fn leave(&mut self, id: NodeId) {
        let dom = self.dom;
        let Some(el) = dom.element(id) else { return };
        let i = id.index();
        if self.flags[i] & (PANE | IN_PANE) != 0 {
            // A pane counts nothing outside itself, and nothing inside it scores; but it is a
            // block its parent holds (a link around it reads as blocks, not in brackets).
            if self.flags[i] & PANE != 0 {
                if let Some(p) = dom.node(id).parent {
                    self.flags[p.index()] |= BLOCK_CHILD;
                }
            }
            return;
        }
        let mut a = self.agg[i];
        let html = el.in_html_ns();
        if html {
            match *el.local() {
                local_name!("a") => {
                    let hash = el
                        .attr(&local_name!("href"))
                        .is_some_and(|h| h.trim_start().starts_with('#'));
                    a.link = a.text as f32 * if hash { 0.3 } else { 1.0 };
                }
                local_name!("p") => a.paragraphs += 1,
                local_name!("img") => a.images += 1,
                local_name!("li") => a.items += 1,
                _ => {}
            }
            match *el.local() {
                local_name!("pre") => a.code_text = a.text,
                local_name!("ul") | local_name!("ol") => a.list_text = a.text,
                local_name!("time") => a.time_text = a.text,
                _ => {}
            }
            if *el.local() == local_name!("table") && !self.index.is_layout_table(id) {
                a.data_tables += 1;
            }
            if let Some(level) = heading_level(el) {
                a.heading_text = a.text;
                a.heading_prose = (a.text as f32 - a.link).max(0.0) as u32;
                if level == 1 && self.flags[i] & VIS_HIDDEN == 0 {
                    self.h1s.push(id);
                }
            }
        }
        self.agg[i] = a;
        // Paragraph-like blocks score onto their ancestors: Readability's tags to score, and
        // a div holding only inline content (which Readability turns into a <p>).
        let paragraph_like = html
            && match *el.local() {
                local_name!("p")
                | local_name!("pre")
                | local_name!("td")
                | local_name!("section")
                | local_name!("h2")
                | local_name!("h3")
                | local_name!("h4")
                | local_name!("h5")
                | local_name!("h6") => true,
                local_name!("div") => self.flags[i] & BLOCK_CHILD == 0,
                _ => false,
            };
        if paragraph_like {
            if a.text >= MIN_PARAGRAPH {
                self.score_paragraph(id, a.text, a.commas);
            }
        } else if self.flags[i] & BLOCK_CHILD != 0 && a.own_text >= MIN_PARAGRAPH {
            // Loose text beside blocks: Readability wraps it in a <p> whose parent is `el`.
            self.init_candidate(id);
            self.score[i] += paragraph_score(a.own_text, a.own_commas);
            self.score_paragraph(id, a.own_text, a.own_commas);
        }
        let Some(parent) = dom.node(id).parent else {
            return;
        };
        let p = parent.index();
        let block = is_block(el);
        if block {
            self.flags[p] |= BLOCK_CHILD;
        }
        let pa = &mut self.agg[p];
        pa.text = pa.text.saturating_add(a.text);
        pa.link += a.link;
        pa.commas = pa.commas.saturating_add(a.commas);
        pa.paragraphs = pa.paragraphs.saturating_add(a.paragraphs);
        pa.images = pa.images.saturating_add(a.images);
        pa.items = pa.items.saturating_add(a.items);
        pa.inputs = pa.inputs.saturating_add(a.inputs);
        pa.heading_text = pa.heading_text.saturating_add(a.heading_text);
        pa.heading_prose = pa.heading_prose.saturating_add(a.heading_prose);
        pa.code_text = pa.code_text.saturating_add(a.code_text);
        pa.list_text = pa.list_text.saturating_add(a.list_text);
        pa.time_text = pa.time_text.saturating_add(a.time_text);
        let table = u32::from(html && *el.local() == local_name!("table"));
        pa.tables = pa.tables.saturating_add(a.tables + table);
        pa.data_tables = pa.data_tables.saturating_add(a.data_tables);
        if !block {
            pa.own_text = pa.own_text.saturating_add(a.text);
            pa.own_commas = pa.own_commas.saturating_add(a.commas);
        }
    }

    /// Adds a paragraph's score to up to five ancestors of `id` (not counting `id`): the
    /// parent in full, the grandparent half, further ones a third of their level.
    fn score_paragraph(&mut self, id: NodeId, chars: u32, commas: u32) {
        let score = paragraph_score(chars, commas);
        let dom = self.dom;
        let mut level = 0usize;
        let mut current = dom.node(id).parent;
        while let Some(anc) = current {
            if level >= SCORE_ANCESTORS {
                break;
            }
            // Readability stops below the root element (an ancestor needs a parent element).
            let Some(up) = dom.node(anc).parent else {
                break;
            };
            if dom.element(anc).is_none() || dom.element(up).is_none() {
                break;
            }
            self.init_candidate(anc);
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f32 * 3.0,
            };
            self.score[anc.index()] += score / divider;
            level += 1;
            current = Some(up);
        }
    }

    /// `_initializeNode`: a tag's base score and the class weight, once.
    fn init_candidate(&mut self, id: NodeId) {
        let i = id.index();
        if self.flags[i] & CANDIDATE != 0 {
            return;
        }
        self.flags[i] |= CANDIDATE;
        self.candidates.push(id);
        let Some(el) = self.dom.element(id) else {
            return;
        };
        let base = if !el.in_html_ns() {
            0.0
        } else {
            match *el.local() {
                local_name!("div") => 5.0,
                local_name!("pre") | local_name!("td") | local_name!("blockquote") => 3.0,
                local_name!("address")
                | local_name!("ol")
                | local_name!("ul")
                | local_name!("dl")
                | local_name!("dd")
                | local_name!("dt")
                | local_name!("li")
                | local_name!("form") => -3.0,
                local_name!("h1")
                | local_name!("h2")
                | local_name!("h3")
                | local_name!("h4")
                | local_name!("h5")
                | local_name!("h6")
                | local_name!("th") => -5.0,
                // Not in Readability: the page's own word for its main content.
                _ if is_main_hint(el) => 10.0,
                _ => 0.0,
            }
        };
        let weight = if self.strict() { self.weight[i] } else { 0.0 };
        self.score[i] = base + weight;
    }

    /// The final score of a candidate: its content score times (1 − link density).
    fn final_score(&self, id: NodeId) -> f32 {
        self.score[id.index()] * (1.0 - self.agg[id.index()].link_density())
    }

    /// The final score, 0 for an element that did not score.
    pub(crate) fn score_of(&self, id: NodeId) -> f32 {
        if self.is_candidate(id) {
            self.final_score(id)
        } else {
            0.0
        }
    }

    /// Whether an element is never read: hidden, boilerplate, or not looked at by the pass.
    pub(crate) fn not_shown(&self, id: NodeId) -> bool {
        self.flags[id.index()] & (HIDDEN | BOILER | VISITED) != VISITED
    }

    /// The first shown heading of a shown item pane (`PANE`, `AUTHOR_PANE`): the name of the
    /// item's author (a theme that repeats it for another screen size has a second; the
    /// pane's badges and counts are not read). `Some(None)` for a pane without one, `None`
    /// for any other element.
    pub(crate) fn pane_heading(&self, id: NodeId) -> Option<Option<NodeId>> {
        if self.flags[id.index()] & (PANE | AUTHOR_PANE) == 0 || !self.laid_out(id) {
            return None;
        }
        // The pass visits nothing below what it found hidden, so a node it visited and did
        // not hide is shown.
        let dom = self.dom;
        let heading = dom.descendants(id).find(|&n| {
            self.laid_out(n) && dom.element(n).is_some_and(|el| heading_level(el).is_some())
        });
        if heading.is_some()
            || !dom
                .element(id)
                .is_some_and(|el| el.is_html(&local_name!("dl")))
        {
            return Some(heading);
        }
        // A profile list (`is_profile_list`) names its member in its first term.
        Some(dom.children(id).find(|&c| {
            self.laid_out(c)
                && dom
                    .element(c)
                    .is_some_and(|e| e.is_html(&local_name!("dt")))
        }))
    }

    /// Whether `el` is a `<label>` of a checkbox. A label around a heading is not counted:
    /// it is a card a person ticks (a plan, an add-on with its description), and is read.
    fn labels_a_checkbox(&self, id: NodeId, el: Element<'_>) -> bool {
        labeled_control(self.dom, self.index, id, el)
            .and_then(|c| self.dom.element(c))
            .is_some_and(|c| c.is_html(&local_name!("input")) && input_type(c) == "checkbox")
            && self.agg[id.index()].heading_text == 0
    }

    /// Whether unlikely-by-class subtrees are left out of the pass and class weights apply.
    fn strict(&self) -> bool {
        self.cleaning == Cleaning::Strict
    }

    /// Whether a node is laid out: the pass looked at it and did not find it hidden, whatever
    /// else it made of it (a left-out block still ends the line before it; a pane's name is
    /// read from such nodes).
    pub(crate) fn laid_out(&self, id: NodeId) -> bool {
        self.flags[id.index()] & (HIDDEN | VISITED) == VISITED
    }

    /// Whether a control (boilerplate to the content, but looked at) is shown.
    pub(crate) fn control_shown(&self, id: NodeId) -> bool {
        self.flags[id.index()] & (HIDDEN | VIS_HIDDEN | VISITED) == VISITED
    }

    /// Whether an element of the content is left out with its subtree: hidden, boilerplate
    /// or never looked at by the pass, and on the strict attempt what Readability's
    /// `_prepArticle` removes. `in_figure`: inside a `<figure>`, where images are content.
    pub(crate) fn left_out(&self, id: NodeId, el: Element<'_>, in_figure: bool) -> bool {
        if self.not_shown(id) {
            return true;
        }
        let conditional = el.in_html_ns()
            && match *el.local() {
                local_name!("div") | local_name!("section") | local_name!("ul") => true,
                local_name!("ol") => true,
                local_name!("table") => self.index.is_layout_table(id),
                _ => false,
            };
        // Whatever the cleaning: a spinner's "Loading…" or an empty slot's "Advertisement"
        // is never content.
        if conditional
            && self.agg[id.index()].text <= MAX_PLACEHOLDER
            && self.says_only_placeholder(id)
        {
            return true;
        }
        // Whatever the cleaning: a checkbox's label is the control's name, and controls are
        // not content. It is a filter's option ("black", "Under $75"), a "Compare" or
        // "Remember me" box, a newsletter or terms consent; the snapshot shows it on its
        // checkbox, and `read`'s listing line says which filters are on. (A radio's label
        // stays: a product's sizes and colours are its options.)
        if self.labels_a_checkbox(id, el) {
            return true;
        }
        // Whatever the cleaning: a signature (the relaxed one keeps other unlikely blocks, a
        // thread's `comment` posts). It still counts when the content is chosen.
        if self.flags[id.index()] & SIGNATURE != 0 {
            return true;
        }
        if self.cleaning == Cleaning::Relaxed {
            return false;
        }
        if self.out_by_class(id) {
            return true;
        }
        if self.cleaning == Cleaning::Classes {
            return false;
        }
        if matches!(heading_level(el), Some(1 | 2)) && self.weight[id.index()] < 0.0 {
            return true;
        }
        conditional && !is_author(el) && self.cleaned_conditionally(id, el, in_figure)
    }

    /// Whether a table reads as rows of cells: a data table (not a layout table) that
    /// holds no table. A table of tables is laid out with tables, whatever its size.
    pub(crate) fn reads_as_table(&self, id: NodeId) -> bool {
        let a = &self.agg[id.index()];
        a.tables == 0 && a.data_tables > 0
    }

    /// Readability's `_cleanConditionally`: a container that looks like a link list, an
    /// image gallery, a form or an embed rather than prose.
    fn cleaned_conditionally(&self, id: NodeId, el: Element<'_>, in_figure: bool) -> bool {
        let a = self.agg[id.index()];
        let weight = self.weight[id.index()];
        // Readability 0.5 and later judge by the class weight alone here (its `contentScore` is
        // 0): a candidate's score starts from its tag's prior, -3 for a list, and a list of
        // short items under a scored paragraph stayed negative and went whole ("What to bring:
        // photo ID, ..." read without its items).
        // What holds a data table is not judged by its class (Readability 0.5 and later keep
        // it whole; here the other rules still apply): a `div.scrollable-table` around a
        // shopping list weighs -25 ("scroll").
        if weight < 0.0 && a.data_tables == 0 {
            return true;
        }
        // A code block's frame (its title bar, language tabs, copy button): links and controls
        // around a `pre` whose text is most of the container's. Readability keeps what is
        // inside `code`; documentation wraps each block so.
        if a.commas >= 10 || a.code_text.saturating_mul(2) >= a.text.max(1) {
            return false;
        }
        // A list, or a block that is nine tenths list (Readability's `isList` since 0.5: a
        // changelog's section, one line and then its links), is not judged by its links the
        // way a block of prose is.
        let is_list = el.is_html(&local_name!("ul"))
            || el.is_html(&local_name!("ol"))
            || a.list_text as u64 * 10 > a.text as u64 * 9;
        let p = a.paragraphs as f32;
        let img = a.images as f32;
        let li = a.items as f32 - 100.0;
        let heading_density = if a.text == 0 {
            0.0
        } else {
            a.heading_text as f32 / a.text as f32
        };
        // The link rules spare a block of headings or a date (ours): a post's author cell, its
        // name linked in an `h4`, and its date, a permalink around a `<time>`, are no link
        // list (a heading is never left out by its class either).
        let spared = heading_density >= 0.9
            || (a.time_text > 0 && a.time_text as u64 * 10 >= a.text as u64 * 9);
        let density = a.link_density();
        (img > 1.0 && p / img < 0.5 && !in_figure)
            || (!is_list && li > p)
            || (a.inputs as f32 > (p / 3.0).floor())
            || (!is_list
                && heading_density < 0.9
                && a.text < 25
                && (a.images == 0 || a.images > 2)
                && !in_figure)
            || (((!is_list && weight < 25.0 && density > 0.2) || (weight >= 25.0 && density > 0.5))
                && !spared
                && !self.in_section_run(id, el)
                && !self.body_of_section_run(id)
                && !self.holds_section_run(id))
    }

    /// Whether `id` is a section of the content among sections like it: it has a heading
    /// and a paragraph of prose, and so have two of its nearest siblings of its tag and first
    /// class (a ranking's entries, each a linked name, a blurb and a list of linked facts).
    /// Readability judges each container alone, and the links of each entry take all of
    /// them; a run of them is the article's own structure, which a link list, a gallery or a
    /// form beside the prose is not.
    fn in_section_run(&self, id: NodeId, el: Element<'_>) -> bool {
        // A teaser's title is a link to what it teases, all of it: a section's heading has
        // words of the page's own.
        let section = |c: NodeId| {
            let a = self.agg[c.index()];
            a.heading_prose > 0 && a.paragraphs > 0 && self.prose(c) >= MIN_SECTION_PROSE
        };
        if !section(id) {
            return false;
        }
        let class = first_class(el);
        let like = |c: NodeId| {
            self.dom
                .element(c)
                .is_some_and(|e| e.local() == el.local() && first_class(e) == class)
                && !self.not_shown(c)
                && section(c)
        };
        let like_near = |ahead: bool| {
            element_siblings(self.dom, id, ahead)
                .take(SECTION_LOOKAROUND)
                .filter(|&c| like(c))
                .count()
        };
        like_near(false) + like_near(true) >= 2
    }

    /// Whether a run of sections ([`Page::in_section_run`]) starts among the first element
    /// children of `id` (after an intro or two): the run's container, whose links are the
    /// sections' own.
    fn holds_section_run(&self, id: NodeId) -> bool {
        self.dom
            .children(id)
            .filter_map(|c| Some(c).zip(self.dom.element(c)))
            .filter(|&(c, _)| !self.not_shown(c) && self.agg[c.index()].text > 0)
            .take(SECTION_RUN_START)
            .any(|(c, el)| self.in_section_run(c, el))
    }

    /// Whether `id` is the body of a section of a run ([`Page::in_section_run`]): most of the
    /// prose of its parent, the section (Asciidoctor's `div.sect1 > h2 + div.sectionbody`).
    /// Kept with the section, or the section's heading would stand alone.
    fn body_of_section_run(&self, id: NodeId) -> bool {
        self.parent_element(id).is_some_and(|p| {
            self.prose(id) * 2.0 >= self.prose(p)
                && self
                    .dom
                    .element(p)
                    .is_some_and(|el| self.in_section_run(p, el))
        })
    }

    /// Whether the shown text of `id` is only an ad label or a loading placeholder
    /// ([`is_placeholder`]). Called for elements of at most [`MAX_PLACEHOLDER`] characters;
    /// a subtree of more than [`PLACEHOLDER_NODES`] nodes is not a placeholder, so that
    /// nested wrappers of one short word are not each walked to the bottom.
    fn says_only_placeholder(&self, id: NodeId) -> bool {
        if self.dom.descendants(id).nth(PLACEHOLDER_NODES).is_some() {
            return false;
        }
        let mut text = TextBuf::new(MAX_PLACEHOLDER as usize + 1);
        self.shown_text(id).for_each(|t| text.push_str(t));
        is_placeholder(text.as_str())
    }

    /// Characters of visible text the content `parts` keep after cleaning (what a read of
    /// them shows, less its markup).
    pub(crate) fn kept_chars(&self, parts: &[NodeId]) -> usize {
        let dom = self.dom;
        let mut total = 0usize;
        // (node, figures open above it)
        let mut stack: Vec<(NodeId, usize)> = parts.iter().rev().map(|&p| (p, 0)).collect();
        while let Some((id, figures)) = stack.pop() {
            match &dom.node(id).data {
                NodeData::Text(t) if !self.text_hidden(id) => {
                    total = total.saturating_add(measure(dom.str(*t)).0 as usize);
                }
                NodeData::Element(data) => {
                    let el = dom.element_of(data);
                    // (A signature counts here: it is left out of what is read, not of
                    // what the extractions are compared by.)
                    let signature = self.flags[id.index()] & SIGNATURE != 0 && !self.not_shown(id);
                    if !signature && self.left_out(id, el, figures > 0) {
                        continue;
                    }
                    let figures = figures + usize::from(el.is_html(&local_name!("figure")));
                    push_in_order(&mut stack, dom.children(id).map(|c| (c, figures)));
                }
                _ => {}
            }
        }
        total
    }

    /// Whether the class rules of the strict cleanings take the element: Readability's
    /// unlikely candidates, and share bars (`_clean` of share elements under
    /// [`SHARE_BAR_MAX`] characters).
    fn out_by_class(&self, id: NodeId) -> bool {
        let flags = self.flags[id.index()];
        flags & UNLIKELY != 0 || (flags & SHARE != 0 && self.agg[id.index()].text < SHARE_BAR_MAX)
    }

    /// The elements of `parts` a read leaves out by their class (a post's signature, a
    /// share bar, a related-posts box: [`Page::out_by_class`]), in document order. Not what
    /// the conditional cleaning takes: it judges a block by its link and image counts, and a
    /// changelog's list of links or a paragraph beside it is content the snapshot must
    /// still show.
    pub(crate) fn left_out_by_class(&self, parts: &[NodeId]) -> Vec<NodeId> {
        let dom = self.dom;
        let mut out = Vec::new();
        if self.cleaning == Cleaning::Relaxed {
            return out;
        }
        let mut stack: Vec<NodeId> = parts.iter().rev().copied().collect();
        while let Some(id) = stack.pop() {
            if dom.element(id).is_none() || self.not_shown(id) {
                continue;
            }
            if self.out_by_class(id) {
                out.push(id);
                continue;
            }
            push_in_order(&mut stack, dom.children(id));
        }
        out
    }

    /// The shown text of the subtree of `id`, a text node at a time, in document order.
    pub(crate) fn shown_text(&self, id: NodeId) -> impl Iterator<Item = &'a str> + '_ {
        let dom = self.dom;
        dom.descendants(id)
            .filter_map(move |d| dom.text(d).filter(|_| !self.text_hidden(d)))
    }

    /// Whether a text node is hidden: itself (a closed `<details>`' loose text) or by the
    /// `visibility:hidden` of its parent.
    pub(crate) fn text_hidden(&self, id: NodeId) -> bool {
        !self.laid_out(id)
            || self
                .dom
                .node(id)
                .parent
                .is_some_and(|p| self.flags[p.index()] & VIS_HIDDEN != 0)
    }

    /// Whether `visibility:hidden` applies to the element itself: an image's alt text is
    /// then not shown, like its text.
    pub(crate) fn visibility_hidden(&self, id: NodeId) -> bool {
        self.flags[id.index()] & VIS_HIDDEN != 0
    }

    /// Whether the element has a block-level element anywhere below it (a card's link:
    /// `<a><span><div>title</div></span></a>`). Links do not nest, so asking this of every
    /// link walks each part of the page once at most.
    pub(crate) fn holds_block(&self, id: NodeId) -> bool {
        self.flags[id.index()] & BLOCK_CHILD != 0
            || self
                .dom
                .descendants(id)
                .any(|d| self.flags[d.index()] & BLOCK_CHILD != 0)
    }

    fn is_candidate(&self, id: NodeId) -> bool {
        self.flags[id.index()] & CANDIDATE != 0
    }

    /// The main content: the top candidate and the siblings that join it, in document
    /// order; `None` when nothing on the page scored.
    pub(crate) fn main_content(&self) -> Option<Main> {
        let mut top: Vec<(NodeId, f32)> = Vec::with_capacity(6);
        for &c in &self.candidates {
            if c == self.body || self.dom.element(c).is_none() {
                continue;
            }
            let s = self.final_score(c);
            // Ties keep the earlier candidate: the result depends on the page only.
            let at = top.iter().position(|&(_, t)| s > t).unwrap_or(top.len());
            if at < 5 {
                top.insert(at, (c, s));
                top.truncate(5);
            }
        }
        let &(mut best, mut best_score) = top.first()?;
        let score_of = |id: NodeId| self.score_of(id);
        // Several near-equal candidates: their common container is the content.
        let alternatives: Vec<NodeId> = top[1..]
            .iter()
            .filter(|&&(_, s)| best_score > 0.0 && s / best_score >= 0.75)
            .map(|&(id, _)| id)
            .collect();
        if alternatives.len() >= 3 {
            let mut up = self.parent_element(best);
            while let Some(p) = up.filter(|&p| p != self.body) {
                let containing = alternatives
                    .iter()
                    .filter(|&&alt| self.is_ancestor(p, alt))
                    .count();
                if containing >= 3 {
                    best = p;
                    best_score = score_of(p);
                    break;
                }
                up = self.parent_element(p);
            }
        }
        // Climb while the parent scores close to it (its siblings are content too).
        let mut last = score_of(best).max(best_score);
        let threshold = last / 3.0;
        let mut up = self.parent_element(best);
        while let Some(p) = up.filter(|&p| p != self.body) {
            if !self.is_candidate(p) {
                up = self.parent_element(p);
                continue;
            }
            let s = score_of(p);
            if s < threshold {
                break;
            }
            if s > last {
                best = p;
                break;
            }
            last = s;
            up = self.parent_element(p);
        }
        // An only child says no more than its parent.
        while let Some(p) = self.parent_element(best).filter(|&p| p != self.body) {
            if self
                .dom
                .children(p)
                .filter(|&c| self.dom.element(c).is_some())
                .count()
                != 1
            {
                break;
            }
            best = p;
        }
        // A part of the content is not the content: a service page's first section, one post
        // of a thread, the intro of a product. The top candidate grows to the nearest
        // ancestor holding `COVER` of the page's prose (text outside links), unless that
        // ancestor is mostly links (the page's chrome, not more of its content).
        let total = self.prose(self.body);
        // When none below the body holds it and no child of the body holds most of the
        // page's text (the largest text region is the body), the content is spread over the
        // body's children, a landing page's sections side by side: the body is the content,
        // its boilerplate left out as everywhere ("sections in order"; Readability would read
        // the one section with the most commas, a FAQ). Where one child does hold most, the
        // fallback chain reads that region (`content::find`).
        let spread = || self.largest_text_region() == Some(self.body);
        let mut up = Some(best);
        while let Some(p) = up {
            if p == self.body && !spread() {
                break;
            }
            if self.prose(p) >= COVER * total {
                if self.agg[p.index()].link_density() < 0.5 {
                    best = p;
                }
                break;
            }
            up = self.parent_element(p);
        }
        if let Some(table) = self.table_of_rows(best) {
            best = table;
        }
        if let Some(run) = self.post_run(best) {
            best = run;
        }
        if let Some(thread) = self.thread_scope(best) {
            best = thread;
        }
        let mut parts = self.join_siblings(best);
        if let Some(lead) = self.headline_block(best, &parts) {
            parts.insert(0, lead);
        }
        Some(Main { top: best, parts })
    }

    /// The block holding the page's headline (its first shown `h1`), when that block comes
    /// before the content found, outside it, and holds a lead's worth of prose
    /// ([`LEAD_PROSE`]): a thread's title and first post above its replies (a story above
    /// its comments, which outweigh it), a landing page's hero above its sections, an
    /// article's standfirst above its body. Readability names the title apart from the
    /// body it reads; a read has no other place to show them. The block is the headline's
    /// ancestor just below the nearest element holding the content too, never the body.
    /// The lead is what a read of the block keeps, not its raw prose: a headline beside an
    /// author's box that the cleaning takes would join as content for the snapshot while
    /// the read shows none of it.
    fn headline_block(&self, top: NodeId, parts: &[NodeId]) -> Option<NodeId> {
        let h1 = self.h1s.iter().copied().find(|&h| !self.not_shown(h))?;
        let &first = parts.first()?;
        let both = structured::common_ancestor(self.dom, h1, top)
            .filter(|&c| c != h1 && c != self.body && self.is_ancestor(self.body, c))?;
        let mut block = h1;
        while let Some(parent) = self.parent_element(block).filter(|&p| p != both) {
            block = parent;
        }
        // The parts are the top and its siblings: the headline is inside one of them when
        // the top holds it or its block is one of them.
        if both == top || parts.contains(&block) {
            return None;
        }
        let unlikely = self.strict() && self.flags[block.index()] & UNLIKELY != 0;
        let shown = !(self.not_shown(block) || unlikely);
        (shown
            && self.prose(block) >= LEAD_PROSE
            && self.agg[block.index()].link_density() < 0.5
            && structured::precedes(self.dom, block, first)
            && self.kept_chars(&[block]) >= LEAD_PROSE as usize)
            .then_some(block)
    }

    /// The data table whose body or row the top candidate is: the rows score (their cells
    /// are the paragraphs), but a table's body is not the table. Its head names the columns
    /// and its rows read as rows only from the table (a comparison of cloud services read as
    /// loose cells, without "Service category | Service type | …").
    fn table_of_rows(&self, top: NodeId) -> Option<NodeId> {
        let el = self.dom.element(top)?;
        let rows = matches!(
            *el.local(),
            local_name!("tbody") | local_name!("thead") | local_name!("tfoot") | local_name!("tr")
        );
        if !(rows && el.in_html_ns()) {
            return None;
        }
        let (table, _) = self
            .dom
            .ancestors(top)
            .take(2)
            .find(|(_, e)| e.is_html(&local_name!("table")))?;
        (!self.index.is_layout_table(table)).then_some(table)
    }

    /// The parent of the run of posts the content is one of: the top candidate, or an
    /// ancestor a few levels up, that forum software numbers as a post (`id="post-4896267"`,
    /// `msg4175421`) and that has siblings of its tag and first class holding prose too (the
    /// thread's replies after its first post). One long first post holds most of a thread's
    /// prose, so the coverage step stops at it; the run is the thread. Not through the body,
    /// nor to a parent that is mostly links. (Page builders repeat tag and class as much,
    /// `div.elementor-element` around an article's parts, but do not number posts.)
    fn post_run(&self, top: NodeId) -> Option<NodeId> {
        let mut id = top;
        for _ in 0..POST_ANCESTORS {
            let parent = self.parent_element(id).filter(|&p| p != self.body)?;
            let el = self.dom.element(id)?;
            if let Some(class) = first_class(el).filter(|_| is_post_id(el)) {
                let same = self
                    .dom
                    .children(parent)
                    .filter(|&c| c != id && self.prose(c) >= MIN_POST_PROSE)
                    .filter(|&c| {
                        self.dom.element(c).is_some_and(|e| {
                            e.local() == el.local() && first_class(e) == Some(class)
                        })
                    })
                    .count();
                if same >= MIN_REPLIES && self.agg[parent.index()].link_density() < 0.5 {
                    return Some(parent);
                }
            }
            id = parent;
        }
        None
    }

    /// The element the page's microdata names as the thread (a `Question`, a
    /// `DiscussionForumPosting`) around the content chosen: on a Q&A page the answers hold
    /// most of the prose and the question sits beside them, its first post, under the
    /// thread's scope with the thread's title. Not the body, nor an element that is mostly
    /// links.
    fn thread_scope(&self, top: NodeId) -> Option<NodeId> {
        let itemtype = &*ITEMTYPE;
        self.dom
            .ancestors(top)
            .take_while(|&(id, _)| id != self.body)
            .find(|&(_, el)| is_microdata_thread(el, itemtype))
            .map(|(id, _)| id)
            .filter(|&id| self.agg[id.index()].link_density() < 0.5)
    }

    /// Text outside links.
    fn prose(&self, id: NodeId) -> f32 {
        let a = self.agg[id.index()];
        (a.text as f32 - a.link).max(0.0)
    }

    /// The largest run of cards: consecutive sibling elements of one tag and first class,
    /// each with a link and some text (a category page's products, a listing's results, a
    /// forum's threads), four at least. Returns their parent and the text the run holds.
    ///
    /// Cards differ in their other classes (`item has-image has-audio` beside `item
    /// has-image`: a result with a podcast and one without), and a listing interleaves ad
    /// slots (`<aside class="ad-wrap">`) and empty spacers: a sibling that is boilerplate,
    /// hidden or without text neither counts nor ends the run.
    pub(crate) fn largest_card_run(&self) -> Option<(NodeId, u32)> {
        let dom = self.dom;
        let card = |id: NodeId| {
            let a = self.agg[id.index()];
            self.flags[id.index()] & (HIDDEN | BOILER | UNLIKELY | VISITED) == VISITED
                && a.text >= MIN_CARD_TEXT
                && a.link > 0.0
        };
        let passed_by = |id: NodeId| self.not_shown(id) || self.agg[id.index()].text == 0;
        let mut best: Option<(NodeId, u32)> = None;
        for (parent, _) in dom.elements() {
            if self.not_shown(parent) || self.agg[parent.index()].text < MIN_CARD_TEXT * 4 {
                continue;
            }
            // (signature of the run, cards in it, their text)
            let mut run: Option<(Element<'_>, u32, u32)> = None;
            for c in dom.children(parent) {
                let Some(el) = dom.element(c) else { continue };
                if passed_by(c) {
                    continue;
                }
                let same = run.as_ref().is_some_and(|(first, _, _)| {
                    first.local() == el.local() && first_class(*first) == first_class(el)
                });
                if !same {
                    run = None;
                }
                if !card(c) {
                    run = None;
                    continue;
                }
                let (_, count, text) = run.get_or_insert((el, 0, 0));
                *count += 1;
                *text = text.saturating_add(self.agg[c.index()].text);
                if *count >= MIN_CARDS && best.is_none_or(|(_, t)| *text > t) {
                    best = Some((parent, *text));
                }
            }
        }
        best
    }

    /// The largest region of visible text: from the body down, into the child element
    /// holding `REGION_SHARE` of the page's text while there is one (the page's one big
    /// column, below its unmarked header and footer). The fallback when the scored content
    /// keeps next to nothing of a page that has text (`content::find`).
    pub(crate) fn largest_text_region(&self) -> Option<NodeId> {
        let total = self.agg[self.body.index()].text;
        if total == 0 {
            return None;
        }
        let mut current = self.body;
        loop {
            let biggest = self
                .dom
                .children(current)
                .filter(|&c| {
                    self.dom.element(c).is_some()
                        && !self.not_shown(c)
                        && !(self.strict() && self.flags[c.index()] & UNLIKELY != 0)
                })
                .max_by_key(|&c| self.agg[c.index()].text);
            match biggest {
                Some(c) if self.agg[c.index()].text as f32 >= REGION_SHARE * total as f32 => {
                    current = c;
                }
                _ => return Some(current),
            }
        }
    }

    fn parent_element(&self, id: NodeId) -> Option<NodeId> {
        self.dom
            .node(id)
            .parent
            .filter(|&p| self.dom.element(p).is_some())
    }

    pub(crate) fn is_ancestor(&self, anc: NodeId, mut id: NodeId) -> bool {
        while let Some(p) = self.dom.node(id).parent {
            if p == anc {
                return true;
            }
            id = p;
        }
        false
    }

    /// The top candidate with the siblings that score close to it, or are paragraphs of
    /// prose, in document order.
    fn join_siblings(&self, top: NodeId) -> Vec<NodeId> {
        let Some(parent) = self.parent_element(top) else {
            return vec![top];
        };
        let top_score = if self.is_candidate(top) {
            self.final_score(top)
        } else {
            0.0
        };
        let threshold = (top_score * 0.2).max(10.0);
        let top_class = self
            .dom
            .element(top)
            .and_then(|e| e.attr(&local_name!("class")))
            .filter(|c| !c.is_empty());
        let mut parts = Vec::new();
        for s in self.dom.children(parent) {
            let Some(el) = self.dom.element(s) else {
                continue;
            };
            if s == top {
                parts.push(s);
                continue;
            }
            if self.flags[s.index()] & (HIDDEN | BOILER) != 0
                || (self.strict() && self.flags[s.index()] & UNLIKELY != 0)
            {
                continue;
            }
            let bonus = match (top_class, el.attr(&local_name!("class"))) {
                (Some(a), Some(b)) if a == b => top_score * 0.2,
                _ => 0.0,
            };
            let joins = if self.is_candidate(s) && self.final_score(s) + bonus >= threshold {
                true
            } else if el.is_html(&local_name!("p")) {
                let a = self.agg[s.index()];
                let density = a.link_density();
                if a.text > 80 {
                    density < 0.25
                } else {
                    a.text > 0 && a.link == 0.0 && ends_a_sentence(self.dom, s)
                }
            } else {
                false
            };
            if joins {
                parts.push(s);
            }
        }
        parts
    }
}

/// Words that end the `id` prefix forum software gives a post before its number: XenForo's
/// and vBulletin's `post-123`/`post_123`, SMF's `msg123`, Invision's `elComment_123`, and
/// replies and answers. (phpBB's `p123` is the bare letter, below.)
const POST_ID_WORDS: &[&str] = &["post", "msg", "message", "comment", "reply", "answer"];

/// Whether the element's `id` numbers it as a post: a prefix ending in one of
/// [`POST_ID_WORDS`] (case aside) or the bare letter `p`, an optional `-` or `_`, and two
/// digits or more.
fn is_post_id(el: Element<'_>) -> bool {
    let Some(id) = el.attr(&local_name!("id")) else {
        return false;
    };
    let prefix = id.trim_end_matches(|c: char| c.is_ascii_digit());
    let word = prefix.trim_end_matches(['-', '_']).to_ascii_lowercase();
    id.len() - prefix.len() >= 2 && (word == "p" || POST_ID_WORDS.iter().any(|w| word.ends_with(w)))
}

/// A paragraph's own score: 1, plus 1 per comma-separated piece, plus 1 per 100 characters
/// up to 3.
fn paragraph_score(chars: u32, commas: u32) -> f32 {
    1.0 + (commas as f32 + 1.0) + (chars / 100).min(3) as f32
}

/// Readability's test for a short paragraph of prose: a full stop followed by a space or the
/// end (`/\.( |$)/`).
fn ends_a_sentence(dom: &Dom, id: NodeId) -> bool {
    let mut text = String::new();
    for d in dom.descendants(id) {
        if let Some(t) = dom.text(d) {
            text.push_str(t);
            if text.len() > 400 {
                break;
            }
        }
    }
    let text = crate::text::normalize(&text);
    text.ends_with('.') || text.contains(". ")
}

/// The main content found.
pub(crate) struct Main {
    /// The top candidate (after climbing): the element named as the main content.
    pub top: NodeId,
    /// The elements read, in document order: the top candidate and the siblings joining it.
    pub parts: Vec<NodeId>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn main_of(html: &str) -> Option<String> {
        let dom = Dom::parse(html);
        let index = Index::with_styles(&dom, Styles::build(&dom, &Default::default()));
        let page = Page::measure(&dom, &index, Cleaning::Strict);
        let main = page.main_content()?;
        let el = dom.element(main.top)?;
        Some(
            el.attr(&local_name!("id"))
                .unwrap_or(el.local())
                .to_string(),
        )
    }

    use crate::testutil::PROSE;

    #[test]
    fn measures_text_as_it_renders() {
        assert_eq!(measure("  a \n b, c  "), (6, 1));
        assert_eq!(measure("金价，今日"), (5, 1));
    }

    /// A header whose prose the cleaning takes is no lead: a headline beside an author's
    /// box of links and a bio joins only if what a read keeps of it is a lead's worth, or the
    /// snapshot would rank as content a block the read shows none of.
    #[test]
    fn a_headline_beside_a_box_the_cleaning_takes_does_not_join() {
        let links: String = (1..=6)
            .map(|n| format!(" <a href=/author/{n}>the author's article number {n}</a>"))
            .collect();
        let joins = |html: &str| {
            let dom = Dom::parse(html);
            let index = Index::with_styles(&dom, Styles::build(&dom, &Default::default()));
            let page = Page::measure(&dom, &index, Cleaning::Strict);
            let main = page.main_content().expect("content");
            main.parts.iter().any(|&p| {
                dom.element(p)
                    .is_some_and(|e| e.attr(&local_name!("id")) == Some("lead"))
            })
        };
        let bio = format!(
            "<div><p>The author has written about kernels and compilers for twenty years \
             and has been a maintainer of several drivers and of a build system that many \
             projects use today and she teaches a course on operating systems at a \
             university in the north of the country. Read more of her work here:{links}</p>\
             </div>"
        );
        let page = crate::testutil::story_with_comments;
        assert!(!joins(&page(&bio)));
        assert!(joins(&page(&format!("<p>{PROSE} {PROSE} {PROSE}</p>"))));
    }

    #[test]
    fn the_container_of_the_prose_wins() {
        let html = format!(
            "<div id=nav><a href=/>Home</a> <a href=/b>Blog</a></div>\
             <div id=story><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div id=side><p><a href=/x>{PROSE}</a></p></div>"
        );
        assert_eq!(main_of(&html).as_deref(), Some("story"));
    }

    #[test]
    fn class_hints_and_link_density_count() {
        // Same prose: the comment box loses to the article body on its class, the link list
        // on its link density.
        let html = format!(
            "<div id=a class=comments><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div id=b class=post-body><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div id=c><p><a href=/1>{PROSE}</a></p><p><a href=/2>{PROSE}</a></p></div>"
        );
        assert_eq!(main_of(&html).as_deref(), Some("b"));
    }

    #[test]
    fn boilerplate_and_hidden_text_do_not_score() {
        let html = format!(
            "<nav id=n><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></nav>\
             <div id=h hidden><p>{PROSE}</p><p>{PROSE}</p><p>{PROSE}</p></div>\
             <div id=real><p>{PROSE}</p></div>"
        );
        assert_eq!(main_of(&html).as_deref(), Some("real"));
    }

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

    #[test]
    fn nothing_to_score_is_none() {
        assert_eq!(main_of("<a href=/>Home</a><button>Go</button>"), None);
    }
}
