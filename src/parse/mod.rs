//! Stage 1: bytes or text → an arena DOM.
//!
//! html5ever does the HTML parsing (the full WHATWG tree-construction algorithm, so truncated,
//! misnested and otherwise malformed markup ends up as the tree a browser would build). It
//! builds into [`Dom`], a flat arena: every node lives in one `Vec`, linked by `u32` ids, with
//! element and attribute names as interned atoms, all attributes in one list, and every attribute
//! value, text run and comment in one string that nodes point into ([`StrSpan`]). Nothing in
//! the arena is recursive, so every later stage can walk it with an explicit stack whatever
//! the nesting depth of the page; nothing in it is reference-counted, so a [`Dom`] is `Send`
//! and `Sync` and one page can be walked from several threads.
//!
//! [`encoding`] decides how bytes become text before the parser sees them.

mod compose;
pub mod encoding;
mod guard;
mod pipeline;
pub mod select;
mod sink;
mod streamed;

use std::num::NonZeroU32;

use html5ever::{local_name, namespace_prefix, ns, LocalName, Namespace, QualName};

/// How many threads the parse and the walk use. The arena and the tree are the same whatever
/// the choice.
///
/// Parse: with two, html5ever's tokenizer runs on a helper thread and its tree builder on the
/// caller's; the caller then waits for the tokenizer only (on a 600 KB page: 108 M
/// instructions instead of 135 M for the whole parse, `docs/performance.md`). The helper
/// thread predicts what the tree builder would tell the tokenizer (which tags start raw
/// text), and the tree builder checks every prediction; on the first wrong one (rare:
/// framesets, malformed SVG) the page is parsed again on one thread. Only
/// [`Threads::Two`] parses this way: on real pages the tokens' trip between the threads
/// costs more than the overlap saves (`docs/performance.md`, "Two threads on real pages").
///
/// Walk ([`crate::walk::walk`]): a helper thread walks the last part of the page (a run of
/// siblings holding about half its nodes) while the caller walks the rest, then the caller
/// checks that what the helper assumed about the run's place holds, or walks the run itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Threads {
    /// Always the caller's thread only: for callers that already run one page per core.
    One,
    /// The parse on the caller's thread; the walk on two threads on a machine with two
    /// cores or more for pages of 4 000 nodes or more, on one otherwise, where starting a
    /// thread costs more than it saves.
    #[default]
    Auto,
    /// Always two threads, parse and walk, whatever the size (for tests and benchmarks).
    Two,
}

impl Threads {
    /// Whether a job of `size` (bytes, nodes…) runs on two threads, when `Auto` picks two
    /// from `auto_min` on.
    pub(crate) fn two(self, size: usize, auto_min: usize) -> bool {
        match self {
            Threads::One => false,
            Threads::Two => true,
            Threads::Auto => size >= auto_min && Threads::machine_has_two(),
        }
    }

    fn machine_has_two() -> bool {
        // `available_parallelism` reads cgroup files on Linux: ask once per process.
        static TWO: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *TWO.get_or_init(|| std::thread::available_parallelism().is_ok_and(|n| n.get() > 1))
    }
}

/// Which browser the page is parsed as: one that runs the page's scripts, or one that runs
/// none.
///
/// Offline nothing runs, yet pages are parsed as a scripting browser parses them (as Chromium,
/// which agents drive, does): `<noscript>` content is raw text there and shows nothing. Some
/// pages serve their whole content only to browsers without scripts (forum software sends the
/// thread inside `<noscript>`; its scripted view is an empty shell). In the no-script view
/// the parser reads `<noscript>` content as markup and it renders, as in a browser with
/// scripts off (<https://html.spec.whatwg.org/multipage/scripting.html#the-noscript-element>),
/// and `@media (scripting)` is `none`. [`crate::Document`] picks the view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum View {
    /// A browser that runs scripts: `<noscript>` is never rendered.
    #[default]
    Scripted,
    /// A browser that runs no scripts: `<noscript>` content is parsed and shown.
    NoScript,
}

