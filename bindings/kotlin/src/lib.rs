//! The crate's API for Kotlin/JVM (and Android), through UniFFI.
//!
//! This is the FFI layer: records and functions that UniFFI turns into the Kotlin package
//! `agentsnapshot.ffi`. The public Kotlin API (`AgentBrowser`, the option classes with the
//! design's defaults) is written by hand on top of it, in `kotlin/agentsnapshot/`.
//!
//! Kotlin has no unsigned sizes in its everyday API, so counts cross as `i32` and are
//! checked here: a negative budget is an error, not a wrap-around. Adding an option is a
//! field in one of the `*Options` records below, a line in its `to_crate` method, and the
//! same in the Kotlin class and its `toFfi()` (the tests compare both sides' defaults).

use std::sync::Arc;

use agent_snapshot::js::{self, Direction};
use agent_snapshot::{Document, Format, QueryError, TreeOptions};

uniffi::setup_scaffolding!();

/// What the crate reports as an error, by kind; the message is the crate's.
#[derive(Debug, thiserror::Error, uniffi::Error)]
#[uniffi(flat_error)]
pub enum AgentSnapshotError {
    /// The page has no `window.__agentBrowser` (it navigated since the script was injected):
    /// inject `getScript()` again, then retry.
    #[error("{0}")]
    NotInjected(String),
    /// What the in-page script returned (a snapshot, an action or a query result) is not
    /// what it should be: malformed, too large or too deep JSON.
    #[error("{0}")]
    BadScriptResult(String),
    /// An argument outside what the call accepts (a negative budget, an unknown encoding or
    /// scroll direction, a value that JSON cannot hold).
    #[error("{0}")]
    BadArgument(String),
}

type Result<T> = std::result::Result<T, AgentSnapshotError>;

impl From<agent_snapshot::Error> for AgentSnapshotError {
    fn from(e: agent_snapshot::Error) -> Self {
        use agent_snapshot::Error as E;
        let message = e.to_string();
        match e {
            E::NotInjected => AgentSnapshotError::NotInjected(message),
            E::TreeJson(_) | E::ScriptResult { .. } => AgentSnapshotError::BadScriptResult(message),
            E::UnknownEncoding(_) | E::BadArgument(_) => AgentSnapshotError::BadArgument(message),
        }
    }
}

fn bad_argument(message: String) -> AgentSnapshotError {
    AgentSnapshotError::BadArgument(message)
}

/// A count from Kotlin (`Int`) as a size; `name` is the Kotlin parameter, for the message.
fn size(name: &str, value: i32) -> Result<usize> {
    usize::try_from(value)
        .map_err(|_| bad_argument(format!("{name} must be 0 or more, not {value}")))
}

/// A size for Kotlin's `Int`; no count the crate reports comes near 2³¹, and one that did
/// would read as `Int.MAX_VALUE` rather than wrap negative.
fn int(value: usize) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX)
}

/// How the snapshot text is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, uniffi::Enum)]
pub enum OutputFormat {
    /// The indented tree models read (`- button "Buy" [ref=e5]`).
    PlainTextTree,
    /// The same lines as JSON objects, for programs.
    Json,
    /// One line per interactive element, no indentation: the cheapest element list.
    List,
}

impl From<OutputFormat> for Format {
    fn from(f: OutputFormat) -> Format {
        match f {
            OutputFormat::PlainTextTree => Format::Text,
            OutputFormat::Json => Format::Json,
            OutputFormat::List => Format::List,
        }
    }
}

/// Which browser the page is read as (`PageView` in Kotlin).
#[derive(Clone, Copy, Debug, PartialEq, Eq, uniffi::Enum)]
pub enum PageView {
    /// The scripted view, or the no-script view (what `<noscript>` shows) where the page
    /// shows far more there; the header then says `view=noscript`.
    Auto,
    /// A browser that runs scripts: `<noscript>` is never shown.
    Scripted,
    /// A browser that runs no scripts: `<noscript>` is shown.
    NoScript,
}

