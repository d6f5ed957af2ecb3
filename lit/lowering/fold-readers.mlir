// `array-to-loops`: clusters in which a fold's result is read by another leaf of the
// cluster are one loop nest (no op-by-op fallback). A leaf over arrays of rank k (a fold
// result, and whatever reads it) runs in the loop body of the outer k dimensions, after
// the loop that carries the fold: row folds feeding a map over rows; a rank-0 map once
// after the whole nest (Leibniz π); a scan and a fold of row folds carried by the outer
// loop, which becomes an `scf.for` (seed 001 §1.4: the fold's result is the iteration
// size without its innermost dimension). A fold fused into a gather (seed 000 §3.3) whose
// gathered index does not depend on the inner dimensions (a row maximum broadcast back
// over its row) is folded once per row, before the loop over the row, not once per
// element.
//
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1 --seed=2 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=7 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --array-fusion --array-to-loops 2>/dev/null | FileCheck %s
// RUN: fuse-opt %s --array-fusion --array-to-loops 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK --allow-empty
// RUN: fuse-opt %s --array-fusion --array-to-loops 2>/dev/null | fuse-opt --verify-diagnostics > /dev/null

// RESULT-DAG: @leibniz: match (interpreter, unfused, fused)
// RESULT-DAG: @row_means: match (interpreter, unfused, fused)
// RESULT-DAG: @row_max_scan: match (interpreter, unfused, fused)
// RESULT-DAG: @nested_folds: match (interpreter, unfused, fused)
// RESULT-DAG: @softmax_rows: match (interpreter, unfused, fused)
// REMARK-NOT: op by op

// One cluster: the loop carries the sum, the rank-0 map runs once after it.
// CHECK-LABEL: func.func @leibniz(
// CHECK-SAME:      "leibniz: 1 clusters
// CHECK:         %[[OUT:.*]] = memref.alloc() : memref<f64>
// CHECK:         %[[SUM:.*]] = scf.for %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK:           arith.addf %[[ACC]]
// CHECK:         }
// CHECK:         %[[PI:.*]] = arith.mulf %[[SUM]], %{{.*}} : f64
// CHECK-NEXT:    memref.store %[[PI]], %[[OUT]][] : memref<f64>
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @leibniz(%n: index) -> tensor<f64> {
  %terms = array.generate (%n) : tensor<?xf64> {
  ^bb0(%k: index):
    %ki = arith.index_cast %k : index to i64
    %two = arith.constant 2 : i64
    %one = arith.constant 1 : i64
    %parity = arith.remsi %ki, %two : i64
    %sign2 = arith.muli %parity, %two : i64
    %sign = arith.subi %one, %sign2 : i64
    %d = arith.muli %ki, %two : i64
    %den = arith.addi %d, %one : i64
    %s = arith.sitofp %sign : i64 to f64
    %df = arith.sitofp %den : i64 to f64
    %t = arith.divf %s, %df : f64
    array.yield %t : f64
  }
  %zero = arith.constant 0.0 : f64
  %sum = array.fold %terms init(%zero : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.addf %acc, %x : f64
    array.yield %r : f64
  }
  %pi = array.map %sum : tensor<f64> -> tensor<f64> {
  ^bb0(%s: f64):
    %four = arith.constant 4.0 : f64
    %p = arith.mulf %s, %four : f64
    array.yield %p : f64
  }
  return %pi : tensor<f64>
}

