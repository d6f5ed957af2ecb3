// Verifier errors of the sugar ops of the `array` dialect: backpermute,
// permute, reverse and replicate.
//
// RUN: fuse-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// backpermute
//===----------------------------------------------------------------------===//

func.func @backpermute_shape_rank(%xs: tensor<?x?xf32>, %n: index) {
  // expected-error@+1 {{'array.backpermute' op has 1 shape operand(s), but the result of type 'tensor<?x?xf32>' has rank 2}}
  %r = array.backpermute %xs to (%n) : tensor<?x?xf32> -> tensor<?x?xf32> {
  ^bb0(%i: index, %j: index):
    array.yield %j, %i : index, index
  }
  return
}

// -----

func.func @backpermute_shape_constant(%xs: tensor<?xf32>) {
  %c3 = arith.constant 3 : index
  // expected-error@+1 {{'array.backpermute' op shape operand #0 is the constant 3, but dimension 0 of the result is 4}}
  %r = array.backpermute %xs to (%c3) : tensor<?xf32> -> tensor<4xf32> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return
}

// -----

func.func @backpermute_rank0_source(%s: tensor<f32>, %n: index) {
  // expected-error@+1 {{'array.backpermute' op cannot read a rank-0 source at computed indices}}
  %r = array.backpermute %s to (%n) : tensor<f32> -> tensor<?xf32> {
  ^bb0(%i: index):
    array.yield
  }
  return
}

// -----

func.func @backpermute_element_type(%xs: tensor<?xf32>, %n: index) {
  // expected-error@+1 {{'array.backpermute' op result element type 'f64' differs from the source element type 'f32'}}
  %r = array.backpermute %xs to (%n) : tensor<?xf32> -> tensor<?xf64> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return
}

// -----

// The index region receives the result index (rank 2 here), not the source's.
func.func @backpermute_block_arguments(%xs: tensor<?xf32>, %m: index, %n: index) {
  // expected-error@+1 {{'array.backpermute' op region 'index' must take arguments (index, index), but takes (index)}}
  %r = array.backpermute %xs to (%m, %n) : tensor<?xf32> -> tensor<?x?xf32> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return
}

// -----

// The index region yields one index per source dimension.
func.func @backpermute_yield(%xs: tensor<?x?xf32>, %n: index) {
  %r = array.backpermute %xs to (%n) : tensor<?x?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    // expected-error@+1 {{'array.yield' op yields (index), but region 'index' of 'array.backpermute' must yield (index, index)}}
    array.yield %i : index
  }
  return
}

// -----

// backpermute has no keep flag (unlike permute).
func.func @backpermute_keep_flag(%xs: tensor<?xf32>, %n: index, %keep: i1) {
  %r = array.backpermute %xs to (%n) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    // expected-error@+1 {{'array.yield' op yields (index, i1), but region 'index' of 'array.backpermute' must yield (index)}}
    array.yield %i, %keep : index, i1
  }
  return
}

// -----

func.func @backpermute_not_yield(%xs: tensor<?xf32>, %n: index) {
  // expected-error@+1 {{'array.backpermute' op region 'index' must end with 'array.yield'}}
  %r = array.backpermute %xs to (%n) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    llvm.unreachable
  }
  return
}

//===----------------------------------------------------------------------===//
// permute
//===----------------------------------------------------------------------===//

// -----

