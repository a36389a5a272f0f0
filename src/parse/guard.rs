//! The tokenizer → tree-builder hookup, with a depth guard between them.
//!
//! The HTML tree builder checks "has an element in scope" by scanning its stack of open
//! elements, so a page nested N levels deep costs O(N²): 200 000 nested `<div>`s would take
//! minutes. Browsers bound this too (Chromium stops nesting at 512 levels). Here, a start tag
//! that would open an element deeper than [`MAX_PARSE_DEPTH`] is dropped, together with its
//! matching end tag; its text and void children are kept, one level up. Raw-text elements
//! (`script`, `style`, `textarea`…) are always passed on, since they switch the tokenizer's
//! state, and so are links, buttons, headings, list items and the other elements the tree
//! builder closes when one of their kind opens: they cannot pile up on the stack.
//!
//! The tree builder does not expose its stack, so the guard follows the current node itself:
//! after a start tag it is the element just inserted (exact: its depth is its parent's plus
//! one), after an end tag the parent of the nearest element of that name. Walking up is
//! bounded by the depth cap, so the guard costs O(1) per token amortised and O(512) at worst.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{local_name, LocalName};
use markup5ever::TokenizerResult;

use super::sink::ArenaSink;
use super::{is_void_name, Dom, NodeId, View};

/// The deepest element the parser opens (Chromium's parser limit).
pub const MAX_PARSE_DEPTH: u32 = 512;

pub(super) struct DepthGuard {
    builder: TreeBuilder<NodeId, ArenaSink>,
    /// Start tags dropped and not yet matched by an end tag, per name.
    dropped: RefCell<HashMap<LocalName, u32>>,
    /// Where the tree builder's current node most likely is.
    current: Cell<NodeId>,
    /// The tokenizer's input, when the tokenizer runs on this thread: a raw-text element's
    /// text is taken from it in one piece ([`take_raw_text`]).
    input: Option<Rc<BufferQueue>>,
}

/// Elements an agent needs that the tree builder closes when another of their kind opens, so
/// keeping them at any depth cannot grow the stack: a deep link or button survives.
fn closes_its_own_kind(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("a")
            | local_name!("button")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("li")
            | local_name!("dd")
            | local_name!("dt")
            | local_name!("p")
            | local_name!("option")
            | local_name!("optgroup")
            | local_name!("select")
            | local_name!("form")
    )
}

fn keeps_tokenizer_state(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("script")
            | local_name!("style")
            | local_name!("textarea")
            | local_name!("title")
            | local_name!("xmp")
            | local_name!("iframe")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("noscript")
            | local_name!("plaintext")
            | local_name!("html")
            | local_name!("body")
            | local_name!("head")
            | local_name!("svg")
            | local_name!("math")
    )
}

impl DepthGuard {
    /// Whether the guard swallows this tag.
    fn drops(&self, tag: &Tag) -> bool {
        match tag.kind {
            TagKind::StartTag => {
                if tag.self_closing
                    || keeps_tokenizer_state(&tag.name)
                    || closes_its_own_kind(&tag.name)
                    || self.builder.sink.depth_of(self.current.get()) < MAX_PARSE_DEPTH
                    || is_void_name(&tag.name)
                {
                    return false;
                }
                *self
                    .dropped
                    .borrow_mut()
                    .entry(tag.name.clone())
                    .or_insert(0) += 1;
                true
            }
            TagKind::EndTag => {
                let mut dropped = self.dropped.borrow_mut();
                match dropped.get_mut(&tag.name) {
                    Some(n) if *n > 0 => {
                        *n -= 1;
                        true
                    }
                    _ => false,
                }
            }
        }
    }
}

impl TokenSink for DepthGuard {
    type Handle = NodeId;

    fn process_token(&self, token: Token, line_number: u64) -> TokenSinkResult<NodeId> {
        let Token::TagToken(tag) = &token else {
            return self.builder.process_token(token, line_number);
        };
        if self.drops(tag) {
            return TokenSinkResult::Continue;
        }
        let before = self.builder.sink.last_open();
        let kind = tag.kind;
        let name = tag.name.clone();
        let result = self.builder.process_token(token, line_number);
        let sink = &self.builder.sink;
        match kind {
            TagKind::StartTag => {
                if let Some(new) = sink.last_open().filter(|n| Some(*n) != before) {
                    self.current.set(new);
                }
                if let (TokenSinkResult::RawData(raw), Some(input)) = (&result, &self.input) {
                    if let Some(text) = take_raw_text(input, &name, *raw) {
                        // The tree builder is in its text mode: the text goes into the
                        // element, as the tokenizer's pieces of it would.
                        let answer = self
                            .builder
                            .process_token(Token::CharacterTokens(text), line_number);
                        debug_assert!(matches!(answer, TokenSinkResult::Continue));
                    }
                }
            }
            TagKind::EndTag => {
                if let Some(parent) =
                    sink.after_closing(self.current.get(), &name, MAX_PARSE_DEPTH + 8)
                {
                    self.current.set(parent);
                }
            }
        }
        result
    }

