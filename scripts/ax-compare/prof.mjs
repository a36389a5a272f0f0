// Profiles agent-browser.js in headless Chromium on one saved page (scripts stripped): ten
// snapshots under the CDP sampling profiler, then self time by function, largest first.
//
//   node scripts/ax-compare/prof.mjs js/agent-browser.js PAGE.html
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const [sp, pagePath] = process.argv.slice(2);
const stripped = join(mkdtempSync(join(tmpdir(), "prof-")), "page.html");
writeFileSync(stripped, readFileSync(pagePath, "latin1").replace(/<script[\s\S]*?<\/script\s*>/gi, ""), "latin1");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND"] });
const page = await browser.newPage();
await page.goto("file://" + stripped, { waitUntil: "load", timeout: 30000 }).catch(() => {});
await page.addScriptTag({content: readFileSync(sp, "utf8")});
for (let i = 0; i < 3; i++) await page.evaluate(() => window.__agentBrowser.snapshot({}));
const cdp = await page.context().newCDPSession(page);
await cdp.send("Profiler.enable"); await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
await cdp.send("Profiler.start");
const times = [];
for (let i = 0; i < 10; i++) times.push(await page.evaluate(() => window.__agentBrowser.snapshot({}).stats.jsTimeMs));
const { profile } = await cdp.send("Profiler.stop");
console.log("jsTimeMs", times.join(" "));
const self = new Map(); const byId = new Map(profile.nodes.map(n => [n.id, n]));
const dt = profile.timeDeltas; let total = 0;
profile.samples.forEach((id, i) => { const n = byId.get(id); const f = n.callFrame; const k = `${f.functionName || "(anon)"}:${f.lineNumber + 1}`; self.set(k, (self.get(k) || 0) + dt[i]); total += dt[i]; });
[...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 30).forEach(([k, v]) => console.log((v / 1000).toFixed(1).padStart(8), (100 * v / total).toFixed(1).padStart(5) + "%", k));
await browser.close();
