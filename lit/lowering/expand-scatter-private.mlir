// An expand fused into a scatter is one nest: a loop over the expand's sources, each
// running its segment's updates. The loop still counts the segments' total (the expand's
// output size), which nothing reads; `array-parallel-forms` drops such dead carried
// values (passes/src/parallel_forms.rs, `without_dead_carried_values`), so the default
// scatter form takes the whole nest on private copies, guarded once, instead of each
// source's few updates with a guard and copies per source.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms))' 2>/dev/null | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=10 --seed=2 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --size=20000 --seed=3 | FileCheck %s --check-prefix=RESULT

// RESULT: @segments_histogram: match (interpreter, unfused, fused)

// REMARK: remark: array-parallel-forms: 0 scans {{.*}}, 1 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @segments_histogram(
// CHECK-NOT:     -> (index)
// CHECK:         scf.if
// CHECK:           memref.alloc({{.*}}) : memref<?x?xi64>
// CHECK:           scf.parallel
// CHECK:         } else {
// CHECK:           scf.for
// CHECK-NOT:       iter_args
// CHECK:         return
func.func @segments_histogram(%src: tensor<?xi64>) -> tensor<?xi64> {
  %c16 = arith.constant 16 : index
  %zeros = array.generate (%c16) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %targets, %values = array.expand %src : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
    %c5 = arith.constant 5 : i64
    %n = arith.remui %x, %c5 : i64
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c3 = arith.constant 3 : i64
    %c16i = arith.constant 16 : i64
    %h = arith.muli %a, %c3 : i64
    %g = arith.addi %h, %ii : i64
    %target = arith.remui %g, %c16i : i64
    %value = arith.addi %a, %ii : i64
    array.yield %target, %value : i64, i64
  }
  %histogram = array.scatter %zeros[%targets], %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %histogram : tensor<?xi64>
}
