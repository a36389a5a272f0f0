//! Stage 5: node tree → snapshot text, under hard budgets. Shared by the offline and live
//! paths.
//!
//! What goes in is decided by priority, not position (`plan`): dialogs, search and forms
//! with a key field first, then the main content (its paragraphs whole), then other
//! controls, complementary regions, and last the page's navigation, banner and footer. The
//! output keeps document order; whatever did not fit folds into one stub line per run of
//! siblings that says what it holds and how to get it (`scope` its ref). The output never
//! exceeds [`RenderOptions::max_chars_total`] (counted in `char`s, header included); the
//! header says `truncated=true` and why. Rendering never changes ref numbers: they come from
//! the tree.

mod choice;
mod format;
mod lean;
mod plan;

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Serialize;

use crate::text::truncate_with_ellipsis;
use crate::tree::{Attrs, NodeTree, Ref, TreeNode};
use crate::walk::DEFAULT_ATTRS;
use choice::choose;
// The header's title, written the same way by `read`.
pub(crate) use format::MAX_TITLE_CHARS;
pub(crate) use plan::is_key_field;

/// Output format.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// The indented `PLAIN_TEXT_TREE`, in the ARIA-snapshot style models know: one line per
    /// element, paragraph, list item or cell, text with its links inline
    /// (`- paragraph: The [2025 budget](e23) passed.`).
    #[default]
    Text,
    /// The same lines as JSON objects (`depth`, `role`, `name`, `ref`, `text`…), for programs.
    Json,
    /// One line per interactive element with a ref, no indentation, no attributes
    /// (`- link "Home" [ref=e1]`): the flat element list of agent loops, at the lowest cost
    /// per element.
    List,
}

impl Format {
    /// Reads `text`, `json` or `list`.
    pub fn parse(s: &str) -> Option<Format> {
        match s {
            "text" => Some(Format::Text),
            "json" => Some(Format::Json),
            "list" => Some(Format::List),
            _ => None,
        }
    }
}

/// Budgets and switches for [`render`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    /// Hard limit on `text.chars().count()`, header included.
    pub max_chars_total: usize,
    /// Most node lines written (a safety net: the character budget decides first).
    pub max_nodes: usize,
    /// Deepest indentation level written (0 = top level).
    pub max_depth: usize,
    /// Longest name per line, and longest text per line outside the main content, in
    /// characters (main-content text is cut by the total budget only).
    pub max_text_per_node: usize,
    /// Longest attribute value per line, in characters.
    pub max_attr_value_len: usize,
    /// Most children written under one parent outside the main content; the rest fold into
    /// one stub line, so one long list cannot crowd out the rest of the page.
    pub max_siblings: usize,
    /// Attributes shown, in this order.
    pub include_attrs: Vec<String>,
    /// Drop structural branches that hold neither a ref nor text.
    pub compact: bool,
    pub format: Format,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            max_chars_total: 12_000,
            max_nodes: 400,
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
    /// The ref of the page's main content, when it has one (the header's `main=`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub main: Option<String>,
}

/// One node of the tree in pre-order, with what the budget loop needs to skip and fold.
///
/// Positions are `u32` (24 bytes an entry instead of 40: the list holds every node of the
/// tree, and on a dense page it is the render's largest allocation). A tree cannot have 2³²
/// nodes: the walk emits at most one per element of the input, and JSON from outside is
/// capped at [`crate::tree::MAX_JSON_BYTES`].
struct Flat<'a> {
    pub node: &'a TreeNode,
    pub parent: u32,
    /// Index just past this node's subtree.
    pub end: u32,
    /// This node or a descendant has a ref (a repeated ref too: its node still shows).
    pub has_ref: bool,
    /// This node or a descendant has text (a name on a leaf counts).
    pub has_text: bool,
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

/// The flat list, and where each unnamed form's content lies in it.
struct Flattened<'a> {
    flat: Vec<Flat<'a>>,
    /// `[start, end)` in `flat` of each unnamed `<form>`'s content, in document order.
    forms: Vec<(u32, u32)>,
}

