//! Command-line interface. Parses arguments, reads input, calls the library, writes output.
//! Nothing here decides what a snapshot contains.

use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use agent_snapshot::style::{StyleOptions, Viewport};
use agent_snapshot::{
    query, render, Document, Format, QueryKind, ReadOptions, RenderOptions, TreeOptions, View,
};

#[derive(Parser)]
#[command(
    name = "agent-snapshot",
    version,
    about = "Turn web pages into short, budget-bounded snapshots with refs for LLM agents",
    long_about = "Turn web pages into short, budget-bounded snapshots with refs for LLM agents.\n\n\
                  Snapshot a page, then ask about a ref instead of reading HTML:\n  \
                  agent-snapshot snapshot page.html\n  \
                  agent-snapshot query page.html e5 --kind text"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Print the snapshot of an HTML page.
    Snapshot(SnapshotArgs),
    /// Print the main content of an HTML page as readable lines, with the snapshot's refs on
    /// its links, headings and images (what a web-fetch tool should return for an article).
    Read(ReadArgs),
    /// Answer a bounded question about one ref of a page.
    Query(QueryArgs),
    /// Render node-tree JSON (what agent-browser.js returns) with the usual budgets.
    Render(RenderArgs),
    /// Print agent-browser.js, the script to inject into a page.
    Script,
    /// Role, name, description and hidden state for JSON-lines cases on stdin
    /// ({"id", "html", "selector"} in, {"id", "role", "name", "description", "hidden"} out).
    Probe,
    /// Rewrite dumped agent sessions (JSON or JSONL) so that no tool result carries raw HTML.
    ///
    /// Exit status: 0 when everything was read, 2 when malformed input was copied through
    /// unchanged (each reported as file:line on stderr), 1 on any other error.
    Compress(CompressArgs),
    /// Print function-tool definitions for an agent API.
    Schema(SchemaArgs),
    /// Serve the tools over MCP on standard input and output.
    Mcp(McpArgs),
    /// Drive a real Chromium by refs: newline-delimited JSON requests on stdin, responses on
    /// stdout (see docs/agent-protocol.md). Closing stdin shuts the browser down.
    Agent(AgentArgs),
    /// Internal: ends Chromium when the agent process dies without closing it.
    #[command(hide = true)]
    Guard,
}

#[derive(Args)]
struct TreeArgs {
    /// Give refs to every content node (headings, list items, cells…), not only named ones.
    #[arg(long)]
    all: bool,
    /// Do not give refs to elements made interactive only by onclick/tabindex/contenteditable.
    #[arg(long)]
    no_cursor_interactive: bool,
    /// The page's URL, for the header (otherwise <base>, canonical link or og:url).
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// Decode the input with this encoding instead of sniffing it (e.g. windows-1250).
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// Ignore the page's own <style> sheets (style attributes still count).
    #[arg(long)]
    no_page_css: bool,
    /// The screen size the page's @media rules are evaluated for.
    #[arg(long, value_name = "WxH", default_value = "1280x800", value_parser = parse_viewport)]
    viewport: (u32, u32),
    /// Read the page as a browser with scripts (scripted) or without them (noscript: its
    /// <noscript> content shows). auto: the scripted view, unless the no-script one has far
    /// more content (the header then says view=noscript).
    #[arg(long, value_enum, default_value = "auto")]
    view: ViewArg,
}

#[derive(Clone, Copy, ValueEnum)]
enum ViewArg {
    Auto,
    Scripted,
    Noscript,
}

/// `1280x800` → (1280, 800).
fn parse_viewport(s: &str) -> Result<(u32, u32), String> {
    let err = || format!("expected WIDTHxHEIGHT in CSS pixels, e.g. 390x844, not {s:?}");
    let (w, h) = s.split_once(['x', 'X']).ok_or_else(err)?;
    let w = w.trim().parse().map_err(|_| err())?;
    let h = h.trim().parse().map_err(|_| err())?;
    Ok((w, h))
}

