#!/usr/bin/env python3
"""How much of web2025's main content an extractor that keeps to visible text can carry, and
where a command's misses fall: text it passed over, or text no person sees.

    cargo build --release
    python3 scripts/eval/ceiling.py [--cmd 'TEMPLATE'] [--jobs N]     # from the repo root

Each `with` sentence of ../shared/web2025/truth.jsonl (the sentences a good extraction must
carry) is looked up, as a run of words (score.py's matching), in:

- the first 12 000 characters of the page's true main content: what a perfect extractor
  carries within `read`'s default budget;
- the page's visible text, taken to be what an unbudgeted snapshot writes (every limit
  lifted): text in `<noscript>`, in script data (JSON, JSON-LD) or hidden by the page's sheets
  is not there, and by the project's rules must not reach the model.

With `--cmd` (default: `read` unbudgeted), the command's misses are split into *passed over*
(the sentence is visible: the choice of region or cleaning lost it) and *not visible* (out of
reach for an extractor that keeps to visible text). The per-type table says where a better
choice can still gain; `--worst N` lists the N pages with the most sentences passed over.
"""
import gzip
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WEB = os.path.join(ROOT, "..", "shared", "web2025")
sys.path.insert(0, os.path.join(ROOT, "..", "shared", "reading"))

BUDGET = 12_000
BIN = "target/release/agent-snapshot"
UNBUDGETED = (
    f"{BIN} snapshot --max-chars 100000000 --max-nodes 100000000 --max-depth 100000 "
    "--max-siblings 100000000 {page}"
)
WORD = re.compile(r"\w+")


def words(text):
    return " " + " ".join(WORD.findall(text.lower())) + " "


def main():
    if not os.path.exists(os.path.join(WEB, "truth.jsonl")):
        sys.exit("../shared/web2025 is absent: nothing to measure")
    from score import plain  # ../shared/reading/score.py, as web2025/score.py uses it

    args = sys.argv[1:]
    opt = lambda k, d=None: args[args.index(k) + 1] if k in args else d
    cmd = opt("--cmd", f"{BIN} read --max-chars 100000000 {{page}}")
    jobs = int(opt("--jobs", str(os.cpu_count() or 2)))
    worst = int(opt("--worst", "0"))
    pages = [json.loads(l) for l in open(os.path.join(WEB, "truth.jsonl"), encoding="utf-8")]
    tmp = tempfile.mkdtemp(prefix="ceiling-")

    def output(template, path):
        r = subprocess.run(
            shlex.split(template.replace("{page}", shlex.quote(path))), capture_output=True, cwd=ROOT
        )
        return words(plain(r.stdout.decode("utf-8", "replace")))

    def run(p):
        path = os.path.join(tmp, p["id"] + ".html")
        with gzip.open(os.path.join(WEB, "pages", p["id"] + ".html.gz")) as f, open(path, "wb") as o:
            o.write(f.read())
        visible, out = output(UNBUDGETED, path), output(cmd, path)
        os.unlink(path)
        head = words(p["main_content"][:BUDGET])
        counts = defaultdict(int)
        for s in p["with"]:
            w = words(s)
            if not w.strip():
                continue
            counts["n"] += 1
            counts["perfect@12k"] += w in head
            counts["visible"] += w in visible
            counts["visible@12k"] += w in visible and w in head
            if w in out:
                counts["carried"] += 1
            elif w in visible:
                counts["passed over"] += 1
            else:
                counts["not visible"] += 1
        return p["type"], counts, p["id"], p["url"]

    with ThreadPoolExecutor(jobs) as ex:
        rows = list(ex.map(run, pages))
    os.rmdir(tmp)
    cols = ["perfect@12k", "visible", "visible@12k", "carried", "passed over", "not visible"]
    print(f"command: {cmd}")
    print(f"{'type':<14} {'with':>5} " + " ".join(f"{c:>12}" for c in cols))
    for t in sorted({r[0] for r in rows}) + ["ALL"]:
        total = defaultdict(int)
        for rt, c, _, _ in rows:
            if t in ("ALL", rt):
                for k, v in c.items():
                    total[k] += v
        n = max(total["n"], 1)
        print(f"{t:<14} {total['n']:>5} " + " ".join(f"{total[c] / n:>12.3f}" for c in cols))
    ranked = sorted(rows, key=lambda r: -r[1]["passed over"])
    for t, c, pid, url in [r for r in ranked if r[1]["passed over"]][:worst]:
        print(f"{pid} {t:<14} passed over {c['passed over']}/{c['n']}  {url}")


if __name__ == "__main__":
    main()
