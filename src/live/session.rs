//! The session: the browser, its tabs (the current one is the page every command works on),
//! and evaluation in the current page (with a time limit, raced against dialogs, injecting the
//! script when a new document lacks it).

use std::time::Duration;

use chromiumoxide::cdp::js_protocol::runtime::ExecutionContextId;
use chromiumoxide::Page;
use serde_json::Value;

use super::browser::{self, Launched};
use super::dialogs::{DialogWatch, Reported};
use super::frames::Frames;
use super::tabs::TabWatch;
use super::{AgentError, Code, LaunchOptions, Result};
use crate::js;

/// A browser driven by refs, one tab at a time.
pub struct Session {
    /// The browser, and what lives as long as it.
    pub(super) launched: Launched,
    /// The tabs of this session, in the order they opened (never empty).
    pub(super) tabs: Vec<Tab>,
    /// The index of the current tab in `tabs`.
    pub(super) current: usize,
    /// Dialogs the `--dialogs` policy answered, not reported yet.
    pub(super) reported: Reported,
    /// Pages created in the browser, for adopting the tabs our pages open.
    pub(super) opened: TabWatch,
    /// Cross-origin frames: the sessions that reach them, and where the latest look's refs
    /// are.
    pub(super) frames: Frames,
    pub(super) options: LaunchOptions,
    /// Every ref the session gave, and the documents they name elements of.
    pub(super) ledger: super::refs::Ledger,
    /// The token on the current tab's document when its latest look walked it; `None` before
    /// its first look and after a navigation.
    pub(super) look_token: Option<String>,
    /// The latest look's text (whole), for a diff against it.
    pub(super) seen: Option<super::diff::Seen>,
    /// The design format's latest `look()` tree, for a diff against it.
    pub(super) seen_design: Option<super::design::SeenTree>,
    /// Looks taken so far (the latest is look number `looks`).
    pub(super) looks: u64,
    /// The isolated world `overlay.js` runs in, for the current document.
    pub(super) ui_world: Option<ExecutionContextId>,
    /// The sidebar's log, newest last (at most `overlay::SIDEBAR_LINES`), and the entries written.
    pub(super) sidebar_log: std::collections::VecDeque<Value>,
    pub(super) logged: u64,
    /// The rendered pages of the latest looks, by document token ([`crate::rendered`]).
    pub(super) rendered: Vec<(String, super::refs::Walk, crate::rendered::Rendered)>,
}

/// One tab of the session.
pub(super) struct Tab {
    pub(super) page: Page,
    pub(super) dialogs: DialogWatch,
    /// The page state before the action that a dialog interrupted: the `dialog` command's
    /// answer measures the change from it.
    pub(super) before_dialog: Option<PageState>,
    /// The documents (ledger indices) the tab's latest look walked: the tab's own first, then
    /// its cross-origin frames' in the order of [`Frames::docs`](super::frames::Frames).
    pub(super) looked: Vec<usize>,
}

impl Tab {
    /// A tab for `page`, its dialogs watched.
    pub(super) async fn new(
        page: Page,
        session_policy: &LaunchOptions,
        reported: &Reported,
    ) -> Result<Tab> {
        let dialogs = DialogWatch::start(&page, session_policy.dialogs, reported.clone()).await?;
        Ok(Tab {
            page,
            dialogs,
            before_dialog: None,
            looked: Vec::new(),
        })
    }
}
/// The longest one evaluation in the page may take.
pub(super) const EVAL_LIMIT: Duration = Duration::from_secs(30);

/// The JS that installs the change counter (once per document) and reads the page state:
/// `{token, ready, quietMs, mutations, url}`. DOM mutations count, and so do `input` and
/// `change` events: a field's value or a box's check is no mutation, but it is a change.
pub(super) const STATE_JS: &str = "(() => { let w = window; if (!w.__agentWatch) { w.__agentWatch = {n: 0, t: performance.now()}; \
let bump = () => { w.__agentWatch.n++; w.__agentWatch.t = performance.now(); }; \
new MutationObserver(bump).observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); \
for (let e of ['input', 'change']) document.addEventListener(e, bump, true); } \
return JSON.stringify({token: w.__agentLook || null, ready: document.readyState, \
quietMs: performance.now() - w.__agentWatch.t, mutations: w.__agentWatch.n, url: location.href}); })()";

#[derive(serde::Deserialize, Debug, Clone)]
#[serde(rename_all = "camelCase")]
pub(super) struct PageState {
    pub(super) token: Option<String>,
    pub(super) ready: String,
    pub(super) quiet_ms: f64,
    pub(super) mutations: u64,
    pub(super) url: String,
}

