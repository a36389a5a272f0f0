//! Every corpus page: a snapshot within budget, refs that resolve, bounded queries, and the
//! same bytes twice. Runs on the repo's corpus always and on `../shared/corpus` when present.

mod common;

use std::path::Path;

use agent_snapshot::{query, Document, Format, QueryKind, ReadOptions, RenderOptions, TreeOptions};

/// Refs the text shows: `[ref=e5]` on a line and `[label](e5)` / `![alt](e5)` inline (a
/// stub's range `e40–e95` names refs it does not show).
fn refs_in(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("[ref=") {
        let rest = &text[i + 5..];
        out.push(rest[..rest.find(']').expect("closing bracket")].to_string());
    }
    for (i, _) in text.match_indices("](e") {
        let rest = &text[i + 2..];
        let end = rest.find(')').expect("closing paren");
        out.push(rest[..end].to_string());
    }
    out
}

fn check_page(path: &Path) {
    let bytes = std::fs::read(path).expect("read");
    let name = path.display();
    let tree_opts = TreeOptions::default();
    let doc = Document::parse_bytes(&bytes, &tree_opts).expect("parse");
    // Five budget sets, every format.
    let budgets = [
        RenderOptions::default(),
        RenderOptions {
            max_chars_total: 600,
            max_nodes: 15,
            max_depth: 3,
            ..Default::default()
        },
        RenderOptions {
            max_chars_total: 3000,
            compact: false,
            format: Format::Json,
            ..Default::default()
        },
        RenderOptions {
            format: Format::List,
            ..Default::default()
        },
        RenderOptions {
            max_chars_total: 2000,
            max_siblings: 3,
            max_text_per_node: 30,
            format: Format::List,
            ..Default::default()
        },
    ];
    let mut seen: std::collections::HashMap<String, (String, Option<String>)> =
        std::collections::HashMap::new();
    for opts in &budgets {
        let snap = doc.snapshot(opts);
        let chars = snap.text.chars().count();
        assert!(
            chars <= opts.max_chars_total,
            "{name}: {chars} chars > {}",
            opts.max_chars_total
        );
        assert!(snap.stats.nodes_emitted <= opts.max_nodes, "{name}");
        let shown = match opts.format {
            Format::Json => {
                let v: serde_json::Value = serde_json::from_str(&snap.text)
                    .unwrap_or_else(|e| panic!("{name}: budgeted JSON invalid: {e}"));
                let mut refs = Vec::new();
                for l in v["lines"].as_array().expect("lines") {
                    refs.extend(l["ref"].as_str().map(String::from));
                    refs.extend(refs_in(l["text"].as_str().unwrap_or("")));
                }
                refs
            }
            _ => refs_in(&snap.text),
        };
        let mut unique = shown.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), snap.refs.len(), "{name}: refs in text vs map");
        for r in &shown {
            assert!(doc.resolve(r).is_some(), "{name}: {r} does not resolve");
            let entry = snap
                .refs
                .get(r)
                .unwrap_or_else(|| panic!("{name}: {r} missing from the ref map"));
            // A ref names the same element whatever the budget.
            let what = (
                entry.tag.to_string(),
                entry.role.as_deref().map(String::from),
            );
            let first = seen.entry(r.clone()).or_insert_with(|| what.clone());
            assert_eq!(*first, what, "{name}: {r} changed with the budget");
        }
    }
    // Same input and options, byte-identical output.
    let again = Document::parse_bytes(&bytes, &tree_opts).expect("parse");
    assert_eq!(
        again.tree(),
        doc.tree(),
        "{name}: tree differs between runs"
    );
    assert_eq!(
        again.snapshot(&budgets[0]).text,
        doc.snapshot(&budgets[0]).text,
        "{name}"
    );
    check_reads(&doc, &again, &name.to_string());
    // Queries stay within their limit, on a spread of refs.
    let step = (doc.ref_count() / 25).max(1);
    for n in (1..=doc.ref_count()).step_by(step) {
        let r = format!("e{n}");
        for kind in [
            QueryKind::Text,
            QueryKind::Attrs,
            QueryKind::OuterHtml,
            QueryKind::Value,
        ] {
            let q = query(&doc, &r, kind, 300);
            assert!(q.value.chars().count() <= 300, "{name} {r} {kind:?}");
            assert!(
                q.error.is_none() || kind == QueryKind::Value,
                "{name} {r} {kind:?}: {:?}",
                q.error
            );
        }
    }
}

