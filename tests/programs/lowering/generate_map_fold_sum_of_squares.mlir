func.func @sumSquares() -> i64 {
  %n = arith.constant 10 : index
  %z = arith.constant 0 : i64
  %is = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %sq = array.map %is : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %s = array.fold %sq init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