/// The tree in pre-order. An unnamed form (a node without role, see [`TreeNode::is_form_wrapper`](crate::tree::TreeNode::is_form_wrapper))
/// gets no entry: its children take its place among its siblings, so every other stage
/// sees the tree as it would be without it, and its span is kept in `forms` instead.
fn flatten(root: &TreeNode) -> Flattened<'_> {
    enum Item<'a> {
        Node(&'a TreeNode, u32),
        /// The end of the form whose span is `forms[k]`.
        FormEnd(usize),
    }
    let mut flat: Vec<Flat<'_>> = Vec::with_capacity(count(root));
    let mut forms: Vec<(u32, u32)> = Vec::new();
    // (node, parent index); the root is entry 0 and is never written.
    let mut stack: Vec<Item<'_>> = vec![Item::Node(root, 0)];
    while let Some(item) = stack.pop() {
        let (node, parent) = match item {
            Item::Node(node, parent) => (node, parent),
            Item::FormEnd(k) => {
                forms[k].1 = position(flat.len());
                continue;
            }
        };
        if !flat.is_empty() && node.is_form_wrapper() && node.text.is_none() {
            forms.push((position(flat.len()), 0));
            stack.push(Item::FormEnd(forms.len() - 1));
            stack.extend(node.children.iter().rev().map(|c| Item::Node(c, parent)));
            continue;
        }
        let index = position(flat.len());
        flat.push(Flat {
            node,
            parent,
            end: 0,
            has_ref: node.ref_.is_some(),
            has_text: node.text.as_deref().is_some_and(|t| !t.is_empty())
                || (node.children.is_empty()
                    && node.name.as_deref().is_some_and(|n| !n.is_empty())),
        });
        stack.extend(node.children.iter().rev().map(|c| Item::Node(c, index)));
    }
    forms.retain(|&(start, end)| end > start);
    // Subtree ends and ref presence, children before parents.
    let len = flat.len();
    for i in (0..len).rev() {
        if flat[i].end == 0 {
            flat[i].end = position(i + 1);
        }
        if i > 0 {
            let p = flat[i].parent as usize;
            let (end, has_ref, has_text) = (flat[i].end, flat[i].has_ref, flat[i].has_text);
            flat[p].end = flat[p].end.max(end);
            flat[p].has_ref |= has_ref;
            flat[p].has_text |= has_text;
        }
    }
    Flattened { flat, forms }
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
///     "<nav><a href='/'>Home</a></nav><main><p>Gold is <a href=/g>up</a> today.</p></main>",
///     &TreeOptions::default(),
/// );
/// let snap = agent_snapshot::render(doc.tree(), &RenderOptions::default());
/// assert!(snap.text.contains("- paragraph: Gold is [up](e4) today."), "{}", snap.text);
/// assert!(snap.text.chars().count() <= 12_000);
/// assert_eq!(snap.refs.get("e4").and_then(|r| r.name.as_deref()), Some("up"));
/// ```
pub fn render(tree: &NodeTree, opts: &RenderOptions) -> SnapshotResult {
    render_root(tree, &tree.tree, opts)
}

/// Why a scoped render could not be made.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScopeError {
    #[error("no element has ref {0}: take a new snapshot and scope one of its refs")]
    RefNotFound(String),
    #[error("`{0}` is neither a ref (e12) nor a CSS selector this page has a match for")]
    NoMatch(String),
    #[error("`{selector}` is not a valid CSS selector: {message}")]
    BadSelector { selector: String, message: String },
}

/// The ref a scope names, when it is one: `e12` (or `@e12`, as models copy it); `None` for
/// anything else, which is read as a CSS selector. (No HTML element is named `e` and a
/// number: custom element names need a hyphen.)
///
/// ```
/// use agent_snapshot::render::scope_ref;
///
/// assert_eq!(scope_ref(" @e12 ").map(|r| r.number()), Some(12));
/// assert!(scope_ref("#main").is_none() && scope_ref("e0").is_none());
/// ```
pub fn scope_ref(scope: &str) -> Option<Ref> {
    let scope = scope.trim();
    Ref::parse(scope.strip_prefix('@').unwrap_or(scope))
}

