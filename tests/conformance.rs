//! Role / name / hidden conformance on `../shared/conformance/aria_dev.jsonl` (skipped when
//! absent), scored the way its `score.py` scores: names compared after collapsing ASCII
//! whitespace, `img` = `image`, `presentation` = `none`.

use agent_snapshot::probe::probe_line;

fn norm(s: &str) -> String {
    s.split([' ', '\t', '\n', '\x0C', '\r'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn canonical_role(r: &str) -> String {
    match r.trim().to_ascii_lowercase().as_str() {
        "img" => "image".into(),
        "presentation" => "none".into(),
        other => other.into(),
    }
}

#[test]
fn headline_subset_scores_at_least_97_percent() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/conformance/aria_dev.jsonl"
    );
    let Ok(cases) = std::fs::read_to_string(path) else {
        eprintln!("skipping conformance: {path} is absent");
        return;
    };
    let (mut passed, mut total) = (0usize, 0usize);
    let mut failures = Vec::new();
    for line in cases.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value = serde_json::from_str(line).expect("case json");
        if !(case["offline_decidable"] == true && case["browser_agrees"] == true) {
            continue;
        }
        total += 1;
        let got = probe_line(line);
        let mut ok = got.error.is_none();
        if let Some(name) = case["expected_name"].as_str() {
            ok &= norm(&got.name) == norm(name);
        }
        if let Some(role) = case["expected_role"].as_str() {
            let accepted: Vec<String> = case["accepted_roles"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|r| r.as_str())
                        .map(canonical_role)
                        .collect()
                })
                .unwrap_or_else(|| vec![canonical_role(role)]);
            ok &= accepted.contains(&canonical_role(&got.role));
        }
        if let Some(hidden) = case["expected_hidden"].as_bool() {
            ok &= got.hidden == hidden;
        }
        if ok {
            passed += 1;
        } else {
            failures.push(format!("{}: got {:?}", case["id"], got));
        }
    }
    let score = passed as f64 / total as f64;
    eprintln!(
        "conformance headline: {passed}/{total} ({:.1}%)",
        score * 100.0
    );
    assert!(total > 200, "the headline subset has {total} cases");
    assert!(
        score >= 0.97,
        "{passed}/{total}; failures:\n{}",
        failures.join("\n")
    );
}
