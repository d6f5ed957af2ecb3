#!/usr/bin/env bash
# Prepares a run of the GPU kernels on real NVIDIA hardware, on a machine that has neither
# MLIR nor Rust (scripts/gpu-hardware/run.py runs it there). Everything is compiled here:
#
#   .gpu-hardware/libfusion_gpu_runtime.so   MLIR's GPU runtime functions over the CUDA driver
#   .gpu-hardware/data/<stem>/<f>.in<i>.npy  inputs, and <f>.out<i>.npy: the fused CPU program's
#                                            results (kernel-bench --dump; kernel-bench checks
#                                            them against the unfused CPU program)
#   .gpu-hardware/build/<variant>/<stem>/    host.mlir (the signatures) and host.so (host.ll of
#                                            `fuse-opt --emit-gpu`, compiled by llc, linked with
#                                            the runtime) for the variants `fused`, `unfused`
#                                            and `expand-<division>` (examples/gpu, every
#                                            division of --gpu-expand)
#   .gpu-hardware/build/cpu/<stem>/          the fused CPU program (`--emit-object`), called the
#                                            same way: a control for the harness itself
#
# Usage: scripts/gpu-hardware/prepare.sh [ELEMENTS] [SM]   (defaults 20000, sm_90)
# A file that `--emit-gpu` cannot compile is listed in build/failures.txt, not dropped silently.
set -euo pipefail
cd "$(dirname "$0")/../.."
elements=${1:-20000}
sm=${2:-sm_90}
out=.gpu-hardware
llc=/usr/lib/llvm-22/bin/llc
cargo build --release -q -p fuse-opt -p fusion-bench -p fusion-gpu-runtime
rm -rf "$out"
mkdir -p "$out/build"
cp target/release/libfusion_gpu_runtime.so "$out/"
./target/release/kernel-bench examples examples/gpu --elements "$elements" --reps 1 --dump "$out/data" \
    >"$out/kernel-bench.txt"
: >"$out/build/failures.txt"

# compile VARIANT FILE [FUSE-OPT FLAGS...]
compile() {
    local variant=$1 file=$2
    shift 2
    local stem dir
    stem=$(basename "$file" .mlir)
    dir="$out/build/$variant/$stem"
    mkdir -p "$dir"
    if ! ./target/release/fuse-opt "$file" --emit-gpu="$dir" --gpu-target="nvptx:$sm" "$@" >"$dir/emit.log" 2>&1; then
        echo "$variant $stem: fuse-opt --emit-gpu failed: $(grep -m1 error "$dir/emit.log" || tail -1 "$dir/emit.log")" \
            >>"$out/build/failures.txt"
        rm -rf "$dir"
        return
    fi
    rm -f "$dir"/*.ptx
    "$llc" -O2 -relocation-model=pic -filetype=obj "$dir/host.ll" -o "$dir/host.o"
    cc -shared -o "$dir/host.so" "$dir/host.o" -L"$out" -lfusion_gpu_runtime -Wl,-rpath,'$ORIGIN/../../..' -lm
    rm -f "$dir/host.o" "$dir/host.ll"
}

for data in "$out"/data/*/; do
    stem=$(basename "$data")
    if [ -f "examples/$stem.mlir" ]; then
        compile fused "examples/$stem.mlir"
        compile unfused "examples/$stem.mlir" --unfused
    fi
done
for dir in "$out"/build/fused/*/; do
    stem=$(basename "$dir")
    mkdir -p "$out/build/cpu/$stem"
    cp "$dir/host.mlir" "$out/build/cpu/$stem/"
    ./target/release/fuse-opt "examples/$stem.mlir" --emit-object="$out/build/cpu/$stem/host.o" 2>/dev/null
    cc -shared -o "$out/build/cpu/$stem/host.so" "$out/build/cpu/$stem/host.o" -lm
    rm "$out/build/cpu/$stem/host.o"
done
for division in auto 1-per-thread 1-per-warp 1-per-block-shuffle 1-per-block-shared 16-per-block balanced; do
    for file in examples/gpu/*.mlir; do
        compile "expand-$division" "$file" --gpu-expand="$division"
    done
done
echo "prepared $(find "$out/build" -name host.so | wc -l) host programs in $out ($(du -sh "$out" | cut -f1));" \
     "failures: $(wc -l <"$out/build/failures.txt")"
