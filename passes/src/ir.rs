//! The few IR edits the restructuring passes need (moving ops, rewiring uses,
//! creating region ops), over the MLIR C API. melior covers building and walking IR;
//! these cover editing it in place. Every function takes raw handles of live IR owned
//! by the pass that calls it.

use array_dialect::raw::string_ref;
pub use array_dialect::raw::{Op, Val, block_arguments, block_ops, operands, results, value_type};
use array_dialect::view::{ArrayOp, OpKind};
use mlir_sys::*;

pub fn same_op(a: Op, b: Op) -> bool {
    a.ptr == b.ptr
}

pub fn same_value(a: Val, b: Val) -> bool {
    a.ptr == b.ptr
}

pub fn same_block(a: MlirBlock, b: MlirBlock) -> bool {
    a.ptr == b.ptr
}

/// Whether `op` is an op of `block` itself (not nested deeper).
pub fn in_block(op: Op, block: MlirBlock) -> bool {
    // SAFETY: a live op.
    same_block(unsafe { mlirOperationGetBlock(op) }, block)
}

/// The op's name, e.g. `array.map`.
pub fn op_name(op: Op) -> String {
    // SAFETY: live op; the identifier's string is owned by the context.
    unsafe {
        let id = mlirOperationGetName(op);
        let s = mlirIdentifierStr(id);
        String::from_utf8_lossy(std::slice::from_raw_parts(s.data as *const u8, s.length)).into_owned()
    }
}

/// Which `array` op `op` is, if it is one.
pub fn kind(op: Op) -> Option<OpKind> {
    OpKind::from_name(&op_name(op))
}

/// The typed view of `op`, if it is an `array` op.
///
/// # Safety
/// `op` must stay live, and must not be rewritten, for as long as the view is used
/// (`'a`, which the caller picks).
pub unsafe fn view<'c, 'a>(op: Op) -> Option<ArrayOp<'c, 'a>> {
    // SAFETY: the caller keeps the op live for 'a.
    ArrayOp::of(unsafe { melior::ir::OperationRef::from_raw(op) })
}

/// The op that defines `v`, if it is an op result.
pub fn defining_op(v: Val) -> Option<Op> {
    // SAFETY: live value.
    unsafe { mlirValueIsAOpResult(v).then(|| mlirOpResultGetOwner(v)) }
}

/// Every use of `v`: the using op and the operand number.
pub fn uses(v: Val) -> Vec<(Op, isize)> {
    let mut out = Vec::new();
    // SAFETY: live value; the use list is read before any change.
    unsafe {
        let mut u = mlirValueGetFirstUse(v);
        while !mlirOpOperandIsNull(u) {
            out.push((mlirOpOperandGetOwner(u), mlirOpOperandGetOperandNumber(u) as isize));
            u = mlirOpOperandGetNextUse(u);
        }
    }
    out
}

pub fn parent_op(op: Op) -> Option<Op> {
    // SAFETY: live op.
    let p = unsafe { mlirOperationGetParentOperation(op) };
    (!p.ptr.is_null()).then_some(p)
}

/// Whether `op` is `ancestor` or nested (at any depth) inside it.
pub fn is_within(op: Op, ancestor: Op) -> bool {
    let mut current = Some(op);
    while let Some(o) = current {
        if same_op(o, ancestor) {
            return true;
        }
        current = parent_op(o);
    }
    false
}

/// Replaces the uses of `from` by `to` where `keep(user)` holds.
pub fn replace_uses_where(from: Val, to: Val, keep: impl Fn(Op) -> bool) {
    for (user, index) in uses(from) {
        if keep(user) {
            // SAFETY: live op and value; `index` is a current operand number.
            unsafe { mlirOperationSetOperand(user, index, to) };
        }
    }
}

/// Moves `op` right before `anchor` (possibly into another block).
pub fn move_before(op: Op, anchor: Op) {
    // SAFETY: both live; MLIR unlinks and relinks the op.
    unsafe { mlirOperationMoveBefore(op, anchor) }
}

/// Sets all operands of `op`.
pub fn set_operands(op: Op, values: &[Val]) {
    // SAFETY: live op and values.
    unsafe { mlirOperationSetOperands(op, values.len() as isize, values.as_ptr()) }
}

/// Unlinks and destroys `op`.
///
/// # Safety
/// No result of `op` may have a remaining use, and no handle to `op` or to anything
/// nested in it may be used afterwards (they dangle).
pub unsafe fn erase(op: Op) {
    // SAFETY: the caller's contract above.
    unsafe {
        mlirOperationRemoveFromParent(op);
        mlirOperationDestroy(op);
    }
}

pub fn location(op: Op) -> MlirLocation {
    // SAFETY: live op.
    unsafe { mlirOperationGetLocation(op) }
}

pub fn region(op: Op, index: isize) -> MlirRegion {
    // SAFETY: live op with that many regions.
    unsafe { mlirOperationGetRegion(op, index) }
}

pub fn region_count(op: Op) -> usize {
    // SAFETY: live op.
    unsafe { mlirOperationGetNumRegions(op) as usize }
}

