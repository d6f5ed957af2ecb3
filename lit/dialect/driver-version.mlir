// fuse-opt --version names the tool (after LLVM's own version lines).
//
// RUN: fuse-opt --version | FileCheck %s

// CHECK: LLVM version {{[0-9]+}}.
// CHECK: {{^}}fuse-opt {{[0-9]+\.[0-9]+\.[0-9]+}} (array dialect; MLIR {{[0-9]+}})
