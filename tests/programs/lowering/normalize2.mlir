func.func @normalize2() -> i64 {
  %n = arith.constant 20 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c7 = arith.constant 7 : i64
    %c11 = arith.constant 11 : i64
    %c5 = arith.constant 5 : i64
    %m = arith.muli %v, %c7 : i64
    %r = arith.remsi %m, %c11 : i64
    %x = arith.subi %r, %c5 : i64
    array.yield %x : i64
  }
  %sum1 = array.fold %xs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %p = arith.cmpi sgt, %x, %z : i64
    array.yield %p : i1
  }
  %sum2 = array.fold %gts init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %ys1 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = array.index %sum1[] : tensor<i64>
    %c100 = arith.constant 100 : i64
    %y = arith.muli %x, %c100 : i64
    %q = arith.addi %y, %s : i64
    array.yield %q : i64
  }
  %ys2 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = array.index %sum2[] : tensor<i64>
    %y = arith.muli %x, %s : i64
    array.yield %y : i64
  }
  %t1 = array.fold %ys1 init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %t2 = array.fold %ys2 init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %len = array.dim %gts, 0 : tensor<?xi64>
  %a = tensor.extract %t1[] : tensor<i64>
  %b = tensor.extract %t2[] : tensor<i64>
  %l = arith.index_cast %len : index to i64
  %m6 = arith.constant 1000000 : i64
  %m3 = arith.constant 1000 : i64
  %a6 = arith.muli %a, %m6 : i64
  %b3 = arith.muli %b, %m3 : i64
  %t = arith.addi %a6, %b3 : i64
  %r = arith.addi %t, %l : i64
  return %r : i64
}
