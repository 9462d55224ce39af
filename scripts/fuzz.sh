#!/usr/bin/env bash
# Fuzzes docstream with libFuzzer: every target of fuzz/ for SECONDS seconds each
# (default 60), starting from seeds made of tests/fixtures and examples/, with the
# wire-format dictionary fuzz/wire.dict. The same as `cargo fuzz run TARGET` (the
# flags are cargo-fuzz's), without needing cargo-fuzz installed.
#
#   bash scripts/fuzz.sh                 # every target, 60 s each
#   SECONDS_PER_TARGET=3600 bash scripts/fuzz.sh stream   # one target, an hour
#
# Needs: a nightly toolchain (`rustup toolchain list` shows one), or the stable one with
# RUSTC_BOOTSTRAP=1 (used when no nightly is installed); the AddressSanitizer runtime
# that rustup ships with either; a C++ compiler (libfuzzer-sys builds libFuzzer); the
# crates libfuzzer-sys, arbitrary, cc, jobserver from crates.io on first build.
# A crash is written to fuzz/artifacts/TARGET/; copy it to fuzz/regressions/TARGET/
# so that the test run replays it (tests/fuzz_replay.rs). Exit status: 0 when no
# target crashed.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${SECONDS_PER_TARGET:-60}
targets=("$@")
# Every target fuzz/Cargo.toml declares, unless some are named.
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(awk -F'"' '/^\[\[bin\]\]/ { bin = 1; next } bin && /^name = / { print $2; bin = 0 }' fuzz/Cargo.toml)
host=$(rustc -vV | awk '/^host:/ { print $2 }')

toolchain=()
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
  toolchain=(+nightly)
else
  export RUSTC_BOOTSTRAP=1
fi
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing -Zsanitizer=address \
-Cdebug-assertions -Coverflow-checks"
echo "fuzz: building ${targets[*]} (${toolchain[*]:-stable with RUSTC_BOOTSTRAP=1}, AddressSanitizer)"
cargo "${toolchain[@]}" build --quiet --release --manifest-path fuzz/Cargo.toml \
  --target "$host" $(printf -- '--bin %s ' "${targets[@]}")

# Seeds: the fixtures and examples; the stream targets' inputs start with a two-byte
# header (format 0 = detect, chunk seed), see fuzz/src/lib.rs.
for t in "${targets[@]}"; do
  dir=fuzz/corpus/$t
  mkdir -p "$dir"
  find tests/fixtures examples -type f ! -name '*.expected.*' | while read -r f; do
    name=$(echo "$f" | tr '/' '_')
    case $t in
      stream|stream_invariance) { printf '\000\007'; cat "$f"; } > "$dir/$name" ;;
      *) cp "$f" "$dir/$name" ;;
    esac
  done
done

failed=0
for t in "${targets[@]}"; do
  mkdir -p "fuzz/artifacts/$t"
  echo "fuzz: $t for ${seconds}s"
  if ! "fuzz/target/$host/release/$t" -max_total_time="$seconds" -dict=fuzz/wire.dict \
      -artifact_prefix="fuzz/artifacts/$t/" -max_len=65536 -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 "fuzz/corpus/$t" 2> "fuzz/artifacts/$t.log"; then
    failed=1
    echo "fuzz: $t FAILED; see fuzz/artifacts/$t.log and fuzz/artifacts/$t/"
    tail -30 "fuzz/artifacts/$t.log"
  fi
  grep -E '^stat::number_of_executed_units|^stat::peak_rss_mb' "fuzz/artifacts/$t.log" | tr '\n' ' '
  echo
done
exit $failed
