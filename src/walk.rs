//! Stage 4: arena → node tree, in one depth-first pass with an explicit stack.
//!
//! For each element the walk asks [`crate::aria`] whether it is hidden, what its role is and,
//! for nodes it emits, what its name is. Generic wrappers are not emitted: their text and
//! children go to the nearest emitted ancestor, which keeps the tree close to what a person
//! perceives (and small). Refs are numbered once the pass is done, in document order, from
//! rules that depend only on the page and the [`TreeOptions`]: never on a render budget.
//!
//! On a large page two threads share the pass: a helper walks the page's last run of siblings
//! that holds about half its nodes while the caller walks the rest, and the caller then puts
//! the helper's nodes, loose text and ref order where the run was, after checking what the
//! helper had to assume about that place. The tree is the one a single thread builds.

use std::borrow::Cow;
use std::thread::ScopedJoinHandle;

use html5ever::local_name;

use crate::aria::gap::gap_before;
use crate::aria::hidden::{closed_details_summary, subtree_hidden_styled, visibility_hidden};
use crate::aria::name::{is_block_styled, Names};
use crate::aria::roles::{self, category, Category};
use crate::aria::Index;
use crate::content::Member;
use crate::parse::{push_in_order, Dom, Element, NodeData, NodeId, Threads, View};
use crate::style::{ElementStyle, StyleOptions, Styles};
use crate::text::{normalize, truncate_with_ellipsis, TextBuf, TextTransform};
use crate::tree::{
    Attrs, NodeTree, Ref, State, States, TreeNode, TreeStats, MAX_TREE_DEPTH, SCHEMA_VERSION,
};

/// Attributes the tree carries by default (and the renderer shows by default).
pub const DEFAULT_ATTRS: &[&str] = &[
    "href",
    "name",
    "type",
    "value",
    "placeholder",
    "aria-label",
    "role",
    "src",
    "action",
    "method",
];

/// How a page becomes a node tree. Changing any of these but `threads` may renumber
/// refs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeOptions {
    /// `true`: content nodes (headings, list items, cells…) get refs only when they have a
    /// name or text. `false`: they always do.
    pub interactive_only: bool,
    /// Give refs to elements made interactive by `onclick`, `tabindex >= 0` or
    /// `contenteditable`, as `clickable` / `focusable`.
    pub cursor_interactive: bool,
    /// Longest `name` / `text` kept per node, in characters.
    pub max_text_per_node: usize,
    /// Longest attribute value kept, in characters.
    pub max_attr_value_len: usize,
    /// Attributes copied into the tree.
    pub attrs: Vec<String>,
    /// The page's URL, when the caller knows it better than the page does.
    pub url: Option<String>,
    /// Decode bytes with this encoding label instead of sniffing.
    pub encoding: Option<String>,
    /// Threads the parse and the walk may use; the tree is the same whatever the choice.
    pub threads: Threads,
    /// The page's own style sheets: whether they count, and the viewport for `@media`.
    pub style: StyleOptions,
    /// The browser the page is read as ([`View`]): `None` reads the scripted view, unless it
    /// has no main content or far less than the no-script view; `Some` forces one.
    pub view: Option<View>,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            interactive_only: true,
            cursor_interactive: true,
            max_text_per_node: 200,
            max_attr_value_len: 1000,
            attrs: DEFAULT_ATTRS.iter().map(|s| s.to_string()).collect(),
            url: None,
            encoding: None,
            threads: Threads::Auto,
            style: StyleOptions::default(),
            view: None,
        }
    }
}

/// The walk's output: the tree and, for each ref `e{i+1}`, the arena node it names.
pub struct Walked {
    pub tree: NodeTree,
    pub refs: Vec<NodeId>,
}

/// An emitted node whose subtree the walk is still inside. Only open nodes live here (the
/// stack is as deep as the emitted nesting); closed nodes are already in their parent's
/// `children`, so the tree is never held twice.
struct Open {
    node: TreeNode,
    /// The text run being collected: visible text since the last emitted child.
    run: TextBuf,
    /// Position of this node in document (pre-)order: an index into the ref table.
    order: usize,
    /// Descendants are folded into this node's text (children-presentational roles).
    presentational_children: bool,
    /// Gets a ref whatever its text (interactive role, landmark, cursor-interactive, `--all`).
    ref_always: bool,
    /// Gets a ref if it ends up with a name or text (content roles).
    ref_if_labelled: bool,
    /// A text run was put among the children.
    has_runs: bool,
    /// An unnamed `<form>` (see `emit`): its text is always kept as runs, never as `text`,
    /// so that a renderer that sees through it finds the text where it was.
    form_wrapper: bool,
    /// The node's element is in the main content (see [`walk_marking_main`]).
    content: bool,
    /// Some text of the run being collected is in the main content.
    run_content: bool,
}

impl Open {
    fn new(node: TreeNode) -> Open {
        Open {
            node,
            run: TextBuf::new(MAX_RUN_CHARS),
            order: 0,
            presentational_children: false,
            ref_always: false,
            ref_if_labelled: false,
            has_runs: false,
            form_wrapper: false,
            content: false,
            run_content: false,
        }
    }

    /// Appends visible text to the run; `content`: the text is in the main content.
    fn push_text(&mut self, s: &str, transform: TextTransform, content: bool) {
        self.run.push_transformed(s, transform);
        self.run_content |= content;
    }

    /// Puts the text collected so far among the children, as a `#text` node, so that it
    /// stays in document order with the element that comes next.
    fn flush_run(&mut self) {
        if self.run.is_empty() {
            return;
        }
        let text = self.run.take();
        let mut run = TreeNode::text_run(text);
        // Text of the content whose element made no node (a product description in a bare
        // `<div>`) sits in a node outside the content: the run marks it, as `number_refs`
        // marks an element, so that the snapshot ranks what `read` reads as content.
        run.main = std::mem::take(&mut self.run_content) && !self.content;
        self.node.children.push(run);
        self.has_runs = true;
    }

    /// Appends a closed child after the text that precedes it.
    fn push_child(&mut self, child: TreeNode) {
        self.flush_run();
        // An unnamed form's text is this node's to a person: it labels this node (for the
        // ref rule) as the same text outside a form would.
        self.has_runs |= child.form_wrapper_has_text();
        self.node.children.push(child);
    }

    /// A block or line boundary. Once the node has element children its text runs are kept
    /// apart at block boundaries (each paragraph-like block of a container its own run);
    /// before that, text is joined with a space, so a leaf's text stays one `text`.
    fn boundary(&mut self) {
        // (An unnamed form keeps its text in runs always, so its blocks are runs of their
        // own, as they are in a parent with element children.)
        if self.node.children.is_empty() && !self.form_wrapper {
            self.run.boundary();
        } else {
            self.flush_run();
        }
    }

    /// A space between two words of one run, which stays one run ([`gap_before`]).
    fn space(&mut self) {
        self.run.boundary();
    }

