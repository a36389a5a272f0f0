//! A stdio MCP server (the official Rust SDK, `rmcp`) for the tools of [`crate::tools`].
//!
//! The server is generic over a [`Backend`] that runs tool calls; [`OfflineTools`] is the
//! offline one (`html_snapshot`, `html_query`, `html_read`). Tool definitions come from
//! [`tools::input_schema`], the MCP flavor of [`tools::definitions`], so `agent-snapshot schema --flavor mcp` prints
//! exactly what `tools/list` answers. A failed call (bad arguments, unknown handle or ref)
//! comes back as a tool error (`isError: true`) that the model can read; the server goes on.

use std::collections::VecDeque;
use std::future::Future;
use std::path::Path;
use std::sync::{mpsc, Arc};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Map, Value};

use crate::tools::{self, string_arg, ToolSet};
use crate::{query, Document, QueryKind, ReadOptions, RenderOptions, TreeOptions};

/// What a tool call answers: text for the model, and the same facts as structured content.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolReply {
    pub text: String,
    pub structured: Option<Value>,
    /// A PNG, base64-encoded, sent as image content after the text.
    pub png: Option<String>,
}

/// Runs the tool calls of one [`ToolSet`].
pub trait Backend: Send + Sync + 'static {
    /// The tools this backend serves.
    fn tool_set(&self) -> ToolSet;
    /// Runs `name` with `args`; `Err` is a message for the model (a tool error).
    fn call(
        &self,
        name: String,
        args: Map<String, Value>,
    ) -> impl Future<Output = Result<ToolReply, String>> + Send;
}

/// The MCP server: `tools/list` and `tools/call` over a [`Backend`].
pub struct Server<B> {
    backend: B,
    tools: Vec<Tool>,
}

impl<B: Backend> Server<B> {
    pub fn new(backend: B) -> Server<B> {
        let tools = tools::served(backend.tool_set())
            .map(|spec| {
                let schema = match tools::input_schema(spec, false) {
                    Value::Object(map) => map,
                    _ => Map::new(),
                };
                Tool::new(spec.name, spec.description, Arc::new(schema))
            })
            .collect();
        Server { backend, tools }
    }

    /// Serves MCP on standard input and output until the client closes them.
    pub async fn serve_stdio(self) -> Result<(), String> {
        let service = self
            .serve(rmcp::transport::stdio())
            .await
            .map_err(|e| format!("MCP handshake failed: {e}"))?;
        service
            .waiting()
            .await
            .map(drop)
            .map_err(|e| format!("MCP server stopped: {e}"))
    }
}

impl<B: Backend> ServerHandler for Server<B> {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(
                env!("CARGO_PKG_NAME"),
                env!("CARGO_PKG_VERSION"),
            ))
            .with_instructions(match self.backend.tool_set() {
                ToolSet::Live | ToolSet::Browser => {
                    "Open a page with web_navigate, call web_snapshot to see it, act on refs \
                     (web_click, web_fill…), and call web_snapshot again after the page \
                     changes; web_read reads an article's text, with the same refs. A dialog the page opens waits for web_dialog; a tab it opens \
                     becomes current (web_tabs lists and switches). The browser tool does the \
                     same through one tool."
                }
                _ => {
                    "Call html_snapshot on a page instead of reading its HTML, then \
                     html_query a ref for details."
                }
            })
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|t| t.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let name = request.name.to_string();
        if !self.tools.iter().any(|t| t.name == name) {
            return Ok(tool_error(format!(
                "unknown tool {name:?}; tools/list names the tools this server has"
            )));
        }
        let args = request.arguments.unwrap_or_default();
        Ok(match self.backend.call(name, args).await {
            Ok(reply) => {
                let mut content = vec![ContentBlock::text(reply.text)];
                if let Some(png) = reply.png {
                    content.push(ContentBlock::image(png, "image/png"));
                }
                let mut result = CallToolResult::success(content);
                result.structured_content = reply.structured;
                result.into()
            }
            Err(message) => tool_error(message),
        })
    }
}

