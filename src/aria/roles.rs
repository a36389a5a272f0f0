//! Roles: explicit `role` tokens, the implicit HTML-AAM table, and the snapshot categories.
//!
//! Specs: WAI-ARIA 1.2 roles <https://w3c.github.io/aria/#role_definitions>, the HTML-AAM
//! element mappings <https://w3c.github.io/html-aam/#html-element-role-mappings> and
//! ARIA in HTML <https://w3c.github.io/html-aria/>.

use html5ever::{local_name, ns, LocalName};

use super::Index;
use crate::parse::{Dom, Element, NodeId};

/// How the snapshot treats a role (the categories agent-browser's `snapshot.ts` uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    /// Something a person operates: always gets a ref.
    Interactive,
    /// Something a person reads: gets a ref when it has a label (or always, with `--all`).
    Content,
    /// Grouping: never gets a ref; kept in the text only as the parent of refs.
    Structural,
}

/// The category of a role.
pub fn category(role: &str) -> Category {
    match role {
        "button" | "link" | "textbox" | "checkbox" | "radio" | "combobox" | "listbox"
        | "menuitem" | "menuitemcheckbox" | "menuitemradio" | "option" | "searchbox" | "slider"
        | "spinbutton" | "switch" | "tab" | "treeitem" => Category::Interactive,
        "heading" | "cell" | "gridcell" | "columnheader" | "rowheader" | "listitem" | "article"
        | "region" | "main" | "navigation" | "img" | "progressbar" | "meter" => Category::Content,
        _ => Category::Structural,
    }
}

/// Landmark roles, and the dialogs that sit above the page: regions a snapshot may fold
/// into one stub line, so they always get a ref to scope by
/// (<https://w3c.github.io/aria/#landmark_roles>). Frames too (`iframe`, the node a frame's
/// document hangs from; not an ARIA role, so `role="iframe"` stays invalid).
pub fn is_landmark(role: &str) -> bool {
    matches!(
        role,
        "iframe"
            | "banner"
            | "complementary"
            | "contentinfo"
            | "form"
            | "main"
            | "navigation"
            | "region"
            | "search"
            | "dialog"
            | "alertdialog"
    )
}

/// Every concrete (non-abstract) role of WAI-ARIA 1.2 plus the ARIA 1.3 additions Chromium
/// ships, Graphics-ARIA and DPUB-ARIA, sorted for binary search. A `role` token not in this
/// list is ignored and the next token is tried (ARIA 1.2 §7.1, "Handling author errors").
const ROLES: &[&str] = &[
    "alert",
    "alertdialog",
    "application",
    "article",
    "banner",
    "blockquote",
    "button",
    "caption",
    "cell",
    "checkbox",
    "code",
    "columnheader",
    "combobox",
    "comment",
    "complementary",
    "contentinfo",
    "definition",
    "deletion",
    "dialog",
    "directory",
    "doc-abstract",
    "doc-acknowledgments",
    "doc-afterword",
    "doc-appendix",
    "doc-backlink",
    "doc-biblioentry",
    "doc-bibliography",
    "doc-biblioref",
    "doc-chapter",
    "doc-colophon",
    "doc-conclusion",
    "doc-cover",
    "doc-credit",
    "doc-credits",
    "doc-dedication",
    "doc-endnote",
    "doc-endnotes",
    "doc-epigraph",
    "doc-epilogue",
    "doc-errata",
    "doc-example",
    "doc-footnote",
    "doc-foreword",
    "doc-glossary",
    "doc-glossref",
    "doc-index",
    "doc-introduction",
    "doc-noteref",
    "doc-notice",
    "doc-pagebreak",
    "doc-pagefooter",
    "doc-pageheader",
    "doc-pagelist",
    "doc-part",
    "doc-preface",
    "doc-prologue",
    "doc-pullquote",
    "doc-qna",
    "doc-subtitle",
    "doc-tip",
    "doc-toc",
    "document",
    "emphasis",
    "feed",
    "figure",
    "form",
    "generic",
    "graphics-document",
    "graphics-object",
    "graphics-symbol",
    "grid",
    "gridcell",
    "group",
    "heading",
    "img",
    "insertion",
    "link",
    "list",
    "listbox",
    "listitem",
    "log",
    "main",
    "mark",
    "marquee",
    "math",
    "menu",
    "menubar",
    "menuitem",
    "menuitemcheckbox",
    "menuitemradio",
    "meter",
    "navigation",
    "none",
    "note",
    "option",
    "paragraph",
    "presentation",
    "progressbar",
    "radio",
    "radiogroup",
    "region",
    "row",
    "rowgroup",
    "rowheader",
    "scrollbar",
    "search",
    "searchbox",
    "sectionfooter",
    "sectionheader",
    "separator",
    "slider",
    "spinbutton",
    "status",
    "strong",
    "subscript",
    "suggestion",
    "superscript",
    "switch",
    "tab",
    "table",
    "tablist",
    "tabpanel",
    "term",
    "textbox",
    "time",
    "timer",
    "toolbar",
    "tooltip",
    "tree",
    "treegrid",
    "treeitem",
];

