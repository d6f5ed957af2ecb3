func.func @filterTwo() -> i64 {
  %n = arith.constant 10 : index
  %z = arith.constant 0 : i64
  %z32 = arith.constant 0 : i32
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %ys = array.generate (%n) : tensor<?xi32> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    %s = arith.muli %v, %v : i32
    array.yield %s : i32
  }
  %fx, %fy = array.filter %xs, %ys : tensor<?xi64>, tensor<?xi32> -> tensor<?xi64>, tensor<?xi32> {
  ^bb0(%x: i64, %y: i32):
    %c2 = arith.constant 2 : i64
    %c10 = arith.constant 10 : i32
    %r = arith.remsi %x, %c2 : i64
    %c1 = arith.constant 1 : i64
    %odd = arith.cmpi eq, %r, %c1 : i64
    %big = arith.cmpi sgt, %y, %c10 : i32
    %p = arith.andi %odd, %big : i1
    array.yield %p : i1
  }
  %sx = array.fold %fx init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %sy = array.fold %fy init(%z32 : i32) : tensor<?xi32> -> tensor<i32> {
  ^bb0(%acc: i32, %y: i32):
    %a = arith.addi %acc, %y : i32
    array.yield %a : i32
  }
  %cnt = array.fold %fx init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %one = arith.constant 1 : i64
    %a = arith.addi %acc, %one : i64
    array.yield %a : i64
  }
  %a = tensor.extract %sx[] : tensor<i64>
  %b32 = tensor.extract %sy[] : tensor<i32>
  %b = arith.extsi %b32 : i32 to i64
  %c = tensor.extract %cnt[] : tensor<i64>
  %m6 = arith.constant 1000000 : i64
  %m3 = arith.constant 1000 : i64
  %a6 = arith.muli %a, %m6 : i64
  %b3 = arith.muli %b, %m3 : i64
  %t = arith.addi %a6, %b3 : i64
  %r = arith.addi %t, %c : i64
  return %r : i64
}
