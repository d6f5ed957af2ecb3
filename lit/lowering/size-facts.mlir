// Size facts (issue: size inference that knows static extents and `array.dim` /
// `array.size` facts). Each shape below is spelled from facts about an array that
// exists in every run: a static extent of its type, `array.dim` of it, or `array.dim` of
// a fold of it (the fold's result is its input without the innermost dimension). These
// programs used to be rejected as ill-sized and left unfused; they now fuse and agree
// under the interpreter, the compiled unfused and the compiled fused program, empty
// arrays included.
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=9 --seed=5 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS

// RESULT-DAG: @static_extent: match (interpreter, unfused, fused)
// RESULT-DAG: @softmax_rows: match (interpreter, unfused, fused)
// RESULT-DAG: @transpose_fold: match (interpreter, unfused, fused)

// CLUSTERS: "name":"static_extent"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"g","s"]]
// CLUSTERS: "name":"softmax_rows"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"mx","mxs","mxs","e"],["sum","sums","sums","out"]]
// CLUSTERS: "name":"transpose_fold"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"t","s"]]

// A generate whose shape is (array.dim %a 0, 16) zipped with %a : tensor<?x16xf64>.
func.func @static_extent(%a: tensor<?x16xf64>) -> tensor<?x16xf64> {
  %n = array.dim %a, 0 : tensor<?x16xf64>
  %c16 = arith.constant 16 : index
  %g = array.generate (%n, %c16) : tensor<?x16xf64> {
  ^bb0(%i: index, %j: index):
    %k = arith.addi %i, %j : index
    %ki = arith.index_cast %k : index to i64
    %f = arith.sitofp %ki : i64 to f64
    array.yield %f : f64
  }
  %s = array.map %g, %a : tensor<?x16xf64>, tensor<?x16xf64> -> tensor<?x16xf64> {
  ^bb0(%x: f64, %y: f64):
    %z = arith.addf %x, %y : f64
    array.yield %z : f64
  }
  return %s : tensor<?x16xf64>
}

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

// A 5 × m transpose of an m × 5 matrix, folded into a static tensor<5xf64>.
func.func @transpose_fold(%a: tensor<?x5xf64>) -> tensor<5xf64> {
  %c5 = arith.constant 5 : index
  %m = array.dim %a, 0 : tensor<?x5xf64>
  %t = array.generate (%c5, %m) : tensor<5x?xf64> {
  ^bb0(%i: index, %j: index):
    %v = array.index %a[%j, %i] : tensor<?x5xf64>
    array.yield %v : f64
  }
  %zero = arith.constant 0.0 : f64
  %s = array.fold %t init(%zero : f64) : tensor<5x?xf64> -> tensor<5xf64> {
  ^bb0(%acc: f64, %x: f64):
    %r = arith.addf %acc, %x : f64
    array.yield %r : f64
  }
  return %s : tensor<5xf64>
}
