//! The commands besides `act`: `look`, `read`, `go`, `back`, `wait`, `query`, `eval`,
//! `screenshot`, and the table of operations each role allows.

use std::path::Path;
use std::time::{Duration, Instant};

use base64::Engine as _;
use chromiumoxide::cdp::browser_protocol::page::CaptureScreenshotFormat;
use chromiumoxide::page::ScreenshotParams;
use serde_json::{json, Map, Value};

use super::protocol::{check_keys, opt_bool, opt_str, COMMANDS};
use super::session::Session;
use super::{AgentError, Code, Result};
use crate::js;
use crate::render::render;
use crate::tools;
use crate::{Format, ReadOptions, RenderOptions};

/// The script's node cap for a read: a long article's paragraphs and headings past a look's
/// cap (500) still get refs, so that a cut read can say where to continue.
const READ_MAX_NODES: usize = 5_000;

/// Operations each role allows, as `look` reports them. Roles not listed allow `click` (a
/// ref on them came from `onclick`, `tabindex` or `cursor:pointer`).
pub(super) fn actions_for(role: &str) -> &'static [&'static str] {
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

impl Session {
    /// Runs one command with its arguments (the request object; `id` and `command` are
    /// ignored).
    ///
    /// While a dialog is open on the page every command but `dialog` is `DIALOG_OPEN`;
    /// dialogs the `--dialogs` policy answered meanwhile are reported in the answer
    /// (`dialogs`).
    pub async fn run(&mut self, command: &str, args: &Map<String, Value>) -> Result<Value> {
        if command != "dialog" {
            self.dialog_gate()?;
        }
        let done = self.dispatch(command, args).await;
        self.with_reported(done)
    }

    async fn dispatch(&mut self, command: &str, args: &Map<String, Value>) -> Result<Value> {
        match command {
            "dialog" => self.dialog(args).await,
            "tabs" => self.tabs(args).await,
            "tab" => self.switch_tab(args).await,
            "close_tab" => self.close_tab(args).await,
            "look" => self.look(args).await,
            "read" => self.read(args).await,
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

    pub(super) async fn look(&mut self, args: &Map<String, Value>) -> Result<Value> {
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
                "diff",
            ],
        )?;
        let diff = opt_bool(args, "diff")?.unwrap_or(false);
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
        if diff && render_options.format == Format::Json {
            return Err(AgentError::new(
                Code::InvalidArgs,
                "diff takes format text or list: a diff is of lines",
            ));
        }
        if diff {
            // Room in the budget for the header of a whole look that says why it is whole.
            render_options.max_chars_total = render_options
                .max_chars_total
                .saturating_sub(super::diff::WHY_ROOM);
        }
        let tree = self
            .look_tree(
                opt_str(args, "scope")?.map(str::to_string),
                opt_bool(args, "interactive_only")?.unwrap_or(false),
                opt_bool(args, "viewport_only")?.unwrap_or(false),
            )
            .await?;
        let snap = render(&tree, &render_options);
        let (text, against) = self.diff_look(snap.text, diff).await;
        // The payload lists the refs the text shows (a diff's: those of its lines); those the
        // budget or the diff left out can be acted on too.
        let shown: Option<std::collections::HashSet<String>> = against.get("against").map(|_| {
            super::diff::refs_in(&text.lines().collect::<Vec<_>>())
                .into_iter()
                .collect()
        });
        let mut refs = Map::new();
        let mut actions = Map::new();
        for node in snap.refs.iter() {
            if shown.as_ref().is_some_and(|s| !s.contains(&node.ref_)) {
                continue;
            }
            let role = node.role.as_deref().unwrap_or_default();
            actions.insert(node.ref_.clone(), json!(actions_for(role)));
            refs.insert(node.ref_.clone(), json!({"role": role, "name": node.name}));
        }
        let (url, title) = self.url_title().await;
        let mut done = json!({
            "url": url,
            "title": title,
            "snapshot": text,
            "refs": refs,
            "actions": actions,
        });
        if diff {
            done["diff"] = against;
        }
        Ok(done)
    }

    /// `read`: the page's main content as it is rendered now, as readable lines (the
    /// offline `read`'s, [`crate::read`]), with the refs a look gives the same elements.
    /// It is a look too: its refs act, and the refs of earlier looks stay.
    pub(super) async fn read(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["max_chars", "from"])?;
        let mut opts = ReadOptions::default();
        if let Some(max) = args.get("max_chars").filter(|v| !v.is_null()) {
            opts.max_chars_total = max
                .as_u64()
                .filter(|n| (200..=200_000).contains(n))
                .ok_or_else(|| {
                    AgentError::new(Code::InvalidArgs, "max_chars is 200 to 200000 characters")
                })? as usize;
        }
        if let Some(from) = opt_str(args, "from")? {
            // NOT_FOUND or STALE_REF for a ref no look of this page gave.
            self.resolve(from)?;
            opts.from = crate::read::parse_ref(from);
        }
        let tree = self
            .look_page(None, false, false, Some(READ_MAX_NODES), true)
            .await?;
        let rendered = self.rendered().ok_or_else(|| {
            AgentError::new(Code::ActionFailed, "the page gave no content to read")
        })?;
        let read = rendered.read(tree, &opts).map_err(|e| {
            AgentError::new(
                Code::StaleRef,
                format!("{e}; this read's refs are the page's now"),
            )
        })?;
        let (url, title) = self.url_title().await;
        Ok(json!({
            "url": url,
            "title": title,
            "text": read.text,
            "refs": read.refs,
            "main": read.stats.main.map(|r| r.to_string()),
            "next": read.stats.next.map(|r| r.to_string()),
            "truncated": read.stats.truncated,
        }))
    }

    pub(super) async fn go(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["url"])?;
        let url = opt_str(args, "url")?
            .ok_or_else(|| AgentError::new(Code::InvalidArgs, "go needs \"url\""))?;
        let nav = async {
            match tokio::time::timeout(Duration::from_secs(30), self.page().goto(url)).await {
                Err(_) => Err(AgentError::new(
                    Code::Timeout,
                    format!("{url} did not load in 30 s"),
                )),
                Ok(Err(e)) => Err(AgentError::new(
                    Code::NavigationFailed,
                    format!("cannot load {url}: {e}"),
                )),
                Ok(Ok(_)) => Ok(()),
            }
        };
        let loaded = self.guarded(nav).await;
        self.navigated();
        if let Some(dialog) = self.open_dialog() {
            // The page opened a dialog as it loaded (or before it unloaded).
            return Ok(self.dialog_result(&dialog).await);
        }
        loaded?;
        let mut done = self.after_action(None).await?;
        if let Some(map) = done.as_object_mut() {
            map.remove("changed");
            map.insert("navigated".into(), Value::Bool(true));
        }
        Ok(done)
    }

    pub(super) async fn back(&mut self) -> Result<Value> {
        let before = self.state().await;
        match self
            .evaluate("history.back()", Code::NavigationFailed)
            .await
        {
            Err(e) if e.code == Code::DialogOpen => {}
            done => drop(done?),
        }
        let mut done = self.after_action(before.as_ref()).await?;
        if let Some(map) = done.as_object_mut() {
            map.remove("changed");
        }
        Ok(done)
    }

    pub(super) async fn wait(&mut self, args: &Map<String, Value>) -> Result<Value> {
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
        // Where to look: a ref in its own document; text in the tab's document and in the
        // cross-origin frames of the latest look (while it is the page's); JavaScript in the
        // tab's document.
        let conditions: Vec<(Option<usize>, String)> = match (
            opt_str(args, "ref")?,
            opt_str(args, "text")?,
            opt_str(args, "js")?,
        ) {
            (Some(r), None, None) => {
                let target = self.resolve(r)?;
                vec![(target.frame, js::ref_exists_js(&target.page))]
            }
            (None, Some(t), None) => {
                let frames = match self.look_token {
                    Some(_) => self.frames.docs.len(),
                    None => 0,
                };
                std::iter::once(None)
                    .chain((0..frames).map(Some))
                    .map(|doc| (doc, js::text_shown_js(t)))
                    .collect()
            }
            (None, None, Some(code)) => vec![(None, code.to_string())],
            _ => {
                return Err(AgentError::new(
                    Code::InvalidArgs,
                    "wait needs exactly one of \"ref\", \"text\" and \"js\"",
                ))
            }
        };
        let start = Instant::now();
        loop {
            let mut ok = false;
            for (doc, condition) in &conditions {
                // Each poll within what is left, so a stuck page still ends in TIMEOUT.
                let left = timeout
                    .saturating_sub(start.elapsed())
                    .max(Duration::from_millis(100));
                let poll = self.eval_bool_in(self.reach(*doc), condition);
                ok = match tokio::time::timeout(left, poll).await {
                    Ok(Err(e)) if e.code == Code::DialogOpen => return Err(e),
                    Ok(done) => done.unwrap_or(false),
                    Err(_) => false,
                };
                if ok {
                    break;
                }
            }
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

    pub(super) async fn query(&mut self, args: &Map<String, Value>) -> Result<Value> {
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
            .script_eval_in(
                self.reach(target.frame),
                &js::query_js(&target.page, kind, limit),
            )
            .await?;
        let result = js::parse_query_result(&json)
            .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))?;
        match result.error.as_deref() {
            Some("ref_not_found") | Some("not_injected") => Err(target.left()),
            Some(e) => Err(AgentError::new(Code::ActionFailed, e.to_string())),
            None => Ok(
                json!({"ref": target.public, "kind": kind, "value": result.value,
                              "truncated": result.truncated}),
            ),
        }
    }

    pub(super) async fn eval(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["js"])?;
        let code = opt_str(args, "js")?
            .ok_or_else(|| AgentError::new(Code::InvalidArgs, "eval needs \"js\""))?;
        let r = self.evaluate(code, Code::EvalFailed).await?;
        Ok(json!({"value": r.value().cloned().unwrap_or(Value::Null)}))
    }

    pub(super) async fn screenshot(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["path"])?;
        let params = ScreenshotParams::builder()
            .format(CaptureScreenshotFormat::Png)
            .build();
        let png =
            self.page().screenshot(params).await.map_err(|e| {
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
}