/// The first valid, non-abstract token of a `role` attribute value, lower-cased
/// (<https://w3c.github.io/aria/#document-handling_author-errors_roles>).
pub fn explicit_role(value: &str) -> Option<&'static str> {
    value.split_ascii_whitespace().find_map(|token| {
        let lower = token.to_ascii_lowercase();
        // ARIA 1.3 makes `image` a synonym of `img`.
        let lower = if lower == "image" {
            "img".to_string()
        } else {
            lower
        };
        ROLES.binary_search(&lower.as_str()).ok().map(|i| ROLES[i])
    })
}

/// Global states and properties (ARIA 1.2 §6.4). An element with any of them cannot be made
/// presentational (§9.3 "Presentational Roles Conflict Resolution").
const GLOBAL_ARIA_ATTRS: &[&str] = &[
    "aria-atomic",
    "aria-busy",
    "aria-controls",
    "aria-current",
    "aria-describedby",
    "aria-details",
    "aria-dropeffect",
    "aria-flowto",
    "aria-grabbed",
    "aria-keyshortcuts",
    "aria-label",
    "aria-labelledby",
    "aria-live",
    "aria-owns",
    "aria-relevant",
    "aria-roledescription",
];

/// Whether the element carries a global ARIA attribute.
pub fn has_global_aria_attr(el: Element<'_>) -> bool {
    // Namespaced attributes have a `prefix:` in their name, so never match.
    el.attrs()
        .any(|(name, _)| GLOBAL_ARIA_ATTRS.contains(&&**name))
}

/// Whether the element can take focus: natively focusable, or with a `tabindex`
/// (<https://html.spec.whatwg.org/multipage/interaction.html#focusable-area>).
pub fn is_focusable(dom: &Dom, id: NodeId, el: Element<'_>) -> bool {
    if el.is_html(&local_name!("summary")) && !el.has_attr(&local_name!("tabindex")) {
        return is_details_summary(dom, id);
    }
    is_focusable_element(el)
}

/// Whether a `<summary>` is the summary of its parent `<details>` (its first summary child),
/// the only case in which it is interactive
/// (<https://html.spec.whatwg.org/multipage/interactive-elements.html#summary-for-its-parent-details>).
pub fn is_details_summary(dom: &Dom, id: NodeId) -> bool {
    let Some(parent) = dom.node(id).parent else {
        return false;
    };
    dom.element(parent)
        .is_some_and(|p| p.is_html(&local_name!("details")))
        && dom.children(parent).find(|&c| {
            dom.element(c)
                .is_some_and(|e| e.is_html(&local_name!("summary")))
        }) == Some(id)
}

/// [`is_focusable`] for everything but `<summary>`, which needs its parent.
fn is_focusable_element(el: Element<'_>) -> bool {
    if !el.in_html_ns() {
        return el.has_attr(&local_name!("tabindex"));
    }
    if is_disabled_control(el) {
        return false;
    }
    if el
        .attr(&local_name!("tabindex"))
        .is_some_and(|v| v.trim().parse::<i64>().is_ok())
    {
        return true;
    }
    if el
        .attr(&local_name!("contenteditable"))
        .is_some_and(|v| !v.eq_ignore_ascii_case("false"))
    {
        return true;
    }
    match *el.local() {
        local_name!("a") | local_name!("area") => el.has_attr(&local_name!("href")),
        local_name!("input") => !input_type_is(el, "hidden"),
        local_name!("button")
        | local_name!("select")
        | local_name!("textarea")
        | local_name!("summary")
        | local_name!("iframe") => true,
        local_name!("audio") | local_name!("video") => el.has_attr(&local_name!("controls")),
        _ => false,
    }
}

