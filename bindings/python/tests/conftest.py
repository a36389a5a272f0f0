"""Shared fixtures: the repository's pages and the CLI built from the same crate."""

import os
import shutil
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[3]
LOCAL_CORPUS = REPO / "corpus"
# The shared corpus sits beside the repository when it is there (never copied into it).
SHARED_CORPUS = REPO.parent / "shared" / "corpus"


def corpus_pages():
    """The repository's pages, then the shared corpus's when it is beside the repository."""
    pages = sorted(LOCAL_CORPUS.glob("*.html"))
    if SHARED_CORPUS.is_dir():
        pages += sorted(SHARED_CORPUS.glob("*.html"))
    return pages


def find_cli():
    """The CLI to compare with: $AGENT_SNAPSHOT_CLI, else the newest build in target/."""
    named = os.environ.get("AGENT_SNAPSHOT_CLI")
    if named:
        return Path(named)
    built = [p for p in (REPO / "target" / d / "agent-snapshot" for d in ("release", "debug")) if p.exists()]
    if built:
        return max(built, key=lambda p: p.stat().st_mtime)
    found = shutil.which("agent-snapshot")
    return Path(found) if found else None


def skip_or_fail(reason):
    """Skips a test whose tool is missing; with AGENT_SNAPSHOT_STRICT=1 (CI), fails it."""
    if os.environ.get("AGENT_SNAPSHOT_STRICT") == "1":
        pytest.fail(f"{reason} (AGENT_SNAPSHOT_STRICT=1: nothing may be skipped)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


@pytest.fixture(scope="session")
def cli():
    path = find_cli()
    if path is None or not path.exists():
        skip_or_fail(
            "no agent-snapshot CLI to compare with: build it (cargo build --release) "
            "or set AGENT_SNAPSHOT_CLI"
        )
    return path


# Measurements tests make (speeds, scaling): printed at the end of the run, never asserted on
# wall time.
REPORT = []


def pytest_terminal_summary(terminalreporter):
    if REPORT:
        terminalreporter.section("agent_snapshot measurements")
        for line in REPORT:
            terminalreporter.write_line(line)
