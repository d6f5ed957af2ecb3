//! Analyses and passes over programs in the `array` dialect.
//!
//! Every pass is one module and is registered in MLIR's pass registry by
//! [`register_all_passes`], which `fuse-opt` calls before parsing its command line.

pub mod analysis;
pub mod bridge;
pub mod fuse;
pub mod fusion_analysis;
pub mod ir;
pub mod summary;
pub mod unfuse;
mod test_summary;

/// Registers every pass of this crate (idempotent).
pub fn register_all_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        bridge::register(&test_summary::DEFINITION);
        bridge::register(&fusion_analysis::DEFINITION);
        bridge::register(&fuse::DEFINITION);
        bridge::register(&unfuse::DEFINITION);
        bridge::register_fusion_pipeline("ANALYSIS,array-fuse");
    });
}
