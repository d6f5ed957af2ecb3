func.func @chain() -> i64 {
  %n = arith.constant 8 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %odd = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c1 = arith.constant 1 : i64
    %b = arith.andi %x, %c1 : i64
    %p = arith.cmpi eq, %b, %c1 : i64
    array.yield %p : i1
  }
  %none = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c100 = arith.constant 100 : i64
    %p = arith.cmpi sgt, %x, %c100 : i64
    array.yield %p : i1
  }
  %ys = array.expand %odd : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%a: i64):
    %k = arith.index_cast %a : i64 to index
    array.yield %k : index
  } get {
  ^bb0(%a: i64, %j: index):
    %jj = arith.index_cast %j : index to i64
    array.yield %jj : i64
  }
  %s, %cnt = array.fold %ys, %ys init(%z, %z : i64, i64) : tensor<?xi64>, tensor<?xi64> -> tensor<i64>, tensor<i64> {
  ^bb0(%a: i64, %c: i64, %y: i64, %y2: i64):
    %one = arith.constant 1 : i64
    %a2 = arith.addi %a, %y : i64
    %c2 = arith.addi %c, %one : i64
    array.yield %a2, %c2 : i64, i64
  }
  %e, %ecnt = array.fold %none, %none init(%z, %z : i64, i64) : tensor<?xi64>, tensor<?xi64> -> tensor<i64>, tensor<i64> {
  ^bb0(%a: i64, %c: i64, %y: i64, %y2: i64):
    %one = arith.constant 1 : i64
    %a2 = arith.addi %a, %y : i64
    %c2 = arith.addi %c, %one : i64
    array.yield %a2, %c2 : i64, i64
  }
  %x = tensor.extract %s[] : tensor<i64>
  %c = tensor.extract %cnt[] : tensor<i64>
  %ex = tensor.extract %e[] : tensor<i64>
  %ec = tensor.extract %ecnt[] : tensor<i64>
  %m10000 = arith.constant 10000 : i64
  %m100 = arith.constant 100 : i64
  %m10 = arith.constant 10 : i64
  %x4 = arith.muli %x, %m10000 : i64
  %c2 = arith.muli %c, %m100 : i64
  %e1 = arith.muli %ex, %m10 : i64
  %t = arith.addi %x4, %c2 : i64
  %u = arith.addi %t, %e1 : i64
  %r = arith.addi %u, %ec : i64
  return %r : i64
}
