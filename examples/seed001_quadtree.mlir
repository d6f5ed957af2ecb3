// Source: seed 001 (Robinson, Lippmeier, Keller, "Clustering for array-backed
// streams"), §1.5.3 "Quadtree", Listing 1.3:
//
//   quadtree :: Array Point → Quadtree
//   quadtree pts = go pts initialBounds
//    where
//     initialBounds
//      = let -- (cluster 1.1) Compute initial bounds
//            xs = map fst pts
//            ys = map snd pts
//            x1 = minimum xs
//            x2 = maximum xs
//            y1 = minimum ys
//            y2 = maximum ys
//        in (x1, y1, x2, y2)
//     go ins box
//      -- Non-recursive base cases for empty and small input arrays
//      | length ins = 0
//      = Nil
//      -- Check if bounding-box contains a single point
//      | smallbox box
//      = LeafArray ins
//      | otherwise
//      = let -- (external) Split input box into four quadrants
//            (b1,b2,b3,b4) = splitbox box
//            -- (cluster 2.1) Partition input points into above quadrants
//            p1 = filter (inbox b1) ins
//            p2 = filter (inbox b2) ins
//            p3 = filter (inbox b3) ins
//            p4 = filter (inbox b4) ins
//            -- Recurse into each partitioned quadrant separately
//        in Tree (go p1 b1) (go p2 b2) (go p3 b3) (go p4 b4)
//
// Expected clustering: all six combinators of initialBounds in one loop, and
// the four filters of go in one loop.
//
// Encoding choices:
// * A Point is a `complex<f64>` (x = re, y = im), as in
//   seed001_closest_points.mlir, so `map fst`/`map snd` are the two maps with
//   `complex.re`/`complex.im` that the paper describes ("deconstructs the input
//   points into two arrays containing the X and Y axes using two map
//   operations").
// * minimum/maximum are folds (as the paper says) with the identities +inf and
//   -inf as initial values (`array.fold` needs one; Haskell's minimum has
//   none). The four bounds are rank-0 tensors.
// * A box (x1, y1, x2, y2) is a `tensor<4xf64>` in that order; filters read
//   its corners with `array.index %b1[%c0]` etc., so b1..b4 (outputs of the
//   external `splitbox`) are free variables of the filters, exactly the
//   fusion-preventing edges of an external binding (Figure 1.10).
//   inbox b p = x1 <= x < x2 && y1 <= y < y2 (half-open; the paper leaves it
//   abstract).
// * The seed leaves `splitbox`, `smallbox` and the Quadtree constructors Nil,
//   LeafArray and Tree abstract; here they are the private functions @splitbox,
//   @smallbox, @nil, @leafArray and @tree, which the analysis treats as external
//   (calls are fusion barriers). A `Quadtree` is an `i64` (the tree is opaque to
//   this dialect; only the constructors make one).
// * STAND-INS, NOT FROM THE SEED: so that the program runs, the five private
//   functions have bodies (at the end of the file), the simplest ones that fit the
//   paper's prose: splitbox halves the box at its midpoint into the quadrants
//   (x1,y1,mx,my), (mx,y1,x2,my), (x1,my,mx,y2), (mx,my,x2,y2); smallbox holds
//   when the box is at most 1 wide and 1 high; a tree is summarised by an i64
//   hash of its shape and leaf sizes: Nil = 1, LeafArray ins = 4*length ins + 2,
//   Tree a b c d = 4*(((a*31 + b)*31 + c)*31 + d) + 3 (wrapping).
// * go keeps its guards as nested `scf.if`s (array-level control flow, seed 000
//   §4.1: each block is clustered on its own); the `otherwise` branch holds the
//   splitbox call, the four filters and the four recursive `func.call @go`.
// * @quadtree packs the four rank-0 bounds into the box tensor with
//   `array.index` + `tensor.from_elements` and calls @go.

func.func @quadtree(%pts: tensor<?xcomplex<f64>>) -> i64 {
  %x1, %y1, %x2, %y2 = func.call @initialBounds(%pts) : (tensor<?xcomplex<f64>>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>)
  %bx1 = array.index %x1[] : tensor<f64>
  %by1 = array.index %y1[] : tensor<f64>
  %bx2 = array.index %x2[] : tensor<f64>
  %by2 = array.index %y2[] : tensor<f64>
  %box = tensor.from_elements %bx1, %by1, %bx2, %by2 : tensor<4xf64>
  %tree = func.call @go(%pts, %box) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
  return %tree : i64
}