/// Form controls with the `disabled` attribute (fieldset inheritance is not modelled).
pub fn is_disabled_control(el: Element<'_>) -> bool {
    matches!(
        *el.local(),
        local_name!("button")
            | local_name!("input")
            | local_name!("select")
            | local_name!("textarea")
            | local_name!("optgroup")
            | local_name!("option")
            | local_name!("fieldset")
    ) && el.has_attr(&local_name!("disabled"))
}

/// The `type` of an `<input>`, lower-cased; `text` when missing or unknown.
pub fn input_type(el: Element<'_>) -> &'static str {
    const TYPES: &[&str] = &[
        "button",
        "checkbox",
        "color",
        "date",
        "datetime-local",
        "email",
        "file",
        "hidden",
        "image",
        "month",
        "number",
        "password",
        "radio",
        "range",
        "reset",
        "search",
        "submit",
        "tel",
        "text",
        "time",
        "url",
        "week",
    ];
    let Some(value) = el.attr(&local_name!("type")) else {
        return "text";
    };
    let lower = value.trim().to_ascii_lowercase();
    TYPES
        .iter()
        .find(|t| **t == lower)
        .copied()
        .unwrap_or("text")
}

fn input_type_is(el: Element<'_>, t: &str) -> bool {
    input_type(el) == t
}

/// The computed role of an element: the first valid explicit token, unless presentational
/// roles conflict resolution discards it, else the implicit role. `None` means generic or no
/// role.
pub fn role(dom: &Dom, index: &Index, id: NodeId) -> Option<&'static str> {
    let el = dom.element(id)?;
    if let Some(explicit) = el.attr(&local_name!("role")).and_then(explicit_role) {
        match explicit {
            // Chromium drops these roles outside their required context (ARIA 1.2 "Required
            // Context Role"); the element keeps its implicit role instead.
            "treeitem" | "option" | "listitem"
                if !in_required_context(dom, index, id, explicit) => {}
            // §9.3: presentation/none is ignored on focusable elements and on elements with
            // global ARIA attributes; the implicit role applies instead.
            "none" | "presentation" if is_focusable(dom, id, el) || has_global_aria_attr(el) => {}
            "generic" => return None,
            _ => return Some(explicit),
        }
    }
    implicit_role(dom, index, id, el)
}

/// Whether the nearest ancestor with a meaningful role is a required context of `role`.
fn in_required_context(dom: &Dom, index: &Index, id: NodeId, role_name: &str) -> bool {
    // Bounded: a required context is the parent, or a few generic wrappers above it.
    let context = dom
        .ancestors(id)
        .take(8)
        .filter_map(|(a, _)| role(dom, index, a))
        .find(|r| !matches!(*r, "none" | "presentation"));
    match role_name {
        "treeitem" => matches!(context, Some("tree" | "group")),
        "option" => matches!(context, Some("listbox" | "group" | "combobox")),
        "listitem" => matches!(context, Some("list" | "group" | "directory")),
        _ => true,
    }
}

/// Whether the role makes the element and its required-owned children presentational.
fn is_presentational(role: Option<&str>) -> bool {
    matches!(role, Some("none" | "presentation"))
}

