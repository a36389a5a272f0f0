//! CSS selectors over the arena, with the `selectors` crate (Servo's matching engine).
//!
//! Supports what the crate supports: type, id, class and attribute selectors, combinators,
//! `:root`, `:nth-child()` and friends, `:not()`, `:is()`, `:where()`, `:has()`; and the
//! pseudo-classes a static page can answer (`:checked`, `:disabled`, `:link`, `:defined`…).
//! States that need a person or a script (`:hover`, `:focus`, `:visited`…) parse but never
//! hold, and pseudo-elements (`::before`) parse but match no element: a page's stylesheet
//! that lists one of them beside other selectors keeps its rule, as in a browser.

use std::fmt;

use cssparser::ToCss;
use html5ever::{local_name, LocalName, Namespace};
use precomputed_hash::PrecomputedHash;
use selectors::attr::{AttrSelectorOperation, CaseSensitivity, NamespaceConstraint};
use selectors::bloom::BloomFilter;
use selectors::context::{
    MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags, QuirksMode,
    SelectorCaches,
};
use selectors::matching::{matches_selector, ElementSelectorFlags};
use selectors::parser::{self, ParseRelative, SelectorList, SelectorParseErrorKind};
use selectors::OpaqueElement;

use super::{Dom, NodeData, NodeId};

/// A parsed selector list (`a, button.primary`).
#[derive(Debug, Clone)]
pub struct Selector(SelectorList<Impl>);

/// A selector that does not parse.
#[derive(Debug, thiserror::Error)]
#[error("invalid CSS selector {selector:?}: {reason}")]
pub struct SelectorError {
    pub selector: String,
    pub reason: String,
}

impl Selector {
    /// Parses a selector list.
    pub fn parse(css: &str) -> Result<Selector, SelectorError> {
        let mut parser = cssparser::Parser::new(css);
        SelectorList::parse(&SelectorParser, &mut parser, ParseRelative::No)
            .map(Selector)
            .map_err(|e| SelectorError {
                selector: css.to_string(),
                reason: format!("{:?}", e.kind),
            })
    }

    /// Whether the element `id` matches.
    pub fn matches(&self, dom: &Dom, id: NodeId) -> bool {
        ElementRef::new(dom, id).is_some_and(|el| self.matches_element(el))
    }

    fn matches_element(&self, el: ElementRef<'_>) -> bool {
        let mut caches = SelectorCaches::default();
        let mut ctx = MatchingContext::new(
            MatchingMode::Normal,
            None,
            &mut caches,
            QuirksMode::NoQuirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        self.0
            .slice()
            .iter()
            .any(|s| matches_selector(s, 0, None, el, &mut ctx))
    }

    /// The first matching element in document order.
    pub fn first(&self, dom: &Dom) -> Option<NodeId> {
        dom.elements()
            .map(|(id, _)| id)
            .find(|&id| self.matches(dom, id))
    }
}

/// Every element's class names, split and interned once: the style stage asks each element
/// and its ancestors about hundreds of class selectors, and splitting a long `class`
/// attribute at every question was a third of its matching time.
#[derive(Default)]
pub struct ClassNames {
    /// Per arena index: where its names are in `names`.
    spans: Vec<std::ops::Range<usize>>,
    names: Vec<LocalName>,
}

impl ClassNames {
    /// The class names of every element of `dom`.
    pub fn new(dom: &Dom) -> ClassNames {
        let mut spans = vec![0..0; dom.len()];
        let mut names = Vec::new();
        for (id, el) in dom.elements() {
            if let Some(v) = el.attr(&local_name!("class")) {
                let start = names.len();
                names.extend(v.split_ascii_whitespace().map(LocalName::from));
                if let Some(span) = spans.get_mut(id.index()) {
                    *span = start..names.len();
                }
            }
        }
        ClassNames { spans, names }
    }

    /// Every element's class names, element after element.
    pub fn all(&self) -> &[LocalName] {
        &self.names
    }

    /// The class names of `id`, in attribute order.
    pub fn of(&self, id: NodeId) -> &[LocalName] {
        self.spans
            .get(id.index())
            .and_then(|span| self.names.get(span.clone()))
            .unwrap_or(&[])
    }
}

/// An element of the arena as the matching engine sees it (also the style stage's).
#[derive(Clone, Copy)]
pub(crate) struct ElementRef<'a> {
    dom: &'a Dom,
    id: NodeId,
    el: super::Element<'a>,
    /// The document's class names when split beforehand (else read from the attribute).
    classes: Option<&'a ClassNames>,
}

