//! The `agent-snapshot` binary, end to end.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_agent-snapshot");

fn corpus(name: &str) -> String {
    format!("{}/corpus/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn run(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin)
        .expect("write stdin");
    child.wait_with_output().expect("wait")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn snapshot_of_a_corpus_page() {
    let o = run(&["snapshot", &corpus("gold-price.html")], b"");
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.starts_with("[snapshot] url=https://example.com title=\"Today's gold price\""));
    assert!(
        text.contains("- navigation [ref=e1]: [Home](e2) [Prices](e3)"),
        "{text}"
    );
}

#[test]
fn snapshot_from_stdin_with_budget_flags() {
    let html = "<ul>".to_string() + &"<li><a href=/x>item</a></li>".repeat(100) + "</ul>";
    let o = run(
        &[
            "snapshot",
            "-",
            "--max-nodes",
            "5",
            "--url",
            "https://given/",
        ],
        html.as_bytes(),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("[snapshot] url=https://given/ nodes=5 truncated=true reasons=maxNodes"),
        "{text}"
    );
    assert!(text.contains("(folded: "), "{text}");
}

#[test]
fn invalid_utf8_and_legacy_encodings_decode() {
    let o = run(
        &["snapshot", "-"],
        b"<meta charset=windows-1250><button>Zam\xF3wienie \xB9</button><a href=/\xFF>x</a>",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("button \"Zamówienie ą\""),
        "{}",
        stdout(&o)
    );
    let forced = run(
        &["snapshot", "-", "--encoding", "iso-8859-2"],
        b"<button>\xB1</button>",
    );
    assert!(
        stdout(&forced).contains("button \"ą\""),
        "{}",
        stdout(&forced)
    );
}

#[test]
fn unknown_encoding_is_a_clear_error() {
    let o = run(&["snapshot", "-", "--encoding", "martian"], b"<p>x");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("unknown encoding \"martian\"") && err.contains("utf-8"),
        "{err}"
    );
}

#[test]
fn query_kinds() {
    let page = corpus("login.html");
    let html = run(&["query", &page, "e13", "--kind", "html"], b"");
    assert_eq!(
        stdout(&html).trim(),
        "<button type=\"submit\">Sign in</button>"
    );
    let value = run(&["query", &page, "e9", "--kind", "value"], b"");
    assert_eq!(stdout(&value).trim(), "en");
    let json = run(
        &[
            "query", &page, "e6", "--kind", "attrs", "--json", "--limit", "20",
        ],
        b"",
    );
    let v: serde_json::Value = serde_json::from_str(&stdout(&json)).expect("json");
    assert_eq!(v["ref"], "e6");
    assert_eq!(v["truncated"], true);
    assert_eq!(v["value"].as_str().map(|s| s.chars().count()), Some(20));
}

#[test]
fn unknown_ref_fails_with_advice() {
    let o = run(&["query", &corpus("login.html"), "e999"], b"");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("\"e999\" not found") && err.contains("snapshot"),
        "{err}"
    );
    let json = run(&["query", &corpus("login.html"), "e999", "--json"], b"");
    assert_eq!(json.status.code(), Some(1));
    assert!(stdout(&json).contains("\"error\":\"ref_not_found\""));
}

#[test]
fn missing_file_fails_with_its_name() {
    let o = run(&["snapshot", "/no/such/page.html"], b"");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("cannot read \"/no/such/page.html\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn tree_json_is_the_node_tree() {
    let o = run(
        &["snapshot", &corpus("gold-price.html"), "--tree-json"],
        b"",
    );
    let tree = agent_snapshot::NodeTree::from_json(stdout(&o).trim()).expect("node tree");
    assert_eq!(tree.version, agent_snapshot::tree::SCHEMA_VERSION);
    assert!(tree.stats.dom_nodes > 10);
}

#[test]
fn closed_pipe_exits_zero() {
    // Far more output than a pipe buffer holds, then the reader goes away after one line.
    let mut child = Command::new(BIN)
        .args([
            "snapshot",
            &corpus("shop-600k.html"),
            "--all",
            "--no-compact",
            "--max-chars",
            "100000000",
            "--max-nodes",
            "1000000",
            "--max-siblings",
            "1000000",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("first line");
    assert!(first.starts_with("[snapshot]"));
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status,
        stderr(&out)
    );
    assert!(out.stderr.is_empty(), "{}", stderr(&out));
}

#[test]
fn read_from_a_file_and_stdin_continues_and_explains_bad_refs() {
    let o = run(
        &["read", &corpus("article.html"), "--max-chars", "700"],
        b"",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(
        text.starts_with("[read] [title=How the river town"),
        "{text}"
    );
    assert!(text.chars().count() <= 701, "{text}");
    let next = text
        .trim_end()
        .rsplit("read --from ")
        .next()
        .and_then(|r| r.strip_suffix(')'))
        .expect("a cut read names where to continue")
        .to_string();
    let html = std::fs::read(corpus("article.html")).expect("read");
    let o = run(&["read", "-", "--from", &next, "--format", "json"], &html);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(
        v["text"].as_str().unwrap().contains("## What it cost"),
        "{v}"
    );
    assert_eq!(v["stats"]["truncated"], false);
    // The page's URL is a field of the result, not a header word.
    assert_eq!(v["url"], "https://courier.example/2026/bridge", "{v}");

    let o = run(&["read", &corpus("article.html"), "--from", "57"], b"");
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("is not a ref: give one like e57"),
        "{}",
        stderr(&o)
    );
    let o = run(&["read", &corpus("article.html"), "--from", "e9999"], b"");
    assert!(!o.status.success());
    assert!(stderr(&o).contains("ref e9999 not found"), "{}", stderr(&o));
}
