//! The `agent-snapshot` command: a thin layer over the library (see `cli`).

mod cli;

fn main() {
    std::process::exit(cli::run());
}
