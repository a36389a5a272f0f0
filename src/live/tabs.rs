//! Tabs: a tab the page opens (`target=_blank`, `window.open`) becomes the current page, and
//! the action's answer says so (`tab: {opened, index, url, title}`); `tabs` lists the session's
//! tabs, `tab {index}` switches, `close_tab` closes the current one.
//!
//! A task listens for CDP `Target.targetCreated`
//! ([spec](https://chromedevtools.github.io/devtools-protocol/tot/Target/#event-targetCreated));
//! after each action the session adopts the pages opened by one of its tabs. Refs belong to the tab whose look
//! gave them: after a switch they are `STALE_REF` until the next look.

use std::time::{Duration, Instant};

use chromiumoxide::cdp::browser_protocol::target::{
    CloseTargetParams, EventTargetCreated, GetTargetInfoParams, TargetId, TargetInfo,
};
use chromiumoxide::Browser;
use futures::StreamExt;
use serde_json::{json, Map, Value};
use tokio::sync::mpsc;

use super::protocol::check_keys;
use super::session::{Session, Tab};
use super::{AgentError, Code, Result};

/// How long a new tab may take to be attached before the session gives up on it.
const ATTACH_LIMIT: Duration = Duration::from_secs(5);

/// The most tabs one call adopts.
const ADOPT_LIMIT: usize = 8;

/// Pages created in the browser since the session last looked.
pub(super) struct TabWatch {
    created: mpsc::UnboundedReceiver<TargetInfo>,
    listener: tokio::task::JoinHandle<()>,
}

impl Drop for TabWatch {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl TabWatch {
    pub(super) async fn start(browser: &Browser) -> Result<TabWatch> {
        let mut events = browser
            .event_listener::<EventTargetCreated>()
            .await
            .map_err(|e| AgentError::new(Code::ActionFailed, format!("cannot watch tabs: {e}")))?;
        let (tx, created) = mpsc::unbounded_channel();
        let listener = tokio::spawn(async move {
            while let Some(event) = events.next().await {
                if event.target_info.r#type == "page" && tx.send(event.target_info.clone()).is_err()
                {
                    break;
                }
            }
        });
        Ok(TabWatch { created, listener })
    }
}

impl Session {
    fn has_tab(&self, id: &TargetId) -> bool {
        self.tabs.iter().any(|t| t.page.target_id() == id)
    }