// One cluster: rows in parallel, the row sum carried by the inner loop, then (per row)
// the row sum stored and the map over rows.
// CHECK-LABEL: func.func @row_means(
// CHECK-SAME:      %[[M:[^:]*]]: tensor<?x?xf64>, %[[B:[^:]*]]: tensor<?xf64>)
// CHECK-SAME:      "row_means: 1 clusters
// CHECK-DAG:     %[[SUMS:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-DAG:     %[[OUT:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK-DAG:     %[[BB:.*]] = bufferization.to_buffer %[[B]]
// CHECK:         scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK:           %[[S:.*]] = scf.for %[[J:[a-z0-9_]+]] = %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK-NEXT:        %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        %[[SQ:.*]] = arith.mulf %[[X]], %[[X]]
// CHECK-NEXT:        %[[NEW:.*]] = arith.addf %[[ACC]], %[[SQ]]
// CHECK-NEXT:        scf.yield %[[NEW]]
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[S]], %[[SUMS]][%[[I]]]
// CHECK-NEXT:      %[[BI:.*]] = memref.load %[[BB]][%[[I]]]
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[S]], %[[BI]]
// CHECK-NEXT:      memref.store %[[R]], %[[OUT]][%[[I]]]
// CHECK-NEXT:      scf.reduce
// CHECK-NOT:     scf.for
// CHECK:         return
func.func @row_means(%m: tensor<?x?xf64>, %bias: tensor<?xf64>) -> (tensor<?xf64>, tensor<?xf64>) {
  %sq = array.map %m : tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64):
    %y = arith.mulf %x, %x : f64
    array.yield %y : f64
  }
  %zero = arith.constant 0.0 : f64
  %sums = array.fold %sq init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.addf %acc, %x : f64
    array.yield %r : f64
  }
  %out = array.map %sums, %bias : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%s: f64, %b: f64):
    %r = arith.addf %s, %b : f64
    array.yield %r : f64
  }
  return %sums, %out : tensor<?xf64>, tensor<?xf64>
}

// One cluster: the scan and the fold over the row maxima are carried by the outer loop,
// now an scf.for; the row maximum by the inner one, a parallel reduction (`maxsi` is
// associative and commutative) written as compare-and-select for OpenMP.
// CHECK-LABEL: func.func @row_max_scan(
// CHECK-SAME:      "row_max_scan: 1 clusters
// CHECK:         %[[OUTER:.*]]:2 = scf.for %[[I:[a-z0-9_]+]] = %{{.*}} iter_args(%[[RUNNING:.*]] = %{{.*}}, %[[TOT:.*]] = %{{.*}}) -> (i64, i64) {
// CHECK:           %[[MX:.*]] = scf.parallel (%[[J:[a-z0-9_]+]]) = {{.*}} init (%{{.*}}) -> i64 {
// CHECK-NEXT:        %[[E:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        scf.reduce(%[[E]] : i64) {
// CHECK-NEXT:        ^bb0(%[[L:.*]]: i64, %[[H:.*]]: i64):
// CHECK-NEXT:          %[[GT:.*]] = arith.cmpi sgt, %[[L]], %[[H]]
// CHECK-NEXT:          %[[MAX:.*]] = arith.select %[[GT]], %[[L]], %[[H]]
// CHECK-NEXT:          scf.reduce.return %[[MAX]]
// CHECK-NEXT:        }
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[R:.*]] = arith.addi %[[RUNNING]], %[[MX]]
// CHECK-NEXT:      %[[T:.*]] = arith.subi %[[R]], %[[TOT]]
// CHECK-NEXT:      memref.store %[[R]], %{{.*}}[%[[I]]]
// CHECK-NEXT:      scf.yield %[[R]], %[[T]]
// CHECK-NEXT:    }
// CHECK-NEXT:    memref.store %[[OUTER]]#1, %{{.*}}[] : memref<i64>
// CHECK:         return
func.func @row_max_scan(%m: tensor<?x?xi64>) -> (tensor<?xi64>, tensor<i64>) {
  %lo = arith.constant -1000000 : i64
  %mx = array.fold %m init(%lo : i64) : tensor<?x?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %r = arith.maxsi %acc, %x : i64
    array.yield %r : i64
  }
  %zero = arith.constant 0 : i64
  %run = array.scan left inclusive %mx init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %r = arith.addi %acc, %x : i64
    array.yield %r : i64
  }
  %total = array.fold %run init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %r = arith.subi %x, %acc : i64
    array.yield %r : i64
  }
  return %run, %total : tensor<?xi64>, tensor<i64>
}

