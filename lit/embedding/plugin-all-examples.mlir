// Stock mlir-opt (MLIR 22) with libarray_fusion.so loaded as dialect and pass plugin runs the
// fusion pipeline and the lowering to loops on every example with exactly fuse-opt's result:
// the same IR, the same diagnostics (remarks, the warnings of the ill-sized example), the same exit.
//
// RUN: %S/Inputs/compare-plugin-with-fuse-opt.sh %stock_mlir_opt %array_fusion_lib %examples \
// RUN:   'builtin.module(func.func(array-fusion), array-to-loops)' %t.loops | FileCheck %s
// RUN: %S/Inputs/compare-plugin-with-fuse-opt.sh %stock_mlir_opt %array_fusion_lib %examples \
// RUN:   'builtin.module(func.func(array-fusion{cost=reads formulation=gather}))' %t.trees | FileCheck %s
//
// Every example, none different (41 of them).
// CHECK-NOT: DIFFERENT
// CHECK-COUNT-41: same seed{{.*}}
// CHECK-NOT: {{.}}
