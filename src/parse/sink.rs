//! The html5ever `TreeSink` that builds the arena.
//!
//! html5ever's sink API takes `&self`, so the arena sits in a `RefCell` while parsing; no
//! borrow outlives a single sink call, which is what makes the `RefCell` sound here.

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};
use std::collections::BTreeMap;

use html5ever::interface::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::{Attribute, LocalName, Namespace, QualName};
use markup5ever::interface::ElemName;

use super::{Attr, Dom, ElementData, ElementNs, Node, NodeData, NodeId, StrSpan, View};

pub(super) struct ArenaSink {
    nodes: RefCell<Vec<Node>>,
    attrs: RefCell<Vec<Attr>>,
    /// Attribute values, text and comments: copied here so the arena owns its strings and
    /// holds no reference-counted tendril (which would make it neither `Send` nor `Sync`).
    strings: RefCell<String>,
    elements: Cell<usize>,
    parse_errors: Cell<usize>,
    /// Tree depth of each node when it was inserted (parse-time only, for the depth guard).
    depths: RefCell<Vec<u32>>,
    /// The last inserted element that the tree builder keeps open (not void).
    last_open: Cell<Option<NodeId>>,
    /// Text nodes that grew while other strings were stored after them (text foster-parented
    /// around a table, between cells): they grow here and join the buffer in `finish`.
    /// Moving such a run to the buffer's end at every merge would copy it once per merge,
    /// quadratic in a table that alternates text and cells.
    growing: RefCell<BTreeMap<NodeId, String>>,
    /// Declarative shadow roots attached so far: `(host, root)`.
    shadows: RefCell<Vec<(NodeId, NodeId)>>,
    /// The browser the page is parsed as (the tree builder's scripting flag follows it).
    view: View,
}

impl ArenaSink {
    /// A sink whose arena is sized for about `nodes` nodes up front: growing a `Vec` by
    /// doubling can hold two copies at once, which would dominate peak memory.
    pub(super) fn with_capacity(nodes: usize, view: View) -> ArenaSink {
        let mut arena = Vec::with_capacity(nodes.max(1));
        arena.push(new_node(NodeData::Document));
        let mut depths = Vec::with_capacity(nodes.max(1));
        depths.push(0);
        ArenaSink {
            nodes: RefCell::new(arena),
            attrs: RefCell::new(Vec::new()),
            strings: RefCell::new(String::new()),
            elements: Cell::new(0),
            parse_errors: Cell::new(0),
            depths: RefCell::new(depths),
            last_open: Cell::new(None),
            growing: RefCell::new(BTreeMap::new()),
            shadows: RefCell::new(Vec::new()),
            view,
        }
    }
}

fn new_node(data: NodeData) -> Node {
    Node {
        parent: None,
        first_child: None,
        last_child: None,
        prev_sibling: None,
        next_sibling: None,
        data,
    }
}

/// An element name lent to the tree builder straight from the arena. html5ever only holds it
/// within one expression or block, never across a call that mutates the sink, so the shared
/// borrow never meets a mutable one (and a `RefCell` would panic, not misbehave, if it did).
pub(super) struct BorrowedName<'a> {
    local: Ref<'a, LocalName>,
    ns: &'static Namespace,
}

impl std::fmt::Debug for BorrowedName<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{{{}}}{}", self.ns, *self.local)
    }
}

impl ElemName for BorrowedName<'_> {
    fn ns(&self) -> &Namespace {
        self.ns
    }
    fn local_name(&self) -> &LocalName {
        &self.local
    }
}

/// The name reported for a handle that is not an element (the tree builder never asks).
static NO_NAME: LocalName = markup5ever::local_name!("");
static NO_NS: Namespace = markup5ever::ns!();

/// An attribute's name as the arena keeps it: the local name, or `prefix:local` for the
/// attributes the parser puts in a namespace.
fn qualified(name: &QualName) -> LocalName {
    match &name.prefix {
        Some(prefix) => LocalName::from(format!("{prefix}:{}", name.local)),
        None => name.local.clone(),
    }
}

