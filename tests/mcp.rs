//! `agent-snapshot mcp`: JSON-RPC over stdio to the built binary.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};

use serde_json::{json, Value};

mod common;
use common::Lines;

const BIN: &str = env!("CARGO_BIN_EXE_agent-snapshot");

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: Lines,
    next_id: u64,
}

/// A test that failed leaves no server (nor, through its guard, Chromium) running.
impl Drop for Client {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

impl Client {
    fn start<S: AsRef<std::ffi::OsStr>>(args: &[S]) -> Client {
        let mut child = Command::new(BIN)
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn");
        let stdin = child.stdin.take();
        let stdout = Lines::new(child.stdout.take().expect("stdout"));
        Client {
            child,
            stdin,
            stdout,
            next_id: 1,
        }
    }

    /// `mcp --live --headless` on this Chromium, initialized.
    fn live(browser: &std::path::Path) -> Client {
        let mut c = Client::start(&[
            "--live".as_ref(),
            "--headless".as_ref(),
            "--browser".as_ref(),
            browser.as_os_str(),
        ]);
        c.initialize();
        c
    }

    /// `mcp --live --headless` on this Chromium, started on `url`, initialized.
    fn live_at(browser: &std::path::Path, url: &str) -> Client {
        let mut c = Client::start(&[
            "--live".as_ref(),
            "--headless".as_ref(),
            "--browser".as_ref(),
            browser.as_os_str(),
            "--start-url".as_ref(),
            std::ffi::OsStr::new(url),
        ]);
        c.initialize();
        c
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{message}").expect("write");
        stdin.flush().expect("flush");
    }

    /// Sends a request and returns its response (skipping notifications).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let line = self.stdout.next(method);
            let line =
                line.unwrap_or_else(|| panic!("server closed stdout while {method} was pending"));
            let msg: Value = serde_json::from_str(&line).expect("server writes JSON lines");
            if msg["id"] == id {
                return msg;
            }
        }
    }

    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let r = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        assert!(r.get("error").is_none(), "protocol error for {tool}: {r}");
        r["result"].clone()
    }

    fn initialize(&mut self) -> Value {
        let r = self.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "0"}}),
        );
        self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        r
    }
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().expect("text content")
}

