//! The live path: the in-page script and the JavaScript expressions that drive it.
//!
//! [`script()`] is `agent-browser.js`, minified (source: `js/agent-browser.js`). Inject it once
//! per page (Android `evaluateJavascript`, CDP `Runtime.evaluate`, Playwright `evaluate`),
//! then evaluate the expressions built here; each returns a JSON string. Parse it with the
//! matching `parse_*` function, or, for snapshots, render it with [`render_snapshot`] (the
//! same renderer as the offline path).
//!
//! Every argument is placed into an expression as a JSON literal with `<`, `>`, `&`, U+2028
//! and U+2029 escaped, so no ref, value or key (quotes, backslashes, `</script>`, line
//! separators) can end the string or the script it sits in.
//!
//! ```
//! use agent_snapshot::js::{action_js, parse_action_result, snapshot_js, JsSnapshotOptions};
//!
//! let expr = snapshot_js(&JsSnapshotOptions::default());
//! assert!(expr.contains("__agentBrowser.snapshot({"));
//! let click = action_js("e5", "click", &serde_json::json!({}));
//! assert!(click.contains(r#".action("e5","click",{})"#));
//! let result = parse_action_result(r#"{"success":false,"error":"ref_not_found","ref":"e5","action":"click"}"#)?;
//! assert_eq!(result.error.as_deref(), Some("ref_not_found"));
//! # Ok::<(), agent_snapshot::Error>(())
//! ```

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::render::{render, RenderOptions, SnapshotResult};
use crate::tree::NodeTree;

/// The in-page script, minified. It installs `window.__agentBrowser` (once per page; a second
/// injection is a no-op).
pub fn script() -> &'static str {
    include_str!("../js/agent-browser.min.js")
}

/// Options of the in-page `snapshot()`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct JsSnapshotOptions {
    /// Coarse cap on emitted nodes, so a huge DOM cannot make the script slow; the renderer
    /// applies the real budgets.
    pub max_nodes: usize,
    pub max_text_per_node: usize,
    pub max_attr_value_len: usize,
    /// As [`crate::TreeOptions::interactive_only`].
    pub interactive_only: bool,
    /// Give refs to elements made interactive by `cursor:pointer`, `onclick` or `tabindex`.
    pub cursor_interactive: bool,
    /// Snapshot only the first element matching this CSS selector.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// Also return the page as HTML: the elements the walk found shown, each emitted one
    /// numbered by its place in the walk (`data-agent-n`), for the content stage
    /// ([`crate::rendered`]).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub html: bool,
}

impl Default for JsSnapshotOptions {
    fn default() -> Self {
        JsSnapshotOptions {
            max_nodes: 500,
            max_text_per_node: 200,
            max_attr_value_len: 150,
            interactive_only: true,
            cursor_interactive: true,
            scope: None,
            html: false,
        }
    }
}

/// A value as a JavaScript literal that cannot break out of its context: JSON, with the
/// characters that HTML or pre-ES2019 engines treat specially escaped.
pub fn js_literal<T: Serialize + ?Sized>(value: &T) -> String {
    // Serialising strings, numbers, maps and our option structs cannot fail.
    let json = serde_json::to_string(value).unwrap_or_else(|_| "null".to_string());
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        match c {
            '<' => out.push_str("\\u003c"),
            '>' => out.push_str("\\u003e"),
            '&' => out.push_str("\\u0026"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c => out.push(c),
        }
    }
    out
}

/// `JSON.stringify(window.__agentBrowser.<call>)`, or a `not_injected` error object when the
/// script is missing (after a navigation, for instance).
fn call(call: &str) -> String {
    format!(
        "(window.__agentBrowser ? JSON.stringify(window.__agentBrowser.{call}) : \
         JSON.stringify({{\"error\":\"not_injected\"}}))"
    )
}

/// The expression that takes a snapshot; it evaluates to node-tree JSON.
pub fn snapshot_js(opts: &JsSnapshotOptions) -> String {
    call(&format!("snapshot({})", js_literal(opts)))
}

/// The error objects the expressions return in place of a result.
#[derive(Deserialize)]
struct ScriptError {
    error: String,
}

/// Whether an expression of this module answered that the script is not on the page (after
/// a navigation, for instance): inject [`script`] and evaluate it again.
pub fn not_injected(json: &str) -> bool {
    json.len() < 64
        && serde_json::from_str::<ScriptError>(json).is_ok_and(|e| e.error == "not_injected")
}

fn check_injected(json: &str) -> Result<(), Error> {
    if not_injected(json) {
        return Err(Error::NotInjected);
    }
    Ok(())
}

