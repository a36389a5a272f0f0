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
///
/// IDs and `label for=` resolve within a tree scope ([`Dom::scope`]): a shadow tree's IDs
/// are not the page's, and `aria-labelledby` does not cross the boundary
/// (<https://dom.spec.whatwg.org/#concept-tree-root>).
#[derive(Debug, Default)]
pub struct Index {
    ids: HashMap<u32, HashMap<Box<str>, NodeId>>,
    labels_for: HashMap<u32, HashMap<Box<str>, Vec<NodeId>>>,
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

    /// Whether a `<table>` is laid out rather than holding data (see
    /// [`roles::is_layout_table`]).
    pub fn is_layout_table(&self, table: NodeId) -> bool {
        self.layout_tables.contains(&table)
    }
}
