// Input of driver-split-input-file.mlir: three chunks, the second of which
// does not verify (line 12, column 8). Keep the line and column in sync with
// the CHECK lines of driver-split-input-file.mlir.
func.func @first(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = array.reverse %xs : tensor<?xf32>
  return %r : tensor<?xf32>
}

// -----

func.func @second(%s: tensor<f32>) -> tensor<f32> {
  %r = array.reverse %s : tensor<f32>
  return %r : tensor<f32>
}

// -----

func.func @third(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %r = array.force %xs : tensor<?xf32>
  return %r : tensor<?xf32>
}