    /// Finishes the node's text; returns the node and whether it gets a ref.
    ///
    /// A node without element children keeps its text in `text` (omitted when it equals
    /// the name); a node with element children keeps it as `#text` runs among them.
    fn close(mut self) -> (TreeNode, bool) {
        if !self.node.children.is_empty() || self.form_wrapper {
            self.flush_run();
        }
        let Open {
            mut node,
            run,
            ref_always,
            ref_if_labelled,
            has_runs,
            content,
            run_content,
            ..
        } = self;
        // Empty when flushed; `finish` also hands the buffer back for reuse.
        let text = run.finish().0;
        if !text.is_empty() && node.name.as_deref() != Some(text.as_str()) {
            node.text = Some(text.into_boxed_str());
        }
        // A node without element children keeps its text as `text`, not as a run: when the
        // text is the content's and the node's element is not, the node is marked instead (a
        // paragraph, a list item, a cell). Not a control or a landmark (`ref_always`): a
        // label's words inside the content make no field of it content.
        node.main |= run_content && !content && !ref_always;
        // Children were pushed one by one (capacity doubling): give the slack back now that
        // the list is final. Shrinking reallocs in place, and a list of 5 000 items would
        // otherwise hold up to a megabyte it never uses.
        node.children.shrink_to_fit();
        let labelled = node.name.is_some() || node.text.is_some() || has_runs;
        (node, ref_always || (ref_if_labelled && labelled))
    }
}

/// The longest text run the tree keeps, in characters. Runs are not cut at
/// `max_text_per_node` (the renderer shows main-content paragraphs whole); this only bounds
/// what one hostile text node can hold.
pub const MAX_RUN_CHARS: usize = 100_000;

enum Work {
    Enter {
        id: NodeId,
        vis_hidden: bool,
    },
    /// Leaving an element: close its emitted node, and separate block text.
    Exit {
        emitted: bool,
        block: bool,
    },
    /// Where the helper thread's run of siblings starts (see [`Split`]): take its piece, or
    /// walk the run here if the piece does not fit.
    Splice {
        vis_hidden: bool,
    },
}

/// Whether the walk goes into `el`'s children as they are (not hidden, not a closed
/// `<details>`, which shows its summary only).
fn walked_into(dom: &Dom, styles: &Styles, id: NodeId, el: Element<'_>) -> bool {
    subtree_hidden_styled(el, &styles.get(id)).is_none()
        && closed_details_summary(dom, id, el).is_none()
        && !el.is_html(&local_name!("br"))
}

/// What every part of the walk reads: the page and the options.
struct Ctx<'a> {
    dom: &'a Dom,
    /// Where each arena node stands in the main content (empty: not marked).
    in_main: &'a [Member],
    styles: &'a Styles,
    names: Names<'a>,
    opts: &'a TreeOptions,
    /// Interned once: looking attributes up by atom is a pointer compare per attribute. The
    /// default names are static, so the tree's keys do not allocate.
    attr_names: Vec<(html5ever::LocalName, Cow<'static, str>)>,
}

impl Ctx<'_> {
    /// Whether arena node `id` (an element or a text) is in the main content, and read.
    fn in_content(&self, id: NodeId) -> bool {
        self.in_main.get(id.index()) == Some(&Member::Content)
    }
}

/// Walks `dom` into a node tree.
pub fn walk(dom: &Dom, index: &Index, opts: &TreeOptions) -> Walked {
    walk_split(dom, index, opts, None, &[]).0
}

/// [`walk`], marking the main content (`in_main`, by arena index: see
/// [`MainContent::membership`](crate::content::MainContent::membership)): a node in the
/// content whose parent node is outside it gets [`TreeNode::main`], and the top node of a
/// part left out of it gets [`TreeNode::left_out`] (and `main` as well where its parent
/// node is outside the content: it still marks where the content lies).
pub(crate) fn walk_marking_main(
    dom: &Dom,
    index: &Index,
    opts: &TreeOptions,
    in_main: &[Member],
) -> Walked {
    walk_split(dom, index, opts, None, in_main).0
}

/// Walks the subtree of `root` only (a scoped snapshot): `root` is the tree's root, and
/// refs are numbered within it (the caller maps them to the whole page's).
pub fn walk_from(dom: &Dom, index: &Index, opts: &TreeOptions, root: NodeId) -> Walked {
    walk_split(dom, index, opts, Some(root), &[]).0
}

/// What became of the helper thread's run (tests check that the split pays).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spliced {
    /// One thread walked the page.
    NotSplit,
    /// The helper's piece went into the tree.
    Taken,
    /// The piece did not fit; the main thread walked the run.
    WalkedHere,
    /// The run is inside a subtree the walk skips.
    NotReached,
}

fn walk_split(
    dom: &Dom,
    index: &Index,
    opts: &TreeOptions,
    scope: Option<NodeId>,
    in_main: &[Member],
) -> (Walked, Spliced) {
    let attr_names = opts
        .attrs
        .iter()
        .map(|a| {
            let key = match DEFAULT_ATTRS.iter().find(|d| **d == a.as_str()) {
                Some(d) => Cow::Borrowed(*d),
                None => Cow::Owned(a.clone()),
            };
            (html5ever::LocalName::from(a.as_str()), key)
        })
        .collect();
    let cx = Ctx {
        dom,
        in_main,
        styles: index.styles(),
        names: Names::new(dom, index, opts.max_text_per_node),
        opts,
        attr_names,
    };
    let root = scope
        .or_else(|| dom.body())
        .or_else(|| dom.document_element())
        .unwrap_or(NodeId::DOCUMENT);
    let root_tag = dom
        .element(root)
        .map_or(Cow::Borrowed("#document"), tag_name);
    let root_vis = match scope {
        Some(id) => crate::aria::hidden::visibility_hidden_at(dom, index.styles(), id),
        None => visibility_hidden(index.styles(), root, false),
    };
    let mut root_open = Open::new(TreeNode {
        tag: root_tag,
        ..Default::default()
    });
    root_open.content = cx.in_content(root);

    let split = opts
        .threads
        .two(dom.len(), Split::AUTO_MIN_NODES)
        .then(|| Split::plan(dom, index.styles(), root, root_vis))
        .flatten();
    let mut main = Walker::new(&cx, root_open, vec![(root, false)], None);
    let scoped = scope.is_some();
    let spliced = std::thread::scope(|scope| {
        let cx = &cx;
        // No thread to be had (a process at its limit) is no reason to fail: walk on one.
        let mut handle = split.and_then(|split| {
            let handle = std::thread::Builder::new()
                .name("agent-snapshot walk".into())
                .spawn_scoped(scope, move || split.walk(cx))
                .ok()?;
            main.splice_at = Some(split);
            Some(handle)
        });
        let started = handle.is_some();
        if scoped {
            main.push_all_children(root, root_vis);
        } else {
            main.push_children(root, root_vis);
        }
        main.run(&mut handle);
        match handle {
            // Planned, but the run's parent sat in a subtree the walk skips (the plan avoids
            // those, so only a planner bug gets here; the tree is right either way).
            Some(unused) => {
                join(unused);
                Spliced::NotReached
            }
            None if started => main.spliced,
            None => Spliced::NotSplit,
        }
    });

    let Walker {
        mut open,
        order,
        mut stats,
        ..
    } = main;
    stats.dom_nodes = dom.element_count() as u64;
    stats.emitted_nodes = order.len() as u64;
    let mut tree = match open.pop() {
        Some(root) => root.close().0,
        None => TreeNode::default(),
    };
    let refs = number_refs(&mut tree, &order, in_main);
    let walked = Walked {
        tree: NodeTree {
            version: SCHEMA_VERSION,
            url: opts.url.clone().or_else(|| document_url(dom)),
            title: document_title(dom),
            view: dom.view(),
            data: None,
            declared: None,
            tree,
            stats,
        },
        refs,
    };
    (walked, spliced)
}

