#!/usr/bin/env bash
# Peak memory (maximum RSS) of `agent-snapshot snapshot` per page, against the budget of
# 6 × the input size + 10 MB.  Usage: scripts/perf/rss.sh [FILE...]
# (default: the repo's generated pages and the three largest ../shared/corpus pages)
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=target/release/agent-snapshot
[ -x "$bin" ] || cargo build --release -q
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (Debian package: time)"; exit 1; }
files=("$@")
if [ ${#files[@]} -eq 0 ]; then
  files=(corpus/shop-600k.html corpus/shop-2m.html)
  if [ -d ../shared/corpus ]; then
    while IFS= read -r f; do files+=("$f"); done < <(ls -S ../shared/corpus/*.html | head -3)
  fi
fi
printf '%-48s %10s %10s %12s %s\n' page input_kb rss_kb budget_kb ok
for f in "${files[@]}"; do
  input_kb=$(( $(stat -c %s "$f") / 1024 ))
  rss_kb=$( { /usr/bin/time -v "$bin" snapshot "$f" > /dev/null; } 2>&1 | awk -F: '/Maximum resident set size/ {gsub(/ /,"",$2); print $2}')
  budget_kb=$(( 6 * input_kb + 10240 ))
  ok=yes; [ "$rss_kb" -le "$budget_kb" ] || ok=NO
  printf '%-48s %10d %10d %12d %s\n' "$(basename "$f")" "$input_kb" "$rss_kb" "$budget_kb" "$ok"
done
