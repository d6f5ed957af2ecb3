//! Lets the tests of this crate find the shared MLIR libraries at run time.

fn main() {
    build_support::emit_runtime_search_paths();
}
