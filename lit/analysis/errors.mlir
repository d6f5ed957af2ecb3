// Bad options and ill-sized programs are located errors (exit code 1), never a crash. A size
// equality that size inference can neither prove nor refute (seed 001's bad1 and bad2) is a
// located warning: the op is kept, unfused with its operands' producers, and checked at run time.
// RUN: fuse-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(array-fusion-analysis))' -o /dev/null
// RUN: not fuse-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=bogus}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=COST
// RUN: not fuse-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(array-fusion-analysis{formulation=robinson cost=reads}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=PAIR
// RUN: not fuse-opt %s --emit-clustering=xml 2>&1 | FileCheck %s --check-prefix=EMIT

// COST: error: array-fusion-analysis: unknown cost model 'bogus'
// PAIR: error: array-fusion-analysis: cost=reads is not part of seed 001's formulation (formulation=robinson); use formulation=combined
// EMIT: fuse-opt: error: --emit-clustering: expected 'json' or 'dot', got 'xml'

// seed 001 §1.3.4 bad1: map2 of a filter result and the filter's input.
func.func @bad1(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %flt = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : i64
    %p = arith.cmpi sgt, %x, %c0 : i64
    array.yield %p : i1
  }
  // expected-warning@+1 {{size equality not provable: 'array.map' requires its inputs to have the same size, but %flt has a data-dependent size}}
  %ys = array.map %flt, %xs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    array.yield %s : i64
  }
  return %ys : tensor<?xi64>
}

// -----

// seed 001 §1.3.4 bad2: two filters are not known to give the same number of elements.
func.func @bad2(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %flt1 = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : i64
    %p = arith.cmpi sgt, %x, %c0 : i64
    array.yield %p : i1
  }
  %flt2 = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : i64
    %p = arith.cmpi slt, %x, %c0 : i64
    array.yield %p : i1
  }
  // expected-warning@+1 {{and %flt2 has a different data-dependent size (from 'array.filter' at}}
  %ys = array.map %flt1, %flt2 : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %s = arith.addi %a, %b : i64
    array.yield %s : i64
  }
  return %ys : tensor<?xi64>
}

// -----

// Two different static shapes can never be equal: an ill-sized program.
func.func @refuted(%ys: tensor<4xf64>) -> tensor<?xf64> {
  %c5 = arith.constant 5 : index
  %g = array.generate (%c5) : tensor<?xf64> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %f = arith.sitofp %ii : i64 to f64
    array.yield %f : f64
  }
  // expected-error@+1 {{ill-sized program: 'array.map' requires its inputs to have the same size, but %g has the static shape [5] and %ys has the static shape [4]}}
  %s = array.map %g, %ys : tensor<?xf64>, tensor<4xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %y: f64):
    %z = arith.addf %x, %y : f64
    array.yield %z : f64
  }
  return %s : tensor<?xf64>
}

// -----

// A well-sized function: only the robinson/reads pairing fails on it.
func.func @fine(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return %ys : tensor<?xi64>
}
