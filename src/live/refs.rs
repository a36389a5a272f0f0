//! Looks and refs: the script's snapshot numbered session-wide, the look's token on the
//! document, and the checks that tell a live ref from a stale one.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::protocol::opt_str;
use super::session::{PageState, Session};
use super::{AgentError, Code, Result};
use crate::js::{self, JsSnapshotOptions};
use crate::render;
use crate::{NodeTree, Ref, TreeNode};

impl Session {
    /// Takes a snapshot with the script and gives its refs session-wide numbers: the page's
    /// `eN` becomes `e(issued + N)`, so no ref string of an older look comes back meaning
    /// another element. Stamps the document so that a navigation makes the refs stale.
    ///
    /// `scope` is a CSS selector (the script walks its first match, numbering from there) or
    /// a ref of the latest look (a folded stub's, say): then the script walks the whole page
    /// and the tree keeps that ref's subtree, so the refs are the whole page's. When the walk
    /// finds the same refs as the latest look ([`signature`]), the look gives no new numbers:
    /// the refs it shows, and every other ref of the latest look, stay valid.
    pub(super) async fn look_tree(
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
        // A ref scope in the tab's document is held by its mark across the walk; one in a
        // cross-origin frame is kept only when the page is unchanged (`in_frame`).
        let (json, held) = match scope_ref {
            Some(r) if self.resolve(&r.to_string())?.frame.is_some() => {
                self.check_token(&r.to_string()).await?;
                let json = self.script_eval(&js::snapshot_js(&options)).await?;
                (json, Some((r, None, true)))
            }
            Some(r) => {
                let (json, mark) = self.held_snapshot(r, &options).await?;
                (json, Some((r, mark, false)))
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
        let (docs, places) = self.merge_frames(&mut tree, &options).await?;
        let sig = signature(&tree.tree, interactive_only);
        // The same refs, and the scope's element marked as before: the latest look's numbers
        // still name the same elements.
        let keep = match &held {
            Some((r, Some(mark), false)) => {
                let was = self.resolve(&r.to_string())?;
                self.look_sig == Some(sig) && was.frame.is_none() && was.page == *mark
            }
            Some((_, _, true)) => self.look_sig == Some(sig),
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
        // With `keep` the places are the latest look's anyway: the same refs in the same order.
        self.frames.set_look(docs, places);
        if !keep {
            self.ref_base = base;
            self.issued = base + given;
            self.look_sig = options.scope.is_none().then_some(sig);
        }
        if let Some((r, mark, in_frame)) = held {
            let scope_node = if keep {
                Some(r)
            } else if in_frame {
                None
            } else {
                mark.and_then(|m| self.frames.position(&(None, m)))
                    .and_then(|k| Ref::new(k.checked_add(base)?))
            };
            if !scope_node.is_some_and(|n| keep_subtree(&mut tree, n)) {
                return Err(AgentError::new(
                    Code::StaleRef,
                    format!(
                        "{r} is no longer shown on the page (hidden, changed, or past the look's \
                         node limit); look without scope and use the new refs"
                    ),
                ));
            }
        }
        if viewport_only {
            // A frame's refs count only while its <iframe> does (a frame comes after the
            // document that holds it).
            let mut visible = HashSet::new();
            let docs = std::iter::once(None).chain((0..self.frames.docs.len()).map(Some));
            for doc in docs {
                if let Some(frame) = doc.and_then(|i| self.frames.docs.get(i)) {
                    let owner = self
                        .frames
                        .position(&frame.owner)
                        .and_then(|k| Ref::new(k + base));
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
                visible.extend(
                    marks.into_iter().filter_map(|m| {
                        Ref::new(self.frames.position(&(doc, m))?.checked_add(base)?)
                    }),
                );
            }
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
    pub(super) async fn held_snapshot(
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
    pub(super) fn resolve(&self, ref_: &str) -> Result<Target> {
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
        let k = n - self.ref_base;
        let (frame, page) = match self.frames.place(k) {
            Some((frame, mark)) => (*frame, mark.clone()),
            None => (None, format!("e{k}")),
        };
        Ok(Target {
            public: ref_.to_string(),
            page,
            frame,
        })
    }

    /// `STALE_REF` unless the tab's document still carries the latest look's token.
    pub(super) async fn check_token(&self, ref_: &str) -> Result<PageState> {
        let Some(token) = &self.look_token else {
            return Err(AgentError::stale(ref_));
        };
        match self.state().await {
            Some(state) if state.token.as_deref() == Some(token.as_str()) => Ok(state),
            _ => Err(AgentError::stale(ref_)),
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

/// A ref as the caller knows it (session-wide numbering) and as the page marks it: the mark
/// in its document, the tab's or (`frame`) a cross-origin frame's of the latest look.
#[derive(Debug, Default)]
pub(super) struct Target {
    pub(super) public: String,
    pub(super) page: String,
    pub(super) frame: Option<usize>,
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

/// What a look's refs were given to: each ref's number, tag, role and name in document
/// order, and whether content nodes needed a name for one. The script numbers the elements it
/// walks in order, so two walks with one signature marked alike elements alike (a changed
/// text outside any name leaves it as it was; an element added, removed or renamed does not).
pub(super) fn signature(root: &TreeNode, interactive_only: bool) -> u64 {
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
}
