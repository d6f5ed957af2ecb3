//! The memory accesses of a loop body, for the analyses that run a sequential loop in
//! parallel (`atomics`, `scans`): which ops it has, what it loads and stores, and whether
//! a buffer it stores to can be reasoned about on its own.

use crate::ir::{self, Op, Val};
use mlir_sys::*;

pub(crate) struct Accesses {
    /// Every op of the body, nested ones included, in pre-order.
    pub ops: Vec<Op>,
    pub loads: Vec<Op>,
    pub stores: Vec<Op>,
}

impl Accesses {
    /// The accesses of `body` (a loop's block), or why its ops are not all [`allowed`].
    pub fn of(body: MlirBlock) -> Result<Accesses, String> {
        let mut ops = Vec::new();
        for top in ir::block_ops(body) {
            ops.extend(ir::collect(top, |_| true));
        }
        if let Some(other) = ops.iter().find(|o| !allowed(**o)) {
            return Err(format!("its body has '{}'", ir::op_name(*other)));
        }
        let named = |name: &str| ops.iter().copied().filter(|o| ir::op_name(*o) == name).collect();
        Ok(Accesses { loads: named("memref.load"), stores: named("memref.store"), ops })
    }

    /// The buffers stored to, each once, in order of first store.
    pub fn written(&self) -> Vec<Val> {
        let mut written: Vec<Val> = Vec::new();
        for buffer in self.stores.iter().map(|s| store_buffer(*s)) {
            if !written.iter().any(|w| ir::same_value(*w, buffer)) {
                written.push(buffer);
            }
        }
        written
    }

    pub fn loads_of(&self, buffer: Val) -> Vec<Op> {
        self.loads.iter().copied().filter(|l| ir::same_value(load_buffer(*l), buffer)).collect()
    }

    pub fn stores_of(&self, buffer: Val) -> Vec<Op> {
        self.stores.iter().copied().filter(|s| ir::same_value(store_buffer(*s), buffer)).collect()
    }

    /// Whether the body reaches `buffer` only through that value and no other value can
    /// alias it: it is a `memref.alloc` of the function (an argument could alias another
    /// argument), and no access of the body goes through a view of it (the roots of all
    /// accessed buffers are compared).
    pub fn isolated(&self, buffer: Val) -> bool {
        let fresh = ir::defining_op(buffer).is_some_and(|d| ir::op_name(d) == "memref.alloc");
        let through_view = self
            .loads
            .iter()
            .map(|l| load_buffer(*l))
            .chain(self.stores.iter().map(|s| store_buffer(*s)))
            .any(|other| !ir::same_value(other, buffer) && ir::same_value(root(other), buffer));
        fresh && !through_view
    }
}

/// The buffer of `memref.load` `load`, and its indices.
pub(crate) fn load_buffer(load: Op) -> Val {
    ir::operands(load)[0]
}

pub(crate) fn load_indices(load: Op) -> Vec<Val> {
    ir::operands(load)[1..].to_vec()
}

/// The buffer of `memref.store` `store`, and its indices.
pub(crate) fn store_buffer(store: Op) -> Val {
    ir::operands(store)[1]
}

pub(crate) fn store_indices(store: Op) -> Vec<Val> {
    ir::operands(store)[2..].to_vec()
}

/// Whether `op` may appear in a loop body whose iterations are to run in parallel
/// (`atomics`, `scans`, and `merge_row_loops`' two bodies): pure arithmetic, structured
/// control flow, loads, stores and shape queries. Anything else (a call, a copy, an
/// allocation) could have effects that order the iterations in a way the analyses do
/// not see.
pub(crate) fn allowed(op: Op) -> bool {
    let name = ir::op_name(op);
    ["arith.", "math.", "complex.", "index."].iter().any(|p| name.starts_with(p))
        || matches!(
            name.as_str(),
            "scf.for"
                | "scf.if"
                | "scf.yield"
                | "scf.while"
                | "scf.condition"
                | "memref.load"
                | "memref.store"
                | "memref.dim"
                | "ub.poison"
        )
}

/// The buffer a view (`memref.cast`, `subview`, `reinterpret_cast`, …) is of, through
/// any chain of views; a buffer that is no view is its own root.
pub(crate) fn root(buffer: Val) -> Val {
    let mut current = buffer;
    while let Some(d) = ir::defining_op(current) {
        let view = ir::VIEW_OPS.contains(&ir::op_name(d).as_str());
        if !view {
            break;
        }
        current = ir::operands(d)[0];
    }
    current
}