fn tool_error(message: String) -> CallToolResponse {
    CallToolResult::error(vec![ContentBlock::text(message)]).into()
}

/// The live tools (`web_*` and `browser`), driving one browser tab through a
/// [`crate::live::Session`]. The browser starts on the first call that needs it.
#[cfg(feature = "live")]
pub struct LiveTools {
    options: crate::live::LaunchOptions,
    session: tokio::sync::Mutex<Option<crate::live::Session>>,
}

#[cfg(feature = "live")]
impl LiveTools {
    /// Holds the launch options; with `start_url`, launches (or attaches to) the browser at
    /// once and opens the page, otherwise the first call does.
    pub async fn start(
        options: crate::live::LaunchOptions,
        start_url: Option<&str>,
    ) -> Result<LiveTools, String> {
        let tools = LiveTools {
            options,
            session: tokio::sync::Mutex::new(None),
        };
        if let Some(url) = start_url {
            let mut guard = tools.session.lock().await;
            let session = tools.running(&mut guard).await?;
            session
                .run("go", &one("url", url))
                .await
                .map_err(|e| e.message)?;
        }
        Ok(tools)
    }

    /// The session, launched first when there is none.
    async fn running<'a>(
        &self,
        slot: &'a mut Option<crate::live::Session>,
    ) -> Result<&'a mut crate::live::Session, String> {
        if slot.is_none() {
            let session = crate::live::Session::start(self.options.clone())
                .await
                .map_err(|e| e.message)?;
            *slot = Some(session);
        }
        slot.as_mut()
            .ok_or_else(|| "the browser did not start".to_string())
    }

    /// The design's multiplexed `browser` tool.
    async fn browser(&self, args: &Map<String, Value>) -> Result<ToolReply, String> {
        let action = string_arg(args, "action")?.ok_or("action is required")?;
        let url = string_arg(args, "target_url")?;
        let mut slot = self.session.lock().await;
        let (command, request) = match action {
            "status" => {
                let status = match slot.as_mut() {
                    None => json!({"running": false}),
                    Some(session) => {
                        let mut status = session.run("eval", &one("js", "location.href")).await;
                        let url = status
                            .as_mut()
                            .map(|v| v["value"].take())
                            .unwrap_or_default();
                        json!({"running": true, "url": url})
                    }
                };
                let text = match &status["url"] {
                    Value::String(url) => format!("running, at {url}"),
                    _ => "not running: action=start or navigate starts it".to_string(),
                };
                return Ok(ToolReply {
                    text,
                    structured: Some(status),
                    png: None,
                });
            }
            "stop" => {
                let was = slot.take();
                let text = match was {
                    Some(session) => {
                        session.close().await;
                        "stopped"
                    }
                    None => "was not running",
                };
                return Ok(ToolReply {
                    text: text.to_string(),
                    structured: Some(json!({"running": false})),
                    png: None,
                });
            }
            "start" => match url {
                Some(url) => ("go", one("url", url)),
                None => {
                    self.running(&mut slot).await?;
                    return Ok(ToolReply {
                        text: "started: navigate to a page, then snapshot".to_string(),
                        structured: Some(json!({"running": true})),
                        png: None,
                    });
                }
            },
            "navigate" => ("go", one("url", url.ok_or("navigate needs target_url")?)),
            "snapshot" => ("look", Map::new()),
            "act" => act_request(args.get("request"))?,
            other => return Err(format!("unknown action {other:?}")),
        };
        let session = self.running(&mut slot).await?;
        let payload = session.run(command, &request).await.map_err(tool_message)?;
        Ok(reply_for(command, payload))
    }
}

/// One argument.
#[cfg(feature = "live")]
fn one(key: &str, value: &str) -> Map<String, Value> {
    let mut map = Map::new();
    map.insert(key.into(), Value::from(value));
    map
}

