//! Why an interpretation stopped. Every error that belongs to an op names the op and its
//! location (`file:line:col`, as the MLIR diagnostics print it).

use std::fmt;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpError {
    /// An op the interpreter does not implement (or a form of it, e.g. an attribute).
    Unsupported { op: String, location: String },
    /// A call of a function declared without a body and with no registered implementation.
    External(String),
    /// No function of that name in the module.
    UnknownFunction(String),
    /// Integer division or remainder by zero.
    DivisionByZero { op: String, location: String },
    /// An index outside its array: `array.index`, `gather`, `scatter`, `backpermute`,
    /// `permute`, `tensor.extract`/`insert`, `array.dim`.
    OutOfBounds { op: String, location: String, detail: String },
    /// Operands of one op whose shapes must agree but do not (e.g. a `map` of a length-3 and
    /// a length-4 vector), which the static verifier cannot see for dynamic sizes.
    ShapeMismatch { op: String, location: String, detail: String },
    /// Other undefined behaviour (poison in `arith`): signed division overflow, shifts by
    /// the width or more, float-to-int conversions out of range, negative sizes or counts,
    /// a non-positive `scf.for` step.
    Undefined { op: String, location: String, detail: String },
    /// IR or values the interpreter cannot make sense of (a wrong number of yielded values,
    /// a value of the wrong type from an external, ...).
    Invalid { op: String, location: String, detail: String },
    /// The arguments do not fit the function's signature.
    BadArguments { function: String, detail: String },
    /// Calls nested deeper than the limit (runaway recursion).
    CallDepthExceeded { function: String, limit: usize },
    /// A loop (`scf.while`, `scf.for`, or a `cf` block cycle) ran more iterations than the limit.
    LoopLimitExceeded { op: String, location: String, limit: u64 },
    /// An array larger than the element limit (see `Interpreter::with_max_elements`), or
    /// whose size overflows.
    TooLarge { op: String, location: String, detail: String },
    /// An error raised by a registered external implementation.
    ExternalFailed { function: String, message: String },
    /// A bug of the interpreter (a caught panic); never expected.
    Internal(String),
}

impl InterpError {
    /// The location of an op-level error, if any.
    pub fn location(&self) -> Option<&str> {
        match self {
            InterpError::Unsupported { location, .. }
            | InterpError::DivisionByZero { location, .. }
            | InterpError::OutOfBounds { location, .. }
            | InterpError::ShapeMismatch { location, .. }
            | InterpError::Undefined { location, .. }
            | InterpError::Invalid { location, .. }
            | InterpError::TooLarge { location, .. }
            | InterpError::LoopLimitExceeded { location, .. } => Some(location),
            _ => None,
        }
    }
    /// The op of an op-level error, if any.
    pub fn op(&self) -> Option<&str> {
        match self {
            InterpError::Unsupported { op, .. }
            | InterpError::DivisionByZero { op, .. }
            | InterpError::OutOfBounds { op, .. }
            | InterpError::ShapeMismatch { op, .. }
            | InterpError::Undefined { op, .. }
            | InterpError::Invalid { op, .. }
            | InterpError::TooLarge { op, .. }
            | InterpError::LoopLimitExceeded { op, .. } => Some(op),
            _ => None,
        }
    }
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterpError::Unsupported { op, location } => {
                write!(f, "{location}: error: the interpreter does not support `{op}`")
            }
            InterpError::External(name) => write!(
                f,
                "error: @{name} is an external declaration without a body and no implementation is registered"
            ),
            InterpError::UnknownFunction(name) => write!(f, "error: no function @{name} in the module"),
            InterpError::DivisionByZero { op, location } => write!(f, "{location}: error: `{op}`: division by zero"),
            InterpError::OutOfBounds { op, location, detail } => {
                write!(f, "{location}: error: `{op}`: index out of bounds: {detail}")
            }
            InterpError::ShapeMismatch { op, location, detail } => {
                write!(f, "{location}: error: `{op}`: shape mismatch: {detail}")
            }
            InterpError::Undefined { op, location, detail } => {
                write!(f, "{location}: error: `{op}`: undefined behaviour: {detail}")
            }
            InterpError::Invalid { op, location, detail } => write!(f, "{location}: error: `{op}`: {detail}"),
            InterpError::BadArguments { function, detail } => {
                write!(f, "error: bad arguments for @{function}: {detail}")
            }
            InterpError::CallDepthExceeded { function, limit } => {
                write!(f, "error: calling @{function} exceeds the call depth limit of {limit}")
            }
            InterpError::LoopLimitExceeded { op, location, limit } => {
                write!(f, "{location}: error: `{op}` ran more than {limit} iterations")
            }
            InterpError::TooLarge { op, location, detail } => {
                write!(f, "{location}: error: `{op}`: too large: {detail}")
            }
            InterpError::ExternalFailed { function, message } => {
                write!(f, "error: external @{function} failed: {message}")
            }
            InterpError::Internal(message) => write!(f, "error: interpreter bug: {message}"),
        }
    }
}

impl std::error::Error for InterpError {}
