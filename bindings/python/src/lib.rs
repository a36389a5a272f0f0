//! The Python binding of agent-snapshot: the compiled part (`agent_snapshot._native`) of the
//! `agent_snapshot` package.
//!
//! Only conversions live here: Python values in, the crate's calls, Python values out. Every
//! call that parses, walks, renders or queries runs with the GIL released
//! ([`Python::detach`]), so Python threads snapshot pages in parallel. Options arrive as
//! keyword arguments and are read through the tables of [`options`].

mod options;

use std::fmt::Display;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::pybacked::{PyBackedBytes, PyBackedStr};
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyString};

use agent_snapshot::js::{self, Direction, JsSnapshotOptions};
use agent_snapshot::tools::{self, Flavor, ToolSet};
use agent_snapshot::{render, QueryKind, RenderOptions, SnapshotResult, TreeOptions};

use options::{count, pick, Fill, Target};

/// A crate error as the `ValueError` Python code expects, with the crate's message.
fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// Serialisable crate data (tool schemas, script results) as Python dicts and lists.
fn to_python<'py>(py: Python<'py>, value: &impl serde::Serialize) -> PyResult<Bound<'py, PyAny>> {
    let json = serde_json::to_string(value).map_err(value_error)?;
    py.import("json")?.call_method1("loads", (json,))
}

/// Page input: text is parsed as it is; bytes are decoded as a browser would (BOM, `<meta
/// charset>`, then windows-1252), or with `encoding=`. Both are held without a copy.
enum Html {
    Text(PyBackedStr),
    Bytes(PyBackedBytes),
}

impl Html {
    fn from_python(html: &Bound<'_, PyAny>, opts: &TreeOptions) -> PyResult<Html> {
        if html.is_instance_of::<PyString>() {
            if opts.encoding.is_some() {
                return Err(PyValueError::new_err(
                    "encoding= applies to bytes, and this html is a str (already decoded): \
                     pass the page's bytes to have them decoded with that encoding",
                ));
            }
            return Ok(Html::Text(html.extract()?));
        }
        if html.is_instance_of::<PyBytes>() || html.is_instance_of::<PyByteArray>() {
            return Ok(Html::Bytes(html.extract()?));
        }
        Err(PyTypeError::new_err(format!(
            "html must be str or bytes, not {}",
            html.get_type().name()?
        )))
    }

    /// Parses the page (call it with the GIL released).
    fn parse(&self, opts: &TreeOptions) -> Result<agent_snapshot::Document, agent_snapshot::Error> {
        match self {
            Html::Text(s) => Ok(agent_snapshot::Document::parse(s, opts)),
            Html::Bytes(b) => agent_snapshot::Document::parse_bytes(&**b, opts),
        }
    }
}

/// What :meth:`Document.read` returns.
#[pyclass(frozen, get_all, module = "agent_snapshot")]
struct ReadResult {
    /// The lines, header first.
    text: String,
    /// The budget cut the read.
    truncated: bool,
    /// Where to continue a cut read (``Document.read(start=...)``), or ``None``.
    next: Option<String>,
    /// The ref of the main content's element, when it has one.
    main: Option<String>,
}

/// A parsed page, ready to be snapshotted and queried.
///
/// ``Document(html, *, url=None, encoding=None, **tree_options)``: ``html`` is a ``str`` or
/// the page's ``bytes`` (decoded as a browser would: BOM, ``<meta charset>``, then
/// windows-1252, unless ``encoding`` names one). Tree options, with the crate's defaults:
/// ``interactive_only=True``, ``cursor_interactive=True``, ``max_text_per_node=200``,
/// ``max_attr_value_len=1000``, ``attrs=[...]``, ``threads="auto"`` (``"one"``, ``"two"``).
/// They decide the refs, so query with the document that gave the snapshot.
///
/// Parsing releases the GIL. A document is immutable: share it between threads freely.
///
/// >>> doc = Document("<a href=/>Home</a><button>Buy</button>")
/// >>> doc.snapshot().refs["e2"].name
/// 'Buy'
#[pyclass(frozen, module = "agent_snapshot", name = "Document")]
struct PyDocument {
    doc: agent_snapshot::Document,
}