impl View {
    /// Whether this is the scripted view (serde's `skip_serializing_if`).
    pub fn is_scripted(&self) -> bool {
        *self == View::Scripted
    }

    /// The view's name in outputs (`view=noscript`).
    pub fn as_str(self) -> &'static str {
        match self {
            View::Scripted => "scripted",
            View::NoScript => "noscript",
        }
    }
}

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

// Arena nodes are as numerous as tags and text runs: keep them at 48 bytes, elements included
// (checked at build time, so a field added carelessly fails the build rather than peak memory).
const _: () = assert!(std::mem::size_of::<Node>() <= 48);

/// What a node is.
#[derive(Debug)]
pub enum NodeData {
    Document,
    Doctype,
    /// A text run; read it with [`Dom::str`].
    Text(StrSpan),
    /// Comments and processing instructions: kept so outerHTML round-trips, never rendered.
    Comment(StrSpan),
    /// Read through [`Dom::element`], which pairs it with its attributes.
    Element(ElementData),
}

/// The namespaces the HTML tree builder creates elements in
/// (<https://html.spec.whatwg.org/multipage/parsing.html#create-an-element-for-the-token>:
/// HTML, and SVG or MathML for foreign content).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum ElementNs {
    Html,
    Svg,
    MathMl,
}

static HTML_NS: Namespace = ns!(html);
static SVG_NS: Namespace = ns!(svg);
static MATHML_NS: Namespace = ns!(mathml);

impl ElementNs {
    fn of(ns: &Namespace) -> ElementNs {
        match *ns {
            ns!(svg) => ElementNs::Svg,
            ns!(mathml) => ElementNs::MathMl,
            // The tree builder creates no other kind; HTML is the neutral reading.
            _ => ElementNs::Html,
        }
    }

    fn namespace(self) -> &'static Namespace {
        match self {
            ElementNs::Html => &HTML_NS,
            ElementNs::Svg => &SVG_NS,
            ElementNs::MathMl => &MATHML_NS,
        }
    }
}

/// An element as the arena stores it: its interned name and namespace, where its attributes
/// sit in the arena's attribute list, and for `<template>` the fragment holding its contents.
///
/// Attributes live in one list per [`Dom`] and their values in one string, rather than a
/// vector and a string per element: on a page with tens of thousands of elements that is
/// tens of thousands fewer allocations and keeps the element inside its 48-byte node.
#[derive(Debug)]
pub struct ElementData {
    local: LocalName,
    first_attr: u32,
    attr_count: u32,
    template_contents: Option<NodeId>,
    ns: ElementNs,
    /// A MathML `annotation-xml` whose `encoding` is HTML: start tags inside it are HTML
    /// (<https://html.spec.whatwg.org/multipage/parsing.html#html-integration-point>).
    /// Parse-time only.
    html_integration_point: bool,
}

impl ElementData {
    /// The local name, for HTML elements the lower-case tag name.
    pub fn local(&self) -> &LocalName {
        &self.local
    }

    /// The element's namespace.
    pub fn ns(&self) -> &'static Namespace {
        self.ns.namespace()
    }

    fn attr_range(&self) -> std::ops::Range<usize> {
        let first = self.first_attr as usize;
        first..first + self.attr_count as usize
    }
}

/// One attribute in the arena: its name and where its value sits in the value string.
///
/// The name is the attribute's qualified name as one atom (`href`, or `xlink:href` for the
/// attributes the parser puts in a namespace on SVG and MathML elements), so a lookup by
/// local name never meets a namespaced attribute; [`Element::attr_name`] gives the parts.
#[derive(Debug, Clone)]
struct Attr {
    name: LocalName,
    value: StrSpan,
}

/// Where a string (text run, comment or attribute value) sits in its [`Dom`]'s string buffer.
///
/// Positions are `u32` like node ids: html5ever's own buffers (tendrils) cap the input at
/// 4 GiB, and the sink cuts what would not fit rather than wrap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StrSpan {
    start: u32,
    len: u32,
}

