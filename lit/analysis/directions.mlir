// Traversal directions the analysis may choose are those with the program's meaning
// (and that the lowering runs as one loop nest): the dialect folds from the left and
// scatters combine in source order, so a fold whose combine may not commute never runs
// right to left (order 1) and a scatter reads its values left to right (order 0). Seed
// 000 allows both directions for folds and scatters, which only commuting combines make
// equal; a right scan in order 1 therefore cannot share its loop with them.
//
// RUN: fuse-opt %s --emit-clustering=json | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{formulation=gather}))' | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=clusters}))' | FileCheck %s --check-prefix=LOOPS
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=7 --seed=3 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --array-fusion --array-to-loops 2>&1 >/dev/null | FileCheck %s --check-prefix=REMARK --allow-empty

// The sum (its combine commutes) runs right to left beside the right scan; the fold
// keeping the last element runs alone, left to right.
// DEFAULT: "name":"last_and_sum",{{.*}}"status":"optimal",{{.*}}"clusters":{{\[\[}}"v0","v2"],["v1"{{\]\]}}
// Counting loops, two is the optimum either way the sum goes (with the scan or with the
// last-element fold); the fold keeping the last element never joins the right scan.
// LOOPS: "name":"last_and_sum",{{.*}}"objective":2,"bound":2,"gap":0,"status":"optimal",{{.*}}"clusters":{{(\[\["v0","v2"\],\["v1"\]\]|\[\["v0"\],\["v1","v2"\]\])}}
// The scatter reads %in0 left to right, the right scan right to left: two loops.
// DEFAULT: "name":"scatter",{{.*}}"status":"optimal",{{.*}}"clusters":{{(\[\["v0"\],\["idx","v1"\]\]|\[\["idx","v1"\],\["v0"\]\])}}
// LOOPS: "name":"scatter",{{.*}}"objective":2,"bound":2,"gap":0,"status":"optimal",{{.*}}"clusters":{{(\[\["v0"\],\["idx","v1"\]\]|\[\["idx","v1"\],\["v0"\]\])}}

// RESULT-DAG: @last_and_sum: match (interpreter, unfused, fused)
// RESULT-DAG: @scatter: match (interpreter, unfused, fused)
// REMARK-NOT: op by op

func.func @last_and_sum(%in0: tensor<?xi64>) -> (tensor<?xi64>, tensor<i64>, tensor<i64>) {
  %z = arith.constant 0 : i64
  %v0 = array.scan right inclusive %in0 init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %v1 = array.fold %in0 init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %x : i64
  }
  %v2 = array.fold %in0 init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  return %v0, %v1, %v2 : tensor<?xi64>, tensor<i64>, tensor<i64>
}

// Every element goes to index 0: the last one written wins.
func.func @scatter(%in0: tensor<?xi64>, %dst: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %z = arith.constant 0 : i64
  %v0 = array.scan right inclusive %in0 init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %n = array.dim %in0, 0 : tensor<?xi64>
  %idx = array.generate (%n) : tensor<?xindex> {
  ^bb0(%j: index):
    %c0 = arith.constant 0 : index
    array.yield %c0 : index
  }
  %v1 = array.scatter %dst[%idx], %in0 : tensor<?xi64>[tensor<?xindex>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %v0, %v1 : tensor<?xi64>, tensor<?xi64>
}