impl From<PageView> for Option<agent_snapshot::View> {
    fn from(v: PageView) -> Option<agent_snapshot::View> {
        match v {
            PageView::Auto => None,
            PageView::Scripted => Some(agent_snapshot::View::Scripted),
            PageView::NoScript => Some(agent_snapshot::View::NoScript),
        }
    }
}

impl From<Option<agent_snapshot::View>> for PageView {
    fn from(v: Option<agent_snapshot::View>) -> PageView {
        match v {
            None => PageView::Auto,
            Some(agent_snapshot::View::Scripted) => PageView::Scripted,
            Some(agent_snapshot::View::NoScript) => PageView::NoScript,
        }
    }
}

/// The budgets and switches of the renderer (`RenderOptions` in Kotlin).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct RenderOptions {
    pub max_chars_total: i32,
    pub max_nodes: i32,
    pub max_depth: i32,
    pub max_text_per_node: i32,
    pub max_attr_value_len: i32,
    pub max_siblings: i32,
    pub include_attrs: Vec<String>,
    pub compact: bool,
    pub format: OutputFormat,
}

impl RenderOptions {
    fn to_crate(&self) -> Result<agent_snapshot::RenderOptions> {
        Ok(agent_snapshot::RenderOptions {
            max_chars_total: size("maxCharsTotal", self.max_chars_total)?,
            max_nodes: size("maxNodes", self.max_nodes)?,
            max_depth: size("maxDepth", self.max_depth)?,
            max_text_per_node: size("maxTextPerNode", self.max_text_per_node)?,
            max_attr_value_len: size("maxAttrValueLen", self.max_attr_value_len)?,
            max_siblings: size("maxSiblings", self.max_siblings)?,
            include_attrs: self.include_attrs.clone(),
            compact: self.compact,
            format: self.format.into(),
        })
    }

    fn from_crate(o: &agent_snapshot::RenderOptions) -> RenderOptions {
        RenderOptions {
            max_chars_total: int(o.max_chars_total),
            max_nodes: int(o.max_nodes),
            max_depth: int(o.max_depth),
            max_text_per_node: int(o.max_text_per_node),
            max_attr_value_len: int(o.max_attr_value_len),
            max_siblings: int(o.max_siblings),
            include_attrs: o.include_attrs.clone(),
            compact: o.compact,
            format: match o.format {
                Format::Text => OutputFormat::PlainTextTree,
                Format::Json => OutputFormat::Json,
                Format::List => OutputFormat::List,
            },
        }
    }
}

/// The offline path's options: how HTML becomes a node tree (which refs), and how that
/// tree is rendered (`SnapshotOptions` in Kotlin).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct SnapshotOptions {
    pub render: RenderOptions,
    pub interactive_only: bool,
    pub cursor_interactive: bool,
    pub scope_selector: Option<String>,
    pub url: Option<String>,
    pub encoding: Option<String>,
    pub view: PageView,
}

impl SnapshotOptions {
    fn to_crate(&self) -> Result<(TreeOptions, agent_snapshot::RenderOptions)> {
        let render = self.render.to_crate()?;
        let tree = TreeOptions {
            interactive_only: self.interactive_only,
            cursor_interactive: self.cursor_interactive,
            max_text_per_node: render.max_text_per_node,
            // The tree keeps attributes at the crate's length; the renderer cuts them to the
            // caller's (what a query answers is not cut by the render budget).
            attrs: render.include_attrs.clone(),
            url: self.url.clone(),
            encoding: self.encoding.clone(),
            view: self.view.into(),
            ..TreeOptions::default()
        };
        Ok((tree, render))
    }
}

/// Options of the in-page `snapshot()` (`JsSnapshotOptions` in Kotlin).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct JsSnapshotOptions {
    pub max_nodes: i32,
    pub max_text_per_node: i32,
    pub max_attr_value_len: i32,
    pub interactive_only: bool,
    pub cursor_interactive: bool,
    pub scope: Option<String>,
}

