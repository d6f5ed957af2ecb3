//! Compiles the C++ entry point that hands the command line to MLIR's `MlirOptMain`.

fn main() {
    let include = build_support::llvm_prefix().join("include");
    println!("cargo:rerun-if-changed=cpp");
    cc::Build::new()
        .cpp(true)
        .std("c++17")
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .flag("-Wno-unused-parameter")
        .include(&include)
        .file("cpp/FuseOptMain.cpp")
        .compile("fuse_opt_main");
    build_support::emit_runtime_search_paths();
}
