//! The live agent: drives a real Chromium by refs over a newline-delimited JSON protocol.
//!
//! It sits on the other stages: `agent-browser.js` ([`crate::js`]) walks the live page and
//! returns the node tree, the shared renderer ([`mod@crate::render`]) turns it into the snapshot
//! text, and real input events (CDP `Input.dispatchMouseEvent`, `Input.dispatchKeyEvent`,
//! `Input.insertText`) act on it. The protocol is in `docs/agent-protocol.md`.
//!
//! Refs come from the latest `look`, and no look reuses a number an earlier one gave: the
//! script marks elements `e1`… on every look, and the session shifts its numbers past all
//! refs given before, so a ref from an older look is recognised (`STALE_REF`) and never means
//! another element. (A look scoped by a ref walks the whole page and keeps that ref's subtree;
//! when it finds the same refs as the latest look, it keeps their numbers.) Each look also
//! stamps the document with a fresh token; an action first checks that the page still holds
//! that token (no navigation since) and that the script still finds the element, so an action
//! never silently succeeds on a stale ref.
//!
//! Two front ends share the session: the protocol's `{"id", "command": "look"}` requests, and
//! the design's `{"command": "eval", "payload": "agent.look()"}` ([`crate::agent_call`]).

use std::collections::{HashMap, HashSet};

use crate::agent_call::{self, Call};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use base64::Engine as _;
use chromiumoxide::browser::{Browser, BrowserConfig};
use chromiumoxide::cdp::browser_protocol::input::{
    DispatchKeyEventParams, DispatchKeyEventType, DispatchMouseEventParams, DispatchMouseEventType,
    InsertTextParams, MouseButton,
};
use chromiumoxide::cdp::browser_protocol::page::{
    CaptureScreenshotFormat, CreateIsolatedWorldParams,
};
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, ExecutionContextId};
use chromiumoxide::page::ScreenshotParams;
use chromiumoxide::Page;
use futures::StreamExt;
use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::aria::roles::{category, Category};
use crate::js::{self, JsSnapshotOptions};
use crate::render::{self, render};
use crate::tools;
use crate::{Format, NodeTree, Ref, RenderOptions, TreeNode};

/// The error codes of the protocol.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Code {
    /// The ref is from an older look, from before a navigation, or its element left the
    /// page: call `look` again.
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

    fn stale(ref_: &str) -> AgentError {
        AgentError::new(
            Code::StaleRef,
            format!(
                "{ref_} is stale: the page changed since the last look; call look again and \
                 use the new refs"
            ),
        )
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
        }
    }
}

/// Operations each role allows, as `look` reports them. Roles not listed allow `click` (a
/// ref on them came from `onclick`, `tabindex` or `cursor:pointer`).
fn actions_for(role: &str) -> &'static [&'static str] {
    match role {
        "button" | "link" | "menuitem" | "tab" | "treeitem" | "option" | "switch" => {
            &["click", "hover", "focus"]
        }
        "textbox" | "searchbox" => &["fill", "clear", "focus", "press_key"],
        "checkbox" | "menuitemcheckbox" => &["click", "check", "uncheck", "focus"],
        "radio" | "menuitemradio" => &["click", "check", "focus"],
        "combobox" | "listbox" => &["select", "click", "focus"],
        "slider" | "spinbutton" => &["fill", "focus", "press_key"],
        _ => &["click", "hover", "scroll"],
    }
}

/// One browser tab driven by refs.
pub struct Session {
    browser: Browser,
    handler: tokio::task::JoinHandle<()>,
    page: Page,
    options: LaunchOptions,
    /// Refs given by looks before the latest: the latest look's `eN` on the page is
    /// `e(ref_base + N)` to the caller.
    ref_base: u32,
    /// Refs given by all looks so far (the latest look's are `ref_base + 1..=issued`).
    issued: u32,
    /// The token the latest look left on its document; `None` before the first look.
    look_token: Option<String>,
    /// The latest look's [`signature`] when it walked the whole page: a look scoped by a ref
    /// that finds the same refs keeps their numbers.
    look_sig: Option<u64>,
    looks: u64,
    /// Keeps the temporary profile until the session ends.
    _profile: Option<tempfile::TempDir>,
    /// The process that ends Chromium if this one dies first (launch mode).
    guard: Option<std::process::Child>,
    attached: bool,
    /// The isolated world `overlay.js` runs in, for the current document.
    ui_world: Option<ExecutionContextId>,
    /// The sidebar's log, newest last (at most [`SIDEBAR_LINES`]), and the entries written.
    sidebar_log: std::collections::VecDeque<Value>,
    logged: u64,
}

/// Lines the sidebar keeps.
const SIDEBAR_LINES: usize = 50;

/// The agent's own UI in the page (handoff prompt, sidebar), run in an isolated world.
const OVERLAY_JS: &str = include_str!("../js/overlay.js");

/// The protocol's commands.
const COMMANDS: [&str; 9] = [
    "look",
    "act",
    "go",
    "back",
    "wait",
    "query",
    "eval",
    "screenshot",
    "handoff",
];

/// The longest one evaluation in the page may take.
const EVAL_LIMIT: Duration = Duration::from_secs(30);

/// The JS that installs the change counter (once per document) and reads the page state:
/// `{token, ready, quietMs, mutations, url}`. DOM mutations count, and so do `input` and
/// `change` events: a field's value or a box's check is no mutation, but it is a change.
const STATE_JS: &str = "(() => { let w = window; if (!w.__agentWatch) { w.__agentWatch = {n: 0, t: performance.now()}; \
let bump = () => { w.__agentWatch.n++; w.__agentWatch.t = performance.now(); }; \
new MutationObserver(bump).observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); \
for (let e of ['input', 'change']) document.addEventListener(e, bump, true); } \
return JSON.stringify({token: w.__agentLook || null, ready: document.readyState, \
quietMs: performance.now() - w.__agentWatch.t, mutations: w.__agentWatch.n, url: location.href}); })()";

#[derive(serde::Deserialize, Debug, Clone)]
#[serde(rename_all = "camelCase")]
struct PageState {
    token: Option<String>,
    ready: String,
    quiet_ms: f64,
    mutations: u64,
    url: String,
}

impl Session {
    /// Launches Chromium (or attaches to one) and opens a tab.
    pub async fn start(options: LaunchOptions) -> Result<Session> {
        let launch_err = |e: String| AgentError::new(Code::ActionFailed, e);
        // The profile dir (launch mode) and, when it is a temporary one, its owner.
        let (mut browser, mut handler, dir, profile, attached) = match &options.attach {
            Some(target) => {
                let url = match target.parse::<u16>() {
                    Ok(port) => format!("http://127.0.0.1:{port}"),
                    Err(_) => target.clone(),
                };
                let (browser, handler) = Browser::connect(url.clone()).await.map_err(|e| {
                    launch_err(format!(
                        "cannot attach to {url}: {e} (start the browser with \
                         --remote-debugging-port=PORT)"
                    ))
                })?;
                (browser, handler, None, None, true)
            }
            None => {
                if !options.browser.exists() {
                    return Err(launch_err(format!(
                        "no browser at {} (install Debian's chromium, or pass --browser PATH)",
                        options.browser.display()
                    )));
                }
                let (dir, profile) = match &options.user_data_dir {
                    Some(dir) => (dir.clone(), None),
                    None => {
                        let tmp = tempfile::Builder::new()
                            .prefix("agent-snapshot-profile-")
                            .tempdir()
                            .map_err(|e| launch_err(format!("cannot make a profile dir: {e}")))?;
                        (tmp.path().to_path_buf(), Some(tmp))
                    }
                };
                let mut config = BrowserConfig::builder()
                    .chrome_executable(&options.browser)
                    .user_data_dir(&dir)
                    .args([
                        "--disable-gpu",
                        "--no-first-run",
                        "--disable-background-networking",
                        "--disable-component-update",
                        "--disable-sync",
                    ])
                    .request_timeout(Duration::from_secs(30));
                if !options.headless {
                    config = config.with_head();
                }
                if running_as_root() {
                    config = config.no_sandbox();
                }
                let config = config.build().map_err(launch_err)?;
                let (browser, handler) = Browser::launch(config)
                    .await
                    .map_err(|e| launch_err(format!("cannot launch Chromium: {e}")))?;
                (browser, handler, Some(dir), profile, false)
            }
        };
        let guard = dir.and_then(|dir| {
            let pid = browser.get_mut_child().and_then(|c| c.as_mut_inner().id());
            spawn_guard(pid, &dir, profile.is_some())
        });
        let handler = tokio::spawn(async move { while handler.next().await.is_some() {} });
        let page = match browser.new_page("about:blank").await {
            Ok(page) => page,
            Err(e) => {
                let _ = browser.close().await;
                return Err(launch_err(format!("cannot open a tab: {e}")));
            }
        };
        Ok(Session {
            browser,
            handler,
            page,
            options,
            ref_base: 0,
            issued: 0,
            look_token: None,
            look_sig: None,
            looks: 0,
            _profile: profile,
            guard,
            attached,
            ui_world: None,
            sidebar_log: std::collections::VecDeque::new(),
            logged: 0,
        })
    }

