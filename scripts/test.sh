#!/usr/bin/env bash
# Runs every test: formatting, lints, unit, fixture and integration tests.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

cargo fmt --check
cargo clippy --all-targets -- -D warnings
cargo test --all-targets
cargo test --doc
