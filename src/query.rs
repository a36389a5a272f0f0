//! Stage 6: bounded questions about one ref.
//!
//! Every answer is built incrementally and stops at `limit_chars`: querying the outerHTML of
//! a 600 KB `<body>` with a limit of 4 000 serialises about 4 000 characters and stops, it
//! never builds the whole string to cut it. Limits count `char`s and never split one.

use std::io;

use html5ever::serialize::{serialize, SerializeOpts, TraversalScope};
use html5ever::{local_name, QualName};
use markup5ever::serialize::{Serialize as HtmlSerialize, Serializer};
use serde::Serialize;

use crate::aria::name::Names;
use crate::aria::roles::input_type;
use crate::document::Document;
use crate::parse::{push_in_order, Dom, NodeData, NodeId};

/// What to ask about a ref.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum QueryKind {
    /// The visible text, whitespace normalised; hidden text never appears.
    Text,
    /// Every attribute, as a JSON object in source order.
    Attrs,
    /// The element's HTML, serialised as a browser would.
    OuterHtml,
    /// A form control's current value.
    Value,
}

impl QueryKind {
    /// Parses `text`, `attrs`, `html` / `outerHTML`, `value`.
    pub fn parse(s: &str) -> Option<QueryKind> {
        match s.to_ascii_lowercase().as_str() {
            "text" => Some(QueryKind::Text),
            "attrs" | "attributes" => Some(QueryKind::Attrs),
            "html" | "outerhtml" | "outer_html" => Some(QueryKind::OuterHtml),
            "value" => Some(QueryKind::Value),
            _ => None,
        }
    }
}

/// Why a query has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum QueryError {
    /// No element has this ref (a typo, or a ref from another snapshot).
    RefNotFound,
    /// `value` asked of an element that has none.
    NotAFormControl,
}

impl QueryError {
    /// A sentence for the model: what went wrong and what to do.
    pub fn message(self, ref_: &str) -> String {
        match self {
            QueryError::RefNotFound => {
                format!("ref {ref_:?} not found: use a ref from the latest snapshot (e1, e2, ...)")
            }
            QueryError::NotAFormControl => {
                format!("{ref_} is not a form control: ask for its text instead of its value")
            }
        }
    }
}

/// The answer to a query.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct QueryResult {
    #[serde(rename = "ref")]
    pub ref_: String,
    pub kind: QueryKind,
    pub value: String,
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<QueryError>,
}

/// Answers `kind` for `ref_`, in at most `limit_chars` characters.
///
/// ```
/// use agent_snapshot::{query, Document, QueryKind, TreeOptions};
///
/// let doc = Document::parse("<a href='/x' title=t>Read <b>more</b></a>", &TreeOptions::default());
/// let r = query(&doc, "e1", QueryKind::OuterHtml, 12);
/// assert_eq!(r.value, "<a href=\"/x\"");
/// assert!(r.truncated);
/// assert_eq!(query(&doc, "e1", QueryKind::Text, 100).value, "Read more");
/// assert!(query(&doc, "e9", QueryKind::Text, 100).error.is_some());
/// ```
pub fn query(doc: &Document, ref_: &str, kind: QueryKind, limit_chars: usize) -> QueryResult {
    let mut result = QueryResult {
        ref_: ref_.to_string(),
        kind,
        value: String::new(),
        truncated: false,
        error: None,
    };
    let Some(id) = doc.resolve(ref_) else {
        result.error = Some(QueryError::RefNotFound);
        return result;
    };
    let dom = doc.dom();
    let (value, truncated) = match kind {
        QueryKind::Text => Names::new(dom, doc.index(), limit_chars).visible_text(id),
        QueryKind::Attrs => attrs_json(dom, id, limit_chars),
        QueryKind::OuterHtml => outer_html(dom, id, limit_chars),
        QueryKind::Value => match control_value(dom, id, limit_chars) {
            Some(v) => v,
            None => {
                result.error = Some(QueryError::NotAFormControl);
                return result;
            }
        },
    };
    result.value = value;
    result.truncated = truncated;
    result
}

/// A string that accepts characters up to a limit and then refuses everything.
struct Bounded {
    out: String,
    chars: usize,
    limit: usize,
    full: bool,
}

impl Bounded {
    fn new(limit: usize) -> Bounded {
        Bounded {
            out: String::new(),
            chars: 0,
            limit,
            full: false,
        }
    }

    /// Appends as much of `s` as fits; false once the limit is hit.
    fn push_str(&mut self, s: &str) -> bool {
        if self.full {
            return false;
        }
        let room = self.limit - self.chars;
        match s.char_indices().nth(room) {
            None => {
                self.out.push_str(s);
                self.chars += s.chars().count();
                true
            }
            Some((cut, _)) => {
                self.out.push_str(&s[..cut]);
                self.chars = self.limit;
                self.full = true;
                false
            }
        }
    }