/// The HTML-AAM implicit role of an element (<https://w3c.github.io/html-aam/#html-element-role-mappings>).
pub fn implicit_role(
    dom: &Dom,
    index: &Index,
    id: NodeId,
    el: Element<'_>,
) -> Option<&'static str> {
    if el.in_svg_ns() {
        // SVG-AAM: the root `<svg>` maps to graphics-document, which Chromium exposes as an
        // image; other SVG elements are generic unless authored with a role.
        return (*el.local() == local_name!("svg")).then_some("img");
    }
    if !el.in_html_ns() {
        return (*el.ns() == ns!(mathml) && *el.local() == local_name!("math")).then_some("math");
    }
    let role = match *el.local() {
        local_name!("a") => el.has_attr(&local_name!("href")).then_some("link")?,
        local_name!("area") => el.has_attr(&local_name!("href")).then_some("link")?,
        local_name!("article") => "article",
        local_name!("aside") => {
            // html-aam: complementary when scoped to body or main, or when named.
            if scoped_to_sectioning(dom, id, &SECTIONING_FOR_ASIDE) && !has_author_name(el) {
                return None;
            }
            "complementary"
        }
        local_name!("blockquote") => "blockquote",
        local_name!("button") => "button",
        local_name!("caption") => return within_presentational_table(dom, index, id, "caption"),
        local_name!("code") => "code",
        local_name!("datalist") => "listbox",
        local_name!("dd") => "definition",
        local_name!("del") | local_name!("s") => "deletion",
        local_name!("details") => "group",
        local_name!("dfn") | local_name!("dt") => "term",
        local_name!("dialog") => "dialog",
        local_name!("em") => "emphasis",
        local_name!("fieldset")
        | local_name!("optgroup")
        | local_name!("hgroup")
        | local_name!("address") => "group",
        local_name!("figure") => "figure",
        local_name!("footer") => {
            // html-aam: contentinfo only when not scoped to a sectioning element or main.
            if scoped_to_sectioning(dom, id, &SECTIONING_FOR_HEADER) {
                return None;
            }
            "contentinfo"
        }
        local_name!("form") => {
            if !has_author_name(el) {
                return None;
            }
            "form"
        }
        local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6") => "heading",
        local_name!("header") => {
            if scoped_to_sectioning(dom, id, &SECTIONING_FOR_HEADER) {
                return None;
            }
            "banner"
        }
        local_name!("hr") => "separator",
        // A frame's `<html>` hangs from its iframe node: the frame's document is that node.
        local_name!("html") if dom.node(id).parent != Some(NodeId::DOCUMENT) => return None,
        local_name!("html") => "document",
        local_name!("iframe") => "iframe",
        local_name!("img") => return img_role(dom, id, el),
        local_name!("input") => return input_role(dom, index, id, el),
        local_name!("ins") => "insertion",
        local_name!("li") => {
            // Required owned elements of a presentational list lose their role.
            let parent_role = el_parent(dom, id).map(|p| role(dom, index, p));
            if parent_role.is_some_and(is_presentational) {
                return None;
            }
            "listitem"
        }
        local_name!("main") => "main",
        local_name!("mark") => "mark",
        local_name!("math") => "math",
        local_name!("menu") | local_name!("ol") | local_name!("ul") => "list",
        local_name!("meter") => "meter",
        local_name!("nav") => "navigation",
        local_name!("option") => "option",
        local_name!("output") => "status",
        local_name!("p") => "paragraph",
        local_name!("progress") => "progressbar",
        local_name!("search") => "search",
        local_name!("section") => {
            if !has_author_name(el) {
                return None;
            }
            "region"
        }
        local_name!("select") => {
            let size = el
                .attr(&local_name!("size"))
                .and_then(|s| s.trim().parse::<u64>().ok());
            if el.has_attr(&local_name!("multiple")) || size.is_some_and(|s| s > 1) {
                "listbox"
            } else {
                "combobox"
            }
        }
        local_name!("strong") => "strong",
        local_name!("sub") => "subscript",
        local_name!("sup") => "superscript",
        local_name!("summary") => is_details_summary(dom, id).then_some("button")?,
        // Chromium exposes layout tables (and their rows and cells) as generic.
        local_name!("table") => (!index.is_layout_table(id)).then_some("table")?,
        local_name!("tbody") | local_name!("thead") | local_name!("tfoot") => {
            return within_presentational_table(dom, index, id, "rowgroup")
        }
        local_name!("textarea") => "textbox",
        local_name!("time") => "time",
        local_name!("tr") => return within_presentational_table(dom, index, id, "row"),
        local_name!("td") => {
            let table = nearest_table_role(dom, index, id);
            return match table {
                Some(Some("grid" | "treegrid")) => Some("gridcell"),
                Some(Some("table")) => Some("cell"),
                Some(r) if is_presentational(r) => None,
                // A cell outside any table (parser-repaired markup never produces one, but a
                // `display:table` layout could) is generic.
                _ => None,
            };
        }
        local_name!("th") => {
            let table = nearest_table_role(dom, index, id);
            if table.is_some_and(|r| r.is_none() || is_presentational(r)) {
                return None;
            }
            return Some(header_cell_role(dom, id, el));
        }
        _ => return None,
    };
    Some(role)
}