#[test]
fn initialize_list_call_query_and_survive_bad_calls() {
    let mut c = Client::start::<&str>(&[]);
    let init = c.initialize();
    assert_eq!(init["result"]["serverInfo"]["name"], "agent-snapshot");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );

    let list = c.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("tools");
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["html_snapshot", "html_query", "html_read"]);
    // The same schemas as `agent-snapshot schema --flavor mcp --tools offline`.
    let printed = Command::new(BIN)
        .args(["schema", "--flavor", "mcp", "--tools", "offline"])
        .output()
        .unwrap();
    let printed: Value = serde_json::from_slice(&printed.stdout).unwrap();
    for (listed, printed) in tools.iter().zip(printed.as_array().unwrap()) {
        assert_eq!(listed["inputSchema"], printed["inputSchema"]);
        assert_eq!(listed["description"], printed["description"]);
    }

    let login = format!("{}/corpus/login.html", env!("CARGO_MANIFEST_DIR"));
    let snap = c.call("html_snapshot", json!({"path": login, "max_chars": 2000}));
    assert_ne!(snap["isError"], true, "{snap}");
    let snap_text = text(&snap);
    assert!(snap_text.starts_with("handle=d1 "), "{snap_text}");
    assert!(snap_text.contains("[ref=e1]"), "{snap_text}");
    assert_eq!(snap["structuredContent"]["handle"], "d1");

    // Find the button's ref in the snapshot and ask for its outer HTML.
    let button_line = snap_text
        .lines()
        .find(|l| l.contains("- button"))
        .expect("login page has a button");
    let ref_ = button_line
        .rsplit("[ref=")
        .next()
        .and_then(|r| r.strip_suffix(']'))
        .expect("button has a ref");
    let q = c.call(
        "html_query",
        json!({"handle": "d1", "ref": ref_, "kind": "html", "limit": 200}),
    );
    assert_ne!(q["isError"], true, "{q}");
    assert!(text(&q).starts_with("<button"), "{q}");

    let inline = c.call(
        "html_snapshot",
        json!({"html": "<h1>Hi</h1><a href=/a>A</a>"}),
    );
    assert!(
        text(&inline).contains("link \"A\" [href=/a] [ref=e2]"),
        "{inline}"
    );
    assert_eq!(inline["structuredContent"]["handle"], "d2");

    // Bad calls are tool errors the model can read; the server goes on.
    let bad = c.call(
        "html_query",
        json!({"handle": "d9", "ref": "e1", "kind": "text"}),
    );
    assert_eq!(bad["isError"], true);
    assert!(text(&bad).contains("call html_snapshot again"), "{bad}");
    let bad = c.call(
        "html_query",
        json!({"handle": "d1", "ref": "e999", "kind": "text"}),
    );
    assert_eq!(bad["isError"], true);
    assert!(text(&bad).contains("e999"), "{bad}");
    let bad = c.call("html_snapshot", json!({}));
    assert_eq!(bad["isError"], true);
    let bad = c.call("html_snapshot", json!({"html": "<p>", "max_chars": 1}));
    assert_eq!(bad["isError"], true);
    assert!(text(&bad).contains("max_chars"), "{bad}");
    let unknown = c.request(
        "tools/call",
        json!({"name": "no_such_tool", "arguments": {}}),
    );
    assert!(
        unknown["result"]["isError"] == true || unknown.get("error").is_some(),
        "{unknown}"
    );

    // A line that is not JSON-RPC does not stop the server either.
    writeln!(c.stdin.as_mut().unwrap(), "garbage{{").unwrap();
    let again = c.call(
        "html_query",
        json!({"handle": "d2", "ref": "e2", "kind": "attrs"}),
    );
    assert!(text(&again).contains("\"href\""), "{again}");

    // Closing stdin ends the server cleanly.
    drop(c.stdin.take());
    let status = c.child.wait().expect("wait");
    assert!(status.success(), "{status}");
}

/// What `schema --flavor mcp --tools SET` prints.
fn printed_schema(set: &str) -> Vec<Value> {
    let printed = Command::new(BIN)
        .args(["schema", "--flavor", "mcp", "--tools", set])
        .output()
        .unwrap();
    match serde_json::from_slice(&printed.stdout).unwrap() {
        Value::Array(defs) => defs,
        other => panic!("{other}"),
    }
}

/// The ref on the first snapshot line that holds `needle`.
fn ref_in(snapshot: &str, needle: &str) -> String {
    let line = snapshot
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no {needle} in {snapshot}"));
    line.rsplit("[ref=")
        .next()
        .unwrap()
        .trim_end_matches([']', ':'])
        .to_string()
}

/// `mcp --live` on a web component's form (a declarative shadow root) and a same-origin
/// frame's form: the web_* tools reach both, as the agent protocol does.
#[test]
fn live_tools_reach_shadow_roots_and_frames() {
    let Some(browser) = common::chromium() else {
        return;
    };
    let mut pages = std::collections::HashMap::new();
    pages.insert(
        "/components.html",
        include_str!("../corpus/components.html").to_string(),
    );
    let base = common::serve(pages);
    let url = format!("{base}/components.html");
    let mut c = Client::live_at(&browser, &url);
    let snap = c.call("web_snapshot", json!({}));
    let snap_text = text(&snap).to_string();
    assert!(!snap_text.contains("SECRET"), "{snap_text}");
    let email = ref_in(&snap_text, "textbox \"E-mail\"");
    let fill = c.call("web_fill", json!({"ref": email, "value": "a@b.example"}));
    assert_ne!(fill["isError"], true, "{fill}");
    assert_eq!(
        text(&c.call("web_get_value", json!({"ref": email}))),
        "a@b.example"
    );
    let apply = c.call(
        "web_click",
        json!({"ref": ref_in(&snap_text, "button \"Apply\"")}),
    );
    assert_ne!(apply["isError"], true, "{apply}");
    let coupon = ref_in(&snap_text, "iframe \"Coupon\"");
    let frame = c.call("web_get_text", json!({"ref": coupon, "limit": null}));
    assert!(text(&frame).contains("Applied"), "{frame}");
    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}

