//! Snapshot speed: end to end, per stage, against html5ever's tokenizer alone (the floor),
//! over the shared corpus by category, and on hostile inputs at two sizes (time must grow
//! linearly).
//!
//! `cargo bench --bench snapshot` (all), or a group: `cargo bench --bench snapshot -- pages`.
//! Method and figures: docs/performance.md.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use agent_snapshot::aria::Index;
use agent_snapshot::parse::{Dom, Threads};
use agent_snapshot::walk::walk;
use agent_snapshot::{query, render, Document, QueryKind, ReadOptions, RenderOptions, TreeOptions};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};

fn repo_page(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("corpus")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A sink that drops every token: html5ever's tokenizer alone.
struct NullSink;

impl TokenSink for NullSink {
    type Handle = ();
    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        black_box(&token);
        TokenSinkResult::Continue
    }
}

fn tokenize_only(html: &str) {
    let tokenizer = Tokenizer::new(NullSink, TokenizerOpts::default());
    let input = BufferQueue::default();
    input.push_back(StrTendril::from(html));
    let _ = tokenizer.feed(&input);
    tokenizer.end();
}

fn end_to_end(bytes: &[u8]) -> usize {
    let doc = Document::parse_bytes(bytes, &TreeOptions::default()).expect("parse");
    doc.snapshot(&RenderOptions::default()).text.len()
}

/// A page of many small elements and little text (~1 MB): the worst shape for a tree
/// builder.
fn tag_dense_page() -> String {
    let mut html = String::from("<!doctype html><body><table>");
    let mut i = 0;
    while html.len() < 1_000_000 {
        html.push_str(&format!(
            "<tr><td><a href=/r{i}><b><i>{i}</i></b></a></td><td><span><span><em>x</em></span></span></td><td><input name=q{i}><button>b</button></td></tr>"
        ));
        i += 1;
    }
    html.push_str("</table></body>");
    html
}

fn stages(c: &mut Criterion) {
    let bytes = repo_page("shop-600k.html");
    let html = std::str::from_utf8(&bytes).expect("utf-8").to_string();
    let tree_opts = TreeOptions::default();
    let render_opts = RenderOptions::default();

    let mut g = c.benchmark_group("shop-600k");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("end_to_end", |b| {
        b.iter(|| black_box(end_to_end(black_box(&bytes))))
    });
    g.bench_function("tokenizer_only", |b| {
        b.iter(|| tokenize_only(black_box(&html)))
    });
    g.bench_function("parse", |b| {
        b.iter(|| black_box(Dom::parse(black_box(&html)).len()))
    });
    // The tokenizer on a helper thread, the tree builder on the caller's (`Threads::Two`).
    g.bench_function("parse_two_threads", |b| {
        b.iter(|| black_box(Dom::parse_with(black_box(&html), Threads::Two).len()))
    });
    let dom = Dom::parse(&html);
    let index = Index::build(&dom);
    g.bench_function("walk", |b| {
        b.iter(|| black_box(walk(&dom, &index, &tree_opts).refs.len()))
    });
    // The walk on the caller's thread only.
    let one_thread = TreeOptions {
        threads: Threads::One,
        ..TreeOptions::default()
    };
    g.bench_function("walk_one_thread", |b| {
        b.iter(|| black_box(walk(&dom, &index, &one_thread).refs.len()))
    });
    let doc = Document::parse(&html, &tree_opts);
    g.bench_function("render", |b| {
        b.iter(|| black_box(render(doc.tree(), &render_opts).text.len()))
    });
    // The <main> landmark holds most of the page: ~500 KB of outerHTML unbounded.
    let big_ref = (1..=doc.ref_count())
        .map(|n| format!("e{n}"))
        .find(|r| query(&doc, r, QueryKind::OuterHtml, 200_000).truncated)
        .unwrap_or_else(|| "e1".to_string());
    g.bench_function("query_outer_html_4000", |b| {
        b.iter(|| {
            black_box(
                query(&doc, &big_ref, QueryKind::OuterHtml, 4000)
                    .value
                    .len(),
            )
        })
    });
    g.finish();
}

fn pages(c: &mut Criterion) {
    let mut g = c.benchmark_group("pages");
    g.sample_size(30);
    let two_mb = repo_page("shop-2m.html");
    g.throughput(Throughput::Bytes(two_mb.len() as u64));
    g.bench_function("shop-2m/end_to_end", |b| {
        b.iter(|| black_box(end_to_end(&two_mb)))
    });
    let dense = tag_dense_page();
    g.throughput(Throughput::Bytes(dense.len() as u64));
    g.bench_function("tag-dense-1m/end_to_end", |b| {
        b.iter(|| black_box(end_to_end(dense.as_bytes())))
    });
    g.bench_function("tag-dense-1m/tokenizer_only", |b| {
        b.iter(|| tokenize_only(&dense))
    });
    g.finish();
}

