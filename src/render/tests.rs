use super::*;
use crate::tree::View;
use crate::tree::{TreeStats, SCHEMA_VERSION};

fn leaf(role: &'static str, name: &str, r: u32) -> TreeNode {
    TreeNode {
        tag: "x".into(),
        role: Some(role.into()),
        name: Some(name.into()),
        ref_: Ref::new(r),
        ..Default::default()
    }
}

/// A page of `children` in its body, without URL or title.
fn body_tree(children: Vec<TreeNode>) -> NodeTree {
    NodeTree {
        version: SCHEMA_VERSION,
        url: None,
        title: None,
        view: View::Scripted,
        data: None,
        declared: None,
        tree: TreeNode {
            tag: "body".into(),
            children,
            ..Default::default()
        },
        stats: TreeStats::default(),
    }
}

fn list_tree(items: u32) -> NodeTree {
    NodeTree {
        version: SCHEMA_VERSION,
        url: Some("https://example.com/".into()),
        title: Some("List".into()),
        view: View::Scripted,
        data: None,
        declared: None,
        tree: TreeNode {
            tag: "body".into(),
            children: vec![TreeNode {
                tag: "ul".into(),
                role: Some("list".into()),
                children: (1..=items)
                    .map(|i| leaf("listitem", &format!("Item {i}"), i))
                    .collect(),
                ..Default::default()
            }],
            ..Default::default()
        },
        stats: TreeStats::default(),
    }
}

#[test]
fn char_budget_is_a_hard_limit_for_every_size() {
    let tree = list_tree(300);
    for max in [0, 1, 5, 40, 80, 81, 120, 500, 1000, 5000] {
        for format in [Format::Text, Format::Json] {
            let opts = RenderOptions {
                max_chars_total: max,
                max_siblings: 1000,
                max_nodes: 1000,
                format,
                ..Default::default()
            };
            let r = render(&tree, &opts);
            assert!(
                r.text.chars().count() <= max,
                "{max} {format:?}: {}",
                r.text.chars().count()
            );
            assert_eq!(r.stats.chars_emitted, r.text.chars().count());
            assert!(r.stats.truncated);
            assert!(r
                .stats
                .truncate_reasons
                .contains(&TruncateReason::MaxCharsTotal));
            if format == Format::Json && max >= 200 {
                serde_json::from_str::<serde_json::Value>(&r.text)
                    .expect("budgeted JSON stays valid");
            }
        }
    }
}

#[test]
fn every_ref_in_the_text_is_in_the_map() {
    let r = render(&list_tree(20), &RenderOptions::default());
    let in_text = r.text.matches("[ref=").count();
    assert_eq!(in_text, r.refs.len());
    assert!(r.refs.get("e20").is_some());
}

#[test]
fn long_runs_fold_into_one_line() {
    let opts = RenderOptions {
        max_siblings: 10,
        ..Default::default()
    };
    let r = render(&list_tree(100), &opts);
    assert!(
        r.text
            .ends_with("  - ... (folded: 90 items: 90 other refs, 90 texts; e11–e100)"),
        "{}",
        r.text
    );
    assert_eq!(r.stats.truncate_reasons, [TruncateReason::MaxSiblings]);
    assert_eq!(r.stats.nodes_emitted, 11);
}

#[test]
fn node_budget_stops_cleanly() {
    let opts = RenderOptions {
        max_nodes: 5,
        ..Default::default()
    };
    let r = render(&list_tree(20), &opts);
    assert_eq!(r.stats.nodes_emitted, 5);
    assert!(
        r.text
            .ends_with("- ... (folded: 16 items: 16 other refs, 16 texts; e5–e20)"),
        "{}",
        r.text
    );
    assert!(r.text.starts_with("[snapshot] url=https://example.com/ title=\"List\" nodes=5 truncated=true reasons=maxNodes"));
}

#[test]
fn depth_budget_cuts_deeper_lines() {
    let opts = RenderOptions {
        max_depth: 0,
        ..Default::default()
    };
    let r = render(&list_tree(3), &opts);
    assert_eq!(r.text.lines().count(), 2, "{}", r.text);
    assert!(
        r.text
            .ends_with("\n- list (folded: 3 other refs, 3 texts; e1–e3)"),
        "a list whose items are too deep folds into its stub: {}",
        r.text
    );
    assert_eq!(r.stats.truncate_reasons, [TruncateReason::MaxDepth]);
}

#[test]
fn compact_drops_branches_without_refs_or_text() {
    let mut tree = list_tree(1);
    tree.tree.children.push(TreeNode {
        tag: "p".into(),
        role: Some("paragraph".into()),
        text: Some("words".into()),
        ..Default::default()
    });
    tree.tree.children.push(TreeNode {
        tag: "div".into(),
        role: Some("group".into()),
        children: vec![TreeNode {
            tag: "hr".into(),
            role: Some("separator".into()),
            ..Default::default()
        }],
        ..Default::default()
    });
    let compact = render(&tree, &RenderOptions::default()).text;
    assert!(compact.contains("- paragraph: words"), "{compact}");
    assert!(!compact.contains("group"), "{compact}");
    let full = RenderOptions {
        compact: false,
        ..Default::default()
    };
    assert!(render(&tree, &full).text.contains("- separator"));
}