impl StrSpan {
    fn range(self) -> std::ops::Range<usize> {
        let start = self.start as usize;
        start..start + self.len as usize
    }
}

/// An element of a [`Dom`]: its name, attributes and template contents. Cheap to copy.
#[derive(Clone, Copy, Debug)]
pub struct Element<'a> {
    data: &'a ElementData,
    attrs: &'a [Attr],
    strings: &'a str,
    view: View,
}

impl<'a> Element<'a> {
    /// The value of the attribute `name` (no namespace), if present.
    pub fn attr(&self, name: &LocalName) -> Option<&'a str> {
        self.attrs
            .iter()
            .find(|a| a.name == *name)
            .map(|a| self.value(a))
    }

    /// Whether the attribute `name` (no namespace) is present.
    pub fn has_attr(&self, name: &LocalName) -> bool {
        self.attrs.iter().any(|a| a.name == *name)
    }

    /// Whether the element has no attributes.
    pub fn has_no_attrs(&self) -> bool {
        self.attrs.is_empty()
    }

    /// `(qualified name, value)` of every attribute, in source order.
    pub fn attrs(&self) -> impl Iterator<Item = (&'a LocalName, &'a str)> + 'a {
        let el = *self;
        self.attrs.iter().map(move |a| (&a.name, el.value(a)))
    }

    /// The namespaced name of an attribute from [`Element::attrs`]. On SVG and MathML
    /// elements the parser puts `xlink:*`, `xml:*` and `xmlns` attributes in their namespaces
    /// (<https://html.spec.whatwg.org/multipage/parsing.html#adjust-foreign-attributes>);
    /// every other attribute has no namespace and its qualified name as local name.
    pub fn attr_name(&self, qualified: &LocalName) -> QualName {
        if self.data.ns != ElementNs::Html {
            if let Some((prefix, ns)) = foreign_attr(qualified) {
                let local = qualified.split_once(':').map_or(&**qualified, |(_, l)| l);
                return QualName::new(prefix, ns, LocalName::from(local));
            }
        }
        QualName::new(None, ns!(), qualified.clone())
    }

    /// The element's full name.
    pub fn name(&self) -> QualName {
        QualName::new(None, self.ns().clone(), self.local().clone())
    }

    /// The local name, for HTML elements the lower-case tag name.
    pub fn local(&self) -> &'a LocalName {
        &self.data.local
    }

    /// The element's namespace.
    pub fn ns(&self) -> &'static Namespace {
        self.data.ns()
    }

    /// The browser its page was parsed as (a `<noscript>` renders in one view only).
    pub fn view(&self) -> View {
        self.view
    }

    /// Whether this is the HTML element `name`.
    pub fn is_html(&self, name: &LocalName) -> bool {
        self.data.ns == ElementNs::Html && self.data.local == *name
    }

    /// Whether this element is in the HTML namespace.
    pub fn in_html_ns(&self) -> bool {
        self.data.ns == ElementNs::Html
    }

    /// Whether this element is in the SVG namespace.
    pub fn in_svg_ns(&self) -> bool {
        self.data.ns == ElementNs::Svg
    }

    /// For `<template>`, the document fragment that holds its contents.
    pub fn template_contents(&self) -> Option<NodeId> {
        self.data.template_contents
    }

    fn value(&self, a: &Attr) -> &'a str {
        self.strings.get(a.value.range()).unwrap_or_default()
    }
}

/// The prefix and namespace of an attribute the parser adjusts on foreign elements.
fn foreign_attr(qualified: &str) -> Option<(Option<html5ever::Prefix>, Namespace)> {
    Some(match qualified {
        "xlink:actuate" | "xlink:arcrole" | "xlink:href" | "xlink:role" | "xlink:show"
        | "xlink:title" | "xlink:type" => (Some(namespace_prefix!("xlink")), ns!(xlink)),
        "xml:lang" | "xml:space" => (Some(namespace_prefix!("xml")), ns!(xml)),
        "xmlns" => (None, ns!(xmlns)),
        "xmlns:xlink" => (Some(namespace_prefix!("xmlns")), ns!(xmlns)),
        _ => return None,
    })
}

