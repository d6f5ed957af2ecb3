func.func @expandVar() -> i64 {
  %n = arith.constant 6 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %ys, %js = array.expand %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c3 = arith.constant 3 : i64
    %r = arith.remsi %a, %c3 : i64
    %k = arith.index_cast %r : i64 to index
    array.yield %k : index
  } get {
  ^bb0(%a: i64, %j: index):
    %jj = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %t = arith.muli %a, %c10 : i64
    %y = arith.addi %t, %jj : i64
    array.yield %y, %jj : i64, i64
  }
  %s, %sj, %cnt = array.fold %ys, %js, %ys init(%z, %z, %z : i64, i64, i64) : tensor<?xi64>, tensor<?xi64>, tensor<?xi64> -> tensor<i64>, tensor<i64>, tensor<i64> {
  ^bb0(%a: i64, %b: i64, %c: i64, %y: i64, %j: i64, %y2: i64):
    %one = arith.constant 1 : i64
    %a2 = arith.addi %a, %y : i64
    %b2 = arith.addi %b, %j : i64
    %c2 = arith.addi %c, %one : i64
    array.yield %a2, %b2, %c2 : i64, i64, i64
  }
  %x = tensor.extract %s[] : tensor<i64>
  %y = tensor.extract %sj[] : tensor<i64>
  %c = tensor.extract %cnt[] : tensor<i64>
  %m1000 = arith.constant 1000 : i64
  %m100 = arith.constant 100 : i64
  %x3 = arith.muli %x, %m1000 : i64
  %y2 = arith.muli %y, %m100 : i64
  %t = arith.addi %x3, %y2 : i64
  %r = arith.addi %t, %c : i64
  return %r : i64
}
