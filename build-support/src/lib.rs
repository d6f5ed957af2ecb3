//! Helpers for build scripts (`[build-dependencies]` only).
//!
//! All locations come from environment variables that `.cargo/config.toml` sets and a
//! user may override (see the README's "Set-up" section). Why rpaths are emitted by
//! every crate that has binaries or tests: `cargo:rustc-link-arg` only applies to the
//! targets of the package whose build script prints it (unlike `rustc-link-lib`), so
//! each such package calls [`emit_runtime_search_paths`] itself.

use std::path::PathBuf;

fn var(name: &str) -> Option<String> {
    println!("cargo:rerun-if-env-changed={name}");
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// The LLVM/MLIR 22 installation prefix (`MLIR_SYS_220_PREFIX`).
pub fn llvm_prefix() -> PathBuf {
    PathBuf::from(var("MLIR_SYS_220_PREFIX").unwrap_or_else(|| "/usr/lib/llvm-22".into()))
}

/// The folder holding `libMLIR-C.so`, built by `scripts/setup.sh`.
pub fn mlir_c_dir() -> PathBuf {
    PathBuf::from(
        var("FUSION_MLIR_C_DIR")
            .expect("FUSION_MLIR_C_DIR is unset: build through the workspace (.cargo/config.toml sets it)"),
    )
}

/// The folder holding `libscip.so` (SCIP 10): `SCIP_LIB_DIR`, else the one set-up made.
pub fn scip_lib_dir() -> PathBuf {
    PathBuf::from(
        var("SCIP_LIB_DIR")
            .or_else(|| var("FUSION_DEFAULT_SCIP_LIB_DIR"))
            .expect("neither SCIP_LIB_DIR nor FUSION_DEFAULT_SCIP_LIB_DIR is set: build through the workspace"),
    )
}

/// Fails the build with a message that says how to fix it when `path` is missing.
pub fn require(path: &std::path::Path, what: &str) {
    if !path.exists() {
        panic!(
            "{what} not found at {}; run `scripts/setup.sh` (or `make`) first, \
             or point the override variable at your own install",
            path.display()
        );
    }
}

/// Lets this package's binaries and tests find the shared libraries at run time.
pub fn emit_runtime_search_paths() {
    for dir in [llvm_prefix().join("lib"), mlir_c_dir(), scip_lib_dir()] {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.display());
    }
}

/// Lets this package's tests find the SCIP runtime, for packages that link no MLIR.
pub fn emit_scip_search_path() {
    println!("cargo:rustc-link-arg=-Wl,-rpath,{}", scip_lib_dir().display());
}

/// A C++ build against the MLIR 22 headers, with the flags MLIR's own libraries are built
/// with (C++17, no RTTI, no exceptions); callers add their sources and compile.
#[cfg(feature = "cpp")]
pub fn mlir_cpp_build() -> cc::Build {
    let mut build = cc::Build::new();
    build
        .cpp(true)
        .std("c++17")
        .flag("-fno-rtti")
        .flag("-fno-exceptions")
        .flag("-Wno-unused-parameter")
        .include(llvm_prefix().join("include"));
    build
}
