// `array-rotate-while` (passes/src/rotate_while.rs, the first pass of `array-fusion`)
// moves the first test of an `scf.while` whose test computes on arrays made just before
// the loop out of the loop, which then carries the test's outcome and runs body then
// test, and drops loop state that nothing reads.
//
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-rotate-while))' --verify-diagnostics | FileCheck %s
//
// In the fusion pipeline the first test then fuses with the producers of the initial
// arrays: the one array nothing else reads (`%zeros`) is never written.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion))' 2>/dev/null | FileCheck %s --check-prefix=FUSED
//
// The rotated loops compute what the original ones do: the interpreter on the original
// program, the compiled unfused one and the compiled fused (rotated) one agree, on
// inputs where the loops run several times and where they do not run at all.
// RUN: fuse-opt %s --run --check 2>/dev/null | FileCheck %s --check-prefix=RAN
// RUN: fuse-opt %s --run --check --size=0 2>/dev/null | FileCheck %s --check-prefix=RAN
// RUN: fuse-opt %s --run --check --size=1000 --seed=3 2>/dev/null | FileCheck %s --check-prefix=RAN
// RAN-DAG: @halve: match (interpreter, unfused, fused)
// RAN-DAG: @halveBoth: match (interpreter, unfused, fused)
// RAN-DAG: @countdown: match (interpreter, unfused, fused)
// RAN-DAG: @fromArgument: match (interpreter, unfused, fused)

// Halve every element until the array stops changing (the test compares the array with
// its previous value, as BFS's `awhile` does).
// CHECK-LABEL: func.func @halve(
// CHECK:         %[[IOTA:.*]] = array.generate
// CHECK:         %[[ZEROS:.*]] = array.generate
// CHECK:         %[[DIFF:.*]] = array.map %[[IOTA]], %[[ZEROS]]
// CHECK:         %[[ANY:.*]] = array.fold %[[DIFF]]
// CHECK:         %[[FIRST:.*]] = array.index %[[ANY]][]
// The state `%previous` is dropped: the loop carries one array and the test's outcome,
// which is all its `before` region reads.
// CHECK:         %[[R:.*]] = scf.while (%[[A:.*]] = %[[IOTA]], %[[GO:.*]] = %[[FIRST]]) : (tensor<?xi64>, i1) -> tensor<?xi64> {
// CHECK-NEXT:      scf.condition(%[[GO]]) %[[A]] : tensor<?xi64>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: tensor<?xi64>):
// The body first, then the test on the body's results.
// CHECK:           %[[H:.*]] = array.map %[[X]]
// CHECK:           %[[D:.*]] = array.map %[[H]], %[[X]]
// CHECK:           %[[F:.*]] = array.fold %[[D]]
// CHECK:           %[[C:.*]] = array.index %[[F]][]
// CHECK:           scf.yield %[[H]], %[[C]] : tensor<?xi64>, i1
// CHECK:         }
// CHECK:         return %[[R]] : tensor<?xi64>
//
// FUSED-LABEL: func.func @halve(
// FUSED:         array.cluster
// FUSED:           array.generate
// FUSED:           array.generate
// FUSED:           array.map
// FUSED:           array.fold
// FUSED:         scf.while
// FUSED-LABEL: func.func @halveBoth(
func.func @halve(%n: index) -> tensor<?xi64> {
  %iota = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  // expected-remark @+1 {{array-rotate-while: first test moved before the loop, which now runs body then test; unread loop state dropped: component 1}}
  %loop:2 = scf.while (%current = %iota, %previous = %zeros) : (tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
    %differs = array.map %current, %previous : tensor<?xi64>, tensor<?xi64> -> tensor<?xi1> {
    ^bb0(%a: i64, %b: i64):
      %ne = arith.cmpi ne, %a, %b : i64
      array.yield %ne : i1
    }
    %false = arith.constant false
    %any = array.fold %differs init(%false : i1) : tensor<?xi1> -> tensor<i1> {
    ^bb0(%acc: i1, %d: i1):
      %or = arith.ori %acc, %d : i1
      array.yield %or : i1
    }
    %continue = array.index %any[] : tensor<i1>
    scf.condition(%continue) %current, %previous : tensor<?xi64>, tensor<?xi64>
  } do {
  ^bb0(%current: tensor<?xi64>, %previous: tensor<?xi64>):
    %halved = array.map %current : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      %two = arith.constant 2 : i64
      %h = arith.divsi %x, %two : i64
      array.yield %h : i64
    }
    scf.yield %halved, %current : tensor<?xi64>, tensor<?xi64>
  }
  return %loop#0 : tensor<?xi64>
}