/// The walk's state: a depth-first pass with an explicit stack.
struct Walker<'c, 'a> {
    cx: &'c Ctx<'a>,
    /// The nearest emitted ancestor of whatever is being visited is always the top of `open`:
    /// every subtree pushes and pops its own emitted nodes. The bottom one (the tree's root,
    /// or on the helper thread a stand-in for the node its run goes into) is only popped
    /// after the loop, so `open` is never empty inside it.
    open: Vec<Open>,
    /// For each emitted node in document order: its element and whether it gets a ref.
    order: Vec<(NodeId, bool)>,
    stack: Vec<Work>,
    stats: TreeStats,
    /// Main thread: the helper's run, whose first node `push_children` replaces with a
    /// [`Work::Splice`].
    splice_at: Option<Split>,
    /// Main thread: what became of the helper's run.
    spliced: Spliced,
    /// Helper thread: what went into the stand-in, for the main thread to replay into the
    /// real node.
    recording: Option<Vec<PieceOp<'a>>>,
    /// Helper thread: the deepest `open` seen when a node was emitted (depth-cap check).
    deepest: usize,
}

impl<'c, 'a> Walker<'c, 'a> {
    fn new(
        cx: &'c Ctx<'a>,
        bottom: Open,
        order: Vec<(NodeId, bool)>,
        recording: Option<Vec<PieceOp<'a>>>,
    ) -> Self {
        Walker {
            cx,
            open: vec![bottom],
            order,
            stack: Vec::new(),
            stats: TreeStats::default(),
            splice_at: None,
            spliced: Spliced::NotSplit,
            recording,
            deepest: 0,
        }
    }

    fn top(&mut self) -> &mut Open {
        let last = self.open.len().saturating_sub(1);
        &mut self.open[last]
    }

    /// Whether what goes into the top node is recorded instead (the helper thread's
    /// stand-in: the main thread replays it into the real node).
    fn recording_top(&mut self) -> Option<&mut Vec<PieceOp<'a>>> {
        match (self.open.len(), &mut self.recording) {
            (1, Some(ops)) => Some(ops),
            _ => None,
        }
    }

    fn push_text(&mut self, s: &'a str, transform: TextTransform, content: bool) {
        match self.recording_top() {
            Some(ops) => ops.push(PieceOp::Str(s, transform, content)),
            None => self.top().push_text(s, transform, content),
        }
    }

    fn boundary(&mut self) {
        match self.recording_top() {
            Some(ops) => ops.push(PieceOp::Boundary),
            None => self.top().boundary(),
        }
    }

    fn space(&mut self) {
        match self.recording_top() {
            Some(ops) => ops.push(PieceOp::Space),
            None => self.top().space(),
        }
    }

    fn push_child(&mut self, child: TreeNode) {
        match self.recording_top() {
            Some(ops) => ops.push(PieceOp::Child(child)),
            None => self.top().push_child(child),
        }
    }

    fn run<'s>(&mut self, helper: &mut Option<ScopedJoinHandle<'s, Option<Piece<'a>>>>) {
        let dom = self.cx.dom;
        while let Some(work) = self.stack.pop() {
            match work {
                Work::Exit { emitted, block } => {
                    if emitted {
                        if let Some(node) = self.open.pop() {
                            let position = node.order;
                            let (node, gets_ref) = node.close();
                            self.order[position].1 = gets_ref;
                            self.push_child(node);
                        }
                    }
                    if block {
                        self.boundary();
                    }
                }
                Work::Splice { vis_hidden } => {
                    let piece = helper.take().and_then(join);
                    let Some(split) = self.splice_at.take() else {
                        continue;
                    };
                    match piece {
                        Some(piece) if split.vis_hidden == vis_hidden && piece.fits(self) => {
                            self.take(piece);
                            self.spliced = Spliced::Taken;
                        }
                        // Walk the run here instead.
                        _ => {
                            self.push_run(split.first, vis_hidden);
                            self.spliced = Spliced::WalkedHere;
                        }
                    }
                }
                Work::Enter { id, vis_hidden } => match &dom.node(id).data {
                    NodeData::Text(t) if !vis_hidden => {
                        if gap_before(dom, self.cx.styles, id) {
                            self.space();
                        }
                        self.push_text(
                            dom.str(*t),
                            self.cx.styles.text_transform(dom, id),
                            self.cx.in_content(id),
                        )
                    }
                    NodeData::Element(el) => self.enter(id, dom.element_of(el), vis_hidden),
                    _ => {}
                },
            }
        }
    }

    fn enter(&mut self, id: NodeId, el: Element<'a>, vis_hidden: bool) {
        self.stats.visited_nodes += 1;
        if el.is_html(&local_name!("br")) {
            self.boundary();
            return;
        }
        let style = self.cx.styles.get(id);
        if subtree_hidden_styled(el, &style).is_some() {
            self.stats.skipped_hidden += 1;
            return;
        }
        let vis = style.visibility_hidden.unwrap_or(vis_hidden);
        let block = is_block_styled(el, &style);
        if block {
            self.boundary();
        } else if gap_before(self.cx.dom, self.cx.styles, id) {
            self.space();
        }
        let presentational = self.top().presentational_children;
        let made = if vis {
            None
        } else {
            emit(self.cx, id, el, &style, presentational)
        };
        let mut emitted = false;
        if let Some(mut node) = made {
            node.order = self.order.len();
            node.content = self.cx.in_content(id);
            self.order.push((id, false));
            self.deepest = self.deepest.max(self.open.len());
            if self.open.len() >= MAX_TREE_DEPTH {
                // At the depth cap, deeper nodes become leaves of the deepest level, appended
                // in document order; their text goes up.
                let position = node.order;
                let (leaf, gets_ref) = node.close();
                self.order[position].1 = gets_ref;
                self.push_child(leaf);
            } else {
                self.open.push(node);
                emitted = true;
            }
        }
        self.stack.push(Work::Exit { emitted, block });
        self.push_children(id, vis);
    }

    fn push_children(&mut self, id: NodeId, vis_hidden: bool) {
        let dom = self.cx.dom;
        let only = dom
            .element(id)
            .and_then(|el| closed_details_summary(dom, id, el));
        match only {
            Some(Some(summary)) => self.stack.push(Work::Enter {
                id: summary,
                vis_hidden,
            }),
            Some(None) => {}
            None => self.push_all_children(id, vis_hidden),
        }
    }

    /// Queues every child of `id`, a closed `<details>`' body too: a scope on a closed
    /// details (the panel its summary reveals) shows it open.
    fn push_all_children(&mut self, id: NodeId, vis_hidden: bool) {
        let start = self.stack.len();
        for c in self.cx.dom.children(id) {
            if self.splice_at.is_some_and(|split| split.first == c) {
                self.stack.push(Work::Splice { vis_hidden });
                break;
            }
            self.stack.push(Work::Enter { id: c, vis_hidden });
        }
        self.stack[start..].reverse();
    }

    /// Queues `first` and every sibling after it.
    fn push_run(&mut self, first: NodeId, vis_hidden: bool) {
        let dom = self.cx.dom;
        let run = std::iter::successors(Some(first), |&c| dom.node(c).next_sibling);
        push_in_order(
            &mut self.stack,
            run.map(|id| Work::Enter { id, vis_hidden }),
        );
    }

    /// Adds the helper's piece where its run would have been walked.
    fn take(&mut self, piece: Piece<'a>) {
        let top = self.top();
        for op in piece.ops {
            match op {
                PieceOp::Str(s, transform, content) => top.push_text(s, transform, content),
                PieceOp::Boundary => top.boundary(),
                PieceOp::Space => top.space(),
                PieceOp::Child(child) => top.push_child(child),
            }
        }
        self.order.extend(piece.order);
        self.stats.visited_nodes += piece.stats.visited_nodes;
        self.stats.skipped_hidden += piece.stats.skipped_hidden;
    }
}

