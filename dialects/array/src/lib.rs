//! The `array` dialect of data-parallel combinators, for Rust users of melior.
//!
//! The dialect is defined once, in `td/ArrayOps.td`. `build.rs` turns it into C++ (op
//! classes, parsers, printers) that `cpp/ArrayDialect.cpp` completes with verifiers; the
//! same file also gives the typed builders of [`ops`] through melior's `dialect!` macro.

pub mod raw;
pub mod source;
pub mod types;
pub mod view;

use melior::{
    Context,
    dialect::{DialectHandle, DialectRegistry},
    utility::{register_all_dialects, register_all_llvm_translations, register_all_passes},
};

unsafe extern "C" {
    /// Defined by `MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Array, array, ...)`.
    fn mlirGetDialectHandle__array__() -> mlir_sys::MlirDialectHandle;
}

/// The C API handle of the `array` dialect.
pub fn dialect_handle() -> DialectHandle {
    // SAFETY: the function only returns a pointer to static registration hooks.
    unsafe { DialectHandle::from_raw(mlirGetDialectHandle__array__()) }
}

/// Adds the `array` dialect to `registry`.
pub fn register(registry: &DialectRegistry) {
    dialect_handle().insert_dialect(registry);
}

/// A context with every upstream dialect, their extensions and the `array` dialect
/// registered and loaded, all upstream passes registered, and the LLVM IR translations
/// available: what `fuse-opt` offers, for use from Rust.
pub fn context() -> Context {
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    register(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    register_all_passes();
    register_all_llvm_translations(&context);
    context
}

/// Typed builders of the `array` ops, generated from `td/ArrayOps.td`.
pub mod ops {
    melior::dialect! {
        name: "array",
        files: ["ArrayOps.td"],
        include_directory_env_vars: ["ARRAY_TD_DIR"],
    }
}