/// `img`: presentation when `alt=""`, unless focusable or globally ARIA-attributed
/// (html-aam "img with alt=''" row; ARIA §9.3).
fn img_role(dom: &Dom, id: NodeId, el: Element<'_>) -> Option<&'static str> {
    match el.attr(&local_name!("alt")) {
        Some("")
            if !is_focusable(dom, id, el)
                && !has_global_aria_attr(el)
                && !el.has_attr(&local_name!("title")) =>
        {
            Some("presentation")
        }
        _ => Some("img"),
    }
}

/// `input` by type (<https://w3c.github.io/html-aam/#el-input-button> and following rows).
fn input_role(dom: &Dom, index: &Index, id: NodeId, el: Element<'_>) -> Option<&'static str> {
    // A suggestions list makes a combobox only when `list` names a <datalist>.
    let has_list = el
        .attr(&local_name!("list"))
        .and_then(|list| index.by_id(dom.scope(id), list))
        .and_then(|d| dom.element(d))
        .is_some_and(|d| d.is_html(&local_name!("datalist")));
    Some(match input_type(el) {
        // A file input is its "Choose File" button (Chromium's tree).
        "button" | "file" | "image" | "reset" | "submit" => "button",
        "checkbox" => "checkbox",
        "radio" => "radio",
        "range" => "slider",
        "number" => "spinbutton",
        "search" if !has_list => "searchbox",
        "email" | "tel" | "text" | "url" | "search" => {
            if has_list {
                "combobox"
            } else {
                "textbox"
            }
        }
        // No ARIA role in html-aam, but Chromium exposes a password field as a textbox and an
        // agent needs to know it can type into it.
        "password" => "textbox",
        "hidden" => return None,
        // color, date, file, month, time, week…: no ARIA role.
        _ => return None,
    })
}

/// `th`: rowheader or columnheader by `scope`, else by position
/// (<https://w3c.github.io/html-aam/#el-th>).
fn header_cell_role(dom: &Dom, id: NodeId, el: Element<'_>) -> &'static str {
    if let Some(scope) = el.attr(&local_name!("scope")) {
        let s = scope.trim().to_ascii_lowercase();
        if s == "row" || s == "rowgroup" {
            return "rowheader";
        }
        if s == "col" || s == "colgroup" {
            return "columnheader";
        }
    }
    // Without scope (Chromium's rule): a header that shares its row with data cells heads
    // that row; otherwise it heads its column.
    let has_td_sibling = el_parent(dom, id).is_some_and(|row| {
        dom.children(row)
            .filter_map(|c| dom.element(c))
            .any(|c| c.is_html(&local_name!("td")))
    });
    if has_td_sibling {
        "rowheader"
    } else {
        "columnheader"
    }
}

/// The role of the nearest `table` ancestor: `None` outside tables, `Some(role)` otherwise.
fn nearest_table_role(dom: &Dom, index: &Index, id: NodeId) -> Option<Option<&'static str>> {
    dom.ancestors(id)
        .find(|(_, e)| e.is_html(&local_name!("table")))
        .map(|(t, _)| role(dom, index, t))
}

/// Table parts lose their role in a presentational or layout table.
fn within_presentational_table(
    dom: &Dom,
    index: &Index,
    id: NodeId,
    own: &'static str,
) -> Option<&'static str> {
    match nearest_table_role(dom, index, id) {
        Some(r) if r.is_none() || is_presentational(r) => None,
        _ => Some(own),
    }
}

/// Chromium's data-table heuristic (`AXNodeObject::IsDataTable`), in its order, without its
/// stylesheet signals. Explicit roles are decided before this is asked.
/// 1. a summary, `rules`, a `border`, contenteditable, a caption, a head or foot, or column
///    groups: data;
/// 2. a single cell: layout;
/// 3. 20 or more rows: data;
/// 4. a header cell, header attributes (`headers`, `abbr`, `axis`, `scope`) or an inline
///    cell border: data;
/// 5. Chromium would then look at the cells' borders and colours in the stylesheets, which
///    this path mostly cannot see (they are in linked files). Readability's `_markDataTables`
///    size rule stands in for them: a table holding no table, of more than one row and one
///    column, with ten rows, five columns or more than ten cells, is data. An article's table
///    of tools, prices or dates is drawn with rules, and Chromium calls it data; a page laid
///    out in a 2 × 2 grid is not.
/// 6. otherwise layout.
pub fn is_layout_table(dom: &Dom, id: NodeId, el: Element<'_>) -> bool {
    let non_empty = |e: Element<'_>, a: &LocalName| e.attr(a).is_some_and(|v| !v.trim().is_empty());
    let bordered = el.attr(&local_name!("border")).is_some_and(|b| {
        b.trim()
            .parse::<u32>()
            .map_or(!b.trim().is_empty(), |n| n > 0)
    });
    if non_empty(el, &local_name!("summary"))
        || non_empty(el, &local_name!("rules"))
        || bordered
        || el.has_attr(&local_name!("contenteditable"))
    {
        return false;
    }
    // This table's own rows: directly under it or under its own sections, never a nested
    // table's.
    let mut rows: Vec<NodeId> = Vec::new();
    let mut containers = vec![id];
    while let Some(container) = containers.pop() {
        for child in dom.children(container) {
            let Some(c) = dom.element(child) else {
                continue;
            };
            match *c.local() {
                local_name!("caption")
                | local_name!("thead")
                | local_name!("tfoot")
                | local_name!("col")
                | local_name!("colgroup") => return false,
                local_name!("tbody") if container == id => containers.push(child),
                local_name!("tr") => rows.push(child),
                _ => {}
            }
        }
    }
    let cells: Vec<Element<'_>> = rows.iter().flat_map(|&r| row_cells(dom, r)).collect();
    if cells.len() <= 1 {
        return true;
    }
    if rows.len() >= 20 {
        return false;
    }
    let data_cell = |c: &Element<'_>| {
        c.is_html(&local_name!("th"))
            || [
                local_name!("headers"),
                local_name!("abbr"),
                local_name!("axis"),
                local_name!("scope"),
            ]
            .iter()
            .any(|a| non_empty(*c, a))
            || c.attr(&local_name!("style"))
                .is_some_and(|s| s.to_ascii_lowercase().contains("border"))
    };
    if cells.iter().any(data_cell) {
        return false;
    }
    !has_data_table_size(dom, id, &rows)
}

