//! Generates the dialect's C++ from `td/ArrayOps.td` with mlir-tblgen 22, compiles it
//! with the verifiers in `cpp/`, and links the result with MLIR's shared libraries.

use std::{path::PathBuf, process::Command};

const GENERATORS: &[(&str, &str)] = &[
    ("-gen-dialect-decls", "ArrayDialect.h.inc"),
    ("-gen-dialect-defs", "ArrayDialect.cpp.inc"),
    ("-gen-op-decls", "ArrayOps.h.inc"),
    ("-gen-op-defs", "ArrayOps.cpp.inc"),
    ("-gen-enum-decls", "ArrayEnums.h.inc"),
    ("-gen-enum-defs", "ArrayEnums.cpp.inc"),
];

fn main() {
    let prefix = build_support::llvm_prefix();
    let tblgen = prefix.join("bin/mlir-tblgen");
    build_support::require(&tblgen, "mlir-tblgen 22");
    let include = prefix.join("include");
    let out = PathBuf::from(std::env::var("OUT_DIR").unwrap());
    let td = PathBuf::from("td/ArrayOps.td");
    println!("cargo:rerun-if-changed=td");
    println!("cargo:rerun-if-changed=cpp");

    for (generator, file) in GENERATORS {
        let status = Command::new(&tblgen)
            .arg(generator)
            .arg("-dialect=array")
            .arg(format!("-I{}", include.display()))
            .arg(&td)
            .arg("-o")
            .arg(out.join(file))
            .status()
            .expect("could not run mlir-tblgen");
        assert!(status.success(), "mlir-tblgen {generator} failed on {}", td.display());
    }

    build_support::mlir_cpp_build()
        .include(&out)
        .include("cpp")
        .file("cpp/ArrayDialect.cpp")
        .compile("array_dialect_cpp");

    let mlir_c = build_support::mlir_c_dir();
    build_support::require(&mlir_c.join("libMLIR-C.so"), "libMLIR-C.so");
    println!("cargo:rustc-link-search=native={}", mlir_c.display());
    println!("cargo:rustc-link-search=native={}", prefix.join("lib").display());
    println!("cargo:rustc-link-lib=dylib=MLIR");
    println!("cargo:rustc-link-lib=dylib=LLVM");
    build_support::emit_runtime_search_paths();
}
