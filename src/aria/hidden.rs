//! What a person cannot see, decided from markup alone.
//!
//! Hidden text is a prompt-injection channel: whatever a page hides from people must never
//! reach the model, so every stage that reads text (the walk, names, the `text` query) asks
//! this module. Style comes from the computed style ([`crate::style`]): the page's own sheets
//! cascaded with `style` attributes on top, over the hiding classes of common CSS frameworks.
//! Other external sheets are out of reach offline (the live script sees them).
//!
//! Rules (<https://html.spec.whatwg.org/multipage/rendering.html#hidden-elements>,
//! <https://w3c.github.io/aria/#tree_exclusion>):
//! - the subtree of an element is hidden by: the `hidden` attribute (unless an inline
//!   `display` overrides it, as author style does in a browser), `aria-hidden="true"`, inline
//!   `display:none`, inline `opacity:0`, `inert`, a `<dialog>` without `open`, elements that
//!   are never rendered (`head`, `template`, `script`, `style`, `noscript`, `datalist`…), and
//!   `input type=hidden`;
//! - the children of a closed `<details>` are hidden, except its first `<summary>`;
//! - `visibility:hidden` (or `collapse`) hides an element and is inherited, but a descendant
//!   with `visibility:visible` shows again, so it is tracked as a flag, not a subtree cut.

use html5ever::local_name;

use crate::parse::{Dom, Element, NodeData, NodeId, View};
use crate::style::{ElementStyle, Styles};

/// Why a subtree is hidden.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HiddenReason {
    HiddenAttribute,
    AriaHidden,
    DisplayNone,
    OpacityZero,
    Inert,
    ClosedDialog,
    ClosedDetails,
    NotRendered,
    HiddenInput,
    VisibilityHidden,
    ContentVisibilityHidden,
}

impl HiddenReason {
    /// A short machine-readable name.
    pub fn as_str(self) -> &'static str {
        match self {
            HiddenReason::HiddenAttribute => "hidden-attribute",
            HiddenReason::AriaHidden => "aria-hidden",
            HiddenReason::DisplayNone => "display-none",
            HiddenReason::OpacityZero => "opacity-zero",
            HiddenReason::Inert => "inert",
            HiddenReason::ClosedDialog => "closed-dialog",
            HiddenReason::ClosedDetails => "closed-details",
            HiddenReason::NotRendered => "not-rendered",
            HiddenReason::HiddenInput => "hidden-input",
            HiddenReason::VisibilityHidden => "visibility-hidden",
            HiddenReason::ContentVisibilityHidden => "content-visibility-hidden",
        }
    }
}

/// Elements whose content is never rendered, whatever their attributes.
fn never_rendered(el: Element<'_>) -> bool {
    match *el.local() {
        // Same local names in SVG and MathML namespaces are not rendered either.
        local_name!("script") | local_name!("style") | local_name!("template") => true,
        _ if !el.in_html_ns() => {
            // SVG `<title>` and `<desc>` are names and descriptions, never drawn as text.
            el.in_svg_ns()
                && matches!(*el.local(), local_name!("title") | local_name!("desc"))
        }
        // A browser that runs scripts never renders `<noscript>`; one that runs none shows
        // its content (https://html.spec.whatwg.org/#the-noscript-element).
        local_name!("noscript") => el.view() == View::Scripted,
        local_name!("head")
        | local_name!("datalist")
        | local_name!("title")
        | local_name!("meta")
        | local_name!("link")
        | local_name!("base")
        | local_name!("param")
        | local_name!("source")
        | local_name!("track")
        | local_name!("noframes")
        | local_name!("noembed")
        // Ruby annotations: `rp` is display:none in the UA stylesheet, and Chromium leaves
        // `rt` pronunciation text out of names (前<rt>まえ</rt> reads 前).
        | local_name!("rp")
        | local_name!("rt") => true,
        _ => false,
    }
}

/// Whether an `aria-hidden` value hides. ARIA says only `true` does, but Chromium hides for
/// any value but `false` and `undefined` (pages ship `aria-hidden="List: $159.99"`), and the
/// snapshot must not show what a browser's accessibility tree leaves out.
fn aria_hidden_value(v: &str) -> bool {
    let v = v.trim();
    !(v.is_empty() || v.eq_ignore_ascii_case("false") || v.eq_ignore_ascii_case("undefined"))
}

