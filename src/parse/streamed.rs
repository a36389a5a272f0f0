//! Streamed server rendering put in place: the content a page sent late, hidden at the end
//! of the document, moved to where it shows.
//!
//! React's streaming renderer (used by Next.js's App Router and most React frameworks since
//! React 18) sends a page in order, and where a part is not ready yet it sends a fallback
//! (often an empty skeleton) between the comments `<!--$?-->` and `<!--/$-->`, after a
//! `<template id="B:0">` that marks the place. When the part is ready it follows at the end
//! of the body as `<div hidden id="S:0">…</div>` with a one-line script, `$RC("B:0","S:0")`,
//! that swaps it in. A person never sees the hidden copy where it was sent: they see it in the
//! boundary's place, and an offline reader that runs no script saw a skeleton where the
//! page's text is and nothing of the text (a landing page read as "no main content").
//!
//! The swap is not page logic but a fixed, declarative protocol, so it is replayed here the way
//! the runtime does it (`react-dom`'s `ReactDOMFizzInstructionSetShared.js`,
//! `completeBoundary` and `completeSegment`), in the order the scripts run:
//!
//! - `$RC(boundary, segment)` and `$RR(boundary, segment, styles)`: the template and the
//!   fallback after it, up to the boundary's closing `<!--/$-->` (nested boundaries counted),
//!   leave the tree, and the segment's children take their place. With a third argument
//!   `$RC` reports an error and the client renders the boundary instead: nothing moves.
//! - `$RS(segment, placeholder)`: the segment's children go where the placeholder
//!   `<template id="P:0">` is, and the placeholder leaves.
//!
//! A call counts only after the page's own inline script has defined the function
//! (`$RC=function(…){…}`, as React writes its runtime into the page before the first call): a
//! bare `$RC("B:0","S:0")` fails in a browser, so the text it names stays hidden from people
//! there, and here (a page could otherwise plant hidden text for the model this way).
//! Anything else (`$RX`, the client-render instruction; a call whose arguments are not plain
//! string literals; an id the page does not have; the instructions as `<template data-rci>`
//! data, for React's external runtime, whose script is not in the page) leaves the tree as
//! parsed: what stays hidden stays out of the snapshot.
//!
//! Marko (eBay's pages) streams the same way with its `<await>` tag's client reordering
//! (`marko`'s `core-tags/core/await/client-reorder-runtime.js` and `reorderer-renderer.js`):
//! a placeholder `<span id="afph3">` where the part goes, the part later as
//! `<div id="af3" style=display:none>…</div>` and the call `$af(3)` (with a runtime id `M_1`:
//! `$afM_1`, `afM_13`, `afM_1ph3`), which moves the div's children in place of the
//! placeholder. `$af(3, "2")` waits until part 2 is in. The same rules hold: a call counts
//! after the page's own `function $af…(` has defined it, with a number or a plain string
//! literal as its arguments.

use std::collections::{HashMap, HashSet};

use html5ever::local_name;
use memchr::memmem;

use super::sink::{append, detach, insert_before};
use super::{Dom, NodeData, NodeId};

/// One swap the streaming runtime would make.
#[derive(Debug, PartialEq, Eq)]
enum Swap {
    /// `completeBoundary`: the segment's children replace the boundary's fallback.
    Boundary { boundary: String, segment: String },
    /// `completeSegment`: the segment's children replace the placeholder.
    Segment {
        segment: String,
        placeholder: String,
    },
    /// Marko's `$af(id, after)`: the children of `af{id}` replace `afph{id}`, once `after` (a
    /// part of the same runtime) is in. `runtime` is the function's name after `$`.
    Fragment {
        runtime: String,
        id: String,
        after: Option<String>,
        source: String,
        placeholder: String,
    },
}

impl Swap {
    /// The two ids the swap names.
    fn ids(&self) -> [&str; 2] {
        match self {
            Swap::Boundary { boundary, segment } => [boundary, segment],
            Swap::Segment {
                segment,
                placeholder,
            } => [segment, placeholder],
            Swap::Fragment {
                source,
                placeholder,
                ..
            } => [source, placeholder],
        }
    }
}

/// Longest id a swap names: React's are `B:`, `S:` or `P:` and a number, after the
/// application's optional identifier prefix.
const MAX_ID: usize = 128;

