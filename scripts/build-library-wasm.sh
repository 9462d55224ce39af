#!/usr/bin/env bash
# Builds the viewer's store reader into www/viewer/vendor/library/ (git-ignored):
# crates/library-wasm (docstream-library's sans-IO readers and the parser, the rules
# `docstream list` uses) → wasm-bindgen --target web → wasm-opt -Oz. Only the viewer's
# library worker loads it; it is never part of the npm package (pkg/).
#
#   bash scripts/build-library-wasm.sh
#
# scripts/build-wasm.sh runs it after the package; the viewer tests need both.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

profile=wasm-release
out=www/viewer/vendor/library
crate=docstream-library-wasm
cargo build --lib --profile "$profile" --target wasm32-unknown-unknown -p "$crate"
rm -rf "$out" && mkdir -p "$out"
wasm-bindgen "target/wasm32-unknown-unknown/$profile/${crate//-/_}.wasm" \
  --out-dir "$out" --target web --out-name library --no-typescript
# One -Oz pass: a second gains about 1 KB of 370 and costs 20-30 s a build.
node_modules/.bin/wasm-opt -Oz --strip-producers --strip-target-features \
  --enable-bulk-memory --enable-nontrapping-float-to-int \
  --enable-sign-ext --enable-mutable-globals --enable-reference-types \
  "$out/library_bg.wasm" -o "$out/library_bg.wasm"
sizes() { echo "$(wc -c < "$1") bytes, $(gzip -9c "$1" | wc -c) gzip"; }
echo "$out/library_bg.wasm (the viewer's store reader, not in the package): $(sizes "$out/library_bg.wasm")"
echo "$out/library.js (its glue): $(sizes "$out/library.js")"