/// A table row's cells: its `td` and `th` children.
fn row_cells(dom: &Dom, tr: NodeId) -> impl Iterator<Item = Element<'_>> {
    dom.children(tr)
        .filter_map(|c| dom.element(c))
        .filter(|c| c.is_html(&local_name!("td")) || c.is_html(&local_name!("th")))
}

/// Readability's `_markDataTables` size rule (step 5 of [`is_layout_table`]) on a table's own
/// `rows`: no nested table, more than one row and column, and ten rows, five columns or more
/// than ten cells. Rows count their `rowspan` and columns their cells' `colspan`, as
/// Readability's `_getRowAndColumnCount` does.
fn has_data_table_size(dom: &Dom, id: NodeId, rows: &[NodeId]) -> bool {
    // A `rowspan` or `colspan` as Readability counts it: the number, or 1.
    let span = |el: Element<'_>, attr: &LocalName| {
        el.attr(attr)
            .and_then(|v| v.trim().parse::<usize>().ok())
            .filter(|&n| n > 0)
            .map_or(1, |n| n.min(1_000))
    };
    let (mut height, mut width) = (0usize, 0usize);
    for &tr in rows {
        let Some(row) = dom.element(tr) else {
            continue;
        };
        height = height.saturating_add(span(row, &local_name!("rowspan")));
        let cells = row_cells(dom, tr)
            .map(|c| span(c, &local_name!("colspan")))
            .fold(0usize, usize::saturating_add);
        width = width.max(cells);
    }
    height > 1
        && width > 1
        && (height >= 10 || width > 4 || height.saturating_mul(width) > 10)
        && !dom.descendants(id).any(|d| {
            dom.element(d)
                .is_some_and(|e| e.is_html(&local_name!("table")))
        })
}

const SECTIONING_FOR_HEADER: [LocalName; 5] = [
    local_name!("article"),
    local_name!("aside"),
    local_name!("main"),
    local_name!("nav"),
    local_name!("section"),
];

