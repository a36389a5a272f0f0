//! Session compression: rewrites dumped agent sessions so that no tool result carries raw
//! HTML. Each HTML tool output becomes its offline snapshot (the default [`RenderOptions`])
//! plus one line saying what was replaced.
//!
//! Read: JSONL (one item per line) and JSON (an array, or an object whose `input`,
//! `messages` or `items` is the array). Tool outputs are found by shape, anywhere in an item:
//!
//! | shape | where the output is |
//! |---|---|
//! | OpenAI Responses `{"type":"function_call_output"}` | `output`: a string or content parts |
//! | Chat Completions `{"role":"tool"}` | `content`: a string or content parts |
//! | Anthropic `{"type":"tool_result"}` content block | `content`: a string or text blocks |
//! | generic `{"type":"tool.result"}` | `content`, `output` or `result` |
//!
//! Everything else passes through untouched: unknown shapes, outputs that are not HTML, and
//! lines that change nothing keep their exact bytes; changed items keep their key order
//! (`serde_json`'s `preserve_order`). A second run changes nothing: a replacement starts with
//! `[snapshot]` (or, under a tiny budget, the [`MARKER`] line), never with markup, so it is
//! not sniffed as HTML.
//!
//! ```
//! use agent_snapshot::session::{compress_jsonl, CompressOptions};
//!
//! let page = format!("<!doctype html><title>Shop</title><a href=/cart>Cart</a>{}",
//!                    "<p>filler</p>".repeat(300));
//! let line = serde_json::json!({"type": "function_call_output", "call_id": "c1", "output": page});
//! let input = format!("{line}\n");
//! let mut out = Vec::new();
//! let report = compress_jsonl(input.as_bytes(), &mut out, &CompressOptions::default(), &|_| {})
//!     .unwrap();
//! assert_eq!(report.stats.outputs_replaced, 1);
//! let out: serde_json::Value = serde_json::from_slice(&out).unwrap();
//! assert!(out["output"].as_str().unwrap().contains("- link \"Cart\" [href=/cart] [ref=e1]"));
//! assert_eq!(out["call_id"], "c1");
//! ```

use std::fs;
use std::io::{self, BufRead, Write};
use std::ops::AddAssign;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::Value;

use crate::parse::Threads;
use crate::{Document, RenderOptions, TreeOptions};

/// The start of the line appended to every replaced output, saying what was replaced.
pub const MARKER: &str = "[agent-snapshot compress:";

/// How to compress.
#[derive(Clone, Debug)]
pub struct CompressOptions {
    /// Only outputs at least this many bytes long are replaced: a short HTML fragment is
    /// cheaper as it is than as a snapshot.
    pub min_len: usize,
    /// Budgets of the snapshots that replace HTML.
    pub render: RenderOptions,
    /// Which elements get refs. The default parses each page on one thread
    /// ([`Threads::One`]): lines are already spread over every core.
    pub tree: TreeOptions,
    /// Count o200k tokens of what is replaced (tiktoken; about as costly as the snapshot).
    pub count_tokens: bool,
    /// JSONL lines are processed in parallel batches of about this many bytes; memory stays
    /// within a few batches whatever the file's size.
    pub batch_bytes: usize,
}

impl Default for CompressOptions {
    fn default() -> Self {
        CompressOptions {
            min_len: 2_000,
            render: RenderOptions::default(),
            tree: TreeOptions {
                threads: Threads::One,
                ..TreeOptions::default()
            },
            count_tokens: true,
            batch_bytes: 16 << 20,
        }
    }
}

/// What a run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// JSONL lines or JSON array items read.
    pub items: u64,
    /// HTML tool outputs replaced by snapshots.
    pub outputs_replaced: u64,
    /// Input and output sizes.
    pub bytes_before: u64,
    pub bytes_after: u64,
    /// o200k tokens of the replaced outputs, before and after (0 unless counted).
    pub tokens_before: u64,
    pub tokens_after: u64,
}

