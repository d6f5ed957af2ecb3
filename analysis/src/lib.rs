//! The optimal fusion analysis, independent of MLIR.
//!
//! Data flows: a program's dependence [`graph::Graph`] (built from IR by the `passes`
//! crate's extractor, or by `random`, behind the `generators` feature, in tests) → an ILP of one of the
//! [`formulation`]s, solved by `fusion-solver` → a [`clustering::Clustering`], which the
//! independent [`validate`] checks and [`cost`] prices before [`driver`] accepts it;
//! [`report`] renders the result. [`local_search`] improves the solver's starting
//! clustering (a hint, never a bound). [`baseline`] holds the strategies the optimum is
//! compared with (no fusion, seed 000's greedy algorithms). [`exhaustive`] is the reference search that tests
//! compare every formulation with; it shares no code with the ILP.

pub mod baseline;
pub mod bohrium;
pub mod branch_and_bound;
pub mod clustering;
pub mod cost;
pub mod cycle_cuts;
pub mod driver;
pub mod exhaustive;
pub mod formulation;
pub mod graph;
pub mod local_search;
#[cfg(feature = "generators")]
pub mod random;
pub mod rens;
pub mod report;
pub mod rng;
pub mod validate;
pub mod wsp;