#[pymethods]
impl PyDocument {
    #[new]
    #[pyo3(signature = (html, *, url=None, encoding=None, **tree_options))]
    fn new(
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
        encoding: Option<String>,
        tree_options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyDocument> {
        let mut opts = TreeOptions {
            url,
            encoding,
            ..TreeOptions::default()
        };
        options::read_one(tree_options, "Document()", options::TREE, &mut opts)?;
        let html = Html::from_python(html, &opts)?;
        let doc = py.detach(|| html.parse(&opts)).map_err(value_error)?;
        Ok(PyDocument { doc })
    }

    /// Renders the snapshot under the render budgets (keyword arguments, the crate's
    /// defaults: ``max_chars_total=12000``, ``max_nodes=400``, ``max_depth=12``,
    /// ``max_text_per_node=200``, ``max_attr_value_len=200``, ``max_siblings=25``,
    /// ``include_attrs=[...]``, ``compact=True``, ``format="text"``, ``"json"`` or
    /// ``"list"``). ``scope``: a ref (``"e12"``, as a folded stub line names it) or a CSS
    /// selector; only that part of the page is shown, with the page's refs. An unknown scope
    /// raises ``ValueError``. Releases the GIL.
    #[pyo3(signature = (*, scope = None, **render_options))]
    fn snapshot(
        &self,
        py: Python<'_>,
        scope: Option<String>,
        render_options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<Snapshot> {
        let opts = render_options_from(render_options, "Document.snapshot()")?;
        let snap = match scope {
            Some(scope) => py
                .detach(|| self.doc.snapshot_scoped(&scope, &opts))
                .map_err(value_error)?,
            None => py.detach(|| self.doc.snapshot(&opts)),
        };
        Ok(Snapshot::new(snap))
    }

    /// The main content as readable lines (headings, paragraphs, lists, tables, quotes,
    /// code) with refs on its links, headings and images, in at most ``max_chars_total``
    /// characters: what a WebFetch tool should return for an article. ``start``: continue a
    /// cut read at the ref its last line names (``ReadResult.next``). Releases the GIL.
    #[pyo3(signature = (*, max_chars_total = 12_000, start = None))]
    fn read(
        &self,
        py: Python<'_>,
        max_chars_total: usize,
        start: Option<String>,
    ) -> PyResult<ReadResult> {
        let from = match start {
            Some(r) => Some(agent_snapshot::Ref::parse(r.trim()).ok_or_else(|| {
                PyValueError::new_err(format!("start={r:?}: not a ref such as \"e57\""))
            })?),
            None => None,
        };
        let opts = agent_snapshot::ReadOptions {
            max_chars_total,
            from,
        };
        let r = py.detach(|| self.doc.read(&opts)).map_err(value_error)?;
        Ok(ReadResult {
            text: r.text,
            truncated: r.stats.truncated,
            next: r.stats.next.map(|n| n.to_string()),
            main: r.stats.main.map(|n| n.to_string()),
        })
    }

    /// Answers a bounded question about one ref: ``kind`` is ``"text"`` (visible text),
    /// ``"attrs"`` (all attributes as JSON), ``"html"`` (outer HTML) or ``"value"`` (a form
    /// control's value); the answer holds at most ``limit`` characters (``truncated`` says
    /// when it was cut). Any ref of the page works, also one a budget left out of the text.
    ///
    /// An unknown ref is an answer, not an exception: ``error == "ref_not_found"`` and
    /// ``message`` says what to do (a model can be shown it as it is). A bad ``kind`` or
    /// ``limit`` raises ``ValueError``. Releases the GIL.
    #[pyo3(signature = (r#ref, kind = "text", limit = None))]
    fn query(
        &self,
        py: Python<'_>,
        r#ref: String,
        kind: &str,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<QueryResult> {
        let kind = query_kind(kind)?;
        let limit = match limit {
            None => DEFAULT_QUERY_LIMIT,
            Some(v) => count(v).map_err(|why| PyValueError::new_err(format!("limit: {why}")))?,
        };
        let result = py.detach(|| agent_snapshot::query(&self.doc, &r#ref, kind, limit));
        Ok(QueryResult { result })
    }

    /// The node tree as JSON: the schema the in-page script returns, for :func:`render`.
    fn tree_json(&self, py: Python<'_>) -> String {
        py.detach(|| self.doc.tree().to_json())
    }

    /// How many refs the page has (``e1`` … ``eN``), shown in the text or not.
    #[getter]
    fn ref_count(&self) -> usize {
        self.doc.ref_count()
    }

    /// The page's URL: ``url=`` if given, else ``<base>``, the canonical link or ``og:url``.
    #[getter]
    fn url(&self) -> Option<&str> {
        self.doc.tree().url.as_deref()
    }

    /// The page's title, if it has one.
    #[getter]
    fn title(&self) -> Option<&str> {
        self.doc.tree().title.as_deref()
    }

    /// The encoding the page was decoded with (``"UTF-8"`` for a ``str``).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.doc.encoding().0.name()
    }

    fn __repr__(&self) -> String {
        format!(
            "Document(url={:?}, title={:?}, ref_count={})",
            self.url().unwrap_or(""),
            self.title().unwrap_or(""),
            self.ref_count()
        )
    }
}

/// The answer's length when `limit` is not given, as in the CLI and the `html_query` tool.
const DEFAULT_QUERY_LIMIT: usize = 4000;

fn query_kind(kind: &str) -> PyResult<QueryKind> {
    QueryKind::parse(kind).ok_or_else(|| {
        PyValueError::new_err(format!(
            "kind={kind:?}: expected \"text\", \"attrs\", \"html\" or \"value\""
        ))
    })
}

fn render_options_from(kwargs: Option<&Bound<'_, PyDict>>, call: &str) -> PyResult<RenderOptions> {
    let mut opts = RenderOptions::default();
    options::read_one(kwargs, call, options::RENDER, &mut opts)?;
    Ok(opts)
}

/// A rendered snapshot: ``text`` (what the model reads), ``refs`` (``{"e1": NodeRef, …}``
/// for the refs shown in the text, in document order) and ``stats``.
#[pyclass(frozen, module = "agent_snapshot")]
struct Snapshot {
    result: SnapshotResult,
    /// Built on first use: a Spark job that keeps only the text never pays for it.
    refs: PyOnceLock<Py<PyDict>>,
}

impl Snapshot {
    fn new(result: SnapshotResult) -> Snapshot {
        Snapshot {
            result,
            refs: PyOnceLock::new(),
        }
    }
}

#[pymethods]
impl Snapshot {
    /// The snapshot text: a header line, then one line per node, within every budget.
    #[getter]
    fn text(&self) -> &str {
        &self.result.text
    }

    /// The refs shown in the text: ``{"e1": NodeRef, …}`` in document order.
    #[getter]
    fn refs(&self, py: Python<'_>) -> PyResult<Py<PyDict>> {
        let dict = self.refs.get_or_try_init(py, || -> PyResult<Py<PyDict>> {
            let dict = PyDict::new(py);
            for r in self.result.refs.iter() {
                dict.set_item(&r.ref_, NodeRef { node: r.clone() })?;
            }
            Ok(dict.unbind())
        })?;
        Ok(dict.clone_ref(py))
    }

    /// What the renderer wrote: ``nodes_emitted``, ``chars_emitted``, ``truncated`` and
    /// ``truncate_reasons``.
    #[getter]
    fn stats(&self) -> RenderStats {
        RenderStats {
            stats: self.result.stats.clone(),
        }
    }

    /// ``{"text", "refs", "stats"}`` as JSON, as the crate serialises it.
    fn to_json(&self) -> PyResult<String> {
        serde_json::to_string(&self.result).map_err(value_error)
    }

    fn __str__(&self) -> &str {
        &self.result.text
    }

    fn __repr__(&self) -> String {
        format!(
            "Snapshot(chars={}, refs={}, truncated={})",
            self.result.stats.chars_emitted,
            self.result.refs.len(),
            if self.result.stats.truncated {
                "True"
            } else {
                "False"
            }
        )
    }
}

/// What a model may ask about a ref shown in a snapshot: ``ref``, ``tag``, ``role``,
/// ``name``, ``attrs`` and ``text_snippet``.
#[pyclass(frozen, module = "agent_snapshot")]
struct NodeRef {
    node: agent_snapshot::NodeRef,
}

#[pymethods]
impl NodeRef {
    /// ``"e1"``, ``"e2"``…
    #[getter]
    fn r#ref(&self) -> &str {
        &self.node.ref_
    }
    /// The lower-case tag name.
    #[getter]
    fn tag(&self) -> &str {
        &self.node.tag
    }
    /// The ARIA role (``clickable`` / ``focusable`` for cursor-interactive elements), or
    /// ``None`` for a generic element.
    #[getter]
    fn role(&self) -> Option<&str> {
        self.node.role.as_deref()
    }
    /// The accessible name, cut to the render's ``max_text_per_node``.
    #[getter]
    fn name(&self) -> Option<&str> {
        self.node.name.as_deref()
    }
    /// The attributes the render shows (``include_attrs``), values cut to
    /// ``max_attr_value_len``.
    #[getter]
    fn attrs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (k, v) in self.node.attrs.iter() {
            dict.set_item(k, v)?;
        }
        Ok(dict)
    }
    /// The node's own visible text when it differs from its name.
    #[getter]
    fn text_snippet(&self) -> Option<&str> {
        self.node.text_snippet.as_deref()
    }

    fn __repr__(&self) -> String {
        format!(
            "NodeRef(ref={:?}, role={:?}, name={:?})",
            self.node.ref_,
            self.node.role.as_deref().unwrap_or(""),
            self.node.name.as_deref().unwrap_or("")
        )
    }
}

/// Counters of one render: ``nodes_emitted``, ``chars_emitted`` (header included),
/// ``truncated`` and ``truncate_reasons`` (``"maxCharsTotal"``, ``"maxNodes"``,
/// ``"maxDepth"``, ``"maxSiblings"``: the budget options that cut the output).
#[pyclass(frozen, module = "agent_snapshot")]
struct RenderStats {
    stats: agent_snapshot::RenderStats,
}

#[pymethods]
impl RenderStats {
    /// Node lines written.
    #[getter]
    fn nodes_emitted(&self) -> usize {
        self.stats.nodes_emitted
    }
    /// Characters written, header included (never over ``max_chars_total``).
    #[getter]
    fn chars_emitted(&self) -> usize {
        self.stats.chars_emitted
    }
    /// Whether a budget left something out.
    #[getter]
    fn truncated(&self) -> bool {
        self.stats.truncated
    }
    /// Which budgets left something out.
    #[getter]
    fn truncate_reasons(&self) -> Vec<&'static str> {
        self.stats
            .truncate_reasons
            .iter()
            .map(|r| r.as_str())
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "RenderStats(nodes_emitted={}, chars_emitted={}, truncated={}, truncate_reasons={:?})",
            self.stats.nodes_emitted,
            self.stats.chars_emitted,
            if self.stats.truncated {
                "True"
            } else {
                "False"
            },
            self.truncate_reasons()
        )
    }
}

