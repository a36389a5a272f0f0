//! Stage 4: node tree → snapshot text, under hard budgets. Shared by the offline and live
//! paths.
//!
//! The budgets are checked before each line is written, so the output never exceeds
//! [`RenderOptions::max_chars_total`] (counted in `char`s, header included) and a budget hit
//! ends the output cleanly: the last line says how many items were left out, the header says
//! `truncated=true` and why. Rendering never changes ref numbers: they come from the tree.

mod format;

pub(crate) use format::{attr_value, quote, MAX_TITLE_CHARS, MAX_URL_CHARS};

use std::borrow::Cow;

use serde::Serialize;

use crate::text::truncate_with_ellipsis;
use crate::tree::{Attrs, NodeTree, Ref, TreeNode};
use crate::walk::DEFAULT_ATTRS;

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The indented `PLAIN_TEXT_TREE`, in the ARIA-snapshot style models know.
    #[default]
    Text,
    /// The same lines as JSON objects (`depth`, `role`, `name`, `ref`…), for programs.
    Json,
}

/// Budgets and switches for [`render`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Hard limit on `text.chars().count()`, header included.
    pub max_chars_total: usize,
    /// Most node lines written.
    pub max_nodes: usize,
    /// Deepest indentation level written (0 = top level).
    pub max_depth: usize,
    /// Longest label (name or text) per line, in characters.
    pub max_text_per_node: usize,
    /// Longest attribute value per line, in characters.
    pub max_attr_value_len: usize,
    /// Most children written under one parent; the rest fold into one `... (truncated, N more
    /// items)` line, so one long list cannot crowd out the rest of the page.
    pub max_siblings: usize,
    /// Attributes shown, in this order.
    pub include_attrs: Vec<String>,
    /// Drop structural branches that hold no ref.
    pub compact: bool,
    pub format: Format,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            max_chars_total: 12_000,
            max_nodes: 200,
            max_depth: 12,
            max_text_per_node: 200,
            max_attr_value_len: 200,
            max_siblings: 25,
            include_attrs: DEFAULT_ATTRS.iter().map(|s| s.to_string()).collect(),
            compact: true,
            format: Format::Text,
        }
    }
}

/// Which budget cut the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum TruncateReason {
    MaxCharsTotal,
    MaxNodes,
    MaxDepth,
    MaxSiblings,
}

impl TruncateReason {
    /// The option name, as in the header and in `truncateReasons`.
    pub fn as_str(self) -> &'static str {
        match self {
            TruncateReason::MaxCharsTotal => "maxCharsTotal",
            TruncateReason::MaxNodes => "maxNodes",
            TruncateReason::MaxDepth => "maxDepth",
            TruncateReason::MaxSiblings => "maxSiblings",
        }
    }
}

/// What the renderer wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RenderStats {
    pub nodes_emitted: usize,
    pub chars_emitted: usize,
    pub truncated: bool,
    pub truncate_reasons: Vec<TruncateReason>,
}

/// What the model may ask about a ref shown in the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct NodeRef {
    #[serde(rename = "ref")]
    pub ref_: String,
    pub tag: Cow<'static, str>,
    pub role: Option<Cow<'static, str>>,
    pub name: Option<String>,
    pub attrs: Attrs,
    pub text_snippet: Option<String>,
}

/// The refs shown in a snapshot, in document order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RefMap(Vec<NodeRef>);

impl RefMap {
    /// A map of these entries (refs in the order shown).
    pub(crate) fn from_entries(entries: Vec<NodeRef>) -> RefMap {
        RefMap(entries)
    }

    /// The entry for `ref_` (`"e7"`).
    pub fn get(&self, ref_: &str) -> Option<&NodeRef> {
        self.0.iter().find(|r| r.ref_ == ref_)
    }
    pub fn iter(&self) -> impl Iterator<Item = &NodeRef> {
        self.0.iter()
    }
    pub fn len(&self) -> usize {
        self.0.len()
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for RefMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for r in &self.0 {
            map.serialize_entry(&r.ref_, r)?;
        }
        map.end()
    }
}

