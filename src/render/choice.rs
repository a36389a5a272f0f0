//! Pass 3 of the plan, the choice: priority classes in turn, each in document order (the
//! main content's headings before its text), take a line when it fits with the lines of its
//! ancestors not yet shown and the stub lines the change leaves to write; then a run of
//! hidden lines no longer than its stub is shown instead of it, and the classes run again
//! with what that gave back (see `plan` for passes 1 and 2).

use std::collections::HashMap;

use super::{format, hidden_run, plan, Flat, Format, RenderOptions, TruncateReason, END_RESERVE};
use crate::tree::TreeNode;

/// The share of the budget (in percent) after which no further key form starts (`choose`).
const KEY_SHARE_PERCENT: isize = 40;

/// The passes of a round, (class, which of its lines). The main content's prose (headings,
/// and paragraphs and text of some length with few links) first, then the rest of it: an
/// infobox or a gallery must not crowd out the article around it.
const PASSES: [(u8, Stage); 7] = [
    (plan::P_KEY, Stage::All),
    (plan::P_MAIN, Stage::Prose),
    (plan::P_MAIN, Stage::CardProse),
    (plan::P_MAIN, Stage::Rest),
    (plan::P_REST, Stage::All),
    (plan::P_ASIDE, Stage::All),
    (plan::P_CHROME, Stage::All),
];

/// Pass 3 of the plan: priority classes in turn, each in document order (the main
/// content's headings before its text), take a line when it fits with the lines of its
/// ancestors not yet shown and the stub lines the change leaves to write.
/// Returns the lines it formatted to cost them, by flat index, for `emit` to write as they
/// are: a big page's main content is formatted once, not twice.
pub(super) fn choose(
    cx: &format::Ctx<'_>,
    plan: &mut plan::Plan,
    budget: usize,
    stub_cost: plan::StubCost,
) -> HashMap<usize, format::Line> {
    let mut choice = Choice::new(cx, plan, budget, stub_cost);
    let whole = choice.rounds(plan);
    // Nothing is left out when every stub unfolded: the output is whole.
    plan.reasons = if whole { Vec::new() } else { choice.reasons };
    choice.formatted
}

/// The state of the choice as it takes lines.
struct Choice<'c, 'a> {
    cx: &'c format::Ctx<'a>,
    stub_cost: plan::StubCost,
    /// Content siblings before and after each node (u32::MAX: none).
    prev_c: Vec<u32>,
    next_c: Vec<u32>,
    /// Whether a node has a child with content.
    has_cc: Vec<bool>,
    /// A container's line with its newline, once costed (0: not yet).
    container_cost: Vec<u32>,
    /// What is left of the budget, the stubs to write costed.
    remaining: isize,
    /// Lines shown.
    lines: usize,
    /// Children shown per node (prose not counted: it is not capped).
    shown_children: Vec<u32>,
    /// Main text was cut at the end of its share: no more of it.
    main_text_done: bool,
    reasons: Vec<TruncateReason>,
    /// What main text leaves to the rest of the page ([`main_reserve`]).
    main_reserve: isize,
    /// Key forms start while the key class has spent under this ([`KEY_SHARE_PERCENT`]).
    key_share: isize,
    key_spent: isize,
    /// Per key form (its first member): whether it started in the key class. Decided at its
    /// first line, which comes first in document order.
    form_started: HashMap<usize, bool>,
    /// Ancestors of the line tried that are not shown yet, nearest first.
    chain: Vec<usize>,
    formatted: HashMap<usize, format::Line>,
}

