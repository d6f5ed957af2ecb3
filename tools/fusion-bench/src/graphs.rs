//! The dependence graphs of a program file as the fusion analysis sees them: loaded,
//! rotated and desugared (`array-rotate-while`, `array-desugar`, `array-simplify-gathers`,
//! as `array-fusion` runs before its analysis) and extracted per function body.

use fusion_analysis::graph::Graph;
use std::path::Path;

/// A function's name and its graph, or why it has none.
pub type NamedGraph = (String, Result<Graph, String>);

/// Each function's name with its graph, or why it has none; an error when the file does
/// not load or desugar. Registers the project's passes (idempotent).
pub fn analysed_graphs(path: &Path) -> Result<Vec<NamedGraph>, String> {
    fusion_passes::register_all_passes();
    let context = array_dialect::context();
    let mut module = array_dialect::source::load_file(&context, path).map_err(|e| e.to_string())?;
    fusion_codegen::pipeline::run_pipeline(
        &context,
        &mut module,
        "builtin.module(func.func(array-rotate-while, array-desugar, array-simplify-gathers))",
    )?;
    Ok(fusion_passes::extract::extract_module_blocks(&module, None)
        .into_iter()
        .map(|(name, extracted)| (name, extracted.map(|e| e.graph).map_err(|e| e.to_string())))
        .collect())
}

/// The number of combinators (fusible nodes) of `graph`.
pub fn combinators(graph: &Graph) -> usize {
    graph.nodes.iter().filter(|n| n.kind.is_fusible_kind()).count()
}
