//! Cross-origin frames: the script runs in each one through CDP, and a look merges their
//! trees into the page's, under their `<iframe>` nodes, with page-wide refs.
//!
//! The script walks same-origin frames itself; a cross-origin frame's document is out of its
//! reach (`contentDocument` is null), so its `iframe` node comes without children. For each
//! such node the look asks CDP which frame the element shows (`DOM.describeNode` gives the
//! owner element's `frameId`) and evaluates the script there:
//!
//! - an **out-of-process** frame (another site, under Chromium's site isolation, which the
//!   agent keeps on: it browses arbitrary sites) is a target of its own, whose id is the
//!   frame's id. chromiumoxide 0.9 drives only page targets: the iframe targets it auto-attaches
//!   get no `Page`, and a `Page` made for one would never send its commands (its handler polls
//!   page targets only). So the session attaches to the frame's target itself, unflattened
//!   (`Target.attachToTarget` with `flatten: false`, through the crate's `Browser::execute`),
//!   and speaks to it with `Target.sendMessageToTarget`, the answers coming back as
//!   `Target.receivedMessageFromTarget` events (the crate's typed event stream). That is the
//!   only hand-written protocol here: [`SendMessageToTarget`], which the crate's generated
//!   bindings leave out as deprecated, and the request ids of [`Session::remote_call`].
//! - a cross-origin frame of the **same site** (another port of the same host) stays in the
//!   page's process: its main world's context is the crate's
//!   [`Page::frame_execution_context`](chromiumoxide::Page::frame_execution_context), and the
//!   tab's own session evaluates there.
//!
//! Each frame's script numbers its own elements `e1`…; the look renumbers the merged tree in
//! document order and keeps, for each ref, the document and the mark it stands for
//! ([`Place`]), so `act`, `query` and `wait` reach the element in its own document. Mouse
//! events go to the tab (Chromium routes them into the frame): an element's point is its
//! centre in the frame's viewport plus each `<iframe>`'s content-box origin on the way up.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use chromiumoxide::cdp::browser_protocol::dom::DescribeNodeParams;
use chromiumoxide::cdp::browser_protocol::page::FrameId;
use chromiumoxide::cdp::browser_protocol::target::{
    AttachToTargetParams, EventReceivedMessageFromTarget, SessionId, TargetId,
};
use chromiumoxide::cdp::js_protocol::runtime::{
    EvaluateParams, EvaluateReturns, ExecutionContextId, ReleaseObjectParams, RemoteObjectId,
};
use chromiumoxide::listeners::EventStream;
use chromiumoxide::types::{Command, Method, MethodId};
use futures::StreamExt;
use serde::Serialize;
use serde_json::{json, Value};

use super::session::{Session, EVAL_LIMIT};
use super::{AgentError, Code, Result};
use crate::js::{self, JsSnapshotOptions};
use crate::{NodeTree, Ref, TreeNode};

/// The most frame documents one look merges, and how deep frames nest in it (as offline,
/// where frames deeper than 4 levels are left empty).
const MAX_FRAMES: usize = 16;
const MAX_DEPTH: usize = 4;

/// How long one frame may take to be found and walked during a look: a frame that hangs is
/// left empty rather than holding up the look of the whole page.
const FRAME_LIMIT: Duration = Duration::from_secs(5);

/// How a frame's document is reached.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Reach {
    /// In the page's process (a cross-origin frame of the same site): its main world.
    Local(ExecutionContextId),
    /// Out of process: the session attached to its target.
    Remote(SessionId),
}

/// A frame document the latest look merged.
#[derive(Clone, Debug)]
pub(super) struct FrameDoc {
    pub(super) reach: Reach,
    /// The document that holds its `<iframe>` (`None`: the tab's), and the mark the
    /// `<iframe>` element carries there.
    pub(super) owner: (Option<usize>, String),
    /// The token the look found (or left) on the frame's document: the refs of its marks
    /// last as long as it.
    pub(super) token: String,
}

/// Where a ref of the latest look is: its document (`None` for the tab's, else an index into
/// [`Frames::docs`]) and the mark (`eN`) its element carries there.
pub(super) type Place = (Option<usize>, String);

