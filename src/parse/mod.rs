//! Stage 1: bytes or text → an arena DOM.
//!
//! html5ever does the HTML parsing (the full WHATWG tree-construction algorithm, so truncated,
//! misnested and otherwise malformed markup ends up as the tree a browser would build). It
//! builds into [`Dom`], a flat arena: every node lives in one `Vec`, linked by `u32` ids, with
//! element and attribute names as interned atoms and text as reference-counted tendrils that
//! share the input buffer. Nothing in the arena is recursive, so every later stage can walk it
//! with an explicit stack whatever the nesting depth of the page.
//!
//! [`encoding`] decides how bytes become text before the parser sees them.

pub mod encoding;
mod guard;
pub mod select;
mod sink;

use std::num::NonZeroU32;

use html5ever::tendril::StrTendril;
use html5ever::{local_name, ns, Attribute, LocalName, QualName};

/// The id of a node in a [`Dom`]: an index into its arena.
///
/// Ids are stable for the lifetime of the `Dom` and are handed out in creation order, which is
/// document order for everything the parser does not move (the adoption agency algorithm and
/// foster parenting move nodes; the walk therefore always follows links, never ids).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct NodeId(NonZeroU32);

impl NodeId {
    /// The document node; always present.
    pub const DOCUMENT: NodeId = NodeId(NonZeroU32::MIN);

    fn from_index(index: usize) -> NodeId {
        // An arena that outgrows u32 would need > 4 billion nodes, i.e. far more memory than
        // any input this crate accepts; saturate rather than wrap so a bug cannot alias ids.
        let raw = u32::try_from(index + 1).unwrap_or(u32::MAX);
        NodeId(NonZeroU32::new(raw).unwrap_or(NonZeroU32::MAX))
    }

    /// The arena index of this node.
    pub fn index(self) -> usize {
        (self.0.get() - 1) as usize
    }
}

/// One node of the arena.
#[derive(Debug)]
pub struct Node {
    pub parent: Option<NodeId>,
    pub first_child: Option<NodeId>,
    pub last_child: Option<NodeId>,
    pub prev_sibling: Option<NodeId>,
    pub next_sibling: Option<NodeId>,
    pub data: NodeData,
}

// Arena nodes are as numerous as tags and text runs: keep them at 48 bytes (checked at build
// time, so a field added carelessly fails the build rather than peak memory).
const _: () = assert!(std::mem::size_of::<Node>() <= 48);

/// What a node is.
#[derive(Debug)]
pub enum NodeData {
    Document,
    Doctype,
    Text(StrTendril),
    /// Comments and processing instructions: kept so outerHTML round-trips, never rendered.
    Comment(StrTendril),
    /// Boxed, so that text nodes (as numerous as elements) stay small: a node is 48 bytes.
    Element(Box<Element>),
}

/// An element: its interned name, its attributes in source order, and for `<template>` the
/// document fragment that holds its contents.
#[derive(Debug)]
pub struct Element {
    pub name: QualName,
    pub attrs: Vec<Attribute>,
    pub template_contents: Option<NodeId>,
}

impl Element {
    /// The value of the attribute `name` (no namespace), if present.
    pub fn attr(&self, name: &LocalName) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| a.name.ns == ns!() && a.name.local == *name)
            .map(|a| &*a.value)
    }

    /// Whether the attribute `name` (no namespace) is present.
    pub fn has_attr(&self, name: &LocalName) -> bool {
        self.attr(name).is_some()
    }

    /// The local name, for HTML elements the lower-case tag name.
    pub fn local(&self) -> &LocalName {
        &self.name.local
    }

    /// Whether this is the HTML element `name`.
    pub fn is_html(&self, name: &LocalName) -> bool {
        self.name.ns == ns!(html) && self.name.local == *name
    }

    /// Whether this element is in the HTML namespace.
    pub fn in_html_ns(&self) -> bool {
        self.name.ns == ns!(html)
    }
}

