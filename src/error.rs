//! The crate's error type.

use crate::parse::encoding::UnknownEncoding;
use crate::tree::TreeJsonError;

/// Everything that can go wrong in the library. Malformed HTML is not an error (it parses
/// as a browser would parse it); unknown refs are answers, not errors
/// ([`crate::QueryError`]).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    UnknownEncoding(#[from] UnknownEncoding),
    #[error(transparent)]
    TreeJson(#[from] TreeJsonError),
    /// The page has no `window.__agentBrowser`: it navigated since the script was injected.
    #[error("agent-browser.js is not on this page: inject `script()` again (a navigation removes it), then retry")]
    NotInjected,
    /// What an in-page call returned did not parse.
    #[error("the script's {what} is malformed: {reason}")]
    ScriptResult { what: &'static str, reason: String },
    /// An argument outside what a call accepts.
    #[error("{0}")]
    BadArgument(String),
}
