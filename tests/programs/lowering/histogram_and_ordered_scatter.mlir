func.func @histogram() -> i64 {
  %n = arith.constant 10 : index
  %b = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %k = arith.constant 1000 : i64
  %is = array.generate (%n) : tensor<?xi32> {
  ^bb0(%i: index):
    %sq = arith.muli %i, %i : index
    %c5 = arith.constant 5 : index
    %m = arith.remui %sq, %c5 : index
    %v = arith.index_cast %m : index to i32
    array.yield %v : i32
  }
  %ones, %vs = array.generate (%n) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%i: index):
    %o = arith.constant 1 : i64
    %v = arith.index_cast %i : index to i64
    array.yield %o, %v : i64, i64
  }
  %zeros = array.generate (%b) : tensor<?xi64> {
  ^bb0(%i: index):
    %o = arith.constant 0 : i64
    array.yield %o : i64
  }
  %zeros2 = array.generate (%b) : tensor<?xi64> {
  ^bb0(%i: index):
    %o = arith.constant 0 : i64
    array.yield %o : i64
  }
  %h = array.scatter %zeros[%is], %ones : tensor<?xi64>[tensor<?xi32>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  %o = array.scatter %zeros2[%is], %vs : tensor<?xi64>[tensor<?xi32>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %t = arith.muli %old, %ten : i64
    %s = arith.addi %t, %new : i64
    array.yield %s : i64
  }
  %hf = array.fold %h init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.muli %acc, %k : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %of = array.fold %o init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %u = arith.addi %acc, %x : i64
    array.yield %u : i64
  }
  %a = tensor.extract %hf[] : tensor<i64>
  %c = tensor.extract %of[] : tensor<i64>
  %r = arith.addi %a, %c : i64
  return %r : i64
}
