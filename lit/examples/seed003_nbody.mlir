// Parses, verifies and pins examples/seed003_nbody.mlir (seed 003 Table I's n-body step):
// size inference proves every pairwise array of one size and the row folds the size of x,
// so no size warning; all 20 combinators form one cluster (the n × n arrays are never
// stored, the three accelerations are one fold with three accumulators); nothing is lowered
// op by op; results agree under the interpreter, compiled unfused and compiled fused (CPU,
// OpenMP, emulated GPU kernels), one body and none included.
// RUN: fuse-opt %examples/seed003_nbody.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_nbody.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_nbody.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_nbody.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed003_nbody.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed003_nbody.mlir --run --check --size=60 --seed=5 --openmp | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed003_nbody.mlir --run --check --size=20 --gpu-sim | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @nbodyStep(
// CHECK:         array.fold {{.*}} -> tensor<?xf64>, tensor<?xf64>, tensor<?xf64>

// CLUSTERS: "name":"nbodyStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"iIndex","jIndex","xi","xj","dx","yi","yj","dy","zi","zj","dz","mj","weight","ax","vx2","vy2","vz2","x2","y2","z2"]]

// LOOPS-NOT: op by op

// RESULT: @nbodyStep: match (interpreter, unfused, fused)
