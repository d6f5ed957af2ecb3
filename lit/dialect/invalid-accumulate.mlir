// Verifier and parser errors of the accumulating ops of the `array` dialect:
// fold and scan.
//
// RUN: fuse-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// fold
//===----------------------------------------------------------------------===//

// The custom syntax cannot spell empty input and init lists.
func.func @fold_no_input() {
  // expected-error@+1 {{'array.fold' op needs at least one input array}}
  %r = "array.fold"() <{operandSegmentSizes = array<i32: 0, 0>}> ({
    %c = arith.constant 0.0 : f32
    "array.yield"(%c) : (f32) -> ()
  }) : () -> tensor<f32>
  return
}

// -----

func.func @fold_init_count(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op has 2 initial value(s) and 1 result(s); there is one result per accumulator}}
  %r = array.fold %xs init(%z, %z : f32, f32) : tensor<?xf32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %acc : f32
  }
  return
}

// -----

func.func @fold_result_count(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op has 1 initial value(s) and 2 result(s); there is one result per accumulator}}
  %r:2 = array.fold %xs init(%z : f32) : tensor<?xf32> -> tensor<f32>, tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %acc : f32
  }
  return
}

// -----

func.func @fold_input_shapes(%xs: tensor<?x4xf32>, %ys: tensor<?x5xf32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op input #1 of type 'tensor<?x5xf32>' does not have the shape of input #0 of type 'tensor<?x4xf32>'}}
  %r:2 = array.fold %xs, %ys init(%z, %z : f32, f32) : tensor<?x4xf32>, tensor<?x5xf32> -> tensor<?xf32>, tensor<?xf32> {
  ^bb0(%a: f32, %b: f32, %x: f32, %y: f32):
    array.yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @fold_rank0(%s: tensor<f32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op cannot combine along the innermost dimension of rank-0 input of type 'tensor<f32>'}}
  %r = array.fold %s init(%z : f32) : tensor<f32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %acc : f32
  }
  return
}

// -----

func.func @fold_init_type(%xs: tensor<?xf32>, %z: f64) {
  // expected-error@+1 {{'array.fold' op initial value #0 has type 'f64', but result #0 has element type 'f32'}}
  %r = array.fold %xs init(%z : f64) : tensor<?xf32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %acc : f32
  }
  return
}

// -----

// fold drops the innermost dimension: a vector folds to a rank-0 array.
func.func @fold_result_keeps_dimension(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op result #0 of type 'tensor<?xf32>' does not have the shape of input #0 without its innermost dimension}}
  %r = array.fold %xs init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %acc : f32
  }
  return
}

// -----

// fold acts on the innermost dimension, not the outermost one.
func.func @fold_result_outer_dimension(%xs: tensor<3x4xf32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op result #0 of type 'tensor<4xf32>' does not have the shape of input #0 without its innermost dimension}}
  %r = array.fold %xs init(%z : f32) : tensor<3x4xf32> -> tensor<4xf32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %acc : f32
  }
  return
}

// -----

// The body takes the accumulators first, then the elements.
func.func @fold_block_argument_order(%xs: tensor<?xi32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op region 'body' must take arguments (f32, i32), but takes (i32, f32)}}
  %r = array.fold %xs init(%z : f32) : tensor<?xi32> -> tensor<f32> {
  ^bb0(%x: i32, %acc: f32):
    array.yield %acc : f32
  }
  return
}

// -----

func.func @fold_yield(%xs: tensor<?xi32>, %z: f32) {
  %r = array.fold %xs init(%z : f32) : tensor<?xi32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: i32):
    // expected-error@+1 {{'array.yield' op yields (i32), but region 'body' of 'array.fold' must yield (f32)}}
    array.yield %x : i32
  }
  return
}

// -----

func.func @fold_not_yield(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op region 'body' must end with 'array.yield'}}
  %r = array.fold %xs init(%z : f32) : tensor<?xf32> -> tensor<f32> {
  ^bb0(%acc: f32, %x: f32):
    llvm.unreachable
  }
  return
}

//===----------------------------------------------------------------------===//
// scan
//===----------------------------------------------------------------------===//

// -----

func.func @scan_no_input() {
  // expected-error@+1 {{'array.scan' op needs at least one input array}}
  %r = "array.scan"() <{direction = 0 : i32, kind = 0 : i32, operandSegmentSizes = array<i32: 0, 0>}> ({
    %c = arith.constant 0.0 : f32
    "array.yield"(%c) : (f32) -> ()
  }) : () -> tensor<?xf32>
  return
}

// -----

func.func @scan_counts(%xs: tensor<?xf32>, %ys: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{'array.scan' op has 2 initial value(s) and 1 result(s); there is one result per accumulator}}
  %r = array.scan left inclusive %xs, %ys init(%z, %z : f32, f32) : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32, %y: f32):
    array.yield %acc : f32
  }
  return
}

// -----

