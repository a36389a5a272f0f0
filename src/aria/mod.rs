//! Stage 2: what assistive technology would say about an element.
//!
//! - [`roles`]: explicit and implicit ARIA roles and the snapshot's role categories;
//! - [`name`]: accessible names and descriptions (accname 1.2, HTML-AAM);
//! - [`hidden`]: what a person cannot see, decided from markup and the computed style.
//!
//! Every function here is a pure function of the arena and its computed style
//! ([`crate::style`], held by the [`Index`]): the walk calls them in document order, the probe
//! command calls them for one element.

pub mod hidden;
pub mod name;
pub mod roles;

use std::collections::{HashMap, HashSet};

use html5ever::local_name;

use crate::parse::{Dom, NodeId};
use crate::style::{StyleOptions, Styles};

/// Lookup tables built once per document in one pass: ids, `label for=` targets, datalists
/// and which tables are layout tables; and the computed style every stage reads.
#[derive(Debug, Default)]
pub struct Index {
    ids: HashMap<Box<str>, NodeId>,
    labels_for: HashMap<Box<str>, Vec<NodeId>>,
    layout_tables: HashSet<NodeId>,
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
        for (id, el) in dom.elements() {
            if let Some(v) = el.attr(&local_name!("id")) {
                // First element with an id wins, as getElementById does.
                index.ids.entry(v.into()).or_insert(id);
            }
            if el.is_html(&local_name!("label")) {
                if let Some(target) = el.attr(&local_name!("for")) {
                    index.labels_for.entry(target.into()).or_default().push(id);
                }
            }
            if el.is_html(&local_name!("table")) && roles::is_layout_table(dom, id, el) {
                index.layout_tables.insert(id);
            }
        }
        index
    }

    /// The computed style of the document.
    pub fn styles(&self) -> &Styles {
        &self.styles
    }

    /// The element with this id.
    pub fn by_id(&self, id: &str) -> Option<NodeId> {
        self.ids.get(id).copied()
    }

    /// The `<label for=id>` elements, in document order.
    pub fn labels_for(&self, id: &str) -> &[NodeId] {
        self.labels_for.get(id).map_or(&[], Vec::as_slice)
    }

    /// Whether a `<table>` is laid out rather than holding data (see
    /// [`roles::is_layout_table`]).
    pub fn is_layout_table(&self, table: NodeId) -> bool {
        self.layout_tables.contains(&table)
    }
}
