// Parses, verifies and pins examples/seed003_game_of_life.mlir (seed 003 Table I's Game of
// Life, one generation, Benchpress' rule version 1 with a fixed border ring): all 21
// combinators fuse into one loop nest (the six index arrays, the eight neighbour gathers,
// the inside mask and the six maps of the rule), with no size warning and nothing lowered
// op by op; the shipped 6 × 7 grid (a glider in rows 1–3, columns 1–3, and a lone live
// border cell at (0, 6)) gives the next generation worked out by hand, checked with a
// separate few-line Python loop (for each inside cell, k = the sum of its 8 neighbours,
// new = 1 if k == 3 or (cell == 1 and k == 2) else 0; the border copied): the glider's
// next phase one row down (rows 2–4: 1 0 1 / 0 1 1 / 0 1 0 in columns 1–3), and the lone
// border cell still alive, as the border never changes. Generated grids (--size/--seed;
// the shipped grid is then not read) agree under the interpreter, compiled unfused and
// compiled fused (CPU, OpenMP, emulated GPU kernels), empty and 1 × 1 grids included.
// RUN: fuse-opt %examples/seed003_game_of_life.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed003_game_of_life.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' 2>&1 | FileCheck %s --check-prefix=CLUSTERS --implicit-check-not=warning
// RUN: fuse-opt %examples/seed003_game_of_life.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed003_game_of_life.mlir --run | FileCheck %s --check-prefix=HAND
// RUN: fuse-opt %examples/seed003_game_of_life.mlir --run --check --size=0 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_game_of_life.mlir --run --check --size=1 | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_game_of_life.mlir --run --check --size=100 --seed=4 --openmp | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'
// RUN: fuse-opt %examples/seed003_game_of_life.mlir --run --check --size=40 --gpu-sim | FileCheck %s --check-prefix=RESULT --implicit-check-not='inputs from'

// CHECK-LABEL: func.func @lifeStep(
// CHECK-COUNT-8: array.gather

// CLUSTERS: "name":"lifeStep"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}"rowUp","rowSame","rowDown","colLeft","colSame","colRight","ul","um","ur","ml","mr","ll","lm","lr","neighbors","live","stay","dead","spawn","inside","next"]]

// LOOPS-NOT: op by op

// HAND: @lifeStep: tensor<6x7xi64>[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] ({{.*}}, interpreter) [inputs from {{.*}}seed003_game_of_life/]
// HAND: @lifeStep: tensor<6x7xi64>[0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0] ({{.*}}, compiled)
// RESULT: @lifeStep: match (interpreter, unfused, fused)
