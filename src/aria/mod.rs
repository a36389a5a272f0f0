//! Stage 2: what assistive technology would say about an element.
//!
//! - [`roles`]: explicit and implicit ARIA roles and the snapshot's role categories;
//! - [`name`]: accessible names and descriptions (accname 1.2, HTML-AAM);
//! - [`hidden`]: what a person cannot see, decided from markup and the computed style;
//! - [`gap`]: where two boxes meet with no space in the source and a person sees one (the
//!   walk's text runs and `read` put a space there);
//! - `collapsed`: what a person reveals with one click on a shown control (a disclosure's
//!   panel, a hidden tab panel), which the content stage reads though it is hidden.
//!
//! Every function here is a pure function of the arena and its computed style
//! ([`crate::style`], held by the [`Index`]): the walk calls them in document order, the probe
//! command calls them for one element.

mod collapsed;
pub mod gap;
pub mod hidden;
pub mod name;
pub mod roles;

use std::collections::{HashMap, HashSet};
use std::num::NonZeroU32;

use html5ever::local_name;

use crate::parse::{Dom, NodeId};
use crate::style::{StyleOptions, Styles};

/// Lookup tables built once per document in one pass: ids, `label for=` targets, datalists
/// and which tables are layout tables; and the computed style every stage reads.
///
/// IDs and `label for=` resolve within a tree scope ([`Dom::scope`]): a shadow tree's IDs
/// are not the page's, and `aria-labelledby` does not cross the boundary
/// (<https://dom.spec.whatwg.org/#concept-tree-root>).
#[derive(Debug, Default)]
pub struct Index {
    ids: HashMap<u32, HashMap<Box<str>, NodeId>>,
    labels_for: HashMap<u32, HashMap<Box<str>, Vec<NodeId>>>,
    layout_tables: HashSet<NodeId>,
    collapsed: collapsed::Collapsed,
    styles: Styles,
}

impl Index {
    /// Scans the document once (tables: once more over their own rows), with the page's
    /// style computed for the default viewport.
    pub fn build(dom: &Dom) -> Index {
        Index::with_styles(dom, Styles::build(dom, &StyleOptions::default()))
    }

    /// [`Index::build`] with a computed style already at hand.
    pub fn with_styles(dom: &Dom, styles: Styles) -> Index {
        let mut index = Index {
            styles,
            ..Index::default()
        };
        let mut claims = Vec::new();
        let mut details = Vec::new();
        for (id, el) in dom.elements() {
            collapsed::claims(id, el, &mut claims);
            // Without a summary of its own, a closed details draws a default one ("Details")
            // that is part of it: the details is its own control.
            if let Some(summary) = hidden::closed_details_summary(dom, id, el) {
                details.push((id, summary.unwrap_or(id)));
            }
            let scope = dom.scope(id);
            if let Some(v) = el.attr(&local_name!("id")) {
                // First element with an id wins, as getElementById does.
                let ids = index.ids.entry(scope).or_default();
                ids.entry(v.into()).or_insert(id);
            }
            if el.is_html(&local_name!("label")) {
                if let Some(target) = el.attr(&local_name!("for")) {
                    let labels = index.labels_for.entry(scope).or_default();
                    labels.entry(target.into()).or_default().push(id);
                }
            }
            if el.is_html(&local_name!("table")) && roles::is_layout_table(dom, id, el) {
                index.layout_tables.insert(id);
            }
        }
        index.collapsed =
            collapsed::Collapsed::resolve(dom, &index.styles, claims, details, |c, id| {
                index.by_id(dom.scope(c), id)
            });
        index
    }

    /// The computed style of the document.
    pub fn styles(&self) -> &Styles {
        &self.styles
    }

    /// The element with this id in the tree scope `scope`.
    pub fn by_id(&self, scope: u32, id: &str) -> Option<NodeId> {
        self.ids.get(&scope)?.get(id).copied()
    }

    /// The `<label for=id>` elements of the tree scope `scope`, in document order.
    pub fn labels_for(&self, scope: u32, id: &str) -> &[NodeId] {
        self.labels_for
            .get(&scope)
            .and_then(|l| l.get(id))
            .map_or(&[], Vec::as_slice)
    }

    /// The shown control that reveals `panel`, when `panel` is a collapsed part of the page:
    /// hidden by itself, one click away (see `collapsed`).
    pub fn collapsed_control(&self, panel: NodeId) -> Option<NodeId> {
        self.collapsed.control_of(panel)
    }

    /// The panels `control` reveals, collapsed, in document order (empty for most elements).
    pub fn collapsed_panels(&self, control: NodeId) -> &[NodeId] {
        self.collapsed.panels_of(control)
    }

    /// How many characters of text (white space runs as one) the collapsed panels of
    /// `control` hold, when it reveals any.
    pub fn collapsed_chars(&self, dom: &Dom, control: NodeId) -> Option<NonZeroU32> {
        // A closed details holds its summary, which is the control's own text (unless the
        // details is its own control: it has no summary).
        let chars: usize = self
            .collapsed_panels(control)
            .iter()
            .flat_map(|&p| dom.descendants(p).map(move |d| (p, d)))
            .filter(|&(p, d)| p == control || !dom.holds(control, d))
            .map(|(_, d)| d)
            .filter_map(|d| dom.text(d))
            .map(|t| crate::text::normalize(t).chars().count())
            .sum();
        NonZeroU32::new(u32::try_from(chars).unwrap_or(u32::MAX))
    }

    /// Whether a `<table>` is laid out rather than holding data (see
    /// [`roles::is_layout_table`]).
    pub fn is_layout_table(&self, table: NodeId) -> bool {
        self.layout_tables.contains(&table)
    }
}