const SECTIONING_FOR_ASIDE: [LocalName; 4] = [
    local_name!("article"),
    local_name!("aside"),
    local_name!("nav"),
    local_name!("section"),
];

/// Whether an ancestor is one of `scopes` (HTML elements, or their ARIA role equivalents).
fn scoped_to_sectioning(dom: &Dom, id: NodeId, scopes: &[LocalName]) -> bool {
    dom.ancestors(id).any(|(_, e)| {
        (e.in_html_ns() && scopes.contains(e.local()))
            || matches!(
                e.attr(&local_name!("role")).and_then(explicit_role),
                Some("article" | "complementary" | "main" | "navigation" | "region")
            )
    })
}

/// Whether the author gave the element a name (aria-label, aria-labelledby or title), the
/// condition under which `section`, `form` and nested `aside` become landmarks.
fn has_author_name(el: Element<'_>) -> bool {
    [
        local_name!("aria-label"),
        local_name!("aria-labelledby"),
        local_name!("title"),
    ]
    .iter()
    .any(|a| el.attr(a).is_some_and(|v| !v.trim().is_empty()))
}

fn el_parent(dom: &Dom, id: NodeId) -> Option<NodeId> {
    dom.node(id).parent.filter(|p| dom.element(*p).is_some())
}

/// Text-level roles: formatting within a run of text, never a node of the snapshot tree.
pub fn is_text_level(role: &str) -> bool {
    matches!(
        role,
        "strong"
            | "emphasis"
            | "code"
            | "mark"
            | "deletion"
            | "insertion"
            | "subscript"
            | "superscript"
            | "time"
    )
}

/// Roles whose name may come from their content (ARIA 1.2 "Name From: contents").
pub fn allows_name_from_content(role: &str) -> bool {
    matches!(
        role,
        "button"
            | "cell"
            | "checkbox"
            | "columnheader"
            | "comment"
            | "gridcell"
            | "heading"
            | "link"
            | "menuitem"
            | "menuitemcheckbox"
            | "menuitemradio"
            | "option"
            | "radio"
            | "row"
            | "rowheader"
            | "sectionhead"
            | "sectionheader"
            | "sectionfooter"
            | "suggestion"
            | "switch"
            | "tab"
            | "tooltip"
            | "treeitem"
            | "doc-backlink"
            | "doc-biblioref"
            | "doc-glossref"
            | "doc-noteref"
    )
}

/// Roles on which naming is prohibited (ARIA 1.2 "Name From: prohibited"): their name is empty.
pub fn prohibits_naming(role: &str) -> bool {
    matches!(
        role,
        "caption"
            | "code"
            | "deletion"
            | "emphasis"
            | "generic"
            | "insertion"
            | "mark"
            | "none"
            | "paragraph"
            | "presentation"
            | "strong"
            | "subscript"
            | "superscript"
            | "suggestion"
            | "term"
            | "time"
    )
}

