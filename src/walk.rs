//! Stage 3: arena → node tree, in one depth-first pass with an explicit stack.
//!
//! For each element the walk asks [`crate::aria`] whether it is hidden, what its role is and,
//! for nodes it emits, what its name is. Generic wrappers are not emitted: their text and
//! children go to the nearest emitted ancestor, which keeps the tree close to what a person
//! perceives (and small). Refs are numbered once the pass is done, in document order, from
//! rules that depend only on the page and the [`TreeOptions`]: never on a render budget.

use std::borrow::Cow;

use html5ever::local_name;

use crate::aria::hidden::{
    closed_details_summary, style_of, subtree_hidden_styled, visibility_hidden, InlineStyle,
};
use crate::aria::name::{is_block_styled, Names};
use crate::aria::roles::{self, category, Category};
use crate::aria::Index;
use crate::parse::{Dom, Element, NodeData, NodeId, Threads};
use crate::text::{normalize, truncate_with_ellipsis, TextBuf};
use crate::tree::{
    Attrs, NodeTree, Ref, State, States, TreeNode, TreeStats, MAX_TREE_DEPTH, SCHEMA_VERSION,
};

/// Attributes the tree carries by default (and the renderer shows by default).
pub const DEFAULT_ATTRS: &[&str] = &[
    "href",
    "name",
    "type",
    "value",
    "placeholder",
    "aria-label",
    "role",
    "src",
    "action",
    "method",
];

/// How a page becomes a node tree. Changing any of these but `parse_threads` may renumber
/// refs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeOptions {
    /// `true`: content nodes (headings, list items, cells…) get refs only when they have a
    /// name or text. `false`: they always do.
    pub interactive_only: bool,
    /// Give refs to elements made interactive by `onclick`, `tabindex >= 0` or
    /// `contenteditable`, as `clickable` / `focusable`.
    pub cursor_interactive: bool,
    /// Longest `name` / `text` kept per node, in characters.
    pub max_text_per_node: usize,
    /// Longest attribute value kept, in characters.
    pub max_attr_value_len: usize,
    /// Attributes copied into the tree.
    pub attrs: Vec<String>,
    /// The page's URL, when the caller knows it better than the page does.
    pub url: Option<String>,
    /// Decode bytes with this encoding label instead of sniffing.
    pub encoding: Option<String>,
    /// Threads the parser may use; the tree is the same whatever the choice.
    pub parse_threads: Threads,
}

impl Default for TreeOptions {
    fn default() -> Self {
        TreeOptions {
            interactive_only: true,
            cursor_interactive: true,
            max_text_per_node: 200,
            max_attr_value_len: 1000,
            attrs: DEFAULT_ATTRS.iter().map(|s| s.to_string()).collect(),
            url: None,
            encoding: None,
            parse_threads: Threads::Auto,
        }
    }
}

/// The walk's output: the tree and, for each ref `e{i+1}`, the arena node it names.
pub struct Walked {
    pub tree: NodeTree,
    pub refs: Vec<NodeId>,
}

/// An emitted node whose subtree the walk is still inside. Only open nodes live here (the
/// stack is as deep as the emitted nesting); closed nodes are already in their parent's
/// `children`, so the tree is never held twice.
struct Open {
    node: TreeNode,
    text: TextBuf,
    /// Position of this node in document (pre-)order: an index into the ref table.
    order: usize,
    /// Descendants are folded into this node's text (children-presentational roles).
    presentational_children: bool,
    /// Gets a ref whatever its text (interactive role, cursor-interactive, or `--all`).
    ref_always: bool,
    /// Gets a ref if it ends up with a name or text (content roles).
    ref_if_labelled: bool,
    /// Only the accessible name counts as a label, not loose text (landmarks).
    name_only: bool,
}