func.func @fold_no_init(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.fold' op needs at least one initial value}}
  "array.fold"(%xs) <{operandSegmentSizes = array<i32: 1, 0>}> ({
  ^bb0(%x: f32):
    "array.yield"() : () -> ()
  }) : (tensor<?xf32>) -> ()
  return
}

// -----

func.func @fold_body_arity(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{'array.fold' op region 'body' must take arguments (f32, f32, f32), but takes (f32, f32)}}
  %r:2 = array.fold %xs init(%z, %z : f32, f32) : tensor<?xf32> -> tensor<f32>, tensor<f32> {
  ^bb0(%a: f32, %x: f32):
    array.yield %a, %a : f32, f32
  }
  return
}

// -----

func.func @scan_input_shapes(%xs: tensor<8xf32>, %ys: tensor<9xf32>, %z: f32) {
  // expected-error@+1 {{'array.scan' op input #1 of type 'tensor<9xf32>' does not have the shape of input #0 of type 'tensor<8xf32>'}}
  %r:2 = array.scan right exclusive %xs, %ys init(%z, %z : f32, f32) : tensor<8xf32>, tensor<9xf32> -> tensor<8xf32>, tensor<8xf32> {
  ^bb0(%a: f32, %b: f32, %x: f32, %y: f32):
    array.yield %a, %b : f32, f32
  }
  return
}

// -----

func.func @scan_rank0(%s: tensor<i64>, %z: i64) {
  // expected-error@+1 {{'array.scan' op cannot combine along the innermost dimension of rank-0 input of type 'tensor<i64>'}}
  %r = array.scan left inclusive %s init(%z : i64) : tensor<i64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %acc : i64
  }
  return
}

// -----

func.func @scan_init_type(%xs: tensor<?xi64>, %z: i32) {
  // expected-error@+1 {{'array.scan' op initial value #0 has type 'i32', but result #0 has element type 'i64'}}
  %r = array.scan left exclusive %xs init(%z : i32) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %acc : i64
  }
  return
}

// -----

// A scan keeps the input shape (unlike fold).
func.func @scan_result_shape(%xs: tensor<?x?xi64>, %z: i64) {
  // expected-error@+1 {{'array.scan' op result #0 of type 'tensor<?xi64>' does not have the shape of input #0}}
  %r = array.scan right inclusive %xs init(%z : i64) : tensor<?x?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    array.yield %acc : i64
  }
  return
}

// -----

func.func @scan_block_arguments(%xs: tensor<?xi64>, %z: i64) {
  // expected-error@+1 {{'array.scan' op region 'body' must take arguments (i64, i64), but takes (i64)}}
  %r = array.scan left inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    array.yield %x : i64
  }
  return
}

// -----

func.func @scan_yield(%xs: tensor<?xi64>, %z: i64) {
  %r = array.scan right exclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    // expected-error@+1 {{'array.yield' op yields (i64, i64), but region 'body' of 'array.scan' must yield (i64)}}
    array.yield %acc, %x : i64, i64
  }
  return
}

// -----

// Parse error: the direction keyword is 'left' or 'right'.
func.func @scan_unknown_direction(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{custom op 'array.scan' expected string or keyword containing one of the following enum values for attribute 'direction' [left, right]}}
  %ps = array.scan up inclusive %xs init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %x : f32
  }
  return
}

// -----

// Parse error: the kind keyword is 'inclusive' or 'exclusive'.
func.func @scan_unknown_kind(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{custom op 'array.scan' expected string or keyword containing one of the following enum values for attribute 'kind' [inclusive, exclusive]}}
  %ps = array.scan left sideways %xs init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %x : f32
  }
  return
}

// -----

// Parse error: the direction comes before the kind.
func.func @scan_swapped_keywords(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{expected string or keyword containing one of the following enum values for attribute 'direction' [left, right]}}
  %ps = array.scan inclusive left %xs init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %x : f32
  }
  return
}

// -----

// The generic form rejects an out-of-range direction when converting properties.
func.func @scan_bad_direction_property(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{Invalid attribute `direction` in property conversion: 2 : i32}}
  %ps = "array.scan"(%xs, %z) <{direction = 2 : i32, kind = 0 : i32, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%acc: f32, %x: f32):
    "array.yield"(%x) : (f32) -> ()
  }) : (tensor<?xf32>, f32) -> tensor<?xf32>
  return
}

// -----

// The generic form needs the direction and kind properties.
func.func @scan_missing_direction(%xs: tensor<?xf32>, %z: f32) {
  // expected-error@+1 {{'array.scan' op requires attribute 'direction'}}
  %ps = "array.scan"(%xs, %z) <{kind = 0 : i32, operandSegmentSizes = array<i32: 1, 1>}> ({
  ^bb0(%acc: f32, %x: f32):
    "array.yield"(%x) : (f32) -> ()
  }) : (tensor<?xf32>, f32) -> tensor<?xf32>
  return
}
