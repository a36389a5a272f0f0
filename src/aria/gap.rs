//! Where two boxes meet with no space between them in the source, and a person sees one.
//!
//! `<span class=year>2024</span><span class=runtime>2h 10m</span><span>PG-13</span>` shows
//! "2024 2h 10m PG-13" on the page: the page's sheet (offline, often one it links and we never
//! see) sets the chips apart with a margin, a flex gap or a table-like row. Glued, the text
//! reads "20242h 10mPG-13", numbers no one wrote, and the words on either side are lost to a
//! reader and to a search (`LanguageEnglish`, `$148.50MSRP:`, `[Drama][Thriller]`). The walk's
//! text runs and `read` put a space there when:
//!
//! - both sides are boxes of their own: not the phrasing elements a sentence styles its words
//!   with (`<b>W</b>ord`, `H<sub>2</sub>O`), which the browser glues as written; between an
//!   element and bare text, only a turn from a small letter to a capital is a break
//!   (`<b class=title>Industry Competency</b>Our experts…`, where `<b>W</b>ord` has none);
//! - each side holds two characters or more (the per-letter spans of an animated heading
//!   stay one word);
//! - the characters that meet would be two words: a letter, digit or opening mark after a
//!   letter, digit or closing mark; not `$` + `72`, `3.` + `14`, `don` + `'t`, nor the
//!   scripts written without spaces (Han, kana);
//! - and neither is inside preformatted text or code, where every space is the author's.
//!
//! Names are not touched: Chromium's accessible names glue inline boxes as written (accname
//! 2F), and the snapshot's names agree with Chromium's.

use html5ever::local_name;

use super::hidden::subtree_hidden;
use super::name::is_block_styled;
use crate::parse::{Dom, Element, NodeData, NodeId};
use crate::style::Styles;

/// Nodes a side's scan looks at before it gives up: a side whose first (or last) two
/// characters are further in is a structure, not a chip, and the scan stays bounded however
/// deep or wide the page.
const SCAN_NODES: usize = 48;

/// Whether the walk or `read` puts a space before node `id` (an element or a text): it and
/// the sibling before it meet with no space between, and their text would run into one word
/// ([the module](self)).
pub fn gap_before(dom: &Dom, styles: &Styles, id: NodeId) -> bool {
    let node = dom.node(id);
    let Some(prev) = node.prev_sibling else {
        return false;
    };
    let meet = match (&node.data, &dom.node(prev).data) {
        (NodeData::Element(data), NodeData::Element(_) | NodeData::Comment(_)) => {
            boxes_meet(dom, styles, id, dom.element_of(data))
        }
        (NodeData::Text(t), NodeData::Element(_)) => {
            let right = dom.str(*t).chars().next();
            right.is_some_and(char::is_uppercase)
                && shown_inline(dom, styles, prev)
                && case_turns(edge(dom, styles, prev, Edge::Last), right)
        }
        (NodeData::Element(_), NodeData::Text(t)) => {
            let left = dom.str(*t).chars().next_back();
            left.is_some_and(char::is_lowercase)
                && shown_inline(dom, styles, id)
                && case_turns(left, edge(dom, styles, id, Edge::First))
        }
        _ => false,
    };
    // Inside preformatted text every space is the author's own.
    meet && !in_code(dom, id)
}

/// Two sibling boxes: [`words_meet`] at their edges.
fn boxes_meet(dom: &Dom, styles: &Styles, id: NodeId, el: Element<'_>) -> bool {
    // A block already stands apart; only inline boxes can run together.
    if !is_box(el) || is_block_styled(el, &styles.get(id)) {
        return false;
    }
    let Some(prev) = shown_previous(dom, styles, id) else {
        return false;
    };
    let (Some(left), Some(right)) = (
        edge(dom, styles, prev, Edge::Last),
        edge(dom, styles, id, Edge::First),
    ) else {
        return false;
    };
    words_meet(left, right)
}

/// Whether element `id` is shown and inline (a block stands apart already), and not a
/// break (`<wbr>` offers one, and joins the words when it is not taken).
fn shown_inline(dom: &Dom, styles: &Styles, id: NodeId) -> bool {
    dom.element(id).is_some_and(|el| {
        let breaks = el.is_html(&local_name!("wbr")) || el.is_html(&local_name!("br"));
        !breaks && subtree_hidden(styles, id, el).is_none() && !is_block_styled(el, &styles.get(id))
    })
}

