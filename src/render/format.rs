//! Line formats and the character budget.
//!
//! The header (which carries counts known only at the end) is budgeted up front at its
//! worst-case length, and every node line is written only if a fold line can still follow it,
//! so `finish` can always close the output within `max_chars_total`.

use std::fmt::Write as _;

use serde::Serialize;

use super::{Format, RenderOptions, RenderStats, TruncateReason};
use crate::text::truncate_with_ellipsis;
use crate::tree::{NodeTree, Ref, States, TreeNode};

/// Longest URL and title shown in the header.
pub(crate) const MAX_URL_CHARS: usize = 300;
pub(crate) const MAX_TITLE_CHARS: usize = 200;
/// Every reason, for the worst-case header.
const ALL_REASONS: [TruncateReason; 4] = [
    TruncateReason::MaxCharsTotal,
    TruncateReason::MaxNodes,
    TruncateReason::MaxDepth,
    TruncateReason::MaxSiblings,
];

pub(super) struct Writer<'a> {
    tree: &'a NodeTree,
    opts: &'a RenderOptions,
    body: String,
    body_chars: usize,
    budget: usize,
    nodes: usize,
    reasons: Vec<TruncateReason>,
}

impl<'a> Writer<'a> {
    pub(super) fn new(tree: &'a NodeTree, opts: &'a RenderOptions) -> Writer<'a> {
        let worst = header(tree, opts, usize::MAX, &ALL_REASONS);
        let reserve = worst.chars().count() + closing(opts.format).len();
        Writer {
            tree,
            opts,
            body: String::new(),
            body_chars: 0,
            budget: opts.max_chars_total.saturating_sub(reserve),
            nodes: 0,
            reasons: Vec::new(),
        }
    }

    pub(super) fn nodes(&self) -> usize {
        self.nodes
    }

    pub(super) fn reason(&mut self, r: TruncateReason) {
        if !self.reasons.contains(&r) {
            self.reasons.push(r);
        }
    }

    /// Writes a node line if it fits with room for a fold line after it.
    pub(super) fn node(
        &mut self,
        node: &TreeNode,
        depth: usize,
        has_children: bool,
        ref_ok: bool,
    ) -> bool {
        let ref_ = node.ref_.filter(|_| ref_ok);
        let line = match self.opts.format {
            Format::Text => text_line(node, ref_, depth, has_children, self.opts),
            Format::Json => json_line(node, ref_, depth, has_children, self.opts),
        };
        let cost = self.separator_len() + line.chars().count();
        // The next line is at most one level deeper; a fold there must still fit.
        let fold_reserve = 1 + fold_line(self.opts.format, depth + 1, usize::MAX)
            .chars()
            .count();
        if self.body_chars + cost + fold_reserve > self.budget {
            return false;
        }
        self.push(&line, cost);
        self.nodes += 1;
        true
    }

    /// Writes `... (truncated, N more items)` at `depth`, if it fits. Returns false when it
    /// did not.
    pub(super) fn fold(&mut self, depth: usize, more: usize) -> bool {
        if more == 0 {
            return true;
        }
        let line = fold_line(self.opts.format, depth, more);
        let cost = self.separator_len() + line.chars().count();
        if self.body_chars + cost > self.budget {
            self.reason(TruncateReason::MaxCharsTotal);
            return false;
        }
        self.push(&line, cost);
        true
    }

    fn separator_len(&self) -> usize {
        match self.opts.format {
            // Text: every body line starts on a new line after the header.
            Format::Text => 1,
            Format::Json => usize::from(!self.body.is_empty()),
        }
    }

    fn push(&mut self, line: &str, cost: usize) {
        match self.opts.format {
            Format::Text => self.body.push('\n'),
            Format::Json if !self.body.is_empty() => self.body.push(','),
            Format::Json => {}
        }
        self.body.push_str(line);
        self.body_chars += cost;
    }

    pub(super) fn finish(mut self) -> (String, RenderStats) {
        self.reasons.sort();
        let head = header(self.tree, self.opts, self.nodes, &self.reasons);
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
        Format::Text => "",
        Format::Json => "]}",
    }
}

