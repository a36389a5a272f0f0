//! Floors on how much of a page's main text `read` and the snapshot carry, measured by the
//! shared sets' own scorers (`../shared/reading/score.py`, `../shared/web2025/score.py`,
//! `../shared/trafeval/score.py`: word 4-grams, precision and recall averaged over pages, F1
//! of the two means) on the command this build makes. Skipped when `../shared` or `python3`
//! is absent.
//!
//! The floors are issue 25's targets where they are met (the reading set's `read`: precision
//! and recall 0.96; the default snapshot's recall 0.85) and, elsewhere, a little under the
//! figures of the commit that set them (b141768, moved up with issue 44's figures): a rule that helps articles and loses forum
//! threads or product pages fails here, per page type, rather than in a later measurement.
//! Outputs are deterministic, so a floor fails only when the output changed.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_agent-snapshot");

/// `read` unbudgeted on web2025: F1 per page type at least (blog has one page, left out).
const WEB2025_READ_F1: &[(&str, f64)] = &[
    ("article", 0.94),
    ("documentation", 0.81),
    ("service", 0.77),
    ("forum", 0.73),
    ("listing", 0.68),
    ("product", 0.57),
    ("collection", 0.49),
    ("ALL", 0.80),
];

/// The folder of a shared set, or `None` (with a note) when it or `python3` is absent.
fn shared(set: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared")
        .join(set);
    if !dir.join("score.py").is_file() {
        eprintln!("skipping: {} is absent", dir.display());
        return None;
    }
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("skipping: python3 is not installed (the shared scorers are Python)");
        return None;
    }
    Some(dir)
}

/// The scorer's JSON summary of `args` (the CLI's arguments, `{page}` for the page).
fn score(dir: &Path, args: &str) -> Value {
    let out = Command::new("python3")
        .arg(dir.join("score.py"))
        .args(["--cmd", &format!("{BIN} {args}"), "--json"])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "score.py failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap_or_default();
    serde_json::from_str(last).unwrap_or_else(|e| panic!("score.py printed {last:?}: {e}"))
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("no {key} in {v}"))
}

#[test]
fn reading_set_floors() {
    let Some(dir) = shared("reading") else {
        return;
    };
    let read = score(&dir, "read --max-chars 1000000 {page}");
    assert_eq!(num(&read, "failed"), 0.0, "{read}");
    assert!(num(&read, "precision") >= 0.96, "read precision: {read}");
    assert!(num(&read, "recall") >= 0.96, "read recall: {read}");
    let snapshot = score(&dir, "snapshot {page}");
    assert_eq!(num(&snapshot, "failed"), 0.0, "{snapshot}");
    assert!(
        num(&snapshot, "recall") >= 0.85,
        "snapshot recall: {snapshot}"
    );
}

#[test]
fn web2025_floors() {
    let Some(dir) = shared("web2025") else {
        return;
    };
    let read = score(&dir, "read --max-chars 1000000 {page}");
    for &(kind, floor) in WEB2025_READ_F1 {
        let row = &read[kind];
        assert_eq!(num(row, "failed"), 0.0, "{kind}: {row}");
        assert!(
            num(row, "f1") >= floor,
            "read F1 on {kind} under {floor}: {row}"
        );
    }
    let all = &read["ALL"];
    assert!(num(all, "empty") <= 14.0, "empty reads: {all}");
    assert!(num(all, "without_found") <= 0.08, "boilerplate read: {all}");
    let budgeted = &score(&dir, "read {page}")["ALL"];
    assert!(
        num(budgeted, "with_found") >= 0.79,
        "read at 12 000 characters: {budgeted}"
    );
    let snapshots = score(&dir, "snapshot {page}");
    let snapshot = &snapshots["ALL"];
    assert_eq!(num(snapshot, "failed"), 0.0, "{snapshot}");
    assert!(num(snapshot, "f1") >= 0.66, "snapshot F1: {snapshot}");
    assert!(
        num(snapshot, "with_found") >= 0.765,
        "snapshot `with`: {snapshot}"
    );
    // A script-built shop's snapshot says what its data declares (0.694 at 4da8e89).
    let product = &snapshots["product"];
    assert!(
        num(product, "with_found") >= 0.68,
        "snapshot `with` on products: {product}"
    );
}

#[test]
fn trafeval_floors() {
    // Trafilatura's own evaluation set (older layouts, many languages): issue 44's figures at
    // 5a5a8f7, a little under (F1 0.912, precision 0.873, 7 pages lost; trafilatura loses 9).
    let Some(dir) = shared("trafeval") else {
        return;
    };
    let read = score(&dir, "read --max-chars 1000000 {page}");
    assert_eq!(num(&read, "failed"), 0.0, "{read}");
    assert!(num(&read, "f1") >= 0.909, "read F1: {read}");
    assert!(num(&read, "precision") >= 0.871, "read precision: {read}");
    assert!(num(&read, "lost") <= 9.0, "pages lost: {read}");
}
