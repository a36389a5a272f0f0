//! `agent-snapshot schema`: every definition is a valid JSON Schema, in each API's shape.

use std::process::Command;

use agent_snapshot::tools::{definitions, Flavor, ToolSet};
use serde_json::{json, Value};

const BIN: &str = env!("CARGO_BIN_EXE_agent-snapshot");

const FLAVORS: [(&str, Flavor); 4] = [
    ("openai", Flavor::OpenAi),
    ("chat", Flavor::Chat),
    ("anthropic", Flavor::Anthropic),
    ("mcp", Flavor::Mcp),
];

const ALL_TOOLS: [&str; 24] = [
    "html_snapshot",
    "html_query",
    "html_read",
    "web_snapshot",
    "web_read",
    "web_click",
    "web_fill",
    "web_select",
    "web_check",
    "web_uncheck",
    "web_scroll",
    "web_press_key",
    "web_get_text",
    "web_get_value",
    "web_navigate",
    "web_back",
    "web_wait_for",
    "web_screenshot",
    "web_hover",
    "web_upload",
    "web_drag",
    "web_dialog",
    "web_tabs",
    "browser",
];

fn cli_schema(flavor: &str) -> Value {
    let o = Command::new(BIN)
        .args(["schema", "--flavor", flavor])
        .output()
        .expect("spawn");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).expect("schema prints JSON")
}

/// (name, description, input schema) of one definition, wherever the flavor puts them.
fn parts(def: &Value, flavor: Flavor) -> (&str, &str, &Value) {
    let (f, key) = match flavor {
        Flavor::OpenAi => (def, "parameters"),
        Flavor::Chat => (&def["function"], "parameters"),
        Flavor::Anthropic => (def, "input_schema"),
        Flavor::Mcp => (def, "inputSchema"),
    };
    (
        f["name"].as_str().expect("name"),
        f["description"].as_str().expect("description"),
        &f[key],
    )
}

#[test]
fn every_definition_is_valid_json_schema_and_the_cli_prints_the_library_values() {
    for (arg, flavor) in FLAVORS {
        let printed = cli_schema(arg);
        assert_eq!(
            printed,
            Value::Array(definitions(flavor, ToolSet::All)),
            "{arg}"
        );
        let defs = printed.as_array().unwrap();
        let names: Vec<&str> = defs.iter().map(|d| parts(d, flavor).0).collect();
        assert_eq!(names, ALL_TOOLS, "{arg}");
        for def in defs {
            let (name, description, schema) = parts(def, flavor);
            if let Err(e) = jsonschema::meta::validate(schema) {
                panic!("{arg} {name}: not a valid JSON Schema: {e}");
            }
            assert_eq!(schema["type"], "object", "{arg} {name}");
            assert!(description.len() > 40, "{arg} {name}: say what it is for");
        }
        if flavor == Flavor::OpenAi {
            for def in defs {
                assert_eq!(def["type"], "function");
                assert_eq!(def["strict"], true);
            }
        }
        if flavor == Flavor::Chat {
            assert!(defs.iter().all(|d| d["type"] == "function"));
        }
    }
}

/// OpenAI strict mode: every object closed, every property required, optional ones nullable.
fn check_strict(schema: &Value, path: &str) {
    if schema["type"] == "object" || schema["type"] == json!(["object", "null"]) {
        assert_eq!(schema["additionalProperties"], false, "{path}");
        let props = schema["properties"].as_object().expect("properties");
        let mut keys: Vec<&str> = props.keys().map(String::as_str).collect();
        let mut required: Vec<&str> = schema["required"]
            .as_array()
            .expect("required")
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        keys.sort_unstable();
        required.sort_unstable();
        assert_eq!(keys, required, "{path}: every property is required");
        for (k, v) in props {
            check_strict(v, &format!("{path}.{k}"));
        }
    }
    if let Some(items) = schema.get("items") {
        check_strict(items, &format!("{path}[]"));
    }
}

#[test]
fn openai_strict_form_holds_and_accepts_nulls_for_optional_arguments() {
    for def in definitions(Flavor::OpenAi, ToolSet::All) {
        check_strict(&def["parameters"], def["name"].as_str().unwrap());
    }
    let query = &definitions(Flavor::OpenAi, ToolSet::Offline)[1]["parameters"];
    let strict = jsonschema::validator_for(query).unwrap();
    let call = json!({"handle": "d1", "ref": "e5", "kind": "text", "limit": null});
    assert!(strict.is_valid(&call));
    assert!(
        !strict.is_valid(&json!({"handle": "d1", "ref": "e5", "kind": "text"})),
        "strict: absent is not allowed, null is"
    );
    assert!(!strict.is_valid(&json!({"handle": "d1", "ref": "e5", "kind": "css", "limit": null})));
    assert!(!strict.is_valid(&json!({"handle": "d1", "ref": "e5", "kind": "text", "limit": 0})));

    let loose = &definitions(Flavor::Anthropic, ToolSet::Offline)[1]["input_schema"];
    let loose = jsonschema::validator_for(loose).unwrap();
    assert!(loose.is_valid(&json!({"handle": "d1", "ref": "e5", "kind": "html"})));
    assert!(!loose.is_valid(&json!({"handle": "d1", "ref": "e5", "kind": "html", "x": 1})));
    assert!(
        !loose.is_valid(&json!({"handle": "d1", "kind": "html"})),
        "ref is required"
    );
}

