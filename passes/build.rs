//! Compiles the C++ half of the Rust pass bridge (`cpp/RustPassBridge.cpp`).

fn main() {
    println!("cargo:rerun-if-changed=cpp");
    build_support::mlir_cpp_build().file("cpp/RustPassBridge.cpp").compile("fusion_pass_bridge");
    build_support::emit_runtime_search_paths();
}
