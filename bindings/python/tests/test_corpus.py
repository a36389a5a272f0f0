"""The binding gives the CLI's bytes: snapshots and queries on every corpus page."""

import json
import re
import subprocess

import pytest

import agent_snapshot

from conftest import LOCAL_CORPUS, corpus_pages

PAGES = corpus_pages()


def run_cli(cli, *args):
    out = subprocess.run([str(cli), *map(str, args)], capture_output=True, check=False)
    return out.returncode, out.stdout.decode("utf-8"), out.stderr.decode("utf-8")


def cli_snapshot(cli, page, *flags):
    code, out, err = run_cli(cli, "snapshot", page, *flags)
    assert code == 0, err
    # The CLI ends its output with one newline; the text has none.
    assert out.endswith("\n")
    return out[:-1]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_snapshot_is_byte_identical_to_the_cli(cli, page):
    expected = cli_snapshot(cli, page)
    html = page.read_bytes()
    assert agent_snapshot.snapshot(html).text == expected
    doc = agent_snapshot.Document(html)
    snap = doc.snapshot()
    assert snap.text == expected
    # The ref map holds exactly the refs the text shows, in order.
    shown = [a or b for a, b in re.findall(r"\[ref=(e\d+)\]|\]\((e\d+)\)", expected)]
    assert list(snap.refs) == shown
    assert snap.stats.chars_emitted == len(expected)
    assert ("truncated=true" in expected.splitlines()[0]) == snap.stats.truncated


LOCAL = sorted(LOCAL_CORPUS.glob("*.html"))


@pytest.mark.parametrize("page", LOCAL, ids=[p.name for p in LOCAL])
def test_options_reach_the_crate_as_the_cli_flags_do(cli, page):
    html = page.read_bytes()
    flags = ["--all", "--no-compact", "--max-chars", "3000", "--max-nodes", "40", "--format", "json"]
    got = agent_snapshot.snapshot(
        html, interactive_only=False, compact=False, max_chars_total=3000, max_nodes=40, format="json"
    )
    assert got.text == cli_snapshot(cli, page, *flags)
    assert got.stats.chars_emitted <= 3000


@pytest.mark.parametrize("page", LOCAL, ids=[p.name for p in LOCAL])
def test_queries_match_the_cli(cli, page):
    doc = agent_snapshot.Document(page.read_bytes())
    refs = list(doc.snapshot().refs)[:3] + [f"e{doc.ref_count}", "e999999"]
    for ref in refs:
        for kind in ("text", "attrs", "html", "value"):
            code, out, _ = run_cli(cli, "query", page, ref, "--kind", kind, "--limit", "300", "--json")
            expected = json.loads(out)
            got = doc.query(ref, kind=kind, limit=300)
            assert got.value == expected["value"], (ref, kind)
            assert got.truncated == expected["truncated"]
            assert got.error == expected.get("error")
            assert (code == 0) == (got.error is None)