impl Open {
    /// Finishes the node's text; returns the node and whether it gets a ref.
    fn close(self) -> (TreeNode, bool) {
        let Open {
            mut node,
            text,
            name_only,
            ref_always,
            ref_if_labelled,
            ..
        } = self;
        let text = text.finish().0;
        // Children were pushed one by one (capacity doubling): give the slack back now that
        // the list is final. Shrinking reallocs in place, and a list of 5 000 items would
        // otherwise hold up to a megabyte it never uses.
        node.children.shrink_to_fit();
        if !text.is_empty() && !name_only && node.name.as_deref() != Some(text.as_str()) {
            node.text = Some(text.into_boxed_str());
        }
        let labelled = node.name.is_some() || node.text.is_some();
        (node, ref_always || (ref_if_labelled && labelled))
    }
}

enum Work {
    Enter {
        id: NodeId,
        vis_hidden: bool,
    },
    /// Leaving an element: close its emitted node, and separate block text.
    Exit {
        emitted: bool,
        block: bool,
    },
}

/// Walks `dom` into a node tree.
pub fn walk(dom: &Dom, index: &Index, opts: &TreeOptions) -> Walked {
    let names = Names::new(dom, index, opts.max_text_per_node);
    // Interned once: looking attributes up by atom is a pointer compare per attribute. The
    // default names are static, so the tree's keys do not allocate.
    let attr_names: Vec<(html5ever::LocalName, Cow<'static, str>)> = opts
        .attrs
        .iter()
        .map(|a| {
            let key = match DEFAULT_ATTRS.iter().find(|d| **d == a.as_str()) {
                Some(d) => Cow::Borrowed(*d),
                None => Cow::Owned(a.clone()),
            };
            (html5ever::LocalName::from(a.as_str()), key)
        })
        .collect();
    let root = dom
        .body()
        .or_else(|| dom.document_element())
        .unwrap_or(NodeId::DOCUMENT);
    let root_tag = dom
        .element(root)
        .map_or(Cow::Borrowed("#document"), tag_name);

    // The nearest emitted ancestor of whatever is being visited is always the top of `open`:
    // every subtree pushes and pops its own emitted nodes.
    let mut open: Vec<Open> = vec![Open {
        node: TreeNode {
            tag: root_tag,
            ..Default::default()
        },
        text: TextBuf::new(opts.max_text_per_node),
        order: 0,
        presentational_children: false,
        ref_always: false,
        ref_if_labelled: false,
        name_only: true,
    }];
    // For each emitted node in document order: its element and whether it gets a ref.
    let mut order: Vec<(NodeId, bool)> = vec![(root, false)];
    let mut stats = TreeStats {
        dom_nodes: dom.element_count() as u64,
        ..Default::default()
    };
    let root_vis = dom
        .element(root)
        .is_some_and(|el| visibility_hidden(el, false));
    let mut stack: Vec<Work> = Vec::new();
    push_children(dom, root, root_vis, &mut stack);

    while let Some(work) = stack.pop() {
        match work {
            Work::Exit { emitted, block } => {
                if emitted {
                    if let Some(node) = open.pop() {
                        let position = node.order;
                        let (node, gets_ref) = node.close();
                        order[position].1 = gets_ref;
                        top(&mut open).node.children.push(node);
                    }
                }
                if block {
                    top(&mut open).text.boundary();
                }
            }
            Work::Enter { id, vis_hidden } => match &dom.node(id).data {
                NodeData::Text(t) if !vis_hidden => top(&mut open).text.push_str(t),
                NodeData::Element(el) => {
                    let el = dom.element_of(el);
                    stats.visited_nodes += 1;
                    if el.is_html(&local_name!("br")) {
                        top(&mut open).text.boundary();
                        continue;
                    }
                    let style = style_of(el);
                    if subtree_hidden_styled(el, &style).is_some() {
                        stats.skipped_hidden += 1;
                        continue;
                    }
                    let vis = style.visibility_hidden.unwrap_or(vis_hidden);
                    let block = is_block_styled(el, &style);
                    if block {
                        top(&mut open).text.boundary();
                    }
                    let presentational = top(&mut open).presentational_children;
                    let made = if vis {
                        None
                    } else {
                        emit(
                            dom,
                            &names,
                            opts,
                            &attr_names,
                            id,
                            el,
                            &style,
                            presentational,
                        )
                    };
                    let mut emitted = false;
                    if let Some(mut node) = made {
                        node.order = order.len();
                        order.push((id, false));
                        if open.len() >= MAX_TREE_DEPTH {
                            // At the depth cap, deeper nodes become leaves of the deepest
                            // level, appended in document order; their text goes up.
                            let position = node.order;
                            let (leaf, gets_ref) = node.close();
                            order[position].1 = gets_ref;
                            top(&mut open).node.children.push(leaf);
                        } else {
                            open.push(node);
                            emitted = true;
                        }
                    }
                    stack.push(Work::Exit { emitted, block });
                    push_children(dom, id, vis, &mut stack);
                }
                _ => {}
            },
        }
    }

    stats.emitted_nodes = order.len() as u64;
    let mut tree = match open.pop() {
        Some(root) => root.close().0,
        None => TreeNode::default(),
    };
    let refs = number_refs(&mut tree, &order);
    Walked {
        tree: NodeTree {
            version: SCHEMA_VERSION,
            url: opts.url.clone().or_else(|| document_url(dom)),
            title: document_title(dom),
            tree,
            stats,
        },
        refs,
    }
}

/// The innermost open node. The root is only popped after the loop, so `open` is never
/// empty inside it.
fn top(open: &mut [Open]) -> &mut Open {
    let last = open.len().saturating_sub(1);
    &mut open[last]
}

/// Numbers refs `e1`, `e2`… in document order: a pre-order pass over the finished tree visits
/// nodes in the order they were emitted.
fn number_refs(tree: &mut TreeNode, order: &[(NodeId, bool)]) -> Vec<NodeId> {
    let mut refs = Vec::new();
    let mut position = 0;
    let mut stack: Vec<&mut TreeNode> = vec![tree];
    while let Some(node) = stack.pop() {
        if let Some(&(id, true)) = order.get(position) {
            refs.push(id);
            // More refs than u32 would need more nodes than the arena can number.
            node.ref_ = u32::try_from(refs.len()).ok().and_then(Ref::new);
        }
        position += 1;
        stack.extend(node.children.iter_mut().rev());
    }
    refs
}

fn push_children(dom: &Dom, id: NodeId, vis_hidden: bool, stack: &mut Vec<Work>) {
    let start = stack.len();
    let only = dom
        .element(id)
        .and_then(|el| closed_details_summary(dom, id, el));
    match only {
        Some(Some(summary)) => stack.push(Work::Enter {
            id: summary,
            vis_hidden,
        }),
        Some(None) => {}
        None => stack.extend(dom.children(id).map(|c| Work::Enter { id: c, vis_hidden })),
    }
    stack[start..].reverse();
}

/// Decides whether `el` becomes a tree node and creates it (open, without text yet).
#[allow(clippy::too_many_arguments)]
fn emit(
    dom: &Dom,
    names: &Names,
    opts: &TreeOptions,
    attr_names: &[(html5ever::LocalName, Cow<'static, str>)],
    id: NodeId,
    el: Element<'_>,
    style: &InlineStyle,
    inside_presentational: bool,
) -> Option<Open> {
    let mut role = roles::role(dom, names.index(), id);
    if matches!(role, Some("none" | "presentation")) {
        role = None;
    }
    let cat = role.map(category);
    let cursor = opts.cursor_interactive
        && cat != Some(Category::Interactive)
        && (cursor_interactive(el) || pointer_starts_here(dom, id, style));
    // Inside a button, an image or a checkbox the children are presentational: only what an
    // agent could still operate on its own is emitted.
    if inside_presentational && cat != Some(Category::Interactive) && !cursor {
        return None;
    }
    // Text-level roles (strong, emphasis, code…) are formatting inside a sentence: their text
    // belongs to the node around them, or `Gold <strong>¥580</strong>` would read "Gold".
    if (role.is_none() || role.is_some_and(roles::is_text_level)) && !cursor {
        return None;
    }
    let shown_role = match role {
        Some(r) => r,
        None if el.has_attr(&local_name!("onclick")) || style.cursor_pointer => "clickable",
        None => "focusable",
    };
    // Only elements without inherited `visibility:hidden` are emitted.
    let name = names.name_with_visibility(id, Some(shown_role).filter(|_| role.is_some()), false);
    let mut node = TreeNode {
        tag: tag_name(el),
        role: Some(Cow::Borrowed(shown_role)),
        name: (!name.is_empty()).then(|| name.into_boxed_str()),
        level: level(el, role),
        attrs: attrs(dom, id, el, opts, attr_names),
        states: states(el, role),
        cursor_interactive: cursor,
        ..Default::default()
    };
    if node.role.as_deref() == Some("clickable") || node.role.as_deref() == Some("focusable") {
        node.cursor_interactive = true;
    }
    let (ref_always, ref_if_labelled) = match cat {
        _ if cursor => (true, false),
        Some(Category::Interactive) => (true, false),
        Some(Category::Content) => (!opts.interactive_only, true),
        _ => (false, false),
    };
    // A landmark's loose text is whatever its wrappers did not claim (often a whole article):
    // it is labelled by its accessible name only.
    let name_only = matches!(shown_role, "main" | "navigation" | "region" | "article");
    Some(Open {
        node,
        text: TextBuf::new(opts.max_text_per_node),
        order: 0,
        presentational_children: inside_presentational || children_presentational(shown_role),
        ref_always,
        ref_if_labelled,
        name_only,
    })
}

/// `onclick`, `tabindex >= 0` or `contenteditable`: operable without an interactive role.
fn cursor_interactive(el: Element<'_>) -> bool {
    el.has_attr(&local_name!("onclick"))
        || el
            .attr(&local_name!("tabindex"))
            .and_then(|t| t.trim().parse::<i64>().ok())
            .is_some_and(|t| t >= 0)
        || el
            .attr(&local_name!("contenteditable"))
            .is_some_and(|v| !v.eq_ignore_ascii_case("false"))
}

/// An inline `cursor:pointer` that the parent does not already have: where a clickable area
/// starts (the live script reads the computed cursor the same way).
fn pointer_starts_here(dom: &Dom, id: NodeId, style: &InlineStyle) -> bool {
    style.cursor_pointer
        && !dom
            .node(id)
            .parent
            .and_then(|p| dom.element(p))
            .is_some_and(|p| style_of(p).cursor_pointer)
}

/// Roles whose children are presentational (ARIA 1.2 "Children Presentational: True").
fn children_presentational(role: &str) -> bool {
    matches!(
        role,
        "button"
            | "checkbox"
            | "img"
            | "meter"
            | "menuitemcheckbox"
            | "menuitemradio"
            | "option"
            | "progressbar"
            | "radio"
            | "scrollbar"
            | "separator"
            | "slider"
            | "switch"
            | "tab"
    )
}

fn level(el: Element<'_>, role: Option<&str>) -> Option<u32> {
    if role != Some("heading") {
        return None;
    }
    if let Some(l) = el
        .attr(&local_name!("aria-level"))
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|l| *l >= 1)
    {
        return Some(l);
    }
    Some(match *el.local() {
        local_name!("h1") => 1,
        local_name!("h2") => 2,
        local_name!("h3") => 3,
        local_name!("h4") => 4,
        local_name!("h5") => 5,
        local_name!("h6") => 6,
        // role=heading without aria-level: ARIA's default is 2.
        _ => 2,
    })
}

fn attrs(
    dom: &Dom,
    id: NodeId,
    el: Element<'_>,
    opts: &TreeOptions,
    attr_names: &[(html5ever::LocalName, Cow<'static, str>)],
) -> Attrs {
    let mut out = Attrs::default();
    if el.has_no_attrs() && !el.is_html(&local_name!("textarea")) {
        return out;
    }
    for (atom, name) in attr_names {
        let textarea_text;
        let value = match el.attr(atom) {
            Some(v) => v,
            // A textarea's value is its text.
            None if name == "value" && el.is_html(&local_name!("textarea")) => {
                let mut buf = TextBuf::new(opts.max_attr_value_len);
                for d in dom.descendants(id) {
                    if let NodeData::Text(t) = &dom.node(d).data {
                        buf.push_str(t);
                    }
                }
                textarea_text = buf.finish().0;
                if textarea_text.is_empty() {
                    continue;
                }
                &textarea_text
            }
            None => continue,
        };
        let v = value.trim();
        // An inline `data:` URL is bytes, not a location: keep its media type only.
        let v = match v.get(..5) {
            Some(scheme) if scheme.eq_ignore_ascii_case("data:") => match v.find(',') {
                Some(comma) if comma + 1 < v.len() => Cow::Owned(format!("{}…", &v[..=comma])),
                _ => Cow::Borrowed(v),
            },
            _ => Cow::Borrowed(v),
        };
        let v = match truncate_with_ellipsis(&v, opts.max_attr_value_len) {
            Cow::Borrowed(_) => v.into_owned(),
            Cow::Owned(cut) => cut,
        };
        out.insert(name.clone(), v);
    }
    out
}

fn states(el: Element<'_>, role: Option<&str>) -> States {
    let aria_true = |name: &html5ever::LocalName| {
        el.attr(name)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
    };
    let mut out = States::default();
    let checkable = matches!(
        role,
        Some("checkbox" | "radio" | "switch" | "menuitemcheckbox" | "menuitemradio")
    );
    if checkable {
        let aria_checked = el
            .attr(&local_name!("aria-checked"))
            .map(|v| v.trim().to_ascii_lowercase());
        if aria_checked.as_deref() == Some("mixed") {
            out.insert(State::Mixed);
        } else if aria_checked.as_deref() == Some("true")
            || (el.is_html(&local_name!("input")) && el.has_attr(&local_name!("checked")))
        {
            out.insert(State::Checked);
        }
    }
    if aria_true(&local_name!("aria-selected"))
        || (el.is_html(&local_name!("option")) && el.has_attr(&local_name!("selected")))
    {
        out.insert(State::Selected);
    }
    if aria_true(&local_name!("aria-expanded")) {
        out.insert(State::Expanded);
    }
    if aria_true(&local_name!("aria-pressed")) {
        out.insert(State::Pressed);
    }
    if aria_true(&local_name!("aria-disabled")) || roles::is_disabled_control(el) {
        out.insert(State::Disabled);
    }
    if aria_true(&local_name!("aria-required")) || el.has_attr(&local_name!("required")) {
        out.insert(State::Required);
    }
    out
}

/// The tag name, borrowed from the static atom table when it is a known name (every HTML
/// tag is), so the tree does not allocate one string per node.
fn tag_name(el: Element<'_>) -> Cow<'static, str> {
    static_tag(el.local()).map_or_else(|| Cow::Owned(String::from(&**el.local())), Cow::Borrowed)
}

/// A static copy of the commonest tag names.
fn static_tag(name: &html5ever::LocalName) -> Option<&'static str> {
    const TAGS: &[&str] = &[
        "a",
        "abbr",
        "address",
        "area",
        "article",
        "aside",
        "audio",
        "b",
        "blockquote",
        "body",
        "button",
        "canvas",
        "caption",
        "cite",
        "code",
        "dd",
        "del",
        "details",
        "dfn",
        "dialog",
        "div",
        "dl",
        "dt",
        "em",
        "fieldset",
        "figcaption",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "hgroup",
        "hr",
        "html",
        "i",
        "iframe",
        "img",
        "input",
        "ins",
        "label",
        "legend",
        "li",
        "main",
        "mark",
        "math",
        "menu",
        "meter",
        "nav",
        "ol",
        "optgroup",
        "option",
        "output",
        "p",
        "pre",
        "progress",
        "s",
        "search",
        "section",
        "select",
        "small",
        "span",
        "strong",
        "sub",
        "summary",
        "sup",
        "svg",
        "table",
        "tbody",
        "td",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "time",
        "tr",
        "u",
        "ul",
        "video",
    ];
    TAGS.binary_search(&&**name).ok().map(|i| TAGS[i])
}

/// The page title: the first `<title>` in the document, normalised.
fn document_title(dom: &Dom) -> Option<String> {
    let (id, _) = dom
        .elements()
        .find(|(_, e)| e.is_html(&local_name!("title")))?;
    let mut buf = TextBuf::new(1000);
    for c in dom.children(id) {
        if let NodeData::Text(t) = &dom.node(c).data {
            buf.push_str(t);
        }
    }
    let (title, _) = buf.finish();
    (!title.is_empty()).then_some(title)
}

/// The page's own idea of its URL: `<base href>`, `<link rel=canonical>`, then `og:url`.
fn document_url(dom: &Dom) -> Option<String> {
    let mut canonical = None;
    let mut og = None;
    for (_, el) in dom.elements() {
        match *el.local() {
            local_name!("base") => {
                if let Some(h) = el
                    .attr(&local_name!("href"))
                    .map(normalize)
                    .filter(|h| is_absolute(h))
                {
                    return Some(h);
                }
            }
            local_name!("link") if canonical.is_none() => {
                let rel = el.attr(&local_name!("rel")).unwrap_or("");
                if rel
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("canonical"))
                {
                    canonical = el
                        .attr(&local_name!("href"))
                        .map(normalize)
                        .filter(|h| is_absolute(h));
                }
            }
            local_name!("meta") if og.is_none() => {
                if el
                    .attr(&local_name!("property"))
                    .is_some_and(|p| p.eq_ignore_ascii_case("og:url"))
                {
                    og = el
                        .attr(&local_name!("content"))
                        .map(normalize)
                        .filter(|h| is_absolute(h));
                }
            }
            _ => {}
        }
    }
    canonical.or(og)
}

fn is_absolute(url: &str) -> bool {
    url.split_once(':').is_some_and(|(scheme, _)| {
        !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn walk_html(html: &str, opts: &TreeOptions) -> Walked {
        let dom = Dom::parse(html);
        let index = Index::build(&dom);
        walk(&dom, &index, opts)
    }

    fn flat(tree: &TreeNode) -> Vec<&TreeNode> {
        let mut out = Vec::new();
        let mut stack = vec![tree];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(n.children.iter().rev());
        }
        out
    }

    #[test]
    fn static_tag_table_is_sorted() {
        let dom = Dom::parse("<table><tr><td>x</table>");
        let td = dom
            .elements()
            .find(|(_, e)| e.is_html(&local_name!("td")))
            .map(|(_, e)| e)
            .expect("td");
        assert!(matches!(tag_name(td), Cow::Borrowed("td")));
        let custom = Dom::parse("<my-widget></my-widget>");
        let w = custom.elements().last().map(|(_, e)| e).expect("element");
        assert_eq!(tag_name(w), "my-widget");
    }

    #[test]
    fn refs_in_document_order_with_attrs() {
        let w = walk_html(
            "<nav><a href=/>Home</a></nav><main><h1>Gold</h1><input type=search placeholder='Search...'><button>Go</button></main>",
            &TreeOptions::default(),
        );
        let with_refs: Vec<_> = flat(&w.tree.tree)
            .into_iter()
            .filter_map(|n| Some((n.ref_?.to_string(), n.role.as_deref()?)))
            .collect();
        assert_eq!(
            with_refs,
            [
                ("e1".to_string(), "link"),
                ("e2".to_string(), "heading"),
                ("e3".to_string(), "searchbox"),
                ("e4".to_string(), "button")
            ]
        );
        assert_eq!(w.refs.len(), 4);
        let search = flat(&w.tree.tree)
            .into_iter()
            .find(|n| n.ref_ == Ref::parse("e3"))
            .expect("e3");
        assert_eq!(search.attrs.get("placeholder"), Some("Search..."));
        assert_eq!(search.attrs.get("type"), Some("search"));
    }

    #[test]
    fn hidden_content_is_skipped_and_counted() {
        let w = walk_html(
            "<p>Visible</p><div hidden>SECRET1</div><div aria-hidden=true>SECRET2</div><div style='display:none'>SECRET3</div><script>SECRET4</script><details><summary>Sum</summary>SECRET5</details><input type=hidden value=SECRET6>",
            &TreeOptions::default(),
        );
        let json = w.tree.to_json();
        for n in 1..=6 {
            assert!(
                !json.contains(&format!("SECRET{n}")),
                "SECRET{n} leaked: {json}"
            );
        }
        assert!(json.contains("Visible"));
        assert!(json.contains("Sum"));
        // Five hidden elements; the closed details' text is not an element.
        assert_eq!(w.tree.stats.skipped_hidden, 5);
    }

    #[test]
    fn cursor_interactive_elements_get_refs() {
        let w = walk_html("<div onclick='x()'>Open</div><span tabindex=0>Focus me</span><div tabindex=-1>no</div><div style='cursor: pointer'>Card <b style='cursor:pointer'>inner</b></div>", &TreeOptions::default());
        let roles: Vec<_> = flat(&w.tree.tree)
            .into_iter()
            .filter(|n| n.ref_.is_some())
            .map(|n| n.role.as_deref().unwrap_or_default())
            .collect();
        assert_eq!(
            roles,
            ["clickable", "focusable", "clickable"],
            "an inherited pointer is no new ref"
        );
        let off = TreeOptions {
            cursor_interactive: false,
            ..Default::default()
        };
        assert!(walk_html("<div onclick='x()'>Open</div>", &off)
            .refs
            .is_empty());
    }

    #[test]
    fn content_refs_depend_on_interactive_only() {
        let html = "<ul><li>Gold</li><li></li></ul><h2></h2>";
        assert_eq!(walk_html(html, &TreeOptions::default()).refs.len(), 1);
        let all = TreeOptions {
            interactive_only: false,
            ..Default::default()
        };
        assert_eq!(walk_html(html, &all).refs.len(), 3);
    }

    #[test]
    fn text_is_owned_by_nearest_emitted_ancestor() {
        let w = walk_html(
            "<ul><li><div>Gold <span>¥580.00/g</span></div><a href=x>buy</a></li></ul>",
            &TreeOptions::default(),
        );
        let li = flat(&w.tree.tree)
            .into_iter()
            .find(|n| n.tag == "li")
            .expect("li");
        assert_eq!(li.text.as_deref(), Some("Gold ¥580.00/g"));
        assert_eq!(li.children[0].name.as_deref(), Some("buy"));
    }

    #[test]
    fn landmarks_are_labelled_by_name_only_and_data_urls_shortened() {
        let w = walk_html(
            "<main><div>Long article text</div><a href=x>l</a><img alt=i src='data:image/png;base64,AAAA'></main>",
            &TreeOptions::default(),
        );
        let main = &w.tree.tree.children[0];
        assert_eq!((main.ref_, main.text.as_deref()), (None, None));
        let img = &main.children[1];
        assert_eq!(img.attrs.get("src"), Some("data:image/png;base64,…"));
    }

    #[test]
    fn text_level_roles_are_part_of_their_parents_text() {
        let w = walk_html(
            "<ul><li>Gold <strong>¥580</strong> <em>today</em></li></ul>",
            &TreeOptions::default(),
        );
        let li = &w.tree.tree.children[0].children[0];
        assert_eq!(li.text.as_deref(), Some("Gold ¥580 today"));
        assert!(li.children.is_empty());
    }

    #[test]
    fn url_and_title_from_the_page() {
        let w = walk_html(
            "<head><title> Gold  price </title><link rel=canonical href='https://ex.com/p'></head>",
            &TreeOptions::default(),
        );
        assert_eq!(w.tree.title.as_deref(), Some("Gold price"));
        assert_eq!(w.tree.url.as_deref(), Some("https://ex.com/p"));
        let opts = TreeOptions {
            url: Some("https://given/".into()),
            ..Default::default()
        };
        let w = walk_html("<base href='https://base/'>", &opts);
        assert_eq!(w.tree.url.as_deref(), Some("https://given/"));
    }

    #[test]
    fn deep_trees_are_capped() {
        // 400 levels: under the parser's cap (512), over the tree's (256).
        let html = "<ul><li>".repeat(200);
        let w = walk_html(&html, &TreeOptions::default());
        let mut depth = 0;
        let mut stack = vec![(&w.tree.tree, 0usize)];
        while let Some((n, d)) = stack.pop() {
            depth = depth.max(d);
            stack.extend(n.children.iter().map(|c| (c, d + 1)));
        }
        assert!(depth <= MAX_TREE_DEPTH, "depth {depth}");
        assert_eq!(w.tree.stats.emitted_nodes, 401);
    }
}