impl Dom {
    /// Replays the streaming runtime's swaps (see the module documentation). Pages without
    /// them cost one substring search over the page's strings.
    pub(super) fn complete_streamed(&mut self) {
        // One scan of every string the page holds answers most pages before any walk.
        let strings = self.strings.as_bytes();
        if memmem::find(strings, b"$R").is_none() && memmem::find(strings, b"$af").is_none() {
            return;
        }
        let swaps = self.swaps();
        if swaps.is_empty() {
            return;
        }
        let wanted: HashSet<&str> = swaps.iter().flat_map(Swap::ids).collect();
        // getElementById: the first element with the id, in tree order.
        let mut ids: HashMap<String, NodeId> = HashMap::new();
        for d in self.descendants(NodeId::DOCUMENT) {
            if let Some(id) = self.element(d).and_then(|e| e.attr(&local_name!("id"))) {
                if wanted.contains(id) && !ids.contains_key(id) {
                    ids.insert(id.to_string(), d);
                }
            }
        }
        // An element an earlier swap removed is not found any more.
        let attached = |dom: &Dom, id: &str| {
            ids.get(id)
                .copied()
                .filter(|&n| dom.node(n).parent.is_some())
        };
        // Marko's parts put in, and the calls waiting for one (`runtime`, `id` keys).
        let mut done: HashSet<(String, String)> = HashSet::new();
        let mut waiting: HashMap<(String, String), Vec<Swap>> = HashMap::new();
        let mut queue: std::collections::VecDeque<Swap> = swaps.into();
        while let Some(swap) = queue.pop_front() {
            match swap {
                Swap::Fragment {
                    runtime,
                    id,
                    after,
                    source,
                    placeholder,
                } => {
                    if let Some(after) =
                        after.filter(|a| !done.contains(&(runtime.clone(), a.clone())))
                    {
                        let key = (runtime.clone(), after);
                        waiting.entry(key).or_default().push(Swap::Fragment {
                            runtime,
                            id,
                            after: None,
                            source,
                            placeholder,
                        });
                        continue;
                    }
                    // The runtime reads the source's children whether or not a placeholder
                    // takes them (without one they leave the page): either way the source
                    // shows nothing more, so nothing moves without a placeholder.
                    let pair = (attached(self, &source), attached(self, &placeholder));
                    if let (Some(src), Some(place)) = pair {
                        // A placeholder inside its own part: the browser's replaceChild
                        // throws (an ancestor cannot go into itself) and nothing shows.
                        if self.holds(src, place) {
                            continue;
                        }
                        let moved: Vec<NodeId> = self.children(src).collect();
                        for c in moved {
                            insert_before(&mut self.nodes, place, c);
                        }
                        detach(&mut self.nodes, place);
                    }
                    let key = (runtime, id);
                    if let Some(next) = waiting.remove(&key) {
                        // Run before the calls after this one, as the runtime's loop does.
                        for w in next.into_iter().rev() {
                            queue.push_front(w);
                        }
                    }
                    done.insert(key);
                }
                Swap::Boundary { boundary, segment } => {
                    let Some(seg) = attached(self, &segment) else {
                        continue;
                    };
                    let mark = attached(self, &boundary);
                    if mark.is_some_and(|m| self.holds(seg, m)) {
                        continue;
                    }
                    detach(&mut self.nodes, seg);
                    if let Some(mark) = mark {
                        self.fill_boundary(mark, seg);
                    }
                }
                Swap::Segment {
                    segment,
                    placeholder,
                } => {
                    let (Some(seg), Some(place)) =
                        (attached(self, &segment), attached(self, &placeholder))
                    else {
                        continue;
                    };
                    if self.holds(seg, place) {
                        continue;
                    }
                    detach(&mut self.nodes, seg);
                    let moved: Vec<NodeId> = self.children(seg).collect();
                    for c in moved {
                        insert_before(&mut self.nodes, place, c);
                    }
                    detach(&mut self.nodes, place);
                }
            }
        }
    }

    /// `completeBoundary`: removes `mark` (the boundary's template) and its following
    /// siblings up to the boundary's closing comment, and puts `segment`'s children there.
    fn fill_boundary(&mut self, mark: NodeId, segment: NodeId) {
        let Some(parent) = self.node(mark).parent else {
            return;
        };
        let mut depth = 0u32;
        let mut at = Some(mark);
        let mut end = None;
        while let Some(n) = at {
            let next = self.node(n).next_sibling;
            if let NodeData::Comment(c) = self.node(n).data {
                match self.str(c) {
                    "/$" if depth == 0 => {
                        end = Some(n);
                        break;
                    }
                    "/$" => depth -= 1,
                    "$" | "$?" | "$!" => depth += 1,
                    _ => {}
                }
            }
            detach(&mut self.nodes, n);
            at = next;
        }
        let moved: Vec<NodeId> = self.children(segment).collect();
        for c in moved {
            match end {
                Some(end) => insert_before(&mut self.nodes, end, c),
                None => append(&mut self.nodes, parent, c),
            }
        }
    }

