//! Stage 4: node tree → snapshot text, under hard budgets. Shared by the offline and live
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

mod format;
mod lean;
mod plan;

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Serialize;

use crate::text::truncate_with_ellipsis;
use crate::tree::{Attrs, NodeTree, Ref, TreeNode};
use crate::walk::DEFAULT_ATTRS;
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

/// The share of the budget (in percent) after which no further key form starts (`choose`).
const KEY_SHARE_PERCENT: isize = 40;

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

/// Pass 3 of the plan: priority classes in turn, each in document order (the main
/// content's headings before its text), take a line when it fits with the lines of its
/// ancestors not yet shown and the stub lines the change leaves to write.
/// Returns the lines it formatted to cost them, by flat index, for `emit` to write as they
/// are: a big page's main content is formatted once, not twice.
fn choose(
    cx: &format::Ctx<'_>,
    plan: &mut plan::Plan,
    budget: usize,
    stub_cost: plan::StubCost,
) -> HashMap<usize, format::Line> {
    let flat = cx.flat;
    let opts = cx.opts;
    let n = flat.len();
    let content = |plan: &plan::Plan, i: usize| plan.kind[i] != plan::Kind::None;
    // Content siblings before and after each node (u32::MAX: none).
    let mut prev_c = vec![u32::MAX; n];
    let mut next_c = vec![u32::MAX; n];
    for p in 0..n {
        if !matches!(
            plan.kind[p],
            plan::Kind::Container | plan::Kind::Transparent
        ) {
            continue;
        }
        let mut last = u32::MAX;
        let mut j = p + 1;
        while j < flat[p].end as usize {
            if content(plan, j) {
                prev_c[j] = last;
                if last != u32::MAX {
                    next_c[last as usize] = j as u32;
                }
                last = j as u32;
            }
            j = flat[j].end as usize;
        }
    }
    let mut container_cost = vec![0u32; n];
    let has_cc: Vec<bool> = (0..n)
        .map(|i| {
            let mut j = i + 1;
            while j < flat[i].end as usize {
                if content(plan, j) {
                    return true;
                }
                j = flat[j].end as usize;
            }
            false
        })
        .collect();
    let has_content_child = |_: &plan::Plan, i: usize| has_cc[i];
    let mut remaining = budget.saturating_sub(END_RESERVE) as isize;
    let mut runs: isize = isize::from(has_content_child(plan, 0));
    remaining -= runs * plan::stub_estimate(opts.format, 0, stub_cost) as isize;
    let mut lines = 0usize;
    let mut shown_children = vec![0u32; n];
    let mut main_text_done = false;
    let mut reasons: Vec<TruncateReason> = Vec::new();
    let mut note = |r: TruncateReason| {
        if !reasons.contains(&r) {
            reasons.push(r);
        }
    };
    // (class, headings only)
    // The main content's prose (headings, and paragraphs and text of some length with few
    // links) first, then the rest of it: an infobox or a gallery must not crowd out the
    // article around it.
    let passes = [
        (plan::P_KEY, Stage::All),
        (plan::P_MAIN, Stage::Prose),
        (plan::P_MAIN, Stage::CardProse),
        (plan::P_MAIN, Stage::Rest),
        (plan::P_REST, Stage::All),
        (plan::P_ASIDE, Stage::All),
        (plan::P_CHROME, Stage::All),
    ];
    // Main text leaves room to the rest of the page, when there is a rest: a long article
    // must not hide every control. The room is what the other controls of the main content
    // and of the rest of the page take (at a lower bound per line, plus a ref and an
    // attribute), never over a tenth. Controls of complementary regions and of the chrome
    // rank below the main content and hold nothing back: a news page's menu toggles and
    // footer buttons took the tenth, and the chrome comes last anyway. Nothing is held back
    // for stub lines either: every line shown pays for the stubs it opens or splits. (A flat
    // tenth, then a fortieth on top of the controls, went to chart labels, bylines and
    // comment headers.)
    let rest_pending = (1..n).any(|i| {
        plan.kind[i] == plan::Kind::Line
            && !plan.prose[i]
            && flat[i].node.role.as_deref() != Some("heading")
    });
    let main_reserve = if rest_pending {
        let controls: isize = (1..n)
            .filter(|&i| {
                plan.kind[i] == plan::Kind::Line
                    && matches!(plan.prio[i], plan::P_MAIN | plan::P_REST)
                    && plan::is_control(plan::role_of(flat[i].node))
            })
            .map(|i| line_lower_bound(opts, plan, flat[i].node, i) + 24)
            .sum();
        controls.min(budget as isize / 10)
    } else {
        0
    };
    // Key forms come first and whole, but not all of them before everything else: a page
    // with a sign-in, a registration and three download pop-ups (each with an e-mail field
    // and a country list) spent the whole budget on forms and folded its article. A key
    // form is started while the key class has spent under `KEY_SHARE` of the budget; one
    // left over ranks with the rest of the page.
    let key_share = (budget as isize) * KEY_SHARE_PERCENT / 100;
    let mut key_spent = 0isize;
    // Per key form (its first member): whether it started in the key class. Decided at its
    // first line, which comes first in document order.
    let mut form_started: HashMap<usize, bool> = HashMap::new();
    let mut chain: Vec<usize> = Vec::new();
    let mut formatted = HashMap::new();
    let mut whole = false;
    // The passes, then the unfolding of the stubs that would not say less than they hide
    // (`unfold_short_runs`); then both again, to spend what the unfolding gave back.
    let round = passes.iter().copied().map(Some).chain([None]);
    for step in round.clone().chain(round) {
        let Some((class, stage)) = step else {
            let before = remaining;
            let left_hidden = unfold_short_runs(
                cx,
                plan,
                stub_cost,
                &mut formatted,
                &mut remaining,
                &mut lines,
                &mut shown_children,
            );
            whole = !left_hidden && plan.cut.is_empty();
            if whole || remaining <= before {
                break;
            }
            continue;
        };
        for i in 1..n {
            if plan.kind[i] != plan::Kind::Line || plan.shown[i] || plan.prio[i] != class {
                continue;
            }
            if class == plan::P_KEY {
                if let Some(&form) = plan.form_of.get(&i) {
                    let started = *form_started.entry(form).or_insert(key_spent < key_share);
                    if !started {
                        plan.prio[i] = plan::P_REST;
                        continue;
                    }
                }
            }
            let is_heading = flat[i].node.role.as_deref() == Some("heading");
            let wanted = match stage {
                Stage::All => true,
                Stage::Prose => (is_heading || plan.prose[i]) && !plan.in_card[i],
                Stage::CardProse => (is_heading || plan.prose[i]) && plan.in_card[i],
                Stage::Rest => !is_heading && !plan.prose[i],
            };
            if !wanted {
                continue;
            }
            let main_text = class == plan::P_MAIN && !is_heading;
            if main_text && plan.prose[i] && main_text_done {
                note(TruncateReason::MaxCharsTotal);
                continue;
            }
            if remaining <= 8 {
                note(TruncateReason::MaxCharsTotal);
                continue;
            }
            if plan.depth[i] as usize > opts.max_depth {
                note(TruncateReason::MaxDepth);
                continue;
            }
            // Ancestors that are not shown yet, nearest first.
            chain.clear();
            let mut a = flat[i].parent as usize;
            while !plan.shown[a] {
                chain.push(a);
                a = flat[a].parent as usize;
            }
            let new_lines = 1 + chain
                .iter()
                .filter(|&&c| plan.kind[c] != plan::Kind::Transparent)
                .count();
            if lines + new_lines > opts.max_nodes {
                note(TruncateReason::MaxNodes);
                continue;
            }
            let crowded = std::iter::once(i).chain(chain.iter().copied()).any(|x| {
                let p = flat[x].parent as usize;
                plan.shown[p]
                    && sibling_capped(plan, p, x)
                    && class != plan::P_KEY
                    && shown_children[p] as usize >= opts.max_siblings
            });
            if crowded {
                note(TruncateReason::MaxSiblings);
                continue;
            }
            // Stub runs after the change: each node shown splits or ends the run of hidden
            // siblings it was in, and a container shown opens a run of its children.
            let mut delta_runs = 0isize;
            for &x in chain.iter().rev().chain(std::iter::once(&i)) {
                let hidden = |s: u32| s != u32::MAX && !plan.shown[s as usize];
                let parent_known = plan.shown[flat[x].parent as usize]
                    || chain.contains(&(flat[x].parent as usize));
                if parent_known {
                    delta_runs += match (hidden(prev_c[x]), hidden(next_c[x])) {
                        (true, true) => 1,
                        (false, false) => -1,
                        _ => 0,
                    };
                }
                if x != i && has_content_child(plan, x) {
                    delta_runs += 1;
                }
            }
            let stub_cost = plan::stub_estimate(opts.format, plan.depth[i], stub_cost) as isize;
            let mut ancestors_cost = 0isize;
            for &c in &chain {
                if plan.kind[c] != plan::Kind::Transparent {
                    // A container's line is costed once, however many of its descendants
                    // are tried while it is still hidden.
                    if container_cost[c] == 0 {
                        let line = format::node_line(cx, plan, c, true, None);
                        container_cost[c] = (line.text.chars().count() + 1) as u32;
                    }
                    ancestors_cost += container_cost[c] as isize;
                }
            }
            let fixed = ancestors_cost + delta_runs * stub_cost;
            let avail = if main_text && plan.prose[i] {
                remaining - main_reserve
            } else {
                remaining
            };
            // Once the budget is nearly spent, most lines of a big page cannot fit: a lower
            // bound on the line's length rejects them without formatting it. (Main text is
            // cut to fit when 60 characters are left, so only below that.)
            let may_cut = main_text && avail - fixed > 60;
            if !may_cut && fixed + line_lower_bound(opts, plan, flat[i].node, i) > avail {
                note(TruncateReason::MaxCharsTotal);
                continue;
            }
            let line = format::node_line(cx, plan, i, false, None);
            let cost = (line.text.chars().count() + 1) as isize;
            let mut cut = None;
            if fixed + cost > avail {
                // Main text at the end of its share is cut on a word boundary, not dropped.
                let room = avail - fixed - 1;
                if main_text && room >= 60 {
                    let head_len =
                        line.text.chars().count() as isize - text_part_len(&line.text) as isize;
                    let text_room = room - head_len;
                    if text_room >= 30 {
                        cut = Some(text_room as usize);
                        main_text_done = true;
                    }
                }
                if cut.is_none() {
                    note(TruncateReason::MaxCharsTotal);
                    continue;
                }
                note(TruncateReason::MaxCharsTotal);
            }
            let (line, spent) = match cut {
                Some(c) => {
                    let line = format::node_line(cx, plan, i, false, Some(c));
                    let spent = (line.text.chars().count() + 1) as isize;
                    (line, spent)
                }
                None => (line, cost),
            };
            formatted.insert(i, line);
            for &x in chain.iter().rev().chain(std::iter::once(&i)) {
                plan.shown[x] = true;
                // Prose is not capped, and does not count toward the cap of the rest.
                if !plan.prose[x] {
                    shown_children[flat[x].parent as usize] += 1;
                }
            }
            if let Some(c) = cut {
                plan.cut.insert(i, c);
            }
            lines += new_lines;
            runs += delta_runs;
            remaining -= fixed + spent;
            if class == plan::P_KEY {
                key_spent += fixed + spent;
            }
        }
    }
    let _ = runs;
    // Nothing is left out when every stub unfolded: the output is whole.
    plan.reasons = if whole { Vec::new() } else { reasons };
    formatted
}

