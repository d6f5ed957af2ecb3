// The alias array-fusion is built from the registered passes; its options go, as written,
// to array-fusion-analysis, which parses them (quoting included). A pipeline that cannot
// be built is an error with exit code 1, named in a textual pipeline or on the command line.
// RUN: not fuse-opt %s --pass-pipeline='builtin.module(func.func(array-fusion{bogus=1}))' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not fuse-opt %s --array-fusion='bogus=1' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OPTION
// RUN: not fuse-opt %s --array-fusion='time-limit' -o /dev/null 2>&1 | FileCheck %s --check-prefix=VALUE
// A file name with a space, quoted, reaches the analysis whole.
// RUN: rm -rf '%t dir' && mkdir -p '%t dir'
// RUN: fuse-opt %s --pass-pipeline="builtin.module(func.func(array-fusion{cost=reads dump-ilp='%t dir/m.lp'}))" | FileCheck %s
// RUN: FileCheck %s --check-prefix=LP < '%t dir/m.f.lp'
// On a module, the alias's passes run on each function.
// RUN: fuse-opt %s --pass-pipeline='builtin.module(array-fusion{cost=reads})' | FileCheck %s
// A report over a split input would keep only the last chunk: refused, exit code 1.
// RUN: not fuse-opt %s --split-input-file --emit-clustering=json 2>&1 | FileCheck %s --check-prefix=SPLIT

// OPTION: error: <Pass-Options-Parser>: no such option bogus
// VALUE: for the --time-limit option: requires a value
// SPLIT: fuse-opt: error: --emit-clustering does not combine with --split-input-file

// CHECK-LABEL: func.func @f
// CHECK-SAME: array.fusion = "f: 1 clusters, objective 1, optimal"
// CHECK: array.cluster
// LP: \ Problem: fusion_combined

func.func @f(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %zs = array.map %ys : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64):
    %z = arith.addi %y, %y : i64
    array.yield %z : i64
  }
  return %zs : tensor<?xi64>
}