    /// The `ready` line's payload.
    pub async fn ready_payload(&self) -> Value {
        let version = self.browser.version().await.ok().map(|v| v.product);
        json!({
            "version": env!("CARGO_PKG_VERSION"),
            "schemaVersion": crate::tree::SCHEMA_VERSION,
            "browser": version,
            "mode": if self.attached { "attach" } else { "launch" },
            "commands": COMMANDS,
        })
    }

    /// Closes the browser (launch mode) or just the tab (attach mode).
    pub async fn close(mut self) {
        if self.attached {
            let _ = self.page.close().await;
        } else {
            let _ = self.browser.close().await;
            let _ = tokio::time::timeout(Duration::from_secs(5), self.browser.wait()).await;
            let _ = self.browser.kill().await;
        }
        self.handler.abort();
        if let Some(mut guard) = self.guard.take() {
            // Closing its stdin tells the guard we ended cleanly; it checks and exits.
            drop(guard.stdin.take());
            let _ = guard.wait();
        }
    }

    /// Runs one request line and returns the response line's object.
    pub async fn handle_line(&mut self, line: &str) -> Value {
        let args = match serde_json::from_str(line) {
            Ok(Value::Object(map)) => map,
            Ok(_) => {
                return response(
                    Some(Value::Null),
                    Err(AgentError::new(
                        Code::InvalidArgs,
                        "a request is one JSON object: {\"id\": 1, \"command\": \"look\"}",
                    )),
                )
            }
            Err(e) => {
                return response(
                    Some(Value::Null),
                    Err(AgentError::new(
                        Code::InvalidArgs,
                        format!("malformed JSON ({e}); send one JSON object per line"),
                    )),
                )
            }
        };
        // The design's format: `{"command": "eval", "payload": "agent.look()"}`, no id. The
        // protocol's own `eval` takes `js`, so `payload` tells the two apart.
        if args.get("command").and_then(Value::as_str) == Some("eval")
            && args.contains_key("payload")
        {
            let result = match check_keys(&args, &["payload"]) {
                Err(e) => Err(e),
                Ok(()) => match args.get("payload") {
                    Some(Value::String(payload)) => {
                        self.log(payload).await;
                        self.eval_call(payload).await
                    }
                    _ => Err(AgentError::new(
                        Code::InvalidArgs,
                        "payload must be a string holding one call, such as \"agent.look()\"",
                    )),
                },
            };
            return response(args.get("id").cloned(), result);
        }
        let id = args.get("id").cloned().unwrap_or(Value::Null);
        let result = match args.get("command").and_then(Value::as_str) {
            Some(command) => {
                let mut shown = args.clone();
                shown.remove("id");
                shown.remove("command");
                self.log(&format!("{command} {}", Value::Object(shown)))
                    .await;
                self.run(command, &args).await
            }
            None => Err(AgentError::new(
                Code::InvalidArgs,
                format!("missing \"command\": one of {}", COMMANDS.join(", ")),
            )),
        };
        response(Some(id), result)
    }

    /// Runs one command with its arguments (the request object; `id` and `command` are
    /// ignored).
    pub async fn run(&mut self, command: &str, args: &Map<String, Value>) -> Result<Value> {
        match command {
            "look" => self.look(args).await,
            "act" => self.act(args).await,
            "go" => self.go(args).await,
            "back" => self.back().await,
            "wait" => self.wait(args).await,
            "query" => self.query(args).await,
            "eval" => self.eval(args).await,
            "screenshot" => self.screenshot(args).await,
            "handoff" => self.handoff(args).await,
            other => Err(AgentError::new(
                Code::NotFound,
                format!("unknown command {other:?}: use {}", COMMANDS.join(", ")),
            )),
        }
    }

    /// Runs one call of the design's format (`agent.look()`, `agent.act('e1', 'click')`…) and
    /// answers with the design's payloads: `look` `{url, title, tree, actions}`, `act`
    /// `{changed}`, `go` `{url, title}`, `wait` `{elapsed}`, `eval` `{value}`, `handoff`
    /// `{resumed, elapsed}`.
    pub async fn eval_call(&mut self, payload: &str) -> Result<Value> {
        let call = agent_call::parse(payload).map_err(|e| AgentError::new(Code::InvalidArgs, e))?;
        let mut args = Map::new();
        match call {
            Call::Look { scope, viewport } => self.design_look(scope, viewport).await,
            Call::Act { ref_, op, value } => {
                // The design's `input` is this protocol's `fill`; select takes one value or
                // several.
                let op = if op == "input" {
                    "fill".to_string()
                } else {
                    op
                };
                args.insert("ref".into(), Value::from(ref_));
                match (op.as_str(), value) {
                    (_, None) => {}
                    ("select", Some(Value::Array(values))) => {
                        args.insert("values".into(), Value::Array(values));
                    }
                    ("press_key", Some(key)) => {
                        args.insert("key".into(), key);
                    }
                    (_, Some(value)) => {
                        args.insert("value".into(), value);
                    }
                }
                args.insert("op".into(), Value::from(op));
                let done = self.act(&args).await?;
                Ok(json!({"changed": done["changed"]}))
            }
            Call::Go { url } => {
                args.insert("url".into(), Value::from(url));
                let done = self.go(&args).await?;
                Ok(json!({"url": done["url"], "title": done["title"]}))
            }
            Call::Wait {
                condition,
                timeout_ms,
            } => {
                let key = if Ref::parse(&condition).is_some() {
                    "ref"
                } else {
                    "js"
                };
                args.insert(key.into(), Value::from(condition));
                if let Some(ms) = timeout_ms {
                    args.insert("timeout_ms".into(), Value::from(ms));
                }
                let done = self.wait(&args).await?;
                Ok(json!({"elapsed": done["waited_ms"]}))
            }
            Call::Eval { js } => {
                args.insert("js".into(), Value::from(js));
                self.eval(&args).await
            }
            Call::Handoff {
                message,
                timeout_ms,
            } => {
                args.insert("message".into(), Value::from(message));
                if let Some(ms) = timeout_ms {
                    args.insert("timeout_ms".into(), Value::from(ms));
                }
                self.handoff(&args).await
            }
        }
    }

