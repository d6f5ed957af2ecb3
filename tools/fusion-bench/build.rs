fn main() {
    build_support::emit_runtime_search_paths();
}