impl AddAssign for Stats {
    fn add_assign(&mut self, o: Stats) {
        self.items += o.items;
        self.outputs_replaced += o.outputs_replaced;
        self.bytes_before += o.bytes_before;
        self.bytes_after += o.bytes_after;
        self.tokens_before += o.tokens_before;
        self.tokens_after += o.tokens_after;
    }
}

/// Input that could not be read as JSON; it was copied through unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed {
    /// 1-based line of the input.
    pub line: u64,
    pub message: String,
}

/// The result of compressing one input.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub stats: Stats,
    pub malformed: Vec<Malformed>,
}

/// A failure that stopped a run (malformed input does not: see [`Report::malformed`]).
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("cannot write {path}: {source}")]
    Write { path: String, source: io::Error },
    /// Streaming input to output failed; the error may come from either side.
    #[error("cannot compress {input} into {output}: {source}")]
    Stream {
        input: String,
        output: String,
        source: io::Error,
    },
}

/// The two container formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputFormat {
    /// One JSON value per line.
    Jsonl,
    /// One JSON document.
    Json,
}

impl InputFormat {
    /// By extension: `.jsonl`/`.ndjson` are JSONL, `.json` is JSON; `None` otherwise.
    pub fn from_path(path: &Path) -> Option<InputFormat> {
        match path.extension()?.to_str()? {
            "jsonl" | "ndjson" => Some(InputFormat::Jsonl),
            "json" => Some(InputFormat::Json),
            _ => None,
        }
    }

    /// From the content: a document that starts with `[`, or whose first line is not a
    /// complete JSON value (a pretty-printed object), is JSON; otherwise JSONL.
    pub fn sniff(head: &[u8]) -> InputFormat {
        let text = head.trim_ascii_start();
        if text.starts_with(b"[") {
            return InputFormat::Json;
        }
        let first_line = text.split(|&b| b == b'\n').next().unwrap_or_default();
        if serde_json::from_slice::<serde::de::IgnoredAny>(first_line).is_ok() {
            InputFormat::Jsonl
        } else {
            InputFormat::Json
        }
    }
}

/// Whether `text` is an HTML document worth replacing: long enough, starts with markup, and
/// either names a document element near the start or is dense with tags. Requiring markup
/// first keeps diffs, logs and prose that merely quote HTML out.
pub fn looks_like_html(text: &str, min_len: usize) -> bool {
    if text.len() < min_len {
        return false;
    }
    let body = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    if !body.starts_with('<') {
        return false;
    }
    let head = prefix(body, 1024).to_ascii_lowercase();
    if ["<!doctype html", "<html", "<head", "<body"]
        .iter()
        .any(|tag| head.contains(tag))
    {
        return true;
    }
    // A fragment (an SPA dump, a `<div>` soup): at least one tag per 200 bytes.
    let sample = prefix(body, 64 * 1024).as_bytes();
    let tags = memchr::memchr_iter(b'<', sample)
        .filter(|&i| {
            sample
                .get(i + 1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'/')
        })
        .count();
    tags >= 20 && tags * 200 >= sample.len()
}

