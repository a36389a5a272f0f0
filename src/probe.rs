//! Role / name / hidden answers for one element, for conformance suites and for comparing
//! with a browser's accessibility tree.
//!
//! Input, one JSON object per line: `{"id", "html", "selector"}`. Output, one per line:
//! `{"id", "role", "name", "description", "hidden"}`, or the same with an `error` field when
//! the line cannot be answered (bad JSON, bad selector, no match). A bad line never stops a
//! run.

use serde::{Deserialize, Serialize};

use crate::aria::hidden::is_hidden;
use crate::aria::name::Names;
use crate::aria::roles::role;
use crate::aria::Index;
use crate::parse::select::Selector;
use crate::parse::Dom;

/// Longest name or description a probe returns, in characters.
const PROBE_TEXT_LIMIT: usize = 10_000;

#[derive(Deserialize)]
struct Case {
    #[serde(default)]
    id: serde_json::Value,
    html: String,
    selector: String,
}

/// One answer.
#[derive(Serialize, Debug, Default, PartialEq, Eq)]
pub struct ProbeResult {
    /// The case id, echoed (any JSON value; `null` when the line had none).
    pub id: serde_json::Value,
    /// The computed role; empty for generic or no role.
    pub role: String,
    pub name: String,
    pub description: String,
    /// Whether the element is hidden from people (and so from the snapshot).
    pub hidden: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Answers one input line.
pub fn probe_line(line: &str) -> ProbeResult {
    let case: Case = match serde_json::from_str(line) {
        Ok(c) => c,
        Err(e) => {
            // Echo the id if the line is JSON with one, so results stay joinable.
            let id = serde_json::from_str::<serde_json::Value>(line)
                .ok()
                .and_then(|v| v.get("id").cloned())
                .unwrap_or_default();
            return ProbeResult {
                id,
                error: Some(format!(
                    "bad input line: {e}; expected {{\"id\", \"html\", \"selector\"}}"
                )),
                ..Default::default()
            };
        }
    };
    let mut result = ProbeResult {
        id: case.id,
        ..Default::default()
    };
    let selector = match Selector::parse(&case.selector) {
        Ok(s) => s,
        Err(e) => {
            result.error = Some(e.to_string());
            return result;
        }
    };
    let dom = Dom::parse(&case.html);
    let Some(target) = selector.first(&dom) else {
        result.error = Some(format!("no element matches {:?}", case.selector));
        return result;
    };
    let index = Index::build(&dom);
    let names = Names::new(&dom, &index, PROBE_TEXT_LIMIT);
    let r = role(&dom, &index, target);
    result.role = r.unwrap_or("").to_string();
    result.name = names.name(target, r);
    result.description = names.description(target, &result.name);
    result.hidden = is_hidden(&dom, index.styles(), target).is_some();
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_and_errors() {
        let r = probe_line(
            r#"{"id":"a","html":"<button aria-describedby=d>Go</button><p id=d>Now</p>","selector":":root button"}"#,
        );
        assert_eq!(
            (
                r.role.as_str(),
                r.name.as_str(),
                r.description.as_str(),
                r.hidden
            ),
            ("button", "Go", "Now", false)
        );
        let r = probe_line(r#"{"id":7,"html":"<p>","selector":"div"}"#);
        assert_eq!(r.id, serde_json::json!(7));
        assert!(r.error.is_some_and(|e| e.contains("no element")));
        assert!(probe_line(r#"{"id":"x","html":"","selector":"::"}"#)
            .error
            .is_some());
        let bad = probe_line("{not json");
        assert!(bad.error.is_some_and(|e| e.contains("bad input line")));
    }
}