impl TreeArgs {
    fn options(&self) -> TreeOptions {
        let (width, height) = self.viewport;
        TreeOptions {
            interactive_only: !self.all,
            cursor_interactive: !self.no_cursor_interactive,
            url: self.url.clone(),
            encoding: self.encoding.clone(),
            style: StyleOptions {
                ignore_stylesheets: self.no_page_css,
                viewport: Viewport {
                    width,
                    height,
                    ..Viewport::default()
                },
            },
            view: match self.view {
                ViewArg::Auto => None,
                ViewArg::Scripted => Some(View::Scripted),
                ViewArg::Noscript => Some(View::NoScript),
            },
            ..TreeOptions::default()
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    /// The indented tree, text with its links inline.
    Text,
    /// The same lines as JSON objects.
    Json,
    /// One line per interactive element, no indentation: the cheapest element list.
    List,
}

#[derive(Args)]
struct BudgetArgs {
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: FormatArg,
    /// Hard limit on output characters, header included.
    #[arg(long, value_name = "N", default_value_t = RenderOptions::default().max_chars_total)]
    max_chars: usize,
    /// Most node lines.
    #[arg(long, value_name = "N", default_value_t = RenderOptions::default().max_nodes)]
    max_nodes: usize,
    /// Deepest indentation level.
    #[arg(long, value_name = "N", default_value_t = RenderOptions::default().max_depth)]
    max_depth: usize,
    /// Most children shown under one parent before the rest fold into one line.
    #[arg(long, value_name = "N", default_value_t = RenderOptions::default().max_siblings)]
    max_siblings: usize,
    /// Keep structural branches that hold no ref.
    #[arg(long)]
    no_compact: bool,
}

impl BudgetArgs {
    fn options(&self) -> RenderOptions {
        RenderOptions {
            max_chars_total: self.max_chars,
            max_nodes: self.max_nodes,
            max_depth: self.max_depth,
            max_siblings: self.max_siblings,
            compact: !self.no_compact,
            format: match self.format {
                FormatArg::Text => Format::Text,
                FormatArg::Json => Format::Json,
                FormatArg::List => Format::List,
            },
            ..RenderOptions::default()
        }
    }
}

#[derive(Args)]
struct SnapshotArgs {
    /// HTML file to read, or - for standard input.
    #[arg(default_value = "-")]
    file: PathBuf,
    #[command(flatten)]
    tree: TreeArgs,
    #[command(flatten)]
    budget: BudgetArgs,
    /// Print the node tree (the JSON the in-browser script also produces) instead.
    #[arg(long)]
    tree_json: bool,
    /// Snapshot one part of the page: a ref (e12, as a folded stub line shows it) or a CSS
    /// selector (its first visible match). Refs stay the whole page's.
    #[arg(long, value_name = "REF|CSS", conflicts_with = "tree_json")]
    scope: Option<String>,
}

#[derive(Args)]
struct ReadArgs {
    /// HTML file to read, or - for standard input.
    #[arg(default_value = "-")]
    file: PathBuf,
    #[command(flatten)]
    tree: TreeArgs,
    /// Hard limit on output characters, header and last line included.
    #[arg(long, value_name = "N", default_value_t = ReadOptions::default().max_chars_total)]
    max_chars: usize,
    /// Continue a cut read: start at the block holding this ref (the cut read's last line
    /// names it).
    #[arg(long, value_name = "REF")]
    from: Option<String>,
    /// Output format: the text, or JSON with the text, the ref map and the stats.
    #[arg(long, value_enum, default_value = "text")]
    format: FormatArg,
}

#[derive(Args)]
struct RenderArgs {
    /// Node-tree JSON file, or - for standard input.
    #[arg(default_value = "-")]
    file: PathBuf,
    #[command(flatten)]
    budget: BudgetArgs,
}

#[derive(Clone, Copy, ValueEnum)]
enum KindArg {
    Text,
    Attrs,
    Html,
    Value,
}

#[derive(Args)]
struct QueryArgs {
    /// HTML file to read, or - for standard input.
    file: PathBuf,
    /// The ref to ask about, as shown in the snapshot (e.g. e5).
    #[arg(value_name = "REF")]
    ref_: String,
    #[command(flatten)]
    tree: TreeArgs,
    /// What to ask.
    #[arg(long, value_enum, default_value = "text")]
    kind: KindArg,
    /// Most characters in the answer.
    #[arg(long, value_name = "N", default_value_t = 4000)]
    limit: usize,
    /// Print the whole result as JSON ({ref, kind, value, truncated, error}).
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
struct CompressArgs {
    /// A session file (.json or .jsonl), a directory of them, or - for standard input.
    input: PathBuf,
    /// Where to write: a file (default: standard output) or, for a directory, a directory.
    #[arg(short, long, value_name = "PATH")]
    output: Option<PathBuf>,
    /// Replace only HTML outputs at least this many bytes long.
    #[arg(long, value_name = "BYTES", default_value_t = 2000)]
    min_len: usize,
    /// Skip counting o200k tokens (the summary then shows bytes only).
    #[arg(long)]
    no_tokens: bool,
    #[command(flatten)]
    budget: BudgetArgs,
}

#[derive(Clone, Copy, ValueEnum)]
enum FlavorArg {
    /// OpenAI Responses API, strict mode.
    Openai,
    /// OpenAI Chat Completions.
    Chat,
    /// Anthropic Messages (input_schema).
    Anthropic,
    /// MCP tools/list entries (inputSchema).
    Mcp,
}

#[derive(Clone, Copy, ValueEnum)]
enum ToolSetArg {
    Offline,
    Live,
    /// The design's single multiplexed `browser` tool.
    Browser,
    All,
}

#[derive(Args)]
struct SchemaArgs {
    /// The API whose tool format to print.
    #[arg(long, value_enum, default_value = "openai")]
    flavor: FlavorArg,
    /// Which tools: offline (html_*), live (web_*), browser (one multiplexed tool) or all.
    #[arg(long, value_enum, default_value = "all")]
    tools: ToolSetArg,
}

#[derive(Args)]
struct McpArgs {
    /// Parsed documents kept for html_query, in megabytes of HTML (least recently used out).
    #[arg(long, value_name = "MB", default_value_t = 256)]
    cache_mb: usize,
    /// Serve the live browser tools (web_snapshot, web_click…) instead, driving Chromium.
    #[arg(long)]
    live: bool,
    /// With --live: the page to open first, launching the browser at once (otherwise the
    /// first tool call launches it).
    #[arg(long, value_name = "URL", requires = "live")]
    start_url: Option<String>,
    #[command(flatten)]
    browser: BrowserArgs,
}

#[derive(Args)]
struct BrowserArgs {
    /// Run Chromium without a window.
    #[arg(long)]
    headless: bool,
    /// The Chromium executable to launch.
    #[arg(long, value_name = "PATH", default_value = "/usr/bin/chromium")]
    browser: PathBuf,
    /// Profile directory (default: a fresh temporary one, removed at exit).
    #[arg(long, value_name = "DIR")]
    user_data_dir: Option<PathBuf>,
    /// Attach to a running browser (started with --remote-debugging-port) instead of
    /// launching one: a port, http://host:port or a ws:// URL.
    #[arg(long, value_name = "URL|PORT")]
    attach: Option<String>,
    /// Show a panel in the page that logs each command and outlines the element an action
    /// touches (for a person watching; never in a snapshot).
    #[arg(long)]
    sidebar: bool,
    /// How long a handoff waits for a person to press Resume, in seconds.
    #[arg(long, value_name = "SECS", default_value_t = 600)]
    handoff_timeout: u64,
    /// Answer the page's dialogs (alert, confirm, prompt, beforeunload) at once instead of
    /// leaving them for the `dialog` command; each one is still reported.
    #[arg(long, value_name = "accept|dismiss", value_parser = ["accept", "dismiss"])]
    dialogs: Option<String>,
}

impl BrowserArgs {
    fn options(&self) -> agent_snapshot::live::LaunchOptions {
        agent_snapshot::live::LaunchOptions {
            headless: self.headless,
            browser: self.browser.clone(),
            user_data_dir: self.user_data_dir.clone(),
            attach: self.attach.clone(),
            sidebar: self.sidebar,
            handoff_timeout: std::time::Duration::from_secs(self.handoff_timeout),
            dialogs: match self.dialogs.as_deref() {
                Some("accept") => agent_snapshot::live::DialogPolicy::Accept,
                Some("dismiss") => agent_snapshot::live::DialogPolicy::Dismiss,
                _ => agent_snapshot::live::DialogPolicy::Ask,
            },
            ..Default::default()
        }
    }
}

#[derive(Args)]
struct AgentArgs {
    #[command(flatten)]
    browser: BrowserArgs,
}

/// A failure, with the message the user sees.
#[derive(Debug, thiserror::Error)]
enum CliError {
    #[error("cannot read {path}: {source}")]
    Read { path: String, source: io::Error },
    #[error(transparent)]
    Library(#[from] agent_snapshot::Error),
    #[error("{0}")]
    Query(String),
    #[error("cannot write output: {0}")]
    Write(io::Error),
    #[error(transparent)]
    Session(#[from] agent_snapshot::session::SessionError),
    #[error("{0}")]
    Usage(String),
    /// The run finished, but copied malformed input through (already reported).
    #[error("{0} malformed input(s) copied through unchanged")]
    Malformed(u64),
}

/// Runs the command line; returns the exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Snapshot(args) => snapshot(&args),
        Command::Read(args) => read_cmd(&args),
        Command::Query(args) => query_cmd(&args),
        Command::Probe => probe(),
        Command::Render(args) => render_cmd(&args),
        Command::Script => write_out(agent_snapshot::js::script()),
        Command::Compress(args) => compress(&args),
        Command::Schema(args) => schema(&args),
        Command::Mcp(args) => mcp(&args),
        Command::Agent(args) => agent(&args),
        Command::Guard => {
            agent_snapshot::live::run_guard();
            Ok(())
        }
    };
    match result {
        Ok(()) => 0,
        Err(e @ CliError::Malformed(_)) => {
            eprintln!("agent-snapshot: {e}");
            2
        }
        // `agent-snapshot … | head` closes the pipe early: that is success, not an error.
        Err(CliError::Write(e)) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(e) => {
            eprintln!("agent-snapshot: {e}");
            1
        }
    }
}

fn read_input(path: &Path) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    let result = if path.as_os_str() == "-" {
        io::stdin().lock().read_to_end(&mut bytes).map(|_| ())
    } else {
        std::fs::read(path).map(|b| bytes = b)
    };
    result.map_err(|source| CliError::Read {
        path: if path.as_os_str() == "-" {
            "standard input".to_string()
        } else {
            format!("{:?}", path.display().to_string())
        },
        source,
    })?;
    Ok(bytes)
}

fn write_out(text: &str) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.write_all(b"\n"))
        .and_then(|()| out.flush())
        .map_err(CliError::Write)
}

