//! The optimal fusion analysis (issue: dependence graph, size inference, ILP, SCIP,
//! validator). Data flows: IR → [`graph::Graph`] → ILP → [`clustering::Clustering`],
//! checked by the validator before use.

pub mod clustering;
pub mod cost;
pub mod driver;
pub mod exhaustive;
pub mod extract;
pub mod formulation;
pub mod graph;
pub mod random;
pub mod report;
pub mod sizes;
pub mod validate;
