// Source: seed 002 (van Balen, "Optimal Fusion in Data-Parallel Languages: From
// Diagonal Fusion to Code Generation", MSc thesis 2020), §4 (introduction of
// the chapter, Figure 4), a variant of seed 001's normalize2 in which the
// filter is replaced by a scan:
//
//   normalise2 :: Acc (Array DIM1 Int) -> Acc (Array DIM1 Int, Array DIM1 Int)
//   normalise2 xs = (ys1, ys2) where
//     sum1 = the $ fold (+) 0      xs
//     scn  = scanl (+) 0           xs
//     sum2 = the $ fold (+) 0      scn
//     ys1  = map (`div` sum1) xs
//     ys2  = map (`div` sum2) xs
//
// Optimal grouping (§4): {sum1, scn, sum2}, {ys1, ys2}; §4.3 (Figure 10)
// shows three locally optimal clusterings of it for the ILP.
//
// §4.1 (Figure 6, Figure 9), §4.4 (Listing 2 "Fused normalise2 in the fusion
// AST") and the "expanded normalise2" of Figure 12 extend it: "Consider that
// `xs` is a result of a `map`" — "we want to diagonally fuse `xs = map f ys`
// with the cluster containing the scan and folds". Listing 2:
//
//   RootOfCluster $ Diagonal
//     LeftHandSideArray
//     LeafOfCluster $ map f
//   Horizontal
//     LeafOfCluster $ fold (+) 0
//   Vertical
//     LeftHandSideArray
//     LeafOfCluster $ scanl (+) 0
//     LeafOfCluster $ fold (+) 0
//
// Two functions:
// * @normalise2         — the program above, input `xs`.
// * @normalise2Extended — the extended program: input `ys` (the thesis' name
//                         for the input of `xs = map f ys`), then the five
//                         bindings of normalise2 unchanged. `xs` is fused
//                         diagonally: needed by the first cluster and stored
//                         for ys1/ys2.
//
// Encoding choices:
// * Int is i64; `div` is Haskell's flooring division, `arith.floordivsi`.
//   `the $ fold` gives a rank-0 tensor (Accelerate's Scalar), read inside the
//   maps with `array.index %sum1[]`.
// * Accelerate's `scanl (+) 0 xs` has n+1 elements (0 and the n inclusive
//   prefix sums); `array.scan` keeps the input shape, so `scn` is the
//   *inclusive* left scan (the n prefix sums). The only consumer is
//   `sum2 = fold (+) 0 scn`, and the dropped leading 0 does not change it.
// * f is concrete so the program can be executed: f y = y*2 + 1.

func.func @normalise2(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %scn = array.scan left inclusive %xs init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %sum2 = array.fold %scn init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %ys1 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s1 = array.index %sum1[] : tensor<i64>
    %y = arith.floordivsi %x, %s1 : i64
    array.yield %y : i64
  }
  %ys2 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s2 = array.index %sum2[] : tensor<i64>
    %y = arith.floordivsi %x, %s2 : i64
    array.yield %y : i64
  }
  return %ys1, %ys2 : tensor<?xi64>, tensor<?xi64>
}

func.func @normalise2Extended(%ys: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %xs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %y, %c2 : i64
    %x = arith.addi %twice, %c1 : i64
    array.yield %x : i64
  }
  %zero = arith.constant 0 : i64
  %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %scn = array.scan left inclusive %xs init(%zero : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %sum2 = array.fold %scn init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %ys1 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s1 = array.index %sum1[] : tensor<i64>
    %y = arith.floordivsi %x, %s1 : i64
    array.yield %y : i64
  }
  %ys2 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s2 = array.index %sum2[] : tensor<i64>
    %y = arith.floordivsi %x, %s2 : i64
    array.yield %y : i64
  }
  return %ys1, %ys2 : tensor<?xi64>, tensor<?xi64>
}