// Both results are used, so both components stay.
// CHECK-LABEL: func.func @halveBoth(
// CHECK:         scf.while (%{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<?xi64>, tensor<?xi64>, i1) -> (tensor<?xi64>, tensor<?xi64>)
func.func @halveBoth(%n: index) -> (tensor<?xi64>, tensor<?xi64>) {
  %iota = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %z = arith.constant 0 : i64
    array.yield %z : i64
  }
  // expected-remark @+1 {{array-rotate-while: first test moved before the loop, which now runs body then test}}
  %loop:2 = scf.while (%current = %iota, %previous = %zeros) : (tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
    %differs = array.map %current, %previous : tensor<?xi64>, tensor<?xi64> -> tensor<?xi1> {
    ^bb0(%a: i64, %b: i64):
      %ne = arith.cmpi ne, %a, %b : i64
      array.yield %ne : i1
    }
    %false = arith.constant false
    %any = array.fold %differs init(%false : i1) : tensor<?xi1> -> tensor<i1> {
    ^bb0(%acc: i1, %d: i1):
      %or = arith.ori %acc, %d : i1
      array.yield %or : i1
    }
    %continue = array.index %any[] : tensor<i1>
    scf.condition(%continue) %current, %previous : tensor<?xi64>, tensor<?xi64>
  } do {
  ^bb0(%current: tensor<?xi64>, %previous: tensor<?xi64>):
    %halved = array.map %current : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      %two = arith.constant 2 : i64
      %h = arith.divsi %x, %two : i64
      array.yield %h : i64
    }
    scf.yield %halved, %current : tensor<?xi64>, tensor<?xi64>
  }
  return %loop#0, %loop#1 : tensor<?xi64>, tensor<?xi64>
}

// A loop whose test computes on scalars only is left alone: there is nothing to fuse.
// CHECK-LABEL: func.func @countdown(
// CHECK:         scf.while (%{{.*}} = %{{.*}}) : (i64) -> i64
func.func @countdown(%n: i64) -> i64 {
  %zero = arith.constant 0 : i64
  %two = arith.constant 2 : i64
  %r = scf.while (%k = %n) : (i64) -> i64 {
    %more = arith.cmpi sgt, %k, %zero : i64
    scf.condition(%more) %k : i64
  } do {
  ^bb0(%k: i64):
    %next = arith.divsi %k, %two : i64
    scf.yield %next : i64
  }
  return %r : i64
}

// A loop whose tested array is an argument of the function is left alone: no producer
// in the block to fuse the first test with.
// CHECK-LABEL: func.func @fromArgument(
// CHECK-NEXT:    scf.while (%{{.*}} = %{{.*}}) : (tensor<?xi64>) -> tensor<?xi64> {
// CHECK-NEXT:      arith.constant false
// CHECK-NEXT:      array.map
func.func @fromArgument(%start: tensor<?xi64>) -> tensor<?xi64> {
  %r = scf.while (%current = %start) : (tensor<?xi64>) -> tensor<?xi64> {
    %false = arith.constant false
    %positive = array.map %current : tensor<?xi64> -> tensor<?xi1> {
    ^bb0(%x: i64):
      %zero = arith.constant 0 : i64
      %gt = arith.cmpi sgt, %x, %zero : i64
      array.yield %gt : i1
    }
    %any = array.fold %positive init(%false : i1) : tensor<?xi1> -> tensor<i1> {
    ^bb0(%acc: i1, %d: i1):
      %or = arith.ori %acc, %d : i1
      array.yield %or : i1
    }
    %continue = array.index %any[] : tensor<i1>
    scf.condition(%continue) %current : tensor<?xi64>
  } do {
  ^bb0(%current: tensor<?xi64>):
    %halved = array.map %current : tensor<?xi64> -> tensor<?xi64> {
    ^bb0(%x: i64):
      %two = arith.constant 2 : i64
      %h = arith.divsi %x, %two : i64
      array.yield %h : i64
    }
    scf.yield %halved : tensor<?xi64>
  }
  return %r : tensor<?xi64>
}
