// agent-browser.js: the in-page half of agent-snapshot. Plain ES2017, no dependencies.
// Installs window.__agentBrowser = {snapshot, action, query, page}. snapshot() returns the
// node tree of docs/node-tree.md with the roles, names and ref rules of src/aria and
// src/walk.rs (keep them in step); the crate's renderer turns it into snapshot text.
(() => {
'use strict';
if (window.__agentBrowser && window.__agentBrowser.version === 1) return;
var S = (s) => { var o = {}; s.split(' ').forEach((k) => { o[k] = 1; }); return o; };
var INTERACTIVE = S('button link textbox checkbox radio combobox listbox menuitem menuitemcheckbox menuitemradio option searchbox slider spinbutton switch tab treeitem');
var CONTENT = S('heading cell gridcell columnheader rowheader listitem article region main navigation img progressbar meter');
var ROLES = S('alert alertdialog application article banner blockquote button caption cell checkbox code columnheader combobox comment complementary contentinfo definition deletion dialog directory document emphasis feed figure form generic graphics-document graphics-object graphics-symbol grid gridcell group heading img insertion link list listbox listitem log main mark marquee math menu menubar menuitem menuitemcheckbox menuitemradio meter navigation none note option paragraph presentation progressbar radio radiogroup region row rowgroup rowheader scrollbar search searchbox sectionfooter sectionheader separator slider spinbutton status strong subscript suggestion superscript switch tab table tablist tabpanel term textbox time timer toolbar tooltip tree treegrid treeitem');
var FROM_CONTENT = S('button cell checkbox columnheader comment gridcell heading link menuitem menuitemcheckbox menuitemradio option radio row rowheader sectionheader sectionfooter switch tab tooltip treeitem');
var NO_NAME = S('caption code deletion emphasis generic insertion mark none paragraph presentation strong subscript superscript suggestion term time');
var KIDS_PRESENTATIONAL = S('button checkbox img meter menuitemcheckbox menuitemradio option progressbar radio scrollbar separator slider switch tab');
var GLOBAL_ARIA = 'atomic busy controls current describedby details dropeffect flowto grabbed keyshortcuts label labelledby live owns relevant roledescription'.split(' ').map(a => 'aria-' + a);
var SKIP = S('SCRIPT STYLE TEMPLATE NOSCRIPT HEAD TITLE META LINK BASE DATALIST RP RT');
var ATTRS = 'href name type value placeholder aria-label role src action method'.split(' ');
var SPACE = /[ \t\n\f\r]+/g;
var norm = (s) => { return (s || '').replace(SPACE, ' ').trim(); };
var attr = (el, a) => { return el.getAttribute(a); };
var tag = (el) => { return el.localName; };
var style = (el) => { return getComputedStyle(el); };
var maxText = 200;

// Text cut at n characters (code points), ending in an ellipsis when cut.
var cut = (s, n) => {
  var a = Array.from(s);
  return a.length <= n ? s : n === 0 ? '' : a.slice(0, n - 1).join('') + '\u2026';
};

// ---- visibility (src/aria/hidden.rs; live: computed style and boxes) ----
var ariaHidden = (el) => {
  var v = attr(el, 'aria-hidden');
  return v !== null && !/^\s*(false|undefined)?\s*$/i.test(v);
};
// Why the subtree of el is hidden, or '' (visibility:hidden is inherited, checked apart).
var hiddenSubtree = (el, cs) => {
  if (SKIP[el.tagName]) return 'not-rendered';
  if (ariaHidden(el)) return 'aria-hidden';
  if (cs.display === 'none') return 'display-none';
  if (cs.opacity === '0') return 'opacity-zero';
  if (el.inert) return 'inert';
  if (tag(el) === 'input' && el.type === 'hidden') return 'hidden-input';
  if (cs.display !== 'contents' && el.getClientRects().length === 0 && tag(el) !== 'area') return 'no-box';
  return '';
};
var isHidden = (el) => {
  for (var e = el; e && e.nodeType === 1; e = e.parentElement) if (hiddenSubtree(e, style(e))) return true;
  return style(el).visibility !== 'visible';
};

// ---- roles (src/aria/roles.rs) ----
var focusable = (el) => {
  if (el.disabled) return false;
  if (el.hasAttribute('tabindex') || el.isContentEditable) return true;
  switch (tag(el)) {
    case 'a': case 'area': return el.hasAttribute('href');
    case 'input': return el.type !== 'hidden';
    case 'button': case 'select': case 'textarea': case 'iframe': return true;
    case 'summary': return detailsSummary(el);
  }
  return false;
};
var detailsSummary = (el) => {
  var p = el.parentElement;
  return !!p && tag(p) === 'details' && p.querySelector(':scope > summary') === el;
};
function hasGlobalAria(el) { return GLOBAL_ARIA.some((a) => { return el.hasAttribute(a); }); }
function named(el) { return ['aria-label', 'aria-labelledby', 'title'].some((a) => { return norm(attr(el, a)) !== ''; }); }
var explicitRole = (el) => {
  var toks = (attr(el, 'role') || '').toLowerCase().split(SPACE);
  for (var i = 0; i < toks.length; i++) {
    var t = toks[i] === 'image' ? 'img' : toks[i];
    if (ROLES[t]) return t;
  }
  return '';
};
var role = (el) => {
  var r = explicitRole(el);
  if (r === 'none' || r === 'presentation') { if (!focusable(el) && !hasGlobalAria(el)) return r; }
  else if (r === 'generic') return '';
  else if (r && (!{treeitem: 1, option: 1, listitem: 1}[r] || inContext(el, r))) return r;
  return implicitRole(el);
};
var inContext = (el, r) => {
  var c = '';
  for (var p = el.parentElement, i = 0; p && i < 8 && !c; p = p.parentElement, i++) {
    c = role(p);
    if (c === 'none' || c === 'presentation') c = '';
  }
  return r === 'treeitem' ? /^(tree|group)$/.test(c) : r === 'option' ? /^(listbox|group|combobox)$/.test(c) : /^(list|group|directory)$/.test(c);
};
var scoped = (el, re) => {
  for (var p = el.parentElement; p; p = p.parentElement) if (re.test(tag(p)) || /^(article|complementary|main|navigation|region)$/.test(explicitRole(p))) return true;
  return false;
};
function tableRole(el) { var t = el.closest('table'); return t ? role(t) : null; }
var layoutTable = (t) => {
  if (norm(attr(t, 'summary')) || norm(attr(t, 'rules')) || parseInt(attr(t, 'border'), 10) > 0 || t.isContentEditable) return false;
  if (t.caption || t.tHead || t.tFoot || t.querySelector(':scope > col, :scope > colgroup')) return false;
  var cells = [];
  for (var i = 0; i < t.rows.length; i++) if (t.rows[i].closest('table') === t) cells.push.apply(cells, t.rows[i].cells);
  if (cells.length <= 1) return true;
  if (t.rows.length >= 20) return false;
  return !cells.some((c) => {
    return tag(c) === 'th' || ['headers', 'abbr', 'axis', 'scope'].some((a) => { return norm(attr(c, a)); }) || /border/i.test(attr(c, 'style') || '');
  });
};
// Tag -> role for the unconditional rows of the HTML-AAM table; the rest are below.
var IMPLICIT = {};
'article:article blockquote:blockquote button:button code:code datalist:listbox dd:definition del:deletion s:deletion details:group dfn:term dt:term dialog:dialog em:emphasis fieldset:group optgroup:group hgroup:group address:group figure:figure h1:heading h2:heading h3:heading h4:heading h5:heading h6:heading hr:separator ins:insertion main:main mark:mark math:math menu:list ol:list ul:list meter:meter nav:navigation option:option output:status p:paragraph progress:progressbar search:search strong:strong sub:subscript sup:superscript textarea:textbox time:time'
  .split(' ').forEach(p => { p = p.split(':'); IMPLICIT[p[0]] = p[1]; });
var dropped = r => r === '' || r === 'none' || r === 'presentation';
var SECTIONING = /^(article|aside|main|nav|section)$/;
var implicitRole = el => {
  var t = tag(el), p = el.parentElement, tr;
  if (el.namespaceURI === 'http://www.w3.org/2000/svg') return t === 'svg' ? 'img' : '';
  if (IMPLICIT[t]) return IMPLICIT[t];
  switch (t) {
    case 'a': case 'area': return el.hasAttribute('href') ? 'link' : '';
    case 'aside': return scoped(el, /^(article|aside|nav|section)$/) && !named(el) ? '' : 'complementary';
    case 'caption': return dropped(tableRole(el)) ? '' : 'caption';
    case 'footer': return scoped(el, SECTIONING) ? '' : 'contentinfo';
    case 'header': return scoped(el, SECTIONING) ? '' : 'banner';
    case 'form': return named(el) ? 'form' : '';
    case 'section': return named(el) ? 'region' : '';
    case 'img': return attr(el, 'alt') === '' && !focusable(el) && !hasGlobalAria(el) && !el.hasAttribute('title') ? 'presentation' : 'img';
    case 'input': return inputRole(el);
    case 'li': tr = p ? role(p) : ''; return tr === 'none' || tr === 'presentation' ? '' : 'listitem';
    case 'select': return el.multiple || el.size > 1 ? 'listbox' : 'combobox';
    case 'summary': return detailsSummary(el) ? 'button' : '';
    case 'table': return layoutTable(el) ? '' : 'table';
    case 'tbody': case 'thead': case 'tfoot': case 'tr': return dropped(tableRole(el)) ? '' : t === 'tr' ? 'row' : 'rowgroup';
    case 'td': tr = tableRole(el); return tr === 'grid' || tr === 'treegrid' ? 'gridcell' : tr === 'table' ? 'cell' : '';
    case 'th':
      if (dropped(tableRole(el))) return '';
      var sc = (attr(el, 'scope') || '').trim().toLowerCase();
      return /^row/.test(sc) ? 'rowheader' : /^col/.test(sc) ? 'columnheader' : p && p.querySelector(':scope>td') ? 'rowheader' : 'columnheader';
  }
  return '';
};
var inputRole = (el) => {
  var l = el.list && tag(el.list) === 'datalist';
  switch (el.type) {
    case 'button': case 'image': case 'reset': case 'submit': return 'button';
    case 'checkbox': return 'checkbox';
    case 'radio': return 'radio';
    case 'range': return 'slider';
    case 'number': return 'spinbutton';
    case 'search': return l ? 'combobox' : 'searchbox';
    case 'email': case 'tel': case 'text': case 'url': return l ? 'combobox' : 'textbox';
    case 'password': return 'textbox';
  }
  return '';
};

// ---- names (src/aria/name.rs, accname 1.2 2A-2I) ----
// Rendered text with a character limit: whitespace collapsed, block boundaries as spaces
// (src/text.rs).
var Buf = limit => {
  var b = {s: '', n: 0, sp: false, full: false};
  var add = w => {
    var a = Array.from(w), room = limit - b.n;
    if (a.length > room) { b.s += a.slice(0, room).join(''); b.n = limit; b.full = true; return; }
    b.s += w; b.n += a.length;
  };
  b.push = t => (t || '').split(SPACE).forEach((w, i) => {
    if (i > 0) b.sp = true;
    if (!w || b.full) return;
    if (b.sp && b.s) add(' ');
    b.sp = false;
    add(w);
  });
  b.gap = () => { b.sp = true; };
  return b;
};

var block = (el, cs) => {
  var d = cs.display;
  return !(d === 'inline' || d === 'contents' || d === 'none');
};
var buttonValue = (el) => {
  if (el.hasAttribute('value')) return norm(el.value);
  return el.type === 'submit' ? 'Submit' : el.type === 'reset' ? 'Reset' : '';
};
var selectedText = (el) => {
  var b = Buf(maxText), opts = [].filter.call(el.options, (o) => { return o.selected; });
  opts.forEach((o) => { b.gap(); b.push(o.text); });
  return b.s;
};
var embeddedValue = (el, r) => {
  if (r === 'textbox' || r === 'searchbox') return tag(el) === 'input' ? el.value : el.textContent;
  if (r === 'combobox' || r === 'listbox') {
    if (tag(el) === 'select') return selectedText(el);
    if (tag(el) === 'input') return el.value;
    var b = Buf(maxText);
    el.querySelectorAll('[aria-selected="true"]').forEach((o) => { b.gap(); b.push(o.textContent); });
    return b.s;
  }
  if (/^(slider|spinbutton|progressbar|scrollbar|meter)$/.test(r)) return attr(el, 'aria-valuetext') || attr(el, 'aria-valuenow') || attr(el, 'value') || '';
  return null;
};
var nativeLeaf = (el) => {
  var t = tag(el);
  if (t === 'svg') { var st = el.querySelector(':scope > title'); return st ? norm(st.textContent) : null; }
  if (t === 'img' || t === 'area') return el.hasAttribute('alt') ? norm(attr(el, 'alt')) : null;
  if (t === 'input') {
    if (/^(button|submit|reset)$/.test(el.type)) return buttonValue(el);
    if (el.type === 'image') return norm(attr(el, 'alt')) || norm(attr(el, 'value')) || null;
  }
  return null;
};
// Steps 2B-2E for a node met inside a traversal; null means: go on with its content.
var step = (el, ctx) => {
  if (!ctx.ref) { var lb = labelledby(el, 'aria-labelledby', ctx.root); if (lb) return lb; }
  var r = role(el);
  if (el !== ctx.root) { var v = embeddedValue(el, r); if (v !== null) return v; }
  var al = norm(attr(el, 'aria-label'));
  if (al) return al;
  if (r !== 'none' && r !== 'presentation') { var n = nativeLeaf(el); if (n) return n; }
  return null;
};
// 2F-2H: the text of the children of root, without recursion on depth.
var content = (root, ctx, b, raw) => {
  var stack = [], kids = (n) => {
    var c = tag(n) === 'details' && !n.open ? [n.querySelector(':scope > summary')].filter(Boolean) : [].slice.call(n.childNodes);
    for (var i = c.length - 1; i >= 0; i--) stack.push(c[i]);
  };
  kids(root);
  while (stack.length && !b.full) {
    var n = stack.pop();
    if (n === null) { b.gap(); continue; }
    if (n.nodeType === 3) { if (ctx.all || style(n.parentElement).visibility === 'visible') b.push(n.data); continue; }
    if (n.nodeType !== 1) continue;
    if (tag(n) === 'br') { b.gap(); continue; }
    var cs = style(n);
    if (!ctx.all && hiddenSubtree(n, cs)) continue;
    var bl = block(n, cs);
    if (bl) b.gap();
    if (!raw && (ctx.all || cs.visibility === 'visible')) {
      if (n === ctx.root && !ctx.ref) continue;
      var t = step(n, ctx);
      if (t !== null) { b.push(t); if (bl) b.gap(); continue; }
    }
    if (bl) stack.push(null);
    kids(n);
  }
};
var labelledby = (el, a, named) => {
  var ids = norm(attr(el, a));
  if (!ids) return '';
  var b = Buf(maxText);
  ids.split(' ').forEach((id) => {
    var t = document.getElementById(id);
    if (!t || b.full) return;
    b.gap();
    var ctx = {root: named, ref: true, all: isHidden(t)};
    var s = step(t, ctx);
    if (s !== null) b.push(s);
    else { var before = b.s; content(t, ctx, b, false); if (b.s === before) b.push(norm(attr(t, 'title'))); }
  });
  return b.s;
};
var labels = (el) => {
  if (!el.labels || !el.labels.length) return null;
  var b = Buf(maxText), any = false;
  [].forEach.call(el.labels, (l) => {
    if (isHidden(l)) return;
    any = true; b.gap(); content(l, {root: el, ref: false, all: false}, b, false);
  });
  return any ? b.s : null;
};
var nativeName = (el, ctx) => {
  var t = tag(el), c, s;
  if (t === 'svg') return nativeLeaf(el);
  if (t === 'input') {
    if (/^(button|submit|reset)$/.test(el.type)) return buttonValue(el);
    if (el.type === 'image') return labels(el) || norm(attr(el, 'alt')) || norm(attr(el, 'value')) || norm(attr(el, 'title')) || 'Submit';
    return labels(el);
  }
  if (/^(textarea|select|meter|output|progress|button)$/.test(t)) return labels(el);
  if (t === 'img' || t === 'area') return nativeLeaf(el);
  var first = {fieldset: 'legend', figure: 'figcaption', table: 'caption'}[t];
  if (first) {
    c = el.querySelector(':scope > ' + first);
    if (c && !isHidden(c)) { s = Buf(maxText); content(c, ctx, s, false); if (s.s) return s.s; }
    return t === 'table' ? norm(attr(el, 'summary')) : null;
  }
  if (t === 'optgroup' || t === 'option') return norm(attr(el, 'label')) || null;
  return null;
};
var accName = (el, r) => {
  if (NO_NAME[r]) return '';
  var lb = labelledby(el, 'aria-labelledby', el);
  if (lb) return lb;
  var al = norm(attr(el, 'aria-label'));
  if (al) return cut(al, maxText);
  var ctx = {root: el, ref: false, all: false};
  if (r !== 'none' && r !== 'presentation') {
    var nat = nativeName(el, ctx);
    if (nat) return cut(nat, maxText);
    if (nat === '' && el.labels && el.labels.length && !/^(button)$/.test(tag(el)) && !/^(button|submit|reset|image)$/.test(el.type)) return '';
  }
  if (FROM_CONTENT[r] || tag(el) === 'summary' || (tag(el) === 'option' && !r)) {
    var b = Buf(maxText);
    content(el, ctx, b, false);
    if (b.s) return b.s;
  }
  return cut(norm(attr(el, 'title')) || norm(attr(el, 'placeholder')) || norm(attr(el, 'aria-placeholder')), maxText);
};

// ---- snapshot (src/walk.rs) ----
var states = (el, r) => {
  var out = [], t = (a) => { return (attr(el, a) || '').trim().toLowerCase() === 'true'; };
  if (/^(checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(r)) {
    var ac = (attr(el, 'aria-checked') || '').trim().toLowerCase();
    if (ac === 'mixed' || el.indeterminate) out.push('mixed');
    else if (ac === 'true' || (tag(el) === 'input' && el.checked)) out.push('checked');
  }
  if (t('aria-selected') || (tag(el) === 'option' && el.selected)) out.push('selected');
  if (t('aria-expanded')) out.push('expanded');
  if (t('aria-pressed')) out.push('pressed');
  if (t('aria-disabled') || el.disabled) out.push('disabled');
  if (t('aria-required') || el.required) out.push('required');
  return out;
};
var attrsOf = (el, maxAttr) => {
  var o = {}, any = false;
  ATTRS.forEach((a) => {
    var v = a === 'value' && (tag(el) === 'input' || tag(el) === 'textarea') ? el.value : attr(el, a);
    if (v === null || v === undefined || (a === 'value' && v === '' && !el.hasAttribute('value'))) return;
    v = v.trim();
    if (/^data:/i.test(v) && v.indexOf(',') >= 0 && v.indexOf(',') + 1 < v.length) v = v.slice(0, v.indexOf(',') + 1) + '\u2026';
    o[a] = cut(v, maxAttr); any = true;
  });
  return any ? o : null;
};
var cursorInteractive = (el, cs, opts) => {
  var ti = parseInt(attr(el, 'tabindex'), 10);
  if (el.hasAttribute('onclick') || typeof el.onclick === 'function' || ti >= 0 || el.isContentEditable && (!el.parentElement || !el.parentElement.isContentEditable)) return true;
  // cursor:pointer counts where it starts, not on every descendant that inherits it.
  return opts.live && cs.cursor === 'pointer' && !(el.parentElement && style(el.parentElement).cursor === 'pointer');
};
var level = (el, r) => {
  if (r !== 'heading') return undefined;
  var l = parseInt(attr(el, 'aria-level'), 10);
  return l >= 1 ? l : /^h[1-6]$/.test(tag(el)) ? +tag(el)[1] : 2;
};

var snapshot = (options) => {
  var t0 = performance.now(), o = options || {};
  var opts = {
    maxNodes: o.maxNodes == null ? 500 : o.maxNodes, interactiveOnly: o.interactiveOnly !== false,
    cursorInteractive: o.cursorInteractive !== false, maxTextPerNode: o.maxTextPerNode == null ? 200 : o.maxTextPerNode,
    maxAttrValueLen: o.maxAttrValueLen == null ? 150 : o.maxAttrValueLen, live: o.live !== false
  };
  maxText = opts.maxTextPerNode;
  document.querySelectorAll('[data-agent-ref]').forEach((e) => { e.removeAttribute('data-agent-ref'); });
  var root = o.scope ? document.querySelector(o.scope) : document.body || document.documentElement;
  var stats = {domNodes: document.getElementsByTagName('*').length, visitedNodes: 0, emittedNodes: 1, skippedHidden: 0};
  if (!root) return {version: 1, url: location.href, title: document.title, tree: {tag: 'body'}, stats: stats, error: 'scope_not_found'};
  var top = {node: {tag: tag(root)}, text: Buf(maxText), kidsP: false, nameOnly: true, el: root, always: false, labelled: false};
  var open = [top], order = [], truncated = false, work = [];
  var push = (n, vis) => { for (var c = n.lastChild; c; c = c.previousSibling) work.push([c, vis]); };
  push(root, style(root).visibility !== 'visible');
  while (work.length) {
    var w = work.pop(), n = w[0], cur = open[open.length - 1];
    if (w[2]) { // exit
      if (w[2] === 2) { open.pop(); close(cur, open[open.length - 1]); cur = open[open.length - 1]; }
      if (w[3]) cur.text.gap();
      continue;
    }
    if (n.nodeType === 3) { if (!w[1]) cur.text.push(n.data); continue; }
    if (n.nodeType !== 1) continue;
    stats.visitedNodes++;
    if (tag(n) === 'br') { cur.text.gap(); continue; }
    var cs = style(n);
    if (hiddenSubtree(n, cs)) { stats.skippedHidden++; continue; }
    var vis = cs.visibility !== 'visible', bl = block(n, cs), emitted = 1;
    if (bl) cur.text.gap();
    if (!vis && !truncated) {
      var made = emit(n, cs, cur.kidsP, opts);
      if (made) {
        if (stats.emittedNodes >= opts.maxNodes) truncated = true;
        else { stats.emittedNodes++; order.push(made); open.push(made); emitted = 2; }
      }
    }
    work.push([n, vis, emitted, bl]);
    if (tag(n) === 'details' && !n.open) { var su = n.querySelector(':scope > summary'); if (su) work.push([su, vis]); }
    else push(n, vis);
  }
  close(top, null);
  var refs = 0;
  order.forEach((m) => {
    if (m.always || (m.labelled && (m.node.name || m.node.text))) { m.node.ref = 'e' + (++refs); m.el.setAttribute('data-agent-ref', m.node.ref); }
  });
  stats.jsTimeMs = Math.round((performance.now() - t0) * 10) / 10;
  if (truncated) stats.truncated = true;
  return {version: 1, url: location.href, title: norm(document.title) || undefined, tree: top.node, stats: stats};
};
var close = (m, parent) => {
  var text = m.text.s;
  if (text && !m.nameOnly && text !== m.node.name) m.node.text = text;
  if (parent) (parent.node.children = parent.node.children || []).push(m.node);
};
var emit = (el, cs, insideP, opts) => {
  var r = role(el);
  if (r === 'none' || r === 'presentation') r = '';
  var cat = INTERACTIVE[r] ? 'i' : CONTENT[r] ? 'c' : r ? 's' : '';
  var cur = opts.cursorInteractive && cat !== 'i' && cursorInteractive(el, cs, opts);
  if (insideP && cat !== 'i' && !cur) return null;
  if (!r && !cur) return null;
  var shown = r || (el.hasAttribute('onclick') || typeof el.onclick === 'function' || cs.cursor === 'pointer' ? 'clickable' : 'focusable');
  var node = {tag: tag(el), role: shown};
  var name = accName(el, r ? shown : '');
  if (name) node.name = name;
  var lv = level(el, r); if (lv) node.level = lv;
  var at = attrsOf(el, opts.maxAttrValueLen); if (at) node.attrs = at;
  var st = states(el, r); if (st.length) node.states = st;
  if (cur || !r) node.cursorInteractive = true;
  return {node: node, el: el, text: Buf(opts.maxTextPerNode), kidsP: insideP || !!KIDS_PRESENTATIONAL[shown],
    always: cur || cat === 'i' || (cat === 'c' && !opts.interactiveOnly), labelled: cat === 'c',
    nameOnly: /^(main|navigation|region|article)$/.test(shown)};
};

// ---- actions and queries ----
var find = (ref) => {
  return typeof ref === 'string' && /^e[1-9][0-9]{0,9}$/.test(ref) ? document.querySelector('[data-agent-ref="' + ref + '"]') : null;
};
function fail(error, ref, action, message) { return {success: false, error: error, ref: ref, action: action, message: message}; }
var center = (el) => {
  el.scrollIntoView({block: 'center', inline: 'center', behavior: 'instant'});
  var r = el.getBoundingClientRect();
  return {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2};
};
var mouse = (el, types, at) => {
  types.forEach((ty) => {
    var init = {bubbles: true, cancelable: true, composed: true, view: window, button: 0, clientX: at.clientX, clientY: at.clientY};
    el.dispatchEvent(/^pointer/.test(ty) && window.PointerEvent ? new PointerEvent(ty, init) : new MouseEvent(ty, init));
  });
};
var setValue = (el, v) => {
  var proto = tag(el) === 'textarea' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  var d = Object.getOwnPropertyDescriptor(proto, 'value');
  if (d && d.set) d.set.call(el, v); else el.value = v;
  el.dispatchEvent(new Event('input', {bubbles: true}));
  el.dispatchEvent(new Event('change', {bubbles: true}));
};
var action = (ref, name, params) => {
  var p = params || {}, el = find(ref);
  if (!el) return fail('ref_not_found', ref, name, 'stale or unknown ref: take a new snapshot');
  if (name !== 'scroll_into_view' && name !== 'focus' && isHidden(el)) return fail('not_visible', ref, name, 'element is hidden');
  if ((el.disabled || attr(el, 'aria-disabled') === 'true') && /^(click|fill|select|check|uncheck|clear)$/.test(name)) return fail('disabled', ref, name, 'element is disabled');
  var ok = {success: true, action: name, ref: ref}, t = tag(el);
  switch (name) {
    case 'click':
      var at = center(el);
      mouse(el, ['pointerover', 'mouseover', 'pointerdown', 'mousedown'], at);
      if (el.focus) el.focus();
      mouse(el, ['pointerup', 'mouseup'], at);
      el.click();
      return ok;
    case 'fill': case 'clear':
      var v = name === 'clear' ? '' : String(p.value == null ? '' : p.value);
      if (t === 'input' || t === 'textarea') { el.focus(); setValue(el, v); ok.value = el.value; return ok; }
      if (el.isContentEditable) { el.focus(); el.textContent = v; el.dispatchEvent(new InputEvent('input', {bubbles: true, data: v})); ok.value = el.textContent; return ok; }
      return fail('not_fillable', ref, name, 'not an input, textarea or contenteditable');
    case 'select':
      if (t !== 'select') return fail('not_a_select_element', ref, name, 'not a <select>: click its options instead');
      var want = [].concat(p.values == null ? (p.value == null ? [] : [p.value]) : p.values).map(String), hit = [];
      [].forEach.call(el.options, (o) => {
        var m = want.indexOf(o.value) >= 0 || want.indexOf(norm(o.text)) >= 0;
        if (el.multiple || !hit.length) { o.selected = m; if (m) hit.push(o.value); }
      });
      if (!hit.length) return fail('option_not_found', ref, name, 'no option matches');
      el.dispatchEvent(new Event('input', {bubbles: true}));
      el.dispatchEvent(new Event('change', {bubbles: true}));
      ok.values = hit; return ok;
    case 'check': case 'uncheck':
      var box = t === 'input' && (el.type === 'checkbox' || el.type === 'radio');
      if (!box && !/^(checkbox|radio|switch|menuitemcheckbox|menuitemradio)$/.test(role(el))) return fail('not_checkable', ref, name, 'not a checkbox or radio');
      var state = () => { return box ? el.checked : attr(el, 'aria-checked') === 'true'; };
      if (name === 'uncheck' && box && el.type === 'radio') return fail('not_checkable', ref, name, 'check another radio instead');
      if (state() !== (name === 'check')) el.click();
      ok.checked = state(); return ok;
    case 'focus': el.focus(); ok.focused = document.activeElement === el; return ok;
    case 'hover': mouse(el, ['pointerover', 'pointerenter', 'mouseover', 'mouseenter', 'pointermove', 'mousemove'], center(el)); return ok;
    case 'scroll_into_view': el.scrollIntoView({block: 'center', behavior: 'instant'}); return ok;
  }
  return fail('unknown_action', ref, name, 'unknown action');
};
// Cut at limit UTF-16 units without splitting a surrogate pair.
var bound = (s, limit) => {
  if (s.length <= limit) return {value: s, truncated: false};
  var end = limit;
  if (end > 0 && s.charCodeAt(end - 1) >= 0xd800 && s.charCodeAt(end - 1) < 0xdc00) end--;
  return {value: s.slice(0, end), truncated: true};
};
var query = (ref, kind, limit) => {
  var el = find(ref), lim = limit == null ? 4000 : Math.max(0, limit | 0);
  if (!el) return {ref: ref, kind: kind, value: '', truncated: false, error: 'ref_not_found'};
  var v;
  switch (kind) {
    case 'text': v = norm(el.innerText); break;
    case 'html': v = el.outerHTML; break;
    case 'value': v = 'value' in el ? String(el.value) : attr(el, 'aria-valuenow'); if (v == null) return {ref: ref, kind: kind, value: '', truncated: false, error: 'not_a_form_control'}; break;
    case 'attrs': var a = {}; [].forEach.call(el.attributes, (x) => { if (x.name !== 'data-agent-ref') a[x.name] = x.value; }); v = JSON.stringify(a); break;
    case 'computed_styles': var s = style(el); v = JSON.stringify({display: s.display, visibility: s.visibility, opacity: s.opacity, color: s.color, backgroundColor: s.backgroundColor, fontSize: s.fontSize, cursor: s.cursor}); break;
    default: return {ref: ref, kind: kind, value: '', truncated: false, error: 'unknown_kind'};
  }
  var b = bound(v, lim);
  return {ref: ref, kind: kind, value: b.value, truncated: b.truncated};
};
var page = {
  scrollBy: (x, y) => { window.scrollBy(x || 0, y || 0); return {success: true, scrollX: window.scrollX, scrollY: window.scrollY}; },
  scrollTo: (x, y) => { window.scrollTo(x || 0, y || 0); return {success: true, scrollX: window.scrollX, scrollY: window.scrollY}; },
  getUrl: () => { return location.href; },
  getTitle: () => { return document.title; },
  pressKey: (key) => {
    var el = document.activeElement || document.body, init = {key: key, bubbles: true, cancelable: true};
    var go = el.dispatchEvent(new KeyboardEvent('keydown', init));
    if (key.length === 1) el.dispatchEvent(new KeyboardEvent('keypress', init));
    el.dispatchEvent(new KeyboardEvent('keyup', init));
    // Enter in a form field submits, as a real key press would.
    if (go && key === 'Enter' && el.form && tag(el) === 'input') { if (el.form.requestSubmit) el.form.requestSubmit(); else el.form.submit(); }
    return {success: true, key: key};
  }
};
window.__agentBrowser = {version: 1, snapshot: snapshot, action: action, query: query, page: page};
})();