/// Between a box and the bare text beside it, only a turn from a small letter to a capital
/// is a word break (`<b class=title>Industry Competency</b>Our experts…`, a badge
/// `<i>#1 Best Seller</i>Happiness`): text runs into a styled word as written elsewhere
/// (`<b>W</b>ord`, `<a>link</a>s`).
fn case_turns(left: Option<char>, right: Option<char>) -> bool {
    left.is_some_and(char::is_lowercase) && right.is_some_and(char::is_uppercase)
}

/// Whether `id` is inside preformatted text or code, where spaces are the author's.
fn in_code(dom: &Dom, id: NodeId) -> bool {
    dom.ancestors(id).any(|(_, el)| {
        el.in_html_ns()
            && matches!(
                *el.local(),
                local_name!("pre")
                    | local_name!("code")
                    | local_name!("kbd")
                    | local_name!("samp")
                    | local_name!("textarea")
            )
    })
}

/// The element before `id` among its siblings, skipping comments and hidden elements;
/// `None` when text (even blank) comes between, or nothing does.
fn shown_previous(dom: &Dom, styles: &Styles, id: NodeId) -> Option<NodeId> {
    let mut at = dom.node(id).prev_sibling;
    while let Some(p) = at {
        match &dom.node(p).data {
            NodeData::Comment(_) => {}
            NodeData::Element(data) => {
                let el = dom.element_of(data);
                if subtree_hidden(styles, p, el).is_none() {
                    let inline = !is_block_styled(el, &styles.get(p));
                    return (inline && is_box(el)).then_some(p);
                }
            }
            _ => return None,
        }
        at = dom.node(p).prev_sibling;
    }
    None
}

/// Elements a sentence styles its own words with: the browser glues them to their
/// neighbours as written, and so do we
/// (<https://html.spec.whatwg.org/multipage/text-level-semantics.html>).
fn is_box(el: Element<'_>) -> bool {
    !el.in_html_ns()
        || !matches!(
            *el.local(),
            local_name!("b")
                | local_name!("strong")
                | local_name!("i")
                | local_name!("em")
                | local_name!("u")
                | local_name!("s")
                | local_name!("strike")
                | local_name!("del")
                | local_name!("ins")
                | local_name!("mark")
                | local_name!("sub")
                | local_name!("sup")
                | local_name!("small")
                | local_name!("big")
                | local_name!("font")
                | local_name!("tt")
                | local_name!("code")
                | local_name!("kbd")
                | local_name!("samp")
                | local_name!("var")
                | local_name!("q")
                | local_name!("cite")
                | local_name!("dfn")
                | local_name!("abbr")
                | local_name!("bdi")
                | local_name!("bdo")
                | local_name!("ruby")
                | local_name!("rt")
                | local_name!("rp")
                | local_name!("wbr")
                | local_name!("br")
                | local_name!("nobr")
        )
}

#[derive(Clone, Copy, PartialEq)]
enum Edge {
    First,
    Last,
}

/// The character at one edge of an element's shown text, when the text has two
/// characters or more within [`SCAN_NODES`] nodes of that edge.
fn edge(dom: &Dom, styles: &Styles, root: NodeId, side: Edge) -> Option<char> {
    let mut stack = vec![root];
    let mut found: Option<char> = None;
    let mut visited = 0;
    while let Some(n) = stack.pop() {
        visited += 1;
        if visited > SCAN_NODES {
            return None;
        }
        match &dom.node(n).data {
            NodeData::Text(t) => {
                let text = dom.str(*t);
                let second = match side {
                    Edge::First => two_chars(text.chars(), &mut found),
                    Edge::Last => two_chars(text.chars().rev(), &mut found),
                };
                if second {
                    return found;
                }
            }
            NodeData::Element(data)
                if subtree_hidden(styles, n, dom.element_of(data)).is_none() =>
            {
                push_children(dom, n, side, &mut stack)
            }
            _ => {}
        }
    }
    None
}

/// Takes the edge character from `chars` (when none is taken yet); whether a second
/// non-blank character follows it.
fn two_chars(chars: impl Iterator<Item = char>, found: &mut Option<char>) -> bool {
    for c in chars.filter(|c| !c.is_whitespace()) {
        if found.is_some() {
            return true;
        }
        *found = Some(c);
    }
    false
}

/// Pushes `n`'s children so that the one nearest the edge pops first.
fn push_children(dom: &Dom, n: NodeId, side: Edge, stack: &mut Vec<NodeId>) {
    let start = stack.len();
    stack.extend(dom.children(n));
    if side == Edge::First {
        stack[start..].reverse();
    }
}

