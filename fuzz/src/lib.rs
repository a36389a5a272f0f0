//! Invariants the fuzz targets check on every input. A violated invariant panics, which
//! libFuzzer reports as a crash with the input saved.

use agent_snapshot::read::ReadOptions;
use agent_snapshot::{
    query, render, Document, Format, NodeTree, QueryKind, RenderOptions, SnapshotResult, Threads,
    TreeOptions,
};

/// Reads option values out of the first bytes of the input, so that libFuzzer explores the
/// options together with the page.
pub struct Knobs<'a> {
    bytes: &'a [u8],
}

impl<'a> Knobs<'a> {
    pub fn new(bytes: &'a [u8]) -> Knobs<'a> {
        Knobs { bytes }
    }

    /// A number in `0..=max` from the next two bytes (0 when the input is exhausted).
    pub fn up_to(&mut self, max: usize) -> usize {
        let (head, rest) = self.bytes.split_at(self.bytes.len().min(2));
        self.bytes = rest;
        let v = head.iter().fold(0usize, |acc, &b| acc << 8 | b as usize);
        v % (max + 1)
    }

    pub fn flag(&mut self) -> bool {
        self.up_to(1) == 1
    }

    pub fn rest(self) -> &'a [u8] {
        self.bytes
    }

    /// Render options anywhere within their ranges (including degenerate zeros).
    pub fn render_options(&mut self) -> RenderOptions {
        RenderOptions {
            max_chars_total: self.up_to(20_000),
            max_nodes: self.up_to(400),
            max_depth: self.up_to(30),
            max_text_per_node: self.up_to(300),
            max_attr_value_len: self.up_to(300),
            max_siblings: self.up_to(80),
            compact: self.flag(),
            format: match (self.flag(), self.flag()) {
                (true, _) => Format::Json,
                (false, true) => Format::List,
                (false, false) => Format::Text,
            },
            ..RenderOptions::default()
        }
    }
}

/// Refs written as markers in `text`: `[ref=e5]` on a line, `[label](e5)` / `![alt](e5)`
/// inline. A marker after a backslash is page text the renderer escaped.
fn markers(text: &str, out: &mut Vec<String>) {
    let unescaped = |i: usize| !text[..i].ends_with('\\');
    for (i, _) in text.match_indices("[ref=") {
        let rest = &text[i + 5..];
        if let (true, Some(end)) = (unescaped(i), rest.find(']')) {
            out.push(rest[..end].to_string());
        }
    }
    for (i, _) in text.match_indices("](e") {
        let rest = &text[i + 2..];
        if let (true, Some(end)) = (unescaped(i), rest.find(')')) {
            out.push(rest[..end].to_string());
        }
    }
}

/// The refs a snapshot's text shows, in any format.
pub fn refs_in_text(snap: &SnapshotResult, format: Format) -> Vec<String> {
    let mut refs = Vec::new();
    match format {
        Format::Json => match serde_json::from_str::<serde_json::Value>(&snap.text) {
            Ok(v) => {
                for line in v["lines"].as_array().into_iter().flatten() {
                    refs.extend(line["ref"].as_str().map(String::from));
                    markers(line["text"].as_str().unwrap_or(""), &mut refs);
                }
            }
            // A budget smaller than the JSON header cuts it; then it holds no refs.
            Err(_) => assert!(!snap.text.contains("\"ref\""), "unparsable JSON with refs"),
        },
        // Text and the element list write the same markers.
        _ => markers(&snap.text, &mut refs),
    }
    refs
}

/// Checks a rendered snapshot against its options.
pub fn check_snapshot(snap: &SnapshotResult, opts: &RenderOptions) {
    let chars = snap.text.chars().count();
    assert!(
        chars <= opts.max_chars_total,
        "{chars} chars > {}",
        opts.max_chars_total
    );
    assert_eq!(chars, snap.stats.chars_emitted);
    assert!(snap.stats.nodes_emitted <= opts.max_nodes);
    assert_eq!(
        snap.stats.truncated,
        !snap.stats.truncate_reasons.is_empty()
    );
    for r in refs_in_text(snap, opts.format) {
        assert!(
            snap.refs.get(&r).is_some(),
            "{r} shown but not in the ref map"
        );
    }
}

