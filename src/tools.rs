//! Function-tool definitions that drop straight into an agent: the offline tools
//! (`html_snapshot`, `html_query`, `html_read`) and the live browser tools (`web_snapshot`,
//! `web_click`…), in the shape each API wants.
//!
//! A third set is the design's single multiplexed `browser` tool (`action: status | start |
//! stop | navigate | snapshot | act`), for hosts that want one tool; `mcp --live` serves it
//! beside the `web_*` tools.
//!
//! The tools are one table of data ([`TOOLS`]); [`definitions`] writes it out per
//! [`Flavor`]. The MCP server and the live agent take their schemas from here too, so what
//! `agent-snapshot schema` prints is what they accept.
//!
//! ```
//! use agent_snapshot::tools::{definitions, Flavor, ToolSet};
//!
//! let tools = definitions(Flavor::OpenAi, ToolSet::Offline);
//! assert_eq!(tools[0]["name"], "html_snapshot");
//! // Strict mode: every property is required, optional ones accept null.
//! assert_eq!(tools[0]["strict"], true);
//! assert_eq!(tools[0]["parameters"]["properties"]["max_chars"]["type"][1], "null");
//! ```

use serde_json::{json, Map, Value};

use crate::render::RenderOptions;

/// Which API's tool format to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// OpenAI Responses API, strict: `{"type":"function","name",…,"strict":true}`; every
    /// object closed (`additionalProperties: false`), every property required, optional
    /// ones nullable.
    /// <https://platform.openai.com/docs/guides/function-calling#strict-mode>
    OpenAi,
    /// OpenAI Chat Completions: `{"type":"function","function":{name, description, parameters}}`.
    Chat,
    /// Anthropic Messages: `{name, description, input_schema}`.
    Anthropic,
    /// Model Context Protocol `tools/list` entries: `{name, description, inputSchema}`.
    Mcp,
}

/// Which tools to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolSet {
    /// `html_snapshot`, `html_query`, `html_read`: work on HTML the agent already has.
    Offline,
    /// `web_*`: drive a live browser (the `agent` mode, `mcp --live`).
    Live,
    /// `browser`: the same browser behind one multiplexed tool (`mcp --live` serves it too).
    Browser,
    /// All of them.
    #[default]
    All,
}

/// The JSON type of one parameter.
#[derive(Debug, Clone, Copy)]
pub enum ParamType {
    String,
    /// An integer within `[min, max]`.
    Integer {
        min: u64,
        max: u64,
    },
    /// One of these strings.
    Enum(&'static [&'static str]),
    /// An array of strings.
    Strings,
    Boolean,
    /// An object with these properties (closed: no others).
    Object(&'static [Param]),
}

/// One parameter of a tool.
#[derive(Debug, Clone, Copy)]
pub struct Param {
    pub name: &'static str,
    pub ty: ParamType,
    pub required: bool,
    pub description: &'static str,
}

/// One tool: its name, what it teaches the model, its parameters.
#[derive(Debug, Clone, Copy)]
pub struct ToolSpec {
    pub name: &'static str,
    pub description: &'static str,
    pub params: &'static [Param],
    /// Whether the render budgets ([`BUDGET_PARAMS`]) follow `params`.
    pub budgets: bool,
    /// The set it belongs to: [`ToolSet::Offline`] (works on HTML), [`ToolSet::Live`] or
    /// [`ToolSet::Browser`] (need a browser).
    pub set: ToolSet,
}

impl ToolSpec {
    /// Every parameter, the budgets included.
    pub fn all_params(&self) -> impl Iterator<Item = &'static Param> {
        let budgets: &'static [Param] = if self.budgets { BUDGET_PARAMS } else { &[] };
        self.params.iter().chain(budgets)
    }
}

const fn param(name: &'static str, ty: ParamType, description: &'static str) -> Param {
    Param {
        name,
        ty,
        required: true,
        description,
    }
}

const fn optional(name: &'static str, ty: ParamType, description: &'static str) -> Param {
    Param {
        name,
        ty,
        required: false,
        description,
    }
}

/// `from` of the read tools (`html_read`, `web_read`).
const READ_FROM: Param = optional(
    "from",
    ParamType::String,
    "Continue a cut read at this ref, as its last line names it (e.g. \"e57\").",
);

/// `max_chars` of the read tools.
const READ_MAX_CHARS: Param = optional(
    "max_chars",
    ParamType::Integer {
        min: 200,
        max: 200_000,
    },
    "Hard limit on characters (default 12000).",
);

