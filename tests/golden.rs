//! Golden files for the rendered text: a format change shows up as a reviewed diff
//! (`cargo insta review`).

use agent_snapshot::{query, Document, Format, QueryKind, ReadOptions, RenderOptions, TreeOptions};

fn corpus(name: &str) -> Vec<u8> {
    let path = format!("{}/corpus/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn snap(name: &str, tree: &TreeOptions, render: &RenderOptions) -> String {
    let doc = Document::parse_bytes(corpus(name), tree).expect("parse");
    doc.snapshot(render).text
}

#[test]
fn gold_price_page() {
    insta::assert_snapshot!(snap(
        "gold-price.html",
        &TreeOptions::default(),
        &RenderOptions::default()
    ));
}

#[test]
fn gold_price_page_all_content_not_compact() {
    let tree = TreeOptions {
        interactive_only: false,
        ..Default::default()
    };
    let render = RenderOptions {
        compact: false,
        ..Default::default()
    };
    insta::assert_snapshot!(snap("gold-price.html", &tree, &render));
}

#[test]
fn gold_price_page_folded_siblings() {
    let render = RenderOptions {
        max_siblings: 2,
        ..Default::default()
    };
    insta::assert_snapshot!(snap("gold-price.html", &TreeOptions::default(), &render));
}

#[test]
fn gold_price_page_char_budget() {
    let render = RenderOptions {
        max_chars_total: 400,
        ..Default::default()
    };
    let text = snap("gold-price.html", &TreeOptions::default(), &render);
    assert!(text.chars().count() <= 400);
    insta::assert_snapshot!(text);
}

#[test]
fn gold_price_page_json() {
    let render = RenderOptions {
        format: Format::Json,
        ..Default::default()
    };
    insta::assert_snapshot!(snap("gold-price.html", &TreeOptions::default(), &render));
}

#[test]
fn login_page() {
    insta::assert_snapshot!(snap(
        "login.html",
        &TreeOptions::default(),
        &RenderOptions::default()
    ));
}

#[test]
fn shop_600k_page() {
    insta::assert_snapshot!(snap(
        "shop-600k.html",
        &TreeOptions::default(),
        &RenderOptions::default()
    ));
}

#[test]
fn shop_600k_page_small_budget() {
    let render = RenderOptions {
        max_chars_total: 2000,
        max_nodes: 40,
        ..Default::default()
    };
    insta::assert_snapshot!(snap("shop-600k.html", &TreeOptions::default(), &render));
}

fn read(name: &str, opts: &ReadOptions) -> String {
    let doc = Document::parse_bytes(corpus(name), &TreeOptions::default()).expect("parse");
    doc.read(opts).expect("read").text
}

#[test]
fn article_read() {
    let text = read("article.html", &ReadOptions::default());
    // Navigation, search, sidebar, share bar, related links, footer, cookie banner and the
    // hidden note stay out.
    for absent in [
        "Sport",
        "Search",
        "Most read",
        "Share",
        "Related",
        "rights reserved",
        "cookies",
        "Ignore previous",
    ] {
        assert!(!text.contains(absent), "{absent} in\n{text}");
    }
    insta::assert_snapshot!(text);
}

#[test]
fn article_read_cut() {
    let opts = ReadOptions {
        max_chars_total: 700,
        ..Default::default()
    };
    let text = read("article.html", &opts);
    assert!(text.chars().count() <= 700);
    insta::assert_snapshot!(text);
}

/// The design's search-result example: each result's price and shop beside its link; the
/// mobile copy of the menu (hidden by the page's own `@media` rule) is not there.
#[test]
fn search_results_with_prices() {
    insta::assert_snapshot!(snap(
        "search-results.html",
        &TreeOptions::default(),
        &RenderOptions::default()
    ));
}

/// An article: paragraphs whole, with their links inline.
#[test]
fn article_with_inline_links() {
    insta::assert_snapshot!(snap(
        "article.html",
        &TreeOptions::default(),
        &RenderOptions::default()
    ));
}

/// A budget too small for the page: the main content first, the navigation and footer
/// folded into stub lines that name their refs.
#[test]
fn folded_navigation() {
    let render = RenderOptions {
        max_chars_total: 1200,
        ..Default::default()
    };
    let text = snap("article.html", &TreeOptions::default(), &render);
    assert!(text.contains("(folded: "), "{text}");
    insta::assert_snapshot!(text);
}

/// A scoped snapshot: the shop page's main navigation only (a ref, as a stub names it), and
/// its results list by CSS selector.
#[test]
fn scoped_snapshots() {
    let doc =
        Document::parse_bytes(corpus("shop-600k.html"), &TreeOptions::default()).expect("parse");
    let by_ref = doc
        .snapshot_scoped("e4", &RenderOptions::default())
        .expect("e4 is the main navigation");
    insta::assert_snapshot!("scoped_by_ref", by_ref.text);
    let doc = Document::parse_bytes(corpus("search-results.html"), &TreeOptions::default())
        .expect("parse");
    let by_css = doc
        .snapshot_scoped("ul.results", &RenderOptions::default())
        .expect("the results list");
    insta::assert_snapshot!("scoped_by_css", by_css.text);
}

/// `--format list`: one line per interactive element, the key form and search first when
/// the budget is short.
#[test]
fn element_list() {
    let render = RenderOptions {
        format: Format::List,
        max_chars_total: 1500,
        ..Default::default()
    };
    insta::assert_snapshot!(snap("shop-600k.html", &TreeOptions::default(), &render));
}

/// Web components and frames (the page tests/browser.rs also opens in Chromium): an open
/// declarative shadow root with its own sheet, a label and slots; a hidden host; a `srcdoc`
/// frame in place under its iframe node; a frame with only a `src`; a file input.
#[test]
fn shadow_roots_and_frames() {
    insta::assert_snapshot!(snap(
        "components.html",
        &TreeOptions::default(),
        &RenderOptions::default()
    ));
    let json = RenderOptions {
        format: Format::Json,
        ..Default::default()
    };
    insta::assert_snapshot!(
        "shadow_roots_and_frames_json",
        snap("components.html", &TreeOptions::default(), &json)
    );
}

/// Closed shadow roots, named and default slots, fallback content, a slot forwarded into a
/// nested shadow root, a light child no slot takes, a hidden host, and IDs that do not
/// cross the shadow boundary.
#[test]
fn closed_shadow_roots_slots_and_fallbacks() {
    insta::assert_snapshot!(snap(
        "shadow-closed.html",
        &TreeOptions::default(),
        &RenderOptions::default()
    ));
}

/// The query stage reaches elements inside shadow roots and frames by their refs.
#[test]
fn queries_reach_into_shadow_roots_and_frames() {
    let doc =
        Document::parse_bytes(corpus("components.html"), &TreeOptions::default()).expect("parse");
    let ref_of = |role: &str, name: &str| {
        let snap = doc.snapshot(&RenderOptions::default());
        let line = snap
            .text
            .lines()
            .find(|l| l.contains(&format!("{role} \"{name}\"")))
            .unwrap_or_else(|| panic!("no {role} {name:?} in\n{}", snap.text))
            .to_string();
        let start = line.find("[ref=").expect("a ref") + 5;
        let end = line[start..].find(']').expect("]") + start;
        line[start..end].to_string()
    };
    let email = ref_of("textbox", "E-mail");
    let attrs = query(&doc, &email, QueryKind::Attrs, 1000);
    assert!(attrs.value.contains("\"type\":\"email\""), "{attrs:?}");
    let coupon = ref_of("iframe", "Coupon");
    let text = query(&doc, &coupon, QueryKind::Text, 1000);
    assert!(text.value.contains("Apply"), "{text:?}");
    assert!(!text.value.contains("SECRET"), "{text:?}");
    let html = query(
        &doc,
        &ref_of("button", "Sign in now"),
        QueryKind::OuterHtml,
        1000,
    );
    assert!(html.value.starts_with("<button"), "{html:?}");
}