    /// Evaluates `expr` in the page; a failure gets `code`. Gives up after [`EVAL_LIMIT`]: a
    /// page stuck in a loop must not hang the agent.
    async fn evaluate(
        &self,
        expr: impl Into<chromiumoxide::js::Evaluation>,
        code: Code,
    ) -> Result<chromiumoxide::js::EvaluationResult> {
        match tokio::time::timeout(EVAL_LIMIT, self.page.evaluate(expr)).await {
            Err(_) => Err(AgentError::new(
                Code::Timeout,
                format!("the page did not answer in {} s", EVAL_LIMIT.as_secs()),
            )),
            Ok(Err(e)) => Err(AgentError::new(code, e.to_string())),
            Ok(Ok(r)) => Ok(r),
        }
    }

    /// Evaluates `expr`, which must return a JSON string, and returns that string.
    async fn eval_json(&self, expr: &str) -> Result<String> {
        self.evaluate(expr, Code::ActionFailed)
            .await?
            .into_value::<String>()
            .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))
    }

    async fn state(&self) -> Option<PageState> {
        let json = self.eval_json(STATE_JS).await.ok()?;
        serde_json::from_str(&json).ok()
    }

    /// Evaluates one of [`js`]'s script expressions; when this document does not have the
    /// script yet (a new page), injects it and evaluates again. One round trip when it is
    /// there, which is nearly always.
    async fn script_eval(&self, expr: &str) -> Result<String> {
        let json = self.eval_json(expr).await?;
        if !js::not_injected(&json) {
            return Ok(json);
        }
        self.evaluate(js::script(), Code::ActionFailed).await?;
        self.eval_json(expr).await
    }

    async fn url_title(&self) -> (String, String) {
        let url = self.page.url().await.ok().flatten().unwrap_or_default();
        let title = self
            .page
            .get_title()
            .await
            .ok()
            .flatten()
            .unwrap_or_default();
        (url, title)
    }

    async fn look(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(
            args,
            &[
                "scope",
                "format",
                "interactive_only",
                "viewport_only",
                "max_chars",
                "max_nodes",
                "max_depth",
                "max_siblings",
            ],
        )?;
        let mut render_options = tools::budgets_from_args(args, RenderOptions::default())
            .map_err(|e| AgentError::new(Code::InvalidArgs, e))?;
        if let Some(format) = opt_str(args, "format")? {
            render_options.format = Format::parse(format).ok_or_else(|| {
                AgentError::new(
                    Code::InvalidArgs,
                    format!("format {format:?}: use text, list or json"),
                )
            })?;
        }
        let tree = self
            .look_tree(
                opt_str(args, "scope")?.map(str::to_string),
                opt_bool(args, "interactive_only")?.unwrap_or(false),
                opt_bool(args, "viewport_only")?.unwrap_or(false),
            )
            .await?;
        let snap = render(&tree, &render_options);
        // The payload lists the refs the text shows; those the budget left out can be acted
        // on too.
        let mut refs = Map::new();
        let mut actions = Map::new();
        for node in snap.refs.iter() {
            let role = node.role.as_deref().unwrap_or_default();
            actions.insert(node.ref_.clone(), json!(actions_for(role)));
            refs.insert(node.ref_.clone(), json!({"role": role, "name": node.name}));
        }
        let (url, title) = self.url_title().await;
        Ok(json!({
            "url": url,
            "title": title,
            "snapshot": snap.text,
            "refs": refs,
            "actions": actions,
        }))
    }

    /// The design's `look()`: `tree` is one `role:name[ref]` string per element a person can
    /// operate, in document order; `actions` names each one's operations as the design does.
    async fn design_look(&mut self, scope: Option<String>, viewport: bool) -> Result<Value> {
        let tree = self.look_tree(scope, true, viewport).await?;
        let mut lines = Vec::new();
        let mut actions = Map::new();
        let mut stack = vec![&tree.tree];
        while let Some(node) = stack.pop() {
            stack.extend(node.children.iter().rev());
            let (Some(r), Some(role)) = (node.ref_, node.role.as_deref()) else {
                continue;
            };
            if !node.cursor_interactive && category(role) != Category::Interactive {
                continue;
            }
            let name = node.name.as_deref().unwrap_or_default();
            lines.push(Value::from(format!("{role}:{name}[{r}]")));
            actions.insert(r.to_string(), json!(design_actions(role)));
        }
        let (url, title) = self.url_title().await;
        Ok(json!({"url": url, "title": title, "tree": lines, "actions": actions}))
    }

    /// Takes a snapshot with the script and gives its refs session-wide numbers: the page's
    /// `eN` becomes `e(issued + N)`, so no ref string of an older look comes back meaning
    /// another element. Stamps the document so that a navigation makes the refs stale.
    ///
    /// `scope` is a CSS selector (the script walks its first match, numbering from there) or
    /// a ref of the latest look (a folded stub's, say): then the script walks the whole page
    /// and the tree keeps that ref's subtree, so the refs are the whole page's. When the walk
    /// finds the same refs as the latest look ([`signature`]), the look gives no new numbers:
    /// the refs it shows, and every other ref of the latest look, stay valid.
    async fn look_tree(
        &mut self,
        scope: Option<String>,
        interactive_only: bool,
        viewport_only: bool,
    ) -> Result<NodeTree> {
        let scope_ref = scope.as_deref().and_then(render::scope_ref);
        let options = JsSnapshotOptions {
            scope: scope.filter(|_| scope_ref.is_none()),
            interactive_only,
            ..JsSnapshotOptions::default()
        };
        let (json, held) = match scope_ref {
            Some(r) => {
                let (json, mark) = self.held_snapshot(r, &options).await?;
                (json, Some((r, mark)))
            }
            None => (self.script_eval(&js::snapshot_js(&options)).await?, None),
        };
        // `"error":` can only be a key (inside strings the quotes are escaped), and only the
        // script's error objects have that key.
        if json.contains("\"error\":") {
            let error = serde_json::from_str::<Value>(&json)
                .ok()
                .and_then(|v| v["error"].as_str().map(str::to_string))
                .unwrap_or_default();
            return Err(match (error.as_str(), &options.scope) {
                ("scope_not_found", Some(scope)) => AgentError::new(
                    Code::NotFound,
                    format!("scope {scope:?} matches no element; look without scope first"),
                ),
                ("exception", Some(scope)) => AgentError::new(
                    Code::InvalidArgs,
                    format!("scope {scope:?} is not a valid CSS selector"),
                ),
                _ => AgentError::new(Code::ActionFailed, format!("snapshot failed: {error}")),
            });
        }
        let mut tree = NodeTree::from_json(&json)
            .map_err(|e| AgentError::new(Code::ActionFailed, format!("snapshot failed: {e}")))?;
        let sig = signature(&tree.tree, interactive_only);
        // The same refs, and the scope's element marked as before: the latest look's numbers
        // still name the same elements.
        let keep = match &held {
            Some((r, Some(mark))) => {
                self.look_sig == Some(sig) && self.resolve(&r.to_string())?.page == *mark
            }
            _ => false,
        };
        let base = if keep { self.ref_base } else { self.issued };
        if !keep {
            // Stamp the document: an action checks the stamp to tell a stale ref from a live
            // one.
            self.looks += 1;
            let token = format!("look-{}-{}", std::process::id(), self.looks);
            self.evaluate(
                format!("window.__agentLook = {}", js::js_literal(&token)),
                Code::ActionFailed,
            )
            .await?;
            self.look_token = Some(token);
        }
        let given = renumber(&mut tree.tree, base).ok_or_else(|| {
            AgentError::new(
                Code::ActionFailed,
                "this session has given out every ref number; start a new agent",
            )
        })?;
        if !keep {
            self.ref_base = base;
            self.issued = base + given;
            self.look_sig = options.scope.is_none().then_some(sig);
        }
        if let Some((r, mark)) = held {
            let scope_node = mark
                .as_deref()
                .and_then(Ref::parse)
                .and_then(|m| Ref::new(m.number().checked_add(base)?));
            if !scope_node.is_some_and(|n| keep_subtree(&mut tree, n)) {
                return Err(AgentError::new(
                    Code::StaleRef,
                    format!(
                        "{r} is no longer shown on the page (hidden, or past the look's node \
                         limit); look without scope and use the new refs"
                    ),
                ));
            }
        }
        if viewport_only {
            let visible = self.eval_json(VISIBLE_REFS_JS).await?;
            let visible: Vec<String> = serde_json::from_str(&visible).unwrap_or_default();
            let visible = visible
                .iter()
                .filter_map(|r| Ref::new(Ref::parse(r)?.number().checked_add(base)?))
                .collect();
            keep_refs(&mut tree.tree, &visible);
        }
        Ok(tree)
    }

    /// The whole page's snapshot for a look scoped by `scope`, a ref of the latest look, and
    /// the mark (`eN`) the scope's element carries after it (`None` when it got no ref this
    /// time). One evaluation finds the element by its mark before the script marks the page
    /// again, so it is the element the ref named. `STALE_REF` when the document is not the
    /// latest look's or the element left it: then the script does not run, the page's marks
    /// stay as they were, and the latest look's refs keep their meaning.
    async fn held_snapshot(
        &self,
        scope: Ref,
        options: &JsSnapshotOptions,
    ) -> Result<(String, Option<String>)> {
        let public = scope.to_string();
        let target = self.resolve(&public)?;
        let token = self
            .look_token
            .as_ref()
            .ok_or_else(|| AgentError::stale(&public))?;
        let expr = format!(
            "(() => {{ let el = window.__agentLook === {token} && document.querySelector({mark}); \
             if (!el) return ''; let t = {snapshot}; \
             return JSON.stringify(el.getAttribute('data-agent-ref')) + '\\n' + t; }})()",
            token = js::js_literal(token),
            mark = js::js_literal(&format!("[data-agent-ref=\"{}\"]", target.page)),
            snapshot = js::snapshot_js(options),
        );
        let out = self.eval_json(&expr).await?;
        // JSON.stringify writes no raw line break: the first one ends the mark.
        let (mark, json) = out
            .split_once('\n')
            .ok_or_else(|| AgentError::stale(&public))?;
        let mark: Option<String> = serde_json::from_str(mark).unwrap_or(None);
        Ok((json.to_string(), mark))
    }

    /// Where a ref points: its element on the page when the latest look gave it, `STALE_REF`
    /// when an older look did, `NOT_FOUND` when no look did. Does not check for a navigation.
    fn resolve(&self, ref_: &str) -> Result<Target> {
        let never = || {
            if self.issued == 0 {
                AgentError::new(
                    Code::NotFound,
                    format!("no look yet: call look first, then use its refs (not {ref_})"),
                )
            } else {
                AgentError::new(
                    Code::NotFound,
                    format!(
                        "no look gave {ref_} (the latest gave e{} to e{}); call look and pick \
                         a ref it shows",
                        self.ref_base + 1,
                        self.issued
                    ),
                )
            }
        };
        let n = Ref::parse(ref_).ok_or_else(never)?.number();
        if n > self.issued {
            return Err(never());
        }
        if n <= self.ref_base {
            return Err(AgentError::new(
                Code::StaleRef,
                format!(
                    "{ref_} is from an older look; call look again and use the new refs \
                     (the latest look gave e{} to e{})",
                    self.ref_base + 1,
                    self.issued
                ),
            ));
        }
        Ok(Target {
            public: ref_.to_string(),
            page: format!("e{}", n - self.ref_base),
        })
    }

    /// The ref of an `act`/`query`, checked against the latest look, with the page state the
    /// check read (an action measures its changes from it).
    async fn live_ref(&self, args: &Map<String, Value>) -> Result<(Target, PageState)> {
        let ref_ = opt_str(args, "ref")?.ok_or_else(|| {
            AgentError::new(Code::InvalidArgs, "\"ref\" is required (e.g. \"e5\")")
        })?;
        let target = self.resolve(ref_)?;
        let Some(token) = &self.look_token else {
            return Err(AgentError::stale(ref_));
        };
        match self.state().await {
            Some(state) if state.token.as_deref() == Some(token.as_str()) => Ok((target, state)),
            _ => Err(AgentError::stale(ref_)),
        }
    }

    async fn act(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(
            args,
            &["ref", "op", "value", "values", "key", "direction", "amount"],
        )?;
        let op = opt_str(args, "op")?
            .ok_or_else(|| AgentError::new(Code::InvalidArgs, "\"op\" is required"))?
            .to_string();
        // Page-level operations need no ref.
        let needs_ref = !matches!(op.as_str(), "press_key" | "scroll") || args.contains_key("ref");
        let (target, before) = if needs_ref {
            let (target, state) = self.live_ref(args).await?;
            (Some(target), Some(state))
        } else {
            (None, self.state().await)
        };
        if let (true, Some(target)) = (self.options.sidebar, &target) {
            // Outline the element and move the panel off it; the sidebar never fails an act.
            let _ = self
                .ui_call(&format!("touch({})", js::js_literal(&target.page)))
                .await;
        }
        self.perform(&op, target.as_ref(), args).await?;
        let settled = self.settle(before.as_ref()).await;
        if settled.navigated {
            // Even a page restored from the back/forward cache is another visit: look again.
            self.look_token = None;
        }
        let (url, title) = self.url_title().await;
        Ok(json!({
            "changed": settled.changed,
            "navigated": settled.navigated,
            "url": url,
            "title": title,
        }))
    }

    async fn perform(
        &self,
        op: &str,
        target: Option<&Target>,
        args: &Map<String, Value>,
    ) -> Result<()> {
        // Only press_key and scroll come without a ref, and they look at `target` first.
        let none = Target::default();
        let ref_ = target.unwrap_or(&none);
        match op {
            "click" => self.click(ref_).await,
            "fill" => {
                let value = opt_str(args, "value")?
                    .ok_or_else(|| AgentError::new(Code::InvalidArgs, "fill needs \"value\""))?;
                self.script_action(ref_, "fill", json!({ "value": value }))
                    .await
            }
            "select" => {
                let values = match (args.get("values"), args.get("value")) {
                    (Some(Value::Array(v)), _) => Value::Array(v.clone()),
                    (_, Some(Value::String(s))) => json!([s]),
                    _ => {
                        return Err(AgentError::new(
                            Code::InvalidArgs,
                            "select needs \"value\" (a string) or \"values\" (strings)",
                        ))
                    }
                };
                self.script_action(ref_, "select", json!({ "values": values }))
                    .await
            }
            "check" | "uncheck" | "hover" | "focus" | "clear" => {
                self.script_action(ref_, op, json!({})).await
            }
            "scroll" if target.is_some() => {
                self.script_action(ref_, "scroll_into_view", json!({}))
                    .await
            }
            "scroll" => {
                let direction = opt_str(args, "direction")?
                    .unwrap_or("down")
                    .parse::<js::Direction>()
                    .map_err(|e| AgentError::new(Code::InvalidArgs, e.to_string()))?;
                let amount = args.get("amount").and_then(Value::as_i64).unwrap_or(600);
                self.script_eval(&js::scroll_js(direction, amount))
                    .await
                    .map(drop)
            }
            "type" => {
                let text = opt_str(args, "value")?
                    .ok_or_else(|| AgentError::new(Code::InvalidArgs, "type needs \"value\""))?;
                self.script_action(ref_, "focus", json!({})).await?;
                self.input(Ok(InsertTextParams::new(text))).await
            }
            "press_key" => {
                if target.is_some() {
                    self.script_action(ref_, "focus", json!({})).await?;
                }
                let key = opt_str(args, "key")?
                    .or(opt_str(args, "value")?)
                    .ok_or_else(|| AgentError::new(Code::InvalidArgs, "press_key needs \"key\""))?;
                self.press_key(key).await
            }
            other => Err(AgentError::new(
                Code::InvalidArgs,
                format!(
                    "unknown op {other:?}: click, fill, type, select, check, uncheck, hover, \
                     focus, clear, press_key or scroll"
                ),
            )),
        }
    }

    /// A real mouse click at the element's centre; the script's click when it has no box.
    async fn click(&self, ref_: &Target) -> Result<()> {
        let json = self.eval_json(&js::center_js(&ref_.page)).await?;
        let center: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
        match center.get("error").and_then(Value::as_str) {
            Some("ref_not_found") => return Err(AgentError::stale(&ref_.public)),
            Some("disabled") => {
                return Err(AgentError::new(
                    Code::ActionFailed,
                    format!("{} is disabled", ref_.public),
                ))
            }
            Some(_) => return self.script_action(ref_, "click", json!({})).await,
            None => {}
        }
        let (Some(x), Some(y)) = (center["x"].as_f64(), center["y"].as_f64()) else {
            return self.script_action(ref_, "click", json!({})).await;
        };
        for kind in [
            DispatchMouseEventType::MouseMoved,
            DispatchMouseEventType::MousePressed,
            DispatchMouseEventType::MouseReleased,
        ] {
            let mut event = DispatchMouseEventParams::builder()
                .r#type(kind.clone())
                .x(x)
                .y(y);
            if kind != DispatchMouseEventType::MouseMoved {
                event = event.button(MouseButton::Left).click_count(1);
            }
            self.input(event.build()).await?;
        }
        Ok(())
    }

    /// Sends one built CDP input event.
    async fn input<T: chromiumoxide::types::Command>(
        &self,
        event: std::result::Result<T, String>,
    ) -> Result<()> {
        let event = event.map_err(|e| AgentError::new(Code::ActionFailed, e))?;
        self.page
            .execute(event)
            .await
            .map(drop)
            .map_err(|e| AgentError::new(Code::ActionFailed, format!("input event failed: {e}")))
    }

    async fn press_key(&self, key: &str) -> Result<()> {
        let Some(def) = chromiumoxide::keys::get_key_definition(key) else {
            // Not a named key: type it as text.
            return self.input(Ok(InsertTextParams::new(key))).await;
        };
        // As Puppeteer does: a key with text is a keyDown carrying it, others a rawKeyDown.
        let text = def
            .text
            .or((def.key.chars().count() == 1).then_some(def.key));
        let down = if text.is_some() {
            DispatchKeyEventType::KeyDown
        } else {
            DispatchKeyEventType::RawKeyDown
        };
        for kind in [down, DispatchKeyEventType::KeyUp] {
            let mut event = DispatchKeyEventParams::builder()
                .r#type(kind.clone())
                .key(def.key)
                .code(def.code)
                .windows_virtual_key_code(def.key_code)
                .native_virtual_key_code(def.key_code);
            if let (Some(text), false) = (text, kind == DispatchKeyEventType::KeyUp) {
                event = event.text(text);
            }
            self.input(event.build()).await?;
        }
        Ok(())
    }

    async fn script_action(&self, ref_: &Target, action: &str, params: Value) -> Result<()> {
        let json = self
            .script_eval(&js::action_js(&ref_.page, action, &params))
            .await?;
        let result = js::parse_action_result(&json)
            .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))?;
        if result.success {
            return Ok(());
        }
        let error = result.error.unwrap_or_default();
        Err(match error.as_str() {
            "ref_not_found" | "not_injected" => AgentError::stale(&ref_.public),
            _ => AgentError::new(
                Code::ActionFailed,
                format!("{action} on {} failed: {error}", ref_.public),
            ),
        })
    }

    /// Waits after an action: for the load when it navigated, otherwise until the DOM has
    /// been quiet for [`LaunchOptions::quiet`]; never longer than the cap.
    async fn settle(&self, before: Option<&PageState>) -> Settled {
        let start = Instant::now();
        let mut navigated = false;
        let mut changed = false;
        loop {
            tokio::time::sleep(Duration::from_millis(50)).await;
            let state = self.state().await;
            match (&state, before) {
                // The context is being replaced: a navigation is under way.
                (None, _) => navigated = true,
                (Some(now), Some(b)) => {
                    if now.token != b.token || now.url != b.url {
                        navigated = true;
                    }
                    if now.mutations != b.mutations {
                        changed = true;
                    }
                }
                (Some(_), None) => {}
            }
            if let Some(now) = &state {
                let loaded = now.ready == "complete";
                let quiet = now.quiet_ms >= self.options.quiet.as_millis() as f64;
                if loaded && quiet && start.elapsed() >= Duration::from_millis(100) {
                    break;
                }
            }
            if start.elapsed() >= self.options.settle_cap {
                break;
            }
        }
        Settled {
            changed: changed || navigated,
            navigated,
        }
    }

    async fn go(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["url"])?;
        let url = opt_str(args, "url")?
            .ok_or_else(|| AgentError::new(Code::InvalidArgs, "go needs \"url\""))?;
        let nav = self.page.goto(url);
        match tokio::time::timeout(Duration::from_secs(30), nav).await {
            Err(_) => {
                return Err(AgentError::new(
                    Code::Timeout,
                    format!("{url} did not load in 30 s"),
                ))
            }
            Ok(Err(e)) => {
                return Err(AgentError::new(
                    Code::NavigationFailed,
                    format!("cannot load {url}: {e}"),
                ))
            }
            Ok(Ok(_)) => {}
        }
        self.look_token = None;
        self.settle(None).await;
        let (url, title) = self.url_title().await;
        Ok(json!({"url": url, "title": title, "navigated": true}))
    }

    async fn back(&mut self) -> Result<Value> {
        let before = self.state().await;
        self.evaluate("history.back()", Code::NavigationFailed)
            .await?;
        let settled = self.settle(before.as_ref()).await;
        if settled.navigated {
            self.look_token = None;
        }
        let (url, title) = self.url_title().await;
        Ok(json!({"url": url, "title": title, "navigated": settled.navigated}))
    }

    async fn wait(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["ref", "text", "js", "timeout_ms", "time_ms"])?;
        if let Some(ms) = args.get("time_ms").filter(|v| !v.is_null()) {
            if ["ref", "text", "js"].iter().any(|k| args.contains_key(*k)) {
                return Err(AgentError::new(
                    Code::InvalidArgs,
                    "wait takes \"time_ms\" alone, or one of \"ref\", \"text\" and \"js\"",
                ));
            }
            let ms = ms.as_u64().filter(|ms| *ms <= 120_000).ok_or_else(|| {
                AgentError::new(Code::InvalidArgs, "time_ms is 0 to 120000 milliseconds")
            })?;
            tokio::time::sleep(Duration::from_millis(ms)).await;
            return Ok(json!({ "waited_ms": ms }));
        }
        let timeout = Duration::from_millis(
            args.get("timeout_ms")
                .and_then(Value::as_u64)
                .unwrap_or(5_000)
                .min(120_000),
        );
        let condition = match (
            opt_str(args, "ref")?,
            opt_str(args, "text")?,
            opt_str(args, "js")?,
        ) {
            (Some(r), None, None) => js::ref_exists_js(&self.resolve(r)?.page),
            (None, Some(t), None) => format!(
                "!!document.body && document.body.innerText.includes({})",
                js::js_literal(t)
            ),
            (None, None, Some(code)) => format!("!!({code})"),
            _ => {
                return Err(AgentError::new(
                    Code::InvalidArgs,
                    "wait needs exactly one of \"ref\", \"text\" and \"js\"",
                ))
            }
        };
        let start = Instant::now();
        loop {
            // Each poll within what is left, so a stuck page still ends in TIMEOUT.
            let left = timeout
                .saturating_sub(start.elapsed())
                .max(Duration::from_millis(100));
            let ok = tokio::time::timeout(left, self.page.evaluate(condition.as_str()))
                .await
                .ok()
                .and_then(|r| r.ok())
                .and_then(|r| r.into_value::<bool>().ok())
                .unwrap_or(false);
            if ok {
                return Ok(json!({"waited_ms": start.elapsed().as_millis() as u64}));
            }
            if start.elapsed() >= timeout {
                return Err(AgentError::new(
                    Code::Timeout,
                    format!(
                        "the condition was still false after {} ms",
                        timeout.as_millis()
                    ),
                ));
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    async fn query(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["ref", "kind", "limit"])?;
        let (target, _) = self.live_ref(args).await?;
        let kind = opt_str(args, "kind")?.unwrap_or("text");
        if !matches!(
            kind,
            "text" | "html" | "value" | "attrs" | "computed_styles"
        ) {
            return Err(AgentError::new(
                Code::InvalidArgs,
                format!("kind {kind:?}: use text, html, value, attrs or computed_styles"),
            ));
        }
        let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(4_000) as usize;
        let json = self
            .script_eval(&js::query_js(&target.page, kind, limit))
            .await?;
        let ref_ = target.public;
        let result = js::parse_query_result(&json)
            .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))?;
        match result.error.as_deref() {
            Some("ref_not_found") | Some("not_injected") => Err(AgentError::stale(&ref_)),
            Some(e) => Err(AgentError::new(Code::ActionFailed, e.to_string())),
            None => Ok(json!({"ref": ref_, "kind": kind, "value": result.value,
                              "truncated": result.truncated})),
        }
    }

    async fn eval(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["js"])?;
        let code = opt_str(args, "js")?
            .ok_or_else(|| AgentError::new(Code::InvalidArgs, "eval needs \"js\""))?;
        let r = self.evaluate(code, Code::EvalFailed).await?;
        Ok(json!({"value": r.value().cloned().unwrap_or(Value::Null)}))
    }

    /// Asks a person to step in (a CAPTCHA, a login): shows the message and a Resume button
    /// in the page and waits until they press it, showing the prompt again on every page
    /// they go to meanwhile. `{resumed: true, elapsed}` in milliseconds.
    async fn handoff(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["message", "timeout_ms"])?;
        let message = opt_str(args, "message")?
            .ok_or_else(|| AgentError::new(Code::InvalidArgs, "handoff needs \"message\""))?
            .to_string();
        if self.options.headless && !self.attached {
            return Err(AgentError::new(
                Code::HandoffUnavailable,
                "the browser is headless: nobody can see the page to help; run the agent \
                 without --headless, or --attach to a browser a person watches",
            ));
        }
        let timeout = match args.get("timeout_ms") {
            None | Some(Value::Null) => self.options.handoff_timeout,
            Some(v) => Duration::from_millis(v.as_u64().ok_or_else(|| {
                AgentError::new(Code::InvalidArgs, "timeout_ms must be a whole number")
            })?),
        };
        let show = format!("handoff({})", js::js_literal(&message));
        // The first showing must work; later ones may fail while a page is on its way (the
        // person signing in), and are tried again at the next tick.
        self.ui_call(&show).await?;
        let start = Instant::now();
        loop {
            if self.ui_call(&show).await.ok() == Some(Value::Bool(true)) {
                let _ = self.ui_call("handoffEnd()").await;
                let elapsed = start.elapsed().as_millis() as u64;
                return Ok(json!({"resumed": true, "elapsed": elapsed}));
            }
            if start.elapsed() >= timeout {
                let _ = self.ui_call("handoffEnd()").await;
                return Err(AgentError::new(
                    Code::HandoffTimeout,
                    format!(
                        "nobody pressed Resume within {} s; go on without help, or hand off \
                         again with a longer timeout",
                        timeout.as_secs_f64().round()
                    ),
                ));
            }
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
    }

    /// Logs a command in the sidebar (when it is on), with the time of day (UTC).
    async fn log(&mut self, text: &str) {
        if !self.options.sidebar {
            return;
        }
        self.logged += 1;
        let secs = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let time = format!(
            "{:02}:{:02}:{:02}",
            secs / 3600 % 24,
            secs / 60 % 60,
            secs % 60
        );
        let text: String = text.chars().take(200).collect();
        self.sidebar_log
            .push_back(json!({"seq": self.logged, "time": time, "text": text}));
        while self.sidebar_log.len() > SIDEBAR_LINES {
            self.sidebar_log.pop_front();
        }
        let entries = Value::Array(self.sidebar_log.iter().cloned().collect());
        // The sidebar is for a person watching; a page that will not take it fails nothing.
        let _ = self
            .ui_call(&format!("log({})", js::js_literal(&entries)))
            .await;
    }

    /// Calls `window.__agentUI.<call>` in the overlay's isolated world, making the world and
    /// injecting `overlay.js` first when this document has none (a navigation drops it).
    async fn ui_call(&mut self, call: &str) -> Result<Value> {
        let expr = format!("window.__agentUI.{call}");
        for attempt in 0..2 {
            let world =
                match self.ui_world {
                    Some(world) => world,
                    None => {
                        let frame =
                            self.page.mainframe().await.ok().flatten().ok_or_else(|| {
                                AgentError::new(Code::ActionFailed, "no main frame")
                            })?;
                        let params = CreateIsolatedWorldParams::builder()
                            .frame_id(frame)
                            .world_name("agent-snapshot-ui")
                            .build()
                            .map_err(|e| AgentError::new(Code::ActionFailed, e))?;
                        let world = self
                            .page
                            .execute(params)
                            .await
                            .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))?
                            .result
                            .execution_context_id;
                        self.eval_in(world, OVERLAY_JS).await?;
                        self.ui_world = Some(world);
                        world
                    }
                };
            match self.eval_in(world, &expr).await {
                Ok(value) => return Ok(value),
                // The world went with its document: make one in the new document.
                Err(_) if attempt == 0 => self.ui_world = None,
                Err(e) => return Err(e),
            }
        }
        Err(AgentError::new(
            Code::ActionFailed,
            "the page's UI world is gone",
        ))
    }

    /// Evaluates `expr` in the execution context `world`; its JSON value.
    async fn eval_in(&self, world: ExecutionContextId, expr: &str) -> Result<Value> {
        let mut params = EvaluateParams::new(expr);
        params.context_id = Some(world);
        params.return_by_value = Some(true);
        let reply = tokio::time::timeout(EVAL_LIMIT, self.page.execute(params))
            .await
            .map_err(|_| AgentError::new(Code::Timeout, "the page did not answer"))?
            .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))?
            .result;
        if let Some(e) = reply.exception_details {
            return Err(AgentError::new(Code::ActionFailed, e.text));
        }
        Ok(reply.result.value.unwrap_or(Value::Null))
    }

    async fn screenshot(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["path"])?;
        let params = ScreenshotParams::builder()
            .format(CaptureScreenshotFormat::Png)
            .build();
        let png =
            self.page.screenshot(params).await.map_err(|e| {
                AgentError::new(Code::ActionFailed, format!("screenshot failed: {e}"))
            })?;
        match opt_str(args, "path")? {
            Some(path) => {
                crate::atomic::write_with(Path::new(path), |file| {
                    std::io::Write::write_all(file, &png)
                })
                .map_err(|e| AgentError::new(Code::ActionFailed, format!("{path}: {e}")))?;
                Ok(json!({"path": path, "bytes": png.len()}))
            }
            None => Ok(json!({
                "format": "png",
                "base64": base64::engine::general_purpose::STANDARD.encode(&png),
            })),
        }
    }
}

