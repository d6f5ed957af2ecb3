//! Lets this crate's tests find the SCIP runtime (through `fusion-solver`) at run time.

fn main() {
    build_support::emit_scip_search_path();
}
