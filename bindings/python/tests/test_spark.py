"""The Spark example, as written, in local[2]: every row against the crate's own output."""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import agent_snapshot

from conftest import LOCAL_CORPUS, REPO, REPORT, SHARED_CORPUS, corpus_pages, skip_or_fail

try:
    import pyarrow.parquet as pq
    import pandas  # noqa: F401
    import pyspark  # noqa: F401
except ImportError as e:
    skip_or_fail(f"the Spark test needs pyspark, pyarrow and pandas (pip install pyspark pyarrow pandas): {e}")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    skip_or_fail("Spark needs Java 17 or later: none found (apt-get install openjdk-17-jre-headless)")

EXAMPLE = REPO / "examples" / "spark_snapshot.py"


def run_job(*args):
    env = dict(os.environ)
    # The executors' Python must be the one with agent_snapshot installed.
    env.setdefault("PYSPARK_PYTHON", sys.executable)
    out = subprocess.run(
        [sys.executable, str(EXAMPLE), *map(str, args), "--master", "local[2]"],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
    )
    assert out.returncode == 0, out.stderr[-4000:]
    line = out.stdout.strip().splitlines()[-1]
    rate = re.search(r"(\d+) pages in ([\d.]+) s \(([\d.]+) pages/s\)", line)
    assert rate, out.stdout
    return int(rate.group(1)), float(rate.group(2)), float(rate.group(3))


def rows(path):
    return pq.read_table(path).to_pylist()


def test_folders_of_pages(tmp_path):
    inputs = [LOCAL_CORPUS] + ([SHARED_CORPUS] if SHARED_CORPUS.is_dir() else [])
    out = tmp_path / "out.parquet"
    count, seconds, rate = run_job(*inputs, out)
    REPORT.append(f"spark local[2]: {count} pages in {seconds:.2f} s, {rate:.1f} pages/s (folders of pages)")
    got = rows(out)
    pages = corpus_pages()
    assert count == len(got) == len(pages)
    by_path = {Path(unquote(urlparse(r["path"]).path)).resolve(): r for r in got}
    assert set(by_path) == {p.resolve() for p in pages}
    for page in pages:
        row = by_path[page.resolve()]
        expected = agent_snapshot.snapshot(page.read_bytes())
        assert row["error"] is None, page
        assert row["snapshot"] == expected.text, page
        assert row["refs"] == len(expected.refs), page
        assert row["truncated"] == expected.stats.truncated, page
        assert "content" not in row


def test_jsonl_rows_with_an_html_column(tmp_path):
    source = tmp_path / "pages.jsonl"
    pages = sorted(LOCAL_CORPUS.glob("*.html"))
    with source.open("w") as f:
        for i, page in enumerate(pages):
            f.write(json.dumps({"id": i, "html": page.read_text("utf-8")}) + "\n")
        f.write(json.dumps({"id": len(pages), "html": None}) + "\n")
    out = tmp_path / "out.parquet"
    count, _, _ = run_job(source, out, "--max-chars-total", "2000")
    got = {r["id"]: r for r in rows(out)}
    assert count == len(got) == len(pages) + 1
    for i, page in enumerate(pages):
        expected = agent_snapshot.snapshot(page.read_text("utf-8"), max_chars_total=2000)
        assert got[i]["snapshot"] == expected.text
        assert got[i]["refs"] == len(expected.refs)
        assert got[i]["truncated"] == expected.stats.truncated
    assert got[len(pages)]["snapshot"] is None and got[len(pages)]["error"] == "no html"
