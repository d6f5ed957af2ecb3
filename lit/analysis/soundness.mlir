// Regression tests of the fusion ILP's soundness: five minimal programs on which the
// default formulation once returned a worse clustering labelled `optimal`, or none at
// all. Each was found by comparing the ILP with the exhaustive reference search
// (tests/src/optimality.rs); the expected optimum here is that search's.
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=fused-edges}))' | FileCheck %s --check-prefix=EDGES
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{formulation=gather cost=fused-edges}))' | FileCheck %s --check-prefix=EDGES
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=clusters}))' | FileCheck %s --check-prefix=LOOPS
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{formulation=gather cost=clusters}))' | FileCheck %s --check-prefix=LOOPS
// RUN: fuse-opt %s --emit-clustering=json | FileCheck %s --check-prefix=DEFAULT

// EDGES: "name":"a",{{.*}}"objective":0,"bound":0,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v3"],["v4"{{\]\]}}}
// EDGES: "name":"b",{{.*}}"objective":0,"bound":0,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v4"],["v0","v6"],["v5"{{\]\]}}}
// EDGES: "name":"c",{{.*}}"objective":0,"bound":0,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v0"],["v1","v2"],["v3"{{\]\]}}}
// EDGES: "name":"d",{{.*}}"objective":0,"bound":0,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v2"{{\]\]}}}

// LOOPS: "name":"a",{{.*}}"objective":2,"bound":2,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v3"],["v4"{{\]\]}}}
// LOOPS: "name":"d",{{.*}}"objective":1,"bound":1,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v2"{{\]\]}}}
// LOOPS: "name":"e",{{.*}}"objective":1,"bound":1,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v0","v1"{{\]\]}}}

// DEFAULT: "name":"a",{{.*}}"cost":"reads-writes+3*gathered-folds+3*chained-gathers","objective":5,"bound":5,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v3"],["v4"{{\]\]}}}
// DEFAULT: "name":"b",{{.*}}"objective":9,"bound":9,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v4"],["v0","v6"],["v5"{{\]\]}}}
// DEFAULT: "name":"e",{{.*}}"objective":3,"bound":3,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\[}}"v0","v1"{{\]\]}}}

// (a) A scatter into an argument after a right scan of it: the scatter precedence of
// seed 000 (9) is no edge, and once made π bounds that ignored it infeasible.
func.func @a(%in0: tensor<?xi64>, %in1: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %z = arith.constant 0 : i64
  %v3 = array.scan right inclusive %in0 init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %e0: i64):
    %t1 = arith.addi %acc, %e0 : i64
    array.yield %t1 : i64
  }
  %v4 = array.scatter %in0[%in1], %in1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %t2 = arith.addi %old, %new : i64
    array.yield %t2 : i64
  }
  return %v3, %v4 : tensor<?xi64>, tensor<?xi64>
}

// (b) The scatter precedence lengthens the chain of strictly-later clusters: the
// optimum (no unfused pair) needs π beyond bounds that ignored it.
func.func @b(%in0: tensor<?xi64>, %in1: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %v0 = array.map %in1 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%e0: i64):
    array.yield %e0 : i64
  }
  %v4 = array.gather %in0[%in0] : tensor<?xi64>[tensor<?xi64>] -> tensor<?xi64>
  %v5 = array.scatter %in1[%in0], %in0 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %t1 = arith.addi %old, %new : i64
    array.yield %t1 : i64
  }
  %v6 = array.map %v0 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%e0: i64):
    %c2 = arith.constant 0 : index
    %f3 = array.index %v4[%c2] : tensor<?xi64>
    %t4 = arith.addi %e0, %f3 : i64
    array.yield %t4 : i64
  }
  return %v5, %v6 : tensor<?xi64>, tensor<?xi64>
}

// (c) Fusing v1 with v2 makes the chain v0 → {v1, v2} → v3 of strictly-later
// clusters longer than any path of the graph: π ≤ longest path is no bound.
func.func @c(%in0: tensor<?xi64>, %in1: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %v0 = array.map %in1 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%e0: i64):
    array.yield %e0 : i64
  }
  %v1 = array.map %in1 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%e0: i64):
    array.yield %e0 : i64
  }
  %v2 = array.map %v1 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%e0: i64):
    %c1 = arith.constant 0 : index
    %f2 = array.index %v0[%c1] : tensor<?xi64>
    %t3 = arith.addi %e0, %f2 : i64
    array.yield %t3 : i64
  }
  %n_v3 = array.size %in0 : tensor<?xi64>
  %v3 = array.generate (%n_v3) : tensor<?xi64> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %c4 = arith.constant 0 : index
    %f5 = array.index %v1[%c4] : tensor<?xi64>
    %t6 = arith.addi %ii, %f5 : i64
    array.yield %t6 : i64
  }
  return %v2, %v3 : tensor<?xi64>, tensor<?xi64>
}

// (d) One fold of an argument: cost=clusters once took π_max's bound from the first
// node (an argument, fixed at 0) and called this infeasible.
func.func @d(%in0: tensor<?xi64>) -> tensor<i64> {
  %z = arith.constant 0 : i64
  %v2 = array.fold %in0 init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %e0: i64):
    %t1 = arith.addi %acc, %e0 : i64
    array.yield %t1 : i64
  }
  return %v2 : tensor<i64>
}

// (e) A map and a right scan of one argument form one loop when the map runs right
// to left too (both read %in0 in order 1): cost=clusters counts real loops.
func.func @e(%in0: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %z = arith.constant 0 : i64
  %v0 = array.map %in0 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%e0: i64):
    array.yield %e0 : i64
  }
  %v1 = array.scan right inclusive %in0 init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %e0: i64):
    %t1 = arith.addi %acc, %e0 : i64
    array.yield %t1 : i64
  }
  return %v0, %v1 : tensor<?xi64>, tensor<?xi64>
}
