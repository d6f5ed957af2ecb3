// The OpenMP pipeline makes as many private copies of a scatter's destination as OpenMP
// has threads when the program runs (`array-parallel-forms{copies-at-run-time=true}`,
// passes/src/parallel_forms/private.rs), not as many as the compiling process had: a
// program compiled on one machine runs on every core of another, and on one thread it
// runs the scatter in order.
//
// The pass on its own needs the runtime function declared (fusion_codegen's OpenMP
// pipeline declares it; here the file does).
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{copies-at-run-time=true}))' 2>/dev/null | FileCheck %s
// The OpenMP pipeline calls it.
// RUN: fuse-opt %s --emit-llvm=%t.ll --openmp && FileCheck %s --check-prefix=LLVM < %t.ll
// And the results agree with the interpreter on one, two and three threads.
// RUN: env OMP_NUM_THREADS=1 fuse-opt %s --run --check --openmp --size=100000 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=100000 --seed=4 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --size=100000 --seed=5 | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @sixteenBins(
// CHECK:         %[[CALL:.*]] = call @omp_get_max_threads() : () -> i32
// CHECK-NEXT:    %[[CAST:.*]] = arith.index_cast %[[CALL]] : i32 to index
// CHECK:         %[[THREADS:.*]] = arith.maxsi %[[CAST]], %{{.*}} : index
// CHECK:         %[[FITS:.*]] = arith.cmpi ule, %{{.*}}, %{{.*}} : index
// CHECK:         %[[SEVERAL:.*]] = arith.cmpi uge, %[[THREADS]], %{{.*}} : index
// CHECK:         %[[WORTH:.*]] = arith.andi %[[FITS]], %[[SEVERAL]] : i1
// CHECK:         scf.if %[[WORTH]] {
// CHECK:           %[[ROWS:.*]] = memref.alloc(%[[THREADS]], %{{.*}}) : memref<?x?xi64>
// CHECK:           scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[THREADS]])
// CHECK:         } else {
// CHECK:           scf.for
// CHECK:         return

// LLVM:       declare i32 @omp_get_max_threads()
// LLVM:       define {{.*}} @sixteenBins(
// LLVM:         call i32 @omp_get_max_threads()

// RESULT: @sixteenBins: match (interpreter, unfused, fused)

func.func private @omp_get_max_threads() -> i32

func.func @sixteenBins(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %c16 = arith.constant 16 : index
  %zeros = array.generate (%c16) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %bins = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %m = arith.constant 16 : i64
    %b = arith.remui %x, %m : i64
    array.yield %b : i64
  }
  %h = array.scatter %zeros[%bins], %xs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  return %h : tensor<?xi64>
}
