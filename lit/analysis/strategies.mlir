// The baselines the optimum is compared with (strategy=), on seed 000 §5's greedy trap:
// top-down greedy fuses `cs` diagonally with `bs`, the ILP fuses `cs` vertically with `es`
// and moves less under reads + writes (5 against 6). A baseline reports status "baseline",
// no bound and no ILP; the loops it chooses are what runs.
//
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=greedy-top-down cost=reads-writes}))' \
// RUN:   %examples/seed000_greedy.mlir | FileCheck %s --check-prefix=GREEDY
// GREEDY: "name":"greedyTopDownBad","formulation":"combined","cost":"reads-writes","objective":6,"bound":null,"gap":null,"status":"baseline"
// GREEDY-SAME: "nodes":null,"lp_iterations":null,"variables":0,"rows":0,"clusters":{{\[\["bs","cs"\],\["ds","es","result"\]\]}}
//
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=reads-writes}))' \
// RUN:   %examples/seed000_greedy.mlir | FileCheck %s --check-prefix=ILP
// ILP: "name":"greedyTopDownBad","formulation":"combined","cost":"reads-writes","objective":5,"bound":5,"gap":0,"status":"optimal"
// ILP-SAME: "clusters":{{\[\["bs"\],\["cs","ds","es","result"\]\]}}
//
// The unfused baseline: every combinator alone.
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=unfused}))' \
// RUN:   %examples/seed000_greedy.mlir | FileCheck %s --check-prefix=UNFUSED
// UNFUSED: "name":"greedyTopDownBad",{{.*}}"status":"baseline",{{.*}}"clusters":{{\[\["bs"\],\["cs"\],\["ds"\],\["es"\],\["result"\]\]}}
//
// Pull streams (seed 001 Table 1.1, "Stream": 4 loops for normalize2): only the filter
// is fused into the fold that is its one reader; xs feeds four streams.
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=stream}))' \
// RUN:   %examples/seed001_normalize2.mlir | FileCheck %s --check-prefix=STREAM
// STREAM: "name":"normalize2",{{.*}}"status":"baseline",{{.*}}"clusters":{{\[\["sum1"\],\["gts","sum2"\],\["ys1"\],\["ys2"\]\]}}
//
// Megiddo and Sarkar's ILP (seed 001 Table 1.1, "Megiddo": 3 loops for normalize2): loops
// of one iteration size only, so the fold over the filter's output is alone.
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=megiddo}))' \
// RUN:   %examples/seed001_normalize2.mlir | FileCheck %s --check-prefix=MEGIDDO
// MEGIDDO: "name":"normalize2",{{.*}}"status":"baseline",{{.*}}"clusters":{{\[\["sum1","gts"\],\["sum2"\],\["ys1","ys2"\]\]}}
// Quadtree: 2 loops, one per block (go's four filters are in a block nested in scf.if).
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=megiddo}))' \
// RUN:   %examples/seed001_quadtree.mlir | FileCheck %s --check-prefix=QUADTREE
// QUADTREE: "name":"initialBounds",{{.*}}"status":"baseline",{{.*}}"clusters":{{\[\["xs","ys","x1","x2","y1","y2"\]\]}}
// QUADTREE: "name":"go/{{[^"]*}}",{{.*}}"status":"baseline",{{.*}}"clusters":{{\[\["p1","p2","p3","p4"\]\]}}
//
// Seed 003's (Bohrium's) partition algorithms under this project's legality: the greedy
// merge takes the heaviest saving first (Fig. 7) and so avoids the top-down trap; the
// linear merge grows one cluster in program order (§V-E) and falls into it.
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=bohrium-greedy cost=reads-writes}))' \
// RUN:   %examples/seed000_greedy.mlir | FileCheck %s --check-prefix=BOHRIUM
// BOHRIUM: "name":"greedyTopDownBad",{{.*}}"objective":5,{{.*}}"status":"baseline",{{.*}}"clusters":{{\[\["bs"\],\["cs","ds","es","result"\]\]}}
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=bohrium-linear cost=reads-writes}))' \
// RUN:   %examples/seed000_greedy.mlir | FileCheck %s --check-prefix=LINEAR
// LINEAR: "name":"greedyTopDownBad",{{.*}}"objective":6,{{.*}}"status":"baseline",{{.*}}"clusters":{{\[\["bs","cs"\],\["ds","es","result"\]\]}}
// Seed 003's branch and bound (Fig. 11) is exact, as the ILP is: it proves the same optimum
// (5, the bound is the objective) and says "optimal".
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=bohrium-optimal cost=reads-writes}))' \
// RUN:   %examples/seed000_greedy.mlir | FileCheck %s --check-prefix=EXACT
// EXACT: "name":"greedyTopDownBad","formulation":"combined","cost":"reads-writes","objective":5,"bound":5,"gap":0,"status":"optimal"
// EXACT-SAME: "nodes":null,"lp_iterations":null,"variables":0,"rows":0,"clusters":{{\[\["bs"\],\["cs","ds","es","result"\]\]}}
//
// Max Locality (seed 003 Def. 20: pairs of accessors of one array in different clusters)
// has no ILP formulation: the ILP refuses it with a clear error, the branch and bound
// optimises it. normalize2 has 9 such pairs unfused; the optimum is seed 001's clustering,
// which keeps 6 apart: four pairs of `xs`'s readers, and each fold with the map reading it
// (a fold's result is complete only after its loop).
// RUN: not fuse-opt --pass-pipeline='builtin.module(func.func(array-fusion-analysis{cost=max-locality}))' \
// RUN:   %examples/seed001_normalize2.mlir 2>&1 | FileCheck %s --check-prefix=REFUSED
// REFUSED: error: {{.*}}cost=max-locality (seed 003 Def. 20) weighs every pair of accessors of an array, which no ILP formulation here models; use strategy=bohrium-optimal
// RUN: fuse-opt --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=bohrium-optimal cost=max-locality}))' \
// RUN:   %examples/seed001_normalize2.mlir | FileCheck %s --check-prefix=LOCALITY
// LOCALITY: "name":"normalize2",{{.*}}"cost":"max-locality","objective":6,"bound":6,"gap":0,"status":"optimal"
// LOCALITY-SAME: "clusters":{{\[\["sum1","gts","sum2"\],\["ys1","ys2"\]\]}}
//
// The chosen baseline is what the loops are: the greedy clusters lower to loops.
// RUN: fuse-opt --pass-pipeline='builtin.module(func.func(array-desugar, array-simplify-gathers, array-fusion-analysis{strategy=greedy-top-down}, array-fuse), array-to-loops)' \
// RUN:   %examples/seed000_greedy.mlir | FileCheck %s --check-prefix=LOOPS
// LOOPS-LABEL: func.func @greedyTopDownBad
// LOOPS-SAME: array.fusion = "greedyTopDownBad: 2 clusters, objective 6, baseline"
// LOOPS-NOT: array.map
//
// An unknown strategy is an error naming the choices.
// RUN: not fuse-opt --pass-pipeline='builtin.module(func.func(array-fusion-analysis{strategy=greedy}))' \
// RUN:   %examples/seed000_greedy.mlir 2>&1 | FileCheck %s --check-prefix=BAD
// BAD: error: array-fusion-analysis: unknown strategy 'greedy' (expected one of: ilp, unfused, greedy-top-down, greedy-bottom-up, stream, megiddo, bohrium-greedy, bohrium-linear, bohrium-optimal)
