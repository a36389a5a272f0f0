//! JavaScript dialogs (`alert`, `confirm`, `prompt`, `beforeunload`): never a hang.
//!
//! While a dialog is open the page's renderer waits for it, and so does every evaluation and
//! input event sent to the page. A task per tab listens for CDP
//! `Page.javascriptDialogOpening` ([spec](https://chromedevtools.github.io/devtools-protocol/tot/Page/#event-javascriptDialogOpening))
//! and publishes the open dialog on a watch channel; every wait on the page is raced against
//! it ([`Session::guarded`]), so the command that opened the dialog answers at once. The
//! dialog then stays open until the `dialog` command answers it; any other command meanwhile
//! is `DIALOG_OPEN`. With `--dialogs accept|dismiss` the task answers each dialog itself
//! (`Page.handleJavaScriptDialog`) and the next answer reports it.

use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::page::{
    EventJavascriptDialogClosed, EventJavascriptDialogOpening, HandleJavaScriptDialogParams,
};
use chromiumoxide::Page;
use futures::StreamExt;
use serde::Serialize;
use serde_json::{json, Map, Value};
use tokio::sync::watch;

use super::protocol::{check_keys, opt_bool, opt_str};
use super::session::Session;
use super::{AgentError, Code, Result};

/// What the agent does with a dialog.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DialogPolicy {
    /// Leave it open and report it; the `dialog` command answers it.
    #[default]
    Ask,
    /// Accept each one at once (a prompt gets its default text), and report it.
    Accept,
    /// Dismiss each one at once, and report it.
    Dismiss,
}

/// One dialog the page opened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dialog {
    /// `alert`, `confirm`, `prompt` or `beforeunload`.
    #[serde(rename = "type")]
    pub kind: String,
    pub message: String,
    /// How it was answered, when the agent answered it itself (`accept` or `dismiss`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answered: Option<&'static str>,
}

/// Dialogs answered by the policy and not reported yet, across tabs.
pub(super) type Reported = Arc<Mutex<Vec<Dialog>>>;

/// A dialog open on a tab, numbered in the order the tab opened them.
#[derive(Debug, Clone)]
struct Open {
    seq: u64,
    dialog: Dialog,
}

/// The dialog state of one tab: the open dialog (policy `Ask`), published by its listener.
pub(super) struct DialogWatch {
    open: watch::Sender<Option<Open>>,
    listener: tokio::task::JoinHandle<()>,
}

impl Drop for DialogWatch {
    fn drop(&mut self) {
        self.listener.abort();
    }
}

impl DialogWatch {
    /// Starts listening on `page`. The listener is registered before this returns, so a
    /// dialog opened by the next command is seen.
    pub(super) async fn start(
        page: &Page,
        policy: DialogPolicy,
        reported: Reported,
    ) -> Result<DialogWatch> {
        let failed = |e: chromiumoxide::error::CdpError| {
            AgentError::new(Code::ActionFailed, format!("cannot watch dialogs: {e}"))
        };
        let mut opening = page
            .event_listener::<EventJavascriptDialogOpening>()
            .await
            .map_err(failed)?;
        let mut closed = page
            .event_listener::<EventJavascriptDialogClosed>()
            .await
            .map_err(failed)?;
        let (open, _) = watch::channel(None);
        let tx = open.clone();
        let page = page.clone();
        let listener = tokio::spawn(async move {
            // Dialogs opened and closed on this tab so far. One is open at a time, so the
            // k-th closed event closes the k-th dialog; the browser may send it after the
            // next one's opening event (the page runs on as soon as the answer lands).
            let (mut seq, mut closed_count) = (0u64, 0u64);
            loop {
                tokio::select! {
                    event = opening.next() => {
                        let Some(event) = event else { break };
                        seq += 1;
                        let dialog = Dialog {
                            kind: event.r#type.as_ref().to_string(),
                            message: event.message.clone(),
                            answered: None,
                        };
                        let accept = match policy {
                            DialogPolicy::Ask => {
                                tx.send_replace(Some(Open { seq, dialog }));
                                continue;
                            }
                            DialogPolicy::Accept => true,
                            DialogPolicy::Dismiss => false,
                        };
                        let mut answer = HandleJavaScriptDialogParams::new(accept);
                        // A prompt accepted unattended gets the text it offers.
                        answer.prompt_text = event.default_prompt.clone().filter(|_| accept);
                        let _ = page.execute(answer).await;
                        if let Ok(mut list) = reported.lock() {
                            list.push(Dialog {
                                answered: Some(if accept { "accept" } else { "dismiss" }),
                                ..dialog
                            });
                        }
                    }
                    event = closed.next() => {
                        if event.is_none() {
                            break;
                        }
                        closed_count += 1;
                        forget(&tx, |seq| seq <= closed_count);
                    }
                }
            }
        });
        Ok(DialogWatch { open, listener })
    }

    /// The dialog open on this tab, if any.
    pub(super) fn open(&self) -> Option<Dialog> {
        self.current().map(|o| o.dialog)
    }

    /// The dialog open on this tab, with its number.
    fn current(&self) -> Option<Open> {
        self.open.borrow().clone()
    }

