//! `fuse-opt`: the `mlir-opt` of this project.
//!
//! All command-line handling is MLIR's own (`MlirOptMain`), so users get the flags and
//! diagnostics they know from `mlir-opt`; this binary contributes the `array` dialect
//! and, through it, the project's passes.

use std::ffi::{CString, c_char, c_int};
use std::os::unix::ffi::OsStrExt;

unsafe extern "C" {
    fn signal(signum: c_int, handler: usize) -> usize;
    fn fuseOptMain(
        argc: c_int,
        argv: *mut *mut c_char,
        version: *const c_char,
        dialects: *const mlir_sys::MlirDialectHandle,
        num_dialects: c_int,
        check_input: extern "C" fn(*const c_char) -> c_int,
    ) -> c_int;
    fn pipe(fds: *mut c_int) -> c_int;
    fn dup2(old: c_int, new: c_int) -> c_int;
    fn close(fd: c_int) -> c_int;
}

/// The driver's check of its input before MLIR parses it (`FuseOptMain.cpp`): a
/// construct MLIR 22's parser would crash on ([`array_dialect::source::parser_crash`])
/// is reported as a located error and the run ends with exit code 1, as for any parse
/// error. `name` is MLIR's input file name, `-` for stdin. Standard input is read whole
/// and fed back to MLIR through a pipe, so MLIR still reads it (and names it
/// `<stdin>`); if that fails, the run ends with an error rather than with MLIR reading
/// an emptied stdin. A file that cannot be read is left to MLIR, which reports it.
extern "C" fn check_input(name: *const c_char) -> c_int {
    // SAFETY: the driver passes a NUL-terminated string that outlives the call.
    let name = unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy().into_owned();
    let outcome = std::panic::catch_unwind(|| {
        let stdin = name == "-";
        let bytes = if stdin {
            if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
                // MLIR's own notice, which it no longer prints once stdin is the pipe.
                eprintln!("(processing input from stdin now, hit ctrl-c/ctrl-d to interrupt)");
            }
            let mut bytes = Vec::new();
            if let Err(e) = std::io::Read::read_to_end(&mut std::io::stdin(), &mut bytes) {
                eprintln!("fuse-opt: error: cannot read standard input: {e}");
                return 1;
            }
            bytes
        } else {
            match std::fs::read(&name) {
                Ok(bytes) => bytes,
                Err(_) => return 0,
            }
        };
        let shown = if stdin { "<stdin>" } else { name.as_str() };
        if let Some(error) = array_dialect::source::parser_crash(&String::from_utf8_lossy(&bytes), shown) {
            eprintln!("{error}");
            return 1;
        }
        if stdin && let Err(e) = refeed_stdin(bytes) {
            eprintln!("fuse-opt: error: cannot pass standard input on to MLIR: {e}");
            return 1;
        }
        0
    });
    outcome.unwrap_or(1)
}

/// Makes `bytes` the rest of standard input: a pipe replaces file descriptor 0 and a
/// thread writes them into it (a pipe holds only 64 KiB), closing it at the end.
fn refeed_stdin(bytes: Vec<u8>) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    let mut fds: [c_int; 2] = [-1, -1];
    // SAFETY: `fds` has room for the two descriptors `pipe` writes.
    if unsafe { pipe(fds.as_mut_ptr()) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: both descriptors were just opened; the read end replaces stdin and its
    // original number is closed (unless it is 0 already, which Rust's runtime, opening
    // /dev/null on a closed stdin, makes unlikely), the write end is owned by the
    // writer thread below.
    unsafe {
        if fds[0] != 0 && dup2(fds[0], 0) < 0 {
            let error = std::io::Error::last_os_error();
            close(fds[0]);
            close(fds[1]);
            return Err(error);
        }
        if fds[0] != 0 {
            close(fds[0]);
        }
    }
    // SAFETY: the write end is open and owned by nothing else.
    let mut writer = unsafe { std::fs::File::from_raw_fd(fds[1]) };
    std::thread::spawn(move || {
        // MLIR reads stdin to its end before parsing; if it stops early, the process
        // ends with it.
        let _ = writer.write_all(&bytes);
    });
    Ok(())
}

/// What `--emit-clustering=` asks for: the analysis report instead of the IR.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Emit {
    Json,
    Dot,
}

/// Where `--emit-clustering` has the analysis write its report: the pass option
/// `emit-clustering=FILE` of array-fusion-analysis, with a file of this run.
struct Clustering {
    emit: Emit,
    file: std::path::PathBuf,
}

impl Clustering {
    fn new(emit: Emit) -> Result<Self, String> {
        let extension = match emit {
            Emit::Json => "json",
            Emit::Dot => "dot",
        };
        let file = std::env::temp_dir().join(format!("fuse-opt-{}-clustering.{extension}", std::process::id()));
        if file.to_string_lossy().contains(['\'', '{', '}']) {
            return Err(format!(
                "--emit-clustering: the temporary file '{}' cannot be named in a pass option",
                file.display()
            ));
        }
        Ok(Clustering { emit, file })
    }

    /// The pass option that names the file (quoted: the temporary directory may hold spaces).
    fn option(&self) -> String {
        format!("emit-clustering='{}'", self.file.display())
    }

