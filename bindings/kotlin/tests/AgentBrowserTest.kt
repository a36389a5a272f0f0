// The Kotlin binding's tests, run on the JVM by bindings/kotlin/test.sh:
//
//   java -cp agent-snapshot.jar:agent-snapshot-tests.jar:jna.jar:kotlin-stdlib.jar:kotlin-test.jar \
//     agentsnapshot.tests.AgentBrowserTestKt --repo REPO --cli PATH [--corpus DIR]... [--bench PAGE]
//
// `--cli` is the crate's command-line tool: the corpus pages must give the same text through
// Kotlin as through it. `--corpus` adds directories of pages (the shared corpus); the repo's
// own pages are always used. `--bench PAGE` times a snapshot of PAGE through the binding
// instead of testing.
package agentsnapshot.tests

import agentsnapshot.ActionResult
import agentsnapshot.AgentBrowser
import agentsnapshot.ffi.AgentSnapshotException
import agentsnapshot.JsSnapshotOptions
import agentsnapshot.PageView
import agentsnapshot.QueryKind
import agentsnapshot.RenderOptions
import agentsnapshot.SnapshotOptions
import agentsnapshot.ffi.crateDefaults
import java.io.File
import java.util.concurrent.TimeUnit
import kotlin.test.assertContains
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith
import kotlin.test.assertFalse
import kotlin.test.assertNotNull
import kotlin.test.assertNull
import kotlin.test.assertTrue

/** Named tests, run one after the other; a failure is reported and the rest still run. */
class Runner {
    private var passed = 0
    private val failed = mutableListOf<String>()

    fun test(name: String, body: () -> Unit) {
        val start = System.nanoTime()
        try {
            body()
            passed++
            println("ok      $name (${(System.nanoTime() - start) / 1_000_000} ms)")
        } catch (e: Throwable) {
            failed += name
            println("FAILED  $name")
            e.printStackTrace(System.out)
        }
    }

    fun skip(name: String, why: String) = println("skipped $name: $why")

    /** Prints the summary; false when a test failed. */
    fun finish(): Boolean {
        println("${passed} passed, ${failed.size} failed" + if (failed.isEmpty()) "" else ": $failed")
        return failed.isEmpty()
    }
}

class Args(argv: Array<String>) {
    val repo: File
    val cli: File
    val corpora = mutableListOf<File>()
    var bench: File? = null

    init {
        var repo: File? = null
        var cli: File? = null
        var i = 0
        while (i < argv.size) {
            val value = argv.getOrNull(i + 1) ?: error("${argv[i]} needs a value")
            when (argv[i]) {
                "--repo" -> repo = File(value)
                "--cli" -> cli = File(value)
                "--corpus" -> corpora += File(value)
                "--bench" -> bench = File(value)
                else -> error("unknown argument ${argv[i]}")
            }
            i += 2
        }
        this.repo = repo ?: error("--repo REPO is required")
        this.cli = cli ?: error("--cli PATH is required")
    }
}

/** The CLI's standard output, without the newline it ends with. */
fun cli(args: Args, vararg argv: String): String {
    val process = ProcessBuilder(listOf(args.cli.path) + argv)
        .redirectError(ProcessBuilder.Redirect.INHERIT)
        .start()
    val out = process.inputStream.readBytes().toString(Charsets.UTF_8)
    check(process.waitFor(60, TimeUnit.SECONDS)) { "${args.cli} ${argv.toList()} did not finish" }
    check(process.exitValue() == 0) { "${args.cli} ${argv.toList()} exited with ${process.exitValue()}" }
    return out.removeSuffix("\n")
}

/** The text of an insta golden file (what follows its front matter). */
fun golden(args: Args, name: String): String =
    File(args.repo, "tests/snapshots/$name.snap").readText().substringAfter("\n---\n").removeSuffix("\n")

fun String.charCount(): Int = codePointCount(0, length)

/** Asserts that the crate reported an error of type [T] and returns its message. */
inline fun <reified T : AgentSnapshotException> crateError(block: () -> Unit): String {
    val e = assertFailsWith<T> { block() }
    return assertNotNull(e.message)
}