impl<'c, 'a> Choice<'c, 'a> {
    /// Nothing chosen yet: the budget less the reserve for the end line and the root's stub,
    /// should it have content.
    fn new(
        cx: &'c format::Ctx<'a>,
        plan: &plan::Plan,
        budget: usize,
        stub_cost: plan::StubCost,
    ) -> Self {
        let flat = cx.flat;
        let n = flat.len();
        let (prev_c, next_c) = content_siblings(flat, plan);
        let has_cc = has_content_child(flat, plan);
        let runs = isize::from(has_cc[0]);
        let stub = plan::stub_estimate(cx.opts.format, 0, stub_cost) as isize;
        Choice {
            cx,
            stub_cost,
            prev_c,
            next_c,
            has_cc,
            container_cost: vec![0u32; n],
            remaining: budget.saturating_sub(END_RESERVE) as isize - runs * stub,
            lines: 0,
            shown_children: vec![0u32; n],
            main_text_done: false,
            reasons: Vec::new(),
            main_reserve: main_reserve(cx, plan, budget),
            key_share: (budget as isize) * KEY_SHARE_PERCENT / 100,
            key_spent: 0,
            form_started: HashMap::new(),
            chain: Vec::new(),
            formatted: HashMap::new(),
        }
    }

    /// The passes, then the unfolding of the stubs that would not say less than they hide
    /// (`unfold_short_runs`); then both again, to spend what the unfolding gave back.
    /// Returns whether the output is whole: every stub unfolded and no line cut.
    fn rounds(&mut self, plan: &mut plan::Plan) -> bool {
        let round = PASSES.iter().copied().map(Some).chain([None]);
        for step in round.clone().chain(round) {
            let Some((class, stage)) = step else {
                let before = self.remaining;
                let left_hidden = self.unfold_short_runs(plan);
                let whole = !left_hidden && plan.cut.is_empty();
                if whole || self.remaining <= before {
                    return whole;
                }
                continue;
            };
            for i in 1..self.cx.flat.len() {
                self.take(plan, i, class, stage);
            }
        }
        false
    }

    /// Records why something was left out, once per reason.
    fn note(&mut self, r: TruncateReason) {
        if !self.reasons.contains(&r) {
            self.reasons.push(r);
        }
    }

    /// Takes `flat[i]`'s line, and the lines of its ancestors not yet shown, when it is of
    /// `class` and `stage`, within the caps and it fits the budget.
    fn take(&mut self, plan: &mut plan::Plan, i: usize, class: u8, stage: Stage) {
        if plan.kind[i] != plan::Kind::Line || plan.shown[i] || plan.prio[i] != class {
            return;
        }
        if class == plan::P_KEY && !self.key_form_starts(plan, i) {
            return;
        }
        let is_heading = self.cx.flat[i].node.role.as_deref() == Some("heading");
        if !stage.wants(is_heading, plan.prose[i], plan.in_card[i]) {
            return;
        }
        let main_text = class == plan::P_MAIN && !is_heading;
        let new_lines = match self.within_caps(plan, i, class, main_text) {
            Ok(new_lines) => new_lines,
            Err(reason) => return self.note(reason),
        };
        let delta_runs = self.delta_runs(plan, i);
        let stub_cost = plan::stub_estimate(self.cx.opts.format, plan.depth[i], self.stub_cost);
        let fixed = self.ancestors_cost(plan) + delta_runs * stub_cost as isize;
        let avail = if main_text && plan.prose[i] {
            self.remaining - self.main_reserve
        } else {
            self.remaining
        };
        let Some((line, spent, cut)) = self.fit(plan, i, fixed, avail, main_text) else {
            return self.note(TruncateReason::MaxCharsTotal);
        };
        self.formatted.insert(i, line);
        self.show(plan, i);
        if let Some(c) = cut {
            plan.cut.insert(i, c);
        }
        self.lines += new_lines;
        self.remaining -= fixed + spent;
        if class == plan::P_KEY {
            self.key_spent += fixed + spent;
        }
    }

    /// Key forms come first and whole, but not all of them before everything else: a page
    /// with a sign-in, a registration and three download pop-ups (each with an e-mail field
    /// and a country list) spent the whole budget on forms and folded its article. A key
    /// form is started while the key class has spent under `KEY_SHARE` of the budget; one
    /// left over ranks with the rest of the page (`flat[i]` is then moved there, and is not
    /// taken now).
    fn key_form_starts(&mut self, plan: &mut plan::Plan, i: usize) -> bool {
        let Some(&form) = plan.form_of.get(&i) else {
            return true;
        };
        let may_start = self.key_spent < self.key_share;
        let started = *self.form_started.entry(form).or_insert(may_start);
        if !started {
            plan.prio[i] = plan::P_REST;
        }
        started
    }