/// The session's cross-origin frames.
pub(super) struct Frames {
    /// Answers of the sessions attached to out-of-process frames.
    messages: tokio::sync::Mutex<EventStream<EventReceivedMessageFromTarget>>,
    next_id: AtomicU64,
    /// The session attached to each out-of-process frame met so far, by target.
    sessions: std::sync::Mutex<HashMap<TargetId, SessionId>>,
    /// The latest look's frame documents.
    pub(super) docs: Vec<FrameDoc>,
}

impl Frames {
    pub(super) async fn start(browser: &chromiumoxide::Browser) -> Result<Frames> {
        let messages = browser
            .event_listener::<EventReceivedMessageFromTarget>()
            .await
            .map_err(|e| {
                AgentError::new(Code::ActionFailed, format!("cannot watch frames: {e}"))
            })?;
        Ok(Frames {
            messages: tokio::sync::Mutex::new(messages),
            next_id: AtomicU64::new(1),
            sessions: std::sync::Mutex::new(HashMap::new()),
            docs: Vec::new(),
        })
    }

    /// The `<iframe>` elements that hold the frame document `doc`, innermost first: each
    /// one's document and mark, ending with one in the tab's document (none for the tab's
    /// own document).
    pub(super) fn holders(&self, doc: Option<usize>) -> Vec<Place> {
        let mut chain = Vec::new();
        let mut at = doc;
        // Frames nest at most MAX_DEPTH deep; the bound also ends a cycle no look makes.
        while let Some(frame) = at.and_then(|i| self.docs.get(i)) {
            if chain.len() > MAX_DEPTH {
                break;
            }
            chain.push(frame.owner.clone());
            at = frame.owner.0;
        }
        chain
    }
}

/// `Target.sendMessageToTarget`: one protocol message to an unflattened session. Deprecated
/// in the protocol in favour of flat sessions (hence absent from chromiumoxide's generated
/// commands), which chromiumoxide does not let a caller address (see the module doc).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct SendMessageToTarget {
    message: String,
    session_id: SessionId,
}

impl Method for SendMessageToTarget {
    fn identifier(&self) -> MethodId {
        Cow::Borrowed("Target.sendMessageToTarget")
    }
}

impl Command for SendMessageToTarget {
    type Response = Value;
}

fn failed(what: impl std::fmt::Display) -> AgentError {
    AgentError::new(Code::ActionFailed, what.to_string())
}

/// A frame found in a look, not merged yet.
struct Found {
    reach: Reach,
    token: String,
    owner: (Option<usize>, String),
    /// The frame's tree, its refs moved past every earlier document's: by `offset`.
    tree: NodeTree,
    offset: u32,
    depth: usize,
}

impl Session {
    /// Sends `cmd` to the document `reach` names (`None`: the tab's), raced against dialogs
    /// and given at most [`EVAL_LIMIT`].
    pub(super) async fn command_in<C>(&self, reach: Option<&Reach>, cmd: C) -> Result<C::Response>
    where
        C: Command + Send,
        C::Response: Send,
    {
        let work = async {
            match reach {
                None | Some(Reach::Local(_)) => self
                    .page()
                    .execute(cmd)
                    .await
                    .map(|r| r.result)
                    .map_err(failed),
                Some(Reach::Remote(session)) => {
                    let method = cmd.identifier();
                    let params = serde_json::to_value(&cmd).map_err(failed)?;
                    let answer = self.remote_call(session, &method, params).await?;
                    C::response_from_value(answer).map_err(failed)
                }
            }
        };
        let limited = async {
            tokio::time::timeout(EVAL_LIMIT, work).await.map_err(|_| {
                AgentError::new(
                    Code::Timeout,
                    format!("the frame did not answer in {} s", EVAL_LIMIT.as_secs()),
                )
            })?
        };
        self.guarded(limited).await
    }

    /// One command on an unflattened frame session; its answer's `result`.
    async fn remote_call(&self, session: &SessionId, method: &str, params: Value) -> Result<Value> {
        let id = self.frames.next_id.fetch_add(1, Ordering::Relaxed);
        let message = json!({"id": id, "method": method, "params": params}).to_string();
        // Held from before the send, so no answer can be read by another call meanwhile.
        let mut messages = self.frames.messages.lock().await;
        self.launched
            .browser
            .execute(SendMessageToTarget {
                message,
                session_id: session.clone(),
            })
            .await
            .map_err(|e| failed(format!("the frame is gone: {e}")))?;
        while let Some(event) = messages.next().await {
            if event.session_id != *session {
                continue;
            }
            let Ok(mut answer) = serde_json::from_str::<Value>(&event.message) else {
                continue;
            };
            // Events of the session (none are enabled) and answers to calls that were given
            // up on have other ids.
            if answer["id"] != id {
                continue;
            }
            if let Some(error) = answer.get("error") {
                return Err(failed(format!("{method} failed in the frame: {error}")));
            }
            return Ok(answer["result"].take());
        }
        Err(failed("the browser connection closed"))
    }

