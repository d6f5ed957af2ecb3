// `array-parallel-forms` (the OpenMP pipelines) shares out only the first dimension of a
// multi-dimensional `scf.parallel` without reductions, running the others in order inside
// it: `convert-scf-to-openmp` would collapse all dimensions into one work-sharing loop
// that recovers every index with a division and a remainder in each iteration, which also
// keeps LLVM from vectorising the innermost dimension (seed 003's Gauss elimination step
// ran twice as long on two threads as on one; passes/src/parallel_forms.rs,
// `outermost_dimension_only`).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms))' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --emit-llvm=%t.ll --openmp && FileCheck %s --check-prefix=OMP < %t.ll
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=1 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --size=300 --seed=3 | FileCheck %s --check-prefix=RESULT

// A map over a matrix: rows in parallel, each row's columns in order.
// CHECK-LABEL: func.func @scaleMatrix(
// CHECK:         scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK:           scf.for %[[J:[a-z0-9_]+]] =
// CHECK:             memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK:             memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]]]
// CHECK:         return
// No remainder by a trip count recovers an index in the outlined parallel body (the
// collapsed form has `urem i64 %{{.*}}, %omp_loop.tripcount{{.*}}` and a `udiv`).
// OMP-LABEL: define internal void @scaleMatrix..omp_par(
// OMP-NOT:     urem
// OMP:         ret void
// RESULT: @scaleMatrix: match (interpreter, unfused, fused)
func.func @scaleMatrix(%a: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %r = array.map %a : tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64):
    %two = arith.constant 2.0 : f64
    %y = arith.mulf %x, %two : f64
    array.yield %y : f64
  }
  return %r : tensor<?x?xf64>
}

// Three dimensions: the first in parallel, the other two nested in order.
// CHECK-LABEL: func.func @addCubes(
// CHECK:         scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK:           scf.for %[[J:[a-z0-9_]+]] =
// CHECK:             scf.for %[[K:[a-z0-9_]+]] =
// CHECK:               memref.store %{{.*}}, %{{.*}}[%[[I]], %[[J]], %[[K]]]
// CHECK:         return
// RESULT: @addCubes: match (interpreter, unfused, fused)
func.func @addCubes(%a: tensor<?x?x?xi64>, %b: tensor<?x?x?xi64>) -> tensor<?x?x?xi64> {
  %r = array.map %a, %b : tensor<?x?x?xi64>, tensor<?x?x?xi64> -> tensor<?x?x?xi64> {
  ^bb0(%x: i64, %y: i64):
    %s = arith.addi %x, %y : i64
    array.yield %s : i64
  }
  return %r : tensor<?x?x?xi64>
}