/// The blocks of a region, in order.
pub fn region_blocks(region: MlirRegion) -> Vec<MlirBlock> {
    let mut out = Vec::new();
    // SAFETY: live region; the list is read before any change.
    unsafe {
        let mut block = mlirRegionGetFirstBlock(region);
        while !block.ptr.is_null() {
            out.push(block);
            block = mlirBlockGetNextInRegion(block);
        }
    }
    out
}

/// The op after `op` in its block (`op` must not be the block's last op).
pub fn next_in_block(op: Op) -> Op {
    // SAFETY: live op with a successor.
    unsafe { mlirOperationGetNextInBlock(op) }
}

pub fn first_block(region: MlirRegion) -> MlirBlock {
    // SAFETY: live region.
    unsafe { mlirRegionGetFirstBlock(region) }
}

/// Creates op `name`, not yet in any block, with the given operands and result types,
/// and one region per entry of `regions`, each with one empty block taking arguments of
/// those types. The caller links the op into a block (which then owns it).
pub fn create_detached(
    location: MlirLocation,
    name: &str,
    operands: &[Val],
    result_types: &[MlirType],
    regions: &[Vec<MlirType>],
) -> Op {
    // SAFETY: building a new op from live handles; the regions pass to the op, the op to
    // the caller.
    unsafe {
        let mut state = mlirOperationStateGet(string_ref(name), location);
        mlirOperationStateAddOperands(&mut state, operands.len() as isize, operands.as_ptr());
        mlirOperationStateAddResults(&mut state, result_types.len() as isize, result_types.as_ptr());
        let owned: Vec<MlirRegion> = regions
            .iter()
            .map(|argument_types| {
                let region = mlirRegionCreate();
                let locations = vec![location; argument_types.len()];
                let block = mlirBlockCreate(argument_types.len() as isize, argument_types.as_ptr(), locations.as_ptr());
                mlirRegionAppendOwnedBlock(region, block);
                region
            })
            .collect();
        mlirOperationStateAddOwnedRegions(&mut state, owned.len() as isize, owned.as_ptr());
        mlirOperationCreate(&mut state)
    }
}

/// Creates op `name` before `anchor` with the given operands and result types, and one
/// region per entry of `regions`, each with one block taking arguments of those types
/// and ending in an empty `array.yield` (callers fill blocks before it and then set its
/// operands). Returns the op.
pub fn create_before(
    anchor: Op,
    name: &str,
    operands: &[Val],
    result_types: &[MlirType],
    regions: &[Vec<MlirType>],
) -> Op {
    let loc = location(anchor);
    let op = create_detached(loc, name, operands, result_types, regions);
    // SAFETY: the new op's regions and blocks are live; the yields and the op pass to
    // their blocks.
    unsafe {
        for r in 0..regions.len() {
            let mut yield_state = mlirOperationStateGet(string_ref(array_dialect::view::OpKind::Yield.name()), loc);
            let y = mlirOperationCreate(&mut yield_state);
            mlirBlockAppendOwnedOperation(first_block(region(op, r as isize)), y);
        }
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(anchor), anchor, op);
    }
    op
}

/// The terminator (last op) of a block.
pub fn terminator(block: MlirBlock) -> Op {
    *block_ops(block).last().expect("blocks of tree regions end in array.yield")
}

/// The integer value of discardable attribute `name`, if it is an integer attribute.
pub fn int_attribute(op: Op, name: &str) -> Option<i64> {
    // SAFETY: live op; attributes are checked before reading.
    unsafe {
        let a = mlirOperationGetDiscardableAttributeByName(op, string_ref(name));
        (!a.ptr.is_null() && mlirAttributeIsAInteger(a)).then(|| mlirIntegerAttrGetValueInt(a))
    }
}

/// The value of discardable attribute `name`, if it is a string attribute.
pub fn string_attribute(op: Op, name: &str) -> Option<String> {
    // SAFETY: live op.
    string_value(unsafe { mlirOperationGetDiscardableAttributeByName(op, string_ref(name)) })
}

/// The value of inherent attribute (property) `name`, if it is a string attribute.
pub fn string_attribute_inherent(op: Op, name: &str) -> Option<String> {
    // SAFETY: live op.
    string_value(unsafe { mlirOperationGetInherentAttributeByName(op, string_ref(name)) })
}

