// Floating-point minimum and maximum (`arith.minimumf` / `arith.maximumf`, IEEE 754-2019
// minimum and maximum) are associative and commutative exactly: whatever the grouping the
// result is one of the operands, −0 below +0, or NaN when any is NaN. So a fold or scan
// combining with them gets the parallel form on the CPU (`array-parallel-forms`, chunks
// combined in order) without the program's `reassoc` permission, while `arith.minnumf`
// (which may return either of +0 and −0) stays sequential, with the remark.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK --implicit-check-not='stays sequential'
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=1 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --size=100000 --seed=4 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --openmp --function=signedZeros --size=1000 | FileCheck %s --check-prefix=ZEROS
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --openmp --function=withNaN --size=1000 | FileCheck %s --check-prefix=NAN

// RESULT-DAG: @smallest: match (interpreter, unfused, fused)
// RESULT-DAG: @runningMax: match (interpreter, unfused, fused)
// RESULT-DAG: @smallestNum: match (interpreter, unfused, fused)

// REMARK-DAG: parallel-min-max.mlir:[[@LINE+1]]:1: remark: array-parallel-forms: 1 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
func.func @smallest(%xs: tensor<?xf64>) -> tensor<f64> {
  %inf = arith.constant 0x7FF0000000000000 : f64
  %m = array.fold %xs init(%inf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.minimumf %acc, %x : f64
    array.yield %r : f64
  }
  return %m : tensor<f64>
}

// REMARK-DAG: parallel-min-max.mlir:[[@LINE+1]]:1: remark: array-parallel-forms: 1 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
func.func @runningMax(%xs: tensor<?xf64>) -> tensor<?xf64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %m = array.scan left inclusive %xs init(%ninf : f64) : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.maximumf %acc, %x : f64
    array.yield %r : f64
  }
  return %m : tensor<?xf64>
}

// Only the minnumf fold stays sequential:
func.func @smallestNum(%xs: tensor<?xf64>) -> tensor<f64> {
  %inf = arith.constant 0x7FF0000000000000 : f64
  // REMARK: parallel-min-max.mlir:[[@LINE+1]]:{{[0-9]+}}: remark: array-parallel-forms: 'scf.for' stays sequential
  %m = array.fold %xs init(%inf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.minnumf %acc, %x : f64
    array.yield %r : f64
  }
  return %m : tensor<f64>
}

// +0 everywhere but one −0 (at 700): the minimum is −0 in every grouping.
// ZEROS: @signedZeros: tensor<f64>[-0.0] ({{.*}}, interpreter)
// ZEROS: @signedZeros: tensor<f64>[-0.0] ({{.*}}, compiled)
// REMARK-DAG: parallel-min-max.mlir:[[@LINE+1]]:1: remark: array-parallel-forms: 1 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
func.func @signedZeros(%len: index) -> tensor<f64> {
  %c700 = arith.constant 700 : index
  %inf = arith.constant 0x7FF0000000000000 : f64
  %pz = arith.constant 0.0 : f64
  %nz = arith.constant -0.0 : f64
  %xs = array.generate (%len) : tensor<?xf64> {
  ^bb0(%i: index):
    %is = arith.cmpi eq, %i, %c700 : index
    %v = arith.select %is, %nz, %pz : f64
    array.yield %v : f64
  }
  %m = array.fold %xs init(%inf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.minimumf %acc, %x : f64
    array.yield %r : f64
  }
  return %m : tensor<f64>
}

// One NaN (at 300) among numbers: the maximum is NaN in every grouping.
// NAN: @withNaN: tensor<f64>[NaN] ({{.*}}, interpreter)
// NAN: @withNaN: tensor<f64>[NaN] ({{.*}}, compiled)
// REMARK-DAG: parallel-min-max.mlir:[[@LINE+1]]:1: remark: array-parallel-forms: 1 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
func.func @withNaN(%len: index) -> tensor<f64> {
  %c300 = arith.constant 300 : index
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %nan = arith.constant 0x7FF8000000000000 : f64
  %xs = array.generate (%len) : tensor<?xf64> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    %is = arith.cmpi eq, %i, %c300 : index
    %v = arith.select %is, %nan, %f : f64
    array.yield %v : f64
  }
  %m = array.fold %xs init(%ninf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.maximumf %acc, %x : f64
    array.yield %r : f64
  }
  return %m : tensor<f64>
}
