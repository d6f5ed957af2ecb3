//! The binary links MLIR and SCIP as shared libraries: tell it where they are at run time.

fn main() {
    build_support::emit_runtime_search_paths();
}
