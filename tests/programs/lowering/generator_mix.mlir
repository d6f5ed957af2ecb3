func.func @mix() -> i64 {
  %n = arith.constant 9 : index
  %c0 = arith.constant 0 : i64
  %a0 = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c3 = arith.constant 3 : i64
    %c4 = arith.constant 4 : i64
    %m = arith.muli %v, %c3 : i64
    %x = arith.subi %m, %c4 : i64
    array.yield %x : i64
  }
  %n1 = array.dim %a0, 0 : tensor<?xi64>
  %is1 = array.generate (%n1) : tensor<?xindex> {
  ^bb0(%j: index):
    %c1 = arith.constant 1 : index
    %m = arith.subi %n1, %j : index
    %k = arith.subi %m, %c1 : index
    array.yield %k : index
  }
  %v1 = array.gather %a0[%is1] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  %v2 = array.scan left inclusive %v1 init(%c0 : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %v3 = array.scan right exclusive %a0 init(%c0 : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %v4 = array.filter %v2 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %p = arith.cmpi sgt, %x, %c0 : i64
    array.yield %p : i1
  }
  %v5 = array.map %v4, %v4 : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %t = arith.addi %x, %y : i64
    %u = arith.muli %t, %y : i64
    array.yield %u : i64
  }
  %f1 = array.fold %v5 init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %f2 = array.fold %v3 init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %a = tensor.extract %f1[] : tensor<i64>
  %b = tensor.extract %f2[] : tensor<i64>
  %m = arith.constant 100000 : i64
  %am = arith.muli %a, %m : i64
  %r = arith.addi %am, %b : i64
  return %r : i64
}
