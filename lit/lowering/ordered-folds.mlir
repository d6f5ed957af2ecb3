// A loop nest that carries a fold whose combine may not be regrouped (a float sum
// without `fastmath<reassoc>`), where every iteration's value comes from that iteration
// alone, runs as two loops under OpenMP (`array-parallel-forms`,
// passes/src/parallel_forms/ordered_folds.rs): the iterations in parallel, each storing
// the value it combines, then the fold in the program's order over those values, so the
// result is the sequential one bit for bit. A flat fold over elements stays in order
// (storing each element's value to fold it after would not pay), with the reason.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms))' 2>/dev/null | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=1 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=37 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --size=300 --seed=4 | FileCheck %s --check-prefix=RESULT

// RESULT-DAG: @squares_and_total: match (interpreter, unfused, fused)
// RESULT-DAG: @flat_sum: match (interpreter, unfused, fused)

// Squares of a matrix, each row's sum in order, the sum of the row sums in order: one
// nest; the rows in parallel, each storing its row sum, then the total over the rows.
// REMARK: remark: array-parallel-forms: 0 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 1 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @squares_and_total(
// CHECK:         %[[VALUES:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         scf.parallel (%[[ROW:.*]]) =
// CHECK:           %[[ROWSUM:.*]] = scf.for {{.*}} iter_args
// CHECK:             arith.addf
// CHECK:           memref.store %[[ROWSUM]], %[[VALUES]][
// CHECK:         scf.for {{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK:           %[[X:.*]] = memref.load %[[VALUES]][
// CHECK:           %[[SUM:.*]] = arith.addf %[[ACC]], %[[X]] : f64
// CHECK:           scf.yield %[[SUM]] : f64
// CHECK:         memref.dealloc %[[VALUES]]
func.func @squares_and_total(%m: tensor<?x?xf64>) -> (tensor<?x?xf64>, tensor<f64>) {
  %zero = arith.constant 0.0 : f64
  %squares = array.map %m : tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64):
    %y = arith.mulf %x, %x : f64
    array.yield %y : f64
  }
  %rows = array.fold %squares init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  %total = array.fold %rows init(%zero : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  return %squares, %total : tensor<?x?xf64>, tensor<f64>
}

// A float sum over elements: one flat loop, in order.
// REMARK: remark: array-parallel-forms: 'scf.for' stays sequential: a carried value is not updated by a regroupable combine
// REMARK: remark: array-parallel-forms: 0 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 1 loops stay sequential
// CHECK-LABEL: func.func @flat_sum(
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @flat_sum(%xs: tensor<?xf64>) -> tensor<f64> {
  %zero = arith.constant 0.0 : f64
  %total = array.fold %xs init(%zero : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  return %total : tensor<f64>
}