impl fmt::Debug for ElementRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ElementRef({:?})", self.id)
    }
}

impl<'a> ElementRef<'a> {
    pub(crate) fn new(dom: &'a Dom, id: NodeId) -> Option<ElementRef<'a>> {
        dom.element(id).map(|el| ElementRef {
            dom,
            id,
            el,
            classes: None,
        })
    }

    /// An element whose class names (and its relatives') are read from `classes`.
    pub(crate) fn with_classes(
        dom: &'a Dom,
        id: NodeId,
        classes: &'a ClassNames,
    ) -> Option<ElementRef<'a>> {
        dom.element(id).map(|el| ElementRef {
            dom,
            id,
            el,
            classes: Some(classes),
        })
    }

    /// Another element of the same document, seen the same way.
    fn relative(&self, id: NodeId) -> Option<ElementRef<'a>> {
        match self.classes {
            Some(classes) => ElementRef::with_classes(self.dom, id, classes),
            None => ElementRef::new(self.dom, id),
        }
    }

    fn sibling_element(&self, next: bool) -> Option<ElementRef<'a>> {
        let step = |id: NodeId| {
            let n = self.dom.node(id);
            if next {
                n.next_sibling
            } else {
                n.prev_sibling
            }
        };
        let mut cur = step(self.id);
        while let Some(id) = cur {
            if let Some(e) = self.relative(id) {
                return Some(e);
            }
            cur = step(id);
        }
        None
    }
}