    fn end(&self) {
        self.builder.end();
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.builder
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// The tree-building half of the parser: html5ever's tree builder into the arena, behind the
/// depth guard. Fed by a tokenizer on this thread ([`parse`]) or on another
/// ([`super::pipeline`]).
pub(super) fn tree_builder(html: &str, view: View) -> DepthGuard {
    // Every element and comment starts at `<` + letter or `!`, and text nodes sit between
    // them: twice that count bounds the node count closely, and a flood of bare `<` (which
    // makes no nodes) reserves nothing.
    let bytes = html.as_bytes();
    let tags = memchr::memchr_iter(b'<', bytes)
        .filter(|&i| {
            bytes
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'!')
        })
        .count();
    let estimate = 2 * tags + 16;
    let builder = TreeBuilder::new(
        ArenaSink::with_capacity(estimate, view),
        TreeBuilderOpts {
            // Chromium parses with scripting on: `<noscript>` content is raw text there.
            scripting_enabled: view == View::Scripted,
            ..Default::default()
        },
    );
    DepthGuard {
        builder,
        dropped: RefCell::new(HashMap::new()),
        current: Cell::new(NodeId::DOCUMENT),
        input: None,
    }
}

impl DepthGuard {
    /// The finished arena.
    pub(super) fn finish(self) -> Dom {
        use html5ever::interface::TreeSink;
        self.builder.sink.finish()
    }
}

/// The tokenizer's options for both ways of parsing.
///
/// html5ever drops a U+FEFF at the start of *every* `feed` call, not only the stream's first
/// (0.40: `discard_bom` is never cleared), so a zero-width no-break space right after a
/// `</script>` (where `feed` pauses) or at a chunk's start would vanish. The caller strips
/// the one leading byte-order mark instead ([`super::Dom::parse_with`]).
pub(super) fn tokenizer_opts() -> TokenizerOpts {
    TokenizerOpts {
        discard_bom: false,
        ..TokenizerOpts::default()
    }
}

/// The text of a script or raw-text element (`style`, `noscript`, `iframe`, `xmp`…) at the
/// front of the tokenizer's input, taken off it in one piece, up to its end tag.
///
/// Why: a quarter of a typical page's bytes are inline scripts, and html5ever's tokenizer
/// reads them character by character into pieces (at every `<` and line break), which the
/// tree builder then joins again. Finding the end tag is one `memchr` scan; the tokenizer
/// then reads only the end tag, and the arena gets the same text in the same element.
///
/// Only where the end is certain without the tokenizer's states
/// (<https://html.spec.whatwg.org/#script-data-state>, `#rawtext-state`): the element's end
/// tag (ASCII case-insensitive) followed by a tab, line feed, form feed, carriage return,
/// space, `/` or `>`, in the input's front chunk; in a script, no `<!--` before it (which
/// starts the escaped states, where `<script>` changes where the element ends); and no
/// carriage return or NUL, which the tokenizer rewrites. Otherwise `None`, and the
/// tokenizer reads the text as before.
pub(super) fn take_raw_text(
    input: &BufferQueue,
    name: &LocalName,
    raw: RawKind,
) -> Option<StrTendril> {
    if !matches!(raw, RawKind::ScriptData | RawKind::Rawtext) {
        return None;
    }
    let front = input.pop_front()?;
    let len = raw_text_len(&front, name, raw == RawKind::ScriptData)
        .filter(|&n| n > 0)
        .and_then(|n| u32::try_from(n).ok());
    let Some(len) = len else {
        // The input goes back as it was: the tokenizer reads this text itself.
        input.push_front(front);
        return None;
    };
    let text = front.subtendril(0, len);
    let rest = front.subtendril(len, front.len32() - len);
    input.push_front(rest);
    Some(text)
}

/// Where a raw-text element's text ends in `rest` (the bytes after its start tag), when that
/// is certain (see [`take_raw_text`]).
fn raw_text_len(rest: &str, name: &str, script: bool) -> Option<usize> {
    let bytes = rest.as_bytes();
    let end = memchr::memmem::find_iter(bytes, b"</").find(|&at| {
        let name_end = at + 2 + name.len();
        bytes
            .get(at + 2..name_end)
            .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
            && bytes
                .get(name_end)
                .is_some_and(|b| matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ' | b'/' | b'>'))
    })?;
    let text = &bytes[..end];
    if memchr::memchr2(b'\r', b'\0', text).is_some()
        || (script && memchr::memmem::find(text, b"<!--").is_some())
    {
        return None;
    }
    Some(end)
}

/// Parses a whole document into the arena, on this thread.
pub(super) fn parse(html: &str, view: View) -> Dom {
    let input = Rc::new(BufferQueue::default());
    let mut guard = tree_builder(html, view);
    guard.input = Some(Rc::clone(&input));
    let tokenizer = Tokenizer::new(guard, tokenizer_opts());
    input.push_back(StrTendril::from(html));
    // `feed` pauses after each `</script>` (a browser would run it) and at each `<meta
    // charset>` (a browser might restart with another decoder); the bytes are decoded
    // already and nothing runs offline, so keep feeding until the input is consumed.
    while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
    tokenizer.end();
    tokenizer.sink.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arena, node by node, as text: equal strings mean equal trees.
    fn dump(dom: &Dom) -> String {
        format!("{:?}\n{:?}\n{:?}", dom.nodes, dom.attrs, dom.strings)
    }

    /// [`parse`] with the tokenizer reading every character of raw text itself.
    fn parse_char_by_char(html: &str) -> Dom {
        let tokenizer = Tokenizer::new(tree_builder(html, View::Scripted), tokenizer_opts());
        let input = BufferQueue::default();
        input.push_back(StrTendril::from(html));
        while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
        tokenizer.end();
        tokenizer.sink.finish()
    }

    #[test]
    fn raw_text_taken_in_one_piece_builds_the_same_tree() {
        for html in [
            "<script>var a = 1 < 2 && '</p>';</script><p>after",
            "<script type=application/ld+json>{\"a\": \"</scripts>\"}</script ><p>x",
            "<SCRIPT>x</SCRIPT/><p>upper case</p>",
            "<script>a</script\t>b<script>c</script\n>d<script>e</script\x0c>f",
            // The escaped states: where the element ends depends on `<!--` and `<script>`.
            "<script><!--<script></script>still script</script>--></script><p>after",
            "<script><!-- x --></script><p>after",
            // Text the tokenizer rewrites: CR LF, NUL.
            "<script>a\r\nb</script><style>p{}\r</style><p>x",
            "<script>a\0b</script><p>x",
            // Raw text of other elements, and an end tag of another name inside.
            "<style>p::after{content:'</div>'}</style><noscript><p>n</p></noscript><iframe>i</iframe>",
            "<xmp><b>x</b></xmp><noembed>e</noembed><noframes>f</noframes>",
            // RCDATA reads character references: left to the tokenizer.
            "<title>a &amp; b</title><textarea>c &lt; d</textarea>",
            // Inside SVG a <script> and a <style> hold markup.
            "<svg><script>a<b>c</b></script><style>s</style></svg><script>x</script>",
            // No end tag: the rest of the page is the element's.
            "<script>never closed <p>x",
            "<style>never closed",
            "<script>",
            "<script></script>",
            "<script>x</script",
        ] {
            assert_eq!(dump(&parse(html, View::Scripted)), dump(&parse_char_by_char(html)), "{html:?}");
        }
    }

    /// Every page of the repo's and the shared corpus (when `../shared` is beside the repo):
    /// 150 pages of real scripts and sheets.
    #[test]
    fn corpus_pages_build_the_same_tree_with_raw_text_in_one_piece() {
        for (page, html) in crate::testutil::corpus_pages() {
            assert!(
                dump(&parse(&html, View::Scripted)) == dump(&parse_char_by_char(&html)),
                "{}",
                page.display()
            );
        }
    }

    #[test]
    fn raw_text_ends_where_the_tokenizer_would_end_it() {
        assert_eq!(raw_text_len("a</script>", "script", true), Some(1));
        assert_eq!(raw_text_len("a</ScRiPt x=1>", "script", true), Some(1));
        assert_eq!(raw_text_len("a</script\x0c>", "script", true), Some(1));
        assert_eq!(
            raw_text_len("a</scripts></script/>", "script", true),
            Some(11)
        );
        assert_eq!(raw_text_len("a</style>", "script", true), None);
        assert_eq!(raw_text_len("a</script", "script", true), None);
        // Left to the tokenizer: the escaped states, CR and NUL.
        assert_eq!(raw_text_len("<!--a</script>", "script", true), None);
        assert_eq!(raw_text_len("<!--a</style>", "style", false), Some(5));
        assert_eq!(raw_text_len("a\r\n</style>", "style", false), None);
        assert_eq!(raw_text_len("a\0</style>", "style", false), None);
    }
}
