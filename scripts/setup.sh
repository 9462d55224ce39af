#!/usr/bin/env bash
# Installs what the build and the tests need, skipping what is present. Idempotent.
set -euo pipefail

have() { command -v "$1" >/dev/null 2>&1; }
cd "$(dirname "${BASH_SOURCE[0]}")/.."
export PATH="$HOME/.cargo/bin:$PATH"

if ! have cargo; then
  if [ -x "$HOME/.cargo/bin/cargo" ]; then
    export PATH="$HOME/.cargo/bin:$PATH"
  else
    echo "setup: installing Rust (rustup, stable)"
    curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y --profile minimal
    export PATH="$HOME/.cargo/bin:$PATH"
  fi
fi

if have rustup; then
  for component in rustfmt clippy; do
    rustup component list --installed 2>/dev/null | grep -q "^$component" || rustup component add "$component"
  done
fi

# WebAssembly target and the wasm-bindgen CLI at exactly the version in Cargo.lock.
if have rustup; then
  rustup target list --installed 2>/dev/null | grep -q '^wasm32-unknown-unknown$' \
    || rustup target add wasm32-unknown-unknown
fi
wb_version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ "$(wasm-bindgen --version 2>/dev/null)" != "wasm-bindgen $wb_version" ]; then
  echo "setup: installing wasm-bindgen-cli $wb_version (about 4 minutes)"
  # Not --locked: its lockfile names a crate version this registry does not serve.
  cargo install wasm-bindgen-cli --version "$wb_version"
fi

# Headless Chromium and its WebDriver, for the browser tests.
if ! have chromium || ! have chromedriver; then
  echo "setup: installing chromium and chromium-driver"
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq --no-install-recommends chromium chromium-driver
fi

# Node tools (binaryen's wasm-opt, playwright-core, typescript for the package's
# declarations), from the committed lockfile.
if ! have node || ! have npm; then
  echo "setup: node and npm are needed (apt-get install nodejs npm)" >&2
  exit 1
fi
if [ ! -d node_modules/binaryen ] || [ ! -d node_modules/playwright-core ] \
  || [ ! -d node_modules/typescript ] || [ ! -d node_modules/@sqlite.org/sqlite-wasm ] \
  || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi

# The benchmark's peers (bench/package-lock.json): its 100 KB smoke run is part of the tests.
if [ ! -d bench/node_modules/marked ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then
  npm ci --prefix bench --no-audit --no-fund --loglevel=error
fi

# The viewer's SQLite (@sqlite.org/sqlite-wasm, pinned in package-lock.json), copied
# beside the viewer: only the viewer's store reader loads it, never the npm package.
sqlite_src=node_modules/@sqlite.org/sqlite-wasm
sqlite_dst=www/viewer/vendor/sqlite-wasm
if [ ! -f "$sqlite_dst/sqlite3.wasm" ] || ! cmp -s "$sqlite_src/package.json" "$sqlite_dst/package.json"; then
  mkdir -p "$sqlite_dst"
  cp "$sqlite_src/dist/index.mjs" "$sqlite_src/dist/sqlite3.wasm" "$sqlite_src/package.json" "$sqlite_dst/"
fi