/// Waits for the helper. A panic there is a bug the main thread would meet too: report it
/// where it happened.
fn join<T>(helper: ScopedJoinHandle<'_, T>) -> T {
    match helper.join() {
        Ok(piece) => piece,
        Err(panic) => std::panic::resume_unwind(panic),
    }
}

/// Two threads walk a large page: the helper takes a run of siblings (the last children of
/// some element, about half the page), the main thread everything else, and takes the
/// helper's piece when it reaches the run.
///
/// The helper cannot know what the main thread will know there: whether the nearest emitted
/// ancestor has presentational children, how deep the tree is, whether an ancestor hid the
/// run. It assumes the common case (computing inherited `visibility` from the ancestors'
/// inline styles) and the main thread checks each assumption against its own state; when one
/// fails it walks the run itself, so the tree is always the one a single thread builds.
#[derive(Clone, Copy)]
struct Split {
    first: NodeId,
    vis_hidden: bool,
}

impl Split {
    /// Below this many arena nodes (about a 64 KB page) a thread costs more than it saves.
    const AUTO_MIN_NODES: usize = 4000;

    /// Picks the run. Subtree sizes are estimated from ids: the parser numbers nodes in
    /// document order, so a subtree's nodes are numbered in one stretch (except for the few
    /// nodes the adoption agency algorithm and foster parenting move; an estimate that is
    /// off only balances the threads less well).
    fn plan(dom: &Dom, styles: &Styles, root: NodeId, root_vis: bool) -> Option<Split> {
        let end = dom.len();
        let work = end.saturating_sub(root.index());
        let mut parent = root;
        let mut parent_end = end;
        // The main thread's work after the run: what follows the elements descended into.
        let mut after = 0;
        let mut vis = root_vis;
        for _ in 0..MAX_TREE_DEPTH {
            let children: Vec<NodeId> = dom.children(parent).collect();
            let size = |i: usize| {
                let next = children.get(i + 1).map_or(parent_end, |n| n.index());
                next.saturating_sub(children[i].index())
            };
            // Main thread: (work - share - after) before the run, `after` once it has taken
            // the piece; helper: `share`. Both finish together when share = (work - after) / 2.
            let want = work.saturating_sub(after) / 2;
            // The child where the sums of sizes from the last child back cross `want`.
            let mut suffix = 0;
            let mut crossing = None;
            for i in (0..children.len()).rev() {
                if suffix + size(i) >= want {
                    crossing = Some(i);
                    break;
                }
                suffix += size(i);
            }
            let i = crossing?;
            let with = suffix + size(i);
            let near = |share: usize| share * 3 >= want * 2 && share * 3 <= want * 4;
            let child = children[i];
            if !near(with) && !near(suffix) {
                // Neither boundary splits evenly: look inside the child that straddles it.
                if dom
                    .element(child)
                    .is_some_and(|el| walked_into(dom, styles, child, el))
                {
                    vis = visibility_hidden(styles, child, vis);
                    after += suffix;
                    parent_end = children.get(i + 1).map_or(parent_end, |n| n.index());
                    parent = child;
                    continue;
                }
            }
            let start = if suffix == 0 || with - want <= want - suffix {
                i
            } else {
                i + 1
            };
            return Some(Split {
                first: children[start],
                vis_hidden: vis,
            });
        }
        None
    }

    /// The helper thread's side: walks the run into a piece.
    fn walk<'a>(self, cx: &Ctx<'a>) -> Option<Piece<'a>> {
        let stand_in = Open::new(TreeNode::default());
        let mut w = Walker::new(cx, stand_in, Vec::new(), Some(Vec::new()));
        w.push_run(self.first, self.vis_hidden);
        w.run(&mut None);
        let Walker {
            order,
            stats,
            recording,
            deepest,
            ..
        } = w;
        Some(Piece {
            ops: recording?,
            order,
            stats,
            deepest,
        })
    }
}

/// What the helper thread walked: the run's top-level nodes and loose text in document
/// order, and what it assumed about the place they go.
struct Piece<'a> {
    ops: Vec<PieceOp<'a>>,
    order: Vec<(NodeId, bool)>,
    stats: TreeStats,
    deepest: usize,
}

impl Piece<'_> {
    /// Whether the piece is what the main thread would have built in its place (the caller
    /// has checked the inherited visibility the helper started from).
    fn fits(&self, main: &Walker<'_, '_>) -> bool {
        let depth = main.open.len();
        let presentational = main.open.last().is_some_and(|o| o.presentational_children);
        // The helper counted depth from its stand-in (1); the main thread's nodes sit `depth`
        // deep. Had any node reached the cap on the main thread, it would have been a leaf.
        !presentational && depth + self.deepest.saturating_sub(1) < MAX_TREE_DEPTH
    }
}

/// What went into the helper's stand-in, in order: replayed into the real node, it builds
/// exactly the runs and children a single thread would (runs depend on where the children
/// fall among the text).
enum PieceOp<'a> {
    Str(&'a str, TextTransform, bool),
    Boundary,
    Space,
    Child(TreeNode),
}

/// Numbers refs `e1`, `e2`… in document order: a pre-order pass over the finished tree visits
/// nodes in the order they were emitted. On the way it marks the main content: a node whose
/// element `in_main` says is content (by arena index; empty for none) and whose parent node
/// is not gets `main`; the top node of what it says is left out gets `left_out` (and `main`
/// too where its parent node is outside the content).
fn number_refs(tree: &mut TreeNode, order: &[(NodeId, bool)], in_main: &[Member]) -> Vec<NodeId> {
    let mut refs = Vec::new();
    let mut position = 0;
    // (node, whether its parent node is in the main content, and left out of it)
    let mut stack: Vec<(&mut TreeNode, bool, bool)> = vec![(tree, false, false)];
    while let Some((node, parent_main, parent_left)) = stack.pop() {
        // Text runs are not elements: they have no place in `order`.
        if node.is_text_run() {
            continue;
        }
        let (mut here_main, mut here_left) = (parent_main, parent_left);
        if let Some(&(id, gets_ref)) = order.get(position) {
            if gets_ref {
                refs.push(id);
                // More refs than u32 would need more nodes than the arena can number.
                node.ref_ = u32::try_from(refs.len()).ok().and_then(Ref::new);
            }
            let member = in_main.get(id.index()).copied();
            (here_main, here_left) = mark_member(node, member, parent_main, parent_left);
        }
        position += 1;
        stack.extend(
            node.children
                .iter_mut()
                .rev()
                .map(|c| (c, here_main, here_left)),
        );
    }
    refs
}