/// Renders the JSON the in-page `snapshot()` returned: the offline path's renderer, budgets
/// and all.
///
/// # Errors
/// [`Error::NotInjected`] when the script was not on the page; [`Error::TreeJson`] for
/// malformed, oversized or too deep JSON.
pub fn render_snapshot(json: &str, opts: &RenderOptions) -> Result<SnapshotResult, Error> {
    check_injected(json)?;
    Ok(render(&NodeTree::from_json(json)?, opts))
}

/// The expression that runs `action` (`click`, `fill`, `select`, `check`, `uncheck`, `focus`,
/// `hover`, `scroll_into_view`, `clear`) on `ref_`, with its parameters (`{"value": …}` for
/// fill, `{"values": [...]}` for select).
pub fn action_js(ref_: &str, action: &str, params: &serde_json::Value) -> String {
    call(&format!(
        "action({},{},{})",
        js_literal(ref_),
        js_literal(action),
        js_literal(params)
    ))
}

/// What an action did.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct ActionResult {
    pub success: bool,
    #[serde(default)]
    pub action: Option<String>,
    #[serde(rename = "ref", default)]
    pub ref_: Option<String>,
    /// `ref_not_found`, `not_visible`, `disabled`, `not_fillable`, `not_a_select_element`,
    /// `option_not_found`, `not_checkable`, `unknown_action`.
    #[serde(default)]
    pub error: Option<String>,
    /// The value after `fill` / `clear`.
    #[serde(default)]
    pub value: Option<String>,
    /// The values selected by `select`.
    #[serde(default)]
    pub values: Option<Vec<String>>,
    /// The state after `check` / `uncheck`.
    #[serde(default)]
    pub checked: Option<bool>,
    /// Whether `focus` moved the focus.
    #[serde(default)]
    pub focused: Option<bool>,
}

fn parse<T: for<'de> Deserialize<'de>>(json: &str, what: &'static str) -> Result<T, Error> {
    check_injected(json)?;
    if json.len() > crate::tree::MAX_JSON_BYTES {
        return Err(Error::ScriptResult {
            what,
            reason: format!("{} bytes is over the limit", json.len()),
        });
    }
    serde_json::from_str(json).map_err(|e| Error::ScriptResult {
        what,
        reason: e.to_string(),
    })
}

/// Parses what [`action_js`] evaluated to.
pub fn parse_action_result(json: &str) -> Result<ActionResult, Error> {
    parse(json, "action result")
}

/// The expression that answers `kind` (`text`, `html`, `value`, `attrs`, `computed_styles`)
/// for `ref_`, in at most `limit` UTF-16 units.
pub fn query_js(ref_: &str, kind: &str, limit: usize) -> String {
    call(&format!(
        "query({},{},{})",
        js_literal(ref_),
        js_literal(kind),
        limit
    ))
}

/// A live query's answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, Serialize)]
pub struct ScriptQueryResult {
    #[serde(rename = "ref", default)]
    pub ref_: Option<String>,
    #[serde(default)]
    pub kind: Option<String>,
    #[serde(default)]
    pub value: String,
    #[serde(default)]
    pub truncated: bool,
    /// `ref_not_found`, `not_a_form_control`, `unknown_kind`.
    #[serde(default)]
    pub error: Option<String>,
}

/// Parses what [`query_js`] evaluated to.
pub fn parse_query_result(json: &str) -> Result<ScriptQueryResult, Error> {
    parse(json, "query result")
}

/// A scroll direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl std::str::FromStr for Direction {
    type Err = Error;
    fn from_str(s: &str) -> Result<Direction, Error> {
        match s.trim().to_ascii_lowercase().as_str() {
            "up" => Ok(Direction::Up),
            "down" => Ok(Direction::Down),
            "left" => Ok(Direction::Left),
            "right" => Ok(Direction::Right),
            _ => Err(Error::BadArgument(format!(
                "scroll direction {s:?}: use up, down, left or right"
            ))),
        }
    }
}

/// The expression that scrolls the page by `amount` pixels; evaluates to
/// `{success, scrollX, scrollY}`.
pub fn scroll_js(direction: Direction, amount: i64) -> String {
    let (x, y) = match direction {
        Direction::Up => (0, -amount),
        Direction::Down => (0, amount),
        Direction::Left => (-amount, 0),
        Direction::Right => (amount, 0),
    };
    call(&format!("page.scrollBy({x},{y})"))
}