/// Every `../shared/corpus` page, grouped by the category in MANIFEST.tsv: one iteration
/// snapshots every page of the category. Skipped when the folder is absent.
fn shared_corpus(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    let Ok(manifest) = std::fs::read_to_string(dir.join("MANIFEST.tsv")) else {
        eprintln!(
            "skipping the shared corpus benchmarks: {} is absent",
            dir.display()
        );
        return;
    };
    let mut by_category: BTreeMap<String, Vec<Vec<u8>>> = BTreeMap::new();
    for line in manifest.lines().skip(1) {
        let mut cols = line.split('\t');
        let (Some(file), Some(_), Some(category)) = (cols.next(), cols.next(), cols.next()) else {
            continue;
        };
        if let Ok(bytes) = std::fs::read(dir.join(file)) {
            by_category
                .entry(category.to_string())
                .or_default()
                .push(bytes);
        }
    }
    let mut g = c.benchmark_group("corpus");
    g.sample_size(10);
    // The page with the most CSS in its own `<style>` elements (1 MB of a 1.4 MB page): what
    // the style stage costs at worst on a real page.
    if let Ok(bytes) = std::fs::read(dir.join("news__cnn-aeb.html")) {
        g.throughput(Throughput::Bytes(bytes.len() as u64));
        g.bench_function("most-css/end_to_end", |b| {
            b.iter(|| black_box(end_to_end(&bytes)))
        });
    }
    for (category, pages) in &by_category {
        let total: usize = pages.iter().map(Vec::len).sum();
        g.throughput(Throughput::Bytes(total as u64));
        g.bench_function(BenchmarkId::new("end_to_end", category), |b| {
            b.iter(|| pages.iter().map(|p| end_to_end(p)).sum::<usize>())
        });
    }
    g.finish();
}

/// `read` over the reading set (`../shared/reading`): one iteration reads every page, so the
/// mean time per page is the iteration time over the page count (criterion prints it as
/// elements/s); the median page's time is printed before. `read` is the read alone on parsed
/// documents; `parse_and_read` includes the parse and walk; `parse` and `parse_two_threads`
/// are the parse alone on one thread and on two. Skipped when the folder is absent.
fn reading(c: &mut Criterion) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/reading");
    let Ok(manifest) = std::fs::read_to_string(dir.join("MANIFEST.tsv")) else {
        eprintln!(
            "skipping the reading benchmarks: {} is absent",
            dir.display()
        );
        return;
    };
    let pages: Vec<Vec<u8>> = manifest
        .lines()
        .skip(1)
        .filter_map(|line| line.split('\t').nth(1))
        .filter_map(|page| std::fs::read(dir.join(page)).ok())
        .collect();
    let docs: Vec<Document> = pages
        .iter()
        .map(|p| Document::parse_bytes(p, &TreeOptions::default()).expect("parse"))
        .collect();
    let opts = ReadOptions::default();
    // Criterion times the whole set (the mean page); the median page is timed here, each page
    // the fastest of three reads, and printed once.
    let mut per_page: Vec<Duration> = docs
        .iter()
        .map(|d| {
            (0..3)
                .map(|_| {
                    let start = Instant::now();
                    black_box(d.read(&opts).map_or(0, |r| r.text.len()));
                    start.elapsed()
                })
                .min()
                .unwrap_or_default()
        })
        .collect();
    per_page.sort();
    if let (Some(median), Some(max)) = (per_page.get(per_page.len() / 2), per_page.last()) {
        eprintln!(
            "reading: read per page over {} pages: median {median:.2?}, 90th percentile {:.2?}, max {max:.2?}",
            per_page.len(),
            per_page[per_page.len() * 9 / 10],
        );
    }
    let mut g = c.benchmark_group("reading");
    g.sample_size(10);
    g.throughput(Throughput::Elements(pages.len() as u64));
    g.bench_function("read", |b| {
        b.iter(|| {
            docs.iter()
                .map(|d| d.read(&opts).map_or(0, |r| r.text.len()))
                .sum::<usize>()
        })
    });
    // The parse alone, as `Dom::parse` does it (one thread) and on two threads: real pages,
    // where the tokens' trip between the threads costs more than the overlap saves.
    let texts: Vec<String> = pages
        .iter()
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    for (name, threads) in [("parse", Threads::One), ("parse_two_threads", Threads::Two)] {
        g.bench_function(name, |b| {
            b.iter(|| {
                texts
                    .iter()
                    .map(|t| Dom::parse_with(t, threads).len())
                    .sum::<usize>()
            })
        });
    }
    g.bench_function("parse_and_read", |b| {
        b.iter(|| {
            pages
                .iter()
                .map(|p| {
                    let doc = Document::parse_bytes(p, &TreeOptions::default()).expect("parse");
                    doc.read(&opts).map_or(0, |r| r.text.len())
                })
                .sum::<usize>()
        })
    });
    g.finish();
}

