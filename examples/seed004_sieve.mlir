// Source: seed 004 (Van Gils, "Fusion of Expand and Permute in Accelerate",
// MSc thesis 2023), §5 "Sieve of Eratosthenes" and Appendix A.1, Listing 10
// (an adaptation of the Accelerate documentation's sieve that uses the new
// `permute'`):
//
//   primes :: Exp Int -> Acc (Vector Int)
//   primes n = afst loop
//    where
//     c0    = unit 2
//     a0    = use $ fromList (Z:.0) []
//     limit = truncate $ sqrt $ fromIntegral (n+1)
//     loop  = awhile
//               (\(T2 _ c) -> map (< n+1) c)
//               (\(T2 old c) ->
//                 let c1 = the c
//                     c2 = c1 < limit ? ( c1*c1, n+1 )
//                     sieves =
//                       let size p  = (c2 - p) `quot` p
//                           get p i = (2+i)*p
//                           put x   = x >= 0 && x < m
//                                       ? (Just (I1 x), Nothing )
//                       in
//                       map (\x -> T2 (put x) 0)
//                         $ map (subtract c1)
//                         $ expand size get old
//                     new =
//                       let m = c2 - c1
//                       in
//                       afst
//                         $ filter (> 0)
//                         $ permute' const
//                             (enumFromN (I1 m) c1)
//                         $ sieves
//                 in
//                 T2 (old ++ new) (unit c2))
//               (T2 a0 c0)
//
// Two functions: @sieveStep (the body of the awhile: expand, two maps,
// permute', filter, append) and @primes (the whole program, the awhile as
// `scf.while` calling @sieveStep).
//
// Encoding choices:
// * `permute' comb defaults pairs` takes an array of (Maybe target, value)
//   pairs: here `array.scatter` with a `keep` array, the flags of the Just
//   targets (a Nothing is dropped whatever its index). The last map yields
//   the target, its flag and the value 0, so the expand, both maps and the
//   scatter read each other element by element and are one cluster, one loop
//   nest over the expanded elements (the fusion seed 004 §4.1 builds).
// * `Maybe DIM1` is an i64 target with an i1 flag. `const` as Accelerate's
//   combination function is applied as `const new old`, so the combine region
//   (which receives (old, new)) yields `new`: multiples are overwritten by 0.
//   Every value written is the constant 0, so the order of the writes does not
//   matter, and in parallel they are atomic exchanges.
// * `m` is used by `put` but bound only in `new` in the listing; it is the
//   same m = c2 - c1 for both and is computed once.
// * `old ++ new` has no combinator: it is an `array.generate` of
//   |old| + |new| elements that reads `old`/`new` with `array.index` under an
//   `scf.if` (so that only the array in range is read).
// * `unit c2` is a rank-0 `array.generate` (no shape operands); `the c` is
//   `array.index %c[]`. `(<)` and `quot` on Int are `arith.cmpi slt` and
//   `arith.divsi` on i64. The `awhile` condition `map (< n+1) c` is a rank-0
//   map read with `array.index`.

