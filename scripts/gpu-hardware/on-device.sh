#!/usr/bin/env bash
# On the GPU machine, after scripts/gpu-hardware/prepare.sh here: every host program against
# the CPU results, the CPU control, then compute-sanitizer's memcheck and racecheck over the
# kernels (reports in OUTDIR, default .). Needs python3 with NumPy and the CUDA driver.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${1:-.}
mkdir -p "$out"
nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv | tee "$out/gpu.txt"
python3 scripts/gpu-hardware/run.py .gpu-hardware fused unfused 'expand-*' 2>&1 | tee "$out/run.txt"
status=$?
python3 scripts/gpu-hardware/run.py .gpu-hardware cpu >"$out/cpu.txt" 2>&1 || status=1
tail -1 "$out/cpu.txt"
sanitizer=$(command -v compute-sanitizer || ls /usr/local/cuda*/bin/compute-sanitizer 2>/dev/null | head -1)
if [ -z "$sanitizer" ]; then
    echo "compute-sanitizer not found" | tee "$out/sanitizer.txt"
    exit $status
fi
for tool in memcheck racecheck; do
    timeout 120 "$sanitizer" --tool "$tool" --print-limit 20 --error-exitcode 3 \
        python3 scripts/gpu-hardware/run.py .gpu-hardware fused 'expand-*' >"$out/$tool.txt" 2>&1
    echo "$tool: exit $? ($(grep -c 'match ' "$out/$tool.txt") calls matched); $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool.txt" | tail -1)"
done
exit $status
