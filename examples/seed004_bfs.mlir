// Source: seed 004 (Van Gils, "Fusion of Expand and Permute in Accelerate",
// MSc thesis 2023), §1.4 "Permute after Expand" ("Another example of a
// permutation occurring after an expansion is updating distances in a
// shortest path algorithm"), §5 "BFS in a Graph", and Appendix A.2,
// Listing 11:
//
//   bfs :: Exp Int -> Exp Int -> (Exp Int -> Exp Int)
//       -> (Exp Int -> Exp Int -> Exp Int)
//       -> Acc (Vector (Maybe Int))
//   bfs src totalNodes numNeighbours getNeighbour = afst loop
//     where
//       parentsI =
//           generate (I1 totalNodes)
//           (\(I1 i) -> cond (i == src) (Just src) Nothing)
//       parentsN = fill (I1 totalNodes) Nothing
//       loop =
//         awhile
//           (\(T2 parents oldParents) ->
//             map not $ and $ zipWith (==) parents oldParents)
//           (\(T2 parents oldParents) ->
//             let
//                 known = afst $ compact
//                   (map (not . (match isNothing)) parents)
//                   (enumFromN (I1 totalNodes) 0)
//                 e = expand (match numNeighbours)
//                     (\elem i -> T2 (Just $ I1 $
//                       (match getNeighbour) elem i)
//                     (Just elem)) known
//                 (neighbours, newParents) = unzip e
//                 perm (I1 i) = neighbours !! i
//                 p = permute (match (<|>)) parents perm
//                     newParents
//             in T2 p parents
//           )
//           (T2 parentsI parentsN)
//
// Three functions:
// * @bfsStep        — the body of the awhile loop, written as in the listing:
//                     `array.permute` whose index region reads the neighbours
//                     array with `array.index %neighbours[%i]`, exactly like
//                     `perm (I1 i) = neighbours !! i`. That makes `neighbours`
//                     a free variable of the permute, so the expand cannot
//                     fuse into it — the situation the thesis sets out to fix.
// * @bfsStepScatter — the same step with `array.scatter`, which takes the
//                     target indices as an index array (`neighbours`) next to
//                     the values (`newParents`): both come from the expand
//                     through fusible edges (seed 000 Table 1), so
//                     expand -> scatter is fusible.
// * @bfs            — the whole program: the two initial generates, the awhile
//                     as `scf.while` (condition `map not $ and $ zipWith (==)`
//                     as map, fold and rank-0 map), calling @bfsStep.
// * @relaxDistances — §1.4's other example, "updating distances in a shortest
//                     path algorithm": every neighbour of the frontier gets
//                     min(its distance, the frontier node's distance + 1), a
//                     scatter with `min` as its combination function. The
//                     minimum is commutative and associative, so on a GPU every
//                     expand division of seed 004 §4.1 applies, with atomic
//                     minima (the "first parent wins" of @bfsStepScatter has no
//                     atomic form and runs as one GPU thread).
//
// Encoding choices:
// * `Maybe Int` elements are i64 with -1 for Nothing (node ids are >= 0);
//   `Maybe DIM1` likewise. `x <|> y` is `x /= Nothing ? x : y`. The permute /
//   scatter `combine` region receives (value already in the result, permuted
//   value), so `match (<|>)` becomes `old <|> new`: a node that already has a
//   parent keeps it, a new node takes the first parent written (the BFS
//   reading of the listing).
// * `numNeighbours` and `getNeighbour` are parameters of bfs; they are made
//   concrete with a CSR graph passed as two arrays: numNeighbours n =
//   offsets[n+1] - offsets[n], getNeighbour n i = edges[offsets[n] + i]
//   (offsets has totalNodes+1 entries). Both arrays are read with
//   `array.index` in the expand's regions (free variables, function inputs).
// * `compact flags xs` (keep xs where flags) is a 2-input `array.filter` of
//   (flags, iota) whose predicate is the flag; `afst` keeps the iota part,
//   `%known`, and the filtered flags `%knownFlags` are unused.
//   `enumFromN (I1 totalNodes) 0` is `array.generate` of i.
// * `unzip e` is free (structure of arrays): the expand has two results,
//   `%neighbours` and `%newParents`.
// * The index region of the permute yields the target index and the optional
//   keep flag `neighbour /= Nothing` (the `Maybe` of `perm`). In the scatter
//   version every expanded neighbour is a Just (getNeighbour never yields
//   Nothing), so no element has to be dropped.
// * The step returns `T2 p parents`; `parents` is also the destination of the
//   permute/scatter, which is fine with value semantics (seed 000 §2: the
//   destination is copied; the fusion analysis makes that later use
//   infusible).