impl Session {
    /// Launches Chromium (or attaches to one) and opens a tab.
    pub async fn start(options: LaunchOptions) -> Result<Session> {
        let launched = browser::launch(&options).await?;
        // Listening before the first tab opens, so that no page the session opens is missed.
        let opened = match TabWatch::start(&launched.browser).await {
            Ok(opened) => opened,
            Err(e) => {
                launched.close().await;
                return Err(e);
            }
        };
        let frames = match Frames::start(&launched.browser).await {
            Ok(frames) => frames,
            Err(e) => {
                launched.close().await;
                return Err(e);
            }
        };
        let page = match launched.browser.new_page("about:blank").await {
            Ok(page) => page,
            Err(e) => {
                launched.close().await;
                return Err(AgentError::new(
                    Code::ActionFailed,
                    format!("cannot open a tab: {e}"),
                ));
            }
        };
        let reported = Reported::default();
        let tab = match Tab::new(page, &options, &reported).await {
            Ok(tab) => tab,
            Err(e) => {
                launched.close().await;
                return Err(e);
            }
        };
        Ok(Session {
            launched,
            tabs: vec![tab],
            current: 0,
            reported,
            opened,
            frames,
            options,
            ledger: super::refs::Ledger::default(),
            look_token: None,
            seen: None,
            seen_design: None,
            looks: 0,
            ui_world: None,
            sidebar_log: std::collections::VecDeque::new(),
            rendered: Vec::new(),
            logged: 0,
        })
    }

    /// Closes the browser (launch mode) or just the tab (attach mode).
    pub async fn close(self) {
        if self.launched.attached {
            for tab in self.tabs {
                let _ = tab.page.close().await;
            }
        }
        self.launched.close().await;
    }

    /// The current tab.
    pub(super) fn tab(&self) -> &Tab {
        &self.tabs[self.current]
    }

    pub(super) fn tab_mut(&mut self) -> &mut Tab {
        &mut self.tabs[self.current]
    }

    /// The current tab's page.
    pub(super) fn page(&self) -> &Page {
        &self.tab().page
    }

    /// The current page's URL and title as the browser knows them: a dialog does not block
    /// this, as it blocks anything that runs in the page.
    pub(super) async fn target_url_title(&self) -> (String, String) {
        self.tab_info(self.page().target_id().clone())
            .await
            .unwrap_or_default()
    }

    /// Evaluates `expr` in the page; a failure gets `code`. Gives up after [`EVAL_LIMIT`]: a
    /// page stuck in a loop must not hang the agent.
    pub(super) async fn evaluate(
        &self,
        expr: impl Into<chromiumoxide::js::Evaluation>,
        code: Code,
    ) -> Result<chromiumoxide::js::EvaluationResult> {
        let expr = expr.into();
        let work = async {
            tokio::time::timeout(EVAL_LIMIT, self.page().evaluate(expr))
                .await
                .map_err(|_| {
                    AgentError::new(
                        Code::Timeout,
                        format!("the page did not answer in {} s", EVAL_LIMIT.as_secs()),
                    )
                })
        };
        self.guarded(work)
            .await?
            .map_err(|e| AgentError::new(code, e.to_string()))
    }

    /// Evaluates `expr`, which must return a JSON string, and returns that string.
    pub(super) async fn eval_json(&self, expr: &str) -> Result<String> {
        self.evaluate(expr, Code::ActionFailed)
            .await?
            .into_value::<String>()
            .map_err(|e| AgentError::new(Code::ActionFailed, e.to_string()))
    }

    pub(super) async fn state(&self) -> Option<PageState> {
        let json = self.eval_json(STATE_JS).await.ok()?;
        serde_json::from_str(&json).ok()
    }

    /// Evaluates one of [`js`]'s script expressions; when this document does not have the
    /// script yet (a new page), injects it and evaluates again. One round trip when it is
    /// there, which is nearly always.
    pub(super) async fn script_eval(&self, expr: &str) -> Result<String> {
        let json = self.eval_json(expr).await?;
        if !js::not_injected(&json) {
            return Ok(json);
        }
        self.evaluate(js::script(), Code::ActionFailed).await?;
        self.eval_json(expr).await
    }

    /// The page's URL and title, from the page; from the browser when a dialog opens
    /// meanwhile (reading the title waits for the page, which the dialog blocks).
    pub(super) async fn url_title(&self) -> (String, String) {
        let read = async {
            let url = self.page().url().await.ok().flatten().unwrap_or_default();
            let title = self
                .page()
                .get_title()
                .await
                .ok()
                .flatten()
                .unwrap_or_default();
            Ok((url, title))
        };
        match self.guarded(read).await {
            Ok(found) => found,
            Err(_) => self.target_url_title().await,
        }
    }
}
