// The passes inside stock mlir-opt: options reach the analysis, the report is written, the
// fusion trees are materialised, and everything lowers to LLVM IR that mlir-runner executes.
//
// RUN: %stock_mlir_opt --load-dialect-plugin=%array_fusion_lib --load-pass-plugin=%array_fusion_lib \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion{cost=reads emit-clustering=%t.json}))' \
// RUN:   %examples/seed001_normalize2.mlir | FileCheck %s --check-prefix=TREE
// RUN: FileCheck %s --check-prefix=REPORT < %t.json
//
// TREE: func.func @normalize2
// TREE-SAME: array.fusion = "normalize2: 2 clusters, objective 4, optimal"
// TREE: = array.cluster ->
// TREE-NEXT: = array.horizontal ->
// TREE: array.fold %arg0
// TREE: array.vertical
// TREE-NEXT: array.filter %arg0
// TREE: } consumer {
// TREE: array.fold
// TREE: = array.cluster ->
// TREE-NEXT: = array.horizontal ->
// TREE-COUNT-2: array.map %arg0
// TREE-NOT: = array.cluster ->
//
// REPORT: "name":"normalize2"
// REPORT-SAME: "cost":"reads","objective":4,"bound":4,"gap":0,"status":"optimal"
// REPORT-SAME: "clusters":{{\[\["sum1","gts","sum2"\],\["ys1","ys2"\]\]}}
//
// Seed 002's vertical and diagonal fusion, as trees.
// RUN: %stock_mlir_opt --load-dialect-plugin=%array_fusion_lib --load-pass-plugin=%array_fusion_lib \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion))' %examples/seed002_diagonal.mlir \
// RUN:   | FileCheck %s --check-prefix=DIAGONAL
// DIAGONAL-LABEL: func.func @mapFusion
// DIAGONAL-SAME: "mapFusion: 1 clusters, objective 2, optimal"
// DIAGONAL-NEXT: = array.cluster -> tensor<?xi64> {
// DIAGONAL-NEXT: = array.vertical -> tensor<?xi64> producer {
// DIAGONAL-NEXT: array.map %arg0
// DIAGONAL: array.map %arg1
// DIAGONAL-LABEL: func.func @diagonalExample
// DIAGONAL-SAME: "diagonalExample: 1 clusters, objective 3, optimal"
// DIAGONAL-NEXT: = array.cluster -> tensor<?xi64>, tensor<?xi64> {
// DIAGONAL-NEXT: = array.diagonal -> tensor<?xi64>, tensor<?xi64> producer {
// DIAGONAL-NEXT: array.map %arg0
// DIAGONAL: array.map %arg1
//
// A bad option is the pass manager's error, with a non-zero exit.
// RUN: not %stock_mlir_opt --load-dialect-plugin=%array_fusion_lib --load-pass-plugin=%array_fusion_lib \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion{no-such-option=1}))' \
// RUN:   %examples/seed001_normalize2.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: no-such-option
//
// The whole CPU pipeline in stock tools: fusion, loops, MLIR's lowering to LLVM, mlir-runner.
// RUN: %stock_mlir_opt --load-dialect-plugin=%array_fusion_lib --load-pass-plugin=%array_fusion_lib \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, convert-scf-to-cf, expand-strided-metadata, finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts)' \
// RUN:   %s | %llvm_bin/mlir-runner -e main -entry-point-result=i64 | FileCheck %s --check-prefix=EXEC
//
// 1² + 2² + … + 10² = 385, computed by one fused loop.
// EXEC: 385
// RUN: %stock_mlir_opt --load-dialect-plugin=%array_fusion_lib --load-pass-plugin=%array_fusion_lib \
// RUN:   --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops)' %s | FileCheck %s --check-prefix=LOOPS
// LOOPS-LABEL: func.func @sum_of_squares
// LOOPS-COUNT-1: scf.parallel
// LOOPS-NOT: scf.parallel
// LOOPS-NOT: scf.for
// LOOPS-LABEL: func.func @main

func.func @sum_of_squares(%n: index) -> tensor<i64> {
  %upto = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %k = arith.addi %i, %c1 : index
    %v = arith.index_cast %k : index to i64
    array.yield %v : i64
  }
  %squares = array.map %upto : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%v: i64):
    %sq = arith.muli %v, %v : i64
    array.yield %sq : i64
  }
  %zero = arith.constant 0 : i64
  %sum = array.fold %squares init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    array.yield %s : i64
  }
  return %sum : tensor<i64>
}

func.func @main() -> i64 {
  %n = arith.constant 10 : index
  %sum = func.call @sum_of_squares(%n) : (index) -> tensor<i64>
  %value = tensor.extract %sum[] : tensor<i64>
  return %value : i64
}
