func.func @partial(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %c0 = arith.constant 0 : i64
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %x : i64
    array.yield %y : i64
  }
  %gts = array.reverse %ys : tensor<?xi64>
  %zs = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %m = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %y = arith.muli %x, %x : i64
        array.yield %y : i64
      }
      array.yield %m : tensor<?xi64>
    } consumer {
    ^bb0(%ms: tensor<?xi64>):
      %f = array.filter %ms : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %p = arith.cmpi sgt, %x, %c0 : i64
        array.yield %p : i1
      }
      array.yield %f : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %gts, %zs : tensor<?xi64>, tensor<?xi64>
}