impl ArenaSink {
    /// Appends attributes to the arena's list and their values to its string buffer; returns
    /// where the run starts and how long it is.
    fn store_attrs(&self, attrs: Vec<Attribute>) -> (u32, u32) {
        let mut list = self.attrs.borrow_mut();
        let mut strings = self.strings.borrow_mut();
        let first = u32::try_from(list.len()).unwrap_or(u32::MAX);
        for a in &attrs {
            list.push(Attr {
                name: qualified(&a.name),
                value: store(&mut strings, &a.value),
            });
        }
        (first, u32::try_from(attrs.len()).unwrap_or(u32::MAX))
    }

    /// Copies a text run or comment into the string buffer.
    fn store_str(&self, s: &str) -> StrSpan {
        store(&mut self.strings.borrow_mut(), s)
    }

    fn push(&self, data: NodeData) -> NodeId {
        let mut nodes = self.nodes.borrow_mut();
        nodes.push(new_node(data));
        self.depths.borrow_mut().push(0);
        NodeId::from_index(nodes.len() - 1)
    }

    /// The last inserted element that stays open, for the depth guard.
    pub(super) fn last_open(&self) -> Option<NodeId> {
        self.last_open.get()
    }

    /// Records the tree depth of a node just inserted.
    fn inserted(&self, id: NodeId, depth: u32) {
        self.depths.borrow_mut()[id.index()] = depth;
        let keeps_open = match &self.nodes.borrow()[id.index()].data {
            NodeData::Element(e) => !super::is_void(e),
            _ => false,
        };
        if keeps_open {
            self.last_open.set(Some(id));
        }
    }

    /// The tree depth a node had when inserted.
    pub(super) fn depth_of(&self, id: NodeId) -> u32 {
        self.depths.borrow()[id.index()]
    }

    /// The parent of the nearest element named `name` among `from` and its ancestors,
    /// looking at most `max_steps` levels up: where the tree builder's current node most
    /// likely is after `</name>`.
    pub(super) fn after_closing(
        &self,
        from: NodeId,
        name: &markup5ever::LocalName,
        max_steps: u32,
    ) -> Option<NodeId> {
        let nodes = self.nodes.borrow();
        let mut cur = Some(from);
        for _ in 0..max_steps {
            let id = cur?;
            let node = &nodes[id.index()];
            if let NodeData::Element(e) = &node.data {
                if e.local == *name {
                    return node.parent;
                }
            }
            cur = node.parent;
        }
        None
    }

    fn with_nodes<R>(&self, f: impl FnOnce(&mut Vec<Node>) -> R) -> R {
        f(&mut self.nodes.borrow_mut())
    }

    /// Turns a `NodeOrText` into a node id, merging text into `previous` when that is a text
    /// node (the tree builder relies on the sink to keep adjacent text nodes merged).
    fn node_or_merge(&self, child: NodeOrText<NodeId>, previous: Option<NodeId>) -> Option<NodeId> {
        match child {
            NodeOrText::AppendNode(id) => Some(id),
            NodeOrText::AppendText(text) => {
                if let Some(prev) = previous {
                    let mut nodes = self.nodes.borrow_mut();
                    if let NodeData::Text(existing) = &mut nodes[prev.index()].data {
                        let mut strings = self.strings.borrow_mut();
                        let mut growing = self.growing.borrow_mut();
                        if let Some(grown) = growing.get_mut(&prev) {
                            grown.push_str(&text);
                        } else if existing.range().end == strings.len() {
                            // The last string stored: extend it in place.
                            existing.len += store(&mut strings, &text).len;
                        } else {
                            let mut grown =
                                strings.get(existing.range()).unwrap_or_default().to_owned();
                            grown.push_str(&text);
                            growing.insert(prev, grown);
                        }
                        return None;
                    }
                }
                let span = self.store_str(&text);
                Some(self.push(NodeData::Text(span)))
            }
        }
    }
}

/// Appends `s` to the string buffer and returns its span. Positions are `u32`: beyond 4 GiB
/// (only NUL floods tripled into U+FFFD could get there) a string is cut, at a character
/// boundary, to what still fits rather than wrapping.
fn store(strings: &mut String, s: &str) -> StrSpan {
    let start = u32::try_from(strings.len()).unwrap_or(u32::MAX);
    let mut end = s.len().min((u32::MAX - start) as usize);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    strings.push_str(&s[..end]);
    StrSpan {
        start,
        len: u32::try_from(end).unwrap_or(0),
    }
}

