func.func @gatherSum() -> i64 {
  %n = arith.constant 8 : index
  %m = arith.constant 6 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c3 = arith.constant 3 : i64
    %c1 = arith.constant 1 : i64
    %t = arith.muli %v, %c3 : i64
    %u = arith.addi %t, %c1 : i64
    array.yield %u : i64
  }
  %is = array.generate (%m) : tensor<?xi32> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i32
    %c5 = arith.constant 5 : i32
    %c8 = arith.constant 8 : i32
    %t = arith.muli %v, %c5 : i32
    %u = arith.remui %t, %c8 : i32
    array.yield %u : i32
  }
  %ys = array.gather %xs[%is] : tensor<?xi64>[tensor<?xi32>] -> tensor<?xi64>
  %s = array.fold %ys init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
