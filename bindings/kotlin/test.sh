#!/usr/bin/env bash
# Builds the Kotlin/JVM binding into DIR (build.sh) and runs its tests on the JVM: the repo's
# corpus and, when it is beside the repo, the shared corpus, compared with the CLI's output.
#
# Usage: bindings/kotlin/test.sh DIR           the tests
#        bindings/kotlin/test.sh DIR --bench   time a snapshot of corpus/shop-600k.html
# AGENT_SNAPSHOT_CLI: the CLI to compare with (default: `cargo build --bin agent-snapshot`).
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 DIR [--bench]" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
"$here/build.sh" "$1"
out="$(cd "$1" && pwd)"

cd "$root"
# The CLI the Kotlin results are compared with: $AGENT_SNAPSHOT_CLI (CI passes the one
# `cargo test` built), or the debug build.
cli="${AGENT_SNAPSHOT_CLI:-}"
if [ -z "$cli" ]; then
  cargo build --bin agent-snapshot
  target="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
  cli="$target/debug/agent-snapshot"
fi

run=(java -cp "$out/agent-snapshot.jar:$out/agent-snapshot-tests.jar:$out/jna.jar:$out/kotlin-stdlib.jar:$out/kotlin-test.jar"
  agentsnapshot.tests.AgentBrowserTestKt --repo "$root" --cli "$cli")
if [ "${2:-}" = --bench ]; then
  "${run[@]}" --bench "$root/corpus/shop-600k.html"
else
  "${run[@]}" --corpus "$root/../shared/corpus"
fi