/// The parsed page: an arena of nodes rooted at [`NodeId::DOCUMENT`].
#[derive(Debug)]
pub struct Dom {
    nodes: Vec<Node>,
    elements: usize,
    parse_errors: usize,
}

impl Dom {
    /// Parses text that is already decoded. Never fails: the HTML parsing algorithm assigns a
    /// tree to every input.
    pub fn parse(html: &str) -> Dom {
        guard::parse(html)
    }

    /// A node by id.
    ///
    /// # Panics
    /// Never for ids handed out by this `Dom`; ids from another `Dom` may be out of range.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The element data of `id`, or `None` for other kinds of node.
    pub fn element(&self, id: NodeId) -> Option<&Element> {
        match &self.node(id).data {
            NodeData::Element(e) => Some(&**e),
            _ => None,
        }
    }

    /// Number of nodes of every kind in the arena.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: a `Dom` holds at least its document node.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of elements the parser created.
    pub fn element_count(&self) -> usize {
        self.elements
    }

    /// How many parse errors html5ever reported (malformed markup is recovered, not rejected).
    pub fn parse_errors(&self) -> usize {
        self.parse_errors
    }

    /// The children of `id`, in order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            dom: self,
            next: self.node(id).first_child,
        }
    }

    /// The element ancestors of `id`, nearest first.
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = (NodeId, &Element)> {
        std::iter::successors(self.node(id).parent, move |&p| self.node(p).parent)
            .filter_map(move |p| self.element(p).map(|e| (p, e)))
    }

    /// All nodes below `root` (excluding `root`) in document order, without recursion.
    pub fn descendants(&self, root: NodeId) -> Descendants<'_> {
        Descendants {
            dom: self,
            root,
            next: self.node(root).first_child,
        }
    }

    /// The `<html>` element, if the document has one.
    pub fn document_element(&self) -> Option<NodeId> {
        self.children(NodeId::DOCUMENT)
            .find(|&c| self.element(c).is_some())
    }

    /// The `<body>` (or `<frameset>`) element, if any.
    pub fn body(&self) -> Option<NodeId> {
        let html = self.document_element()?;
        self.children(html).find(|&c| {
            self.element(c).is_some_and(|e| {
                e.is_html(&local_name!("body")) || e.is_html(&local_name!("frameset"))
            })
        })
    }

    /// The `<head>` element, if any.
    pub fn head(&self) -> Option<NodeId> {
        let html = self.document_element()?;
        self.children(html).find(|&c| {
            self.element(c)
                .is_some_and(|e| e.is_html(&local_name!("head")))
        })
    }

    /// Every element, in document order.
    pub fn elements(&self) -> impl Iterator<Item = (NodeId, &Element)> {
        self.descendants(NodeId::DOCUMENT)
            .filter_map(move |id| self.element(id).map(|e| (id, e)))
    }
}

/// Void elements: never on the stack of open elements, never have children
/// (<https://html.spec.whatwg.org/multipage/syntax.html#void-elements>, plus the legacy ones
/// the parser treats the same way).
pub fn is_void_name(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("hr")
            | local_name!("img")
            | local_name!("input")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("frame")
            | local_name!("keygen")
            | local_name!("param")
    )
}

/// Whether an element is a void HTML element.
pub fn is_void(el: &Element) -> bool {
    el.in_html_ns() && is_void_name(el.local())
}

/// Iterator over the children of a node.
pub struct Children<'a> {
    dom: &'a Dom,
    next: Option<NodeId>,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let id = self.next?;
        self.next = self.dom.node(id).next_sibling;
        Some(id)
    }
}

/// Pre-order iterator over the descendants of a node, following links (no recursion, no stack:
/// the way back up is the parent pointer).
pub struct Descendants<'a> {
    dom: &'a Dom,
    root: NodeId,
    next: Option<NodeId>,
}

