//! `look {"diff": true}`: what changed since the previous look, from the two looks' rendered
//! lines. Refs last ([`super::refs`]), so a line that reads the same names the same element,
//! and a line diff of the texts is a diff of the page: lines new or changed since then print
//! in place (`+` for `-`), with the unchanged lines above them that locate them (their
//! ancestors, by indentation); every other run of unchanged lines folds into one line that
//! names its refs, which stay valid. The renderer is not touched: the diff is of its output,
//! under the look's own budget.

use std::collections::{BTreeMap, HashSet};
use std::fmt::Write as _;

use serde_json::{json, Value};

use super::session::Session;
use crate::js;

/// The longest stretch (old lines × new lines, after the common head and tail) the line
/// matcher takes on: past it, most of the page changed anyway, and a full look is the answer.
const MAX_CELLS: usize = 4_000_000;

/// Past this share of the page's lines new or changed, the diff saves little: a full look.
const MOST_CHANGED: f64 = 0.5;

/// The most characters a whole look's header gains by saying why (`[snapshot, whole: most of
/// the page changed since look N (N of N lines)]`, about 85): a look asked for a diff renders
/// this much under its budget, so either answer keeps to the budget.
pub(super) const WHY_ROOM: usize = 100;

/// A diff of two snapshot texts (header line first), or why it is no better than a full look.
#[derive(Debug, PartialEq)]
pub(super) enum Diff {
    Lines {
        /// The diff's text: its header, then the lines.
        text: String,
        /// New or changed lines.
        changed: usize,
        /// Unchanged lines folded away.
        folded: usize,
    },
    /// Why the full look goes out instead.
    Full(String),
}

/// A look's text as the caller got it (whole, or as a diff of it), for the next diff.
pub(super) struct Seen {
    look: u64,
    /// The tab document it was of (ledger index).
    doc: Option<usize>,
    text: String,
}

impl Session {
    /// What a look sends: `text` (this look's snapshot) itself, or with `diff` its diff
    /// against the previous look (`{against}`), or `text` with a header saying why it is
    /// whole (`{full}`). Either way `text` is what the next diff compares with.
    pub(super) async fn diff_look(&mut self, text: String, diff_wanted: bool) -> (String, Value) {
        let seen = Seen {
            look: self.looks,
            doc: self.tab().looked.first().copied(),
            text,
        };
        let previous = self.seen.replace(seen);
        let Some(text) = self.seen.as_ref().map(|s| s.text.clone()) else {
            return (String::new(), Value::Null);
        };
        if !diff_wanted {
            return (text, Value::Null);
        }
        let why = match previous {
            None => "no earlier look to compare with".to_string(),
            Some(p) if p.doc != self.seen.as_ref().and_then(|s| s.doc) => {
                format!("a new document since look {}", p.look)
            }
            Some(p) => {
                let now: HashSet<String> = refs_in(&text.lines().collect::<Vec<_>>())
                    .into_iter()
                    .collect();
                let gone: Vec<String> = refs_in(&p.text.lines().collect::<Vec<_>>())
                    .into_iter()
                    .filter(|r| !now.contains(r))
                    .collect();
                let left = self.left_of(&gone).await;
                let hidden: Vec<String> = gone.into_iter().filter(|r| !left.contains(r)).collect();
                match diff(&p.text, &text, p.look, &left) {
                    Diff::Lines { mut text, .. } => {
                        if !hidden.is_empty() {
                            let _ = write!(
                                text,
                                "\nno longer shown (hidden, or past the budget): {}",
                                hidden.join(" ")
                            );
                        }
                        // Fewer characters than the whole look, so within its budget.
                        let whole = self.seen.as_ref().map_or(0, |s| s.text.chars().count());
                        if text.chars().count() < whole {
                            return (text, json!({"against": p.look, "left": left}));
                        }
                        "the diff is no shorter than the look".to_string()
                    }
                    Diff::Full(why) => why,
                }
            }
        };
        let marked = match text.strip_prefix("[snapshot]") {
            Some(rest) => format!("[snapshot, whole: {why}]{rest}"),
            None => format!("[snapshot, whole: {why}]\n{text}"),
        };
        (marked, json!({"full": why}))
    }

