//! How far the renderer's fallback for trees nobody marked (render/plan.rs `main_landmark`:
//! the page's largest `main` landmark, else the whole page) agrees with the content stage,
//! which marks the trees of both producers in this crate. Measured on web2025 (skipped where
//! `../shared/web2025` is absent):
//!
//! `cargo test --release --test main_fallback -- --ignored --nocapture`

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;

use agent_snapshot::{Document, TreeNode, TreeOptions};

/// Characters of text in a subtree.
fn text_of(node: &TreeNode) -> usize {
    node.descendants()
        .map(|n| n.text.as_deref().map_or(0, str::len))
        .sum()
}

/// Where the fallback stands to the content stage's marks on one page's tree.
fn verdict(tree: &TreeNode) -> &'static str {
    let landmark = tree
        .descendants()
        .filter(|n| n.role.as_deref() == Some("main"))
        .map(|n| (text_of(n), n as *const TreeNode))
        .filter(|(text, _)| *text > 0)
        .max_by_key(|(text, _)| *text)
        .map(|(_, n)| n);
    if tree.main {
        return match landmark {
            None => "agree: the whole page is the content, and no landmark",
            Some(_) => "differ: the whole page is the content, the fallback a landmark",
        };
    }
    // Marked nodes inside the landmark, and outside it.
    let (mut inside, mut outside) = (0, 0);
    let mut stack = vec![(tree, false)];
    while let Some((node, in_landmark)) = stack.pop() {
        let here = in_landmark || landmark == Some(node as *const TreeNode);
        if node.main && !node.left_out {
            if here {
                inside += 1;
            } else {
                outside += 1;
            }
        }
        stack.extend(node.children.iter().map(|c| (c, here)));
    }
    match (landmark, inside, outside) {
        (_, 0, 0) => "none: the content stage found no content",
        (None, _, _) => "broader: no landmark, the fallback ranks the whole page",
        (Some(_), _, 0) => "agree: the landmark holds all the content",
        (Some(_), 0, _) => "differ: the landmark holds none of the content",
        (Some(_), _, _) => "partly: the landmark holds part of the content",
    }
}

#[test]
#[ignore]
fn main_landmark_fallback_against_the_content_stage() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/web2025/pages");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        eprintln!("skipped: no {}", dir.display());
        return;
    };
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for entry in entries.flatten() {
        let mut html = Vec::new();
        let file = std::fs::File::open(entry.path()).expect("page");
        flate2::read::GzDecoder::new(file)
            .read_to_end(&mut html)
            .expect("gzip");
        let doc = Document::parse_bytes(html, &TreeOptions::default()).expect("page");
        *counts.entry(verdict(&doc.tree().tree)).or_default() += 1;
    }
    for (what, n) in &counts {
        println!("{n:4}  {what}");
    }
}