/// Renders the subtree of the node with ref `scope`: its own line first, then its content,
/// under the same budgets. A folded stub's ref is a scope.
///
/// ```
/// use agent_snapshot::{render::render_scope, Document, Ref, RenderOptions, TreeOptions};
///
/// let doc = Document::parse("<nav><a href=/a>A</a><a href=/b>B</a></nav><p>Body</p>", &TreeOptions::default());
/// let nav = Ref::parse("e1").expect("ref");
/// let snap = render_scope(doc.tree(), nav, &RenderOptions::default()).expect("in the tree");
/// assert!(snap.text.contains("[A](e2)") && !snap.text.contains("Body"), "{}", snap.text);
/// ```
pub fn render_scope(
    tree: &NodeTree,
    scope: Ref,
    opts: &RenderOptions,
) -> Result<SnapshotResult, ScopeError> {
    let mut stack = vec![&tree.tree];
    while let Some(node) = stack.pop() {
        if node.ref_ == Some(scope) {
            // The scope's node is the only child of a stand-in root, so its own line shows.
            let root = TreeNode {
                tag: tree.tree.tag.clone(),
                children: vec![node.clone()],
                ..Default::default()
            };
            return Ok(render_root(tree, &root, opts));
        }
        stack.extend(node.children.iter().rev());
    }
    Err(ScopeError::RefNotFound(scope.to_string()))
}

fn render_root(tree: &NodeTree, root: &TreeNode, opts: &RenderOptions) -> SnapshotResult {
    // The root is never a line; a page that is only text keeps it as a run.
    let text_root;
    let root = match &root.text {
        Some(t) if root.children.is_empty() => {
            text_root = TreeNode {
                tag: root.tag.clone(),
                children: vec![TreeNode::text_run(t.to_string())],
                ..Default::default()
            };
            &text_root
        }
        _ => root,
    };
    let Flattened { flat, forms } = flatten(root);
    let refs_ok = valid_refs(&flat);
    let origin = tree.url.as_deref().and_then(lean::origin_of);
    let cx = format::Ctx {
        flat: &flat,
        refs_ok: &refs_ok,
        opts,
        origin,
    };
    let mut plan = plan::Plan::new(&flat, &forms, &refs_ok, opts);
    let main = Some(plan.main)
        .filter(|&m| m != 0)
        .and_then(|m| flat[m].node.ref_.filter(|_| refs_ok[m]));
    let mut out = format::Writer::new(tree, opts, main);
    if tree.stats.truncated {
        out.reason(TruncateReason::MaxNodes);
    }
    let shown = if opts.format == Format::List {
        emit_list(&cx, &plan, &mut out)
    } else {
        choose_and_emit(&cx, &mut plan, &mut out)
    };
    let refs = shown
        .into_iter()
        .filter_map(|i| flat[i].node.ref_.map(|r| node_ref(r, flat[i].node, opts)))
        .collect();
    let (text, stats) = out.finish();
    SnapshotResult {
        text,
        refs: RefMap(refs),
        stats,
        main: main.map(|r| r.to_string()),
    }
}

/// Room kept for the line that says the output was cut, should the estimates be off.
const END_RESERVE: usize = 40;

/// [`choose`] with stub lines costed at their usual length, checked by writing the result
/// to a scratch writer without a limit, then [`emit`]: the scratch is the output when it
/// fits. Returns the flat indices of the refs shown. A stub's text is known only once the
/// choice is made; costed at its longest every time, a cut snapshot left some 400
/// characters of its budget unused. When the stubs come out longer than that and the lines
/// would not all fit, the choice is made again within the budget less what overflowed, and
/// then, should that overflow too, with every stub at its longest. web2025: a third of the
/// snapshots overflow at the first try (by 14 characters at the median), 28 of 534 take the
/// third; cut snapshots use 11 824 characters of 12 000 on average, where they used 11 583.
fn choose_and_emit(
    cx: &format::Ctx<'_>,
    plan: &mut plan::Plan,
    out: &mut format::Writer<'_>,
) -> Vec<usize> {
    let budget = out.budget();
    let before = plan.clone();
    let mut within = budget;
    for _ in 0..2 {
        let mut lines = choose(cx, plan, within, plan::StubCost::Usual);
        // Written without a limit, the lines say both whether they fit and by how much not.
        let mut whole = out.unlimited();
        let shown = emit(cx, plan, &mut lines, &mut whole);
        if whole.fits_within(budget) {
            *out = whole.within(budget);
            return shown;
        }
        let over = whole.body_chars().saturating_sub(budget);
        *plan = before.clone();
        // (Stubs far longer than usual, a tenth of the budget over: their longest is nearer.)
        if over > budget / 10 {
            break;
        }
        within = within.saturating_sub(over + END_RESERVE);
    }
    *plan = before;
    let mut lines = choose(cx, plan, budget, plan::StubCost::Longest);
    emit(cx, plan, &mut lines, out)
}

