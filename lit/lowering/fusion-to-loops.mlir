// The README's command `fuse-opt FILE --array-fusion --array-to-loops`: the alias named on
// the command line runs on every function of the module (its passes are nested under
// func.func), then array-to-loops turns each cluster into one loop nest. Unfused, @simple1
// would be two loop nests. The same in one textual pipeline, with array-to-loops run on
// each function. @simple2 (a gather of a gather at loaded indices) stays two loops under
// the default cost (`chained-gathers`) and is one under seed 000's `reads-writes` (SEED000).
// RUN: fuse-opt %examples/seed000_simple.mlir --array-fusion --array-to-loops | FileCheck %s
// RUN: fuse-opt %examples/seed000_simple.mlir --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops))' | FileCheck %s
// RUN: fuse-opt %examples/seed000_simple.mlir --array-fusion --array-to-loops | FileCheck %s --check-prefix=LOWERED
// RUN: fuse-opt %examples/seed000_simple.mlir --array-fusion --array-to-loops | fuse-opt --verify-diagnostics > /dev/null
// RUN: fuse-opt %examples/seed000_simple.mlir --pass-pipeline='builtin.module(func.func(array-fusion{cost=reads-writes}, array-to-loops))' | FileCheck %s --check-prefix=SEED000

// gather(map(xs), is): one loop reading is[i], then xs at that index, computing 2x+1.
// CHECK-LABEL: func.func @simple1
// CHECK-SAME: array.fusion = "simple1: 1 clusters, objective 3, optimal"
// CHECK: scf.parallel
// CHECK: %[[I:.+]] = memref.load %{{.+}}[%{{.+}}] : memref<?xindex>
// CHECK: %[[X:.+]] = memref.load %{{.+}}[%[[I]]] : memref<?xi64>
// CHECK: arith.muli %[[X]]
// CHECK: memref.store
// CHECK-NOT: scf.parallel
// gather(gather(xs, is1), is2): two loops by default, one under reads-writes.
// CHECK-LABEL: func.func @simple2
// CHECK-SAME: array.fusion = "simple2: 2 clusters, objective 6, optimal"
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK-NOT: scf.parallel
// SEED000-LABEL: func.func @simple2
// SEED000-SAME: array.fusion = "simple2: 1 clusters, objective 4, optimal"
// SEED000: scf.parallel
// SEED000-NOT: scf.parallel
// SEED000-LABEL: func.func @simple3
// CHECK-LABEL: func.func @simple3
// CHECK-SAME: array.fusion = "simple3: 2 clusters

// LOWERED-NOT: array.map
// LOWERED-NOT: array.gather
// LOWERED-NOT: array.fold
// LOWERED-NOT: array.cluster
