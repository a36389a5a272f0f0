//! Looks and refs: the script's snapshot numbered session-wide, the look's token on the
//! document, and the checks that tell a live ref from a stale one.

use std::collections::hash_map::DefaultHasher;
use std::collections::{HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};

use serde_json::{Map, Value};

use super::protocol::opt_str;
use super::session::{PageState, Session};
use super::{AgentError, Code, Result};
use crate::js::JsSnapshotOptions;
use crate::render;
use crate::rendered::Rendered;
use crate::{NodeTree, Ref, TreeNode};

/// Tokens stamped on documents: unique for the process, so a document's token names it alone.
static DOCS_STAMPED: AtomicU64 = AtomicU64::new(0);

/// A fresh token for a document the session has not stamped yet.
pub(super) fn new_doc_token() -> String {
    let n = DOCS_STAMPED.fetch_add(1, Ordering::Relaxed) + 1;
    format!("doc-{}-{n}", std::process::id())
}

/// Every ref the session gave: which document's element it names (by the mark the script
/// gives that element for the document's life) and the last look that showed it. A ref's
/// number is never given again, so an old ref names its element or nothing.
#[derive(Default)]
pub(super) struct Ledger {
    /// The documents refs were given in, by the token each one carries.
    docs: Vec<Doc>,
    /// Ref `eN` is `refs[N - 1]`.
    refs: Vec<Given>,
    /// The ref of each (document, mark) given so far, for documents still alive.
    by_mark: HashMap<(usize, u32), u32>,
}

struct Doc {
    token: String,
    /// False once its tab navigated away: even a page restored from the back/forward cache
    /// (same document, same marks) is another visit whose refs are new.
    alive: bool,
}

#[derive(Clone, Copy)]
struct Given {
    doc: usize,
    mark: u32,
    /// The latest look that showed it.
    seen: u64,
}

impl Ledger {
    /// The index of the document with this token, added (alive) when new.
    fn doc(&mut self, token: &str) -> usize {
        match self.docs.iter().rposition(|d| d.token == token && d.alive) {
            Some(i) => i,
            None => {
                self.docs.push(Doc {
                    token: token.to_string(),
                    alive: true,
                });
                self.docs.len() - 1
            }
        }
    }

    /// The session's ref for mark `mark` of document `doc`: the one given before, else the
    /// next number. `None` when the numbers would pass `u32::MAX`.
    fn give(&mut self, doc: usize, mark: u32, look: u64) -> Option<Ref> {
        let n = match self.by_mark.get(&(doc, mark)) {
            Some(n) => *n,
            None => {
                let n = u32::try_from(self.refs.len() + 1).ok()?;
                self.refs.push(Given { doc, mark, seen: 0 });
                self.by_mark.insert((doc, mark), n);
                n
            }
        };
        if let Some(given) = self.refs.get_mut(n as usize - 1) {
            given.seen = look;
        }
        Ref::new(n)
    }

    /// Ends the refs of these documents (their tab navigated).
    fn end(&mut self, docs: &[usize]) {
        for &d in docs {
            if let Some(doc) = self.docs.get_mut(d) {
                doc.alive = false;
            }
        }
        self.by_mark.retain(|(d, _), _| !docs.contains(d));
    }

    /// The highest ref given.
    fn issued(&self) -> usize {
        self.refs.len()
    }

    /// The token of document `doc`.
    pub(super) fn token(&self, doc: usize) -> Option<String> {
        self.docs.get(doc).map(|d| d.token.clone())
    }
}

impl Session {
    /// Takes a snapshot with the script and gives its refs session-wide numbers that last:
    /// the script marks each element once for its document's life, and the session keeps the
    /// ref it gave each (document, mark), so an element shows the same ref in every look
    /// while it stays in the page, and a new element a number never given before.
    ///
    /// `scope` is a CSS selector (the script walks its first match) or a ref (a folded stub's,
    /// say): then the script walks the whole page and the tree keeps that ref's subtree.
    pub(super) async fn look_tree(
        &mut self,
        scope: Option<String>,
        interactive_only: bool,
        viewport_only: bool,
    ) -> Result<NodeTree> {
        self.look_page(scope, interactive_only, viewport_only, None, false)
            .await
    }

