//! Mixed-integer linear programs as plain data, and a SCIP backend to solve them.
//!
//! The fusion analysis builds a [`Model`] without knowing the solver (DESIGN.md,
//! "Conventions"), so a model can be printed, snapshot-tested and solved by any backend.
//! [`scip::solve`] is the backend used in production.

pub mod model;
pub mod scip;

pub use model::{Model, Row, Sense, VarId, VarKind, Variable};
pub use scip::{Limits, Solution, SolveError, SolveStatus};