impl JsSnapshotOptions {
    fn to_crate(&self) -> Result<js::JsSnapshotOptions> {
        Ok(js::JsSnapshotOptions {
            max_nodes: size("maxNodes", self.max_nodes)?,
            max_text_per_node: size("maxTextPerNode", self.max_text_per_node)?,
            max_attr_value_len: size("maxAttrValueLen", self.max_attr_value_len)?,
            interactive_only: self.interactive_only,
            cursor_interactive: self.cursor_interactive,
            scope: self.scope.clone(),
            // The page as HTML is for a host that runs the content stage on it (the live
            // agent); a WebView host renders the tree alone, its main content the landmark's.
            html: false,
        })
    }
}

/// The crate's defaults, for the Kotlin tests that check the Kotlin classes' defaults
/// against them.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct Defaults {
    pub snapshot: SnapshotOptions,
    pub render: RenderOptions,
    pub js_snapshot: JsSnapshotOptions,
}

/// The options the crate uses when given none.
#[uniffi::export]
pub fn crate_defaults() -> Defaults {
    let render = RenderOptions::from_crate(&agent_snapshot::RenderOptions::default());
    let tree = TreeOptions::default();
    let js = js::JsSnapshotOptions::default();
    Defaults {
        snapshot: SnapshotOptions {
            render: RenderOptions {
                include_attrs: tree.attrs,
                ..render.clone()
            },
            interactive_only: tree.interactive_only,
            cursor_interactive: tree.cursor_interactive,
            scope_selector: None,
            url: tree.url,
            encoding: tree.encoding,
            view: tree.view.into(),
        },
        render,
        js_snapshot: JsSnapshotOptions {
            max_nodes: int(js.max_nodes),
            max_text_per_node: int(js.max_text_per_node),
            max_attr_value_len: int(js.max_attr_value_len),
            interactive_only: js.interactive_only,
            cursor_interactive: js.cursor_interactive,
            scope: js.scope,
        },
    }
}

/// One attribute of a [`NodeRef`].
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct Attr {
    pub name: String,
    pub value: String,
}

/// A node's attributes in source order; a `Map<String, String>` in Kotlin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrList(pub Vec<Attr>);
uniffi::custom_newtype!(AttrList, Vec<Attr>);

/// What the model may ask about a ref shown in the text.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct NodeRef {
    /// `e1`, `e2`…
    pub ref_: String,
    pub tag: String,
    pub role: Option<String>,
    pub name: Option<String>,
    pub attrs: AttrList,
    pub text_snippet: Option<String>,
}

/// The refs shown in a snapshot, in document order; a `Map<String, NodeRef>` in Kotlin.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RefList(pub Vec<NodeRef>);
uniffi::custom_newtype!(RefList, Vec<NodeRef>);

/// What the renderer wrote, and whether (and why) a budget cut it.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct SnapshotStats {
    pub nodes_emitted: i32,
    pub chars_emitted: i32,
    pub truncated: bool,
    /// The options that cut the output: `maxCharsTotal`, `maxNodes`, `maxDepth`,
    /// `maxSiblings`.
    pub truncate_reasons: Vec<String>,
}

/// A rendered snapshot: the text for the model, the refs it shows, and what the budgets did.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct SnapshotResult {
    pub text: String,
    pub refs: RefList,
    pub stats: SnapshotStats,
}

impl From<agent_snapshot::SnapshotResult> for SnapshotResult {
    fn from(s: agent_snapshot::SnapshotResult) -> SnapshotResult {
        let refs = s
            .refs
            .iter()
            .map(|r| NodeRef {
                ref_: r.ref_.clone(),
                tag: r.tag.to_string(),
                role: r.role.as_ref().map(|x| x.to_string()),
                name: r.name.clone(),
                attrs: AttrList(
                    r.attrs
                        .iter()
                        .map(|(name, value)| Attr {
                            name: name.to_string(),
                            value: value.to_string(),
                        })
                        .collect(),
                ),
                text_snippet: r.text_snippet.clone(),
            })
            .collect();
        SnapshotResult {
            text: s.text,
            refs: RefList(refs),
            stats: SnapshotStats {
                nodes_emitted: int(s.stats.nodes_emitted),
                chars_emitted: int(s.stats.chars_emitted),
                truncated: s.stats.truncated,
                truncate_reasons: s
                    .stats
                    .truncate_reasons
                    .iter()
                    .map(|r| r.as_str().to_string())
                    .collect(),
            },
        }
    }
}

