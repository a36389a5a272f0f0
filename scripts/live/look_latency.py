#!/usr/bin/env python3
"""Look latency of one or more agent-snapshot builds on a large page served on loopback.

usage: look_latency.py [--page PATH] [--looks N] [--rounds R] [--mutate] BIN [BIN...]
  PATH  the page (default corpus/shop-600k.html)
  N     looks per round (default 10); R rounds (default 3), the builds alternating each round
        so that the shared machine's load falls on all of them alike
  --mutate  change the page (one attribute) before each look, untimed: every look then walks
            a page that changed, as after an action (no cached rendering)

Prints, per build, the median look time of each round and the median over all looks: what
`cargo test --release --test agent -- --ignored latency` measures, for builds side by side.
"""
import http.server, json, os, statistics, subprocess, sys, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def arg(args, key, default):
    if key in args:
        i = args.index(key)
        value = args[i + 1]
        del args[i : i + 2]
        return value
    return default


def serve(body):
    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *a):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return "http://127.0.0.1:%d/page.html" % server.server_address[1]


def round_of(binary, url, looks, mutate):
    p = subprocess.Popen([binary, "agent", "--headless"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    p.stdout.readline()

    def call(n, command, **args):
        p.stdin.write(json.dumps({"id": n, "command": command, **args}) + "\n")
        p.stdin.flush()
        answer = json.loads(p.stdout.readline())
        assert answer["command"] == "result", answer
        return answer

    call(0, "go", url=url)
    times = []
    for i in range(looks):
        if mutate:
            call(1000 + i, "eval", js="document.body.setAttribute('data-look', '%d')" % i)
        t = time.perf_counter()
        call(i + 1, "look")
        times.append((time.perf_counter() - t) * 1e3)
    p.stdin.close()
    p.wait(timeout=30)
    return times


def main():
    args = sys.argv[1:]
    page = arg(args, "--page", os.path.join(ROOT, "corpus", "shop-600k.html"))
    looks = int(arg(args, "--looks", "10"))
    rounds = int(arg(args, "--rounds", "3"))
    mutate = "--mutate" in args
    args = [a for a in args if a != "--mutate"]
    url = serve(open(page, "rb").read())
    all_times = {b: [] for b in args}
    for r in range(rounds):
        for b in args:
            times = round_of(b, url, looks, mutate)
            all_times[b].extend(times)
            print("round %d %s: median %.1f ms" % (r + 1, b, statistics.median(times)), flush=True)
    for b in args:
        print("%s: median look %.1f ms over %d looks" % (b, statistics.median(all_times[b]), len(all_times[b])))


if __name__ == "__main__":
    main()