/// The answer to :meth:`Document.query`: ``ref``, ``kind``, ``value`` (at most ``limit``
/// characters), ``truncated``, and ``error`` / ``message`` when there is no answer.
#[pyclass(frozen, module = "agent_snapshot")]
struct QueryResult {
    result: agent_snapshot::QueryResult,
}

#[pymethods]
impl QueryResult {
    /// The ref asked about, as given.
    #[getter]
    fn r#ref(&self) -> &str {
        &self.result.ref_
    }
    /// ``"text"``, ``"attrs"``, ``"html"`` or ``"value"``.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.result.kind {
            QueryKind::Text => "text",
            QueryKind::Attrs => "attrs",
            QueryKind::OuterHtml => "html",
            QueryKind::Value => "value",
        }
    }
    /// The answer (empty when ``error`` is set).
    #[getter]
    fn value(&self) -> &str {
        &self.result.value
    }
    /// Whether the answer was cut at ``limit`` characters.
    #[getter]
    fn truncated(&self) -> bool {
        self.result.truncated
    }
    /// ``None``, ``"ref_not_found"`` or ``"not_a_form_control"``.
    #[getter]
    fn error(&self) -> Option<String> {
        let e = self.result.error?;
        serde_json::to_value(e)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
    }
    /// What went wrong and what to do, in a sentence for the model; ``None`` without error.
    #[getter]
    fn message(&self) -> Option<String> {
        self.result.error.map(|e| e.message(&self.result.ref_))
    }

    fn __repr__(&self) -> String {
        match self.error() {
            Some(e) => format!("QueryResult(ref={:?}, error={e:?})", self.result.ref_),
            None => format!(
                "QueryResult(ref={:?}, kind={:?}, value={:?}, truncated={})",
                self.result.ref_,
                self.kind(),
                self.result.value,
                if self.result.truncated {
                    "True"
                } else {
                    "False"
                }
            ),
        }
    }
}

