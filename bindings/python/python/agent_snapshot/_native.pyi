"""Type stubs of the compiled module; see the docstrings at run time for details."""

from typing import Any, Literal, Optional, Sequence, Union

__version__: str

Threads = Literal["auto", "one", "two"]
# Which browser the page is read as: "auto" reads the no-script view (what <noscript> shows)
# only where the page shows far more there; "scripted" and "noscript" force one.
View = Literal["auto", "scripted", "noscript"]
QueryKind = Literal["text", "attrs", "html", "value"]

class ReadResult:
    """What :meth:`Document.read` returns."""

    text: str
    truncated: bool
    next: Optional[str]
    main: Optional[str]

class Document:
    """A parsed page, ready to be snapshotted and queried. Immutable and thread-safe."""

    def __init__(
        self,
        html: Union[str, bytes, bytearray],
        *,
        url: Optional[str] = None,
        encoding: Optional[str] = None,
        interactive_only: bool = True,
        cursor_interactive: bool = True,
        max_text_per_node: int = 200,
        max_attr_value_len: int = 1000,
        attrs: Sequence[str] = ...,
        threads: Threads = "auto",
        view: View = "auto",
    ) -> None: ...
    def snapshot(
        self,
        *,
        scope: Optional[str] = None,
        max_chars_total: int = 12000,
        max_nodes: int = 400,
        max_depth: int = 12,
        max_text_per_node: int = 200,
        max_attr_value_len: int = 200,
        max_siblings: int = 25,
        include_attrs: Sequence[str] = ...,
        compact: bool = True,
        format: Literal["text", "json", "list"] = "text",
    ) -> Snapshot:
        """Renders the snapshot (of ``scope``, a ref or CSS selector, if given). Releases the GIL."""
    def read(self, *, max_chars_total: int = 12000, start: Optional[str] = None) -> ReadResult:
        """The main content as readable lines; ``start``: continue at a cut read's ``next``."""
    def query(self, ref: str, kind: QueryKind = "text", limit: Optional[int] = 4000) -> QueryResult:
        """A bounded answer about one ref; an unknown ref gives ``error == "ref_not_found"``."""
    def tree_json(self) -> str:
        """The node tree as JSON (the in-page script's schema), for :func:`render`."""
    @property
    def ref_count(self) -> int:
        """How many refs the page has, shown in the text or not."""
    @property
    def url(self) -> Optional[str]:
        """``url=`` if given, else the page's ``<base>``, canonical link or ``og:url``."""
    @property
    def title(self) -> Optional[str]:
        """The page's title."""
    @property
    def encoding(self) -> str:
        """The encoding the page was decoded with (``"UTF-8"`` for a ``str``)."""

class Snapshot:
    """A rendered snapshot: ``text``, ``refs`` and ``stats``."""

    @property
    def text(self) -> str:
        """The snapshot text, within every budget."""
    @property
    def refs(self) -> dict[str, NodeRef]:
        """The refs shown in the text, ``{"e1": NodeRef, …}`` in document order."""
    @property
    def stats(self) -> RenderStats:
        """What the renderer wrote."""
    def to_json(self) -> str:
        """``{"text", "refs", "stats"}`` as JSON."""

class NodeRef:
    """What a model may ask about a ref shown in a snapshot."""

    @property
    def ref(self) -> str: ...
    @property
    def tag(self) -> str: ...
    @property
    def role(self) -> Optional[str]: ...
    @property
    def name(self) -> Optional[str]: ...
    @property
    def attrs(self) -> dict[str, str]: ...
    @property
    def text_snippet(self) -> Optional[str]: ...

class RenderStats:
    """Counters of one render."""

    @property
    def nodes_emitted(self) -> int: ...
    @property
    def chars_emitted(self) -> int: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def truncate_reasons(self) -> list[str]: ...

class QueryResult:
    """The answer to :meth:`Document.query`."""

    @property
    def ref(self) -> str: ...
    @property
    def kind(self) -> QueryKind: ...
    @property
    def value(self) -> str: ...
    @property
    def truncated(self) -> bool: ...
    @property
    def error(self) -> Optional[Literal["ref_not_found", "not_a_form_control"]]: ...
    @property
    def message(self) -> Optional[str]: ...

def snapshot(
    html: Union[str, bytes, bytearray],
    *,
    url: Optional[str] = None,
    encoding: Optional[str] = None,
    interactive_only: bool = True,
    cursor_interactive: bool = True,
    attrs: Sequence[str] = ...,
    threads: Threads = "auto",
    view: View = "auto",
    max_chars_total: int = 12000,
    max_nodes: int = 400,
    max_depth: int = 12,
    max_text_per_node: int = 200,
    max_attr_value_len: int = ...,
    max_siblings: int = 25,
    include_attrs: Sequence[str] = ...,
    compact: bool = True,
    format: Literal["text", "json", "list"] = "text",
) -> Snapshot:
    """Parses and renders in one call (tree and render options together). Releases the GIL."""

def render(
    tree_json: str,
    *,
    max_chars_total: int = 12000,
    max_nodes: int = 400,
    max_depth: int = 12,
    max_text_per_node: int = 200,
    max_attr_value_len: int = 200,
    max_siblings: int = 25,
    include_attrs: Sequence[str] = ...,
    compact: bool = True,
    format: Literal["text", "json", "list"] = "text",
) -> Snapshot:
    """Renders node-tree JSON (the in-page script's output). Releases the GIL."""

def script() -> str:
    """The in-page script, minified: inject it once per page."""

def snapshot_js(
    *,
    max_nodes: int = 500,
    max_text_per_node: int = 200,
    max_attr_value_len: int = 150,
    interactive_only: bool = True,
    cursor_interactive: bool = True,
    scope: Optional[str] = None,
) -> str:
    """The expression that takes a snapshot in the page (node-tree JSON for :func:`render`)."""

def action_js(ref: str, action: str, params: Optional[dict[str, Any]] = None) -> str:
    """The expression that runs ``action`` on ``ref``."""

def query_js(ref: str, kind: str = "text", limit: int = 4000) -> str:
    """The expression that answers ``kind`` for ``ref`` in the page."""

def scroll_js(direction: Literal["up", "down", "left", "right"], amount: int = 600) -> str:
    """The expression that scrolls the page."""

def press_key_js(key: str) -> str:
    """The expression that presses ``key`` on the focused element."""

def center_js(ref: str) -> str:
    """The expression that scrolls ``ref`` into view and gives its centre for a click."""

def ref_exists_js(ref: str) -> str:
    """The expression that says whether ``ref`` is on the page."""

def get_url_js() -> str:
    """The expression that evaluates to the page URL (JSON)."""

def get_title_js() -> str:
    """The expression that evaluates to the page title (JSON)."""

def not_injected(result_json: str) -> bool:
    """Whether a result says the script is gone from the page (inject it again)."""

def parse_action_result(result_json: str) -> dict[str, Any]:
    """What :func:`action_js` evaluated to, as a dict."""

def parse_query_result(result_json: str) -> dict[str, Any]:
    """What :func:`query_js` evaluated to, as a dict."""

def tool_schemas(
    flavor: Literal["openai", "chat", "anthropic", "mcp"] = "openai",
    tools: Literal["offline", "live", "all"] = "all",
) -> list[dict[str, Any]]:
    """Function-tool definitions for an agent API."""
