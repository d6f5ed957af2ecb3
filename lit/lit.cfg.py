# lit configuration of the project's regression tests.
# Run with LLVM 22's lit:  /usr/lib/llvm-22/bin/lit -sv lit   (the Makefile's `make lit`).
# Tools: fuse-opt from target/debug (override with FUSE_OPT_DIR), FileCheck and `not`
# from the LLVM prefix (override with LLVM_PREFIX).
import os

import lit.formats

config.name = "fusion"
config.test_format = lit.formats.ShTest(execute_external=True)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.test_source_root, "Output")

repo_root = os.path.dirname(config.test_source_root)
llvm_prefix = os.environ.get("LLVM_PREFIX", "/usr/lib/llvm-22")
tools_dir = os.environ.get("FUSE_OPT_DIR", os.path.join(repo_root, "target", "debug"))

fuse_opt = os.path.join(tools_dir, "fuse-opt")
if not os.path.exists(fuse_opt):
    lit_config.fatal(f"{fuse_opt} does not exist; build it first (cargo build -p fuse-opt)")

config.environment["PATH"] = os.pathsep.join(
    [tools_dir, os.path.join(llvm_prefix, "bin"), config.environment.get("PATH", os.environ.get("PATH", ""))]
)
config.substitutions.append(("%examples", os.path.join(repo_root, "examples")))
# The embedding surface: the plugin / C API library, its header, MLIR's stock mlir-opt, and
# what a C host compiles and links against.
config.substitutions.append(("%array_fusion_lib", os.path.join(tools_dir, "libarray_fusion.so")))
config.substitutions.append(("%stock_mlir_opt", os.path.join(llvm_prefix, "bin", "mlir-opt")))
config.substitutions.append(("%tools_dir", tools_dir))
config.substitutions.append(("%embed_include", os.path.join(repo_root, "embed", "include")))
config.substitutions.append(("%llvm_include", os.path.join(llvm_prefix, "include")))
config.substitutions.append(
    ("%mlir_c_dir", os.environ.get("FUSION_MLIR_C_DIR", os.path.join(repo_root, ".deps", "mlir-c")))
)
config.substitutions.append(("%llvm_lib", os.path.join(llvm_prefix, "lib")))
config.substitutions.append(("%llvm_bin", os.path.join(llvm_prefix, "bin")))

# `libmvec-avx2`: glibc's vector math library and an AVX2 CPU, the conditions under which
# the compiled code calls vector variants of math functions (codegen/src/vector_math.rs).
def _has_libmvec_avx2():
    try:
        flags = open("/proc/cpuinfo").read().split()
    except OSError:
        return False
    return "avx2" in flags and any(
        os.path.exists(os.path.join(d, "libmvec.so.1"))
        for d in ["/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib64"]
    )


if _has_libmvec_avx2():
    config.available_features.add("libmvec-avx2")
