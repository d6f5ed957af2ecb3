//! Mixed-integer linear programs as plain data, and a SCIP backend to solve them.
//!
//! The fusion analysis builds a [`Model`] without knowing the solver (DESIGN.md,
//! "Conventions"), so a model can be printed, snapshot-tested and solved by any backend.
//! [`scip::solve`] is the backend used in production; [`lp::write_lp`] renders a model
//! in the CPLEX LP format for other solvers, bug reports and snapshot tests; and
//! [`check_feasible`] re-checks any solution against the model.

pub mod lp;
pub mod model;
pub mod race;
pub mod scip;

pub use lp::{LpNames, write_lp, write_lp_file};
pub use model::{
    Branching, GeneralCuts, Heuristics, INFINITE_BOUND, Model, Row, Sense, VarId, VarKind, Variable, check_feasible,
};
pub use race::solve_racing;
pub use scip::{
    CutSeparator, Hooks, Limits, PrimalHeuristic, Propagation, SearchEffort, Solution, SolveError, SolveStatus,
    sequential_with_separator, solve, solve_with,
};