fun main(argv: Array<String>) {
    val args = Args(argv)
    args.bench?.let {
        bench(it)
        return
    }
    val r = Runner()
    val repoCorpus = File(args.repo, "corpus")

    r.test("the Kotlin defaults are the crate's") {
        val d = crateDefaults()
        assertEquals(d.snapshot, SnapshotOptions().toFfi())
        assertEquals(d.render, RenderOptions().toFfi())
        assertEquals(d.jsSnapshot, JsSnapshotOptions().toFfi())
    }

    r.test("view: a thread served only without scripts reads from the no-script view") {
        val post = "A reply long enough to be read as the thread, with a clause or two, and more. ".repeat(6)
        val html = "<title>Thread</title><body><div id=app></div>" +
            "<noscript><main><h1>Help with a kettle</h1><p>$post</p></main></noscript></body>"
        val auto = AgentBrowser.snapshot(html).text
        assertContains(auto, "view=noscript")
        assertContains(auto, "Help with a kettle")
        assertEquals(auto, AgentBrowser.snapshot(html, SnapshotOptions(view = PageView.NO_SCRIPT)).text)
        val scripted = AgentBrowser.snapshot(html, SnapshotOptions(view = PageView.SCRIPTED)).text
        assertFalse(scripted.contains("Help with a kettle"), scripted)
    }

    r.test("the design's offline example: buildDocument, snapshot, query") {
        val html = File(repoCorpus, "gold-price.html").readText()
        AgentBrowser.buildDocument(html).use { doc ->
            val snap = AgentBrowser.snapshot(doc)
            assertEquals(golden(args, "golden__gold_price_page"), snap.text)
            assertFalse(snap.text.contains("ignore previous instructions"), "hidden text leaked")
            // Refs: a map in document order, with what the model may ask about each. The five
            // price list items (e8–e12) are shown whole, so their lines carry no ref; the
            // document still knows them (the query for e8 below).
            assertEquals((1..7).map { "e$it" }, snap.refs.keys.toList())
            // e1 is the navigation landmark (landmarks always get a ref, to be scoped).
            assertEquals("navigation", snap.refs.getValue("e1").role)
            val home = snap.refs.getValue("e2")
            assertEquals("e2", home.ref)
            assertEquals("a", home.tag)
            assertEquals("link", home.role)
            assertEquals("Home", home.name)
            assertEquals(mapOf("href" to "/"), home.attrs)
            assertEquals("search", snap.refs.getValue("e6").attrs["type"])
            assertEquals(12, snap.stats.nodesEmitted)
            assertEquals(snap.text.charCount(), snap.stats.charsEmitted)
            assertFalse(snap.stats.truncated)
            assertEquals(emptyList(), snap.stats.truncateReasons)
            assertEquals(12, doc.refCount())
            assertEquals("UTF-8", doc.encoding())
            // Bounded answers, and unknown refs as answers.
            val price = AgentBrowser.query(doc, "e8", QueryKind.TEXT)
            assertEquals("Gold ¥580.00/g", price.value)
            assertEquals(QueryKind.TEXT, price.kind)
            assertNull(price.error)
            val cut = AgentBrowser.query(doc, "e2", QueryKind.OUTER_HTML, limitChars = 8)
            assertEquals("<a href=", cut.value)
            assertTrue(cut.truncated)
            assertEquals("not_a_form_control", AgentBrowser.query(doc, "e5", QueryKind.VALUE).error)
            val missing = AgentBrowser.query(doc, "e99", QueryKind.TEXT)
            assertEquals("ref_not_found", missing.error)
            assertEquals("", missing.value)
            // The one-shot forms parse again and agree.
            assertEquals(snap, AgentBrowser.snapshot(html))
            assertEquals(
                """{"href":"/pricing"}""",
                AgentBrowser.queryRef(html, "e3", QueryKind.ATTRS).value,
            )
        }
    }

    r.test("budgets hold on a 600 KB page; queries are bounded") {
        val html = File(repoCorpus, "shop-600k.html").readText()
        val snap = AgentBrowser.snapshot(html, SnapshotOptions(maxCharsTotal = 2_000))
        assertTrue(snap.text.charCount() <= 2_000, "${snap.text.charCount()} chars")
        assertTrue(snap.stats.truncated)
        assertContains(snap.stats.truncateReasons, "maxCharsTotal")
        AgentBrowser.buildDocument(html).use { doc ->
            assertTrue(doc.refCount() > 1_000, "${doc.refCount()} refs")
            var cut = 0
            for (n in 1..doc.refCount() step 7) {
                val q = AgentBrowser.query(doc, "e$n", QueryKind.OUTER_HTML, limitChars = 40)
                assertNull(q.error)
                assertTrue(q.value.charCount() <= 40, "e$n: ${q.value.charCount()} chars")
                if (q.truncated) cut++
            }
            assertTrue(cut > 0, "no outerHTML was cut at 40 characters")
        }
    }

    r.test("crate errors arrive as exceptions with the crate's message") {
        assertContains(
            crateError<AgentSnapshotException.NotInjected> {
                AgentBrowser.renderSnapshot("""{"error":"not_injected"}""")
            },
            "inject `script()` again",
        )
        val badTree = crateError<AgentSnapshotException.BadScriptResult> { AgentBrowser.renderSnapshot("{not json") }
        val cliMessage = ProcessBuilder(args.cli.path, "render", "-")
            .redirectErrorStream(true)
            .start()
            .also { p -> p.outputStream.use { it.write("{not json".toByteArray()) } }
            .let { p -> p.inputStream.readBytes().toString(Charsets.UTF_8).also { p.waitFor() } }
        assertContains(cliMessage, badTree)
        assertContains(
            crateError<AgentSnapshotException.BadScriptResult> { AgentBrowser.parseActionResult("[1]") },
            "the script's action result is malformed",
        )
        assertContains(
            crateError<AgentSnapshotException.BadArgument> { AgentBrowser.scrollJs("sideways") },
            "use up, down, left or right",
        )
        assertContains(
            crateError<AgentSnapshotException.BadArgument> {
                AgentBrowser.buildDocument("x".toByteArray(), SnapshotOptions(encoding = "no-such-charset"))
            },
            "no-such-charset",
        )
        assertContains(
            crateError<AgentSnapshotException.BadArgument> {
                AgentBrowser.renderSnapshot("{}", RenderOptions(maxNodes = -1))
            },
            "maxNodes must be 0 or more",
        )
        assertContains(
            crateError<AgentSnapshotException.BadArgument> {
                AgentBrowser.snapshot("<main></main>", SnapshotOptions(scopeSelector = "#missing"))
            },
            "scopeSelector",
        )
        // A scope (CSS or ref) snapshots that part only; refs stay the whole page's.
        val scoped = AgentBrowser.snapshot(
            "<nav><a href=/>Home</a></nav><div id=x><p>Hi <a href=/b>B</a></p></div>",
            SnapshotOptions(scopeSelector = "#x"),
        ).text
        assertContains(scoped, "[B](e3)")
        assertFalse(scoped.contains("Home"), scoped)
        assertContains(
            crateError<AgentSnapshotException.BadArgument> {
                AgentBrowser.queryRef("<a href=/>x</a>", "e1", QueryKind.COMPUTED_STYLES)
            },
            "queryJs",
        )
        // Values the crate cannot encode are refused in Kotlin, before the call.
        assertFailsWith<IllegalArgumentException> { AgentBrowser.actionJs("e1", "fill", mapOf("value" to Any())) }
        val loop = mutableMapOf<String, Any?>()
        loop["self"] = loop
        assertFailsWith<IllegalArgumentException> { AgentBrowser.actionJs("e1", "fill", loop) }
        assertContains(
            crateError<AgentSnapshotException.BadArgument> {
                AgentBrowser.actionJs("e1", "fill", mapOf("value" to Double.NaN))
            },
            "not a JSON number",
        )
    }

    r.test("expressions: the design's calls, JSON-encoded") {
        val wrap = { call: String ->
            "(window.__agentBrowser ? JSON.stringify(window.__agentBrowser.$call) : " +
                "JSON.stringify({\"error\":\"not_injected\"}))"
        }
        assertEquals(wrap("""action("e5","click",{})"""), AgentBrowser.actionJs("e5", "click"))
        assertEquals(
            wrap("""action("e3","fill",{"value":"iPhone 16"})"""),
            AgentBrowser.actionJs("e3", "fill", mapOf("value" to "iPhone 16")),
        )
        assertEquals(wrap("""query("e1","html",2000)"""), AgentBrowser.queryJs("e1", QueryKind.OUTER_HTML))
        assertEquals(wrap("page.scrollBy(0,300)"), AgentBrowser.scrollJs("down"))
        assertEquals(wrap("page.scrollBy(-50,0)"), AgentBrowser.scrollJs("left", 50))
        assertEquals(wrap("""page.pressKey("Enter")"""), AgentBrowser.pressKeyJs("Enter"))
        assertEquals(wrap("page.getUrl()"), AgentBrowser.getUrlJs())
        assertEquals(wrap("page.getTitle()"), AgentBrowser.getTitleJs())
        assertContains(
            AgentBrowser.snapshotJs(JsSnapshotOptions(maxNodes = 50, scope = "main")),
            """snapshot({"maxNodes":50,"maxTextPerNode":200,"maxAttrValueLen":150,"interactiveOnly":true,"cursorInteractive":true,"scope":"main"})""",
        )
        assertContains(AgentBrowser.getScript(), "__agentBrowser")
        assertEquals(
            ActionResult(
                success = true, action = "select", error = null, ref = "e7", value = null,
                checked = null, values = listOf("a", "b"), focused = null,
            ),
            AgentBrowser.parseActionResult("""{"success":true,"action":"select","ref":"e7","values":["a","b"]}"""),
        )
        val q = AgentBrowser.parseQueryResult("""{"ref":"e2","kind":"computed_styles","value":"{}","truncated":true}""")
        assertEquals(QueryKind.COMPUTED_STYLES, q.kind)
        assertTrue(q.truncated)
        assertEquals("ref_not_found", AgentBrowser.parseQueryResult("""{"ref":"e9","kind":"text","value":"","truncated":false,"error":"ref_not_found"}""").error)
    }

    val hostile = listOf(
        "\"", "'", "\\", "`", "</script>", "<!--", "\u2028", "\u2029", "\n", "\r", "\u0000", ")", "}",
        "\${x}", "&amp;", "金", "\uD83D\uDE00", "\uFEFF", "</SCRIPT ",
    )
    val values = (0 until 300).map { i -> (0 until 5).joinToString("") { j -> hostile[(i * 7 + j * 13 + i / 3) % hostile.size] } }

    r.test("actionJs with hostile values: nothing breaks out") {
        for (v in values) {
            val expr = AgentBrowser.actionJs(v, v, mapOf("value" to v, "values" to listOf(v, 1, 2.5, null, true), "nested" to mapOf(v to v)))
            for (bad in listOf("</script", "</SCRIPT", "\u2028", "\u2029", "<!--")) {
                assertFalse(expr.contains(bad), "${bad.toList()} in $expr")
            }
            for (expr2 in listOf(AgentBrowser.queryJs(v, QueryKind.TEXT), AgentBrowser.pressKeyJs(v))) {
                assertFalse(expr2.contains("</script") || expr2.contains("\u2028"), expr2)
            }
        }
    }

    val node = listOf("/usr/bin/node", "/usr/local/bin/node").map(::File).firstOrNull { it.canExecute() }
    if (node == null) {
        r.skip("actionJs values round-trip through node", "node is not installed")
    } else {
        r.test("actionJs values round-trip through node") {
            // Each value is also sent as its UTF-16 code units, numbers that cannot break out,
            // and node checks that the expression hands the script exactly that string.
            val checks = values.joinToString("\n") { v ->
                val units = v.map { it.code }.joinToString(",")
                val expr = AgentBrowser.actionJs(v, v, mapOf("value" to v, "values" to listOf(v, 1, 2.5, null, true), "nested" to mapOf(v to v)))
                "check(String.fromCharCode($units), $expr);"
            }
            val program = """
                const window = {__agentBrowser: {action: (ref, action, params) => ({ref, action, params})}};
                let n = 0;
                const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
                function check(v, json) {
                  const got = JSON.parse(json);
                  const want = {ref: v, action: v, params: {value: v, values: [v, 1, 2.5, null, true], nested: {[v]: v}}};
                  if (!same(got, want)) { console.log('MISMATCH ' + JSON.stringify(want) + ' ' + json); process.exit(1); }
                  n++;
                }
                $checks
                console.log('checked ' + n);
            """.trimIndent()
            val file = File.createTempFile("action-js", ".js")
            try {
                file.writeText(program)
                val p = ProcessBuilder(node.path, file.path).redirectErrorStream(true).start()
                val out = p.inputStream.readBytes().toString(Charsets.UTF_8).trim()
                assertEquals(0, p.waitFor(), out)
                assertEquals("checked ${values.size}", out)
            } finally {
                file.delete()
            }
        }
    }

    r.test("a node-tree JSON renders as the design shows it") {
        val json = """
            {"version": 1, "url": "https://example.com", "title": "Today's gold price",
             "tree": {"tag": "body", "children": [
               {"tag": "nav", "role": "navigation", "children": [
                 {"tag": "a", "role": "link", "ref": "e1", "name": "Home", "attrs": {"href": "/"}}]},
               {"tag": "main", "role": "main", "children": [
                 {"tag": "h1", "role": "heading", "ref": "e2", "name": "Today's gold price", "level": 1},
                 {"tag": "input", "role": "checkbox", "ref": "e3", "name": "Remember me",
                  "attrs": {"type": "checkbox", "name": "remember"}, "states": ["checked"]},
                 {"tag": "div", "role": "clickable", "ref": "e4", "name": "Chat with us", "cursorInteractive": true}]}]},
             "stats": {"domNodes": 3200, "visitedNodes": 800, "emittedNodes": 45, "skippedHidden": 240}}
        """.trimIndent()
        val snap = AgentBrowser.renderSnapshot(json)
        assertEquals(
            """
            [snapshot] url=https://example.com title="Today's gold price" nodes=5 truncated=false
            - navigation: [Home](e1)
            - main:
              - heading "Today's gold price" [level=1] [ref=e2]
              - checkbox "Remember me" [name=remember] [checked] [ref=e3]
              - clickable "Chat with us" [ref=e4]
            """.trimIndent(),
            snap.text,
        )
        assertEquals(listOf("e1", "e2", "e3", "e4"), snap.refs.keys.toList())
        val cut = AgentBrowser.renderSnapshot(json, RenderOptions(maxNodes = 2))
        assertEquals(listOf("maxNodes"), cut.stats.truncateReasons)
        assertEquals(2, cut.stats.nodesEmitted)
    }

    val pages = (listOf(repoCorpus) + args.corpora)
        .filter { it.isDirectory }
        .flatMap { dir -> dir.listFiles { f -> f.name.endsWith(".html") }!!.sortedBy { it.name } }
    r.test("the corpus pages (${pages.size}) give the CLI's text, offline and through the node tree") {
        for (page in pages) {
            val expected = cli(args, "snapshot", page.path)
            val text = AgentBrowser.buildDocument(page.readBytes()).use { it.snapshot().text }
            assertEquals(expected, text, page.name)
            val tree = cli(args, "snapshot", page.path, "--tree-json")
            assertEquals(expected, AgentBrowser.renderSnapshot(tree).text, "${page.name} through the node tree")
        }
        for (page in repoCorpus.listFiles { f -> f.name.endsWith(".html") }!!) {
            assertEquals(cli(args, "snapshot", page.path), AgentBrowser.snapshot(page.readText()).text, page.name)
        }
    }
    for (dir in args.corpora.filterNot { it.isDirectory }) {
        r.skip("corpus $dir", "not a directory (the shared corpus is beside the repo in CI)")
    }

    if (!r.finish()) kotlin.system.exitProcess(1)
}

/** Times a snapshot of [page] through the binding: bytes in, text out, as the CLI does. */
fun bench(page: File) {
    val bytes = page.readBytes()
    fun once() = AgentBrowser.buildDocument(bytes).use { it.snapshot().text.length }
    repeat(20) { once() }
    val times = (1..100).map {
        val start = System.nanoTime()
        once()
        (System.nanoTime() - start) / 1e6
    }.sorted()
    println("snapshot of ${page.name} (${bytes.size} bytes) through Kotlin: median %.2f ms, min %.2f ms".format(times[times.size / 2], times.first()))
    // The cost of a call itself: the cheapest export, many times.
    repeat(10_000) { AgentBrowser.getUrlJs() }
    val calls = 200_000
    val start = System.nanoTime()
    repeat(calls) { AgentBrowser.getUrlJs() }
    println("one call through the binding (getUrlJs): %.2f µs".format((System.nanoTime() - start) / 1e3 / calls))
}