/// `mcp --live` on a cross-site frame (out of process in Chromium: `tests/agent.rs`
/// `cross_site_frames_are_looked_at_and_acted_on` checks the browser's target list): the
/// web_* tools reach its field and button, and its hidden text never shows.
#[test]
fn live_tools_reach_cross_site_frames() {
    let Some(browser) = common::chromium() else {
        return;
    };
    let mut pages = std::collections::HashMap::new();
    pages.insert("/frames.html", common::cross_site_page());
    pages.insert("/terms.html", common::TERMS_PAGE.to_string());
    let base = common::serve(pages);
    let mut c = Client::live_at(&browser, &format!("{base}/frames.html"));
    let snap = c.call("web_snapshot", json!({}));
    let snap_text = text(&snap).to_string();
    assert!(!snap_text.contains("SECRET"), "{snap_text}");
    let name = ref_in(&snap_text, "textbox \"Full name\"");
    let fill = c.call("web_fill", json!({"ref": name, "value": "Ada"}));
    assert_ne!(fill["isError"], true, "{fill}");
    assert_eq!(text(&c.call("web_get_value", json!({"ref": name}))), "Ada");
    let accept = c.call(
        "web_click",
        json!({"ref": ref_in(&snap_text, "button \"Accept terms\"")}),
    );
    assert_ne!(accept["isError"], true, "{accept}");
    let waited = c.call(
        "web_wait_for",
        json!({"text": "Accepted by Ada", "timeout_ms": 3000}),
    );
    assert_ne!(waited["isError"], true, "{waited}");
    let again = text(&c.call("web_snapshot", json!({}))).to_string();
    assert!(
        again.contains("Accepted by Ada") && !again.contains("SECRET"),
        "{again}"
    );
    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}

/// `mcp --live`: the web_* tools drive a real Chromium. Skipped where Chromium is absent.
#[test]
fn live_tools_drive_chromium() {
    let Some(browser) = common::chromium() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("form.html");
    std::fs::write(
        &page,
        "<title>Form</title><label>Name <input name=n></label>\
         <button onclick=\"document.title='Sent '+document.querySelector('input').value\">Send</button>\
         <a href=other.html>Other</a>",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("other.html"),
        "<title>Other</title><h1>Other page</h1>",
    )
    .unwrap();
    let url = format!("file://{}", page.display());
    let mut c = Client::live_at(&browser, &url);
    let list = c.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("tools");
    // The web_* tools, then the multiplexed browser tool: the schemas `schema` prints.
    let mut printed = printed_schema("live");
    printed.extend(printed_schema("browser"));
    assert_eq!(tools.len(), 21);
    assert_eq!(tools.len(), printed.len());
    for (listed, printed) in tools.iter().zip(&printed) {
        assert_eq!(listed["name"], printed["name"]);
        assert_eq!(listed["inputSchema"], printed["inputSchema"]);
    }

    let snap = c.call("web_snapshot", json!({}));
    let snap_text = text(&snap).to_string();
    let ref_for = |needle: &str| ref_in(&snap_text, needle);
    let (name, send, other) = (
        ref_for("textbox \"Name\""),
        ref_for("button \"Send\""),
        ref_for("link \"Other\""),
    );
    let fill = c.call("web_fill", json!({"ref": name, "value": "Ada"}));
    assert_ne!(fill["isError"], true, "{fill}");
    let value = c.call("web_get_value", json!({"ref": name}));
    assert_eq!(text(&value), "Ada");
    let click = c.call("web_click", json!({"ref": send}));
    assert_ne!(click["isError"], true, "{click}");
    let nav = c.call("web_click", json!({"ref": other}));
    assert!(text(&nav).contains("navigated=true"), "{nav}");
    assert!(text(&nav).contains("call web_snapshot"), "{nav}");
    let stale = c.call("web_get_text", json!({"ref": name, "limit": null}));
    assert_eq!(stale["isError"], true);
    assert!(text(&stale).starts_with("STALE_REF:"), "{stale}");
    let again = c.call("web_snapshot", json!({"max_chars": 2000}));
    assert!(text(&again).contains("heading \"Other page\""), "{again}");

    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}

