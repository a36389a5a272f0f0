//! Rule index and cascade: which kept rules apply to each element, and which declaration wins.
//!
//! The index files each selector under one key of its rightmost compound selector, the one
//! that must match the element itself: its id, else a class, else an `[attribute=value]`,
//! else its tag, else an attribute name, else the universal list (as browsers' rule hashes
//! do). An element then tries only the rules filed under its own id, classes, attributes and
//! tag, plus the universal ones, instead of every rule of the page.

use foldhash::HashMap;

use html5ever::LocalName;
use precomputed_hash::PrecomputedHash;
use selectors::attr::{AttrSelectorOperator, ParsedCaseSensitivity};
use selectors::bloom::BloomFilter;
use selectors::context::{
    MatchingContext, MatchingForInvalidation, MatchingMode, NeedsSelectorFlags, QuirksMode,
    SelectorCaches,
};
use selectors::matching::{
    matches_compound_selector_from, matches_selector, CompoundSelectorMatchingResult,
};
use selectors::parser::{AncestorHashes, Combinator, Component};

use super::sheet::{Decl, Decls, Rule};
use crate::parse::select::{ClassNames, ElementRef, Impl};
use crate::parse::{Dom, NodeId};

/// Selectors with more compound parts than this are not matched in full: on a deep page each
/// part may retry every ancestor. Their hiding declarations apply wherever the rightmost part
/// matches (hiding too much is safe: hidden text must never reach the model), and their
/// other declarations are dropped. Real sheets stay far below (Bootstrap's longest: 6).
pub const MAX_COMPOUNDS: usize = 32;

/// Rules filed by the key of their rightmost compound selector.
#[derive(Default)]
pub struct RuleIndex {
    by_id: HashMap<Box<str>, Vec<u32>>,
    /// Keyed by the interned name: an element's classes are interned once ([`ClassNames`]).
    by_class: HashMap<LocalName, Vec<u32>>,
    by_tag: HashMap<LocalName, Vec<u32>>,
    /// `[name=value]` (case-sensitive values only), by name then value.
    by_attr_value: HashMap<LocalName, HashMap<Box<str>, Vec<u32>>>,
    /// `[name]`, `[name^=…]`…, by name.
    by_attr: HashMap<LocalName, Vec<u32>>,
    universal: Vec<u32>,
    /// Per rule matched on its rightmost compound only ([`MAX_COMPOUNDS`]): where that
    /// compound starts in parse order.
    rightmost_only: Vec<Option<usize>>,
}

impl RuleIndex {
    pub fn build(rules: &mut [Rule]) -> RuleIndex {
        let mut index = RuleIndex::default();
        for (i, rule) in rules.iter_mut().enumerate() {
            let i = i as u32;
            let compounds = 1 + rule
                .selector
                .iter_raw_match_order()
                .filter(
                    |c| matches!(c, Component::Combinator(c) if *c != Combinator::PseudoElement),
                )
                .count();
            let too_long = compounds > MAX_COMPOUNDS;
            if too_long {
                rule.decls = rule.decls.hiding_only();
            }
            let rightmost_start = rule.selector.len() - rule.selector.iter().count();
            index
                .rightmost_only
                .push(too_long.then_some(rightmost_start));
            let (mut id, mut class, mut tags) = (None, None, Vec::new());
            let (mut attr_value, mut attr) = (None, None);
            for c in rule.selector.iter() {
                match c {
                    Component::AttributeInNoNamespace {
                        local_name,
                        operator: AttrSelectorOperator::Equal,
                        value,
                        case_sensitivity:
                            ParsedCaseSensitivity::CaseSensitive
                            | ParsedCaseSensitivity::ExplicitCaseSensitive,
                    } => attr_value = Some((local_name.as_local(), value.as_ref())),
                    Component::AttributeInNoNamespace { local_name, .. } => {
                        attr = Some(local_name.as_local())
                    }
                    Component::AttributeInNoNamespaceExists {
                        local_name,
                        local_name_lower,
                    } if local_name == local_name_lower => attr = Some(local_name.as_local()),
                    Component::ID(name) => id = Some(name.as_str()),
                    Component::Class(name) if class.is_none() => class = Some(name.as_local()),
                    Component::LocalName(n) => {
                        tags.push(n.lower_name.as_local().clone());
                        if n.name != n.lower_name {
                            // SVG's camelCase names (`foreignObject`) match as written.
                            tags.push(n.name.as_local().clone());
                        }
                    }
                    _ => {}
                }
            }
            if let Some(id) = id {
                index.by_id.entry(id.into()).or_default().push(i);
            } else if let Some(class) = class {
                index.by_class.entry(class.clone()).or_default().push(i);
            } else if let Some((name, value)) = attr_value {
                index
                    .by_attr_value
                    .entry(name.clone())
                    .or_default()
                    .entry(value.into())
                    .or_default()
                    .push(i);
            } else if !tags.is_empty() {
                for t in tags {
                    index.by_tag.entry(t).or_default().push(i);
                }
            } else if let Some(name) = attr {
                index.by_attr.entry(name.clone()).or_default().push(i);
            } else {
                index.universal.push(i);
            }
        }
        index
    }

