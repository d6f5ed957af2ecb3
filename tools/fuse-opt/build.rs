//! Compiles the C++ entry point that hands the command line to MLIR's `MlirOptMain`.

fn main() {
    println!("cargo:rerun-if-changed=cpp");
    build_support::mlir_cpp_build().file("cpp/FuseOptMain.cpp").compile("fuse_opt_main");
    build_support::emit_runtime_search_paths();
}