const REF: Param = param(
    "ref",
    ParamType::String,
    "A ref from the latest snapshot, e.g. \"e5\".",
);
const URL: Param = param(
    "url",
    ParamType::String,
    "The address to open, e.g. https://example.com/login.",
);
const LIMIT: Param = optional(
    "limit",
    ParamType::Integer {
        min: 1,
        max: 100_000,
    },
    "Most characters in the answer (default 4000); longer answers are cut and flagged truncated.",
);

/// The snapshot tools' `format` parameter ([`crate::Format`]).
const FORMAT_DESCRIPTION: &str = "text (default): the page's text and elements; list: one line \
per interactive element, the cheapest way to find what to click; json: the text's lines as \
JSON objects, for programs.";

/// The render budgets, shared by the snapshot tools. Their ranges are the ones the renderer
/// accepts; defaults are [`RenderOptions::default`].
pub const BUDGET_PARAMS: &[Param] = &[
    optional(
        "max_chars",
        ParamType::Integer {
            min: 200,
            max: 200_000,
        },
        "Hard limit on snapshot characters (default 12000).",
    ),
    optional(
        "max_nodes",
        ParamType::Integer { min: 1, max: 5_000 },
        "Most element lines (default 200).",
    ),
    optional(
        "max_depth",
        ParamType::Integer { min: 1, max: 64 },
        "Deepest indentation level (default 12).",
    ),
    optional(
        "max_siblings",
        ParamType::Integer { min: 1, max: 5_000 },
        "Most children shown under one parent before the rest fold into one line (default 25).",
    ),
];