    /// `Runtime.evaluate` in a frame document (its main world), the value returned as JSON
    /// when `by_value`, else as a handle.
    async fn evaluate_in(
        &self,
        reach: &Reach,
        expr: &str,
        by_value: bool,
    ) -> Result<EvaluateReturns> {
        let mut params = EvaluateParams::builder()
            .expression(expr)
            .return_by_value(by_value);
        if let Reach::Local(context) = reach {
            params = params.context_id(*context);
        }
        let done: EvaluateReturns = self
            .command_in(Some(reach), params.build().map_err(failed)?)
            .await?;
        match &done.exception_details {
            Some(e) => Err(failed(format!("the frame's script threw: {}", e.text))),
            None => Ok(done),
        }
    }

    /// Evaluates `expr` (which returns a JSON string) in a document; the string.
    pub(super) async fn eval_json_in(&self, reach: Option<&Reach>, expr: &str) -> Result<String> {
        let Some(reach) = reach else {
            return self.eval_json(expr).await;
        };
        let done = self.evaluate_in(reach, expr, true).await?;
        match done.result.value {
            Some(Value::String(s)) => Ok(s),
            other => Err(failed(format!(
                "the frame answered {other:?}, not a string"
            ))),
        }
    }

    /// [`Session::script_eval`] in a document: injects the script when it lacks it.
    pub(super) async fn script_eval_in(&self, reach: Option<&Reach>, expr: &str) -> Result<String> {
        if reach.is_none() {
            return self.script_eval(expr).await;
        }
        let json = self.eval_json_in(reach, expr).await?;
        if !js::not_injected(&json) {
            return Ok(json);
        }
        if let Some(reach) = reach {
            self.evaluate_in(reach, js::script(), true).await?;
        }
        self.eval_json_in(reach, expr).await
    }

    /// The script's snapshot of a document (`options`), and the token that names the
    /// document: the one it carries, or a new one left on it now. One round trip when the
    /// script is there.
    pub(super) async fn doc_snapshot(
        &self,
        reach: Option<&Reach>,
        options: &JsSnapshotOptions,
    ) -> Result<(String, String)> {
        let expr = format!(
            "(() => {{ let w = window; if (typeof w.__agentLook !== 'string') w.__agentLook = {}; \
             return w.__agentLook + '\\n' + {}; }})()",
            js::js_literal(&super::refs::new_doc_token()),
            js::snapshot_js(options)
        );
        let split = |out: String| -> Result<(String, String)> {
            // The token has no line break (the session wrote it); the JSON follows the first.
            match out.split_once('\n') {
                Some((token, json)) => Ok((token.to_string(), json.to_string())),
                None => Err(failed("the snapshot came without its document's token")),
            }
        };
        let (token, json) = split(self.eval_json_in(reach, &expr).await?)?;
        if !js::not_injected(&json) {
            return Ok((token, json));
        }
        match reach {
            Some(reach) => drop(self.evaluate_in(reach, js::script(), true).await?),
            None => drop(self.evaluate(js::script(), Code::ActionFailed).await?),
        }
        split(self.eval_json_in(reach, &expr).await?)
    }

    /// A handle on what `expr` evaluates to in a document (an element), `None` for a
    /// primitive such as `null`.
    pub(super) async fn object_in(
        &self,
        reach: Option<&Reach>,
        expr: &str,
    ) -> Result<Option<RemoteObjectId>> {
        let found = match reach {
            None => self.command_in(None, EvaluateParams::new(expr)).await?,
            Some(reach) => self.evaluate_in(reach, expr, false).await?,
        };
        Ok(found.result.object_id)
    }

