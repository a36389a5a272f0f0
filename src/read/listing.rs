//! A listing's state as one short line: the filters a results or category page has applied
//! and the order it sorts by, so that a model reading the items knows which subset it sees
//! and which ref changes it (issue 25: "the active filters and sort as one short line").
//!
//! ```text
//! Filters: Color: [Black](e6), Size: [10](e9) · Sort: [Price: low to high](e3)
//! ```
//!
//! Read from the node tree, the same roles, names and states the snapshot shows, so hidden
//! controls never count. What counts:
//!
//! - **sort**: a `combobox` or `listbox` whose name (or `name`/`id` attribute) says sort or
//!   order, with its selected option (the first option when none is marked, as a browser
//!   shows a `<select>`), or the checked radio of a group so named;
//! - **filters**: checked boxes (checkboxes, switches, `menuitemcheckbox`es) and radios
//!   checked other than their group's first (the first is the default: "All", "Any
//!   price") in a *facet*: a named group of three or more such controls, not all checked,
//!   on a page that sorts (a sort control, or a button that opens one) or inside an
//!   element named as a filter panel. Each is named with its group ("Color: Black"). A
//!   card's colour swatch, a settings switch or an add-on box on a product page is no
//!   filter.
//!
//! Every walk is over the node tree with an explicit stack (the tree is at most
//! [`MAX_TREE_DEPTH`](crate::tree::MAX_TREE_DEPTH) deep, so a group's own scan of its
//! subtree costs at most that many passes over a node).
//!
//! Never counted: controls inside a dialog (a closed modal's state), and inside a form with a
//! key field (a login's "remember me", a sign-up's "I agree": a form, not a filter).

use crate::tree::{State, TreeNode};

/// The longest line, in characters: a long facet list is cut with `…`.
const MAX_LINE_CHARS: usize = 300;

/// The longest name of a group or an option on the line.
const MAX_NAME_CHARS: usize = 60;

/// Words that name a sort control, lower case, in the languages the corpora hold.
const SORT_WORDS: &[&str] = &[
    "sort",
    "order by",
    "orderby",
    "trier",
    "ordenar",
    "sortieren",
    "ordina",
];

/// Words that name a filter panel (a landmark's, group's or control's name, or its `id`).
const FILTER_WORDS: &[&str] = &["filter", "refine", "facet", "narrow", "filtr"];

/// Boxes a group holds at least to be a facet (Color: Black, White, Red).
const MIN_FACET_BOXES: usize = 3;

/// Roles that hold a choice of options.
const CHOICE_ROLES: &[&str] = &["combobox", "listbox"];

/// Roles of a box that is on when checked.
const CHECKED_ROLES: &[&str] = &["checkbox", "switch", "menuitemcheckbox"];

/// Roles that close off what is inside them from the page's listing state.
const CLOSED_ROLES: &[&str] = &["dialog", "alertdialog"];

/// Where a node sits: its group (name, whether it is a facet, its first radio), and whether
/// a filter panel or a sort group holds it.
#[derive(Clone, Copy, Default)]
struct Context<'a> {
    group: Option<&'a str>,
    /// A named group of at least [`MIN_FACET_BOXES`] boxes, not all of them checked.
    facet: bool,
    first_radio: Option<u32>,
    /// Inside an element named as a filter panel.
    panel: bool,
    /// In a group named as a sort ("Sort by": radios).
    sort_group: bool,
}

