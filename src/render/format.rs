//! Line formats and the character budget.
//!
//! The header (which carries counts known only at the end) is budgeted up front at its
//! worst-case length; every line is checked against what is left before it is written, so
//! `finish` always closes the output within `max_chars_total`.

use std::borrow::Cow;
use std::fmt::Write as _;
use std::num::NonZeroU32;

use serde::Serialize;

use super::lean;
use super::plan::{is_control, Plan};
use super::{Flat, Format, RenderOptions, RenderStats, TruncateReason};
use crate::content::DECLARED;
use crate::text::{alnum, defang_refs, truncate_with_ellipsis, ELLIPSIS};
use crate::tree::{NodeTree, Ref, States, TreeNode, View};

/// Longest URL and title shown in the header.
pub(crate) const MAX_URL_CHARS: usize = 300;
pub(crate) const MAX_TITLE_CHARS: usize = 200;
/// Longest data line (`[data] …`) under the header, in characters: the content stage's own
/// bound, held again for trees made elsewhere.
const MAX_DATA_CHARS: usize = 300;
/// What the page declares and does not show takes at most this part of the budget
/// (`1 / DECLARED_SHARE`): the page's own lines, if any, keep the rest.
const DECLARED_SHARE: usize = 4;
/// Longest name a stub line repeats.
const MAX_STUB_NAME_CHARS: usize = 40;
/// Every reason, for the worst-case header.
const ALL_REASONS: [TruncateReason; 4] = [
    TruncateReason::MaxCharsTotal,
    TruncateReason::MaxNodes,
    TruncateReason::MaxDepth,
    TruncateReason::MaxSiblings,
];

/// What every line needs besides its node.
pub(super) struct Ctx<'a> {
    pub flat: &'a [Flat<'a>],
    pub refs_ok: &'a [bool],
    pub opts: &'a RenderOptions,
    /// `scheme://host` of the page, to show same-origin URLs as paths.
    pub origin: Option<&'a str>,
}

impl Ctx<'_> {
    fn ref_of(&self, i: usize) -> Option<Ref> {
        self.flat[i].node.ref_.filter(|_| self.refs_ok[i])
    }
}

/// A line and the refs it shows (flat indices), in order.
pub(super) struct Line {
    pub text: String,
    pub refs: Vec<usize>,
}

#[derive(Clone)]
pub(super) struct Writer<'a> {
    tree: &'a NodeTree,
    opts: &'a RenderOptions,
    main: Option<Ref>,
    body: String,
    body_chars: usize,
    budget: usize,
    nodes: usize,
    reasons: Vec<TruncateReason>,
    closed: bool,
}

impl<'a> Writer<'a> {
    pub(super) fn new(tree: &'a NodeTree, opts: &'a RenderOptions, main: Option<Ref>) -> Self {
        let worst = header(tree, opts, main, usize::MAX, &ALL_REASONS);
        let reserve = worst.chars().count() + closing(opts.format).len();
        Writer {
            tree,
            opts,
            main,
            body: String::new(),
            body_chars: 0,
            budget: opts.max_chars_total.saturating_sub(reserve),
            nodes: 0,
            reasons: Vec::new(),
            closed: false,
        }
    }

    /// A copy of this writer whose body may take any length: a scratch that measures a choice
    /// ([`Writer::fits_within`]).
    pub(super) fn unlimited(&self) -> Self {
        Writer {
            budget: usize::MAX,
            ..self.clone()
        }
    }

    /// This writer held to `budget` again. Once its body fits within it
    /// ([`Writer::fits_within`]), a writer that had had the limit all along would have written
    /// the same: every line left room for the last.
    pub(super) fn within(self, budget: usize) -> Self {
        Writer { budget, ..self }
    }

    /// What the body may still take.
    pub(super) fn budget(&self) -> usize {
        self.budget
    }

    /// What the body has taken.
    pub(super) fn body_chars(&self) -> usize {
        self.body_chars
    }

    /// Whether what the body has taken would have been written within `budget`: every line
    /// leaves room for the one that says the output was cut, so the last one does.
    pub(super) fn fits_within(&self, budget: usize) -> bool {
        self.body_chars + self.end_reserve() <= budget
    }

    pub(super) fn reason(&mut self, r: TruncateReason) {
        if !self.reasons.contains(&r) {
            self.reasons.push(r);
        }
    }

    /// The cost of a line as written (with its separator).
    pub(super) fn cost(&self, line: &str) -> usize {
        self.separator_len() + line.chars().count()
    }

    /// Writes a node line if it fits (leaving room for the last line that says the output
    /// was cut). Returns false, and writes nothing more after, when it did not.
    pub(super) fn node(&mut self, line: &str) -> bool {
        if self.push_if_fits(line, true) {
            self.nodes += 1;
            true
        } else {
            false
        }
    }

