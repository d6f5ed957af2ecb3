//! How much of a solve is the proof: solves the `combined` model of a random program
//! (cost `reads-writes`, one thread, its cycle inequalities separated and enforced as
//! lazy rows in place of the rows on π, as the pipeline solves it), then solves it
//! again with the first answer as a complete starting solution. When the first answer is
//! optimal, the second solve starts from the optimum and has only the bound left to prove,
//! so its time is what no primal heuristic or warm start could save.
//!
//! `cargo run --release -p fusion-analysis --features generators --example proof_from_optimum -- SIZE SEED FIRST_LIMIT SECOND_LIMIT`

mod common;

use fusion_analysis::cost::{CostFunction, CostModel};
use fusion_analysis::formulation::{Formulation, build};
use fusion_analysis::random::random_graph;
use fusion_solver::{Limits, Solution, VarId, solve_with};
use std::process::ExitCode;
use std::time::Instant;

fn report(what: &str, solution: &Solution, offset: f64, seconds: f64) {
    println!(
        "{what}: {:?}, objective {:.1}, bound {:.1}, {seconds:.1} s",
        solution.status,
        solution.objective + offset,
        solution.dual_bound + offset
    );
}

fn run(size: usize, seed: u64, first_limit: f64, second_limit: f64) -> Result<(), String> {
    let graph = random_graph(size, seed);
    let ilp = build(&graph, Formulation::Combined, &CostFunction::single(CostModel::ReadsWrites))
        .map_err(|e| e.to_string())?;
    let cuts = ilp.cycle_cuts.clone().ok_or("the combined model has no cycle inequalities")?;
    let model = ilp.lazy_model().ok_or("the combined model under reads-writes solves without π")?;
    let hooks = |start: Vec<(VarId, f64)>| common::lazy_hooks(&cuts, &model, start);
    let limits = |seconds: f64| Limits { time_seconds: seconds, ..Limits::default() };
    let started = Instant::now();
    let first = solve_with(&model, &limits(first_limit), hooks(Vec::new())).map_err(|e| e.to_string())?;
    report("from nothing", &first, ilp.objective_offset, started.elapsed().as_secs_f64());
    let start = first.values.iter().enumerate().map(|(i, &v)| (VarId(i), v)).collect();
    let started = Instant::now();
    let second = solve_with(&model, &limits(second_limit), hooks(start)).map_err(|e| e.to_string())?;
    report("from that answer", &second, ilp.objective_offset, started.elapsed().as_secs_f64());
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| args.get(i).and_then(|s| s.parse::<f64>().ok()).filter(|x| *x >= 0.0);
    let (Some(size), Some(seed), Some(first), Some(second)) = (number(0), number(1), number(2), number(3)) else {
        eprintln!("usage: proof_from_optimum SIZE SEED FIRST_LIMIT SECOND_LIMIT");
        return ExitCode::from(2);
    };
    match run(size as usize, seed as u64, first, second) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("proof_from_optimum: {e}");
            ExitCode::FAILURE
        }
    }
}