#[test]
fn html_read_reads_continues_by_handle_and_queries_its_refs() {
    let mut c = Client::start::<&str>(&[]);
    c.initialize();
    let article = format!("{}/corpus/article.html", env!("CARGO_MANIFEST_DIR"));
    let first = c.call("html_read", json!({"path": article, "max_chars": 700}));
    assert_ne!(first["isError"], true, "{first}");
    let first_text = text(&first);
    assert!(first_text.starts_with("handle=d1 "), "{first_text}");
    assert!(first_text.contains("[read]"), "{first_text}");
    assert!(
        first_text.contains("[market on the east bank](e12)"),
        "{first_text}"
    );
    let next = first["structuredContent"]["next"]
        .as_str()
        .expect("a cut read names where to continue")
        .to_string();
    assert!(
        first_text.ends_with(&format!("read --from {next})")),
        "{first_text}"
    );
    let more = c.call("html_read", json!({"handle": "d1", "from": next}));
    assert_ne!(more["isError"], true, "{more}");
    assert!(text(&more).contains("## What it cost"), "{more}");
    // The refs of a read are the document's: html_query answers them on the same handle.
    let q = c.call(
        "html_query",
        json!({"handle": "d1", "ref": "e12", "kind": "attrs"}),
    );
    assert!(text(&q).contains("/places/market"), "{q}");
    let bad = c.call("html_read", json!({"handle": "d1", "from": "x9"}));
    assert_eq!(bad["isError"], true);
    assert!(text(&bad).contains("not a ref"), "{bad}");
    let bad = c.call("html_read", json!({"handle": "d1", "html": "<p>"}));
    assert!(
        text(&bad).contains("exactly one of path, html and handle"),
        "{bad}"
    );
}

const LINKS: &str = r#"<!doctype html><title>Links</title>
<a href="/next.html">Next page</a>
<button onmouseover="document.title = 'Hovered'">Hover me</button>
<script>setTimeout(() => document.body.insertAdjacentHTML('beforeend', '<p>Late text</p>'), 300)</script>"#;

const NEXT: &str =
    r#"<!doctype html><title>Next</title><h1>Next page</h1><a href="/links.html">Back home</a>"#;

