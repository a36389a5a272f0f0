//! The tree a person sees: shadow roots and frames put in place after the parse.
//!
//! Declarative shadow roots (`<template shadowrootmode=open|closed>`,
//! <https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead>) arrive from the
//! tree builder as a host and a fragment ([`super::sink`]); `srcdoc` frames are documents of
//! their own. Every later stage (style, names, the walk, query, read) walks child links, so
//! here the arena is rearranged into the *flattened* tree
//! (<https://drafts.csswg.org/css-scoping/#flat-tree>) once, instead of teaching each stage:
//!
//! - a shadow host's children become its shadow root's children; each `<slot>` holds the
//!   host's children assigned to it (by `slot=` name, the rest to the default slot) or, when
//!   none is, keeps its own fallback content; light children no slot takes are not rendered,
//!   so they leave the tree (<https://dom.spec.whatwg.org/#find-a-slot>);
//! - an `<iframe srcdoc>` holds the `<html>` of the document parsed from `srcdoc`; any
//!   `<iframe>`'s own text (raw text a browser never renders) leaves the tree.
//!
//! What the flattened tree loses, tree scopes, is kept beside it: every node has the number
//! of its tree (0 the page, then one per shadow root and per frame document), so that IDs,
//! `<label for>` and style sheets resolve within their own tree only ([`Dom::scope`]).

use html5ever::local_name;

use super::sink::{append, detach};
use super::{Attr, Dom, Node, NodeData, NodeId, StrSpan, Threads};

/// Frames nested deeper than this are left empty (an `iframe` line without content).
/// Each level's `srcdoc` is an attribute of the one above it, so the bytes parsed grow with
/// depth; browsers bound nesting too (Firefox shows 10 levels).
pub const MAX_FRAME_DEPTH: u32 = 4;

/// Elements that may carry a shadow root: a valid custom element name or one of these
/// (<https://dom.spec.whatwg.org/#dom-element-attachshadow>, step "valid shadow host name").
pub(super) fn valid_shadow_host(local: &str) -> bool {
    const HOSTS: &[&str] = &[
        "article",
        "aside",
        "blockquote",
        "body",
        "div",
        "footer",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "header",
        "main",
        "nav",
        "p",
        "section",
        "span",
    ];
    HOSTS.contains(&local) || custom_element_name(local)
}

/// <https://html.spec.whatwg.org/multipage/custom-elements.html#valid-custom-element-name>,
/// the part a parsed (lower-case) tag name can fail: a hyphen after a leading letter, and
/// not one of the reserved SVG and MathML names.
fn custom_element_name(local: &str) -> bool {
    const RESERVED: &[&str] = &[
        "annotation-xml",
        "color-profile",
        "font-face",
        "font-face-format",
        "font-face-name",
        "font-face-src",
        "font-face-uri",
        "missing-glyph",
    ];
    local.starts_with(|c: char| c.is_ascii_lowercase())
        && local.contains('-')
        && !RESERVED.contains(&local)
}

impl Dom {
    /// The tree scope of a node: 0 for the page, another number for each shadow root's and
    /// each frame document's tree.
    pub fn scope(&self, id: NodeId) -> u32 {
        self.scopes.get(id.index()).copied().unwrap_or(0)
    }

    /// Whether the page has shadow roots or frame documents (more than one tree scope).
    pub fn has_scopes(&self) -> bool {
        !self.scopes.is_empty()
    }

    /// The parent of `id` in its own tree: its nearest ancestor of the same tree scope. For a
    /// node a slot took that is its host (the slot and what holds it belong to the shadow
    /// tree, which a selector's combinators must not see); `None` at the top of a shadow
    /// tree or a frame's document.
    pub fn scoped_parent(&self, id: NodeId) -> Option<NodeId> {
        let parent = self.node(id).parent?;
        if self.scopes.is_empty() {
            return Some(parent);
        }
        let scope = self.scope(id);
        std::iter::successors(Some(parent), |&p| self.node(p).parent)
            .find(|&p| self.scope(p) == scope)
    }

