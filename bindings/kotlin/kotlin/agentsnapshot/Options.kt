package agentsnapshot

/**
 * The attributes shown by default, in this order: the crate's default list (the design's
 * `href name type value placeholder aria-label role`, plus `src action method`).
 */
val DEFAULT_INCLUDE_ATTRS: Set<String> = linkedSetOf(
    "href", "name", "type", "value", "placeholder", "aria-label", "role", "src", "action", "method",
)

/**
 * Options of the offline path ([AgentBrowser.buildDocument], [AgentBrowser.snapshot]): which
 * elements get refs, and the budgets of the text. Every output respects the budgets: at most
 * [maxCharsTotal] characters (header included), and a cut says why in
 * [SnapshotStats.truncateReasons].
 *
 * The defaults are the crate's (and the CLI's), so a page gives the same text here as from
 * `agent-snapshot snapshot page.html`.
 */
data class SnapshotOptions(
    /** Hard limit on the text's length in characters (code points), header included. */
    val maxCharsTotal: Int = 12_000,
    /** Most node lines written. */
    val maxNodes: Int = 400,
    /** Deepest indentation level written (0 = top level). */
    val maxDepth: Int = 12,
    /** Longest name or text per line, in characters. */
    val maxTextPerNode: Int = 200,
    /**
     * `true`: headings, list items, cells… get refs only when they have a name or text;
     * `false`: always. Links, buttons and inputs always get refs.
     */
    val interactiveOnly: Boolean = true,
    /** Attributes shown, in the set's iteration order (`setOf` keeps the order written). */
    val includeAttrs: Set<String> = DEFAULT_INCLUDE_ATTRS,
    /**
     * Snapshot only the first element matching this CSS selector. Not supported offline yet:
     * a non-null value throws [AgentSnapshotException.BadArgument] (live pages: use
     * [JsSnapshotOptions.scope]).
     */
    val scopeSelector: String? = null,
    /** Text for the model, or the same lines as JSON for programs. */
    val outputFormat: OutputFormat = OutputFormat.PLAIN_TEXT_TREE,
    /** Give refs to elements made interactive by `onclick`, `tabindex >= 0` or `contenteditable`. */
    val cursorInteractive: Boolean = true,
    /** Longest attribute value per line, in characters. */
    val maxAttrValueLen: Int = 200,
    /** Most children shown under one parent; the rest fold into `... (truncated, N more items)`. */
    val maxSiblings: Int = 25,
    /** Drop structural branches (lists, sections…) that hold no ref. */
    val compact: Boolean = true,
    /** The page's URL for the header, when the caller knows it better than the page does. */
    val url: String? = null,
    /** Decode bytes with this encoding label (`windows-1250`…) instead of sniffing it. */
    val encoding: String? = null,
    /**
     * The browser the page is read as: [PageView.AUTO] reads what `<noscript>` shows only
     * where the page shows far more there (the header then says `view=noscript`).
     */
    val view: PageView = PageView.AUTO,
) {
    /** The render part of these options, for [AgentBrowser.renderSnapshot]. */
    fun renderOptions(): RenderOptions = RenderOptions(
        maxCharsTotal = maxCharsTotal,
        maxNodes = maxNodes,
        maxDepth = maxDepth,
        compact = compact,
        format = outputFormat,
        maxTextPerNode = maxTextPerNode,
        maxAttrValueLen = maxAttrValueLen,
        maxSiblings = maxSiblings,
        includeAttrs = includeAttrs,
    )

    internal fun toFfi() = agentsnapshot.ffi.SnapshotOptions(
        render = renderOptions().toFfi(),
        interactiveOnly = interactiveOnly,
        cursorInteractive = cursorInteractive,
        scopeSelector = scopeSelector,
        url = url,
        encoding = encoding,
        view = view,
    )
}

/**
 * Budgets of the renderer, for the JSON the in-page script returns
 * ([AgentBrowser.renderSnapshot]). Same meaning as in [SnapshotOptions].
 */
data class RenderOptions(
    val maxCharsTotal: Int = 12_000,
    val maxNodes: Int = 400,
    val maxDepth: Int = 12,
    val compact: Boolean = true,
    val format: OutputFormat = OutputFormat.PLAIN_TEXT_TREE,
    val maxTextPerNode: Int = 200,
    val maxAttrValueLen: Int = 200,
    val maxSiblings: Int = 25,
    val includeAttrs: Set<String> = DEFAULT_INCLUDE_ATTRS,
) {
    internal fun toFfi() = agentsnapshot.ffi.RenderOptions(
        maxCharsTotal = maxCharsTotal,
        maxNodes = maxNodes,
        maxDepth = maxDepth,
        maxTextPerNode = maxTextPerNode,
        maxAttrValueLen = maxAttrValueLen,
        maxSiblings = maxSiblings,
        includeAttrs = includeAttrs.toList(),
        compact = compact,
        format = format,
    )
}

/** Options of the in-page `snapshot()` ([AgentBrowser.snapshotJs]). */
data class JsSnapshotOptions(
    /** Coarse cap on the nodes the script emits; the renderer applies the real budgets. */
    val maxNodes: Int = 500,
    val maxTextPerNode: Int = 200,
    val maxAttrValueLen: Int = 150,
    val interactiveOnly: Boolean = true,
    /** Give refs to elements made interactive by `cursor:pointer`, `onclick` or `tabindex`. */
    val cursorInteractive: Boolean = true,
    /** Snapshot only the first element matching this CSS selector. */
    val scope: String? = null,
) {
    internal fun toFfi() = agentsnapshot.ffi.JsSnapshotOptions(
        maxNodes = maxNodes,
        maxTextPerNode = maxTextPerNode,
        maxAttrValueLen = maxAttrValueLen,
        interactiveOnly = interactiveOnly,
        cursorInteractive = cursorInteractive,
        scope = scope,
    )
}
