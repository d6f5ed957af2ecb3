func.func @simple1() -> i64 {
  %n = arith.constant 8 : index
  %z = arith.constant 0 : i64
  %k = arith.constant 100 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %is = array.generate (%n) : tensor<?xi32> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %t = arith.muli %i, %c3 : index
    %m = arith.remui %t, %c8 : index
    %v = arith.index_cast %m : index to i32
    array.yield %v : i32
  }
  %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %x, %c2 : i64
    %a = arith.addi %twice, %c1 : i64
    array.yield %a : i64
  }
  %bs = array.gather %as[%is] : tensor<?xi64>[tensor<?xi32>] -> tensor<?xi64>
  %s = array.fold %bs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.muli %acc, %k : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
