// One size equality that size inference cannot prove (a filter's result zipped with the
// array it filters, seed 001 §1.3.4 bad1) makes only that map's in-edges infusible, with a
// located warning; the rest of the function still fuses: the two maps and the fold before the
// filter form one cluster, and the map after the unprovable one fuses with it. The equality
// becomes a run-time check (`cf.assert`) before the map's cluster. The predicate keeps every
// element (a square is never negative), so the sizes agree in every run and the compiled
// programs agree with the interpreter, empty arrays included.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion-analysis))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=WARN
// RUN: fuse-opt %s --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis))' 2>/dev/null | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion),array-to-loops)' 2>/dev/null | FileCheck %s --check-prefix=LOOPS
// RUN: fuse-opt %s --run --check --size=0 | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %s --run --check --size=1000 --seed=4 | FileCheck %s --check-prefix=RESULT
// `--run --check` shows the analysis's warning too.
// RUN: fuse-opt %s --run --check --size=3 2>&1 | FileCheck %s --check-prefix=RUNWARN
// RUNWARN: unprovable-size.mlir:{{[0-9]+}}:13: warning: size equality not provable: 'array.map' requires its inputs to have the same size
// RUNWARN: @partly: match (interpreter, unfused, fused)

// WARN: unprovable-size.mlir:[[#@LINE+30]]:13: warning: size equality not provable: 'array.map' requires its inputs to have the same size, but %kept has a data-dependent size (from 'array.filter' at {{.*}}unprovable-size.mlir:[[#@LINE+24]]:11) and %xs is a function argument; the equality is checked at run time, and 'array.map' is not fused with the producers of its operands
// WARN-NOT: warning

// CLUSTERS: "name":"partly"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"doubled","squares","kept","total"],["zipped","tripled"]]

// LOOPS-LABEL: func.func @partly
// LOOPS: %[[OK:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : index
// LOOPS-NEXT: cf.assert %[[OK]], "{{.*}}unprovable-size.mlir:{{[0-9]+}}:13: run-time size check failed: 'array.map' requires its inputs to have the same size, but %kept has a data-dependent size

// RESULT: @partly: match (interpreter, unfused, fused)

func.func @partly(%xs: tensor<?xf64>) -> (tensor<?xf64>, tensor<f64>) {
  %doubled = array.map %xs : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64):
    %y = arith.addf %x, %x : f64
    array.yield %y : f64
  }
  %squares = array.map %doubled : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64):
    %y = arith.mulf %x, %x : f64
    array.yield %y : f64
  }
  %kept = array.filter %squares : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64):
    %zero = arith.constant 0.0 : f64
    %p = arith.cmpf oge, %x, %zero : f64
    array.yield %p : i1
  }
  %zipped = array.map %kept, %xs : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%k: f64, %x: f64):
    %y = arith.subf %k, %x : f64
    array.yield %y : f64
  }
  %tripled = array.map %zipped : tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64):
    %three = arith.constant 3.0 : f64
    %y = arith.mulf %x, %three : f64
    array.yield %y : f64
  }
  %zero = arith.constant 0.0 : f64
  %total = array.fold %squares init(%zero : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %s = arith.addf %acc, %x : f64
    array.yield %s : f64
  }
  return %tripled, %total : tensor<?xf64>, tensor<f64>
}
