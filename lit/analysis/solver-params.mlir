// FUSION_SCIP_PARAMS=FILE reads a SCIP settings file over the solver's own settings (to
// study its parameters without a rebuild). A file SCIP cannot read is a solver failure:
// a located warning naming the file, and the program left unfused (status fallback),
// never a crash. A readable file changes the search, not the answer's validity: here a
// node limit of 1 stops SCIP at the root, and the answer is still a valid clustering.
// RUN: env FUSION_SCIP_PARAMS=%t.missing.set fuse-opt %examples/seed000_simple.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=MISSING --implicit-check-not=ERROR
// RUN: printf 'limits/totalnodes = 1\n' > %t.set
// RUN: env FUSION_SCIP_PARAMS=%t.set fuse-opt %examples/seed000_simple.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=READ

// MISSING: warning: array-fusion-analysis ({{[A-Za-z0-9]+}}): no clustering from the solver (SCIP failed: FUSION_SCIP_PARAMS: cannot read '{{.*}}.missing.set': No such file or directory {{.*}}); the program is left unfused
// MISSING: "status":"fallback"

// READ-NOT: FUSION_SCIP_PARAMS
// READ: "status":"{{optimal|time-limit}}"
