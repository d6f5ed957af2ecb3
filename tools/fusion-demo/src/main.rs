//! `fusion-demo [FILE|DIR]...`: parses and verifies every example program and prints,
//! per function, its number of combinators and of array values. With no argument it
//! reads `examples/`. Exits with 1 when any file fails to load (its located diagnostics
//! are printed), after reporting all the others.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn collect(path: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()?;
        entries.sort();
        for entry in entries {
            if entry.is_dir() || entry.extension().is_some_and(|e| e == "mlir") {
                collect(&entry, out)?;
            }
        }
    } else {
        out.push(path.to_owned());
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if args.iter().any(|a| a == Path::new("--help") || a == Path::new("-h")) {
        println!("usage: fusion-demo [FILE|DIR]...   (default: examples/)");
        return ExitCode::SUCCESS;
    }
    let roots = if args.is_empty() { vec![PathBuf::from("examples")] } else { args };
    let mut files = Vec::new();
    for root in &roots {
        if let Err(e) = collect(root, &mut files) {
            eprintln!("{}: error: {e}", root.display());
            return ExitCode::FAILURE;
        }
    }
    if files.is_empty() {
        eprintln!("error: no .mlir files under {roots:?}");
        return ExitCode::FAILURE;
    }

    let context = array_dialect::context();
    let mut failures = 0;
    let mut rows = Vec::new();
    for file in &files {
        match array_dialect::source::load_file(&context, file) {
            Ok(module) => {
                for f in fusion_passes::summary::summarize(&module) {
                    rows.push([
                        file.display().to_string(),
                        f.name.clone(),
                        f.combinator_count().to_string(),
                        f.array_values.to_string(),
                        "verified".to_owned(),
                    ]);
                }
            }
            Err(error) => {
                failures += 1;
                eprintln!("{error}");
                rows.push([file.display().to_string(), "-".into(), "-".into(), "-".into(), "FAILED".into()]);
            }
        }
    }

    let header = ["program file", "function", "combinators", "array values", "status"];
    let widths: Vec<usize> = (0..header.len())
        .map(|c| rows.iter().map(|r| r[c].len()).chain([header[c].len()]).max().unwrap_or(0))
        .collect();
    let line = |cells: &[String]| {
        cells.iter().zip(&widths).map(|(c, w)| format!("{c:<w$}")).collect::<Vec<_>>().join("  ").trim_end().to_owned()
    };
    println!("{}", line(&header.map(String::from)));
    println!("{}", widths.iter().map(|w| "-".repeat(*w)).collect::<Vec<_>>().join("  "));
    for row in &rows {
        println!("{}", line(row));
    }
    println!(
        "\n{} file(s), {} function(s), {} failed",
        files.len(),
        rows.iter().filter(|r| r[4] == "verified").count(),
        failures
    );
    if failures > 0 { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
