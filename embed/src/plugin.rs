//! The entry points stock `mlir-opt` looks for in a plugin (MLIR 22,
//! `mlir/Tools/Plugins/{Dialect,Pass}Plugin.h`): `libarray_fusion.so` is both a dialect and
//! a pass plugin.
//!
//! ```text
//! mlir-opt --load-dialect-plugin=libarray_fusion.so --load-pass-plugin=libarray_fusion.so \
//!   --pass-pipeline='builtin.module(func.func(array-fusion{cost=reads}), array-to-loops)' in.mlir
//! ```
//!
//! The library links `libMLIR.so` dynamically, like `mlir-opt` itself, so the dialect and the
//! passes land in the host's registries, not in a copy of them. The structs are written here
//! in Rust because a Rust shared library exports only the symbols Rust defines.

use std::ffi::{c_char, c_void};

/// `MLIR_PLUGIN_API_VERSION` of MLIR 22.
const PLUGIN_API_VERSION: u32 = 1;
const NAME: &c_char = unsafe { &*c"array-fusion".as_ptr() };
const VERSION: &c_char = unsafe { &*concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast::<c_char>() };

/// `mlir::DialectPluginLibraryInfo`.
#[repr(C)]
pub struct DialectPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    /// Receives the host's `mlir::DialectRegistry *`.
    pub register_dialect_registry_callbacks: unsafe extern "C" fn(registry: *mut c_void),
}

/// `mlir::PassPluginLibraryInfo`.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    pub api_version: u32,
    pub plugin_name: *const c_char,
    pub plugin_version: *const c_char,
    pub register_pass_registry_callbacks: unsafe extern "C" fn(),
}

unsafe extern "C" fn register_dialect(registry: *mut c_void) {
    // SAFETY: `MlirDialectRegistry` wraps a `mlir::DialectRegistry *` (mlir/CAPI/IR.h), which
    // is what the host hands over, live during the call.
    unsafe {
        mlir_sys::mlirDialectHandleInsertDialect(
            array_dialect::dialect_handle().to_raw(),
            mlir_sys::MlirDialectRegistry { ptr: registry },
        )
    };
}

unsafe extern "C" fn register_passes() {
    // A panic must not unwind into the host.
    if std::panic::catch_unwind(crate::register_passes).is_err() {
        eprintln!("array-fusion plugin: registering the passes failed");
    }
}

/// What `mlir-opt --load-dialect-plugin` calls: the `array` dialect.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetDialectPluginInfo() -> DialectPluginLibraryInfo {
    DialectPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: NAME,
        plugin_version: VERSION,
        register_dialect_registry_callbacks: register_dialect,
    }
}

/// What `mlir-opt --load-pass-plugin` calls: the passes and the `array-fusion` pipeline.
#[unsafe(no_mangle)]
pub extern "C" fn mlirGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: NAME,
        plugin_version: VERSION,
        register_pass_registry_callbacks: register_passes,
    }
}
