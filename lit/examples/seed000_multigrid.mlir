// Parses, verifies and pins examples/seed000_multigrid.mlir (a two-grid V-cycle, seed
// 000 §5's multigrid at a readable size): its clustering under the default cost (six
// clusters: the zero start of the coarse solve alone; each smoothing sweep with the
// gathers of its stencil; the restriction fused with the coarse stencil's index arrays and
// the first coarse sweep; the second sweep with the prolongation and the correction), no
// cluster lowered op by op, and its results under the interpreter, compiled unfused and
// compiled fused (CPU, OpenMP, emulated GPU kernels) for even, odd and empty grids.
// RUN: fuse-opt %examples/seed000_multigrid.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_multigrid.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %examples/seed000_multigrid.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed000_multigrid.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_multigrid.mlir --run --check --size=2 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_multigrid.mlir --run --check --size=1001 --seed=5 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %examples/seed000_multigrid.mlir --run --check --size=1000 --openmp | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_multigrid.mlir --run --check --size=1000 --gpu-sim | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_multigrid.mlir --run --check --size=1 | FileCheck %s --check-prefix=ONE

// CHECK-LABEL: func.func @vcycle(
// CHECK:         return

// CLUSTERS: "name":"vcycle"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"fleft","fright","fwleft","fwright","ul","ur","u1"],["u1l","u1r","res"],["e0"],["even","odd","reven","rodd","rc","cleft","cright","cwleft","cwright","e0l","e0r","e1"],["e1l","e1r","e2","parent","corr","u2"],["u2l","u2r","u3"]]

// LOOPS-NOT: op by op

// RESULT: @vcycle: match (interpreter, unfused, fused)
// ONE: @vcycle: match (both fail under the interpreter: {{.*}}`array.gather`: index out of bounds