/// The expression that presses `key` (`Enter`, `Tab`, `Escape`, `a`…) on the focused element.
pub fn press_key_js(key: &str) -> String {
    call(&format!("page.pressKey({})", js_literal(key)))
}

/// The expression that scrolls the element with `ref_` to the middle of the viewport and
/// evaluates to `{x, y, covered}`: its centre in viewport pixels, and whether another element
/// is on top there. An element that is gone, disabled or without a box evaluates to
/// `{error: "ref_not_found" | "disabled" | "no_box"}`. The live agent clicks at that point
/// with real input events; this runs outside the script so that it costs the script no bytes.
///
/// An element inside a shadow root is hit-tested in its own tree (the document would answer
/// with its host); one inside a same-origin frame is measured in the frame's viewport, which
/// sits in its `<iframe>`'s content box (border and padding in), so each frame's offset is
/// added on the way up.
pub fn center_js(ref_: &str) -> String {
    point_js(ref_, true)
}

/// As [`center_js`]; without `scroll` the page is left where it is and a centre outside the
/// viewport is the error `out_of_view` (a drag's target, after its source was scrolled to).
pub fn point_js(ref_: &str, scroll: bool) -> String {
    let (scroll, in_view) = if scroll {
        (
            "el.scrollIntoView({block: 'center', inline: 'center'}); ",
            "",
        )
    } else {
        (
            "",
            "if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) return JSON.stringify({error: 'out_of_view'}); ",
        )
    };
    format!(
        "(() => {{ let el = {}; \
         if (!el) return JSON.stringify({{error: 'ref_not_found'}}); \
         if (el.disabled || el.getAttribute('aria-disabled') === 'true') return JSON.stringify({{error: 'disabled'}}); \
         {scroll}\
         let r = el.getBoundingClientRect(); \
         if (!(r.width > 0 && r.height > 0)) return JSON.stringify({{error: 'no_box'}}); \
         let x = r.left + r.width / 2, y = r.top + r.height / 2, hit = el.getRootNode().elementFromPoint(x, y); \
         let covered = !!hit && hit !== el && !el.contains(hit) && !hit.contains(el); \
         for (let w = el.ownerDocument.defaultView; w && w !== window && w.frameElement; w = w.parent) {{ \
         let f = w.frameElement, b = f.getBoundingClientRect(), s = getComputedStyle(f); \
         x += b.left + f.clientLeft + parseFloat(s.paddingLeft); y += b.top + f.clientTop + parseFloat(s.paddingTop); }} \
         {in_view}return JSON.stringify({{x, y, covered}}); }})()",
        ref_element_js(ref_)
    )
}

/// The expression that evaluates to where the viewport of the frame shown by the `<iframe>`
/// marked `ref_` starts, as JSON `{x, y}` in this document's viewport: the element's content
/// box (inside its border and padding), plus the offsets of the same-origin frames it sits
/// in; `{error: "ref_not_found"}` when it is gone. The live agent adds it to the point of an
/// element in a cross-origin frame, which the frame's own document measures.
pub fn frame_origin_js(ref_: &str) -> String {
    format!(
        "(() => {{ let f = {}; \
         if (!f) return JSON.stringify({{error: 'ref_not_found'}}); \
         let x = 0, y = 0; \
         for (let w; f; f = (w = f.ownerDocument.defaultView) !== window && w.frameElement) {{ \
         let b = f.getBoundingClientRect(), s = getComputedStyle(f); \
         x += b.left + f.clientLeft + parseFloat(s.paddingLeft); y += b.top + f.clientTop + parseFloat(s.paddingTop); }} \
         return JSON.stringify({{x, y}}); }})()",
        ref_element_js(ref_)
    )
}

/// The expression that evaluates to whether the element marked with `ref_` is on the page.
pub fn ref_exists_js(ref_: &str) -> String {
    format!("!!{}", ref_element_js(ref_))
}

/// The expression that evaluates to whether `text` shows on the page: in the body's
/// rendered text, or in that of an open shadow root or a same-origin frame (where a
/// component or a frame puts its answer; `innerText` stops at those boundaries). Nested
/// roots and frames are searched 8 deep at most. The text is JSON-encoded, never pasted.
pub fn text_shown_js(text: &str) -> String {
    format!(
        "(t => {{ const inside = (root, depth) => {{ \
         const tops = root.body ? [root.body] : root.children ? [...root.children] : []; \
         if (tops.some(e => (e.innerText || '').includes(t))) return true; \
         if (depth >= 8) return false; \
         for (const el of root.querySelectorAll ? root.querySelectorAll('*') : []) {{ \
         if (el.shadowRoot && inside(el.shadowRoot, depth + 1)) return true; \
         let d = null; if (el.tagName === 'IFRAME') try {{ d = el.contentDocument; }} catch (e) {{}} \
         if (d && inside(d, depth + 1)) return true; }} \
         return false; }}; return inside(document, 0); }})({})",
        js_literal(text)
    )
}

