//! Accessible names and descriptions: W3C accname 1.2 with the HTML-AAM element rules.
//!
//! Spec: <https://w3c.github.io/accname/#computation-steps> (step numbers below are its
//! 2A–2I) and <https://w3c.github.io/html-aam/#accessible-name-computations-by-html-element>.
//!
//! Name from content is walked with an explicit stack, never by recursion on page depth. The
//! only nested calls are bounded by the spec's own rules: aria-labelledby is not followed
//! inside an aria-labelledby traversal, and native labels (`<label>`, `<legend>`, …) are read
//! as content, so the call depth is at most three whatever the page. Every computation writes
//! into a [`TextBuf`] with a character limit and stops as soon as it is full, so a megabyte of
//! referenced text costs no more than the limit.

use html5ever::local_name;

use super::hidden::{self, closed_details_summary, subtree_hidden_styled};
use super::roles::{self, allows_name_from_content, input_type, is_range, prohibits_naming};
use super::Index;
use crate::parse::{push_in_order, Dom, Element, NodeData, NodeId};
use crate::style::ElementStyle;
use crate::text::{normalize, TextBuf};

/// How the current node is being reached.
#[derive(Clone, Copy, Debug)]
struct Ctx {
    /// The element whose name is being computed (skipped when met again inside its label).
    root: NodeId,
    /// Inside an aria-labelledby or aria-describedby traversal (2B is not followed again).
    in_reference: bool,
    /// Whether hidden nodes count (2A: the referenced node itself was hidden).
    include_hidden: bool,
    /// Whether `visibility:hidden` applies at `root`, when the caller knows; else it is looked
    /// up where a traversal starts.
    root_vis_hidden: Option<bool>,
}

/// The outcome of the per-element steps 2B–2E.
enum Step {
    /// The element's text alternative, final.
    Text(String),
    /// Go on with its content (2F), then its tooltip if that is empty (2I).
    Content,
}

/// Computes names and descriptions over one document.
pub struct Names<'a> {
    dom: &'a Dom,
    index: &'a Index,
    limit: usize,
}

