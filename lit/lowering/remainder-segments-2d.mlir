// `array-remainder-segments` on a multi-dimensional scf.parallel: a remainder of the
// innermost induction variable (a periodic neighbour along the rows) is split per chunk
// of the innermost dimension, the outer dimensions staying parallel as they were; a
// remainder of an outer induction variable is left alone (splitting it would read the
// rows column by column). The chunked form's values are checked at sizes above the
// guard by `lowering::remainder_segments_agree_with_wrapping_arithmetic` (the interpreter
// is too slow for matrices of 1024 columns here); these runs take the unchanged loop.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion), array-to-loops, array-remainder-segments)' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --run --check --size=40 --seed=2 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --size=33 --seed=3 --openmp | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @periodicColumns(
// CHECK:         %[[ROWS:.*]] = tensor.dim %{{.*}}, %c0
// CHECK:         %[[COLS:.*]] = tensor.dim %{{.*}}, %c1
// CHECK:         scf.if
// CHECK:           scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[ROWS]], %[[CHUNKS:.*]]) step
// CHECK:             arith.remui %{{.*}}, %[[COLS]] : index
// CHECK:             scf.for
// CHECK-NOT:           arith.remui
// CHECK:             scf.for
// CHECK-NOT:           arith.remui
// CHECK:         } else {
// CHECK:           scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[ROWS]], %[[COLS]]) step
// CHECK:       return
// RESULT: @periodicColumns: match (interpreter, unfused, fused)
func.func @periodicColumns(%m: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %rows = array.dim %m, 0 : tensor<?x?xf32>
  %cols = array.dim %m, 1 : tensor<?x?xf32>
  %ys = array.generate (%rows, %cols) : tensor<?x?xf32> {
  ^bb0(%i: index, %j: index):
    %c1 = arith.constant 1 : index
    %j1 = arith.addi %j, %c1 : index
    %k = arith.remui %j1, %cols : index
    %v = array.index %m[%i, %k] : tensor<?x?xf32>
    array.yield %v : f32
  }
  return %ys : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @periodicRows(
// CHECK-NOT:     scf.if
// CHECK:       return
// RESULT: @periodicRows: match (interpreter, unfused, fused)
func.func @periodicRows(%m: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %rows = array.dim %m, 0 : tensor<?x?xf32>
  %cols = array.dim %m, 1 : tensor<?x?xf32>
  %ys = array.generate (%rows, %cols) : tensor<?x?xf32> {
  ^bb0(%i: index, %j: index):
    %c3 = arith.constant 3 : index
    %i3 = arith.addi %c3, %i : index
    %k = arith.remui %i3, %rows : index
    %v = array.index %m[%k, %j] : tensor<?x?xf32>
    array.yield %v : f32
  }
  return %ys : tensor<?x?xf32>
}