/// The agent request for the `browser` tool's `request: {kind, target_id, text}`.
#[cfg(feature = "live")]
fn act_request(request: Option<&Value>) -> Result<(&'static str, Map<String, Value>), String> {
    let request = match request {
        Some(Value::Object(map)) => map,
        _ => return Err("act needs request: {kind, target_id, text}".to_string()),
    };
    if let Some(key) = request
        .keys()
        .find(|k| !matches!(k.as_str(), "kind" | "target_id" | "text"))
    {
        return Err(format!(
            "request has no field {key:?} (it takes kind, target_id, text)"
        ));
    }
    let kind = string_arg(request, "kind")?.ok_or("request.kind is required")?;
    let text = string_arg(request, "text")?;
    // Each kind is one agent command, and `text` fills one of its arguments.
    let (command, text_key) = match kind {
        "evaluate" => ("eval", "js"),
        "accept_dialog" | "dismiss_dialog" => ("dialog", "text"),
        "tabs" => ("tabs", ""),
        "switch_tab" => ("tab", "index"),
        "close_tab" => ("close_tab", ""),
        "press_key" => ("act", "key"),
        "scroll" => ("act", "direction"),
        "upload" => ("act", "files"),
        "drag" => ("act", "to"),
        _ => ("act", "value"),
    };
    let mut out = Map::new();
    match command {
        "act" => {
            out.insert("op".into(), Value::from(kind));
        }
        "dialog" => {
            out.insert("accept".into(), Value::Bool(kind == "accept_dialog"));
        }
        _ => {}
    }
    if let Some(id) = string_arg(request, "target_id")? {
        if command != "act" {
            return Err(format!("{kind} takes no target_id"));
        }
        // The design numbers elements ("15"); refs here are "e15".
        let id = if id.bytes().all(|b| b.is_ascii_digit()) {
            format!("e{id}")
        } else {
            id.to_string()
        };
        out.insert("ref".into(), Value::from(id));
    }
    match (text, text_key) {
        (None, "js") => return Err("evaluate needs request.text".to_string()),
        (None, "index") => return Err("switch_tab needs the tab's index in request.text".into()),
        (None, _) => {}
        (Some(_), "") => return Err(format!("{kind} takes no text")),
        (Some(text), "index") => {
            let index: u64 = text
                .trim()
                .parse()
                .map_err(|_| format!("switch_tab needs a tab index in text, not {text:?}"))?;
            out.insert("index".into(), Value::from(index));
        }
        (Some(text), "files") => {
            let files: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
            out.insert("files".into(), json!(files));
        }
        (Some(text), key) => {
            out.insert(key.into(), Value::from(text));
        }
    }
    Ok((command, out))
}

/// The agent command for `web_tabs {action, index}`; `action` is taken out of `request`.
#[cfg(feature = "live")]
fn tabs_command(request: &mut Map<String, Value>) -> Result<&'static str, String> {
    let action = string_arg(request, "action")?.unwrap_or("list");
    let command = match action {
        "list" => "tabs",
        "switch" => "tab",
        "close" => "close_tab",
        other => return Err(format!("action {other:?}: use list, switch or close")),
    };
    if command != "tab" && request.contains_key("index") {
        return Err(format!("index goes with action=switch, not {action}"));
    }
    request.remove("action");
    Ok(command)
}

/// A session error as the model reads it: the code first.
#[cfg(feature = "live")]
fn tool_message(e: crate::live::AgentError) -> String {
    let code = serde_json::to_value(e.code)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    format!("{code}: {}", e.message)
}

