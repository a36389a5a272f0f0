#!/usr/bin/env python3
"""Drives `agent-snapshot agent` through one task: sign in on a login page.

Standard library only. It serves a two-page site on loopback, starts the agent, and then
does what an LLM orchestrator would: look, pick refs from what it sees, act, look again.

    cargo build --release
    python3 examples/agent_login.py [--bin target/release/agent-snapshot] [--browser /usr/bin/chromium]
"""
import argparse
import http.server
import json
import subprocess
import sys
import threading

PAGES = {
    "/login.html": """<!doctype html><title>Sign in</title>
<form action="/welcome.html" method="get">
  <label>Email <input name="email" type="email"></label>
  <label>Password <input name="password" type="password"></label>
  <button type="submit">Sign in</button>
</form>""",
    "/welcome.html": """<!doctype html><title>Welcome</title><h1>Welcome back</h1>
<a href="/login.html">Sign out</a>""",
}


class Site(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = PAGES.get(self.path.split("?")[0])
        self.send_response(200 if body else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        self.wfile.write((body or "not found").encode())

    def log_message(self, *args):
        pass


class Agent:
    """One agent process: a ready line, then one JSON response per JSON request line."""

    def __init__(self, argv):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.ready = json.loads(self.proc.stdout.readline())
        self.next_id = 1

    def __call__(self, command, **args):
        request = {"id": self.next_id, "command": command, **args}
        self.next_id += 1
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        response = json.loads(self.proc.stdout.readline())
        if response["command"] == "error":
            raise RuntimeError(f"{command}: {response['payload']['code']}: "
                               f"{response['payload']['message']}")
        return response["payload"]

    def close(self):
        self.proc.stdin.close()  # closing stdin shuts the browser down
        return self.proc.wait(timeout=30)


def find_ref(look, role, name):
    for ref, node in look["refs"].items():
        if node["role"] == role and node["name"] == name:
            return ref
    raise LookupError(f"no {role} {name!r} in:\n{look['snapshot']}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="target/release/agent-snapshot")
    ap.add_argument("--browser", default="/usr/bin/chromium")
    args = ap.parse_args()

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_port}"

    agent = Agent([args.bin, "agent", "--headless", "--browser", args.browser])
    print("ready:", agent.ready["payload"])
    try:
        agent("go", url=f"{base}/login.html")
        look = agent("look")
        print(look["snapshot"])
        agent("act", ref=find_ref(look, "textbox", "Email"), op="fill", value="ada@example.com")
        agent("act", ref=find_ref(look, "textbox", "Password"), op="fill", value="hunter2")
        result = agent("act", ref=find_ref(look, "button", "Sign in"), op="click")
        print("after click:", result)
        look = agent("look")  # the page changed: new refs
        print(look["snapshot"])
        ok = "Welcome back" in look["snapshot"]
    finally:
        status = agent.close()
        server.shutdown()
    print("signed in" if ok else "sign-in failed", "- agent exit status", status)
    return 0 if ok and status == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