/// The line, and the refs it shows in order; `None` when the page has neither.
pub(super) fn state_line(root: &TreeNode) -> Option<(String, Vec<u32>)> {
    let mut found = Found::default();
    let mut stack: Vec<(&TreeNode, Context<'_>)> = vec![(root, Context::default())];
    while let Some((node, mut at)) = stack.pop() {
        let role = node.role.as_deref().unwrap_or("");
        if CLOSED_ROLES.contains(&role) || is_key_form(node) {
            continue;
        }
        if CHOICE_ROLES.contains(&role) {
            if found.sort.is_none() && says(node, SORT_WORDS) {
                found.sort = selected(node);
            }
            continue;
        }
        if role == "group" || role == "radiogroup" {
            at = group_context(node, at);
        }
        at.panel = at.panel || says(node, FILTER_WORDS);
        if role == "button" && says(node, SORT_WORDS) {
            found.sort_button = true;
        }
        found.control(node, role, at);
        for child in node.children.iter().rev() {
            stack.push((child, at));
        }
    }
    found.line()
}

/// The context a group gives its controls.
fn group_context<'a>(node: &'a TreeNode, outer: Context<'a>) -> Context<'a> {
    let boxes: Vec<&TreeNode> = node
        .descendants()
        .filter(|n| {
            let role = n.role.as_deref().unwrap_or("");
            role == "radio" || CHECKED_ROLES.contains(&role)
        })
        .collect();
    let first_radio = boxes
        .iter()
        .find(|n| n.role.as_deref() == Some("radio"))
        .and_then(|n| n.ref_)
        .map(|r| r.number());
    let name = name_of(node);
    Context {
        group: name.or(outer.group),
        facet: name.is_some()
            && boxes.len() >= MIN_FACET_BOXES
            && !boxes.iter().all(|n| n.states.contains(State::Checked)),
        first_radio,
        panel: outer.panel,
        sort_group: says(node, SORT_WORDS),
    }
}

/// What the walk found.
#[derive(Default)]
struct Found {
    sort: Option<(String, u32)>,
    /// A button that opens a sort menu: the page sorts, though its choice is not shown.
    sort_button: bool,
    /// Filters in document order.
    filters: Vec<Filter>,
}

/// One box that is on.
struct Filter {
    group: Option<String>,
    name: String,
    r: u32,
    /// Whether an element named as a filter panel holds it.
    panel: bool,
}

impl Found {
    /// Notes a control that is on.
    fn control(&mut self, node: &TreeNode, role: &str, at: Context<'_>) {
        let Some(r) = node.ref_.map(|r| r.number()) else {
            return;
        };
        if at.sort_group && role == "radio" && node.states.contains(State::Checked) {
            if let Some(name) = name_of(node) {
                self.sort.get_or_insert_with(|| (name.to_string(), r));
            }
            return;
        }
        let on = match role {
            // The first radio of a group is its default ("All", "Any price").
            "radio" => {
                node.states.contains(State::Checked)
                    && at.first_radio.is_some_and(|first| first != r)
            }
            role if CHECKED_ROLES.contains(&role) => node.states.contains(State::Checked),
            _ => false,
        };
        // A checked box is a filter only in a facet: a card's colour swatch, a settings
        // switch or an add-on box ("add a cable") is none.
        if !on || !at.facet {
            return;
        }
        let Some(name) = name_of(node) else {
            return;
        };
        let group = at
            .group
            .map(str::trim)
            .filter(|g| !g.is_empty() && *g != name);
        self.filters.push(Filter {
            group: group
                .map(|g| crate::text::truncate_with_ellipsis(g, MAX_NAME_CHARS).into_owned()),
            name: name.to_string(),
            r,
            panel: at.panel,
        });
    }

    fn line(mut self) -> Option<(String, Vec<u32>)> {
        // Facets count on a page that sorts (a listing) or inside a filter panel.
        let sorts = self.sort.is_some() || self.sort_button;
        self.filters.retain(|f| sorts || f.panel);
        self.filters
            .dedup_by(|a, b| a.group == b.group && a.name == b.name);
        if self.sort.is_none() && self.filters.is_empty() {
            return None;
        }
        let sort = self.sort.map(|(name, r)| (marker(&name, r), r));
        let room = MAX_LINE_CHARS - sort.as_ref().map_or(0, |(m, _)| m.chars().count() + 9);
        let mut line = String::new();
        let mut refs = Vec::new();
        for f in &self.filters {
            let mut item = String::new();
            if let Some(g) = &f.group {
                crate::text::push_defanged(&mut item, g);
                item.push_str(": ");
            }
            item.push_str(&marker(&f.name, f.r));
            let sep = if line.is_empty() { "Filters: " } else { ", " };
            if line.chars().count() + sep.len() + item.chars().count() > room {
                line.push_str(", …");
                break;
            }
            line.push_str(sep);
            line.push_str(&item);
            refs.push(f.r);
        }
        if let Some((m, r)) = sort {
            if !line.is_empty() {
                line.push_str(" · ");
            }
            line.push_str("Sort: ");
            line.push_str(&m);
            refs.push(r);
        }
        Some((line, refs))
    }
}

/// `[name](e5)`, the page's text defanged (it cannot write a marker of its own).
fn marker(name: &str, r: u32) -> String {
    let name = crate::text::truncate_with_ellipsis(name, MAX_NAME_CHARS);
    let mut out = String::from("[");
    crate::text::push_defanged(&mut out, &name);
    out.push_str(&format!("](e{r})"));
    out
}

/// A node's accessible name, trimmed; `None` when empty.
fn name_of(node: &TreeNode) -> Option<&str> {
    node.name
        .as_deref()
        .map(str::trim)
        .filter(|n| !n.is_empty())
}

/// Whether a node's name or its `name`/`id` attribute holds one of `words`.
fn says(node: &TreeNode, words: &[&str]) -> bool {
    [
        node.name.as_deref(),
        node.attrs.get("name"),
        node.attrs.get("id"),
    ]
    .into_iter()
    .flatten()
    .any(|s| crate::text::mentions_any(s, words))
}

/// The selected option of a choice control (its first option when none is marked), with the
/// control's ref.
fn selected(node: &TreeNode) -> Option<(String, u32)> {
    let r = node.ref_?.number();
    let options: Vec<&TreeNode> = node
        .descendants()
        .filter(|n| n.role.as_deref() == Some("option"))
        .collect();
    let option = options
        .iter()
        .find(|o| o.states.contains(State::Selected))
        .or(options.first())?;
    name_of(option).map(|name| (name.to_string(), r))
}

/// Whether a node is a form holding a key field, as the snapshot ranks forms
/// ([`crate::render::is_key_field`]: a password, user-name, e-mail or search field): its
/// boxes are the form's, not the listing's.
fn is_key_form(node: &TreeNode) -> bool {
    (node.tag == "form" || node.role.as_deref() == Some("form"))
        && node.descendants().any(crate::render::is_key_field)
}