/// A ref as the caller knows it (session-wide numbering) and as the page marks it.
#[derive(Debug, Default)]
struct Target {
    public: String,
    page: String,
}

/// Gives every ref of the tree `base` more, in place; returns the highest ref the tree held
/// (0 for none), or `None` when the numbers would pass `u32::MAX`.
fn renumber(root: &mut TreeNode, base: u32) -> Option<u32> {
    let mut highest = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let Some(r) = node.ref_ {
            highest = highest.max(r.number());
            node.ref_ = Some(Ref::new(r.number().checked_add(base)?)?);
        }
        stack.extend(node.children.iter_mut());
    }
    base.checked_add(highest).map(|_| highest)
}

/// What a look's refs were given to: each ref's number, tag, role and name in document
/// order, and whether content nodes needed a name for one. The script numbers the elements it
/// walks in order, so two walks with one signature marked alike elements alike (a changed
/// text outside any name leaves it as it was; an element added, removed or renamed does not).
fn signature(root: &TreeNode, interactive_only: bool) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    interactive_only.hash(&mut hasher);
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let Some(r) = node.ref_ {
            (r.number(), &node.tag, &node.role, &node.name).hash(&mut hasher);
        }
        stack.extend(node.children.iter().rev());
    }
    hasher.finish()
}