fn snapshot(args: &SnapshotArgs) -> Result<(), CliError> {
    if let Some(scope) = &args.scope {
        let doc = Document::parse_bytes(read_input(&args.file)?, &args.tree.options())?;
        let snap = doc
            .snapshot_scoped(scope, &args.budget.options())
            .map_err(|e| CliError::Query(e.to_string()))?;
        return write_out(&snap.text);
    }
    // Handed over by value: the document frees the input once parsed, before the walk; and
    // the arena goes once the tree is built, so the render's memory is not added to it.
    let tree = Document::parse_bytes(read_input(&args.file)?, &args.tree.options())?.into_tree();
    let out = if args.tree_json {
        write_out(&tree.to_json())
    } else {
        write_out(&render(&tree, &args.budget.options()).text)
    };
    // The process is about to exit and the OS takes the memory back at once: freeing the
    // tree one allocation at a time was a tenth of the command's instructions.
    std::mem::forget(tree);
    out
}

fn read_cmd(args: &ReadArgs) -> Result<(), CliError> {
    let from = match args.from.as_deref() {
        None => None,
        Some(s) => Some(agent_snapshot::read::parse_ref(s).ok_or_else(|| {
            CliError::Usage(format!(
                "--from {s:?} is not a ref: give one like e57, as a cut read's last line names it"
            ))
        })?),
    };
    let doc = Document::parse_bytes(read_input(&args.file)?, &args.tree.options())?;
    let options = ReadOptions {
        max_chars_total: args.max_chars,
        from,
    };
    let result = doc
        .read(&options)
        .map_err(|e| CliError::Query(e.to_string()))?;
    match args.format {
        FormatArg::Text => write_out(&result.text),
        FormatArg::Json => {
            write_out(&serde_json::to_string(&result).map_err(|e| CliError::Query(e.to_string()))?)
        }
        FormatArg::List => Err(CliError::Query(
            "read has no list format: use --format text or json (or `snapshot --format list`)"
                .to_string(),
        )),
    }
}

