//! `array-gpu-host-memory`: the buffers of a program whose loop nests are GPU kernels
//! (`array-gpu-kernels`), placed where both the host and the device can reach them, with
//! the copies between the caller's memory and the device's made explicit in the `gpu`
//! dialect (the host side of a GPU program: `gpu.alloc`, `gpu.memcpy`, `gpu.dealloc`).
//!
//! * Every `memref.alloc`/`memref.dealloc` of host code becomes `gpu.alloc host_shared` /
//!   `gpu.dealloc`: managed memory (CUDA's `cuMemAllocManaged`), because host code reads
//!   and writes single elements of the same buffers the kernels use (a rank-0 result, the
//!   length of a filter's output, bfs's frontier flag) between launches, which are
//!   synchronous.
//! * A public function's memref arguments live in the caller's memory, which a kernel
//!   cannot read: each is copied into a managed buffer at entry (`gpu.memcpy`) and used
//!   through it; an argument the function may write (a use other than reading it, seen
//!   through views) is copied back before every return, then the buffer is freed.
//! * Its memref results are copied out into `memref.alloc`ed memory before the return,
//!   since the caller owns them and frees them with `free` (MLIR's ownership-based
//!   deallocation ABI); the managed buffer is freed.
//! * A `memref.get_global` (a constant array) lives in host memory too: it is copied into
//!   a managed buffer at the function's entry and freed before every return.
//! * A call of a function that is not a private function of the module (a public one, or
//!   an external declaration) returns memory of the caller's kind: its memref results are
//!   copied into managed buffers the same way. Private functions take and return managed
//!   buffers, so calls of them (such as `dealloc_helper` of the deallocation pipeline, or
//!   quadtree's recursion) need no copies.
//!
//! `array-gpu-emulate` runs this host program on the CPU with the copies as `memref.copy`
//! between distinct buffers, so a missing copy shows as a wrong result there.

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_error};
use crate::ir::{self, Op, Val};
use crate::to_loops::builder::{Builder, ty, v, vs};
use melior::{
    Context,
    ir::{
        Attribute, Identifier, Location, OperationRef, Type,
        attribute::{DenseI32ArrayAttribute, StringAttribute},
        operation::OperationLike,
    },
};
use mlir_sys::*;

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-gpu-host-memory",
    description: "Place the buffers of a program with GPU kernels in managed memory (gpu.alloc host_shared) and copy arguments, results and constant arrays between the caller's memory and it (gpu.memcpy)",
    anchor: Some("builtin.module"),
    dependent_dialects: &[mlirGetDialectHandle__gpu__, mlirGetDialectHandle__memref__],
    options: &[],
    state: None,
    run,
};

/// Uses that only read a buffer (or only its shape or address).
const READS: &[&str] =
    &["memref.load", "memref.dim", "memref.extract_strided_metadata", "memref.extract_aligned_pointer_as_index"];

fn run<'c>(context: &'c Context, module: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let module = module.to_raw();
    let functions: Vec<Op> = ir::block_ops(ir::first_block(ir::region(module, 0)))
        .into_iter()
        .filter(|op| ir::op_name(*op) == "func.func" && ir::has_body(*op))
        .collect();
    let private: Vec<String> = functions.iter().filter(|f| is_private(**f)).map(|f| symbol(*f)).collect();
    for function in functions {
        let location = unsafe { Location::from_raw(ir::location(function)) };
        let b = Builder { context, location };
        if let Err((at, message)) = place(&b, function, &private) {
            emit_error(unsafe { Location::from_raw(ir::location(at)) }, &format!("array-gpu-host-memory: {message}"));
            return Err(PassFailed);
        }
    }
    Ok(())
}

