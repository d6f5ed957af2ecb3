//! Compiles the C++ half of the Rust pass bridge (`cpp/RustPassBridge.cpp`).

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
        .file("cpp/RustPassBridge.cpp")
        .compile("fusion_pass_bridge");
    build_support::emit_runtime_search_paths();
}