    /// Whether `expr` is truthy in a document.
    pub(super) async fn eval_bool_in(&self, reach: Option<&Reach>, expr: &str) -> Result<bool> {
        let expr = format!("!!({expr})");
        match reach {
            None => Ok(self
                .evaluate(expr, Code::ActionFailed)
                .await?
                .into_value::<bool>()
                .unwrap_or(false)),
            Some(reach) => {
                Ok(self.evaluate_in(reach, &expr, true).await?.result.value
                    == Some(Value::Bool(true)))
            }
        }
    }

    /// How the latest look reached the document of a ref (`None`: the tab's).
    pub(super) fn reach(&self, doc: Option<usize>) -> Option<&Reach> {
        doc.and_then(|i| self.frames.docs.get(i)).map(|d| &d.reach)
    }

    /// The frame the `<iframe>` marked `mark` in a document shows, as CDP names it.
    async fn frame_of(&self, reach: Option<&Reach>, mark: &str) -> Option<FrameId> {
        let object = self
            .object_in(reach, &js::ref_element_js(mark))
            .await
            .ok()??;
        let describe = DescribeNodeParams {
            object_id: Some(object.clone()),
            ..Default::default()
        };
        let node = self.command_in(reach, describe).await;
        // The handle is only needed for the question: free it in the page.
        let _ = self
            .command_in(reach, ReleaseObjectParams::new(object))
            .await;
        node.ok()?.node.frame_id
    }

    /// How to reach frame `frame`, whose `<iframe>` is in the document `parent` reaches:
    /// through a session on its own target when it is out of process, else in its main world
    /// when its `<iframe>` is in the tab's document (a same-site frame inside an
    /// out-of-process one is not reached).
    async fn reach_frame(&self, parent: Option<&Reach>, frame: FrameId) -> Option<Reach> {
        // An out-of-process frame's target has the frame's id.
        let target = TargetId::from(frame.inner().clone());
        let cached = self.frames.sessions.lock().ok()?.get(&target).cloned();
        if let Some(session) = cached {
            return Some(Reach::Remote(session));
        }
        let attach = AttachToTargetParams::builder()
            .target_id(target.clone())
            .flatten(false)
            .build()
            .ok()?;
        if let Ok(done) = self.launched.browser.execute(attach).await {
            let session = done.result.session_id;
            self.frames
                .sessions
                .lock()
                .ok()?
                .insert(target, session.clone());
            return Some(Reach::Remote(session));
        }
        if parent.is_some() {
            return None;
        }
        let context = self.page().frame_execution_context(frame).await.ok()??;
        Some(Reach::Local(context))
    }

    /// Forgets the session of a frame that stopped answering (its target went), so the next
    /// look attaches anew.
    fn forget(&self, reach: &Reach) {
        if let (Reach::Remote(session), Ok(mut sessions)) = (reach, self.frames.sessions.lock()) {
            sessions.retain(|_, s| s != session);
        }
    }

    /// The frame the `<iframe>` marked `mark` in a document shows: how to reach it, and the
    /// script's snapshot of it. `None` when it cannot be reached.
    async fn open_frame(
        &self,
        holder: Option<&Reach>,
        mark: &str,
        options: &JsSnapshotOptions,
    ) -> Option<(Reach, String, NodeTree)> {
        let frame = self.frame_of(holder, mark).await?;
        let reach = self.reach_frame(holder, frame).await?;
        let (token, tree) = self.frame_tree(&reach, options).await?;
        Some((reach, token, tree))
    }

    /// The script's snapshot of one frame document, and the document's token.
    async fn frame_tree(
        &self,
        reach: &Reach,
        options: &JsSnapshotOptions,
    ) -> Option<(String, NodeTree)> {
        let done = tokio::time::timeout(FRAME_LIMIT, self.doc_snapshot(Some(reach), options))
            .await
            .ok()
            .and_then(|r| r.ok());
        let Some((token, json)) = done else {
            self.forget(reach);
            return None;
        };
        let tree = NodeTree::from_json(&json).ok()?;
        // A frame that failed to load shows the browser's error page: the browser's words
        // and buttons, not the site's. Its node keeps its `src`, as the model needs.
        match tree.url.as_deref() {
            Some(url) if url.starts_with("chrome-error:") => None,
            _ => Some((token, tree)),
        }
    }

