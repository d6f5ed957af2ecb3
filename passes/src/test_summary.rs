//! `test-array-summary`: reports each function's summary as a remark, so that lit tests
//! (with `--verify-diagnostics`) can check what `fusion-demo` counts.

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_remark};
use crate::summary::summarize_function;
use melior::ir::{OperationRef, operation::OperationLike};

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "test-array-summary",
    description: "Report each function's number of combinators and array values as remarks",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[],
    state: None,
    run,
};

fn run(_: &melior::Context, function: OperationRef, _: &PassOptions) -> Result<(), PassFailed> {
    if let Some(s) = summarize_function(function) {
        let ops: Vec<String> = s.combinators.iter().map(|(k, v)| format!("{k} x{v}")).collect();
        emit_remark(
            function.location(),
            &format!(
                "function '{}': {} combinator(s), {} array value(s) [{}]",
                s.name,
                s.combinator_count(),
                s.array_values,
                ops.join(", ")
            ),
        );
    }
    Ok(())
}