/// Why the subtree of element `id` is hidden, ignoring ancestors and inherited visibility.
pub fn subtree_hidden(styles: &Styles, id: NodeId, el: Element<'_>) -> Option<HiddenReason> {
    subtree_hidden_styled(el, &styles.get(id))
}

/// [`subtree_hidden`] with the element's style already looked up.
pub fn subtree_hidden_styled(el: Element<'_>, style: &ElementStyle) -> Option<HiddenReason> {
    if never_rendered(el) {
        return Some(HiddenReason::NotRendered);
    }
    if el
        .attr(&local_name!("aria-hidden"))
        .is_some_and(aria_hidden_value)
    {
        return Some(HiddenReason::AriaHidden);
    }
    match style.display_none {
        Some(true) => return Some(HiddenReason::DisplayNone),
        // Author `display` overrides the UA's `[hidden] { display: none }`.
        Some(false) => {}
        None if el.has_attr(&local_name!("hidden")) => return Some(HiddenReason::HiddenAttribute),
        None => {}
    }
    if style.opacity_zero {
        return Some(HiddenReason::OpacityZero);
    }
    // The element's box stays, but its content is skipped like `display: none`'s: the whole
    // subtree goes, so nothing the content says can reach the model.
    if style.content_hidden {
        return Some(HiddenReason::ContentVisibilityHidden);
    }
    if el.has_attr(&local_name!("inert")) {
        return Some(HiddenReason::Inert);
    }
    if el.is_html(&local_name!("dialog")) && !el.has_attr(&local_name!("open")) {
        return Some(HiddenReason::ClosedDialog);
    }
    if el.is_html(&local_name!("input"))
        && el
            .attr(&local_name!("type"))
            .is_some_and(|t| t.trim().eq_ignore_ascii_case("hidden"))
    {
        return Some(HiddenReason::HiddenInput);
    }
    None
}

/// For a closed `<details>`, the one child that stays visible (its first `<summary>`).
/// `None` when `el` is not a closed details element (all children follow the usual rules).
pub fn closed_details_summary(dom: &Dom, id: NodeId, el: Element<'_>) -> Option<Option<NodeId>> {
    if !el.is_html(&local_name!("details")) || el.has_attr(&local_name!("open")) {
        return None;
    }
    Some(dom.children(id).find(|&c| {
        dom.element(c)
            .is_some_and(|e| e.is_html(&local_name!("summary")))
    }))
}

/// The visibility an element inherits and passes on: `visibility:hidden` from an ancestor,
/// unless the element itself says otherwise.
pub fn visibility_hidden(styles: &Styles, id: NodeId, inherited: bool) -> bool {
    styles.get(id).visibility_hidden.unwrap_or(inherited)
}

/// Whether `visibility:hidden` applies at `id`: the nearest of it and its ancestors that sets
/// `visibility` decides. A lookup per ancestor, so this is cheap.
pub fn visibility_hidden_at(dom: &Dom, styles: &Styles, id: NodeId) -> bool {
    std::iter::successors(Some(id), |&n| dom.node(n).parent)
        .find_map(|n| styles.get(n).visibility_hidden)
        .unwrap_or(false)
}

/// Whether the node (element or text) is hidden from people, looking at its ancestors too.
/// Used where a node is reached directly (queries, probes) rather than by the walk.
pub fn is_hidden(dom: &Dom, styles: &Styles, id: NodeId) -> Option<HiddenReason> {
    // Nearest ancestor that sets visibility decides inherited visibility.
    let mut visibility: Option<bool> = None;
    let mut child = id;
    let mut current = Some(id);
    while let Some(node) = current {
        if let Some(el) = dom.element(node) {
            let style = styles.get(node);
            if let Some(reason) = subtree_hidden_styled(el, &style) {
                return Some(reason);
            }
            if node != child {
                if let Some(summary) = closed_details_summary(dom, node, el) {
                    if summary != Some(child) {
                        return Some(HiddenReason::ClosedDetails);
                    }
                }
            }
            if visibility.is_none() {
                visibility = style.visibility_hidden;
            }
        }
        if let NodeData::Document = dom.node(node).data {
            break;
        }
        child = node;
        current = dom.node(node).parent;
    }
    (visibility == Some(true)).then_some(HiddenReason::VisibilityHidden)
}

