// `array-to-loops` followed by the upstream pipeline of MLIR 22 reaches the LLVM
// dialect: every combinator of the first slice (map, generate, fold, gather) is gone,
// and the result translates to LLVM IR. The second RUN line also frees the buffers
// (buffer-deallocation-pipeline after bufferization).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops, one-shot-bufferize{bufferize-function-boundaries}, convert-scf-to-cf, expand-strided-metadata, finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts)' | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops, one-shot-bufferize{bufferize-function-boundaries}, buffer-deallocation-pipeline, convert-scf-to-cf, expand-strided-metadata, finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts)' | FileCheck %s --check-prefixes=CHECK,DEALLOC
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-to-loops, one-shot-bufferize{bufferize-function-boundaries}, convert-scf-to-cf, expand-strided-metadata, finalize-memref-to-llvm, convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, convert-func-to-llvm, reconcile-unrealized-casts)' | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=LLVMIR

// CHECK-NOT:   array.
// CHECK-NOT:   scf.
// CHECK-NOT:   memref.
// CHECK-NOT:   tensor.
// CHECK-NOT:   bufferization.
// CHECK-DAG:   llvm.func @malloc(
// DEALLOC-DAG: llvm.func @free(
// CHECK-LABEL: llvm.func @sumSquares() -> i64
// CHECK:       llvm.call @malloc
// DEALLOC:     llvm.call @free
// CHECK:       llvm.return
// CHECK-LABEL: llvm.func @gatherRows(
// CHECK-LABEL: llvm.func @rowSums(
// CHECK-NOT:   array.

// LLVMIR: define i64 @sumSquares()
// LLVMIR: define {{.*}} @gatherRows(
// LLVMIR: define {{.*}} @rowSums(

func.func @sumSquares() -> i64 {
  %n = arith.constant 10 : index
  %z = arith.constant 0 : i64
  %is = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %sq = array.map %is : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %s = array.fold %sq init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}

func.func @gatherRows(%xs: tensor<?x?xf32>, %is: tensor<?xi32>, %js: tensor<?xindex>) -> tensor<?xf32> {
  %r = array.gather %xs[%is, %js] : tensor<?x?xf32>[tensor<?xi32>, tensor<?xindex>] -> tensor<?xf32>
  return %r : tensor<?xf32>
}

func.func @rowSums(%xs: tensor<?x?xf64>) -> tensor<?xf64> {
  %z = arith.constant 0.0 : f64
  %r = array.fold %xs init(%z : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %a = arith.addf %acc, %x : f64
    array.yield %a : f64
  }
  return %r : tensor<?xf64>
}