impl selectors::Element for ElementRef<'_> {
    type Impl = Impl;

    fn opaque(&self) -> OpaqueElement {
        OpaqueElement::new(self.dom.node(self.id))
    }

    // Within the element's own tree: a page's selectors do not reach into shadow trees,
    // nor a shadow tree's out of it (<https://drafts.csswg.org/css-scoping/#selectors-data-model>).
    fn parent_element(&self) -> Option<Self> {
        self.dom
            .scoped_parent(self.id)
            .and_then(|p| self.relative(p))
    }

    fn parent_node_is_shadow_root(&self) -> bool {
        false
    }

    fn containing_shadow_host(&self) -> Option<Self> {
        None
    }

    fn is_pseudo_element(&self) -> bool {
        false
    }

    fn prev_sibling_element(&self) -> Option<Self> {
        self.sibling_element(false)
    }

    fn next_sibling_element(&self) -> Option<Self> {
        self.sibling_element(true)
    }

    fn first_element_child(&self) -> Option<Self> {
        self.dom.children(self.id).find_map(|c| self.relative(c))
    }

    fn is_html_element_in_html_document(&self) -> bool {
        self.el.in_html_ns()
    }

    fn has_local_name(&self, name: &CssName) -> bool {
        *self.el.local() == name.0
    }

    fn has_namespace(&self, ns: &Namespace) -> bool {
        self.el.ns() == ns
    }

    fn is_same_type(&self, other: &Self) -> bool {
        self.el.local() == other.el.local() && self.el.ns() == other.el.ns()
    }

    fn attr_matches(
        &self,
        ns: &NamespaceConstraint<&Namespace>,
        local_name: &CssName,
        operation: &AttrSelectorOperation<&CssString>,
    ) -> bool {
        let el = self.el;
        el.attrs().any(|(qualified, value)| {
            let name = el.attr_name(qualified);
            let ns_ok = match ns {
                NamespaceConstraint::Any => true,
                NamespaceConstraint::Specific(n) => name.ns == **n,
            };
            ns_ok && name.local == local_name.0 && operation.eval_str(value)
        })
    }

    fn match_non_ts_pseudo_class(
        &self,
        pc: &NonTsPseudoClass,
        _: &mut MatchingContext<Impl>,
    ) -> bool {
        let el = self.el;
        match *pc {
            NonTsPseudoClass::Never(_) => false,
            NonTsPseudoClass::Link => self.is_link(),
            NonTsPseudoClass::Checked => {
                (el.is_html(&local_name!("input")) && el.has_attr(&local_name!("checked")))
                    || (el.is_html(&local_name!("option")) && el.has_attr(&local_name!("selected")))
            }
            NonTsPseudoClass::Disabled => crate::aria::roles::is_disabled_control(el),
            NonTsPseudoClass::Enabled => {
                is_form_control(el) && !crate::aria::roles::is_disabled_control(el)
            }
            // Without scripts no custom element is defined; every standard element is.
            NonTsPseudoClass::Defined => !el.local().contains('-'),
            NonTsPseudoClass::PlaceholderShown => {
                matches!(*el.local(), local_name!("input") | local_name!("textarea"))
                    && el.in_html_ns()
                    && el.has_attr(&local_name!("placeholder"))
                    && el.attr(&local_name!("value")).is_none_or(str::is_empty)
            }
        }
    }

    fn match_pseudo_element(&self, _: &PseudoElement, _: &mut MatchingContext<Impl>) -> bool {
        // A pseudo-element is a box of its own, never the element.
        false
    }

    fn apply_selector_flags(&self, _flags: ElementSelectorFlags) {}

    fn is_link(&self) -> bool {
        let el = self.el;
        el.in_html_ns()
            && matches!(
                *el.local(),
                local_name!("a") | local_name!("area") | local_name!("link")
            )
            && el.has_attr(&local_name!("href"))
    }

    fn is_html_slot_element(&self) -> bool {
        self.el.is_html(&local_name!("slot"))
    }

    fn has_id(&self, id: &CssName, case: CaseSensitivity) -> bool {
        self.el
            .attr(&local_name!("id"))
            .is_some_and(|v| case.eq(v.as_bytes(), id.0.as_bytes()))
    }

    fn has_class(&self, name: &CssName, case: CaseSensitivity) -> bool {
        if let Some(classes) = self.classes {
            let names = classes.of(self.id);
            return match case {
                // Interned: equal names are equal atoms.
                CaseSensitivity::CaseSensitive => names.contains(&name.0),
                CaseSensitivity::AsciiCaseInsensitive => {
                    names.iter().any(|c| c.eq_ignore_ascii_case(&name.0))
                }
            };
        }
        self.el.attr(&local_name!("class")).is_some_and(|v| {
            v.split_ascii_whitespace()
                .any(|c| case.eq(c.as_bytes(), name.0.as_bytes()))
        })
    }

    fn has_custom_state(&self, _name: &CssName) -> bool {
        false
    }

    fn imported_part(&self, _name: &CssName) -> Option<CssName> {
        None
    }

    fn is_part(&self, _name: &CssName) -> bool {
        false
    }

    fn is_empty(&self) -> bool {
        self.dom
            .children(self.id)
            .all(|c| match &self.dom.node(c).data {
                NodeData::Element(_) => false,
                NodeData::Text(t) => self.dom.str(*t).is_empty(),
                _ => true,
            })
    }

    fn is_root(&self) -> bool {
        // A frame's `<html>` is its document's root too.
        self.dom.node(self.id).parent == Some(NodeId::DOCUMENT)
            || (self.dom.scoped_parent(self.id).is_none()
                && self.el.is_html(&html5ever::local_name!("html")))
    }

    fn add_element_unique_hashes(&self, _filter: &mut BloomFilter) -> bool {
        false
    }
}

/// The selector implementation: html5ever's interned names, no pseudo-classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Impl;

impl parser::SelectorImpl for Impl {
    type ExtraMatchingData<'a> = ();
    type AttrValue = CssString;
    type Identifier = CssName;
    type LocalName = CssName;
    type NamespacePrefix = CssName;
    type NamespaceUrl = Namespace;
    type BorrowedNamespaceUrl = Namespace;
    type BorrowedLocalName = CssName;
    type NonTSPseudoClass = NonTsPseudoClass;
    type PseudoElement = PseudoElement;
}

/// Elements that `:enabled` and `:disabled` apply to
/// (<https://html.spec.whatwg.org/multipage/semantics-other.html#selector-enabled>).
fn is_form_control(el: super::Element<'_>) -> bool {
    el.in_html_ns()
        && matches!(
            *el.local(),
            local_name!("button")
                | local_name!("input")
                | local_name!("select")
                | local_name!("textarea")
                | local_name!("optgroup")
                | local_name!("option")
                | local_name!("fieldset")
        )
}

/// Parses selectors for `probe` and for the page's stylesheets.
pub(crate) struct SelectorParser;

impl<'i> parser::Parser<'i> for SelectorParser {
    type Impl = Impl;
    type Error = SelectorParseErrorKind;

