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

/// What `--emit-clustering=` asks for: the analysis report instead of the IR.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Emit {
    Json,
    Dot,
}

/// Takes our own flags, `--emit-clustering=json|dot` and `--dump-ilp=FILE`, out of the
/// arguments; everything else is MlirOptMain's. With it, the analysis runs (by default with its
/// default options, or as the user's `--pass-pipeline` says), the IR output is dropped,
/// and the report is printed on stdout.
fn take_emit_flag(args: &mut Vec<std::ffi::OsString>) -> Result<Option<Emit>, String> {
    let mut emit = None;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].to_string_lossy().into_owned();
        let value =
            if let Some(v) = arg.strip_prefix("--emit-clustering=").or_else(|| arg.strip_prefix("-emit-clustering=")) {
                args.remove(i);
                v.to_owned()
            } else if arg == "--emit-clustering" || arg == "-emit-clustering" {
                args.remove(i);
                if i < args.len() { args.remove(i).to_string_lossy().into_owned() } else { String::new() }
            } else {
                i += 1;
                continue;
            };
        emit = Some(match value.as_str() {
            "json" => Emit::Json,
            "dot" => Emit::Dot,
            other => return Err(format!("--emit-clustering: expected 'json' or 'dot', got '{other}'")),
        });
    }
    // `--dump-ilp=FILE`: the CPLEX LP text of each analysed block's model.
    let mut dump = None;
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].to_string_lossy().into_owned();
        if let Some(path) = arg.strip_prefix("--dump-ilp=").or_else(|| arg.strip_prefix("-dump-ilp=")) {
            dump = Some(path.to_owned());
            args.remove(i);
        } else {
            i += 1;
        }
    }
    let has_analysis = args.iter().any(|a| a.to_string_lossy().contains("array-fusion-analysis"));
    if let Some(path) = &dump {
        if has_analysis {
            return Err(format!(
                "--dump-ilp: the pipeline already names array-fusion-analysis; give the file as its option instead: array-fusion-analysis{{dump-ilp={path}}}"
            ));
        }
        if path.is_empty() || path.contains(['{', '}', ' ']) {
            return Err(format!("--dump-ilp: '{path}' is not a usable file name here"));
        }
        args.push(
            format!("--pass-pipeline=builtin.module(func.func(array-fusion-analysis{{dump-ilp={path}}}))").into(),
        );
    }
    if emit.is_some() {
        if !has_analysis && dump.is_none() {
            args.push("--pass-pipeline=builtin.module(func.func(array-fusion-analysis))".into());
        }
        args.push("-o".into());
        args.push("/dev/null".into());
    }
    Ok(emit)
}

mod aot;
mod runner;

fn main() {
    let mut os_args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match runner::take_run_flags(&mut os_args) {
        Ok(Some(options)) => std::process::exit(runner::run(&options)),
        Ok(None) => {}
        Err(message) => {
            eprintln!("fuse-opt: error: {message}");
            std::process::exit(1);
        }
    }
    match aot::take_aot_flags(&mut os_args) {
        Ok(Some(options)) => std::process::exit(aot::emit(&options)),
        Ok(None) => {}
        Err(message) => {
            eprintln!("fuse-opt: error: {message}");
            std::process::exit(1);
        }
    }
    let emit = match take_emit_flag(&mut os_args) {
        Ok(e) => e,
        Err(message) => {
            eprintln!("fuse-opt: error: {message}");
            std::process::exit(1);
        }
    };
    // Arguments come from the OS as NUL-free byte strings, so CString::new cannot fail.
    let args: Vec<CString> =
        os_args.iter().map(|a| CString::new(a.as_bytes()).expect("command-line arguments contain no NUL")).collect();
    let mut argv: Vec<*mut c_char> = args.iter().map(|a| a.as_ptr() as *mut c_char).collect();
    argv.push(std::ptr::null_mut());
    let version = CString::new(format!("fuse-opt {} (array dialect; MLIR 22)", env!("CARGO_PKG_VERSION")))
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
    if let Some(emit) = emit {
        let reports = fusion_passes::fusion_analysis::take_reports();
        match emit {
            Emit::Json => {
                let data: Vec<_> = reports.into_iter().map(|(r, _)| r).collect();
                println!("{}", fusion_analysis::report::to_json(&data));
            }
            Emit::Dot => {
                for (_, dot) in reports {
                    print!("{dot}");
                }
            }
        }
    }
    std::process::exit(code);
}