/// No --start-url: the browser starts on the first call; navigate, snapshot, click, back,
/// wait, hover and screenshot, then the same browser through the one `browser` tool.
#[test]
fn live_tools_navigate_click_go_back_and_the_browser_tool() {
    let Some(browser) = common::chromium() else {
        return;
    };
    let mut pages = std::collections::HashMap::new();
    pages.insert("/links.html", LINKS.to_string());
    pages.insert("/next.html", NEXT.to_string());
    let base = common::serve(pages);
    let mut c = Client::live(&browser);
    let nav = c.call("web_navigate", json!({"url": format!("{base}/links.html")}));
    assert_ne!(nav["isError"], true, "{nav}");
    assert!(text(&nav).contains("call web_snapshot"), "{nav}");
    assert_eq!(nav["structuredContent"]["title"], "Links");
    let waited = c.call(
        "web_wait_for",
        json!({"text": "Late text", "timeout_ms": 5000}),
    );
    assert_ne!(waited["isError"], true, "{waited}");
    let snap = c.call("web_snapshot", json!({}));
    let snap_text = text(&snap).to_string();
    let next = ref_in(&snap_text, "link \"Next page\"");
    let hover = ref_in(&snap_text, "button \"Hover me\"");
    let hovered = c.call("web_hover", json!({"ref": hover}));
    assert_eq!(
        hovered["structuredContent"]["title"], "Hovered",
        "{hovered}"
    );
    let click = c.call("web_click", json!({"ref": next}));
    assert!(text(&click).contains("navigated=true"), "{click}");
    let snap = c.call("web_snapshot", json!({}));
    assert!(text(&snap).contains("heading \"Next page\""), "{snap}");
    let back = c.call("web_back", json!({}));
    assert_ne!(back["isError"], true, "{back}");
    assert!(
        back["structuredContent"]["url"]
            .as_str()
            .unwrap()
            .ends_with("/links.html"),
        "{back}"
    );
    let stale = c.call("web_click", json!({"ref": next}));
    assert_eq!(stale["isError"], true);
    assert!(text(&stale).starts_with("STALE_REF:"), "{stale}");
    let timeout = c.call("web_wait_for", json!({"text": "never", "timeout_ms": 200}));
    assert!(text(&timeout).starts_with("TIMEOUT:"), "{timeout}");
    let slept = c.call("web_wait_for", json!({"time_ms": 50}));
    assert_eq!(slept["structuredContent"]["waited_ms"], 50, "{slept}");
    let shot = c.call("web_screenshot", json!({}));
    let image = &shot["content"][1];
    assert_eq!(image["type"], "image", "{shot}");
    assert_eq!(image["mimeType"], "image/png");
    let png = base64::Engine::decode(
        &base64::engine::general_purpose::STANDARD,
        image["data"].as_str().unwrap(),
    )
    .unwrap();
    assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");

    // The same browser through the one multiplexed tool.
    let status = c.call("browser", json!({"action": "status"}));
    assert_eq!(status["structuredContent"]["running"], true, "{status}");
    let go = c.call(
        "browser",
        json!({"action": "navigate", "target_url": format!("{base}/next.html")}),
    );
    assert_eq!(go["structuredContent"]["title"], "Next", "{go}");
    let snap = c.call("browser", json!({"action": "snapshot"}));
    let home = ref_in(text(&snap), "link \"Back home\"");
    let act = c.call(
        "browser",
        json!({"action": "act", "request": {"kind": "click", "target_id": home, "text": null}}),
    );
    assert!(text(&act).contains("navigated=true"), "{act}");
    let title = c.call(
        "browser",
        json!({"action": "act", "request": {"kind": "evaluate", "text": "document.title"}}),
    );
    assert_eq!(text(&title), "\"Links\"", "{title}");
    let bad = c.call(
        "browser",
        json!({"action": "act", "request": {"kind": "fly"}}),
    );
    assert_eq!(bad["isError"], true, "{bad}");
    let stop = c.call("browser", json!({"action": "stop"}));
    assert_ne!(stop["isError"], true, "{stop}");
    let status = c.call("browser", json!({"action": "status"}));
    assert_eq!(status["structuredContent"]["running"], false, "{status}");
    // Any call starts it again.
    let again = c.call(
        "browser",
        json!({"action": "start", "target_url": format!("{base}/next.html")}),
    );
    assert_eq!(again["structuredContent"]["title"], "Next", "{again}");

    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}

/// `web_snapshot` scoped by a folded stub's ref, in the list format: the footer's links with
/// the page's refs, and a click on one of them works.
#[test]
fn live_web_snapshot_scopes_by_ref_in_the_list_format() {
    let Some(browser) = common::chromium() else {
        return;
    };
    let mut pages = std::collections::HashMap::new();
    pages.insert("/deals.html", common::deals_page());
    let base = common::serve(pages);
    let mut c = Client::live(&browser);
    c.call("web_navigate", json!({"url": format!("{base}/deals.html")}));
    let full = c.call("web_snapshot", json!({"max_chars": 620}));
    let full_text = text(&full).to_string();
    let footer = common::folded_ref(&full_text, "contentinfo");
    let buy = ref_in(&full_text, "button \"Buy\"");
    let listed = c.call(
        "web_snapshot",
        json!({"scope": footer, "format": "list", "interactive_only": null}),
    );
    assert_ne!(listed["isError"], true, "{listed}");
    let lines: Vec<&str> = text(&listed).lines().skip(1).collect();
    assert_eq!(lines.len(), 40, "{listed}");
    assert!(
        lines.iter().all(|l| l.starts_with("- link \"Footer ")),
        "{listed}"
    );
    let third = ref_in(text(&listed), "link \"Footer 3\"");
    let click = c.call("web_click", json!({"ref": third}));
    assert_eq!(click["structuredContent"]["title"], "Footer 3", "{click}");
    // The page did not change: the full snapshot's refs still act.
    let bought = c.call("web_click", json!({"ref": buy}));
    assert_eq!(bought["structuredContent"]["title"], "Bought", "{bought}");
    let json_format = c.call("web_snapshot", json!({"scope": footer, "format": "json"}));
    let parsed: Value = serde_json::from_str(text(&json_format)).expect("format json is JSON");
    assert!(parsed.to_string().contains("Footer 40"), "{parsed}");
    let missing = c.call("web_snapshot", json!({"scope": "e99999"}));
    assert_eq!(missing["isError"], true, "{missing}");
    assert!(text(&missing).starts_with("NOT_FOUND:"), "{missing}");
    assert!(text(&missing).contains("e99999"), "{missing}");
    let bad = c.call("web_snapshot", json!({"format": "yaml"}));
    assert_eq!(bad["isError"], true, "{bad}");
    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}