    fn parse_non_ts_pseudo_class(
        &self,
        name: &str,
    ) -> Result<NonTsPseudoClass, cssparser::ParseError<Self::Error>> {
        NonTsPseudoClass::named(name).ok_or_else(|| {
            cssparser::ParseError::custom(SelectorParseErrorKind::UnsupportedPseudoClassOrElement)
        })
    }

    fn parse_pseudo_element(
        &self,
        name: &str,
    ) -> Result<PseudoElement, cssparser::ParseError<Self::Error>> {
        PseudoElement::named(name).ok_or_else(|| {
            cssparser::ParseError::custom(SelectorParseErrorKind::UnsupportedPseudoClassOrElement)
        })
    }

    fn parse_is_and_where(&self) -> bool {
        true
    }

    fn parse_has(&self) -> bool {
        true
    }

    fn parse_nth_child_of(&self) -> bool {
        true
    }

    fn default_namespace(&self) -> Option<Namespace> {
        None
    }
}

/// An attribute value in a selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CssString(String);

impl From<&str> for CssString {
    fn from(s: &str) -> Self {
        CssString(s.to_string())
    }
}

impl AsRef<str> for CssString {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl ToCss for CssString {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        cssparser::serialize_string(&self.0, dest)
    }
}

/// An interned name in a selector.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct CssName(LocalName);

impl CssName {
    pub(crate) fn as_local(&self) -> &LocalName {
        &self.0
    }

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<&str> for CssName {
    fn from(s: &str) -> Self {
        CssName(LocalName::from(s))
    }
}

impl ToCss for CssName {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        dest.write_str(&self.0)
    }
}

impl PrecomputedHash for CssName {
    fn precomputed_hash(&self) -> u32 {
        self.0.precomputed_hash()
    }
}

/// The pseudo-classes that are not about tree structure (the crate handles those).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NonTsPseudoClass {
    /// A state that needs a person, a script or a URL fragment: never true in a static page.
    Never(&'static str),
    /// `:link` and `:any-link` (nothing is visited offline).
    Link,
    Checked,
    Disabled,
    Enabled,
    Defined,
    PlaceholderShown,
}

/// States a static page never is in (<https://drafts.csswg.org/selectors-4/>).
const NEVER_PSEUDO_CLASSES: &[&str] = &[
    "active",
    "autofill",
    "current",
    "focus",
    "focus-visible",
    "focus-within",
    "fullscreen",
    "future",
    "hover",
    "indeterminate",
    "invalid",
    "modal",
    "past",
    "paused",
    "picture-in-picture",
    "playing",
    "popover-open",
    "target",
    "target-within",
    "user-invalid",
    "user-valid",
    "valid",
    "visited",
];

impl NonTsPseudoClass {
    fn named(name: &str) -> Option<NonTsPseudoClass> {
        let lower = name.to_ascii_lowercase();
        Some(match lower.as_str() {
            "link" | "any-link" => NonTsPseudoClass::Link,
            "checked" => NonTsPseudoClass::Checked,
            "disabled" => NonTsPseudoClass::Disabled,
            "enabled" => NonTsPseudoClass::Enabled,
            "defined" => NonTsPseudoClass::Defined,
            "placeholder-shown" => NonTsPseudoClass::PlaceholderShown,
            // Vendor states (`:-webkit-autofill`, `:-moz-focusring`) are user states too.
            l if l.starts_with("-webkit-") || l.starts_with("-moz-") || l.starts_with("-ms-") => {
                NonTsPseudoClass::Never("-vendor-state")
            }
            l => NonTsPseudoClass::Never(NEVER_PSEUDO_CLASSES.iter().find(|n| **n == l).copied()?),
        })
    }

    fn css_name(self) -> &'static str {
        match self {
            NonTsPseudoClass::Never(name) => name,
            NonTsPseudoClass::Link => "any-link",
            NonTsPseudoClass::Checked => "checked",
            NonTsPseudoClass::Disabled => "disabled",
            NonTsPseudoClass::Enabled => "enabled",
            NonTsPseudoClass::Defined => "defined",
            NonTsPseudoClass::PlaceholderShown => "placeholder-shown",
        }
    }
}

impl parser::NonTSPseudoClass for NonTsPseudoClass {
    fn is_active_or_hover(&self) -> bool {
        matches!(self, NonTsPseudoClass::Never("active" | "hover"))
    }
    fn is_user_action_state(&self) -> bool {
        self.is_active_or_hover()
    }
}

