//! The optimal fusion analysis (issue: dependence graph, size inference, ILP, SCIP,
//! validator). Data flows: IR → [`graph::Graph`] → ILP → [`clustering::Clustering`],
//! checked by the validator before use.

pub mod clustering;
pub mod graph;
pub mod extract;
pub mod sizes;
pub mod cost;
pub mod validate;
pub mod driver;
pub mod formulation;
pub mod random;
pub mod report;