/// Every tool, offline first.
pub static TOOLS: &[ToolSpec] = &[
    ToolSpec {
        name: "html_snapshot",
        description: "Turn an HTML page you already have (a file path or an HTML string) into a \
compact snapshot: one line per thing a person sees and can use, e.g. \
`- button \"Sign in\" [ref=e2]`. Returns the snapshot text and a document handle. Read the \
snapshot instead of the HTML; to learn more about one element, call html_query with the \
handle and its ref rather than asking for raw HTML. The first line says whether and why the \
snapshot was truncated; raise max_chars/max_nodes only when what you need is missing.",
        params: &[
            optional(
                "path",
                ParamType::String,
                "Path of an HTML file to read. Give path or html.",
            ),
            optional(
                "html",
                ParamType::String,
                "The HTML itself. Give path or html.",
            ),
            optional(
                "url",
                ParamType::String,
                "The page's URL, shown in the snapshot header.",
            ),
            optional(
                "scope",
                ParamType::String,
                "Snapshot one part only: a ref (e.g. a folded stub line's \"e12\") or a CSS \
selector. Refs stay the whole page's.",
            ),
            optional(
                "format",
                ParamType::Enum(&["text", "list", "json"]),
                FORMAT_DESCRIPTION,
            ),
        ],
        budgets: true,
        set: ToolSet::Offline,
    },
    ToolSpec {
        name: "html_query",
        description: "Ask a bounded question about one ref of a page snapshotted with \
html_snapshot: its visible text, its attributes, its outer HTML or its form value. Pass the \
handle html_snapshot returned; refs belong to that handle only. Prefer kind=text or attrs; \
ask for html only when the text is not enough.",
        params: &[
            param(
                "handle",
                ParamType::String,
                "The document handle html_snapshot returned.",
            ),
            REF,
            param(
                "kind",
                ParamType::Enum(&["text", "attrs", "html", "value"]),
                "What to return: visible text, attributes as JSON, outer HTML, or form value.",
            ),
            LIMIT,
        ],
        budgets: false,
        set: ToolSet::Offline,
    },
    ToolSpec {
        name: "html_read",
        description: "Read the main content of an HTML page (a file path, an HTML string, or \
the handle of a page already opened) as readable lines: headings, paragraphs with inline \
links like `[text](e23)`, lists, quotes, code, table rows; navigation, sidebars, footers and \
hidden text left out. Use it for articles and documentation; use html_snapshot to act on a \
page. Refs are the page's refs, valid with html_query on the returned handle. A cut read ends \
with `continue with: read --from e57`: call html_read again with the handle and from=e57.",
        params: &[
            optional(
                "path",
                ParamType::String,
                "Path of an HTML file to read. Give path, html or handle.",
            ),
            optional(
                "html",
                ParamType::String,
                "The HTML itself. Give path, html or handle.",
            ),
            optional(
                "handle",
                ParamType::String,
                "A handle from html_snapshot or html_read. Give path, html or handle.",
            ),
            optional(
                "url",
                ParamType::String,
                "The page's URL, shown in the header (with path or html).",
            ),
            READ_FROM,
            READ_MAX_CHARS,
        ],
        budgets: false,
        set: ToolSet::Offline,
    },
    ToolSpec {
        name: "web_snapshot",
        description: "Look at the browser's current page: returns its URL, title and a \
compact snapshot, one line per thing a person sees and can use. Call it first, and again \
after every action that changes the page: refs come from the latest web_snapshot only, and an \
old ref fails with STALE_REF.",
        params: &[
            optional(
                "scope",
                ParamType::String,
                "Snapshot one part only: a ref from the latest web_snapshot (e.g. a folded \
stub line's \"e12\") or a CSS selector. Refs stay the whole page's: a scope by ref keeps the \
latest snapshot's refs valid when the page has not changed.",
            ),
            optional(
                "format",
                ParamType::Enum(&["text", "list", "json"]),
                FORMAT_DESCRIPTION,
            ),
            optional(
                "interactive_only",
                ParamType::Boolean,
                "Only elements you can act on (default false).",
            ),
            optional(
                "viewport_only",
                ParamType::Boolean,
                "Only what is inside the visible viewport (default false).",
            ),
            optional(
                "diff",
                ParamType::Boolean,
                "Only what changed since your previous snapshot: new and changed lines marked \
+, with the lines that locate them; unchanged runs folded into one line each, whose refs \
still work; refs that left the page listed. A whole snapshot when most of the page changed \
(default false).",
            ),
        ],
        budgets: true,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_read",
        description: "Read the main content of the browser's current page, as it shows now \
(after its scripts ran), as readable lines: headings, paragraphs with inline links like \
`[text](e23)`, lists, quotes, code, table rows; navigation, sidebars, footers and hidden text \
left out. Use it for articles and documentation; use web_snapshot to see what you can do. \
Its refs are web_snapshot's refs: act on them with web_click and the rest. A cut read ends \
with `continue with: read --from e57`: call web_read again with from=e57.",
        params: &[
            READ_FROM,
            READ_MAX_CHARS,
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_click",
        description: "Click the element with this ref, as a person would (a real mouse press \
at its centre), then wait for the page to settle. Returns whether the page changed or \
navigated; if it did, call web_snapshot before using refs again.",
        params: &[
            REF,
            optional(
                "double_click",
                ParamType::Boolean,
                "Press twice, a double click (default false).",
            ),
            optional(
                "long_press",
                ParamType::Boolean,
                "Press and hold, then release: a long press (a held touch where the page takes \
touch input), for controls that react only to a held press (default false).",
            ),
            optional(
                "duration_ms",
                ParamType::Integer { min: 0, max: 10_000 },
                "How long a long press holds, in milliseconds (default 800).",
            ),
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_fill",
        description: "Replace the value of a text field (or contenteditable) with this ref, \
firing the input and change events that frameworks listen to. Call web_snapshot afterwards if \
the page may have reacted.",
        params: &[REF, param("value", ParamType::String, "The new value.")],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_select",
        description: "Choose options of the <select> (combobox or listbox) with this ref, by \
value or by visible text. Several values select several options of a multiple select.",
        params: &[
            REF,
            param(
                "values",
                ParamType::Strings,
                "Option values or visible texts to select.",
            ),
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_check",
        description: "Check the checkbox or radio button with this ref. Returns its final \
state.",
        params: &[REF],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_uncheck",
        description: "Uncheck the checkbox with this ref. Returns its final state.",
        params: &[REF],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_scroll",
        description: "Scroll the page (or bring the element with this ref into view). Call \
web_snapshot afterwards to see what appeared.",
        params: &[
            optional(
                "direction",
                ParamType::Enum(&["up", "down", "left", "right"]),
                "Which way to scroll the page (default down).",
            ),
            optional(
                "amount",
                ParamType::Integer {
                    min: 1,
                    max: 100_000,
                },
                "How many pixels (default: most of a viewport).",
            ),
            optional(
                "ref",
                ParamType::String,
                "Scroll this element into view instead.",
            ),
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_press_key",
        description: "Press a key on the focused element, e.g. Enter, Tab, Escape, ArrowDown. \
Call web_snapshot afterwards if the page may have changed.",
        params: &[param(
            "key",
            ParamType::String,
            "The key, as in KeyboardEvent.key (Enter, Tab, Escape, a…).",
        )],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_get_text",
        description: "Read the visible text of the element with this ref, bounded by limit. \
Use it instead of asking for HTML.",
        params: &[REF, LIMIT],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_get_value",
        description: "Read the current value of the form field with this ref.",
        params: &[REF],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_navigate",
        description: "Open a URL in the browser (it starts on the first call) and wait for \
the page to load. Returns the final URL and title; call web_snapshot next to see the page: \
refs from before are stale.",
        params: &[URL],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_back",
        description: "Go back one page in the browser's history, as the Back button does, \
and wait for it to load. Call web_snapshot next: refs from before are stale.",
        params: &[],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_wait_for",
        description: "Wait until some text appears on the page, or until the element with \
a ref is there, or for a fixed time. Give exactly one of text, ref and time_ms. Fails with \
TIMEOUT when the condition is still false after timeout_ms.",
        params: &[
            optional(
                "text",
                ParamType::String,
                "Text to wait for in the page's visible text.",
            ),
            optional(
                "ref",
                ParamType::String,
                "A ref from the latest snapshot to wait for.",
            ),
            optional(
                "time_ms",
                ParamType::Integer {
                    min: 0,
                    max: 120_000,
                },
                "Just wait this many milliseconds.",
            ),
            optional(
                "timeout_ms",
                ParamType::Integer {
                    min: 1,
                    max: 120_000,
                },
                "Longest wait for text or ref (default 5000).",
            ),
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_screenshot",
        description: "Take a PNG screenshot of what the browser's viewport shows, returned \
as an image. Prefer web_snapshot to find and use elements; a screenshot is for what text \
cannot say (layout, images, a CAPTCHA).",
        params: &[],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_hover",
        description: "Move the pointer over the element with this ref (menus and tooltips \
that open on hover). Call web_snapshot afterwards to see what appeared.",
        params: &[REF],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_upload",
        description: "Choose files for the file input with this ref (a button such as \
\"Attachment\"), as a person picking them in the file dialog would; the page gets its input \
and change events. Paths are on the machine the browser runs on.",
        params: &[
            REF,
            param(
                "files",
                ParamType::Strings,
                "Absolute paths of the files to choose.",
            ),
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_drag",
        description: "Drag the element with this ref and drop it on the element with ref \
to, as a person would with the mouse (HTML5 drag and drop and pointer-drag widgets alike: \
sortable lists, kanban cards, sliders). Call web_snapshot afterwards if the page changed.",
        params: &[
            REF,
            param(
                "to",
                ParamType::String,
                "The ref, from the latest snapshot, of the element to drop on.",
            ),
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_dialog",
        description: "Answer the dialog (alert, confirm, prompt, beforeunload) the page \
opened: an action that opens one says so, and every other tool fails with DIALOG_OPEN until \
it is answered. Returns what happened next, as web_click does.",
        params: &[
            param(
                "accept",
                ParamType::Boolean,
                "true presses OK (or Leave), false presses Cancel.",
            ),
            optional(
                "text",
                ParamType::String,
                "The answer typed into a prompt before OK.",
            ),
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "web_tabs",
        description: "The browser's tabs: list them (index, url, title, which is current), \
switch to the tab at index, or close the current tab. A tab the page opens becomes current \
by itself and the action that opened it says so. After a switch or close, call web_snapshot: \
refs from the other tab are stale.",
        params: &[
            param(
                "action",
                ParamType::Enum(&["list", "switch", "close"]),
                "What to do.",
            ),
            optional(
                "index",
                ParamType::Integer { min: 0, max: 1_000 },
                "The tab to switch to, as list numbers them.",
            ),
        ],
        budgets: false,
        set: ToolSet::Live,
    },
    ToolSpec {
        name: "browser",
        description: "Drive a web browser through one tool. action=start launches it \
(target_url optional), navigate opens target_url, snapshot returns the page as one line per \
thing a person sees and can use with refs like e5, act does request.kind (click, dblclick, \
long_press, fill, type, select, check, uncheck, hover, press_key, scroll, upload, drag, evaluate) on \
request.target_id (a ref from the latest snapshot) with request.text (the value, key, file \
paths one a line, the ref to drop on, or script); act also answers a dialog (accept_dialog with the prompt's \
text, dismiss_dialog) and handles tabs (tabs lists them, switch_tab to the index in text, \
close_tab). status says whether it runs and where, stop closes it. Snapshot again after every \
act that changes the page: old refs fail with STALE_REF.",
        params: &[
            param(
                "action",
                ParamType::Enum(&["status", "start", "stop", "navigate", "snapshot", "act"]),
                "What to do.",
            ),
            optional(
                "target_url",
                ParamType::String,
                "The URL for navigate (and, optionally, start).",
            ),
            optional(
                "request",
                ParamType::Object(&[
                    param(
                        "kind",
                        ParamType::Enum(&[
                            "click",
                            "dblclick",
                            "long_press",
                            "fill",
                            "type",
                            "select",
                            "check",
                            "uncheck",
                            "hover",
                            "press_key",
                            "scroll",
                            "upload",
                            "drag",
                            "evaluate",
                            "accept_dialog",
                            "dismiss_dialog",
                            "tabs",
                            "switch_tab",
                            "close_tab",
                        ]),
                        "The operation.",
                    ),
                    optional(
                        "target_id",
                        ParamType::String,
                        "The element's ref from the latest snapshot, e.g. e5 (or 5).",
                    ),
                    optional(
                        "text",
                        ParamType::String,
                        "The value to fill, type or select; the key to press; the \
JavaScript expression to evaluate; the direction to scroll; the files to upload, one path a \
line; the ref to drop on; a prompt's answer; the tab index to switch to.",
                    ),
                ]),
                "The operation for act.",
            ),
        ],
        budgets: false,
        set: ToolSet::Browser,
    },
];

/// The tool called `name`.
pub fn find(name: &str) -> Option<&'static ToolSpec> {
    TOOLS.iter().find(|t| t.name == name)
}

/// The tools of `set`, in table order.
pub fn specs(set: ToolSet) -> impl Iterator<Item = &'static ToolSpec> {
    TOOLS
        .iter()
        .filter(move |t| set == ToolSet::All || t.set == set)
}

/// The tools an MCP server for `set` lists: a live server serves the single `browser` tool
/// beside the `web_*` tools, for hosts that want one tool.
pub fn served(set: ToolSet) -> impl Iterator<Item = &'static ToolSpec> {
    TOOLS.iter().filter(move |t| {
        set == ToolSet::All || t.set == set || (set == ToolSet::Live && t.set == ToolSet::Browser)
    })
}

/// The definitions of `set` in `flavor`'s format.
pub fn definitions(flavor: Flavor, set: ToolSet) -> Vec<Value> {
    specs(set).map(|spec| definition(spec, flavor)).collect()
}

/// One tool's definition in `flavor`'s format.
pub fn definition(spec: &ToolSpec, flavor: Flavor) -> Value {
    match flavor {
        Flavor::OpenAi => json!({
            "type": "function",
            "name": spec.name,
            "description": spec.description,
            "parameters": input_schema(spec, true),
            "strict": true,
        }),
        Flavor::Chat => json!({
            "type": "function",
            "function": {
                "name": spec.name,
                "description": spec.description,
                "parameters": input_schema(spec, false),
            },
        }),
        Flavor::Anthropic => json!({
            "name": spec.name,
            "description": spec.description,
            "input_schema": input_schema(spec, false),
        }),
        Flavor::Mcp => json!({
            "name": spec.name,
            "description": spec.description,
            "inputSchema": input_schema(spec, false),
        }),
    }
}

/// The JSON Schema of a tool's arguments. `strict` writes OpenAI's strict form: every
/// property listed in `required`, optional ones made nullable.
pub fn input_schema(spec: &ToolSpec, strict: bool) -> Value {
    object_schema(spec.all_params(), strict)
}

/// A closed object of `params`; nested objects get the same form.
fn object_schema<'a>(params: impl Iterator<Item = &'a Param>, strict: bool) -> Value {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for p in params {
        let nullable = strict && !p.required;
        properties.insert(p.name.to_string(), param_schema(p, nullable, strict));
        if p.required || strict {
            required.push(Value::from(p.name));
        }
    }
    json!({
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": false,
    })
}

fn param_schema(p: &Param, nullable: bool, strict: bool) -> Value {
    // A nullable property lists "null" beside its type (and in its enum): strict mode's way
    // of saying "optional". https://json-schema.org/understanding-json-schema/reference/type
    let ty = |name: &str| {
        if nullable {
            json!([name, "null"])
        } else {
            json!(name)
        }
    };
    let mut schema = match p.ty {
        ParamType::String => json!({ "type": ty("string") }),
        ParamType::Boolean => json!({ "type": ty("boolean") }),
        ParamType::Integer { min, max } => {
            json!({ "type": ty("integer"), "minimum": min, "maximum": max })
        }
        ParamType::Enum(values) => {
            let mut values: Vec<Value> = values.iter().map(|v| Value::from(*v)).collect();
            if nullable {
                values.push(Value::Null);
            }
            json!({ "type": ty("string"), "enum": values })
        }
        ParamType::Strings => json!({ "type": ty("array"), "items": { "type": "string" } }),
        ParamType::Object(params) => {
            let mut schema = object_schema(params.iter(), strict);
            schema["type"] = ty("object");
            schema
        }
    };
    schema["description"] = Value::from(p.description);
    schema
}

/// Reads the render budgets of [`BUDGET_PARAMS`] out of tool arguments; absent or null ones
/// keep `base`'s value. Out-of-range values are an error naming the parameter.
pub fn budgets_from_args(
    args: &Map<String, Value>,
    base: RenderOptions,
) -> Result<RenderOptions, String> {
    let mut options = base;
    for p in BUDGET_PARAMS {
        let Some(n) = integer_arg(args, p)? else {
            continue;
        };
        let n = usize::try_from(n).map_err(|_| format!("{} is too large", p.name))?;
        match p.name {
            "max_chars" => options.max_chars_total = n,
            "max_nodes" => options.max_nodes = n,
            "max_depth" => options.max_depth = n,
            _ => options.max_siblings = n,
        }
    }
    Ok(options)
}

/// A string argument; `None` when absent or null.
pub fn string_arg<'a>(args: &'a Map<String, Value>, name: &str) -> Result<Option<&'a str>, String> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(other) => Err(format!("{name} must be a string, not {other}")),
    }
}

/// A boolean argument; `None` when absent or null.
pub fn bool_arg(args: &Map<String, Value>, name: &str) -> Result<Option<bool>, String> {
    match args.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::Bool(b)) => Ok(Some(*b)),
        Some(other) => Err(format!("{name} must be true or false, not {other}")),
    }
}

