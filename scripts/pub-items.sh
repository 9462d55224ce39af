#!/usr/bin/env bash
# Counts each crate's `pub` items (fn, struct, enum, trait, type, const, static, mod,
# use; `pub(crate)` and fields not counted): the size of what a crate offers. The
# README's "The pipeline in the source" states these figures.
set -euo pipefail
cd "$(dirname "$0")/.."
for dir in crates/*/; do
  n=$(grep -rE '^\s*pub (fn|struct|enum|trait|type|const|static|mod|use|unsafe fn|async fn)\b' "$dir/src" | wc -l || true)
  printf '%-28s %4d\n' "$(basename "$dir")" "$n"
done