    /// Of these refs, those whose element left the page (the script no longer finds it in
    /// its document, or the ref is stale).
    pub(super) async fn left_of(&self, refs: &[String]) -> Vec<String> {
        let mut by_doc: BTreeMap<Option<usize>, Vec<(String, String)>> = BTreeMap::new();
        let mut left = Vec::new();
        for r in refs {
            match self.resolve(r) {
                Ok(t) => by_doc.entry(t.frame).or_default().push((r.clone(), t.page)),
                Err(_) => left.push(r.clone()),
            }
        }
        for (doc, pairs) in by_doc {
            let marks: Vec<&str> = pairs.iter().map(|(_, m)| m.as_str()).collect();
            let expr = format!(
                "JSON.stringify({}.map(m => !(window.__agentBrowser && window.__agentBrowser.find(m))))",
                js::js_literal(&marks)
            );
            // A document that does not answer: its refs are taken as still there (the next
            // act on one says if not).
            let Ok(json) = self.eval_json_in(self.reach(doc), &expr).await else {
                continue;
            };
            let gone: Vec<bool> = serde_json::from_str(&json).unwrap_or_default();
            left.extend(
                pairs
                    .into_iter()
                    .zip(gone)
                    .filter(|(_, g)| *g)
                    .map(|((r, _), _)| r),
            );
        }
        left
    }
}

/// The diff of `new` (this look's text) against `old` (look `against`'s), `gone` the refs of
/// `old` no longer in the page. The header is `new`'s, its `[snapshot]` marked as a diff.
pub(super) fn diff(old: &str, new: &str, against: u64, gone: &[String]) -> Diff {
    let (_, old_body) = split_header(old);
    let (header, new_body) = split_header(new);
    let old_lines: Vec<&str> = old_body.lines().collect();
    let new_lines: Vec<&str> = new_body.lines().collect();
    let Some(same) = matched(&old_lines, &new_lines) else {
        return Diff::Full(format!("most of the page changed since look {against}"));
    };
    let changed = same.iter().filter(|s| !**s).count();
    if new_lines.is_empty() || changed as f64 > MOST_CHANGED * new_lines.len() as f64 {
        return Diff::Full(format!(
            "most of the page changed since look {against} ({changed} of {} lines)",
            new_lines.len()
        ));
    }
    // Shown: the changed lines and, for each, its ancestors (the nearest line above with less
    // indentation, and so on up).
    let mut shown = same.iter().map(|s| !s).collect::<Vec<bool>>();
    for i in (0..new_lines.len()).filter(|i| !same[*i]) {
        let mut depth = indent(new_lines[i]);
        for j in (0..i).rev() {
            if depth == 0 {
                break;
            }
            let d = indent(new_lines[j]);
            if d < depth {
                shown[j] = true;
                depth = d;
            }
        }
    }
    let rest = header.strip_prefix("[snapshot]").unwrap_or(header).trim();
    let mut text = format!(
        "[diff against look {against}] {changed} new or changed (+), {} left{}{rest}",
        gone.len(),
        if rest.is_empty() { "" } else { "; " }
    );
    let mut folded = 0;
    let mut i = 0;
    while i < new_lines.len() {
        if shown[i] {
            let line = new_lines[i];
            text.push('\n');
            if same[i] {
                text.push_str(line);
            } else {
                // `- ` becomes `+ ` at the line's indentation: the same line, marked.
                let d = indent(line);
                text.push_str(&line[..d]);
                text.push_str("+ ");
                text.push_str(line[d..].strip_prefix("- ").unwrap_or(&line[d..]));
            }
            i += 1;
            continue;
        }
        let start = i;
        while i < new_lines.len() && !shown[i] {
            i += 1;
        }
        folded += i - start;
        let run = &new_lines[start..i];
        let d = run.iter().map(|l| indent(l)).min().unwrap_or(0);
        let refs = refs_in(run);
        let _ = write!(
            text,
            "\n{:d$}… {} unchanged line{}",
            "",
            run.len(),
            if run.len() == 1 { "" } else { "s" }
        );
        match refs.as_slice() {
            [] => {}
            [one] => {
                let _ = write!(text, " ({one})");
            }
            [first, .., last] => {
                let _ = write!(text, " ({} refs, {first}…{last})", refs.len());
            }
        }
    }
    if !gone.is_empty() {
        let _ = write!(text, "\nleft the page: {}", gone.join(" "));
    }
    Diff::Lines {
        text,
        changed,
        folded,
    }
}

/// The header line and the rest.
fn split_header(text: &str) -> (&str, &str) {
    match text.split_once('\n') {
        Some((head, body)) if head.starts_with('[') => (head, body),
        _ if text.starts_with('[') => (text, ""),
        _ => ("", text),
    }
}

fn indent(line: &str) -> usize {
    line.len() - line.trim_start_matches(' ').len()
}

