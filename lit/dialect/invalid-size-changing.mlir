// Verifier errors of the size-changing ops of the `array` dialect: filter and
// expand.
//
// RUN: fuse-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// filter
//===----------------------------------------------------------------------===//

func.func @filter_no_input() {
  // expected-error@+1 {{'array.filter' op needs at least one input array}}
  %r = "array.filter"() ({
    %t = arith.constant true
    "array.yield"(%t) : (i1) -> ()
  }) : () -> tensor<?xf32>
  return
}

// -----

func.func @filter_result_count(%xs: tensor<?xf32>, %ys: tensor<?xf32>) {
  // expected-error@+1 {{'array.filter' op has 2 input(s) but 1 result(s); each input is filtered into one result}}
  %r = array.filter %xs, %ys : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %p = arith.cmpf olt, %x, %y : f32
    array.yield %p : i1
  }
  return
}

// -----

func.func @filter_not_vector(%xs: tensor<?x?xf32>) {
  // expected-error@+1 {{'array.filter' op input #0 of type 'tensor<?x?xf32>' is not one-dimensional}}
  %r = array.filter %xs : tensor<?x?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    %t = arith.constant true
    array.yield %t : i1
  }
  return
}

// -----

func.func @filter_input_shapes(%xs: tensor<3xf32>, %ys: tensor<4xi32>) {
  // expected-error@+1 {{'array.filter' op input #1 of type 'tensor<4xi32>' does not have the shape of input #0 of type 'tensor<3xf32>'}}
  %r:2 = array.filter %xs, %ys : tensor<3xf32>, tensor<4xi32> -> tensor<?xf32>, tensor<?xi32> {
  ^bb0(%x: f32, %y: i32):
    %t = arith.constant true
    array.yield %t : i1
  }
  return
}

// -----

// The result length depends on the data, so it cannot be static.
func.func @filter_static_result(%xs: tensor<8xf32>) {
  // expected-error@+1 {{'array.filter' op result #0 of type 'tensor<8xf32>' must be a vector of dynamic length (its size depends on the data)}}
  %r = array.filter %xs : tensor<8xf32> -> tensor<8xf32> {
  ^bb0(%x: f32):
    %t = arith.constant true
    array.yield %t : i1
  }
  return
}

// -----

func.func @filter_result_rank(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.filter' op result #0 of type 'tensor<?x?xf32>' must be a vector of dynamic length}}
  %r = array.filter %xs : tensor<?xf32> -> tensor<?x?xf32> {
  ^bb0(%x: f32):
    %t = arith.constant true
    array.yield %t : i1
  }
  return
}

// -----

func.func @filter_element_type(%xs: tensor<?xf32>, %is: tensor<?xi64>) {
  // expected-error@+1 {{'array.filter' op result #1 has element type 'i32', but input #1 has element type 'i64'}}
  %r:2 = array.filter %xs, %is : tensor<?xf32>, tensor<?xi64> -> tensor<?xf32>, tensor<?xi32> {
  ^bb0(%x: f32, %i: i64):
    %t = arith.constant true
    array.yield %t : i1
  }
  return
}

// -----

func.func @filter_block_arguments(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.filter' op region 'predicate' must take arguments (f32), but takes (f32, index)}}
  %r = array.filter %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32, %i: index):
    %t = arith.constant true
    array.yield %t : i1
  }
  return
}

// -----

// The predicate yields an i1, not the element.
func.func @filter_yield(%xs: tensor<?xi64>) {
  %r = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    // expected-error@+1 {{'array.yield' op yields (i64), but region 'predicate' of 'array.filter' must yield (i1)}}
    array.yield %x : i64
  }
  return
}

// -----

func.func @filter_not_yield(%xs: tensor<?xi64>) {
  // expected-error@+1 {{'array.filter' op region 'predicate' must end with 'array.yield'}}
  %r = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    llvm.unreachable
  }
  return
}

//===----------------------------------------------------------------------===//
// expand
//===----------------------------------------------------------------------===//

// -----

