#!/usr/bin/env bash
# docstream's own benchmark in one command (see README.md § Speed):
#
#   bash bench/run.sh [--pkg DIR] [--cli PATH] [--sizes 100k,1m,10m] [--rounds N|100k=9,1m=7,10m=5]
#                     [--quick] [--seed N] [--corpus FILE] [--no-corpus] [--out FILE]
#                     [--no-browser | --browser-only] [--browser "OPTIONS"]
#
# Installs the peers pinned in bench/package-lock.json (npm ci --prefix bench), builds
# what it was not given — the npm package (bash scripts/build-wasm.sh → pkg/) unless
# --pkg names one, the release CLI (cargo build --release) unless --cli names one or
# --quick asks for a smoke run — and runs bench/bench.mjs in one Node process (the goal
# table of issue 12 and the median times; JSON in bench/results/). Then the browser part,
# bench/browser.mjs, in headless Chromium (/usr/bin/chromium, or $CHROMIUM): the goal
# table of issue 36, JSON and Markdown in bench/results/. --quick makes both smoke runs;
# --seed goes to both; --browser passes further options to the browser part
# (`node bench/browser.mjs --help`).
set -euo pipefail
cd "$(dirname "$0")/.."

pkg=""
cli=""
quick=0
node_part=1
browser_part=1
args=()
browser_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --pkg) pkg="$2"; shift 2 ;;
    --cli) cli="$2"; shift 2 ;;
    --quick) quick=1; args+=("$1"); browser_args+=("$1"); shift ;;
    --seed) args+=("$1" "$2"); browser_args+=("$1" "$2"); shift 2 ;;
    --no-browser) browser_part=0; shift ;;
    --browser-only) node_part=0; shift ;;
    --browser) read -r -a extra <<< "$2"; browser_args+=("${extra[@]}"); shift 2 ;;
    *) args+=("$1"); shift ;;
  esac
done

if [ ! -d bench/node_modules ] || [ bench/package-lock.json -nt bench/node_modules/.package-lock.json ]; then
  npm ci --prefix bench --no-audit --no-fund --loglevel=error
fi

if [ -z "$pkg" ]; then
  bash scripts/build-wasm.sh
  pkg=pkg
fi

if [ -z "$cli" ]; then
  cli=target/release/docstream
  if [ "$quick" = 0 ] && [ "$node_part" = 1 ]; then
    cargo build --release --bin docstream
  fi
fi

status=0
if [ "$node_part" = 1 ]; then
  node --expose-gc bench/bench.mjs --pkg "$pkg" --cli "$cli" "${args[@]}" || status=$?
fi
if [ "$browser_part" = 1 ]; then
  node bench/browser.mjs --pkg "$pkg" "${browser_args[@]}" || status=$?
fi
exit "$status"