/// `web_read` over `mcp --live`: the page's main content as it shows after its scripts, the
/// rails left out, and its refs act with web_click.
#[test]
fn live_web_read_reads_what_the_script_built() {
    let Some(browser) = common::chromium() else {
        return;
    };
    let page = r##"<!doctype html><title>Notes</title>
<nav><a href="/a">Home</a> <a href="/b">Archive</a></nav>
<div id="app"></div>
<script>
let p = 'The committee met on Monday, its chair said, and agreed the budget, the plan ' +
  'for the new library and the timetable for the works that start in spring. ';
document.getElementById('app').innerHTML = '<article><h1>Council notes</h1><p>' + p +
  '</p><p>' + p + '</p><p>' + p + 'See the <a href="#m" onclick="document.title = \'Minutes\';' +
  ' return false">minutes</a>.</p></article>';
</script>"##;
    let mut pages = std::collections::HashMap::new();
    pages.insert("/notes.html", page.to_string());
    let base = common::serve(pages);
    let mut c = Client::live(&browser);
    c.call("web_navigate", json!({"url": format!("{base}/notes.html")}));
    let read = c.call("web_read", json!({"max_chars": 4000}));
    assert_ne!(read["isError"], true, "{read}");
    let body = text(&read).to_string();
    assert!(body.contains("# Council notes"), "{body}");
    assert!(!body.contains("Archive"), "{body}");
    let minutes = body
        .split("[minutes](")
        .nth(1)
        .and_then(|rest| rest.split(')').next())
        .unwrap_or_else(|| panic!("no minutes link in {body}"))
        .to_string();
    let click = c.call("web_click", json!({"ref": minutes}));
    assert_eq!(click["structuredContent"]["title"], "Minutes", "{click}");
    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}

#[test]
fn html_snapshot_takes_a_scope_and_the_list_format() {
    let mut c = Client::start::<&str>(&[]);
    c.initialize();
    let html = "<nav><a href=/>Home</a></nav><div id=x><p>Hi <a href=/b>B</a></p></div>";
    let scoped = c.call("html_snapshot", json!({"html": html, "scope": "#x"}));
    assert_ne!(scoped["isError"], true, "{scoped}");
    assert!(text(&scoped).contains("[B](e3)"), "{scoped}");
    assert!(!text(&scoped).contains("Home"), "{scoped}");
    let by_ref = c.call("html_snapshot", json!({"html": html, "scope": "e1"}));
    assert!(text(&by_ref).contains("Home"), "{by_ref}");
    let listed = c.call("html_snapshot", json!({"html": html, "format": "list"}));
    assert!(
        text(&listed).contains("- link \"Home\" [ref=e2]"),
        "{listed}"
    );
    let missing = c.call("html_snapshot", json!({"html": html, "scope": "#nope"}));
    assert_eq!(missing["isError"], true, "{missing}");
    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}

