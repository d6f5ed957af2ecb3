// Well-formed but invalid input for driver-errors.mlir: the fold keeps the
// innermost dimension (line 5, column 8). Keep the line and column in sync
// with the CHECK lines of driver-errors.mlir.
func.func @invalid(%xs: tensor<?xf32>, %z: f32) -> tensor<?xf32> {
  %r = array.fold %xs init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    array.yield %acc : f32
  }
  return %r : tensor<?xf32>
}
