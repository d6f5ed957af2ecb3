// `array-recompute` (passes/src/recompute.rs; run first by array-fusion-analysis unless
// recompute=false) gives each in-order consumer of a map of one input array (or of a
// generate) its own copy, so that the producer need not be materialised between
// clusters. Each condition of the pass has a case below that keeps its producer whole.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-recompute))' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-recompute))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
//
// The analysis runs it under its defaults: seed 001's `cycle` goes from objective 6 (ys
// materialised for the second map) to 5, two clusters that each read xs.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis))' 2>/dev/null | FileCheck %s --check-prefix=ANALYSIS
// ANALYSIS: func.func @cycle({{.*}}attributes {array.fusion = "cycle: 2 clusters, objective 5, optimal"}
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis{recompute=false}))' 2>&1 | FileCheck %s --check-prefix=OFF --implicit-check-not=remark
// OFF: func.func @cycle({{.*}}attributes {array.fusion = "cycle: 2 clusters, objective 6, optimal"}
//
// Not for the baselines, nor for the cost models its proof does not cover.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=unfused}))' 2>&1 | FileCheck %s --check-prefix=NONE --implicit-check-not=remark
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis{formulation=robinson cost=robinson}))' 2>&1 | FileCheck %s --check-prefix=NONE --implicit-check-not=remark
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=reads+-1*clusters}))' 2>&1 | FileCheck %s --check-prefix=NONE --implicit-check-not=remark
// NONE-NOT: array.recomputed
//
// A bad value of the option is an error.
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis{recompute=maybe}))' 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: array-fusion-analysis: option 'recompute' must be true or false, got 'maybe'
//
// The compiled program agrees with the interpreter, fused and unfused.
// RUN: fuse-opt %s --run --check --function=cycle --size=1000 | FileCheck %s --check-prefix=EXEC
// RUN: fuse-opt %s --run --check --function=scalarCaptured --size=1000 | FileCheck %s --check-prefix=EXEC
// RUN: fuse-opt %s --run --check --function=rows --size=40 | FileCheck %s --check-prefix=EXEC
// EXEC-NOT: differ
// EXEC: match

// CHECK-LABEL: func.func @cycle(
// CHECK:         %[[YS:[0-9]+]] = array.map %arg0 : tensor<?xi64> -> tensor<?xi64> {
// CHECK:         %[[YS1:[0-9]+]] = array.map %arg0 {array.recomputed = 1 : i64} : tensor<?xi64> -> tensor<?xi64> {
// CHECK:         array.fold %[[YS]]
// CHECK:         array.map %[[YS1]] : tensor<?xi64> -> tensor<?xi64> {
// REMARK: recompute.mlir:[[@LINE+2]]:9: remark: array-recompute: recomputed in each of its consumers (1 more copy) instead of materialised
func.func @cycle(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c1 = arith.constant 1 : i64
    %y = arith.addi %x, %c1 : i64
    array.yield %y : i64
  }
  %zero = arith.constant 0 : i64
  %sum = array.fold %ys init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %y: i64):
    %s = arith.addi %acc, %y : i64
    array.yield %s : i64
  }
  %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    %s = array.index %sum[] : tensor<i64>
    %z = arith.addi %y, %s : i64
    array.yield %z : i64
  }
  return %zs : tensor<?xi64>
}

// Condition 1: a generate is not copied. Its copies would read nothing, so consumers
// that shared its loop through it could end up in two loops (`clusters` rose from 3 to 4
// on a random program before generates were excluded).
// CHECK-LABEL: func.func @generated(
// CHECK-COUNT-1: array.generate
// CHECK-NOT:     array.generate
func.func @generated(%n: index, %k: i64) -> (tensor<?xi64>, tensor<i64>, tensor<?xi64>) {
  %g = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %v = arith.muli %ii, %k : i64
    array.yield %v : i64
  }
  %zero = arith.constant 0 : i64
  %s = array.scan left inclusive %g init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %f = array.fold %g init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.maxsi %acc, %x : i64
    array.yield %t : i64
  }
  %e = array.filter %g : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %two = arith.constant 2 : i64
    %r = arith.remsi %x, %two : i64
    %even = arith.cmpi eq, %r, %zero : i64
    array.yield %even : i1
  }
  return %s, %f, %e : tensor<?xi64>, tensor<i64>, tensor<?xi64>
}

// A scalar from outside (%k) may be captured. Three consumers of three kinds (scan, fold,
// filter): two more copies.
// CHECK-LABEL: func.func @scalarCaptured(
// CHECK-COUNT-3: array.map %arg0
// REMARK: recompute.mlir:[[@LINE+2]]:8: remark: array-recompute: recomputed in each of its consumers (2 more copies) instead of materialised
func.func @scalarCaptured(%xs: tensor<?xi64>, %k: i64) -> (tensor<?xi64>, tensor<i64>, tensor<?xi64>) {
  %g = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %v = arith.muli %x, %k : i64
    array.yield %v : i64
  }
  %zero = arith.constant 0 : i64
  %s = array.scan left inclusive %g init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %f = array.fold %g init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.maxsi %acc, %x : i64
    array.yield %t : i64
  }
  %e = array.filter %g : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %two = arith.constant 2 : i64
    %r = arith.remsi %x, %two : i64
    %even = arith.cmpi eq, %r, %zero : i64
    array.yield %even : i1
  }
  return %s, %f, %e : tensor<?xi64>, tensor<i64>, tensor<?xi64>
}