    /// Prints what the analysis wrote (nothing analysed: no functions) and removes the file.
    fn print(&self) {
        match std::fs::read_to_string(&self.file) {
            Ok(text) => print!("{text}"),
            Err(_) if self.emit == Emit::Json => println!("{}", fusion_analysis::report::to_json(&[])),
            Err(_) => {}
        }
        let _ = std::fs::remove_file(&self.file);
    }
}

/// Gives `option` to every array-fusion-analysis that `arg` names: in a textual pipeline
/// (`array-fusion-analysis` or `array-fusion-analysis{...}`) or as the pass's own flag
/// (`--array-fusion-analysis[=...]`).
fn add_analysis_option(arg: &str, option: &str) -> String {
    const NAME: &str = "array-fusion-analysis";
    for dashes in ["--", "-"] {
        if let Some(rest) = arg.strip_prefix(dashes).and_then(|r| r.strip_prefix(NAME)) {
            if rest.is_empty() {
                return format!("{dashes}{NAME}={option}");
            }
            if let Some(options) = rest.strip_prefix('=') {
                return format!("{dashes}{NAME}={option} {options}");
            }
        }
    }
    let mut out = String::new();
    let mut rest = arg;
    while let Some(at) = rest.find(NAME) {
        let after = &rest[at + NAME.len()..];
        out.push_str(&rest[..at + NAME.len()]);
        match after.strip_prefix('{') {
            Some(options) => {
                out.push_str(&format!("{{{option} "));
                rest = options;
            }
            None => {
                out.push_str(&format!("{{{option}}}"));
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// Takes our own flags, `--emit-clustering=json|dot` and `--dump-ilp=FILE`, out of the
/// arguments; everything else is MlirOptMain's. With it, the analysis runs (by default with its
/// default options, or as the user's pipeline says) with the option `emit-clustering=FILE`,
/// the IR output is dropped, and the report is printed on stdout.
fn take_emit_flag(args: &mut Vec<std::ffi::OsString>) -> Result<Option<Clustering>, String> {
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
    // MlirOptMain builds one pipeline per chunk of a split input, and each pipeline's analysis
    // rewrites the report file: all chunks but the last would be lost, so refuse instead.
    let split = args.iter().any(|a| {
        let a = a.to_string_lossy();
        a.trim_start_matches('-').starts_with("split-input-file")
    });
    if emit.is_some() && split {
        return Err("--emit-clustering does not combine with --split-input-file (the report would hold only the \
                    last chunk); run the analysis on each chunk's file separately"
            .to_owned());
    }
    let clustering = emit.map(Clustering::new).transpose()?;
    let mut options = Vec::new();
    if let Some(path) = &dump {
        if has_analysis {
            return Err(format!(
                "--dump-ilp: the pipeline already names array-fusion-analysis; give the file as its option instead: array-fusion-analysis{{dump-ilp={path}}}"
            ));
        }
        if path.is_empty() || path.contains(['{', '}', ' ']) {
            return Err(format!("--dump-ilp: '{path}' is not a usable file name here"));
        }
        options.push(format!("dump-ilp={path}"));
    }
    if let Some(clustering) = &clustering {
        if has_analysis {
            // The user's pipeline: its analyses (flags or pipeline text) write the report.
            let mut pipeline_value = false;
            for arg in args.iter_mut() {
                let text = arg.to_string_lossy().into_owned();
                let is_pipeline = pipeline_value || text.starts_with('-');
                pipeline_value = text == "--pass-pipeline" || text == "-pass-pipeline";
                if is_pipeline && text.contains("array-fusion-analysis") {
                    *arg = add_analysis_option(&text, &clustering.option()).into();
                }
            }
        } else {
            options.push(clustering.option());
        }
    }
    if !options.is_empty() {
        args.push(
            format!("--pass-pipeline=builtin.module(func.func(array-fusion-analysis{{{}}}))", options.join(" ")).into(),
        );
    }
    if clustering.is_some() {
        args.push("-o".into());
        args.push("/dev/null".into());
    }
    Ok(clustering)
}

mod aot;
mod gpu;
mod runner;

fn main() {
    // Output into a closed pipe (`fuse-opt … | head`) ends the program quietly, as it ends
    // `mlir-opt`: Rust's runtime ignores SIGPIPE, and LLVM's output stream then stopped with
    // "LLVM ERROR: IO failure on output stream: Broken pipe". SIGPIPE is 13 and SIG_DFL 0.
    // SAFETY: sets a signal disposition before any other thread exists.
    unsafe { signal(13, 0) };
    let mut os_args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    match runner::take_run_flags(&mut os_args) {
        Ok(Some(options)) => std::process::exit(runner::run(&options)),
        Ok(None) => {}
        Err(message) => {
            eprintln!("fuse-opt: error: {message}");
            std::process::exit(1);
        }
    }
    match gpu::take_gpu_flags(&mut os_args) {
        Ok(Some(options)) => std::process::exit(gpu::emit(&options)),
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
    let clustering = match take_emit_flag(&mut os_args) {
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
    fusion_passes::register_test_passes();
    let dialects = [array_dialect::dialect_handle().to_raw()];
    // SAFETY: argv is NUL-terminated and outlives the call; the handles are static.
    let code = unsafe {
        fuseOptMain(
            args.len() as c_int,
            argv.as_mut_ptr(),
            version.as_ptr(),
            dialects.as_ptr(),
            dialects.len() as c_int,
            check_input,
        )
    };
    if let Some(clustering) = clustering {
        clustering.print();
    }
    std::process::exit(code);
}
