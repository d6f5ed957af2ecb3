//! Constructors of op-level errors (the op's name and `file:line:col` are read only here,
//! when an error actually happens).

use crate::{InterpError, ir};

pub fn unsupported(op: ir::Op) -> InterpError {
    InterpError::Unsupported { op: ir::op_name(op).to_owned(), location: ir::location(op) }
}

/// An unsupported form of a supported op (an attribute, a type).
pub fn unsupported_form(op: ir::Op, what: impl std::fmt::Display) -> InterpError {
    InterpError::Unsupported { op: format!("{} ({what})", ir::op_name(op)), location: ir::location(op) }
}

pub fn invalid(op: ir::Op, detail: impl Into<String>) -> InterpError {
    InterpError::Invalid { op: ir::op_name(op).to_owned(), location: ir::location(op), detail: detail.into() }
}

pub fn out_of_bounds(op: ir::Op, detail: impl Into<String>) -> InterpError {
    InterpError::OutOfBounds { op: ir::op_name(op).to_owned(), location: ir::location(op), detail: detail.into() }
}

pub fn shape_mismatch(op: ir::Op, detail: impl Into<String>) -> InterpError {
    InterpError::ShapeMismatch { op: ir::op_name(op).to_owned(), location: ir::location(op), detail: detail.into() }
}

pub fn undefined(op: ir::Op, detail: impl Into<String>) -> InterpError {
    InterpError::Undefined { op: ir::op_name(op).to_owned(), location: ir::location(op), detail: detail.into() }
}

pub fn division_by_zero(op: ir::Op) -> InterpError {
    InterpError::DivisionByZero { op: ir::op_name(op).to_owned(), location: ir::location(op) }
}

pub fn loop_limit(op: ir::Op, limit: u64) -> InterpError {
    InterpError::LoopLimitExceeded { op: ir::op_name(op).to_owned(), location: ir::location(op), limit }
}

pub fn too_large(op: ir::Op, detail: impl Into<String>) -> InterpError {
    InterpError::TooLarge { op: ir::op_name(op).to_owned(), location: ir::location(op), detail: detail.into() }
}
