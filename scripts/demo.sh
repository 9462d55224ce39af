#!/usr/bin/env bash
# The main job: renders the bundled sample transcript with the CLI, builds the npm
# package, and serves the transcript viewer showing the same sample on 127.0.0.1.
#   bash scripts/demo.sh            # ... then keeps serving until Ctrl-C
#   bash scripts/demo.sh --no-serve # render and build only
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

cargo build --release --quiet -p docstream-cli
sample=examples/cursor-session.jsonl
out=target/demo
mkdir -p "$out"
./target/release/docstream json "$sample" > "$out/cursor-session.json"
echo "Rendered $sample -> $out/cursor-session.json"
./target/release/docstream html "$sample" > "$out/cursor-session.html"
echo "Rendered $sample -> $out/cursor-session.html"
./target/release/docstream text "$sample"

bash scripts/build-wasm.sh
echo "Built the npm package -> pkg/ (the web component and the viewer's renderer)"
if [[ "${1:-}" != "--no-serve" ]]; then
  exec node scripts/serve.mjs --port "${PORT:-8080}"
fi
echo "docstream: demo ready: open $out/cursor-session.html (bash scripts/demo.sh also serves the viewer)"
