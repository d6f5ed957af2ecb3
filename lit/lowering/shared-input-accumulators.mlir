// Folds and scans whose accumulators share their inputs: m inputs, n accumulators, one
// result per accumulator (mean and variance from one pass, a running sum and minimum,
// row dot products with the weights' sums). Each agrees under the interpreter, the
// compiled unfused and the compiled fused program (CPU, OpenMP and emulated GPU kernels),
// empty arrays included; the fold and scan fuse with their producer or consumer, and no
// cluster is lowered op by op.
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1 --seed=2 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=300 --seed=5 | FileCheck %s --check-prefix=RESULT
// RUN: env OMP_NUM_THREADS=2 fuse-opt %s --run --check --size=300 --openmp | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=300 --gpu-sim | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --size=4 --function=moments | FileCheck %s --check-prefix=VALUES
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion),array-to-loops)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARKS --allow-empty

// RESULT-DAG: @moments: match (interpreter, unfused, fused)
// RESULT-DAG: @running: match (interpreter, unfused, fused)
// RESULT-DAG: @rows: match (interpreter, unfused, fused)

// The generated input at size 4 is scaled by 0.5: sum, sum of squares, count.
// VALUES: @moments: tensor<f64>[{{[-0-9.e]+}}], tensor<f64>[{{[-0-9.e]+}}], tensor<f64>[4.0] ({{.*}}, interpreter)
// VALUES: @moments: tensor<f64>[{{[-0-9.e]+}}], tensor<f64>[{{[-0-9.e]+}}], tensor<f64>[4.0] ({{.*}}, compiled)

// CLUSTERS: "name":"moments"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"scaled","sum"]]
// CLUSTERS: "name":"running"
// CLUSTERS-SAME: "clusters":{{\[\[}}"sums","both"]]
// CLUSTERS: "name":"rows"
// CLUSTERS-SAME: "clusters":{{\[\[}}"dot"]]

// REMARKS-NOT: op by op

func.func @moments(%xs: tensor<?xf64>) -> (tensor<f64>, tensor<f64>, tensor<f64>) {
  %scaled = array.map %xs : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64):
    %h = arith.constant 0.5 : f64
    %y = arith.mulf %x, %h : f64
    array.yield %y : f64
  }
  %zero = arith.constant 0.0 : f64
  %sum, %squares, %count = array.fold %scaled init(%zero, %zero, %zero : f64, f64, f64) : tensor<?xf64> -> tensor<f64>, tensor<f64>, tensor<f64> {
  ^bb0(%s: f64, %q: f64, %n: f64, %x: f64):
    %s1 = arith.addf %s, %x : f64
    %xx = arith.mulf %x, %x : f64
    %q1 = arith.addf %q, %xx : f64
    %c1 = arith.constant 1.0 : f64
    %n1 = arith.addf %n, %c1 : f64
    array.yield %s1, %q1, %n1 : f64, f64, f64
  }
  return %sum, %squares, %count : tensor<f64>, tensor<f64>, tensor<f64>
}

func.func @running(%m: tensor<?x?xi64>) -> (tensor<?x?xi64>, tensor<?x?xi64>) {
  %zero = arith.constant 0 : i64
  %top = arith.constant 9223372036854775807 : i64
  %sums, %mins = array.scan right exclusive %m init(%zero, %top : i64, i64) : tensor<?x?xi64> -> tensor<?x?xi64>, tensor<?x?xi64> {
  ^bb0(%s: i64, %mn: i64, %x: i64):
    %s1 = arith.addi %s, %x : i64
    %mn1 = arith.minsi %mn, %x : i64
    array.yield %s1, %mn1 : i64, i64
  }
  %both = array.map %sums, %mins : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%a: i64, %b: i64):
    %c = arith.subi %a, %b : i64
    array.yield %c : i64
  }
  return %both, %mins : tensor<?x?xi64>, tensor<?x?xi64>
}

func.func @rows(%m: tensor<?x?xf32>, %w: tensor<?x?xf32>) -> (tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) {
  %zero = arith.constant 0.0 : f32
  %dot, %norm, %wsum = array.fold %m, %w init(%zero, %zero, %zero : f32, f32, f32) : tensor<?x?xf32>, tensor<?x?xf32> -> tensor<?xf32>, tensor<?xf32>, tensor<?xf32> {
  ^bb0(%d: f32, %n: f32, %ws: f32, %x: f32, %y: f32):
    %xy = arith.mulf %x, %y : f32
    %d1 = arith.addf %d, %xy : f32
    %xx = arith.mulf %x, %x : f32
    %n1 = arith.addf %n, %xx : f32
    %ws1 = arith.addf %ws, %y : f32
    array.yield %d1, %n1, %ws1 : f32, f32, f32
  }
  return %dot, %norm, %wsum : tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
}