    /// The swaps the page's inline scripts ask for, in the order they run (document order),
    /// each after the script that defines its function.
    fn swaps(&self) -> Vec<Swap> {
        let finder = memmem::Finder::new("$R");
        let marko = memmem::Finder::new("$af");
        let mut swaps = Vec::new();
        // Marko's reorder functions defined so far (`af`, `afM_1`…).
        let mut reorders: HashSet<&str> = HashSet::new();
        // `$RC`, `$RR`, `$RS` defined so far.
        let mut defined = [false; 3];
        let slot = |kind: u8| match kind {
            b'C' => Some(0),
            b'R' => Some(1),
            b'S' => Some(2),
            _ => None,
        };
        for d in self.descendants(NodeId::DOCUMENT) {
            let Some(el) = self.element(d) else { continue };
            if !el.is_html(&local_name!("script")) || el.attr(&local_name!("src")).is_some() {
                continue;
            }
            for c in self.children(d) {
                let Some(text) = self.text(c) else { continue };
                for at in marko.find_iter(text.as_bytes()) {
                    let name = reorder_name(&text[at + 1..]);
                    let before = text[..at].trim_end();
                    if before.ends_with("function")
                        && !before[..before.len() - "function".len()]
                            .ends_with(|c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$')
                    {
                        reorders.insert(name);
                    } else if reorders.contains(name) {
                        swaps.extend(reorder_call(name, &text[at + 1 + name.len()..]));
                    }
                }
                for at in finder.find_iter(text.as_bytes()) {
                    let Some(k) = text.as_bytes().get(at + 2).copied().and_then(slot) else {
                        continue;
                    };
                    let rest = text.get(at + 3..).unwrap_or_default().trim_start();
                    if rest.starts_with('=') && !rest.starts_with("==") {
                        defined[k] = true;
                    } else if defined[k] {
                        swaps.extend(call(&text[at..]));
                    }
                }
            }
        }
        swaps
    }
}

/// The swap a call at the start of `src` (which starts with `$R`) makes, if it is one of the
/// runtime's instructions with string-literal arguments.
fn call(src: &str) -> Option<Swap> {
    let rest = src.get(2..)?;
    let (kind, rest) = rest.split_at_checked(1)?;
    let rest = rest.strip_prefix('(')?;
    let (first, rest) = literal(rest)?;
    let rest = rest.trim_start().strip_prefix(',')?.trim_start();
    let (second, rest) = literal(rest)?;
    let closes = rest.trim_start().starts_with(')');
    match kind {
        // A third argument to $RC is the error digest: the client renders that boundary
        // ($RR's third is its style sheets).
        "C" | "R" if closes || kind == "R" => Some(Swap::Boundary {
            boundary: first,
            segment: second,
        }),
        "S" if closes => Some(Swap::Segment {
            segment: first,
            placeholder: second,
        }),
        _ => None,
    }
}

/// The name of a Marko reorder function at the start of `src` (after its `$`): `af` and the
/// runtime id's identifier characters.
fn reorder_name(src: &str) -> &str {
    let end = src
        .char_indices()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
        .map_or(src.len(), |(i, _)| i);
    &src[..end]
}

/// The part a call `(id)` or `(id, "after")` of the reorder function `name` puts in, from
/// the text after the name; ids are numbers or plain string literals, as the renderer
/// writes them.
fn reorder_call(name: &str, src: &str) -> Option<Swap> {
    let rest = src.strip_prefix('(')?;
    let (id, rest) = literal(rest).or_else(|| number(rest))?;
    let rest = rest.trim_start();
    let (after, rest) = match rest.strip_prefix(',') {
        Some(rest) => {
            let (after, rest) = literal(rest).or_else(|| number(rest))?;
            (Some(after), rest)
        }
        None => (None, rest),
    };
    if !rest.trim_start().starts_with(')') {
        return None;
    }
    Some(Swap::Fragment {
        source: format!("{name}{id}"),
        placeholder: format!("{name}ph{id}"),
        runtime: name.to_string(),
        id,
        after,
    })
}

/// A non-negative integer literal at the start of `src`, and what follows it.
fn number(src: &str) -> Option<(String, &str)> {
    let src = src.trim_start();
    let end = src.find(|c: char| !c.is_ascii_digit()).unwrap_or(src.len());
    if end == 0 || end > MAX_ID {
        return None;
    }
    Some((src[..end].to_string(), &src[end..]))
}

/// A JavaScript string literal without escapes at the start of `src`, and what follows it.
fn literal(src: &str) -> Option<(String, &str)> {
    let src = src.trim_start();
    let quote = src.chars().next().filter(|&q| q == '"' || q == '\'')?;
    let body = &src[1..];
    let end = body.find(quote)?;
    let value = &body[..end];
    if end > MAX_ID || value.is_empty() || value.contains(['\\', '\n']) {
        return None;
    }
    Some((value.to_string(), &body[end + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body_text(dom: &Dom) -> String {
        let mut out = Vec::new();
        let mut walk = dom.descendants(NodeId::DOCUMENT);
        while let Some(d) = walk.next() {
            if let Some(e) = dom.element(d) {
                if e.is_html(&local_name!("script")) || e.attr(&local_name!("hidden")).is_some() {
                    walk.skip_subtree(d);
                }
            } else if let Some(t) = dom.text(d) {
                if !t.trim().is_empty() {
                    out.push(t.trim());
                }
            }
        }
        out.join("|")
    }

    #[test]
    fn a_completed_boundary_replaces_its_fallback() {
        let dom = Dom::parse(
            r#"<main><h1>Title</h1><!--$?--><template id="B:0"></template><p>Loading…</p><!--$--><p>nested</p><!--/$--><!--/$--><p>After</p></main>
            <div hidden id="S:0"><p>First paragraph</p><p>Second</p></div>
            <script>$RC=function(b,c,e){/* runtime */};$RC("B:0","S:0")</script>"#,
        );
        assert_eq!(body_text(&dom), "Title|First paragraph|Second|After");
    }

    #[test]
    fn segments_and_nested_boundaries_complete_in_script_order() {
        let dom = Dom::parse(
            r#"<div id="app">A<template id="P:1"></template>D</div>
            <div hidden id="S:1">B<!--$?--><template id="B:2"></template>…<!--/$--></div>
            <script>$RS=function(a,b){};$RC=function(b,c){};$RS("S:1","P:1")</script>
            <div hidden id="S:2">C</div>
            <script>$RC('B:2', 'S:2')</script>"#,
        );
        assert_eq!(body_text(&dom), "A|B|C|D");
    }

    #[test]
    fn an_errored_boundary_or_an_unknown_call_moves_nothing() {
        let page = r#"<p>Before</p><!--$?--><template id="B:0"></template><p>Loading</p><!--/$-->
            <div hidden id="S:0"><p>Secret</p></div>
            <script>$RC=function(b,c,e){};$RX=function(b){};
            $RC("B:0","S:0","digest");$RX("B:0","S:0");$RC(id,"S:0");$RC("B:\"0","S:0")</script>"#;
        let dom = Dom::parse(page);
        assert_eq!(body_text(&dom), "Before|Loading");
    }

    #[test]
    fn a_call_without_the_runtime_moves_nothing() {
        // In a browser a bare call throws and the text stays hidden; so it does here. So do
        // the external runtime's instruction templates, whose script is not in the page.
        let dom = Dom::parse(
            r#"<div><!--$?--><template id="B:0"></template>skeleton<!--/$--></div>
            <div hidden id="S:0">Planted</div>
            <script>$RC("B:0","S:0")</script>
            <template data-rci="" data-bid="B:0" data-sid="S:0"></template>
            <script>$RC=function(b,c){}</script>"#,
        );
        assert_eq!(body_text(&dom), "skeleton");
    }

    #[test]
    fn thousands_of_boundaries_complete_each_in_its_place() {
        // Ids are looked up in a set and a map: a page of 5 000 boundaries (a long feed
        // streamed item by item) is linear work, not a scan of every call per id.
        let n = 5000;
        let mut html = String::from("<script>$RC=function(b,c){}</script><ul>");
        for i in 0..n {
            html.push_str(&format!(
                "<li><!--$?--><template id=\"B:{i}\"></template>…<!--/$--></li>"
            ));
        }
        html.push_str("</ul>");
        for i in 0..n {
            html.push_str(&format!(
                "<div hidden id=\"S:{i}\">item{i}</div><script>$RC(\"B:{i}\",\"S:{i}\")</script>"
            ));
        }
        let dom = Dom::parse(&html);
        let text = body_text(&dom);
        let items: Vec<&str> = text.split('|').collect();
        assert_eq!(items.len(), n);
        assert_eq!(items[0], "item0");
        assert_eq!(items[n - 1], format!("item{}", n - 1));
    }

    #[test]
    fn marko_parts_replace_their_placeholders() {
        // As Marko's renderer writes them: the runtime once, then each part and its call.
        let runtime = "function $afM_1(d,a,e,l,g,h,k,b,f,c){c=$afM_1;/* reorder */}";
        let dom = Dom::parse(&format!(
            r#"<main><h1>Item</h1><span id="afM_1ph0"></span><p>Shipping</p><span id=afM_1ph1></span></main>
            <script>{runtime}</script>
            <div id="afM_11" style="display:none"><p>Reviews</p></div><script>$afM_1(1,"0")</script>
            <div id="afM_10" style="display:none"><p>Description</p></div><script>$afM_1(0)</script>"#
        ));
        // Part 1 waited for part 0, as `$af(1, "0")` does; each went to its placeholder.
        assert_eq!(body_text(&dom), "Item|Description|Shipping|Reviews");
    }

    #[test]
    fn a_marko_call_without_its_runtime_moves_nothing() {
        let dom = Dom::parse(
            r#"<div><span id=afph0></span>visible</div>
            <div id=af0 style=display:none><p>Planted</p></div><script>$af(0)</script>
            <script>function $af(d,a){}</script>"#,
        );
        // The placeholder stays and the part stays in its hidden source.
        let by_id = |id: &str| {
            dom.descendants(NodeId::DOCUMENT).find(|&d| {
                dom.element(d)
                    .and_then(|e| e.attr(&local_name!("id")))
                    .is_some_and(|v| v == id)
            })
        };
        assert!(by_id("afph0").is_some());
        let source = by_id("af0").expect("source");
        assert_eq!(dom.children(source).count(), 1);
        assert_eq!(
            reorder_call("af", r#"("x", "y")"#).map(|s| s.ids().map(str::to_owned)),
            Some(["afx".to_string(), "afphx".to_string()])
        );
        assert!(reorder_call("af", "(d,a)").is_none());
        assert!(reorder_call("af", "(1").is_none());
    }

    #[test]
    fn a_place_inside_its_own_part_moves_nothing() {
        // A browser throws there (a node cannot go into itself); moving would make a cycle.
        for page in [
            r#"<div id=af0 style=display:none><h1>x<span id=afph0></span></h1></div><p>after</p><script>function $af(d){}$af(0)</script>"#,
            r#"<div id="S:1" hidden><p>x<template id="P:1"></template></p></div><p>after</p><script>$RS=function(a,b){};$RS("S:1","P:1")</script>"#,
            r#"<div id="S:2" hidden><!--$?--><template id="B:2"></template>y<!--/$--></div><p>after</p><script>$RC=function(a,b){};$RC("B:2","S:2")</script>"#,
        ] {
            let dom = Dom::parse(page);
            // Every node of the arena, in the tree or not, reaches a root.
            for i in 0..dom.len() {
                let mut up = dom.node(NodeId::from_index(i)).parent;
                let mut steps = 0;
                while let Some(p) = up.filter(|_| steps <= dom.len()) {
                    up = dom.node(p).parent;
                    steps += 1;
                }
                assert!(steps <= dom.len(), "a cycle in {page}");
            }
            assert!(body_text(&dom).ends_with("after"), "{page}");
        }
    }

    #[test]
    fn a_call_parses_only_plain_string_literals() {
        assert_eq!(
            call(r#"$RC("B:1", "S:1")"#),
            Some(Swap::Boundary {
                boundary: "B:1".into(),
                segment: "S:1".into()
            })
        );
        assert_eq!(call(r#"$RC("B:1","S:1","e")"#), None);
        assert_eq!(call(r#"$RC=function(a,b){}"#), None);
        assert_eq!(call("$R"), None);
        assert_eq!(call("$Ré"), None);
        assert_eq!(call(r#"$RS("S:1""#), None);
    }
}
