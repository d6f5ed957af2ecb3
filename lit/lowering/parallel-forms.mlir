// Parallel forms on the CPU (`array-parallel-forms`, which the OpenMP pipeline runs before
// `convert-scf-to-openmp`): the sequential loops of array-to-loops that carry a
// regroupable combine (an integer scan, a filter's compaction, an expand's placement, a
// float scan whose combine allows `reassoc`) become three phases over chunks (two
// `scf.parallel` loops around an `scf.for` over the chunks); a scatter runs by default
// (`scatters=exact`) on private copies of its destination where regrouping its combine
// gives the program's value (integer combines, float minimum and maximum, float add and
// multiply marked `fastmath<reassoc>`) and there are two threads or more, and otherwise
// in source order; `scatters=sequential` keeps every scatter in order, `scatters=owners`
// runs it by owner (each of the threads runs the whole loop in source order and performs
// the updates of its own rows of the destination, so the result is the sequential one
// bit for bit), `scatters=atomic` makes it an `scf.parallel` of `memref.atomic_rmw`, and
// `scatters=private` takes private copies for float sums too (see the measurements in
// passes/src/parallel_forms.rs). A loop without a parallel form stays
// sequential, with a remark naming the condition it broke. The sequential pipelines keep
// the sequential forms: the reference the runs below compare with (`fuse-opt --run
// --openmp --scatters=FORM` picks the scatter form).
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{scatters=owners owners=3}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{scatters=owners owners=3}))' 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{scatters=atomic}))' 2>/dev/null | FileCheck %s --check-prefix=ATOMIC
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{scatters=racy}))' 2>&1 | FileCheck %s --check-prefix=BAD-OPTION
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=1 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=1000 --seed=5 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --size=100000 --seed=6 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --scatters=owners --size=1000 --seed=7 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=owners --size=100000 --seed=8 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=atomic --size=1000 --seed=9 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{scatters=private owners=3}))' 2>/dev/null | FileCheck %s --check-prefix=PRIVATE
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=private --size=10 --seed=10 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=3 fuse-opt %s --run --check --openmp --scatters=private --size=100000 --seed=11 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --emit-llvm=%t.owners.ll --openmp --scatters=owners && FileCheck %s --check-prefix=OMP < %t.owners.ll
// RUN: fuse-opt %s --emit-llvm=%t.atomic.ll --openmp --scatters=atomic && FileCheck %s --check-prefix=OMP-ATOMIC < %t.atomic.ll
// RUN: fuse-opt %s --emit-llvm=%t.ll --openmp && FileCheck %s --check-prefix=OMP < %t.ll
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms))' 2>&1 >/dev/null | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{owners=1}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=ONE-THREAD
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion, array-to-loops), one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map}, buffer-deallocation-pipeline, convert-bufferization-to-memref, func.func(array-parallel-forms{scatters=sequential}))' 2>&1 >/dev/null | FileCheck %s --check-prefix=SEQUENTIAL
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --scatters=sequential --size=1000 --seed=12 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --openmp --size=10 --function=running_sum_in_order 2>&1 | FileCheck %s --check-prefix=SHOWN
// RUN: fuse-opt %s --emit-object=%t.o --openmp 2>&1 | FileCheck %s --check-prefix=SHOWN

// By default (two owners) the integer histograms and the float one marked
// `fastmath<reassoc>` run on private copies; the float sum without it, and the last
// write wins, stay in order, with the reason:
// DEFAULT: parallel-forms.mlir:{{[0-9]+}}:1: remark: array-parallel-forms: 0 scans {{.*}}, 1 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// DEFAULT: stays sequential: its read-modify-write is not an atomic update
// DEFAULT: parallel-forms.mlir:{{[0-9]+}}:1: remark: {{.*}}, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 1 loops stay sequential
// DEFAULT: parallel-forms.mlir:{{[0-9]+}}:1: remark: {{.*}}, 1 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// DEFAULT: stays sequential: a scatter, in source order: its combine 'arith.addf' may not be regrouped
// DEFAULT: parallel-forms.mlir:{{[0-9]+}}:1: remark: {{.*}}, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 1 loops stay sequential
// DEFAULT: parallel-forms.mlir:{{[0-9]+}}:1: remark: {{.*}}, 1 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// On one thread the copies would only add work:
// ONE-THREAD: stays sequential: a scatter, in source order: one thread, where private copies would only add work
// ONE-THREAD-NOT: 1 scatters on private copies
// With scatters=sequential every scatter stays in source order:
// SEQUENTIAL: remark: array-parallel-forms: 'scf.for' stays sequential: a scatter, in source order (scatters=owners, atomic or private give it a parallel form; none wins on every index distribution)
// SEQUENTIAL-NOT: 1 scatters on private copies