/// A hostile input: its name, how to build it at a size, and the two sizes to compare.
type HostileCase = (&'static str, Box<dyn Fn(usize) -> String>, [usize; 2]);

/// Hostile inputs at size N and 2N: the time per byte must stay flat.
fn hostile(c: &mut Criterion) {
    let cases: Vec<HostileCase> = vec![
        (
            "nesting",
            Box::new(|n| "<div>".repeat(n) + "<a href=/x>deep</a>"),
            [100_000, 200_000],
        ),
        (
            "siblings",
            Box::new(|n| "<span>x</span>".repeat(n)),
            [500_000, 1_000_000],
        ),
        (
            "attribute",
            Box::new(|n| format!("<a href=\"{}\">x</a>", "y".repeat(n))),
            [5 << 20, 10 << 20],
        ),
        (
            "text",
            Box::new(|n| format!("<p>{}</p>", "word ".repeat(n / 5))),
            [5 << 20, 10 << 20],
        ),
        (
            "misnested",
            Box::new(|n| "<a href=/a><b><i><u>x</b></a><p>y</i></u>".repeat(n)),
            [5_000, 10_000],
        ),
        (
            "foster_parented_text",
            Box::new(|n| format!("<ul><li><table>{}</table></ul>", "a<td>x</td>".repeat(n))),
            [50_000, 100_000],
        ),
        (
            "labelledby",
            Box::new(|n| {
                let spans: String = (0..n).map(|i| format!("<span id=s{i}>w</span>")).collect();
                let ids: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
                format!(
                    "{spans}<button aria-labelledby=\"{}\">b</button>",
                    ids.join(" ")
                )
            }),
            [50_000, 100_000],
        ),
        // The page's own style sheets: bytes, rules, selector length, attribute rules.
        (
            "css_bytes",
            Box::new(|n| {
                let rule = ".p > a:hover{color:red;margin:0 auto}.h{display:none}\n";
                format!(
                    "<style>{}</style><a href=/ class=h>x</a>",
                    rule.repeat(n / rule.len())
                )
            }),
            [5 << 20, 10 << 20],
        ),
        (
            "css_rules",
            Box::new(|n| {
                let css: String = (0..n).map(|i| format!(".c{i}{{display:none}}")).collect();
                let links: String = (0..n)
                    .map(|i| format!("<a href=/ class=c{i}>x</a>"))
                    .collect();
                format!("<style>{css}</style>{links}")
            }),
            [50_000, 100_000],
        ),
        // Rules for other pages of the site: each needs a class the page lacks (left out
        // before parsing), while the page carries as many classes of its own.
        (
            "css_unused_rules",
            Box::new(|n| {
                let css: String = (0..n)
                    .map(|i| format!(".u{i} .c{i}, #u{i}{{display:none}}"))
                    .collect();
                let links: String = (0..n)
                    .map(|i| format!("<a href=/ class=c{i} id=i{i}>x</a>"))
                    .collect();
                format!("<style>{css}</style>{links}")
            }),
            [50_000, 100_000],
        ),
        (
            "css_selector_parts",
            Box::new(|n| {
                format!(
                    "<style>{}.x{{display:none}}</style>{}<a href=/ class=x>x</a>",
                    "div ".repeat(n),
                    "<div>".repeat(n)
                )
            }),
            [500, 1000],
        ),
        (
            "css_attribute_rules",
            Box::new(|n| {
                let css: String = (0..n)
                    .map(|i| format!("[data-k=\"v{i}\"]{{display:none}}"))
                    .collect();
                let links: String = (0..n)
                    .map(|i| format!("<a href=/ data-k=w{i}>x</a>"))
                    .collect();
                format!("<style>{css}</style>{links}")
            }),
            [5_000, 10_000],
        ),
    ];
    let mut g = c.benchmark_group("hostile");
    g.sample_size(10);
    for (name, make, sizes) in &cases {
        for n in sizes {
            let html = make(*n);
            g.throughput(Throughput::Bytes(html.len() as u64));
            g.bench_with_input(BenchmarkId::new(*name, n), &html, |b, html| {
                b.iter(|| black_box(end_to_end(html.as_bytes())))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, stages, pages, shared_corpus, reading, hostile);
criterion_main!(benches);