/// Marks a node by where its element stands to the main content (`member`; `None`: no
/// element known), given whether its parent node is in the content and left out of it: the
/// content's top nodes get `main`, the top node of what a read leaves out `left_out`.
/// Returns the same two facts for its children. Shared by the offline walk and the live
/// page's marking ([`crate::rendered`]), so that both mark alike.
pub(crate) fn mark_member(
    node: &mut TreeNode,
    member: Option<Member>,
    parent_main: bool,
    parent_left: bool,
) -> (bool, bool) {
    match member {
        Some(Member::Content) if !parent_main => {
            node.main = true;
            (true, parent_left)
        }
        // Straight under a node outside the content (its part's element made no node), it
        // still marks where the content is, as left out.
        Some(Member::LeftOut) if !parent_left => {
            node.main |= !parent_main;
            node.left_out = true;
            (true, true)
        }
        _ => (parent_main, parent_left),
    }
}

/// Decides whether `el` becomes a tree node and creates it (open, without text yet).
#[allow(clippy::too_many_arguments)]
fn emit(
    cx: &Ctx<'_>,
    id: NodeId,
    el: Element<'_>,
    style: &ElementStyle,
    inside_presentational: bool,
) -> Option<Open> {
    let Ctx {
        dom,
        styles,
        names,
        opts,
        attr_names,
        ..
    } = cx;
    let mut role = roles::role(dom, names.index(), id);
    if matches!(role, Some("none" | "presentation")) {
        role = None;
    }
    let cat = role.map(category);
    let cursor = opts.cursor_interactive
        && cat != Some(Category::Interactive)
        && (cursor_interactive(el) || pointer_starts_here(dom, styles, id, style));
    // Inside a button, an image or a checkbox the children are presentational: only what an
    // agent could still operate on its own is emitted.
    if inside_presentational && cat != Some(Category::Interactive) && !cursor {
        return None;
    }
    // A `<form>` without a name has no role (html-aam: generic), but which controls belong
    // together is what the renderer needs to keep a login form whole: it stays as a node
    // without role, name, attributes or ref, which the renderer never writes as a line.
    if role.is_none() && !cursor && el.is_html(&local_name!("form")) {
        let mut open = Open::new(TreeNode {
            tag: tag_name(el),
            ..Default::default()
        });
        open.form_wrapper = true;
        return Some(open);
    }
    // Text-level roles (strong, emphasis, code…) are formatting inside a sentence: their text
    // belongs to the node around them, or `Gold <strong>¥580</strong>` would read "Gold".
    if (role.is_none() || role.is_some_and(roles::is_text_level)) && !cursor {
        return None;
    }
    let shown_role = match role {
        Some(r) => r,
        None if el.has_attr(&local_name!("onclick")) || style.cursor_pointer => "clickable",
        None => "focusable",
    };
    // Only elements without inherited `visibility:hidden` are emitted.
    let name = names.name_with_visibility(id, Some(shown_role).filter(|_| role.is_some()), false);
    let mut node = TreeNode {
        tag: tag_name(el),
        role: Some(Cow::Borrowed(shown_role)),
        name: (!name.is_empty()).then(|| name.into_boxed_str()),
        level: level(el, role),
        attrs: attrs(dom, id, el, opts, attr_names),
        states: states(el, role),
        cursor_interactive: cursor,
        collapsed: names.index().collapsed_chars(dom, id),
        ..Default::default()
    };
    if node.role.as_deref() == Some("clickable") || node.role.as_deref() == Some("focusable") {
        node.cursor_interactive = true;
    }
    let (ref_always, ref_if_labelled) = match cat {
        _ if cursor => (true, false),
        // A control that reveals collapsed text (a closed details with no summary of its
        // own): a click on its ref opens it, `--scope` on it shows what it holds.
        _ if node.collapsed.is_some() => (true, false),
        Some(Category::Interactive) => (true, false),
        // Landmarks and dialogs always: a region the renderer folds into a stub line is
        // scoped by its ref.
        _ if roles::is_landmark(shown_role) => (true, false),
        Some(Category::Content) => (!opts.interactive_only, true),
        _ => (false, false),
    };
    let mut open = Open::new(node);
    open.presentational_children = inside_presentational || children_presentational(shown_role);
    open.ref_always = ref_always;
    open.ref_if_labelled = ref_if_labelled;
    Some(open)
}

/// `onclick`, `tabindex >= 0` or `contenteditable`: operable without an interactive role.
fn cursor_interactive(el: Element<'_>) -> bool {
    el.has_attr(&local_name!("onclick"))
        || el
            .attr(&local_name!("tabindex"))
            .and_then(|t| t.trim().parse::<i64>().ok())
            .is_some_and(|t| t >= 0)
        || el
            .attr(&local_name!("contenteditable"))
            .is_some_and(|v| !v.eq_ignore_ascii_case("false"))
}

/// An inline `cursor:pointer` that the parent does not already have: where a clickable area
/// starts (the live script reads the computed cursor the same way).
fn pointer_starts_here(dom: &Dom, styles: &Styles, id: NodeId, style: &ElementStyle) -> bool {
    style.cursor_pointer
        && !dom
            .node(id)
            .parent
            .is_some_and(|p| styles.get(p).cursor_pointer)
}

/// Roles whose children are presentational (ARIA 1.2 "Children Presentational: True").
fn children_presentational(role: &str) -> bool {
    matches!(
        role,
        "button"
            | "checkbox"
            | "img"
            | "meter"
            | "menuitemcheckbox"
            | "menuitemradio"
            | "option"
            | "progressbar"
            | "radio"
            | "scrollbar"
            | "separator"
            | "slider"
            | "switch"
            | "tab"
    )
}

fn level(el: Element<'_>, role: Option<&str>) -> Option<u32> {
    if role != Some("heading") {
        return None;
    }
    if let Some(l) = el
        .attr(&local_name!("aria-level"))
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|l| *l >= 1)
    {
        return Some(l);
    }
    Some(match *el.local() {
        local_name!("h1") => 1,
        local_name!("h2") => 2,
        local_name!("h3") => 3,
        local_name!("h4") => 4,
        local_name!("h5") => 5,
        local_name!("h6") => 6,
        // role=heading without aria-level: ARIA's default is 2.
        _ => 2,
    })
}

