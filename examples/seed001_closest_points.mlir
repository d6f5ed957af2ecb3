// Source: seed 001 (Robinson, Lippmeier, Keller, "Clustering for array-backed
// streams"), §1.5.2 "Closest points", Listing 1.2 (recursive case only):
//
//   closestPoints :: Array Point → Double
//   closestPoints pts
//    | length pts < 100
//    -- Naive O(n^2) implementation for small arrays
//    = closestPointsNaive pts
//    | otherwise
//    = let -- (external) Midpoint
//          midy   = fold (λs (x,y) → s + y) 0 pts / length pts
//          -- (cluster 1) Filter above and below
//          aboves = filter (above midy) pts
//          belows = filter (below midy) pts
//          -- (external) Recursive 'divide' step
//          above' = closestPoints aboves
//          below' = closestPoints belows
//          border = min above' below'
//          -- (cluster 2) Find points near the border to compare against each other
//          aboveB = filter (λp → below (midy - border) p && above border p) pts
//          belowB = filter (λp → above (midy + border) p && below border p) pts
//          -- (cluster 3) Merge results for 'conquer' step
//          merged = cross aboveB belowB
//          dists  = map distance merged
//          mins   = fold min border dists
//      in mins
//
// As in the paper ("we ignore the base case for small arrays and only look at
// the recursive case"), @closestPointsStep is the `otherwise` branch. The two
// recursive calls are `func.call @closestPoints`, a private function: the paper
// encodes them as external combinators, i.e. fusion barriers whose inputs and
// outputs are manifest (calls are barriers to the analysis too).
//
// STAND-IN, NOT FROM THE SEED: so that the step runs, @closestPoints (at the end
// of the file) is the listing's base case `closestPointsNaive` for every length:
// the least distance between two distinct points, +inf for fewer than two
// points (a rank-2 generate of the pairwise distances, i < j, and two min folds).
//
// Encoding choices:
// * A Point (x, y) is a `complex<f64>` with x = re and y = im, so every point
//   array is ONE tensor (`tensor<?xcomplex<f64>>`) and every binding of the
//   listing stays one SSA value with the paper's name; `complex.re`/`complex.im`
//   project, and `distance` is `complex.abs (a - b)`. (Two coordinate arrays
//   would double every filter/gather result and break the name mapping.)
// * Doubles produced by folds or the recursive calls are rank-0 tensors
//   (`tensor<f64>`), read inside regions with `array.index %v[]` (free
//   variables = fusion-preventing edges).
// * midy: `fold (λs (x,y) → s + y) 0 pts` is `%sumy`, a fold of the y
//   coordinates; the division by `length pts` is a rank-0 `array.map` of
//   `%sumy` producing `%midy`, with `length pts` = `array.dim %pts, 0`. (The
//   paper treats the whole midpoint as one external combinator only because
//   its CNF has no `length`.)
// * border = min above' below' is a scalar (`arith.minimumf` of the two call
//   results read with `array.index`), not a loop: the regions that use it capture
//   the scalar (`above'`/`below'` are spelled %abovePrime/%belowPrime: `'` is
//   not allowed in SSA names).
// * above m p = y >= m and below m p = y < m (the paper leaves them abstract;
//   this pair partitions pts). The aboveB/belowB predicates are transcribed
//   literally from the listing, including the odd use of `border` as a line.
// * `cross aboveB belowB` (Figure 1.2: Array a → Array b → Array (a,b), size
//   k_a × k_b) has no combinator of its own. It is encoded as a rank-2
//   `array.generate` of shape (|aboveB|, |belowB|) yielding the row index
//   `%mergedI` and the column index `%mergedJ`, followed by one gather per side
//   (`%mergedA` = aboveB[mergedI], `%mergedB` = belowB[mergedJ]); together they
//   are the SoA form of `merged`. The rank-2 shape keeps the product size
//   k_a × k_b of the paper's size types visible.
// * Because `merged`/`dists` are rank-2, `fold min border dists` becomes two
//   folds over the innermost dimension: `%minsRows` (per row of aboveB) and
//   `%mins`; both start from `border` (min is idempotent, so this equals the
//   paper's single fold); both take the scalar `border` as initial value.

