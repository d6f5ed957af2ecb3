//! Analyses and passes over programs in the `array` dialect.
//!
//! Every pass is one module and is registered in MLIR's pass registry by
//! [`register_all_passes`], which `fuse-opt` calls before parsing its command line; the
//! passes that exist for tests only are registered by [`register_test_passes`] (like
//! MLIR's `registerTestPasses`), which `fuse-opt` calls too and a library user need not.

pub mod bridge;
pub mod desugar;
pub mod extract;
pub mod fuse;
pub mod fusion_analysis;
pub mod huge_pages;
pub mod index_expr;
pub mod invariant_division;
pub mod ir;
pub mod loop_copies;
pub mod merge_row_loops;
pub mod own_loop_inits;
pub mod parallel_forms;
pub mod prefetch_gathers;
pub mod recompute;
pub mod remainder_segments;
pub mod reuse_buffers;
pub mod rotate_while;
pub mod simplify_gathers;
pub mod summary;
mod test_summary;
pub mod to_gpu;
pub mod to_loops;
pub mod unfuse;

/// Registers every pass of this crate and the `array-fusion` pipeline (idempotent).
pub fn register_all_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        bridge::register(&fusion_analysis::DEFINITION);
        bridge::register(&desugar::DEFINITION);
        bridge::register(&fuse::DEFINITION);
        bridge::register(&simplify_gathers::DEFINITION);
        bridge::register(&recompute::DEFINITION);
        bridge::register(&to_loops::DEFINITION);
        bridge::register(&parallel_forms::DEFINITION);
        bridge::register(&loop_copies::DEFINITION);
        bridge::register(&own_loop_inits::DEFINITION);
        bridge::register(&reuse_buffers::DEFINITION);
        bridge::register(&merge_row_loops::DEFINITION);
        bridge::register(&prefetch_gathers::DEFINITION);
        bridge::register(&rotate_while::DEFINITION);
        bridge::register(&huge_pages::DEFINITION);
        bridge::register(&invariant_division::DEFINITION);
        bridge::register(&remainder_segments::DEFINITION);
        bridge::register(&to_gpu::DEFINITION);
        bridge::register(&to_gpu::emulate::DEFINITION);
        bridge::register(&to_gpu::host_memory::DEFINITION);
        bridge::register_pipeline(&FUSION_PIPELINE);
    });
}

/// Registers the passes that exist for tests (idempotent): `test-array-summary` (remarks
/// that lit tests check) and `array-unfuse` (the inverse of `array-fuse`, for round trips).
pub fn register_test_passes() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        bridge::register(&test_summary::DEFINITION);
        bridge::register(&unfuse::DEFINITION);
    });
}

/// `array-fusion`: the whole fusion pipeline on a function; its options are those of
/// `array-fusion-analysis`, forwarded as given.
static FUSION_PIPELINE: bridge::PipelineDefinition = bridge::PipelineDefinition {
    argument: "array-fusion",
    description: "The whole fusion pipeline on a function: rotate while loops whose first test reads arrays made before them, desugar, remove identity gathers, choose the optimal clustering, materialize it as fusion trees; options are those of array-fusion-analysis",
    anchor: "func.func",
    passes: &[
        &rotate_while::DEFINITION,
        &desugar::DEFINITION,
        &simplify_gathers::DEFINITION,
        &fusion_analysis::DEFINITION,
        &fuse::DEFINITION,
    ],
    options_of: &fusion_analysis::DEFINITION,
};

/// `array.yield` of `values` (the terminator of every element function and tree region).
pub(crate) fn ops_yield<'c>(
    _context: &'c melior::Context,
    values: &[melior::ir::Value<'c, '_>],
    location: melior::ir::Location<'c>,
) -> melior::ir::Operation<'c> {
    melior::ir::operation::OperationBuilder::new(array_dialect::view::OpKind::Yield.name(), location)
        .add_operands(values)
        .build()
        .expect("a yield is valid with any operands")
}

#[cfg(test)]
mod tests {
    use melior::pass::PassManager;
    use melior::utility::parse_pass_pipeline;

    fn parses(pipeline: &str) -> bool {
        let context = array_dialect::context();
        let pm = PassManager::new(&context);
        parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).is_ok()
    }

    #[test]
    fn test_passes_are_registered_apart() {
        super::register_all_passes();
        assert!(parses("builtin.module(func.func(array-fusion, array-fuse))"));
        assert!(!parses("builtin.module(func.func(array-unfuse))"), "array-unfuse is a test pass");
        assert!(!parses("builtin.module(func.func(test-array-summary))"), "test-array-summary is a test pass");
        super::register_test_passes();
        assert!(parses("builtin.module(func.func(array-unfuse, test-array-summary))"));
    }
}
