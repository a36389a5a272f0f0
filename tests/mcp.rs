//! `agent-snapshot mcp`: JSON-RPC over stdio to the built binary.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_agent-snapshot");

struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
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
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Client {
            child,
            stdin,
            stdout,
            next_id: 1,
        }
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
            let mut line = String::new();
            let n = self.stdout.read_line(&mut line).expect("read");
            assert!(n > 0, "server closed stdout while {method} was pending");
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

/// `mcp --live`: the web_* tools drive a real Chromium. Skipped where Chromium is absent.
#[test]
fn live_tools_drive_chromium() {
    let browser = std::env::var_os("CHROMIUM")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| "/usr/bin/chromium".into());
    if !browser.exists() {
        eprintln!(
            "skipping: needs Chromium at /usr/bin/chromium (apt-get install chromium) or $CHROMIUM"
        );
        return;
    }
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
    let mut c = Client::start(&[
        "--live".as_ref(),
        "--headless".as_ref(),
        "--browser".as_ref(),
        browser.as_os_str(),
        "--start-url".as_ref(),
        std::ffi::OsStr::new(&url),
    ]);
    c.initialize();
    let list = c.request("tools/list", json!({}));
    let tools = list["result"]["tools"].as_array().expect("tools");
    assert_eq!(tools.len(), 10);
    let printed = Command::new(BIN)
        .args(["schema", "--flavor", "mcp", "--tools", "live"])
        .output()
        .unwrap();
    let printed: Value = serde_json::from_slice(&printed.stdout).unwrap();
    for (listed, printed) in tools.iter().zip(printed.as_array().unwrap()) {
        assert_eq!(listed["name"], printed["name"]);
        assert_eq!(listed["inputSchema"], printed["inputSchema"]);
    }

    let snap = c.call("web_snapshot", json!({}));
    let snap_text = text(&snap).to_string();
    let ref_for = |needle: &str| {
        let line = snap_text
            .lines()
            .find(|l| l.contains(needle))
            .expect(needle);
        line.rsplit("[ref=")
            .next()
            .unwrap()
            .trim_end_matches([']', ':'])
            .to_string()
    };
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
    assert!(first_text.contains("[read] url="), "{first_text}");
    assert!(
        first_text.contains("[market on the east bank](e8)"),
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
        json!({"handle": "d1", "ref": "e8", "kind": "attrs"}),
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
