//! Prompt injection through hidden text: one page per hiding mechanism. The hidden phrase
//! must not appear in any snapshot (any options), in the node tree, in any `text` query, or in
//! a read of the main content.

use agent_snapshot::{query, Document, QueryKind, ReadOptions, RenderOptions, TreeOptions};

const SECRET: &str = "IGNORE-PREVIOUS-INSTRUCTIONS";

/// Each mechanism wraps the secret; `{}` is where it goes. Every page also holds a visible
/// button so the snapshot is not empty.
const MECHANISMS: &[(&str, &str)] = &[
    ("hidden attribute", "<div hidden>{}</div>"),
    ("hidden=until-found", "<div hidden=until-found>{}</div>"),
    (
        "aria-hidden on an ancestor",
        "<section aria-hidden=true><p><b>{}</b></p></section>",
    ),
    ("display:none", "<div style='display:none'>{}</div>"),
    (
        "DISPLAY: NONE !important",
        "<div style='color:red; DISPLAY: NONE !important'><a href=x>{}</a></div>",
    ),
    (
        "display:none on a far ancestor",
        "<div style='display:none'><div><div><div><button>{}</button></div></div></div></div>",
    ),
    (
        "visibility:hidden",
        "<div style='visibility:hidden'><a href=x>{}</a></div>",
    ),
    (
        "visibility:collapse",
        "<table><tr style='visibility:collapse'><td>{}</td></tr></table>",
    ),
    (
        "opacity:0",
        "<div style='opacity:0'><button>{}</button></div>",
    ),
    ("inert", "<div inert><a href=x>{}</a></div>"),
    (
        "closed dialog",
        "<dialog><p>{}</p><button>Close</button></dialog>",
    ),
    (
        "closed details",
        "<details><summary>More</summary><a href=x>{}</a></details>",
    ),
    (
        "closed details, loose text",
        "<details><summary>More</summary>{} <b>{}</b></details>",
    ),
    ("template", "<template><a href=x>{}</a></template>"),
    ("script", "<script>/* {} */</script>"),
    ("style", "<style>/* {} */</style>"),
    ("noscript", "<noscript><a href=x>{}</a></noscript>"),
    ("hidden input", "<input type=hidden name=x value='{}'>"),
    ("head", "<head><meta name=description content='{}'></head>"),
    ("hidden label", "<label for=f hidden>{}</label><input id=f>"),
    (
        "display:none label",
        "<label for=g style='display:none'>{}</label><input id=g>",
    ),
    (
        "hidden text inside a button",
        "<button>Pay<span hidden>{}</span></button>",
    ),
    (
        "hidden text inside a link",
        "<a href=x>Home<span aria-hidden=true>{}</span></a>",
    ),
    (
        "hidden legend",
        "<fieldset><legend style='display:none'>{}</legend><input></fieldset>",
    ),
    (
        "hidden option text",
        "<select><option>A</option><option hidden>{}</option></select>",
    ),
    (
        "datalist",
        "<input list=l><datalist id=l><option value='{}'></datalist>",
    ),
    (
        "svg title inside a hidden svg",
        "<svg aria-hidden=true><title>{}</title></svg>",
    ),
    ("hidden image alt", "<img hidden alt='{}' src=x>"),
];

fn pages() -> impl Iterator<Item = (&'static str, String)> {
    MECHANISMS.iter().map(|(name, wrap)| {
        let hidden = wrap.replace("{}", SECRET);
        (*name, format!("<!doctype html><html><body><main><button>Visible</button>{hidden}<p>After</p></main></body></html>"))
    })
}

#[test]
fn no_mechanism_leaks_into_snapshots_trees_or_text_queries() {
    let generous = RenderOptions {
        max_chars_total: 1_000_000,
        max_nodes: 100_000,
        max_depth: 1000,
        max_siblings: 100_000,
        compact: false,
        ..Default::default()
    };
    for (mechanism, html) in pages() {
        for interactive_only in [true, false] {
            let opts = TreeOptions {
                interactive_only,
                ..Default::default()
            };
            let doc = Document::parse(&html, &opts);
            let tree = doc.tree().to_json();
            assert!(
                !tree.contains(SECRET),
                "{mechanism}: leaked into the tree: {tree}"
            );
            for render in [RenderOptions::default(), generous.clone()] {
                let text = doc.snapshot(&render).text;
                assert!(
                    !text.contains(SECRET),
                    "{mechanism}: leaked into the snapshot:\n{text}"
                );
                assert!(
                    text.contains("Visible"),
                    "{mechanism}: visible content missing:\n{text}"
                );
            }
            for n in 1..=doc.ref_count() {
                let q = query(&doc, &format!("e{n}"), QueryKind::Text, 10_000);
                assert!(
                    !q.value.contains(SECRET),
                    "{mechanism}: leaked through text query e{n}"
                );
            }
        }
    }
}

#[test]
fn no_mechanism_leaks_into_reads() {
    // Also inside a page whose main content is found by scoring, not the whole-body fallback.
    let prose =
        "<p>The visible story goes on, with commas, clauses, and enough words to score.</p>";
    for (mechanism, html) in pages() {
        let scored = html.replace("<p>After</p>", &format!("<p>After</p>{prose}{prose}"));
        for page in [&html, &scored] {
            let doc = Document::parse(page, &TreeOptions::default());
            for max_chars_total in [12_000, 1_000_000] {
                let text = doc
                    .read(&ReadOptions {
                        max_chars_total,
                        from: None,
                    })
                    .expect("read")
                    .text;
                assert!(
                    !text.contains(SECRET),
                    "{mechanism}: leaked into the read:\n{text}"
                );
                assert!(
                    text.contains("After"),
                    "{mechanism}: visible content missing from the read:\n{text}"
                );
            }
        }
    }
}

#[test]
fn aria_labelledby_may_name_with_hidden_text_as_the_spec_allows() {
    // accname 2A/2B: a hidden node referenced directly by aria-labelledby still names.
    let html = "<span id=l hidden>Close dialog</span><button aria-labelledby=l>X</button>";
    let doc = Document::parse(html, &TreeOptions::default());
    let text = doc.snapshot(&RenderOptions::default()).text;
    assert!(text.contains("button \"Close dialog\""), "{text}");
    // The hidden node itself is still not in the snapshot, and its text not in `text`.
    assert_eq!(text.matches("Close dialog").count(), 1);
    assert_eq!(query(&doc, "e1", QueryKind::Text, 100).value, "X");
}
