#!/usr/bin/env bash
# What each entry of the built package (pkg/, from scripts/build-wasm.sh) costs a page:
# every file the entry loads before it can render, each gzip -9 as a server would send it.
#
#   bash scripts/size.sh            # after bash scripts/build-wasm.sh
#   bash scripts/size.sh --check    # exit 1 when the default entry is over the budget
#
# The default entry is `import 'docstream/define'`: define.js and every module it imports
# statically (import('…') calls load later and are not counted), plus docstream_bg.wasm,
# which the element fetches at start. The highlighter, the formulas' module and the
# conversions load apart and get lines of their own. SPEC §7's budget: 200 KB (200,000 bytes) gzip.
set -euo pipefail
cd "$(dirname "$0")/../pkg"

budget=200000
gz() { gzip -9nc "$1" | wc -c; }

# Modules reached from $1 through static `import … from './x.js'` and `export … from`.
declare -A seen=()
walk() {
  local file=$1 dep
  [ -n "${seen[$file]:-}" ] && return
  seen[$file]=1
  for dep in $(grep -oE "(import|export)[^'\"();]*from ?['\"]\./[^'\"]+['\"]" "$file" \
    | sed -E "s/.*['\"]\.\/([^'\"]+)['\"]/\1/"); do
    walk "$(dirname "$file")/$dep"
  done
}

# One line per entry: its files, raw and gzip bytes.
entry() {
  local name=$1 raw=0 zip=0 f
  shift
  seen=()
  for f in "$@"; do
    case $f in *.js) walk "$f" ;; *) seen[$f]=1 ;; esac
  done
  local files
  files=$(printf '%s\n' "${!seen[@]}" | sed 's#^\./##' | sort)
  for f in $files; do
    raw=$((raw + $(wc -c < "$f")))
    zip=$((zip + $(gz "$f")))
  done
  printf '%-34s %9s bytes %8s gzip  (%s)\n' "$name" "$raw" "$zip" "$(echo $files | tr '\n' ' ')"
  last_zip=$zip
}

entry "docstream/define (default entry)" ./define.js ./docstream_bg.wasm
default_zip=$last_zip
printf '%-34s %9s bytes %8s gzip\n' "  of which docstream_bg.wasm" "$(wc -c < docstream_bg.wasm)" "$(gz docstream_bg.wasm)"
entry "docstream (DocStream + wasm)" ./docstream.js ./docstream_bg.wasm
if [ -f convert.js ]; then
  entry "docstream/convert (own wasm)" ./convert.js ./convert_bg.wasm
fi
entry "docstream/highlight (first code)" ./highlight/index.js
entry "math.js (first formula)" ./math.js ./math_bg.wasm
echo "Budget for the default entry: $budget bytes gzip; it is $default_zip ($((default_zip * 100 / budget))%)."
if [ "${1:-}" = --check ] && [ "$default_zip" -gt "$budget" ]; then
  echo "size: the default entry is over the budget by $((default_zip - budget)) bytes gzip" >&2
  exit 1
fi
