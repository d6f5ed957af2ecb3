func.func @expand3() -> i64 {
  %n = arith.constant 4 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c1 = arith.constant 1 : i64
    %w = arith.addi %v, %c1 : i64
    array.yield %w : i64
  }
  %c3 = arith.constant 3 : index
  %ys = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%a: i64):
    array.yield %c3 : index
  } get {
  ^bb0(%a: i64, %j: index):
    %jj = arith.index_cast %j : index to i64
    %y = arith.muli %a, %jj : i64
    array.yield %y : i64
  }
  %s = array.fold %ys init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
