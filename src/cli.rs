//! Command-line interface. Parses arguments, reads input, calls the library, writes output.
//! Nothing here decides what a snapshot contains.

use std::io::{self, BufRead, Read, Write};
use std::path::{Path, PathBuf};

use clap::{Args, Parser, Subcommand, ValueEnum};

use agent_snapshot::{query, Document, Format, QueryKind, RenderOptions, TreeOptions};

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
    /// Answer a bounded question about one ref of a page.
    Query(QueryArgs),
    /// Render node-tree JSON (what agent-browser.js returns) with the usual budgets.
    Render(RenderArgs),
    /// Print agent-browser.js, the script to inject into a page.
    Script,
    /// Role, name, description and hidden state for JSON-lines cases on stdin
    /// ({"id", "html", "selector"} in, {"id", "role", "name", "description", "hidden"} out).
    Probe,
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
}

impl TreeArgs {
    fn options(&self) -> TreeOptions {
        TreeOptions {
            interactive_only: !self.all,
            cursor_interactive: !self.no_cursor_interactive,
            url: self.url.clone(),
            encoding: self.encoding.clone(),
            ..TreeOptions::default()
        }
    }
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Text,
    Json,
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
}

/// Runs the command line; returns the exit code.
pub fn run() -> i32 {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Snapshot(args) => snapshot(&args),
        Command::Query(args) => query_cmd(&args),
        Command::Probe => probe(),
        Command::Render(args) => render_cmd(&args),
        Command::Script => write_out(agent_snapshot::js::script()),
    };
    match result {
        Ok(()) => 0,
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
    let bytes = read_input(&args.file)?;
    let doc = Document::parse_bytes(&bytes, &args.tree.options())?;
    if args.tree_json {
        return write_out(&doc.tree().to_json());
    }
    write_out(&doc.snapshot(&args.budget.options()).text)
}

fn render_cmd(args: &RenderArgs) -> Result<(), CliError> {
    let bytes = read_input(&args.file)?;
    let json = String::from_utf8(bytes)
        .map_err(|e| CliError::Query(format!("node-tree JSON must be UTF-8: {e}")))?;
    let snap = agent_snapshot::js::render_snapshot(&json, &args.budget.options())?;
    write_out(&snap.text)
}

fn query_cmd(args: &QueryArgs) -> Result<(), CliError> {
    let bytes = read_input(&args.file)?;
    let doc = Document::parse_bytes(&bytes, &args.tree.options())?;
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
