func.func @permuteKeep() -> i64 {
  %n = arith.constant 10 : index
  %m = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %vs, %ts = array.generate (%n) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i64
    %sq = arith.muli %v, %v : i64
    %c5 = arith.constant 5 : i64
    %t = arith.remsi %sq, %c5 : i64
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %is3 = arith.cmpi eq, %k, %c3 : index
    %is8 = arith.cmpi eq, %k, %c8 : index
    %drop = arith.ori %is3, %is8 : i1
    %nothing = arith.constant -1 : i64
    %target = arith.select %drop, %nothing, %t : i64
    array.yield %v, %target : i64, i64
  }
  %dest = array.generate (%m) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %h = arith.constant 100 : i64
    %d = arith.addi %v, %h : i64
    array.yield %d : i64
  }
  %p = array.permute %vs into %dest : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%i: index):
    %nothing = arith.constant -1 : i64
    %t = array.index %ts[%i] : tensor<?xi64>
    %keep = arith.cmpi ne, %t, %nothing : i64
    %ti = arith.index_cast %t : i64 to index
    array.yield %ti, %keep : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %o = arith.muli %old, %ten : i64
    %s = arith.addi %o, %new : i64
    array.yield %s : i64
  }
  %h = array.fold %p init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %t = arith.muli %acc, %c31 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %r = tensor.extract %h[] : tensor<i64>
  return %r : i64
}
