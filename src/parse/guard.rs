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

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Tag, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::{local_name, LocalName};
use markup5ever::TokenizerResult;

use super::sink::ArenaSink;
use super::{is_void_name, Dom, NodeId};

/// The deepest element the parser opens (Chromium's parser limit).
pub const MAX_PARSE_DEPTH: u32 = 512;

pub(super) struct DepthGuard {
    builder: TreeBuilder<NodeId, ArenaSink>,
    /// Start tags dropped and not yet matched by an end tag, per name.
    dropped: RefCell<HashMap<LocalName, u32>>,
    /// Where the tree builder's current node most likely is.
    current: Cell<NodeId>,
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
pub(super) fn tree_builder(html: &str) -> DepthGuard {
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
        ArenaSink::with_capacity(estimate),
        TreeBuilderOpts {
            // Chromium parses with scripting on: `<noscript>` content is raw text there.
            scripting_enabled: true,
            ..Default::default()
        },
    );
    DepthGuard {
        builder,
        dropped: RefCell::new(HashMap::new()),
        current: Cell::new(NodeId::DOCUMENT),
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

/// Parses a whole document into the arena, on this thread.
pub(super) fn parse(html: &str) -> Dom {
    let tokenizer = Tokenizer::new(tree_builder(html), tokenizer_opts());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from(html));
    // `feed` pauses after each `</script>` (a browser would run it) and at each `<meta
    // charset>` (a browser might restart with another decoder); the bytes are decoded
    // already and nothing runs offline, so keep feeding until the input is consumed.
    while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
    tokenizer.end();
    tokenizer.sink.finish()
}
