//! The live agent: drives a real Chromium by refs over a newline-delimited JSON protocol.
//!
//! It sits on the other stages: `agent-browser.js` ([`crate::js`]) walks the live page and
//! returns the node tree, the shared renderer ([`mod@crate::render`]) turns it into the snapshot
//! text, and real input events (CDP `Input.dispatchMouseEvent`, `Input.dispatchKeyEvent`,
//! `Input.insertText`) act on it. The protocol is in `docs/agent-protocol.md`.
//!
//! Refs last: the script numbers each element once for its document's life (a `WeakMap`
//! from element to number, frames and shadow roots alike), and the session gives each
//! (document, number) one session-wide ref, so an element shows the same ref in every look
//! while it stays in the page and a ref from any earlier look still acts on it. New elements
//! get numbers never given before; a number is never given again. Each document carries a
//! token the first look leaves on it: an action first checks that the tab still shows the
//! document its latest look walked, and the script that the element is still in it, so a
//! ref whose element left (`"e19 left the page after look 4"`) or whose document is gone (a
//! navigation, even one restored from the back/forward cache) answers `STALE_REF`, and
//! nothing is ever done to another element.
//!
//! Two front ends share the session: the protocol's `{"id", "command": "look"}` requests, and
//! the design's `{"command": "eval", "payload": "agent.look()"}` ([`crate::agent_call`]).
//!
//! The module, one concern a file:
//! - `browser`: launching Chromium or attaching to one, and closing it;
//!   `guard`: the process that ends Chromium when the agent dies first;
//! - `session`: the session's tabs and how it evaluates in the current one;
//!   `tabs`: tabs the page opens, listing and switching them;
//!   `dialogs`: `alert`, `confirm`, `prompt`, `beforeunload`, never a hang;
//!   `refs`: looks, ref numbering and staleness;
//!   `frames`: cross-origin frames, reached through CDP and merged into looks;
//! - `commands`: `look`, `go`, `back`, `wait`, `query`, `eval`, `screenshot`;
//!   `diff`: `look {"diff": true}`, the lines that changed since the previous look;
//!   `actions`: `act` and the input events behind it;
//! - `protocol`: the protocol's own wire format and the stdio loop;
//!   `design`: the design's `eval` format;
//! - `overlay`: the agent's UI in the page (handoff prompt, sidebar).

mod actions;
mod browser;
mod commands;
mod design;
mod dialogs;
mod diff;
mod frames;
mod guard;
mod overlay;
mod protocol;
mod refs;
mod session;
mod tabs;

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

pub use dialogs::{Dialog, DialogPolicy};
pub use guard::run_guard;
pub use protocol::run_stdio;
pub use session::Session;

/// The error codes of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Code {
    /// The ref's element left the page, or the ref is from before a navigation or from
    /// another tab: call `look` again.
    StaleRef,
    /// The request is malformed or misses an argument.
    InvalidArgs,
    /// The browser refused or could not do the action.
    ActionFailed,
    /// A wait or a navigation took longer than its limit.
    Timeout,
    /// `eval` threw, or did not return a JSON value.
    EvalFailed,
    /// The page could not be loaded.
    NavigationFailed,
    /// No look ever gave this ref, or no such command.
    NotFound,
    /// `handoff` cannot ask anyone: the agent launched the browser headless.
    HandoffUnavailable,
    /// Nobody resumed a `handoff` within its timeout.
    HandoffTimeout,
    /// A dialog (`alert`, `confirm`…) is open on the page: only `dialog` can answer it.
    DialogOpen,
}

/// A failed request: a code and a message that tells the model what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentError {
    pub code: Code,
    pub message: String,
}

impl AgentError {
    fn new(code: Code, message: impl Into<String>) -> AgentError {
        AgentError {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for AgentError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)
    }
}

type Result<T> = std::result::Result<T, AgentError>;

/// How to get a browser.
#[derive(Debug, Clone)]
pub struct LaunchOptions {
    /// Launch without a window.
    pub headless: bool,
    /// The Chromium to launch.
    pub browser: PathBuf,
    /// Profile directory; a fresh temporary one (removed at exit) when `None`.
    pub user_data_dir: Option<PathBuf>,
    /// Attach to a running browser instead: a DevTools port, an `http://host:port` address or
    /// a `ws://` URL.
    pub attach: Option<String>,
    /// Cap on waiting for the page to settle after an action.
    pub settle_cap: Duration,
    /// How long the DOM must be quiet to count as settled.
    pub quiet: Duration,
    /// How long `handoff` waits for a person to press Resume, unless the call says.
    pub handoff_timeout: Duration,
    /// Show the sidebar: a panel in the page that logs each command and outlines the element
    /// an action touches.
    pub sidebar: bool,
    /// What to do with the page's dialogs: leave them for the `dialog` command, or answer
    /// each one at once.
    pub dialogs: DialogPolicy,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            headless: true,
            browser: PathBuf::from("/usr/bin/chromium"),
            user_data_dir: None,
            attach: None,
            settle_cap: Duration::from_secs(5),
            quiet: Duration::from_millis(250),
            handoff_timeout: Duration::from_secs(600),
            sidebar: false,
            dialogs: DialogPolicy::Ask,
        }
    }
}