func.func @permute_rank0_dest(%src: tensor<?xf32>, %dest: tensor<f32>) {
  // expected-error@+1 {{'array.permute' op cannot permute into a rank-0 destination}}
  %r = array.permute %src into %dest : tensor<?xf32> into tensor<f32> index {
  ^bb0(%i: index):
    array.yield
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

// The index region receives the source index.
func.func @permute_index_arguments(%src: tensor<?x?xf32>, %dest: tensor<?xf32>) {
  // expected-error@+1 {{'array.permute' op region 'index' must take arguments (index, index), but takes (index)}}
  %r = array.permute %src into %dest : tensor<?x?xf32> into tensor<?xf32> index {
  ^bb0(%i: index):
    array.yield %i : index
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

// The index region yields one index per destination dimension.
func.func @permute_index_yield(%src: tensor<?xf32>, %dest: tensor<?x?xf32>) {
  %r = array.permute %src into %dest : tensor<?xf32> into tensor<?x?xf32> index {
  ^bb0(%i: index):
    // expected-error@+1 {{'array.yield' op yields (index), but region 'index' of 'array.permute' must yield (index, index)}}
    array.yield %i : index
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

// The optional keep flag is an i1, and comes last.
func.func @permute_keep_flag_type(%src: tensor<?xf32>, %dest: tensor<?xf32>, %keep: i32) {
  %r = array.permute %src into %dest : tensor<?xf32> into tensor<?xf32> index {
  ^bb0(%i: index):
    // expected-error@+1 {{'array.yield' op yields (index, i32), but region 'index' of 'array.permute' must yield (index) or (index, i1) (target indices, then an optional keep flag)}}
    array.yield %i, %keep : index, i32
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

func.func @permute_keep_flag_first(%src: tensor<?xf32>, %dest: tensor<?xf32>, %keep: i1) {
  %r = array.permute %src into %dest : tensor<?xf32> into tensor<?xf32> index {
  ^bb0(%i: index):
    // expected-error@+1 {{'array.yield' op yields (i1, index), but region 'index' of 'array.permute' must yield (index) or (index, i1)}}
    array.yield %keep, %i : i1, index
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

func.func @permute_index_not_yield(%src: tensor<?xf32>, %dest: tensor<?xf32>) {
  // expected-error@+1 {{'array.permute' op region 'index' must end with 'array.yield'}}
  %r = array.permute %src into %dest : tensor<?xf32> into tensor<?xf32> index {
  ^bb0(%i: index):
    llvm.unreachable
  } combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

// The combine region takes (destination element, source element).
func.func @permute_combine_arguments(%src: tensor<?xi64>, %dest: tensor<?xi32>) {
  // expected-error@+1 {{'array.permute' op region 'combine' must take arguments (i32, i64), but takes (i64, i32)}}
  %r = array.permute %src into %dest : tensor<?xi64> into tensor<?xi32> index {
  ^bb0(%i: index):
    array.yield %i : index
  } combine {
  ^bb0(%new: i64, %old: i32):
    array.yield %old : i32
  }
  return
}

// -----

func.func @permute_combine_yield(%src: tensor<?xi64>, %dest: tensor<?xi32>) {
  %r = array.permute %src into %dest : tensor<?xi64> into tensor<?xi32> index {
  ^bb0(%i: index):
    array.yield %i : index
  } combine {
  ^bb0(%old: i32, %new: i64):
    // expected-error@+1 {{'array.yield' op yields (i64), but region 'combine' of 'array.permute' must yield (i32)}}
    array.yield %new : i64
  }
  return
}

// -----

func.func @permute_result_type(%src: tensor<?xf32>, %dest: tensor<?xf32>) {
  // expected-error@+1 {{'array.permute' op failed to verify that all of {dest, result} have same type}}
  %r = "array.permute"(%src, %dest) ({
  ^bb0(%i: index):
    "array.yield"(%i) : (index) -> ()
  }, {
  ^bb0(%old: f32, %new: f32):
    "array.yield"(%new) : (f32) -> ()
  }) : (tensor<?xf32>, tensor<?xf32>) -> tensor<5xf32>
  return
}

//===----------------------------------------------------------------------===//
// reverse
//===----------------------------------------------------------------------===//

// -----

func.func @reverse_rank0(%s: tensor<f32>) {
  // expected-error@+1 {{'array.reverse' op cannot reverse a rank-0 array}}
  %r = array.reverse %s : tensor<f32>
  return
}

// -----

func.func @reverse_result_type(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.reverse' op failed to verify that all of {input, result} have same type}}
  %r = "array.reverse"(%xs) : (tensor<?xf32>) -> tensor<3xf32>
  return
}

//===----------------------------------------------------------------------===//
// replicate
//===----------------------------------------------------------------------===//

// -----

func.func @replicate_rank(%xs: tensor<?xf32>, %n: index) {
  // expected-error@+1 {{'array.replicate' op result of type 'tensor<?xf32>' must be the input shape with one more innermost dimension (input type 'tensor<?xf32>')}}
  %r = array.replicate %xs, %n : tensor<?xf32> -> tensor<?xf32>
  return
}

// -----

// The new dimension is the innermost one, not the outermost one.
func.func @replicate_outer_dimension(%xs: tensor<3xf32>, %n: index) {
  // expected-error@+1 {{'array.replicate' op result of type 'tensor<4x3xf32>' must be the input shape with one more innermost dimension (input type 'tensor<3xf32>')}}
  %r = array.replicate %xs, %n : tensor<3xf32> -> tensor<4x3xf32>
  return
}

// -----

func.func @replicate_element_type(%xs: tensor<?xf32>, %n: index) {
  // expected-error@+1 {{'array.replicate' op result element type 'i32' differs from the input element type 'f32'}}
  %r = array.replicate %xs, %n : tensor<?xf32> -> tensor<?x?xi32>
  return
}

// -----

func.func @replicate_count_constant(%xs: tensor<?xf32>) {
  %c3 = arith.constant 3 : index
  // expected-error@+1 {{'array.replicate' op count is the constant 3, but the innermost result dimension is 4}}
  %r = array.replicate %xs, %c3 : tensor<?xf32> -> tensor<?x4xf32>
  return
}

// -----

func.func @replicate_count_not_index(%xs: tensor<?xf32>, %n: i64) {
  // expected-error@+1 {{'array.replicate' op operand #1 must be index, but got 'i64'}}
  %r = "array.replicate"(%xs, %n) : (tensor<?xf32>, i64) -> tensor<?x?xf32>
  return
}

// -----

// A negative constant is never a size, even for a dynamic dimension.
func.func @backpermute_negative_shape(%xs: tensor<?xf32>) {
  %c = arith.constant -1 : index
  // expected-error@+1 {{'array.backpermute' op shape operand #0 is the negative constant -1}}
  %r = array.backpermute %xs to (%c) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return
}

// -----

func.func @replicate_negative_count(%s: tensor<f32>) {
  %c = arith.constant -2 : index
  // expected-error@+1 {{'array.replicate' op count is the negative constant -2}}
  %r = array.replicate %s, %c : tensor<f32> -> tensor<?xf32>
  return
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// -----

func.func @transpose_rank0(%s: tensor<f32>) {
  // expected-error@+1 {{'array.transpose' op cannot transpose a rank-0 array}}
  %t = array.transpose %s [] : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @transpose_short_permutation(%m: tensor<?x?xf32>) {
  // expected-error@+1 {{'array.transpose' op permutation has 1 entries, but the input has rank 2}}
  %t = array.transpose %m [0] : tensor<?x?xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @transpose_not_a_permutation(%m: tensor<?x?xf32>) {
  // expected-error@+1 {{'array.transpose' op permutation must list each of the dimensions 0..1 once}}
  %t = array.transpose %m [1, 1] : tensor<?x?xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @transpose_out_of_range(%m: tensor<?x?xf32>) {
  // expected-error@+1 {{'array.transpose' op permutation must list each of the dimensions 0..1 once}}
  %t = array.transpose %m [0, 2] : tensor<?x?xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @transpose_shape(%m: tensor<2x3xf32>) {
  // expected-error@+1 {{'array.transpose' op result of type 'tensor<2x3xf32>' must have the input's dimensions in the permuted order (input type 'tensor<2x3xf32>')}}
  %t = array.transpose %m [1, 0] : tensor<2x3xf32> -> tensor<2x3xf32>
  return
}

// -----

func.func @transpose_element(%m: tensor<?x?xf32>) {
  // expected-error@+1 {{'array.transpose' op result element type 'f64' differs from the input element type 'f32'}}
  %t = array.transpose %m [1, 0] : tensor<?x?xf32> -> tensor<?x?xf64>
  return
}

//===----------------------------------------------------------------------===//
// slice
//===----------------------------------------------------------------------===//

// -----

func.func @slice_rank0(%s: tensor<f32>, %o: index) {
  // expected-error@+1 {{'array.slice' op cannot slice a rank-0 array}}
  %r = array.slice %s from %o size %o : tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @slice_outer(%m: tensor<2x?xf32>, %o: index) {
  // expected-error@+1 {{'array.slice' op result of type 'tensor<3x?xf32>' must have the input's outer dimensions (input type 'tensor<2x?xf32>')}}
  %r = array.slice %m from %o size %o : tensor<2x?xf32> -> tensor<3x?xf32>
  return
}

// -----

func.func @slice_negative_size(%xs: tensor<?xf32>, %o: index) {
  %c = arith.constant -1 : index
  // expected-error@+1 {{'array.slice' op size is the negative constant -1}}
  %r = array.slice %xs from %o size %c : tensor<?xf32> -> tensor<?xf32>
  return
}

// -----

func.func @slice_negative_offset(%xs: tensor<?xf32>, %n: index) {
  %c = arith.constant -2 : index
  // expected-error@+1 {{'array.slice' op offset is the negative constant -2}}
  %r = array.slice %xs from %c size %n : tensor<?xf32> -> tensor<?xf32>
  return
}

// -----

func.func @slice_static_size(%xs: tensor<?xf32>, %o: index) {
  %c = arith.constant 3 : index
  // expected-error@+1 {{'array.slice' op size is the constant 3, but the innermost result dimension is 4}}
  %r = array.slice %xs from %o size %c : tensor<?xf32> -> tensor<4xf32>
  return
}

// -----

func.func @slice_element(%xs: tensor<?xf32>, %o: index) {
  // expected-error@+1 {{'array.slice' op result element type 'i32' differs from the input element type 'f32'}}
  %r = array.slice %xs from %o size %o : tensor<?xf32> -> tensor<?xi32>
  return
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

// -----

func.func @reshape_rank0(%s: tensor<f32>, %n: index) {
  // expected-error@+1 {{'array.reshape' op reshapes arrays of rank 1 or more (input type 'tensor<f32>', result type 'tensor<?xf32>')}}
  %r = array.reshape %s to (%n) : tensor<f32> -> tensor<?xf32>
  return
}

// -----

func.func @reshape_extents(%xs: tensor<?xf32>, %n: index) {
  // expected-error@+1 {{'array.reshape' op has 1 extents for a result of rank 2}}
  %r = array.reshape %xs to (%n) : tensor<?xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_negative(%xs: tensor<?xf32>, %n: index) {
  %c = arith.constant -3 : index
  // expected-error@+1 {{'array.reshape' op extent 1 is the negative constant -3}}
  %r = array.reshape %xs to (%n, %c) : tensor<?xf32> -> tensor<?x?xf32>
  return
}

// -----

func.func @reshape_static_extent(%xs: tensor<?xf32>, %n: index) {
  %c = arith.constant 3 : index
  // expected-error@+1 {{'array.reshape' op extent 1 is the constant 3, but dimension 1 of the result is 4}}
  %r = array.reshape %xs to (%n, %c) : tensor<?xf32> -> tensor<?x4xf32>
  return
}

// -----

func.func @reshape_count(%xs: tensor<6xf32>) {
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  // expected-error@+1 {{'array.reshape' op cannot reshape 6 elements into 8}}
  %r = array.reshape %xs to (%c2, %c4) : tensor<6xf32> -> tensor<2x4xf32>
  return
}

// -----

func.func @reshape_element(%xs: tensor<?xf32>, %n: index) {
  // expected-error@+1 {{'array.reshape' op result element type 'f64' differs from the input element type 'f32'}}
  %r = array.reshape %xs to (%n) : tensor<?xf32> -> tensor<?xf64>
  return
}

//===----------------------------------------------------------------------===//
// concat
//===----------------------------------------------------------------------===//

// -----

func.func @concat_rank0(%a: tensor<f32>) {
  // expected-error@+1 {{'array.concat' op cannot concatenate rank-0 arrays}}
  %r = array.concat %a, %a : tensor<f32>, tensor<f32> -> tensor<f32>
  return
}

// -----

func.func @concat_outer(%a: tensor<2x?xf32>, %b: tensor<3x?xf32>) {
  // expected-error@+1 {{'array.concat' op operands of types 'tensor<2x?xf32>' and 'tensor<3x?xf32>' must have the same outer dimensions}}
  %r = array.concat %a, %b : tensor<2x?xf32>, tensor<3x?xf32> -> tensor<2x?xf32>
  return
}

// -----

func.func @concat_element(%a: tensor<?xf32>, %b: tensor<?xf64>) {
  // expected-error@+1 {{'array.concat' op operands and result must have one element type}}
  %r = array.concat %a, %b : tensor<?xf32>, tensor<?xf64> -> tensor<?xf32>
  return
}

// -----

func.func @concat_sum(%a: tensor<2xf32>, %b: tensor<3xf32>) {
  // expected-error@+1 {{'array.concat' op result of type 'tensor<6xf32>' must have the operands' outer dimensions and the sum of their innermost extents}}
  %r = array.concat %a, %b : tensor<2xf32>, tensor<3xf32> -> tensor<6xf32>
  return
}
