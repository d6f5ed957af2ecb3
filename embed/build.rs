//! Lets the shared library (the plugin, the C API) and the doc tests find libMLIR,
//! libMLIR-C and libscip at run time wherever they are loaded from, and exports from the
//! shared library the C++ symbols MLIR's TypeIDs need shared with the host (`exports.map`
//! says why).

fn main() {
    build_support::emit_runtime_search_paths();
    let map = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("exports.map");
    println!("cargo:rerun-if-changed={}", map.display());
    println!("cargo:rustc-link-arg-cdylib=-Wl,--version-script={}", map.display());
}