    /// Writes a stub line if it fits; else ends the output as a node line would.
    pub(super) fn stub(&mut self, line: &str) -> bool {
        self.push_if_fits(line, true)
    }

    fn push_if_fits(&mut self, line: &str, keep_room: bool) -> bool {
        if self.closed {
            return false;
        }
        let cost = self.cost(line);
        let room = if keep_room { self.end_reserve() } else { 0 };
        if self.body_chars + cost + room > self.budget {
            self.close_cut();
            return false;
        }
        self.push(line, cost);
        true
    }

    fn end_reserve(&self) -> usize {
        1 + cut_line(self.opts.format).chars().count()
    }

    /// Ends the output with a line saying it was cut (the selection's estimates were off).
    fn close_cut(&mut self) {
        self.reason(TruncateReason::MaxCharsTotal);
        let line = cut_line(self.opts.format);
        let cost = self.cost(line);
        if self.body_chars + cost <= self.budget {
            self.push(line, cost);
        }
        self.closed = true;
    }

    fn separator_len(&self) -> usize {
        match self.opts.format {
            Format::Json => usize::from(!self.body.is_empty()),
            // Text and list: every body line starts on a new line after the header.
            _ => 1,
        }
    }

    fn push(&mut self, line: &str, cost: usize) {
        match self.opts.format {
            Format::Json if !self.body.is_empty() => self.body.push(','),
            Format::Json => {}
            _ => self.body.push('\n'),
        }
        self.body.push_str(line);
        self.body_chars += cost;
    }

    pub(super) fn finish(mut self) -> (String, RenderStats) {
        self.reasons.sort();
        let head = header(self.tree, self.opts, self.main, self.nodes, &self.reasons);
        let mut text = head;
        text.push_str(&self.body);
        text.push_str(closing(self.opts.format));
        // Only a budget smaller than the header itself gets here: cut, on a char boundary.
        if text.chars().count() > self.opts.max_chars_total {
            if !self.reasons.contains(&TruncateReason::MaxCharsTotal) {
                self.reasons.push(TruncateReason::MaxCharsTotal);
            }
            let (kept, _) = crate::text::truncate_chars(&text, self.opts.max_chars_total);
            let mut kept = kept.to_string();
            // `truncate_chars` leaves room for an ellipsis; fill it with the next char.
            if let Some(c) = text[kept.len()..].chars().next() {
                if kept.chars().count() < self.opts.max_chars_total {
                    kept.push(c);
                }
            }
            text = kept;
        }
        let chars = text.chars().count();
        let stats = RenderStats {
            nodes_emitted: self.nodes,
            chars_emitted: chars,
            truncated: !self.reasons.is_empty(),
            truncate_reasons: self.reasons,
        };
        (text, stats)
    }
}

fn closing(format: Format) -> &'static str {
    match format {
        Format::Json => "]}",
        _ => "",
    }
}

/// The last line of an output the budget cut short.
fn cut_line(format: Format) -> &'static str {
    match format {
        Format::Json => r#"{"depth":0,"cut":true}"#,
        _ => "- ... (cut: budget reached)",
    }
}

