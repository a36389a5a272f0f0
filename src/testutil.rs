//! Helpers shared by the unit tests of several stages.

use std::path::PathBuf;

/// A paragraph the content stage scores: over a hundred characters, with commas.
pub const PROSE: &str = "This paragraph is long enough to count, with commas, clauses, and more \
                         than a hundred characters of running text in it.";

/// Every page of the repo's `corpus/` and, when `../shared` is beside the repo, of
/// `../shared/corpus`, decoded to text, in a fixed order.
pub fn corpus_pages() -> Vec<(PathBuf, String)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut pages = Vec::new();
    for dir in [root.join("corpus"), root.join("../shared/corpus")] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            eprintln!("skipping {}: not present", dir.display());
            continue;
        };
        pages.extend(
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|e| e == "html")),
        );
    }
    pages.sort();
    pages
        .into_iter()
        .map(|page| {
            let bytes = std::fs::read(&page).expect("read page");
            let html = crate::parse::encoding::decode(&bytes, None)
                .text
                .into_owned();
            (page, html)
        })
        .collect()
}

/// A story above its comments, which outweigh it: the content found is the comments, and
/// the block holding the headline (`div#lead`), a few levels up from the story's `lead`, is
/// not their sibling (a thread's first post in its own column).
pub fn story_with_comments(lead: &str) -> String {
    let comments: String = (1..=6)
        .map(|n| {
            format!(
                "<div class=cw><div class=body><p>Comment {n}: {}</p></div></div>",
                PROSE.repeat(3)
            )
        })
        .collect();
    format!(
        "<div class=layout><div id=lead class=a><div class=b><div class=top>\
         <h1>Whether to convert the kernel</h1><p class=byline>Posted by an editor on \
         Friday</p>{lead}</div></div></div><div class=discussion><div class=wrap>\
         <div class=listing>{comments}</div></div></div></div>"
    )
}
