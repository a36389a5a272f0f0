//! The design's wire format for the live agent: `{"command":"eval","payload":"agent.look()"}`
//! (`../shared/design/agent-stdio-protocol.md`). The payload is read as one call on `agent`,
//! never run as code: a small strict front parser recognises `agent.<method>(` … `)`, and the
//! argument list is read as a JSON5 array (JavaScript literals: single or double quotes,
//! unquoted keys, trailing commas) by the `json5` crate. Anything else is an error that says
//! what the format accepts.
//!
//! ```
//! use agent_snapshot::agent_call::{parse, Call};
//!
//! let call = parse("agent.act('e1', 'input', \"ada@example.com\")").unwrap();
//! assert_eq!(call, Call::Act { ref_: "e1".into(), op: "input".into(),
//!                              value: Some(serde_json::json!("ada@example.com")) });
//! assert_eq!(parse("agent.look({viewport: false})").unwrap(),
//!            Call::Look { scope: None, viewport: false, diff: false });
//! assert!(parse("agent.look(); fetch('/x')").is_err());
//! ```

use serde_json::{Map, Value};

/// One call on `agent`, its arguments checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Call {
    /// `look(options?)`: `scope` (a ref of the latest look, `'e12'`, or a CSS selector),
    /// `viewport` (default true: only what the viewport shows), `diff` (default false: only
    /// what is new or changed since the previous `look()`).
    Look {
        scope: Option<String>,
        viewport: bool,
        diff: bool,
    },
    /// `read(options?)`: the page's main content as readable lines; `maxChars` (default
    /// 12 000), `from` (a ref a cut read names on its last line).
    Read {
        max_chars: Option<u64>,
        from: Option<String>,
    },
    /// `act(ref, op, value?)`.
    Act {
        ref_: String,
        op: String,
        value: Option<Value>,
    },
    /// `go(url)`.
    Go { url: String },
    /// `wait(condition, timeoutMs?)`: a ref (`'e1'`) or a JavaScript expression.
    Wait {
        condition: String,
        timeout_ms: Option<u64>,
    },
    /// `eval(js)`.
    Eval { js: String },
    /// `handoff(message, {timeout}?)`: `timeout` in milliseconds.
    Handoff {
        message: String,
        timeout_ms: Option<u64>,
    },
    /// `dialog(accept, text?)`: answers the open dialog (`text` for a prompt).
    Dialog { accept: bool, text: Option<String> },
    /// `tabs()`: the session's tabs.
    Tabs,
    /// `tab(index)`: switches to a tab.
    Tab { index: u64 },
    /// `closeTab()`: closes the current tab.
    CloseTab,
}

/// The methods of `agent`, as the error messages list them.
pub const METHODS: &str = "agent.look(), agent.read(), agent.act(ref, op, value?), agent.go(url), \
agent.wait(refOrJs), agent.eval(js), agent.handoff(message), agent.dialog(accept, text?), \
agent.tabs(), agent.tab(index), agent.closeTab()";

/// Deepest nesting of arrays and objects in the arguments: the JSON5 parser recurses, and no
/// call needs more than two levels.
const MAX_DEPTH: usize = 16;

/// Reads one payload.
///
/// # Errors
/// A message for the model when the payload is not exactly one call on `agent` with literal
/// arguments of the right types.
pub fn parse(payload: &str) -> Result<Call, String> {
    let (method, args) = split_call(payload)?;
    check_depth(args)?;
    let args: Vec<Value> = json5::from_str(&format!("[{args}]")).map_err(|e| {
        format!(
            "the arguments of agent.{method}(…) must be literals (strings, numbers, booleans, \
             {{key: value}}): {e}"
        )
    })?;
    let mut args = Args {
        method,
        values: args.into_iter(),
    };
    let call = match method {
        "look" => {
            let options = args.object()?;
            let scope = string_option(&options, "scope", method)?;
            let viewport = match options.get("viewport") {
                None | Some(Value::Null) => true,
                Some(Value::Bool(b)) => *b,
                Some(other) => {
                    return Err(format!("look: viewport must be true or false, not {other}"))
                }
            };
            let diff = match options.get("diff") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(other) => {
                    return Err(format!("look: diff must be true or false, not {other}"))
                }
            };
            only_keys(&options, &["scope", "viewport", "diff"], method)?;
            Call::Look {
                scope,
                viewport,
                diff,
            }
        }
        "read" => {
            let options = args.object()?;
            only_keys(&options, &["maxChars", "from"], method)?;
            Call::Read {
                max_chars: whole_option(&options, "maxChars", "read: maxChars is characters")?,
                from: string_option(&options, "from", method)?,
            }
        }
        "act" => Call::Act {
            ref_: args.string("ref")?,
            op: args.string("op")?,
            value: args.next(),
        },
        "go" => Call::Go {
            url: args.string("url")?,
        },
        "wait" => Call::Wait {
            condition: args.string("condition")?,
            timeout_ms: args.millis()?,
        },
        "eval" => Call::Eval {
            js: args.string("js")?,
        },
        "handoff" => {
            let message = args.string("message")?;
            let options = args.object()?;
            only_keys(&options, &["timeout"], method)?;
            Call::Handoff {
                message,
                timeout_ms: whole_option(&options, "timeout", "handoff: timeout is milliseconds")?,
            }
        }
        "dialog" => {
            let accept = match args.next() {
                Some(Value::Bool(b)) => b,
                other => {
                    return Err(format!(
                        "agent.dialog(…) needs accept (true or false) first, not {}",
                        other.unwrap_or(Value::Null)
                    ))
                }
            };
            let text = match args.next() {
                None => None,
                Some(Value::String(s)) => Some(s),
                Some(other) => return Err(format!("dialog: text must be a string, not {other}")),
            };
            Call::Dialog { accept, text }
        }
        "tabs" => Call::Tabs,
        "tab" => Call::Tab {
            index: args
                .next()
                .and_then(|v| v.as_u64())
                .ok_or("agent.tab(…) needs the tab's index (a whole number)")?,
        },
        "closeTab" => Call::CloseTab,
        other => return Err(format!("agent has no method {other:?}; it has {METHODS}")),
    };
    args.end()?;
    Ok(call)
}

