#!/usr/bin/env bash
# Runs every test: formatting, lints, the Rust tests, the JavaScript API as WebAssembly
# in Node and headless Chromium, and the built npm package.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

wasm=(--target wasm32-unknown-unknown --no-default-features --features wasm)

echo "== fmt and clippy"
cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo clippy --lib "${wasm[@]}" -- -D warnings

echo "== Rust tests"
cargo test --all-targets
cargo test --doc

echo "== JavaScript API as WebAssembly (Node, then headless Chromium)"
cargo test "${wasm[@]}" --test wasm_api
cargo test "${wasm[@]}" --test wasm_browser

echo "== the built package"
bash scripts/build-wasm.sh
node tests/js/package-node.mjs
node tests/js/pack-test.mjs

echo "== the benchmark's 100 KB smoke run (streamed HTML equals one-shot HTML in every form; times are printed, not tested)"
node --expose-gc bench/bench.mjs --pkg pkg --quick --out target/bench-smoke.json > target/bench-smoke.log \
  || { cat target/bench-smoke.log; exit 1; }
grep '^checks:' target/bench-smoke.log | tail -1

echo "== the web component and the embedding examples in headless Chromium"
node tests/browser/run.mjs

echo "== the transcript viewer in headless Chromium"
node tests/viewer/run.mjs

echo "== the TypeScript declarations match the committed copy"
if ! diff -u docs/api/docstream.d.ts pkg/docstream.d.ts; then
  echo "pkg/docstream.d.ts differs from docs/api/docstream.d.ts: if the API change is meant," >&2
  echo "accept it with: cp pkg/docstream.d.ts docs/api/docstream.d.ts" >&2
  exit 1
fi