/// The text of an agent command's answer, with its payload as structured content.
#[cfg(feature = "live")]
fn reply_for(command: &str, mut payload: Value) -> ToolReply {
    let mut png = None;
    let text = match command {
        "look" => payload["snapshot"].as_str().unwrap_or_default().to_string(),
        "read" => payload["text"].as_str().unwrap_or_default().to_string(),
        "query" => payload["value"].as_str().unwrap_or_default().to_string(),
        "eval" => payload["value"].to_string(),
        "wait" => format!("waited {} ms", payload["waited_ms"]),
        "screenshot" => {
            png = payload["base64"].as_str().map(str::to_string);
            // The image goes as image content; structured content keeps the facts only.
            if let Some(map) = payload.as_object_mut() {
                map.remove("base64");
            }
            "screenshot of the viewport (PNG)".to_string()
        }
        "go" | "back" if payload["dialog"].is_null() => format!(
            "at {} ({}); call web_snapshot to see the page: refs from before are stale",
            payload["url"], payload["title"]
        ),
        "tabs" => {
            let tabs = payload["tabs"]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default();
            let lines: Vec<String> = tabs
                .iter()
                .map(|t| {
                    let mark = if t["current"] == true {
                        " (current)"
                    } else {
                        ""
                    };
                    format!("{}: {} {}{mark}", t["index"], t["url"], t["title"])
                })
                .collect();
            lines.join("\n")
        }
        "tab" | "close_tab" => format!(
            "now on tab {}: {} ({}); call web_snapshot: refs from the other tab are stale",
            payload["index"], payload["url"], payload["title"]
        ),
        _ => {
            let hint = if payload["changed"] == true {
                "; the page changed: call web_snapshot before using refs again"
            } else {
                ""
            };
            let mut text = format!(
                "done: changed={} navigated={} url={}{hint}",
                payload["changed"], payload["navigated"], payload["url"]
            );
            // What the model must do next comes last, where it reads it.
            if let Some(tab) = payload.get("tab") {
                text.push_str(&format!(
                    "\nthe page opened a tab, now current: {} ({})",
                    tab["url"], tab["title"]
                ));
            }
            if let Some(dialog) = payload.get("dialog") {
                text.push_str(&format!(
                    "\na {} dialog is open: {}; answer it with web_dialog",
                    dialog["type"], dialog["message"]
                ));
            }
            text
        }
    };
    ToolReply {
        text,
        structured: Some(payload),
        png,
    }
}

#[cfg(feature = "live")]
impl Backend for LiveTools {
    fn tool_set(&self) -> ToolSet {
        ToolSet::Live
    }

    async fn call(&self, name: String, args: Map<String, Value>) -> Result<ToolReply, String> {
        let spec = tools::find(&name).ok_or_else(|| format!("unknown tool {name:?}"))?;
        check_args(spec, &args)?;
        // Strict-mode callers send null for what they leave out.
        let mut request = args;
        request.retain(|_, v| !v.is_null());
        if name == "browser" {
            return self.browser(&request).await;
        }
        // Each web_* tool is one agent-protocol request: a command, and the argument that
        // says which query or operation.
        let (command, extra) = match name.as_str() {
            "web_snapshot" => ("look", None),
            "web_read" => ("read", None),
            "web_navigate" => ("go", None),
            "web_back" => ("back", None),
            "web_wait_for" => ("wait", None),
            "web_screenshot" => ("screenshot", None),
            "web_get_text" => ("query", Some(("kind", "text"))),
            "web_get_value" => ("query", Some(("kind", "value"))),
            "web_click" => {
                let double = tools::bool_arg(&request, "double_click")?.unwrap_or(false);
                let long = tools::bool_arg(&request, "long_press")?.unwrap_or(false);
                request.remove("double_click");
                request.remove("long_press");
                let op = match (double, long) {
                    (true, true) => {
                        return Err("web_click: double_click or long_press, not both".into())
                    }
                    (true, false) => "dblclick",
                    (false, true) => "long_press",
                    (false, false) => "click",
                };
                ("act", Some(("op", op)))
            }
            "web_upload" => ("act", Some(("op", "upload"))),
            "web_drag" => ("act", Some(("op", "drag"))),
            "web_dialog" => ("dialog", None),
            "web_tabs" => (tabs_command(&mut request)?, None),
            "web_hover" => ("act", Some(("op", "hover"))),
            "web_fill" => ("act", Some(("op", "fill"))),
            "web_select" => ("act", Some(("op", "select"))),
            "web_check" => ("act", Some(("op", "check"))),
            "web_uncheck" => ("act", Some(("op", "uncheck"))),
            "web_scroll" => ("act", Some(("op", "scroll"))),
            "web_press_key" => ("act", Some(("op", "press_key"))),
            _ => return Err(format!("{name} is not a live tool")),
        };
        if let Some((key, value)) = extra {
            request.insert(key.into(), Value::from(value));
        }
        let mut slot = self.session.lock().await;
        let session = self.running(&mut slot).await?;
        let payload = session.run(command, &request).await.map_err(tool_message)?;
        Ok(reply_for(command, payload))
    }
}

