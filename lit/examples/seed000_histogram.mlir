// Parses, verifies and pins examples/seed000_histogram.mlir (a scatter with an
// associative, commutative combine, seed 000 §2): the zeros reach the scatter through an
// infusible edge, the bins and ones fuse into it; nothing is lowered op by op; with
// OpenMP the integer sum runs by default on private copies of the bins where they are
// few (`--scatters=exact`: `@byteHistogram`'s 256 for 5000 elements; the bins of
// `@histogram`, one per element, stay in order: passes/src/parallel_forms/private.rs),
// and `--scatters=owners` runs it by owner (each thread performs the additions into its
// own part of the bins, nothing atomic: passes/src/parallel_forms/owners.rs); results agree
// under the interpreter, compiled unfused and compiled fused (CPU, OpenMP, emulated GPU
// kernels).
// RUN: fuse-opt %examples/seed000_histogram.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_histogram.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed000_histogram.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed000_histogram.mlir --emit-llvm=%t.ll --openmp && FileCheck %s --check-prefix=OMP < %t.ll
// RUN: fuse-opt %examples/seed000_histogram.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_histogram.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed000_histogram.mlir --run --check --size=5000 --seed=5 --openmp | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed000_histogram.mlir --run --check --size=5000 --seed=6 --openmp --scatters=owners | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed000_histogram.mlir --run --check --size=5000 --seed=7 --openmp --scatters=private | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_histogram.mlir --run --check --size=300 --gpu-sim | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @histogram(
// CHECK:         array.scatter

// CLUSTERS: "name":"histogram"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"zeros"],["src","result"]]
// CLUSTERS: "name":"byteHistogram"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"zeros"],["src","result"]]

// LOOPS-NOT: op by op

// OMP: call void {{.*}}@__kmpc_fork_call(
// OMP-NOT: atomicrmw

// RESULT: @histogram: match (interpreter, unfused, fused)
// RESULT: @byteHistogram: match (interpreter, unfused, fused)
