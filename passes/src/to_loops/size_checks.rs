//! Run-time checks of the size equalities the fusion analysis could not prove.
//!
//! Size inference (`extract::sizes`) cannot prove, for instance, that a filter's result
//! is as long as the array it is zipped with (seed 001 §1.3.4, `bad1`). Such an equality
//! is the op's precondition at run time: the analysis does not fuse the op with the
//! producers of its operands and marks it with [`attribute::CHECK_SIZES`]. Here every
//! extent the marked op requires to be equal is compared before the op (before its
//! outermost fusion tree when it is in a cluster; its operands are then defined outside
//! the tree, since its in-edges are infusible), and one `cf.assert` carrying the
//! attribute's message stops the program when they differ: the loops after it would
//! otherwise read out of bounds. The reference interpreter reports the same violation as
//! an error.
//!
//! The extents compared, by op (static against static is left out: the verifier or the
//! inference has decided those):
//! * `map`, `scan`: every array input against the first, dimension by dimension; each
//!   static extent of a result against the first input's;
//! * `fold`: the inputs likewise; each static extent of a result against the first
//!   input's outer extents;
//! * `filter`, `expand`: every array input against the first;
//! * `gather`: every index array against the first; static result extents likewise;
//! * `scatter`: the index arrays and the values against the first index array;
//! * `generate`: each static extent of a result against its shape operand.

use super::builder::{Builder, array_op, static_dim};
use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, OpKind, attribute};
use melior::dialect::{arith, arith::CmpiPredicate};
use melior::ir::{Identifier, Location, ValueLike, attribute::StringAttribute, operation::OperationLike};

/// Adds the checks of every marked op of `function`.
pub(super) fn insert(context: &melior::Context, function: melior::ir::OperationRef) {
    let mut marked = Vec::new();
    function.walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        if let Some(message) = ir::string_attribute(op.to_raw(), attribute::CHECK_SIZES) {
            marked.push((op.to_raw(), message));
        }
        melior::ir::operation::WalkResult::Advance
    });
    for (op, message) in marked {
        let b = Builder { context, location: unsafe { Location::from_raw(ir::location(op)) } };
        let anchor = outermost_tree(op);
        let pairs = required_equal(&b, anchor, op);
        let mut all: Option<Val> = None;
        for (left, right) in pairs {
            let equal = b.binary(anchor, |l, r, at| arith::cmpi(context, CmpiPredicate::Eq, l, r, at), left, right);
            all = Some(match all {
                None => equal,
                Some(previous) => b.binary(anchor, arith::andi, previous, equal),
            });
        }
        if let Some(condition) = all {
            let assert = b
                .op("cf.assert")
                .add_operands(&[super::builder::v(condition)])
                .add_attributes(&[(Identifier::new(context, "msg"), StringAttribute::new(context, &message).into())])
                .build()
                .expect("valid cf.assert");
            b.put(anchor, assert);
        }
    }
}

/// `op`, or the outermost fusion tree op (`array.cluster`, …) that holds it.
fn outermost_tree(op: Op) -> Op {
    let mut anchor = op;
    while let Some(parent) = ir::parent_op(anchor) {
        if !super::builder::op_kind(parent).is_some_and(OpKind::is_fusion_tree) {
            break;
        }
        anchor = parent;
    }
    anchor
}

/// The (left, right) extents that `op` requires to be equal, materialised before
/// `anchor` (see the module doc).
fn required_equal(b: &Builder, anchor: Op, op: Op) -> Vec<(Val, Val)> {
    // The ranked-tensor values among `vs` (expand's and filter's scalars are left out).
    let arrays = |vs: &[melior::ir::Value]| -> Vec<Val> {
        vs.iter().map(|v| v.to_raw()).filter(|v| ir::rank(ir::value_type(*v)).is_some()).collect()
    };
    let results = ir::results(op);
    let mut pairs = Vec::new();
    match array_op(op) {
        // A fold's result dimension d is its input's dimension d (the innermost is gone).
        Some(ArrayOp::Map { inputs, .. } | ArrayOp::Scan { inputs, .. } | ArrayOp::Fold { inputs, .. }) => {
            let inputs = arrays(&inputs);
            same_shapes(b, anchor, &inputs, &mut pairs);
            if let Some(first) = inputs.first() {
                static_extents_of(b, anchor, &results, |d| dynamic_dim(b, anchor, *first, d), &mut pairs);
            }
        }
        Some(ArrayOp::Filter { inputs, .. }) | Some(ArrayOp::Expand { inputs, .. }) => {
            same_shapes(b, anchor, &arrays(&inputs), &mut pairs);
        }
        Some(ArrayOp::Gather { indices, .. }) => {
            let indices = arrays(&indices);
            same_shapes(b, anchor, &indices, &mut pairs);
            if let Some(first) = indices.first() {
                static_extents_of(b, anchor, &results, |d| dynamic_dim(b, anchor, *first, d), &mut pairs);
            }
        }
        Some(ArrayOp::Scatter { indices, keep, values, .. }) => {
            let mut arrays = arrays(&indices);
            arrays.extend(keep.map(|k| k.to_raw()));
            arrays.push(values.to_raw());
            same_shapes(b, anchor, &arrays, &mut pairs);
        }
        Some(ArrayOp::Generate { shape, .. }) => {
            let shape: Vec<Val> = shape.iter().map(|v| v.to_raw()).collect();
            static_extents_of(b, anchor, &results, |d| shape.get(d).copied(), &mut pairs);
        }
        _ => {}
    }
    pairs
}

/// Every array of `arrays` against the first, dimension by dimension (static against
/// static left out).
fn same_shapes(b: &Builder, anchor: Op, arrays: &[Val], pairs: &mut Vec<(Val, Val)>) {
    let Some((first, rest)) = arrays.split_first() else { return };
    let first_type = ir::value_type(*first);
    for other in rest {
        let other_type = ir::value_type(*other);
        let rank = ir::rank(other_type).unwrap_or(0).min(ir::rank(first_type).unwrap_or(0)) as usize;
        for d in 0..rank {
            if static_dim(first_type, d).is_some() && static_dim(other_type, d).is_some() {
                continue;
            }
            pairs.push((b.dim_of(anchor, *first, d), b.dim_of(anchor, *other, d)));
        }
    }
}

/// `tensor.dim` of dimension `d` of `x` when that extent is dynamic; `None` when static.
fn dynamic_dim(b: &Builder, anchor: Op, x: Val, d: usize) -> Option<Val> {
    static_dim(ir::value_type(x), d).is_none().then(|| b.dim_of(anchor, x, d))
}

/// Each static extent `d` of a result against `expected(d)`, the extent the op gives
/// that dimension (`None` when that is static too: the verifier compared them).
fn static_extents_of(
    b: &Builder,
    anchor: Op,
    results: &[Val],
    expected: impl Fn(usize) -> Option<Val>,
    pairs: &mut Vec<(Val, Val)>,
) {
    for r in results {
        let t = ir::value_type(*r);
        for d in 0..ir::rank(t).unwrap_or(0) as usize {
            if let Some(extent) = static_dim(t, d)
                && let Some(wanted) = expected(d)
            {
                pairs.push((wanted, b.constant_index(anchor, extent)));
            }
        }
    }
}
