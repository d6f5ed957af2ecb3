// The registered pipeline alias array-fusion runs desugar, the analysis (with the
// options given to the alias) and array-fuse.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion{formulation=robinson cost=robinson}))' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-desugar, array-fusion-analysis{formulation=robinson cost=robinson}, array-fuse))' | FileCheck %s
// RUN: fuse-opt --help | FileCheck %s --check-prefix=HELP

// Passes, then pipelines, as MLIR lists them.
// HELP: --array-desugar
// HELP: --array-fuse
// HELP: --array-fusion-analysis
// HELP: --array-unfuse
// HELP: --array-fusion {{.*}}The whole fusion pipeline
// HELP-NEXT: --cost=<string>

// CHECK-LABEL: func.func @normalize2
// CHECK-SAME: array.fusion = "normalize2: 2 clusters, objective 51, optimal"
// CHECK: array.cluster -> tensor<i64>, tensor<i64> {
// CHECK-NEXT: array.horizontal -> tensor<i64>, tensor<i64> left {
// CHECK-NEXT: array.fold
// CHECK: } right {
// CHECK-NEXT: array.vertical -> tensor<i64> producer {
// CHECK-NEXT: array.filter
// CHECK: } consumer {
// CHECK-NEXT: ^bb0(%{{.+}}: tensor<?xi64>):
// CHECK-NEXT: array.fold
// CHECK: array.cluster -> tensor<?xi64>, tensor<?xi64> {
// CHECK-NEXT: array.horizontal -> tensor<?xi64>, tensor<?xi64> left {
// CHECK-NEXT: array.map
// CHECK: } right {
// CHECK-NEXT: array.map
func.func @normalize2(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %p = arith.cmpi sgt, %x, %zero : i64
    array.yield %p : i1
  }
  %sum2 = array.fold %gts init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %ys1 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = array.index %sum1[] : tensor<i64>
    %y = arith.divsi %x, %s : i64
    array.yield %y : i64
  }
  %ys2 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = array.index %sum2[] : tensor<i64>
    %y = arith.divsi %x, %s : i64
    array.yield %y : i64
  }
  return %ys1, %ys2 : tensor<?xi64>, tensor<?xi64>
}