/// The refs a read shows: `(eN)` after a link or image, `[ref=eN]` after a heading.
fn refs_in_read(text: &str) -> Vec<String> {
    let mut refs = refs_in(text);
    for (i, _) in text.match_indices("](e") {
        let rest = &text[i + 2..];
        if let Some(end) = rest.find(')') {
            if rest[1..end].bytes().all(|b| b.is_ascii_digit()) && end > 1 {
                refs.push(rest[..end].to_string());
            }
        }
    }
    refs.sort();
    refs.dedup();
    refs
}

/// Reads under several budgets: within budget, the same twice, refs that resolve and are
/// in the map, and a continuation that resolves too.
fn check_reads(doc: &Document, again: &Document, name: &str) {
    for max_chars_total in [12_000, 2_000, 300, 40] {
        let opts = ReadOptions {
            max_chars_total,
            from: None,
        };
        let r = doc.read(&opts).expect("read");
        let chars = r.text.chars().count();
        assert!(
            chars <= max_chars_total,
            "{name}: read {chars} > {max_chars_total}"
        );
        assert_eq!(r.stats.chars, chars, "{name}");
        assert_eq!(again.read(&opts).expect("read").text, r.text, "{name}");
        let shown = refs_in_read(&r.text);
        for s in &shown {
            assert!(doc.resolve(s).is_some(), "{name}: {s} does not resolve");
        }
        if max_chars_total >= 2_000 {
            assert_eq!(shown.len(), r.refs.len(), "{name}: refs in read vs map");
        }
        if let Some(next) = r.stats.next {
            let more = doc
                .read(&ReadOptions {
                    max_chars_total,
                    from: Some(next),
                })
                .expect("continue");
            assert!(more.text.chars().count() <= max_chars_total, "{name}");
        }
    }
}

#[test]
fn repo_corpus_pages() {
    let pages = common::repo_pages();
    assert!(pages.len() >= 3, "corpus/ should hold the shipped pages");
    for p in pages {
        check_page(&p);
    }
}

#[test]
fn shared_corpus_pages() {
    let Some(pages) = common::shared_pages() else {
        return;
    };
    assert!(!pages.is_empty());
    for p in &pages {
        check_page(p);
    }
}

#[test]
fn the_600k_page_keeps_hidden_text_out() {
    let bytes = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/shop-600k.html"))
        .expect("read");
    assert!(bytes.len() > 550_000, "the generated page is about 600 KB");
    let doc = Document::parse_bytes(
        &bytes,
        &TreeOptions {
            interactive_only: false,
            ..Default::default()
        },
    )
    .expect("parse");
    let big = RenderOptions {
        max_chars_total: 1_000_000,
        max_nodes: 100_000,
        max_siblings: 100_000,
        max_depth: 100,
        compact: false,
        ..Default::default()
    };
    let text = doc.snapshot(&big).text;
    let tree = doc.tree().to_json();
    for needle in [
        "IGNORE ALL",
        "SYSTEM:",
        "忽略之前",
        "attacker",
        "rm -rf",
        "template link",
        "Enable JavaScript",
    ] {
        assert!(!text.contains(needle), "{needle} leaked into the snapshot");
        assert!(!tree.contains(needle), "{needle} leaked into the tree");
    }
    // And the page's real content is there: login form, search, table, products.
    for needle in [
        "textbox \"手机号/邮箱\"",
        "searchbox \"搜索商品\"",
        "row: 品牌699 |",
        "加入购物车",
        "帮助中心 59",
    ] {
        assert!(text.contains(needle), "{needle} missing");
    }
}