    /// [`Session::look_tree`], with `max_nodes` the script's cap on nodes when not its
    /// default. The tree's main content is the content stage's, found on the rendered page
    /// ([`Rendered`]: what the script found shown, parsed), which stays in the session for
    /// [`Session::rendered`]; a look scoped by a CSS selector has none (the script walks only
    /// that part, which is no page of its own). `exact`: the rendered page must be the page as
    /// it is now, text and all (a read reads it), not only one the look's marks hold for.
    pub(super) async fn look_page(
        &mut self,
        scope: Option<String>,
        interactive_only: bool,
        viewport_only: bool,
        max_nodes: Option<usize>,
        exact: bool,
    ) -> Result<NodeTree> {
        let scope_ref = scope.as_deref().and_then(render::scope_ref);
        if let Some(r) = scope_ref {
            // NOT_FOUND or STALE_REF (another document's) before any walk.
            self.resolve(&r.to_string())?;
        }
        let defaults = JsSnapshotOptions::default();
        let scope = scope.filter(|_| scope_ref.is_none());
        let options = JsSnapshotOptions {
            html: scope.is_none(),
            scope,
            interactive_only,
            max_nodes: max_nodes.unwrap_or(defaults.max_nodes),
            ..defaults
        };
        let (token, json, mut rendered) = self.snapshot_rendered(&options, exact).await?;
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
        // Marked before the frames merge: the tree's order is the script's walk.
        if let Some((page, _)) = &mut rendered {
            page.mark(&mut tree);
        }
        let (docs, places) = self.merge_frames(&mut tree, &options).await?;
        self.looks += 1;
        let look = self.looks;
        // Another document in the tab than its latest look's: that one's refs end (a
        // navigation the session did not see, a page's own redirect).
        let tab_doc = self.ledger.doc(&token);
        let before = std::mem::take(&mut self.tab_mut().looked);
        if before.first().is_some_and(|d| *d != tab_doc) {
            self.ledger.end(&before);
        }
        let frame_docs: Vec<usize> = docs.iter().map(|d| self.ledger.doc(&d.token)).collect();
        // Each node's (document, mark) -> the session's ref; `places` is empty when no frame
        // merged, and then a node's ref is the tab document's mark.
        let mut numbers: HashMap<(Option<usize>, u32), Ref> = HashMap::new();
        let mut stack = vec![&mut tree.tree];
        while let Some(node) = stack.pop() {
            if let Some(r) = node.ref_ {
                let place = (r.number() as usize)
                    .checked_sub(1)
                    .and_then(|k| places.get(k));
                let (doc, mark) = match place {
                    Some((doc, mark)) => (*doc, Ref::parse(mark).map_or(0, Ref::number)),
                    None => (None, r.number()),
                };
                let ledger_doc = doc.and_then(|i| frame_docs.get(i).copied());
                let given = self
                    .ledger
                    .give(ledger_doc.unwrap_or(tab_doc), mark, look)
                    .ok_or_else(|| {
                        AgentError::new(
                            Code::ActionFailed,
                            "this session has given out every ref number; start a new agent",
                        )
                    })?;
                numbers.insert((doc, mark), given);
                node.ref_ = Some(given);
            }
            stack.extend(node.children.iter_mut().rev());
        }
        if let Some((mut page, walk)) = rendered {
            page.rename(|mark| numbers.get(&(None, mark.number())).copied());
            self.keep_rendered(token.clone(), walk, page);
        }
        let mut looked = vec![tab_doc];
        looked.extend(frame_docs);
        self.tab_mut().looked = looked;
        self.look_token = Some(token);
        self.frames.docs = docs;
        if let Some(r) = scope_ref {
            if !keep_subtree(&mut tree, r) {
                return Err(AgentError::new(
                    Code::StaleRef,
                    format!(
                        "{r} is no longer shown on the page (hidden, left, or past the look's \
                         node limit); look without scope and use the refs it shows"
                    ),
                ));
            }
        }
        if viewport_only {
            let number = |doc: Option<usize>, mark: &str| {
                numbers
                    .get(&(doc, Ref::parse(mark).map_or(0, Ref::number)))
                    .copied()
            };
            // A frame's refs count only while its <iframe> does (a frame comes after the
            // document that holds it).
            let mut visible = HashSet::new();
            let docs = std::iter::once(None).chain((0..self.frames.docs.len()).map(Some));
            for doc in docs {
                if let Some(frame) = doc.and_then(|i| self.frames.docs.get(i)) {
                    let owner = number(frame.owner.0, &frame.owner.1);
                    if !owner.is_some_and(|o| visible.contains(&o)) {
                        continue;
                    }
                }
                let marks = match self.eval_json_in(self.reach(doc), VISIBLE_REFS_JS).await {
                    Ok(marks) => marks,
                    // A frame that went away shows nothing; the tab's document must answer.
                    Err(e) if doc.is_none() => return Err(e),
                    Err(_) => continue,
                };
                let marks: Vec<String> = serde_json::from_str(&marks).unwrap_or_default();
                visible.extend(marks.iter().filter_map(|m| number(doc, m)));
            }
            keep_refs(&mut tree.tree, &visible);
        }
        Ok(tree)
    }

