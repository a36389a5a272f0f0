//! The design's wire format (`{"command": "eval", "payload": "agent.look()"}`): each call
//! parsed by [`crate::agent_call`] runs as the protocol's command and answers with the
//! design's payloads.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use super::commands::actions_for;
use super::session::Session;
use super::{AgentError, Code, Result};
use crate::agent_call::{self, Call};
use crate::aria::roles::{category, Category};
use crate::Ref;

impl Session {
    /// Runs one call of the design's format (`agent.look()`, `agent.act('e1', 'click')`…) and
    /// answers with the design's payloads: `look` `{url, title, tree, actions}`, `read`
    /// `{url, title, text, next}`, `act`
    /// `{changed}`, `go` `{url, title}`, `wait` `{elapsed}`, `eval` `{value}`, `handoff`
    /// `{resumed, elapsed}`.
    ///
    /// Dialogs and tabs as in the protocol: while a dialog is open every call but
    /// `agent.dialog` is `DIALOG_OPEN`; an `act` that opened a dialog or a tab says so
    /// (`dialog`, `tab`), and dialogs answered by the `--dialogs` policy are listed
    /// (`dialogs`).
    pub async fn eval_call(&mut self, payload: &str) -> Result<Value> {
        let call = agent_call::parse(payload).map_err(|e| AgentError::new(Code::InvalidArgs, e))?;
        if !matches!(call, Call::Dialog { .. }) {
            self.dialog_gate()?;
        }
        let done = self.design_call(call).await;
        self.with_reported(done)
    }

    async fn design_call(&mut self, call: Call) -> Result<Value> {
        let mut args = Map::new();
        match call {
            Call::Look {
                scope,
                viewport,
                diff,
            } => self.design_look(scope, viewport, diff).await,
            Call::Read { max_chars, from } => {
                if let Some(max) = max_chars {
                    args.insert("max_chars".into(), Value::from(max));
                }
                if let Some(from) = from {
                    args.insert("from".into(), Value::from(from));
                }
                let done = self.read(&args).await?;
                Ok(
                    json!({"url": done["url"], "title": done["title"], "text": done["text"],
                          "next": done["next"]}),
                )
            }
            Call::Act { ref_, op, value } => {
                // The design's `input` is this protocol's `fill`; select takes one value or
                // several; the value of a drag is the ref to drop on, an upload's its files
                // (one path or several), a long press's how long to hold (ms).
                let op = if op == "input" {
                    "fill".to_string()
                } else {
                    op
                };
                args.insert("ref".into(), Value::from(ref_));
                match (op.as_str(), value) {
                    (_, None) => {}
                    ("select", Some(Value::Array(values))) => {
                        args.insert("values".into(), Value::Array(values));
                    }
                    ("press_key", Some(key)) => {
                        args.insert("key".into(), key);
                    }
                    ("long_press", Some(ms)) => {
                        args.insert("duration_ms".into(), ms);
                    }
                    ("drag", Some(to)) => {
                        args.insert("to".into(), to);
                    }
                    ("upload", Some(Value::String(file))) => {
                        args.insert("files".into(), json!([file]));
                    }
                    ("upload", Some(files)) => {
                        args.insert("files".into(), files);
                    }
                    (_, Some(value)) => {
                        args.insert("value".into(), value);
                    }
                }
                args.insert("op".into(), Value::from(op));
                let done = self.act(&args).await?;
                let mut out = json!({"changed": done["changed"]});
                for key in ["dialog", "tab"] {
                    if let Some(v) = done.get(key) {
                        out[key] = v.clone();
                    }
                }
                Ok(out)
            }
            Call::Go { url } => {
                args.insert("url".into(), Value::from(url));
                let done = self.go(&args).await?;
                Ok(json!({"url": done["url"], "title": done["title"]}))
            }
            Call::Wait {
                condition,
                timeout_ms,
            } => {
                let key = if Ref::parse(&condition).is_some() {
                    "ref"
                } else {
                    "js"
                };
                args.insert(key.into(), Value::from(condition));
                if let Some(ms) = timeout_ms {
                    args.insert("timeout_ms".into(), Value::from(ms));
                }
                let done = self.wait(&args).await?;
                Ok(json!({"elapsed": done["waited_ms"]}))
            }
            Call::Eval { js } => {
                args.insert("js".into(), Value::from(js));
                self.eval(&args).await
            }
            Call::Handoff {
                message,
                timeout_ms,
            } => {
                args.insert("message".into(), Value::from(message));
                if let Some(ms) = timeout_ms {
                    args.insert("timeout_ms".into(), Value::from(ms));
                }
                self.handoff(&args).await
            }
            Call::Dialog { accept, text } => {
                args.insert("accept".into(), Value::Bool(accept));
                if let Some(text) = text {
                    args.insert("text".into(), Value::from(text));
                }
                self.dialog(&args).await
            }
            Call::Tabs => self.tabs(&args).await,
            Call::Tab { index } => {
                args.insert("index".into(), Value::from(index));
                self.switch_tab(&args).await
            }
            Call::CloseTab => self.close_tab(&args).await,
        }
    }