/// One call for the offline worker.
struct Job {
    name: String,
    args: Map<String, Value>,
    reply: tokio::sync::oneshot::Sender<Result<ToolReply, String>>,
}

/// The offline tools. Parsed documents stay in a cache bounded by the total bytes of their
/// HTML (least recently used first out), so `html_query` never parses again.
///
/// A [`Document`] shares its text with the parser's buffers and stays on one thread: a
/// worker thread owns the cache and runs the calls in order.
pub struct OfflineTools {
    jobs: mpsc::Sender<Job>,
}

impl OfflineTools {
    /// Starts the worker; the cache holds documents of at most `cache_bytes` of HTML in all
    /// (the newest is kept even when it alone is larger).
    pub fn new(cache_bytes: usize) -> OfflineTools {
        let (jobs, rx) = mpsc::channel::<Job>();
        std::thread::spawn(move || {
            let mut cache = DocCache::new(cache_bytes);
            for job in rx {
                // The caller may have gone (a cancelled request); nothing to tell then.
                let _ = job.reply.send(cache.call(&job.name, &job.args));
            }
        });
        OfflineTools { jobs }
    }
}

impl Backend for OfflineTools {
    fn tool_set(&self) -> ToolSet {
        ToolSet::Offline
    }

    async fn call(&self, name: String, args: Map<String, Value>) -> Result<ToolReply, String> {
        let (reply, answer) = tokio::sync::oneshot::channel();
        self.jobs
            .send(Job { name, args, reply })
            .map_err(|_| "the document worker has stopped".to_string())?;
        answer
            .await
            .map_err(|_| "the document worker has stopped".to_string())?
    }
}

/// Documents by handle, least recently used first.
pub struct DocCache {
    docs: VecDeque<(String, Document, usize)>,
    bytes: usize,
    limit: usize,
    next: u64,
}

impl DocCache {
    pub fn new(limit: usize) -> DocCache {
        DocCache {
            docs: VecDeque::new(),
            bytes: 0,
            limit,
            next: 1,
        }
    }

    /// Runs one offline tool call.
    pub fn call(&mut self, name: &str, args: &Map<String, Value>) -> Result<ToolReply, String> {
        match name {
            "html_snapshot" => self.snapshot(args),
            "html_query" => self.query(args),
            "html_read" => self.read(args),
            _ => Err(format!("unknown tool {name:?}")),
        }
    }

    /// Handles currently held, least recently used first.
    pub fn handles(&self) -> impl Iterator<Item = &str> {
        self.docs.iter().map(|(h, _, _)| h.as_str())
    }

    fn snapshot(&mut self, args: &Map<String, Value>) -> Result<ToolReply, String> {
        let spec = tools::find("html_snapshot").ok_or("html_snapshot is not defined")?;
        check_args(spec, args)?;
        let options = TreeOptions {
            url: string_arg(args, "url")?.map(str::to_string),
            ..TreeOptions::default()
        };
        // Arguments first: a bad budget should not cost a parse.
        let mut render = tools::budgets_from_args(args, RenderOptions::default())?;
        if let Some(f) = string_arg(args, "format")? {
            render.format = crate::Format::parse(f)
                .ok_or_else(|| format!("format must be text, list or json, not {f:?}"))?;
        }
        let (doc, size) = match (string_arg(args, "path")?, string_arg(args, "html")?) {
            (path, None) => open(path.ok_or("give exactly one of path and html")?, &options)?,
            (None, Some(html)) => (Document::parse(html, &options), html.len()),
            _ => return Err("give exactly one of path and html".to_string()),
        };
        let snap = match string_arg(args, "scope")? {
            Some(scope) => doc
                .snapshot_scoped(scope, &render)
                .map_err(|e| e.to_string())?,
            None => doc.snapshot(&render),
        };
        let handle = self.new_handle();
        let text = format!(
            "handle={handle} (pass it to html_query with a ref)\n{}",
            snap.text
        );
        let structured = json!({
            "handle": handle,
            "refs": doc.ref_count(),
            "truncated": snap.stats.truncated,
        });
        self.insert(handle, doc, size);
        Ok(ToolReply {
            text,
            structured: Some(structured),
            png: None,
        })
    }

