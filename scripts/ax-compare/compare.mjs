// Compares the interactive elements (role + name) of agent-snapshot's offline tree with those
// of headless Chromium's accessibility tree, page by page, for the shared corpus.
//
//   npm ci --prefix scripts/ax-compare          (playwright-core only: no browser download)
//   cargo build --release
//   node scripts/ax-compare/compare.mjs [CORPUS_DIR] [--out report.json] [--page FILE]
//        [--no-page-css] [--bin PATH] [--truth DIR]
//
// --no-page-css passes the flag to `snapshot`; --bin compares another build (e.g. an older
// commit's target/release/agent-snapshot). --truth DIR keeps Chromium's side of each page in
// DIR (one JSON file per page) and reads it from there on later runs: comparing a change to the
// renderer then takes seconds, not minutes, and needs no browser.
//
// Each page is compared with its <script> elements removed (Chromium then sees the same
// static page as the offline walk). Chromium's tree comes from CDP
// Accessibility.getFullAXTree, for every frame of the page (scripts/ax-compare/fixtures has
// pages with shadow roots and frames). Elements we expose that Chromium's stylesheets hide count
// separately ("css-hidden"): that is the difference offline parsing cannot see.
import { chromium } from "playwright-core";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "../..");
const args = process.argv.slice(2);
const outIdx = args.indexOf("--out");
const outFile = outIdx >= 0 ? args.splice(outIdx, 2)[1] : null;
const pageIdx = args.indexOf("--page");
const onlyPage = pageIdx >= 0 ? args.splice(pageIdx, 2)[1] : null;
const binIdx = args.indexOf("--bin");
const binArg = binIdx >= 0 ? args.splice(binIdx, 2)[1] : null;
const cssIdx = args.indexOf("--no-page-css");
const treeFlags = cssIdx >= 0 ? args.splice(cssIdx, 1) : [];
const truthIdx = args.indexOf("--truth");
const truthDir = truthIdx >= 0 ? resolve(args.splice(truthIdx, 2)[1]) : null;
const corpus = resolve(args[0] ?? join(repo, "../shared/corpus"));
const bin = binArg ? resolve(binArg) : join(repo, "target/release/agent-snapshot");
const INTERACTIVE = new Set(["button", "link", "textbox", "checkbox", "radio", "combobox", "listbox",
  "menuitem", "menuitemcheckbox", "menuitemradio", "option", "searchbox", "slider", "spinbutton",
  "switch", "tab", "treeitem"]);
const NAME_CHARS = 150; // both sides compared on a prefix: our names are capped at 200

// Case-insensitive: CSS text-transform changes the names Chromium reports, and no offline
// parser can see a stylesheet.
const norm = (s) => (s ?? "").replace(/[\t\n\f\r ]+/g, " ").trim().replace(/…$/, "").slice(0, NAME_CHARS).toLowerCase();
const key = (role, name) => `${role}\u0000${norm(name)}`;

function manifest() {
  const rows = readFileSync(join(corpus, "MANIFEST.tsv"), "utf8").trim().split("\n").slice(1);
  return new Map(rows.map((r) => r.split("\t")).map(([file, , category]) => [file, category]));
}

// Removes <script>…</script> from the raw bytes (latin1 round-trips every byte). Pages that
// are valid UTF-8 get a byte-order mark: many were re-encoded to UTF-8 without fixing their
// <meta charset>, which agent-snapshot sees through and Chromium does not; with a BOM both
// read the same characters, so names compare on content, not on decoding.
function stripScripts(bytes) {
  const out = Buffer.from(bytes.toString("latin1").replace(/<script\b[\s\S]*?<\/script\s*>/gi, ""), "latin1");
  const hasBom = out[0] === 0xef && out[1] === 0xbb && out[2] === 0xbf;
  let utf8 = true;
  try { new TextDecoder("utf-8", { fatal: true }).decode(out); } catch { utf8 = false; }
  return utf8 && !hasBom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), out]) : out;
}

// Our interactive elements as keys, and every interactive ref's key (for the outputs below).
function ours(file) {
  const json = execFileSync(bin, ["snapshot", file, "--tree-json", ...treeFlags], { maxBuffer: 1 << 28 });
  const tree = JSON.parse(json);
  const out = [];
  const byRef = new Map();
  const stack = [tree.tree];
  while (stack.length) {
    const n = stack.pop();
    if (n.role && INTERACTIVE.has(n.role)) {
      out.push(key(n.role, n.name));
      if (n.ref) byRef.set(n.ref, key(n.role, n.name));
    }
    for (const c of n.children ?? []) stack.push(c);
  }
  return { keys: out, byRef };
}