/// Splits `agent.<method>(<args>)` (spaces around, one trailing `;` allowed) into the method
/// name and the text between the parentheses.
fn split_call(payload: &str) -> Result<(&str, &str), String> {
    let shape = || {
        format!(
            "the payload is one call on agent, such as agent.look() or agent.act('e1', \
             'click'); it has {METHODS}"
        )
    };
    let call = payload.trim();
    let call = call.strip_suffix(';').unwrap_or(call).trim_end();
    let rest = call.strip_prefix("agent").ok_or_else(shape)?;
    let rest = rest
        .trim_start()
        .strip_prefix('.')
        .ok_or_else(shape)?
        .trim_start();
    let name_end = rest
        .find(|c: char| !c.is_ascii_alphanumeric() && c != '_')
        .unwrap_or(rest.len());
    let (method, rest) = rest.split_at(name_end);
    if method.is_empty() {
        return Err(shape());
    }
    let args = rest
        .trim_start()
        .strip_prefix('(')
        .and_then(|r| r.strip_suffix(')'))
        .ok_or_else(shape)?;
    Ok((method, args))
}

/// Refuses arguments nested deeper than [`MAX_DEPTH`] or holding comments, reading strings
/// as JSON5 does (either quote, backslash escapes), so a bracket inside a string is text.
fn check_depth(args: &str) -> Result<(), String> {
    let mut depth = 0usize;
    let mut quote = None;
    let mut chars = args.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(_), '\\') => {
                chars.next();
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') => quote = Some(c),
            (None, '[' | '{') => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return Err(format!(
                        "the arguments are nested deeper than {MAX_DEPTH} levels"
                    ));
                }
            }
            (None, ']' | '}') => depth = depth.saturating_sub(1),
            (None, '/') if matches!(chars.peek(), Some('/' | '*')) => {
                return Err("comments are not accepted in the arguments".to_string())
            }
            _ => {}
        }
    }
    Ok(())
}

/// The positional arguments of one call, taken in order.
struct Args<'a> {
    method: &'a str,
    values: std::vec::IntoIter<Value>,
}

impl Args<'_> {
    fn next(&mut self) -> Option<Value> {
        self.values.next().filter(|v| !v.is_null())
    }

    fn string(&mut self, what: &str) -> Result<String, String> {
        match self.values.next() {
            Some(Value::String(s)) => Ok(s),
            None => Err(format!("agent.{}(…) needs {what} (a string)", self.method)),
            Some(other) => Err(format!(
                "agent.{}(…): {what} must be a string, not {other}",
                self.method
            )),
        }
    }

    /// An optional options object; absent or null is empty.
    fn object(&mut self) -> Result<Map<String, Value>, String> {
        match self.values.next() {
            None | Some(Value::Null) => Ok(Map::new()),
            Some(Value::Object(map)) => Ok(map),
            Some(other) => Err(format!(
                "agent.{}(…): options must be an object such as {{scope: '#main'}}, not {other}",
                self.method
            )),
        }
    }

    fn millis(&mut self) -> Result<Option<u64>, String> {
        match self.next() {
            None => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| {
                format!(
                    "agent.{}(…): the timeout is milliseconds (a whole number), not {v}",
                    self.method
                )
            }),
        }
    }

    fn end(mut self) -> Result<(), String> {
        match self.values.next() {
            None => Ok(()),
            Some(extra) => Err(format!(
                "agent.{}(…) was given more arguments than it takes ({extra} is one too many)",
                self.method
            )),
        }
    }
}

fn string_option(
    options: &Map<String, Value>,
    key: &str,
    method: &str,
) -> Result<Option<String>, String> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("{method}: {key} must be a string, not {other}")),
    }
}

/// A whole-number option; `what` says what it counts, for the message when it is not one.
fn whole_option(
    options: &Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<Option<u64>, String> {
    match options.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("{what} (a whole number), not {v}")),
    }
}

