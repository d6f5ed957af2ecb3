// MLIR 22's parser crashes on a dense array of index elements; fuse-opt
// refuses it first (lit/dialect/driver-errors.mlir).
func.func @f() attributes {sizes = array<index: 1, 2>} {
  return
}