// The rendered snapshot (default budget: 12 000 characters) in each format, and the
// interactive elements it shows: every ref written in it (`[ref=e7]`, `[text](e7)`), each
// counted once, as the (role, name) of that ref in the tree — the full accessible name, so a
// name the line shortens still compares whole against Chromium's.
const FORMATS = ["list", "text"];
function rendered(file, byRef) {
  const shown = {};
  for (const format of FORMATS) {
    const text = execFileSync(bin, ["snapshot", file, "--format", format, ...treeFlags], { maxBuffer: 1 << 28 }).toString("utf8");
    const refs = new Set([...text.matchAll(/\[ref=(e\d+)\]|\]\((e\d+)\)/g)].map((m) => m[1] ?? m[2]));
    shown[format] = { chars: [...text].length, keys: [...refs].flatMap((r) => (byRef.has(r) ? [byRef.get(r)] : [])) };
  }
  return shown;
}

async function chromes(page, url) {
  await page.goto(url, { waitUntil: "load", timeout: 30000 }).catch(() => {});
  const cdp = await page.context().newCDPSession(page);
  // Every frame's tree: a frame's nodes are not in its parent's (getFullAXTree per frameId).
  const { frameTree } = await cdp.send("Page.getFrameTree");
  const frames = [], pending = [frameTree];
  while (pending.length) {
    const f = pending.pop();
    // A frame whose load failed (every request but file: is blocked) shows Chromium's error
    // page, with its own buttons: not the page's.
    if (!f.frame.unreachableUrl && !f.frame.url.startsWith("chrome-error:")) frames.push(f.frame.id);
    pending.push(...(f.childFrames ?? []));
  }
  const nodes = [];
  for (const frameId of frames) {
    try {
      nodes.push(...(await cdp.send("Accessibility.getFullAXTree", { frameId })).nodes);
    } catch {
      // A frame that went away (or is out of process) meanwhile: its tree is not compared.
    }
  }
  await cdp.detach();
  const shown = [];
  for (const n of nodes) {
    const role = n.role?.value;
    if (!n.ignored && INTERACTIVE.has(role)) shown.push(key(role, n.name?.value));
  }
  // Interactive elements the page's stylesheets hide (checkVisibility() is false): the names
  // they could carry. An element of ours that Chromium lacks and whose name is one of these
  // is hidden by CSS only, which no offline parser can see.
  const cssHidden = await page.evaluate((limit) => {
    const norm = (s) => (s ?? "").replace(/[\t\n\f\r ]+/g, " ").trim().slice(0, limit).toLowerCase();
    const out = [];
    const sel = "a[href],button,input,select,textarea,summary,option,[role],[tabindex],[onclick],[contenteditable]";
    for (const el of document.querySelectorAll(sel)) {
      if (el.checkVisibility({ opacityProperty: true, visibilityProperty: true })) continue;
      const labels = el.labels ? [...el.labels].map((l) => l.textContent) : [];
      for (const v of [el.getAttribute("aria-label"), el.textContent, el.getAttribute("title"),
        el.getAttribute("alt"), el.getAttribute("value"), el.getAttribute("placeholder"), ...labels]) {
        out.push(norm(v));
      }
    }
    return out;
  }, NAME_CHARS);
  return { shown, cssHidden: new Set(cssHidden) };
}

function multiset(list) {
  const m = new Map();
  for (const k of list) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
}

function take(m, k) {
  const n = m.get(k) ?? 0;
  if (n === 0) return false;
  m.set(k, n - 1);
  return true;
}

// Chromium's side of a page: from the --truth cache when it has the page, else from the
// browser (started on first use), then kept in the cache.
let browser = null, page = null;
async function truth(file, url) {
  const cached = truthDir && join(truthDir, file + ".json");
  if (cached && existsSync(cached)) {
    const t = JSON.parse(readFileSync(cached, "utf8"));
    return { shown: t.shown, cssHidden: new Set(t.cssHidden) };
  }
  if (!page) {
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run", "--disable-quic"],
    });
    // Offline pages: block every network request so a page cannot wait on the outside world.
    const context = await browser.newContext({ javaScriptEnabled: true });
    await context.route(/^(?!file:).*/, (route) => route.abort());
    page = await context.newPage();
  }
  const t = await chromes(page, url);
  if (cached) {
    mkdirSync(truthDir, { recursive: true });
    writeFileSync(cached, JSON.stringify({ shown: t.shown, cssHidden: [...t.cssHidden] }));
  }
  return t;
}