/// What to ask about a ref.
#[derive(Clone, Copy, Debug, PartialEq, Eq, uniffi::Enum)]
pub enum QueryKind {
    /// The visible text, whitespace normalised.
    Text,
    /// Every attribute, as a JSON object.
    Attrs,
    /// The element's HTML.
    OuterHtml,
    /// A form control's current value.
    Value,
    /// A few computed styles, as a JSON object: live pages only (`queryJs`).
    ComputedStyles,
}

impl QueryKind {
    /// The kind's name in the in-page script's `query()`.
    fn script_name(self) -> &'static str {
        match self {
            QueryKind::Text => "text",
            QueryKind::Attrs => "attrs",
            QueryKind::OuterHtml => "html",
            QueryKind::Value => "value",
            QueryKind::ComputedStyles => "computed_styles",
        }
    }

    fn from_script_name(name: &str) -> Option<QueryKind> {
        [
            QueryKind::Text,
            QueryKind::Attrs,
            QueryKind::OuterHtml,
            QueryKind::Value,
            QueryKind::ComputedStyles,
        ]
        .into_iter()
        .find(|k| k.script_name() == name)
    }

    fn to_crate(self) -> Result<agent_snapshot::QueryKind> {
        Ok(match self {
            QueryKind::Text => agent_snapshot::QueryKind::Text,
            QueryKind::Attrs => agent_snapshot::QueryKind::Attrs,
            QueryKind::OuterHtml => agent_snapshot::QueryKind::OuterHtml,
            QueryKind::Value => agent_snapshot::QueryKind::Value,
            QueryKind::ComputedStyles => {
                return Err(bad_argument(
                    "COMPUTED_STYLES needs a live page (queryJs): HTML alone has no layout"
                        .to_string(),
                ))
            }
        })
    }
}

/// The answer to a query, offline or live.
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct QueryResult {
    pub ref_: String,
    /// Absent only when the in-page script failed before answering (`error = "exception"`).
    pub kind: Option<QueryKind>,
    /// At most the limit asked for; empty when `error` is set.
    pub value: String,
    pub truncated: bool,
    /// `ref_not_found`, `not_a_form_control` (and live: `unknown_kind`, `exception`).
    pub error: Option<String>,
}

/// What an action did (`parseActionResult`).
#[derive(Clone, Debug, PartialEq, Eq, uniffi::Record)]
pub struct ActionResult {
    pub success: bool,
    pub action: Option<String>,
    /// `ref_not_found`, `not_visible`, `disabled`, `not_fillable`, `not_a_select_element`,
    /// `option_not_found`, `not_checkable`, `unknown_action`.
    pub error: Option<String>,
    pub ref_: Option<String>,
    /// The value after `fill` / `clear`.
    pub value: Option<String>,
    /// The state after `check` / `uncheck`.
    pub checked: Option<bool>,
    /// The values `select` selected.
    pub values: Option<Vec<String>>,
    /// Whether `focus` moved the focus.
    pub focused: Option<bool>,
}

/// A JSON value, for action parameters: Kotlin turns `Map<String, Any?>` into this, and the
/// crate's encoder writes it into the expression (no string pasting on either side). The
/// variants avoid Kotlin's type names (`Int`, `Array`…), which would shadow them inside the
/// generated sealed class.
#[derive(Clone, Debug, PartialEq, uniffi::Enum)]
pub enum JsonValue {
    Null,
    Bool {
        value: bool,
    },
    /// An integer (Kotlin `Int`, `Long`, `Short`, `Byte`).
    Integer {
        value: i64,
    },
    /// A floating-point number; NaN and infinities are not JSON and are refused.
    Decimal {
        value: f64,
    },
    Str {
        value: String,
    },
    Seq {
        items: Vec<JsonValue>,
    },
    /// Entries in the caller's order.
    Obj {
        entries: Vec<JsonEntry>,
    },
}

