"""`read` and `snapshot` against `trafilatura.extract` in one Python process, one thread each,
on the first N pages of ../shared/web2025 (issue 25's speed measure).

    pip install ./bindings/python trafilatura lxml_html_clean   # in a venv (trafilatura 2.3 needs lxml_html_clean)
    python scripts/speed/vs_trafilatura.py [N]     # from the repo root; N = 200 by default
"""
import glob
import gzip
import sys
import time

import agent_snapshot
import trafilatura

n = int(sys.argv[1]) if len(sys.argv) > 1 else 200
files = sorted(glob.glob("../shared/web2025/pages/*.html.gz"))[:n]
if not files:
    sys.exit("no pages: ../shared/web2025 is absent")
pages = [gzip.open(p).read().decode("utf-8", "replace") for p in files]


def seconds(f):
    start = time.perf_counter()
    for html in pages:
        f(html)
    return time.perf_counter() - start


extract = seconds(trafilatura.extract)
read = seconds(lambda h: agent_snapshot.Document(h, threads="one").read())
snap = seconds(lambda h: agent_snapshot.Document(h, threads="one").snapshot())
print(
    f"{len(pages)} pages: trafilatura {extract:.2f} s, read {read:.2f} s "
    f"({extract / read:.1f}x), snapshot {snap:.2f} s ({extract / snap:.1f}x)"
)
