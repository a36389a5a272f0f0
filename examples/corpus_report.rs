//! Snapshots every `.html` file in the given folders under the default budgets and reports
//! which budgets each page hit, its refs and its size: the figures quoted in closing notes.
//!
//! `cargo run --release --example corpus_report -- corpus ../shared/corpus [--top 5]`

use std::collections::BTreeMap;
use std::path::PathBuf;

use agent_snapshot::{Document, RenderOptions, TreeOptions};

fn main() {
    let mut dirs = Vec::new();
    let mut top = 5;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if a == "--top" {
            top = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
        } else {
            dirs.push(PathBuf::from(a));
        }
    }
    let mut pages: Vec<PathBuf> = dirs
        .iter()
        .flat_map(|d| {
            std::fs::read_dir(d)
                .into_iter()
                .flatten()
                .flatten()
                .map(|e| e.path())
        })
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    let opts = RenderOptions::default();
    let mut hits: BTreeMap<String, usize> = BTreeMap::new();
    let mut rows = Vec::new();
    println!("page\tbytes\trefs\tnodes_emitted\tchars\treasons");
    for p in &pages {
        let Ok(bytes) = std::fs::read(p) else {
            continue;
        };
        let doc = match Document::parse_bytes(&bytes, &TreeOptions::default()) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{}: {e}", p.display());
                continue;
            }
        };
        let snap = doc.snapshot(&opts);
        let reasons: Vec<&str> = snap
            .stats
            .truncate_reasons
            .iter()
            .map(|r| r.as_str())
            .collect();
        if reasons.is_empty() {
            *hits.entry("none".into()).or_default() += 1;
        }
        for r in &reasons {
            *hits.entry((*r).into()).or_default() += 1;
        }
        let name = p
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        println!(
            "{name}\t{}\t{}\t{}\t{}\t{}",
            bytes.len(),
            doc.ref_count(),
            snap.stats.nodes_emitted,
            snap.stats.chars_emitted,
            reasons.join(",")
        );
        rows.push((doc.ref_count(), name, snap.text));
    }
    println!("\npages: {}", pages.len());
    for (reason, n) in &hits {
        println!("budget {reason}: {n} pages");
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.0));
    for (refs, name, text) in rows.iter().take(top) {
        println!("\n== {name}: {refs} refs");
        for line in text.lines().take(14) {
            println!("{line}");
        }
    }
}