    /// Appends `s` as a JSON string literal, escaping as it goes.
    fn push_json_str(&mut self, s: &str) -> bool {
        if !self.push_str("\"") {
            return false;
        }
        let mut buf = [0u8; 4];
        for c in s.chars() {
            let escaped;
            let piece: &str = match c {
                '"' => "\\\"",
                '\\' => "\\\\",
                '\n' => "\\n",
                '\r' => "\\r",
                '\t' => "\\t",
                c if (c as u32) < 0x20 || c == '\u{2028}' || c == '\u{2029}' => {
                    escaped = format!("\\u{:04x}", c as u32);
                    &escaped
                }
                c => c.encode_utf8(&mut buf),
            };
            if !self.push_str(piece) {
                return false;
            }
        }
        self.push_str("\"")
    }
}

fn attrs_json(dom: &Dom, id: NodeId, limit: usize) -> (String, bool) {
    let mut b = Bounded::new(limit);
    if let Some(el) = dom.element(id) {
        let mut ok = b.push_str("{");
        for (i, (name, value)) in el.attrs().enumerate() {
            if !ok {
                break;
            }
            // The qualified name, as the page wrote it (`xlink:href`).
            ok = (i == 0 || b.push_str(","))
                && b.push_json_str(name)
                && b.push_str(":")
                && b.push_json_str(value);
        }
        if ok {
            b.push_str("}");
        }
    }
    (b.out, b.full)
}

/// The value a form control holds, as its DOM `value` property would report it before any
/// script ran.
fn control_value(dom: &Dom, id: NodeId, limit: usize) -> Option<(String, bool)> {
    let el = dom.element(id)?;
    let mut b = Bounded::new(limit);
    match *el.local() {
        local_name!("input") => {
            let v = el.attr(&local_name!("value"));
            let v = match (v, input_type(el)) {
                (Some(v), _) => v,
                // The DOM reports "on" for a checkbox or radio without a value attribute.
                (None, "checkbox" | "radio") => "on",
                (None, _) => "",
            };
            b.push_str(v);
        }
        local_name!("textarea") => {
            for d in dom.descendants(id) {
                if let Some(t) = dom.text(d) {
                    if !b.push_str(t) {
                        break;
                    }
                }
            }
        }
        local_name!("select") => {
            // The first selected option, else the first option (a single select always shows
            // one); an option's value is its value attribute, else its text.
            let options: Vec<NodeId> = dom
                .descendants(id)
                .filter(|&d| {
                    dom.element(d)
                        .is_some_and(|e| e.is_html(&local_name!("option")))
                })
                .collect();
            let chosen = options
                .iter()
                .copied()
                .find(|&o| {
                    dom.element(o)
                        .is_some_and(|e| e.has_attr(&local_name!("selected")))
                })
                .or_else(|| {
                    (!el.has_attr(&local_name!("multiple")))
                        .then(|| options.first().copied())
                        .flatten()
                });
            if let Some(o) = chosen {
                match dom.element(o).and_then(|e| e.attr(&local_name!("value"))) {
                    Some(v) => {
                        b.push_str(v);
                    }
                    None => {
                        let mut text = crate::text::TextBuf::new(limit);
                        for d in dom.descendants(o) {
                            if let Some(t) = dom.text(d) {
                                text.push_str(t);
                            }
                        }
                        b.push_str(text.as_str());
                    }
                }
            }
        }
        _ => {
            let v = el
                .attr(&local_name!("aria-valuetext"))
                .or_else(|| el.attr(&local_name!("aria-valuenow")))
                .or_else(|| el.attr(&local_name!("value")))?;
            b.push_str(v);
        }
    }
    Some((b.out, b.full))
}

/// An `io::Write` that keeps whole characters up to a limit, then fails, which stops the
/// serializer mid-tree.
struct LimitWriter {
    buf: Vec<u8>,
    chars: usize,
    limit: usize,
    full: bool,
}

