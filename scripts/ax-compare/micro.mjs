// Per-element cost (µs) of the DOM and computed-style reads agent-browser.js makes, over
// every element of one saved page (scripts stripped), in headless Chromium. What steered the
// script's style record: each CSSStyleDeclaration property read costs about as much as
// getComputedStyle() itself.
//
//   node scripts/ax-compare/micro.mjs PAGE.html
import { chromium } from "playwright-core";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const [pagePath] = process.argv.slice(2);
const stripped = join(mkdtempSync(join(tmpdir(), "prof-")), "page.html");
writeFileSync(stripped, readFileSync(pagePath, "latin1").replace(/<script[\s\S]*?<\/script\s*>/gi, ""), "latin1");
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND"] });
const page = await browser.newPage();
await page.goto("file://" + stripped, { waitUntil: "load", timeout: 30000 }).catch(() => {});
const r = await page.evaluate(() => {
  const els = [...document.body.getElementsByTagName("*")];
  const css = els.map(e => getComputedStyle(e));
  const out = {n: els.length};
  const t = (name, f) => { for (let k = 0; k < 2; k++) { const t0 = performance.now(); let x = 0; for (let i = 0; i < els.length; i++) x += f(els[i], css[i]) ? 1 : 0; out[name] = +((performance.now() - t0) * 1000 / els.length).toFixed(3); } };
  t("gcs", e => getComputedStyle(e));
  t("display", (e, s) => s.display);
  t("display2", (e, s) => s.display);
  t("visibility", (e, s) => s.visibility);
  t("opacity", (e, s) => s.opacity);
  t("cursor", (e, s) => s.cursor);
  t("overflow", (e, s) => s.overflow);
  t("gcs+display", e => getComputedStyle(e).display);
  t("gpv-display", (e, s) => s.getPropertyValue("display"));
  t("gpv-visibility", (e, s) => s.getPropertyValue("visibility"));
  t("gcs+gpv3", e => { const s = getComputedStyle(e); return s.getPropertyValue("display") + s.getPropertyValue("visibility") + s.getPropertyValue("opacity"); });
  t("gcs+3", e => { const s = getComputedStyle(e); return s.display + s.visibility + s.opacity; });
  t("csm-display", e => e.computedStyleMap().get("display"));
  t("checkVisibility", e => e.checkVisibility());
  t("checkVisibilityOpts", e => e.checkVisibility({opacityProperty: true, visibilityProperty: true}));
  t("offsetWidth", e => e.offsetWidth);
  t("offsetW+H", e => !e.offsetWidth && !e.offsetHeight);
  t("inert", e => e.inert);
  t("tagName", e => e.tagName);
  t("localName", e => e.localName);
  t("hasAttr", e => e.hasAttribute("aria-hidden"));
  t("getAttr", e => e.getAttribute("role"));
  t("lastChild", e => e.lastChild);
  t("isContentEditable", e => e.isContentEditable);
  t("onclick", e => typeof e.onclick === "function");
  t("mapset", e => (window.__m || (window.__m = new Map())).set(e, 1));
  return out;
});
console.log(JSON.stringify(r, null, 1));
await browser.close();
