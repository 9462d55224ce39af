#!/usr/bin/env bash
# The main job: builds the CLI and renders the bundled sample transcript.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

cargo build --release --quiet
sample=examples/cursor-session.jsonl
out=target/demo
mkdir -p "$out"
./target/release/docstream json "$sample" > "$out/cursor-session.json"
echo "Rendered $sample -> $out/cursor-session.json"
./target/release/docstream html "$sample" > "$out/cursor-session.html"
echo "Rendered $sample -> $out/cursor-session.html"