func.func @initialBounds(%pts: tensor<?xcomplex<f64>>) -> (tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>) {
  // (cluster 1.1) Compute initial bounds
  %xs = array.map %pts : tensor<?xcomplex<f64>> -> tensor<?xf64> {
  ^bb0(%p: complex<f64>):
    %x = complex.re %p : complex<f64>
    array.yield %x : f64
  }
  %ys = array.map %pts : tensor<?xcomplex<f64>> -> tensor<?xf64> {
  ^bb0(%p: complex<f64>):
    %y = complex.im %p : complex<f64>
    array.yield %y : f64
  }
  %inf = arith.constant 0x7FF0000000000000 : f64
  %ninf = arith.constant 0xFFF0000000000000 : f64
  %x1 = array.fold %xs init(%inf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %m = arith.minimumf %acc, %x : f64
    array.yield %m : f64
  }
  %x2 = array.fold %xs init(%ninf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %x: f64):
    %m = arith.maximumf %acc, %x : f64
    array.yield %m : f64
  }
  %y1 = array.fold %ys init(%inf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %y: f64):
    %m = arith.minimumf %acc, %y : f64
    array.yield %m : f64
  }
  %y2 = array.fold %ys init(%ninf : f64) : tensor<?xf64> -> tensor<f64> {
  ^bb0(%acc: f64, %y: f64):
    %m = arith.maximumf %acc, %y : f64
    array.yield %m : f64
  }
  return %x1, %y1, %x2, %y2 : tensor<f64>, tensor<f64>, tensor<f64>, tensor<f64>
}

func.func @go(%ins: tensor<?xcomplex<f64>>, %box: tensor<4xf64>) -> i64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %len = array.dim %ins, 0 : tensor<?xcomplex<f64>>
  %empty = arith.cmpi eq, %len, %c0 : index
  %result = scf.if %empty -> (i64) {
    %nil = func.call @nil() : () -> i64
    scf.yield %nil : i64
  } else {
    %small = func.call @smallbox(%box) : (tensor<4xf64>) -> i1
    %sub = scf.if %small -> (i64) {
      %leaf = func.call @leafArray(%ins) : (tensor<?xcomplex<f64>>) -> i64
      scf.yield %leaf : i64
    } else {
      // (external) Split input box into four quadrants
      %b1, %b2, %b3, %b4 = func.call @splitbox(%box) : (tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>)
      // (cluster 2.1) Partition input points into above quadrants
      %p1 = array.filter %ins : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
      ^bb0(%p: complex<f64>):
        %x = complex.re %p : complex<f64>
        %y = complex.im %p : complex<f64>
        %lx = array.index %b1[%c0] : tensor<4xf64>
        %ly = array.index %b1[%c1] : tensor<4xf64>
        %hx = array.index %b1[%c2] : tensor<4xf64>
        %hy = array.index %b1[%c3] : tensor<4xf64>
        %gx = arith.cmpf oge, %x, %lx : f64
        %sx = arith.cmpf olt, %x, %hx : f64
        %gy = arith.cmpf oge, %y, %ly : f64
        %sy = arith.cmpf olt, %y, %hy : f64
        %inx = arith.andi %gx, %sx : i1
        %iny = arith.andi %gy, %sy : i1
        %in = arith.andi %inx, %iny : i1
        array.yield %in : i1
      }
      %p2 = array.filter %ins : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
      ^bb0(%p: complex<f64>):
        %x = complex.re %p : complex<f64>
        %y = complex.im %p : complex<f64>
        %lx = array.index %b2[%c0] : tensor<4xf64>
        %ly = array.index %b2[%c1] : tensor<4xf64>
        %hx = array.index %b2[%c2] : tensor<4xf64>
        %hy = array.index %b2[%c3] : tensor<4xf64>
        %gx = arith.cmpf oge, %x, %lx : f64
        %sx = arith.cmpf olt, %x, %hx : f64
        %gy = arith.cmpf oge, %y, %ly : f64
        %sy = arith.cmpf olt, %y, %hy : f64
        %inx = arith.andi %gx, %sx : i1
        %iny = arith.andi %gy, %sy : i1
        %in = arith.andi %inx, %iny : i1
        array.yield %in : i1
      }
      %p3 = array.filter %ins : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
      ^bb0(%p: complex<f64>):
        %x = complex.re %p : complex<f64>
        %y = complex.im %p : complex<f64>
        %lx = array.index %b3[%c0] : tensor<4xf64>
        %ly = array.index %b3[%c1] : tensor<4xf64>
        %hx = array.index %b3[%c2] : tensor<4xf64>
        %hy = array.index %b3[%c3] : tensor<4xf64>
        %gx = arith.cmpf oge, %x, %lx : f64
        %sx = arith.cmpf olt, %x, %hx : f64
        %gy = arith.cmpf oge, %y, %ly : f64
        %sy = arith.cmpf olt, %y, %hy : f64
        %inx = arith.andi %gx, %sx : i1
        %iny = arith.andi %gy, %sy : i1
        %in = arith.andi %inx, %iny : i1
        array.yield %in : i1
      }
      %p4 = array.filter %ins : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
      ^bb0(%p: complex<f64>):
        %x = complex.re %p : complex<f64>
        %y = complex.im %p : complex<f64>
        %lx = array.index %b4[%c0] : tensor<4xf64>
        %ly = array.index %b4[%c1] : tensor<4xf64>
        %hx = array.index %b4[%c2] : tensor<4xf64>
        %hy = array.index %b4[%c3] : tensor<4xf64>
        %gx = arith.cmpf oge, %x, %lx : f64
        %sx = arith.cmpf olt, %x, %hx : f64
        %gy = arith.cmpf oge, %y, %ly : f64
        %sy = arith.cmpf olt, %y, %hy : f64
        %inx = arith.andi %gx, %sx : i1
        %iny = arith.andi %gy, %sy : i1
        %in = arith.andi %inx, %iny : i1
        array.yield %in : i1
      }
      // Recurse into each partitioned quadrant separately
      %q1 = func.call @go(%p1, %b1) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
      %q2 = func.call @go(%p2, %b2) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
      %q3 = func.call @go(%p3, %b3) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
      %q4 = func.call @go(%p4, %b4) : (tensor<?xcomplex<f64>>, tensor<4xf64>) -> i64
      %node = func.call @tree(%q1, %q2, %q3, %q4) : (i64, i64, i64, i64) -> i64
      scf.yield %node : i64
    }
    scf.yield %sub : i64
  }
  return %result : i64
}