    /// Puts shadow roots and `srcdoc` frames in place (see the module documentation).
    /// `frame_depth` is how deep in frames this document is; `budget` the `srcdoc` bytes its
    /// frames may still parse, shared with the frames inside them.
    pub(super) fn compose(&mut self, threads: Threads, frame_depth: u32, budget: &mut usize) {
        let shadows = std::mem::take(&mut self.shadows);
        if !shadows.is_empty() {
            self.scopes = vec![0; self.nodes.len()];
            // Scopes first: a nested root is not linked into its outer tree until that tree
            // is flattened, so each root's descendants are exactly its own tree.
            for (k, &(_, root)) in shadows.iter().enumerate() {
                let scope = u32::try_from(k + 1).unwrap_or(u32::MAX);
                self.scopes[root.index()] = scope;
                let tree: Vec<NodeId> = self.descendants(root).collect();
                for d in tree {
                    self.scopes[d.index()] = scope;
                }
            }
            self.scope_count = u32::try_from(shadows.len() + 1).unwrap_or(u32::MAX);
            // In document order, outer trees first: a root's slots are found before any
            // inner host's content is linked below them.
            for (host, root) in shadows {
                self.flatten(host, root);
            }
        }
        self.frames(threads, frame_depth, budget);
    }

    /// Replaces `host`'s children with `root`'s, its light children moved into their slots.
    fn flatten(&mut self, host: NodeId, root: NodeId) {
        let iframe_or_template = |e: &super::Element<'_>| {
            e.is_html(&local_name!("template")) || e.is_html(&local_name!("iframe"))
        };
        // The first slot of each name, in tree order (a later slot of the same name gets
        // nothing); a slot's name is its `name` attribute, "" for the default slot.
        let mut slots: Vec<(NodeId, String, Vec<NodeId>)> = Vec::new();
        let mut walk = self.descendants(root);
        while let Some(d) = walk.next() {
            let Some(el) = self.element(d) else { continue };
            if iframe_or_template(&el) {
                walk.skip_subtree(d);
                continue;
            }
            if el.is_html(&local_name!("slot")) {
                let name = el.attr(&local_name!("name")).unwrap_or_default();
                if !slots.iter().any(|(_, n, _)| n == name) {
                    slots.push((d, name.to_string(), Vec::new()));
                }
            }
        }
        let light: Vec<NodeId> = self.children(host).collect();
        for &c in &light {
            let name = match &self.node(c).data {
                NodeData::Element(e) => self
                    .element_of(e)
                    .attr(&local_name!("slot"))
                    .unwrap_or_default(),
                NodeData::Text(_) => "",
                _ => continue,
            };
            if let Some((_, _, taken)) = slots.iter_mut().find(|(_, n, _)| n == name) {
                taken.push(c);
            }
        }
        for c in light {
            detach(&mut self.nodes, c);
        }
        for (slot, _, taken) in slots {
            if taken.is_empty() {
                continue;
            }
            let fallback: Vec<NodeId> = self.children(slot).collect();
            for f in fallback {
                detach(&mut self.nodes, f);
            }
            for t in taken {
                append(&mut self.nodes, slot, t);
            }
        }
        let content: Vec<NodeId> = self.children(root).collect();
        for c in content {
            append(&mut self.nodes, host, c);
        }
    }

    /// Parses each `<iframe srcdoc>` of the tree and puts its document in place.
    fn frames(&mut self, threads: Threads, frame_depth: u32, budget: &mut usize) {
        let iframes: Vec<NodeId> = self
            .elements()
            .filter(|(_, e)| e.is_html(&local_name!("iframe")))
            .map(|(id, _)| id)
            .collect();
        for iframe in iframes {
            let fallback: Vec<NodeId> = self.children(iframe).collect();
            for f in fallback {
                detach(&mut self.nodes, f);
            }
            let Some(srcdoc) = self
                .element(iframe)
                .and_then(|e| e.attr(&local_name!("srcdoc")))
            else {
                continue;
            };
            if frame_depth >= MAX_FRAME_DEPTH || srcdoc.len() > *budget {
                continue;
            }
            *budget -= srcdoc.len();
            let srcdoc = srcdoc.to_string();
            let frame = Dom::parse_document(&srcdoc, threads, self.view, frame_depth + 1, budget);
            self.graft(iframe, frame);
        }
    }

    /// Appends `frame`'s arena to this one and its `<html>` to `iframe`; the frame keeps
    /// its tree scopes, numbered after this document's.
    fn graft(&mut self, iframe: NodeId, frame: Dom) {
        let node_base = self.nodes.len();
        let attr_base = u32::try_from(self.attrs.len()).unwrap_or(u32::MAX);
        let Ok(str_base) = u32::try_from(self.strings.len()) else {
            return;
        };
        // Positions stay u32: a frame that would not fit is left out, not wrapped.
        if u32::try_from(self.strings.len() + frame.strings.len()).is_err()
            || u32::try_from(node_base + frame.nodes.len()).is_err()
            || u32::try_from(self.attrs.len() + frame.attrs.len()).is_err()
        {
            return;
        }
        let shift = |id: NodeId| NodeId::from_index(id.index() + node_base);
        let span = |s: StrSpan| StrSpan {
            start: s.start + str_base,
            len: s.len,
        };
        if self.scopes.is_empty() {
            self.scopes = vec![0; node_base];
        }
        let scope_base = self.scope_count.max(1);
        self.scopes.extend(
            (0..frame.nodes.len())
                .map(|i| scope_base.saturating_add(frame.scopes.get(i).copied().unwrap_or(0))),
        );
        self.scope_count = scope_base.saturating_add(frame.scope_count.max(1));
        self.strings.push_str(&frame.strings);
        self.attrs.extend(frame.attrs.into_iter().map(|a| Attr {
            name: a.name,
            value: span(a.value),
        }));
        self.nodes.extend(frame.nodes.into_iter().map(|n| Node {
            parent: n.parent.map(shift),
            first_child: n.first_child.map(shift),
            last_child: n.last_child.map(shift),
            prev_sibling: n.prev_sibling.map(shift),
            next_sibling: n.next_sibling.map(shift),
            data: match n.data {
                NodeData::Text(s) => NodeData::Text(span(s)),
                NodeData::Comment(s) => NodeData::Comment(span(s)),
                NodeData::Element(mut e) => {
                    e.first_attr = e.first_attr.saturating_add(attr_base);
                    e.template_contents = e.template_contents.map(shift);
                    NodeData::Element(e)
                }
                other => other,
            },
        }));
        self.elements += frame.elements;
        self.parse_errors += frame.parse_errors;
        let frame_root = NodeId::from_index(node_base);
        let html = self
            .children(frame_root)
            .find(|&c| self.element(c).is_some());
        if let Some(html) = html {
            append(&mut self.nodes, iframe, html);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(dom: &Dom, root: NodeId) -> String {
        dom.descendants(root)
            .filter_map(|d| dom.text(d))
            .collect::<Vec<_>>()
            .join("|")
    }

    #[test]
    fn slotted_children_go_where_their_slot_is() {
        let dom = Dom::parse(
            "<x-card><template shadowrootmode=open><h2><slot name=title>No title</slot></h2>\
             <p><slot>No body</slot></p><slot name=foot>No foot</slot></template>\
             <span slot=title>Title</span>Body<span slot=nowhere>Lost</span></x-card>",
        );
        let body = dom.body().expect("body");
        assert_eq!(text_of(&dom, body), "Title|Body|No foot");
        let h2 = dom
            .elements()
            .find(|(_, e)| e.is_html(&local_name!("h2")))
            .map(|(id, _)| id)
            .expect("h2");
        assert_ne!(dom.scope(h2), 0);
        let title = dom
            .elements()
            .find(|(_, e)| e.attr(&local_name!("slot")) == Some("title"))
            .map(|(id, _)| id)
            .expect("slotted span");
        assert_eq!(dom.scope(title), 0);
        let host = dom
            .elements()
            .find(|(_, e)| &**e.local() == "x-card")
            .map(|(id, _)| id);
        assert_eq!(
            dom.scoped_parent(title),
            host,
            "its flat parent is the slot"
        );
        assert_eq!(dom.scoped_parent(h2), None, "the top of the shadow tree");
    }

    #[test]
    fn a_second_shadow_root_and_an_invalid_host_stay_templates() {
        // <a> cannot host a shadow root; a host takes only its first declarative root.
        let dom = Dom::parse(
            "<a href=/><template shadowrootmode=open>A</template>a</a>\
             <div><template shadowrootmode=open>one</template>\
             <template shadowrootmode=open>two</template></div>",
        );
        assert_eq!(text_of(&dom, dom.body().expect("body")), "a|one");
    }

    #[test]
    fn srcdoc_frames_are_parsed_in_place_and_bounded() {
        let dom = Dom::parse(
            "<iframe srcdoc='<p>in frame</p>'>fallback</iframe><iframe src=/x>text</iframe>",
        );
        assert_eq!(text_of(&dom, dom.body().expect("body")), "in frame");
        // srcdoc inside srcdoc, deeper than the limit: the deepest frames stay empty (the
        // byte budget stops deep nesting of large documents sooner: tests/hostile.rs).
        let mut html = String::from("<p>bottom</p>");
        for _ in 0..10 {
            html = format!(
                "<iframe srcdoc=\"{}\"></iframe>",
                html.replace('&', "&amp;").replace('"', "&quot;")
            );
        }
        let dom = Dom::parse(&html);
        let frames = dom
            .elements()
            .filter(|(_, e)| e.is_html(&local_name!("iframe")))
            .count();
        assert_eq!(frames, MAX_FRAME_DEPTH as usize + 1);
        assert!(!text_of(&dom, NodeId::DOCUMENT).contains("bottom"));
    }
}
