//! Helpers shared by the unit tests of several stages.

use std::path::PathBuf;

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