func.func @sieveStep(%old: tensor<?xi64>, %c: tensor<i64>, %n: i64, %limit: i64) -> (tensor<?xi64>, tensor<i64>) {
  %one = arith.constant 1 : i64
  %c1 = array.index %c[] : tensor<i64>
  %below = arith.cmpi slt, %c1, %limit : i64
  %square = arith.muli %c1, %c1 : i64
  %n1 = arith.addi %n, %one : i64
  %c2 = arith.select %below, %square, %n1 : i64
  %m = arith.subi %c2, %c1 : i64
  %multiples = array.expand %old : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%p: i64):
    %d = arith.subi %c2, %p : i64
    %size = arith.divsi %d, %p : i64
    %count = arith.index_cast %size : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%p: i64, %i: index):
    %c2i = arith.constant 2 : i64
    %ii = arith.index_cast %i : index to i64
    %k = arith.addi %c2i, %ii : i64
    %x = arith.muli %k, %p : i64
    array.yield %x : i64
  }
  %shifted = array.map %multiples : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = arith.subi %x, %c1 : i64
    array.yield %s : i64
  }
  %sieves:3 = array.map %shifted : tensor<?xi64> -> tensor<?xi64>, tensor<?xi1>, tensor<?xi64> {
  ^bb0(%x: i64):
    %zero = arith.constant 0 : i64
    %nonneg = arith.cmpi sge, %x, %zero : i64
    %inrange = arith.cmpi slt, %x, %m : i64
    %put = arith.andi %nonneg, %inrange : i1
    array.yield %x, %put, %zero : i64, i1, i64
  }
  %mIndex = arith.index_cast %m : i64 to index
  %defaults = array.generate (%mIndex) : tensor<?xi64> {
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    %v = arith.addi %c1, %ii : i64
    array.yield %v : i64
  }
  %permuted = array.scatter %defaults[%sieves#0] keep(%sieves#1 : tensor<?xi1>), %sieves#2 : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%prev: i64, %new: i64):
    array.yield %new : i64
  }
  %new = array.filter %permuted : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %zero = arith.constant 0 : i64
    %pos = arith.cmpi sgt, %x, %zero : i64
    array.yield %pos : i1
  }
  %lenOld = array.dim %old, 0 : tensor<?xi64>
  %lenNew = array.dim %new, 0 : tensor<?xi64>
  %lenAll = arith.addi %lenOld, %lenNew : index
  %appended = array.generate (%lenAll) : tensor<?xi64> {
  ^bb0(%i: index):
    %inOld = arith.cmpi ult, %i, %lenOld : index
    %v = scf.if %inOld -> (i64) {
      %a = array.index %old[%i] : tensor<?xi64>
      scf.yield %a : i64
    } else {
      %j = arith.subi %i, %lenOld : index
      %b = array.index %new[%j] : tensor<?xi64>
      scf.yield %b : i64
    }
    array.yield %v : i64
  }
  %cNext = array.generate () : tensor<i64> {
  ^bb0:
    array.yield %c2 : i64
  }
  return %appended, %cNext : tensor<?xi64>, tensor<i64>
}

func.func @primes(%n: i64) -> tensor<?xi64> {
  %c0 = array.generate () : tensor<i64> {
  ^bb0:
    %two = arith.constant 2 : i64
    array.yield %two : i64
  }
  %a0 = arith.constant dense<> : tensor<0xi64>
  %a0dyn = tensor.cast %a0 : tensor<0xi64> to tensor<?xi64>
  %one = arith.constant 1 : i64
  %n1 = arith.addi %n, %one : i64
  %n1f = arith.sitofp %n1 : i64 to f64
  %root = math.sqrt %n1f : f64
  %limit = arith.fptosi %root : f64 to i64
  %loop:2 = scf.while (%old = %a0dyn, %c = %c0) : (tensor<?xi64>, tensor<i64>) -> (tensor<?xi64>, tensor<i64>) {
    %more = array.map %c : tensor<i64> -> tensor<i1> {
    ^bb0(%ci: i64):
      %lt = arith.cmpi slt, %ci, %n1 : i64
      array.yield %lt : i1
    }
    %continue = array.index %more[] : tensor<i1>
    scf.condition(%continue) %old, %c : tensor<?xi64>, tensor<i64>
  } do {
  ^bb0(%old: tensor<?xi64>, %c: tensor<i64>):
    %next, %cNext = func.call @sieveStep(%old, %c, %n, %limit) : (tensor<?xi64>, tensor<i64>, i64, i64) -> (tensor<?xi64>, tensor<i64>)
    scf.yield %next, %cNext : tensor<?xi64>, tensor<i64>
  }
  return %loop#0 : tensor<?xi64>
}