/// The element the last snapshot gave `ref_`, or null: the script's `find`, which also
/// reaches into shadow roots and same-origin frames (a selector would not).
pub fn ref_element_js(ref_: &str) -> String {
    format!(
        "(window.__agentBrowser && window.__agentBrowser.find({}) || null)",
        js_literal(ref_)
    )
}

/// The expression that evaluates to the page URL, as a JSON string.
pub fn get_url_js() -> String {
    call("page.getUrl()")
}

/// The expression that evaluates to the page title, as a JSON string.
pub fn get_title_js() -> String {
    call("page.getTitle()")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A guard on growth: every look injects the script. It moves only with a rule that
    /// needs the bytes (17 000 until the entrance animation's first frame, 57 bytes).
    #[test]
    fn shipped_script_is_at_most_17_1_kb() {
        assert!(script().len() <= 17_100, "{} bytes", script().len());
        assert!(script().contains("__agentBrowser"));
    }

    /// Extracts the JSON literals of an expression built by this module and decodes them.
    fn args(expr: &str, method: &str) -> Vec<serde_json::Value> {
        let start = expr.find(&format!(".{method}(")).expect("call") + method.len() + 2;
        let end = expr[start..].find(")) : JSON").expect("end") + start;
        let inner = &expr[start..end];
        serde_json::from_str(&format!("[{inner}]")).expect("arguments are JSON")
    }

    #[test]
    fn arguments_cannot_break_out_whatever_they_hold() {
        // A deterministic sweep over awkward characters and their combinations.
        let pieces = [
            "\"",
            "'",
            "\\",
            "`",
            "</script>",
            "<!--",
            "\u{2028}",
            "\u{2029}",
            "\n",
            "\r",
            "\0",
            ")",
            "}",
            "${x}",
            "&amp;",
            "e1",
            "金",
            "\u{1F600}",
            "\u{FEFF}",
            " ",
        ];
        let mut seed = 7u64;
        for _ in 0..2000 {
            let mut s = String::new();
            for _ in 0..6 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                s.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let expr = action_js(&s, &s, &serde_json::json!({"value": s}));
            for bad in ["</script", "\u{2028}", "\u{2029}", "<!--"] {
                assert!(!expr.contains(bad), "{bad:?} in {expr}");
            }
            let decoded = args(&expr, "action");
            assert_eq!(decoded[0], serde_json::json!(s));
            assert_eq!(decoded[1], serde_json::json!(s));
            assert_eq!(decoded[2]["value"], serde_json::json!(s));
            assert_eq!(
                args(&query_js(&s, "text", 5), "query")[0],
                serde_json::json!(s)
            );
            assert_eq!(args(&press_key_js(&s), "pressKey")[0], serde_json::json!(s));
            // center_js is built outside the script's call wrapper: check it on its own
            // (no piece holds '|', so the first ") ||" ends the literal).
            let c = center_js(&s);
            for bad in ["</script", "\u{2028}", "\u{2029}", "<!--"] {
                assert!(!c.contains(bad), "{bad:?} in {c}");
            }
            let start = c.find(".find(").expect("find") + ".find(".len();
            let end = c[start..].find(") ||").expect("end") + start;
            let literal: serde_json::Value = serde_json::from_str(&c[start..end]).expect("JSON");
            assert_eq!(literal, serde_json::json!(s));
        }
    }

    #[test]
    fn results_parse_and_errors_are_clear() {
        let r = parse_query_result(r#"{"ref":"e2","kind":"text","value":"Hi","truncated":false}"#)
            .expect("query");
        assert_eq!(r.value, "Hi");
        assert!(matches!(
            parse_action_result(r#"{"error":"not_injected"}"#),
            Err(Error::NotInjected)
        ));
        let err = parse_action_result("{not json").unwrap_err();
        assert!(err.to_string().contains("action result"), "{err}");
        assert!(matches!(
            render_snapshot(r#"{"error":"not_injected"}"#, &RenderOptions::default()),
            Err(Error::NotInjected)
        ));
        assert!("sideways".parse::<Direction>().is_err());
        assert_eq!(scroll_js(Direction::Up, 300), call("page.scrollBy(0,-300)"));
    }
}