impl Descendants<'_> {
    /// Skips the subtree of the node returned last: the next item is its next sibling (or the
    /// next sibling of the nearest ancestor that has one).
    pub fn skip_subtree(&mut self, of: NodeId) {
        self.next = self.after_subtree(of);
    }

    fn after_subtree(&self, mut id: NodeId) -> Option<NodeId> {
        loop {
            if id == self.root {
                return None;
            }
            let node = self.dom.node(id);
            if let Some(next) = node.next_sibling {
                return Some(next);
            }
            id = node.parent?;
        }
    }
}

impl Iterator for Descendants<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        let id = self.next?;
        self.next = match self.dom.node(id).first_child {
            Some(child) => Some(child),
            None => self.after_subtree(id),
        };
        Some(id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(dom: &Dom) -> Vec<String> {
        dom.elements().map(|(_, e)| e.local().to_string()).collect()
    }

    #[test]
    fn builds_a_tree_in_document_order() {
        let dom = Dom::parse("<p>a<b>b</b></p><ul><li>x<li>y</ul>");
        assert_eq!(
            tags(&dom),
            ["html", "head", "body", "p", "b", "ul", "li", "li"]
        );
        assert_eq!(dom.element_count(), 8);
        assert!(dom.body().is_some());
    }

    #[test]
    fn meta_charset_and_scripts_do_not_stop_the_parse() {
        let dom = Dom::parse("<meta charset=utf-8><script>x</script><title>t</title><p>after");
        assert!(dom.elements().any(|(_, e)| e.is_html(&local_name!("p"))));
    }

    #[test]
    fn adjacent_text_is_merged() {
        let dom = Dom::parse("<p>a&amp;b</p>");
        let p = dom
            .elements()
            .find(|(_, e)| e.is_html(&local_name!("p")))
            .map(|(id, _)| id)
            .expect("p");
        let texts: Vec<_> = dom
            .children(p)
            .filter_map(|c| match &dom.node(c).data {
                NodeData::Text(t) => Some(t.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(texts, ["a&b"]);
    }

    #[test]
    fn misnested_formatting_is_repaired() {
        // The adoption agency algorithm moves nodes; links must stay consistent.
        let dom = Dom::parse("<b>1<p>2</b>3</p>");
        let order: Vec<_> = dom
            .descendants(NodeId::DOCUMENT)
            .filter_map(|id| match &dom.node(id).data {
                NodeData::Text(t) => Some(t.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(order, ["1", "2", "3"]);
    }

    #[test]
    fn deep_nesting_is_capped_and_keeps_text() {
        let html = format!(
            "{}deep text{}",
            "<div>x".repeat(100_000),
            "</div>".repeat(100_000)
        );
        let dom = Dom::parse(&html);
        let mut max_depth = 0;
        let mut stack = vec![(NodeId::DOCUMENT, 0usize)];
        while let Some((id, d)) = stack.pop() {
            max_depth = max_depth.max(d);
            stack.extend(dom.children(id).map(|c| (c, d + 1)));
        }
        assert!(
            max_depth <= guard::MAX_PARSE_DEPTH as usize + 2,
            "depth {max_depth}"
        );
        let text: usize = dom
            .descendants(NodeId::DOCUMENT)
            .filter_map(|id| match &dom.node(id).data {
                NodeData::Text(t) => Some(t.len()),
                _ => None,
            })
            .sum();
        assert_eq!(text, 100_000 + "deep text".len(), "no text is lost");
    }

    #[test]
    fn end_tags_of_dropped_elements_do_not_close_ancestors() {
        let html = format!(
            "<section>{}<p>in</p>{}<a href=x>after</a></section>",
            "<div>".repeat(600),
            "</div>".repeat(600)
        );
        let dom = Dom::parse(&html);
        let a = dom
            .elements()
            .find(|(_, e)| e.is_html(&local_name!("a")))
            .map(|(id, _)| id)
            .expect("a");
        assert!(dom
            .ancestors(a)
            .any(|(_, e)| e.is_html(&local_name!("section"))));
    }
}
