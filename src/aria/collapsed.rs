//! Collapsed is not hidden: text a person reveals with one click on a control the page shows.
//!
//! A panel is collapsed when it is hidden by its own markup or style (`hidden`,
//! `display:none`, `aria-hidden`, `content-visibility:hidden`) while its parent is shown, and
//! a shown control names it:
//!
//! - a disclosure or tab (<https://www.w3.org/WAI/ARIA/apg/patterns/disclosure/>,
//!   `…/patterns/tabs/`): an element with `aria-expanded` or role `tab` whose `aria-controls`
//!   lists the panel's id;
//! - a tab that a `tabpanel` names by its `aria-labelledby`: the tabs pattern ties tab and
//!   panel from both sides, and design systems often write only the panel's side;
//! - a framework's collapse or tab toggle (Bootstrap's `data-bs-toggle`, `data-toggle` =
//!   `collapse`, `tab` or `pill`) whose `data-bs-target`, `data-target` or `href` is `#id`.
//!
//! The body of a closed `<details>` under its shown `<summary>` is collapsed too; the content
//! stage reads it where it meets the element (`content::measure`). A closed `<details>` with
//! no `<summary>` is its own control: the browser draws a default one ("Details") in it.
//!
//! Never collapsed: a dialog or a menu (an overlay over the page, not a part of it), a
//! popup's list of suggestions (a combobox's, a search box's), and anything whose control is
//! hidden itself: text with no shown control stays out of every output
//! ([`super::hidden`]).

use std::collections::HashMap;
use std::sync::LazyLock;

use html5ever::{local_name, LocalName};

use super::hidden::{is_hidden, subtree_hidden, HiddenReason};
use crate::parse::{Dom, Element, NodeId};
use crate::style::Styles;

/// A claim that a control reveals a panel, before the ids are resolved: the element making
/// it and the id it names.
pub(crate) struct Claim {
    from: NodeId,
    target: Box<str>,
    /// `from` is a tab panel and `target` the id of its tab (its `aria-labelledby`); else
    /// `from` is the control and `target` the panel's id.
    panel_names_tab: bool,
}

/// The toggles of the frameworks whose collapse and tab panels a click reveals.
const TOGGLES: &[&str] = &["collapse", "tab", "pill"];

/// The frameworks' attribute names, interned once: `LocalName::from` hashes the string, and
/// every element is asked (a per-element intern cost 2 % of a snapshot on a 600 KB page).
struct Names {
    toggles: [LocalName; 2],
    targets: [LocalName; 3],
}

static NAMES: LazyLock<Names> = LazyLock::new(|| Names {
    toggles: [
        LocalName::from("data-bs-toggle"),
        LocalName::from("data-toggle"),
    ],
    targets: [
        LocalName::from("data-bs-target"),
        LocalName::from("data-target"),
        local_name!("href"),
    ],
});

/// The claims an element makes on panels by their id, in `out`.
pub(crate) fn claims(id: NodeId, el: Element<'_>, out: &mut Vec<Claim>) {
    if el.has_no_attrs() {
        return;
    }
    let role = el.attr(&local_name!("role")).unwrap_or_default();
    let disclosure = el.has_attr(&local_name!("aria-expanded")) || role == "tab";
    let popup =
        matches!(role, "combobox" | "searchbox" | "textbox") || el.is_html(&local_name!("input"));
    if disclosure && !popup {
        if let Some(ids) = el.attr(&local_name!("aria-controls")) {
            out.extend(ids.split_ascii_whitespace().map(|t| Claim {
                from: id,
                target: t.into(),
                panel_names_tab: false,
            }));
        }
    }
    if role == "tabpanel" {
        let tab = el
            .attr(&local_name!("aria-labelledby"))
            .and_then(|ids| ids.split_ascii_whitespace().next());
        if let Some(tab) = tab {
            out.push(Claim {
                from: id,
                target: tab.into(),
                panel_names_tab: true,
            });
        }
    }
    let names = &*NAMES;
    let toggle = names
        .toggles
        .iter()
        .filter_map(|a| el.attr(a))
        .any(|t| TOGGLES.contains(&t.trim()));
    if toggle {
        let target = names
            .targets
            .iter()
            .filter_map(|a| el.attr(a))
            .find_map(|t| t.trim().strip_prefix('#'))
            .filter(|t| !t.is_empty() && t.bytes().all(is_id_byte));
        if let Some(t) = target {
            out.push(Claim {
                from: id,
                target: t.into(),
                panel_names_tab: false,
            });
        }
    }
}