    /// The rules that may match `el`, each once (a rule filed under two tag spellings may
    /// come twice; the cascade's fold is the same either way).
    fn candidates(&self, el: crate::parse::Element<'_>, classes: &[LocalName], out: &mut Vec<u32>) {
        out.clear();
        out.extend_from_slice(&self.universal);
        if let Some(list) = self.by_tag.get(el.local()) {
            out.extend_from_slice(list);
        }
        if !self.by_id.is_empty() {
            if let Some(list) = el
                .attr(&html5ever::local_name!("id"))
                .and_then(|id| self.by_id.get(id))
            {
                out.extend_from_slice(list);
            }
        }
        if !self.by_attr.is_empty() || !self.by_attr_value.is_empty() {
            for (name, value) in el.attrs() {
                if let Some(list) = self.by_attr.get(name) {
                    out.extend_from_slice(list);
                }
                if let Some(list) = self.by_attr_value.get(name).and_then(|m| m.get(value)) {
                    out.extend_from_slice(list);
                }
            }
        }
        if !self.by_class.is_empty() {
            for c in classes {
                if let Some(list) = self.by_class.get(c) {
                    out.extend_from_slice(list);
                }
            }
        }
    }
}

/// Where a declaration stands in the cascade: a greater key wins
/// (<https://drafts.csswg.org/css-cascade-5/#cascade-sort>).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
struct Key {
    important: bool,
    /// The `style` attribute beats every rule of the same importance.
    inline: bool,
    /// Layer order: later layers win for normal declarations, earlier for important ones;
    /// unlayered rules count as the last layer.
    layer: u16,
    specificity: u32,
    order: u32,
}

impl Key {
    fn new(important: bool, inline: bool, layer: u16, specificity: u32, order: u32) -> Key {
        Key {
            important,
            inline,
            layer: if important { u16::MAX - layer } else { layer },
            specificity,
            order,
        }
    }
}

/// The winning declaration of each property for one element, with its key.
#[derive(Default)]
pub struct Cascaded {
    pub decls: Decls,
    keys: [Key; 6],
}

impl Cascaded {
    fn fold(&mut self, decls: &Decls, layer: u16, specificity: u32, order: u32, inline: bool) {
        fn one<T: Copy>(
            slot: &mut Option<Decl<T>>,
            key: &mut Key,
            new: Option<Decl<T>>,
            make: impl Fn(bool) -> Key,
        ) {
            if let Some(d) = new {
                let k = make(d.important);
                if slot.is_none() || k >= *key {
                    *slot = Some(d);
                    *key = k;
                }
            }
        }
        let make = |important| Key::new(important, inline, layer, specificity, order);
        let [k0, k1, k2, k3, k4, k5] = &mut self.keys;
        one(&mut self.decls.display, k0, decls.display, make);
        one(&mut self.decls.visibility, k1, decls.visibility, make);
        one(
            &mut self.decls.content_hidden,
            k2,
            decls.content_hidden,
            make,
        );
        one(
            &mut self.decls.text_transform,
            k3,
            decls.text_transform,
            make,
        );
        one(&mut self.decls.opacity_zero, k4, decls.opacity_zero, make);
        one(
            &mut self.decls.cursor_pointer,
            k5,
            decls.cursor_pointer,
            make,
        );
    }
}