impl ToCss for NonTsPseudoClass {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        dest.write_char(':')?;
        dest.write_str(self.css_name())
    }
}

/// A pseudo-element (`::before`, `::placeholder`…): parsed so that a rule naming one is not
/// lost, never matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PseudoElement(&'static str);

/// Pseudo-elements browsers know (<https://drafts.csswg.org/css-pseudo-4/>); vendor-prefixed
/// ones are accepted too.
const PSEUDO_ELEMENTS: &[&str] = &[
    "after",
    "backdrop",
    "before",
    "cue",
    "file-selector-button",
    "first-letter",
    "first-line",
    "grammar-error",
    "marker",
    "placeholder",
    "selection",
    "spelling-error",
    "target-text",
];

impl PseudoElement {
    fn named(name: &str) -> Option<PseudoElement> {
        let lower = name.to_ascii_lowercase();
        if lower.starts_with("-webkit-") || lower.starts_with("-moz-") || lower.starts_with("-ms-")
        {
            return Some(PseudoElement("-vendor-element"));
        }
        PSEUDO_ELEMENTS
            .iter()
            .find(|n| **n == lower)
            .map(|n| PseudoElement(n))
    }
}

impl parser::PseudoElement for PseudoElement {
    fn accepts_state_pseudo_classes(&self) -> bool {
        // `::placeholder:hover`, `::-webkit-scrollbar:hover`: valid in browsers.
        true
    }
}

impl ToCss for PseudoElement {
    fn to_css<W: fmt::Write>(&self, dest: &mut W) -> fmt::Result {
        dest.write_str("::")?;
        dest.write_str(self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first_tag(html: &str, css: &str) -> Option<String> {
        let dom = Dom::parse(html);
        let sel = Selector::parse(css).expect("selector");
        sel.first(&dom).and_then(|id| {
            dom.element(id)
                .map(|e| format!("{}#{}", e.local(), e.attr(&local_name!("id")).unwrap_or("")))
        })
    }

    #[test]
    fn structural_selectors() {
        let html = "<div id=a><p id=b></p><span id=c></span><span id=d></span></div>";
        assert_eq!(
            first_tag(
                html,
                ":root > body:nth-child(2) > div:nth-child(1) > span:nth-child(3)"
            )
            .as_deref(),
            Some("span#d")
        );
        assert_eq!(first_tag(html, "#c").as_deref(), Some("span#c"));
        assert_eq!(first_tag(html, "[id=d]").as_deref(), Some("span#d"));
        assert_eq!(first_tag(html, "div > :not(p)").as_deref(), Some("span#c"));
        assert_eq!(first_tag(html, ":root").as_deref(), Some("html#"));
        assert_eq!(first_tag(html, "div:has(> p)").as_deref(), Some("div#a"));
        assert!(first_tag(html, "table").is_none());
    }

    #[test]
    fn split_class_names_match_as_the_attribute_does() {
        let html = "<div class='  a\tB  long-class-name-here '><p class=c><b class=''><i></i></b></p></div>";
        let dom = Dom::parse(html);
        let classes = ClassNames::new(&dom);
        let names = ["a", "B", "b", "long-class-name-here", "c", "", "x"];
        let selectors: Vec<Selector> = ["div .c b", ".a i", ".b", ".B > p", ".c i"]
            .iter()
            .map(|s| Selector::parse(s).expect("selector"))
            .collect();
        for (id, _) in dom.elements() {
            let plain = ElementRef::new(&dom, id).expect("element");
            let split = ElementRef::with_classes(&dom, id, &classes).expect("element");
            for name in names {
                for case in [
                    CaseSensitivity::CaseSensitive,
                    CaseSensitivity::AsciiCaseInsensitive,
                ] {
                    let name = CssName::from(name);
                    assert_eq!(
                        selectors::Element::has_class(&plain, &name, case),
                        selectors::Element::has_class(&split, &name, case),
                    );
                }
            }
            for sel in &selectors {
                assert_eq!(sel.matches(&dom, id), sel.matches_element(split));
            }
        }
        assert_eq!(classes.of(NodeId::DOCUMENT), &[] as &[LocalName]);
    }

    #[test]
    fn bad_selectors_are_errors() {
        let err = Selector::parse("div >> ").unwrap_err();
        assert!(err.to_string().contains("div >>"));
    }
}
