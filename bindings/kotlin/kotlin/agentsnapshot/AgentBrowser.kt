package agentsnapshot

import agentsnapshot.ffi.JsonEntry
import agentsnapshot.ffi.JsonValue

// The result types are UniFFI's records (package agentsnapshot.ffi), named here so that users
// need only `import agentsnapshot.*`.

/** A rendered snapshot: `text` for the model, the `refs` it shows (document order), `stats`. */
typealias SnapshotResult = agentsnapshot.ffi.SnapshotResult

/** What the model may ask about a ref: tag, role, name, attributes (source order), text. */
typealias NodeRef = agentsnapshot.ffi.NodeRef

/** What the renderer wrote; `truncated` and `truncateReasons` say which budget cut it. */
typealias SnapshotStats = agentsnapshot.ffi.SnapshotStats

/** `TEXT`, `ATTRS`, `OUTER_HTML`, `VALUE`; `COMPUTED_STYLES` for live pages only. */
typealias QueryKind = agentsnapshot.ffi.QueryKind

/** A query's answer: `value` is at most the limit asked for; `error` names what went wrong. */
typealias QueryResult = agentsnapshot.ffi.QueryResult

/** What an in-page action did. */
typealias ActionResult = agentsnapshot.ffi.ActionResult

/** `PLAIN_TEXT_TREE` (for models) or `JSON` (the same lines, for programs). */
typealias OutputFormat = agentsnapshot.ffi.OutputFormat

/** `AUTO`, `SCRIPTED` or `NO_SCRIPT`: the browser a page is read as ([SnapshotOptions.view]). */
typealias PageView = agentsnapshot.ffi.PageView

/**
 * A parsed page ([AgentBrowser.buildDocument]). It holds native memory until closed: use it
 * in `use { }`, or leave it to the garbage collector's cleaner.
 */
typealias SnapshotDocument = agentsnapshot.ffi.SnapshotDocument

/**
 * What the crate reports, with the crate's message: `NotInjected` (inject [AgentBrowser.getScript]
 * again), `BadScriptResult` (malformed JSON from the page), `BadArgument`. Kotlin does not reach
 * nested classes through a type alias: to catch one kind, `import
 * agentsnapshot.ffi.AgentSnapshotException` and catch `AgentSnapshotException.NotInjected`.
 */
typealias AgentSnapshotException = agentsnapshot.ffi.AgentSnapshotException

/**
 * Web pages as short, budget-bounded snapshots with refs, for LLM agents.
 *
 * Live pages (a WebView): inject [getScript] once per page, evaluate [snapshotJs] and hand the
 * JSON it returns to [renderSnapshot]; act with [actionJs] / [parseActionResult], ask with
 * [queryJs] / [parseQueryResult]. Raw HTML (WebFetch): [buildDocument], [snapshot], [query].
 *
 * Every call goes to the Rust crate `agent-snapshot`; its errors arrive as
 * [AgentSnapshotException] with the crate's message.
 */
object AgentBrowser {
    // ---- The in-page script ----

    /** The script to inject into a page (about 15 KB); it installs `window.__agentBrowser`. */
    fun getScript(): String = agentsnapshot.ffi.script()

    /** The expression that takes a snapshot; it evaluates to node-tree JSON. */
    fun snapshotJs(options: JsSnapshotOptions = JsSnapshotOptions()): String =
        agentsnapshot.ffi.snapshotJs(options.toFfi())

    /** Renders the JSON [snapshotJs] evaluated to, under the budgets of [options]. */
    fun renderSnapshot(json: String, options: RenderOptions = RenderOptions()): SnapshotResult =
        agentsnapshot.ffi.renderSnapshot(json, options.toFfi())

    /**
     * The expression that runs [action] (`click`, `fill`, `select`, `check`, `uncheck`,
     * `focus`, `hover`, `scroll_into_view`, `clear`) on [ref], with [params]
     * (`mapOf("value" to "iPhone 16")` for fill, `mapOf("values" to listOf(...))` for select).
     *
     * Parameter values may be null, strings, booleans, numbers, maps with string keys, lists
     * and arrays; the crate JSON-encodes them into the expression, so no value can break out
     * of it.
     *
     * @throws IllegalArgumentException for any other value, or nesting deeper than 256.
     */
    fun actionJs(ref: String, action: String, params: Map<String, Any?> = emptyMap()): String =
        agentsnapshot.ffi.actionJs(ref, action, jsonValue(params, 0))

    /** Parses what [actionJs] evaluated to. */
    fun parseActionResult(json: String): ActionResult = agentsnapshot.ffi.parseActionResult(json)

    /** The expression that answers [kind] for [ref], in at most [limit] UTF-16 units. */
    fun queryJs(ref: String, kind: QueryKind, limit: Int = 2000): String =
        agentsnapshot.ffi.queryJs(ref, kind, limit)

