//! End-to-end and per-stage timings on the repo's 600 KB page.
//!
//! `cargo bench --bench snapshot`; figures and method in docs/performance.md.

use std::hint::black_box;

use agent_snapshot::aria::Index;
use agent_snapshot::parse::Dom;
use agent_snapshot::walk::walk;
use agent_snapshot::{query, render, Document, QueryKind, RenderOptions, TreeOptions};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};

fn page() -> Vec<u8> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/shop-600k.html");
    std::fs::read(path).expect("corpus/shop-600k.html")
}

fn stages(c: &mut Criterion) {
    let bytes = page();
    let html = std::str::from_utf8(&bytes).expect("utf-8").to_string();
    let tree_opts = TreeOptions::default();
    let render_opts = RenderOptions::default();

    let mut g = c.benchmark_group("shop-600k");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("end_to_end", |b| {
        b.iter(|| {
            let doc = Document::parse_bytes(black_box(&bytes), &tree_opts).expect("parse");
            black_box(doc.snapshot(&render_opts).text.len())
        })
    });
    g.bench_function("parse", |b| {
        b.iter(|| black_box(Dom::parse(black_box(&html)).len()))
    });
    let dom = Dom::parse(&html);
    let index = Index::build(&dom);
    g.bench_function("walk", |b| {
        b.iter(|| black_box(walk(&dom, &index, &tree_opts).refs.len()))
    });
    let doc = Document::parse(&html, &tree_opts);
    g.bench_function("render", |b| {
        b.iter(|| black_box(render(doc.tree(), &render_opts).text.len()))
    });
    // The <main> region is most of the page: its outerHTML is ~500 KB unbounded.
    let body_ref = (1..=doc.ref_count())
        .map(|n| format!("e{n}"))
        .find(|r| query(&doc, r, QueryKind::OuterHtml, 200_000).truncated)
        .unwrap_or_else(|| "e1".to_string());
    g.bench_function("query_outer_html_4000", |b| {
        b.iter(|| {
            black_box(
                query(&doc, &body_ref, QueryKind::OuterHtml, 4000)
                    .value
                    .len(),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, stages);
criterion_main!(benches);
