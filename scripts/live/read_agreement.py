#!/usr/bin/env python3
"""Live `read` against offline `read` on the same static pages: how far the two agree.

usage: read_agreement.py [--shared DIR] [--sample N] [--seed S] [--only ID,...] [--worst N]
                         [--max-chars N] [--bin PATH] [--dump DIR]
  DIR   the shared data folder holding web2025/ and reading/ (default: ../shared from the
        repo root, i.e. /work/shared beside the worktrees)
  N     a random sample of N pages (seed S, default 1); default: all 534
  DIR   where to write each page's two reads (ID.offline.txt, ID.live.txt), to see why

Each web2025 page is served on loopback to a headless Chromium started with JavaScript off
(`--blink-settings=scriptEnabled=false`: the page's scripts never run and its `<noscript>`
shows; the agent's own expressions still run through DevTools), with
`Content-Security-Policy: default-src 'none'; style-src 'unsafe-inline'` (nothing is fetched
from the network: the offline read sees no remote sheet either). The live agent
(`agent-snapshot agent --attach PORT`) goes to it and reads (`read`, max_chars 200 000); the
offline `agent-snapshot read --max-chars 200000` reads the file. Both outputs are reduced to
plain text with `plain` from reading/score.py and compared with its word 4-gram `score`: F1 of
the live read taken as the prediction, the offline one as the truth. Prints the mean F1 and
the worst pages.
"""
import gzip, http.server, json, os, random, shutil, socket, subprocess, sys, tempfile, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CSP = "default-src 'none'; style-src 'unsafe-inline'"


def arg(args, key, default=None):
    return args[args.index(key) + 1] if key in args else default


class Pages(http.server.BaseHTTPRequestHandler):
    """Serves /ID.html from web2025/pages/ID.html.gz, scripts forbidden by the CSP."""

    folder = ""

    def do_GET(self):
        name = os.path.basename(self.path.split("?")[0])
        path = os.path.join(self.folder, name + ".gz")
        if not name.endswith(".html") or not os.path.exists(path):
            self.send_error(404)
            return
        with gzip.open(path) as f:
            body = f.read()
        self.send_response(200)
        # As offline read sniffs: bytes that are valid UTF-8 are UTF-8 (a browser without a
        # declared charset would take windows-1252 and read mojibake).
        try:
            body.decode("utf-8")
            self.send_header("Content-Type", "text/html; charset=utf-8")
        except UnicodeDecodeError:
            self.send_header("Content-Type", "text/html")
        self.send_header("Content-Security-Policy", CSP)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


class Agent:
    """One `agent-snapshot agent` over stdio, attached to a headless Chromium without
    JavaScript that it starts (and ends at close)."""

    def __init__(self, binary, chromium="/usr/bin/chromium"):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        self.profile = tempfile.mkdtemp(prefix="read-agreement-")
        self.browser = subprocess.Popen([chromium, "--headless=new", "--no-sandbox",
                                         "--remote-debugging-port=%d" % port,
                                         "--user-data-dir=" + self.profile,
                                         "--blink-settings=scriptEnabled=false", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2)
        self.p = subprocess.Popen([binary, "agent", "--attach", str(port)], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, encoding="utf-8")
        self.n = 0
        self.p.stdout.readline()  # the ready line

    def call(self, command, **args):
        self.n += 1
        self.p.stdin.write(json.dumps({"id": self.n, "command": command, **args}) + "\n")
        self.p.stdin.flush()
        answer = json.loads(self.p.stdout.readline())
        if answer.get("command") == "error":
            raise RuntimeError(answer["payload"])
        return answer["payload"]

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=30)
        self.browser.terminate()
        self.browser.wait(timeout=30)
        shutil.rmtree(self.profile, ignore_errors=True)


def f1(score, truth, pred):
    if not truth.split() and not pred.split():
        return 1.0
    p, r = score(truth, pred)
    return 2 * p * r / (p + r) if p + r else 0.0


def main():
    args = sys.argv[1:]
    shared = arg(args, "--shared", os.path.join(ROOT, "..", "shared"))
    binary = arg(args, "--bin", os.path.join(ROOT, "target", "release", "agent-snapshot"))
    max_chars = int(arg(args, "--max-chars", "200000"))
    sys.path.insert(0, os.path.join(shared, "reading"))
    from score import plain, score  # noqa: E402

    web = os.path.join(shared, "web2025")
    ids = [json.loads(l)["id"] for l in open(os.path.join(web, "truth.jsonl"), encoding="utf-8")]
    if arg(args, "--only"):
        ids = [i for i in ids if i in arg(args, "--only").split(",")]
    if arg(args, "--sample"):
        random.Random(int(arg(args, "--seed", "1"))).shuffle(ids)
        ids = sorted(ids[: int(arg(args, "--sample"))])
    Pages.folder = os.path.join(web, "pages")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = "http://127.0.0.1:%d/" % server.server_address[1]
    agent = Agent(binary)
    rows = []
    for i, page in enumerate(ids):
        with gzip.open(os.path.join(web, "pages", page + ".html.gz")) as f:
            offline = subprocess.run([binary, "read", "--max-chars", str(max_chars), "-"],
                                     input=f.read(), capture_output=True).stdout.decode("utf-8", "replace")
        try:
            agent.call("go", url=base + page + ".html")
        except RuntimeError as e:
            # A page whose frames never load still has its document: read what it shows.
            print("%s: %s (reading it as it is)" % (page, e), file=sys.stderr)
        try:
            live = agent.call("read", max_chars=max_chars)["text"]
        except (RuntimeError, ValueError) as e:
            live = ""
            print("%s: %s" % (page, e), file=sys.stderr)
        if arg(args, "--dump"):
            for kind, text in (("offline", offline), ("live", live)):
                with open(os.path.join(arg(args, "--dump"), "%s.%s.txt" % (page, kind)), "w") as f:
                    f.write(text)
        rows.append((f1(score, plain(offline), plain(live)), page, len(offline), len(live)))
        print("%d/%d %s %.3f" % (i + 1, len(ids), page, rows[-1][0]), file=sys.stderr, flush=True)
    agent.close()
    server.shutdown()
    rows.sort()
    mean = sum(r[0] for r in rows) / len(rows)
    print("live read vs offline read, word 4-gram F1: mean %.4f over %d pages" % (mean, len(rows)))
    for r in rows[: int(arg(args, "--worst", "10"))]:
        print("  %.3f %s (offline %d chars, live %d)" % r)


if __name__ == "__main__":
    main()