    /** Parses what [queryJs] evaluated to. */
    fun parseQueryResult(json: String): QueryResult = agentsnapshot.ffi.parseQueryResult(json)

    /** The expression that scrolls by [amount] pixels: [direction] is up, down, left or right. */
    fun scrollJs(direction: String, amount: Int = 300): String =
        agentsnapshot.ffi.scrollJs(direction, amount)

    /** The expression that presses [key] (`Enter`, `Tab`, `Escape`, `a`…) on the focused element. */
    fun pressKeyJs(key: String): String = agentsnapshot.ffi.pressKeyJs(key)

    /** The expression that evaluates to the page URL. */
    fun getUrlJs(): String = agentsnapshot.ffi.getUrlJs()

    /** The expression that evaluates to the page title. */
    fun getTitleJs(): String = agentsnapshot.ffi.getTitleJs()

    // ---- Raw HTML ----

    /** Parses [html] once, for any number of [snapshot] and [query] calls. */
    fun buildDocument(html: String, options: SnapshotOptions = SnapshotOptions()): SnapshotDocument =
        SnapshotDocument.parse(html, options.toFfi())

    /**
     * Parses [html] as fetched: the encoding is sniffed (BOM, valid UTF-8, `<meta>`, then
     * windows-1252) unless [SnapshotOptions.encoding] names one.
     */
    fun buildDocument(html: ByteArray, options: SnapshotOptions = SnapshotOptions()): SnapshotDocument =
        SnapshotDocument.parseBytes(html, options.toFfi())

    /** The snapshot of [doc], under the budgets it was built with. */
    fun snapshot(doc: SnapshotDocument): SnapshotResult = doc.snapshot()

    /**
     * Answers [kind] for [ref] in at most [limitChars] characters; never the whole page.
     * An unknown ref is an answer (`error = "ref_not_found"`), not an exception.
     */
    fun query(doc: SnapshotDocument, ref: String, kind: QueryKind, limitChars: Int = 4_000): QueryResult =
        doc.query(ref, kind, limitChars)

    /** One-shot [buildDocument] and [snapshot]. */
    fun snapshot(html: String, options: SnapshotOptions = SnapshotOptions()): SnapshotResult =
        buildDocument(html, options).use { it.snapshot() }

    /**
     * One-shot [buildDocument] and [query]. Refs depend on [options] (`interactiveOnly`,
     * `cursorInteractive`): pass the ones the snapshot was taken with.
     */
    fun queryRef(
        html: String,
        ref: String,
        kind: QueryKind,
        limitChars: Int = 4_000,
        options: SnapshotOptions = SnapshotOptions(),
    ): QueryResult = buildDocument(html, options).use { it.query(ref, kind, limitChars) }

    /** Nesting allowed in action parameters: deeper is a mistake, or a map holding itself. */
    private const val MAX_PARAM_DEPTH = 256

    /** A parameter value as the crate's JSON value; a typed tree, never a JSON string. */
    private fun jsonValue(value: Any?, depth: Int): JsonValue {
        require(depth <= MAX_PARAM_DEPTH) {
            "action parameters nest deeper than $MAX_PARAM_DEPTH (does a map or list contain itself?)"
        }
        return when (value) {
            null -> JsonValue.Null
            is String -> JsonValue.Str(value)
            is Char -> JsonValue.Str(value.toString())
            is Boolean -> JsonValue.Bool(value)
            is Int, is Long, is Short, is Byte -> JsonValue.Integer((value as Number).toLong())
            is Double, is Float -> JsonValue.Decimal((value as Number).toDouble())
            is Map<*, *> -> JsonValue.Obj(
                value.map { (k, v) ->
                    require(k is String) { "action parameter keys must be strings, not ${k?.javaClass?.name}" }
                    JsonEntry(k, jsonValue(v, depth + 1))
                },
            )
            is Iterable<*> -> JsonValue.Seq(value.map { jsonValue(it, depth + 1) })
            is Array<*> -> JsonValue.Seq(value.map { jsonValue(it, depth + 1) })
            is IntArray -> JsonValue.Seq(value.map { JsonValue.Integer(it.toLong()) })
            is LongArray -> JsonValue.Seq(value.map { JsonValue.Integer(it) })
            is DoubleArray -> JsonValue.Seq(value.map { JsonValue.Decimal(it) })
            is BooleanArray -> JsonValue.Seq(value.map { JsonValue.Bool(it) })
            else -> throw IllegalArgumentException(
                "action parameter of type ${value.javaClass.name}: use null, a string, boolean, " +
                    "number, map with string keys, list or array",
            )
        }
    }
}