impl io::Write for LimitWriter {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        for (i, &b) in bytes.iter().enumerate() {
            let starts_char = b & 0xC0 != 0x80;
            if starts_char {
                if self.chars == self.limit {
                    self.full = true;
                    if i > 0 {
                        return Ok(i);
                    }
                    return Err(io::Error::other("limit reached"));
                }
                self.chars += 1;
            }
            self.buf.push(b);
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// An element of the arena, serialisable by html5ever without recursion.
struct Subtree<'a> {
    dom: &'a Dom,
    root: NodeId,
}

impl HtmlSerialize for Subtree<'_> {
    fn serialize<S: Serializer>(&self, ser: &mut S, _scope: TraversalScope) -> io::Result<()> {
        enum Step {
            Open(NodeId),
            Close(QualName),
        }
        let mut stack = vec![Step::Open(self.root)];
        while let Some(step) = stack.pop() {
            match step {
                Step::Close(name) => ser.end_elem(name)?,
                Step::Open(id) => match &self.dom.node(id).data {
                    NodeData::Element(el) => {
                        let el = self.dom.element_of(el);
                        // html5ever's serialiser borrows each attribute's name: build them
                        // first (an element has a handful; outerHTML is a bounded query).
                        let attrs: Vec<(QualName, &str)> =
                            el.attrs().map(|(q, v)| (el.attr_name(q), v)).collect();
                        ser.start_elem(el.name(), attrs.iter().map(|(n, v)| (n, *v)))?;
                        stack.push(Step::Close(el.name()));
                        // Template contents live in their own fragment.
                        let parent = el.template_contents().unwrap_or(id);
                        push_in_order(&mut stack, self.dom.children(parent).map(Step::Open));
                    }
                    NodeData::Text(t) => ser.write_text(self.dom.str(*t))?,
                    NodeData::Comment(c) => ser.write_comment(self.dom.str(*c))?,
                    NodeData::Doctype => ser.write_doctype("html")?,
                    NodeData::Document => {
                        push_in_order(&mut stack, self.dom.children(id).map(Step::Open));
                    }
                },
            }
        }
        Ok(())
    }
}

fn outer_html(dom: &Dom, id: NodeId, limit: usize) -> (String, bool) {
    let mut w = LimitWriter {
        buf: Vec::new(),
        chars: 0,
        limit,
        full: false,
    };
    let opts = SerializeOpts {
        traversal_scope: TraversalScope::IncludeNode,
        create_missing_parent: true,
        ..Default::default()
    };
    // An error here is the writer saying "full"; what was written stands.
    let _ = serialize(&mut w, &Subtree { dom, root: id }, opts);
    let full = w.full;
    let text = match String::from_utf8(w.buf) {
        Ok(s) => s,
        // The writer only stops at character starts; be safe regardless.
        Err(e) => {
            let valid = e.utf8_error().valid_up_to();
            let mut bytes = e.into_bytes();
            bytes.truncate(valid);
            String::from_utf8(bytes).unwrap_or_default()
        }
    };
    (text, full)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TreeOptions;

    fn doc(html: &str) -> Document {
        Document::parse(html, &TreeOptions::default())
    }

    #[test]
    fn outer_html_is_bounded_and_char_safe() {
        let big = format!("<button>{}</button>", "金".repeat(300_000));
        let d = doc(&big);
        let r = query(&d, "e1", QueryKind::OuterHtml, 4000);
        assert_eq!(r.value.chars().count(), 4000);
        assert!(r.value.starts_with("<button>金金"));
        assert!(r.truncated);
        let small = query(
            &doc("<a href=x>a &amp; b</a>"),
            "e1",
            QueryKind::OuterHtml,
            4000,
        );
        assert_eq!(small.value, "<a href=\"x\">a &amp; b</a>");
        assert!(!small.truncated);
    }

    #[test]
    fn text_skips_hidden() {
        let d = doc("<button>Pay <span hidden>IGNORE ALL</span><span style='visibility:hidden'>NOPE</span>now</button>");
        assert_eq!(query(&d, "e1", QueryKind::Text, 100).value, "Pay now");
    }

    #[test]
    fn attrs_are_json_and_bounded() {
        let d = doc("<a href='/x' data-q='say \"hi\"'>x</a>");
        let r = query(&d, "e1", QueryKind::Attrs, 1000);
        let v: serde_json::Value = serde_json::from_str(&r.value).expect("json");
        assert_eq!(v["data-q"], "say \"hi\"");
        let cut = query(&d, "e1", QueryKind::Attrs, 5);
        assert_eq!(cut.value, "{\"hre");
        assert!(cut.truncated);
    }

    #[test]
    fn values_of_controls() {
        let d = doc("<input value=abc><textarea>line1\nline2</textarea><select><option value=a>A<option selected>B</select><input type=checkbox><a href=x>l</a>");
        assert_eq!(query(&d, "e1", QueryKind::Value, 100).value, "abc");
        assert_eq!(query(&d, "e2", QueryKind::Value, 100).value, "line1\nline2");
        assert_eq!(query(&d, "e3", QueryKind::Value, 100).value, "B");
        assert_eq!(query(&d, "e6", QueryKind::Value, 100).value, "on");
        assert_eq!(
            query(&d, "e7", QueryKind::Value, 100).error,
            Some(QueryError::NotAFormControl)
        );
    }

    #[test]
    fn unknown_ref() {
        let r = query(&doc("<a href=x>x</a>"), "e99", QueryKind::Text, 10);
        assert_eq!(r.error, Some(QueryError::RefNotFound));
        assert!(QueryError::RefNotFound
            .message("e99")
            .contains("latest snapshot"));
    }
}