    fn query(&mut self, args: &Map<String, Value>) -> Result<ToolReply, String> {
        let spec = tools::find("html_query").ok_or("html_query is not defined")?;
        check_args(spec, args)?;
        let handle = string_arg(args, "handle")?.ok_or("handle is required")?;
        let ref_ = string_arg(args, "ref")?.ok_or("ref is required")?;
        let kind = match string_arg(args, "kind")? {
            Some("text") => QueryKind::Text,
            Some("attrs") => QueryKind::Attrs,
            Some("html") => QueryKind::OuterHtml,
            Some("value") => QueryKind::Value,
            _ => return Err("kind must be one of text, attrs, html, value".to_string()),
        };
        let limit = match spec.params.iter().find(|p| p.name == "limit") {
            Some(p) => tools::integer_arg(args, p)?.unwrap_or(4000),
            None => 4000,
        };
        let doc = self.touch(handle)?;
        let result = query(
            doc,
            ref_,
            kind,
            usize::try_from(limit).unwrap_or(usize::MAX),
        );
        if let Some(e) = &result.error {
            return Err(format!(
                "{} (this document has refs e1 to e{}; refs come from its html_snapshot)",
                e.message(ref_),
                doc.ref_count()
            ));
        }
        let structured = serde_json::to_value(&result).ok();
        let mut text = result.value;
        if result.truncated {
            text.push_str(&format!("\n[truncated at {limit} characters]"));
        }
        Ok(ToolReply {
            text,
            structured,
            png: None,
        })
    }

    /// Reads the main content of a page (new, or held under a handle).
    fn read(&mut self, args: &Map<String, Value>) -> Result<ToolReply, String> {
        let spec = tools::find("html_read").ok_or("html_read is not defined")?;
        check_args(spec, args)?;
        let mut options = ReadOptions::default();
        if let Some(p) = spec.params.iter().find(|p| p.name == "max_chars") {
            if let Some(n) = tools::integer_arg(args, p)? {
                options.max_chars_total = usize::try_from(n).unwrap_or(usize::MAX);
            }
        }
        if let Some(from) = string_arg(args, "from")? {
            options.from = Some(crate::read::parse_ref(from).ok_or_else(|| {
                format!("from {from:?} is not a ref: give one like \"e57\", as a cut read names it")
            })?);
        }
        let tree = TreeOptions {
            url: string_arg(args, "url")?.map(str::to_string),
            ..TreeOptions::default()
        };
        let sources = (
            string_arg(args, "path")?,
            string_arg(args, "html")?,
            string_arg(args, "handle")?,
        );
        let handle = match sources {
            (None, None, Some(handle)) => {
                self.touch(handle)?;
                handle.to_string()
            }
            (Some(path), None, None) => {
                let (doc, size) = open(path, &tree)?;
                let handle = self.new_handle();
                self.insert(handle.clone(), doc, size);
                handle
            }
            (None, Some(html), None) => {
                let doc = Document::parse(html, &tree);
                let handle = self.new_handle();
                self.insert(handle.clone(), doc, html.len());
                handle
            }
            _ => return Err("give exactly one of path, html and handle".to_string()),
        };
        let (_, doc, _) = self.docs.back().ok_or("cache is empty")?;
        let result = doc.read(&options).map_err(|e| e.to_string())?;
        let structured = json!({
            "handle": handle,
            "truncated": result.stats.truncated,
            "next": result.stats.next,
            "main": result.stats.main,
        });
        Ok(ToolReply {
            text: format!(
                "handle={handle} (pass it to html_query with a ref, or back with from)\n{}",
                result.text
            ),
            structured: Some(structured),
            png: None,
        })
    }

    fn new_handle(&mut self) -> String {
        let handle = format!("d{}", self.next);
        self.next += 1;
        handle
    }