impl<'a> Names<'a> {
    /// `limit` caps every name, in characters.
    pub fn new(dom: &'a Dom, index: &'a Index, limit: usize) -> Names<'a> {
        Names { dom, index, limit }
    }

    /// The document's lookup tables.
    pub fn index(&self) -> &'a Index {
        self.index
    }

    /// The accessible name of an element with the given computed role.
    pub fn name(&self, id: NodeId, role: Option<&str>) -> String {
        let vis_hidden = hidden::visibility_hidden_at(self.dom, self.index.styles(), id);
        self.name_with_visibility(id, role, vis_hidden)
    }

    /// [`Names::name`] for a caller that already knows whether `visibility:hidden` applies at
    /// the element (the walk does), saving a walk up its ancestors.
    pub fn name_with_visibility(&self, id: NodeId, role: Option<&str>, vis_hidden: bool) -> String {
        let Some(el) = self.dom.element(id) else {
            return String::new();
        };
        if role.is_some_and(prohibits_naming) {
            return String::new();
        }
        let ctx = Ctx {
            root: id,
            in_reference: false,
            include_hidden: false,
            root_vis_hidden: Some(vis_hidden),
        };
        // 2B: aria-labelledby, from the root only.
        if let Some(text) = self.labelledby(id, el, &local_name!("aria-labelledby")) {
            return text;
        }
        // 2D: aria-label.
        if let Some(label) = aria_label(el) {
            return self.cut(&label);
        }
        // 2E: the host language's own label. A control with a visible <label> is named by it
        // even when the label is empty: Chromium then ignores title and placeholder.
        if !matches!(role, Some("none" | "presentation")) {
            if let Some(text) = self.native(id, el, ctx) {
                return text;
            }
            let named_by_content_or_value = el.is_html(&local_name!("button"))
                || (el.is_html(&local_name!("input"))
                    && matches!(input_type(el), "button" | "submit" | "reset" | "image"));
            if is_labelable(el) && !named_by_content_or_value && self.labels(id, el, ctx).is_some()
            {
                return String::new();
            }
        }
        // 2F: name from content, for roles that allow it.
        if role.is_some_and(allows_name_from_content)
            || el.is_html(&local_name!("summary"))
            || (el.is_html(&local_name!("option")) && role.is_none())
        {
            let mut buf = TextBuf::new(self.limit);
            self.content(id, ctx, false, &mut buf);
            let (text, _) = buf.finish();
            if !text.is_empty() {
                return text;
            }
        }
        // 2I: tooltip, then the placeholder that html-aam lists after it for text fields.
        self.tooltip(el).unwrap_or_default()
    }

    /// The accessible description: aria-describedby, aria-description, or an unused title
    /// (<https://w3c.github.io/accname/#mapping_additional_nd_description>).
    pub fn description(&self, id: NodeId, name: &str) -> String {
        let Some(el) = self.dom.element(id) else {
            return String::new();
        };
        if let Some(text) = self.labelledby(id, el, &local_name!("aria-describedby")) {
            return text;
        }
        if let Some(d) = el.attr(&local_name!("aria-description")) {
            let d = normalize(d);
            if !d.is_empty() {
                return self.cut(&d);
            }
        }
        match el.attr(&local_name!("title")).map(normalize) {
            Some(title) if !title.is_empty() && title != name => self.cut(&title),
            _ => String::new(),
        }
    }

    fn cut(&self, s: &str) -> String {
        let mut buf = TextBuf::new(self.limit);
        buf.push_str(s);
        buf.finish().0
    }

    /// 2B: the referenced elements' text alternatives, joined with spaces. `None` when there
    /// is no valid IDREF or the result is empty (then the later steps apply, as in browsers).
    fn labelledby(
        &self,
        named: NodeId,
        el: Element<'_>,
        attr: &html5ever::LocalName,
    ) -> Option<String> {
        let ids = el.attr(attr)?;
        let mut buf = TextBuf::new(self.limit);
        for idref in ids.split_ascii_whitespace() {
            if buf.is_full() {
                break;
            }
            let Some(target) = self.index.by_id(self.dom.scope(named), idref) else {
                continue;
            };
            buf.boundary();
            // The referenced node is computed even when hidden (2A), and then its hidden
            // descendants count too.
            // The root stays the element being named: a referenced control other than it
            // contributes its value (2C).
            let ctx = Ctx {
                root: named,
                in_reference: true,
                include_hidden: hidden::is_hidden(self.dom, self.index.styles(), target).is_some(),
                root_vis_hidden: None,
            };
            self.referenced(target, ctx, &mut buf);
        }
        let (text, _) = buf.finish();
        (!text.is_empty()).then_some(text)
    }

    /// The text alternative of a node reached through aria-labelledby/-describedby.
    fn referenced(&self, id: NodeId, ctx: Ctx, out: &mut TextBuf) {
        match &self.dom.node(id).data {
            NodeData::Text(t) => out.push_str(self.dom.str(*t)),
            NodeData::Element(el) => match self.element_step(id, self.dom.element_of(el), ctx) {
                Step::Text(t) => out.push_str(&t),
                Step::Content => {
                    let before = out.as_str().len();
                    self.content(id, ctx, false, out);
                    if out.as_str().len() == before {
                        if let Some(t) = self.tooltip(self.dom.element_of(el)) {
                            out.push_str(&t);
                        }
                    }
                }
            },
            _ => {}
        }
    }

    /// Steps 2B–2E for a node met inside a traversal (a descendant, or a referenced node).
    fn element_step(&self, id: NodeId, el: Element<'_>, ctx: Ctx) -> Step {
        // 2B: a descendant's own aria-labelledby, unless already inside a reference.
        if !ctx.in_reference {
            if let Some(text) = self.labelledby(id, el, &local_name!("aria-labelledby")) {
                return Step::Text(text);
            }
        }
        let role = roles::role(self.dom, self.index, id);
        // 2C: a control embedded in the label of another widget contributes its value,
        // ahead of its aria-label (accname#64: what every browser does).
        if id != ctx.root {
            if let Some(value) = role.and_then(|r| self.embedded_value(id, el, r)) {
                return Step::Text(value);
            }
        }
        // 2D: aria-label.
        if let Some(label) = aria_label(el) {
            return Step::Text(label);
        }
        // 2E: native text alternatives of leaves (img alt, input values, svg title). Container
        // natives (fieldset legend, table caption) are read as content here, which keeps the
        // call depth bounded.
        if !matches!(role, Some("none" | "presentation")) {
            if let Some(text) = self.native_leaf(id, el) {
                if !text.is_empty() {
                    return Step::Text(text);
                }
            }
        }
        Step::Content
    }

    /// 2C: the value an embedded control contributes.
    fn embedded_value(&self, id: NodeId, el: Element<'_>, role: &str) -> Option<String> {
        match role {
            "textbox" | "searchbox" => Some(if el.is_html(&local_name!("input")) {
                el.attr(&local_name!("value")).unwrap_or("").to_string()
            } else {
                self.plain_text(id)
            }),
            "combobox" | "listbox" => Some(if el.is_html(&local_name!("select")) {
                self.selected_options(id, el)
            } else if el.is_html(&local_name!("input")) {
                el.attr(&local_name!("value")).unwrap_or("").to_string()
            } else {
                // ARIA widgets: the text of options marked selected.
                let mut buf = TextBuf::new(self.limit);
                let selected: Vec<NodeId> = self
                    .dom
                    .descendants(id)
                    .filter(|&d| {
                        self.dom.element(d).is_some_and(|e| {
                            e.attr(&local_name!("aria-selected"))
                                .is_some_and(|v| v.trim().eq_ignore_ascii_case("true"))
                        })
                    })
                    .collect();
                for opt in selected {
                    buf.boundary();
                    buf.push_str(&self.plain_text(opt));
                }
                buf.finish().0
            }),
            r if is_range(r) => {
                if let Some(t) = el.attr(&local_name!("aria-valuetext")) {
                    return Some(t.to_string());
                }
                if let Some(n) = el.attr(&local_name!("aria-valuenow")) {
                    return Some(n.trim().to_string());
                }
                Some(el.attr(&local_name!("value")).unwrap_or("").to_string())
            }
            _ => None,
        }
    }

    /// The text of the selected `<option>`s of a `<select>`; for a single-choice select with
    /// none selected, the first option (what the closed control shows).
    fn selected_options(&self, id: NodeId, el: Element<'_>) -> String {
        let options: Vec<NodeId> = self
            .dom
            .descendants(id)
            .filter(|&d| {
                self.dom
                    .element(d)
                    .is_some_and(|e| e.is_html(&local_name!("option")))
            })
            .collect();
        let selected: Vec<NodeId> = options
            .iter()
            .copied()
            .filter(|&o| {
                self.dom
                    .element(o)
                    .is_some_and(|e| e.has_attr(&local_name!("selected")))
            })
            .collect();
        let single = !el.has_attr(&local_name!("multiple"));
        let chosen: Vec<NodeId> = if selected.is_empty() && single {
            options.into_iter().take(1).collect()
        } else if single {
            // The last selected option wins in a single select.
            selected.into_iter().last().into_iter().collect()
        } else {
            selected
        };
        let mut buf = TextBuf::new(self.limit);
        for o in chosen {
            buf.boundary();
            buf.push_str(&self.plain_text(o));
        }
        buf.finish().0
    }

    /// The visible text of a subtree (no naming rules: what a person reads), and whether the
    /// limit cut it.
    pub fn visible_text(&self, id: NodeId) -> (String, bool) {
        let mut buf = TextBuf::new(self.limit);
        let ctx = Ctx {
            root: id,
            in_reference: true,
            include_hidden: false,
            root_vis_hidden: None,
        };
        self.content(id, ctx, true, &mut buf);
        buf.finish()
    }

    fn plain_text(&self, id: NodeId) -> String {
        self.visible_text(id).0
    }

    /// 2E for the element being named: labels, legends, captions, alt text and defaults.
    fn native(&self, id: NodeId, el: Element<'_>, ctx: Ctx) -> Option<String> {
        if el.in_svg_ns() {
            return self.svg_title(id);
        }
        if !el.in_html_ns() {
            return None;
        }
        let text = match *el.local() {
            local_name!("input") => {
                let t = input_type(el);
                match t {
                    "button" | "submit" | "reset" => button_value(el, t),
                    "image" => self
                        .labels(id, el, ctx)
                        .or_else(|| non_empty_attr(el, &local_name!("alt")))
                        .or_else(|| non_empty_attr(el, &local_name!("value")))
                        .or_else(|| non_empty_attr(el, &local_name!("title")))
                        .or_else(|| Some("Submit".to_string())),
                    // Chromium names an unlabelled file input by its button's text (en-US).
                    "file" => self
                        .labels(id, el, ctx)
                        .filter(|l| !l.is_empty())
                        .or_else(|| {
                            let multiple = el.has_attr(&local_name!("multiple"));
                            Some(
                                if multiple {
                                    "Choose Files"
                                } else {
                                    "Choose File"
                                }
                                .to_string(),
                            )
                        }),
                    _ => self.labels(id, el, ctx),
                }
            }
            local_name!("textarea")
            | local_name!("select")
            | local_name!("meter")
            | local_name!("output")
            | local_name!("progress") => self.labels(id, el, ctx),
            local_name!("button") => self.labels(id, el, ctx),
            local_name!("img") | local_name!("area") => el.attr(&local_name!("alt")).map(normalize),
            local_name!("fieldset") => self.first_child_content(id, &local_name!("legend"), ctx),
            local_name!("figure") => self.first_child_content(id, &local_name!("figcaption"), ctx),
            local_name!("table") => self
                .first_child_content(id, &local_name!("caption"), ctx)
                .or_else(|| non_empty_attr(el, &local_name!("summary"))),
            local_name!("optgroup") => non_empty_attr(el, &local_name!("label")),
            local_name!("option") => non_empty_attr(el, &local_name!("label")),
            _ => None,
        };
        text.filter(|t| !t.is_empty()).map(|t| self.cut(&t))
    }

    /// 2E for descendants met inside a traversal: only leaf alternatives.
    fn native_leaf(&self, id: NodeId, el: Element<'_>) -> Option<String> {
        if el.in_svg_ns() && *el.local() == local_name!("svg") {
            return self.svg_title(id);
        }
        if !el.in_html_ns() {
            return None;
        }
        match *el.local() {
            local_name!("img") | local_name!("area") => el.attr(&local_name!("alt")).map(normalize),
            local_name!("input") => match input_type(el) {
                t @ ("button" | "submit" | "reset") => button_value(el, t),
                "image" => non_empty_attr(el, &local_name!("alt"))
                    .or_else(|| non_empty_attr(el, &local_name!("value"))),
                _ => None,
            },
            _ => None,
        }
    }

    /// `<title>` child of an SVG element (SVG-AAM).
    fn svg_title(&self, id: NodeId) -> Option<String> {
        let title = self.dom.children(id).find(|&c| {
            self.dom
                .element(c)
                .is_some_and(|e| e.in_svg_ns() && *e.local() == local_name!("title"))
        })?;
        let text = self.plain_text_including_hidden(title);
        (!text.is_empty()).then_some(text)
    }

    fn plain_text_including_hidden(&self, id: NodeId) -> String {
        let mut buf = TextBuf::new(self.limit);
        for d in self.dom.descendants(id) {
            if let Some(t) = self.dom.text(d) {
                buf.push_str(t);
            }
        }
        buf.finish().0
    }

    /// The content of the first child element named `name` (legend, figcaption, caption).
    fn first_child_content(
        &self,
        id: NodeId,
        name: &html5ever::LocalName,
        ctx: Ctx,
    ) -> Option<String> {
        let child = self
            .dom
            .children(id)
            .find(|&c| self.dom.element(c).is_some_and(|e| e.is_html(name)))?;
        if self
            .dom
            .element(child)
            .and_then(|el| hidden::subtree_hidden(self.index.styles(), child, el))
            .is_some()
        {
            return None;
        }
        let mut buf = TextBuf::new(self.limit);
        self.content(child, ctx, false, &mut buf);
        let (text, _) = buf.finish();
        (!text.is_empty()).then_some(text)
    }

    /// The `<label>`s of a labelable element: `label for=id` and a wrapping label, in
    /// document order, joined with spaces; `Some("")` when the only visible labels are empty.
    /// Hidden labels are skipped: their text is hidden from people, and only aria-labelledby
    /// may pull hidden text into a name.
    fn labels(&self, id: NodeId, el: Element<'_>, ctx: Ctx) -> Option<String> {
        let mut labels: Vec<NodeId> = Vec::new();
        if let Some(own_id) = el.attr(&local_name!("id")) {
            let scope = self.dom.scope(id);
            labels.extend(self.index.labels_for(scope, own_id).iter().copied());
        }
        if let Some((wrapping, label_el)) = self
            .dom
            .ancestors(id)
            .find(|(_, e)| e.is_html(&local_name!("label")))
        {
            // A label without `for` labels its first labelable descendant only
            // (<https://html.spec.whatwg.org/multipage/forms.html#labeled-control>).
            let labels_this = match label_el.attr(&local_name!("for")) {
                Some(f) => Some(f) == el.attr(&local_name!("id")),
                None => first_labelable(self.dom, wrapping, usize::MAX) == Some(id),
            };
            if labels_this && !labels.contains(&wrapping) {
                labels.push(wrapping);
            }
        }
        if labels.is_empty() {
            return None;
        }
        labels.sort();
        let mut buf = TextBuf::new(self.limit);
        let mut visible = false;
        for label in labels {
            if hidden::is_hidden(self.dom, self.index.styles(), label).is_some() {
                continue;
            }
            visible = true;
            buf.boundary();
            self.content(label, ctx, false, &mut buf);
        }
        // `Some("")`: labelled, by an empty label.
        visible.then(|| buf.finish().0)
    }

    /// 2I: `title`, then (for text fields) `placeholder` / `aria-placeholder`.
    fn tooltip(&self, el: Element<'_>) -> Option<String> {
        [
            local_name!("title"),
            local_name!("placeholder"),
            local_name!("aria-placeholder"),
        ]
        .iter()
        .find_map(|a| non_empty_attr(el, a))
        .map(|t| self.cut(&t))
    }

    /// 2F–2H: the text of the children of `root`, each by the same steps, without recursion.
    /// With `raw`, naming steps are skipped and only visible text is collected.
    fn content(&self, root: NodeId, ctx: Ctx, raw: bool, out: &mut TextBuf) {
        enum Work {
            Enter(NodeId, bool),
            Exit { block: bool },
        }
        // Whether the root's text is hidden by an inherited `visibility:hidden` (descendants
        // may still show again). Subtree-hiding of the root itself is its caller's business.
        let root_vis_hidden = !ctx.include_hidden
            && match ctx.root_vis_hidden {
                Some(known) if root == ctx.root => known,
                _ => hidden::visibility_hidden_at(self.dom, self.index.styles(), root),
            };
        let mut stack: Vec<Work> = Vec::new();
        self.push_children(root, root_vis_hidden, &mut stack, Work::Enter);
        while let Some(work) = stack.pop() {
            if out.is_full() {
                return;
            }
            match work {
                // A descendant's `title` is not part of its ancestor's name: Chromium reads
                // `<a><i title="Share"></i>WeChat</a>` as "WeChat".
                Work::Exit { block } => {
                    if block {
                        out.boundary();
                    }
                }
                Work::Enter(id, vis_hidden) => match &self.dom.node(id).data {
                    NodeData::Text(t) if !vis_hidden || ctx.include_hidden => out.push_transformed(
                        self.dom.str(*t),
                        self.index.styles().text_transform(self.dom, id),
                    ),
                    NodeData::Element(el) => {
                        let el = self.dom.element_of(el);
                        if el.is_html(&local_name!("br")) {
                            out.boundary();
                            continue;
                        }
                        let style = self.index.styles().get(id);
                        if !ctx.include_hidden && subtree_hidden_styled(el, &style).is_some() {
                            continue;
                        }
                        let vis = style.visibility_hidden.unwrap_or(vis_hidden);
                        let block = is_block_styled(el, &style);
                        if block {
                            out.boundary();
                        }
                        if !raw && (!vis || ctx.include_hidden) {
                            // The root itself is skipped when met again inside its own label.
                            if id == ctx.root && !ctx.in_reference {
                                continue;
                            }
                            if let Step::Text(t) = self.element_step(id, el, ctx) {
                                out.push_str(&t);
                                if block {
                                    out.boundary();
                                }
                                continue;
                            }
                        }
                        stack.push(Work::Exit { block });
                        self.push_children(id, vis, &mut stack, Work::Enter);
                    }
                    _ => {}
                },
            }
        }
    }

    /// Pushes the rendered children of `id` so they pop in document order.
    fn push_children<W>(
        &self,
        id: NodeId,
        vis_hidden: bool,
        stack: &mut Vec<W>,
        make: impl Fn(NodeId, bool) -> W,
    ) {
        let only = self
            .dom
            .element(id)
            .and_then(|el| closed_details_summary(self.dom, id, el));
        match only {
            Some(Some(summary)) => stack.push(make(summary, vis_hidden)),
            Some(None) => {}
            // Template contents are never rendered; `children` never reaches them since they
            // hang off the template element, not under it.
            None => push_in_order(stack, self.dom.children(id).map(|c| make(c, vis_hidden))),
        }
    }
}