/// An integer argument checked against its parameter's range; `None` when absent or null.
pub fn integer_arg(args: &Map<String, Value>, p: &Param) -> Result<Option<u64>, String> {
    let value = match args.get(p.name) {
        None | Some(Value::Null) => return Ok(None),
        Some(v) => v,
    };
    let ParamType::Integer { min, max } = p.ty else {
        return Err(format!("{} is not an integer parameter", p.name));
    };
    match value.as_u64() {
        Some(n) if (min..=max).contains(&n) => Ok(Some(n)),
        _ => Err(format!(
            "{} must be an integer from {min} to {max}, not {value}",
            p.name
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_are_unique_and_sets_partition_the_table() {
        let mut names: Vec<_> = TOOLS.iter().map(|t| t.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), TOOLS.len());
        assert_eq!(
            specs(ToolSet::Offline).count()
                + specs(ToolSet::Live).count()
                + specs(ToolSet::Browser).count(),
            TOOLS.len()
        );
        assert_eq!(
            served(ToolSet::Live).count(),
            specs(ToolSet::Live).count() + 1
        );
        assert_eq!(
            specs(ToolSet::Offline).map(|t| t.name).collect::<Vec<_>>(),
            ["html_snapshot", "html_query", "html_read"]
        );
    }

    #[test]
    fn budgets_are_read_and_range_checked() {
        let args = json!({"max_chars": 500, "max_nodes": null});
        let args = args.as_object().unwrap();
        let o = budgets_from_args(args, RenderOptions::default()).unwrap();
        assert_eq!(o.max_chars_total, 500);
        assert_eq!(o.max_nodes, RenderOptions::default().max_nodes);

        let bad = json!({"max_chars": 5});
        let err = budgets_from_args(bad.as_object().unwrap(), RenderOptions::default());
        assert!(err
            .unwrap_err()
            .contains("max_chars must be an integer from 200"));
        let bad = json!({"max_depth": "3"});
        assert!(budgets_from_args(bad.as_object().unwrap(), RenderOptions::default()).is_err());
    }

    #[test]
    fn strict_schema_requires_everything_and_nulls_the_optional() {
        let spec = find("html_query").unwrap();
        let loose = input_schema(spec, false);
        assert_eq!(loose["required"], json!(["handle", "ref", "kind"]));
        assert_eq!(loose["properties"]["limit"]["type"], "integer");
        let strict = input_schema(spec, true);
        assert_eq!(
            strict["required"],
            json!(["handle", "ref", "kind", "limit"])
        );
        assert_eq!(
            strict["properties"]["limit"]["type"],
            json!(["integer", "null"])
        );
        assert_eq!(strict["properties"]["kind"]["type"], "string");
    }
}