// What stays sequential is shown where the code is run or emitted:
// SHOWN: parallel-forms.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: array-parallel-forms: 'scf.for' stays sequential: a carried value is not updated by a regroupable combine

// RESULT-DAG: @prefix_sums: match (interpreter, unfused, fused)
// RESULT-DAG: @positives: match (interpreter, unfused, fused)
// RESULT-DAG: @histogram: match (interpreter, unfused, fused)
// RESULT-DAG: @running_sum_reassoc: match (interpreter, unfused, fused)
// RESULT-DAG: @running_sum_in_order: match (interpreter, unfused, fused)
// RESULT-DAG: @repeat_each: match (interpreter, unfused, fused)
// RESULT-DAG: @sum_of_prefix_sums: match (interpreter, unfused, fused)
// RESULT-DAG: @prefix_sums_twice: match (interpreter, unfused, fused)
// RESULT-DAG: @last_write_wins: match (interpreter, unfused, fused)
// OMP: call void {{.*}}@__kmpc_fork_call(
// OMP-NOT: atomicrmw
// OMP-ATOMIC: atomicrmw add ptr
// BAD-OPTION: error: array-parallel-forms: scatters must be 'exact', 'sequential', 'owners', 'atomic' or 'private', not 'racy'

// An integer scan: partials, their exclusive scan, the chunks rerun with their stores.
// REMARK: remark: array-parallel-forms: 1 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @prefix_sums(
// CHECK:         %[[OUT:.*]] = memref.alloc(%{{.*}}) : memref<?xi64>
// CHECK:         %[[P:.*]] = memref.alloc(%[[C:.*]]) : memref<?xi64>
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[C]])
// CHECK:           scf.for
// CHECK-NOT:         memref.store
// CHECK:             arith.addi
// CHECK:           memref.store %{{.*}}, %[[P]][%[[I]]]
// CHECK:         scf.for %{{.*}} = %{{.*}} to %[[C]]
// CHECK:         scf.parallel (%[[J:.*]]) = (%{{.*}}) to (%[[C]])
// CHECK:           %[[OFFSET:.*]] = memref.load %[[P]][%[[J]]]
// CHECK:           scf.for {{.*}} iter_args(%{{.*}} = %[[OFFSET]])
// CHECK:             memref.store %{{.*}}, %[[OUT]]
// CHECK:         memref.dealloc %[[P]]
func.func @prefix_sums(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %z = arith.constant 0 : i64
  %r = array.scan left inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}

// A filter: the count of kept elements is the scanned value, the position of each kept one.
// REMARK: remark: array-parallel-forms: 1 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @positives(
// CHECK:         scf.parallel
// CHECK:         scf.for
// CHECK:         scf.parallel
// CHECK:           scf.if
// CHECK:             memref.store
func.func @positives(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %zero = arith.constant 0 : i64
    %keep = arith.cmpi sgt, %x, %zero : i64
    array.yield %keep : i1
  }
  return %r : tensor<?xi64>
}

