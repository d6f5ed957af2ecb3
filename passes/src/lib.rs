//! Analyses and passes over programs in the `array` dialect.
//!
//! Every pass is one module and is registered in MLIR's pass registry by
//! [`register_all_passes`], which `fuse-opt` calls before parsing its command line.

pub mod extract;
pub mod bridge;
pub mod desugar;
pub mod fuse;
pub mod fusion_analysis;
pub mod index_expr;
pub mod ir;
pub mod simplify_gathers;
pub mod summary;
mod test_summary;
pub mod to_loops;
pub mod unfuse;

/// Registers every pass of this crate (idempotent).
pub fn register_all_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        bridge::register(&test_summary::DEFINITION);
        bridge::register(&fusion_analysis::DEFINITION);
        bridge::register(&desugar::DEFINITION);
        bridge::register(&fuse::DEFINITION);
        bridge::register(&unfuse::DEFINITION);
        bridge::register(&simplify_gathers::DEFINITION);
        bridge::register(&to_loops::DEFINITION);
        bridge::register_pipeline(&FUSION_PIPELINE);
    });
}

/// `array-fusion`: the whole fusion pipeline on a function; its options are those of
/// `array-fusion-analysis`, forwarded as given.
static FUSION_PIPELINE: bridge::PipelineDefinition = bridge::PipelineDefinition {
    argument: "array-fusion",
    description: "The whole fusion pipeline on a function: desugar, remove identity gathers, choose the optimal clustering, materialize it as fusion trees; options are those of array-fusion-analysis",
    anchor: "func.func",
    passes: &[&desugar::DEFINITION, &simplify_gathers::DEFINITION, &fusion_analysis::DEFINITION, &fuse::DEFINITION],
    options_of: &fusion_analysis::DEFINITION,
};

/// `array.yield` of `values` (the terminator of every element function and tree region).
pub(crate) fn ops_yield<'c>(
    _context: &'c melior::Context,
    values: &[melior::ir::Value<'c, '_>],
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    melior::ir::operation::OperationBuilder::new("array.yield", location)
        .add_operands(values)
        .build()
        .expect("array.yield is valid with any operands")
}