/// One entry of a [`JsonValue::Obj`].
#[derive(Clone, Debug, PartialEq, uniffi::Record)]
pub struct JsonEntry {
    pub key: String,
    pub value: JsonValue,
}

impl JsonValue {
    /// The serde value; iterative, so a deeply nested value costs heap, not stack.
    fn into_serde(self) -> Result<serde_json::Value> {
        use serde_json::Value;
        // A container being filled: its items so far and what is left to convert.
        enum Frame {
            Array(Vec<Value>, std::vec::IntoIter<JsonValue>),
            Object(
                serde_json::Map<String, Value>,
                Option<String>,
                std::vec::IntoIter<JsonEntry>,
            ),
        }
        let mut stack: Vec<Frame> = Vec::new();
        let mut next = Some(self);
        loop {
            // Convert `next` (a leaf, or open a container), then hand finished values up.
            let mut done = match next.take() {
                Some(JsonValue::Null) => Some(Value::Null),
                Some(JsonValue::Bool { value }) => Some(Value::Bool(value)),
                Some(JsonValue::Integer { value }) => Some(Value::from(value)),
                Some(JsonValue::Decimal { value }) => Some(Value::Number(
                    serde_json::Number::from_f64(value).ok_or_else(|| {
                        bad_argument(format!("{value} is not a JSON number: use a finite value"))
                    })?,
                )),
                Some(JsonValue::Str { value }) => Some(Value::String(value)),
                Some(JsonValue::Seq { items }) => {
                    stack.push(Frame::Array(
                        Vec::with_capacity(items.len()),
                        items.into_iter(),
                    ));
                    None
                }
                Some(JsonValue::Obj { entries }) => {
                    stack.push(Frame::Object(
                        serde_json::Map::new(),
                        None,
                        entries.into_iter(),
                    ));
                    None
                }
                None => None,
            };
            loop {
                let Some(top) = stack.last_mut() else {
                    return Ok(done.unwrap_or(Value::Null));
                };
                match top {
                    Frame::Array(items, rest) => {
                        items.extend(done.take());
                        if let Some(item) = rest.next() {
                            next = Some(item);
                            break;
                        }
                    }
                    Frame::Object(map, key, rest) => {
                        if let (Some(k), Some(v)) = (key.take(), done.take()) {
                            map.insert(k, v);
                        }
                        if let Some(entry) = rest.next() {
                            *key = Some(entry.key);
                            next = Some(entry.value);
                            break;
                        }
                    }
                }
                done = match stack.pop() {
                    Some(Frame::Array(items, _)) => Some(Value::Array(items)),
                    Some(Frame::Object(map, _, _)) => Some(Value::Object(map)),
                    None => None,
                };
            }
        }
    }
}

/// The in-page script (`agent-browser.js`, minified): inject it once per page.
#[uniffi::export]
pub fn script() -> String {
    js::script().to_string()
}

/// The expression that takes a snapshot; it evaluates to node-tree JSON.
#[uniffi::export]
pub fn snapshot_js(options: JsSnapshotOptions) -> Result<String> {
    Ok(js::snapshot_js(&options.to_crate()?))
}

/// Renders what `snapshot_js` evaluated to, under the budgets of `options`.
#[uniffi::export]
pub fn render_snapshot(json: String, options: RenderOptions) -> Result<SnapshotResult> {
    Ok(js::render_snapshot(&json, &options.to_crate()?)?.into())
}

/// The expression that runs `action` on `ref_` with `params` (a JSON object).
#[uniffi::export]
pub fn action_js(ref_: String, action: String, params: JsonValue) -> Result<String> {
    Ok(js::action_js(&ref_, &action, &params.into_serde()?))
}

/// Parses what `action_js` evaluated to.
#[uniffi::export]
pub fn parse_action_result(json: String) -> Result<ActionResult> {
    let r = js::parse_action_result(&json)?;
    Ok(ActionResult {
        success: r.success,
        action: r.action,
        error: r.error,
        ref_: r.ref_,
        value: r.value,
        checked: r.checked,
        values: r.values,
        focused: r.focused,
    })
}