    /// The script's snapshot of the tab's document (its token and JSON), with the rendered
    /// page parsed when `options.html`, and the walk it was written on: from the session's
    /// cache when the script answers that no change that may move what is shown came since
    /// it last wrote the page, and this walk is that one's (see [`Walk::holds`]).
    async fn snapshot_rendered(
        &mut self,
        options: &JsSnapshotOptions,
        exact: bool,
    ) -> Result<(String, String, Option<(Rendered, Walk)>)> {
        let (token, json) = self.doc_snapshot(None, options).await?;
        if !options.html {
            return Ok((token, json, None));
        }
        match answer_html(&json).0 {
            Some(Html::Text(html)) => {
                let page = self.parse_rendered(&html).await;
                let walk = Walk::of(&json);
                Ok((token, json, Some((page, walk))))
            }
            Some(Html::Same(_)) => {
                let walk = Walk::of(&json);
                if let Some(i) = self
                    .rendered
                    .iter()
                    .position(|(t, was, page)| *t == token && was.holds(&walk, page, exact))
                {
                    let (_, was, page) = self.rendered.remove(i);
                    return Ok((token, json, Some((page, was))));
                }
                // The cache lost it (more tabs than it keeps), or what is shown changed
                // without a mutation the script counts (an attribute a style rule reads, an
                // animation's end), or a read needs the text as it is: the script writes the
                // page again for another node cap.
                let again = JsSnapshotOptions {
                    max_nodes: options.max_nodes + 1,
                    ..options.clone()
                };
                let (token, json) = self.doc_snapshot(None, &again).await?;
                let page = match answer_html(&json).0 {
                    Some(Html::Text(html)) => {
                        Some((self.parse_rendered(&html).await, Walk::of(&json)))
                    }
                    _ => None,
                };
                Ok((token, json, page))
            }
            None => Ok((token, json, None)),
        }
    }

    /// The rendered page with the tab document's JSON-LD, which the script leaves out (it
    /// writes only what is shown); the content stage locates the product it names. A page
    /// that does not answer has none.
    async fn parse_rendered(&self, html: &str) -> Rendered {
        let ld = self.eval_json_in(None, LD_JSON_JS).await.ok();
        let ld: Vec<String> = ld
            .and_then(|json| serde_json::from_str(&json).ok())
            .unwrap_or_default();
        Rendered::parse_with_data(html, &ld)
    }

    /// Keeps the rendered page of document `token` (the latest few, one per tab in use), with
    /// the walk it was written on.
    fn keep_rendered(&mut self, token: String, walk: Walk, page: Rendered) {
        self.rendered.retain(|(t, _, _)| *t != token);
        if self.rendered.len() >= RENDERED_KEPT {
            self.rendered.remove(0);
        }
        self.rendered.push((token, walk, page));
    }

    /// The rendered page of the current tab's latest look, when it took one.
    pub(super) fn rendered(&self) -> Option<&Rendered> {
        let token = self.look_token.as_ref()?;
        self.rendered
            .iter()
            .find(|(t, _, _)| t == token)
            .map(|(_, _, page)| page)
    }

    /// The refs of the current tab's documents when its latest look was taken: the tab's
    /// document and its frames' end (a navigation: old refs are `STALE_REF` from now on).
    pub(super) fn navigated(&mut self) {
        let looked = std::mem::take(&mut self.tab_mut().looked);
        self.ledger.end(&looked);
        self.look_token = None;
    }