func.func @bfsStep(%parents: tensor<?xi64>, %offsets: tensor<?xi64>, %edges: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %totalNodes = array.dim %parents, 0 : tensor<?xi64>
  %flags = array.map %parents : tensor<?xi64> -> tensor<?xi1> {
  ^bb0(%parent: i64):
    %nothing = arith.constant -1 : i64
    %isJust = arith.cmpi ne, %parent, %nothing : i64
    array.yield %isJust : i1
  }
  %iota = array.generate (%totalNodes) : tensor<?xi64> {
  ^bb0(%i: index):
    %n = arith.index_cast %i : index to i64
    array.yield %n : i64
  }
  %knownFlags, %known = array.filter %flags, %iota : tensor<?xi1>, tensor<?xi64> -> tensor<?xi1>, tensor<?xi64> {
  ^bb0(%flag: i1, %n: i64):
    array.yield %flag : i1
  }
  %neighbours, %newParents = array.expand %known : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%elem: i64):
    %c1 = arith.constant 1 : index
    %node = arith.index_cast %elem : i64 to index
    %next = arith.addi %node, %c1 : index
    %start = array.index %offsets[%node] : tensor<?xi64>
    %end = array.index %offsets[%next] : tensor<?xi64>
    %numNeighbours = arith.subi %end, %start : i64
    %count = arith.index_cast %numNeighbours : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%elem: i64, %i: index):
    %node = arith.index_cast %elem : i64 to index
    %start = array.index %offsets[%node] : tensor<?xi64>
    %starti = arith.index_cast %start : i64 to index
    %pos = arith.addi %starti, %i : index
    %neighbour = array.index %edges[%pos] : tensor<?xi64>
    array.yield %neighbour, %elem : i64, i64
  }
  %p = array.permute %newParents into %parents : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%i: index):
    %nothing = arith.constant -1 : i64
    %neighbour = array.index %neighbours[%i] : tensor<?xi64>
    %isJust = arith.cmpi ne, %neighbour, %nothing : i64
    %target = arith.index_cast %neighbour : i64 to index
    array.yield %target, %isJust : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    %nothing = arith.constant -1 : i64
    %oldIsJust = arith.cmpi ne, %old, %nothing : i64
    %alt = arith.select %oldIsJust, %old, %new : i64
    array.yield %alt : i64
  }
  return %p, %parents : tensor<?xi64>, tensor<?xi64>
}

func.func @bfsStepScatter(%parents: tensor<?xi64>, %offsets: tensor<?xi64>, %edges: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %totalNodes = array.dim %parents, 0 : tensor<?xi64>
  %flags = array.map %parents : tensor<?xi64> -> tensor<?xi1> {
  ^bb0(%parent: i64):
    %nothing = arith.constant -1 : i64
    %isJust = arith.cmpi ne, %parent, %nothing : i64
    array.yield %isJust : i1
  }
  %iota = array.generate (%totalNodes) : tensor<?xi64> {
  ^bb0(%i: index):
    %n = arith.index_cast %i : index to i64
    array.yield %n : i64
  }
  %knownFlags, %known = array.filter %flags, %iota : tensor<?xi1>, tensor<?xi64> -> tensor<?xi1>, tensor<?xi64> {
  ^bb0(%flag: i1, %n: i64):
    array.yield %flag : i1
  }
  %neighbours, %newParents = array.expand %known : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%elem: i64):
    %c1 = arith.constant 1 : index
    %node = arith.index_cast %elem : i64 to index
    %next = arith.addi %node, %c1 : index
    %start = array.index %offsets[%node] : tensor<?xi64>
    %end = array.index %offsets[%next] : tensor<?xi64>
    %numNeighbours = arith.subi %end, %start : i64
    %count = arith.index_cast %numNeighbours : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%elem: i64, %i: index):
    %node = arith.index_cast %elem : i64 to index
    %start = array.index %offsets[%node] : tensor<?xi64>
    %starti = arith.index_cast %start : i64 to index
    %pos = arith.addi %starti, %i : index
    %neighbour = array.index %edges[%pos] : tensor<?xi64>
    array.yield %neighbour, %elem : i64, i64
  }
  %p = array.scatter %parents[%neighbours], %newParents : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %nothing = arith.constant -1 : i64
    %oldIsJust = arith.cmpi ne, %old, %nothing : i64
    %alt = arith.select %oldIsJust, %old, %new : i64
    array.yield %alt : i64
  }
  return %p, %parents : tensor<?xi64>, tensor<?xi64>
}

