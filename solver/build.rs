//! Links the SCIP 10 runtime that `scripts/setup.sh` unpacked from the pyscipopt wheel
//! (or the one in `SCIP_LIB_DIR`). scip-sys itself emits no link flags because
//! `.cargo/config.toml` sets `DOCS_RS` (the wheel has no headers for bindgen).

fn main() {
    let dir = build_support::scip_lib_dir();
    build_support::require(&dir.join("libscip.so"), "libscip.so (SCIP 10)");
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=dylib=scip");
    build_support::emit_runtime_search_paths();
}