    /// Adopts the pages opened since the last call by one of the session's tabs; the last
    /// becomes the current tab (loaded, refs stale). Its `{opened, index, url, title}`.
    pub(super) async fn adopt_opened_tabs(&mut self) -> Option<Value> {
        let mut adopted = false;
        // Those created so far, at most a few: a page that opens tabs in a loop must not keep
        // the session adopting forever (the rest wait for the next action or `tabs`).
        let mut pending = Vec::new();
        while let (true, Ok(info)) = (pending.len() < ADOPT_LIMIT, self.opened.created.try_recv()) {
            pending.push(info);
        }
        for info in pending {
            let ours = info.opener_id.as_ref().is_some_and(|o| self.has_tab(o));
            // Only tabs our pages opened (`target=_blank` links included, noopener or not:
            // the browser still names the opener): the browser's own first tab, or a
            // person's tabs in an attached browser, are not the session's.
            if self.has_tab(&info.target_id) || !ours {
                continue;
            }
            // The handler attaches to the target on its own; wait until it has.
            let start = Instant::now();
            let page = loop {
                match self.launched.browser.get_page(info.target_id.clone()).await {
                    Ok(page) => break Some(page),
                    Err(_) if start.elapsed() < ATTACH_LIMIT => {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    Err(_) => break None,
                }
            };
            let Some(page) = page else { continue };
            let Ok(tab) = Tab::new(page, &self.options, &self.reported).await else {
                continue;
            };
            self.tabs.push(tab);
            self.enter_tab(self.tabs.len() - 1);
            adopted = true;
        }
        if !adopted {
            return None;
        }
        // Let the new page load as after a navigation; a dialog it opens shows in the next
        // command.
        self.settle(None).await;
        let (url, title) = self.target_url_title().await;
        Some(json!({"opened": true, "index": self.current, "url": url, "title": title}))
    }

    /// Makes tab `index` the current one: the latest look's refs are then stale.
    fn enter_tab(&mut self, index: usize) {
        self.current = index;
        // Its own latest look's refs act again; the frames known are the other tab's.
        self.look_token = self
            .tab()
            .looked
            .first()
            .and_then(|d| self.ledger.token(*d));
        self.frames.docs.clear();
        self.ui_world = None;
    }

    /// `tabs`: `{tabs: [{index, url, title, current}]}`, dropping tabs that closed.
    pub(super) async fn tabs(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &[])?;
        self.adopt_opened_tabs().await;
        let mut list = Vec::new();
        let mut index = 0;
        while index < self.tabs.len() {
            let id = self.tabs[index].page.target_id().clone();
            let Some((url, title)) = self.tab_info(id).await else {
                // Closed by its page (`window.close()`) or by a person. The session keeps one
                // tab always: its only tab gone, commands fail until the agent is restarted.
                if self.tabs.len() == 1 {
                    return Err(AgentError::new(
                        Code::ActionFailed,
                        "every tab of the session was closed; start a new agent",
                    ));
                }
                self.tabs.remove(index);
                if index < self.current {
                    self.current -= 1;
                } else if index == self.current {
                    self.enter_tab(index.saturating_sub(1));
                }
                continue;
            };
            list.push(json!({"url": url, "title": title}));
            index += 1;
        }
        for (i, tab) in list.iter_mut().enumerate() {
            tab["index"] = json!(i);
            tab["current"] = json!(i == self.current);
        }
        Ok(json!({ "tabs": list }))
    }

    /// A tab's URL and title from the browser; `None` when the tab is gone.
    pub(super) async fn tab_info(&self, id: TargetId) -> Option<(String, String)> {
        let info = self
            .launched
            .browser
            .execute(GetTargetInfoParams {
                target_id: Some(id),
            })
            .await
            .ok()?;
        let info = &info.result.target_info;
        Some((info.url.clone(), info.title.clone()))
    }

    /// `tab {index}`: makes that tab the current one.
    pub(super) async fn switch_tab(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["index"])?;
        let count = self.tabs.len();
        let index = args
            .get("index")
            .and_then(Value::as_u64)
            .and_then(|i| usize::try_from(i).ok())
            .filter(|i| *i < count)
            .ok_or_else(|| {
                AgentError::new(
                    Code::InvalidArgs,
                    format!("tab needs \"index\": 0 to {} (tabs lists them)", count - 1),
                )
            })?;
        self.enter_tab(index);
        // A person would see it: bring it to the front (timers and focus behave so).
        let _ = self.page().bring_to_front().await;
        let (url, title) = self.target_url_title().await;
        Ok(json!({"index": index, "url": url, "title": title}))
    }

    /// `close_tab`: closes the current tab (without running its `beforeunload`: the agent
    /// closes it as a crash would); the tab that opened it, or the one before, is current.
    pub(super) async fn close_tab(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &[])?;
        if self.tabs.len() == 1 {
            return Err(AgentError::new(
                Code::ActionFailed,
                "this is the session's only tab; go to another page instead",
            ));
        }
        let closing = self.tabs.remove(self.current);
        let id = closing.page.target_id().clone();
        let opener = closing.page.opener_id().clone();
        drop(closing);
        let _ = self
            .launched
            .browser
            .execute(CloseTargetParams::new(id))
            .await;
        let next = opener
            .and_then(|o| self.tabs.iter().position(|t| t.page.target_id() == &o))
            .unwrap_or(self.current.saturating_sub(1));
        self.enter_tab(next);
        let (url, title) = self.target_url_title().await;
        Ok(json!({"index": next, "url": url, "title": title}))
    }
}
