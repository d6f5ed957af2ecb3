// gpu-bench: seed 004's micro-benchmark grid (segment-length distributions × input sizes ×
// expand divisions, each relative to the unfused program) on an NVIDIA GPU. Without a
// CUDA driver it ends with 1 and says why; --emulated runs the same grid with the kernels
// emulated on the CPU and says so in the table's title (times are not checked, only
// that every division ran and agreed with the unfused program: a ratio, not a failure).
// RUN: gpu-bench --help | FileCheck %s --check-prefix=HELP
// RUN: env FUSION_CUDA_DRIVER=/nonexistent/libcuda.so.1 not gpu-bench 2>&1 | FileCheck %s --check-prefix=NODRIVER
// RUN: not gpu-bench --strategies 3-per-block 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: gpu-bench --emulated --sizes 0,25 --reps 1 --strategies 1-per-warp,8-per-block,balanced | FileCheck %s

// HELP: usage: gpu-bench [FILE]
// NODRIVER: gpu-bench: error: no CUDA driver: /nonexistent/libcuda.so.1 cannot be loaded ({{.*}}); this benchmark runs on an NVIDIA GPU (--emulated runs the same kernels emulated on the CPU)
// BAD: gpu-bench: error: --strategies: '3-per-block' is not one of

// CHECK: seed004_expand_permute.mlir on the CPU, EMULATED (array-gpu-emulate: these are not GPU times), 1 calls per cell (median), input seed 1
// CHECK: ## @smallSegments: time relative to no fusion
// CHECK: | kernel | 0 | 25 |
// CHECK: | No fusion | 1.00 ({{[0-9.]+}} ms) | 1.00 ({{[0-9.]+}} ms) |
// CHECK: | 1-per-warp | {{[0-9.]+|NaN|inf}} | {{[0-9.]+}} |
// CHECK: | 8-per-block | {{[0-9.]+|NaN|inf}} | {{[0-9.]+}} |
// CHECK: | balanced | {{[0-9.]+|NaN|inf}} | {{[0-9.]+}} |
// CHECK: ## @oneHugeSegment
// CHECK: | balanced |