#[test]
fn page_text_cannot_break_the_line_structure() {
    let mut tree = list_tree(1);
    tree.tree.children[0].children[0].name = Some("a\"b\\c\nd\u{2028}e".into());
    tree.tree.children[0].children[0].role = Some("list item]\n- fake".into());
    tree.title = Some("t\"\n".into());
    let r = render(&tree, &RenderOptions::default());
    assert_eq!(r.text.lines().count(), 3, "{}", r.text);
    assert!(r.text.contains(r#""a\"b\\c\nd\u{2028}e""#), "{}", r.text);
}

#[test]
fn long_labels_and_attrs_are_cut_on_char_boundaries() {
    let mut tree = list_tree(1);
    let item = &mut tree.tree.children[0].children[0];
    item.name = Some("金".repeat(500).into());
    item.attrs.insert("href", "/".repeat(1000));
    let opts = RenderOptions {
        max_text_per_node: 10,
        max_attr_value_len: 20,
        ..Default::default()
    };
    let r = render(&tree, &opts);
    assert!(
        r.text.contains(&format!("\"{}…\"", "金".repeat(9))),
        "{}",
        r.text
    );
    assert!(
        r.text.contains(&format!("[href={}…]", "/".repeat(19))),
        "{}",
        r.text
    );
}

#[test]
fn invalid_and_duplicate_refs_from_outside_are_dropped() {
    // Found by the render_json fuzz target: a ref with a space was sanitised in the text but
    // kept as-is in the ref map. Malformed refs now read as absent; repeats are the render's.
    let json = list_tree(4)
        .to_json()
        .replace(r#""ref":"e1""#, r#""ref":"e 8""#)
        .replace(r#""ref":"e2""#, r#""ref":"e01""#)
        .replace(r#""ref":"e3""#, r#""ref":"e4""#);
    let tree = NodeTree::from_json(&json).expect("well-formed JSON");
    let r = render(&tree, &RenderOptions::default());
    assert_eq!(r.text.matches("[ref=").count(), 1, "{}", r.text);
    assert_eq!(r.refs.len(), 1);
    assert!(r.refs.get("e4").is_some());
    assert!(
        r.text.contains("\"Item 4\"\n") || r.text.ends_with("\"Item 4\""),
        "a repeat still shows, without its ref: {}",
        r.text
    );
    // A malformed ref is no ref: the node shows as any node without one does (it has
    // text), without a ref.
    assert!(r.text.contains("- listitem \"Item 1\"\n"), "{}", r.text);
    let full = render(
        &tree,
        &RenderOptions {
            compact: false,
            ..Default::default()
        },
    );
    assert!(
        full.text.contains("- listitem \"Item 1\"\n"),
        "{}",
        full.text
    );
    assert_eq!(full.refs.len(), 1);
}

#[test]
fn refs_out_of_order_are_checked_for_repeats_too() {
    // The walk numbers refs in increasing order and the check is cheapest then; a tree from
    // outside may step back, and a repeat after the step must still be caught.
    let mut tree = list_tree(6);
    let items = &mut tree.tree.children[0].children;
    for (item, r) in items.iter_mut().zip(["e5", "e2", "e5", "e3", "e2", "e9"]) {
        item.ref_ = Ref::parse(r);
    }
    let r = render(&tree, &RenderOptions::default());
    let mut shown: Vec<&str> = r.refs.iter().map(|n| n.ref_.as_str()).collect();
    shown.sort_unstable();
    assert_eq!(shown, ["e2", "e3", "e5", "e9"]);
    assert_eq!(r.text.matches("[ref=").count(), 4, "{}", r.text);
}

#[test]
fn a_producer_cut_is_reported() {
    let mut tree = list_tree(2);
    tree.stats.truncated = true;
    let r = render(&tree, &RenderOptions::default());
    assert!(r.text.starts_with("[snapshot] url=https://example.com/ title=\"List\" nodes=3 truncated=true reasons=maxNodes"), "{}", r.text);
}

#[test]
fn a_select_is_one_line_that_always_says_its_value() {
    let options: String = (0..250)
        .map(|i| {
            let sel = if i == 200 { " selected" } else { "" };
            format!("<option value=c{i}{sel}>Country {i}</option>")
        })
        .collect();
    let html = format!(
        "<label>Country <select name=country><option value=''></option>{options}</select></label>\
         <select name=size><option>S<option>M<option selected>L</select>"
    );
    let doc = crate::Document::parse(&html, &crate::TreeOptions::default());
    let text = doc.snapshot(&RenderOptions::default()).text;
    let country = text
        .lines()
        .find(|l| l.contains("name=country"))
        .expect("the select's line");
    assert!(
        country.contains(": Country 0 | Country 1 |")
            && country.ends_with("… (251 options; selected: Country 200)"),
        "{country}"
    );
    assert!(country.chars().count() < 300, "{country}");
    assert!(
        text.lines()
            .any(|l| l.contains("[name=size]") && l.ends_with("]: S | M | L [selected]")),
        "{text}"
    );
    // No option line, and no option ref in the map.
    assert!(!text.contains("- option"), "{text}");
    assert!(doc.snapshot(&RenderOptions::default()).refs.len() == 2);
}

#[test]
fn list_lines_are_short() {
    let headline = "word ".repeat(40);
    let html = format!("<a href=/story>{headline}</a><a href=/x></a><input name=q>");
    let doc = crate::Document::parse(&html, &crate::TreeOptions::default());
    let text = doc
        .snapshot(&RenderOptions {
            format: Format::List,
            ..Default::default()
        })
        .text;
    let lines: Vec<&str> = text.lines().skip(1).collect();
    // A long name is cut (the query gives the rest); a field without one says what it is
    // for; a link's href stays in the ref map.
    assert!(
        lines[0].starts_with("- link \"word word") && lines[0].chars().count() < 100,
        "{text}"
    );
    assert!(lines[1].starts_with("- link [ref="), "{text}");
    assert!(lines[2].starts_with("- textbox [name=q] [ref="), "{text}");
}

#[test]
fn an_article_list_item_shown_whole_needs_no_ref() {
    let long = "word ".repeat(60);
    let html = format!(
        "<nav><ul><li>Home and away <a href=/a>A</a></ul></nav>\
         <main><h1>T</h1><p>{long}</p><ul><li>Short item with <a href=/x>a link</a></ul></main>"
    );
    let doc = crate::Document::parse(&html, &crate::TreeOptions::default());
    let r = doc.snapshot(&RenderOptions::default());
    // The main content's item says all there is; its link keeps its ref.
    assert!(
        r.text.contains("- listitem: Short item with [a link](e"),
        "{}",
        r.text
    );
    // Outside the main content an item's text may be cut: it keeps the ref that gets the rest.
    assert!(r.text.contains("- listitem [ref=e"), "{}", r.text);
    let in_text = r.text.matches("[ref=").count() + r.text.matches("](e").count();
    assert_eq!(in_text, r.refs.len(), "{}", r.text);
}

#[test]
fn bare_text_between_the_parts_of_the_content_is_content() {
    // The producer marked two paragraphs as the content (the content stage joins sibling
    // elements); between them, directly in their parent, a paragraph written as bare text (as
    // news sites write them) and a code block the sibling step passed over are shown whole
    // like them, not cut as page furniture is. Before the first part it is not content.
    let text = |t: String| TreeNode {
        tag: crate::tree::TEXT_RUN_TAG.into(),
        text: Some(t.into()),
        ..Default::default()
    };
    let para = |w: &str| TreeNode {
        tag: "p".into(),
        role: Some("paragraph".into()),
        main: true,
        children: vec![text(format!("{w} ").repeat(60))],
        ..Default::default()
    };
    let tree = body_tree(vec![
        leaf("link", "Home", 1),
        TreeNode {
            tag: "div".into(),
            children: vec![
                text("before ".repeat(60)),
                para("alpha"),
                text("bare ".repeat(60)),
                TreeNode {
                    tag: "pre".into(),
                    children: vec![text("code ".repeat(60))],
                    ..Default::default()
                },
                para("gamma"),
            ],
            ..Default::default()
        },
    ]);
    let r = render(&tree, &RenderOptions::default());
    let line = |word: &str| {
        r.text
            .lines()
            .find(|l| l.contains(word))
            .unwrap_or_else(|| panic!("no {word} in\n{}", r.text))
            .to_string()
    };
    assert_eq!(line("bare").matches("bare").count(), 60, "{}", r.text);
    assert_eq!(line("code").matches("code").count(), 60, "{}", r.text);
    assert!(line("before").matches("before").count() < 60, "{}", r.text);
}

#[test]
fn the_sibling_cap_does_not_cut_the_main_content_beside_a_carousel() {
    // The content stage marked the article's parts (its links here) inside a parent that also
    // holds 30 teaser links, which the producer did not mark. The cap of 25 siblings folds
    // teasers, never the content shown after them.
    let mut children: Vec<TreeNode> = (1..=30)
        .map(|i| leaf("link", &format!("Teaser {i}"), i))
        .collect();
    children.extend((31..=35).map(|i| TreeNode {
        main: true,
        ..leaf("link", &format!("Story link {i}"), i)
    }));
    let tree = body_tree(vec![TreeNode {
        tag: "div".into(),
        role: Some("article".into()),
        children,
        ..Default::default()
    }]);
    let r = render(&tree, &RenderOptions::default());
    for i in 31..=35 {
        assert!(r.text.contains(&format!("Story link {i}")), "{}", r.text);
    }
    assert!(
        r.text.contains("(folded:"),
        "the teasers are still capped:\n{}",
        r.text
    );
}

#[test]
fn a_short_text_between_paragraphs_stays_with_them() {
    // Cut by the budget, the article's text goes in order: the one-word line between two
    // paragraphs is not left to a stub line longer than itself.
    let para = |w: &str| format!("<p>{}</p>", format!("{w} ").repeat(40));
    let html = format!(
        "<main><h1>T</h1>{}<div>Advertising</div>{}{}</main><footer><a href=/f>F</a></footer>",
        para("alpha"),
        para("beta"),
        para("gamma").repeat(30)
    );
    let r = snapshot_within(&html, 2_000);
    assert!(r.text.contains("- text: Advertising\n"), "{}", r.text);
    assert!(!r.text.contains("(folded: 1 items"), "{}", r.text);
}

#[test]
fn forms_a_task_needs_rank_first_and_others_with_their_region() {
    let html =
        "<form><select name=year><option>2024<option>2025</select><button>Search</button></form>\
         <aside><form><input type=email name=news placeholder='Your email'>\
         <button>Subscribe</button></form></aside>\
         <main><h1>Forgot your password?</h1>\
         <form><input type=email name=email placeholder=Email><button>Reset</button></form>\
         <p>Comments are read by an editor and moderated before they appear on the page.</p>\
         <form><textarea name=comment></textarea><input type=email name=cemail placeholder=Email>\
         <button>Post comment</button></form>\
         <p>Get the week's best stories by mail, every Sunday morning, free of charge.</p>\
         <form><input type=email name=weekly><button>Subscribe</button></form></main>";
    let doc = crate::Document::parse(html, &crate::TreeOptions::default());
    let super::Flattened { flat, forms } = super::flatten(&doc.tree().tree);
    let refs_ok = vec![true; flat.len()];
    let plan = plan::Plan::new(&flat, &forms, &refs_ok, &RenderOptions::default());
    let prio = |name: &str| {
        let i = (0..flat.len())
            .find(|&i| flat[i].node.attrs.get("name") == Some(name))
            .unwrap_or_else(|| panic!("no field {name}"));
        plan.prio[i]
    };
    // A search by selects and a "Search" button, and a recovery form: first.
    assert_eq!(prio("year"), plan::P_KEY);
    assert_eq!(prio("email"), plan::P_KEY);
    // An e-mail field in a comment form, a newsletter sign-up, or a sidebar: with the
    // region it stands in.
    assert_eq!(prio("cemail"), plan::P_MAIN);
    assert_eq!(prio("weekly"), plan::P_MAIN);
    assert_eq!(prio("news"), plan::P_ASIDE);
}

/// The priority class of each line of `html`'s plan, by the line's `name` attribute or, for
/// a text, its first word.
fn priorities(html: &str) -> impl Fn(&str) -> u8 {
    let doc = crate::Document::parse(html, &crate::TreeOptions::default());
    let super::Flattened { flat, forms } = super::flatten(&doc.tree().tree);
    let refs_ok = vec![true; flat.len()];
    let plan = plan::Plan::new(&flat, &forms, &refs_ok, &RenderOptions::default());
    let found: Vec<(String, u8)> = (0..flat.len())
        .filter(|&i| plan.kind[i] == plan::Kind::Line)
        .filter_map(|i| {
            let node = flat[i].node;
            let key = node.attrs.get("name").map(str::to_string).or_else(|| {
                let text = node.text.as_deref().or(node.name.as_deref())?;
                text.split_whitespace().next().map(str::to_string)
            })?;
            Some((key, plan.prio[i]))
        })
        .collect();
    move |key: &str| {
        found
            .iter()
            .find(|(k, _)| k == key)
            .map(|&(_, p)| p)
            .unwrap_or_else(|| panic!("no line {key} in {found:?}"))
    }
}

#[test]
fn a_key_form_is_one_unit_and_its_long_text_is_not() {
    let long = "Members treat each other with respect and keep to the topic. ".repeat(20);
    let prio = priorities(&format!(
        "<main><h1>Join</h1><form><input name=user><input type=password name=pw>\
         <p>Rules: {long}</p><label><input type=checkbox name=agree> I agree</label>\
         <input type=submit value=Register name=go><input type=reset name=clear></form>\
         <p>After: {long}</p><form><input name=qty type=number><button name=buy>Buy</button></form>\
         <form><input name=where><input type=submit name=hotelSearchSubmit value=Fetch></form></main>"
    ));
    // A search form whose button says so only by its `name` attribute.
    assert_eq!(prio("where"), plan::P_KEY);
    for name in ["user", "pw", "agree", "go", "clear"] {
        assert_eq!(prio(name), plan::P_KEY, "{name}");
    }
    // The rules may fold; so may a form without a key field, and the text after the form.
    assert_eq!(prio("Rules:"), plan::P_MAIN);
    assert_eq!(prio("After:"), plan::P_MAIN);
    assert_eq!(prio("qty"), plan::P_MAIN);
}

#[test]
fn a_form_around_the_whole_page_is_no_unit() {
    // ASP.NET wraps every page in one `<form>`: its search box and button come first, not
    // the page's other controls.
    let links: String = (0..30)
        .map(|i| format!("<a href=/p/{i}>Product {i}</a> "))
        .collect();
    let prio = priorities(&format!(
        "<form action=/default.aspx><header><input type=search name=q><button name=go>Search</button>\
         </header><main><h1>Shop</h1><p>Today's offers, chosen by our buyers for the season.</p>\
         <input type=number name=qty><button name=buy>Add to cart</button></main>\
         <nav>{links}</nav></form>"
    ));
    assert_eq!(prio("q"), plan::P_KEY);
    assert_eq!(prio("qty"), plan::P_MAIN);
    assert_eq!(prio("buy"), plan::P_MAIN);
}

#[test]
fn a_figure_line_says_its_caption_once() {
    let html =
        "<main><h1>Harbour</h1><figure><img src=boat.jpg alt='The schooner Polaris at dawn'>\
        <figcaption>The schooner Polaris at dawn</figcaption></figure></main>";
    let doc = crate::Document::parse(html, &crate::TreeOptions::default());
    let text = doc.snapshot(&RenderOptions::default()).text;
    assert_eq!(text.matches("schooner Polaris").count(), 2, "{text}");
    assert!(text.contains("- figure: "), "{text}");
}

/// A picture the page puts twice in a row (its light and dark versions) reads once on its
/// line; the same alt text after other text reads again.
#[test]
fn a_picture_twice_in_a_row_reads_once() {
    let html = "<main><h1>Harbour</h1><figure><img src=light.png alt='A map of the harbour'>\
        <img src=dark.png alt='A map of the harbour'></figure>\
        <p><img src=a.png alt='Logo'> and <img src=b.png alt='Logo'></p></main>";
    let doc = crate::Document::parse(html, &crate::TreeOptions::default());
    let text = doc.snapshot(&RenderOptions::default()).text;
    assert_eq!(text.matches("A map of the harbour").count(), 1, "{text}");
    assert_eq!(text.matches("Logo").count(), 2, "{text}");
}

/// Asserts that `text` holds every one of `needles`, saying which one is missing and why it
/// should show.
/// The default options with a budget of `chars` characters.
fn budget(chars: usize) -> RenderOptions {
    RenderOptions {
        max_chars_total: chars,
        ..Default::default()
    }
}

/// The snapshot of an HTML page within a budget of `chars`.
fn snapshot_within(html: &str, chars: usize) -> SnapshotResult {
    crate::Document::parse(html, &crate::TreeOptions::default()).snapshot(&budget(chars))
}

fn assert_shows(text: &str, why: &str, needles: impl IntoIterator<Item = String>) {
    for needle in needles {
        assert!(
            text.contains(&needle),
            "{why}: {needle:?} missing in\n{text}"
        );
    }
}

#[test]
fn key_forms_leave_the_article_a_share_of_the_budget() {
    // A page with a sign-in form and 29 registration pop-ups, each with an e-mail field and
    // a country list, after its article: the first form comes whole, the article still
    // shows, and the pop-ups take what is left.
    let countries: String = (0..200)
        .map(|i| format!("<option>Country number {i}</option>"))
        .collect();
    let form = |k: u32| {
        format!(
            "<form><label>Email {k} <input type=email name=e{k}></label>\
             <label>Password {k} <input type=password name=p{k}></label>\
             <label>Country {k} <select name=c{k}>{countries}</select></label>\
             <label><input type=checkbox name=r{k}> Remember me {k}</label>\
             <button>Send {k}</button></form>"
        )
    };
    let para = |i: u32| format!("<p>Paragraph {i} {}</p>", "of the article ".repeat(20));
    let html = format!(
        "<main><h1>Trends</h1>{}</main>{}",
        (0..40).map(para).collect::<String>(),
        (0..30).map(form).collect::<String>()
    );
    let doc = crate::Document::parse(&html, &crate::TreeOptions::default());
    let opts = RenderOptions::default();
    let r = doc.snapshot(&opts);
    assert!(r.text.chars().count() <= opts.max_chars_total);
    assert_shows(
        &r.text,
        "the first form is whole",
        [
            "Email 0",
            "Password 0",
            "Country 0",
            "Remember me 0",
            "Send 0",
        ]
        .map(String::from),
    );
    assert_shows(
        &r.text,
        "the article shows",
        (0..5).map(|i| format!("Paragraph {i} ")),
    );
}

#[test]
fn a_long_document_in_a_modal_does_not_come_first() {
    // A short dialog (a cart confirmation) stays first; the terms of service in a dialog,
    // most likely closed where no script runs, rank as the footer they sit in, after the
    // main content.
    let para = |w: &str, i: u32| format!("<p>{w} {i} {}</p>", "and more words ".repeat(20));
    let html = format!(
        "<div role=dialog aria-label=Cart><h2>Added to cart</h2><button>Close</button></div>\
         <main><h1>Sneakers</h1>{}</main>\
         <footer><div role=dialog aria-label=Terms><h2>Terms of service</h2>{}</div></footer>",
        (0..30).map(|i| para("Product", i)).collect::<String>(),
        (0..60).map(|i| para("Clause", i)).collect::<String>()
    );
    let doc = crate::Document::parse(&html, &crate::TreeOptions::default());
    let r = doc.snapshot(&RenderOptions::default());
    assert!(r.text.contains("Added to cart"), "{}", r.text);
    assert_shows(
        &r.text,
        "the main content shows",
        (0..25).map(|i| format!("Product {i} ")),
    );
    assert!(!r.text.contains("Clause 50 "), "{}", r.text);
}

/// A `role=dialog` panel of the banner (a region picker) is the chrome's popup, closed where
/// no script runs: it ranks with the banner, after the content. An open `<dialog>` element
/// there (a closed one is not rendered) still comes first.
#[test]
fn a_popup_of_the_banner_ranks_with_the_banner() {
    let regions: String = (0..40)
        .map(|i| format!("<li><a href=/r{i}>Region number {i}</a></li>"))
        .collect();
    let para = |i: u32| format!("<p>Product {i} {}</p>", "and more words ".repeat(20));
    let html = format!(
        "<header><div role=dialog aria-label=\"Change region\"><h3>Change region</h3>\
         <h2>Americas</h2><ul>{regions}</ul></div>\
         <dialog open><p>Your session ends soon</p><button>Stay signed in</button></dialog>\
         </header><main><h1>Sneakers</h1>{}</main>",
        (0..40).map(para).collect::<String>()
    );
    let r = snapshot_within(&html, 4_000);
    assert!(r.text.contains("Stay signed in"), "{}", r.text);
    assert_shows(
        &r.text,
        "the main content shows",
        (0..8).map(|i| format!("Product {i} ")),
    );
    assert!(!r.text.contains("heading \"Americas\""), "{}", r.text);
}

#[test]
fn a_link_heavy_main_holding_the_content_is_not_a_link_farm() {
    // A results page whose stories are links (headline and summary inside one), so the
    // section holding the content's parts is link text all through. As a link farm it
    // ranked the whole content with the chrome, after a menu of 40 links.
    let menu: String = (0..40)
        .map(|i| format!("<li><a href=/s{i}>Section {i}</a></li>"))
        .collect();
    let card = |i: u32| {
        format!(
            "<div class=border><div><a href=/src{i}><h4>source{i}.com</h4></a>\
             <a href=/n{i}><h3>Story {i} headline</h3><p>Story {i} summary {}</p></a>\
             <span>{i}d</span><button>Share</button><a href=/n{i}#c>Comments</a></div></div>",
            "with words that tell the story, ".repeat(6)
        )
    };
    let html = format!(
        "<nav><ul>{menu}</ul></nav><main><div><div><h3>Results</h3><section>{}</section></div>\
         <div><h2>Trending</h2><ul>{menu}</ul></div></div></main>",
        (0..20).map(card).collect::<String>()
    );
    let r = snapshot_within(&html, 4_000);
    assert_shows(
        &r.text,
        "the stories show",
        (0..6).map(|i| format!("Story {i} summary")),
    );
}

/// Cards wait for the article's own text, unless the page is mostly cards: a front page
/// whose stories (items with a heading and a blurb) hold more prose than the notes after
/// them reads its stories in order, first ones first, not the notes and then what is left.
#[test]
fn a_page_of_cards_reads_them_in_order() {
    let card = |i: u32| {
        format!(
            "<li><h3><a href=/s{i}>Story {i}</a></h3><p>Blurb {i}: {}</p></li>",
            "a teaser of the story, with words to read. ".repeat(5)
        )
    };
    let note = |i: u32| {
        format!(
            "<p>Note {i}: {}</p>",
            "the site's own words about itself, at length. ".repeat(6)
        )
    };
    let html = format!(
        "<main><h1>Front page</h1><ul>{}</ul>{}</main>",
        (0..12).map(card).collect::<String>(),
        (0..7).map(note).collect::<String>()
    );
    let r = snapshot_within(&html, 2_500);
    assert_shows(
        &r.text,
        "the first stories show",
        (0..4).map(|i| format!("Blurb {i}: ")),
    );
}

/// The section holding the page's title (`h1`) is its opening, not a card, though it is an
/// `<article>` among teaser `<article>`s: a landing page's hero paragraph comes before the
/// questions and answers further down, not after them.
#[test]
fn the_section_with_the_title_is_no_card() {
    let teaser = |i: u32| {
        format!(
            "<article><h3><a href=/t{i}>Teaser {i}</a></h3><p>Teaser text {i}: {}</p></article>",
            "words about another page. ".repeat(4)
        )
    };
    let answer = |i: u32| {
        format!(
            "<h3>Question {i}?</h3><p>Answer {i}: {}</p>",
            "a long answer to a frequent question, with its details. ".repeat(6)
        )
    };
    let html = format!(
        "<main><article><h1>The product</h1><p>Opening pitch: {}</p></article>{}{}</main>",
        "what the product does for you, said briefly. ".repeat(3),
        (0..3).map(teaser).collect::<String>(),
        (0..20).map(answer).collect::<String>()
    );
    let r = snapshot_within(&html, 3_000);
    assert_shows(
        &r.text,
        "the opening shows whole",
        ["Opening pitch: what the product does for you, said briefly. what the product does for you, said briefly. what the product does for you, said briefly.".to_string()],
    );
}

/// A product page's sections (`<article>`s with a heading and paragraphs each) are its
/// content, not cards to wait for: the first sections come before the short notes after
/// them. (A teaser card holds a title and a blurb, well under `CARD_MAX_TEXT`.)
#[test]
fn a_long_section_is_no_card() {
    let section = |i: u32| {
        format!(
            "<article><h2>Section {i}</h2><p>Section {i} text: {}</p><p>{}</p></article>",
            "what this part of the product does, told at length. ".repeat(12),
            "and more of it, in a second paragraph. ".repeat(12)
        )
    };
    let note = |i: u32| {
        format!(
            "<p>Note {i}: {}</p>",
            "a closing remark of the page. ".repeat(3)
        )
    };
    let html = format!(
        "<main><h1>The product</h1>{}{}</main>",
        (0..5).map(section).collect::<String>(),
        (0..90).map(note).collect::<String>()
    );
    let r = snapshot_within(&html, 3_000);
    assert_shows(
        &r.text,
        "the first section shows",
        ["Section 0 text: what this part".to_string()],
    );
}

/// A small table of the content (a directive's syntax box: three short rows) is read with
/// the paragraphs around it, not after every paragraph of the page.
#[test]
fn a_small_table_reads_with_its_text() {
    let directive = |i: u32| {
        format!(
            "<h3>directive_{i}</h3><table><tr><th>Syntax:</th><td>directive_{i} on | off;</td></tr>\
             <tr><th>Default:</th><td>directive_{i} off;</td></tr>\
             <tr><th>Context:</th><td>http, server</td></tr></table>\
             <p>Directive {i}: {}</p>",
            "what the directive does, and when to turn it on. ".repeat(4)
        )
    };
    let html = format!(
        "<main><h1>Module</h1>{}</main>",
        (0..30).map(directive).collect::<String>()
    );
    let r = snapshot_within(&html, 3_000);
    assert_shows(
        &r.text,
        "the first syntax boxes show",
        (0..2).map(|i| format!("Default: | directive_{i} off;")),
    );
}

/// An article's table of tools drawn in `td`s alone (no `th`: its rules are in a linked
/// stylesheet this path cannot see) shows as rows, each cell with its row, as `read` reads
/// it: not as loose texts whose row a model must guess.
#[test]
fn a_table_of_td_cells_shows_as_rows() {
    let row = |i: u32| {
        format!("<tr><td>Tool {i}</td><td>What tool {i} does.</td><td>Example {i}</td></tr>")
    };
    let html = format!(
        "<main><h1>Tools</h1><p>The table below lists the tools.</p><table>{}</table></main>",
        (0..6).map(row).collect::<String>()
    );
    let r = snapshot_within(&html, 3_000);
    assert_shows(
        &r.text,
        "each row is one line",
        (0..6).map(|i| format!("row: Tool {i} | What tool {i} does. | Example {i}")),
    );
}

/// A short code sample between two paragraphs reads with them, in document order, though an
/// empty `<p>` (which makes no line) sits between it and the paragraph after it: not after
/// every paragraph, as the rest of the page would.
#[test]
fn a_short_sample_before_an_empty_paragraph_reads_with_the_text() {
    let part = |i: u32| {
        format!(
            "<p>Step {i}: {}</p><blockquote><pre>run step_{i}</pre></blockquote><p> </p>",
            "what this step does, before the command that does it. ".repeat(3)
        )
    };
    let html = format!(
        "<main><h1>Guide</h1>{}</main>",
        (0..40).map(part).collect::<String>()
    );
    let r = snapshot_within(&html, 3_000);
    // Samples and steps come in document order: a sample shows with its step, never
    // alone after the steps ran out (as the rest of the page would).
    assert_shows(
        &r.text,
        "the first samples show",
        (0..3).map(|i| format!("run step_{i}")),
    );
    for i in 0..40 {
        if r.text.contains(&format!("run step_{i}\n")) {
            assert!(r.text.contains(&format!("Step {i}: what")), "{}", r.text);
        }
    }
}

/// A heading whose name comes from its content leaves the name off its line when the
/// content says it; the content then keeps its words, even beside an unnamed icon button
/// (an API reference's `#### [link icon] amount integer`). A group's legend, whose name the
/// group's line does say, is still said once.
#[test]
fn a_name_left_to_the_content_is_said_by_it() {
    let html = "<ul><li><h4><button><svg></svg></button><div><span>amount</span> \
                <span>integer</span></div></h4><p>Amount to collect.</p></li></ul>\
                <h2 aria-label=Prices><button></button><span>Prices</span></h2>\
                <fieldset><legend>Shipping</legend><input name=street></fieldset>";
    let doc = crate::Document::parse(html, &crate::TreeOptions::default());
    let text = doc.snapshot(&RenderOptions::default()).text;
    assert_eq!(text.matches("amount integer").count(), 1, "{text}");
    assert_eq!(text.matches("Prices").count(), 1, "{text}");
    assert_eq!(text.matches("Shipping").count(), 1, "{text}");
}

/// The content stage found the content spread over the whole body (its guide below a grid
/// of products, outside the page's `<main>`): the producer marks the page itself. That is a
/// page without a main part, where every part but the chrome ranks as content; the tree's
/// own scoring, for trees without marks, would pick the grid and fold the guide.
#[test]
fn a_page_marked_whole_is_all_content() {
    let card = |i: u32| TreeNode {
        tag: "article".into(),
        role: Some("article".into()),
        ref_: Ref::new(100 + i),
        children: vec![
            TreeNode {
                tag: "h2".into(),
                role: Some("heading".into()),
                level: Some(2),
                ref_: Ref::new(200 + i),
                children: vec![leaf("link", &format!("Grill model {i}"), 300 + i)],
                ..Default::default()
            },
            TreeNode::text_run(format!("{i}49,00 € In stock")),
        ],
        ..Default::default()
    };
    let para = |i: u32| TreeNode {
        tag: "p".into(),
        role: Some("paragraph".into()),
        children: vec![TreeNode::text_run(format!(
            "Guide part {i}: a charcoal grill holds its heat longer than a gas one, and the \
             lid turns it into an oven for slow cooking."
        ))],
        ..Default::default()
    };
    let mut children = vec![TreeNode {
        tag: "main".into(),
        role: Some("main".into()),
        ref_: Ref::new(1),
        children: (0..40).map(card).collect(),
        ..Default::default()
    }];
    children.extend((0..8).map(para));
    let mut tree = body_tree(children);
    tree.tree.main = true;
    let r = render(&tree, &budget(3_000));
    assert_shows(
        &r.text,
        "the guide shows",
        (0..8).map(|i| format!("Guide part {i}:")),
    );
}

/// A thread page of `posts` posts, in its `<main>` under its title.
fn thread(posts: u32, post: impl Fn(u32) -> String) -> String {
    format!(
        "<body><main><h1>Which lens?</h1>{}</main></body>",
        (1..=posts).map(post).collect::<String>()
    )
}

/// Every one of the thread's `posts` shows ("Post 3:"), and `extra`, once under each post,
/// folds first (under some post it does not show).
fn assert_posts_fold_first(text: &str, posts: u32, extra: &str) {
    assert_shows(
        text,
        "every post shows",
        (1..=posts).map(|n| format!("Post {n}:")),
    );
    assert!(
        (text.matches(extra).count() as u32) < posts,
        "{extra} folds first:\n{text}"
    );
}

/// What `read` leaves out of the content by its class (a post's signature, a share bar)
/// ranks with the rest of the page in the snapshot, not with the content: under a tight
/// budget every post's words show before the signatures repeated under them.
#[test]
fn what_read_leaves_out_of_the_content_ranks_with_the_rest() {
    let post = |n: u32| {
        format!(
            "<article class=post><h3>user{n}</h3><div class=body><p>Post {n}: {}</p></div>\
             <div class=signature><p>Signature {n}: {}</p></div></article>",
            "the lens is sharp from edge to edge, and the focus ring turns smoothly, even \
             in the cold of a winter morning. "
                .repeat(3),
            "shooting film since 1998 with the same two lenses, a Leica and a Summicron. "
                .repeat(3)
        )
    };
    let r = snapshot_within(&thread(8, post), 4_000);
    assert_posts_fold_first(&r.text, 8, "Signature");
}

/// What `read` leaves out of a post's author pane (the member's title, join date and post
/// count; it reads the name) ranks with the rest of the page: under a tight budget every
/// post's words and author show before the badges beside them.
#[test]
fn a_posts_author_badges_fold_before_the_posts() {
    let post = |n: u32| {
        format!(
            "<article class=post><aside class=pane><h3>user{n}</h3>\
             <h4>Badge {n}: distinguished member of the forum</h4>\
             <dl><dt>Joined</dt><dd>Badge {n} year 2006</dd><dt>Messages</dt><dd>23,243</dd></dl>\
             </aside><div class=body><p>Post {n}: {}</p></div></article>",
            "the lens is sharp from edge to edge, and the focus ring turns smoothly. ".repeat(2)
        )
    };
    let r = snapshot_within(&thread(10, post), 3_000);
    assert_posts_fold_first(&r.text, 10, "Badge");
    assert_shows(
        &r.text,
        "with its author",
        (1..=10).map(|n| format!("user{n}")),
    );
}

#[test]
fn a_second_post_by_one_author_is_no_repeat() {
    // Two posts by one author carry the same links (name, badge, post count), each with
    // its own text: on a short budget both still show, before the chrome. (The author's
    // list of links is a repeat, and a menu drawn twice is one.)
    let post = |text: &str| {
        format!(
            "<article><h3><a href='/u/ann'>Ann</a></h3><ul><li><a href='/u/ann'>Ann</a></li>\
             <li><a href='/badges/1'>Regular</a></li><li><a href='/u/ann/posts'>360</a></li>\
             </ul><p>{text} {}</p></article>",
            "with words of its own ".repeat(6)
        )
    };
    let menu = "<nav><a href=/a>Alpha</a> <a href=/b>Beta</a> <a href=/c>Gamma</a></nav>";
    let html = format!(
        "<header>{menu}</header><main><h1>Thread</h1>{}{}</main><footer>{menu}</footer>",
        post("First post"),
        post("Second post")
    );
    let r = snapshot_within(&html, 1_000);
    assert_shows(
        &r.text,
        "both posts show",
        ["First post", "Second post"].map(String::from),
    );
}

#[test]
fn a_section_of_the_content_about_cookies_is_content() {
    // A named section speaking of cookies outside the content is a consent notice, and
    // ranks with the chrome; inside the content it is a recipe, and comes before the footer.
    let section = |title: &str, text: &str| {
        format!(
            "<section aria-label='{title}'><h2>{title}</h2><p>{text} {}</p></section>",
            "and then some more words ".repeat(4)
        )
    };
    let html = format!(
        "<main><h1>Holiday baking</h1>{}{}</main><footer><p>{}</p></footer>",
        section(
            "Chocolate chip cookies",
            "Cream the butter and sugar, bake the cookies"
        ),
        section("Gingerbread", "Molasses, ginger and cinnamon"),
        "Footer words ".repeat(8)
    );
    let r = snapshot_within(&html, 700);
    assert!(r.text.contains("Cream the butter"), "{}", r.text);
    assert!(!r.text.contains("Footer words"), "{}", r.text);
}

#[test]
fn a_cut_snapshot_spends_its_budget() {
    // Sections of prose, each with controls that fold to a stub line: stubs are costed at
    // their usual length while the lines are chosen, and the choice is checked by writing
    // it, so a cut snapshot is not left a stub's worth short per section (costed at their
    // longest, a third of a stub went unused per section: 1 088 characters of 12 000 here).
    let section = |i: u32| {
        format!(
            "<section><h2>Part {i}</h2><p>Paragraph {i} {}</p>\
             <button>Like {i}</button><button>Share {i}</button></section>",
            "of the article ".repeat(12),
        )
    };
    let html = format!(
        "<main><h1>Notes</h1>{}</main>",
        (0..60).map(section).collect::<String>()
    );
    for budget in [3_000, 6_000, 12_000] {
        let r = snapshot_within(&html, budget);
        let used = r.text.chars().count();
        assert!(used <= budget, "{used} > {budget}");
        assert!(used + 250 >= budget, "{used} of {budget}\n{}", r.text);
    }
}

#[test]
fn a_stub_never_hides_what_it_takes_as_long_to_say() {
    // Each day has a long paragraph and a short one. Cut by the budget, a short one was
    // written as `- paragraph (folded: 1 text)`, which is as long as "Snacks: an apple".
    let day = |i: u32| {
        format!(
            "<h2>Day {i}</h2><p>Breakfast {i}: {}</p><p><b>Snacks:</b> an apple</p>",
            "porridge with milk and a sliced banana, ".repeat(4)
        )
    };
    let html = format!(
        "<main><h1>Menus</h1>{}</main>",
        (0..30).map(day).collect::<String>()
    );
    let r = snapshot_within(&html, 3_000);
    let breakfasts = r.text.matches("- paragraph: Breakfast").count();
    assert!(breakfasts >= 5, "{}", r.text);
    let snacks = r.text.matches("- paragraph: Snacks: an apple").count();
    assert!(snacks >= breakfasts, "{}", r.text);
    assert!(r.text.chars().count() <= 3_000);
    // When every stub unfolds and no line is cut, nothing is left out, and the snapshot
    // says so, whatever the budget.
    let small = "<main><h1>Title</h1><p>One two.</p><p>Note: yes</p><p>Three.</p></main>";
    let mut whole = 0;
    for chars in (200..=400).step_by(5) {
        let r = snapshot_within(small, chars);
        let left_out = r.text.contains("(folded") || r.text.contains('…');
        assert_eq!(r.stats.truncated, left_out, "at {chars}:\n{}", r.text);
        whole += usize::from(!left_out);
    }
    assert!(whole > 0);
}

#[test]
fn the_pages_data_prints_under_the_header_bounded() {
    let mut tree = list_tree(2);
    tree.data = Some("[data] [type=Product] [price=129.00 EUR]".into());
    let text = render(&tree, &RenderOptions::default()).text;
    let second = text.lines().nth(1).unwrap_or_default();
    assert_eq!(second, "[data] [type=Product] [price=129.00 EUR]", "{text}");
    let json = render(
        &tree,
        &RenderOptions {
            format: Format::Json,
            ..Default::default()
        },
    )
    .text;
    assert!(
        json.contains(r#""data":"[data] [type=Product] [price=129.00 EUR]""#),
        "{json}"
    );
    // A tree made elsewhere (the script's JSON) is held to one line of 300 characters, and
    // the whole output to its budget.
    tree.data = Some(format!("[data]\n{}", "x".repeat(5_000)));
    let opts = RenderOptions {
        max_chars_total: 400,
        ..Default::default()
    };
    let r = render(&tree, &opts);
    let line = r.text.lines().nth(1).unwrap_or_default();
    assert!(
        line.starts_with("[data] x") && line.chars().count() <= 300,
        "{}",
        r.text
    );
    assert!(r.text.chars().count() <= 400, "{}", r.text);
}
