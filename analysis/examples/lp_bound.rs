//! The LP bound of the `combined` model of random programs: every variable relaxed to
//! continuous, its cycle inequalities (`cycle_cuts.rs`) separated round after round
//! until none is violated; then the same with every row that mentions a position π
//! left out (the rows SCIP solves without, `Ilp::lazy_model`). Equal bounds mean the
//! rows on π add nothing to the relaxation once the cycle inequalities are in
//! (`docs/fusion-ilp.md`, "Where the bound is weak").
//!
//! `cargo run --release -p fusion-analysis --features generators --example lp_bound -- SIZE SEEDS [COST] [INTEGRAL]`
//! (SEEDS is a count, seeds 0 to SEEDS − 1, or a range `FIRST..END`, END excluded, to
//! look at one program: `11..12`; COST defaults to `reads-writes`, fusion-bench's
//! default). INTEGRAL, a
//! comma-separated list of variable-name prefixes, keeps those variables integral and
//! relaxes the rest: with `x_` the fusion decisions stay binary while the shares, reads,
//! writes and orders are relaxed, which tells how much of the gap to the optimum the
//! relaxation of the fusion decisions alone leaves open. Each round is then a MIP, still
//! a relaxation of the model, so the bound stays valid.

mod common;

use fusion_analysis::cost::CostFunction;
use fusion_analysis::formulation::{Formulation, build};
use fusion_analysis::random::random_graph;
use std::process::ExitCode;

fn run(size: usize, seeds: std::ops::Range<u64>, cost: &CostFunction, integral: &[String]) -> Result<(), String> {
    println!("program               rows  LP bound (solves)  rows without π  LP bound without π (solves)");
    for seed in seeds {
        let graph = random_graph(size, seed);
        let ilp = build(&graph, Formulation::Combined, cost).map_err(|e| e.to_string())?;
        let cuts = ilp.cycle_cuts.as_ref().ok_or("the combined model has no cycle inequalities")?;
        let keep_integral = |name: &str| integral.iter().any(|prefix| name.starts_with(prefix.as_str()));
        let (bound, _, rounds) = common::separated_relaxation(ilp.model.clone(), cuts, keep_integral)?;
        let mut without_pi = ilp.model.clone();
        let is_pi: Vec<bool> = without_pi.variables.iter().map(|v| v.name.starts_with("pi_")).collect();
        without_pi.rows.retain(|row| !row.terms.iter().any(|(v, _)| is_pi[v.0]));
        let kept = without_pi.rows.len();
        let (bound_without, _, rounds_without) = common::separated_relaxation(without_pi, cuts, keep_integral)?;
        let offset = ilp.objective_offset;
        println!(
            "random n={size} seed={seed:<3} {:>6}  {:>9.3} ({rounds:>2})  {kept:>14}  {:>9.3} ({rounds_without:>2})",
            ilp.model.rows.len(),
            bound + offset,
            bound_without + offset
        );
    }
    Ok(())
}

/// `N` (seeds 0 to N − 1) or `FIRST..END`.
fn seed_range(text: &str) -> Option<std::ops::Range<u64>> {
    match text.split_once("..") {
        Some((first, end)) => Some(first.parse().ok()?..end.parse().ok()?),
        None => Some(0..text.parse().ok()?),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: lp_bound SIZE SEEDS|FIRST..END [COST] [INTEGRAL]";
    let (Some(size), Some(seeds)) =
        (args.first().and_then(|s| s.parse().ok()), args.get(1).and_then(|s| seed_range(s)))
    else {
        eprintln!("{usage}");
        return ExitCode::from(2);
    };
    let cost = match args.get(2).map_or("reads-writes", String::as_str).parse::<CostFunction>() {
        Ok(cost) => cost,
        Err(e) => {
            eprintln!("lp_bound: {e}\n{usage}");
            return ExitCode::from(2);
        }
    };
    let integral: Vec<String> =
        args.get(3).map(|s| s.split(',').filter(|p| !p.is_empty()).map(String::from).collect()).unwrap_or_default();
    match run(size, seeds, &cost, &integral) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("lp_bound: {e}");
            ExitCode::FAILURE
        }
    }
}