fn render_cmd(args: &RenderArgs) -> Result<(), CliError> {
    let bytes = read_input(&args.file)?;
    let json = String::from_utf8(bytes)
        .map_err(|e| CliError::Query(format!("node-tree JSON must be UTF-8: {e}")))?;
    let snap = agent_snapshot::js::render_snapshot(&json, &args.budget.options())?;
    write_out(&snap.text)
}

fn query_cmd(args: &QueryArgs) -> Result<(), CliError> {
    let doc = Document::parse_bytes(read_input(&args.file)?, &args.tree.options())?;
    let kind = match args.kind {
        KindArg::Text => QueryKind::Text,
        KindArg::Attrs => QueryKind::Attrs,
        KindArg::Html => QueryKind::OuterHtml,
        KindArg::Value => QueryKind::Value,
    };
    let result = query(&doc, &args.ref_, kind, args.limit);
    if args.json {
        let json = serde_json::to_string(&result).map_err(|e| CliError::Query(e.to_string()))?;
        write_out(&json)?;
    } else if result.error.is_none() {
        write_out(&result.value)?;
    }
    match result.error {
        Some(e) => Err(CliError::Query(format!(
            "{} (the page has {} refs; run `agent-snapshot snapshot` with the same options to see them)",
            e.message(&args.ref_),
            doc.ref_count()
        ))),
        None => Ok(()),
    }
}