pub(super) fn detach(nodes: &mut [Node], id: NodeId) {
    let (parent, prev, next) = {
        let n = &mut nodes[id.index()];
        (
            n.parent.take(),
            n.prev_sibling.take(),
            n.next_sibling.take(),
        )
    };
    match next {
        Some(next) => nodes[next.index()].prev_sibling = prev,
        None => {
            if let Some(parent) = parent {
                nodes[parent.index()].last_child = prev;
            }
        }
    }
    match prev {
        Some(prev) => nodes[prev.index()].next_sibling = next,
        None => {
            if let Some(parent) = parent {
                nodes[parent.index()].first_child = next;
            }
        }
    }
}

pub(super) fn append(nodes: &mut [Node], parent: NodeId, child: NodeId) {
    detach(nodes, child);
    let last = nodes[parent.index()].last_child;
    {
        let c = &mut nodes[child.index()];
        c.parent = Some(parent);
        c.prev_sibling = last;
    }
    match last {
        Some(last) => nodes[last.index()].next_sibling = Some(child),
        None => nodes[parent.index()].first_child = Some(child),
    }
    nodes[parent.index()].last_child = Some(child);
}

pub(super) fn insert_before(nodes: &mut [Node], sibling: NodeId, child: NodeId) {
    detach(nodes, child);
    let (parent, prev) = {
        let s = &nodes[sibling.index()];
        (s.parent, s.prev_sibling)
    };
    {
        let c = &mut nodes[child.index()];
        c.parent = parent;
        c.prev_sibling = prev;
        c.next_sibling = Some(sibling);
    }
    nodes[sibling.index()].prev_sibling = Some(child);
    match prev {
        Some(prev) => nodes[prev.index()].next_sibling = Some(child),
        None => {
            if let Some(parent) = parent {
                nodes[parent.index()].first_child = Some(child);
            }
        }
    }
}

impl TreeSink for ArenaSink {
    type Handle = NodeId;
    type Output = Dom;
    type ElemName<'a> = BorrowedName<'a>;

