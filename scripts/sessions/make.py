#!/usr/bin/env python3
"""Builds realistic dumped agent sessions for `agent-snapshot compress` tests and benches.

Each session is a conversation in which an agent fetches pages: every turn holds a user or
assistant message, a tool call, and the tool's output, which is a whole saved page (HTML)
or, now and then, a small JSON or text result that must pass through untouched. The four
formats the command reads take turns: OpenAI Responses items (JSONL), Chat Completions
messages (JSON), Anthropic messages (JSON) and generic `tool.result` events (JSONL).

    scripts/sessions/make.py OUTDIR [--sessions 50] [--turns 20] [--pages DIR]...

Pages come from each --pages folder (default: corpus/ and ../shared/corpus when present),
largest first, so most outputs are in the 590 KB class of the session that overflowed.
Output is deterministic for the same pages and options.
"""
import argparse
import json
import os
import sys


def load_pages(dirs, limit):
    pages = []
    for d in dirs:
        if not os.path.isdir(d):
            continue
        for name in sorted(os.listdir(d)):
            if name.endswith(".html"):
                path = os.path.join(d, name)
                with open(path, "rb") as f:
                    raw = f.read()
                pages.append((len(raw), name, raw.decode("utf-8", "replace")))
    pages.sort(key=lambda p: (-p[0], p[1]))
    return [(name, text) for _, name, text in pages[:limit]]


def turns(session, n_turns, pages):
    """Yields (call_id, url, output) per turn."""
    for t in range(n_turns):
        call_id = f"call_{session:03d}_{t:02d}"
        if t % 7 == 6:
            yield call_id, None, json.dumps({"status": "ok", "items": list(range(t))})
        else:
            name, html = pages[(session * 7 + t) % len(pages)]
            yield call_id, f"https://example.test/{name}", html


def openai_responses(session, n_turns, pages):
    yield {"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": f"Session {session}: compare the pages."}]}
    for call_id, url, output in turns(session, n_turns, pages):
        yield {"type": "function_call", "call_id": call_id, "name": "web_fetch",
               "arguments": json.dumps({"url": url or "about:status"})}
        part = output if session % 2 else [{"type": "input_text", "text": output}]
        yield {"type": "function_call_output", "call_id": call_id, "output": part}


def chat(session, n_turns, pages):
    msgs = [{"role": "system", "content": "You browse the web."},
            {"role": "user", "content": f"Session {session}: find the prices."}]
    for call_id, url, output in turns(session, n_turns, pages):
        msgs.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": call_id, "type": "function", "function": {
                "name": "web_fetch", "arguments": json.dumps({"url": url})}}]})
        msgs.append({"role": "tool", "tool_call_id": call_id, "content": output})
    return {"model": "gpt-test", "messages": msgs}


def anthropic(session, n_turns, pages):
    msgs = [{"role": "user", "content": f"Session {session}: summarise the pages."}]
    for call_id, url, output in turns(session, n_turns, pages):
        msgs.append({"role": "assistant", "content": [
            {"type": "text", "text": "Fetching."},
            {"type": "tool_use", "id": call_id, "name": "web_fetch", "input": {"url": url}}]})
        content = output if session % 2 else [{"type": "text", "text": output}]
        msgs.append({"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": call_id, "content": content}]})
    return {"model": "claude-test", "max_tokens": 1024, "messages": msgs}


def generic(session, n_turns, pages):
    for t, (call_id, url, output) in enumerate(turns(session, n_turns, pages)):
        yield {"ts": 1700000000 + t, "type": "tool.call", "id": call_id, "tool": "fetch",
               "input": {"url": url}}
        yield {"ts": 1700000000 + t, "type": "tool.result", "id": call_id, "output": output}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("outdir")
    ap.add_argument("--sessions", type=int, default=50)
    ap.add_argument("--turns", type=int, default=20)
    ap.add_argument("--pages", action="append")
    ap.add_argument("--max-pages", type=int, default=40,
                    help="use the N largest pages (default 40)")
    args = ap.parse_args()
    here = os.path.dirname(os.path.abspath(__file__))
    repo = os.path.dirname(os.path.dirname(here))
    dirs = args.pages or [os.path.join(repo, "corpus"),
                          os.path.join(repo, "..", "shared", "corpus")]
    pages = load_pages(dirs, args.max_pages)
    if not pages:
        sys.exit("no .html pages found in " + ", ".join(dirs))
    os.makedirs(args.outdir, exist_ok=True)
    for s in range(args.sessions):
        kind = s % 4
        if kind in (0, 3):
            gen = openai_responses if kind == 0 else generic
            path = os.path.join(args.outdir, f"session-{s:03d}.jsonl")
            with open(path, "w", encoding="utf-8") as f:
                for item in gen(s, args.turns, pages):
                    f.write(json.dumps(item, ensure_ascii=False) + "\n")
        else:
            doc = (chat if kind == 1 else anthropic)(s, args.turns, pages)
            path = os.path.join(args.outdir, f"session-{s:03d}.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(doc, f, ensure_ascii=False, indent=2 if s % 8 == 1 else None)
    sizes = sum(os.path.getsize(os.path.join(args.outdir, n)) for n in os.listdir(args.outdir))
    print(f"{args.sessions} sessions x {args.turns} turns from {len(pages)} pages: "
          f"{sizes / 1e6:.1f} MB in {args.outdir}", file=sys.stderr)


if __name__ == "__main__":
    main()