    /// Whether `flat[i]` may be taken as the caps stand (main text done, the budget nearly
    /// spent, depth, lines, siblings), and with it the ancestors not shown yet (gathered in
    /// `chain`). Returns the lines it would add, or why not.
    fn within_caps(
        &mut self,
        plan: &plan::Plan,
        i: usize,
        class: u8,
        main_text: bool,
    ) -> Result<usize, TruncateReason> {
        let flat = self.cx.flat;
        let opts = self.cx.opts;
        if (main_text && plan.prose[i] && self.main_text_done) || self.remaining <= 8 {
            return Err(TruncateReason::MaxCharsTotal);
        }
        if plan.depth[i] as usize > opts.max_depth {
            return Err(TruncateReason::MaxDepth);
        }
        self.chain.clear();
        let mut a = flat[i].parent as usize;
        while !plan.shown[a] {
            self.chain.push(a);
            a = flat[a].parent as usize;
        }
        let new_lines = 1 + self
            .chain
            .iter()
            .filter(|&&c| plan.kind[c] != plan::Kind::Transparent)
            .count();
        if self.lines + new_lines > opts.max_nodes {
            return Err(TruncateReason::MaxNodes);
        }
        let crowded = std::iter::once(i)
            .chain(self.chain.iter().copied())
            .any(|x| {
                let p = flat[x].parent as usize;
                plan.shown[p]
                    && sibling_capped(plan, p, x)
                    && class != plan::P_KEY
                    && self.shown_children[p] as usize >= opts.max_siblings
            });
        if crowded {
            return Err(TruncateReason::MaxSiblings);
        }
        Ok(new_lines)
    }

    /// Stub runs after the change: each node shown splits or ends the run of hidden
    /// siblings it was in, and a container shown opens a run of its children.
    fn delta_runs(&self, plan: &plan::Plan, i: usize) -> isize {
        let flat = self.cx.flat;
        let mut delta_runs = 0isize;
        for &x in self.chain.iter().rev().chain(std::iter::once(&i)) {
            let hidden = |s: u32| s != u32::MAX && !plan.shown[s as usize];
            let parent_known = plan.shown[flat[x].parent as usize]
                || self.chain.contains(&(flat[x].parent as usize));
            if parent_known {
                delta_runs += match (hidden(self.prev_c[x]), hidden(self.next_c[x])) {
                    (true, true) => 1,
                    (false, false) => -1,
                    _ => 0,
                };
            }
            if x != i && self.has_cc[x] {
                delta_runs += 1;
            }
        }
        delta_runs
    }

    /// The lines of the ancestors not shown yet (`chain`). A container's line is costed
    /// once, however many of its descendants are tried while it is still hidden.
    fn ancestors_cost(&mut self, plan: &plan::Plan) -> isize {
        let mut ancestors_cost = 0isize;
        for &c in &self.chain {
            if plan.kind[c] != plan::Kind::Transparent {
                if self.container_cost[c] == 0 {
                    let line = format::node_line(self.cx, plan, c, true, None);
                    self.container_cost[c] = (line.text.chars().count() + 1) as u32;
                }
                ancestors_cost += self.container_cost[c] as isize;
            }
        }
        ancestors_cost
    }

