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