/// One-shot: parses ``html`` (``str`` or ``bytes``) and renders its snapshot.
///
/// Takes the tree options of :class:`Document` (``url``, ``encoding``, ``interactive_only``…)
/// and the render options of :meth:`Document.snapshot` as keyword arguments; an option both
/// have (``max_text_per_node``, ``max_attr_value_len``) applies to both. The page's arena is
/// freed before the render, so this is the leanest call when no query follows.
/// Releases the GIL.
///
/// >>> snapshot("<h1>Hi</h1><a href=/x>More</a>").text.splitlines()[-1]
/// '- link "More" [href=/x] [ref=e2]'
#[pyfunction]
#[pyo3(signature = (html, **options))]
fn snapshot(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Snapshot> {
    let mut tree = TreeOptions::default();
    let mut budgets = RenderOptions::default();
    options::read(
        options,
        "snapshot()",
        &mut [
            &mut Target {
                table: options::TREE,
                value: &mut tree,
            } as &mut dyn Fill,
            &mut Target {
                table: options::RENDER,
                value: &mut budgets,
            },
        ],
    )?;
    let html = Html::from_python(html, &tree)?;
    let result = py
        .detach(|| {
            let tree = html.parse(&tree)?.into_tree();
            Ok::<_, agent_snapshot::Error>(render(&tree, &budgets))
        })
        .map_err(value_error)?;
    Ok(Snapshot::new(result))
}

/// Renders node-tree JSON (what the in-page script's ``snapshot()`` returns, or
/// :meth:`Document.tree_json`) under the render options of :meth:`Document.snapshot`.
///
/// Raises ``ValueError`` for malformed, oversized or too deep JSON, and when the JSON says
/// the script was not on the page (inject :func:`script` again). Releases the GIL.
#[pyfunction]
#[pyo3(name = "render", signature = (tree_json, **options))]
fn render_tree(
    py: Python<'_>,
    tree_json: PyBackedStr,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Snapshot> {
    let opts = render_options_from(options, "render()")?;
    let result = py
        .detach(|| js::render_snapshot(&tree_json, &opts))
        .map_err(value_error)?;
    Ok(Snapshot::new(result))
}

/// The in-page script (``agent-browser.js``, minified). Inject it once per page (Playwright
/// ``page.evaluate``, CDP ``Runtime.evaluate``…), then evaluate the expressions built by
/// :func:`snapshot_js`, :func:`action_js`, :func:`query_js`….
#[pyfunction]
fn script() -> &'static str {
    js::script()
}

/// The expression that takes a snapshot in the page; it evaluates to node-tree JSON for
/// :func:`render`. Options: ``max_nodes=500`` (a coarse cap; the render applies the real
/// budgets), ``max_text_per_node=200``, ``max_attr_value_len=150``,
/// ``interactive_only=True``, ``cursor_interactive=True``, ``scope=None`` (a CSS selector).
#[pyfunction]
#[pyo3(signature = (**options))]
fn snapshot_js(options: Option<&Bound<'_, PyDict>>) -> PyResult<String> {
    let mut opts = JsSnapshotOptions::default();
    options::read_one(options, "snapshot_js()", options::JS_SNAPSHOT, &mut opts)?;
    Ok(js::snapshot_js(&opts))
}

/// The expression that runs ``action`` (``click``, ``fill``, ``select``, ``check``,
/// ``uncheck``, ``focus``, ``hover``, ``scroll_into_view``, ``clear``) on ``ref``, with its
/// parameters (``{"value": …}`` for fill, ``{"values": [...]}`` for select). Every argument
/// is placed in the expression as an escaped JSON literal.
#[pyfunction]
#[pyo3(signature = (r#ref, action, params = None))]
fn action_js(
    py: Python<'_>,
    r#ref: &str,
    action: &str,
    params: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let params = match params {
        None => serde_json::json!({}),
        Some(p) => {
            let json: String = py
                .import("json")?
                .call_method1("dumps", (p,))
                .map_err(|e| {
                    PyValueError::new_err(format!("params must be JSON-serialisable: {e}"))
                })?
                .extract()?;
            serde_json::from_str(&json).map_err(value_error)?
        }
    };
    Ok(js::action_js(r#ref, action, &params))
}

/// The expression that answers ``kind`` (``text``, ``html``, ``value``, ``attrs``,
/// ``computed_styles``) for ``ref`` in the page, in at most ``limit`` UTF-16 units.
#[pyfunction]
#[pyo3(signature = (r#ref, kind = "text", limit = DEFAULT_QUERY_LIMIT))]
fn query_js(r#ref: &str, kind: &str, limit: usize) -> String {
    js::query_js(r#ref, kind, limit)
}

/// The expression that scrolls the page by ``amount`` pixels towards ``direction``
/// (``"up"``, ``"down"``, ``"left"``, ``"right"``).
#[pyfunction]
#[pyo3(signature = (direction, amount = 600))]
fn scroll_js(direction: &str, amount: i64) -> PyResult<String> {
    let direction: Direction = direction.parse().map_err(value_error)?;
    Ok(js::scroll_js(direction, amount))
}

/// The expression that presses ``key`` (``"Enter"``, ``"Tab"``, ``"a"``…) on the focused
/// element.
#[pyfunction]
fn press_key_js(key: &str) -> String {
    js::press_key_js(key)
}

/// The expression that scrolls the element with ``ref`` to the middle of the viewport and
/// evaluates to ``{x, y, covered}`` (or ``{error}``): where to click with real input events.
#[pyfunction]
fn center_js(r#ref: &str) -> String {
    js::center_js(r#ref)
}

/// The expression that evaluates to whether the element with ``ref`` is on the page.
#[pyfunction]
fn ref_exists_js(r#ref: &str) -> String {
    js::ref_exists_js(r#ref)
}

/// The expression that evaluates to the page URL, as a JSON string.
#[pyfunction]
fn get_url_js() -> String {
    js::get_url_js()
}

/// The expression that evaluates to the page title, as a JSON string.
#[pyfunction]
fn get_title_js() -> String {
    js::get_title_js()
}

/// Whether what an expression evaluated to says the script is not on the page (after a
/// navigation): inject :func:`script` again and retry.
#[pyfunction]
fn not_injected(result_json: &str) -> bool {
    js::not_injected(result_json)
}

/// What :func:`action_js` evaluated to, as a dict (``success``, ``error``, ``value``…).
/// Raises ``ValueError`` when it is malformed or says the script was not injected.
#[pyfunction]
fn parse_action_result<'py>(py: Python<'py>, result_json: &str) -> PyResult<Bound<'py, PyAny>> {
    to_python(
        py,
        &js::parse_action_result(result_json).map_err(value_error)?,
    )
}

/// What :func:`query_js` evaluated to, as a dict (``ref``, ``kind``, ``value``,
/// ``truncated``, ``error``). Raises ``ValueError`` when it is malformed or says the script
/// was not injected.
#[pyfunction]
fn parse_query_result<'py>(py: Python<'py>, result_json: &str) -> PyResult<Bound<'py, PyAny>> {
    to_python(
        py,
        &js::parse_query_result(result_json).map_err(value_error)?,
    )
}

/// Function-tool definitions for an agent API, as a list of dicts: ``flavor`` is
/// ``"openai"`` (Responses API, strict), ``"chat"`` (Chat Completions), ``"anthropic"`` or
/// ``"mcp"``; ``tools`` is ``"offline"`` (``html_snapshot``, ``html_query``), ``"live"``
/// (``web_*``) or ``"all"``.
#[pyfunction]
#[pyo3(signature = (flavor = "openai", tools = "all"))]
fn tool_schemas<'py>(py: Python<'py>, flavor: &str, tools: &str) -> PyResult<Bound<'py, PyAny>> {
    let flavor = pick(
        Some(flavor),
        &[
            ("openai", Flavor::OpenAi),
            ("chat", Flavor::Chat),
            ("anthropic", Flavor::Anthropic),
            ("mcp", Flavor::Mcp),
        ],
    )
    .map_err(|why| PyValueError::new_err(format!("flavor: {why}")))?;
    let set = pick(
        Some(tools),
        &[
            ("offline", ToolSet::Offline),
            ("live", ToolSet::Live),
            ("all", ToolSet::All),
        ],
    )
    .map_err(|why| PyValueError::new_err(format!("tools: {why}")))?;
    to_python(py, &tools::definitions(flavor, set))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<PyDocument>()?;
    m.add_class::<ReadResult>()?;
    m.add_class::<Snapshot>()?;
    m.add_class::<NodeRef>()?;
    m.add_class::<RenderStats>()?;
    m.add_class::<QueryResult>()?;
    m.add_function(wrap_pyfunction!(snapshot, m)?)?;
    m.add_function(wrap_pyfunction!(render_tree, m)?)?;
    m.add_function(wrap_pyfunction!(script, m)?)?;
    m.add_function(wrap_pyfunction!(snapshot_js, m)?)?;
    m.add_function(wrap_pyfunction!(action_js, m)?)?;
    m.add_function(wrap_pyfunction!(query_js, m)?)?;
    m.add_function(wrap_pyfunction!(scroll_js, m)?)?;
    m.add_function(wrap_pyfunction!(press_key_js, m)?)?;
    m.add_function(wrap_pyfunction!(center_js, m)?)?;
    m.add_function(wrap_pyfunction!(ref_exists_js, m)?)?;
    m.add_function(wrap_pyfunction!(get_url_js, m)?)?;
    m.add_function(wrap_pyfunction!(get_title_js, m)?)?;
    m.add_function(wrap_pyfunction!(not_injected, m)?)?;
    m.add_function(wrap_pyfunction!(parse_action_result, m)?)?;
    m.add_function(wrap_pyfunction!(parse_query_result, m)?)?;
    m.add_function(wrap_pyfunction!(tool_schemas, m)?)?;
    Ok(())
}