/// The parsed page: an arena of nodes rooted at [`NodeId::DOCUMENT`].
#[derive(Debug)]
pub struct Dom {
    nodes: Vec<Node>,
    /// Every element's attributes, each element's in one run.
    attrs: Vec<Attr>,
    /// Every attribute value, text run and comment, one after another.
    strings: String,
    elements: usize,
    parse_errors: usize,
    /// The tree scope of each node ([`Dom::scope`]); empty while the page has one tree.
    scopes: Vec<u32>,
    /// How many tree scopes `scopes` numbers (0 while it is empty).
    scope_count: u32,
    /// Declarative shadow roots as the parser attached them, `(host, root)` in document
    /// order; consumed when the tree is flattened.
    shadows: Vec<(NodeId, NodeId)>,
    /// The browser the page was parsed as.
    view: View,
}

pub use compose::MAX_FRAME_DEPTH;

impl Dom {
    /// Parses text that is already decoded. Never fails: the HTML parsing algorithm assigns a
    /// tree to every input.
    ///
    /// On the caller's thread (see [`Threads`]); the arena is the same either way.
    pub fn parse(html: &str) -> Dom {
        Dom::parse_with(html, Threads::Auto)
    }

    /// [`Dom::parse`] with a say in how many threads it uses.
    ///
    /// ```
    /// use agent_snapshot::parse::{Dom, Threads};
    ///
    /// let html = "<svg><style>a</style></svg><style>b</style><p>text";
    /// let one = Dom::parse_with(html, Threads::One);
    /// let two = Dom::parse_with(html, Threads::Two);
    /// assert_eq!(one.len(), two.len());
    /// ```
    pub fn parse_with(html: &str, threads: Threads) -> Dom {
        Dom::parse_view(html, threads, View::Scripted)
    }

    /// [`Dom::parse_with`] as the browser `view` names parses it.
    ///
    /// ```
    /// use agent_snapshot::parse::{Dom, Threads, View};
    ///
    /// let html = "<noscript><p>The thread, for browsers without scripts</p></noscript>";
    /// let scripted = Dom::parse_view(html, Threads::One, View::Scripted);
    /// let no_script = Dom::parse_view(html, Threads::One, View::NoScript);
    /// let has_p = |dom: &Dom| dom.elements().any(|(_, e)| &**e.local() == "p");
    /// assert!(!has_p(&scripted) && has_p(&no_script));
    /// assert_eq!(no_script.view(), View::NoScript);
    /// ```
    pub fn parse_view(html: &str, threads: Threads, view: View) -> Dom {
        // A byte-order mark starts the stream, it is not text (decoding from bytes has
        // removed it already; text may still carry one).
        let html = html.strip_prefix('\u{feff}').unwrap_or(html);
        // What `srcdoc` frames may parse in all: twice the page, so that frames inside
        // frames (each level's source inside the one above) cannot multiply the work.
        let mut budget = html.len().saturating_mul(2).saturating_add(64 * 1024);
        Dom::parse_document(html, threads, view, 0, &mut budget)
    }

    /// The browser the page was parsed as.
    pub fn view(&self) -> View {
        self.view
    }