const categories = manifest();
const tmp = mkdtempSync(join(tmpdir(), "ax-compare-"));
const perCategory = {};
const perPage = [];
const perFormat = {};
// The older binaries have no `--format list`: the output figures need it.
const withFormats = /^\s*- list:/m.test(execFileSync(bin, ["snapshot", "--help"]).toString());
const missSamples = [], extraSamples = [];
for (const file of readdirSync(corpus).filter((f) => f.endsWith(".html") && (!onlyPage || f === onlyPage)).sort()) {
  const category = categories.get(file) ?? "other";
  const stripped = join(tmp, file);
  writeFileSync(stripped, stripScripts(readFileSync(join(corpus, file))));
  let mine, theirs, shown = null;
  try {
    const o = ours(stripped);
    mine = o.keys;
    if (withFormats) shown = rendered(stripped, o.byRef);
    theirs = await truth(file, "file://" + stripped);
  } catch (e) {
    console.error(`${file}: ${e.message}`);
    continue;
  }
  const chromeShown = multiset(theirs.shown);
  let matched = 0, cssHidden = 0;
  const extras = [];
  for (const k of mine) {
    if (take(chromeShown, k)) matched++;
    else if (theirs.cssHidden.has(k.split("\u0000")[1])) cssHidden++;
    else extras.push(k);
  }
  const misses = [...chromeShown].flatMap(([k, n]) => Array(n).fill(k));
  if (onlyPage) {
    for (const k of extras) console.log("ours only:   ", k.replace("\u0000", " "));
    for (const k of misses) console.log("chrome only: ", k.replace("\u0000", " "));
  }
  // Per output format: the shown elements that Chromium also exposes (multisets, per page).
  const fmt = {};
  for (const [format, { chars, keys }] of Object.entries(shown ?? {})) {
    const left = multiset(theirs.shown);
    const hits = keys.filter((k) => take(left, k)).length;
    fmt[format] = { chars, shown: keys.length, hits };
    const t = (perFormat[format] ??= { pages: 0, chars: 0, shown: 0, hits: 0 });
    t.pages++; t.chars += chars; t.shown += keys.length; t.hits += hits;
  }
  const c = (perCategory[category] ??= { pages: 0, ours: 0, chrome: 0, matched: 0, cssHidden: 0 });
  c.pages++; c.ours += mine.length; c.chrome += theirs.shown.length; c.matched += matched; c.cssHidden += cssHidden;
  perPage.push({ file, category, ours: mine.length, chrome: theirs.shown.length, matched, cssHidden, formats: fmt });
  for (const k of misses.slice(0, 3)) missSamples.push(`${file}: ${k.replace("\u0000", " ")}`);
  for (const k of extras.slice(0, 3)) extraSamples.push(`${file}: ${k.replace("\u0000", " ")}`);
}
await browser?.close();

const pct = (a, b) => (b === 0 ? 100 : (100 * a) / b).toFixed(1);
console.log("category   pages  recall  precision  (precision without css-hidden)  css-hidden");
const total = { pages: 0, ours: 0, chrome: 0, matched: 0, cssHidden: 0 };
for (const [cat, c] of Object.entries(perCategory).sort()) {
  for (const k in total) total[k] += c[k];
  console.log(`${cat.padEnd(10)} ${String(c.pages).padStart(5)}  ${pct(c.matched, c.chrome).padStart(6)}  ${pct(c.matched, c.ours).padStart(9)}  ${pct(c.matched, c.ours - c.cssHidden).padStart(30)}  ${String(c.cssHidden).padStart(10)}`);
}
console.log(`${"total".padEnd(10)} ${String(total.pages).padStart(5)}  ${pct(total.matched, total.chrome).padStart(6)}  ${pct(total.matched, total.ours).padStart(9)}  ${pct(total.matched, total.ours - total.cssHidden).padStart(30)}  ${String(total.cssHidden).padStart(10)}`);
if (withFormats) {
  // Pooled (all matches over all characters) and the median page's figure.
  console.log("\nformat  pages   chars  shown  chromium-matching  per 1000 chars  (median page)");
  for (const [format, t] of Object.entries(perFormat)) {
    const perPageFigures = perPage.filter((p) => p.formats[format]?.chars)
      .map((p) => (1000 * p.formats[format].hits) / p.formats[format].chars).sort((a, b) => a - b);
    const median = perPageFigures[Math.floor(perPageFigures.length / 2)] ?? 0;
    console.log(`${format.padEnd(6)} ${String(t.pages).padStart(6)} ${String(t.chars).padStart(7)} ${String(t.shown).padStart(6)} ${String(t.hits).padStart(18)} ${(1000 * t.hits / t.chars).toFixed(2).padStart(15)} ${median.toFixed(2).padStart(14)}`);
  }
}
if (outFile) writeFileSync(outFile, JSON.stringify({ perCategory, perFormat, perPage, missSamples, extraSamples }, null, 1));
