// Verifier and parser errors of the core ops of the `array` dialect: map,
// generate, gather, scatter, force, size, dim, index and yield.
//
// RUN: fuse-opt %s --split-input-file --verify-diagnostics

//===----------------------------------------------------------------------===//
// map
//===----------------------------------------------------------------------===//

// The custom syntax cannot spell an empty input list; the generic form can.
func.func @map_no_input() {
  // expected-error@+1 {{'array.map' op needs at least one input array}}
  %r = "array.map"() ({
    %c = arith.constant 0.0 : f32
    "array.yield"(%c) : (f32) -> ()
  }) : () -> tensor<?xf32>
  return
}

// -----

func.func @map_no_result(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.map' op needs at least one result}}
  "array.map"(%xs) ({
  ^bb0(%x: f32):
    "array.yield"() : () -> ()
  }) : (tensor<?xf32>) -> ()
  return
}

// -----

func.func @map_input_shapes(%xs: tensor<?xf32>, %ys: tensor<?x?xf32>) {
  // expected-error@+1 {{'array.map' op input #1 of type 'tensor<?x?xf32>' does not have the shape of input #0 of type 'tensor<?xf32>'}}
  %r = array.map %xs, %ys : tensor<?xf32>, tensor<?x?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    array.yield %x : f32
  }
  return
}

// -----

func.func @map_static_input_shapes(%xs: tensor<4xf32>, %ys: tensor<5xf32>) {
  // expected-error@+1 {{input #1 of type 'tensor<5xf32>' does not have the shape of input #0 of type 'tensor<4xf32>'}}
  %r = array.map %xs, %ys : tensor<4xf32>, tensor<5xf32> -> tensor<4xf32> {
  ^bb0(%x: f32, %y: f32):
    array.yield %x : f32
  }
  return
}

// -----

func.func @map_result_shape(%xs: tensor<4xf32>) {
  // expected-error@+1 {{'array.map' op result #1 of type 'tensor<5xi1>' does not have the shape of input #0}}
  %r:2 = array.map %xs : tensor<4xf32> -> tensor<?xf32>, tensor<5xi1> {
  ^bb0(%x: f32):
    %t = arith.constant true
    array.yield %x, %t : f32, i1
  }
  return
}

// -----

func.func @map_block_arguments(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.map' op region 'body' must take arguments (f32), but takes (f64)}}
  %r = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f64):
    %y = arith.truncf %x : f64 to f32
    array.yield %y : f32
  }
  return
}

// -----

func.func @map_missing_block_argument(%xs: tensor<?xf32>, %is: tensor<?xi32>) {
  // expected-error@+1 {{region 'body' must take arguments (f32, i32), but takes (f32)}}
  %r = array.map %xs, %is : tensor<?xf32>, tensor<?xi32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    array.yield %x : f32
  }
  return
}

// -----

func.func @map_yield_types(%xs: tensor<?xf32>) {
  %r = array.map %xs : tensor<?xf32> -> tensor<?xi32> {
  ^bb0(%x: f32):
    // expected-error@+1 {{'array.yield' op yields (f32), but region 'body' of 'array.map' must yield (i32)}}
    array.yield %x : f32
  }
  return
}

// -----

func.func @map_yield_count(%xs: tensor<?xf32>) {
  %r:2 = array.map %xs : tensor<?xf32> -> tensor<?xf32>, tensor<?xf32> {
  ^bb0(%x: f32):
    // expected-error@+1 {{'array.yield' op yields (f32), but region 'body' of 'array.map' must yield (f32, f32)}}
    array.yield %x : f32
  }
  return
}

// -----

func.func @map_not_yield(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.map' op region 'body' must end with 'array.yield'}}
  %r = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    llvm.unreachable
  }
  return
}

// -----

func.func @map_two_blocks(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.map' op region #0 ('body') failed to verify constraint: region with 1 blocks}}
  %r = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
    cf.br ^bb1
  ^bb1:
    array.yield %x : f32
  }
  return
}

