#!/usr/bin/env bash
# Runs one pass pipeline on every example twice: in stock mlir-opt with the plugin loaded,
# and in fuse-opt. Output, diagnostics and exit status must be byte-identical; prints one
# line per example and exits 1 on the first difference (with the diff).
# Usage: compare-plugin-with-fuse-opt.sh MLIR_OPT PLUGIN EXAMPLES_DIR PIPELINE WORK_DIR
set -u
mlir_opt=$1 plugin=$2 examples=$3 pipeline=$4 work=$5
mkdir -p "$work"
status=0
for file in "$examples"/*.mlir; do
  name=$(basename "$file" .mlir)
  "$mlir_opt" --load-dialect-plugin="$plugin" --load-pass-plugin="$plugin" --pass-pipeline="$pipeline" \
    "$file" >"$work/$name.plugin.out" 2>"$work/$name.plugin.err"
  plugin_status=$?
  fuse-opt --pass-pipeline="$pipeline" "$file" >"$work/$name.fuse-opt.out" 2>"$work/$name.fuse-opt.err"
  fuse_opt_status=$?
  if [ "$plugin_status" != "$fuse_opt_status" ]; then
    echo "DIFFERENT $name: exit status $plugin_status with the plugin, $fuse_opt_status with fuse-opt"
    cat "$work/$name.plugin.err"
    status=1
  elif ! diff -u "$work/$name.fuse-opt.out" "$work/$name.plugin.out" ||
       ! diff -u "$work/$name.fuse-opt.err" "$work/$name.plugin.err"; then
    echo "DIFFERENT $name"
    status=1
  else
    echo "same $name (exit $plugin_status, $(wc -l <"$work/$name.plugin.out") lines)"
  fi
done
exit $status
