func.func @scans() -> i64 {{
  %n = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %k = arith.constant 1000 : i64
  %xs = array.generate (%n) : tensor<?xi64> {{
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %w = arith.addi %v, %one : i64
    array.yield %w : i64
  }}
{}{}{}{}
  %w1 = arith.constant 1 : i64
  %w2 = arith.constant 3 : i64
  %w3 = arith.constant 7 : i64
  %w4 = arith.constant 13 : i64
  %p1 = arith.muli %lie, %w1 : i64
  %p2 = arith.muli %lee, %w2 : i64
  %p3 = arith.muli %rie, %w3 : i64
  %p4 = arith.muli %ree, %w4 : i64
  %s12 = arith.addi %p1, %p2 : i64
  %s34 = arith.addi %p3, %p4 : i64
  %r = arith.addi %s12, %s34 : i64
  return %r : i64
}}