// A histogram: every element adds itself to bin x mod n; the bins are in range for any x.
// With scatters=owners (3 owners here; the OpenMP pipeline passes its thread count), each
// owner runs the whole loop and updates only the bins of its third of the histogram, in
// source order. With scatters=atomic, atomic additions in parallel.
// REMARK: remark: array-parallel-forms: 0 scans (three phases each, 0 with a fourth folding scanned values), 1 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @histogram(
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[ROWS:.*]] = memref.dim %[[H:.*]], %{{.*}} : memref<?xi64>
// CHECK:         scf.parallel (%[[W:.*]]) = (%{{.*}}) to (%[[C3]])
// CHECK:           %[[LO:.*]] = arith.muli %[[W]], %[[CHUNK:.*]] : index
// CHECK:           scf.for
// CHECK:             %[[OFF:.*]] = arith.subi %[[BIN:.*]], %[[LO]] : index
// CHECK:             %[[MINE:.*]] = arith.cmpi ult, %[[OFF]], %[[SPAN:.*]] : index
// CHECK:             scf.if %[[MINE]] {
// CHECK:               memref.load %[[H]][%[[BIN]]]
// CHECK:               memref.store %{{.*}}, %[[H]][%[[BIN]]]
// CHECK-NOT:     memref.atomic_rmw
// CHECK:         return
// ATOMIC-LABEL: func.func @histogram(
// ATOMIC:         scf.parallel
// ATOMIC:           memref.atomic_rmw addi
// ATOMIC-NOT:     memref.store
// ATOMIC:         return
// With scatters=private, each of 3 threads would count its third of the elements into a
// private row of n bins; the test `8 · 3 · n ≤ n` fails at run time for any n > 0, so the
// loop in order (the else branch) runs: n bins for n elements are too many to copy.
// PRIVATE-LABEL: func.func @histogram(
// PRIVATE:         %[[WORTH:.*]] = arith.cmpi ule, %{{.*}}, %{{.*}} : index
// PRIVATE:         scf.if %[[WORTH]] {
// PRIVATE:           memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xi64>
// PRIVATE:           scf.parallel
// PRIVATE:         } else {
// PRIVATE:           scf.for
// PRIVATE:         return
func.func @histogram(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %xs : tensor<?xi64>
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  %bins = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %m = array.size %xs : tensor<?xi64>
    %mi = arith.index_cast %m : index to i64
    %b = arith.remui %x, %mi : i64
    array.yield %b : i64
  }
  %h = array.scatter %zeros[%bins], %xs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  return %h : tensor<?xi64>
}

// A float scan whose combine allows regrouping: three phases.
// REMARK: remark: array-parallel-forms: 1 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @running_sum_reassoc(
// CHECK:         scf.parallel
// CHECK:         scf.for
// CHECK:         scf.parallel
func.func @running_sum_reassoc(%xs: tensor<?xf64>) -> tensor<?xf64> {
  %z = arith.constant 0.0 : f64
  %r = array.scan left inclusive %xs init(%z : f64) : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %x: f64):
    %s = arith.addf %a, %x fastmath<reassoc> : f64
    array.yield %s : f64
  }
  return %r : tensor<?xf64>
}

// The same scan without the permission: it stays in order, and the remark says why.
// REMARK: remark: array-parallel-forms: 'scf.for' stays sequential: a carried value is not updated by a regroupable combine
// REMARK: remark: array-parallel-forms: 0 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 1 loops stay sequential
// CHECK-LABEL: func.func @running_sum_in_order(
// CHECK-NOT:     scf.parallel
// CHECK:         scf.for
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @running_sum_in_order(%xs: tensor<?xf64>) -> tensor<?xf64> {
  %z = arith.constant 0.0 : f64
  %r = array.scan left inclusive %xs init(%z : f64) : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%a: f64, %x: f64):
    %s = arith.addf %a, %x : f64
    array.yield %s : f64
  }
  return %r : tensor<?xf64>
}