fn only_keys(options: &Map<String, Value>, allowed: &[&str], method: &str) -> Result<(), String> {
    match options.keys().find(|k| !allowed.contains(&k.as_str())) {
        None => Ok(()),
        Some(key) => Err(format!(
            "{method} has no option {key:?} (it takes {})",
            allowed.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_design_examples_parse() {
        let cases = [
            (
                "agent.read()",
                Call::Read {
                    max_chars: None,
                    from: None,
                },
            ),
            (
                "agent.read({maxChars: 4000, from: 'e31'})",
                Call::Read {
                    max_chars: Some(4000),
                    from: Some("e31".into()),
                },
            ),
            (
                "agent.look()",
                Call::Look {
                    scope: None,
                    viewport: true,
                    diff: false,
                },
            ),
            (
                "agent.look({scope: '#main'})",
                Call::Look {
                    scope: Some("#main".into()),
                    viewport: true,
                    diff: false,
                },
            ),
            (
                "agent.look({viewport: false})",
                Call::Look {
                    scope: None,
                    viewport: false,
                    diff: false,
                },
            ),
            (
                "agent.look({diff: true})",
                Call::Look {
                    scope: None,
                    viewport: true,
                    diff: true,
                },
            ),
            (
                "agent.act('e1', 'input', 'text')",
                Call::Act {
                    ref_: "e1".into(),
                    op: "input".into(),
                    value: Some(json!("text")),
                },
            ),
            (
                "agent.act('e3','click')",
                Call::Act {
                    ref_: "e3".into(),
                    op: "click".into(),
                    value: None,
                },
            ),
            (
                "agent.go('https://example.com/login')",
                Call::Go {
                    url: "https://example.com/login".into(),
                },
            ),
            (
                "agent.wait('e1')",
                Call::Wait {
                    condition: "e1".into(),
                    timeout_ms: None,
                },
            ),
            (
                "agent.wait(\"document.title.includes('Done')\")",
                Call::Wait {
                    condition: "document.title.includes('Done')".into(),
                    timeout_ms: None,
                },
            ),
            ("agent.eval('1 + 1')", Call::Eval { js: "1 + 1".into() }),
            (
                "agent.handoff('Please solve the CAPTCHA')",
                Call::Handoff {
                    message: "Please solve the CAPTCHA".into(),
                    timeout_ms: None,
                },
            ),
            (
                "  agent . handoff ( \"Log in\" , {timeout: 2000} ) ; ",
                Call::Handoff {
                    message: "Log in".into(),
                    timeout_ms: Some(2000),
                },
            ),
            (
                "agent.dialog(true, 'Grace')",
                Call::Dialog {
                    accept: true,
                    text: Some("Grace".into()),
                },
            ),
            (
                "agent.dialog(false)",
                Call::Dialog {
                    accept: false,
                    text: None,
                },
            ),
            ("agent.tabs()", Call::Tabs),
            ("agent.tab(1)", Call::Tab { index: 1 }),
            ("agent.closeTab()", Call::CloseTab),
        ];
        for (payload, want) in cases {
            assert_eq!(parse(payload), Ok(want), "{payload}");
        }
    }

    #[test]
    fn strings_hold_anything_and_are_never_code() {
        let call = parse(r#"agent.eval('a) + agent.go("x"); [{(')"#).unwrap();
        assert_eq!(
            call,
            Call::Eval {
                js: r#"a) + agent.go("x"); [{("#.into()
            }
        );
        let call = parse(r"agent.act('e1', 'input', 'it\'s \u00e9 \\')").unwrap();
        assert_eq!(
            call,
            Call::Act {
                ref_: "e1".into(),
                op: "input".into(),
                value: Some(json!("it's é \\"))
            }
        );
    }

    #[test]
    fn anything_else_is_refused_with_a_reason() {
        for bad in [
            "",
            "look()",
            "agent.look",
            "agent.look() + 1",
            "agent.look(); agent.go('x')",
            "agent.look(), agent.go('x')",
            "agent.read({maxChars: 'many'})",
            "agent.read({max: 5})",
            "window.agent.look()",
            "agent.fly()",
            "agent.go()",
            "agent.go(url)",
            "agent.go(`x`)",
            "agent.go('a', 'b')",
            "agent.act(1, 'click')",
            "agent.look('#main')",
            "agent.look({scope: 5})",
            "agent.look({viewport: 'no'})",
            "agent.look({zoom: 2})",
            "agent.wait('e1', -5)",
            "agent.handoff('x', {timeout: 'soon'})",
            "agent.eval('x' /* c */)",
            "agent.eval(undefined)",
            "agent.dialog('yes')",
            "agent.dialog(true, 5)",
            "agent.tab('first')",
            "agent.tabs(1)",
        ] {
            let err = parse(bad).expect_err(bad);
            assert!(!err.is_empty(), "{bad}");
        }
        let deep = format!(
            "agent.act('e1', 'select', {}{})",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        assert!(parse(&deep).unwrap_err().contains("nested deeper"));
        assert!(parse("agent.fly()").unwrap_err().contains("agent.look()"));
    }
}
