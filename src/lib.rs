//! # agent-snapshot
//!
//! Turns web pages into short, budget-bounded **snapshots with refs** for LLM agents: a
//! compact, readable tree of what a person sees and can use on a page, each usable element
//! tagged `e1`, `e2`…, so that a model can act on or ask about `e5` instead of reading HTML.
//!
//! ```text
//! [snapshot] url=https://example.com/ title="Today's gold price" nodes=5 truncated=false
//! - navigation:
//!   - link "Home" [href=/] [ref=e1]
//! - main:
//!   - heading "Today's gold price" [level=1] [ref=e2]
//!   - searchbox [type=search] [placeholder="Search..."] [ref=e3]
//! ```
//!
//! ## Entry points
//!
//! - [`Document::parse`] / [`Document::parse_bytes`]: HTML → arena → node tree, with the
//!   [`TreeOptions`] that decide refs;
//! - [`render()`] (or [`Document::snapshot`]): node tree → text under the hard budgets of
//!   [`RenderOptions`]; the same renderer serves the in-browser script's JSON
//!   ([`NodeTree::from_json`]);
//! - [`query()`]: bounded `text` / `attrs` / `outerHTML` / `value` answers for one ref;
//! - [`js`]: the live path: `agent-browser.js` ([`js::script`]), the expressions that drive
//!   it, and [`js::render_snapshot`] for the JSON it returns;
//! - [`tools`]: function-tool definitions (`html_snapshot`, `web_click`…) for agent APIs;
//! - with the default features: `session::compress_jsonl` (HTML tool results in dumped agent
//!   sessions → snapshots), `mcp::Server` (a stdio MCP server) and `live::Session` (Chromium
//!   driven by refs, the `agent` command).
//!
//! ```
//! use agent_snapshot::{query, Document, QueryKind, RenderOptions, TreeOptions};
//!
//! let html = "<form><label>Email <input name=email></label><button>Sign in</button></form>";
//! let doc = Document::parse(html, &TreeOptions::default());
//! let snap = doc.snapshot(&RenderOptions::default());
//! assert!(snap.text.contains("- textbox \"Email\" [name=email] [ref=e1]"));
//! assert!(snap.text.contains("- button \"Sign in\" [ref=e2]"));
//! assert_eq!(query(&doc, "e2", QueryKind::OuterHtml, 100).value, "<button>Sign in</button>");
//! ```
//!
//! ## Pipeline
//!
//! One module per stage; data flows one way, and each module's header says its stage:
//!
//! 1. [`parse`]: bytes → arena;
//! 2. [`style`] (the page's own sheets, cascaded) and [`aria`] (roles, names, hidden);
//! 3. [`content`]: which part of the page is its main content;
//! 4. [`walk`]: arena → node tree, the main content marked;
//! 5. [`render`](mod@render): tree → snapshot text, and beside it [`read`](mod@read): the
//!    main content → readable lines;
//! 6. [`query`](mod@query): ref → bounded answer.
//!
//! [`tree`] is the node-tree schema both paths share (see `docs/node-tree.md`).
//!
//! Nothing recurses on page depth: every traversal uses an explicit stack, so a page nested
//! 100 000 levels deep costs time, not stack. Large pages are parsed and walked on two
//! threads (html5ever's tokenizer on a helper thread; then a helper walks the last half of the
//! page); [`Threads`] says when, and the tree is the same either way. A [`Document`] is
//! `Send` and `Sync`: the arena owns its strings and holds nothing reference-counted.

#![forbid(unsafe_code)]

#[cfg(feature = "live")]
pub mod agent_call;
pub mod aria;
#[cfg(any(feature = "session", feature = "live"))]
pub mod atomic;
pub mod content;
pub mod document;
pub mod error;
pub mod js;
#[cfg(feature = "live")]
pub mod live;
#[cfg(feature = "mcp")]
pub mod mcp;
pub mod parse;
pub mod probe;
pub mod query;
pub mod read;
pub mod render;
pub mod rendered;
#[cfg(feature = "session")]
pub mod session;
pub mod style;
#[cfg(test)]
mod testutil;
pub mod text;
pub mod tools;
pub mod tree;
pub mod walk;

pub use document::Document;
pub use error::Error;
pub use parse::Threads;
pub use query::{query, QueryError, QueryKind, QueryResult};
pub use read::{ReadError, ReadOptions, ReadResult, ReadStats};
pub use render::{
    render, render_scope, Format, NodeRef, RefMap, RenderOptions, RenderStats, ScopeError,
    SnapshotResult, TruncateReason,
};
pub use tree::{Attrs, NodeTree, Ref, State, States, TreeNode, TreeStats, View};
pub use walk::TreeOptions;
