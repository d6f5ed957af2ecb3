// threads=N on the combined formulation races N solves (differently seeded, every
// second one on reliability branching), each with
// the model's cycle inequalities (SCIP's concurrent solver would drop them: a separator
// and a constraint handler without copy callbacks), sharing incumbents: no warning,
// and the same optimum as one thread. `robinson` has no separator, so SCIP's
// concurrent solver takes its threads.
// RUN: fuse-opt %examples/seed000_simple.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion-analysis{threads=2}))' 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not='warning'
// RUN: fuse-opt %examples/seed000_simple.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion-analysis{threads=1}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ONE --implicit-check-not='threads='
// RUN: fuse-opt %examples/seed000_simple.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion-analysis{formulation=robinson cost=robinson threads=2}))' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ROBINSON --implicit-check-not='threads='

// CHECK: "name":"simple1",{{.*}}"objective":3,"bound":3,"gap":0,"status":"optimal"

// ONE: "name":"simple1",{{.*}}"objective":3,"bound":3,"gap":0,"status":"optimal"

// ROBINSON: "formulation":"robinson"