const PAGE_26: &str = r#"<!doctype html><title>Desk</title>
<label>Attachment <input type=file id=f></label>
<button ondblclick="out.textContent = 'Opened twice'">Open</button>
<button onclick="out.textContent = confirm('Delete it?') ? 'Deleted' : 'Kept'">Delete</button>
<a href="/other.html" target=_blank>Other tab</a>
<div id=card role=button tabindex=0 draggable=true
  ondragstart="event.dataTransfer.setData('text/plain', 'card')">Card</div>
<div role=button tabindex=0 ondragover="event.preventDefault()"
  ondrop="event.preventDefault(); out.textContent = 'Dropped ' + event.dataTransfer.getData('text/plain')">Bin</div>
<button id=hold>Hold</button>
<p id=out>Nothing yet</p>
<script>f.onchange = () => out.textContent = f.files[0].name + ':' + f.files[0].size;
let timer;
hold.onpointerdown = () => timer = setTimeout(() => out.textContent = 'Held', 500);
hold.onpointerup = () => clearTimeout(timer);</script>"#;

/// Issue 26 through MCP: upload, double click, drag, a confirm() answered with web_dialog (other
/// tools fail with DIALOG_OPEN meanwhile), a tab the page opens, listed, switched and closed;
/// then the same kinds through the one `browser` tool.
#[test]
fn live_tools_upload_double_click_dialogs_and_tabs() {
    let Some(browser) = common::chromium() else {
        return;
    };
    let mut pages = std::collections::HashMap::new();
    pages.insert("/desk.html", PAGE_26.to_string());
    pages.insert("/other.html", NEXT.to_string());
    let base = common::serve(pages);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("a.pdf");
    std::fs::write(&file, b"%PDF-1.4 hello").unwrap();
    let mut c = Client::live(&browser);
    c.call("web_navigate", json!({"url": format!("{base}/desk.html")}));
    let snap = text(&c.call("web_snapshot", json!({}))).to_string();
    let (attachment, open, delete, other) = (
        ref_in(&snap, "button \"Attachment\""),
        ref_in(&snap, "button \"Open\""),
        ref_in(&snap, "button \"Delete\""),
        ref_in(&snap, "link \"Other tab\""),
    );
    let out = |c: &mut Client| {
        let value = c.call(
            "browser",
            json!({"action": "act", "request": {"kind": "evaluate", "text": "out.textContent"}}),
        );
        text(&value).to_string()
    };

    let uploaded = c.call(
        "web_upload",
        json!({"ref": attachment, "files": [file.to_string_lossy()]}),
    );
    assert_eq!(uploaded["structuredContent"]["changed"], true, "{uploaded}");
    assert_eq!(out(&mut c), "\"a.pdf:14\"");
    let missing = c.call(
        "web_upload",
        json!({"ref": attachment, "files": ["/no/such/file.pdf"]}),
    );
    assert!(text(&missing).starts_with("INVALID_ARGS:"), "{missing}");

    c.call("web_click", json!({"ref": open, "double_click": false}));
    assert_eq!(out(&mut c), "\"a.pdf:14\"", "one click is no double click");
    c.call("web_click", json!({"ref": open, "double_click": true}));
    assert_eq!(out(&mut c), "\"Opened twice\"");
    // A button that reacts only to a held press.
    let hold = ref_in(&snap, "button \"Hold\"");
    c.call("web_click", json!({"ref": hold}));
    assert_eq!(out(&mut c), "\"Opened twice\"", "a click does not hold");
    let held = c.call("web_click", json!({"ref": hold, "long_press": true}));
    assert_eq!(held["structuredContent"]["changed"], true, "{held}");
    assert_eq!(out(&mut c), "\"Held\"");
    // What changed since the first snapshot: the paragraph, in place; the rest folded.
    let diff = c.call("web_snapshot", json!({"diff": true}));
    let diff_text = text(&diff);
    assert!(diff_text.starts_with("[diff against look 1]"), "{diff}");
    assert!(diff_text.contains("+ paragraph: Held"), "{diff}");
    assert!(diff_text.contains("unchanged line"), "{diff}");
    let both = c.call(
        "web_click",
        json!({"ref": hold, "long_press": true, "double_click": true}),
    );
    assert_eq!(both["isError"], true, "{both}");
    let (card, bin) = (
        ref_in(&snap, "button \"Card\""),
        ref_in(&snap, "button \"Bin\""),
    );
    let dragged = c.call("web_drag", json!({"ref": card, "to": bin}));
    assert_eq!(dragged["structuredContent"]["changed"], true, "{dragged}");
    assert_eq!(out(&mut c), "\"Dropped card\"");

    let asked = c.call("web_click", json!({"ref": delete}));
    assert_eq!(
        asked["structuredContent"]["dialog"]["type"], "confirm",
        "{asked}"
    );
    assert!(
        text(&asked).contains("\"Delete it?\"; answer it with web_dialog"),
        "{asked}"
    );
    let blocked = c.call("web_snapshot", json!({}));
    assert!(text(&blocked).starts_with("DIALOG_OPEN:"), "{blocked}");
    let answered = c.call("web_dialog", json!({"accept": false, "text": null}));
    assert_eq!(
        answered["structuredContent"]["answered"]["accepted"], false,
        "{answered}"
    );
    assert_eq!(out(&mut c), "\"Kept\"");
    let none = c.call("web_dialog", json!({"accept": true}));
    assert_eq!(none["isError"], true, "{none}");

    let opened = c.call("web_click", json!({"ref": other}));
    assert_eq!(opened["structuredContent"]["tab"]["index"], 1, "{opened}");
    assert!(
        text(&opened).contains("opened a tab, now current"),
        "{opened}"
    );
    let listed = c.call("web_tabs", json!({"action": "list", "index": null}));
    assert_eq!(
        listed["structuredContent"]["tabs"][1]["current"], true,
        "{listed}"
    );
    assert!(text(&listed).contains("1: "), "{listed}");
    let back = c.call("web_tabs", json!({"action": "switch", "index": 0}));
    assert_eq!(back["structuredContent"]["title"], "Desk", "{back}");
    let bad = c.call("web_tabs", json!({"action": "close", "index": 1}));
    assert_eq!(bad["isError"], true, "{bad}");
    let far = c.call("web_tabs", json!({"action": "switch", "index": 7}));
    assert!(text(&far).starts_with("INVALID_ARGS:"), "{far}");

    // The same through the browser tool's kinds.
    let act = |kind: &str, text: Option<&str>| json!({"action": "act", "request": {"kind": kind, "text": text}});
    let switched = c.call("browser", act("switch_tab", Some("1")));
    assert_eq!(switched["structuredContent"]["title"], "Next", "{switched}");
    let closed = c.call("browser", act("close_tab", None));
    assert_eq!(closed["structuredContent"]["index"], 0, "{closed}");
    let tabs = c.call("browser", act("tabs", None));
    assert_eq!(
        tabs["structuredContent"]["tabs"].as_array().map(Vec::len),
        Some(1),
        "{tabs}"
    );
    let snap = c.call("browser", json!({"action": "snapshot"}));
    let delete = ref_in(text(&snap), "button \"Delete\"");
    let asked = json!({"action": "act", "request": {"kind": "click", "target_id": delete}});
    c.call("browser", asked);
    let accepted = c.call("browser", act("accept_dialog", None));
    assert_eq!(
        accepted["structuredContent"]["answered"]["accepted"], true,
        "{accepted}"
    );
    assert_eq!(out(&mut c), "\"Deleted\"");
    let (card, bin) = (
        ref_in(text(&snap), "button \"Card\""),
        ref_in(text(&snap), "button \"Bin\""),
    );
    let drag =
        json!({"action": "act", "request": {"kind": "drag", "target_id": card, "text": bin}});
    c.call("browser", drag);
    assert_eq!(out(&mut c), "\"Dropped card\"");
    let bad = c.call("browser", act("switch_tab", Some("first")));
    assert_eq!(bad["isError"], true, "{bad}");

    drop(c.stdin.take());
    assert!(c.child.wait().unwrap().success());
}