/// Whether `left`'s last character and `right`'s first would be two words.
fn words_meet(left: char, right: char) -> bool {
    const CLOSING: &str = ".,:;!?)]}\"”’%";
    const OPENING: &str = "([{“‘#@$€£¥";
    if no_spaces(left) || no_spaces(right) {
        return false;
    }
    // A decimal or a thousands group split for its styling (`<span>3.</span><span>14</span>`).
    if matches!(left, '.' | ',') && right.is_ascii_digit() {
        return false;
    }
    (left.is_alphanumeric() || CLOSING.contains(left))
        && (right.is_alphanumeric() || OPENING.contains(right))
}

/// Characters of scripts written without spaces between words (Han, kana, and their
/// full-width punctuation): a space there is one no one wrote.
fn no_spaces(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{30FF}'     // CJK punctuation, hiragana, katakana
        | '\u{3400}'..='\u{4DBF}'   // CJK extension A
        | '\u{4E00}'..='\u{9FFF}'   // CJK unified ideographs
        | '\u{F900}'..='\u{FAFF}'   // CJK compatibility ideographs
        | '\u{FF00}'..='\u{FFEF}'   // half- and full-width forms
        | '\u{20000}'..='\u{2FA1F}' // CJK extensions B–F, compatibility supplement
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::style::StyleOptions;

    /// The text of each `<p>`'s (and `<code>`'s) children, with `|` where a gap goes.
    fn gaps(html: &str) -> Vec<String> {
        let dom = Dom::parse(html);
        let styles = Styles::build(&dom, &StyleOptions::default());
        let p = |el: Element<'_>| el.is_html(&local_name!("p")) || el.is_html(&local_name!("code"));
        let ps: Vec<NodeId> = dom
            .elements()
            .filter(|(_, el)| p(*el))
            .map(|(id, _)| id)
            .collect();
        ps.iter()
            .map(|&p| {
                let mut out = String::new();
                for c in dom.children(p) {
                    if gap_before(&dom, &styles, c) {
                        out.push('|');
                    }
                    let own = dom.text(c).into_iter();
                    out.extend(own.chain(dom.descendants(c).filter_map(|d| dom.text(d))));
                }
                out
            })
            .collect()
    }

    #[test]
    fn chips_and_cells_get_a_gap() {
        assert_eq!(
            gaps(
                "<p><span>2024</span><span>2h 10m</span><!-- x --><span>PG-13</span></p>\
                 <p><a href=/d>Drama</a><a href=/t>Thriller</a></p>\
                 <p><span>$148.50</span><span>MSRP: $160</span></p>\
                 <p><span>Price</span><span>$72</span></p>"
            ),
            [
                "2024|2h 10m|PG-13",
                "Drama|Thriller",
                "$148.50|MSRP: $160",
                "Price|$72"
            ]
        );
    }

    #[test]
    fn words_styled_in_a_sentence_stay_glued() {
        assert_eq!(
            gaps(
                "<p><b>bold</b><i>words</i></p>\
                 <p><span>H</span><span>e</span><span>y</span></p>\
                 <p><span>$</span><span>72</span><span>.99</span></p>\
                 <p><span>3.</span><span>14</span></p>\
                 <p><span>don</span><span>'t</span></p>\
                 <p><span>東京</span><span>大学</span></p>\
                 <p><span>one</span> <span>two</span></p>\
                 <p><span>one</span>x<span>two</span></p>"
            ),
            [
                "boldwords",
                "Hey",
                "$72.99",
                "3.14",
                "don't",
                "東京大学",
                "one two",
                "onextwo"
            ]
        );
    }

    #[test]
    fn bare_text_beside_a_box_breaks_only_where_the_case_turns() {
        assert_eq!(
            gaps(
                "<p><b class=title>Industry Competency</b>Our experts</p>\
                 <p><i>#1 Best Seller</i>Happiness</p>\
                 <p>Welcome back<b>Anna</b></p>\
                 <p><b>W</b>ord, <a href=/l>link</a>s, <b>Note</b>: see</p>\
                 <p>super<wbr>Califragilistic</p>\
                 <p><code><span>obj.</span><span>method</span>and<b>More</b></code></p>"
            ),
            [
                "Industry Competency|Our experts",
                "#1 Best Seller|Happiness",
                "Welcome back|Anna",
                "Word, links, Note: see",
                "superCalifragilistic",
                "obj.methodandMore",
                "obj.methodandMore",
            ]
        );
    }

    #[test]
    fn a_hidden_sibling_is_not_a_side() {
        assert_eq!(
            gaps("<p><span>Language</span><span hidden>zz</span><span>English</span></p>"),
            ["Languagezz|English"],
            "the shown neighbour of `English` is `Language`"
        );
    }
}