/// Cuts `tree` to the node with ref `scope` and its content, that node the only child of the
/// root so that its own line shows (as offline `--scope`). `false` when no node has the ref.
fn keep_subtree(tree: &mut NodeTree, scope: Ref) -> bool {
    let mut found = None;
    let mut stack = vec![&mut tree.tree];
    while let Some(node) = stack.pop() {
        if node.ref_ == Some(scope) {
            found = Some(std::mem::take(node));
            break;
        }
        stack.extend(node.children.iter_mut());
    }
    let Some(node) = found else { return false };
    tree.tree = TreeNode {
        tag: tree.tree.tag.clone(),
        children: vec![node],
        ..Default::default()
    };
    true
}

/// The design's names for the operations of a role: `input` for `fill`; operations the
/// design has no name for are left out (the protocol's `act` still takes them).
fn design_actions(role: &str) -> Vec<&'static str> {
    actions_for(role)
        .iter()
        .filter_map(|op| match *op {
            "fill" => Some("input"),
            "clear" | "focus" | "click" | "check" | "uncheck" | "select" => Some(*op),
            _ => None,
        })
        .collect()
}

struct Settled {
    changed: bool,
    navigated: bool,
}

/// Refs of elements that intersect the viewport, as a JSON array.
const VISIBLE_REFS_JS: &str = "JSON.stringify([...document.querySelectorAll('[data-agent-ref]')]\
.filter(el => { let r = el.getBoundingClientRect(); return r.bottom > 0 && r.right > 0 && \
r.top < innerHeight && r.left < innerWidth && r.width > 0 && r.height > 0; })\
.map(el => el.getAttribute('data-agent-ref')))";