/// The header: counts as given (`usize::MAX` stands for "as long as it can get").
fn header(
    tree: &NodeTree,
    opts: &RenderOptions,
    main: Option<Ref>,
    nodes: usize,
    reasons: &[TruncateReason],
) -> String {
    let url = tree
        .url
        .as_deref()
        .map(|u| truncate_with_ellipsis(u, MAX_URL_CHARS));
    let title = tree
        .title
        .as_deref()
        .map(|t| truncate_with_ellipsis(t, MAX_TITLE_CHARS));
    let truncated = !reasons.is_empty();
    // A tree from elsewhere (the script's JSON) is held to the line's bound and one line.
    let data = tree.data.as_deref().map(|d| {
        let line = d.replace(['\n', '\r'], " ");
        truncate_with_ellipsis(&line, MAX_DATA_CHARS).into_owned()
    });
    // What the page declares and does not show, in a quarter of the budget at most: one
    // line, cleaned as page text is (its data is no more trusted than its markup); none
    // where a budget leaves it no more than its ellipsis.
    let declared = tree
        .declared
        .as_deref()
        .map(|d| {
            let line = clean(&d.replace(['\n', '\r'], " ")).into_owned();
            let room = (opts.max_chars_total / DECLARED_SHARE).saturating_sub(DECLARED.len() + 1);
            truncate_with_ellipsis(&line, room).into_owned()
        })
        .filter(|d| d.chars().count() > 1);
    // The worst case reserves room for the largest ref.
    let main = if nodes == usize::MAX {
        main.and(Ref::new(u32::MAX))
    } else {
        main
    };
    match opts.format {
        Format::Json => {
            #[derive(Serialize)]
            #[serde(rename_all = "camelCase")]
            struct Head<'a> {
                url: Option<&'a str>,
                title: Option<&'a str>,
                #[serde(skip_serializing_if = "View::is_scripted")]
                view: View,
                #[serde(skip_serializing_if = "Option::is_none")]
                data: Option<&'a str>,
                #[serde(skip_serializing_if = "Option::is_none")]
                declared: Option<&'a str>,
                #[serde(skip_serializing_if = "Option::is_none")]
                main: Option<Ref>,
                nodes: usize,
                truncated: bool,
                truncate_reasons: &'a [TruncateReason],
            }
            let head = Head {
                url: url.as_deref(),
                title: title.as_deref(),
                view: tree.view,
                data: data.as_deref(),
                declared: declared.as_deref(),
                main,
                nodes,
                truncated,
                truncate_reasons: reasons,
            };
            let mut h = serde_json::to_string(&head).unwrap_or_else(|_| "{".to_string());
            // Reopen the object to append the line array.
            h.pop();
            h.push_str(",\"lines\":[");
            h
        }
        _ => {
            let mut h = String::from("[snapshot]");
            if let Some(u) = url {
                let _ = write!(h, " url={}", attr_value(&u));
            }
            if let Some(t) = title {
                let _ = write!(h, " title={}", quote(&t));
            }
            // The page showed its content only to browsers without scripts: say it is that
            // view, so a model that acts on the live page expects another one.
            if !tree.view.is_scripted() {
                let _ = write!(h, " view={}", tree.view.as_str());
            }
            if let Some(m) = main {
                let _ = write!(h, " main={m}");
            }
            let _ = write!(h, " nodes={nodes} truncated={truncated}");
            if truncated {
                let names: Vec<_> = reasons.iter().map(|r| r.as_str()).collect();
                let _ = write!(h, " reasons={}", names.join(","));
            }
            // The page's own data, under the header (`[data] price=…`).
            if let Some(d) = data {
                h.push('\n');
                h.push_str(&d);
            }
            if let Some(d) = declared {
                let _ = write!(h, "\n{DECLARED} {d}");
            }
            h
        }
    }
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

/// Text shown after a line's colon: no control character or line separator can start a
/// line of its own, and no page text reads as a ref marker ([`defang_refs`]).
fn clean(s: &str) -> Cow<'_, str> {
    match no_controls(s) {
        Cow::Borrowed(b) => defang_refs(b),
        Cow::Owned(o) => Cow::Owned(defang_refs(&o).into_owned()),
    }
}

/// `s` with control characters and line separators turned into spaces.
fn no_controls(s: &str) -> Cow<'_, str> {
    if s.chars()
        .any(|c| c.is_control() || matches!(c, '\u{2028}' | '\u{2029}'))
    {
        Cow::Owned(
            s.chars()
                .map(|c| {
                    if c.is_control() || matches!(c, '\u{2028}' | '\u{2029}') {
                        ' '
                    } else {
                        c
                    }
                })
                .collect(),
        )
    } else {
        Cow::Borrowed(s)
    }
}

/// A link label opened for `[label](ref)` ([`crate::text::push_label_open`]), control
/// characters as spaces.
fn opened(label: &str) -> String {
    let mut out = String::with_capacity(label.len() + 2);
    crate::text::push_label_open(&mut out, &no_controls(label));
    out
}

/// Joins inline parts as text reads: a space between them, none before closing
/// punctuation or after an opening bracket.
fn join_part(out: &mut String, part: &str) {
    if part.is_empty() {
        return;
    }
    let glue_after = out.ends_with([
        '(', '[', '{', '«', '“', '‘', '¿', '¡', '/', '$', '€', '£', '¥',
    ]);
    let glue_before = part.starts_with([
        ',', '.', ';', ':', '!', '?', ')', ']', '}', '»', '”', '’', '%', '…', '、', '。', '，',
    ]);
    if !out.is_empty() && !glue_after && !glue_before {
        out.push(' ');
    }
    // A glued join can make a marker of two harmless parts (`[` + `ref=e5]`); text parts
    // are defanged already, links are the renderer's own markers.
    let seam = out.len();
    out.push_str(part);
    crate::text::escape_seam(out, seam);
}

/// Cuts `s` to at most `max` chars on a word boundary, ending in an ellipsis.
fn cut_words(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    format!("{}{ELLIPSIS}", crate::text::word_head(s, max).trim_end())
}

