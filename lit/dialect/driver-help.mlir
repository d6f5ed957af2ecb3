// fuse-opt --help: MLIR's own driver, with the array dialect registered and
// the upstream passes and options available.
//
// RUN: fuse-opt --help | FileCheck %s

// CHECK:      OVERVIEW: fuse-opt: optimal fusion of data-parallel array combinators
// CHECK:      Available Dialects: {{.*}}, array, {{.*}}builtin, {{.*}}func, {{.*}}tensor
// CHECK-NEXT: USAGE: fuse-opt [options] <input file>
// CHECK-DAG:  --canonicalize - Canonicalize operations
// CHECK-DAG:  --cse - Eliminate common sub-expressions
// CHECK-DAG:  --pass-pipeline=<string> - Textual description of the pass pipeline to run
// CHECK-DAG:  --mlir-print-ir-after-all - Print IR after each pass
// CHECK-DAG:  --mlir-print-debuginfo - Print debug info in MLIR output
// CHECK-DAG:  --split-input-file
// CHECK-DAG:  --verify-diagnostics
// CHECK-DAG:  --allow-unregistered-dialect
