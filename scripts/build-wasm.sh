#!/usr/bin/env bash
# Builds the npm package into pkg/: cargo (wasm32) → wasm-bindgen --target web →
# wasm-opt -Oz (npm binaryen) → inline.js (the wasm as base64) → every file of
# pkg-template/ and assets/docstream.css. Four wasm modules:
# docstream_bg.wasm (crates/wasm: the stream and its renderers, every format),
# docstream-lite_bg.wasm (the same crate without its features every-format, markdown and
# views: the default formats, every other detected, no Markdown export, no text(),
# diffView() or planView(); what `docstream/define`
# loads at start, handing a stream in another format to docstream_bg.wasm, and asking it
# for a stream's Markdown), convert_bg.wasm (crates/convert-wasm: the
# seed 002 conversions of `docstream/convert`), math_bg.wasm (crates/math-wasm: TeX
# to MathML, which the element loads with the first formula) and redact_bg.wasm
# (crates/redact-wasm: secrets masked, which the element loads for the first export
# that masks them).
# Prints the sizes (scripts/size.sh; `--check` fails above the default entry's budget).
# Then the viewer's store reader, apart from the package (scripts/build-library-wasm.sh:
# www/viewer/vendor/library/).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup.sh

profile=wasm-release
rm -rf pkg && mkdir -p pkg
# One module: cargo builds the crate, wasm-bindgen, wasm-opt; pkg/NAME.js and pkg/NAME_bg.wasm.
# Arguments after the crate go to cargo (features).
module() {
  local name=$1 crate=$2
  local raw="target/wasm32-unknown-unknown/$profile/${crate//-/_}.wasm"
  cargo build --lib --profile "$profile" --target wasm32-unknown-unknown -p "$crate" "${@:3}"
  # The lite module's unoptimised build is kept apart (scripts/wasm-sizes.mjs --lite).
  if [ "$name" = docstream-lite ]; then cp "$raw" "${raw%.wasm}_lite.wasm"; fi
  wasm-bindgen "$raw" --out-dir pkg --target web --out-name "$name"
  # The classes have [Symbol.dispose](): the declarations bring the lib that types it, so
  # a project need not add esnext.disposable itself.
  sed -i '1i /// <reference lib="esnext.disposable" />' "pkg/$name.d.ts"
  # wasm-opt runs while cargo builds the next module (cargo's last step, the LTO link,
  # keeps one core busy). The sections only tools read go. -Oz twice gains about 1 KB
  # over once: worth its 20-30 s on the default module, whose size has a budget.
  local again=()
  if [ "$name" = docstream-lite ]; then again=(-Oz); fi
  node_modules/.bin/wasm-opt -Oz --strip-producers --strip-target-features "${again[@]}" \
    --enable-bulk-memory --enable-nontrapping-float-to-int \
    --enable-sign-ext --enable-mutable-globals --enable-reference-types \
    "pkg/${name}_bg.wasm" -o "pkg/${name}_bg.wasm" &
  optimising+=($!)
}
optimising=()
module convert docstream-convert-wasm
module math docstream-math-wasm
module redact docstream-redact-wasm
module docstream-lite docstream-wasm --no-default-features
module docstream docstream-wasm
# Each wasm-opt in turn: a failing one fails the build.
for pid in "${optimising[@]}"; do wait "$pid"; done
# push() and finish(): JavaScript on write() and pull() (crates/wasm/src/push.js says why).
cat crates/wasm/src/push.js >> pkg/docstream.js
cat crates/wasm/src/push.js >> pkg/docstream-lite.js
# The lite module is the element's (pkg-template/element-wasm.js), not an entry: its
# declarations are docstream.d.ts's.
rm pkg/docstream-lite.d.ts pkg/docstream-lite_bg.wasm.d.ts
# Fields a snapshot always has are required in the declarations (tsify makes every
# field a reader may omit optional).
cargo run -q -p docstream-model --example exact_types | node scripts/exact-types.mjs pkg/docstream.d.ts
node scripts/inline-wasm.mjs
cp -R pkg-template/. pkg/
cp assets/docstream.css pkg/docstream.css
# The Custom Elements Manifest (pkg/custom-elements.json), from element.js, define.js and
# the stylesheet (cem.config.mjs).
node_modules/.bin/cem analyze --config cem.config.mjs --quiet
# The stylesheet also as a module the web component adopts (no fetch, so it works in
# webviews whose CSP forbids connections), and the standalone page's frame, the CLI's
# too, for <docstream-view>.page().
as_module() {
  node -e 'const fs = require("fs"); process.stdout.write("// Generated from " + process.argv[1] + " by scripts/build-wasm.sh.\nexport default " + JSON.stringify(fs.readFileSync(process.argv[1], "utf8")) + ";\n")' "$1" > "$2"
}
# What a page loads is minified, as a server would send it; each file's source map holds
# its readable text (assets/, pkg-template/ and the glue). The manifest above is read
# from the readable sources. The stylesheet module is made from the minified sheet.
# (inline.js has none: its map would hold the wasm's base64 again).
minify() {
  node_modules/.bin/esbuild "$1" --minify --legal-comments=none "${@:2}" \
    --allow-overwrite --outfile="$1" --log-level=warning
}
minify pkg/docstream.css --sourcemap
for f in pkg/*.js; do
  case $f in
    pkg/inline.js) minify "$f" ;;
    pkg/element.js | pkg/element-*.js | pkg/chunks.js) ;; # below
    *) minify "$f" --sourcemap ;;
  esac
done
as_module pkg/docstream.css pkg/docstream-css.js
as_module assets/page.html pkg/docstream-page.js
# <docstream-view>'s class (element.js) and its parts (element-*.js), modules by concern
# in pkg-template/, are bundled into one element.js with the chunk reader (chunks.js,
# which stream.js imports too; it holds no state): each file a page loads compresses
# alone, and one file for the nine is 2.3 KB gzip less on the default entry (21.5 KB of
# JavaScript against 23.8 KB).
# Every other module of the package stays a module of its own, imported as before
# (shared state such as apply.js's Trusted Types policy exists once).
external=(--external:'./highlight/*')
for f in pkg/*.js; do
  case $f in pkg/element.js | pkg/element-*.js | pkg/chunks.js) ;; *) external+=(--external:"./${f#pkg/}") ;; esac
done
minify pkg/element.js --sourcemap --bundle --format=esm "${external[@]}"
minify pkg/chunks.js --sourcemap
rm pkg/element-*.js
# The syntax highlighter (highlight/, Shiki's grammars): bundled apart, with one chunk per
# grammar, so the element loads it only when a code block appears.
node_modules/.bin/esbuild highlight/index.js --bundle --splitting --format=esm --minify \
  --target=es2022 --outdir=pkg/highlight --entry-names='[name]' --chunk-names='[name]-[hash]' \
  --legal-comments=none --log-level=warning
cp highlight/index.d.ts pkg/highlight/index.d.ts
version=$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)  # [workspace.package]
sed -i "s/\"version\": \"0.0.0\"/\"version\": \"$version\"/" pkg/package.json

sizes() { echo "$(wc -c < "$1") bytes, $(gzip -9c "$1" | wc -c) gzip"; }
echo "pkg/docstream_bg.wasm (every format): $(sizes pkg/docstream_bg.wasm)"
echo "pkg/docstream-lite_bg.wasm (the default formats, docstream/define): $(sizes pkg/docstream-lite_bg.wasm)"
echo "pkg/docstream.js (JS glue): $(sizes pkg/docstream.js)"
echo "pkg/convert_bg.wasm (docstream/convert): $(sizes pkg/convert_bg.wasm)"
echo "pkg/math_bg.wasm (TeX to MathML, loaded with the first formula): $(sizes pkg/math_bg.wasm)"
echo "pkg/redact_bg.wasm (secrets masked, loaded by the first masked export): $(sizes pkg/redact_bg.wasm)"
echo "pkg/inline.js (glue + wasm as base64): $(sizes pkg/inline.js)"
echo "pkg/highlight/index.js (highlighter, loaded with the first code block): $(sizes pkg/highlight/index.js)"
rust=$(ls pkg/highlight/rust-*.js)
echo "pkg/highlight grammars: $(ls pkg/highlight | wc -l) files; Rust's $(sizes "$rust")"
# scripts/test.sh checks the sizes in a suite of its own.
[ "${DOCSTREAM_SIZES:-}" = later ] || bash scripts/size.sh
bash scripts/build-library-wasm.sh
