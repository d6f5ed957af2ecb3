func.func @shared() -> i64 {
  %n = arith.constant 7 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %t = arith.muli %x, %c2 : i64
    %u = arith.addi %t, %c1 : i64
    array.yield %u : i64
  }
  %qs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %q = arith.muli %x, %x : i64
    array.yield %q : i64
  }
  %s1 = array.fold %ys init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %s2 = array.fold %qs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %ds = array.map %ys, %qs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64, %q: i64):
    %d = arith.subi %y, %q : i64
    array.yield %d : i64
  }
  %s3 = array.fold %ds init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %a = tensor.extract %s1[] : tensor<i64>
  %b = tensor.extract %s2[] : tensor<i64>
  %c = tensor.extract %s3[] : tensor<i64>
  %k4 = arith.constant 10000 : i64
  %k2 = arith.constant 100 : i64
  %p = arith.muli %a, %k4 : i64
  %q = arith.muli %b, %k2 : i64
  %pq = arith.addi %p, %q : i64
  %r = arith.addi %pq, %c : i64
  return %r : i64
}
