#!/usr/bin/env bash
# Coverage-guided fuzzing (cargo-fuzz, libFuzzer, AddressSanitizer) of three targets
# (fuzz/fuzz_targets/):
#   parse_verify  arbitrary bytes as MLIR with the array dialect, then the lowering
#   pipeline    generated programs through the fused and unfused pipelines to LLVM
#   npy         arbitrary bytes as a .npy file, and the accepted ones read back
# Usage: scripts/fuzz.sh [SECONDS per target, default 60] [TARGET...]
# Environment: FUZZ_SEED (libFuzzer's -seed, for a reproducible run), FUZZ_SANITIZER
# (address, the default, or none: about 3x as many runs of `pipeline`, whose time goes
# into MLIR's and SCIP's allocations, which AddressSanitizer intercepts).
# Installs, when missing, the nightly toolchain (rustup) and cargo-fuzz 0.13.1. Seeds each
# corpus (fuzz/corpus/TARGET, git-ignored) from examples/ and lit/. A crash leaves its
# input in fuzz/artifacts/TARGET/ and makes the script fail; replay it with
#   cargo +nightly fuzz run TARGET fuzz/artifacts/TARGET/crash-…
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(parse_verify pipeline npy)

rustup toolchain list | grep -q '^nightly' || rustup toolchain install nightly --profile minimal
cargo +nightly fuzz --version >/dev/null 2>&1 || cargo +stable install cargo-fuzz --version 0.13.1 --locked

for target in "${targets[@]}"; do
  corpus=fuzz/corpus/$target
  mkdir -p "$corpus"
  case $target in
    parse_verify) cp -n examples/*.mlir lit/*/*.mlir "$corpus"/ 2>/dev/null || true ;;
    npy) find examples/inputs -name '*.npy' -exec cp -n {} "$corpus"/ \; ;;
    pipeline) [ -n "$(ls -A "$corpus")" ] || printf '\x01\x00\x00\x00\x00\x00\x00\x00\x09' >"$corpus/seed" ;;
  esac
  echo "== fuzz $target for ${seconds}s"
  # Leak detection is off: SCIP 10.0.2's symmetry detection loses a few blocks per solve
  # (scripts/valgrind.supp), and MLIR keeps its registrations for the process's lifetime.
  # scripts/memcheck.sh checks our own code and the generated code for leaks instead.
  log=$(mktemp)
  status=0
  ASAN_OPTIONS=detect_leaks=0 cargo +nightly fuzz run --sanitizer "${FUZZ_SANITIZER:-address}" "$target" "$corpus" -- \
    -max_total_time="$seconds" -detect_leaks=0 -print_final_stats=1 ${FUZZ_SEED:+-seed=$FUZZ_SEED} \
    >"$log" 2>&1 || status=$?
  grep -E '^(Done [0-9]+ runs|stat::number_of_executed_units|stat::peak_rss_mb|==[0-9]+==ERROR|SUMMARY|thread .* panicked|Test unit written)' "$log" || true
  if [ $status -ne 0 ]; then
    tail -40 "$log"
    echo "fuzz: $target failed (exit $status); the input is in fuzz/artifacts/$target/" >&2
    exit 1
  fi
  rm -f "$log"
done
