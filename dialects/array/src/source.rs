//! Loading `.mlir` files with located diagnostics instead of a bare "parse failed".

use melior::{
    Context,
    diagnostic::{Diagnostic, DiagnosticSeverity},
    ir::{Location, Module, operation::OperationLike},
};
use std::{cell::RefCell, fmt, path::Path, rc::Rc};

/// One diagnostic rendered as `file:line:col: error: message` (the mlir-opt format).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub file: String,
    pub line: u32,
    pub column: u32,
    pub severity: &'static str,
    pub message: String,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}: {}", self.file, self.line, self.column, self.severity, self.message)
    }
}

/// Why a file could not be used.
#[derive(Debug)]
pub enum LoadError {
    Io(String, std::io::Error),
    /// Parse or verification failed; at least one located diagnostic.
    Invalid(Vec<Located>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(path, e) => write!(f, "{path}: error: cannot read the file: {e}"),
            LoadError::Invalid(diagnostics) => {
                for (i, d) in diagnostics.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{d}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// The file, line and column of `location` when it is (or wraps) a file location.
pub fn file_line_col(location: Location) -> Option<(String, u32, u32)> {
    use mlir_sys::*;
    let mut raw = location.to_raw();
    // SAFETY: all calls take a valid location of a live context and only read it.
    unsafe {
        loop {
            if mlirLocationIsAFileLineColRange(raw) {
                let name = mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(raw));
                let bytes = std::slice::from_raw_parts(name.data as *const u8, name.length);
                return Some((
                    String::from_utf8_lossy(bytes).into_owned(),
                    mlirLocationFileLineColRangeGetStartLine(raw) as u32,
                    mlirLocationFileLineColRangeGetStartColumn(raw) as u32,
                ));
            } else if mlirLocationIsAName(raw) {
                raw = mlirLocationNameGetChildLoc(raw);
            } else if mlirLocationIsACallSite(raw) {
                raw = mlirLocationCallSiteGetCallee(raw);
            } else if mlirLocationIsAFused(raw) && mlirLocationFusedGetNumLocations(raw) > 0 {
                let mut first = mlirLocationUnknownGet(mlirLocationGetContext(raw));
                // Fused locations list their parts; the first one is the primary location.
                let n = mlirLocationFusedGetNumLocations(raw) as usize;
                let mut parts = vec![first; n];
                mlirLocationFusedGetLocations(raw, parts.as_mut_ptr());
                first = parts[0];
                raw = first;
            } else {
                return None;
            }
        }
    }
}

fn locate(diagnostic: &Diagnostic, fallback_file: &str) -> Located {
    let (file, line, column) = file_line_col(diagnostic.location()).unwrap_or_else(|| (fallback_file.to_owned(), 0, 0));
    let severity = match diagnostic.severity() {
        DiagnosticSeverity::Error => "error",
        DiagnosticSeverity::Warning => "warning",
        DiagnosticSeverity::Note => "note",
        DiagnosticSeverity::Remark => "remark",
    };
    let mut message = diagnostic.to_string();
    for i in 0..diagnostic.note_count() {
        // The verifier's "see current operation" note repeats the op in generic form; the
        // location already says where it is.
        if let Ok(note) = diagnostic.note(i)
            && !note.to_string().starts_with("see current operation")
        {
            message.push_str(&format!("\n  note: {note}"));
        }
    }
    Located { file, line, column, severity, message }
}

/// Parses and verifies the file at `path` in `context`.
pub fn load_file<'c>(context: &'c Context, path: &Path) -> Result<Module<'c>, LoadError> {
    let display = path.display().to_string();
    // Read first so that a missing file is an I/O error, not a parser diagnostic.
    std::fs::metadata(path).map_err(|e| LoadError::Io(display.clone(), e))?;
    with_diagnostics(context, &display, || {
        let name = melior::StringRef::new(&display);
        // SAFETY: the context outlives the module; a null module means failure.
        unsafe { mlir_sys::mlirModuleCreateParseFromFile(context.to_raw(), name.to_raw()) }
    })
}

/// Parses and verifies `source`; diagnostics name `file_name`.
pub fn parse_source<'c>(context: &'c Context, source: &str, file_name: &str) -> Result<Module<'c>, LoadError> {
    if let Some(error) = parser_crash(source, file_name) {
        return Err(LoadError::Invalid(vec![error]));
    }
    // MLIR's lexer relies on the NUL that `llvm::MemoryBuffer` keeps after a file's
    // contents: it scans a token until a character that cannot continue it, and a Rust
    // string has no such end mark, so a source ending inside an identifier was read past
    // its end (a heap over-read that `fuzz/`'s parse_verify target found under
    // AddressSanitizer, on the 8 bytes `arm_sv26`). The parser gets a copy that ends in a
    // NUL, which it does not count.
    let mut terminated = String::with_capacity(source.len() + 1);
    terminated.push_str(source);
    terminated.push('\0');
    with_diagnostics(context, file_name, || {
        let src = melior::StringRef::new(&terminated[..source.len()]);
        // SAFETY: as above.
        unsafe { mlir_sys::mlirModuleCreateParse(context.to_raw(), src.to_raw()) }
    })
}