/// Roles whose value an embedded control contributes to a label (accname 1.2 step 2C).
pub fn is_range(role: &str) -> bool {
    matches!(
        role,
        "slider" | "spinbutton" | "progressbar" | "scrollbar" | "meter"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role_of(html: &str) -> Option<&'static str> {
        let dom = Dom::parse(html);
        let index = Index::build(&dom);
        let (id, _) = dom
            .elements()
            .find(|(_, e)| e.has_attr(&LocalName::from("data-t")))
            .expect("target");
        role(&dom, &index, id)
    }

    #[test]
    fn roles_table_is_sorted() {
        assert!(ROLES.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn explicit_first_valid_token_wins() {
        assert_eq!(
            role_of("<div data-t role='foo BUTTON link'>"),
            Some("button")
        );
        assert_eq!(
            role_of("<div data-t role='widget'>"),
            None,
            "abstract roles are skipped"
        );
        assert_eq!(role_of("<a data-t role='widget' href=x>"), Some("link"));
    }

    #[test]
    fn implicit_roles_with_conditions() {
        assert_eq!(role_of("<a data-t href=x>"), Some("link"));
        assert_eq!(role_of("<a data-t>"), None);
        assert_eq!(role_of("<header data-t>"), Some("banner"));
        assert_eq!(role_of("<article><header data-t>"), None);
        assert_eq!(role_of("<section data-t>"), None);
        assert_eq!(role_of("<section data-t aria-label=x>"), Some("region"));
        assert_eq!(role_of("<img data-t alt=''>"), Some("presentation"));
        assert_eq!(role_of("<img data-t alt='' tabindex=0>"), Some("img"));
        assert_eq!(role_of("<select data-t multiple>"), Some("listbox"));
        assert_eq!(role_of("<select data-t size=1>"), Some("combobox"));
        assert_eq!(
            role_of("<input data-t list=l><datalist id=l>"),
            Some("combobox")
        );
        assert_eq!(role_of("<input data-t list=l><div id=l>"), Some("textbox"));
        assert_eq!(
            role_of("<details><summary data-t>s</summary></details>"),
            Some("button")
        );
        assert_eq!(role_of("<summary data-t>s</summary>"), None);
        assert_eq!(role_of("<input data-t type=search>"), Some("searchbox"));
        assert_eq!(
            role_of("<table><tr><th data-t scope=row>h<td>d"),
            Some("rowheader")
        );
        assert_eq!(
            role_of("<table><tr><th data-t>h<th>i"),
            Some("columnheader")
        );
        assert_eq!(
            role_of("<table role=grid><tr><td data-t>"),
            Some("gridcell")
        );
        assert_eq!(role_of("<table><tr><th>h<tr><td data-t>d"), Some("cell"));
        assert_eq!(role_of("<ul role=none><li data-t>"), None);
        assert_eq!(role_of("<table role=presentation><tr><td data-t>"), None);
        // Layout tables (Chromium's heuristic): one cell, or no sign of data.
        assert_eq!(
            role_of("<table><tr><th data-t>Only</th></tr></table>"),
            None
        );
        assert_eq!(
            role_of("<table><tr><td data-t>a<td>b<tr><td>c<td>d</table>"),
            None
        );
        assert_eq!(
            role_of("<table><caption>c</caption><tr><td data-t>a<td>b</table>"),
            Some("cell")
        );
        assert_eq!(
            role_of("<table border=1><tr><td data-t>a<td>b</table>"),
            Some("cell")
        );
        // Readability's size rule in place of the stylesheet borders: twelve cells, ten rows
        // or five columns (a colspan counts) hold data; nine cells, one row, or a table
        // inside do not.
        let grid = |rows: usize, cols: usize, inner: &str| {
            let row = |r: usize| {
                let cells: String = (0..cols)
                    .map(|c| match (r, c) {
                        (0, 0) => format!("<td data-t>{inner}"),
                        _ => "<td>x".to_string(),
                    })
                    .collect();
                format!("<tr>{cells}")
            };
            format!("<table>{}</table>", (0..rows).map(row).collect::<String>())
        };
        assert_eq!(role_of(&grid(3, 4, "a")), Some("cell"));
        assert_eq!(role_of(&grid(10, 2, "a")), Some("cell"));
        assert_eq!(role_of(&grid(2, 5, "a")), Some("cell"));
        assert_eq!(role_of(&grid(3, 3, "a")), None);
        assert_eq!(role_of(&grid(1, 12, "a")), None);
        assert_eq!(role_of(&grid(12, 1, "a")), None);
        assert_eq!(role_of(&grid(3, 4, "<table><tr><td>a</table>")), None);
        assert_eq!(
            role_of("<table><tr><td data-t colspan=5>a<tr><td>b<td>c</table>"),
            Some("cell")
        );
        assert_eq!(
            role_of("<ul><li role=treeitem data-t>x</ul>"),
            Some("listitem")
        );
        assert_eq!(
            role_of("<div role=tree><div><div role=treeitem data-t>x</div></div></div>"),
            Some("treeitem")
        );
        assert_eq!(role_of("<div><div role=option data-t>x</div></div>"), None);
    }

    #[test]
    fn presentation_is_ignored_when_focusable_or_labelled() {
        assert_eq!(role_of("<button data-t role=none>"), Some("button"));
        assert_eq!(
            role_of("<h1 data-t role=presentation aria-label=x>"),
            Some("heading")
        );
        assert_eq!(
            role_of("<h1 data-t role=presentation>"),
            Some("presentation")
        );
    }

    #[test]
    fn categories() {
        assert_eq!(category("button"), Category::Interactive);
        assert_eq!(category("heading"), Category::Content);
        assert_eq!(category("list"), Category::Structural);
    }
}
