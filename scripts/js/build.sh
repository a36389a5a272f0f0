#!/usr/bin/env bash
# Minifies js/agent-browser.js (the readable source) into js/agent-browser.min.js (what the
# crate ships through `script()`). `--check` fails if the committed file is stale.
set -euo pipefail
cd "$(dirname "$0")"
[ -x node_modules/.bin/terser ] || npm ci --no-audit --no-fund --silent
# A one-line helper that calls itself (`let f = x => f(x)`) is an infinite recursion, the
# kind of slip a mechanical rename makes.
if grep -nE '^let ([A-Za-z_]+) = .*=> \1\(' ../../js/agent-browser.js; then
  echo "a helper in js/agent-browser.js calls itself"; exit 1
fi
out=$(mktemp)
# ES2017 target: nothing newer than the source uses sneaks in through compression.
node_modules/.bin/terser ../../js/agent-browser.js --ecma 2017 --format ecma=2017 --compress ecma=2017,passes=3,arrows=true,unsafe_arrows=true --mangle --mangle-props regex=/^_/ \
  --comments '/^!/' --preamble '// agent-snapshot: js/agent-browser.js, minified' -o "$out"
if [ "${1:-}" = "--check" ]; then
  cmp -s "$out" ../../js/agent-browser.min.js || { echo "js/agent-browser.min.js is stale: run scripts/js/build.sh"; exit 1; }
else
  mv "$out" ../../js/agent-browser.min.js
  wc -c ../../js/agent-browser.min.js
fi
