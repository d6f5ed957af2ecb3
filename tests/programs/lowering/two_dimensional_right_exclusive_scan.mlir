func.func @scan2d() -> i64 {
  %r3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %k = arith.constant 1000 : i64
  %m = array.generate (%r3, %c4) : tensor<?x?xi64> {
  ^bb0(%i: index, %j: index):
    %a = arith.index_cast %i : index to i64
    %b = arith.index_cast %j : index to i64
    %ten = arith.constant 10 : i64
    %t = arith.muli %a, %ten : i64
    %u = arith.addi %t, %b : i64
    array.yield %u : i64
  }
  %s = array.scan right exclusive %m init(%one : i64) : tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%a: i64, %x: i64):
    %t = arith.muli %a, %c2 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %rows = array.fold %s init(%z : i64) : tensor<?x?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.muli %acc, %k : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %all = array.fold %rows init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %u = arith.addi %acc, %x : i64
    array.yield %u : i64
  }
  %r = tensor.extract %all[] : tensor<i64>
  return %r : i64
}