    /// Fills in the cross-origin frames of `tree` (the tab document's snapshot, refs as its
    /// marks): each frame's tree under its `<iframe>` node, then every ref renumbered in
    /// document order from 1. Returns the frames and each ref's [`Place`]; none (the tree
    /// untouched) when the tree has no cross-origin frame the agent could reach.
    pub(super) async fn merge_frames(
        &self,
        tree: &mut NodeTree,
        options: &JsSnapshotOptions,
    ) -> Result<(Vec<FrameDoc>, Vec<Place>)> {
        // Scoped or not, a frame shows whole: its own walk starts at its body.
        let options = JsSnapshotOptions {
            scope: None,
            ..options.clone()
        };
        let mut found: Vec<Found> = Vec::new();
        // Refs of the documents so far: each frame's are moved past them, so that every
        // document keeps a range of its own until the final numbering.
        let mut used = highest_ref(&tree.tree);
        // Documents to search for empty `<iframe>` nodes: `None` the tab's, else `found[i]`.
        let mut queue: std::collections::VecDeque<Option<usize>> = [None].into();
        while let Some(doc) = queue.pop_front() {
            let (reach, offset, depth) = match doc {
                None => (None, 0, 0),
                Some(i) => {
                    let f = &found[i];
                    (Some(f.reach.clone()), f.offset, f.depth)
                }
            };
            if depth >= MAX_DEPTH {
                continue;
            }
            let holder = match doc {
                None => &tree.tree,
                Some(i) => &found[i].tree.tree,
            };
            let empty = empty_frames(holder);
            for number in empty {
                if found.len() >= MAX_FRAMES {
                    break;
                }
                let mark = format!("e{}", number - offset);
                let opened = self.open_frame(reach.as_ref(), &mark, &options);
                let Ok(Some((frame_reach, token, mut frame_tree))) =
                    tokio::time::timeout(FRAME_LIMIT, opened).await
                else {
                    continue;
                };
                let Some(highest) = super::refs::renumber(&mut frame_tree.tree, used) else {
                    continue;
                };
                found.push(Found {
                    reach: frame_reach,
                    token,
                    owner: (doc, mark),
                    tree: frame_tree,
                    offset: used,
                    depth: depth + 1,
                });
                queue.push_back(Some(found.len() - 1));
                used += highest;
            }
        }
        if found.is_empty() {
            return Ok((Vec::new(), Vec::new()));
        }
        // Each document's range of numbers: the tab's from 0, each frame's from where its
        // refs were moved to (ascending: a frame without refs shares its start with the
        // next document, and owns no number).
        let mut starts: Vec<(u32, Option<usize>)> = vec![(0, None)];
        starts.extend(found.iter().enumerate().map(|(i, f)| (f.offset, Some(i))));
        // Deepest first (a frame comes after the document holding it), so a frame's own
        // frames are in its tree before it moves into its holder's.
        let mut docs: Vec<FrameDoc> = Vec::with_capacity(found.len());
        let mut trees: Vec<Option<NodeTree>> = Vec::with_capacity(found.len());
        let mut owners: Vec<u32> = Vec::with_capacity(found.len());
        for f in found {
            let holder_offset = match f.owner.0 {
                None => 0,
                Some(i) => starts[i + 1].0,
            };
            let number = Ref::parse(&f.owner.1).map_or(0, Ref::number) + holder_offset;
            owners.push(number);
            docs.push(FrameDoc {
                reach: f.reach,
                token: f.token,
                owner: f.owner,
            });
            trees.push(Some(f.tree));
        }
        for i in (0..trees.len()).rev() {
            let Some(frame) = trees[i].take() else {
                continue;
            };
            let holder = match docs[i].owner.0 {
                None => &mut tree.tree,
                Some(j) => match trees[j].as_mut() {
                    Some(t) => &mut t.tree,
                    None => continue,
                },
            };
            if let Some(node) = find_ref(holder, owners[i]) {
                node.children = frame.tree.children;
            }
        }
        let places = document_order(&mut tree.tree, &starts);
        Ok((docs, places))
    }