/// The inline content of `flat[i]`'s subtree: text runs, `[label](ref)` for links,
/// alternative text for images. Refs shown are collected.
fn inline_content(cx: &Ctx<'_>, i: usize, limit: usize, refs: &mut Vec<usize>) -> String {
    let flat = cx.flat;
    let end = flat[i].end as usize;
    let mut out = String::new();
    let mut chars = 0usize;
    let mut j = i + 1;
    let mut full = false;
    // The alt text of the line's last image: a picture the page puts twice in a row (its
    // light and dark versions, a lazy copy beside its fallback) says it once.
    let mut last_alt: Option<String> = None;
    while j < end && !full {
        let node = flat[j].node;
        let j_end = flat[j].end as usize;
        let part: Cow<'_, str> = if node.is_text_run() {
            let text = clean(node.text.as_deref().unwrap_or(""));
            if !text.trim().is_empty() {
                last_alt = None;
            }
            text
        } else {
            let label = label(flat, j);
            let img = node.role.as_deref() == Some("img") && !label.is_empty();
            if img && last_alt.as_deref() == Some(label.as_ref()) {
                j = j_end;
                continue;
            }
            last_alt = img.then(|| label.to_string());
            match (node.role.as_deref(), cx.ref_of(j)) {
                (Some("img"), Some(r)) if !label.is_empty() => {
                    Cow::Owned(format!("!{}]({r})", opened(&label)))
                }
                (_, Some(r)) => Cow::Owned(format!("{}]({r})", opened(&label))),
                _ => Cow::Owned(clean(&label).into_owned()),
            }
        };
        let part_chars = part.chars().count() + 1;
        if chars + part_chars > limit {
            // A text part is cut on a word boundary; a link that does not fit is left out
            // whole (its ref is then not shown).
            if node.is_text_run() && limit > chars + 8 {
                join_part(&mut out, &cut_words(&part, limit - chars - 1));
            } else {
                out.push(ELLIPSIS);
            }
            full = true;
        } else {
            if !node.is_text_run() && cx.ref_of(j).is_some() {
                refs.push(j);
            }
            join_part(&mut out, &part);
            chars += part_chars;
        }
        j = if node.is_text_run() { j + 1 } else { j_end };
    }
    out
}

