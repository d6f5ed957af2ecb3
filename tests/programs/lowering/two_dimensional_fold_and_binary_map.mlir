func.func @rows() -> i64 {
  %r3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i64
  %lo = arith.constant -1000 : i64
  %m = array.generate (%r3, %c4) : tensor<?x4xi64> {
  ^bb0(%i: index, %j: index):
    %a = arith.index_cast %i : index to i64
    %b = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %t = arith.muli %a, %c10 : i64
    %u = arith.addi %t, %b : i64
    array.yield %u : i64
  }
  %sums, %maxs = array.fold %m, %m init(%z, %lo : i64, i64) : tensor<?x4xi64>, tensor<?x4xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%s: i64, %mx: i64, %x: i64, %y: i64):
    %a = arith.addi %s, %x : i64
    %b = arith.maxsi %mx, %y : i64
    array.yield %a, %b : i64, i64
  }
  %d, %e = array.map %sums, %maxs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%s: i64, %mx: i64):
    %a = arith.subi %s, %mx : i64
    %b = arith.muli %mx, %mx : i64
    array.yield %a, %b : i64, i64
  }
  %ri = array.generate (%r3) : tensor<?xindex> {
  ^bb0(%k: index):
    array.yield %k : index
  }
  %ci = array.generate (%r3) : tensor<?xi64> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i64
    array.yield %v : i64
  }
  %diag = array.gather %m[%ri, %ci] : tensor<?x4xi64>[tensor<?xindex>, tensor<?xi64>] -> tensor<?xi64>
  %w = array.map %d, %e, %diag : tensor<?xi64>, tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64, %g: i64):
    %p = arith.muli %x, %g : i64
    %b = arith.addi %p, %y : i64
    array.yield %b : i64
  }
  %t = array.fold %w init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %t[] : tensor<i64>
  return %r : i64
}