/// A rendered snapshot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SnapshotResult {
    pub text: String,
    pub refs: RefMap,
    pub stats: RenderStats,
}

/// One node of the tree in pre-order, with what the budget loop needs to skip and fold.
///
/// Positions are `u32` (24 bytes an entry instead of 40: the list holds every node of the
/// tree, and on a dense page it is the render's largest allocation). A tree cannot have 2³²
/// nodes: the walk emits at most one per element of the input, and JSON from outside is
/// capped at [`crate::tree::MAX_JSON_BYTES`].
struct Flat<'a> {
    node: &'a TreeNode,
    /// Indentation level (children of the root are 0); the tree is at most
    /// [`crate::tree::MAX_TREE_DEPTH`] deep.
    depth: u32,
    parent: u32,
    /// Index just past this node's subtree.
    end: u32,
    /// This node or a descendant has a ref (a repeated ref too: its node still shows).
    has_ref: bool,
}

/// Which nodes carry a usable ref: the first use of each. A tree from outside (the
/// in-browser script, or anything posing as it) may repeat a ref; a repeat is shown as no ref
/// rather than one that resolves to another node. (Malformed refs never get this far: they
/// read as absent.)
fn valid_refs(flat: &[Flat<'_>]) -> Vec<bool> {
    // Refs the walk and the script number come in increasing order, and then none can repeat
    // an earlier one: a set of every ref (half a megabyte on a page with 8 000) is only built
    // for a tree whose refs go back.
    let mut valid = Vec::with_capacity(flat.len());
    let mut last = 0;
    let mut seen: Option<std::collections::HashSet<u32>> = None;
    for (i, f) in flat.iter().enumerate() {
        let Some(n) = f.node.ref_.map(Ref::number) else {
            valid.push(false);
            continue;
        };
        let fresh = match &mut seen {
            None if n > last => {
                last = n;
                true
            }
            None => {
                // The first step back: every earlier valid ref is earlier in the list.
                let mut set: std::collections::HashSet<u32> = flat[..i]
                    .iter()
                    .zip(&valid)
                    .filter(|(_, ok)| **ok)
                    .filter_map(|(f, _)| f.node.ref_.map(Ref::number))
                    .collect();
                let fresh = set.insert(n);
                seen = Some(set);
                fresh
            }
            Some(set) => set.insert(n),
        };
        valid.push(fresh);
    }
    valid
}

/// How many nodes the tree holds (the flat list is allocated once, at its size).
fn count(root: &TreeNode) -> usize {
    let mut n = 0;
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        n += 1;
        stack.extend(&node.children);
    }
    n
}

fn flatten(root: &TreeNode) -> Vec<Flat<'_>> {
    let mut flat: Vec<Flat<'_>> = Vec::with_capacity(count(root));
    // (node, tree depth, parent index); the root is entry 0 and is never written.
    let mut stack: Vec<(&TreeNode, u32, u32)> = vec![(root, 0, 0)];
    while let Some((node, depth, parent)) = stack.pop() {
        let index = position(flat.len());
        flat.push(Flat {
            node,
            depth: depth.saturating_sub(1),
            parent,
            end: 0,
            has_ref: node.ref_.is_some(),
        });
        stack.extend(
            node.children
                .iter()
                .rev()
                .map(|c| (c, depth.saturating_add(1), index)),
        );
    }
    // Subtree ends and ref presence, children before parents.
    let len = flat.len();
    for i in (0..len).rev() {
        if flat[i].end == 0 {
            flat[i].end = position(i + 1);
        }
        if i > 0 {
            let p = flat[i].parent as usize;
            let (end, has_ref) = (flat[i].end, flat[i].has_ref);
            flat[p].end = flat[p].end.max(end);
            flat[p].has_ref |= has_ref;
        }
    }
    flat
}

/// A position in the flat list as stored (see [`Flat`] for why it fits).
fn position(i: usize) -> u32 {
    u32::try_from(i).unwrap_or(u32::MAX)
}

