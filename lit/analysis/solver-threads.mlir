// threads=N asks for SCIP's concurrent solver, whose copies of the problem would drop
// the combined model's cycle inequalities (a separator and a constraint handler without
// copy callbacks; the solved model leaves its rows on π to them): the
// solve runs in one thread with them, and a located warning says so. The answer is
// the same optimum. `robinson` has no separator, so its threads are used as asked.
// RUN: fuse-opt %examples/seed000_simple.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion-analysis{threads=2}))' 2>&1 | FileCheck %s
// RUN: fuse-opt %examples/seed000_simple.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion-analysis{threads=1}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE --implicit-check-not='threads='
// RUN: fuse-opt %examples/seed000_simple.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion-analysis{formulation=robinson cost=robinson threads=2}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROBINSON --implicit-check-not='threads='

// CHECK: seed000_simple.mlir:{{[0-9]+}}:1: warning: array-fusion-analysis ({{[A-Za-z0-9]+}}): threads=2 was asked for, but the solve ran in one thread: SCIP's concurrent solver would drop the model's cycle inequalities
// CHECK: "status":"optimal"

// ONE: "status":"optimal"

// ROBINSON: "formulation":"robinson"