// An expand (seed 004): the sum of the counts (the total length) is the first two
// phases (it stores nothing); the placement of the segments, each at the running offset,
// is three phases.
// REMARK: remark: array-parallel-forms: 2 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @repeat_each(
// CHECK:         scf.parallel
// CHECK:         scf.for
// CHECK:         memref.alloc
// CHECK:         scf.parallel
// CHECK:         scf.for
// CHECK:         scf.parallel
// CHECK:           scf.for
// CHECK:             scf.for
// CHECK:               memref.store
func.func @repeat_each(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %e = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%a: i64):
    %c3 = arith.constant 3 : i64
    %r = arith.remui %a, %c3 : i64
    %n = arith.index_cast %r : i64 to index
    array.yield %n : index
  } get {
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %y = arith.addi %a, %ii : i64
    array.yield %y : i64
  }
  return %e : tensor<?xi64>
}

// A fold of a scan in one loop (seed 002's normalise2): the sum of the prefix sums
// depends on the scanned value, so it cannot be a partial from the identity in phase 1.
// It is only folded (read by nothing else), so phase 3, where every chunk starts from its
// exact prefix, folds each chunk from the identity, and a fourth loop combines the
// chunks' folds in order.
// REMARK: remark: array-parallel-forms: 1 scans (three phases each, 1 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @sum_of_prefix_sums(
// CHECK:         scf.parallel
// CHECK:         scf.for
// CHECK:         scf.parallel
// CHECK:           %[[R:.*]]:2 = scf.for
// CHECK:           memref.store %[[R]]#1, %[[FOLDS:.*]][
// CHECK:         scf.for {{.*}} iter_args
// CHECK:           memref.load %[[FOLDS]]
// CHECK:           arith.addi
func.func @sum_of_prefix_sums(%xs: tensor<?xi64>) -> tensor<i64> {
  %z = arith.constant 0 : i64
  %p = array.scan left inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %t = array.fold %p init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  return %t : tensor<i64>
}

// A scan of a scan in one loop: the second scan's values are stored, so they need the
// exact prefix of the first in every chunk and their own; no phase gives both, and the
// loop stays sequential.
// REMARK: remark: array-parallel-forms: 'scf.for' stays sequential: a carried value is not updated by a regroupable combine with a value independent of the carried ones (or is not a fold of such values)
// REMARK: remark: array-parallel-forms: 0 scans (three phases each, 0 with a fourth folding scanned values), 0 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 1 loops stay sequential
// CHECK-LABEL: func.func @prefix_sums_twice(
// CHECK-NOT:     scf.parallel
// CHECK:         return
func.func @prefix_sums_twice(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %z = arith.constant 0 : i64
  %p = array.scan left inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %q = array.scan left inclusive %p init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  return %q : tensor<?xi64>
}

// A scatter whose combine neither commutes nor associates (the last write wins, where
// sources collide on a bin): its result depends on the order of the updates. By owner,
// each bin is written by one thread in source order, so it is the sequential result; no
// atomic form exists, so with scatters=atomic it stays in order.
// REMARK: remark: array-parallel-forms: 0 scans (three phases each, 0 with a fourth folding scanned values), 1 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// CHECK-LABEL: func.func @last_write_wins(
// CHECK:         scf.parallel
// CHECK:           scf.for
// CHECK:             scf.if
// CHECK:               memref.store
// ATOMIC-LABEL: func.func @last_write_wins(
// ATOMIC:         scf.parallel
// ATOMIC:         scf.for
// ATOMIC-NOT:     scf.parallel
// ATOMIC-NOT:     memref.atomic_rmw
// ATOMIC:         return
func.func @last_write_wins(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %xs : tensor<?xi64>
  %minus = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %m = arith.constant -1 : i64
    array.yield %m : i64
  }
  %src:2 = array.generate (%n) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%i: index):
    %x = array.index %xs[%i] : tensor<?xi64>
    %ni = arith.index_cast %n : index to i64
    %seven = arith.constant 7 : i64
    %small = arith.remui %x, %seven : i64
    %bin = arith.remui %small, %ni : i64
    %ii = arith.index_cast %i : index to i64
    array.yield %bin, %ii : i64, i64
  }
  %w = array.scatter %minus[%src#0], %src#1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %w : tensor<?xi64>
}

