// Parallel reductions (issue: parallel forms in the loop IR). A fold whose combine is
// one associative, commutative op on the accumulator and the element is a parallel
// reduction, `scf.parallel` + `scf.reduce`, in a cluster and outside one: integer
// `addi`, `muli`, `andi`, `ori`, `xori`, min and max (bit for bit in any grouping), and
// `arith.addf` / `arith.mulf` only where the program allows regrouping them with MLIR's
// `fastmath<reassoc>` flag (the flag stays on the combine, so LLVM may also vectorise the
// sequential form). Every other fold is an `scf.for` in order. `convert-scf-to-openmp`
// turns the reductions into OpenMP reductions (`--openmp`); min and max are written as
// compare-and-select, the form it recognises.
//
// RUN: fuse-opt %s --array-fusion --array-to-loops | FileCheck %s
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1000 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --size=100000 --seed=4 --openmp | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --emit-llvm=%t.ll --openmp && FileCheck %s --check-prefix=OMP < %t.ll

// RESULT-DAG: @int_reductions: match (interpreter, unfused, fused)
// RESULT-DAG: @float_sums: match (interpreter, unfused, fused)
// RESULT-DAG: @all_positive: match (interpreter, unfused, fused)
// OMP: call void {{.*}}@__kmpc_fork_call(
// OMP: call i32 @__kmpc_reduce(

// Sum of squares and maximum in one cluster: one parallel reduction of both.
// CHECK-LABEL: func.func @int_reductions(
// CHECK:         %[[R:.*]]:2 = scf.parallel (%[[I:.*]]) = {{.*}} init (%{{.*}}, %{{.*}}) -> (i64, i64) {
// CHECK:           %[[X:.*]] = memref.load %{{.*}}[%[[I]]]
// CHECK-NEXT:      %[[Q:.*]] = arith.muli %[[X]], %[[X]] : i64
// CHECK-NEXT:      scf.reduce(%[[Q]], %[[X]] : i64, i64) {
// CHECK-NEXT:      ^bb0(%[[A:.*]]: i64, %[[B:.*]]: i64):
// CHECK-NEXT:        %[[S:.*]] = arith.addi %[[A]], %[[B]] : i64
// CHECK-NEXT:        scf.reduce.return %[[S]] : i64
// CHECK-NEXT:      }, {
// CHECK-NEXT:      ^bb0(%[[C:.*]]: i64, %[[D:.*]]: i64):
// CHECK-NEXT:        %[[GT:.*]] = arith.cmpi sgt, %[[C]], %[[D]] : i64
// CHECK-NEXT:        %[[M:.*]] = arith.select %[[GT]], %[[C]], %[[D]] : i64
// CHECK-NEXT:        scf.reduce.return %[[M]] : i64
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @int_reductions(%a: tensor<?xi64>) -> (tensor<i64>, tensor<i64>) {
  %z = arith.constant 0 : i64
  %lo = arith.constant -9223372036854775808 : i64
  %sq = array.map %a : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %s = array.fold %sq init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %mx = array.fold %a init(%lo : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.maxsi %x, %acc : i64
    array.yield %t : i64
  }
  return %s, %mx : tensor<i64>, tensor<i64>
}

// A float sum that allows regrouping is a reduction (its flag kept); one that does not
// is folded in order (each is its own cluster here: fused, the ordered one would make
// the shared loop sequential).
// CHECK-LABEL: func.func @float_sums(
// CHECK-DAG:     scf.reduce
// CHECK-DAG:     arith.addf %{{.*}}, %{{.*}} fastmath<reassoc> : f64
// CHECK-DAG:     scf.for
// CHECK:         return
func.func @float_sums(%a: tensor<?xf64>, %b: tensor<?xf64>) -> (tensor<f64>, tensor<f64>) {
  %z = arith.constant 0.0 : f64
  %s = array.fold %a init(%z : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %t = arith.addf %acc, %x fastmath<reassoc> : f64
    array.yield %t : f64
  }
  %o = array.fold %b init(%z : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %t = arith.addf %acc, %x : f64
    array.yield %t : f64
  }
  return %s, %o : tensor<f64>, tensor<f64>
}

// An `andi` over `i1` may be regrouped, but OpenMP's atomic combiner needs at least 8
// bits: it stays an in-order scf.for (and still runs under --openmp).
// CHECK-LABEL: func.func @all_positive(
// CHECK-NOT:     scf.reduce(
// CHECK:         scf.for
// CHECK:         return
func.func @all_positive(%a: tensor<?xi64>) -> tensor<i1> {
  %t = arith.constant true
  %z = arith.constant 0 : i64
  %p = array.map %a : tensor<?xi64> -> tensor<?xi1> {
  ^bb0(%x: i64):
    %c = arith.cmpi sge, %x, %z : i64
    array.yield %c : i1
  }
  %all = array.fold %p init(%t : i1) : tensor<?xi1> -> tensor<i1> {
  ^bb0(%acc: i1, %x: i1):
    %r = arith.andi %acc, %x : i1
    array.yield %r : i1
  }
  return %all : tensor<i1>
}