/// For each new line, whether it is matched, unchanged, to an old one (a longest common
/// subsequence, after the common head and tail); `None` when the stretch between is too
/// large to match.
fn matched(old: &[&str], new: &[&str]) -> Option<Vec<bool>> {
    let head = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let tail = old[head..]
        .iter()
        .rev()
        .zip(new[head..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (&old[head..old.len() - tail], &new[head..new.len() - tail]);
    let mut same = vec![true; new.len()];
    if a.len().checked_mul(b.len())? > MAX_CELLS {
        return None;
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], one row of b per a.
    let w = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while j < b.len() {
        if i < a.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if i < a.len() && lcs[(i + 1) * w + j] >= lcs[i * w + j + 1] {
            i += 1;
        } else {
            same[head + j] = false;
            j += 1;
        }
    }
    Some(same)
}

/// The refs a run of lines shows (`[ref=e5]`, and `(e5)` of inline links), in order.
pub(super) fn refs_in(lines: &[&str]) -> Vec<String> {
    let mut refs = Vec::new();
    for line in lines {
        let mut rest = *line;
        while let Some(at) = rest.find(['=', '(']) {
            let after = &rest[at + 1..];
            let digits = after
                .strip_prefix('e')
                .map(|d| d.bytes().take_while(u8::is_ascii_digit).count())
                .unwrap_or(0);
            let closes = after.as_bytes().get(1 + digits).copied();
            let opener_ok = (rest.as_bytes()[at] == b'=' && rest[..at].ends_with("ref"))
                || rest.as_bytes()[at] == b'(';
            if digits > 0 && opener_ok && matches!(closes, Some(b']') | Some(b')')) {
                refs.push(after[..1 + digits].to_string());
            }
            rest = after;
        }
    }
    refs
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "[snapshot] title=\"Shop\" main=e4 nodes=9 truncated=false
- banner [ref=e1]:
  - navigation [ref=e2]: [New](e5) [Sale](e6)
  - link \"Cart (0)\" [href=/cart] [ref=e3]
- main [ref=e4]:
  - article [ref=e7]:
    - heading \"Product 1\" [level=3] [ref=e8]
    - button \"Add to cart\" [ref=e9]
  - article [ref=e10]:
    - heading \"Product 2\" [level=3] [ref=e11]
    - button \"Add to cart\" [ref=e12]
  - article [ref=e13]:
    - heading \"Product 3\" [level=3] [ref=e14]
    - button \"Add to cart\" [ref=e15]";

    #[test]
    fn a_small_change_prints_in_place_with_its_ancestors_and_folds_the_rest() {
        let after = BEFORE
            .replace("Cart (0)", "Cart (1)")
            .replace(
                "- main [ref=e4]:\n",
                "- main [ref=e4]:\n  - status [ref=e16]: Added Product 2\n",
            )
            .replace("nodes=9", "nodes=10");
        let Diff::Lines {
            text,
            changed,
            folded,
        } = diff(BEFORE, &after, 3, &["e20".to_string()])
        else {
            panic!("a diff")
        };
        assert_eq!(changed, 2);
        assert_eq!(folded, 10);
        assert_eq!(
            text,
            "[diff against look 3] 2 new or changed (+), 1 left; title=\"Shop\" main=e4 \
             nodes=10 truncated=false
- banner [ref=e1]:
  … 1 unchanged line (3 refs, e2…e6)
  + link \"Cart (1)\" [href=/cart] [ref=e3]
- main [ref=e4]:
  + status [ref=e16]: Added Product 2
  … 9 unchanged lines (9 refs, e7…e15)
left the page: e20"
        );
    }

    #[test]
    fn no_change_is_one_fold_and_most_changed_is_a_full_look() {
        let Diff::Lines { text, changed, .. } = diff(BEFORE, BEFORE, 1, &[]) else {
            panic!("a diff")
        };
        assert_eq!(changed, 0);
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.ends_with("\n… 13 unchanged lines (15 refs, e1…e15)"));
        let other = "[snapshot] title=\"Other\"\n- heading \"Elsewhere\" [ref=e30]\n\
                     - paragraph: new page";
        match diff(BEFORE, other, 1, &[]) {
            Diff::Full(why) => assert!(why.contains("most of the page changed since look 1")),
            d => panic!("{d:?}"),
        }
    }

    #[test]
    fn refs_are_read_from_ref_attributes_and_inline_links_only() {
        assert_eq!(
            refs_in(&["- link \"x=e5\" [ref=e7]: [A](e8) (e9 and) [B](e10)"]),
            ["e7", "e8", "e10"]
        );
    }
}
