"""Short, budget-bounded snapshots with refs of web pages, for LLM agents.

A snapshot is a compact tree of what a person sees and can use on a page; each usable
element is tagged ``e1``, ``e2``…, so a model can act on or ask about ``e5`` instead of
reading HTML::

    >>> import agent_snapshot
    >>> doc = agent_snapshot.Document("<h1>Gold</h1><a href=/buy>Buy</a>")
    >>> print(doc.snapshot().text.splitlines()[-1])
    - link "Buy" [href=/buy] [ref=e2]
    >>> doc.query("e2", kind="html").value
    '<a href="/buy">Buy</a>'

Offline: :class:`Document` (parse once, snapshot and query), :func:`snapshot` (one shot).
Live, in a browser you drive: :func:`script` to inject, :func:`snapshot_js` and the other
``*_js`` builders to evaluate, :func:`render` for the JSON the page returns.
:func:`tool_schemas` gives the function-tool definitions for agent APIs.

Options are keyword arguments with the crate's defaults; a bad name or value raises
``ValueError``. Every call that parses, renders or queries releases the GIL, so threads
run in parallel.
"""

from ._native import (
    Document,
    NodeRef,
    QueryResult,
    ReadResult,
    RenderStats,
    Snapshot,
    __version__,
    action_js,
    center_js,
    get_title_js,
    get_url_js,
    not_injected,
    parse_action_result,
    parse_query_result,
    press_key_js,
    query_js,
    ref_exists_js,
    render,
    script,
    scroll_js,
    snapshot,
    snapshot_js,
    tool_schemas,
)

__all__ = [
    "Document",
    "NodeRef",
    "QueryResult",
    "ReadResult",
    "RenderStats",
    "Snapshot",
    "__version__",
    "action_js",
    "center_js",
    "get_title_js",
    "get_url_js",
    "not_injected",
    "parse_action_result",
    "parse_query_result",
    "press_key_js",
    "query_js",
    "ref_exists_js",
    "render",
    "script",
    "scroll_js",
    "snapshot",
    "snapshot_js",
    "tool_schemas",
]