    /// Where a ref points: its element's document and mark when the current tab's latest
    /// look reached that document; `STALE_REF` when it is another document's (a navigation,
    /// another tab), `NOT_FOUND` when no look gave it. Does not check the page itself.
    pub(super) fn resolve(&self, ref_: &str) -> Result<Target> {
        let issued = self.ledger.issued();
        let never = || {
            AgentError::new(
                Code::NotFound,
                if issued == 0 {
                    format!("no look yet: call look first, then use its refs (not {ref_})")
                } else {
                    format!(
                        "no look gave {ref_} (the session gave e1 to e{issued}); call look and \
                         pick a ref it shows"
                    )
                },
            )
        };
        let n = Ref::parse(ref_).ok_or_else(never)?.number() as usize;
        let given = *n
            .checked_sub(1)
            .and_then(|i| self.ledger.refs.get(i))
            .ok_or_else(never)?;
        let alive = self.ledger.docs.get(given.doc).is_some_and(|d| d.alive);
        if !alive {
            return Err(AgentError::new(
                Code::StaleRef,
                format!(
                    "{ref_} is from before a navigation (look {} showed it last); call look \
                     again and use the new refs",
                    given.seen
                ),
            ));
        }
        let looked = &self.tab().looked;
        let frame = if looked.first() == Some(&given.doc) {
            None
        } else {
            let at = looked.iter().skip(1).position(|d| *d == given.doc);
            match at.filter(|i| self.look_token.is_some() && *i < self.frames.docs.len()) {
                Some(i) => Some(i),
                None => {
                    return Err(AgentError::new(
                        Code::StaleRef,
                        format!(
                            "{ref_} is in another tab, or in a frame the latest look of this \
                             tab did not reach; call look again and use the refs it shows"
                        ),
                    ))
                }
            }
        };
        Ok(Target {
            public: ref_.to_string(),
            page: format!("e{}", given.mark),
            frame,
            seen: given.seen,
        })
    }

    /// `STALE_REF` unless the tab's document is still the one its latest look walked.
    pub(super) async fn check_token(&self, ref_: &str) -> Result<PageState> {
        let stale = || {
            AgentError::new(
                Code::StaleRef,
                format!(
                    "{ref_} is stale: the page navigated since the latest look; call look \
                     again and use the new refs"
                ),
            )
        };
        let Some(token) = &self.look_token else {
            return Err(stale());
        };
        match self.state().await {
            Some(state) if state.token.as_deref() == Some(token.as_str()) => Ok(state),
            _ => Err(stale()),
        }
    }

    /// The ref of an `act`/`query`, checked against the latest look, with the page state the
    /// check read (an action measures its changes from it).
    pub(super) async fn live_ref(&self, args: &Map<String, Value>) -> Result<(Target, PageState)> {
        let ref_ = opt_str(args, "ref")?.ok_or_else(|| {
            AgentError::new(Code::InvalidArgs, "\"ref\" is required (e.g. \"e5\")")
        })?;
        let target = self.resolve(ref_)?;
        let state = self.check_token(ref_).await?;
        Ok((target, state))
    }
}

/// The texts of the document's JSON-LD scripts, as a JSON array.
const LD_JSON_JS: &str = "JSON.stringify([...document.querySelectorAll('script[type=\"application/ld+json\" i]')].map(s => s.text))";

/// Rendered pages the session keeps: one per tab in use, for a few tabs.
const RENDERED_KEPT: usize = 4;

/// The script's `html` answer: the page written out, or `false` when it did not change since
/// the script last wrote it for the same node cap.
#[derive(serde::Deserialize, Debug, PartialEq)]
#[serde(untagged)]
enum Html {
    Text(String),
    Same(#[allow(dead_code)] bool),
}

/// What the session keeps of the walk a rendered page was written on, to tell whether a later
/// walk of the same document, which the script did not write out, still fits that page: the
/// content stage's marks go by place in the walk.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Walk {
    /// The nodes' tags and refs in the answer's order (its places, and which element holds
    /// each one that has a ref: the script's marks last the document's life).
    shape: u64,
    /// The whole tree, text and names included.
    tree: u64,
    /// The nodes the walk emitted, the root included, and the elements it visited.
    emitted: usize,
    visited: usize,
}