    /// The document under `handle`, now the most recently used.
    fn touch(&mut self, handle: &str) -> Result<&Document, String> {
        let Some(at) = self.docs.iter().position(|(h, _, _)| h == handle) else {
            return Err(format!(
                "unknown handle {handle:?}: it was never issued or has left the cache; \
                 call html_snapshot again"
            ));
        };
        if let Some(entry) = self.docs.remove(at) {
            self.docs.push_back(entry);
        }
        let (_, doc, _) = self.docs.back().ok_or("cache is empty")?;
        Ok(doc)
    }

    fn insert(&mut self, handle: String, doc: Document, size: usize) {
        self.bytes += size;
        self.docs.push_back((handle, doc, size));
        while self.bytes > self.limit && self.docs.len() > 1 {
            if let Some((_, _, size)) = self.docs.pop_front() {
                self.bytes -= size;
            }
        }
    }
}

/// Parses the HTML file at `path`; returns the document and the file's size.
fn open(path: &str, options: &TreeOptions) -> Result<(Document, usize), String> {
    let bytes = std::fs::read(Path::new(path)).map_err(|e| format!("cannot read {path:?}: {e}"))?;
    let size = bytes.len();
    let doc = Document::parse_bytes(bytes, options).map_err(|e| e.to_string())?;
    Ok((doc, size))
}

/// Unknown arguments are an error: a misspelt budget should not pass silently.
fn check_args(spec: &tools::ToolSpec, args: &Map<String, Value>) -> Result<(), String> {
    for key in args.keys() {
        if !spec.all_params().any(|p| p.name == key) {
            let known: Vec<&str> = spec.all_params().map(|p| p.name).collect();
            return Err(format!(
                "{} has no argument {key:?} (it takes {})",
                spec.name,
                known.join(", ")
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => Map::new(),
        }
    }

    #[test]
    fn cache_evicts_least_recently_used_by_bytes() {
        let mut cache = DocCache::new(3_100);
        let page = |n: usize| format!("<a href=/x>{}</a>", "x".repeat(n));
        for _ in 0..3 {
            cache
                .call("html_snapshot", &args(json!({"html": page(1_000)})))
                .unwrap();
        }
        // Three docs of ~1 KB fit: touch d1 so d2 is the oldest, then add a fourth.
        cache
            .call(
                "html_query",
                &args(json!({"handle": "d1", "ref": "e1", "kind": "text"})),
            )
            .unwrap();
        cache
            .call("html_snapshot", &args(json!({"html": page(1_000)})))
            .unwrap();
        assert_eq!(cache.handles().collect::<Vec<_>>(), ["d3", "d1", "d4"]);
        let err = cache
            .call(
                "html_query",
                &args(json!({"handle": "d2", "ref": "e1", "kind": "text"})),
            )
            .unwrap_err();
        assert!(err.contains("call html_snapshot again"), "{err}");
        // One document larger than the whole cache is still kept (alone).
        cache
            .call("html_snapshot", &args(json!({"html": page(10_000)})))
            .unwrap();
        assert_eq!(cache.handles().collect::<Vec<_>>(), ["d5"]);
    }

    #[test]
    fn bad_arguments_are_errors_that_say_what_to_do() {
        let mut cache = DocCache::new(1 << 20);
        let e = cache
            .call(
                "html_snapshot",
                &args(json!({"html": "<a>x</a>", "path": "/x"})),
            )
            .unwrap_err();
        assert!(e.contains("exactly one of path and html"), "{e}");
        let e = cache
            .call("html_snapshot", &args(json!({"html": "x", "max_char": 5})))
            .unwrap_err();
        assert!(e.contains("no argument \"max_char\""), "{e}");
        let e = cache
            .call("html_snapshot", &args(json!({"html": 5})))
            .unwrap_err();
        assert!(e.contains("html must be a string"), "{e}");
        let e = cache
            .call(
                "html_snapshot",
                &args(json!({"path": "/nonexistent/page.html"})),
            )
            .unwrap_err();
        assert!(e.contains("cannot read"), "{e}");
    }
}