/// Whether the cap on siblings shown (`max_siblings`) counts `flat[x]` among the children
/// of `flat[p]`. The page itself is no list: its children are never capped, and neither is
/// the main content, in it or among the parent's other children (a carousel of 25 teasers
/// beside the article's paragraphs must not cap them), nor prose.
fn sibling_capped(plan: &plan::Plan, p: usize, x: usize) -> bool {
    p != 0 && !((plan.in_main[p] || plan.in_main[x]) && plan.has_main) && !plan.prose[x]
}

/// After a round of the choice: a run of hidden lines that takes no more characters than
/// its stub would, with what is left of the budget, is shown instead. `- paragraph
/// (folded: 1 text)` hid "Snacks:" in more characters than it takes to say it, and told
/// the model only that something was there. The caps on lines, depth and siblings hold as
/// in [`choose`]. `remaining` gets back the stubs as the choice costed them, less the lines
/// shown for them. Returns whether any run is left hidden.
fn unfold_short_runs(
    cx: &format::Ctx<'_>,
    plan: &mut plan::Plan,
    stub_cost: plan::StubCost,
    formatted: &mut HashMap<usize, format::Line>,
    remaining: &mut isize,
    lines: &mut usize,
    shown_children: &mut [u32],
) -> bool {
    let flat = cx.flat;
    let opts = cx.opts;
    let n = flat.len();
    let mut left_hidden = false;
    let mut members = Vec::new();
    let mut i = 1;
    while i < n {
        let kind = plan.kind[i];
        if kind == plan::Kind::None {
            i = flat[i].end as usize;
            continue;
        }
        if plan.shown[i] {
            i = match kind {
                plan::Kind::Transparent | plan::Kind::Container => i + 1,
                _ => flat[i].end as usize,
            };
            continue;
        }
        let p = flat[i].parent as usize;
        let j = hidden_run(flat, plan, i, &mut members);
        let crowded = |x: usize| {
            sibling_capped(plan, p, x)
                && plan.prio[x] != plan::P_KEY
                && shown_children[p] as usize + members.len() > opts.max_siblings
        };
        let eligible = *lines + members.len() <= opts.max_nodes
            && members.iter().all(|&m| {
                plan.kind[m] == plan::Kind::Line
                    && plan.depth[m] as usize <= opts.max_depth
                    && !crowded(m)
            });
        let mut unfolded = false;
        if eligible {
            let stub = format::stub_line(cx, plan, &members, plan.depth[i] as usize);
            // The stub's room, and what is left of the budget.
            let limit = stub.text.chars().count() + 1 + (*remaining).max(0) as usize;
            let mut cost = 0;
            let mut shown = Vec::with_capacity(members.len());
            for &m in &members {
                let line = format::node_line(cx, plan, m, false, None);
                cost += line.text.chars().count() + 1;
                if cost > limit {
                    break;
                }
                shown.push((m, line));
            }
            if cost <= limit {
                for (m, line) in shown {
                    plan.shown[m] = true;
                    formatted.insert(m, line);
                    if !plan.prose[m] {
                        shown_children[p] += 1;
                    }
                }
                *lines += members.len();
                // The choice costed the run's stub at its estimate.
                let estimate = plan::stub_estimate(opts.format, plan.depth[i], stub_cost);
                *remaining += estimate as isize - cost as isize;
                unfolded = true;
            }
        }
        left_hidden |= !unfolded;
        i = j;
    }
    left_hidden
}

