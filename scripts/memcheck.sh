#!/usr/bin/env bash
# Memory check of compiled runs: `fuse-opt FILE --run --check` of every example under
# valgrind; fails when any run loses memory for good ("definitely lost" > 0 bytes), from
# our code or from the code we generate. Other valgrind reports (the dynamic loader's
# known false positives while loading LLVM) are not counted, nor leaks inside the SCIP
# library itself (scripts/valgrind.supp says which). Slow: about 40 s per file.
# Usage: scripts/memcheck.sh [FILE...]   (default: examples/*.mlir; needs valgrind)
set -uo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
command -v valgrind >/dev/null || { echo "memcheck: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
files=("$@")
[ ${#files[@]} -gt 0 ] || files=(examples/*.mlir)
log=$(mktemp)
failed=0
for f in "${files[@]}"; do
  valgrind --leak-check=full --show-leak-kinds=definite --suppressions=scripts/valgrind.supp ./target/debug/fuse-opt "$f" --run --check --size=100 \
    >"$log" 2>&1
  lost=$(grep -o 'definitely lost: [0-9,]* bytes' "$log" | tr -dc '0-9')
  verdicts=$(grep -c ': match (' "$log")
  if [ -z "$lost" ]; then
    # No leak summary: valgrind found no heap blocks in use at exit at all.
    grep -q 'All heap blocks were freed' "$log" && lost=0 || lost=unknown
  fi
  echo "$f: definitely lost ${lost} bytes (${verdicts} checked function(s))"
  [ "$lost" = 0 ] || { failed=1; grep -A12 'definitely lost in' "$log" | head -40; }
done
rm -f "$log"
exit $failed