// The destination is a copy of the distances (`%current`): the expand reads
// `%dist` itself (`array.index` in `get`), and a scatter's destination may have no
// use in the scatter's cluster (seed 000 (9)), so scattering into `%dist` would keep
// the expand and the scatter apart.
func.func @relaxDistances(%dist: tensor<?xi64>, %frontier: tensor<?xi64>, %offsets: tensor<?xi64>, %edges: tensor<?xi64>) -> tensor<?xi64> {
  %current = array.map %dist : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%d: i64):
    array.yield %d : i64
  }
  %neighbours, %candidates = array.expand %frontier : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%elem: i64):
    %c1 = arith.constant 1 : index
    %node = arith.index_cast %elem : i64 to index
    %next = arith.addi %node, %c1 : index
    %start = array.index %offsets[%node] : tensor<?xi64>
    %end = array.index %offsets[%next] : tensor<?xi64>
    %numNeighbours = arith.subi %end, %start : i64
    %count = arith.index_cast %numNeighbours : i64 to index
    array.yield %count : index
  } get {
  ^bb0(%elem: i64, %i: index):
    %one = arith.constant 1 : i64
    %node = arith.index_cast %elem : i64 to index
    %start = array.index %offsets[%node] : tensor<?xi64>
    %starti = arith.index_cast %start : i64 to index
    %pos = arith.addi %starti, %i : index
    %neighbour = array.index %edges[%pos] : tensor<?xi64>
    %here = array.index %dist[%node] : tensor<?xi64>
    %candidate = arith.addi %here, %one : i64
    array.yield %neighbour, %candidate : i64, i64
  }
  %relaxed = array.scatter %current[%neighbours], %candidates : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %shorter = arith.minsi %old, %new : i64
    array.yield %shorter : i64
  }
  return %relaxed : tensor<?xi64>
}

func.func @bfs(%src: i64, %totalNodes: index, %offsets: tensor<?xi64>, %edges: tensor<?xi64>) -> tensor<?xi64> {
  %parentsI = array.generate (%totalNodes) : tensor<?xi64> {
  ^bb0(%i: index):
    %nothing = arith.constant -1 : i64
    %ii = arith.index_cast %i : index to i64
    %isSrc = arith.cmpi eq, %ii, %src : i64
    %parent = arith.select %isSrc, %src, %nothing : i64
    array.yield %parent : i64
  }
  %parentsN = array.generate (%totalNodes) : tensor<?xi64> {
  ^bb0(%i: index):
    %nothing = arith.constant -1 : i64
    array.yield %nothing : i64
  }
  %loop:2 = scf.while (%parents = %parentsI, %oldParents = %parentsN) : (tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
    %same = array.map %parents, %oldParents : tensor<?xi64>, tensor<?xi64> -> tensor<?xi1> {
    ^bb0(%a: i64, %b: i64):
      %eq = arith.cmpi eq, %a, %b : i64
      array.yield %eq : i1
    }
    %true = arith.constant true
    %allSame = array.fold %same init(%true : i1) : tensor<?xi1> -> tensor<i1> {
    ^bb0(%acc: i1, %s: i1):
      %and = arith.andi %acc, %s : i1
      array.yield %and : i1
    }
    %changed = array.map %allSame : tensor<i1> -> tensor<i1> {
    ^bb0(%all: i1):
      %t = arith.constant true
      %not = arith.xori %all, %t : i1
      array.yield %not : i1
    }
    %continue = array.index %changed[] : tensor<i1>
    scf.condition(%continue) %parents, %oldParents : tensor<?xi64>, tensor<?xi64>
  } do {
  ^bb0(%parents: tensor<?xi64>, %oldParents: tensor<?xi64>):
    %p, %prev = func.call @bfsStep(%parents, %offsets, %edges) : (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>)
    scf.yield %p, %prev : tensor<?xi64>, tensor<?xi64>
  }
  return %loop#0 : tensor<?xi64>
}