/// Renders a node tree under the given budgets.
///
/// ```
/// use agent_snapshot::{Document, RenderOptions, TreeOptions};
///
/// let doc = Document::parse(
///     "<nav><a href='/'>Home</a></nav><button>Buy</button>",
///     &TreeOptions::default(),
/// );
/// let snap = agent_snapshot::render(doc.tree(), &RenderOptions::default());
/// assert!(snap.text.contains("- link \"Home\" [href=/] [ref=e1]"));
/// assert!(snap.text.chars().count() <= 12_000);
/// assert_eq!(snap.refs.get("e2").and_then(|r| r.name.as_deref()), Some("Buy"));
/// ```
pub fn render(tree: &NodeTree, opts: &RenderOptions) -> SnapshotResult {
    let flat = flatten(&tree.tree);
    let refs_ok = valid_refs(&flat);
    let mut out = format::Writer::new(tree, opts);
    if tree.stats.truncated {
        out.reason(TruncateReason::MaxNodes);
    }
    let mut refs = Vec::new();
    let mut shown_children = vec![0u32; flat.len()];
    let mut i = 1;
    while i < flat.len() {
        let e = &flat[i];
        let (depth, parent, end) = (e.depth as usize, e.parent as usize, e.end as usize);
        let visible = !opts.compact || e.has_ref;
        if !visible {
            i = end;
            continue;
        }
        if depth > opts.max_depth {
            out.reason(TruncateReason::MaxDepth);
            i = end;
            continue;
        }
        if shown_children[parent] as usize >= opts.max_siblings {
            let more = visible_siblings_from(&flat, i, opts.compact);
            out.reason(TruncateReason::MaxSiblings);
            if !out.fold(depth, more) {
                break;
            }
            i = flat[parent].end as usize;
            continue;
        }
        if out.nodes() >= opts.max_nodes {
            out.reason(TruncateReason::MaxNodes);
            out.fold(depth, visible_siblings_from(&flat, i, opts.compact));
            break;
        }
        let has_visible_child = depth < opts.max_depth && has_visible_child(&flat, i, opts.compact);
        if !out.node(e.node, depth, has_visible_child, refs_ok[i]) {
            out.reason(TruncateReason::MaxCharsTotal);
            out.fold(depth, visible_siblings_from(&flat, i, opts.compact));
            break;
        }
        shown_children[parent] = shown_children[parent].saturating_add(1);
        if let (Some(r), true) = (e.node.ref_, refs_ok[i]) {
            refs.push(node_ref(r, e.node, opts));
        }
        i += 1;
    }
    let (text, stats) = out.finish();
    SnapshotResult {
        text,
        refs: RefMap(refs),
        stats,
    }
}

/// Whether any child of `flat[i]` would be shown.
fn has_visible_child(flat: &[Flat<'_>], i: usize, compact: bool) -> bool {
    let mut j = i + 1;
    while j < flat[i].end as usize {
        if !compact || flat[j].has_ref {
            return true;
        }
        j = flat[j].end as usize;
    }
    false
}

/// How many siblings from `i` on (inclusive) would have been shown.
fn visible_siblings_from(flat: &[Flat<'_>], mut i: usize, compact: bool) -> usize {
    let parent_end = flat[flat[i].parent as usize].end as usize;
    let mut n = 0;
    while i < parent_end {
        if !compact || flat[i].has_ref {
            n += 1;
        }
        i = flat[i].end as usize;
    }
    n
}

pub(crate) fn node_ref(r: Ref, node: &TreeNode, opts: &RenderOptions) -> NodeRef {
    let cut = |s: &str| truncate_with_ellipsis(s, opts.max_text_per_node).into_owned();
    NodeRef {
        ref_: r.to_string(),
        tag: node.tag.clone(),
        role: node.role.clone(),
        name: node.name.as_deref().map(cut),
        attrs: node
            .attrs
            .iter()
            .filter(|(k, _)| opts.include_attrs.iter().any(|a| a == k))
            .map(|(k, v)| {
                (
                    k.to_string(),
                    truncate_with_ellipsis(v, opts.max_attr_value_len).into_owned(),
                )
            })
            .collect(),
        text_snippet: node.text.as_deref().map(cut),
    }
}

#[cfg(test)]
mod tests;
