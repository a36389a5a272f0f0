//! The agent's UI in the page, drawn by `js/overlay.js` in an isolated world: the handoff
//! prompt (a person steps in and presses Resume) and the sidebar's command log.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::page::CreateIsolatedWorldParams;
use chromiumoxide::cdp::js_protocol::runtime::{EvaluateParams, ExecutionContextId};
use serde_json::{json, Map, Value};

use super::protocol::{check_keys, opt_str};
use super::session::{Session, EVAL_LIMIT};
use super::{AgentError, Code, Result};
use crate::js;

/// Lines the sidebar keeps.
const SIDEBAR_LINES: usize = 50;

/// The agent's own UI in the page (handoff prompt, sidebar), run in an isolated world.
const OVERLAY_JS: &str = include_str!("../../js/overlay.js");

impl Session {
    /// Asks a person to step in (a CAPTCHA, a login): shows the message and a Resume button
    /// in the page and waits until they press it, showing the prompt again on every page
    /// they go to meanwhile. `{resumed: true, elapsed}` in milliseconds.
    pub(super) async fn handoff(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["message", "timeout_ms"])?;
        let message = opt_str(args, "message")?
            .ok_or_else(|| AgentError::new(Code::InvalidArgs, "handoff needs \"message\""))?
            .to_string();
        if self.options.headless && !self.launched.attached {
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
    pub(super) async fn log(&mut self, text: &str) {
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
    pub(super) async fn ui_call(&mut self, call: &str) -> Result<Value> {
        let expr = format!("window.__agentUI.{call}");
        for attempt in 0..2 {
            let world = match self.ui_world {
                Some(world) => world,
                None => {
                    let frame = self
                        .page()
                        .mainframe()
                        .await
                        .ok()
                        .flatten()
                        .ok_or_else(|| AgentError::new(Code::ActionFailed, "no main frame"))?;
                    let params = CreateIsolatedWorldParams::builder()
                        .frame_id(frame)
                        .world_name("agent-snapshot-ui")
                        .build()
                        .map_err(|e| AgentError::new(Code::ActionFailed, e))?;
                    let world = self
                        .page()
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
    pub(super) async fn eval_in(&self, world: ExecutionContextId, expr: &str) -> Result<Value> {
        let mut params = EvaluateParams::new(expr);
        params.context_id = Some(world);
        params.return_by_value = Some(true);
        let reply = self
            .guarded(async {
                tokio::time::timeout(EVAL_LIMIT, self.page().execute(params))
                    .await
                    .map_err(|_| AgentError::new(Code::Timeout, "the page did not answer"))?
                    .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))
            })
            .await?
            .result;
        if let Some(e) = reply.exception_details {
            return Err(AgentError::new(Code::ActionFailed, e.text));
        }
        Ok(reply.result.value.unwrap_or(Value::Null))
    }
}