/// A select's options on its line: labels joined with ` | `, a selected one marked
/// `[selected]` as on any line; when they do not fit, the count of options and the
/// selected one, so the current value is always said.
fn options_content(flat: &[Flat<'_>], i: usize, limit: usize) -> String {
    let end = flat[i].end as usize;
    let options: Vec<(String, bool)> = (i + 1..end)
        .filter(|&j| super::plan::role_of(flat[j].node) == "option")
        .map(|j| {
            let selected = flat[j].node.states.contains(crate::tree::State::Selected);
            (clean(&label(flat, j)).into_owned(), selected)
        })
        .collect();
    // An empty option (a placeholder) counts but says nothing.
    let all: Vec<String> = options
        .iter()
        .filter(|(l, sel)| !l.trim().is_empty() || *sel)
        .map(|(l, sel)| {
            if *sel {
                format!("{l} [selected]")
            } else {
                l.clone()
            }
        })
        .collect();
    let whole = all.join(" | ");
    if whole.chars().count() <= limit {
        return whole;
    }
    let selected: Vec<&str> = options
        .iter()
        .filter(|(_, sel)| *sel)
        .map(|(l, _)| l.as_str())
        .collect();
    let mut tail = format!("{ELLIPSIS} ({} options", options.len());
    if !selected.is_empty() {
        let _ = write!(tail, "; selected: {}", selected.join(" | "));
    }
    tail.push(')');
    let mut out = String::new();
    let room = limit.saturating_sub(tail.chars().count() + 1);
    for part in &all {
        let sep = if out.is_empty() { 0 } else { 3 };
        if out.chars().count() + sep + part.chars().count() > room {
            break;
        }
        if sep > 0 {
            out.push_str(" | ");
        }
        out.push_str(part);
    }
    if !out.is_empty() {
        out.push(' ');
    }
    out.push_str(&tail);
    cut_words(&out, limit.max(24))
}

/// A simple row's cells, ` | ` between them: each cell's inline content or its text.
fn row_content(cx: &Ctx<'_>, i: usize, limit: usize, refs: &mut Vec<usize>) -> String {
    let flat = cx.flat;
    let mut out = String::new();
    let mut j = i + 1;
    while j < flat[i].end as usize {
        let cell = flat[j].node;
        let room = limit.saturating_sub(out.chars().count());
        if room < 4 {
            out.push(ELLIPSIS);
            break;
        }
        let part = if cell.children.is_empty() {
            let t = cell.text.as_deref().or(cell.name.as_deref()).unwrap_or("");
            cut_words(&clean(t), room)
        } else {
            inline_content(cx, j, room, refs)
        };
        if j > i + 1 {
            out.push_str(" | ");
        }
        out.push_str(&part);
        j = flat[j].end as usize;
    }
    out
}

/// Whether the subtree's own words (texts and leaf names, in order) say `name` already.
/// Reads only as far as `name` could reach.
fn said_by_content(flat: &[Flat<'_>], i: usize, name: &str) -> bool {
    // Most names computed from content are the content, word for word: checked first,
    // character by character, without building either string.
    let mut content = flat[i + 1..flat[i].end as usize]
        .iter()
        .flat_map(|f| alnum(own_words(f.node).unwrap_or("")));
    if alnum(name).all(|c| content.next() == Some(c)) {
        return true;
    }
    let want = alnum(name).collect::<String>();
    if want.is_empty() {
        return true;
    }
    let mut have = String::new();
    for f in &flat[i + 1..flat[i].end as usize] {
        if let Some(w) = own_words(f.node) {
            have.extend(alnum(w));
        }
        if have.len() > want.len() + 400 {
            break;
        }
    }
    have.contains(&want)
}

/// A node's own words in its subtree's content: its text, or a leaf's name.
fn own_words(n: &TreeNode) -> Option<&str> {
    n.text
        .as_deref()
        .or(n.name.as_deref().filter(|_| n.children.is_empty()))
}

/// What an element inside a line is called there: its name, its text, or the plain text of
/// its subtree (a link or an option without either).
fn label(flat: &[Flat<'_>], j: usize) -> String {
    let node = flat[j].node;
    node.name
        .as_deref()
        .or(node.text.as_deref())
        .map(str::to_string)
        .unwrap_or_else(|| plain_text(flat, j))
}

/// The plain text of a subtree (runs and texts), for labels of links without a name.
fn plain_text(flat: &[Flat<'_>], i: usize) -> String {
    let mut out = String::new();
    for f in &flat[i + 1..flat[i].end as usize] {
        if let Some(t) = f.node.text.as_deref() {
            join_part(&mut out, t);
        }
    }
    out
}

/// The attributes a line shows, in `include_attrs` order, without what it says already.
fn shown_attrs<'n>(
    cx: &'n Ctx<'n>,
    node: &'n TreeNode,
    label: Option<&'n str>,
) -> impl Iterator<Item = (&'n str, Cow<'n, str>)> + 'n {
    let role = node.role.as_deref().unwrap_or("generic");
    cx.opts.include_attrs.iter().filter_map(move |name| {
        let value = node.attrs.get(name)?;
        if Some(value) == label || lean::redundant(name, value, role) {
            return None;
        }
        // A label that merely repeats the name is noise.
        if name == "aria-label" && node.name.as_deref() == Some(value.trim()) {
            return None;
        }
        Some((
            name.as_str(),
            lean::value(name, value, cx.origin, cx.opts.max_attr_value_len),
        ))
    })
}

/// The parts every node line has: role, name, attributes, level, states, ref.
struct Head<'a> {
    role: &'a str,
    name: Option<Cow<'a, str>>,
    attrs: Vec<(&'a str, Cow<'a, str>)>,
    level: Option<u32>,
    states: States,
    ref_: Option<Ref>,
    /// Characters of collapsed panels the control reveals (`TreeNode::collapsed`).
    collapsed: Option<NonZeroU32>,
}

fn head<'a>(cx: &'a Ctx<'a>, i: usize, name: Option<&'a str>) -> Head<'a> {
    let node = cx.flat[i].node;
    let name = name.filter(|n| !n.is_empty());
    Head {
        role: node.role.as_deref().unwrap_or("generic"),
        name: name.map(|n| truncate_with_ellipsis(n, cx.opts.max_text_per_node)),
        attrs: shown_attrs(cx, node, name).collect(),
        level: node.level,
        states: node.states,
        ref_: cx.ref_of(i),
        collapsed: node.collapsed,
    }
}