/// The string of a string attribute (copied), if `a` is one.
fn string_value(a: MlirAttribute) -> Option<String> {
    // SAFETY: a null or live attribute, checked before reading.
    unsafe {
        if a.ptr.is_null() || !mlirAttributeIsAString(a) {
            return None;
        }
        let s = mlirStringAttrGetValue(a);
        let bytes = std::slice::from_raw_parts(s.data as *const u8, s.length);
        Some(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// Whether `op` has the inherent attribute (property) `name` (a unit attribute is set
/// when present).
pub fn has_inherent_attribute(op: Op, name: &str) -> bool {
    // SAFETY: live op.
    unsafe { !mlirOperationGetInherentAttributeByName(op, string_ref(name)).ptr.is_null() }
}

/// The integer value of inherent attribute (property) `name`.
pub fn int_attribute_inherent(op: Op, name: &str) -> Option<i64> {
    // SAFETY: live op; the attribute is checked before reading.
    unsafe {
        let a = mlirOperationGetInherentAttributeByName(op, string_ref(name));
        (!a.ptr.is_null() && mlirAttributeIsAInteger(a)).then(|| mlirIntegerAttrGetValueInt(a))
    }
}

pub fn same_type(a: MlirType, b: MlirType) -> bool {
    // SAFETY: live types.
    unsafe { mlirTypeEqual(a, b) }
}

/// The rank of a ranked tensor type.
pub fn rank(t: MlirType) -> Option<i64> {
    // SAFETY: live type, checked before reading.
    unsafe { (mlirTypeIsARankedTensor(t)).then(|| mlirShapedTypeGetRank(t)) }
}

/// `op` and every op nested in it, in pre-order, that satisfy `keep`.
pub fn collect(op: Op, keep: impl Fn(Op) -> bool) -> Vec<Op> {
    let mut out = Vec::new();
    // SAFETY: a live op of the function being rewritten.
    let op_ref = unsafe { melior::ir::OperationRef::from_raw(op) };
    use melior::ir::operation::OperationLike;
    op_ref.walk(melior::ir::operation::WalkOrder::PreOrder, |o| {
        if keep(o.to_raw()) {
            out.push(o.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    out
}

/// Whether `value` is defined outside `op` (not by an op in it, not as an argument of one
/// of its blocks).
pub fn defined_outside(value: Val, op: Op) -> bool {
    match defining_op(value) {
        Some(d) => !is_within(d, op),
        None => {
            // SAFETY: a block argument of a live block.
            let owner = unsafe { mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(value)) };
            owner.ptr.is_null() || !is_within(owner, op)
        }
    }
}

/// The value of an integer `arith.constant`, if `v` is one.
pub fn int_constant(v: Val) -> Option<i64> {
    let op = defining_op(v)?;
    (op_name(op) == "arith.constant").then(|| int_attribute_inherent(op, "value")).flatten()
}

/// Whether `value` is a memref.
pub fn is_memref(value: Val) -> bool {
    // SAFETY: a live value's type.
    unsafe { mlirTypeIsAMemRef(value_type(value)) }
}

/// Whether the `func.func` `function` has a body (is not a declaration).
pub fn has_body(function: Op) -> bool {
    // SAFETY: a func.func has one region.
    unsafe { !mlirRegionGetFirstBlock(region(function, 0)).ptr.is_null() }
}

/// The symbol a `func.call` calls (empty if it has none).
pub fn callee(call: Op) -> String {
    use melior::ir::operation::OperationLike;
    // SAFETY: a live func.call.
    unsafe { melior::ir::OperationRef::from_raw(call) }
        .attribute("callee")
        .ok()
        .and_then(|a| melior::ir::attribute::FlatSymbolRefAttribute::try_from(a).ok())
        .map(|s| s.value().to_owned())
        .unwrap_or_default()
}

/// The `memref` ops whose result is a view of their first operand: the same memory,
/// seen through another shape, layout or type.
pub const VIEW_OPS: &[&str] = &[
    "memref.cast",
    "memref.subview",
    "memref.reinterpret_cast",
    "memref.collapse_shape",
    "memref.expand_shape",
    "memref.view",
    "memref.transpose",
    "memref.memory_space_cast",
    "memref.assume_alignment",
];

/// The names (`sym_name`) of the top-level symbols of a `builtin.module`.
pub fn module_symbols(module: Op) -> Vec<String> {
    // SAFETY: a live module; its body is its region's only block.
    let body = unsafe { melior::ir::BlockRef::from_raw(first_block(region(module, 0))) };
    use melior::ir::{BlockLike, operation::OperationLike};
    let mut names = Vec::new();
    let mut op = body.first_operation();
    while let Some(o) = op {
        if let Ok(name) = o.attribute("sym_name")
            && let Ok(name) = melior::ir::attribute::StringAttribute::try_from(name)
        {
            names.push(name.value().to_string());
        }
        op = o.next_in_block();
    }
    names
}

/// Appends the ops of `text` (a module body in MLIR's textual form, written by the pass
/// that calls this) to the body of the `builtin.module` `module`; `None` if it does not
/// parse.
pub fn append_parsed(context: &melior::Context, module: Op, text: &str) -> Option<()> {
    use melior::ir::{BlockLike, operation::OperationLike};
    let parsed = melior::ir::Module::parse(context, text)?;
    // SAFETY: a live module; its body is its region's only block.
    let body = unsafe { melior::ir::BlockRef::from_raw(first_block(region(module, 0))) };
    let mut op = parsed.body().first_operation();
    while let Some(o) = op {
        op = o.next_in_block();
        // SAFETY: a clone of a live op of `parsed`, owned here and moved into the body at once.
        body.append_operation(unsafe { melior::ir::Operation::from_raw(mlirOperationClone(o.to_raw())) });
    }
    Some(())
}
