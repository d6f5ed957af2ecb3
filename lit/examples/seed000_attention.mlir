// Parses, verifies and pins examples/seed000_attention.mlir (exact attention written with
// seed 000 §5.1's n → n + 1 gather-then-fold pattern): its clustering under the default
// cost (three clusters: the scores with both matrix gathers folded in, the row maximum's
// broadcast, and the row sum's broadcast with the whole P·V product), no cluster lowered op
// by op, and its results under the interpreter, compiled unfused and compiled fused (CPU and
// emulated GPU kernels).
// RUN: fuse-opt %examples/seed000_attention.mlir | fuse-opt | FileCheck %s
// RUN: fuse-opt %examples/seed000_attention.mlir --emit-clustering=json --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis))' | FileCheck %s --check-prefix=CLUSTERS
// RUN: fuse-opt %examples/seed000_attention.mlir --array-fusion --array-to-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOPS --allow-empty --implicit-check-not='op by op'
// RUN: fuse-opt %examples/seed000_attention.mlir --run --check | FileCheck %s --check-prefix=RESULT
// RUN: fuse-opt %examples/seed000_attention.mlir --run --check --gpu-sim | FileCheck %s --check-prefix=RESULT

// CHECK-LABEL: func.func @attention(
// CHECK-COUNT-4: array.replicate
// CHECK:         array.fold
// CHECK:         return

// Unnamed desugared index generates are named by their location: {{[^"]*}} skips them.
// CLUSTERS: "name":"attention"
// CLUSTERS-SAME: "status":"optimal"
// CLUSTERS-SAME: "clusters":{{\[\[}}{{("[^"]*mlir:[0-9]+:[0-9]+",)?}}"qr",{{("[^"]*",)?}}"q3",{{("[^"]*",)?}}"kr",{{("[^"]*",)?}}"k3","qk","dot","scores"],["rowMax","rowMaxes","rowMaxes","shifted"],["rowSum","rowSums","rowSums","probs",{{("[^"]*",)?}}"pr",{{("[^"]*",)?}}"p3",{{("[^"]*",)?}}"vr",{{("[^"]*",)?}}"v3","pv","out"]]

// LOOPS-NOT: op by op

// RESULT: @attention: match (interpreter, unfused, fused)