fn place(b: &Builder, function: Op, private: &[String]) -> Result<(), (Op, String)> {
    let body = ir::first_block(ir::region(function, 0));
    let launches = ir::collect(function, |op| ir::op_name(op) == "gpu.launch");
    let on_host = |op: Op| !launches.iter().any(|l| ir::is_within(op, *l));
    let host_ops = ir::collect(function, |op| !ir::same_op(op, function) && on_host(op));
    let returns: Vec<Op> = host_ops.iter().copied().filter(|op| ir::op_name(*op) == "func.return").collect();
    if returns.len() != 1 || !ir::same_op(ir::terminator(body), returns[0]) {
        return Err((function, "the function must end in its only func.return (structured control flow)".into()));
    }
    let exit = returns[0];
    let named = |name: &str| -> Vec<Op> { host_ops.iter().copied().filter(|op| ir::op_name(*op) == name).collect() };
    let (allocs, deallocs, globals, calls) =
        (named("memref.alloc"), named("memref.dealloc"), named("memref.get_global"), named("func.call"));
    if let Some(stack) =
        host_ops.iter().find(|op| ir::op_name(**op) == "memref.alloca" && used_by_kernels(**op, &launches))
    {
        return Err((*stack, "a stack buffer is used by a kernel".into()));
    }
    for op in allocs {
        managed_alloc(b, op)?;
    }
    for op in deallocs {
        let buffer = ir::operands(op)[0];
        free(b, op, buffer);
        // SAFETY: replaced by the gpu.dealloc; no results.
        unsafe { ir::erase(op) };
    }
    let entry = ir::block_ops(body)[0];
    // Buffers this function allocated for its boundary (arguments, constants): freed at
    // the exit, never returned as they are.
    let mut boundary: Vec<Val> = Vec::new();
    // Constant arrays, from the entry on.
    for op in globals {
        if !ir::same_op(op, entry) {
            ir::move_before(op, entry);
        }
        boundary.push(managed_copy_of(b, entry, ir::results(op)[0]));
    }
    if !is_private(function) {
        for argument in ir::block_arguments(body) {
            if !ir::is_memref(argument) {
                continue;
            }
            let writes = written(argument);
            let managed = managed_copy_of(b, entry, argument);
            if writes {
                copy(b, exit, argument, managed);
            }
            boundary.push(managed);
        }
        let mut results: Vec<Val> = ir::operands(exit);
        let mut freed: Vec<Val> = Vec::new();
        for result in results.iter_mut() {
            if !ir::is_memref(*result) {
                continue;
            }
            let managed = *result;
            let host = host_alloc_like(b, exit, managed);
            copy(b, exit, host, managed);
            let root = root_buffer(managed);
            let is_boundary = boundary.iter().any(|x| ir::same_value(*x, root));
            let is_global = ir::defining_op(root).is_some_and(|d| ir::op_name(d) == "memref.get_global");
            if !is_boundary && !is_global && !freed.iter().any(|x| ir::same_value(*x, root)) {
                freed.push(root);
            }
            *result = host;
        }
        ir::set_operands(exit, &results);
        for buffer in freed {
            free(b, exit, buffer);
        }
    }
    for buffer in &boundary {
        free(b, exit, *buffer);
    }
    // Results of calls of functions that return the caller's kind of memory.
    for op in calls {
        if private.contains(&ir::callee(op)) {
            continue;
        }
        let after = ir::next_in_block(op);
        for result in ir::results(op) {
            if !ir::is_memref(result) {
                continue;
            }
            managed_copy_of(b, after, result);
            // The callee's result is the caller's to free, and now copied.
            b.put(after, b.op("memref.dealloc").add_operands(&[v(result)]).build().expect("valid memref.dealloc"));
        }
    }
    Ok(())
}

/// `gpu.alloc host_shared` in place of `memref.alloc` `op`.
fn managed_alloc(b: &Builder, op: Op) -> Result<(), (Op, String)> {
    let sizes = ir::operands(op);
    let t = ir::value_type(ir::results(op)[0]);
    // SAFETY: a memref.alloc's result type.
    let dynamic =
        unsafe { (0..mlirShapedTypeGetRank(t) as isize).filter(|d| mlirShapedTypeIsDynamicDim(t, *d)).count() };
    if sizes.len() != dynamic {
        return Err((op, "an allocation with layout symbols is not placed in managed memory".into()));
    }
    let managed = alloc(b, op, t, &sizes);
    // SAFETY: the result is replaced by the managed buffer.
    unsafe { crate::to_loops::builder::replace_and_erase(op, &[managed]) };
    Ok(())
}

/// `gpu.alloc host_shared (sizes) : t` before `anchor`.
fn alloc(b: &Builder, anchor: Op, t: MlirType, sizes: &[Val]) -> Val {
    b.put1(
        anchor,
        b.op("gpu.alloc")
            .add_operands(&vs(sizes))
            .add_attributes(&[
                (
                    Identifier::new(b.context, "operandSegmentSizes"),
                    DenseI32ArrayAttribute::new(b.context, &[0, sizes.len() as i32, 0]).into(),
                ),
                (Identifier::new(b.context, "hostShared"), Attribute::unit(b.context)),
            ])
            .add_results(&[ty(t)])
            .build()
            .expect("valid gpu.alloc"),
    )
}

/// The dynamic sizes of `buffer`, before `anchor`.
fn dynamic_sizes(b: &Builder, anchor: Op, buffer: Val) -> Vec<Val> {
    let t = ir::value_type(buffer);
    // SAFETY: a memref type.
    let rank = unsafe { mlirShapedTypeGetRank(t) } as isize;
    (0..rank)
        .filter(|d| unsafe { mlirShapedTypeIsDynamicDim(t, *d) })
        .map(|d| b.memref_dim(anchor, buffer, d as usize))
        .collect()
}