/// The expression that answers `kind` for `ref_`, in at most `limit` UTF-16 units.
#[uniffi::export]
pub fn query_js(ref_: String, kind: QueryKind, limit: i32) -> Result<String> {
    Ok(js::query_js(
        &ref_,
        kind.script_name(),
        size("limit", limit)?,
    ))
}

/// Parses what `query_js` evaluated to.
#[uniffi::export]
pub fn parse_query_result(json: String) -> Result<QueryResult> {
    let r = js::parse_query_result(&json)?;
    Ok(QueryResult {
        ref_: r.ref_.unwrap_or_default(),
        kind: r.kind.as_deref().and_then(QueryKind::from_script_name),
        value: r.value,
        truncated: r.truncated,
        error: r.error,
    })
}

/// The expression that scrolls the page by `amount` pixels towards `direction` (`up`,
/// `down`, `left`, `right`).
#[uniffi::export]
pub fn scroll_js(direction: String, amount: i32) -> Result<String> {
    let direction: Direction = direction.parse()?;
    Ok(js::scroll_js(direction, i64::from(amount)))
}

/// The expression that presses `key` (`Enter`, `Tab`, `a`…) on the focused element.
#[uniffi::export]
pub fn press_key_js(key: String) -> String {
    js::press_key_js(&key)
}

/// The expression that evaluates to the page URL.
#[uniffi::export]
pub fn get_url_js() -> String {
    js::get_url_js()
}

/// The expression that evaluates to the page title.
#[uniffi::export]
pub fn get_title_js() -> String {
    js::get_title_js()
}

/// A parsed page: build it once, then snapshot it and query its refs as often as needed.
/// Refs depend only on the HTML and the tree options, so a ref the render budget left out
/// of the text can still be queried.
#[derive(uniffi::Object)]
pub struct SnapshotDocument {
    doc: Document,
    render: agent_snapshot::RenderOptions,
    /// `scopeSelector`: a ref or CSS selector, checked when the document is built.
    scope: Option<String>,
}

impl SnapshotDocument {
    fn new(
        doc: Document,
        render: agent_snapshot::RenderOptions,
        scope: Option<String>,
    ) -> Result<Arc<SnapshotDocument>> {
        if let Some(scope) = &scope {
            doc.snapshot_scoped(scope, &render)
                .map_err(|e| bad_argument(format!("scopeSelector: {e}")))?;
        }
        Ok(Arc::new(SnapshotDocument { doc, render, scope }))
    }
}

#[uniffi::export]
impl SnapshotDocument {
    /// Parses decoded text.
    #[uniffi::constructor]
    pub fn parse(html: String, options: SnapshotOptions) -> Result<Arc<SnapshotDocument>> {
        let (tree, render) = options.to_crate()?;
        SnapshotDocument::new(
            Document::parse(&html, &tree),
            render,
            options.scope_selector,
        )
    }

    /// Parses bytes as fetched, sniffing the encoding (BOM, valid UTF-8, `<meta>`, then
    /// windows-1252) unless `options.encoding` names one.
    #[uniffi::constructor]
    pub fn parse_bytes(html: Vec<u8>, options: SnapshotOptions) -> Result<Arc<SnapshotDocument>> {
        let (tree, render) = options.to_crate()?;
        SnapshotDocument::new(
            Document::parse_bytes(html, &tree)?,
            render,
            options.scope_selector,
        )
    }

    /// The snapshot, under the budgets the document was built with.
    pub fn snapshot(&self) -> SnapshotResult {
        // A scope was checked when the document was built, and the document does not change.
        let scoped = self
            .scope
            .as_deref()
            .and_then(|scope| self.doc.snapshot_scoped(scope, &self.render).ok());
        scoped
            .unwrap_or_else(|| self.doc.snapshot(&self.render))
            .into()
    }