// Rank 3: the planes in parallel; the fold over the rows of a plane carried by the middle
// loop, reading the innermost fold and a generate of rank 2 (its own cluster here: the
// analysis keeps it apart).
// CHECK-LABEL: func.func @nested_folds(
// CHECK:         scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK:           %[[S2:.*]] = scf.for %[[J:[a-z0-9_]+]] = %{{.*}} iter_args(%[[ACC2:.*]] = %{{.*}}) -> (i64) {
// CHECK:             %[[S1:.*]] = scf.for %[[K:[a-z0-9_]+]] = %{{.*}} iter_args(%[[ACC1:.*]] = %{{.*}}) -> (i64) {
// CHECK-NEXT:          memref.load %{{.*}}[%[[I]], %[[J]], %[[K]]]
// CHECK:             }
// CHECK-NEXT:        %[[G:.*]] = memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:        %[[W:.*]] = arith.muli %[[S1]], %[[G]]
// CHECK-NEXT:        %[[X:.*]] = arith.xori %[[ACC2]], %[[W]]
// CHECK-NEXT:        scf.yield %[[X]]
// CHECK-NEXT:      }
// CHECK-NEXT:      memref.store %[[S2]], %{{.*}}[%[[I]]]
// CHECK-NEXT:      scf.reduce
func.func @nested_folds(%a: tensor<?x?x?xi64>) -> tensor<?xi64> {
  %zero = arith.constant 0 : i64
  %s1 = array.fold %a init(%zero : i64) : tensor<?x?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %r = arith.addi %acc, %x : i64
    array.yield %r : i64
  }
  %p = arith.constant 0 : index
  %d0 = array.dim %a, 0 : tensor<?x?x?xi64>
  %d1 = array.dim %a, 1 : tensor<?x?x?xi64>
  %g = array.generate (%d0, %d1) : tensor<?x?xi64> {
  ^bb0(%i: index, %j: index):
    %k = arith.muli %i, %j : index
    %ki = arith.index_cast %k : index to i64
    array.yield %ki : i64
  }
  %w = array.map %s1, %g : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%x: i64, %y: i64):
    %r = arith.muli %x, %y : i64
    array.yield %r : i64
  }
  %s2 = array.fold %w init(%zero : i64) : tensor<?x?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %r = arith.xori %acc, %x : i64
    array.yield %r : i64
  }
  return %s2 : tensor<?xi64>
}

// Two clusters, each: rows in parallel; under "the row is not empty" the row fold once,
// then the loop over the row reading it (a plain loop inside the parallel one).
// CHECK-LABEL: func.func @softmax_rows(
// CHECK-SAME:      "softmax_rows: 2 clusters
// CHECK:         scf.parallel (%[[I:[a-z0-9_]+]]) =
// CHECK:           %[[RUNS:.*]] = arith.cmpi sgt, %[[COLS:[a-z0-9_]+]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[RUNS]] {
// CHECK:             %[[MX:.*]] = scf.for %[[J:[a-z0-9_]+]] = %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f64) {
// CHECK-NEXT:          memref.load %{{.*}}[%[[I]], %[[J]]]
// CHECK-NEXT:          arith.maximumf %[[ACC]]
// CHECK-NEXT:          scf.yield
// CHECK-NEXT:        }
// CHECK:             scf.for %[[K:[a-z0-9_]+]] = %{{.*}} to %[[COLS]] step
// CHECK-NEXT:          %[[X:.*]] = memref.load %{{.*}}[%[[I]], %[[K]]]
// CHECK-NEXT:          %[[D:.*]] = arith.subf %[[X]], %[[MX]]
// CHECK-NEXT:          math.exp %[[D]]
// CHECK-NOT:         scf.for
// CHECK:         scf.parallel
// CHECK:           scf.if
// CHECK:             arith.addf
// CHECK:             scf.for
// CHECK:               arith.divf
// CHECK:         return

// Row softmax: a replicate of a row fold zipped back with the matrix.
func.func @softmax_rows(%m: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %mx = array.fold %m init(%ninf : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.maximumf %acc, %x : f64
    array.yield %r : f64
  }
  %cols = array.dim %m, 1 : tensor<?x?xf64>
  %mxs = array.replicate %mx, %cols : tensor<?xf64> -> tensor<?x?xf64>
  %e = array.map %m, %mxs : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64, %y: f64):
    %d = arith.subf %x, %y : f64
    %ex = math.exp %d : f64
    array.yield %ex : f64
  }
  %zero = arith.constant 0.0 : f64
  %sum = array.fold %e init(%zero : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.addf %acc, %x : f64
    array.yield %r : f64
  }
  %sums = array.replicate %sum, %cols : tensor<?xf64> -> tensor<?x?xf64>
  %out = array.map %e, %sums : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64> {
  ^bb0(%x: f64, %y: f64):
    %q = arith.divf %x, %y : f64
    array.yield %q : f64
  }
  return %out : tensor<?x?xf64>
}
