func.func @simple4() -> i64 {
  %n = arith.constant 6 : index
  %m = arith.constant 5 : index
  %k = arith.constant 4 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n, %m) : tensor<?x?xi64> {
  ^bb0(%i: index, %j: index):
    %a = arith.index_cast %i : index to i64
    %b = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %t = arith.muli %a, %c10 : i64
    %v = arith.addi %t, %b : i64
    array.yield %v : i64
  }
  %is = array.generate (%k) : tensor<?xindex> {
  ^bb0(%i: index):
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %t = arith.muli %i, %c5 : index
    %r = arith.remui %t, %c6 : index
    array.yield %r : index
  }
  %sums = array.fold %xs init(%z : i64) : tensor<?x?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %g = array.gather %sums[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  %w = array.generate (%k) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c1 = arith.constant 1 : i64
    %c1000 = arith.constant 1000 : i64
    %p = arith.addi %v, %c1 : i64
    %e = arith.muli %p, %c1000 : i64
    array.yield %e : i64
  }
  %h = array.map %g, %w : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %y = arith.muli %a, %b : i64
    array.yield %y : i64
  }
  %r = array.fold %h init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %e = tensor.extract %r[] : tensor<i64>
  return %e : i64
}
