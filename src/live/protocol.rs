//! The protocol's own wire format: `{"id": 7, "command": "look", ...args}` in,
//! `{"id": 7, "command": "result" | "error", "payload"}` out, one JSON object a line; and the
//! stdio loop that runs it.

use serde_json::{json, Map, Value};

use super::session::Session;
use super::{AgentError, Code, LaunchOptions, Result};
use crate::tools;

/// The protocol's commands.
pub(super) const COMMANDS: [&str; 14] = [
    "look",
    "read",
    "act",
    "go",
    "back",
    "wait",
    "query",
    "eval",
    "screenshot",
    "handoff",
    "dialog",
    "tabs",
    "tab",
    "close_tab",
];

impl Session {
    /// The `ready` line's payload.
    pub async fn ready_payload(&self) -> Value {
        let version = self
            .launched
            .browser
            .version()
            .await
            .ok()
            .map(|v| v.product);
        json!({
            "version": env!("CARGO_PKG_VERSION"),
            "schemaVersion": crate::tree::SCHEMA_VERSION,
            "browser": version,
            "mode": if self.launched.attached { "attach" } else { "launch" },
            "commands": COMMANDS,
        })
    }

    /// Runs one request line and returns the response line's object.
    pub async fn handle_line(&mut self, line: &str) -> Value {
        let args = match serde_json::from_str(line) {
            Ok(Value::Object(map)) => map,
            Ok(_) => {
                return response(
                    Some(Value::Null),
                    Err(AgentError::new(
                        Code::InvalidArgs,
                        "a request is one JSON object: {\"id\": 1, \"command\": \"look\"}",
                    )),
                )
            }
            Err(e) => {
                return response(
                    Some(Value::Null),
                    Err(AgentError::new(
                        Code::InvalidArgs,
                        format!("malformed JSON ({e}); send one JSON object per line"),
                    )),
                )
            }
        };
        // The design's format: `{"command": "eval", "payload": "agent.look()"}`, no id. The
        // protocol's own `eval` takes `js`, so `payload` tells the two apart.
        if args.get("command").and_then(Value::as_str) == Some("eval")
            && args.contains_key("payload")
        {
            let result = match check_keys(&args, &["payload"]) {
                Err(e) => Err(e),
                Ok(()) => match args.get("payload") {
                    Some(Value::String(payload)) => {
                        self.log(payload).await;
                        self.eval_call(payload).await
                    }
                    _ => Err(AgentError::new(
                        Code::InvalidArgs,
                        "payload must be a string holding one call, such as \"agent.look()\"",
                    )),
                },
            };
            return response(args.get("id").cloned(), result);
        }
        let id = args.get("id").cloned().unwrap_or(Value::Null);
        let result = match args.get("command").and_then(Value::as_str) {
            Some(command) => {
                let mut shown = args.clone();
                shown.remove("id");
                shown.remove("command");
                self.log(&format!("{command} {}", Value::Object(shown)))
                    .await;
                self.run(command, &args).await
            }
            None => Err(AgentError::new(
                Code::InvalidArgs,
                format!("missing \"command\": one of {}", COMMANDS.join(", ")),
            )),
        };
        response(Some(id), result)
    }
}

/// A response line: `{"id"?, "command": "result" | "error", "payload"}`; no `id` key when
/// `id` is `None` (the design's format).
pub(super) fn response(id: Option<Value>, result: Result<Value>) -> Value {
    let mut line = Map::new();
    if let Some(id) = id {
        line.insert("id".into(), id);
    }
    let (command, payload) = match result {
        Ok(payload) => ("result", payload),
        Err(e) => ("error", json!({"message": e.message, "code": e.code})),
    };
    line.insert("command".into(), Value::from(command));
    line.insert("payload".into(), payload);
    Value::Object(line)
}

pub(super) fn check_keys(args: &Map<String, Value>, allowed: &[&str]) -> Result<()> {
    for key in args.keys() {
        if key != "id" && key != "command" && !allowed.contains(&key.as_str()) {
            return Err(AgentError::new(
                Code::InvalidArgs,
                format!(
                    "unknown argument {key:?} (this command takes {})",
                    allowed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

pub(super) fn opt_str<'a>(args: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>> {
    tools::string_arg(args, key).map_err(|e| AgentError::new(Code::InvalidArgs, e))
}

pub(super) fn opt_bool(args: &Map<String, Value>, key: &str) -> Result<Option<bool>> {
    tools::bool_arg(args, key).map_err(|e| AgentError::new(Code::InvalidArgs, e))
}

/// Runs the protocol on stdin/stdout until stdin closes: a `ready` line, then one response
/// per request line. Logs go to stderr.
pub async fn run_stdio(options: LaunchOptions) -> std::result::Result<(), String> {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let mut session = Session::start(options).await.map_err(|e| e.message)?;
    let mut out = tokio::io::stdout();
    let ready = json!({"command": "ready", "payload": session.ready_payload().await});
    let write = |v: &Value| format!("{v}\n");
    let mut result = out.write_all(write(&ready).as_bytes()).await;
    if result.is_ok() {
        result = out.flush().await;
    }
    let mut lines = tokio::io::BufReader::new(tokio::io::stdin()).lines();
    while result.is_ok() {
        let line = match lines.next_line().await {
            Ok(Some(line)) => line,
            Ok(None) => break,
            Err(e) => {
                // Not UTF-8: answer and go on; the next line may be fine.
                let err = AgentError::new(Code::InvalidArgs, format!("unreadable line: {e}"));
                result = out
                    .write_all(write(&response(Some(Value::Null), Err(err))).as_bytes())
                    .await;
                continue;
            }
        };
        if line.trim().is_empty() {
            continue;
        }
        let reply = session.handle_line(&line).await;
        result = out.write_all(write(&reply).as_bytes()).await;
        if result.is_ok() {
            result = out.flush().await;
        }
    }
    session.close().await;
    result.map_err(|e| format!("cannot write to stdout: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn malformed_requests_are_invalid_args() {
        let r = response(
            Some(Value::Null),
            Err(AgentError::new(Code::InvalidArgs, "bad")),
        );
        assert_eq!(r["payload"]["code"], "INVALID_ARGS");
        assert_eq!(
            serde_json::to_value(Code::StaleRef).unwrap(),
            json!("STALE_REF")
        );
        let args = json!({"command": "go", "url": "x", "bogus": 1});
        let err = check_keys(args.as_object().unwrap(), &["url"]).unwrap_err();
        assert!(err.message.contains("\"bogus\""));
    }
}