    /// About how many characters of text the `<noscript>` elements of the body hold (their
    /// raw text less its tags and white space): what the no-script view could add to the
    /// page. `0` in the no-script view, whose `<noscript>` content is parsed already.
    ///
    /// ```
    /// use agent_snapshot::parse::Dom;
    ///
    /// let dom = Dom::parse("<p>shown</p><noscript><p>Hello <b>you</b></p></noscript>");
    /// assert_eq!(dom.noscript_chars(), "Helloyou".len());
    /// let pixel = Dom::parse("<body><noscript>&lt;img src=/p.gif&gt;<p>Hi</p></noscript>");
    /// assert_eq!(pixel.noscript_chars(), "Hi".len());
    /// // Before the body, `<noscript>` is the head's (its sheets and links, no text).
    /// assert_eq!(Dom::parse("<noscript><p>Hello</p></noscript>").noscript_chars(), 0);
    /// ```
    pub fn noscript_chars(&self) -> usize {
        let Some(body) = self.body() else {
            return 0;
        };
        self.descendants(body)
            .filter(|&id| {
                self.element(id)
                    .is_some_and(|e| e.is_html(&local_name!("noscript")))
            })
            .flat_map(|id| self.children(id))
            .filter_map(|c| self.text(c))
            .map(text_outside_tags)
            .sum()
    }

    /// Parses a document `frame_depth` frames deep, then puts its streamed content, shadow
    /// roots and frames in place.
    fn parse_document(
        html: &str,
        threads: Threads,
        view: View,
        frame_depth: u32,
        budget: &mut usize,
    ) -> Dom {
        let mut dom = None;
        // The pipeline predicts raw-text elements as a scripting parser has them.
        if threads == Threads::Two && view == View::Scripted {
            dom = pipeline::parse(html).ok();
        }
        let mut dom = dom.unwrap_or_else(|| guard::parse(html, view));
        dom.complete_streamed();
        dom.compose(threads, frame_depth, budget);
        dom
    }