/// The header: counts as given (`usize::MAX` stands for "as long as it can get").
fn header(
    tree: &NodeTree,
    opts: &RenderOptions,
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
    match opts.format {
        Format::Text => {
            let mut h = String::from("[snapshot]");
            if let Some(u) = url {
                let _ = write!(h, " url={}", attr_value(&u));
            }
            if let Some(t) = title {
                let _ = write!(h, " title={}", quote(&t));
            }
            let _ = write!(h, " nodes={nodes} truncated={truncated}");
            if truncated {
                let names: Vec<_> = reasons.iter().map(|r| r.as_str()).collect();
                let _ = write!(h, " reasons={}", names.join(","));
            }
            h
        }
        Format::Json => {
            #[derive(Serialize)]
            #[serde(rename_all = "camelCase")]
            struct Head<'a> {
                url: Option<&'a str>,
                title: Option<&'a str>,
                nodes: usize,
                truncated: bool,
                truncate_reasons: &'a [TruncateReason],
            }
            let head = Head {
                url: url.as_deref(),
                title: title.as_deref(),
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
    }
}

fn fold_line(format: Format, depth: usize, more: usize) -> String {
    match format {
        Format::Text => {
            let count = if more == usize::MAX {
                usize::MAX.to_string()
            } else {
                more.to_string()
            };
            let noun = if more == 1 { "item" } else { "items" };
            format!("{}- ... (truncated, {count} more {noun})", indent(depth))
        }
        Format::Json => format!("{{\"depth\":{depth},\"more\":{more}}}"),
    }
}

fn indent(depth: usize) -> String {
    "  ".repeat(depth)
}

/// What a line shows as the node's label: its name, else its own text, cut.
///
/// Two labels would only repeat what the lines below say, so they are left out when the node
/// has children shown: a container's loose text (label words already naming its inputs), and
/// a row's name (its cells, concatenated).
fn label<'n>(
    node: &'n TreeNode,
    has_children: bool,
    opts: &RenderOptions,
) -> Option<std::borrow::Cow<'n, str>> {
    let name = node
        .name
        .as_deref()
        .filter(|_| !(has_children && node.role.as_deref() == Some("row")));
    let text = node
        .text
        .as_deref()
        .filter(|_| node.ref_.is_some() || !has_children);
    name.or(text)
        .filter(|l| !l.is_empty())
        .map(|l| truncate_with_ellipsis(l, opts.max_text_per_node))
}

/// Attributes to show, in `include_attrs` order, without repeating what the line says already.
fn shown_attrs<'n>(
    node: &'n TreeNode,
    label: Option<&str>,
    opts: &'n RenderOptions,
) -> impl Iterator<Item = (&'n str, std::borrow::Cow<'n, str>)> {
    let role = node.role.as_deref().unwrap_or("generic");
    let label = label.map(str::to_string);
    opts.include_attrs.iter().filter_map(move |name| {
        let value = node.attrs.get(name)?;
        if Some(value) == label.as_deref() {
            return None;
        }
        if name == "role" && value.eq_ignore_ascii_case(role) {
            return None;
        }
        Some((
            name.as_str(),
            truncate_with_ellipsis(value, opts.max_attr_value_len),
        ))
    })
}

fn text_line(
    node: &TreeNode,
    ref_: Option<Ref>,
    depth: usize,
    has_children: bool,
    opts: &RenderOptions,
) -> String {
    let mut line = indent(depth);
    line.push_str("- ");
    line.push_str(&sanitize_token(node.role.as_deref().unwrap_or("generic")));
    let label = label(node, has_children, opts);
    if let Some(l) = &label {
        line.push(' ');
        line.push_str(&quote(l));
    }
    for (name, value) in shown_attrs(node, label.as_deref(), opts) {
        let _ = write!(line, " [{}={}]", sanitize_token(name), attr_value(&value));
    }
    if let Some(level) = node.level {
        let _ = write!(line, " [level={level}]");
    }
    for state in node.states.iter() {
        let _ = write!(line, " [{}]", state.as_str());
    }
    if let Some(r) = ref_ {
        let _ = write!(line, " [ref={r}]");
    }
    if has_children {
        line.push(':');
    }
    line
}

fn json_line(
    node: &TreeNode,
    ref_: Option<Ref>,
    depth: usize,
    has_children: bool,
    opts: &RenderOptions,
) -> String {
    #[derive(Serialize)]
    struct Line<'a> {
        depth: usize,
        role: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        name: Option<&'a str>,
        #[serde(rename = "ref", skip_serializing_if = "Option::is_none")]
        ref_: Option<Ref>,
        #[serde(skip_serializing_if = "Attrs::is_empty")]
        attrs: Attrs<'a>,
        #[serde(skip_serializing_if = "Option::is_none")]
        level: Option<u32>,
        #[serde(skip_serializing_if = "States::is_empty")]
        states: States,
    }
    let label = label(node, has_children, opts);
    let attrs = Attrs(shown_attrs(node, label.as_deref(), opts).collect());
    let line = Line {
        depth,
        role: node.role.as_deref().unwrap_or("generic"),
        name: label.as_deref(),
        ref_,
        attrs,
        level: node.level,
        states: node.states,
    };
    serde_json::to_string(&line).unwrap_or_default()
}

/// Attributes in display order, serialised as a JSON object.
struct Attrs<'a>(Vec<(&'a str, std::borrow::Cow<'a, str>)>);

impl Attrs<'_> {
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Attrs<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// A double-quoted string in which no page text can end the quote or the line.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
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
fn sanitize_token(s: &str) -> std::borrow::Cow<'_, str> {
    let ok = |c: char| c.is_alphanumeric() || matches!(c, '-' | '_' | ':' | '.');
    if s.chars().all(ok) && !s.is_empty() {
        std::borrow::Cow::Borrowed(s)
    } else {
        let cleaned: String = s
            .chars()
            .take(64)
            .map(|c| if ok(c) { c } else { '_' })
            .collect();
        std::borrow::Cow::Owned(if cleaned.is_empty() {
            "_".to_string()
        } else {
            cleaned
        })
    }
}
