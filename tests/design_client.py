#!/usr/bin/env python3
"""The client of ../shared/design/agent-stdio-protocol.md ("For Claude Code Users"), copied as
it stands but for the command it starts (this build, headless, instead of karate.jar), then a
sign-in through it. tests/agent.rs runs it:

    python3 tests/design_client.py BIN CHROMIUM BASE_URL
"""
import re
import sys

BIN, BROWSER, BASE = sys.argv[1:4]

# ---- the design's client, unchanged but for the command line ----
import subprocess, json

proc = subprocess.Popen(
    [BIN, "agent", "--headless", "--browser", BROWSER],
    stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    text=True, bufsize=1
)
proc.stdout.readline()  # wait for ready

def agent(js):
    proc.stdin.write(json.dumps({"command": "eval", "payload": js}) + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())

# Navigate and inspect
agent("agent.go('" + BASE + "/login.html')")
result = agent("agent.look()")
print(result["payload"]["tree"])  # ['textbox:Email[e1]', ...]
# ---- end of the design's client; the sign-in follows its example session ----


def ref(tree, role, name):
    for item in tree:
        m = re.fullmatch(r"([a-z]+):(.*)\[(e[0-9]+)\]", item)
        if m and m.group(1) == role and m.group(2) == name:
            return m.group(3)
    raise LookupError(f"no {role}:{name} in {tree}")


def ok(response):
    assert response["command"] == "result", response
    assert "id" not in response, response
    return response["payload"]


look = ok(result)
assert look["title"] == "Sign in", look
email, password, submit = (ref(look["tree"], "textbox", "Email"),
                           ref(look["tree"], "textbox", "Password"),
                           ref(look["tree"], "button", "Sign in"))
assert look["actions"][email] == ["input", "clear", "focus"], look["actions"]
assert "click" in look["actions"][submit], look["actions"]
assert ok(agent(f"agent.act('{email}','input','admin@test.com')")) == {"changed": True}
assert ok(agent(f'agent.act("{password}", "input", "secret123")')) == {"changed": True}
assert ok(agent(f"agent.act('{submit}','click')")) == {"changed": True}
welcome = ok(agent("agent.look()"))
assert welcome["title"] == "Welcome", welcome
ref(welcome["tree"], "link", "Sign out")
who = ok(agent("agent.eval(\"document.getElementById('who').textContent\")"))
assert who == {"value": "Signed in as admin@test.com"}, who
# A ref of the first look is stale now; one no look gave is not found.
stale = agent(f"agent.act('{submit}','click')")
assert stale["command"] == "error" and stale["payload"]["code"] == "STALE_REF", stale
missing = agent("agent.act('e999','click')")
assert missing["payload"]["code"] == "NOT_FOUND", missing

# Close when done
proc.stdin.close()
proc.wait()
print("signed in - agent exit status", proc.returncode)
