func.func @fusedWriters() -> i64 {
  %n = arith.constant 10 : index
  %m = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %zeros, %hundreds = array.generate (%m) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%i: index):
    %o = arith.constant 0 : i64
    %v = arith.index_cast %i : index to i64
    %h = arith.constant 100 : i64
    %d = arith.addi %v, %h : i64
    array.yield %o, %d : i64, i64
  }
  %is, %vs = array.generate (%n) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i64
    %sq = arith.muli %v, %v : i64
    %c5 = arith.constant 5 : i64
    %t = arith.remsi %sq, %c5 : i64
    array.yield %t, %v : i64, i64
  }
  %s = array.scatter %zeros[%is], %vs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %o = arith.muli %old, %ten : i64
    %r = arith.addi %o, %new : i64
    array.yield %r : i64
  }
  %ws = array.generate (%n) : tensor<?xi64> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i64
    %w = arith.addi %v, %v : i64
    array.yield %w : i64
  }
  %p = array.permute %ws into %hundreds : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%k: index):
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c0 = arith.constant 0 : index
    %r = arith.remui %k, %c3 : index
    %keep = arith.cmpi ne, %r, %c0 : index
    %t = arith.remui %k, %c5 : index
    array.yield %t, %keep : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %o = arith.muli %old, %ten : i64
    %r = arith.addi %o, %new : i64
    array.yield %r : i64
  }
  %hs = array.fold %s init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %t = arith.muli %acc, %c31 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %hp = array.fold %p init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %t = arith.muli %acc, %c31 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %a = tensor.extract %hs[] : tensor<i64>
  %b = tensor.extract %hp[] : tensor<i64>
  %r = arith.addi %a, %b : i64
  return %r : i64
}