// 2-D: the map of a matrix read by a row fold and by a map.
// CHECK-LABEL: func.func @rows(
// CHECK:         array.map %arg0 : tensor<?x?xf64> -> tensor<?x?xf64>
// CHECK:         array.map %arg0 {array.recomputed = 1 : i64} : tensor<?x?xf64> -> tensor<?x?xf64>
// REMARK: recompute.mlir:[[@LINE+2]]:8: remark: array-recompute: recomputed in each of its consumers (1 more copy) instead of materialised
func.func @rows(%m: tensor<?x?xf64>) -> (tensor<?xf64>, tensor<?x?xf64>) {
  %e = array.map %m : tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64):
    %y = math.exp %x : f64
    array.yield %y : f64
  }
  %zero = arith.constant 0.0 : f64
  %sums = array.fold %e init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %t = arith.addf %acc, %x : f64
    array.yield %t : f64
  }
  %h = array.map %e : tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64):
    %half = arith.constant 0.5 : f64
    %y = arith.mulf %x, %half : f64
    array.yield %y : f64
  }
  return %sums, %h : tensor<?xf64>, tensor<?x?xf64>
}

// Condition 1: two input arrays.
// CHECK-LABEL: func.func @twoInputs(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func @twoInputs(%xs: tensor<?xi64>, %ys: tensor<?xi64>) -> (tensor<i64>, tensor<?xi64>) {
  %p = array.map %xs, %ys : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    array.yield %s : i64
  }
  %zero = arith.constant 0 : i64
  %f = array.fold %p init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %q = array.map %p : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return %f, %q : tensor<i64>, tensor<?xi64>
}

// Condition 1: the input is produced in the block (copying %p would need a copy of %a
// too, or %a materialised).
// CHECK-LABEL: func.func @producedInBlock(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func @producedInBlock(%xs: tensor<?xi64>) -> (tensor<i64>, tensor<?xi64>) {
  %a = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  %p = array.map %a : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  %zero = arith.constant 0 : i64
  %f = array.fold %p init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %q = array.map %p : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return %f, %q : tensor<i64>, tensor<?xi64>
}

// Condition 2: the element function reads an array.
// CHECK-LABEL: func.func @readsArray(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func @readsArray(%xs: tensor<?xi64>, %t: tensor<i64>) -> (tensor<i64>, tensor<?xi64>) {
  %p = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %v = array.index %t[] : tensor<i64>
    %s = arith.addi %x, %v : i64
    array.yield %s : i64
  }
  %zero = arith.constant 0 : i64
  %f = array.fold %p init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t2 = arith.addi %acc, %x : i64
    array.yield %t2 : i64
  }
  %q = array.map %p : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return %f, %q : tensor<i64>, tensor<?xi64>
}

// Condition 2: a call in the element function (it may have effects).
// CHECK-LABEL: func.func @callsFunction(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func private @inc(%x: i64) -> i64 {
  %c1 = arith.constant 1 : i64
  %y = arith.addi %x, %c1 : i64
  return %y : i64
}
func.func @callsFunction(%xs: tensor<?xi64>) -> (tensor<i64>, tensor<?xi64>) {
  %p = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = func.call @inc(%x) : (i64) -> i64
    array.yield %y : i64
  }
  %zero = arith.constant 0 : i64
  %f = array.fold %p init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %q = array.map %p : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return %f, %q : tensor<i64>, tensor<?xi64>
}

// Condition 3: reading the i64 input instead of the i1 flags would move more bytes.
// CHECK-LABEL: func.func @widerInput(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func @widerInput(%xs: tensor<?xi64>) -> (tensor<i1>, tensor<?xi1>) {
  %p = array.map %xs : tensor<?xi64> -> tensor<?xi1> {
  ^bb0(%x: i64):
    %zero = arith.constant 0 : i64
    %b = arith.cmpi sgt, %x, %zero : i64
    array.yield %b : i1
  }
  %true = arith.constant true
  %f = array.fold %p init(%true : i1) : tensor<?xi1> -> tensor<i1> {
  ^bb0(%acc: i1, %b: i1):
    %t = arith.andi %acc, %b : i1
    array.yield %t : i1
  }
  %q = array.map %p : tensor<?xi1> -> tensor<?xi1> {
  ^bb0(%b: i1):
    array.yield %b : i1
  }
  return %f, %q : tensor<i1>, tensor<?xi1>
}

// Condition 4: returned (it is written anyway), gathered (out of order), a consumer
// with a second array operand, a single consumer.
// CHECK-LABEL: func.func @returned(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func @returned(%xs: tensor<?xi64>) -> (tensor<i64>, tensor<?xi64>, tensor<?xi64>) {
  %p = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  %zero = arith.constant 0 : i64
  %f = array.fold %p init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %q = array.map %p : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return %f, %q, %p : tensor<i64>, tensor<?xi64>, tensor<?xi64>
}

// CHECK-LABEL: func.func @gathered(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func @gathered(%xs: tensor<?xi64>, %is: tensor<?xindex>) -> (tensor<i64>, tensor<?xi64>) {
  %p = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  %zero = arith.constant 0 : i64
  %f = array.fold %p init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %g = array.gather %p[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  return %f, %g : tensor<i64>, tensor<?xi64>
}

// CHECK-LABEL: func.func @secondOperand(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func @secondOperand(%xs: tensor<?xi64>, %ys: tensor<?xi64>) -> (tensor<i64>, tensor<?xi64>) {
  %p = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  %zero = arith.constant 0 : i64
  %f = array.fold %p init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %q = array.map %p, %ys : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    array.yield %s : i64
  }
  return %f, %q : tensor<i64>, tensor<?xi64>
}

// CHECK-LABEL: func.func @oneConsumer(
// CHECK-NOT:     array.recomputed
// CHECK:         return
func.func @oneConsumer(%xs: tensor<?xi64>) -> tensor<i64> {
  %p = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  %zero = arith.constant 0 : i64
  %f = array.fold %p init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  return %f : tensor<i64>
}