func.func @closestPointsStep(%pts: tensor<?xcomplex<f64>>) -> tensor<f64> {
  // (external) Midpoint
  %zero = arith.constant 0.0 : f64
  %sumy = array.fold %pts init(%zero : f64) : tensor<?xcomplex<f64>> -> tensor<f64> {
  ^bb0(%s: f64, %p: complex<f64>):
    %y = complex.im %p : complex<f64>
    %s1 = arith.addf %s, %y : f64
    array.yield %s1 : f64
  }
  %len = array.dim %pts, 0 : tensor<?xcomplex<f64>>
  %midy = array.map %sumy : tensor<f64> -> tensor<f64> {
  ^bb0(%s: f64):
    %leni = arith.index_cast %len : index to i64
    %lenf = arith.sitofp %leni : i64 to f64
    %m = arith.divf %s, %lenf : f64
    array.yield %m : f64
  }
  // (cluster 1) Filter above and below
  %aboves = array.filter %pts : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
  ^bb0(%p: complex<f64>):
    %m = array.index %midy[] : tensor<f64>
    %y = complex.im %p : complex<f64>
    %above = arith.cmpf oge, %y, %m : f64
    array.yield %above : i1
  }
  %belows = array.filter %pts : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
  ^bb0(%p: complex<f64>):
    %m = array.index %midy[] : tensor<f64>
    %y = complex.im %p : complex<f64>
    %below = arith.cmpf olt, %y, %m : f64
    array.yield %below : i1
  }
  // (external) Recursive 'divide' step
  %abovePrime = func.call @closestPoints(%aboves) : (tensor<?xcomplex<f64>>) -> tensor<f64>
  %belowPrime = func.call @closestPoints(%belows) : (tensor<?xcomplex<f64>>) -> tensor<f64>
  %aboveMin = array.index %abovePrime[] : tensor<f64>
  %belowMin = array.index %belowPrime[] : tensor<f64>
  %border = arith.minimumf %aboveMin, %belowMin : f64
  // (cluster 2) Find points near the border to compare against each other
  %aboveB = array.filter %pts : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
  ^bb0(%p: complex<f64>):
    %m = array.index %midy[] : tensor<f64>
    %y = complex.im %p : complex<f64>
    %line = arith.subf %m, %border : f64
    %below = arith.cmpf olt, %y, %line : f64
    %above = arith.cmpf oge, %y, %border : f64
    %keep = arith.andi %below, %above : i1
    array.yield %keep : i1
  }
  %belowB = array.filter %pts : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
  ^bb0(%p: complex<f64>):
    %m = array.index %midy[] : tensor<f64>
    %y = complex.im %p : complex<f64>
    %line = arith.addf %m, %border : f64
    %above = arith.cmpf oge, %y, %line : f64
    %below = arith.cmpf olt, %y, %border : f64
    %keep = arith.andi %above, %below : i1
    array.yield %keep : i1
  }
  // (cluster 3) Merge results for 'conquer' step
  %na = array.dim %aboveB, 0 : tensor<?xcomplex<f64>>
  %nb = array.dim %belowB, 0 : tensor<?xcomplex<f64>>
  %mergedI, %mergedJ = array.generate (%na, %nb) : tensor<?x?xindex>, tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    array.yield %i, %j : index, index
  }
  %mergedA = array.gather %aboveB[%mergedI] : tensor<?xcomplex<f64>>[tensor<?x?xindex>] -> tensor<?x?xcomplex<f64>>
  %mergedB = array.gather %belowB[%mergedJ] : tensor<?xcomplex<f64>>[tensor<?x?xindex>] -> tensor<?x?xcomplex<f64>>
  %dists = array.map %mergedA, %mergedB : tensor<?x?xcomplex<f64>>, tensor<?x?xcomplex<f64>> -> tensor<?x?xf64> {
  ^bb0(%a: complex<f64>, %b: complex<f64>):
    %diff = complex.sub %a, %b : complex<f64>
    %dist = complex.abs %diff : complex<f64>
    array.yield %dist : f64
  }
  %minsRows = array.fold %dists init(%border : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %d: f64):
    %min = arith.minimumf %acc, %d : f64
    array.yield %min : f64
  }
  %mins = array.fold %minsRows init(%border : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %d: f64):
    %min = arith.minimumf %acc, %d : f64
    array.yield %min : f64
  }
  return %mins : tensor<f64>
}

// Stand-in, not from the seed (see the header): closestPointsNaive.
func.func private @closestPoints(%pts: tensor<?xcomplex<f64>>) -> tensor<f64> {
  %inf = arith.constant 0x7FF0000000000000 : f64
  %n = array.dim %pts, 0 : tensor<?xcomplex<f64>>
  %pairs = array.generate (%n, %n) : tensor<?x?xf64> {
  ^bb0(%i: index, %j: index):
    %a = array.index %pts[%i] : tensor<?xcomplex<f64>>
    %b = array.index %pts[%j] : tensor<?xcomplex<f64>>
    %diff = complex.sub %a, %b : complex<f64>
    %dist = complex.abs %diff : complex<f64>
    %distinct = arith.cmpi ult, %i, %j : index
    %d = arith.select %distinct, %dist, %inf : f64
    array.yield %d : f64
  }
  %rows = array.fold %pairs init(%inf : f64) : tensor<?x?xf64> -> tensor<?xf64> {
  ^bb0(%acc: f64, %d: f64):
    %min = arith.minimumf %acc, %d : f64
    array.yield %min : f64
  }
  %min = array.fold %rows init(%inf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %d: f64):
    %m = arith.minimumf %acc, %d : f64
    array.yield %m : f64
  }
  return %min : tensor<f64>
}