    /// The origin of the frame document `doc` in the tab's viewport: where its viewport's
    /// (0, 0) is, each `<iframe>`'s content box (inside its border and padding) on the way
    /// up.
    pub(super) async fn frame_origin(&self, doc: Option<usize>) -> Result<(f64, f64)> {
        let (mut x, mut y) = (0.0, 0.0);
        let mut at = doc;
        // At most as deep as a look nests frames: the owner chain cannot loop.
        for _ in 0..=MAX_DEPTH {
            let Some(frame) = at.and_then(|i| self.frames.docs.get(i)) else {
                return Ok((x, y));
            };
            let (holder, mark) = &frame.owner;
            let json = self
                .eval_json_in(self.reach(*holder), &js::frame_origin_js(mark))
                .await?;
            let origin: Value = serde_json::from_str(&json).unwrap_or(Value::Null);
            let (Some(dx), Some(dy)) = (origin["x"].as_f64(), origin["y"].as_f64()) else {
                return Err(failed("the frame's <iframe> left the page"));
            };
            x += dx;
            y += dy;
            at = *holder;
        }
        Ok((x, y))
    }

    /// The mark of the `<iframe>` in the tab's document that holds `doc` (the element itself
    /// when it is there): what the sidebar outlines.
    pub(super) fn top_mark(&self, doc: Option<usize>, mark: &str) -> String {
        self.frames
            .holders(doc)
            .last()
            .map_or_else(|| mark.to_string(), |(_, m)| m.clone())
    }
}

/// The highest ref number in a tree (0 for none).
fn highest_ref(root: &TreeNode) -> u32 {
    let mut highest = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let Some(r) = node.ref_ {
            highest = highest.max(r.number());
        }
        stack.extend(node.children.iter());
    }
    highest
}

/// The ref numbers of `iframe` nodes with nothing in them, in document order: frames the
/// script could not enter.
fn empty_frames(root: &TreeNode) -> Vec<u32> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.role.as_deref() == Some("iframe") && node.children.is_empty() {
            if let Some(r) = node.ref_ {
                out.push(r.number());
            }
        }
        stack.extend(node.children.iter().rev());
    }
    out
}

fn find_ref(root: &mut TreeNode, number: u32) -> Option<&mut TreeNode> {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.ref_.is_some_and(|r| r.number() == number) {
            return Some(node);
        }
        stack.extend(node.children.iter_mut());
    }
    None
}

/// Numbers the merged tree's refs 1, 2… in document order and returns where each one is:
/// a ref `n` belongs to the document with the greatest start below `n` (`starts` ascending,
/// the tab's first at 0), as its mark `e(n - start)`.
fn document_order(root: &mut TreeNode, starts: &[(u32, Option<usize>)]) -> Vec<Place> {
    let mut places = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let Some(r) = node.ref_ {
            let n = r.number();
            let at = starts.partition_point(|(start, _)| *start < n);
            let (start, doc) = starts[at.saturating_sub(1)];
            places.push((doc, format!("e{}", n - start)));
            node.ref_ = Ref::new(places.len() as u32);
        }
        stack.extend(node.children.iter_mut().rev());
    }
    places
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(json: &str) -> NodeTree {
        NodeTree::from_json(&format!(r#"{{"version":1,"tree":{json}}}"#)).expect("tree")
    }

    #[test]
    fn merged_refs_are_numbered_in_document_order_with_their_places() {
        // The tab's e1 (link), e2 (iframe), e3 (button); the frame's e1, e2 moved past 3.
        let mut top = tree(
            r#"{"tag":"body","children":[{"tag":"a","role":"link","name":"A","ref":"e1"},
            {"tag":"iframe","role":"iframe","name":"F","ref":"e2"},
            {"tag":"button","role":"button","name":"B","ref":"e3"}]}"#,
        );
        let frame = tree(
            r#"{"tag":"body","children":[{"tag":"input","role":"textbox","name":"T","ref":"e4"},
            {"tag":"button","role":"button","name":"OK","ref":"e5"}]}"#,
        );
        let node = find_ref(&mut top.tree, 2).expect("iframe");
        node.children = frame.tree.children;
        let places = document_order(&mut top.tree, &[(0, None), (3, Some(0))]);
        let want: Vec<Place> = vec![
            (None, "e1".into()),
            (None, "e2".into()),
            (Some(0), "e1".into()),
            (Some(0), "e2".into()),
            (None, "e3".into()),
        ];
        assert_eq!(places, want);
        let text = crate::render::render(&top, &crate::RenderOptions::default()).text;
        assert!(text.contains("textbox \"T\" [ref=e3]"), "{text}");
        assert!(text.contains("button \"B\" [ref=e5]"), "{text}");
        assert_eq!(empty_frames(&top.tree), Vec::<u32>::new());
    }
}