    /// The design's `look()`: `tree` is one `role:name[ref]` string per element a person can
    /// operate, in document order; `actions` names each one's operations as the design does.
    /// With `diff`, `tree` holds only the entries not in the previous `look()`'s tree, and
    /// `diff` says against which look, how many entries are unchanged (their refs act as
    /// before) and which refs left (or `{full: why}` when the tree is whole).
    pub(super) async fn design_look(
        &mut self,
        scope: Option<String>,
        viewport: bool,
        diff: bool,
    ) -> Result<Value> {
        let tree = self.look_tree(scope, true, viewport).await?;
        let mut lines = Vec::new();
        let mut actions = Map::new();
        let mut stack = vec![&tree.tree];
        while let Some(node) = stack.pop() {
            stack.extend(node.children.iter().rev());
            let (Some(r), Some(role)) = (node.ref_, node.role.as_deref()) else {
                continue;
            };
            if !node.cursor_interactive && category(role) != Category::Interactive {
                continue;
            }
            let name = node.name.as_deref().unwrap_or_default();
            lines.push(Value::from(format!("{role}:{name}[{r}]")));
            actions.insert(r.to_string(), json!(design_actions(role)));
        }
        let seen = SeenTree {
            look: self.looks,
            doc: self.tab().looked.first().copied(),
            lines: lines.clone(),
        };
        let previous = self.seen_design.replace(seen);
        let (url, title) = self.url_title().await;
        let mut done = json!({"url": url, "title": title, "tree": lines, "actions": actions});
        if !diff {
            return Ok(done);
        }
        done["diff"] = match previous {
            None => json!({"full": "no earlier look to compare with"}),
            Some(p) if p.doc != self.tab().looked.first().copied() => {
                json!({"full": format!("a new document since look {}", p.look)})
            }
            Some(p) => {
                let before: HashSet<&Value> = p.lines.iter().collect();
                let (same, new): (Vec<Value>, Vec<Value>) =
                    lines.into_iter().partition(|l| before.contains(l));
                let now: HashSet<String> = same.iter().chain(&new).filter_map(entry_ref).collect();
                let gone: Vec<String> = p
                    .lines
                    .iter()
                    .filter_map(entry_ref)
                    .filter(|r| !now.contains(r))
                    .collect();
                let left = self.left_of(&gone).await;
                let kept: HashSet<String> = new.iter().filter_map(entry_ref).collect();
                if let Some(map) = done["actions"].as_object_mut() {
                    map.retain(|r, _| kept.contains(r));
                }
                done["tree"] = Value::Array(new);
                json!({"against": p.look, "unchanged": same.len(), "left": left})
            }
        };
        Ok(done)
    }
}

/// The design format's latest `look()` tree, for the next `look({diff: true})`.
pub(super) struct SeenTree {
    look: u64,
    doc: Option<usize>,
    lines: Vec<Value>,
}

/// The ref of a `role:name[ref]` entry.
fn entry_ref(entry: &Value) -> Option<String> {
    let s = entry.as_str()?;
    let open = s.rfind('[')?;
    Some(s[open + 1..].strip_suffix(']')?.to_string())
}

/// The design's names for the operations of a role: `input` for `fill`; operations the
/// design has no name for are left out (the protocol's `act` still takes them).
fn design_actions(role: &str) -> Vec<&'static str> {
    actions_for(role)
        .iter()
        .filter_map(|op| match *op {
            "fill" => Some("input"),
            "clear" | "focus" | "click" | "check" | "uncheck" | "select" => Some(*op),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_entrys_ref_is_its_last_bracket() {
        assert_eq!(
            entry_ref(&json!("button:Save [draft][e12]")),
            Some("e12".into())
        );
        assert_eq!(entry_ref(&json!("button:Save")), None);
        assert_eq!(entry_ref(&json!(3)), None);
    }
}
