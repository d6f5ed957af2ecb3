// The JSON report of `fuse-opt --emit-clustering=json` (seed 001 §1.5.1: the optimal
// value of Fig. 1.16 is 51 with clusters {sum1, gts, sum2}, {ys1, ys2}).
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis{formulation=robinson cost=robinson}))' --emit-clustering=json | FileCheck %s --check-prefix=ROBINSON
// RUN: fuse-opt %s --emit-clustering=json | FileCheck %s --check-prefix=DEFAULT
// RUN: fuse-opt %s --emit-clustering=dot | FileCheck %s --check-prefix=DOT
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis))' | FileCheck %s --check-prefix=ATTRS
// RUN: fuse-opt %s --dump-ilp=%t.lp -o /dev/null && FileCheck %s --check-prefix=LP < %t.normalize2.lp
// RUN: not fuse-opt %s --dump-ilp=%t.lp --pass-pipeline='builtin.module(func.func(array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=LPTWICE
// The same reports through the pass option emit-clustering=FILE (Graphviz for a .dot file),
// also when the pipeline alias forwards it, and fuse-opt's flag with the pass's own flag.
// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(array-fusion-analysis{formulation=robinson cost=robinson emit-clustering='%t.json'}))" -o /dev/null && FileCheck %s --check-prefix=ROBINSON < %t.json
// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(array-fusion{emit-clustering='%t.dot'}))" -o /dev/null && FileCheck %s --check-prefix=DOT < %t.dot
// RUN: fuse-opt %s --array-fusion-analysis='formulation=robinson cost=robinson' --emit-clustering=json | FileCheck %s --check-prefix=ROBINSON

// The model in CPLEX LP format: π per node, x per fusible pair, the scalar reads of the
// folds' results as precedences.
// LP: \ Problem: fusion_combined
// LP: Minimize
// LP: Subject To
// LP-DAG: after_1_4: pi_4_ys1 - pi_1_sum1 >= 1
// LP-DAG: after_3_5: pi_5_ys2 - pi_3_sum2 >= 1
// LP: Bounds
// LP: Binary
// LP: End
// LPTWICE: --dump-ilp: the pipeline already names array-fusion-analysis

// ROBINSON: {"functions":[{"name":"normalize2","formulation":"robinson","cost":"robinson","objective":51,"bound":51,"gap":0,"status":"optimal","solve_ms":{{[0-9.]+}},"nodes":{{[0-9]+}},"lp_iterations":{{[0-9]+}},"variables":21,"rows":35,"clusters":{{\[\["sum1","gts","sum2"\],\["ys1","ys2"\]\]}}}]}
// DEFAULT: {"functions":[{"name":"normalize2","formulation":"combined","cost":"reads-writes+3*gathered-folds+3*chained-gathers","objective":8,"bound":8,"gap":0,"status":"optimal",{{.*}}"clusters":{{\[\["sum1","gts","sum2"\],\["ys1","ys2"\]\]}}}]}

// DOT: digraph "normalize2" {
// DOT: subgraph cluster_0 {
// DOT-NEXT: style=dotted; label="cluster 0";
// DOT-NEXT: n1 [label="sum1 = fold"];
// DOT-NEXT: n2 [label="gts = filter"];
// DOT-NEXT: n3 [label="sum2 = fold"];
// Fusible edges are plain; infusible ones doubled and red (a fold result read as a scalar).
// DOT: n2 -> n3 [label="gts"];
// DOT: n1 -> n4 [label="sum1", color="red:red", penwidth=1.5];

// ATTRS-LABEL: func.func @normalize2
// ATTRS-SAME: array.fusion = "normalize2: 2 clusters, objective 8, optimal"
// ATTRS: array.fold %arg0 {{.*}}{array.cluster = 0 : i64, array.order = 0 : i64}
// ATTRS: array.filter %arg0 {array.cluster = 0 : i64, array.order = 0 : i64}
// ATTRS: array.fold %{{.*}}{array.cluster = 0 : i64, array.order = 0 : i64}
// ATTRS: array.map %arg0 {array.cluster = 1 : i64, array.order = 0 : i64}
// ATTRS: array.map %arg0 {array.cluster = 1 : i64, array.order = 0 : i64}

func.func @normalize2(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %p = arith.cmpi sgt, %x, %zero : i64
    array.yield %p : i1
  }
  %sum2 = array.fold %gts init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %ys1 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = array.index %sum1[] : tensor<i64>
    %y = arith.divsi %x, %s : i64
    array.yield %y : i64
  }
  %ys2 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = array.index %sum2[] : tensor<i64>
    %y = arith.divsi %x, %s : i64
    array.yield %y : i64
  }
  return %ys1, %ys2 : tensor<?xi64>, tensor<?xi64>
}