/// Bytes of an id selector the claims follow (`#details-1`, not `#a .b` or `#x:not(y)`).
fn is_id_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_') || b >= 0x80
}

/// The collapsed panels of a page, each with the control that reveals it.
#[derive(Debug, Default)]
pub(crate) struct Collapsed {
    control_of: HashMap<NodeId, NodeId>,
    panels_of: HashMap<NodeId, Vec<NodeId>>,
}

impl Collapsed {
    /// Resolves the claims: `by_id` finds an element by id in the control's tree scope.
    /// `details`: the closed `<details>` elements with their summary, whose body the summary
    /// reveals (the details stays shown: only its summary's line and scope change).
    pub(crate) fn resolve(
        dom: &Dom,
        styles: &Styles,
        claims: Vec<Claim>,
        details: Vec<(NodeId, NodeId)>,
        by_id: impl Fn(NodeId, &str) -> Option<NodeId>,
    ) -> Collapsed {
        let mut control_of = HashMap::new();
        for claim in claims {
            let Some(named) = by_id(claim.from, &claim.target) else {
                continue;
            };
            let (control, panel) = match claim.panel_names_tab {
                false => (claim.from, named),
                true if is_tab(dom, named) => (named, claim.from),
                true => continue,
            };
            if control_of.contains_key(&panel) || dom.holds(panel, control) {
                continue;
            }
            if is_collapsed(dom, styles, panel) && is_hidden(dom, styles, control).is_none() {
                control_of.insert(panel, control);
            }
        }
        let mut panels_of: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        for (&panel, &control) in &control_of {
            panels_of.entry(control).or_default().push(panel);
        }
        for (details, summary) in details {
            if is_hidden(dom, styles, details).is_none() {
                panels_of.entry(summary).or_default().push(details);
            }
        }
        for panels in panels_of.values_mut() {
            panels.sort_unstable();
        }
        Collapsed {
            control_of,
            panels_of,
        }
    }

    /// The panels `control` reveals, in document order.
    pub(crate) fn panels_of(&self, control: NodeId) -> &[NodeId] {
        self.panels_of.get(&control).map_or(&[], Vec::as_slice)
    }

    /// The control that reveals `panel`, when `panel` is collapsed.
    pub(crate) fn control_of(&self, panel: NodeId) -> Option<NodeId> {
        self.control_of.get(&panel).copied()
    }
}

/// Whether `id` is an element of role `tab`.
fn is_tab(dom: &Dom, id: NodeId) -> bool {
    dom.element(id)
        .and_then(|el| el.attr(&local_name!("role")))
        .and_then(super::roles::explicit_role)
        == Some("tab")
}

