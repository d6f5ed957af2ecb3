// Malformed input for driver-errors.mlir: the yield lacks its ':' before the
// type list (line 7, column 20). Keep the line and column in sync with the
// CHECK lines of driver-errors.mlir.
func.func @malformed(%xs: tensor<?xf32>) -> tensor<?xf32> {
  %ys = array.map %xs : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32):
     array.yield %x f32
  }
  return %ys : tensor<?xf32>
}
