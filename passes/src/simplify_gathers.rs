//! `array-simplify-gathers`: removes gathers that read their source in order, using the
//! egg simplifier of [`crate::index_expr`] on the index functions:
//! * a gather whose index arrays are a `generate` computing the identity
//!   (`xs[i]` over the shape of `xs`) is `xs` itself;
//! * a gather of a gather whose composed index function is the identity (for example
//!   `reverse ∘ reverse`, `n-1-(n-1-i)` after `array-desugar`) is the inner source.
//!
//! Index functions are read from `array.generate` bodies made of `arith` integer
//! arithmetic on the block's indices, constants and values from outside (extents,
//! named by the array and dimension they measure, so `array.dim` of equally sized
//! arrays is recognised as the same extent). Anything else is left alone.

use crate::bridge::{PassDefinition, PassFailed, PassOptions};
use crate::index_expr::{IndexLang, RecExprExt, is_symbol};
use crate::ir::{self, Op, Val};
use array_dialect::view::{ArrayOp, OpKind};
use egg::{Id, RecExpr, Symbol};
use melior::ir::{OperationRef, ValueLike};

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-simplify-gathers",
    description: "Remove gathers whose (composed) index function simplifies to the identity, e.g. reverse of reverse (egg)",
    anchor: Some("func.func"),
    dependent_dialects: &[],
    options: &[],
    state: None,
    run,
};

