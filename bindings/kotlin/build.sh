#!/usr/bin/env bash
# Builds the Kotlin/JVM binding into DIR:
#   DIR/agent-snapshot.jar        the Kotlin API, the UniFFI-generated bindings, and the native
#                                 library for linux-x86-64 as a JNA resource
#   DIR/jna.jar, DIR/kotlin-stdlib.jar
#                                 what a JVM user adds: java -cp agent-snapshot.jar:jna.jar:kotlin-stdlib.jar
#   DIR/agent-snapshot-tests.jar  the tests (run by test.sh), and kotlin-test.jar
#
# Installs what is missing: a JDK (apt), JNA (apt: libjna-java), the Kotlin compiler (npm:
# kotlin-compiler, into $AGENT_SNAPSHOT_TOOLS, default ~/.cache/agent-snapshot). Runs nothing.
#
# Usage: bindings/kotlin/build.sh DIR
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
mkdir -p "$1"
out="$(cd "$1" && pwd)"

kotlin_version=2.4.20
tools="${AGENT_SNAPSHOT_TOOLS:-$HOME/.cache/agent-snapshot}"
kotlin_home="$tools/kotlin-$kotlin_version/node_modules/kotlin-compiler"
jna_jar=/usr/share/java/jna.jar

apt_install() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq "$@" >/dev/null
}
missing=()
command -v jar >/dev/null 2>&1 || missing+=(default-jdk-headless)
[ -f "$jna_jar" ] || missing+=(libjna-java)
[ ${#missing[@]} -eq 0 ] || apt_install "${missing[@]}"
if [ ! -x "$kotlin_home/bin/kotlinc-jvm" ]; then
  npm install --no-audit --no-fund --prefix "$tools/kotlin-$kotlin_version" "kotlin-compiler@$kotlin_version"
fi
kotlinc="$kotlin_home/bin/kotlinc-jvm"

cd "$root"
target="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')"
# The library alone, in release (the generator's dependencies stay out of it).
cargo build --release -p agent-snapshot-kotlin
cargo build -p uniffi-bindgen
lib="$target/release/libagent_snapshot_kotlin.so"

rm -rf "$out/generated" "$out/native" "$out/classes"
# Run from the repo: the generator finds the crate's uniffi.toml through `cargo metadata`.
"$target/debug/uniffi-bindgen" generate --library "$lib" --language kotlin \
  --out-dir "$out/generated" --no-format
# JNA looks for resources under <os>-<arch>/; debug info stays out of the jar.
mkdir -p "$out/native/linux-x86-64"
strip --strip-debug -o "$out/native/linux-x86-64/libagent_snapshot_kotlin.so" "$lib"

"$kotlinc" -nowarn -cp "$jna_jar" -d "$out/classes" \
  $(find "$out/generated" "$here/kotlin" -name '*.kt' | sort)
jar --create --file "$out/agent-snapshot.jar" -C "$out/classes" . -C "$out/native" .
cp "$jna_jar" "$out/jna.jar"
cp "$kotlin_home/lib/kotlin-stdlib.jar" "$kotlin_home/lib/kotlin-test.jar" "$out/"

# The tests see the API's internals (its conversions to the generated records).
"$kotlinc" -cp "$out/agent-snapshot.jar:$jna_jar:$out/kotlin-test.jar" \
  -Xfriend-paths="$out/agent-snapshot.jar" -d "$out/agent-snapshot-tests.jar" \
  "$here/tests/AgentBrowserTest.kt"
echo "built $out/agent-snapshot.jar ($(stat -c %s "$out/agent-snapshot.jar") bytes)"