fn probe() -> Result<(), CliError> {
    let stdin = io::stdin().lock();
    let mut out = io::BufWriter::new(io::stdout().lock());
    for (n, line) in stdin.split(b'\n').enumerate() {
        let line = line.map_err(|source| CliError::Read {
            path: "standard input".to_string(),
            source,
        })?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let text = String::from_utf8_lossy(&line);
        let mut result = agent_snapshot::probe::probe_line(&text);
        if let Some(e) = &mut result.error {
            *e = format!("line {}: {e}", n + 1);
        }
        let json = serde_json::to_string(&result).map_err(|e| CliError::Query(e.to_string()))?;
        writeln!(out, "{json}").map_err(CliError::Write)?;
    }
    out.flush().map_err(CliError::Write)
}

fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the async runtime: {e}")))
}

fn mcp(args: &McpArgs) -> Result<(), CliError> {
    use agent_snapshot::mcp::{LiveTools, OfflineTools, Server};
    let rt = runtime()?;
    if args.live {
        let tools = rt
            .block_on(LiveTools::start(
                args.browser.options(),
                args.start_url.as_deref(),
            ))
            .map_err(CliError::Usage)?;
        return rt
            .block_on(Server::new(tools).serve_stdio())
            .map_err(CliError::Usage);
    }
    let server = Server::new(OfflineTools::new(args.cache_mb.saturating_mul(1 << 20)));
    rt.block_on(server.serve_stdio()).map_err(CliError::Usage)
}

