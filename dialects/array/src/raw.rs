//! Read-only queries on raw C API handles of live IR, shared by the passes' in-place
//! editing layer (`fusion_passes::ir`) and the reference interpreter's IR access
//! (`fusion_interpreter`'s `ir`), which both work on handles rather than melior's
//! borrowed wrappers. Every function expects handles of IR that is alive for the call
//! (owned by a module or a pass run that outlives it).

use mlir_sys::*;

/// A raw op handle (`MlirOperation`), compared by pointer.
pub type Op = MlirOperation;
/// A raw value handle.
pub type Val = MlirValue;

/// A borrowed C API string of `s` (valid while `s` is).
pub fn string_ref(s: &str) -> MlirStringRef {
    MlirStringRef { data: s.as_ptr() as *const _, length: s.len() }
}

pub fn operands(op: Op) -> Vec<Val> {
    // SAFETY: live op.
    unsafe { (0..mlirOperationGetNumOperands(op)).map(|i| mlirOperationGetOperand(op, i)).collect() }
}

pub fn results(op: Op) -> Vec<Val> {
    // SAFETY: live op.
    unsafe { (0..mlirOperationGetNumResults(op)).map(|i| mlirOperationGetResult(op, i)).collect() }
}

pub fn value_type(v: Val) -> MlirType {
    // SAFETY: live value.
    unsafe { mlirValueGetType(v) }
}

/// The ops of a block, in order.
pub fn block_ops(block: MlirBlock) -> Vec<Op> {
    let mut out = Vec::new();
    // SAFETY: live block; the list is read before any change.
    unsafe {
        let mut op = mlirBlockGetFirstOperation(block);
        while !op.ptr.is_null() {
            out.push(op);
            op = mlirOperationGetNextInBlock(op);
        }
    }
    out
}

pub fn block_arguments(block: MlirBlock) -> Vec<Val> {
    // SAFETY: live block.
    unsafe { (0..mlirBlockGetNumArguments(block)).map(|i| mlirBlockGetArgument(block, i)).collect() }
}