    fn finish(self) -> Dom {
        let mut nodes = self.nodes.into_inner();
        let mut strings = self.strings.into_inner();
        for (id, grown) in self.growing.into_inner() {
            if let NodeData::Text(span) = &mut nodes[id.index()].data {
                *span = store(&mut strings, &grown);
            }
        }
        nodes.shrink_to_fit();
        let mut attrs = self.attrs.into_inner();
        attrs.shrink_to_fit();
        strings.shrink_to_fit();
        Dom {
            nodes,
            attrs,
            strings,
            elements: self.elements.get(),
            parse_errors: self.parse_errors.get(),
            scopes: Vec::new(),
            scope_count: 0,
            shadows: self.shadows.into_inner(),
            view: self.view,
        }
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {
        self.parse_errors.set(self.parse_errors.get() + 1);
    }

    fn get_document(&self) -> NodeId {
        NodeId::DOCUMENT
    }

    fn elem_name<'a>(&'a self, target: &'a NodeId) -> BorrowedName<'a> {
        let nodes = self.nodes.borrow();
        let ns = match &nodes[target.index()].data {
            NodeData::Element(e) => e.ns(),
            _ => &NO_NS,
        };
        let local = Ref::map(nodes, |nodes| match &nodes[target.index()].data {
            NodeData::Element(e) => &e.local,
            _ => &NO_NAME,
        });
        BorrowedName { local, ns }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> NodeId {
        let (first_attr, attr_count) = self.store_attrs(attrs);
        let template_contents = flags.template.then(|| self.push(NodeData::Document));
        self.elements.set(self.elements.get() + 1);
        self.push(NodeData::Element(ElementData {
            ns: ElementNs::of(&name.ns),
            local: name.local,
            first_attr,
            attr_count,
            template_contents,
            html_integration_point: flags.mathml_annotation_xml_integration_point,
        }))
    }

    fn is_mathml_annotation_xml_integration_point(&self, handle: &NodeId) -> bool {
        matches!(
            &self.nodes.borrow()[handle.index()].data,
            NodeData::Element(ElementData {
                html_integration_point: true,
                ..
            })
        )
    }

    fn create_comment(&self, text: StrTendril) -> NodeId {
        let span = self.store_str(&text);
        self.push(NodeData::Comment(span))
    }

    fn create_pi(&self, _target: StrTendril, data: StrTendril) -> NodeId {
        let span = self.store_str(&data);
        self.push(NodeData::Comment(span))
    }

    fn append(&self, parent: &NodeId, child: NodeOrText<NodeId>) {
        let last = self.nodes.borrow()[parent.index()].last_child;
        if let Some(child) = self.node_or_merge(child, last) {
            self.with_nodes(|nodes| append(nodes, *parent, child));
            self.inserted(child, self.depth_of(*parent) + 1);
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeId,
        prev_element: &NodeId,
        child: NodeOrText<NodeId>,
    ) {
        if self.nodes.borrow()[element.index()].parent.is_some() {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(
        &self,
        _name: StrTendril,
        _public: StrTendril,
        _system: StrTendril,
    ) {
        let id = self.push(NodeData::Doctype);
        self.with_nodes(|nodes| append(nodes, NodeId::DOCUMENT, id));
    }

    fn get_template_contents(&self, target: &NodeId) -> NodeId {
        match &self.nodes.borrow()[target.index()].data {
            NodeData::Element(ElementData {
                template_contents: Some(contents),
                ..
            }) => *contents,
            // Only called for templates; fall back to the element itself (its contents then
            // land under it, which is harmless: templates are never rendered).
            _ => *target,
        }
    }

    fn same_node(&self, x: &NodeId, y: &NodeId) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &NodeId, child: NodeOrText<NodeId>) {
        let prev = self.nodes.borrow()[sibling.index()].prev_sibling;
        if let Some(child) = self.node_or_merge(child, prev) {
            self.with_nodes(|nodes| insert_before(nodes, *sibling, child));
            self.inserted(child, self.depth_of(*sibling));
        }
    }

    fn add_attrs_if_missing(&self, target: &NodeId, attrs: Vec<Attribute>) {
        // Only for a second `<html>` or `<body>` start tag: rare, so the element's run of
        // attributes is copied to the end of the list, where the new ones can follow it.
        let mut nodes = self.nodes.borrow_mut();
        let NodeData::Element(e) = &mut nodes[target.index()].data else {
            return;
        };
        let mut list = self.attrs.borrow_mut();
        let old = e.attr_range();
        let missing: Vec<Attribute> = attrs
            .into_iter()
            .filter(|new| {
                let name = qualified(&new.name);
                !list[old.clone()].iter().any(|a| a.name == name)
            })
            .collect();
        if missing.is_empty() {
            return;
        }
        let first = list.len();
        list.extend_from_within(old);
        drop(list);
        let (_, added) = self.store_attrs(missing);
        e.first_attr = u32::try_from(first).unwrap_or(u32::MAX);
        e.attr_count = e.attr_count.saturating_add(added);
    }

    /// A declarative shadow root: the template's contents become `host`'s shadow root
    /// (the tree is flattened after the parse, [`super::compose`]). Fails, so that the
    /// parser inserts an ordinary template, where `attachShadow` would throw: a host that
    /// cannot have one or has one already
    /// (<https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead>, steps on
    /// a template start tag with `shadowrootmode`).
    fn attach_declarative_shadow(
        &self,
        host: &NodeId,
        template: &NodeId,
        _attrs: &[Attribute],
    ) -> bool {
        let valid = match &self.nodes.borrow()[host.index()].data {
            NodeData::Element(e) => {
                e.ns == super::ElementNs::Html && super::compose::valid_shadow_host(&e.local)
            }
            _ => false,
        };
        let mut shadows = self.shadows.borrow_mut();
        if !valid || shadows.iter().any(|(h, _)| h == host) {
            return false;
        }
        let root = self.get_template_contents(template);
        if root == *template {
            return false;
        }
        shadows.push((*host, root));
        // The depth guard counts on: a shadow tree nests inside its host, so roots inside
        // roots cannot nest without bound.
        let depth = self.depth_of(*host) + 1;
        self.depths.borrow_mut()[root.index()] = depth;
        true
    }

    fn remove_from_parent(&self, target: &NodeId) {
        self.with_nodes(|nodes| detach(nodes, *target));
    }

    fn reparent_children(&self, node: &NodeId, new_parent: &NodeId) {
        self.with_nodes(|nodes| {
            let mut next = nodes[node.index()].first_child;
            while let Some(child) = next {
                next = nodes[child.index()].next_sibling;
                append(nodes, *new_parent, child);
            }
        });
    }
}