/// A construct of `source` that MLIR 22's parser crashes on instead of reporting it, as
/// a located error (`file_name` names the source), or `None`. Every parse of user
/// input checks this first: [`parse_source`] and `fuse-opt`'s driver.
pub fn parser_crash(source: &str, file_name: &str) -> Option<Located> {
    let (line, column) = dense_index_array(source)?;
    Some(Located {
        file: file_name.to_owned(),
        line,
        column,
        severity: "error",
        message:
            "a dense array of `index` elements (`array<index ...>`) is not supported: MLIR 22's parser crashes on it"
                .into(),
    })
}

/// Where the source has a dense array attribute of `index` elements, `array<index`
/// (whitespace and comments allowed between the tokens), outside string literals and
/// comments: 1-based line and column of `array`. MLIR 22's parser accepts `index` as
/// the element type and then asks it for its bit width, which crashes (the
/// `parse_verify` fuzz target found it); every other element type gets a diagnostic.
fn dense_index_array(source: &str) -> Option<(u32, u32)> {
    let bytes = source.as_bytes();
    let word =
        |i: usize| bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'.' || *b == b'$');
    // Skips whitespace and `//` comments from `i`.
    let skip = |mut i: usize| loop {
        match bytes.get(i) {
            Some(b) if b.is_ascii_whitespace() => i += 1,
            Some(b'/') if bytes.get(i + 1) == Some(&b'/') => {
                while bytes.get(i).is_some_and(|b| *b != b'\n') {
                    i += 1;
                }
            }
            _ => return i,
        }
    };
    let (mut i, mut line, mut line_start) = (0, 1u32, 0);
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                line += 1;
                line_start = i + 1;
                i += 1;
            }
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\n' {
                        line += 1;
                        line_start = i + 1;
                    }
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            _ if bytes[i..].starts_with(b"array") && (i == 0 || !word(i - 1)) && !word(i + 5) => {
                let open = skip(i + 5);
                if bytes.get(open) == Some(&b'<') {
                    let element = skip(open + 1);
                    if bytes[element..].starts_with(b"index") && !word(element + 5) {
                        return Some((line, (i - line_start + 1) as u32));
                    }
                }
                i += 5;
            }
            _ => i += 1,
        }
    }
    None
}

/// Runs `parse`, then the verifier, collecting every diagnostic on the way.
fn with_diagnostics<'c>(
    context: &'c Context,
    file_name: &str,
    parse: impl FnOnce() -> mlir_sys::MlirModule,
) -> Result<Module<'c>, LoadError> {
    let collected: Rc<RefCell<Vec<Located>>> = Rc::default();
    let sink = collected.clone();
    let fallback = file_name.to_owned();
    let handler = context.attach_diagnostic_handler(move |d| {
        let mut located = locate(&d, &fallback);
        if located.file.is_empty() || located.file == "-" {
            located.file = fallback.clone();
        }
        sink.borrow_mut().push(located);
        true
    });
    let raw = parse();
    // SAFETY: a non-null module returned by the parser is owned by us from here on.
    let module = (!raw.ptr.is_null()).then(|| unsafe { Module::from_raw(raw) });
    let verified = module.filter(|m| m.as_operation().verify());
    context.detach_diagnostic_handler(handler);
    let mut diagnostics = collected.take();
    match verified {
        Some(module) if diagnostics.iter().all(|d| d.severity != "error") => Ok(module),
        _ => {
            if diagnostics.iter().all(|d| d.severity != "error") {
                diagnostics.push(Located {
                    file: file_name.to_owned(),
                    line: 0,
                    column: 0,
                    severity: "error",
                    message: "the module failed to parse or verify".into(),
                });
            }
            Err(LoadError::Invalid(diagnostics))
        }
    }
}

/// The `.mlir` files `path` names: the file itself, or every `.mlir` file below the folder
/// (recursively), sorted so that tables list them in a stable order.
pub fn mlir_files(path: &Path) -> std::io::Result<Vec<std::path::PathBuf>> {
    let mut out = Vec::new();
    collect_mlir_files(path, &mut out)?;
    Ok(out)
}

fn collect_mlir_files(path: &Path, out: &mut Vec<std::path::PathBuf>) -> std::io::Result<()> {
    if !path.is_dir() {
        out.push(path.to_owned());
        return Ok(());
    }
    let mut entries: Vec<std::path::PathBuf> =
        std::fs::read_dir(path)?.map(|e| e.map(|e| e.path())).collect::<Result<_, _>>()?;
    entries.sort();
    for entry in entries {
        if entry.is_dir() || entry.extension().is_some_and(|e| e == "mlir") {
            collect_mlir_files(&entry, out)?;
        }
    }
    Ok(())
}
