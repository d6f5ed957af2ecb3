//! `fuse-opt`: the `mlir-opt` of this project.
//!
//! All command-line handling is MLIR's own (`MlirOptMain`), so users get the flags and
//! diagnostics they know from `mlir-opt`; this binary contributes the `array` dialect
//! and, through it, the project's passes.

use std::ffi::{CString, c_char, c_int};
use std::os::unix::ffi::OsStrExt;

unsafe extern "C" {
    fn fuseOptMain(
        argc: c_int,
        argv: *mut *mut c_char,
        version: *const c_char,
        dialects: *const mlir_sys::MlirDialectHandle,
        num_dialects: c_int,
    ) -> c_int;
}

fn main() {
    // Arguments come from the OS as NUL-free byte strings, so CString::new cannot fail.
    let args: Vec<CString> = std::env::args_os()
        .map(|a| CString::new(a.as_bytes()).expect("command-line arguments contain no NUL"))
        .collect();
    let mut argv: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr() as *mut c_char).collect();
    argv.push(std::ptr::null_mut());
    let version = CString::new(format!(
        "fuse-opt {} (array dialect; MLIR 22)",
        env!("CARGO_PKG_VERSION")
    ))
    .expect("version has no NUL");
    fusion_passes::register_all_passes();
    let dialects = [array_dialect::dialect_handle().to_raw()];
    // SAFETY: argv is NUL-terminated and outlives the call; the handles are static.
    let code = unsafe {
        fuseOptMain(
            args.len() as c_int,
            argv.as_mut_ptr(),
            version.as_ptr(),
            dialects.as_ptr(),
            dialects.len() as c_int,
        )
    };
    std::process::exit(code);
}
