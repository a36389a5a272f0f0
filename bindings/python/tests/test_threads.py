"""Threads: the GIL is released while the crate works, results do not depend on threads, and
the speed-up of two threads is measured (reported, not asserted: the machine is shared)."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import agent_snapshot
from agent_snapshot import Document

from conftest import LOCAL_CORPUS, REPORT

PAGE = (LOCAL_CORPUS / "shop-600k.html").read_bytes()
BIG = (LOCAL_CORPUS / "shop-2m.html").read_bytes()


def test_threads_share_documents_and_agree():
    pages = [p.read_bytes() for p in sorted(LOCAL_CORPUS.glob("*.html"))]
    expected = [agent_snapshot.snapshot(p).text for p in pages]
    docs = [Document(p) for p in pages]
    with ThreadPoolExecutor(4) as pool:
        fresh = list(pool.map(lambda p: agent_snapshot.snapshot(p, threads="one").text, pages * 3))
        shared = list(pool.map(lambda d: d.snapshot().text, docs * 3))
        queried = list(pool.map(lambda d: d.query("e1", kind="html", limit=50).value, docs * 3))
    assert fresh == expected * 3
    assert shared == expected * 3
    assert queried == [d.query("e1", kind="html", limit=50).value for d in docs] * 3


def test_the_gil_is_released_while_the_crate_works():
    # One long call on a worker thread; this thread keeps counting meanwhile. Holding the GIL,
    # the call would stop this thread for its whole length.
    start = time.perf_counter()
    Document(BIG, threads="one")
    alone = time.perf_counter() - start

    done = threading.Event()

    def work():
        Document(BIG, threads="one")
        done.set()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
    worker.join()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    longest = max(gaps, default=alone)
    REPORT.append(
        f"GIL: a {alone * 1000:.0f} ms parse on a worker; the main thread ran {len(ticks)} "
        f"iterations meanwhile, longest pause {longest * 1000:.1f} ms"
    )
    assert longest < alone / 2, (longest, alone)


def test_two_threads_scale():
    doc_calls = 16

    def work(n):
        for _ in range(n):
            Document(PAGE, threads="one").snapshot()

    work(2)  # warm up
    start = time.perf_counter()
    work(doc_calls)
    one = time.perf_counter() - start
    start = time.perf_counter()
    threads = [threading.Thread(target=work, args=(doc_calls // 2,)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    two = time.perf_counter() - start
    per_page = one / doc_calls
    REPORT.append(
        f"threads: Document(shop-600k).snapshot() {per_page * 1000:.1f} ms on one thread; "
        f"{doc_calls} calls take {one:.2f} s on one thread, {two:.2f} s on two: "
        f"{one / two:.2f}x"
    )
    assert two > 0
