// A histogram: the scatter of seed 000 §2 with an associative, commutative combine.
//
// Seed 000 §2 defines `scatter (f, dest, src)`: for each (i, x) of src, dest!i becomes
// f (dest!i, x); when f is associative and commutative, the order of the updates does not
// matter. Counting how many elements fall into each bin is its standard use (Futhark
// calls it `reduce_by_index`, NumPy `bincount`):
//
//   def histogram (xs):
//       n     = size xs
//       bins  = map (λx : x mod n, xs)
//       src   = zip bins (map (λx : 1, xs))
//       result = scatter (+, generate (n, λi : 0), src)
//       return result
//
// Encoding choices:
// * `x mod n` is the unsigned remainder (`arith.remui`), so every bin is in 0..n-1 for
//   any x: the scatter is defined for every input (seed 000 requires the indices in
//   range), and inputs generated at any size are valid.
// * The bins and the ones are one 2-result map, the scatter's index and value arrays;
//   the zeros are the destination, which reaches the scatter through an infusible edge
//   (seed 000 (8)), so the clustering is [[zeros], [binsAndOnes, result]].
// * Compiled, the scatter is a loop in source order; `--openmp --scatters=owners` runs it
//   by owner (`array-parallel-forms`): each thread runs the whole loop and performs the
//   additions into its own part of the bins, in source order.
// * @byteHistogram is the same scatter into 256 bins (`x mod 256`, the histogram of the
//   low bytes): many sources per bin, the case private copies are for (`--openmp`, whose
//   default `--scatters=exact` takes them for this integer sum; `array-parallel-forms`:
//   each thread counts its share of the elements into a private copy of the bins, and
//   the copies are added up).

func.func @histogram(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.size %xs : tensor<?xi64>
  %zeros = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i64
    array.yield %zero : i64
  }
  %src:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%x: i64):
    %m = array.size %xs : tensor<?xi64>
    %mi = arith.index_cast %m : index to i64
    %bin = arith.remui %x, %mi : i64
    %one = arith.constant 1 : i64
    array.yield %bin, %one : i64, i64
  }
  %result = array.scatter %zeros[%src#0], %src#1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %result : tensor<?xi64>
}

func.func @byteHistogram(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %bins = arith.constant 256 : index
  %zeros = array.generate (%bins) : tensor<?xi64> {
  ^bb0(%i: index):
    %zero = arith.constant 0 : i64
    array.yield %zero : i64
  }
  %src:2 = array.map %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%x: i64):
    %m = arith.constant 256 : i64
    %bin = arith.remui %x, %m : i64
    %one = arith.constant 1 : i64
    array.yield %bin, %one : i64, i64
  }
  %result = array.scatter %zeros[%src#0], %src#1 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %sum = arith.addi %old, %new : i64
    array.yield %sum : i64
  }
  return %result : tensor<?xi64>
}