/// The line of `flat[i]` as the plan decided: a whole line (`container` false) or the head
/// of its children's lines. `cut`: main text cut to fit the end of the budget.
pub(super) fn node_line(
    cx: &Ctx<'_>,
    plan: &Plan,
    i: usize,
    container: bool,
    cut: Option<usize>,
) -> Line {
    let flat = cx.flat;
    let node = flat[i].node;
    let depth = plan.depth[i] as usize;
    let opts = cx.opts;
    let mut refs = Vec::new();
    let in_main = plan.in_main[i];
    let text_limit = match cut {
        Some(c) => c,
        None if in_main => usize::MAX,
        None => opts.max_text_per_node,
    };
    if node.is_text_run() {
        let own = plan
            .text_override
            .get(&i)
            .map(String::as_str)
            .or(node.text.as_deref());
        let text = clean(own.unwrap_or(""));
        let text = cut_words(&text, text_limit);
        return Line {
            text: write_line(opts.format, depth, "text", None, &text, false),
            refs,
        };
    }
    let role = node.role.as_deref().unwrap_or("generic");
    // What follows the colon: inline content, or a leaf's own text.
    let content = if container {
        String::new()
    } else if role == "row" && !node.children.is_empty() {
        row_content(cx, i, text_limit, &mut refs)
    } else if super::plan::option_list(flat, i) {
        options_content(flat, i, text_limit.min(opts.max_text_per_node))
    } else if !(node.children.is_empty() || role == "link" || role == "img") {
        inline_content(cx, i, text_limit, &mut refs)
    } else {
        node.text
            .as_deref()
            .filter(|t| Some(*t) != node.name.as_deref())
            .map(|t| cut_words(&clean(t), text_limit))
            .unwrap_or_default()
    };
    // The name is left out where the content says it already: a name computed from the
    // content (a cell, a heading over a link of the same words, a row named by its cells),
    // or a figure's caption on the figure's own line (its image's alt often repeats it).
    let name = node.name.as_deref().filter(|n| {
        let shows_content = !content.is_empty() || container;
        let from_content = crate::aria::roles::allows_name_from_content(role)
            || role == "row"
            || (role == "figure" && !container);
        !(shows_content && from_content && said_by_content(flat, i, n))
    });
    let mut h = head(cx, i, name);
    // A list item or cell of an article (the main content found on the page) shown whole
    // needs no ref of its own: the line says all the `text` query would, and its links
    // carry their refs. (Cut or folded, it keeps the ref that gets the rest.) The ref stays
    // in the tree: refs never renumber.
    if in_main && plan.has_main && cut.is_none() && !container && says_all(role) {
        h.ref_ = None;
    }
    if h.ref_.is_some() {
        refs.insert(0, i);
    }
    let text = match opts.format {
        Format::Json => json_line(depth, &h, &content),
        _ => {
            let mut line = indent(depth);
            line.push_str("- ");
            line.push_str(&sanitize_token(h.role));
            if let Some(n) = &h.name {
                line.push(' ');
                line.push_str(&quote(n));
            }
            for (name, value) in &h.attrs {
                let _ = write!(line, " [{}={}]", sanitize_token(name), attr_value(value));
            }
            if let Some(level) = h.level {
                let _ = write!(line, " [level={level}]");
            }
            for state in h.states.iter() {
                let _ = write!(line, " [{}]", state.as_str());
            }
            if let Some(r) = h.ref_ {
                let _ = write!(line, " [ref={r}]");
            }
            // What a click on the control reveals, as a fold says what it holds: a scope on
            // the control's ref shows it.
            if let Some(c) = h.collapsed {
                let _ = write!(line, " (collapsed: {c} chars)");
            }
            if container {
                line.push(':');
            } else if !content.is_empty() {
                line.push_str(": ");
                line.push_str(&content);
            }
            line
        }
    };
    Line { text, refs }
}

/// Roles whose whole line in the main content is all there is to them (see `node_line`).
fn says_all(role: &str) -> bool {
    matches!(
        role,
        "listitem" | "cell" | "gridcell" | "rowheader" | "columnheader"
    )
}

/// A `- text: …` line (or its JSON object).
fn write_line(
    format: Format,
    depth: usize,
    role: &str,
    name: Option<&str>,
    content: &str,
    container: bool,
) -> String {
    match format {
        Format::Json => json_line(
            depth,
            &Head {
                role,
                name: name.map(Cow::Borrowed),
                attrs: Vec::new(),
                level: None,
                states: States::default(),
                ref_: None,
                collapsed: None,
            },
            content,
        ),
        _ => {
            let mut line = indent(depth);
            let _ = write!(line, "- {role}");
            if let Some(n) = name {
                let _ = write!(line, " {}", quote(n));
            }
            if container {
                line.push(':');
            } else if !content.is_empty() {
                let _ = write!(line, ": {content}");
            }
            line
        }
    }
}