/// The longest prefix of `s` of at most `max` bytes that ends on a character boundary.
fn prefix(s: &str, max: usize) -> &str {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The replacement for one tool output, or `None` when it is not HTML to replace.
pub fn compress_output(text: &str, options: &CompressOptions) -> Option<String> {
    if !looks_like_html(text, options.min_len) {
        return None;
    }
    let doc = Document::parse(text, &options.tree);
    let snap = doc.snapshot(&options.render);
    Some(format!(
        "{}\n{MARKER} replaced {} bytes of HTML with this snapshot; its refs come from an \
         offline snapshot of that HTML, not from a live page]",
        snap.text,
        text.len()
    ))
}

/// Replaces every HTML tool output inside one item (a line, an array element), in place.
/// Returns the outputs replaced and their token counts; `items` and bytes stay 0.
pub fn compress_item(item: &mut Value, options: &CompressOptions) -> Stats {
    let mut stats = Stats::default();
    visit(item, options, &mut stats);
    stats
}

// Recursion is bounded: serde_json refuses input nested more than 128 levels.
fn visit(value: &mut Value, options: &CompressOptions, stats: &mut Stats) {
    match value {
        Value::Object(map) => {
            let kind = map.get("type").and_then(Value::as_str);
            let role = map.get("role").and_then(Value::as_str);
            let fields: &[&str] = match (kind, role) {
                (Some("function_call_output"), _) => &["output"],
                (Some("tool_result"), _) | (_, Some("tool")) => &["content"],
                (Some("tool.result"), _) => &["content", "output", "result"],
                _ => &[],
            };
            for field in fields {
                if let Some(output) = map.get_mut(*field) {
                    replace_output(output, options, stats);
                }
            }
            for child in map.values_mut() {
                visit(child, options, stats);
            }
        }
        Value::Array(items) => {
            for child in items {
                visit(child, options, stats);
            }
        }
        _ => {}
    }
}

/// An output is a string, or content parts whose `text` strings are outputs.
fn replace_output(output: &mut Value, options: &CompressOptions, stats: &mut Stats) {
    match output {
        Value::String(text) => replace_text(text, options, stats),
        Value::Array(parts) => {
            for part in parts {
                match part {
                    Value::String(text) => replace_text(text, options, stats),
                    Value::Object(part) => {
                        if let Some(Value::String(text)) = part.get_mut("text") {
                            replace_text(text, options, stats);
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

fn replace_text(text: &mut String, options: &CompressOptions, stats: &mut Stats) {
    if let Some(snapshot) = compress_output(text, options) {
        if options.count_tokens {
            stats.tokens_before += count_tokens(text);
            stats.tokens_after += count_tokens(&snapshot);
        }
        stats.outputs_replaced += 1;
        *text = snapshot;
    }
}

/// o200k tokens in `text`. The BPE tables ship inside tiktoken-rs and load once.
pub fn count_tokens(text: &str) -> u64 {
    tiktoken_rs::o200k_base_singleton()
        .encode_ordinary(text)
        .len() as u64
}

/// One JSONL line, processed.
struct LineOut {
    /// `None`: copy the input line unchanged.
    replaced: Option<Vec<u8>>,
    stats: Stats,
    malformed: Option<String>,
}

fn compress_line(line: &[u8], options: &CompressOptions) -> LineOut {
    let mut out = LineOut {
        replaced: None,
        stats: Stats::default(),
        malformed: None,
    };
    if line.iter().all(u8::is_ascii_whitespace) {
        return out;
    }
    out.stats.items = 1;
    match serde_json::from_slice::<Value>(line) {
        Ok(mut item) => {
            let stats = compress_item(&mut item, options);
            if stats.outputs_replaced > 0 {
                out.stats += stats;
                // Serializing a `Value` cannot fail: its keys are strings.
                out.replaced = serde_json::to_vec(&item).ok();
            }
        }
        Err(e) => out.malformed = Some(e.to_string()),
    }
    out
}

/// Compresses JSONL from `input` to `output`, line for line: the line count and every
/// unchanged line's bytes are kept. Lines are processed in parallel batches of about
/// [`CompressOptions::batch_bytes`], written in input order. `progress` gets the input bytes
/// done so far.
pub fn compress_jsonl<R: BufRead, W: Write>(
    mut input: R,
    mut output: W,
    options: &CompressOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, io::Error> {
    let mut report = Report::default();
    let mut line_no = 0u64;
    let mut done = 0u64;
    loop {
        // Read one batch of whole lines (each with its line ending).
        let mut batch: Vec<Vec<u8>> = Vec::new();
        let mut batch_len = 0;
        while batch_len < options.batch_bytes {
            let mut line = Vec::new();
            if input.read_until(b'\n', &mut line)? == 0 {
                break;
            }
            batch_len += line.len();
            batch.push(line);
        }
        if batch.is_empty() {
            break;
        }
        let results: Vec<LineOut> = batch
            .par_iter()
            .map(|line| compress_line(strip_line_ending(line).0, options))
            .collect();
        for (line, result) in batch.iter().zip(results) {
            line_no += 1;
            report.stats += result.stats;
            report.stats.bytes_before += line.len() as u64;
            if let Some(message) = result.malformed {
                report.malformed.push(Malformed {
                    line: line_no,
                    message,
                });
            }
            match result.replaced {
                Some(body) => {
                    let ending = strip_line_ending(line).1;
                    output.write_all(&body)?;
                    output.write_all(ending)?;
                    report.stats.bytes_after += (body.len() + ending.len()) as u64;
                }
                None => {
                    output.write_all(line)?;
                    report.stats.bytes_after += line.len() as u64;
                }
            }
        }
        done += batch_len as u64;
        progress(done);
    }
    output.flush()?;
    Ok(report)
}

/// Splits a line into its content and its ending (`\n`, `\r\n` or nothing).
fn strip_line_ending(line: &[u8]) -> (&[u8], &[u8]) {
    let content = line.strip_suffix(b"\n").unwrap_or(line);
    let content = content.strip_suffix(b"\r").unwrap_or(content);
    line.split_at(content.len())
}

/// Compresses one JSON document: an array of items, or an object whose `input`, `messages`
/// or `items` array holds them (any other object is one item). Items are processed in
/// parallel. Unchanged documents are returned byte for byte; changed ones are written back
/// compact or pretty-printed, as they came.
pub fn compress_json(input: &[u8], options: &CompressOptions) -> (Vec<u8>, Report) {
    let mut report = Report::default();
    report.stats.bytes_before = input.len() as u64;
    let mut doc: Value = match serde_json::from_slice(input) {
        Ok(doc) => doc,
        Err(e) => {
            report.malformed.push(Malformed {
                line: e.line() as u64,
                message: e.to_string(),
            });
            report.stats.bytes_after = input.len() as u64;
            return (input.to_vec(), report);
        }
    };
    let items: &mut [Value] = match &mut doc {
        Value::Array(items) => items,
        Value::Object(map) => match ["input", "messages", "items"]
            .iter()
            .find(|k| map.get(**k).is_some_and(Value::is_array))
        {
            Some(key) => match map.get_mut(*key) {
                Some(Value::Array(items)) => items,
                _ => &mut [],
            },
            None => std::slice::from_mut(&mut doc),
        },
        _ => &mut [],
    };
    report.stats.items = items.len() as u64;
    let stats = items
        .par_iter_mut()
        .map(|item| compress_item(item, options))
        .reduce(Stats::default, |mut a, b| {
            a += b;
            a
        });
    report.stats.outputs_replaced = stats.outputs_replaced;
    report.stats.tokens_before = stats.tokens_before;
    report.stats.tokens_after = stats.tokens_after;
    if stats.outputs_replaced == 0 {
        report.stats.bytes_after = input.len() as u64;
        return (input.to_vec(), report);
    }
    let pretty = input.trim_ascii().contains(&b'\n');
    let mut out = if pretty {
        serde_json::to_vec_pretty(&doc)
    } else {
        serde_json::to_vec(&doc)
    }
    .unwrap_or_default();
    if input.ends_with(b"\n") {
        out.push(b'\n');
    }
    report.stats.bytes_after = out.len() as u64;
    (out, report)
}

/// Compresses the file `input` into `output`, atomically: the result goes to a temporary file
/// beside `output`, renamed over it only when complete, so a crash never leaves half a file.
/// The format comes from `input`'s extension, or is sniffed.
pub fn compress_file(
    input: &Path,
    output: &Path,
    options: &CompressOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Report, SessionError> {
    let read_err = |source| SessionError::Read {
        path: input.display().to_string(),
        source,
    };
    let write_err = |source| SessionError::Write {
        path: output.display().to_string(),
        source,
    };
    let file = fs::File::open(input).map_err(read_err)?;
    let mut reader = io::BufReader::with_capacity(1 << 20, file);
    let format = match InputFormat::from_path(input) {
        Some(format) => format,
        None => InputFormat::sniff(reader.fill_buf().map_err(read_err)?),
    };
    let report = match format {
        InputFormat::Jsonl => crate::atomic::write_with(output, |file| {
            let writer = io::BufWriter::with_capacity(1 << 20, file);
            compress_jsonl(reader, writer, options, progress)
        })
        .map_err(|source| SessionError::Stream {
            input: input.display().to_string(),
            output: output.display().to_string(),
            source,
        })?,
        InputFormat::Json => {
            let mut bytes = Vec::new();
            io::Read::read_to_end(&mut reader, &mut bytes).map_err(read_err)?;
            let (out, report) = compress_json(&bytes, options);
            crate::atomic::write_with(output, |file| file.write_all(&out)).map_err(write_err)?;
            progress(bytes.len() as u64);
            report
        }
    };
    Ok(report)
}

/// Every `.json` and `.jsonl` file under `dir`, sorted, as paths relative to `dir`.
pub fn session_files(dir: &Path) -> Result<Vec<PathBuf>, SessionError> {
    let mut files = Vec::new();
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        let here = dir.join(&rel);
        let entries = fs::read_dir(&here).map_err(|source| SessionError::Read {
            path: here.display().to_string(),
            source,
        })?;
        for entry in entries {
            let entry = entry.map_err(|source| SessionError::Read {
                path: here.display().to_string(),
                source,
            })?;
            let path = rel.join(entry.file_name());
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                stack.push(path);
            } else if kind.is_file()
                && matches!(
                    path.extension().and_then(|e| e.to_str()),
                    Some("json" | "jsonl")
                )
            {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page() -> String {
        format!(
            "<!DOCTYPE html><html><body><nav><a href=/>Home</a></nav>{}</body></html>",
            "<p>Some paragraph text.</p>".repeat(100)
        )
    }

    #[test]
    fn html_is_sniffed_from_markup_not_from_quotes() {
        assert!(looks_like_html(&page(), 2000));
        assert!(!looks_like_html(&page(), 1_000_000), "below the threshold");
        let diff = format!("diff --git a/x.html b/x.html\n+{}", page());
        assert!(!looks_like_html(&diff, 2000));
        let prose = format!("The page said: {}", page());
        assert!(!looks_like_html(&prose, 2000));
        let fragment = "<div><span>a</span></div>".repeat(200);
        assert!(looks_like_html(&fragment, 2000));
        let xmlish = format!("<{}>", "x".repeat(5000));
        assert!(!looks_like_html(&xmlish, 2000), "one tag is not HTML");
        // Never splits a character while sampling.
        let wide = format!("<p>{}", "é".repeat(2000));
        assert!(!looks_like_html(&wide, 100));
    }

    #[test]
    fn every_shape_is_found_and_others_left_alone() {
        let options = CompressOptions {
            count_tokens: false,
            ..CompressOptions::default()
        };
        let html = page();
        let mut item = serde_json::json!({"messages": [
            {"role": "tool", "tool_call_id": "1", "content": html},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "2",
                "content": [{"type": "text", "text": html}]}]},
            {"type": "function_call_output", "output": [{"type": "input_text", "text": html}]},
            {"type": "tool.result", "result": html},
            {"role": "user", "content": html},
            {"type": "message", "output": html},
        ]});
        let stats = compress_item(&mut item, &options);
        assert_eq!(stats.outputs_replaced, 4);
        let m = &item["messages"];
        assert!(m[0]["content"].as_str().unwrap().starts_with("[snapshot]"));
        assert!(m[1]["content"][0]["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains(MARKER));
        assert!(m[2]["output"][0]["text"]
            .as_str()
            .unwrap()
            .contains("paragraph: Some paragraph text."));
        assert!(m[3]["result"].as_str().unwrap().contains(MARKER));
        assert_eq!(m[4]["content"], html, "a user message is not a tool output");
        assert_eq!(m[5]["output"], html, "unknown shape");
        assert_eq!(compress_item(&mut item, &options).outputs_replaced, 0);
    }
}