/// Keeps the nodes whose ref is in `keep`, and the ancestors of kept nodes; drops the rest.
/// Iterative post-order over owned nodes, so depth costs no stack.
fn keep_refs(root: &mut TreeNode, keep: &HashSet<Ref>) {
    struct Frame {
        node: TreeNode,
        /// Children still to visit, last first.
        pending: Vec<TreeNode>,
        kept: Vec<TreeNode>,
    }
    let open = |mut node: TreeNode| {
        let mut pending = std::mem::take(&mut node.children);
        pending.reverse();
        Frame {
            node,
            pending,
            kept: Vec::new(),
        }
    };
    let mut stack = vec![open(std::mem::take(root))];
    while let Some(top) = stack.last_mut() {
        if let Some(child) = top.pending.pop() {
            stack.push(open(child));
            continue;
        }
        let Some(Frame { mut node, kept, .. }) = stack.pop() else {
            break;
        };
        node.children = kept;
        match stack.last_mut() {
            Some(parent) => {
                if node.ref_.is_some_and(|r| keep.contains(&r)) || !node.children.is_empty() {
                    parent.kept.push(node);
                }
            }
            None => *root = node,
        }
    }
}

/// A response line: `{"id"?, "command": "result" | "error", "payload"}`; no `id` key when
/// `id` is `None` (the design's format).
fn response(id: Option<Value>, result: Result<Value>) -> Value {
    let mut line = Map::new();
    if let Some(id) = id {
        line.insert("id".into(), id);
    }
    let (command, payload) = match result {
        Ok(payload) => ("result", payload),
        Err(e) => ("error", json!({"message": e.message, "code": e.code})),
    };
    line.insert("command".into(), Value::from(command));
    line.insert("payload".into(), payload);
    Value::Object(line)
}

