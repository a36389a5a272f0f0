//! Helpers shared by integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repo's own corpus pages.
pub fn repo_pages() -> Vec<PathBuf> {
    html_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus"))
}

/// `../shared/corpus` pages, or `None` (with a note on stderr) when the folder is absent.
pub fn shared_pages() -> Option<Vec<PathBuf>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus");
    if !dir.is_dir() {
        eprintln!(
            "skipping ../shared/corpus checks: {} is absent",
            dir.display()
        );
        return None;
    }
    Some(html_files(&dir))
}

fn html_files(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "html"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}