    /// `flat[i]`'s line, what it costs and where it is cut, when it fits in `avail` after
    /// the `fixed` cost of its ancestors and stubs; `None` when it does not.
    fn fit(
        &mut self,
        plan: &plan::Plan,
        i: usize,
        fixed: isize,
        avail: isize,
        main_text: bool,
    ) -> Option<(format::Line, isize, Option<usize>)> {
        let cx = self.cx;
        // Once the budget is nearly spent, most lines of a big page cannot fit: a lower
        // bound on the line's length rejects them without formatting it. (Main text is
        // cut to fit when 60 characters are left, so only below that.)
        let may_cut = main_text && avail - fixed > 60;
        if !may_cut && fixed + line_lower_bound(cx.opts, plan, cx.flat[i].node, i) > avail {
            return None;
        }
        let line = format::node_line(cx, plan, i, false, None);
        let cost = (line.text.chars().count() + 1) as isize;
        if fixed + cost <= avail {
            return Some((line, cost, None));
        }
        // Main text at the end of its share is cut on a word boundary, not dropped.
        let room = avail - fixed - 1;
        if !main_text || room < 60 {
            return None;
        }
        let head_len = line.text.chars().count() as isize - text_part_len(&line.text) as isize;
        let text_room = room - head_len;
        if text_room < 30 {
            return None;
        }
        self.main_text_done = true;
        self.note(TruncateReason::MaxCharsTotal);
        let cut = text_room as usize;
        let line = format::node_line(cx, plan, i, false, Some(cut));
        let spent = (line.text.chars().count() + 1) as isize;
        Some((line, spent, Some(cut)))
    }

    /// Shows `flat[i]` and the ancestors not shown yet (`chain`).
    fn show(&mut self, plan: &mut plan::Plan, i: usize) {
        let flat = self.cx.flat;
        for &x in self.chain.iter().rev().chain(std::iter::once(&i)) {
            plan.shown[x] = true;
            // Prose is not capped, and does not count toward the cap of the rest.
            if !plan.prose[x] {
                self.shown_children[flat[x].parent as usize] += 1;
            }
        }
    }

    /// After a round of the choice: a run of hidden lines that takes no more characters than
    /// its stub would, with what is left of the budget, is shown instead. `- paragraph
    /// (folded: 1 text)` hid "Snacks:" in more characters than it takes to say it, and told
    /// the model only that something was there. The caps on lines, depth and siblings hold as
    /// in [`choose`]. `remaining` gets back the stubs as the choice costed them, less the lines
    /// shown for them. Returns whether any run is left hidden.
    fn unfold_short_runs(&mut self, plan: &mut plan::Plan) -> bool {
        let flat = self.cx.flat;
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
            let j = hidden_run(flat, plan, i, &mut members);
            left_hidden |= !self.unfold(plan, i, &members);
            i = j;
        }
        left_hidden
    }

    /// Shows the run of hidden lines `members` that starts at `flat[i]` instead of its stub,
    /// when the caps allow and its lines take no more than the stub and what is left of the
    /// budget. Returns whether it did.
    fn unfold(&mut self, plan: &mut plan::Plan, i: usize, members: &[usize]) -> bool {
        let cx = self.cx;
        let p = cx.flat[i].parent as usize;
        if !self.may_unfold(plan, p, members) {
            return false;
        }
        let stub = format::stub_line(cx, plan, members, plan.depth[i] as usize);
        // The stub's room, and what is left of the budget.
        let limit = stub.text.chars().count() + 1 + self.remaining.max(0) as usize;
        let mut cost = 0;
        let mut shown = Vec::with_capacity(members.len());
        for &m in members {
            let line = format::node_line(cx, plan, m, false, None);
            cost += line.text.chars().count() + 1;
            if cost > limit {
                return false;
            }
            shown.push((m, line));
        }
        for (m, line) in shown {
            plan.shown[m] = true;
            self.formatted.insert(m, line);
            if !plan.prose[m] {
                self.shown_children[p] += 1;
            }
        }
        self.lines += members.len();
        // The choice costed the run's stub at its estimate.
        let estimate = plan::stub_estimate(cx.opts.format, plan.depth[i], self.stub_cost);
        self.remaining += estimate as isize - cost as isize;
        true
    }

    /// Whether the caps on lines, depth and siblings let the run `members` (children of
    /// `flat[p]`) be shown whole.
    fn may_unfold(&self, plan: &plan::Plan, p: usize, members: &[usize]) -> bool {
        let opts = self.cx.opts;
        let crowded = |x: usize| {
            sibling_capped(plan, p, x)
                && plan.prio[x] != plan::P_KEY
                && self.shown_children[p] as usize + members.len() > opts.max_siblings
        };
        self.lines + members.len() <= opts.max_nodes
            && members.iter().all(|&m| {
                plan.kind[m] == plan::Kind::Line
                    && plan.depth[m] as usize <= opts.max_depth
                    && !crowded(m)
            })
    }
}