#[cfg(test)]
mod tests {
    use super::*;
    use html5ever::LocalName;

    fn target(dom: &Dom) -> NodeId {
        dom.elements()
            .find(|(_, e)| e.has_attr(&LocalName::from("data-t")))
            .map(|(id, _)| id)
            .expect("target")
    }

    fn hidden(html: &str) -> Option<HiddenReason> {
        let dom = Dom::parse(html);
        let styles = Styles::build(&dom, &Default::default());
        is_hidden(&dom, &styles, target(&dom))
    }

    #[test]
    fn each_mechanism_hides() {
        assert_eq!(
            hidden("<div hidden><a data-t>x</a></div>"),
            Some(HiddenReason::HiddenAttribute)
        );
        assert_eq!(
            hidden("<div aria-hidden=TRUE><a data-t>x</a></div>"),
            Some(HiddenReason::AriaHidden)
        );
        assert_eq!(
            hidden("<div style='display:none'><p><a data-t>x</a>"),
            Some(HiddenReason::DisplayNone)
        );
        assert_eq!(
            hidden("<div style='visibility:hidden'><a data-t>x</a></div>"),
            Some(HiddenReason::VisibilityHidden)
        );
        assert_eq!(
            hidden("<div inert><a data-t>x</a></div>"),
            Some(HiddenReason::Inert)
        );
        assert_eq!(
            hidden("<dialog><a data-t>x</a></dialog>"),
            Some(HiddenReason::ClosedDialog)
        );
        assert_eq!(
            hidden("<details><summary>s</summary><a data-t>x</a></details>"),
            Some(HiddenReason::ClosedDetails)
        );
        assert_eq!(
            hidden("<input data-t type=hidden>"),
            Some(HiddenReason::HiddenInput)
        );
        assert_eq!(
            hidden(
                "<style>.c{content-visibility:hidden}</style><div class=c><a data-t>x</a></div>"
            ),
            Some(HiddenReason::ContentVisibilityHidden)
        );
        assert_eq!(
            hidden("<style>.m{display:none}</style><nav class=m><p><a data-t>x</a></nav>"),
            Some(HiddenReason::DisplayNone)
        );
        assert_eq!(
            hidden("<style>.m{visibility:hidden}</style><nav class=m><p><a data-t>x</a></nav>"),
            Some(HiddenReason::VisibilityHidden)
        );
    }

    #[test]
    fn overrides_show_again() {
        assert_eq!(
            hidden(
                "<div style='visibility:hidden'><a data-t style='visibility:visible'>x</a></div>"
            ),
            None
        );
        assert_eq!(
            hidden("<div hidden style='display:block'><a data-t>x</a></div>"),
            None
        );
        assert_eq!(
            hidden("<style>.v{visibility:hidden} .v a{visibility:visible}</style><div class=v><a data-t>x</a></div>"),
            None
        );
        assert_eq!(
            hidden("<style>.b{display:block}</style><div hidden class=b><a data-t>x</a></div>"),
            None,
            "author display overrides the hidden attribute, as in browsers"
        );
        assert_eq!(
            hidden("<details><summary data-t>s</summary></details>"),
            None
        );
        assert_eq!(
            hidden("<details open><summary>s</summary><a data-t>x</a></details>"),
            None
        );
        assert_eq!(hidden("<dialog open><a data-t>x</a></dialog>"), None);
        assert_eq!(hidden("<div aria-hidden=false><a data-t>x</a></div>"), None);
        assert_eq!(hidden("<div aria-hidden=''><a data-t>x</a></div>"), None);
        assert_eq!(
            hidden("<div aria-hidden='List: $1'><a data-t>x</a></div>"),
            Some(HiddenReason::AriaHidden),
            "Chromium hides on any value but false"
        );
    }
}