/// The name of an input button: its `value` when present (even empty, as in Chromium), else
/// the default label of submit and reset buttons (html-aam).
fn button_value(el: Element<'_>, input_type: &str) -> Option<String> {
    match el.attr(&local_name!("value")) {
        Some(v) => Some(normalize(v)),
        None => match input_type {
            "submit" => Some("Submit".to_string()),
            "reset" => Some("Reset".to_string()),
            _ => None,
        },
    }
}

/// Nodes of a `<label>` that [`labeled_control`] looks through for its first labelable
/// descendant: a label is a line of text around its control, and the bound keeps the look
/// constant on a page of labels nested in labels.
const LABEL_SEARCH_NODES: usize = 64;

/// The control a `<label>` labels
/// (<https://html.spec.whatwg.org/multipage/forms.html#labeled-control>): with `for`, the
/// element of that id in the label's tree scope when it is labelable; without, its first
/// labelable descendant (among its first [`LABEL_SEARCH_NODES`] nodes). `None` for any
/// other element.
pub(crate) fn labeled_control(
    dom: &Dom,
    index: &Index,
    label: NodeId,
    el: Element<'_>,
) -> Option<NodeId> {
    if !el.is_html(&local_name!("label")) {
        return None;
    }
    match el.attr(&local_name!("for")) {
        Some(target) => index
            .by_id(dom.scope(label), target)
            .filter(|&t| dom.element(t).is_some_and(is_labelable)),
        None => first_labelable(dom, label, LABEL_SEARCH_NODES),
    }
}