fn json_line(depth: usize, h: &Head<'_>, content: &str) -> String {
    #[derive(Serialize)]
    struct JsonLine<'a> {
        depth: usize,
        role: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<&'a str>,
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        ref_: Option<Ref>,
        #[serde(skip_serializing_if = "JsonAttrs::is_empty")]
        attrs: JsonAttrs<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        level: Option<u32>,
        #[serde(skip_serializing_if = "States::is_empty")]
        states: States,
        #[serde(skip_serializing_if = "Option::is_none")]
        collapsed: Option<NonZeroU32>,
        #[serde(skip_serializing_if = "str::is_empty")]
        text: &'a str,
    }
    let line = JsonLine {
        depth,
        role: h.role,
        name: h.name.as_deref(),
        ref_: h.ref_,
        attrs: JsonAttrs(&h.attrs),
        level: h.level,
        states: h.states,
        collapsed: h.collapsed,
        text: content,
    };
    serde_json::to_string(&line).unwrap_or_default()
}

/// A name on a list line is cut here: the list is the cheapest view per element, a
/// headline's first dozen words tell it apart, and the `text` query gives the rest.
const LIST_NAME: usize = 80;

/// A line of the flat element list: role, name, states, ref.
pub(super) fn list_line(cx: &Ctx<'_>, i: usize) -> String {
    let node = cx.flat[i].node;
    let name = node
        .name
        .as_deref()
        .or(node.text.as_deref())
        .filter(|n| !n.is_empty());
    // A field without a name says what it is for. A link's href stays in the ref map: on the
    // list, hrefs cost more characters than the nameless links they describe are worth.
    let attrs = match name {
        Some(_) => Vec::new(),
        None => head(cx, i, None)
            .attrs
            .into_iter()
            .filter(|(a, _)| matches!(*a, "placeholder" | "name"))
            .take(1)
            .collect(),
    };
    let h = Head {
        role: node.role.as_deref().unwrap_or("generic"),
        name: name.map(|n| truncate_with_ellipsis(n, cx.opts.max_text_per_node.min(LIST_NAME))),
        attrs,
        level: node.level,
        states: node.states,
        ref_: cx.ref_of(i),
        // The list is the cheapest view: what a control reveals is the full snapshot's.
        collapsed: None,
    };
    match cx.opts.format {
        Format::Json => json_line(0, &h, ""),
        _ => {
            let mut line = format!("- {}", sanitize_token(h.role));
            if let Some(n) = &h.name {
                let _ = write!(line, " {}", quote(n));
            }
            for (name, value) in &h.attrs {
                let _ = write!(line, " [{}={}]", sanitize_token(name), attr_value(value));
            }
            for state in h.states.iter() {
                let _ = write!(line, " [{}]", state.as_str());
            }
            if let Some(r) = h.ref_ {
                let _ = write!(line, " [ref={r}]");
            }
            line
        }
    }
}

/// What a fold holds, for its stub line.
#[derive(Default)]
pub(super) struct Folded {
    pub items: usize,
    pub links: u32,
    pub controls: u32,
    pub other_refs: u32,
    pub texts: u32,
    pub first_ref: Option<Ref>,
    pub last_ref: Option<Ref>,
}

impl Folded {
    fn summary(&self) -> String {
        let mut parts = Vec::new();
        let mut part = |n: u32, one: &str, many: &str| {
            if n > 0 {
                parts.push(format!("{n} {}", if n == 1 { one } else { many }));
            }
        };
        part(self.links, "link", "links");
        part(self.controls, "control", "controls");
        part(self.other_refs, "other ref", "other refs");
        part(self.texts, "text", "texts");
        parts.join(", ")
    }
}

/// Counts what the subtrees of `members` hold.
pub(super) fn folded(cx: &Ctx<'_>, plan: &Plan, members: &[usize]) -> Folded {
    let mut f = Folded {
        items: members.len(),
        ..Default::default()
    };
    for &m in members {
        let c = plan.counts[m];
        f.links += c.links;
        f.controls += c.controls;
        f.texts += c.blocks;
        let end = cx.flat[m].end as usize;
        if c.refs > 0 {
            if f.first_ref.is_none() {
                f.first_ref = (m..end).find_map(|j| cx.ref_of(j));
            }
            f.last_ref = (m..end).rev().find_map(|j| cx.ref_of(j)).or(f.last_ref);
        }
    }
    let refs: u32 = members.iter().map(|&m| plan.counts[m].refs).sum();
    f.other_refs = refs.saturating_sub(f.links + f.controls);
    f
}

