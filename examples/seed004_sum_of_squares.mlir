// Source: seed 004 (Van Gils, "Fusion of Expand and Permute in Accelerate",
// MSc thesis 2023), §2.3.1 "List fusion", Listing 2 "Sum of squares in a
// functional language". The listing body is lost in the seed text; the prose
// describes it exactly: "First, an array of integers from 1 to n is
// constructed. Next, the square is computed for all elements of this array.
// Finally, the sum function is used on the array containing the squared
// numbers", with the three intermediate lists "upto 1 n", "map square" and
// "sum". Reconstructed:
//
//   sumSquares n = sum (map square (upto 1 n))
//
// (Listing 3 is the imperative loop `for i in range (1, n): result += i * i`,
// Listing 4 the deforested recursion `h 0 1 n`.)
//
// Encoding choices: `upto 1 n` is an `array.generate` of n elements i+1 (the
// inclusive range of `upto`); `square` a map; `sum` a fold with initial value
// 0, returning a rank-0 tensor. Int is i64, n an `index`. The intermediate
// arrays are bound to `%upto` and `%squares`.

func.func @sumSquares(%n: index) -> tensor<i64> {
  %upto = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %k = arith.addi %i, %c1 : index
    %v = arith.index_cast %k : index to i64
    array.yield %v : i64
  }
  %squares = array.map %upto : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%v: i64):
    %sq = arith.muli %v, %v : i64
    array.yield %sq : i64
  }
  %zero = arith.constant 0 : i64
  %result = array.fold %squares init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %sq: i64):
    %s = arith.addi %acc, %sq : i64
    array.yield %s : i64
  }
  return %result : tensor<i64>
}
