// overlay.js: the agent's own marks in the page: the handoff prompt (a message and a Resume
// button) and the --sidebar (a log of commands, the element an action touches outlined).
// Plain ES2017, injected by src/live.rs only when used, into an isolated world
// (CDP Page.createIsolatedWorld): the page's scripts neither see these functions nor can
// patch the DOM methods they call. Everything drawn lives in a closed shadow root on an
// <agent-snapshot-ui> element appended to <html>, after <body>: the snapshot walks <body>
// and skips this element anyway; `all: initial !important` on the host and constructed
// style sheets inside keep the page's CSS off it.
(() => {
  if (window.__agentUI) return;
  let D = document;
  let host = null, root = null, alertBox, message, panel, list, box;
  let resumed = false, cleared = 0, drag = null;
  let el = (tag, cls, parent, text) => {
    let e = D.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  };
  let STYLE = `
:host { all: initial !important; display: block !important; position: fixed !important;
  left: 0 !important; top: 0 !important; width: 0 !important; height: 0 !important;
  overflow: visible !important; z-index: 2147483647 !important; pointer-events: none !important; }
* { box-sizing: border-box; font: 13px/1.4 system-ui, sans-serif; color: #111; }
[hidden] { display: none !important; }
.alert { position: fixed; top: 16px; left: 50%; transform: translateX(-50%); width: 360px;
  max-width: calc(100vw - 32px); padding: 14px 16px; background: #fff5f5; pointer-events: auto;
  border: 2px solid #d92d20; border-radius: 10px; box-shadow: 0 0 0 4px rgba(217,45,32,.25), 0 8px 24px rgba(0,0,0,.25); }
.alert b { display: block; color: #d92d20; margin-bottom: 6px; }
.alert p { margin: 0 0 10px; white-space: pre-wrap; overflow-wrap: anywhere; }
button { cursor: pointer; border: 1px solid #888; border-radius: 6px; background: #fff; padding: 3px 8px; }
.alert button { background: #d92d20; color: #fff; border: 0; padding: 7px 14px; font-weight: 600; }
.panel { position: fixed; top: 12px; right: 12px; width: 300px; pointer-events: auto;
  background: rgba(255,255,255,.96); border: 1px solid #999; border-radius: 8px; box-shadow: 0 4px 16px rgba(0,0,0,.2);
  resize: both; overflow: hidden; }
.head { display: flex; gap: 6px; align-items: center; padding: 4px 8px; background: #223; cursor: move; user-select: none; }
.head span { flex: 1; color: #fff; font-weight: 600; }
.head button { padding: 0 6px; }
.log { max-height: 260px; overflow: auto; padding: 4px 8px; }
.log div { border-bottom: 1px solid #eee; padding: 2px 0; overflow-wrap: anywhere; }
.log i { color: #666; font-style: normal; margin-right: 6px; }
.box { position: fixed; pointer-events: none; outline: 3px solid #f79009; outline-offset: 2px; border-radius: 3px; }
`;
  let mount = () => {
    if (host && host.isConnected) return;
    host = D.createElement('agent-snapshot-ui');
    root = host.attachShadow({mode: 'closed'});
    let sheet = new CSSStyleSheet();
    sheet.replaceSync(STYLE);
    root.adoptedStyleSheets = [sheet];
    alertBox = el('div', 'alert', root);
    alertBox.hidden = true;
    el('b', '', alertBox, 'The agent needs your help');
    message = el('p', '', alertBox);
    // Only a person's click counts: a synthetic event from a page script is not trusted.
    el('button', 'resume', alertBox, 'Resume agent').addEventListener('click', e => {
      if (e.isTrusted) { resumed = true; alertBox.hidden = true; }
    });
    panel = el('div', 'panel', root);
    panel.hidden = true;
    let head = el('div', 'head', panel);
    el('span', '', head, 'agent-snapshot');
    let fold = el('button', '', head, '_');
    fold.title = 'Collapse or expand';
    let clear = el('button', '', head, 'C');
    clear.title = 'Clear the log';
    list = el('div', 'log', panel);
    fold.addEventListener('click', () => { list.hidden = !list.hidden; });
    clear.addEventListener('click', () => { cleared = lastSeq; list.textContent = ''; });
    head.addEventListener('pointerdown', e => {
      if (e.target !== head && e.target.tagName !== 'SPAN') return;
      let r = panel.getBoundingClientRect();
      drag = {dx: e.clientX - r.left, dy: e.clientY - r.top};
      head.setPointerCapture(e.pointerId);
    });
    head.addEventListener('pointermove', e => {
      if (!drag) return;
      place(e.clientX - drag.dx, e.clientY - drag.dy);
    });
    head.addEventListener('pointerup', () => { drag = null; });
    box = el('div', 'box', root);
    box.hidden = true;
    D.documentElement.appendChild(host);
  };
  let lastSeq = 0;
  let place = (x, y) => {
    let r = panel.getBoundingClientRect();
    x = Math.max(0, Math.min(x, innerWidth - r.width));
    y = Math.max(0, Math.min(y, innerHeight - r.height));
    Object.assign(panel.style, {left: x + 'px', top: y + 'px', right: 'auto'});
  };
  let meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  let target = ref => D.querySelector('[data-agent-ref="' + window.CSS.escape(ref) + '"]');
  window.__agentUI = {
    // Shows the prompt (again, after a navigation) and says whether a person resumed.
    handoff: text => {
      mount();
      if (!resumed) { message.textContent = text; alertBox.hidden = false; }
      return resumed;
    },
    handoffEnd: () => { resumed = false; if (alertBox) alertBox.hidden = true; return true; },
    // Rewrites the log from [{seq, time, text}], newest last, keeping the panel where it is.
    log: entries => {
      mount();
      panel.hidden = false;
      list.textContent = '';
      for (let x of entries) {
        lastSeq = Math.max(lastSeq, x.seq);
        if (x.seq <= cleared) continue;
        let row = el('div', '', list);
        el('i', '', row, x.time);
        row.appendChild(D.createTextNode(x.text));
      }
      list.scrollTop = list.scrollHeight;
      return true;
    },
    // Before an action on ref: brings the element into view, moves the panel off it (to the
    // first corner that leaves it uncovered) and outlines it for a moment.
    touch: ref => {
      mount();
      let t = target(ref);
      if (!t) return false;
      t.scrollIntoView({block: 'center', inline: 'center'});
      let r = t.getBoundingClientRect();
      if (!panel.hidden && meets(panel.getBoundingClientRect(), r)) {
        let p = panel.getBoundingClientRect(), m = 12;
        for (let [x, y] of [[innerWidth - p.width - m, m], [m, m], [m, innerHeight - p.height - m],
          [innerWidth - p.width - m, innerHeight - p.height - m]]) {
          place(x, y);
          if (!meets(panel.getBoundingClientRect(), r)) break;
        }
        if (meets(panel.getBoundingClientRect(), r)) list.hidden = true;
      }
      Object.assign(box.style, {left: r.left + 'px', top: r.top + 'px', width: r.width + 'px', height: r.height + 'px'});
      box.hidden = false;
      clearTimeout(box._t);
      box._t = setTimeout(() => { box.hidden = true; }, 1500);
      return true;
    },
  };
})();
