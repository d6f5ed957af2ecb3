//! The integration tests of the workspace, one module per area.

mod analysis;
mod builders;
mod compiled_differential;
mod differential;
mod embedding;
mod examples;
mod fuse_roundtrip;
mod gpu;
mod graphs;
mod loading;
mod lowering;
mod optimality;

/// The repository root (this crate lives in `tests/`).
pub fn repo_root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_owned()
}