// Stand-ins, not from the seed (see the header): the external functions of go.

func.func private @splitbox(%box: tensor<4xf64>) -> (tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %half = arith.constant 0.5 : f64
  %x1 = array.index %box[%c0] : tensor<4xf64>
  %y1 = array.index %box[%c1] : tensor<4xf64>
  %x2 = array.index %box[%c2] : tensor<4xf64>
  %y2 = array.index %box[%c3] : tensor<4xf64>
  %sx = arith.addf %x1, %x2 : f64
  %mx = arith.mulf %sx, %half : f64
  %sy = arith.addf %y1, %y2 : f64
  %my = arith.mulf %sy, %half : f64
  %b1 = tensor.from_elements %x1, %y1, %mx, %my : tensor<4xf64>
  %b2 = tensor.from_elements %mx, %y1, %x2, %my : tensor<4xf64>
  %b3 = tensor.from_elements %x1, %my, %mx, %y2 : tensor<4xf64>
  %b4 = tensor.from_elements %mx, %my, %x2, %y2 : tensor<4xf64>
  return %b1, %b2, %b3, %b4 : tensor<4xf64>, tensor<4xf64>, tensor<4xf64>, tensor<4xf64>
}

func.func private @smallbox(%box: tensor<4xf64>) -> i1 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %one = arith.constant 1.0 : f64
  %x1 = array.index %box[%c0] : tensor<4xf64>
  %y1 = array.index %box[%c1] : tensor<4xf64>
  %x2 = array.index %box[%c2] : tensor<4xf64>
  %y2 = array.index %box[%c3] : tensor<4xf64>
  %w = arith.subf %x2, %x1 : f64
  %h = arith.subf %y2, %y1 : f64
  %narrow = arith.cmpf ole, %w, %one : f64
  %low = arith.cmpf ole, %h, %one : f64
  %small = arith.andi %narrow, %low : i1
  return %small : i1
}

func.func private @nil() -> i64 {
  %one = arith.constant 1 : i64
  return %one : i64
}

func.func private @leafArray(%ins: tensor<?xcomplex<f64>>) -> i64 {
  %len = array.dim %ins, 0 : tensor<?xcomplex<f64>>
  %n = arith.index_cast %len : index to i64
  %c4 = arith.constant 4 : i64
  %c2 = arith.constant 2 : i64
  %n4 = arith.muli %n, %c4 : i64
  %leaf = arith.addi %n4, %c2 : i64
  return %leaf : i64
}

func.func private @tree(%a: i64, %b: i64, %c: i64, %d: i64) -> i64 {
  %c31 = arith.constant 31 : i64
  %c4 = arith.constant 4 : i64
  %c3 = arith.constant 3 : i64
  %a31 = arith.muli %a, %c31 : i64
  %ab = arith.addi %a31, %b : i64
  %ab31 = arith.muli %ab, %c31 : i64
  %abc = arith.addi %ab31, %c : i64
  %abc31 = arith.muli %abc, %c31 : i64
  %abcd = arith.addi %abc31, %d : i64
  %h4 = arith.muli %abcd, %c4 : i64
  %h = arith.addi %h4, %c3 : i64
  return %h : i64
}