fn agent(args: &AgentArgs) -> Result<(), CliError> {
    runtime()?
        .block_on(agent_snapshot::live::run_stdio(args.browser.options()))
        .map_err(CliError::Usage)
}

fn schema(args: &SchemaArgs) -> Result<(), CliError> {
    use agent_snapshot::tools::{definitions, Flavor, ToolSet};
    let flavor = match args.flavor {
        FlavorArg::Openai => Flavor::OpenAi,
        FlavorArg::Chat => Flavor::Chat,
        FlavorArg::Anthropic => Flavor::Anthropic,
        FlavorArg::Mcp => Flavor::Mcp,
    };
    let set = match args.tools {
        ToolSetArg::Offline => ToolSet::Offline,
        ToolSetArg::Live => ToolSet::Live,
        ToolSetArg::Browser => ToolSet::Browser,
        ToolSetArg::All => ToolSet::All,
    };
    let json = serde_json::to_string_pretty(&definitions(flavor, set))
        .map_err(|e| CliError::Query(e.to_string()))?;
    write_out(&json)
}

fn compress(args: &CompressArgs) -> Result<(), CliError> {
    use agent_snapshot::session::{self, CompressOptions, InputFormat, Report};
    use indicatif::{ProgressBar, ProgressStyle};
    use std::io::IsTerminal;

    let options = CompressOptions {
        min_len: args.min_len,
        render: args.budget.options(),
        count_tokens: !args.no_tokens,
        ..CompressOptions::default()
    };
    let started = std::time::Instant::now();
    // The bar only when a person watches: a pipe or a log gets nothing but the summary.
    let bar = |total: Option<u64>| {
        if !io::stderr().is_terminal() {
            return ProgressBar::hidden();
        }
        let bar = match total {
            Some(total) => ProgressBar::new(total),
            None => ProgressBar::new_spinner(),
        };
        if let Ok(style) = ProgressStyle::with_template(
            "{spinner} {msg} [{bar:30}] {binary_bytes}/{binary_total_bytes} ({binary_bytes_per_sec}, {eta})",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    };
    let report_malformed = |name: &str, report: &Report| {
        for m in &report.malformed {
            eprintln!(
                "{name}:{}: malformed JSON, copied unchanged: {}",
                m.line, m.message
            );
        }
    };

    let mut total = Report::default();
    let mut files = 0u64;
    if args.input.is_dir() {
        let Some(out_dir) = &args.output else {
            return Err(CliError::Usage(
                "compressing a directory needs -o OUTDIR for the compressed copies".to_string(),
            ));
        };
        let list = session::session_files(&args.input)?;
        let sizes: u64 = list
            .iter()
            .filter_map(|f| std::fs::metadata(args.input.join(f)).ok())
            .map(|m| m.len())
            .sum();
        let bar = bar(Some(sizes));
        let mut base = 0;
        for rel in &list {
            let (src, dst) = (args.input.join(rel), out_dir.join(rel));
            if let Some(parent) = dst.parent() {
                std::fs::create_dir_all(parent).map_err(|source| CliError::Read {
                    path: parent.display().to_string(),
                    source,
                })?;
            }
            bar.set_message(rel.display().to_string());
            let report =
                session::compress_file(&src, &dst, &options, &|n| bar.set_position(base + n))?;
            base += report.stats.bytes_before;
            report_malformed(&src.display().to_string(), &report);
            files += 1;
            total.stats += report.stats;
            total.malformed.extend(report.malformed);
        }
        bar.finish_and_clear();
    } else if args.input.as_os_str() == "-" || args.output.is_none() {
        // Streamed: standard input, or any input to standard output.
        let name = if args.input.as_os_str() == "-" {
            "<stdin>".to_string()
        } else {
            args.input.display().to_string()
        };
        let mut reader: Box<dyn BufRead> = if args.input.as_os_str() == "-" {
            Box::new(io::BufReader::with_capacity(1 << 20, io::stdin().lock()))
        } else {
            let file = std::fs::File::open(&args.input).map_err(|source| CliError::Read {
                path: name.clone(),
                source,
            })?;
            Box::new(io::BufReader::with_capacity(1 << 20, file))
        };
        let read_err = |source| CliError::Read {
            path: name.clone(),
            source,
        };
        let format = match InputFormat::from_path(&args.input) {
            Some(format) => format,
            None => InputFormat::sniff(reader.fill_buf().map_err(read_err)?),
        };
        let size = std::fs::metadata(&args.input).ok().map(|m| m.len());
        let bar = bar(size);
        let report = match (&args.output, format) {
            (None, InputFormat::Jsonl) => {
                let out = io::BufWriter::with_capacity(1 << 20, io::stdout().lock());
                session::compress_jsonl(reader, out, &options, &|n| bar.set_position(n))
                    .map_err(CliError::Write)?
            }
            (Some(path), InputFormat::Jsonl) => write_atomically(path, |file| {
                let out = io::BufWriter::with_capacity(1 << 20, file);
                session::compress_jsonl(reader, out, &options, &|n| bar.set_position(n))
            })?,
            (output, InputFormat::Json) => {
                let mut bytes = Vec::new();
                reader.read_to_end(&mut bytes).map_err(read_err)?;
                let (out, report) = session::compress_json(&bytes, &options);
                match output {
                    Some(path) => write_atomically(path, |file| file.write_all(&out))?,
                    None => io::stdout()
                        .lock()
                        .write_all(&out)
                        .map_err(CliError::Write)?,
                }
                report
            }
        };
        bar.finish_and_clear();
        report_malformed(&name, &report);
        files = 1;
        total = report;
    } else if let Some(output) = &args.output {
        let bar = bar(std::fs::metadata(&args.input).ok().map(|m| m.len()));
        let report =
            session::compress_file(&args.input, output, &options, &|n| bar.set_position(n))?;
        bar.finish_and_clear();
        report_malformed(&args.input.display().to_string(), &report);
        files = 1;
        total = report;
    }
    print_summary(files, &total, started.elapsed(), options.count_tokens);
    match total.malformed.len() as u64 {
        0 => Ok(()),
        n => Err(CliError::Malformed(n)),
    }
}

/// [`agent_snapshot::atomic::write_with`], with the CLI's error.
fn write_atomically<R>(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> io::Result<R>,
) -> Result<R, CliError> {
    agent_snapshot::atomic::write_with(path, write).map_err(CliError::Write)
}

fn print_summary(
    files: u64,
    report: &agent_snapshot::session::Report,
    elapsed: std::time::Duration,
    tokens: bool,
) {
    let s = &report.stats;
    let secs = elapsed.as_secs_f64();
    let mb = |b: u64| b as f64 / 1e6;
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    eprintln!(
        "compress: {files} file(s), {} item(s), {} HTML output(s) replaced, {} malformed",
        s.items,
        s.outputs_replaced,
        report.malformed.len()
    );
    eprintln!(
        "  bytes:  {:.1} MB -> {:.1} MB ({:.1}x smaller)",
        mb(s.bytes_before),
        mb(s.bytes_after),
        ratio(s.bytes_before, s.bytes_after)
    );
    if tokens {
        eprintln!(
            "  tokens (o200k, replaced outputs): {} -> {} ({:.1}x fewer)",
            s.tokens_before,
            s.tokens_after,
            ratio(s.tokens_before, s.tokens_after)
        );
    }
    eprintln!(
        "  time:   {secs:.2} s ({:.1} MB/s)",
        if secs > 0.0 {
            mb(s.bytes_before) / secs
        } else {
            0.0
        }
    );
}
