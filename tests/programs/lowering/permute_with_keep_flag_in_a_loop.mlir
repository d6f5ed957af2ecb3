func.func @permuteLoop() -> i64 {
  %n = arith.constant 6 : index
  %z = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a0 = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %w = arith.addi %v, %one : i64
    array.yield %w : i64
  }
  %a = scf.for %it = %c0 to %c3 step %c1 iter_args(%acc = %a0) -> (tensor<?xi64>) {
    %p = array.permute %acc into %acc : tensor<?xi64> into tensor<?xi64> index {
    ^bb0(%i: index):
      %x = array.index %acc[%i] : tensor<?xi64>
      %three = arith.constant 3 : i64
      %zero = arith.constant 0 : i64
      %r = arith.remsi %x, %three : i64
      %keep = arith.cmpi ne, %r, %zero : i64
      %two = arith.constant 2 : index
      %one = arith.constant 1 : index
      %six = arith.constant 6 : index
      %d = arith.muli %i, %two : index
      %e = arith.addi %d, %one : index
      %t = arith.remui %e, %six : index
      array.yield %t, %keep : index, i1
    } combine {
    ^bb0(%old: i64, %new: i64):
      %two = arith.constant 2 : i64
      %o = arith.muli %old, %two : i64
      %s = arith.addi %o, %new : i64
      array.yield %s : i64
    }
    scf.yield %p : tensor<?xi64>
  }
  %h = array.fold %a init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %t = arith.muli %acc, %c31 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %r = tensor.extract %h[] : tensor<i64>
  return %r : i64
}