    /// Forgets dialog `seq` once it is answered, unless the page opened another since: the
    /// browser's closed event may come after the answer returns (then this makes the next
    /// command see the page free at once), and the page's next dialog may come before it
    /// (`alert('one'); alert('two')`: clearing that one would leave every later wait on a
    /// page the dialog blocks).
    fn answered(&self, seq: u64) {
        forget(&self.open, |open| open == seq);
    }
}

/// Clears the open dialog when its number is one `gone` says has closed; else leaves it (a
/// later dialog) in place.
fn forget(open: &watch::Sender<Option<Open>>, gone: impl Fn(u64) -> bool) {
    open.send_if_modified(|open| {
        let closed = open.as_ref().is_some_and(|o| gone(o.seq));
        if closed {
            *open = None;
        }
        closed
    });
}

/// The error of any command but `dialog` while a dialog is open.
pub(super) fn dialog_open(dialog: &Dialog) -> AgentError {
    AgentError::new(
        Code::DialogOpen,
        format!(
            "a {} dialog is open ({:?}); answer it first: {{\"command\": \"dialog\", \
             \"accept\": true}} (or false; \"text\" for a prompt)",
            dialog.kind, dialog.message
        ),
    )
}

impl Session {
    /// Runs `work` on the current tab unless a dialog is open or opens meanwhile: then
    /// `DIALOG_OPEN` at once, and `work` is dropped (a CDP call blocked by the dialog is left
    /// to time out in the background; its answer is not needed).
    pub(super) async fn guarded<T>(&self, work: impl Future<Output = Result<T>>) -> Result<T> {
        let mut rx = self.tab().dialogs.open.subscribe();
        let now = rx.borrow_and_update().clone();
        if let Some(open) = now {
            return Err(dialog_open(&open.dialog));
        }
        let opened = async {
            let dialog = rx
                .wait_for(Option::is_some)
                .await
                .ok()
                .and_then(|o| o.as_ref().map(|o| o.dialog.clone()));
            match dialog {
                Some(dialog) => dialog,
                // The listener ended (the tab closed): only the work can answer.
                None => std::future::pending().await,
            }
        };
        tokio::select! {
            done = work => done,
            dialog = opened => Err(dialog_open(&dialog)),
        }
    }

    /// The dialog open on the current tab, if any.
    pub(super) fn open_dialog(&self) -> Option<Dialog> {
        self.tab().dialogs.open()
    }

    /// `DIALOG_OPEN` when a dialog is open on the current tab: no command but `dialog` runs.
    pub(super) fn dialog_gate(&self) -> Result<()> {
        match self.open_dialog() {
            Some(dialog) => Err(dialog_open(&dialog)),
            None => Ok(()),
        }
    }

    /// A command's answer with the dialogs the policy answered meanwhile (`dialogs`).
    pub(super) fn with_reported(&self, mut done: Result<Value>) -> Result<Value> {
        let list = match self.reported.lock() {
            Ok(mut list) => std::mem::take(&mut *list),
            Err(_) => Vec::new(),
        };
        if let (Ok(Value::Object(map)), false) = (&mut done, list.is_empty()) {
            map.insert("dialogs".into(), json!(list));
        }
        done
    }

    /// `dialog {accept, text?}`: answers the open dialog, then waits for the page to settle
    /// as after an action (it may navigate, or open another dialog).
    pub(super) async fn dialog(&mut self, args: &Map<String, Value>) -> Result<Value> {
        check_keys(args, &["accept", "text"])?;
        let accept = opt_bool(args, "accept")?.ok_or_else(|| {
            AgentError::new(
                Code::InvalidArgs,
                "dialog needs \"accept\": true (OK) or false (Cancel)",
            )
        })?;
        let text = opt_str(args, "text")?.map(str::to_string);
        let Some(Open { seq, dialog: open }) = self.tab().dialogs.current() else {
            return Err(AgentError::new(
                Code::NotFound,
                "no dialog is open on this tab",
            ));
        };
        let mut answer = HandleJavaScriptDialogParams::new(accept);
        answer.prompt_text = text;
        match tokio::time::timeout(Duration::from_secs(10), self.page().execute(answer)).await {
            Ok(Ok(_)) => {}
            Ok(Err(e)) => {
                return Err(AgentError::new(
                    Code::ActionFailed,
                    format!("cannot answer the dialog: {e}"),
                ))
            }
            Err(_) => {
                return Err(AgentError::new(
                    Code::Timeout,
                    "the browser did not take the answer in 10 s",
                ))
            }
        }
        // The closed event follows; the page runs on from here (and may open the next).
        self.tab().dialogs.answered(seq);
        let before = self.tab_mut().before_dialog.take();
        let mut done = self.after_action(before.as_ref()).await?;
        if let Some(map) = done.as_object_mut() {
            map.insert(
                "answered".into(),
                json!({"type": open.kind, "accepted": accept}),
            );
        }
        Ok(done)
    }

    /// The answer of an action that a dialog interrupted: where the page is (from the
    /// browser, which a dialog does not block) and the dialog.
    pub(super) async fn dialog_result(&self, dialog: &Dialog) -> Value {
        let (url, title) = self.target_url_title().await;
        json!({
            "changed": true,
            "navigated": false,
            "url": url,
            "title": title,
            "dialog": dialog,
        })
    }
}