    /// A node by id.
    ///
    /// # Panics
    /// Never for ids handed out by this `Dom`; ids from another `Dom` may be out of range.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The element `id`, or `None` for other kinds of node.
    pub fn element(&self, id: NodeId) -> Option<Element<'_>> {
        match &self.node(id).data {
            NodeData::Element(e) => Some(self.element_of(e)),
            _ => None,
        }
    }

    /// The element whose data is `data` (from a [`NodeData::Element`] of this `Dom`).
    pub fn element_of<'a>(&'a self, data: &'a ElementData) -> Element<'a> {
        Element {
            data,
            // A range from another `Dom` could be out of bounds: read it as no attributes.
            attrs: self.attrs.get(data.attr_range()).unwrap_or_default(),
            strings: &self.strings,
            view: self.view,
        }
    }

    /// The string a [`NodeData::Text`] or [`NodeData::Comment`] of this `Dom` points to (a
    /// span from another `Dom` reads as whatever it lands on, or `""`, never a panic).
    ///
    /// ```
    /// use agent_snapshot::parse::{Dom, NodeData};
    ///
    /// let dom = Dom::parse("<p>Hello <b>world</b>");
    /// let text: Vec<&str> = dom
    ///     .descendants(agent_snapshot::parse::NodeId::DOCUMENT)
    ///     .filter_map(|id| match &dom.node(id).data {
    ///         NodeData::Text(t) => Some(dom.str(*t)),
    ///         _ => None,
    ///     })
    ///     .collect();
    /// assert_eq!(text, ["Hello ", "world"]);
    /// ```
    pub fn str(&self, span: StrSpan) -> &str {
        self.strings.get(span.range()).unwrap_or_default()
    }

    /// The text of a text node, `None` for any other node.
    pub fn text(&self, id: NodeId) -> Option<&str> {
        match self.node(id).data {
            NodeData::Text(t) => Some(self.str(t)),
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
    pub fn ancestors(&self, id: NodeId) -> impl Iterator<Item = (NodeId, Element<'_>)> {
        std::iter::successors(self.node(id).parent, move |&p| self.node(p).parent)
            .filter_map(move |p| self.element(p).map(|e| (p, e)))
    }

    /// Whether `node` is `ancestor` or inside it.
    pub(crate) fn holds(&self, ancestor: NodeId, node: NodeId) -> bool {
        node == ancestor || self.ancestors(node).any(|(a, _)| a == ancestor)
    }

    /// Whether `anc` is a parent of `id`, or a parent's parent, and so on (not `id` itself).
    pub(crate) fn is_ancestor(&self, anc: NodeId, mut id: NodeId) -> bool {
        while let Some(p) = self.node(id).parent {
            if p == anc {
                return true;
            }
            id = p;
        }
        false
    }

    /// The nearest element holding both nodes.
    pub(crate) fn common_ancestor(&self, a: NodeId, b: NodeId) -> Option<NodeId> {
        let mut above_a: foldhash::HashSet<NodeId> = foldhash::HashSet::default();
        above_a.insert(a);
        above_a.extend(self.ancestors(a).map(|(id, _)| id));
        if above_a.contains(&b) {
            return self.element(b).map(|_| b);
        }
        self.ancestors(b)
            .map(|(id, _)| id)
            .find(|id| above_a.contains(id))
    }

    /// Whether `a` comes before `b` in document order (neither holding the other).
    pub(crate) fn precedes(&self, a: NodeId, b: NodeId) -> bool {
        // The chain from `a` up, each with the child it was reached from.
        let mut chain: foldhash::HashMap<NodeId, NodeId> = foldhash::HashMap::default();
        let mut child = a;
        for (up, _) in self.ancestors(a) {
            chain.insert(up, child);
            child = up;
        }
        let mut child_b = b;
        for (up, _) in self.ancestors(b) {
            if let Some(&child_a) = chain.get(&up) {
                return self
                    .children(up)
                    .find(|&c| c == child_a || c == child_b)
                    .is_some_and(|c| c == child_a);
            }
            child_b = up;
        }
        false
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
    pub fn elements(&self) -> impl Iterator<Item = (NodeId, Element<'_>)> {
        self.descendants(NodeId::DOCUMENT)
            .filter_map(move |id| self.element(id).map(|e| (id, e)))
    }
}

/// Non-white-space bytes of `raw` outside `<…>` (a markup fragment's text, roughly: other
/// entities count as written, a `>` inside a quoted attribute ends the tag early). Markup
/// escaped once more (`&lt;img src=…&gt;`, a tracking pixel a page escaped twice) is no
/// text either: a browser without scripts shows it as code, which nobody reads.
fn text_outside_tags(raw: &str) -> usize {
    let mut in_tag = false;
    let mut count = 0;
    let mut rest = raw.as_bytes();
    while let Some(&b) = rest.first() {
        let (opens, closes) = (rest.starts_with(b"&lt;"), rest.starts_with(b"&gt;"));
        let step = if opens || closes { 4 } else { 1 };
        if b == b'<' || opens {
            in_tag = true;
        } else if in_tag && (b == b'>' || closes) {
            in_tag = false;
        } else if !in_tag && !b.is_ascii_whitespace() {
            count += 1;
        }
        rest = &rest[step..];
    }
    count
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
pub fn is_void(el: &ElementData) -> bool {
    el.ns == ElementNs::Html && is_void_name(el.local())
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

/// Pushes `items` (children, in document order) on a walk's stack so that they pop in
/// that order: the explicit-stack walks of every stage use it instead of recursing, which a
/// page nested 100 000 deep would overflow.
pub(crate) fn push_in_order<T>(stack: &mut Vec<T>, items: impl IntoIterator<Item = T>) {
    let start = stack.len();
    stack.extend(items);
    stack[start..].reverse();
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

    /// The text nodes, in document order.
    fn texts(dom: &Dom) -> Vec<String> {
        dom.descendants(NodeId::DOCUMENT)
            .filter_map(|id| dom.text(id).map(str::to_string))
            .collect()
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
        let texts: Vec<_> = dom.children(p).filter_map(|c| dom.text(c)).collect();
        assert_eq!(texts, ["a&b"]);
    }

    #[test]
    fn foster_parented_text_merges_with_the_run_before_the_table() {
        // "b" is foster-parented after "x" was stored: the merge has to move "a" to the end of
        // the string buffer to keep the run contiguous.
        let dom = Dom::parse("<table>a<td>x</td>b</table>");
        let body = dom.body().expect("body");
        let first = dom.children(body).next().expect("a child");
        assert_eq!(dom.text(first), Some("ab"));
        assert_eq!(texts(&dom), ["ab", "x"]);
    }

    #[test]
    fn a_dom_can_be_shared_between_threads() {
        fn send_sync<T: Send + Sync>() {}
        send_sync::<Dom>();
        send_sync::<crate::Document>();
    }

    #[test]
    fn attributes_of_repeated_html_and_body_tags_are_merged() {
        // The second <html>/<body> start tag adds only attributes the element lacks, after
        // other elements' attributes are already in the arena's list.
        let dom = Dom::parse(
            "<html lang=en><body class=a><p id=x><html lang=fr dir=rtl><body class=b data-k=v>",
        );
        let attrs = |name| {
            let (_, el) = dom
                .elements()
                .find(|(_, e)| e.is_html(&name))
                .expect("element");
            el.attrs()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
        };
        assert_eq!(attrs(local_name!("html")), ["lang=en", "dir=rtl"]);
        assert_eq!(attrs(local_name!("body")), ["class=a", "data-k=v"]);
        assert_eq!(attrs(local_name!("p")), ["id=x"]);
    }

    #[test]
    fn foreign_attributes_keep_their_namespace_apart() {
        let dom = Dom::parse(
            r#"<svg xlink:href=in-ns href=plain xml:lang=de></svg><a xlink:href=literal>"#,
        );
        let (_, svg) = dom.elements().find(|(_, e)| e.in_svg_ns()).expect("svg");
        assert_eq!(svg.attr(&local_name!("href")), Some("plain"));
        let names: Vec<QualName> = svg.attrs().map(|(q, _)| svg.attr_name(q)).collect();
        assert_eq!(
            names[0],
            QualName::new(
                Some(namespace_prefix!("xlink")),
                ns!(xlink),
                local_name!("href")
            )
        );
        assert_eq!(names[1], QualName::new(None, ns!(), local_name!("href")));
        assert_eq!(
            names[2],
            QualName::new(
                Some(namespace_prefix!("xml")),
                ns!(xml),
                local_name!("lang")
            )
        );
        // On an HTML element the parser adjusts nothing: the colon is part of the name.
        let (_, a) = dom
            .elements()
            .find(|(_, e)| e.is_html(&local_name!("a")))
            .expect("a");
        let (q, v) = a.attrs().next().expect("one attribute");
        assert_eq!(
            (a.attr_name(q), v),
            (
                QualName::new(None, ns!(), LocalName::from("xlink:href")),
                "literal"
            )
        );
        assert_eq!(a.attr(&local_name!("href")), None);
    }

    #[test]
    fn only_a_leading_byte_order_mark_is_dropped() {
        // html5ever would also drop the U+FEFF after `</script>`, where feeding resumes.
        for threads in [Threads::One, Threads::Two] {
            let dom = Dom::parse_with("\u{feff}<p>a</p><script>s</script>\u{feff}b", threads);
            assert_eq!(texts(&dom).concat(), "as\u{feff}b", "{threads:?}");
        }
    }

    #[test]
    fn annotation_xml_with_an_html_encoding_holds_html() {
        // An HTML integration point: its start tags are HTML elements, as in browsers. With
        // another encoding (or none) they stay MathML.
        let dom = Dom::parse(
            "<math><annotation-xml encoding='Text/HTML'><section>html</section></annotation-xml>\
             <annotation-xml><section>mathml</section></annotation-xml></math>",
        );
        let sections: Vec<bool> = dom
            .elements()
            .filter(|(_, e)| *e.local() == local_name!("section"))
            .map(|(_, e)| e.in_html_ns())
            .collect();
        assert_eq!(sections, [true, false]);
    }

    #[test]
    fn misnested_formatting_is_repaired() {
        // The adoption agency algorithm moves nodes; links must stay consistent.
        let dom = Dom::parse("<b>1<p>2</b>3</p>");
        assert_eq!(texts(&dom), ["1", "2", "3"]);
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
        let text: usize = texts(&dom).iter().map(String::len).sum();
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
