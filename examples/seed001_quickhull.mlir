// Source: seed 001 (Robinson, Lippmeier, Keller, "Clustering for array-backed
// streams"), §1.5.4 "Quickhull", Listing 1.4 (the core of Quickhull):
//
//   filterMax :: Line → Array Point → (Point, Array Point)
//   filterMax l pts
//    = let -- (cluster 1) Compute filter and maximum
//          ptsAnn   = map (λp → (p, distance p l)) pts
//          maximAnn = maximumBy (compare `on` snd) ptsAnn
//          aboveAnn = filter ((>0) ∘ snd) ptsAnn
//          above    = map fst aboveAnn
//      in (fst maximAnn, above)
//
// Expected clustering: a single cluster (Megiddo's needs a second loop for
// `above`, which iterates over the filter's output).
//
// Encoding choices:
// * A Point is a `complex<f64>` (x = re, y = im), as in the other seed 001
//   examples; the Line `l` is its two end points `%la`, `%lb` (scalar
//   arguments, used inside the regions).
// * `distance p l` is the signed (cross-product) distance
//   (bx-ax)*(py-ay) - (by-ay)*(px-ax), positive for points left of a->b, i.e.
//   "above" the line (the paper leaves it abstract; this is Quickhull's usual
//   choice, unnormalised).
// * Arrays of pairs are structure-of-arrays (seed 000 §2): `ptsAnn` is a
//   2-result map `%ptsAnn:2` (#0 = point, #1 = distance), `aboveAnn` a 2-input,
//   2-result filter `%aboveAnn:2`, and `maximAnn` a rank-0 pair `%maximAnn:2`.
// * `maximumBy (compare `on` snd)` is a 2-input fold with 2 accumulators
//   (point, distance) that keeps the accumulator if its distance is strictly
//   larger and otherwise takes the element (Data.List.maximumBy returns the
//   last of equal maxima). maximumBy has no initial value; the fold starts from
//   (0+0i, -inf), which any element replaces. (On an empty `pts` the result is
//   that start value, where maximumBy would fail.)
// * `map fst aboveAnn` is a map over both components of `aboveAnn` yielding the
//   first, so that it stays a combinator consuming the filter output.

func.func @filterMax(%la: complex<f64>, %lb: complex<f64>, %pts: tensor<?xcomplex<f64>>) -> (tensor<complex<f64>>, tensor<?xcomplex<f64>>) {
  // (cluster 1) Compute filter and maximum
  %ptsAnn:2 = array.map %pts : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>>, tensor<?xf64> {
  ^bb0(%p: complex<f64>):
    %ax = complex.re %la : complex<f64>
    %ay = complex.im %la : complex<f64>
    %bx = complex.re %lb : complex<f64>
    %by = complex.im %lb : complex<f64>
    %px = complex.re %p : complex<f64>
    %py = complex.im %p : complex<f64>
    %dxl = arith.subf %bx, %ax : f64
    %dyl = arith.subf %by, %ay : f64
    %dxp = arith.subf %px, %ax : f64
    %dyp = arith.subf %py, %ay : f64
    %t1 = arith.mulf %dxl, %dyp : f64
    %t2 = arith.mulf %dyl, %dxp : f64
    %dist = arith.subf %t1, %t2 : f64
    array.yield %p, %dist : complex<f64>, f64
  }
  %origin = complex.constant [0.0 : f64, 0.0 : f64] : complex<f64>
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %maximAnn:2 = array.fold %ptsAnn#0, %ptsAnn#1 init(%origin, %ninf : complex<f64>, f64) : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<complex<f64>>, tensor<f64> {
  ^bb0(%accP: complex<f64>, %accD: f64, %p: complex<f64>, %d: f64):
    %keep = arith.cmpf ogt, %accD, %d : f64
    %maxP = arith.select %keep, %accP, %p : complex<f64>
    %maxD = arith.select %keep, %accD, %d : f64
    array.yield %maxP, %maxD : complex<f64>, f64
  }
  %aboveAnn:2 = array.filter %ptsAnn#0, %ptsAnn#1 : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<?xcomplex<f64>>, tensor<?xf64> {
  ^bb0(%p: complex<f64>, %d: f64):
    %zero = arith.constant 0.0 : f64
    %pos = arith.cmpf ogt, %d, %zero : f64
    array.yield %pos : i1
  }
  %above = array.map %aboveAnn#0, %aboveAnn#1 : tensor<?xcomplex<f64>>, tensor<?xf64> -> tensor<?xcomplex<f64>> {
  ^bb0(%p: complex<f64>, %d: f64):
    array.yield %p : complex<f64>
  }
  return %maximAnn#0, %above : tensor<complex<f64>>, tensor<?xcomplex<f64>>
}
