#!/usr/bin/env bash
# What each entry of the built package (pkg/, from scripts/build-wasm.sh) costs a page:
# every file the entry loads before it can render, each compressed alone as a server
# would send it: gzip -9 and brotli (quality 11, Node's zlib).
#
#   bash scripts/size.sh            # after bash scripts/build-wasm.sh
#   bash scripts/size.sh --check    # exit 1 when the default entry is over the budget
#
# The default entry is `import 'docstream/define'`: define.js and every module it imports
# statically (import('…') calls load later and are not counted), plus
# docstream-lite_bg.wasm, the default module the element fetches at start. A stream in a
# format outside the default set loads docstream.js and docstream_bg.wasm when detection
# picks it (its own line), as does toMarkdown() (the Markdown export is in the full
# module only); the highlighter, the formulas' module and the conversions
# load apart and get lines of their own. The budget: 350,000 bytes gzip (issue 36; SPEC §7
# said 200 KB, which README § What it costs shows out of reach with every feature kept).
set -euo pipefail
cd "$(dirname "$0")/../pkg"

budget=350000
gz() { gzip -9nc "$1" | wc -c; }
# Brotli sizes of the files named, one a line, in order.
br() {
  node -e 'const { readFileSync } = require("fs"); const z = require("zlib");
    for (const f of process.argv.slice(1)) console.log(z.brotliCompressSync(readFileSync(f),
      { params: { [z.constants.BROTLI_PARAM_QUALITY]: 11, [z.constants.BROTLI_PARAM_SIZE_HINT]: 0 } }).length);' "$@"
}

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

# One line per entry: its files, raw, gzip and brotli bytes.
entry() {
  local name=$1 raw=0 zip=0 brot=0 f b
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
  # shellcheck disable=SC2086
  for b in $(br $files); do brot=$((brot + b)); done
  printf '%-36s %9s bytes %8s gzip %8s brotli  (%s)\n' "$name" "$raw" "$zip" "$brot" "$(echo $files | tr '\n' ' ')"
  last_zip=$zip
}

one() {
  printf '%-36s %9s bytes %8s gzip %8s brotli\n' "  of which $1" "$(wc -c < "$1")" "$(gz "$1")" "$(br "$1")"
}

entry "docstream/define (default entry)" ./define.js ./docstream-lite_bg.wasm
default_zip=$last_zip
one docstream-lite_bg.wasm
entry "  + a stream in another format" ./docstream.js ./docstream_bg.wasm
entry "docstream (DocStream + wasm)" ./docstream.js ./docstream_bg.wasm
one docstream_bg.wasm
if [ -f convert.js ]; then
  entry "docstream/convert (own wasm)" ./convert.js ./convert_bg.wasm
fi
entry "docstream/highlight (first code)" ./highlight/index.js
entry "math.js (first formula)" ./math.js ./math_bg.wasm
entry "redact.js (first masked export)" ./redact.js ./redact_bg.wasm
echo "Budget for the default entry: $budget bytes gzip; it is $default_zip ($((default_zip * 100 / budget))%)."
if [ "${1:-}" = --check ] && [ "$default_zip" -gt "$budget" ]; then
  echo "size: the default entry is over the budget by $((default_zip - budget)) bytes gzip" >&2
  exit 1
fi