/// Writes the chosen lines in document order, with a stub line for each run of siblings
/// that was not chosen, after the reasons the choice noted. Returns the flat indices of the
/// refs shown, in order.
fn emit(
    cx: &format::Ctx<'_>,
    plan: &plan::Plan,
    formatted: &mut HashMap<usize, format::Line>,
    out: &mut format::Writer<'_>,
) -> Vec<usize> {
    for r in plan.reasons.iter().copied() {
        out.reason(r);
    }
    let flat = cx.flat;
    let mut shown = Vec::new();
    let mut members = Vec::new();
    let mut i = 1;
    while i < flat.len() {
        let kind = plan.kind[i];
        if kind == plan::Kind::None {
            i = flat[i].end as usize;
            continue;
        }
        if plan.shown[i] {
            match kind {
                plan::Kind::Transparent => {
                    i += 1;
                    continue;
                }
                plan::Kind::Container => {
                    let line = format::node_line(cx, plan, i, true, None);
                    if !out.node(&line.text) {
                        break;
                    }
                    shown.extend(line.refs);
                    i += 1;
                }
                _ => {
                    let line = formatted.remove(&i).unwrap_or_else(|| {
                        format::node_line(cx, plan, i, false, plan.cut.get(&i).copied())
                    });
                    if !out.node(&line.text) {
                        break;
                    }
                    shown.extend(line.refs);
                    i = flat[i].end as usize;
                }
            }
            continue;
        }
        // A run of siblings not chosen: one stub line.
        let j = hidden_run(flat, plan, i, &mut members);
        let line = format::stub_line(cx, plan, &members, plan.depth[i] as usize);
        if !out.stub(&line.text) {
            break;
        }
        shown.extend(line.refs);
        i = j;
    }
    shown
}

/// The run of siblings not chosen that starts at `flat[i]`, which `emit` writes as one stub
/// line: its members (the nodes that make a line) go to `members`. Returns where it ends.
fn hidden_run(flat: &[Flat<'_>], plan: &plan::Plan, i: usize, members: &mut Vec<usize>) -> usize {
    let parent_end = flat[flat[i].parent as usize].end as usize;
    members.clear();
    let mut j = i;
    while j < parent_end {
        if plan.kind[j] != plan::Kind::None {
            if plan.shown[j] {
                break;
            }
            members.push(j);
        }
        j = flat[j].end as usize;
    }
    j
}

/// `--format list`: one line per interactive element, chosen by the same priorities, in
/// document order, and one last line for what did not fit.
fn emit_list(cx: &format::Ctx<'_>, plan: &plan::Plan, out: &mut format::Writer<'_>) -> Vec<usize> {
    let flat = cx.flat;
    let opts = cx.opts;
    let listed = |i: usize| {
        let node = flat[i].node;
        cx.refs_ok[i]
            && (node.cursor_interactive
                || node.role.as_deref().is_some_and(|r| {
                    crate::aria::roles::category(r) == crate::aria::roles::Category::Interactive
                }))
    };
    let mut take = vec![false; flat.len()];
    let fold_reserve = 1 + format::list_fold_line(opts.format, usize::MAX, u32::MAX, u32::MAX)
        .chars()
        .count();
    let mut remaining = out.budget().saturating_sub(fold_reserve + END_RESERVE);
    let mut count = 0usize;
    for class in [
        plan::P_KEY,
        plan::P_MAIN,
        plan::P_REST,
        plan::P_ASIDE,
        plan::P_CHROME,
    ] {
        for (i, taken) in take.iter_mut().enumerate().skip(1) {
            if plan.prio[i] != class || !listed(i) || count >= opts.max_nodes {
                continue;
            }
            let cost = out.cost(&format::list_line(cx, i));
            if cost <= remaining {
                remaining -= cost;
                *taken = true;
                count += 1;
            }
        }
    }
    let mut shown = Vec::new();
    let (mut more, mut links, mut controls) = (0usize, 0u32, 0u32);
    for i in 1..flat.len() {
        if !listed(i) {
            continue;
        }
        if take[i] && out.node(&format::list_line(cx, i)) {
            shown.push(i);
        } else {
            more += 1;
            match flat[i].node.role.as_deref() {
                Some("link") => links += 1,
                _ if format::counts_as_control(flat[i].node) => controls += 1,
                _ => {}
            }
        }
    }
    if more > 0 {
        out.reason(if count >= opts.max_nodes {
            TruncateReason::MaxNodes
        } else {
            TruncateReason::MaxCharsTotal
        });
        out.stub(&format::list_fold_line(opts.format, more, links, controls));
    }
    shown
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
