// `array-parallel-forms{scatters=owners}` (passes/src/parallel_forms/owners.rs) guards
// each written buffer's accesses by the owner of its row. Here the fused loop of `v10`
// and `v13` reads `v6[i]`, scatters it into `v13`, and (after `array-reuse-buffers`)
// writes `v10[i]` in place into `v6`'s buffer: `v6`'s range of accesses holds the
// scatter's guarded update. Guarding it by `v6`'s owner would skip the scatter's sources
// of other owners' rows (found by the compiled differential property test with OpenMP
// threads: wrong results), so a range nested in another one's op counts as an overlap,
// and the loop stays sequential with a remark.
//
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=owners --size=50 --seed=1 2>&1 | FileCheck %s
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=owners --size=50 --seed=2 2>&1 | FileCheck %s
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --scatters=owners --size=1000 --seed=3 2>&1 | FileCheck %s
// CHECK-DAG: remark: array-parallel-forms: 'scf.for' stays sequential: the accesses of two buffers it writes interleave
// CHECK-DAG: @mapBesideScatter: match (interpreter, unfused, fused)

func.func @mapBesideScatter(%a0: tensor<?xi64>, %a1: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %c0 = arith.constant 0 : i64
  %n = array.dim %a0, 0 : tensor<?xi64>
  %w = arith.index_cast %n : index to i64
  %z6 = array.generate (%n) : tensor<?xi64> {
  ^bb0(%j: index):
    array.yield %c0 : i64
  }
  %ix6 = array.map %a1 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %r = arith.remui %x, %w : i64
    array.yield %r : i64
  }
  %v6 = array.scatter %z6[%ix6], %a1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  %v10 = array.map %v6 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %one = arith.constant 1 : i64
    %t = arith.addi %x, %one : i64
    array.yield %t : i64
  }
  %z13 = array.generate (%n) : tensor<?xi64> {
  ^bb0(%j: index):
    array.yield %c0 : i64
  }
  %ix13 = array.map %v6 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %r = arith.remui %x, %w : i64
    array.yield %r : i64
  }
  %v13 = array.scatter %z13[%ix13], %v6 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %o = arith.muli %old, %ten : i64
    %s = arith.addi %o, %new : i64
    array.yield %s : i64
  }
  return %v10, %v13 : tensor<?xi64>, tensor<?xi64>
}