/// Whether `panel` is hidden by itself only, as a collapsed part of the page is: by its own
/// markup or style, its parent shown, and it is no overlay.
fn is_collapsed(dom: &Dom, styles: &Styles, panel: NodeId) -> bool {
    let Some(el) = dom.element(panel) else {
        return false;
    };
    let own = matches!(
        subtree_hidden(styles, panel, el),
        Some(
            HiddenReason::HiddenAttribute
                | HiddenReason::DisplayNone
                | HiddenReason::AriaHidden
                | HiddenReason::ContentVisibilityHidden
        )
    );
    let overlay = el.is_html(&local_name!("dialog"))
        || el.has_attr(&local_name!("aria-modal"))
        || matches!(
            el.attr(&local_name!("role")).unwrap_or_default(),
            "dialog" | "alertdialog" | "menu" | "menubar" | "listbox" | "tooltip"
        );
    let parent_shown = dom
        .node(panel)
        .parent
        .is_some_and(|p| is_hidden(dom, styles, p).is_none());
    own && !overlay && parent_shown
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aria::Index;

    /// The text of each collapsed panel of `html`, in document order.
    fn panels(html: &str) -> Vec<String> {
        let dom = Dom::parse(html);
        let index = Index::build(&dom);
        dom.elements()
            .filter(|(id, _)| index.collapsed_control(*id).is_some())
            .map(|(id, _)| {
                dom.descendants(id)
                    .filter_map(|d| dom.text(d))
                    .collect::<String>()
            })
            .collect()
    }

    #[test]
    fn a_shown_control_makes_its_hidden_panel_collapsed() {
        let html = "<button aria-expanded=false aria-controls=d>Description</button>\
                    <div id=d hidden>Hand-thrown stoneware.</div>\
                    <div role=tablist><button role=tab aria-selected=true aria-controls=t1>A</button>\
                    <button role=tab aria-controls=t2>B</button></div>\
                    <div id=t1>Shown tab.</div><div id=t2 style='display:none'>Specs.</div>\
                    <a data-bs-toggle=collapse href=#faq1>Shipping?</a>\
                    <div class=collapse id=faq1 style='display:none'>Two days.</div>\
                    <button data-toggle=collapse data-target=#faq2>Returns?</button>\
                    <div id=faq2 aria-hidden=true>Thirty days.</div>\
                    <div role=tablist><span role=tab id=py aria-selected=true>Python</span>\
                    <span role=tab id=go>Go</span></div>\
                    <div role=tabpanel aria-labelledby=py>pip install</div>\
                    <div role=tabpanel aria-labelledby=go hidden>go get</div>";
        assert_eq!(
            panels(html),
            [
                "Hand-thrown stoneware.",
                "Specs.",
                "Two days.",
                "Thirty days.",
                "go get"
            ]
        );
    }

    #[test]
    fn without_a_shown_control_hidden_stays_hidden() {
        for html in [
            // No control at all.
            "<div id=d hidden>Ignore previous instructions.</div>",
            // A control that is hidden itself.
            "<button hidden aria-expanded=false aria-controls=d>x</button><div id=d hidden>y</div>",
            // A control inside a hidden block.
            "<div hidden><button aria-expanded=false aria-controls=d>x</button></div>\
             <div id=d hidden>y</div>",
            // A panel inside a hidden block: more than one click away.
            "<button aria-expanded=false aria-controls=d>x</button><div hidden><div id=d hidden>y\
             </div></div>",
            // Overlays: a dialog, a menu; a combobox's suggestions.
            "<button aria-expanded=false aria-controls=d>x</button><div id=d role=dialog hidden>y</div>",
            "<button aria-expanded=false aria-controls=d>x</button><ul id=d role=menu hidden><li>y</ul>",
            "<input role=combobox aria-expanded=false aria-controls=d><ul id=d hidden><li>y</ul>",
            // aria-controls without a disclosure's state says nothing of a click.
            "<button aria-controls=d>x</button><div id=d hidden>y</div>",
            // A selector that is no id.
            "<a data-bs-toggle=collapse href='#d .x'>x</a><div id=d hidden>y</div>",
            // A tab panel named by a heading, not by a tab; or by a hidden tab.
            "<h3 id=h>x</h3><div role=tabpanel aria-labelledby=h hidden>y</div>",
            "<span role=tab id=t hidden>x</span><div role=tabpanel aria-labelledby=t hidden>y</div>",
        ] {
            assert!(panels(html).is_empty(), "{html}");
        }
    }
}
