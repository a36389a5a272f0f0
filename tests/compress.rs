//! `agent-snapshot compress`, end to end on sessions built from corpus pages.

mod common;

use std::path::Path;
use std::process::{Command, Output};

use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_agent-snapshot");

fn page(name: &str) -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpus")
            .join(name),
    )
    .expect("corpus page")
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("spawn")
}

/// `compress INPUT -o OUTPUT` plus `extra` flags.
fn compress(input: &Path, output: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "compress",
        input.to_str().unwrap(),
        "-o",
        output.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    run(&args)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A JSONL session in the OpenAI Responses and generic shapes, with one big HTML output per
/// shape, a short HTML output, a JSON output and a user message quoting HTML.
fn jsonl_session() -> String {
    let shop = page("shop-600k.html");
    let lines = [
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Find the cheapest kettle"}]}),
        json!({"type": "function_call", "call_id": "c1", "name": "fetch", "arguments": "{\"url\":\"https://shop.test/\"}"}),
        json!({"zeta": 1, "type": "function_call_output", "call_id": "c1", "output": shop, "alpha": [1.5, null, true]}),
        json!({"type": "function_call_output", "call_id": "c2", "output": page("login.html")}),
        json!({"type": "function_call_output", "call_id": "c3", "output": "{\"ok\":true}"}),
        json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": shop}]}),
        json!({"type": "tool.result", "id": "c4", "content": [{"type": "text", "text": shop}]}),
    ];
    lines.iter().map(|l| format!("{l}\n")).collect()
}

#[test]
fn jsonl_outputs_are_replaced_line_for_line_and_a_second_run_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("s.jsonl");
    let input_text = jsonl_session();
    std::fs::write(&input, &input_text).unwrap();
    let out1 = dir.path().join("once.jsonl");
    let o = compress(&input, &out1, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let summary = stderr(&o);
    assert!(
        summary.contains("7 item(s), 2 HTML output(s) replaced, 0 malformed"),
        "{summary}"
    );
    assert!(
        summary.contains("tokens (o200k, replaced outputs)"),
        "{summary}"
    );
    // No progress bar when stderr is not a terminal: only the summary's lines.
    assert!(
        !summary.contains('\r') && !summary.contains('\u{1b}'),
        "{summary:?}"
    );

    let out_text = std::fs::read_to_string(&out1).unwrap();
    let (ins, outs): (Vec<&str>, Vec<&str>) =
        (input_text.lines().collect(), out_text.lines().collect());
    assert_eq!(ins.len(), outs.len(), "line count kept");
    for i in [0, 1, 3, 4, 5] {
        assert_eq!(
            ins[i],
            outs[i],
            "line {} must pass through byte for byte",
            i + 1
        );
    }
    // The replaced output: a snapshot of the page plus the line saying what was replaced.
    let item: Value = serde_json::from_str(outs[2]).unwrap();
    let keys: Vec<&str> = item
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["zeta", "type", "call_id", "output", "alpha"],
        "key order kept"
    );
    assert_eq!(item["alpha"], json!([1.5, null, true]));
    let output = item["output"].as_str().unwrap();
    assert!(output.starts_with("[snapshot] "), "{output:.200}");
    assert!(output.contains("[ref=e1]"));
    let last = output.lines().last().unwrap();
    assert!(
        last.starts_with("[agent-snapshot compress: replaced 611335 bytes of HTML")
            && last.contains("offline snapshot"),
        "{last}"
    );
    assert!(output.chars().count() < 12_000 + last.chars().count() + 1);
    let generic: Value = serde_json::from_str(outs[6]).unwrap();
    assert!(generic["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("[snapshot] "));

    // Idempotent: the second run replaces nothing and writes the same bytes.
    let out2 = dir.path().join("twice.jsonl");
    let o = compress(&out1, &out2, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("0 HTML output(s) replaced"));
    assert_eq!(std::fs::read(&out1).unwrap(), std::fs::read(&out2).unwrap());
}

#[test]
fn malformed_lines_are_reported_with_file_and_line_and_copied_through() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("bad.jsonl");
    let good = json!({"role": "tool", "tool_call_id": "x", "content": page("shop-600k.html")});
    let text = format!("{good}\n{{\"role\": \"tool\", \"content\": \"<html>\n\r\n{good}\r\n");
    std::fs::write(&input, &text).unwrap();
    let o = run(&["compress", input.to_str().unwrap(), "--no-tokens"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "malformed input sets exit status 2"
    );
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:2: malformed JSON", input.display())),
        "{err}"
    );
    assert!(!err.contains("tokens"), "--no-tokens: {err}");
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.split('\n').collect();
    assert_eq!(lines.len(), 5, "4 lines and the final newline: {lines:?}");
    assert_eq!(lines[1], "{\"role\": \"tool\", \"content\": \"<html>");
    assert_eq!(lines[2], "\r", "blank CRLF line kept");
    assert!(lines[3].ends_with("\r"), "CRLF ending kept");
    assert!(lines[0].contains("[snapshot]") && lines[3].contains("[snapshot]"));
}

#[test]
fn a_directory_is_compressed_file_by_file_atomically() {
    let dir = tempfile::tempdir().unwrap();
    let (src, dst) = (dir.path().join("in"), dir.path().join("out"));
    std::fs::create_dir_all(src.join("nested")).unwrap();
    let shop = page("shop-600k.html");
    let chat = json!({"model": "m", "messages": [
        {"role": "user", "content": "look"},
        {"role": "tool", "tool_call_id": "1", "content": shop},
    ]});
    std::fs::write(
        src.join("chat.json"),
        serde_json::to_string_pretty(&chat).unwrap(),
    )
    .unwrap();
    let anthropic = json!([{"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "t", "content": [{"type": "text", "text": shop}]}]}]);
    std::fs::write(src.join("nested/a.json"), anthropic.to_string()).unwrap();
    std::fs::write(src.join("nested/s.jsonl"), jsonl_session()).unwrap();
    std::fs::write(src.join("notes.txt"), shop).unwrap();
    std::fs::write(src.join("broken.json"), "{\"messages\": [").unwrap();

    let o = compress(&src, &dst, &["--no-tokens"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("broken.json:1: malformed JSON"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("4 file(s)"), "{}", stderr(&o));

    let mut names: Vec<String> = Vec::new();
    for entry in [dst.clone(), dst.join("nested")] {
        for e in std::fs::read_dir(entry).unwrap() {
            names.push(e.unwrap().file_name().to_string_lossy().into_owned());
        }
    }
    names.sort();
    assert_eq!(
        names,
        ["a.json", "broken.json", "chat.json", "nested", "s.jsonl"],
        "no temp files left"
    );

    let chat_out = std::fs::read_to_string(dst.join("chat.json")).unwrap();
    assert!(
        chat_out.starts_with("{\n  \"model\""),
        "pretty input stays pretty"
    );
    let chat_out: Value = serde_json::from_str(&chat_out).unwrap();
    assert!(chat_out["messages"][1]["content"]
        .as_str()
        .unwrap()
        .starts_with("[snapshot]"));
    let a: Value =
        serde_json::from_slice(&std::fs::read(dst.join("nested/a.json")).unwrap()).unwrap();
    assert!(a[0]["content"][0]["content"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("[snapshot]"));
    assert_eq!(
        std::fs::read(dst.join("broken.json")).unwrap(),
        b"{\"messages\": ["
    );
}

#[test]
fn standard_input_is_sniffed_and_written_to_a_file() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.json");
    // A pretty-printed JSON array on stdin: sniffed as JSON (it starts with '[').
    let input = serde_json::to_string_pretty(&json!([
        {"role": "tool", "tool_call_id": "1", "content": page("shop-600k.html")}
    ]))
    .unwrap();
    let mut child = Command::new(BIN)
        .args(["compress", "-", "-o", out.to_str().unwrap(), "--no-tokens"])
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let written: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    assert!(written[0]["content"]
        .as_str()
        .unwrap()
        .starts_with("[snapshot]"));
    let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(names.len(), 1, "no temp file left beside the output");
}

#[test]
fn a_directory_needs_an_output_directory() {
    let dir = tempfile::tempdir().unwrap();
    let o = run(&["compress", dir.path().to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("needs -o OUTDIR"), "{}", stderr(&o));
}

/// Sessions built from every `../shared/corpus` page: each HTML output shrinks to a snapshot
/// within budget, and nothing else changes.
#[test]
fn shared_corpus_sessions_compress_within_budget() {
    let Some(pages) = common::shared_pages() else {
        return;
    };
    let mut input = String::new();
    for (i, path) in pages.iter().enumerate() {
        let html = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        input.push_str(
            &json!({"type": "function_call_output", "call_id": i, "output": html}).to_string(),
        );
        input.push('\n');
    }
    let dir = tempfile::tempdir().unwrap();
    let (src, dst) = (dir.path().join("s.jsonl"), dir.path().join("o.jsonl"));
    std::fs::write(&src, &input).unwrap();
    let o = compress(&src, &dst, &["--no-tokens"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = std::fs::read_to_string(&dst).unwrap();
    assert_eq!(out.lines().count(), pages.len());
    let mut replaced = 0;
    for (line, path) in out.lines().zip(&pages) {
        let item: Value = serde_json::from_str(line).unwrap();
        let output = item["output"].as_str().unwrap();
        if output.starts_with("[snapshot]") {
            replaced += 1;
            let body_chars = output.rsplit_once('\n').unwrap().0.chars().count();
            assert!(
                body_chars <= 12_000,
                "{}: {body_chars} chars",
                path.display()
            );
        }
    }
    // A few corpus pages are tiny or do not start with markup; nearly all are replaced.
    assert!(
        replaced * 10 >= pages.len() * 9,
        "{replaced} of {}",
        pages.len()
    );
}