/// A managed buffer before `anchor` holding a copy of `buffer`, which replaces it in every
/// use after the copy; returns the managed buffer.
fn managed_copy_of(b: &Builder, anchor: Op, buffer: Val) -> Val {
    let uses = ir::uses(buffer);
    let sizes = dynamic_sizes(b, anchor, buffer);
    let managed = alloc(b, anchor, identity_layout(ir::value_type(buffer)), &sizes);
    copy(b, anchor, managed, buffer);
    for (user, index) in uses {
        let mut operands = ir::operands(user);
        operands[index as usize] = managed;
        ir::set_operands(user, &operands);
    }
    managed
}

/// `gpu.memcpy target, source` before `anchor`, synchronous.
fn copy(b: &Builder, anchor: Op, target: Val, source: Val) {
    synchronous(b, anchor, "gpu.memcpy", &[target, source]);
}

/// `gpu.dealloc buffer` before `anchor`, synchronous.
fn free(b: &Builder, anchor: Op, buffer: Val) {
    synchronous(b, anchor, "gpu.dealloc", &[buffer]);
}

/// `name operands` before `anchor` in the form `gpu-to-llvm` lowers (to calls of the GPU
/// runtime on a stream): `%s = gpu.wait async`, `%t = name async [%s] operands`,
/// `gpu.wait [%t]` (the stream synchronised and destroyed), so synchronous as a whole.
fn synchronous(b: &Builder, anchor: Op, name: &str, operands: &[Val]) {
    // The gpu dialect is loaded (a dependent dialect of the pass).
    let token = Type::parse(b.context, "!gpu.async.token").expect("the gpu dialect is loaded");
    let stream = b.put1(anchor, b.op("gpu.wait").add_results(&[token]).build().expect("valid gpu.wait async"));
    let mut all = vec![stream];
    all.extend_from_slice(operands);
    let done =
        b.put1(anchor, b.op(name).add_operands(&vs(&all)).add_results(&[token]).build().expect("valid async op"));
    b.put(anchor, b.op("gpu.wait").add_operands(&[v(done)]).build().expect("valid gpu.wait"));
}

/// `memref.alloc` (host memory) of `buffer`'s shape and type, before `anchor`.
fn host_alloc_like(b: &Builder, anchor: Op, buffer: Val) -> Val {
    let sizes = dynamic_sizes(b, anchor, buffer);
    crate::parallel_forms::alloc_of_type(b, anchor, ir::value_type(buffer), &sizes)
}

/// The memref type of the same shape and element with the identity layout.
fn identity_layout(t: MlirType) -> MlirType {
    // SAFETY: a ranked memref type.
    unsafe {
        let rank = mlirShapedTypeGetRank(t) as isize;
        let shape: Vec<i64> = (0..rank).map(|d| mlirShapedTypeGetDimSize(t, d)).collect();
        mlirMemRefTypeContiguousGet(
            mlirShapedTypeGetElementType(t),
            rank,
            shape.as_ptr(),
            mlirMemRefTypeGetMemorySpace(t),
        )
    }
}

/// Whether `buffer` may be written: a use, through views, other than reading it or
/// being the source of a copy.
fn written(buffer: Val) -> bool {
    ir::uses(buffer).into_iter().any(|(user, index)| {
        let name = ir::op_name(user);
        if ir::VIEW_OPS.contains(&name.as_str()) {
            return ir::results(user).into_iter().any(written);
        }
        let last = ir::operands(user).len() as isize - 1;
        let copy_source =
            matches!(name.as_str(), "memref.copy" if index == 0) || (name == "gpu.memcpy" && index == last);
        !(READS.contains(&name.as_str()) || copy_source)
    })
}

/// The buffer `value` is a view of (itself if it is no view).
fn root_buffer(value: Val) -> Val {
    match ir::defining_op(value) {
        Some(op) if ir::VIEW_OPS.contains(&ir::op_name(op).as_str()) => root_buffer(ir::operands(op)[0]),
        _ => value,
    }
}

fn used_by_kernels(op: Op, launches: &[Op]) -> bool {
    ir::results(op).into_iter().flat_map(ir::uses).any(|(user, _)| launches.iter().any(|l| ir::is_within(user, *l)))
}

fn string_attribute(op: Op, name: &str) -> Option<String> {
    // SAFETY: a live op.
    unsafe { OperationRef::from_raw(op) }
        .attribute(name)
        .ok()
        .and_then(|a| StringAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
}

fn symbol(function: Op) -> String {
    string_attribute(function, "sym_name").unwrap_or_default()
}

fn is_private(function: Op) -> bool {
    string_attribute(function, "sym_visibility").as_deref() == Some("private")
}
