// Source: seed 001 (Robinson, Lippmeier, Keller, "Clustering for array-backed
// streams", thesis chapter of "Fusing filters with ILP"), §1.1 "Clustering
// with filters" (repeated in §1.5.1, whose complete ILP is Figure 1.15):
//
//   normalize2 :: Array Int -> (Array Int, Array Int)
//   normalize2 xs
//    = let sum1 = fold   (+) 0    xs
//          gts  = filter (> 0)    xs
//          sum2 = fold   (+) 0    gts
//          ys1  = map    (/ sum1) xs
//          ys2  = map    (/ sum2) xs
//      in (ys1, ys2)
//
// Expected optimal clustering (Figure 1.1, middle; Figure 1.16):
// {sum1, gts, sum2} and {ys1, ys2}.
//
// Encoding choices:
// * Int is i64. The folds produce rank-0 tensors; the maps read them with
//   `array.index %sum1[]` inside their bodies, which makes `sum1`/`sum2` free
//   variables of the maps: the fusion-preventing edges of the paper.
// * `/` on Int is truncating division as in the C code of Listing 1.1
//   (`xs[i] / sum1`), i.e. `arith.divsi`. As in the paper, a zero sum is the
//   caller's problem (division by zero is undefined).

func.func @normalize2(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %zero = arith.constant 0 : i64
  %sum1 = array.fold %xs init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c0 = arith.constant 0 : i64
    %gt = arith.cmpi sgt, %x, %c0 : i64
    array.yield %gt : i1
  }
  %sum2 = array.fold %gts init(%zero : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %s = arith.addi %acc, %x : i64
    array.yield %s : i64
  }
  %ys1 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s1 = array.index %sum1[] : tensor<i64>
    %y = arith.divsi %x, %s1 : i64
    array.yield %y : i64
  }
  %ys2 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s2 = array.index %sum2[] : tensor<i64>
    %y = arith.divsi %x, %s2 : i64
    array.yield %y : i64
  }
  return %ys1, %ys2 : tensor<?xi64>, tensor<?xi64>
}