/// The stub line of a fold: one node (`- navigation "Main" [ref=e7] (folded: 12 links)`), a
/// repeat (`(same links as e7)`) or a run of siblings (`- ... (folded: 3 items: …; e40–e95)`).
pub(super) fn stub_line(cx: &Ctx<'_>, plan: &Plan, members: &[usize], depth: usize) -> Line {
    let f = folded(cx, plan, members);
    let mut refs = Vec::new();
    let single = match members {
        [m] if !cx.flat[*m].node.is_text_run() => Some(*m),
        _ => None,
    };
    let summary = f.summary();
    let range = match (f.first_ref, f.last_ref) {
        (Some(a), Some(b)) if a != b => format!("{a}–{b}"),
        (Some(a), _) => a.to_string(),
        _ => String::new(),
    };
    let (role, name, own_ref, what) = match single {
        Some(m) => {
            let node = cx.flat[m].node;
            let own = cx.ref_of(m);
            if own.is_some() {
                refs.push(m);
            }
            let what = match plan.repeats[m].and_then(|first| {
                let first = first as usize;
                let end = cx.flat[first].end as usize;
                (first..end).find_map(|j| cx.ref_of(j))
            }) {
                Some(r) => format!("same links as {r}"),
                None if own.is_some() || range.is_empty() => format!("folded: {summary}"),
                None => format!("folded: {summary}; {range}"),
            };
            (
                node.role.as_deref().unwrap_or("generic"),
                node.name
                    .as_deref()
                    .filter(|n| !n.is_empty())
                    .map(|n| truncate_with_ellipsis(n, MAX_STUB_NAME_CHARS)),
                own,
                what,
            )
        }
        None => {
            // (A run of one, a lone text, needs no count.)
            let items = match f.items {
                1 => String::new(),
                n => format!("{n} items: "),
            };
            let what = if range.is_empty() {
                format!("folded: {items}{summary}")
            } else {
                format!("folded: {items}{summary}; {range}")
            };
            ("...", None, None, what)
        }
    };
    let text = match cx.opts.format {
        Format::Json => {
            #[derive(Serialize)]
            struct Stub<'a> {
                depth: usize,
                role: &'a str,
                #[serde(skip_serializing_if = "Option::is_none")]
                name: Option<&'a str>,
                #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
                ref_: Option<Ref>,
                folded: &'a str,
            }
            serde_json::to_string(&Stub {
                depth,
                role,
                name: name.as_deref(),
                ref_: own_ref,
                folded: &what,
            })
            .unwrap_or_default()
        }
        _ => {
            let mut line = indent(depth);
            let _ = write!(line, "- {}", sanitize_token(role));
            if let Some(n) = &name {
                let _ = write!(line, " {}", quote(n));
            }
            if let Some(r) = own_ref {
                let _ = write!(line, " [ref={r}]");
            }
            let _ = write!(line, " ({what})");
            line
        }
    };
    Line { text, refs }
}

/// The last line of a list the budget cut: what was left out.
pub(super) fn list_fold_line(format: Format, more: usize, links: u32, controls: u32) -> String {
    match format {
        Format::Json => format!("{{\"more\":{more},\"links\":{links},\"controls\":{controls}}}"),
        _ => format!(
            "- ... (folded: {more} more: {links} links, {controls} controls; scope a region or raise --max-chars)"
        ),
    }
}

/// Whether a node counts as a control in list folds.
pub(super) fn counts_as_control(node: &TreeNode) -> bool {
    is_control(node.role.as_deref().unwrap_or(""))
}

/// Attributes in display order, serialised as a JSON object.
struct JsonAttrs<'a>(&'a [(&'a str, Cow<'a, str>)]);

impl JsonAttrs<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for JsonAttrs<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A double-quoted string in which no page text can end the quote or the line.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for (i, c) in s.char_indices() {
        match c {
            // As `defang_refs`, without doubling its backslash.
            '[' if s[i..].starts_with("[ref=") => out.push_str("\\["),
            '(' if s[..i].ends_with(']') && s[i..].starts_with("(e") => out.push_str("\\("),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() || c == '\u{2028}' || c == '\u{2029}' => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An attribute value: bare when it is one plain token, quoted otherwise.
pub(crate) fn attr_value(v: &str) -> String {
    let plain = !v.is_empty()
        && v.chars().all(|c| {
            !c.is_whitespace()
                && !c.is_control()
                && !matches!(c, '"' | '\'' | '[' | ']' | '\\' | '\u{2028}' | '\u{2029}')
        });
    if plain {
        v.to_string()
    } else {
        quote(v)
    }
}

/// Roles and attribute names from JSON input are tokens; anything that could break a
/// line or a bracket is replaced.
fn sanitize_token(s: &str) -> Cow<'_, str> {
    let ok = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.');
    if s.chars().all(ok) && !s.is_empty() {
        Cow::Borrowed(s)
    } else {
        let cleaned: String = s
            .chars()
            .take(64)
            .map(|c| if ok(c) { c } else { '_' })
            .collect();
        Cow::Owned(if cleaned.is_empty() {
            "_".to_string()
        } else {
            cleaned
        })
    }
}