fn check_keys(args: &Map<String, Value>, allowed: &[&str]) -> Result<()> {
    for key in args.keys() {
        if key != "id" && key != "command" && !allowed.contains(&key.as_str()) {
            return Err(AgentError::new(
                Code::InvalidArgs,
                format!(
                    "unknown argument {key:?} (this command takes {})",
                    allowed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

fn opt_str<'a>(args: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>> {
    tools::string_arg(args, key).map_err(|e| AgentError::new(Code::InvalidArgs, e))
}

fn opt_bool(args: &Map<String, Value>, key: &str) -> Result<Option<bool>> {
    tools::bool_arg(args, key).map_err(|e| AgentError::new(Code::InvalidArgs, e))
}

fn running_as_root() -> bool {
    // Chromium refuses to run as root with its sandbox on; /proc tells the effective uid
    // without unsafe code.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|uid| uid == "0"))
        })
        .unwrap_or(false)
}

/// Starts `agent-snapshot guard`: a process that holds a pipe from this one and, when the
/// pipe closes without a clean shutdown (this process killed or crashed), kills Chromium and
/// its descendants and removes the temporary profile.
fn spawn_guard(
    pid: Option<u32>,
    profile: &Path,
    remove_profile: bool,
) -> Option<std::process::Child> {
    use std::io::Write;
    let exe = std::env::current_exe().ok()?;
    let mut child = std::process::Command::new(exe)
        .arg("guard")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .ok()?;
    let stdin = child.stdin.as_mut()?;
    let mut lines = String::new();
    if let Some(pid) = pid {
        lines.push_str(&format!("pid {pid}\n"));
    }
    // Chromium's helpers (zygotes, crashpad) name the profile on their command lines, also
    // those that were re-parented away from the browser process.
    lines.push_str(&format!("match {}\n", profile.display()));
    if remove_profile {
        lines.push_str(&format!("rmdir {}\n", profile.display()));
    }
    stdin.write_all(lines.as_bytes()).ok()?;
    stdin.flush().ok()?;
    Some(child)
}

/// The guard's side (the hidden `agent-snapshot guard` command): reads `pid N`, `match TEXT`
/// and `rmdir PATH` lines until its stdin closes, then kills what still runs (the pids, their
/// descendants, and processes whose command line holds a `match` text) and removes the
/// dirs. After a clean shutdown Chromium has already exited, so there is little left to do.
pub fn run_guard() {
    use std::io::BufRead;
    let mut pids = Vec::new();
    let mut matches = Vec::new();
    let mut dirs = Vec::new();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if let Some(pid) = line
            .strip_prefix("pid ")
            .and_then(|p| p.trim().parse::<u32>().ok())
        {
            pids.push(pid);
        } else if let Some(text) = line.strip_prefix("match ") {
            matches.push(text.to_string());
        } else if let Some(dir) = line.strip_prefix("rmdir ") {
            dirs.push(PathBuf::from(dir));
        }
    }
    // Again while anything is left: a helper may be starting while a round kills its parent.
    // After a clean shutdown the first round finds nothing, and the agent exits at once.
    for _ in 0..3 {
        let victims = descendants(&pids, &matches);
        if victims.is_empty() {
            break;
        }
        kill_all(&victims);
        std::thread::sleep(Duration::from_millis(300));
    }
    for dir in dirs {
        // Chromium may still be writing as it dies; a second try catches late files.
        for _ in 0..3 {
            if std::fs::remove_dir_all(&dir).is_ok() || !dir.exists() {
                break;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

fn kill_all(victims: &[u32]) {
    // std can only signal its own children; kill(1) signals any pid.
    let _ = std::process::Command::new("kill")
        .arg("-KILL")
        .args(victims.iter().map(u32::to_string))
        .stderr(std::process::Stdio::null())
        .status();
}

/// `roots` that still run, processes whose command line holds one of `matches`, and all
/// their descendants, from `/proc`.
fn descendants(roots: &[u32], matches: &[String]) -> Vec<u32> {
    // Never this guard, nor the agent that started it (its command line names the profile
    // too when the user gave one).
    let spare = [std::process::id(), std::os::unix::process::parent_id()];
    let mut roots = roots.to_vec();
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut alive = std::collections::HashSet::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|s| s.parse::<u32>().ok())
            else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // The command name is in parentheses and may hold spaces: fields follow the last ')'.
            let Some(rest) = stat.rsplit_once(')').map(|(_, r)| r) else {
                continue;
            };
            let mut fields = rest.split_whitespace();
            let state = fields.next();
            if state == Some("Z") {
                continue;
            }
            if let Some(ppid) = fields.next().and_then(|p| p.parse::<u32>().ok()) {
                children.entry(ppid).or_default().push(pid);
            }
            alive.insert(pid);
            if !spare.contains(&pid) && !matches.is_empty() {
                let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
                let cmdline = String::from_utf8_lossy(&cmdline);
                if matches.iter().any(|m| cmdline.contains(m.as_str())) {
                    roots.push(pid);
                }
            }
        }
    }
    let mut out = Vec::new();
    let mut stack: Vec<u32> = roots.into_iter().filter(|p| alive.contains(p)).collect();
    while let Some(pid) = stack.pop() {
        if out.contains(&pid) {
            continue;
        }
        out.push(pid);
        if let Some(kids) = children.get(&pid) {
            stack.extend(kids);
        }
    }
    out
}

/// Runs the protocol on stdin/stdout until stdin closes: a `ready` line, then one response
/// per request line. Logs go to stderr.
pub async fn run_stdio(options: LaunchOptions) -> std::result::Result<(), String> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut session = Session::start(options).await.map_err(|e| e.message)?;
    let mut out = tokio::io::stdout();
    let ready = json!({"command": "ready", "payload": session.ready_payload().await});
    let write = |v: &Value| format!("{v}\n");
    let mut result = out.write_all(write(&ready).as_bytes()).await;
    if result.is_ok() {
        result = out.flush().await;
    }
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    while result.is_ok() {
        let line = match lines.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                // Not UTF-8: answer and go on; the next line may be fine.
                let err = AgentError::new(Code::InvalidArgs, format!("unreadable line: {e}"));
                result = out
                    .write_all(write(&response(Some(Value::Null), Err(err))).as_bytes())
                    .await;
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let reply = session.handle_line(&line).await;
        result = out.write_all(write(&reply).as_bytes()).await;
        if result.is_ok() {
            result = out.flush().await;
        }
    }
    session.close().await;
    result.map_err(|e| format!("cannot write to stdout: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_interactive_role_has_actions() {
        assert_eq!(actions_for("button"), ["click", "hover", "focus"]);
        assert!(actions_for("textbox").contains(&"fill"));
        assert!(actions_for("checkbox").contains(&"uncheck"));
        assert!(actions_for("combobox").contains(&"select"));
        assert_eq!(actions_for("generic"), ["click", "hover", "scroll"]);
    }

    #[test]
    fn viewport_filter_keeps_visible_refs_and_their_ancestors() {
        let json = r#"{"version":1,"tree":{"tag":"body","children":[
            {"tag":"nav","role":"navigation","children":[
                {"tag":"a","role":"link","name":"A","ref":"e1"}]},
            {"tag":"main","role":"main","children":[{"tag":"a","role":"link","name":"B","ref":"e2"},
                {"tag":"ul","role":"list","children":[{"tag":"li","role":"listitem","ref":"e3",
                    "children":[{"tag":"a","role":"link","name":"C","ref":"e4"}]}]}]}]}}"#;
        let mut tree = NodeTree::from_json(json).expect("tree");
        let keep = ["e2", "e4"].into_iter().filter_map(Ref::parse).collect();
        keep_refs(&mut tree.tree, &keep);
        let text = render(&tree, &RenderOptions::default()).text;
        assert!(!text.contains("\"A\""), "{text}");
        assert!(text.contains("link \"B\" [ref=e2]"), "{text}");
        assert!(text.contains("[C](e4)"), "{text}");
        assert!(
            text.contains("listitem"),
            "ancestor of a kept node stays: {text}"
        );
    }

    #[test]
    fn a_ref_scope_keeps_its_subtree_with_the_pages_refs() {
        let json = r#"{"version":1,"url":"https://x.test/","tree":{"tag":"body","children":[
            {"tag":"a","role":"link","name":"Top","ref":"e1"},
            {"tag":"footer","role":"contentinfo","ref":"e2","children":[
                {"tag":"a","role":"link","name":"About","ref":"e3"}]}]}}"#;
        let mut tree = NodeTree::from_json(json).expect("tree");
        assert!(!keep_subtree(&mut tree.clone(), Ref::new(9).expect("ref")));
        assert!(keep_subtree(&mut tree, Ref::new(2).expect("ref")));
        let text = render(&tree, &RenderOptions::default()).text;
        assert!(
            text.ends_with("\n- contentinfo [ref=e2]: [About](e3)"),
            "{text}"
        );
        assert!(!text.contains("Top"), "{text}");
    }

    #[test]
    fn signature_tells_when_refs_would_name_other_elements() {
        let tree = |body: &str| {
            NodeTree::from_json(&format!(
                r#"{{"version":1,"tree":{{"tag":"body","children":[{body}]}}}}"#
            ))
            .expect("tree")
            .tree
        };
        let a = r#"{"tag":"a","role":"link","name":"A","ref":"e1"}"#;
        let b = r#"{"tag":"button","role":"button","name":"B","ref":"e2"}"#;
        let base = signature(&tree(&format!("{a},{b}")), false);
        let text = r##"{"tag":"#text","text":"the time is 10:42"}"##;
        assert_eq!(
            base,
            signature(&tree(&format!("{a},{text},{b}")), false),
            "text only"
        );
        assert_ne!(base, signature(&tree(&format!("{a},{b}")), true));
        assert_ne!(base, signature(&tree(a), false), "a ref fewer");
        let renamed = b.replace("\"B\"", "\"C\"");
        assert_ne!(base, signature(&tree(&format!("{a},{renamed}")), false));
    }

    #[test]
    fn malformed_requests_are_invalid_args() {
        let r = response(
            Some(Value::Null),
            Err(AgentError::new(Code::InvalidArgs, "bad")),
        );
        assert_eq!(r["payload"]["code"], "INVALID_ARGS");
        assert_eq!(
            serde_json::to_value(Code::StaleRef).unwrap(),
            json!("STALE_REF")
        );
        let args = json!({"command": "go", "url": "x", "bogus": 1});
        let err = check_keys(args.as_object().unwrap(), &["url"]).unwrap_err();
        assert!(err.message.contains("\"bogus\""));
    }
}
