//! Sizes in a cluster: extents compared symbolically, and classes of extents known equal.

use super::super::builder::{array_op, rank, static_dim};
use crate::ir::{self, Val};
use array_dialect::view::ArrayOp;
use melior::ir::ValueLike;

/// One extent of an iteration space, symbolically: equal keys are provably equal sizes.
#[derive(Clone, Copy, Debug)]
pub(super) enum Extent {
    Static(i64),
    /// An index value defined outside the cluster.
    Value(Val),
    /// `tensor.dim` of a tensor defined outside the cluster.
    Dim(Val, usize),
}

impl PartialEq for Extent {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Extent::Static(a), Extent::Static(b)) => a == b,
            (Extent::Value(a), Extent::Value(b)) => ir::same_value(*a, *b),
            (Extent::Dim(a, d), Extent::Dim(b, e)) => ir::same_value(*a, *b) && d == e,
            _ => false,
        }
    }
}

pub(super) fn value_key(v: Val) -> Extent {
    if let Some(def) = ir::defining_op(v) {
        match ir::op_name(def).as_str() {
            "arith.constant" => {
                if let Some(n) = ir::int_attribute_inherent(def, "value") {
                    return Extent::Static(n);
                }
            }
            // `array.dim`/`array.size`, lowered first (seed 001's reverse: the generate's
            // extent is the gathered array's size).
            "tensor.dim" => {
                let operands = ir::operands(def);
                if let Some(Extent::Static(d)) = operands.get(1).map(|d| value_key(*d))
                    && d >= 0
                    && (d as usize) < rank(ir::value_type(operands[0]))
                {
                    return dim_key(operands[0], d as usize);
                }
            }
            _ => {}
        }
    }
    Extent::Value(v)
}

/// The extent of dimension `d` of tensor `x` (defined outside the cluster).
pub(super) fn dim_key(x: Val, d: usize) -> Extent {
    let t = ir::value_type(x);
    if let Some(s) = static_dim(t, d) {
        return Extent::Static(s);
    }
    let Some(def) = ir::defining_op(x) else { return Extent::Dim(x, d) };
    match array_op(def) {
        Some(ArrayOp::Generate { shape, .. }) => return value_key(shape[d].to_raw()),
        Some(ArrayOp::Map { inputs, .. }) => {
            if let Some(first) = inputs.first() {
                return dim_key(first.to_raw(), d);
            }
        }
        _ => {}
    }
    if ir::op_name(def) == "bufferization.to_tensor" {
        let memref = ir::operands(def)[0];
        if let Some(alloc) = ir::defining_op(memref)
            && ir::op_name(alloc) == "memref.alloc"
        {
            // The alloc's operands are the dynamic sizes, in order.
            let position = (0..d).filter(|e| static_dim(t, *e).is_none()).count();
            if let Some(size) = ir::operands(alloc).get(position) {
                return value_key(*size);
            }
        }
    }
    Extent::Dim(x, d)
}

pub(super) fn keys_of(x: Val) -> Vec<Extent> {
    (0..rank(ir::value_type(x))).map(|d| dim_key(x, d)).collect()
}

/// Classes of extents known equal (union-find): a combinator's inputs have equal sizes.
#[derive(Default)]
pub(super) struct Classes {
    members: Vec<Extent>,
    parent: Vec<usize>,
}

impl Classes {
    pub(super) fn id(&mut self, e: Extent) -> usize {
        if let Some(i) = self.members.iter().position(|m| *m == e) {
            return i;
        }
        self.members.push(e);
        self.parent.push(self.parent.len());
        self.parent.len() - 1
    }

    pub(super) fn find(&mut self, e: Extent) -> usize {
        let mut i = self.id(e);
        while self.parent[i] != i {
            i = self.parent[i];
        }
        i
    }

    pub(super) fn union(&mut self, a: Extent, b: Extent) {
        let (x, y) = (self.find(a), self.find(b));
        self.parent[x] = y;
    }

    pub(super) fn same(&mut self, a: Extent, b: Extent) -> bool {
        self.find(a) == self.find(b)
    }

    /// The extent to materialize for `e`'s class: a static member if there is one.
    pub(super) fn representative(&mut self, e: Extent) -> Extent {
        let root = self.find(e);
        let members = self.members.clone();
        members.into_iter().find(|m| matches!(m, Extent::Static(_)) && self.find(*m) == root).unwrap_or(e)
    }
}
