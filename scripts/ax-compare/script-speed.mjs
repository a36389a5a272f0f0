// Times two versions of agent-browser.js against each other on saved pages, in headless
// Chromium, and checks that they build the identical tree.
//
//   npm ci --prefix scripts/ax-compare
//   git show HEAD~1:js/agent-browser.js > /tmp/old.js
//   node scripts/ax-compare/script-speed.mjs /tmp/old.js js/agent-browser.js PAGE.html...
//
// Each page (scripts stripped) is loaded three times per version, alternating; each load
// takes seven snapshots and the last five count. Prints the median snapshot time (ms) of
// each version and whether their trees are identical.
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const stripped = join(mkdtempSync(join(tmpdir(), "script-speed-")), "page.html");
const [scriptA, scriptB, ...pages] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--host-resolver-rules=MAP * ~NOTFOUND"] });
for (const pagePath of pages) {
  const html = readFileSync(pagePath, "latin1").replace(/<script[\s\S]*?<\/script\s*>/gi, "");
  writeFileSync(stripped, html, "latin1");
  const res = {}; const all = {A: [], B: []}; const js = {};
  for (const [label, sp] of [["A", scriptA], ["B", scriptB], ["A", scriptA], ["B", scriptB], ["A", scriptA], ["B", scriptB]]) {
    const page = await browser.newPage();
    await page.goto("file://" + stripped, { waitUntil: "load", timeout: 30000 }).catch(() => {});
    await page.evaluate(readFileSync(sp, "utf8"));
    const times = []; let json = "";
    for (let i = 0; i < 7; i++) times.push(await page.evaluate(() => { const t = performance.now(); window.__r = window.__agentBrowser.snapshot({}); return performance.now() - t; }));
    json = await page.evaluate(() => JSON.stringify(window.__r.tree));
    all[label].push(...times.slice(2)); js[label] = json;
    await page.close();
  }
  const med = (v) => { v.sort((a, b) => a - b); return v[v.length >> 1].toFixed(1); };
  console.log(pagePath.split("/").pop(), "A", med(all.A), "B", med(all.B), js.A === js.B ? "identical-tree" : "DIFFERENT-TREE");
}
await browser.close();
