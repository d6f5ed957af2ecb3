//! Which variables' relaxation carries the gap: solves the `combined` model of a random
//! program (cost `reads-writes`, one thread, as `proof_from_optimum` does) to its
//! optimum, then, for each set of variable-name prefixes, fixes those variables at the
//! optimum's values, relaxes every other variable and separates the cycle inequalities
//! until none is violated. A bound that reaches the optimum says the relaxation of the
//! other variables loses nothing once the fixed ones are right; the lines after each
//! bound split the LP's saving against the optimum by variable family (the objective's
//! terms, LP value minus optimum) and count its fractional variables.
//!
//! `cargo run --release -p fusion-analysis --features generators --example gap_at_optimum -- SIZE SEED 'none;x_;z_'`
//!
//! The third argument lists the sets, separated by `;`; a set is a comma-separated list
//! of prefixes (`x_` fusion decisions, `z_` shares, `r_` reads, `m_` manifest outputs,
//! `d_` orders); `none` matches no variable.

mod common;

use fusion_analysis::cost::{CostFunction, CostModel};
use fusion_analysis::formulation::{Formulation, build};
use fusion_analysis::random::random_graph;
use fusion_solver::{Limits, SolveStatus, solve_with};
use std::collections::BTreeMap;
use std::process::ExitCode;

fn run(size: usize, seed: u64, sets: &str) -> Result<(), String> {
    let graph = random_graph(size, seed);
    let ilp = build(&graph, Formulation::Combined, &CostFunction::single(CostModel::ReadsWrites))
        .map_err(|e| e.to_string())?;
    let cuts = ilp.cycle_cuts.clone().ok_or("the combined model has no cycle inequalities")?;
    let lazy = ilp.lazy_model().ok_or("the combined model under reads-writes solves without π")?;
    let hooks = common::lazy_hooks(&cuts, &lazy, Vec::new());
    let optimum =
        solve_with(&lazy, &Limits { time_seconds: common::EXAMPLE_LIMIT_SECONDS, ..Limits::default() }, hooks)
            .map_err(|e| e.to_string())?;
    if optimum.status != SolveStatus::Optimal {
        return Err(format!("no proven optimum within 600 s ({:?})", optimum.status));
    }
    let offset = ilp.objective_offset;
    println!("random n={size} seed={seed}: optimum {:.1}", optimum.objective + offset);
    let mut cost = vec![0.0; ilp.model.variables.len()];
    for &(v, c) in &ilp.model.objective {
        cost[v.0] += c;
    }
    for set in sets.split(';') {
        let fixed: Vec<&str> = set.split(',').filter(|p| !p.is_empty() && *p != "none").collect();
        // Fixed at the optimum's values, every other variable relaxed.
        let mut model = ilp.model.clone();
        for (i, v) in model.variables.iter_mut().enumerate() {
            if fixed.iter().any(|prefix| v.name.starts_with(prefix)) {
                v.lower = optimum.values[i].round();
                v.upper = optimum.values[i].round();
            }
        }
        let (bound, point, _) = common::separated_relaxation(model, &cuts, |_| false)?;
        println!("  fixed {set:<12} bound {:.3}", bound + offset);
        let mut families: BTreeMap<&str, (f64, usize)> = BTreeMap::new();
        for (i, v) in ilp.model.variables.iter().enumerate() {
            let family = families.entry(v.name.split('_').next().unwrap_or("")).or_default();
            family.0 += cost[i] * (point[i] - optimum.values[i]);
            family.1 += usize::from((point[i] - point[i].round()).abs() > 1e-6);
        }
        for (family, (saving, fractional)) in families {
            if saving.abs() > 1e-9 || fractional > 0 {
                println!("    {family:>7}_  LP − optimum {saving:+8.3}  fractional {fractional}");
            }
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(size), Some(seed), Some(sets)) =
        (args.first().and_then(|s| s.parse().ok()), args.get(1).and_then(|s| s.parse().ok()), args.get(2))
    else {
        eprintln!("usage: gap_at_optimum SIZE SEED 'SET;SET;…' (a SET: comma-separated name prefixes, or none)");
        return ExitCode::from(2);
    };
    match run(size, seed, sets) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("gap_at_optimum: {e}");
            ExitCode::FAILURE
        }
    }
}