/// The content siblings (nodes that make a line) before and after each node, among the
/// children of a container (u32::MAX: none).
fn content_siblings(flat: &[Flat<'_>], plan: &plan::Plan) -> (Vec<u32>, Vec<u32>) {
    let n = flat.len();
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
            if plan.kind[j] != plan::Kind::None {
                prev_c[j] = last;
                if last != u32::MAX {
                    next_c[last as usize] = j as u32;
                }
                last = j as u32;
            }
            j = flat[j].end as usize;
        }
    }
    (prev_c, next_c)
}

/// Whether each node has a child that makes a line: shown, it opens a run of stubs.
fn has_content_child(flat: &[Flat<'_>], plan: &plan::Plan) -> Vec<bool> {
    (0..flat.len())
        .map(|i| {
            let mut j = i + 1;
            while j < flat[i].end as usize {
                if plan.kind[j] != plan::Kind::None {
                    return true;
                }
                j = flat[j].end as usize;
            }
            false
        })
        .collect()
}

/// Main text leaves room to the rest of the page, when there is a rest: a long article
/// must not hide every control. The room is what the other controls of the main content
/// and of the rest of the page take (at a lower bound per line, plus a ref and an
/// attribute), never over a tenth. Controls of complementary regions and of the chrome
/// rank below the main content and hold nothing back: a news page's menu toggles and
/// footer buttons took the tenth, and the chrome comes last anyway. Nothing is held back
/// for stub lines either: every line shown pays for the stubs it opens or splits. (A flat
/// tenth, then a fortieth on top of the controls, went to chart labels, bylines and
/// comment headers.)
fn main_reserve(cx: &format::Ctx<'_>, plan: &plan::Plan, budget: usize) -> isize {
    let flat = cx.flat;
    let n = flat.len();
    let rest_pending = (1..n).any(|i| {
        plan.kind[i] == plan::Kind::Line
            && !plan.prose[i]
            && flat[i].node.role.as_deref() != Some("heading")
    });
    if !rest_pending {
        return 0;
    }
    let controls: isize = (1..n)
        .filter(|&i| {
            plan.kind[i] == plan::Kind::Line
                && matches!(plan.prio[i], plan::P_MAIN | plan::P_REST)
                && plan::is_control(plan::role_of(flat[i].node))
        })
        .map(|i| line_lower_bound(cx.opts, plan, flat[i].node, i) + 24)
        .sum();
    controls.min(budget as isize / 10)
}

/// Whether the cap on siblings shown (`max_siblings`) counts `flat[x]` among the children
/// of `flat[p]`. The page itself is no list: its children are never capped, and neither is
/// the main content, in it or among the parent's other children (a carousel of 25 teasers
/// beside the article's paragraphs must not cap them), nor prose.
fn sibling_capped(plan: &plan::Plan, p: usize, x: usize) -> bool {
    p != 0 && !((plan.in_main[p] || plan.in_main[x]) && plan.has_main) && !plan.prose[x]
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

impl Stage {
    /// Whether the stage takes a line that is a heading, prose, in a card.
    fn wants(self, is_heading: bool, prose: bool, in_card: bool) -> bool {
        match self {
            Stage::All => true,
            Stage::Prose => (is_heading || prose) && !in_card,
            Stage::CardProse => (is_heading || prose) && in_card,
            Stage::Rest => !is_heading && !prose,
        }
    }
}

/// The length of what follows `: ` in a text line (0 when there is none).
fn text_part_len(line: &str) -> usize {
    line.split_once(": ").map_or(0, |(_, t)| t.chars().count())
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