impl Walk {
    /// The walk of a script's answer.
    pub(super) fn of(json: &str) -> Walk {
        // `"stats":` and the keys below can only be keys: inside strings quotes are escaped.
        let tree = json.rfind(",\"stats\":").map_or(json, |at| &json[..at]);
        let mut shape = DefaultHasher::new();
        // (A key and its value: `"tag":"li"` and `"tag":"link"` differ by the closing quote.)
        let value = |at: usize| tree[at..].split(',').next().unwrap_or("");
        for (at, _) in tree.match_indices("\"tag\":\"") {
            value(at).hash(&mut shape);
        }
        for (at, _) in tree.match_indices("\"ref\":\"") {
            value(at).hash(&mut shape);
        }
        let mut whole = DefaultHasher::new();
        tree.hash(&mut whole);
        Walk {
            shape: shape.finish(),
            tree: whole.finish(),
            emitted: stat(json, "\"emittedNodes\":"),
            visited: stat(json, "\"visitedNodes\":"),
        }
    }

    /// Whether a page written on this walk serves `now`, a later walk of the same document: the
    /// same places holding the same elements (a text run aside, `text` is no node of its
    /// own), and few elements shown or hidden past the node cap (at most 1 in 20: the content
    /// stage may choose another part after more). For an `exact` use, the same tree as well.
    fn holds(&self, now: &Walk, page: &Rendered, exact: bool) -> bool {
        page.places() + 1 == now.emitted
            && self.shape == now.shape
            && self.emitted == now.emitted
            && self.visited.abs_diff(now.visited) * 20 <= now.visited
            && (!exact || self.tree == now.tree)
    }
}

/// The number after `key` (a stat of the script's answer), 0 when it has none.
fn stat(json: &str, key: &str) -> usize {
    json.rfind(key)
        .and_then(|at| {
            let digits = &json[at + key.len()..];
            let end = digits
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(digits.len());
            digits[..end].parse().ok()
        })
        .unwrap_or(0)
}

/// The `html` of the script's answer (`None` when it has none: an error answer), and the
/// nodes its walk emitted, the root included. Found by their keys, not by parsing the answer
/// again: inside its strings every quote is escaped, so `"html":` can only be the key (the
/// last the script writes), and `"emittedNodes":` the stat.
fn answer_html(json: &str) -> (Option<Html>, usize) {
    #[derive(serde::Deserialize)]
    struct Answer {
        html: Html,
    }
    let html = json
        .rfind(",\"html\":")
        .and_then(|at| serde_json::from_str::<Answer>(&format!("{{{}", &json[at + 1..])).ok())
        .map(|answer| answer.html);
    (html, stat(json, "\"emittedNodes\":"))
}

/// A ref as the caller knows it (session-wide numbering) and as the page marks it: the mark
/// in its document, the tab's or (`frame`) a cross-origin frame's of the latest look.
#[derive(Debug, Default)]
pub(super) struct Target {
    pub(super) public: String,
    pub(super) page: String,
    pub(super) frame: Option<usize>,
    /// The latest look that showed it.
    pub(super) seen: u64,
}

impl Target {
    /// The answer when the script no longer finds the element: it left the page.
    pub(super) fn left(&self) -> AgentError {
        AgentError::new(
            Code::StaleRef,
            format!(
                "{} left the page after look {}; nothing was done. Call look again and use \
                 the refs it shows",
                self.public, self.seen
            ),
        )
    }
}