/// The whole offline pipeline: bytes → document → snapshot → every ref, every kind.
pub fn check_pipeline(data: &[u8]) {
    let mut knobs = Knobs::new(data);
    let tree_opts = TreeOptions {
        interactive_only: knobs.flag(),
        cursor_interactive: knobs.flag(),
        max_text_per_node: knobs.up_to(300),
        max_attr_value_len: knobs.up_to(2000),
        ..TreeOptions::default()
    };
    let opts = knobs.render_options();
    let limit = knobs.up_to(5000);
    let read_max = 1 + knobs.up_to(20_000);
    let html = knobs.rest();
    let doc = match Document::parse_bytes(html, &tree_opts) {
        Ok(doc) => doc,
        // gzip's magic number: an error that says to decompress first, not a page.
        Err(_) if html.starts_with(&[0x1f, 0x8b]) => return,
        Err(e) => unreachable!("parse_bytes fails only on gzip input: {e}"),
    };
    let snap = doc.snapshot(&opts);
    check_snapshot(&snap, &opts);
    for r in refs_in_text(&snap, opts.format) {
        assert!(doc.resolve(&r).is_some(), "{r} does not resolve");
    }
    // Deterministic, and the same on two threads: the first document was built on one
    // (`Threads::Auto` parses on the caller's thread, and fuzz inputs are below the walk's
    // split size), this one runs the tokenizer and half the walk on helper threads.
    let two = TreeOptions {
        threads: Threads::Two,
        ..tree_opts.clone()
    };
    let again = Document::parse_bytes(html, &two).expect("parse");
    assert_eq!(
        again.snapshot(&opts).text,
        snap.text,
        "non-deterministic output"
    );
    assert_eq!(
        again.tree().to_json(),
        doc.tree().to_json(),
        "two threads built another tree"
    );
    // Every ref (bounded, to keep executions fast), every kind, within the limit.
    for n in 1..=doc.ref_count().min(64) {
        let r = format!("e{n}");
        for kind in [
            QueryKind::Text,
            QueryKind::Attrs,
            QueryKind::OuterHtml,
            QueryKind::Value,
        ] {
            let q = query(&doc, &r, kind, limit);
            assert!(
                q.value.chars().count() <= limit,
                "{r} {kind:?} over its limit"
            );
            assert!(
                q.error.is_none() || kind == QueryKind::Value,
                "{r} {kind:?}: {:?}",
                q.error
            );
        }
    }
    assert!(query(
        &doc,
        &format!("e{}", doc.ref_count() + 1),
        QueryKind::Text,
        limit
    )
    .error
    .is_some());
    check_read(&doc, read_max);
    // The tree round-trips through its JSON schema and renders the same.
    let json = doc.tree().to_json();
    let back = NodeTree::from_json(&json).expect("own tree JSON reads back");
    assert_eq!(render(&back, &opts).text, snap.text);
}

/// `read`: within its budget, never an error without `from`, every ref in its map resolves,
/// and continuing from the ref a cut read names is an answer within the budget too.
fn check_read(doc: &Document, max: usize) {
    let opts = ReadOptions {
        max_chars_total: max,
        from: None,
    };
    let r = doc
        .read(&opts)
        .expect("a read without `from` always answers");
    assert!(r.text.chars().count() <= max, "read over its budget");
    for entry in r.refs.iter() {
        assert!(
            doc.resolve(&entry.ref_).is_some(),
            "{} does not resolve",
            entry.ref_
        );
    }
    if let Some(next) = r.stats.next {
        let more = doc
            .read(&ReadOptions {
                from: Some(next),
                ..opts
            })
            .expect("the ref a cut read names continues it");
        assert!(
            more.text.chars().count() <= max,
            "continuation over its budget"
        );
    }
}

/// Node-tree JSON from outside: an error or a snapshot within budget, never a panic.
pub fn check_render_json(data: &[u8]) {
    let mut knobs = Knobs::new(data);
    let opts = knobs.render_options();
    let Ok(json) = std::str::from_utf8(knobs.rest()) else {
        return;
    };
    if let Ok(tree) = NodeTree::from_json(json) {
        check_snapshot(&render(&tree, &opts), &opts);
    }
}

/// One probe line: an answer or an error field, never a panic.
pub fn check_probe(data: &[u8]) {
    let line = String::from_utf8_lossy(data);
    let result = agent_snapshot::probe::probe_line(&line);
    assert!(result.name.chars().count() <= 10_000);
}

/// Session compression over arbitrary JSONL: no panic, the line count and every unchanged
/// line kept, and a second run over the output changes nothing.
pub fn check_compress(data: &[u8]) {
    use agent_snapshot::session::{compress_jsonl, CompressOptions};
    let mut knobs = Knobs::new(data);
    let options = CompressOptions {
        min_len: knobs.up_to(4_000),
        count_tokens: false,
        batch_bytes: 1 + knobs.up_to(4_096),
        render: knobs.render_options(),
        ..CompressOptions::default()
    };
    let input = knobs.rest();
    let mut once = Vec::new();
    let report = compress_jsonl(input, &mut once, &options, &|_| {}).expect("writes to a Vec");
    let lines = |b: &[u8]| b.split(|&c| c == b'\n').count();
    assert_eq!(lines(input), lines(&once), "line count changed");
    if report.stats.outputs_replaced == 0 {
        assert_eq!(input, &once[..], "nothing replaced, yet the bytes changed");
    }
    let mut twice = Vec::new();
    let again = compress_jsonl(&once[..], &mut twice, &options, &|_| {}).expect("writes to a Vec");
    assert_eq!(
        again.stats.outputs_replaced, 0,
        "a second run replaced more"
    );
    assert_eq!(once, twice, "a second run changed the output");
}
