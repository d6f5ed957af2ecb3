//! What a program consists of, per function: the numbers the demo prints.
//!
//! A *combinator* is an `array` op that builds arrays from arrays (every op of the
//! dialect except the element-level `array.index` and `array.yield` and the shape
//! queries `array.size`/`array.dim`, which read no elements). An *array value* is an SSA
//! value of ranked tensor type defined in the function: a block argument or an op result
//! at any depth (inside `scf` bodies too).

use array_dialect::view::{OpKind, is_array};
use indexmap::IndexMap;
use melior::ir::{
    BlockLike, Module, OperationRef, RegionLike,
    attribute::StringAttribute,
    block::BlockArgument,
    operation::{OperationLike, WalkOrder, WalkResult},
};

/// The summary of one function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FunctionSummary {
    pub name: String,
    /// Whether the function is visible outside its module (not `private`).
    pub public: bool,
    /// Number of combinators, by op name, in order of first appearance.
    pub combinators: IndexMap<String, usize>,
    pub array_values: usize,
}

impl FunctionSummary {
    pub fn combinator_count(&self) -> usize {
        self.combinators.values().sum()
    }
}

/// Combinators in the sense of the module comment: every op of the dialect but the
/// element and shape reads and the terminator.
fn is_combinator(name: &str) -> bool {
    OpKind::from_name(name).is_some_and(|kind| !kind.is_size_or_element_read() && kind != OpKind::Yield)
}

/// Summarizes every `func.func` with a body in `module`, in order.
pub fn summarize(module: &Module) -> Vec<FunctionSummary> {
    let mut summaries = Vec::new();
    let mut op = module.body().first_operation();
    while let Some(function) = op {
        if function.name().as_string_ref().as_str() == Ok("func.func")
            && let Some(summary) = summarize_function(function)
        {
            summaries.push(summary);
        }
        op = function.next_in_block();
    }
    summaries
}

fn string_attribute(op: OperationRef, name: &str) -> Option<String> {
    let attribute = op.attribute(name).ok()?;
    let string = StringAttribute::try_from(attribute).ok()?;
    Some(string.value().to_owned())
}

/// Summarizes one `func.func`; `None` for a declaration (no body).
pub fn summarize_function(function: OperationRef) -> Option<FunctionSummary> {
    let body = function.region(0).ok()?.first_block()?; // declarations have no body
    let name = string_attribute(function, "sym_name").unwrap_or_default();
    let public = string_attribute(function, "sym_visibility").as_deref() != Some("private");
    let mut combinators = IndexMap::new();
    let mut array_values = (0..body.argument_count())
        .filter_map(|i| body.argument(i).ok())
        .filter(|a: &BlockArgument| is_array(*a))
        .count();
    function.walk(WalkOrder::PreOrder, |op| {
        let op_name = op.name().as_string_ref().as_str().unwrap_or_default().to_owned();
        if op_name == "func.func" {
            return WalkResult::Advance; // the function itself
        }
        if is_combinator(&op_name) {
            *combinators.entry(op_name).or_insert(0) += 1;
        }
        array_values += (0..op.result_count()).filter_map(|i| op.result(i).ok()).filter(|r| is_array(*r)).count();
        // Block arguments of nested regions (scf.for iteration arrays, ...).
        for region in op.regions() {
            let mut block = region.first_block();
            while let Some(b) = block {
                array_values += (0..b.argument_count())
                    .filter_map(|i| b.argument(i).ok())
                    .filter(|a: &BlockArgument| is_array(*a))
                    .count();
                block = b.next_in_region();
            }
        }
        WalkResult::Advance
    });
    Some(FunctionSummary { name, public, combinators, array_values })
}
