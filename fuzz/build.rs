//! The fuzz targets load libMLIR-C.so and libscip.so at run time, like every binary of
//! the project.

fn main() {
    build_support::emit_runtime_search_paths();
}