fn attrs(
    dom: &Dom,
    id: NodeId,
    el: Element<'_>,
    opts: &TreeOptions,
    attr_names: &[(html5ever::LocalName, Cow<'static, str>)],
) -> Attrs {
    let mut out = Attrs::default();
    if el.has_no_attrs() && !el.is_html(&local_name!("textarea")) {
        return out;
    }
    for (atom, name) in attr_names {
        let textarea_text;
        let value = match el.attr(atom) {
            Some(v) => v,
            // A textarea's value is its text.
            None if name == "value" && el.is_html(&local_name!("textarea")) => {
                let mut buf = TextBuf::new(opts.max_attr_value_len);
                for d in dom.descendants(id) {
                    if let Some(t) = dom.text(d) {
                        buf.push_str(t);
                    }
                }
                textarea_text = buf.finish().0;
                if textarea_text.is_empty() {
                    continue;
                }
                &textarea_text
            }
            None => continue,
        };
        // (An inline `data:` URL is shortened by the renderer, for both producers.)
        let v = truncate_with_ellipsis(value.trim(), opts.max_attr_value_len).into_owned();
        out.insert(name.clone(), v);
    }
    out
}

fn states(el: Element<'_>, role: Option<&str>) -> States {
    let aria_true = |name: &html5ever::LocalName| {
        el.attr(name)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    };
    let mut out = States::default();
    let checkable = matches!(
        role,
        Some("checkbox" | "radio" | "switch" | "menuitemcheckbox" | "menuitemradio")
    );
    if checkable {
        let aria_checked = el
            .attr(&local_name!("aria-checked"))
            .map(|v| v.trim().to_ascii_lowercase());
        if aria_checked.as_deref() == Some("mixed") {
            out.insert(State::Mixed);
        } else if aria_checked.as_deref() == Some("true")
            || (el.is_html(&local_name!("input")) && el.has_attr(&local_name!("checked")))
        {
            out.insert(State::Checked);
        }
    }
    if aria_true(&local_name!("aria-selected"))
        || (el.is_html(&local_name!("option")) && el.has_attr(&local_name!("selected")))
    {
        out.insert(State::Selected);
    }
    if aria_true(&local_name!("aria-expanded")) {
        out.insert(State::Expanded);
    }
    if aria_true(&local_name!("aria-pressed")) {
        out.insert(State::Pressed);
    }
    if aria_true(&local_name!("aria-disabled")) || roles::is_disabled_control(el) {
        out.insert(State::Disabled);
    }
    if aria_true(&local_name!("aria-required")) || el.has_attr(&local_name!("required")) {
        out.insert(State::Required);
    }
    out
}

/// The tag name, borrowed from the static atom table when it is a known name (every HTML
/// tag is), so the tree does not allocate one string per node.
fn tag_name(el: Element<'_>) -> Cow<'static, str> {
    static_tag(el.local()).map_or_else(|| Cow::Owned(String::from(&**el.local())), Cow::Borrowed)
}

/// A static copy of the commonest tag names.
fn static_tag(name: &html5ever::LocalName) -> Option<&'static str> {
    const TAGS: &[&str] = &[
        "a",
        "abbr",
        "address",
        "area",
        "article",
        "aside",
        "audio",
        "b",
        "blockquote",
        "body",
        "button",
        "canvas",
        "caption",
        "cite",
        "code",
        "dd",
        "del",
        "details",
        "dfn",
        "dialog",
        "div",
        "dl",
        "dt",
        "em",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "i",
        "iframe",
        "img",
        "input",
        "ins",
        "label",
        "legend",
        "li",
        "main",
        "mark",
        "math",
        "menu",
        "meter",
        "nav",
        "ol",
        "optgroup",
        "option",
        "output",
        "p",
        "pre",
        "progress",
        "s",
        "search",
        "section",
        "select",
        "small",
        "span",
        "strong",
        "sub",
        "summary",
        "sup",
        "svg",
        "table",
        "tbody",
        "td",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "time",
        "tr",
        "u",
        "ul",
        "video",
    ];
    TAGS.binary_search(&&**name).ok().map(|i| TAGS[i])
}

/// The page title: the first `<title>` in the document, normalised.
fn document_title(dom: &Dom) -> Option<String> {
    let (id, _) = dom
        .elements()
        .find(|(_, e)| e.is_html(&local_name!("title")))?;
    let mut buf = TextBuf::new(1000);
    for c in dom.children(id) {
        if let Some(t) = dom.text(c) {
            buf.push_str(t);
        }
    }
    let (title, _) = buf.finish();
    (!title.is_empty()).then_some(title)
}

/// The page's own idea of its URL: `<base href>`, `<link rel=canonical>`, then `og:url`.
fn document_url(dom: &Dom) -> Option<String> {
    let mut canonical = None;
    let mut og = None;
    for (_, el) in dom.elements() {
        match *el.local() {
            local_name!("base") => {
                if let Some(h) = el
                    .attr(&local_name!("href"))
                    .map(normalize)
                    .filter(|h| is_absolute(h))
                {
                    return Some(h);
                }
            }
            local_name!("link") if canonical.is_none() => {
                let rel = el.attr(&local_name!("rel")).unwrap_or("");
                if rel
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("canonical"))
                {
                    canonical = el
                        .attr(&local_name!("href"))
                        .map(normalize)
                        .filter(|h| is_absolute(h));
                }
            }
            local_name!("meta") if og.is_none() => {
                if el
                    .attr(&local_name!("property"))
                    .is_some_and(|p| p.eq_ignore_ascii_case("og:url"))
                {
                    og = el
                        .attr(&local_name!("content"))
                        .map(normalize)
                        .filter(|h| is_absolute(h));
                }
            }
            _ => {}
        }
    }
    canonical.or(og)
}

fn is_absolute(url: &str) -> bool {
    url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk_html(html: &str, opts: &TreeOptions) -> Walked {
        let dom = Dom::parse(html);
        let index = Index::build(&dom);
        walk(&dom, &index, opts)
    }

    fn flat(tree: &TreeNode) -> Vec<&TreeNode> {
        let mut out = Vec::new();
        let mut stack = vec![tree];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(n.children.iter().rev());
        }
        out
    }

    /// The tree and refs as one string: equal strings mean equal walks.
    fn dump(walked: &Walked) -> String {
        let json = serde_json::to_string(&walked.tree).expect("tree serialises");
        format!("{json}\n{:?}", walked.refs)
    }

    fn two_threads_same_as_one(html: &str, opts: &TreeOptions) -> Spliced {
        let dom = Dom::parse(html);
        let index = Index::build(&dom);
        let one = walk(
            &dom,
            &index,
            &TreeOptions {
                threads: Threads::One,
                ..opts.clone()
            },
        );
        let (two, spliced) = walk_split(
            &dom,
            &index,
            &TreeOptions {
                threads: Threads::Two,
                ..opts.clone()
            },
            None,
            &[],
        );
        assert_eq!(dump(&one), dump(&two), "{spliced:?}");
        spliced
    }

    #[test]
    fn chips_that_meet_without_a_space_are_separate_words_on_both_threads() {
        let row = |i: usize| {
            format!(
                "<li><span>20{i:02}</span><span>2h {i}m</span><span>PG-13</span> <b>W</b>ord</li>"
            )
        };
        let rows: String = (0..40).map(row).collect();
        let html = format!("<main><h1>Films</h1><ul>{rows}</ul></main>");
        let walked = walk_html(&html, &TreeOptions::default());
        let texts: Vec<&str> = flat(&walked.tree.tree)
            .into_iter()
            .filter_map(|n| n.text.as_deref())
            .collect();
        assert!(texts.contains(&"2007 2h 7m PG-13 Word"), "{texts:?}");
        two_threads_same_as_one(&html, &TreeOptions::default());
    }

    #[test]
    fn the_helpers_piece_goes_where_its_run_was() {
        let item = |i: usize| format!("<li><a href=/{i}>item {i}</a> loose {i}</li>");
        let list: String = (0..40).map(item).collect();
        let html = format!("<main><h1>Title</h1><ul>{list}</ul><p>tail text</p></main><footer><a href=/f>f</a></footer>");
        assert_eq!(
            two_threads_same_as_one(&html, &TreeOptions::default()),
            Spliced::Taken
        );
        // Loose text of the run lands in the node around it, up to that node's limit.
        let loose: String = (0..200)
            .map(|i| format!("<span>word{i} </span><br>"))
            .collect();
        let html = format!("<div role=region aria-label=r>{loose}</div>");
        for limit in [5, 50, 10_000] {
            let opts = TreeOptions {
                max_text_per_node: limit,
                ..Default::default()
            };
            assert_eq!(two_threads_same_as_one(&html, &opts), Spliced::Taken);
        }
    }

    #[test]
    fn a_piece_built_on_a_wrong_guess_is_walked_again() {
        let items: String = (0..60)
            .map(|i| format!("<span><a href=/{i}>x{i}</a></span>"))
            .collect();
        // Inside a button the children are presentational: the helper guessed otherwise.
        let html = format!("<div role=button tabindex=0>{items}</div>");
        assert_eq!(
            two_threads_same_as_one(&html, &TreeOptions::default()),
            Spliced::WalkedHere
        );
        // `visibility: hidden` set by an ancestor that the inline style of a child undoes.
        let html = format!(
            "<div style='visibility:hidden'><div style='visibility:visible'>{items}</div></div>"
        );
        two_threads_same_as_one(&html, &TreeOptions::default());
        // The split never goes inside a subtree the walk skips.
        let html = format!("<p>a</p><div hidden><div>{items}</div></div><p>b</p>");
        two_threads_same_as_one(&html, &TreeOptions::default());
        // Near the depth cap the helper's leaves would sit at other levels.
        let deep = "<ul><li>".repeat(MAX_TREE_DEPTH / 2 + 10);
        let html = format!("{deep}{items}");
        let spliced = two_threads_same_as_one(&html, &TreeOptions::default());
        assert_ne!(spliced, Spliced::NotReached);
    }

    /// Every page of the repo's and the shared corpus (when `../shared` is beside the repo):
    /// the same tree on two threads, and the helper's piece taken on almost every page.
    #[test]
    fn corpus_pages_walk_the_same_on_two_threads() {
        let pages = crate::testutil::corpus_pages();
        let mut not_taken = Vec::new();
        for (page, html) in &pages {
            let spliced = two_threads_same_as_one(html, &TreeOptions::default());
            if spliced != Spliced::Taken {
                not_taken.push(format!("{}: {spliced:?}", page.display()));
            }
        }
        eprintln!(
            "{} pages, piece not taken on {}: {not_taken:#?}",
            pages.len(),
            not_taken.len()
        );
        assert!(not_taken.len() * 10 <= pages.len(), "{not_taken:#?}");
    }

    #[test]
    fn static_tag_table_is_sorted() {
        let dom = Dom::parse("<table><tr><td>x</table>");
        let td = dom
            .elements()
            .find(|(_, e)| e.is_html(&local_name!("td")))
            .map(|(_, e)| e)
            .expect("td");
        assert!(matches!(tag_name(td), Cow::Borrowed("td")));
        let custom = Dom::parse("<my-widget></my-widget>");
        let w = custom.elements().last().map(|(_, e)| e).expect("element");
        assert_eq!(tag_name(w), "my-widget");
    }

    #[test]
    fn refs_in_document_order_with_attrs() {
        let w = walk_html(
            "<nav><a href=/>Home</a></nav><main><h1>Gold</h1><input type=search placeholder='Search...'><button>Go</button></main>",
            &TreeOptions::default(),
        );
        let with_refs: Vec<_> = flat(&w.tree.tree)
            .into_iter()
            .filter_map(|n| Some((n.ref_?.to_string(), n.role.as_deref()?)))
            .collect();
        assert_eq!(
            with_refs,
            [
                ("e1".to_string(), "navigation"),
                ("e2".to_string(), "link"),
                ("e3".to_string(), "main"),
                ("e4".to_string(), "heading"),
                ("e5".to_string(), "searchbox"),
                ("e6".to_string(), "button")
            ]
        );
        assert_eq!(w.refs.len(), 6);
        let search = flat(&w.tree.tree)
            .into_iter()
            .find(|n| n.ref_ == Ref::parse("e5"))
            .expect("e5");
        assert_eq!(search.attrs.get("placeholder"), Some("Search..."));
        assert_eq!(search.attrs.get("type"), Some("search"));
    }

    #[test]
    fn hidden_content_is_skipped_and_counted() {
        let w = walk_html(
            "<p>Visible</p><div hidden>SECRET1</div><div aria-hidden=true>SECRET2</div><div style='display:none'>SECRET3</div><script>SECRET4</script><details><summary>Sum</summary>SECRET5</details><input type=hidden value=SECRET6>",
            &TreeOptions::default(),
        );
        let json = w.tree.to_json();
        for n in 1..=6 {
            assert!(
                !json.contains(&format!("SECRET{n}")),
                "SECRET{n} leaked: {json}"
            );
        }
        assert!(json.contains("Visible"));
        assert!(json.contains("Sum"));
        // Five hidden elements; the closed details' text is not an element.
        assert_eq!(w.tree.stats.skipped_hidden, 5);
    }

    #[test]
    fn cursor_interactive_elements_get_refs() {
        let w = walk_html("<div onclick='x()'>Open</div><span tabindex=0>Focus me</span><div tabindex=-1>no</div><div style='cursor: pointer'>Card <b style='cursor:pointer'>inner</b></div>", &TreeOptions::default());
        let roles: Vec<_> = flat(&w.tree.tree)
            .into_iter()
            .filter(|n| n.ref_.is_some())
            .map(|n| n.role.as_deref().unwrap_or_default())
            .collect();
        assert_eq!(
            roles,
            ["clickable", "focusable", "clickable"],
            "an inherited pointer is no new ref"
        );
        let off = TreeOptions {
            cursor_interactive: false,
            ..Default::default()
        };
        assert!(walk_html("<div onclick='x()'>Open</div>", &off)
            .refs
            .is_empty());
    }

    #[test]
    fn content_refs_depend_on_interactive_only() {
        let html = "<ul><li>Gold</li><li></li></ul><h2></h2>";
        assert_eq!(walk_html(html, &TreeOptions::default()).refs.len(), 1);
        let all = TreeOptions {
            interactive_only: false,
            ..Default::default()
        };
        assert_eq!(walk_html(html, &all).refs.len(), 3);
    }

    #[test]
    fn an_unnamed_form_is_a_node_without_role_or_ref() {
        let w = walk_html(
            "<p>Before</p><form action=/s><div>Only</div><div>text</div></form>\
             <form method=post>Name <input name=n><button>Go</button></form>\
             <form aria-label=Find><input type=search></form>\
             <ul><li><form>Price <input name=p></form></li></ul>",
            &TreeOptions::default(),
        );
        let forms: Vec<&TreeNode> = flat(&w.tree.tree)
            .into_iter()
            .filter(|n| n.tag == "form")
            .collect();
        assert_eq!(forms.len(), 4);
        // Unnamed: no role, name or ref; its text stays in runs among its children, parted
        // at blocks (even when it has no element child), so a reader that sees through it
        // finds the runs its parent would have had.
        for f in [&forms[0], &forms[1], &forms[3]] {
            assert!(f.role.is_none() && f.ref_.is_none() && f.name.is_none() && f.text.is_none());
        }
        assert!(forms[0].attrs.is_empty());
        let runs: Vec<Option<&str>> = forms[0]
            .children
            .iter()
            .map(|c| c.text.as_deref())
            .collect();
        assert_eq!(runs, [Some("Only"), Some("text")]);
        let roles: Vec<&str> = forms[1]
            .children
            .iter()
            .map(|c| c.role.as_deref().unwrap_or(&c.tag))
            .collect();
        assert_eq!(roles, ["#text", "textbox", "button"]);
        // Named: the `form` landmark, with its ref.
        assert_eq!(forms[2].role.as_deref(), Some("form"));
        assert!(forms[2].ref_.is_some());
        // A form's text labels the item around it, as it did when the form was no node: the
        // item keeps its ref.
        let li = flat(&w.tree.tree)
            .into_iter()
            .find(|n| n.tag == "li")
            .expect("li");
        assert!(li.ref_.is_some());
        assert_eq!(w.refs.len(), 6);
    }

    #[test]
    fn text_is_owned_by_nearest_emitted_ancestor() {
        let w = walk_html(
            "<ul><li><div>Gold <span>¥580.00/g</span></div><a href=x>buy</a></li></ul>",
            &TreeOptions::default(),
        );
        let li = flat(&w.tree.tree)
            .into_iter()
            .find(|n| n.tag == "li")
            .expect("li");
        // Text among element children stays in place, as a run before the link.
        assert_eq!(li.text, None);
        assert!(li.children[0].is_text_run());
        assert_eq!(li.children[0].text.as_deref(), Some("Gold ¥580.00/g"));
        assert_eq!(li.children[1].name.as_deref(), Some("buy"));
    }

    #[test]
    fn text_runs_keep_document_order_and_part_at_blocks() {
        let w = walk_html(
            "<main><div>First para</div><a href=x>l</a><div>Second</div><div>Third</div> tail</main>",
            &TreeOptions::default(),
        );
        let main = &w.tree.tree.children[0];
        let parts: Vec<(String, Option<&str>)> = main
            .children
            .iter()
            .map(|c| (c.tag.to_string(), c.text.as_deref().or(c.name.as_deref())))
            .collect();
        assert_eq!(
            parts,
            [
                ("#text".to_string(), Some("First para")),
                ("a".to_string(), Some("l")),
                ("#text".to_string(), Some("Second")),
                ("#text".to_string(), Some("Third")),
                ("#text".to_string(), Some("tail")),
            ]
        );
        // Landmarks always get a ref (a folded region is scoped by it); runs never do.
        assert_eq!(main.ref_, Ref::new(1));
        assert_eq!(w.refs.len(), 2);
        // A leaf keeps its text whole: no cut at max_text_per_node.
        let long = "word ".repeat(100);
        let w = walk_html(&format!("<p>{long}</p>"), &TreeOptions::default());
        assert_eq!(
            w.tree.tree.children[0].text.as_deref(),
            Some(long.trim_end())
        );
    }

    /// Text of the content whose element made no node (a description in a bare `<div>`) is
    /// a run of a node outside the content: the run is marked `main`, as an element of the
    /// content would be; the text beside it is not, nor a run inside a marked node. A
    /// paragraph holding only such text keeps it as `text` and is marked itself, but not a
    /// control whose label is the content's. The same on two threads (the helper's piece
    /// carries the marks).
    #[test]
    fn a_run_of_content_text_in_a_node_outside_it_is_marked() {
        let items: String = (0..40)
            .map(|i| format!("<li><a href=/{i}>item {i}</a></li>"))
            .collect();
        let html = format!(
            "<section aria-label=s>Intro<button>b</button><div id=d>Described text</div>\
             <button>c</button>Outro</section>\
             <article id=a><p>para</p>loose<ul>{items}</ul></article>Tail\
             <p><span id=l>Leaf text</span></p>\
             <button><span id=b>Go</span></button>"
        );
        let dom = Dom::parse(&html);
        let index = Index::build(&dom);
        let mut member = vec![Member::Outside; dom.len()];
        for (id, el) in dom.elements() {
            if matches!(el.attr(&local_name!("id")), Some("d" | "a" | "l" | "b")) {
                member[id.index()] = Member::Content;
                for d in dom.descendants(id) {
                    member[d.index()] = Member::Content;
                }
            }
        }
        for threads in [Threads::One, Threads::Two] {
            let opts = TreeOptions {
                threads,
                ..Default::default()
            };
            let (w, _) = walk_split(&dom, &index, &opts, None, &member);
            let marked: Vec<(&str, &str)> = flat(&w.tree.tree)
                .into_iter()
                .filter(|n| n.main)
                .map(|n| (n.tag.as_ref(), n.text.as_deref().unwrap_or("")))
                .collect();
            assert_eq!(
                marked,
                [
                    ("#text", "Described text"),
                    ("article", ""),
                    ("p", "Leaf text")
                ],
                "{threads:?}"
            );
        }
        // The whole body is the content (a landing page): the root says so, its runs not.
        let body = dom.body().expect("a parsed page has a body");
        member[body.index()] = Member::Content;
        dom.descendants(body)
            .for_each(|d| member[d.index()] = Member::Content);
        let w = walk_marking_main(&dom, &index, &TreeOptions::default(), &member);
        let marked: Vec<&str> = flat(&w.tree.tree)
            .into_iter()
            .filter(|n| n.main)
            .map(|n| n.tag.as_ref())
            .collect();
        assert_eq!(marked, ["body"]);
    }

    #[test]
    fn data_urls_stay_whole_in_the_tree() {
        // The renderer shortens them (for both producers); the tree keeps the value, cut at
        // max_attr_value_len.
        let w = walk_html(
            "<img alt=i src='data:image/png;base64,AAAA'>",
            &TreeOptions::default(),
        );
        let img = &w.tree.tree.children[0];
        assert_eq!(img.attrs.get("src"), Some("data:image/png;base64,AAAA"));
    }

    #[test]
    fn text_level_roles_are_part_of_their_parents_text() {
        let w = walk_html(
            "<ul><li>Gold <strong>¥580</strong> <em>today</em></li></ul>",
            &TreeOptions::default(),
        );
        let li = &w.tree.tree.children[0].children[0];
        assert_eq!(li.text.as_deref(), Some("Gold ¥580 today"));
        assert!(li.children.is_empty());
    }

    #[test]
    fn url_and_title_from_the_page() {
        let w = walk_html(
            "<head><title> Gold  price </title><link rel=canonical href='https://ex.com/p'></head>",
            &TreeOptions::default(),
        );
        assert_eq!(w.tree.title.as_deref(), Some("Gold price"));
        assert_eq!(w.tree.url.as_deref(), Some("https://ex.com/p"));
        let opts = TreeOptions {
            url: Some("https://given/".into()),
            ..Default::default()
        };
        let w = walk_html("<base href='https://base/'>", &opts);
        assert_eq!(w.tree.url.as_deref(), Some("https://given/"));
    }

    #[test]
    fn deep_trees_are_capped() {
        // 400 levels: under the parser's cap (512), over the tree's (256).
        let html = "<ul><li>".repeat(200);
        let w = walk_html(&html, &TreeOptions::default());
        let mut depth = 0;
        let mut stack = vec![(&w.tree.tree, 0usize)];
        while let Some((n, d)) = stack.pop() {
            depth = depth.max(d);
            stack.extend(n.children.iter().map(|c| (c, d + 1)));
        }
        assert!(depth <= MAX_TREE_DEPTH, "depth {depth}");
        assert_eq!(w.tree.stats.emitted_nodes, 401);
    }
}