fn run(_: &melior::Context, function: OperationRef, _: &PassOptions) -> Result<(), PassFailed> {
    // Repeat: removing one gather can expose another (reverse of reverse of reverse…).
    for _ in 0..16 {
        let mut changed = false;
        for block in crate::fuse::blocks_under(function.to_raw()) {
            for op in ir::block_ops(block) {
                if ir::kind(op) == Some(OpKind::Gather) && simplify_gather(op) {
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
    Ok(())
}

/// A name for an extent (an `index` value) that is the same for equal sizes.
fn extent_symbol(v: Val) -> String {
    // SAFETY: a live op of the function the pass owns, only read here.
    if let Some(def) = ir::defining_op(v)
        && let Some(ArrayOp::Dim { input, dimension }) = unsafe { ir::view(def) }
    {
        return dim_symbol(input.to_raw(), dimension as usize);
    }
    format!("v{:x}", v.ptr as usize)
}

/// A name for dimension `d` of array `a`, following size-preserving producers.
fn dim_symbol(a: Val, d: usize) -> String {
    let mut array = a;
    for _ in 0..64 {
        let Some(producer) = ir::defining_op(array) else { break };
        // SAFETY: a live op of the function the pass owns, only read here.
        match unsafe { ir::view(producer) } {
            Some(ArrayOp::Map { inputs, .. } | ArrayOp::Scan { inputs, .. }) => array = inputs[0].to_raw(),
            Some(ArrayOp::Force { input } | ArrayOp::Reverse { input }) => array = input.to_raw(),
            Some(ArrayOp::Gather { indices, .. }) => match indices.first() {
                Some(index) => array = index.to_raw(),
                None => break,
            },
            Some(ArrayOp::Generate { shape, .. }) => match shape.get(d) {
                Some(extent) => return extent_symbol(extent.to_raw()),
                None => break,
            },
            _ => break,
        }
    }
    format!("dim{:x}_{d}", array.ptr as usize)
}

/// The index function of result `result` of `generate`: an expression over `prefix0`,
/// `prefix1`, … (the generate's indices), or `None` when the body is not plain
/// integer arithmetic.
fn index_function(generate: Op, result: usize, prefix: &str) -> Option<RecExpr<IndexLang>> {
    let body = ir::first_block(ir::region(generate, 0));
    let arguments = ir::block_arguments(body);
    let yield_op = ir::terminator(body);
    let value = *ir::operands(yield_op).get(result)?;
    let mut expr = RecExpr::default();
    fn go(
        v: Val,
        generate: Op,
        arguments: &[Val],
        prefix: &str,
        expr: &mut RecExpr<IndexLang>,
        depth: usize,
    ) -> Option<Id> {
        if depth > 64 {
            return None;
        }
        if let Some(t) = arguments.iter().position(|a| ir::same_value(*a, v)) {
            return Some(expr.add(IndexLang::Symbol(Symbol::from(format!("{prefix}{t}")))));
        }
        let def = ir::defining_op(v);
        // Constants are numbers wherever they are defined (the canonicalizer hoists them).
        if let Some(d) = def
            && ir::op_name(d) == "arith.constant"
            && let Some(n) = ir::int_attribute_inherent(d, "value")
        {
            return Some(expr.add(IndexLang::Num(n)));
        }
        let inside = def.is_some_and(|d| ir::is_within(d, generate));
        if !inside {
            // A value from outside the generate: an extent or another index value.
            return Some(expr.add(IndexLang::Symbol(Symbol::from(extent_symbol(v)))));
        }
        let def = def?;
        let operands = ir::operands(def);
        match ir::op_name(def).as_str() {
            "arith.constant" => ir::int_attribute_inherent(def, "value").map(|n| expr.add(IndexLang::Num(n))),
            "arith.index_cast" | "arith.index_castui" => go(operands[0], generate, arguments, prefix, expr, depth + 1),
            name @ ("arith.addi" | "arith.subi" | "arith.muli") => {
                let a = go(operands[0], generate, arguments, prefix, expr, depth + 1)?;
                let b = go(operands[1], generate, arguments, prefix, expr, depth + 1)?;
                Some(expr.add(match name {
                    "arith.addi" => IndexLang::Add([a, b]),
                    "arith.subi" => IndexLang::Sub([a, b]),
                    _ => IndexLang::Mul([a, b]),
                }))
            }
            _ => None,
        }
    }
    go(value, generate, &arguments, prefix, &mut expr, 0)?;
    Some(expr)
}

/// The index functions of a gather's index arrays, over `prefix{t}`; with the extents
/// of the iteration space (the generate's shape operands).
fn gather_functions(gather: Op, prefix: &str) -> Option<(Vec<RecExpr<IndexLang>>, Vec<String>)> {
    // SAFETY: a live op of the function the pass owns, only read here.
    let Some(ArrayOp::Gather { indices, .. }) = (unsafe { ir::view(gather) }) else { return None };
    let indices: Vec<Val> = indices.iter().map(|i| i.to_raw()).collect();
    let first = ir::defining_op(*indices.first()?)?;
    if ir::kind(first) != Some(OpKind::Generate) {
        return None;
    }
    let mut functions = Vec::new();
    for index in indices {
        let def = ir::defining_op(index)?;
        if !ir::same_op(def, first) {
            return None; // index arrays from different generates: not handled
        }
        let result = ir::results(def).iter().position(|r| ir::same_value(*r, index))?;
        functions.push(index_function(def, result, prefix)?);
    }
    let extents = ir::operands(first).into_iter().map(extent_symbol).collect();
    Some((functions, extents))
}

/// Whether the extents of the iteration space are those of array `a`.
fn same_shape(extents: &[String], a: Val) -> bool {
    match ir::rank(ir::value_type(a)) {
        Some(rank) => rank as usize == extents.len() && extents.iter().enumerate().all(|(d, e)| *e == dim_symbol(a, d)),
        None => false,
    }
}

/// The array `op` reads, if it is a gather.
fn gather_source(op: Op) -> Option<Val> {
    // SAFETY: a live op of the function the pass owns, only read here.
    match unsafe { ir::view(op) } {
        Some(ArrayOp::Gather { source, .. }) => Some(source.to_raw()),
        _ => None,
    }
}

/// Replaces `gather` by the array it reads in order, if it does; returns whether it did.
fn simplify_gather(gather: Op) -> bool {
    let Some(source) = gather_source(gather) else { return false };
    let result = ir::results(gather)[0];
    if !ir::same_type(ir::value_type(source), ir::value_type(result)) && ir::rank(ir::value_type(result)).is_none() {
        return false;
    }
    let Some((outer, extents)) = gather_functions(gather, "i") else { return false };
    let identity = |fs: &[RecExpr<IndexLang>]| fs.iter().enumerate().all(|(d, f)| is_symbol(f, &format!("i{d}")));

    // An identity gather: ys[i] = xs[i] over the shape of xs.
    let target = if identity(&outer) && same_shape(&extents, source) {
        Some(source)
    } else if let Some(inner) = ir::defining_op(source)
        && let Some(inner_source) = gather_source(inner)
    {
        // A gather of a gather: ys[i] = zs[g(f(i))]; the identity means ys = zs.
        match gather_functions(inner, "p") {
            Some((inner_fns, _)) => {
                let composed: Vec<_> = inner_fns.iter().map(|g| g.substitute_prefix("p", &outer)).collect();
                (identity(&composed) && same_shape(&extents, inner_source)).then_some(inner_source)
            }
            None => None,
        }
    } else {
        None
    };
    match target {
        Some(array) if ir::same_type(ir::value_type(array), ir::value_type(result)) => {
            ir::replace_uses_where(result, array, |_| true);
            // SAFETY: its only result was replaced above, and `gather` is not used again.
            unsafe { ir::erase(gather) };
            true
        }
        _ => false,
    }
}