// Sixteen bins (x mod 16) for many elements: with scatters=private each thread counts its
// share into its own row (after filling it with 0, the identity of the addition); the
// rows are then added to the bins, element by element in parallel. At --size=10 the test
// `8 · threads · 16 ≤ 10` fails and the loop runs in order; at --size=100000 the private
// form runs (both are checked against the interpreter above).
// REMARK: remark: array-parallel-forms: 0 scans (three phases each, 0 with a fourth folding scanned values), 1 scatters by owner, 0 scatters with atomic updates, 0 scatters on private copies, 0 ordered folds of values computed in parallel, 0 loops stay sequential
// PRIVATE-LABEL: func.func @sixteenBins(
// PRIVATE:         %[[THREADS:.*]] = arith.constant 3 : index
// PRIVATE:         scf.if
// PRIVATE:           %[[ROWS:.*]] = memref.alloc(%[[THREADS]], %{{.*}}) : memref<?x?xi64>
// PRIVATE:           scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%[[THREADS]])
// PRIVATE:             scf.for %[[J:.*]] =
// PRIVATE:               memref.store %{{.*}}, %[[ROWS]][%[[T]], %[[J]]]
// PRIVATE:             scf.for
// PRIVATE:               %[[OLD:.*]] = memref.load %[[ROWS]][%[[T]], %[[AT:.*]]]
// PRIVATE:               %[[NEW:.*]] = arith.addi %[[OLD]], %{{.*}} : i64
// PRIVATE:               memref.store %[[NEW]], %[[ROWS]][%[[T]], %[[AT]]]
// PRIVATE:           scf.parallel
// PRIVATE:             scf.for %[[K:.*]] = %{{.*}} to %[[THREADS]]
// PRIVATE:               memref.load %[[ROWS]][%[[K]], %{{.*}}]
// PRIVATE:               arith.addi
// PRIVATE:           memref.dealloc %[[ROWS]]
// PRIVATE:         } else {
// PRIVATE:           scf.for
// PRIVATE-NOT:     memref.atomic_rmw
// PRIVATE:         return
// RESULT: @sixteenBins: match (interpreter, unfused, fused)
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

// The same with float sums (regrouped by the private form, as by atomic additions):
// compared with the interpreter within the stated float tolerance.
// RESULT: @sixteenFloatBins: match (interpreter, unfused, fused)
func.func @sixteenFloatBins(%xs: tensor<?xi64>, %ws: tensor<?xf64>) -> tensor<?xf64> {
  %c16 = arith.constant 16 : index
  %zeros = array.generate (%c16) : tensor<?xf64> {
  ^bb0(%i: index):
    %z = arith.constant 0.0 : f64
    array.yield %z : f64
  }
  %bins = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %m = arith.constant 16 : i64
    %b = arith.remui %x, %m : i64
    array.yield %b : i64
  }
  %h = array.scatter %zeros[%bins], %ws : tensor<?xf64>[tensor<?xi64>], tensor<?xf64> combine {
  ^bb0(%old: f64, %new: f64):
    %s = arith.addf %old, %new : f64
    array.yield %s : f64
  }
  return %h : tensor<?xf64>
}

// The same float sums with the program's permission to regroup them: private copies by
// default, compared with the interpreter within the stated float tolerance.
// RESULT: @sixteenFloatBinsReassoc: match (interpreter, unfused, fused)
func.func @sixteenFloatBinsReassoc(%xs: tensor<?xi64>, %ws: tensor<?xf64>) -> tensor<?xf64> {
  %c16 = arith.constant 16 : index
  %zeros = array.generate (%c16) : tensor<?xf64> {
  ^bb0(%i: index):
    %z = arith.constant 0.0 : f64
    array.yield %z : f64
  }
  %bins = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %m = arith.constant 16 : i64
    %b = arith.remui %x, %m : i64
    array.yield %b : i64
  }
  %h = array.scatter %zeros[%bins], %ws : tensor<?xf64>[tensor<?xi64>], tensor<?xf64> combine {
  ^bb0(%old: f64, %new: f64):
    %s = arith.addf %old, %new fastmath<reassoc> : f64
    array.yield %s : f64
  }
  return %h : tensor<?xf64>
}