// -----

// ODS type constraint: inputs are ranked tensors.
func.func @map_non_tensor(%x: f32) {
  // expected-error@+1 {{'array.map' op operand #0 must be variadic of ranked tensor of any type values, but got 'f32'}}
  %r = "array.map"(%x) ({
  ^bb0(%e: f32):
    "array.yield"(%e) : (f32) -> ()
  }) : (f32) -> tensor<?xf32>
  return
}

// -----

// Unranked tensors are rejected (variadic operand types are parsed as any
// type, so this is the ODS verifier's error, not a parse error).
func.func @map_unranked(%xs: tensor<*xf32>) {
  // expected-error@+1 {{'array.map' op operand #0 must be variadic of ranked tensor of any type values, but got 'tensor<*xf32>'}}
  %r = array.map %xs : tensor<*xf32> -> tensor<*xf32> {
  ^bb0(%x: f32):
    array.yield %x : f32
  }
  return
}

//===----------------------------------------------------------------------===//
// generate
//===----------------------------------------------------------------------===//

// -----

func.func @generate_no_result(%n: index) {
  // expected-error@+1 {{'array.generate' op needs at least one result}}
  "array.generate"(%n) ({
  ^bb0(%i: index):
    "array.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @generate_shape_rank(%n: index) {
  // expected-error@+1 {{'array.generate' op has 1 shape operand(s), but result #0 of type 'tensor<?x?xf32>' has rank 2}}
  %r = array.generate (%n) : tensor<?x?xf32> {
  ^bb0(%i: index):
    %c = arith.constant 0.0 : f32
    array.yield %c : f32
  }
  return
}

// -----

func.func @generate_shape_constant() {
  %c5 = arith.constant 5 : index
  // expected-error@+1 {{'array.generate' op shape operand #0 is the constant 5, but dimension 0 of result #0 is 4}}
  %r = array.generate (%c5) : tensor<4xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return
}

// -----

func.func @generate_result_shapes(%n: index) {
  // expected-error@+1 {{'array.generate' op result #1 of type 'tensor<?x?xi64>' does not have the shape of result #0}}
  %r:2 = array.generate (%n) : tensor<?xindex>, tensor<?x?xi64> {
  ^bb0(%i: index):
    %c = arith.constant 0 : i64
    array.yield %i, %c : index, i64
  }
  return
}

// -----

func.func @generate_block_arguments(%m: index, %n: index) {
  // expected-error@+1 {{'array.generate' op region 'body' must take arguments (index, index), but takes (index)}}
  %r = array.generate (%m, %n) : tensor<?x?xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return
}

// -----

func.func @generate_yield(%n: index) {
  %r = array.generate (%n) : tensor<?xf32> {
  ^bb0(%i: index):
    // expected-error@+1 {{'array.yield' op yields (index), but region 'body' of 'array.generate' must yield (f32)}}
    array.yield %i : index
  }
  return
}

// -----

// ODS type constraint: shape operands are of type index.
func.func @generate_shape_not_index(%n: i64) {
  // expected-error@+1 {{'array.generate' op operand #0 must be variadic of index, but got 'i64'}}
  %r = "array.generate"(%n) ({
  ^bb0(%i: index):
    "array.yield"(%i) : (index) -> ()
  }) : (i64) -> tensor<?xindex>
  return
}

//===----------------------------------------------------------------------===//
// gather
//===----------------------------------------------------------------------===//

// -----

func.func @gather_index_count(%xs: tensor<?x?xf32>, %is: tensor<?xindex>) {
  // expected-error@+1 {{'array.gather' op needs one index array per source dimension: the source of type 'tensor<?x?xf32>' has rank 2, but 1 index array(s) are given}}
  %r = array.gather %xs[%is] : tensor<?x?xf32>[tensor<?xindex>] -> tensor<?xf32>
  return
}

// -----

// The custom syntax cannot spell an empty index-array type list.
func.func @gather_rank0(%s: tensor<f32>) {
  // expected-error@+1 {{'array.gather' op cannot gather from a rank-0 source}}
  %r = "array.gather"(%s) : (tensor<f32>) -> tensor<f32>
  return
}

// -----

func.func @gather_index_shapes(%xs: tensor<?x?xf32>, %is: tensor<?xindex>, %js: tensor<4x4xindex>) {
  // expected-error@+1 {{'array.gather' op index array #1 of type 'tensor<4x4xindex>' does not have the shape of index array #0 of type 'tensor<?xindex>'}}
  %r = array.gather %xs[%is, %js] : tensor<?x?xf32>[tensor<?xindex>, tensor<4x4xindex>] -> tensor<?xf32>
  return
}

// -----

func.func @gather_result_shape(%xs: tensor<?xf32>, %is: tensor<8xi32>) {
  // expected-error@+1 {{'array.gather' op result of type 'tensor<7xf32>' does not have the shape of the index arrays 'tensor<8xi32>'}}
  %r = array.gather %xs[%is] : tensor<?xf32>[tensor<8xi32>] -> tensor<7xf32>
  return
}

// -----

func.func @gather_element_type(%xs: tensor<?xf32>, %is: tensor<?xindex>) {
  // expected-error@+1 {{'array.gather' op result element type 'f64' differs from the source element type 'f32'}}
  %r = array.gather %xs[%is] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf64>
  return
}

// -----

// ODS type constraint: index arrays have index or signless integer elements.
func.func @gather_float_indices(%xs: tensor<?xf32>, %is: tensor<?xf32>) {
  // expected-error@+1 {{'array.gather' op operand #1 must be variadic of ranked tensor of index or signless integer values, but got 'tensor<?xf32>'}}
  %r = array.gather %xs[%is] : tensor<?xf32>[tensor<?xf32>] -> tensor<?xf32>
  return
}

// -----

func.func @gather_signed_indices(%xs: tensor<?xf32>, %is: tensor<?xsi32>) {
  // expected-error@+1 {{'array.gather' op operand #1 must be variadic of ranked tensor of index or signless integer values, but got 'tensor<?xsi32>'}}
  %r = array.gather %xs[%is] : tensor<?xf32>[tensor<?xsi32>] -> tensor<?xf32>
  return
}

//===----------------------------------------------------------------------===//
// scatter
//===----------------------------------------------------------------------===//

// -----

func.func @scatter_index_count(%d: tensor<?x?xf32>, %is: tensor<?xindex>, %vs: tensor<?xf32>) {
  // expected-error@+1 {{'array.scatter' op needs one index array per destination dimension: the destination of type 'tensor<?x?xf32>' has rank 2, but 1 index array(s) are given}}
  %r = array.scatter %d[%is], %vs : tensor<?x?xf32>[tensor<?xindex>], tensor<?xf32> combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

func.func @scatter_rank0(%d: tensor<f32>, %vs: tensor<?xf32>) {
  // expected-error@+1 {{'array.scatter' op cannot scatter into a rank-0 destination}}
  %r = "array.scatter"(%d, %vs) <{operandSegmentSizes = array<i32: 1, 0, 0, 1>}> ({
  ^bb0(%old: f32, %new: f32):
    "array.yield"(%new) : (f32) -> ()
  }) : (tensor<f32>, tensor<?xf32>) -> tensor<f32>
  return
}

// -----

func.func @scatter_index_shapes(%d: tensor<?x?xf32>, %is: tensor<3xindex>, %js: tensor<4xindex>, %vs: tensor<?xf32>) {
  // expected-error@+1 {{'array.scatter' op index array #1 of type 'tensor<4xindex>' does not have the shape of index array #0 of type 'tensor<3xindex>'}}
  %r = array.scatter %d[%is, %js], %vs : tensor<?x?xf32>[tensor<3xindex>, tensor<4xindex>], tensor<?xf32> combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

func.func @scatter_values_shape(%d: tensor<?xf32>, %is: tensor<?xindex>, %vs: tensor<?x?xf32>) {
  // expected-error@+1 {{'array.scatter' op values of type 'tensor<?x?xf32>' do not have the shape of the index arrays 'tensor<?xindex>'}}
  %r = array.scatter %d[%is], %vs : tensor<?xf32>[tensor<?xindex>], tensor<?x?xf32> combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

func.func @scatter_block_arguments(%d: tensor<?xf32>, %is: tensor<?xindex>, %vs: tensor<?xi32>) {
  // expected-error@+1 {{'array.scatter' op region 'combine' must take arguments (f32, i32), but takes (f32, f32)}}
  %r = array.scatter %d[%is], %vs : tensor<?xf32>[tensor<?xindex>], tensor<?xi32> combine {
  ^bb0(%old: f32, %new: f32):
    array.yield %new : f32
  }
  return
}

// -----

func.func @scatter_yield(%d: tensor<?xf32>, %is: tensor<?xindex>, %vs: tensor<?xi32>) {
  %r = array.scatter %d[%is], %vs : tensor<?xf32>[tensor<?xindex>], tensor<?xi32> combine {
  ^bb0(%old: f32, %new: i32):
    // expected-error@+1 {{'array.yield' op yields (i32), but region 'combine' of 'array.scatter' must yield (f32)}}
    array.yield %new : i32
  }
  return
}

// -----

// ODS: the result has the type of the destination (only the generic form can
// spell a different one).
func.func @scatter_result_type(%d: tensor<?xf32>, %is: tensor<?xindex>, %vs: tensor<?xf32>) {
  // expected-error@+1 {{'array.scatter' op failed to verify that all of {dest, result} have same type}}
  %r = "array.scatter"(%d, %is, %vs) <{operandSegmentSizes = array<i32: 1, 1, 0, 1>}> ({
  ^bb0(%old: f32, %new: f32):
    "array.yield"(%new) : (f32) -> ()
  }) : (tensor<?xf32>, tensor<?xindex>, tensor<?xf32>) -> tensor<4xf32>
  return
}

//===----------------------------------------------------------------------===//
// force, size, dim, index
//===----------------------------------------------------------------------===//

// -----

func.func @force_non_tensor(%x: f32) {
  // expected-error@+1 {{custom op 'array.force' invalid kind of type specified: expected builtin.tensor, but found 'f32'}}
  %r = array.force %x : f32
  return
}

// -----

func.func @force_non_tensor_generic(%x: f32) {
  // expected-error@+1 {{'array.force' op operand #0 must be ranked tensor of any type values, but got 'f32'}}
  %r = "array.force"(%x) : (f32) -> f32
  return
}

// -----

func.func @force_result_type(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.force' op failed to verify that all of {input, result} have same type}}
  %r = "array.force"(%xs) : (tensor<?xf32>) -> tensor<4xf32>
  return
}

// -----

// array.size infers one index per dimension.
func.func @size_result_count(%xs: tensor<?xf32>) {
  // expected-error@+2 {{'array.size' op inferred type(s) 'index' are incompatible with return type(s) of operation 'index', 'index'}}
  // expected-error@+1 {{'array.size' op failed to infer returned types}}
  %a:2 = "array.size"(%xs) : (tensor<?xf32>) -> (index, index)
  return
}

// -----

func.func @dim_out_of_range(%xs: tensor<?x4xf32>) {
  // expected-error@+1 {{'array.dim' op dimension 2 is out of range for 'tensor<?x4xf32>' of rank 2}}
  %d = array.dim %xs, 2 : tensor<?x4xf32>
  return
}

// -----

func.func @dim_rank0(%s: tensor<f32>) {
  // expected-error@+1 {{'array.dim' op dimension 0 is out of range for 'tensor<f32>' of rank 0}}
  %d = array.dim %s, 0 : tensor<f32>
  return
}

// -----

func.func @index_count(%xs: tensor<?x?xf32>, %i: index) {
  // expected-error@+1 {{'array.index' op needs 2 index value(s) for 'tensor<?x?xf32>', but 1 are given}}
  %v = array.index %xs[%i] : tensor<?x?xf32>
  return
}

// -----

func.func @index_rank0_with_index(%s: tensor<f32>, %i: index) {
  // expected-error@+1 {{'array.index' op needs 0 index value(s) for 'tensor<f32>', but 1 are given}}
  %v = array.index %s[%i] : tensor<f32>
  return
}

// -----

func.func @index_result_type(%xs: tensor<?xf32>, %i: index) {
  // expected-error@+1 {{'array.index' op failed to verify that result is the element type of the array}}
  %v = "array.index"(%xs, %i) : (tensor<?xf32>, index) -> f64
  return
}

// -----

func.func @index_not_index(%xs: tensor<?xf32>, %i: i64) {
  // expected-error@+1 {{'array.index' op operand #1 must be variadic of index, but got 'i64'}}
  %v = "array.index"(%xs, %i) : (tensor<?xf32>, i64) -> f32
  return
}

//===----------------------------------------------------------------------===//
// yield
//===----------------------------------------------------------------------===//

// -----

func.func @yield_outside_combinator() {
  // expected-error@+1 {{'array.yield' op expects parent op to be one of 'array.map, array.generate, array.scatter, array.fold, array.scan, array.filter, array.expand, array.backpermute, array.permute, array.cluster, array.vertical, array.horizontal, array.diagonal'}}
  array.yield
}

// -----

func.func @yield_in_scf(%c: i1) {
  scf.if %c {
    // expected-error@+1 {{'array.yield' op expects parent op to be one of}}
    array.yield
  }
  return
}

// -----

func.func @generate_negative_shape() {
  %c = arith.constant -1 : index
  // expected-error@+1 {{'array.generate' op shape operand #0 is the negative constant -1}}
  %r = array.generate (%c) : tensor<?xindex> {
  ^bb0(%i: index):
    array.yield %i : index
  }
  return
}

// -----

func.func @dim_negative(%xs: tensor<?xf32>) {
  // expected-error@+1 {{'array.dim' op dimension -1 is out of range for 'tensor<?xf32>' of rank 1}}
  %n = array.dim %xs, -1 : tensor<?xf32>
  return
}

// -----

func.func @scatter_keep_shape(%d: tensor<?xi64>, %is: tensor<4xi64>, %ks: tensor<5xi1>, %vs: tensor<4xi64>) -> tensor<?xi64> {
  // expected-error@+1 {{'array.scatter' op keep flags of type 'tensor<5xi1>' do not have the shape of the index arrays 'tensor<4xi64>'}}
  %r = array.scatter %d[%is] keep(%ks : tensor<5xi1>), %vs : tensor<?xi64>[tensor<4xi64>], tensor<4xi64> combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %r : tensor<?xi64>
}

// -----

func.func @scatter_keep_type(%d: tensor<?xi64>, %is: tensor<?xi64>, %ks: tensor<?xi64>, %vs: tensor<?xi64>) -> tensor<?xi64> {
  // expected-error@+1 {{'array.scatter' op operand #2 must be ranked tensor of 1-bit signless integer values, but got 'tensor<?xi64>'}}
  %r = "array.scatter"(%d, %is, %ks, %vs) <{operandSegmentSizes = array<i32: 1, 1, 1, 1>}> ({
  ^bb0(%old: i64, %new: i64):
    "array.yield"(%new) : (i64) -> ()
  }) : (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) -> tensor<?xi64>
  return %r : tensor<?xi64>
}