/// Gives every ref of the tree `base` more, in place; returns the highest ref the tree held
/// (0 for none), or `None` when the numbers would pass `u32::MAX`.
pub(super) fn renumber(root: &mut TreeNode, base: u32) -> Option<u32> {
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

/// Cuts `tree` to the node with ref `scope` and its content, that node the only child of the
/// root so that its own line shows (as offline `--scope`). `false` when no node has the ref.
pub(super) fn keep_subtree(tree: &mut NodeTree, scope: Ref) -> bool {
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

/// Refs of elements that intersect the viewport, as a JSON array.
pub(super) const VISIBLE_REFS_JS: &str =
    "JSON.stringify([...document.querySelectorAll('[data-agent-ref]')]\
.filter(el => { let r = el.getBoundingClientRect(); return r.bottom > 0 && r.right > 0 && \
r.top < innerHeight && r.left < innerWidth && r.width > 0 && r.height > 0; })\
.map(el => el.getAttribute('data-agent-ref')))";

/// Keeps the nodes whose ref is in `keep`, and the ancestors of kept nodes; drops the rest.
/// Iterative post-order over owned nodes, so depth costs no stack.
pub(super) fn keep_refs(root: &mut TreeNode, keep: &HashSet<Ref>) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::render;
    use crate::RenderOptions;

    #[test]
    fn the_answers_html_is_found_by_its_key() {
        let json = r#"{"version":1,"tree":{"tag":"body","text":"say \"html\":1, \"emittedNodes\":9"},"stats":{"emittedNodes":3},"html":"<p data-n=0 class=\"x\">a</p>"}"#;
        let (html, emitted) = answer_html(json);
        assert_eq!(
            html,
            Some(Html::Text(r#"<p data-n=0 class="x">a</p>"#.into()))
        );
        assert_eq!(emitted, 3);
        let same = r#"{"version":1,"tree":{"tag":"body"},"stats":{"emittedNodes":1},"html":false}"#;
        assert_eq!(answer_html(same), (Some(Html::Same(false)), 1));
        assert_eq!(answer_html(r#"{"error":"exception"}"#), (None, 0));
    }

    #[test]
    fn a_written_page_serves_a_later_walk_only_while_it_fits() {
        let answer = |kids: &str, text: &str, visited: usize| {
            format!(
                r#"{{"version":1,"tree":{{"tag":"body","children":[{kids},{{"tag":"p","role":"paragraph","text":"{text}"}}]}},"stats":{{"domNodes":9,"visitedNodes":{visited},"emittedNodes":4,"jsTimeMs":{visited}.5}},"html":false}}"#
            )
        };
        let links = r#"{"tag":"a","role":"link","name":"A","ref":"e1"},{"tag":"a","role":"link","name":"B","ref":"e2"}"#;
        let html = r#"<a data-n=0 href=/a>A</a><a data-n=1 href=/b>B</a><p data-n=2>Words</p>"#;
        let page = Rendered::parse(html);
        let was = Walk::of(&answer(links, "Words", 100));
        // Another timing, a text changed, a few elements more walked: the marks hold; a read
        // needs the same tree.
        let now = Walk::of(&answer(links, "Other words", 104));
        assert!(was.holds(&now, &page, false));
        assert!(!was.holds(&now, &page, true));
        assert!(was.holds(&Walk::of(&answer(links, "Words", 100)), &page, true));
        // Past 1 in 20 elements shown or hidden.
        assert!(!was.holds(&Walk::of(&answer(links, "Words", 120)), &page, false));
        // The same number of nodes, but other elements in the places (the refs swapped, or a
        // link where a paragraph was): the places no longer hold.
        let swapped = links
            .replace("e1", "e9")
            .replace("e2", "e1")
            .replace("e9", "e2");
        assert!(!was.holds(&Walk::of(&answer(&swapped, "Words", 100)), &page, false));
        let p = r#"{"tag":"p","role":"paragraph","ref":"e1"},{"tag":"a","role":"link","name":"B","ref":"e2"}"#;
        assert!(!was.holds(&Walk::of(&answer(p, "Words", 100)), &page, false));
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
    fn the_ledger_keeps_a_ref_per_element_and_never_gives_a_number_again() {
        let mut ledger = Ledger::default();
        let page = ledger.doc("doc-a");
        let frame = ledger.doc("doc-f");
        let e = |r: Option<Ref>| r.map(Ref::number);
        // The page's marks 1 and 2, then the frame's 1: numbers in the order met.
        assert_eq!(e(ledger.give(page, 1, 1)), Some(1));
        assert_eq!(e(ledger.give(page, 2, 1)), Some(2));
        assert_eq!(e(ledger.give(frame, 1, 1)), Some(3));
        // A later look: the same elements, the same refs; a new element, the next number.
        assert_eq!(e(ledger.give(page, 2, 2)), Some(2));
        assert_eq!(e(ledger.give(page, 7, 2)), Some(4));
        assert_eq!(ledger.refs[1].seen, 2);
        assert_eq!(ledger.refs[0].seen, 1, "not shown by look 2");
        // The page navigates: the same token (a page back from the cache) is another visit.
        ledger.end(&[page, frame]);
        let again = ledger.doc("doc-a");
        assert_ne!(again, page);
        assert_eq!(e(ledger.give(again, 1, 3)), Some(5));
        assert!(!ledger.docs[page].alive && ledger.docs[again].alive);
        assert_eq!(ledger.issued(), 5);
    }
}