func.func @expand_no_input(%n: index) {
  // expected-error@+1 {{'array.expand' op needs at least one input array}}
  %r = "array.expand"() ({
    "array.yield"(%n) : (index) -> ()
  }, {
  ^bb0(%j: index):
    "array.yield"(%j) : (index) -> ()
  }) : () -> tensor<?xindex>
  return
}

// -----

func.func @expand_no_result(%xs: tensor<?xi64>, %n: index) {
  // expected-error@+1 {{'array.expand' op needs at least one result}}
  "array.expand"(%xs) ({
  ^bb0(%x: i64):
    "array.yield"(%n) : (index) -> ()
  }, {
  ^bb0(%x: i64, %j: index):
    "array.yield"() : () -> ()
  }) : (tensor<?xi64>) -> ()
  return
}

// -----

func.func @expand_not_vector(%xs: tensor<?x3xi64>, %n: index) {
  // expected-error@+1 {{'array.expand' op input #0 of type 'tensor<?x3xi64>' is not one-dimensional}}
  %r = array.expand %xs : tensor<?x3xi64> -> tensor<?xi64> count {
  ^bb0(%x: i64):
    array.yield %n : index
  } get {
  ^bb0(%x: i64, %j: index):
    array.yield %x : i64
  }
  return
}

// -----

func.func @expand_input_shapes(%xs: tensor<2xi64>, %ys: tensor<3xi64>, %n: index) {
  // expected-error@+1 {{'array.expand' op input #1 of type 'tensor<3xi64>' does not have the shape of input #0 of type 'tensor<2xi64>'}}
  %r = array.expand %xs, %ys : tensor<2xi64>, tensor<3xi64> -> tensor<?xi64> count {
  ^bb0(%x: i64, %y: i64):
    array.yield %n : index
  } get {
  ^bb0(%x: i64, %y: i64, %j: index):
    array.yield %x : i64
  }
  return
}

// -----

func.func @expand_static_result(%xs: tensor<4xi64>) {
  %c2 = arith.constant 2 : index
  // expected-error@+1 {{'array.expand' op result #0 of type 'tensor<8xi64>' must be a vector of dynamic length (its size depends on the data)}}
  %r = array.expand %xs : tensor<4xi64> -> tensor<8xi64> count {
  ^bb0(%x: i64):
    array.yield %c2 : index
  } get {
  ^bb0(%x: i64, %j: index):
    array.yield %x : i64
  }
  return
}

// -----

func.func @expand_count_arguments(%xs: tensor<?xi64>, %n: index) {
  // expected-error@+1 {{'array.expand' op region 'count' must take arguments (i64), but takes (i64, index)}}
  %r = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%x: i64, %j: index):
    array.yield %n : index
  } get {
  ^bb0(%x: i64, %j: index):
    array.yield %x : i64
  }
  return
}

// -----

func.func @expand_count_yield(%xs: tensor<?xi64>) {
  %r = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%x: i64):
    // expected-error@+1 {{'array.yield' op yields (i64), but region 'count' of 'array.expand' must yield (index)}}
    array.yield %x : i64
  } get {
  ^bb0(%x: i64, %j: index):
    array.yield %x : i64
  }
  return
}

// -----

// The get region receives the input elements and then the position in the
// segment.
func.func @expand_get_arguments(%xs: tensor<?xi64>, %n: index) {
  // expected-error@+1 {{'array.expand' op region 'get' must take arguments (i64, index), but takes (i64)}}
  %r = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%x: i64):
    array.yield %n : index
  } get {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return
}

// -----

func.func @expand_get_yield(%xs: tensor<?xi64>, %n: index) {
  %r:2 = array.expand %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xf32> count {
  ^bb0(%x: i64):
    array.yield %n : index
  } get {
  ^bb0(%x: i64, %j: index):
    // expected-error@+1 {{'array.yield' op yields (i64), but region 'get' of 'array.expand' must yield (i64, f32)}}
    array.yield %x : i64
  }
  return
}

// -----

func.func @expand_get_not_yield(%xs: tensor<?xi64>, %n: index) {
  // expected-error@+1 {{'array.expand' op region 'get' must end with 'array.yield'}}
  %r = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%x: i64):
    array.yield %n : index
  } get {
  ^bb0(%x: i64, %j: index):
    llvm.unreachable
  }
  return
}
