// agent-browser.js: the in-page half of agent-snapshot. Plain ES2017, no dependencies.
// Installs window.__agentBrowser = {snapshot, action, query, page}. snapshot() returns the
// node tree of docs/node-tree.md with the roles, names and ref rules of src/aria and
// src/walk.rs (keep the two in step: tests/browser.rs checks parity on static pages).
// Shipped minified (js/agent-browser.min.js, made by scripts/js/build.sh).
(() => {
'use strict';
// `window.__agentBrowser` is spelled out: the build mangles properties that start with `_`
// but leaves those of an undeclared global such as `window` alone (terser's
// `undeclared: false`), which it cannot know `W` to be.
let W = window;
if ((window.__agentBrowser || {}).version === 1) return;
let set = s => new Set(s.split(' '));
// The interactive roles named from their content; the rest are text fields and ranges.
let CONTENT_NAMED = 'button link checkbox radio menuitem menuitemcheckbox menuitemradio option switch tab treeitem';
let INTERACTIVE = set(CONTENT_NAMED + ' textbox combobox listbox searchbox slider spinbutton');
let CONTENT = set('heading cell gridcell columnheader rowheader listitem article region main navigation img progressbar meter');
// Landmarks and dialogs (roles.rs is_landmark): always a ref, so a folded region can be scoped.
let LANDMARK = set('banner complementary contentinfo form region alertdialog main navigation search dialog');
// Roles named from their content: the interactive ones but text fields and ranges, and these.
let FROM_CONTENT = set(CONTENT_NAMED + ' cell columnheader gridcell heading row rowheader comment sectionheader sectionfooter tooltip');
// Roles that prohibit a name, among those the tree can hold.
let NO_NAME = set('caption generic none paragraph presentation suggestion term');
let KIDS_PRESENTATIONAL = set('button checkbox img meter menuitemcheckbox menuitemradio option progressbar radio scrollbar separator slider switch tab');
// Tag -> role for the unconditional rows of the HTML-AAM table (role:tags; a bare name maps
// to itself); the conditional rows are in implicitRole. Text-level roles (strong, code…) are
// left out: the tree never has nodes for them (walk.rs), so the script need not know them.
let IMPLICIT = {};
'article blockquote button dialog figure main math meter option search group:details,fieldset,optgroup,hgroup,address heading:h1,h2,h3,h4,h5,h6 list:menu,ol,ul term:dfn,dt listbox:datalist definition:dd separator:hr status:output paragraph:p progressbar:progress textbox:textarea navigation:nav'
  .split(' ').forEach(p => { p = p.split(':'); for (let t of (p[1] || p[0]).split(',')) IMPLICIT[t] = p[0]; });
// Every concrete ARIA role: those above plus the rest (src/aria/roles.rs ROLES).
let ROLES = new Set([...INTERACTIVE, ...CONTENT, ...LANDMARK, ...FROM_CONTENT, ...NO_NAME, ...KIDS_PRESENTATIONAL, ...Object.values(IMPLICIT),
  ...'alert application directory document feed grid log marquee menu menubar note radiogroup rowgroup table tablist tabpanel timer toolbar tree treegrid'.split(' ')]);
// A frame is a node of its own (always with a ref, so it can be scoped); not an ARIA role,
// so added after ROLES: role="iframe" stays invalid.
IMPLICIT.iframe = 'iframe';
LANDMARK.add('iframe');
let GLOBAL_ARIA = 'atomic busy controls current describedby details dropeffect flowto grabbed keyshortcuts label labelledby live owns relevant roledescription'.split(' ').map(a => 'aria-' + a);
let CHECKABLE = /^(checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/;
let ATTRS = 'href name type value placeholder aria-label role src action method'.split(' ');
let SPACE = /[ \t\n\f\r]+/g;
let norm = s => (s || '').replace(SPACE, ' ').trim();
let attr = (el, a) => el.getAttribute(a);
let has = (el, a) => el.hasAttribute(a);
let val = (el, a) => norm(attr(el, a));
// The parent in the composed tree: a shadow root's top elements have the host above them.
let up = el => el.parentElement || (el.parentNode || {}).host || null;
let D = document;
// A same-origin frame's document, or null (cross-origin: the agent walks it through CDP).
let frameDoc = el => { try { return tag(el) === 'iframe' && el.contentDocument; } catch (e) { return null; } };
let win = el => el.ownerDocument.defaultView || W;
let AR = 'data-agent-ref';
let send = (el, e) => el.dispatchEvent(e);
let BUTTON_INPUT = /^(button|submit|reset)$/;
let tag = el => el.localName;
let editable = el => el.isContentEditable;
// Computed styles and table roles, cached for the length of one snapshot (nothing changes the
// page meanwhile): every cell asks for its table's role, a layout-table check each time.
let cache = null, tables = null;
let memo = (m, el, f) => { let c = m && m.get(el); if (c == null) { c = f(el); if (m) m.set(el, c); } return c; };
// Each property read on a CSSStyleDeclaration serialises its value afresh (~0.5 us), and the
// walk asks for display up to three times per element: the values it needs on every element
// are read once into a record; the rare ones (overflow, cursor) through _s when asked.
// `_o`: faded out (opacity 0), but not what holds the page's first <h1> or <main>, nor what
// is also moved (a transform, will-change) or Webflow's interactions drive (data-w-id):
// there it is an entrance's first frame, which a script lifts (src/style/mod.rs).
let css = el => memo(cache, el, e => { let s = win(e).getComputedStyle(e); return {_s: s, _d: s.display, _v: s.visibility,
  _o: s.opacity === '0' && s.transform + s.willChange == 'noneauto' && !has(e, 'data-w-id') && !['h1', 'main'].some(t => e.contains(D.querySelector(t)))}; });
let cursor = cs => cs._c || (cs._c = cs._s.cursor);
let kid = (el, s) => el.querySelector(':scope>' + s);
let pres = r => r === 'none' || r === 'presentation';
let dropped = r => r === '' || pres(r);
let shows = cs => cs._v === 'visible';
// v, or x where v is null or undefined.
let dflt = (v, x) => v == null ? x : v;
let isTrue = (el, a) => /^\s*true\s*$/i.test(attr(el, a) || '');
let maxText = 200;
// The page as HTML for the content stage (src/live/rendered.rs): what the walk found shown,
// emitted nodes numbered by their place in the walk (data-n). Only the attributes the
// content stage reads (a framework's toggles among them: src/aria/collapsed.rs); raw-text containers become divs so their content parses as elements.
// (The page's JSON-LD, hidden, the host asks for apart: src/live/refs.rs.)
let KEPT = /^(class|id|role|href|alt|title|type|name|value|open|for|start|\w+span|item\w+|aria-\w+|data-(bs-)?(toggle|target))$/;
let esc = s => s.replace(/[&<"]/g, c => '&#' + c.charCodeAt() + ';');
// (noembed and noframes are never shown: display:none in the UA sheet.)
let htag = t => /^(iframe|xmp|noscript|plaintext)$/.test(t) ? 'div' : t;
// (Names, then values: 3x faster than walking `attributes`, which makes an Attr of each.)
// The HTML is written again only when the page changed since it was last written by a mutation
// that may move what is shown (nodes added or removed, text, class, style, hidden, open: hcap
// forgets the cap it was written with) or the node cap differs: else `html: false`, and the
// host reuses what it parsed, once it finds the walk the same (src/live/refs.rs: else it asks
// again for another cap). Writing and parsing the page are 40 % of a look. (Observed from the
// first snapshot; our own marks, data-agent-ref, never match. The test is short for the
// script's size: /^c/ takes childList, characterData and class, and checked, cols… besides,
// which only costs a write.)
let hcap, mo;
let hattrs = el => { let s = ''; for (let a of el.getAttributeNames()) if (KEPT.test(a)) s += ' ' + a + '="' + esc(cut(attr(el, a), 300)) + '"'; return s; };

// Text cut at n code points, ending in an ellipsis when cut (src/text.rs). Spread into code
// points only when it may be too long (no more UTF-16 units than n: no more code points): it
// is asked of every name, attribute and written attribute. (Called with two arguments only.)
let cut = (s, n, a = s.length > n && [...s]) => a && a.length > n ? n ? a.slice(0, n - 1).join('') + '\u2026' : '' : s;
// Rendered text with a character limit: whitespace collapsed, block boundaries as spaces.
// (A node's text, unbounded but for the node cap, unless a limit is given.)
let buf = (limit = 1e5) => ({_lim: limit, _s: '', _n: 0, _sp: false, _full: false});
let add = (b, w) => {
  // Length in code points; the word is spread to count them only when it can hold a pair.
  let n = /[\uD800-\uDFFF]/.test(w) ? [...w].length : w.length, room = b._lim - b._n;
  if (n > room) { b._s += [...w].slice(0, room).join(''); b._n = b._lim; b._full = true; } else { b._s += w; b._n += n; }
};
let put = (b, t) => {
  if (!t || b._full) return;
  let ws = t.split(SPACE);
  for (let i = 0; i < ws.length && !b._full; i++) {
    if (i) b._sp = true;
    if (!ws[i]) continue;
    if (b._sp && b._s) add(b, ' ');
    b._sp = false;
    add(b, ws[i]);
  }
};
let gap = b => { b._sp = true; };

// The rendered children of n, last first, in the flattened tree a person sees: an open
// shadow root replaces its host's children, a <slot> shows the nodes assigned to it or else
// its own (fallback) content, a same-origin frame shows its document's body. A closed
// <details> shows only its summary: f's second argument is true for the rest, its body,
// which one click on the summary shows (the page's HTML writes it: src/aria/collapsed.rs).
// Walked by siblings: no array per element.
let rkids = (n, f) => {
  let t = tag(n), s = t === 'details' && !n.open && (kid(n, 'summary') || 1), a = t === 'slot' && n.assignedNodes ? n.assignedNodes() : [], d = frameDoc(n), i = a.length;
  if (i) { while (i) f(a[--i]); return; }
  if (d) { if (d.body) f(d.body); return; }
  if (t === 'iframe') return;
  for (let c = (n.shadowRoot || n).lastChild; c; c = c.previousSibling) f(c, s && c !== s);
};

// ---- visibility (src/aria/hidden.rs; live: computed style and boxes) ----
// Whether the subtree of el is hidden (visibility:hidden is inherited and checked apart).
// `inside`: el is inside a hidden part, where no element has a box: its own style decides.
let hiddenSubtree = (el, cs, inside) =>
  // script, style, head, input[type=hidden]… are display:none in the UA stylesheet; ruby
  // <rt> is left out of names and text as in the offline walk.
  tag(el) === 'rt' || !/^\s*(false|undefined)?\s*$/i.test(attr(el, 'aria-hidden') || '')
  || cs._d === 'none' || cs._o || el.inert
  // No box: checkVisibility() is false for an element without one, and 5x cheaper than
  // getClientRects() (Chrome 105+; older engines take the slow path).
  || !inside && ((cs._d !== 'contents' && tag(el) !== 'area' && !(el.checkVisibility ? el.checkVisibility() : el.getClientRects().length))
  // A zero-area box that clips its overflow shows nothing of its content (overflow does not
  // apply to inline boxes, so theirs is not read: a style read costs as much as the rest).
  || (cs._d !== 'inline' && cs._s.overflow === 'hidden' && !el.offsetWidth && !el.offsetHeight));
// In a frame, the <iframe> element that shows it counts as an ancestor.
let isHidden = el => {
  for (let e = el; e; e = up(e)) if (hiddenSubtree(e, css(e))) return true;
  let f = el.ownerDocument !== D && win(el).frameElement;
  return !shows(css(el)) || f && isHidden(f);
};

// ---- roles (src/aria/roles.rs) ----
let detailsSummary = el => { let p = up(el); return p && tag(p) === 'details' && kid(p, 'summary') === el; };
let focusable = el => {
  if (el.disabled) return false;
  if (has(el, 'tabindex') || editable(el)) return true;
  let t = tag(el);
  return t === 'a' || t === 'area' ? has(el, 'href') : t === 'input' ? el.type !== 'hidden'
    : /^(button|select|textarea|iframe)$/.test(t) || (t === 'summary' && detailsSummary(el));
};
let hasGlobalAria = el => GLOBAL_ARIA.some(a => has(el, a));
let named = el => ['aria-label', 'aria-labelledby', 'title'].some(a => val(el, a));
let explicitRole = el => {
  for (let t of (attr(el, 'role') || '').toLowerCase().split(SPACE)) {
    if (t === 'image') t = 'img';
    if (ROLES.has(t)) return t;
  }
  return '';
};
let role = el => {
  let r = explicitRole(el);
  if (pres(r)) { if (!focusable(el) && !hasGlobalAria(el)) return r; }
  else if (r === 'generic') return '';
  else if (r && (!/^(treeitem|option|listitem)$/.test(r) || inContext(el, r))) return r;
  return implicitRole(el);
};
// Chromium drops these roles outside their required context (ARIA 1.2).
let inContext = (el, r) => {
  let c = '';
  for (let p = up(el), i = 0; p && i < 8 && !c; p = up(p), i++) { c = role(p); if (dropped(c)) c = ''; }
  return (r === 'treeitem' ? /^(tree|group)$/ : r === 'option' ? /^(listbox|group|combobox)$/ : /^(list|group|directory)$/).test(c);
};
let scoped = (el, re) => {
  for (let p = up(el); p; p = up(p)) if (re.test(tag(p)) || /^(article|complementary|main|navigation|region)$/.test(explicitRole(p))) return true;
  return false;
};
let tableRole = el => { let t = el.closest('table'); return t ? memo(tables, t, role) : null; };
// Chromium's data-table heuristic, with Readability's size rule standing in for its stylesheet
// signals (roles.rs is_layout_table and has_data_table_size).
let span = (el, a) => { let v = (attr(el, a) || '').trim(); return /^\+?\d+$/.test(v) && +v > 0 ? Math.min(+v, 1000) : 1; };
let layoutTable = t => {
  if (val(t, 'summary') || val(t, 'rules') || parseInt(attr(t, 'border'), 10) > 0 || editable(t)) return false;
  if (t.caption || t.tHead || t.tFoot || kid(t, 'col,:scope>colgroup')) return false;
  let cells = [], rows = [...t.rows].filter(r => r.closest('table') === t);
  for (let r of rows) cells.push(...r.cells);
  if (cells.length < 2) return true;
  if (t.rows.length >= 20) return false;
  if (cells.some(c => tag(c) === 'th' || ['headers', 'abbr', 'axis', 'scope'].some(a => val(c, a)) || /border/i.test(attr(c, 'style') || ''))) return false;
  let h = 0, w = 0;
  for (let r of rows) { h += span(r, 'rowspan'); w = Math.max(w, [...r.cells].reduce((n, c) => n + span(c, 'colspan'), 0)); }
  return !(h > 1 && w > 1 && (h >= 10 || w > 4 || h * w > 10) && !t.querySelector('table'));
};
let SECTIONING = /^(article|aside|main|nav|section)$/;
let implicitRole = el => {
  let t = tag(el), p = up(el);
  let tr;
  // (Not `instanceof SVGElement`: a frame's elements come from another realm.)
  if ('ownerSVGElement' in el) return t === 'svg' ? 'img' : '';
  if (IMPLICIT[t]) return IMPLICIT[t];
  switch (t) {
    case 'a': case 'area': return has(el, 'href') ? 'link' : '';
    case 'aside': return scoped(el, /^(article|aside|nav|section)$/) && !named(el) ? '' : 'complementary';
    case 'caption': return dropped(tableRole(el)) ? '' : 'caption';
    case 'footer': return scoped(el, SECTIONING) ? '' : 'contentinfo';
    case 'header': return scoped(el, SECTIONING) ? '' : 'banner';
    case 'form': return named(el) ? 'form' : '';
    case 'section': return named(el) ? 'region' : '';
    case 'img': return attr(el, 'alt') === '' && !focusable(el) && !hasGlobalAria(el) && !has(el, 'title') ? 'presentation' : 'img';
    case 'input': return inputRole(el);
    case 'li': return p && pres(role(p)) ? '' : 'listitem';
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'summary': return detailsSummary(el) ? 'button' : '';
    case 'table': return layoutTable(el) ? '' : 'table';
    case 'tbody': case 'thead': case 'tfoot': case 'tr': return dropped(tableRole(el)) ? '' : t === 'tr' ? 'row' : 'rowgroup';
    case 'td': tr = tableRole(el); return tr === 'grid' || tr === 'treegrid' ? 'gridcell' : tr === 'table' ? 'cell' : '';
    case 'th': {
      if (dropped(tableRole(el))) return '';
      let sc = (attr(el, 'scope') || '').trim().toLowerCase();
      return /^row/.test(sc) ? 'rowheader' : /^col/.test(sc) ? 'columnheader' : p && kid(p, 'td') ? 'rowheader' : 'columnheader';
    }
  }
  return '';
};
let inputRole = el => {
  let l = el.list && tag(el.list) === 'datalist', t = el.type;
  return /^(button|file|image|reset|submit)$/.test(t) ? 'button' : t === 'checkbox' || t === 'radio' ? t : t === 'range' ? 'slider'
    : t === 'number' ? 'spinbutton' : t === 'search' ? (l ? 'combobox' : 'searchbox')
    : /^(email|tel|text|url)$/.test(t) ? (l ? 'combobox' : 'textbox') : t === 'password' ? 'textbox' : '';
};

// ---- names (src/aria/name.rs, accname 1.2 steps 2A-2I) ----
let block = cs => !/^(inline|contents|none)$/.test(cs._d);
let buttonValue = el => has(el, 'value') ? norm(el.value) : el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : '';
// 2C: the value a control embedded in a label contributes.
let embeddedValue = (el, r) => {
  let t = tag(el), b = buf(maxText), each = list => list.forEach(o => { gap(b); put(b, o.textContent); });
  if (r === 'textbox' || r === 'searchbox') return t === 'input' ? el.value : el.textContent;
  if (r === 'combobox' || r === 'listbox') {
    if (t === 'input') return el.value;
    each(t === 'select' ? [...el.options].filter(o => o.selected) : el.querySelectorAll('[aria-selected="true"]'));
    return b._s;
  }
  if (/^(slider|spinbutton|progressbar|scrollbar|meter)$/.test(r)) return attr(el, 'aria-valuetext') || attr(el, 'aria-valuenow') || attr(el, 'value') || '';
  return null;
};
// 2E for leaves: img alt, input button values, svg <title>.
let nativeLeaf = el => {
  let t = tag(el);
  if (t === 'svg') { let st = kid(el, 'title'); return st ? norm(st.textContent) : null; }
  if (t === 'img' || t === 'area') return has(el, 'alt') ? val(el, 'alt') : null;
  if (t === 'input' && BUTTON_INPUT.test(el.type)) return buttonValue(el);
  if (t === 'input' && el.type === 'image') return val(el, 'alt') || val(el, 'value') || null;
  return null;
};
// Steps 2B-2E for a node met inside a traversal; null: go on with its content.
let step = (el, ctx) => {
  if (!ctx._ref) { let lb = labelledby(el, ctx._root); if (lb) return lb; }
  let r = role(el);
  if (el !== ctx._root) { let v = embeddedValue(el, r); if (v !== null) return v; }
  return val(el, 'aria-label') || (dropped(r) && r ? null : nativeLeaf(el)) || null;
};
// 2F-2H: the text of root's children, by the same steps, with an explicit stack.
let content = (root, ctx, b, raw) => {
  let stack = [], kids = n => rkids(n, (c, body) => body || stack.push(c));
  kids(root);
  while (stack.length && !b._full) {
    let n = stack.pop();
    if (n === null) { gap(b); continue; }
    if (n.nodeType === 3) { if (ctx._all || shows(css(up(n)))) put(b, n.data); continue; }
    if (n.nodeType !== 1) continue;
    if (tag(n) === 'br') { gap(b); continue; }
    let cs = css(n);
    if (!ctx._all && hiddenSubtree(n, cs)) continue;
    let bl = block(cs);
    if (bl) gap(b);
    if (!raw && (ctx._all || shows(cs))) {
      if (n === ctx._root && !ctx._ref) continue;
      let t = step(n, ctx);
      if (t !== null) { put(b, t); if (bl) gap(b); continue; }
    }
    if (bl) stack.push(null);
    kids(n);
  }
};
// 2B: referenced elements' text alternatives, hidden ones included.
let labelledby = (el, root) => {
  let ids = val(el, 'aria-labelledby'), b = buf(maxText);
  if (ids) for (let id of ids.split(' ')) {
    // IDs resolve in el's own tree (its shadow root or document): never across the boundary.
    let t = el.getRootNode().getElementById(id);
    if (!t || b._full) continue;
    gap(b);
    let ctx = {_root: root, _ref: true, _all: isHidden(t)}, s = step(t, ctx), before = b._s;
    if (s !== null) put(b, s);
    else { content(t, ctx, b, false); if (b._s === before) put(b, val(t, 'title')); }
  }
  return b._s;
};
// Visible <label>s joined; '' when _labelled only by empty labels; null when unlabelled.
let labels = el => {
  let b = buf(maxText);
  let any = false;
  for (let l of el.labels || []) if (!isHidden(l)) { any = true; gap(b); content(l, {_root: el}, b, false); }
  return any ? b._s : null;
};
let nativeName = (el, ctx) => {
  let t = tag(el);
  // An unlabelled file input is named by its button's text (Chromium, en-US).
  if (t === 'input') return BUTTON_INPUT.test(el.type) ? buttonValue(el)
    : el.type === 'file' ? labels(el) || 'Choose File' + (el.multiple ? 's' : '')
    : el.type === 'image' ? labels(el) || val(el, 'alt') || val(el, 'value') || val(el, 'title') || 'Submit' : labels(el);
  if (/^(textarea|select|meter|output|progress|button)$/.test(t)) return labels(el);
  let first = {fieldset: 'legend', figure: 'figcaption', table: 'caption'}[t];
  if (first) {
    let c = kid(el, first), b = buf(maxText);
    if (c && !isHidden(c)) content(c, ctx, b, false);
    return b._s || (t === 'table' ? val(el, 'summary') : null);
  }
  if (t === 'optgroup' || t === 'option') return val(el, 'label') || null;
  return nativeLeaf(el);
};
let accName = (el, r) => {
  if (NO_NAME.has(r)) return '';
  let ctx = {_root: el};
  let s = labelledby(el, el) || cut(val(el, 'aria-label'), maxText);
  if (s) return s;
  if (!dropped(r) || !r) {
    s = nativeName(el, ctx);
    if (s) return cut(s, maxText);
    // A text field with a visible but empty <label> has an empty name (Chromium).
    if (s === '' && el.labels && el.labels.length && tag(el) !== 'button' && !/^(button|submit|reset|image)$/.test(el.type)) return '';
  }
  if (FROM_CONTENT.has(r) || tag(el) === 'summary' || (tag(el) === 'option' && !r)) {
    let b = buf(maxText);
    content(el, ctx, b, false);
    if (b._s) return b._s;
  }
  return cut(val(el, 'title') || val(el, 'placeholder') || val(el, 'aria-placeholder'), maxText);
};

// ---- snapshot (src/walk.rs) ----
let states = (el, r) => {
  let out = [], input = tag(el) === 'input';
  if (CHECKABLE.test(r)) {
    let ac = (attr(el, 'aria-checked') || '').trim().toLowerCase();
    if (ac === 'mixed' || (input && el.indeterminate)) out.push('mixed');
    else if (ac === 'true' || (input && el.checked)) out.push('checked');
  }
  if (isTrue(el, 'aria-selected') || (tag(el) === 'option' && el.selected)) out.push('selected');
  // disabled and required (before e, after q) also from the element's own state.
  for (let s of ['expanded', 'pressed', 'disabled', 'required']) if (isTrue(el, 'aria-' + s) || ((s < 'e' || s > 'q') && el[s])) out.push(s);
  return out;
};
let attrsOf = (el, max) => {
  let o = {};
  let any = false;
  for (let a of ATTRS) {
    // A form control's value is its current value, not the attribute it started with.
    let v = a === 'value' && /^(input|textarea)$/.test(tag(el)) && (has(el, 'value') || el.value) ? el.value : attr(el, a);
    if (v == null) continue;
    // (A data: URL is shortened by the renderer, for both producers.)
    o[a] = cut(v.trim(), max); any = true;
  }
  return any ? o : undefined;
};
let clickable = el => has(el, 'onclick') || typeof el.onclick === 'function';
let cursorInteractive = (el, cs) => {
  let p = up(el);
  return clickable(el) || parseInt(attr(el, 'tabindex'), 10) >= 0 || (editable(el) && !(p && editable(p)))
    // cursor:pointer counts where it starts, not on every descendant that inherits it.
    || (cursor(cs) === 'pointer' && !(p && cursor(css(p)) === 'pointer'));
};
// The node for el if it is emitted (open: its text and children still to come).
let emit = (el, cs, insideP, o) => {
  let r = role(el);
  if (dropped(r)) r = '';
  let cat = INTERACTIVE.has(r) ? 'i' : CONTENT.has(r) ? 'c' : r ? 's' : '';
  let cur = o._cursorInteractive && cat !== 'i' && cursorInteractive(el, cs);
  if (insideP && cat !== 'i' && !cur) return null;
  // An unnamed <form> stays as a node without role, name, attrs or ref, so the renderer
  // knows which controls belong together (src/walk.rs, emit). Its `children` list exists from
  // the start: its text is always kept as runs, parted at blocks. (No ref ever, so no _el.)
  if (!r && !cur) return tag(el) === 'form' ? {_node: {tag: 'form', children: []}, _text: buf(), _fw: 1} : null;
  let shown = r || (clickable(el) || cursor(cs) === 'pointer' ? 'clickable' : 'focusable');
  let node = {tag: tag(el), role: shown}, name = accName(el, r ? shown : ''), lv = parseInt(attr(el, 'aria-level'), 10);
  if (name) node.name = name;
  if (r === 'heading') node.level = lv >= 1 ? lv : /^h[1-6]$/.test(tag(el)) ? +tag(el)[1] : 2;
  node.attrs = attrsOf(el, o._maxAttrValueLen);
  let st = states(el, r);
  if (st.length) node.states = st;
  if (cur || !r) node.cursorInteractive = true;
  // Landmarks and dialogs always get a ref: a region the renderer folds is scoped by it.
  return {_node: node, _el: el, _text: buf(), _kidsP: insideP || KIDS_PRESENTATIONAL.has(shown),
    _always: cur || cat === 'i' || LANDMARK.has(shown)
      || (cat === 'c' && !o._interactiveOnly), _labelled: cat === 'c'};
};
// Text since the last child becomes a #text run among the children, so text and inline
// elements keep their order; a node without children keeps its text in `text` (src/walk.rs).
let flush = m => {
  let k = m._node.children;
  if (k && m._text._s) { k.push({tag: '#text', text: m._text._s}); m._text = buf(); m._runs = 1; }
};
// A block boundary: runs of a node with children part there; a leaf's text joins with a space.
let brk = m => m._node.children ? flush(m) : gap(m._text);
let close = (m, parent) => {
  flush(m);
  let text = m._text._s;
  if (text && text !== m._node.name) m._node.text = text;
  // Text before the parent's first child is a run before it, as in src/walk.rs `push_child`.
  // An unnamed form's text labels its parent, as the same text outside a form would.
  if (parent) { let k = parent._node.children = parent._node.children || []; flush(parent); k.push(m._node); if (m._fw && m._runs) parent._runs = 1; }
};
let snapshot = (options = {}) => {
  let t0 = performance.now();
  let o = {_maxNodes: dflt(options.maxNodes, 500), _interactiveOnly: options.interactiveOnly !== false, _cursorInteractive: options.cursorInteractive !== false,
    _maxAttrValueLen: dflt(options.maxAttrValueLen, 150)};
  maxText = dflt(options.maxTextPerNode, 200);
  cache = new Map(); tables = new Map();
  // Refs of elements that left the document go (the map must not keep them alive).
  for (let [r, e] of marked) if (!e.isConnected) marked.delete(r);
  let root = options.scope ? D.querySelector(options.scope) : D.body || D.documentElement;
  let stats = {domNodes: D.all.length, visitedNodes: 0, emittedNodes: 1, skippedHidden: 0};
  let out = tree => ({version: 1, url: location.href, title: norm(D.title) || undefined, tree, stats});
  if (!root) return Object.assign(out({tag: 'body'}), {error: 'scope_not_found'});
  let top = {_node: {tag: tag(root)}, _text: buf(), _kidsP: false}, open = [top], order = [], work = [];
  // `vis`: true under visibility:hidden (no text), 2 inside a hidden part the HTML holds.
  let push = (n, vis) => rkids(n, (c, body) => (!body || h && !vis) && work.push([c, body ? 2 : vis]));
  if (!mo) (mo = new MutationObserver(rs => rs.some(r => /^(c|st|hi|op)/.test(r.attributeName || r.type)) && (hcap = 0))).observe(D, {subtree: 1, childList: 1, attributes: 1, characterData: 1});
  let truncated = false, h = options.html && hcap !== o._maxNodes && [], hl = 0;
  // Bounded: a page's serialisation past 4M characters is cut (the parser closes what is open).
  let hp = s => { if (hl < 4e6) { h.push(s); hl += s.length; } };
  push(root, !shows(css(root)));
  while (work.length) {
    let [n, vis, exit, bl] = work.pop();
    let cur = open[open.length - 1];
    if (exit) { // leaving an element: close its node, separate block text
      h && hp('</' + htag(exit > 1 ? n._node.tag : tag(n)) + '>');
      if (exit === 2) { open.pop(); cur = open[open.length - 1]; close(n, cur); }
      if (bl) brk(cur);
      continue;
    }
    if (n.nodeType === 3) { if (vis !== true) { vis || put(cur._text, n.data); h && hp(esc(n.data)); } continue; }
    if (n.nodeType !== 1) continue;
    // Inside a hidden part only the HTML is written: nothing of it is counted or in the tree.
    // The HTML has no style sheet: visibility:hidden is written on each element it applies
    // to, and its end on a shown one under it (a control no person sees reveals no panel).
    let sub = vis > 1, cs = css(n), hid = sub ? 2 : !shows(cs), mark = hid < 2 && (hid || vis) ? ' style=visibility:' + cs._v : '';
    sub || stats.visitedNodes++;
    if (tag(n) === 'br') { sub || brk(cur); h && hp('<br>'); continue; }
    if (hiddenSubtree(n, cs, sub) || sub && !shows(cs)) {
      sub || stats.skippedHidden++;
      // A hidden element with an id, its parent shown, may be a collapsed panel: a control
      // the page shows may name it. The HTML holds it, marked hidden, with what its own
      // style shows of it (as the body of a closed details); the host's content stage
      // reads it only where a shown control reveals it, by the offline rules
      // (src/aria/collapsed.rs): else no output has it. Not where those rules never
      // see a panel (hidden by opacity:0 or inert).
      if (!h || vis || !n.id || cs._o || n.inert || /^(script|style)$/.test(tag(n))) continue;
      hid = 2; mark = ' hidden';
    }
    let b = hid < 2 && block(cs);
    if (b) brk(cur);
    let made = !hid && !truncated && emit(n, cs, cur._kidsP, o);
    if (made && stats.emittedNodes >= o._maxNodes) truncated = true;
    h && hp('<' + htag(tag(n)) + mark + (made && !truncated ? ' data-n=' + order.length : '') + hattrs(n) + '>');
    if (made && !truncated) { stats.emittedNodes++; order.push(made); open.push(made); work.push([made, hid, 2, b]); }
    else work.push([n, hid, 1, b]);
    push(n, hid);
  }
  close(top, null);
  // An element keeps its number for the life of the document; a new one takes the next:
  // a ref never comes to mean another element. The mark is written once (attribute writes
  // invalidate style, which the next snapshot would pay for).
  for (let m of order) if (m._always || (m._labelled && (m._node.name || m._node.text || m._runs))) {
    let e = m._el, n = ids.get(e) || ids.set(e, ++next) && next, r = m._node.ref = 'e' + n;
    marked.set(r, e);
    if (attr(e, AR) !== r) e.setAttribute(AR, r);
  }
  stats.jsTimeMs = +(performance.now() - t0).toFixed(1);
  if (truncated) stats.truncated = true;
  // (The host tells a cut page by its length.)
  if (h) hcap = o._maxNodes;
  return Object.assign(out(top._node), options.html ? {html: h && h.join('')} : {});
};

// ---- actions and queries ----
// Every ref given in this document and still in it, by element identity (elements in shadow
// roots and frames are out of querySelector's reach); ids numbers elements for good.
let marked = new Map(), ids = new WeakMap(), next = 0;
let find = ref => { let el = marked.get(ref); return el && el.isConnected ? el : null; };
let center = el => {
  el.scrollIntoView({block: 'center', behavior: 'instant'});
  let r = el.getBoundingClientRect();
  return {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2};
};
let fire = (el, types, at) => types.split(' ').forEach(ty => send(el, 
  new (/^pointer/.test(ty) && W.PointerEvent ? PointerEvent : MouseEvent)(ty, Object.assign({bubbles: true, cancelable: true, composed: true, view: win(el), button: 0}, at))));
let changed = el => ['input', 'change'].forEach(ty => send(el, new Event(ty, {bubbles: true})));
// Through the prototype's setter, so React/Vue controlled inputs see the change (the
// prototype of the element's own window: a frame's page hooks its own).
let setValue = (el, v) => {
  let dsc = Object.getOwnPropertyDescriptor(win(el)[tag(el) === 'textarea' ? 'HTMLTextAreaElement' : 'HTMLInputElement'].prototype, 'value');
  if (dsc && dsc.set) dsc.set.call(el, v); else el.value = v;
  changed(el);
};
let action = (ref, name, params) => {
  let p = params || {}, el = find(ref), ok = {success: true, action: name, ref}, t = el && tag(el), no = error => ({success: false, error, ref, action: name});
  if (!el) return no('ref_not_found');
  if (!/^(scroll_into_view|focus)$/.test(name) && isHidden(el)) return no('not_visible');
  if ((el.disabled || isTrue(el, 'aria-disabled')) && /^(click|fill|select|(un)?check|clear)$/.test(name)) return no('disabled');
  switch (name) {
    case 'click': {
      let at = center(el);
      fire(el, 'pointerdown mousedown', at);
      if (el.focus) el.focus();
      fire(el, 'pointerup mouseup', at);
      el.click();
      return ok;
    }
    case 'fill': case 'clear': {
      let v = name === 'clear' ? '' : String(dflt(p.value, ''));
      el.focus();
      if (t === 'input' || t === 'textarea') { setValue(el, v); ok.value = el.value; return ok; }
      if (editable(el)) { el.textContent = v; changed(el); ok.value = el.textContent; return ok; }
      return no('not_fillable');
    }
    case 'select': {
      if (t !== 'select') return no('not_a_select_element');
      let want = [].concat(p.values == null ? dflt(p.value, '') : p.values).map(String), hit = [];
      for (let opt of el.options) {
        let m = want.includes(opt.value) || want.includes(norm(opt.text));
        if (el.multiple || !hit.length) { opt.selected = m; if (m) hit.push(opt.value); }
      }
      if (!hit.length) return no('option_not_found');
      changed(el);
      ok.values = hit;
      return ok;
    }
    case 'check': case 'uncheck': {
      let box = t === 'input' && /^(checkbox|radio)$/.test(el.type), state = () => box ? el.checked : isTrue(el, 'aria-checked');
      if (!box && !CHECKABLE.test(role(el))) return no('not_checkable');
      if (name === 'uncheck' && box && el.type === 'radio') return no('not_checkable');
      if (state() !== (name === 'check')) el.click();
      ok.checked = state();
      return ok;
    }
    case 'focus': el.focus(); ok.focused = el.getRootNode().activeElement === el; return ok;
    case 'hover': fire(el, 'pointerover mouseover mouseenter mousemove', center(el)); return ok;
    case 'scroll_into_view': center(el); return ok;
  }
  return no('unknown_action');
};
let query = (ref, kind, limit) => {
  let el = find(ref), lim = limit == null ? 4000 : Math.max(0, limit | 0), res = {ref, kind, value: '', truncated: false}, no = e => (res.error = e, res);
  if (!el) return no('ref_not_found');
  let v;
  // A frame's text is its document's.
  if (kind === 'text') v = norm(((frameDoc(el) || {}).body || el).innerText);
  else if (kind === 'html') v = el.outerHTML;
  else if (kind === 'value') { v = 'value' in el ? String(el.value) : attr(el, 'aria-valuenow'); if (v == null) return no('not_a_form_control'); }
  else if (kind === 'attrs') { let a = {}; for (let x of el.attributes) if (x.name !== AR) a[x.name] = x.value; v = JSON.stringify(a); }
  else if (kind === 'computed_styles') { let s = css(el)._s, a = {}; for (let k of 'display visibility opacity color backgroundColor fontSize cursor'.split(' ')) a[k] = s[k]; v = JSON.stringify(a); }
  else return no('unknown_kind');
  // Cut at the limit (UTF-16 units) without splitting a surrogate pair.
  let end = Math.min(lim, v.length);
  if (end < v.length && end > 0 && /[\ud800-\udbff]/.test(v[end - 1])) end--;
  return Object.assign(res, {value: v.slice(0, end), truncated: end < v.length});
};
let scroll = f => (x, y) => (W[f](x || 0, y || 0), {success: true, scrollX: W.scrollX, scrollY: W.scrollY});
let page = {
  scrollBy: scroll('scrollBy'),
  scrollTo: scroll('scrollTo'),
  getUrl: () => location.href,
  getTitle: () => D.title,
  pressKey: key => {
    // The focused element through open shadow roots and same-origin frames.
    let el = D.activeElement || D.body, go = true, n;
    while ((n = el.shadowRoot || frameDoc(el)) && n.activeElement) el = n.activeElement;
    for (let ty of key.length === 1 ? ['keydown', 'keypress', 'keyup'] : ['keydown', 'keyup']) go = send(el, new KeyboardEvent(ty, {key, bubbles: true, cancelable: true})) && go;
    // Enter in a form field submits, as a real key press would.
    if (go && key === 'Enter' && el.form && tag(el) === 'input') el.form.requestSubmit();
    return {success: true, key};
  }
};
// Nothing throws into the host: an unexpected exception comes back as an error result.
let safe = f => (...a) => { try { return f(...a); } catch (e) { return {success: false, error: 'exception', message: String(e)}; } finally { cache = tables = null; } };
// find(ref): the element of a ref, for the host's own expressions (js.rs center_js).
window.__agentBrowser = {version: 1, snapshot: safe(snapshot), action: safe(action), query: safe(query), page, find};
})();