#[test]
fn descriptions_teach_the_snapshot_act_snapshot_loop() {
    let defs = definitions(Flavor::Mcp, ToolSet::All);
    let describe = |name: &str| {
        defs.iter()
            .find(|d| d["name"] == name)
            .and_then(|d| d["description"].as_str())
            .unwrap()
            .to_string()
    };
    assert!(describe("html_snapshot").contains("call html_query"));
    assert!(describe("html_snapshot").contains("rather than asking for raw HTML"));
    assert!(describe("web_snapshot").contains("again after every action"));
    assert!(describe("web_snapshot").contains("STALE_REF"));
    assert!(describe("web_click").contains("call web_snapshot"));
    assert!(describe("web_get_text").contains("instead of asking for HTML"));
}

#[test]
fn tool_sets_split_offline_and_live() {
    let o = Command::new(BIN)
        .args(["schema", "--flavor", "mcp", "--tools", "offline"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let names: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["html_snapshot", "html_query", "html_read"]);
    assert_eq!(definitions(Flavor::Chat, ToolSet::Live).len(), 20);
}

/// `schema --tools browser`: the design's one multiplexed tool, its `request` a closed object.
#[test]
fn the_browser_tool_is_one_multiplexed_tool() {
    let o = Command::new(BIN)
        .args(["schema", "--flavor", "openai", "--tools", "browser"])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let defs = v.as_array().unwrap();
    assert_eq!(defs.len(), 1);
    assert_eq!(defs[0]["name"], "browser");
    let params = &defs[0]["parameters"];
    assert_eq!(
        params["properties"]["action"]["enum"],
        json!(["status", "start", "stop", "navigate", "snapshot", "act"])
    );
    let strict = jsonschema::validator_for(params).unwrap();
    let act = json!({"action": "act", "target_url": null,
                     "request": {"kind": "fill", "target_id": "e3", "text": "ada"}});
    assert!(strict.is_valid(&act));
    let status = json!({"action": "status", "target_url": null, "request": null});
    assert!(strict.is_valid(&status));
    let extra = json!({"action": "act", "target_url": null,
                       "request": {"kind": "fill", "target_id": "e3", "text": "a", "x": 1}});
    assert!(!strict.is_valid(&extra), "request is closed");
    let loose = &definitions(Flavor::Anthropic, ToolSet::Browser)[0]["input_schema"];
    let loose = jsonschema::validator_for(loose).unwrap();
    assert!(loose.is_valid(&json!({"action": "navigate", "target_url": "https://example.com"})));
    assert!(
        !loose.is_valid(&json!({"action": "act", "request": {"target_id": "e1"}})),
        "request.kind is required"
    );
}

/// Dialogs, tabs, uploads, drags and double clicks (issue 26): their tools, in the strict and the
/// loose form, take what the agent needs and nothing else.
#[test]
fn dialog_tabs_upload_and_double_click_tools() {
    let strict = |name: &str| {
        let defs = definitions(Flavor::OpenAi, ToolSet::All);
        let def = defs.iter().find(|d| d["name"] == name).unwrap();
        jsonschema::validator_for(&def["parameters"]).unwrap()
    };
    let click = strict("web_click");
    // Strict mode: every parameter present, null when left out.
    let click_with = |extra: Value| {
        let mut args = json!({"ref": "e1", "double_click": null, "long_press": null,
                              "duration_ms": null});
        for (k, v) in extra.as_object().unwrap() {
            args[k] = v.clone();
        }
        click.is_valid(&args)
    };
    assert!(click_with(json!({"double_click": true})));
    assert!(click_with(json!({})));
    assert!(!click_with(json!({"double_click": "yes"})));
    assert!(click_with(json!({"long_press": true, "duration_ms": 1200})));
    assert!(!click_with(
        json!({"long_press": true, "duration_ms": 60000})
    ));
    let upload = strict("web_upload");
    assert!(upload.is_valid(&json!({"ref": "e1", "files": ["/tmp/a.pdf"]})));
    assert!(!upload.is_valid(&json!({"ref": "e1", "files": "/tmp/a.pdf"})));
    let drag = strict("web_drag");
    assert!(drag.is_valid(&json!({"ref": "e1", "to": "e2"})));
    assert!(
        !drag.is_valid(&json!({"ref": "e1", "to": null})),
        "to is required"
    );
    let dialog = strict("web_dialog");
    assert!(dialog.is_valid(&json!({"accept": true, "text": null})));
    assert!(dialog.is_valid(&json!({"accept": false, "text": "Ada"})));
    assert!(!dialog.is_valid(&json!({"accept": "ok", "text": null})));
    let tabs = strict("web_tabs");
    assert!(tabs.is_valid(&json!({"action": "switch", "index": 1})));
    assert!(tabs.is_valid(&json!({"action": "list", "index": null})));
    assert!(!tabs.is_valid(&json!({"action": "open", "index": null})));
    assert!(!tabs.is_valid(&json!({"action": "switch", "index": -1})));

    // The browser tool's act has the same kinds.
    let loose = &definitions(Flavor::Anthropic, ToolSet::Browser)[0]["input_schema"];
    let kinds = &loose["properties"]["request"]["properties"]["kind"]["enum"];
    for kind in [
        "dblclick",
        "long_press",
        "upload",
        "drag",
        "accept_dialog",
        "dismiss_dialog",
        "tabs",
        "switch_tab",
        "close_tab",
    ] {
        assert!(kinds.as_array().unwrap().contains(&json!(kind)), "{kind}");
    }
}