    /// Answers `kind` for `ref_` in at most `limit_chars` characters.
    pub fn query(&self, ref_: String, kind: QueryKind, limit_chars: i32) -> Result<QueryResult> {
        let r = agent_snapshot::query(
            &self.doc,
            &ref_,
            kind.to_crate()?,
            size("limitChars", limit_chars)?,
        );
        Ok(QueryResult {
            ref_: r.ref_,
            kind: Some(kind),
            value: r.value,
            truncated: r.truncated,
            error: r.error.map(|e| {
                match e {
                    QueryError::RefNotFound => "ref_not_found",
                    QueryError::NotAFormControl => "not_a_form_control",
                }
                .to_string()
            }),
        })
    }

    /// How many refs the page has (the snapshot text may show fewer).
    pub fn ref_count(&self) -> i32 {
        int(self.doc.ref_count())
    }

    /// The encoding the page was decoded with (`UTF-8`, `windows-1252`…).
    pub fn encoding(&self) -> String {
        self.doc.encoding().0.name().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &str) -> JsonValue {
        JsonValue::Str {
            value: v.to_string(),
        }
    }

    #[test]
    fn json_values_convert_in_order_and_refuse_non_numbers() {
        let v = JsonValue::Obj {
            entries: vec![
                JsonEntry {
                    key: "z".into(),
                    value: s("last?"),
                },
                JsonEntry {
                    key: "a".into(),
                    value: JsonValue::Seq {
                        items: vec![
                            JsonValue::Integer { value: -3 },
                            JsonValue::Seq { items: vec![] },
                            JsonValue::Decimal { value: 1.5 },
                            JsonValue::Null,
                            JsonValue::Bool { value: true },
                        ],
                    },
                },
                JsonEntry {
                    key: "o".into(),
                    value: JsonValue::Obj { entries: vec![] },
                },
            ],
        };
        let json = serde_json::to_string(&v.into_serde().expect("json")).expect("string");
        assert_eq!(json, r#"{"z":"last?","a":[-3,[],1.5,null,true],"o":{}}"#);
        let nan = JsonValue::Seq {
            items: vec![JsonValue::Decimal { value: f64::NAN }],
        };
        assert!(nan.into_serde().is_err());
    }

    #[test]
    fn deep_json_values_cost_no_stack() {
        let mut v = JsonValue::Null;
        for _ in 0..100_000 {
            v = JsonValue::Seq { items: vec![v] };
        }
        let value = v.into_serde().expect("deep");
        // serde_json's own drop recurses: take the value apart by hand.
        let mut stack = vec![value];
        let mut depth = 0;
        while let Some(serde_json::Value::Array(mut items)) = stack.pop() {
            depth += 1;
            stack.append(&mut items);
        }
        assert_eq!(depth, 100_000);
    }

    #[test]
    fn negative_sizes_are_refused_by_name() {
        let mut o = crate_defaults().render;
        o.max_nodes = -1;
        let Err(err) = render_snapshot("{}".into(), o) else {
            panic!("a negative maxNodes must be refused");
        };
        assert!(
            err.to_string().contains("maxNodes must be 0 or more"),
            "{err}"
        );
    }

    #[test]
    fn defaults_are_the_crates() {
        let d = crate_defaults();
        assert_eq!(
            d.render.to_crate().expect("valid"),
            agent_snapshot::RenderOptions::default()
        );
        let (tree, render) = d.snapshot.to_crate().expect("valid");
        assert_eq!(render.max_chars_total, 12_000);
        assert_eq!(tree.attrs, TreeOptions::default().attrs);
        assert_eq!(
            d.js_snapshot.to_crate().expect("valid"),
            js::JsSnapshotOptions::default()
        );
    }

    #[test]
    fn query_kinds_name_the_scripts_kinds() {
        for k in [
            QueryKind::Text,
            QueryKind::Attrs,
            QueryKind::OuterHtml,
            QueryKind::Value,
            QueryKind::ComputedStyles,
        ] {
            assert_eq!(QueryKind::from_script_name(k.script_name()), Some(k));
        }
        // The offline kinds are the crate's.
        for name in ["text", "attrs", "html", "value"] {
            let k = QueryKind::from_script_name(name).expect("kind");
            assert_eq!(
                Some(k.to_crate().expect("offline")),
                agent_snapshot::QueryKind::parse(name)
            );
        }
    }
}