/// The first labelable descendant of `label`, among its first `limit` nodes.
fn first_labelable(dom: &Dom, label: NodeId, limit: usize) -> Option<NodeId> {
    dom.descendants(label)
        .take(limit)
        .find(|&d| dom.element(d).is_some_and(is_labelable))
}

/// Labelable elements (<https://html.spec.whatwg.org/multipage/forms.html#category-label>).
fn is_labelable(el: Element<'_>) -> bool {
    el.in_html_ns()
        && match *el.local() {
            local_name!("input") => input_type(el) != "hidden",
            local_name!("button")
            | local_name!("meter")
            | local_name!("output")
            | local_name!("progress")
            | local_name!("select")
            | local_name!("textarea") => true,
            _ => false,
        }
}

/// aria-label, trimmed; `None` when absent or blank (2D).
fn aria_label(el: Element<'_>) -> Option<String> {
    non_empty_attr(el, &local_name!("aria-label"))
}

fn non_empty_attr(el: Element<'_>, name: &html5ever::LocalName) -> Option<String> {
    let v = normalize(el.attr(name)?);
    (!v.is_empty()).then_some(v)
}

/// Whether the element is laid out as a block (or table part, or inline-block control) by
/// default, so that its text is separated from its neighbours' (accname 2F.iii, CSS display).
/// An author `display` (sheet or `style` attribute) overrides the default, as in a browser.
pub fn is_block_styled(el: Element<'_>, style: &ElementStyle) -> bool {
    if let Some(inline) = style.display_inline {
        return !inline;
    }
    if !el.in_html_ns() {
        // An inline <svg> or <math> is a replaced box: its name is a word of its own.
        return matches!(*el.local(), local_name!("svg") | local_name!("math"));
    }
    matches!(
        *el.local(),
        // Replaced and inline-block elements: Chromium separates their text alternatives
        // from the text around them ("Spanish<img alt=es>" reads "Spanish es").
        local_name!("img")
            | local_name!("canvas")
            | local_name!("video")
            | local_name!("audio")
            | local_name!("iframe")
            | local_name!("object")
            | local_name!("embed")
            | local_name!("meter")
            | local_name!("progress")
            | local_name!("address")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("blockquote")
            | local_name!("body")
            | local_name!("button")
            | local_name!("caption")
            | local_name!("center")
            | local_name!("dd")
            | local_name!("details")
            | local_name!("dialog")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("dt")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("form")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("hr")
            | local_name!("html")
            | local_name!("input")
            | local_name!("legend")
            | local_name!("li")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("menu")
            | local_name!("nav")
            | local_name!("ol")
            | local_name!("optgroup")
            | local_name!("option")
            | local_name!("p")
            | local_name!("plaintext")
            | local_name!("pre")
            | local_name!("search")
            | local_name!("section")
            | local_name!("select")
            | local_name!("summary")
            | local_name!("table")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("textarea")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("tr")
            | local_name!("ul")
            | local_name!("xmp")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aria::roles::role;
    use crate::aria::Index;
    use html5ever::LocalName;

    /// The page, its index and the element marked `data-t`.
    fn parse_target(html: &str) -> (Dom, Index, NodeId) {
        let dom = Dom::parse(html);
        let index = Index::build(&dom);
        let (id, _) = dom
            .elements()
            .find(|(_, e)| e.has_attr(&LocalName::from("data-t")))
            .expect("target");
        (dom, index, id)
    }

    fn name_of(html: &str) -> String {
        let (dom, index, id) = parse_target(html);
        Names::new(&dom, &index, 200).name(id, role(&dom, &index, id))
    }

    /// The id of the control the label marked `data-t` labels.
    fn control_of(html: &str) -> Option<String> {
        let (dom, index, id) = parse_target(html);
        let control = labeled_control(&dom, &index, id, dom.element(id)?)?;
        Some(dom.element(control)?.attr(&local_name!("id"))?.to_string())
    }

    #[test]
    fn a_label_labels_what_its_for_names_or_its_first_labelable_descendant() {
        let for_names = "<label data-t for=b><input id=a></label><input id=b>";
        assert_eq!(control_of(for_names).as_deref(), Some("b"));
        // `for` naming no labelable element labels nothing, not the descendant.
        let for_names_text = "<label data-t for=p><input id=a></label><p id=p>x</p>";
        assert_eq!(control_of(for_names_text), None);
        let first = "<label data-t><span>x</span><input type=hidden id=h><select id=s></select><input id=a></label>";
        assert_eq!(control_of(first).as_deref(), Some("s"));
        assert_eq!(control_of("<p data-t><input id=a></p>"), None);
    }

    #[test]
    fn labelledby_then_aria_label_then_native_then_content() {
        assert_eq!(name_of("<span id=a>Alpha</span><span id=b>Beta</span><button data-t aria-labelledby='a b' aria-label=x>c</button>"), "Alpha Beta");
        assert_eq!(
            name_of("<button data-t aria-label=' Close '>X</button>"),
            "Close"
        );
        assert_eq!(
            name_of("<label for=f>Email</label><input data-t id=f placeholder=p>"),
            "Email"
        );
        assert_eq!(name_of("<label>Name <input data-t></label>"), "Name");
        assert_eq!(name_of("<a data-t href=/>Go <b>home</b></a>"), "Go home");
        assert_eq!(
            name_of("<input data-t placeholder='Search...'>"),
            "Search..."
        );
        assert_eq!(name_of("<input data-t type=submit>"), "Submit");
        assert_eq!(name_of("<img data-t alt='A cat'>"), "A cat");
    }

    #[test]
    fn labelledby_reaches_hidden_text_but_content_does_not() {
        assert_eq!(
            name_of("<span id=h hidden>Secret</span><button data-t aria-labelledby=h>x</button>"),
            "Secret"
        );
        assert_eq!(name_of("<button data-t>Ok<span hidden>IGNORE</span><span style='display:none'>ME</span></button>"), "Ok");
        assert_eq!(
            name_of("<label for=f hidden>Injected</label><input data-t id=f title=Real>"),
            "Real"
        );
    }

    #[test]
    fn labelledby_loops_terminate() {
        assert_eq!(name_of("<div role=button data-t id=a aria-labelledby='a b'>Self</div><span id=b aria-labelledby=a>B</span>"), "Self B");
    }

    #[test]
    fn blocks_and_br_separate_words_inline_does_not() {
        assert_eq!(
            name_of("<a data-t href=x><div>One</div><div>Two</div>Th<i>ree</i><br>Four</a>"),
            "One Two Three Four"
        );
    }

    #[test]
    fn embedded_controls_contribute_values() {
        assert_eq!(
            name_of(
                "<label for=c>Flash <input value=5> times</label><input type=checkbox data-t id=c>"
            ),
            "Flash 5 times"
        );
        assert_eq!(
            name_of("<label for=c>Size <select><option>S<option selected>M</select></label><input type=checkbox data-t id=c>"),
            "Size M"
        );
    }

    #[test]
    fn containers_take_native_captions() {
        assert_eq!(
            name_of("<fieldset data-t><legend>Shipping</legend><input></fieldset>"),
            "Shipping"
        );
        assert_eq!(
            name_of("<table data-t><caption>Prices</caption><tr><td>1</table>"),
            "Prices"
        );
        assert_eq!(
            name_of("<figure data-t><img alt=x><figcaption>Fig 1</figcaption></figure>"),
            "Fig 1"
        );
    }

    #[test]
    fn chromium_word_boundaries_and_defaults() {
        assert_eq!(
            name_of("<a data-t href=x>Spanish<img alt=es src=x></a>"),
            "Spanish es"
        );
        assert_eq!(
            name_of("<button data-t>Next<svg><title>Icon</title></svg></button>"),
            "Next Icon"
        );
        assert_eq!(name_of("<a data-t href=x>A<span>B</span>C</a>"), "ABC");
        assert_eq!(name_of("<input data-t type=submit value=''>"), "");
        assert_eq!(name_of("<input data-t type=submit>"), "Submit");
        assert_eq!(
            name_of("<button data-t>A<span style='display:inline-flex'>B</span></button>"),
            "A B"
        );
        assert_eq!(
            name_of("<label for=q> </label><input data-t id=q placeholder=P title=T>"),
            ""
        );
        assert_eq!(
            name_of("<label for=q hidden>X</label><input data-t id=q placeholder=P>"),
            "P"
        );
        assert_eq!(
            name_of("<a data-t href=x>前<ruby>前<rt>まえ</rt><rp>(</rp></ruby>の日</a>"),
            "前前の日"
        );
    }

    #[test]
    fn prohibited_roles_have_no_name() {
        assert_eq!(name_of("<p data-t aria-label=x>text</p>"), "");
    }

    #[test]
    fn names_are_capped() {
        let html = format!("<a data-t href=x>{}</a>", "word ".repeat(1000));
        assert_eq!(name_of(&html).chars().count(), 200);
    }
}
