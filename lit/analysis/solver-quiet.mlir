// SCIP writes nothing to the user's terminal: its warnings (here: symmetry handling on
// seed 001's formulation of the shallow water step, which SCIP used to print as
// "WARNING: Orbital fixing symmetry ... broken before symmetry") are silenced, and only
// the analysis's own located diagnostics remain.
// RUN: fuse-opt %examples/seed003_shallow_water.mlir --emit-clustering=json \
// RUN:   --pass-pipeline='builtin.module(func.func(array-desugar,array-fusion-analysis{formulation=robinson cost=robinson}))' 2>&1 \
// RUN:   | FileCheck %s --implicit-check-not=WARNING --implicit-check-not='{{^[A-Z]+:}}'

// CHECK: seed003_shallow_water.mlir:{{[0-9]+}}:1: warning: array-fusion-analysis (shallowWaterStep): the robinson formulation's optimum is a lower bound here
// CHECK: "name":"shallowWaterStep","formulation":"robinson","cost":"robinson"