/// Matches the rules against elements, reusing its buffers and caches.
///
/// Elements must come in document order ([`Dom::elements`]): the matcher keeps a Bloom
/// filter of the open ancestors' names, ids and classes, as browsers do, so a selector
/// like `.menu .item a` is rejected without walking up the tree when no ancestor can have
/// `.menu` (`selectors`' `AncestorHashes`; the filter never rejects a selector that matches).
pub struct Matcher<'r> {
    rules: &'r [Rule],
    classes: &'r ClassNames,
    index: &'r RuleIndex,
    caches: SelectorCaches,
    candidates: Vec<u32>,
    /// Per rule: the hashes of the names its selector needs among the ancestors.
    ancestor_hashes: Vec<AncestorHashes>,
    bloom: BloomFilter,
    /// The open ancestors of the next element, and where their hashes start in `hashes`.
    open: Vec<(NodeId, usize)>,
    hashes: Vec<u32>,
}

impl<'r> Matcher<'r> {
    /// A matcher of `rules` for the elements of the page `classes` were taken from.
    pub fn new(rules: &'r [Rule], index: &'r RuleIndex, classes: &'r ClassNames) -> Matcher<'r> {
        Matcher {
            rules,
            classes,
            index,
            caches: SelectorCaches::default(),
            candidates: Vec::new(),
            ancestor_hashes: rules
                .iter()
                .map(|r| AncestorHashes::new(&r.selector, QuirksMode::NoQuirks))
                .collect(),
            bloom: BloomFilter::new(),
            open: Vec::new(),
            hashes: Vec::new(),
        }
    }

    /// Makes the filter hold exactly the element ancestors of `id`: closes what the walk in
    /// document order has left, and (after matching) opens `id` itself.
    fn enter(&mut self, dom: &Dom, id: NodeId) {
        // The element's own tree: a matcher sees one tree scope's elements only.
        let parent = dom.scoped_parent(id);
        while let Some(&(top, start)) = self.open.last() {
            if Some(top) == parent {
                break;
            }
            for &h in &self.hashes[start..] {
                self.bloom.remove_hash(h);
            }
            self.hashes.truncate(start);
            self.open.pop();
        }
    }

    /// Adds `el`'s own names to the filter, for its descendants.
    fn open_element(&mut self, id: NodeId, el: crate::parse::Element<'_>) {
        let start = self.hashes.len();
        // The hashes `AncestorHashes` collects: local name, namespace, id and classes.
        self.hashes.push(el.local().precomputed_hash());
        self.hashes.push(el.ns().precomputed_hash());
        if let Some(v) = el.attr(&html5ever::local_name!("id")) {
            self.hashes.push(LocalName::from(v).precomputed_hash());
        }
        for class in self.classes.of(id) {
            self.hashes.push(class.precomputed_hash());
        }
        for &h in &self.hashes[start..] {
            self.bloom.insert_hash(h);
        }
        self.open.push((id, start));
    }

    /// The cascaded declarations of `id`: its matching rules, then its `style` attribute.
    pub fn cascade(&mut self, dom: &Dom, id: NodeId, inline: Option<&Decls>) -> Cascaded {
        let mut out = Cascaded::default();
        let Some(el) = dom.element(id) else {
            return out;
        };
        self.enter(dom, id);
        let Some(element) = ElementRef::with_classes(dom, id, self.classes) else {
            return out;
        };
        let mut candidates = std::mem::take(&mut self.candidates);
        self.index
            .candidates(el, self.classes.of(id), &mut candidates);
        let mut ctx = MatchingContext::<Impl>::new(
            MatchingMode::Normal,
            Some(&self.bloom),
            &mut self.caches,
            QuirksMode::NoQuirks,
            NeedsSelectorFlags::No,
            MatchingForInvalidation::No,
        );
        for &i in &candidates {
            let rule = &self.rules[i as usize];
            let matched = if let Some(start) = self.index.rightmost_only[i as usize] {
                !matches!(
                    matches_compound_selector_from(&rule.selector, start, &mut ctx, element),
                    CompoundSelectorMatchingResult::NotMatched
                )
            } else {
                let hashes = &self.ancestor_hashes[i as usize];
                matches_selector(&rule.selector, 0, Some(hashes), element, &mut ctx)
            };
            if matched {
                out.fold(
                    &rule.decls,
                    rule.layer,
                    rule.selector.specificity(),
                    rule.order,
                    false,
                );
            }
        }
        self.candidates = candidates;
        self.open_element(id, el);
        if let Some(inline) = inline {
            out.fold(inline, 0, 0, 0, true);
        }
        out
    }
}