/// Which lines of a priority class a pass takes.
#[derive(Clone, Copy)]
enum Stage {
    All,
    /// Headings and prose of the main content, outside its cards.
    Prose,
    /// Headings and prose in the main content's cards (see `Plan::in_card`).
    CardProse,
    Rest,
}

/// The length of what follows `: ` in a text line (0 when there is none).
fn text_part_len(line: &str) -> usize {
    line.split_once(": ").map_or(0, |(_, t)| t.chars().count())
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

/// A lower bound on the length of `flat[i]`'s line with its newline: indent, `- `, role,
/// and its name or text at a quarter of its bytes (UTF-8 has at most four per character),
/// within half the cap on text outside the main content (text cut at the cap goes back to
/// a word boundary, never below half of it).
fn line_lower_bound(opts: &RenderOptions, plan: &plan::Plan, node: &TreeNode, i: usize) -> isize {
    let role = if node.is_text_run() {
        "text"
    } else {
        node.role.as_deref().unwrap_or("generic")
    };
    // Label words said beside their field are left out of a text line.
    let words = if plan.text_override.contains_key(&i) {
        0
    } else {
        node.name
            .as_deref()
            .or(node.text.as_deref())
            .map_or(0, |t| (t.len() / 4).min(opts.max_text_per_node / 2))
    };
    // JSON lines carry their depth as a number, not as indentation.
    let indent = match opts.format {
        Format::Text => 2 * plan.depth[i] as usize,
        _ => 0,
    };
    (indent + 2 + role.len() + words + 1) as isize
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
