// `array.force` (seed 000's fusion barrier) and `replicate` of a rank-0 array compile: the
// interpreter, the compiled unfused and the compiled fused program agree, and no `array`
// op is left after the lowering. The barrier keeps the two maps around it in separate
// loop nests.
// RUN: fuse-opt %s --run --check --size=7 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --array-fusion --array-to-loops | FileCheck %s --check-prefix=LOOPS
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS

// RESULT-DAG: @forced: match (interpreter, unfused, fused)
// RESULT-DAG: @spread: match (interpreter, unfused, fused)

// LOOPS-LABEL: func.func @forced
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS-LABEL: func.func @spread
// LOOPS-NOT: array.{{[a-z]+}} %
// LOOPS: return

// The replicated scalar becomes a generate, fused with the map that reads it.
// CLUSTERS: "name":"forced"
// CLUSTERS-SAME: "clusters":{{\[\[}}"ys"],["zs"]]
// CLUSTERS: "name":"spread"
// CLUSTERS-SAME: "clusters":{{\[\[}}"s"],["rs","ds"]]

func.func @forced(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %fs = array.force %ys : tensor<?xi64>
  %zs = array.map %fs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%f: i64):
    %c = arith.constant 3 : i64
    %z = arith.addi %f, %c : i64
    array.yield %z : i64
  }
  return %zs : tensor<?xi64>
}

func.func @spread(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %z = arith.constant 0 : i64
  %s = array.fold %xs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %n = array.dim %xs, 0 : tensor<?xi64>
  %rs = array.replicate %s, %n : tensor<i64> -> tensor<?xi64>
  %ds = array.map %rs, %xs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%r: i64, %x: i64):
    %d = arith.subi %r, %x : i64
    array.yield %d : i64
  }
  return %ds : tensor<?xi64>
}
