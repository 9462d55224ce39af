#!/usr/bin/env bash
# Runs every test: formatting, lints, the Rust tests, the JavaScript API as WebAssembly
# in Node and headless Chromium, and the built npm package.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

wasm=(--target wasm32-unknown-unknown --no-default-features --features wasm,wasm-convert)

echo "== fmt and clippy"
cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo clippy --lib "${wasm[@]}" -- -D warnings
# Each wasm module alone (scripts/build-wasm.sh builds them apart).
for features in wasm wasm-convert; do
  cargo clippy --lib --target wasm32-unknown-unknown --no-default-features --features "$features" -- -D warnings
done

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

echo "== the web component and the embedding examples in headless Chromium"
node tests/browser/run.mjs

echo "== the transcript viewer in headless Chromium"
node tests/viewer/run.mjs

echo "== the TypeScript declarations match the committed copy"
for api in docstream convert; do
  if ! diff -u "docs/api/$api.d.ts" "pkg/$api.d.ts"; then
    echo "pkg/$api.d.ts differs from docs/api/$api.d.ts: if the API change is meant," >&2
    echo "accept it with: cp pkg/$api.d.ts docs/api/$api.d.ts" >&2
    exit 1
  fi
done
