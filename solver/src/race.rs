//! Racing: several differently seeded solves of one model, each in its own thread with
//! the caller's own hooks (cut separator, lazy rows, heuristic), sharing their
//! incumbents; the first to prove its answer stops the others. Where the model asks
//! for inference branching, every second racer branches with reliability pseudo-costs
//! instead (a portfolio of two rules, `portfolio_model`).
//!
//! Why not SCIP's concurrent solver: it solves copies of the instance, and a plugin
//! without a copy callback is not copied, so the copies would solve without the
//! caller's separator and lazy rows ([`crate::scip::sequential_with_separator`]). Here
//! every racer is a whole solve of its own, built by the caller's `hooks_for`, so each
//! has every row. Why it pays: on the fusion models the time a proof takes varies a lot
//! with the search path (one program of 200 combinators proven in 10 s with one random
//! seed and 24 s with another), and an incumbent found by one racer prunes the other's
//! tree at once (docs/ilp-measurements.md).
//!
//! Soundness: every racer solves the same model. An optimum one racer proves is the
//! model's optimum; an incumbent passed between them is checked by the receiving SCIP
//! against every row (lazy rows included) before it is kept; the reported dual bound
//! is the best of the racers' bounds, each valid for the whole model.

use crate::model::{Branching, Model, Sense};
use crate::scip::{Hooks, Limits, SearchEffort, Solution, SolveError, SolveStatus, solve_racer};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// What the racers share: whether one has finished, and the best point any has found.
pub(crate) struct Shared {
    /// Set when a racer has proved its answer (or the model infeasible): the others
    /// interrupt at their next node.
    pub(crate) stop: AtomicBool,
    /// The best incumbent so far: its objective and its values, indexed like
    /// `Model::variables`.
    pub(crate) best: Mutex<Option<(f64, Vec<f64>)>>,
    pub(crate) sense: Sense,
}

impl Shared {
    /// Whether `a` is a strictly better objective than `b` under the model's sense.
    pub(crate) fn better(&self, a: f64, b: f64) -> bool {
        const EPS: f64 = 1e-9;
        match self.sense {
            Sense::Minimize => a < b - EPS * b.abs().max(1.0),
            Sense::Maximize => a > b + EPS * b.abs().max(1.0),
        }
    }
}

/// One racer's part in a race: the shared state and its index (0 solves with SCIP's
/// default seeds; every other index its own random and permutation seeds, and every
/// odd index its own branching rule: `portfolio_model`).
pub(crate) struct Racer {
    pub(crate) shared: Arc<Shared>,
    pub(crate) index: usize,
}

/// Solves `model` with [`Limits::threads`] racers (at least one), racer `i` with the
/// hooks `hooks_for(i)`, built in its own thread (so they need not be `Send`). One
/// racer is [`crate::solve_with`] with its hooks. The time limit is the race's wall
/// time, the hooks' construction included.
///
/// The answer: a proven optimum if any racer proved one (or the model infeasible or
/// unbounded); otherwise the best incumbent of all racers, with the best of their dual
/// bounds and the gap between them.
pub fn solve_racing(
    model: &Model,
    limits: &Limits,
    hooks_for: &(dyn Fn(usize) -> Hooks + Sync),
) -> Result<Solution, SolveError> {
    let racers = limits.threads.clamp(1, 64) as usize;
    if racers == 1 {
        return crate::scip::solve_with(model, &Limits { threads: 1, ..*limits }, hooks_for(0));
    }
    let started = Instant::now();
    let shared = Arc::new(Shared { stop: AtomicBool::new(false), best: Mutex::new(None), sense: model.sense });
    let results: Vec<Result<Solution, SolveError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..racers)
            .map(|index| {
                let shared = Arc::clone(&shared);
                scope.spawn(move || {
                    let hooks = hooks_for(index);
                    let left = (limits.time_seconds - started.elapsed().as_secs_f64()).max(0.0);
                    let own = Limits { time_seconds: left, threads: 1, ..*limits };
                    let portfolio = portfolio_model(model, index);
                    let result = solve_racer(
                        portfolio.as_ref().unwrap_or(model),
                        &own,
                        hooks,
                        Racer { shared: Arc::clone(&shared), index },
                    );
                    if finished(&result) {
                        shared.stop.store(true, Ordering::SeqCst);
                    }
                    result
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(SolveError::Solver("a racer panicked".into()))))
            .collect()
    });
    let mut answer = combine(&shared, results, limits.relative_gap);
    if let Ok(solution) = &mut answer {
        solution.solve_ms = started.elapsed().as_secs_f64() * 1e3;
    }
    answer
}

/// The model racer `index` solves when it is not `model` itself: every second racer of
/// a model that asks for inference branching branches with reliability pseudo-costs
/// instead ([`Branching::Reliability`]). The two rules suit different programs: on
/// random programs of 200 combinators, alone, inference branching proved most in half
/// the time, while strong branching proved the two hardest of ten (seeds 1 and 2) within
/// 30 s and inference branching did not. Raced against an inference racer with other
/// seeds, 17 of 20 programs were proven in each of two runs against 16, with the same
/// medians (docs/ilp-measurements.md). The rule steers the search only: the model and
/// its optimum are the same.
fn portfolio_model(model: &Model, index: usize) -> Option<Model> {
    (index % 2 == 1 && model.branching == Branching::Inference)
        .then(|| Model { branching: Branching::Reliability, ..model.clone() })
}

/// Whether a racer's result ends the race: a proof (of the optimum, infeasibility or
/// unboundedness) or a model the solver cannot take, which the others cannot take
/// either.
fn finished(result: &Result<Solution, SolveError>) -> bool {
    match result {
        Ok(solution) => solution.status == SolveStatus::Optimal,
        Err(SolveError::Infeasible | SolveError::Unbounded | SolveError::InvalidModel(_)) => true,
        Err(_) => false,
    }
}

/// The race's answer from its racers' results (see [`solve_racing`]). A racer that
/// failed (a solver error) is left out when another has an answer (which SCIP and
/// [`crate::check_feasible`] checked like any other), and named in its warnings.
fn combine(
    shared: &Shared,
    results: Vec<Result<Solution, SolveError>>,
    relative_gap_limit: f64,
) -> Result<Solution, SolveError> {
    // A racer that failed (not one stopped by a limit or by another racer) is reported
    // with the answer that another gave.
    let failures: Vec<String> = results
        .iter()
        .enumerate()
        .filter_map(|(racer, r)| match r {
            Err(e @ SolveError::Solver(_)) => Some(format!("racer {racer} of {} failed: {e}", results.len())),
            _ => None,
        })
        .collect();
    // The race's effort is every racer's work, not only the winner's.
    let effort =
        results.iter().filter_map(|r| r.as_ref().ok()).map(|s| s.effort).fold(SearchEffort::default(), |a, b| a + b);
    let with_failures = |answer: Result<Solution, SolveError>| {
        answer.map(|mut solution| {
            solution.warnings.extend(failures.iter().cloned());
            solution.effort = effort;
            solution
        })
    };
    if let Some(proof) = results.iter().position(finished) {
        return with_failures(results.into_iter().nth(proof).expect("found above"));
    }
    let bound = results
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|s| s.dual_bound)
        .reduce(|a, b| if shared.better(b, a) { a } else { b });
    let mut solutions: Vec<Solution> = Vec::new();
    let mut first_error = None;
    for result in results {
        match result {
            Ok(solution) => solutions.push(solution),
            Err(e) => first_error = first_error.or(Some(e)),
        }
    }
    let Some(mut best) =
        solutions.into_iter().reduce(|a, b| if shared.better(b.objective, a.objective) { b } else { a })
    else {
        return Err(first_error.unwrap_or_else(|| SolveError::Solver("no racer ran".into())));
    };
    // The strongest bound: for minimisation the largest (`better` says which is
    // smaller), for maximisation the smallest.
    let bound = bound.unwrap_or(best.dual_bound);
    best.dual_bound = bound;
    best.gap = relative_gap(best.objective, bound);
    // As one solve: proven when the bounds meet, or within the gap asked for.
    if best.gap <= relative_gap_limit.max(0.0) {
        best.status = SolveStatus::Optimal;
    }
    with_failures(Ok(best))
}

/// SCIP's relative gap `|primal − dual| / min(|primal|, |dual|)`: 0 when equal, infinite
/// when the bound is infinite, the two differ in sign, or the smaller is 0.
fn relative_gap(primal: f64, dual: f64) -> f64 {
    if (primal - dual).abs() <= 1e-9 * primal.abs().max(1.0) {
        return 0.0;
    }
    if !dual.is_finite() || primal * dual <= 0.0 {
        return f64::INFINITY;
    }
    (primal - dual).abs() / primal.abs().min(dual.abs())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Heuristics, Row, VarId, VarKind};
    use crate::scip::tests::PathPacking;
    use crate::scip::{CutSeparator, solve_with};
    use std::sync::atomic::AtomicUsize;

    /// Every second racer of an inference-branching model branches with reliability
    /// pseudo-costs; nothing else about the model changes, and other models race as
    /// they are.
    #[test]
    fn every_second_racer_branches_on_reliability() {
        let (mut model, _) = path_model(3);
        model.branching = Branching::Inference;
        assert!(portfolio_model(&model, 0).is_none());
        assert!(portfolio_model(&model, 2).is_none());
        let second = portfolio_model(&model, 1).expect("racer 1 has its own rule");
        assert_eq!(second.branching, Branching::Reliability);
        assert_eq!(Model { branching: Branching::Inference, ..second }, model);
        model.branching = Branching::SolverDefault;
        assert!(portfolio_model(&model, 1).is_none());
    }

    fn path_model(n: usize) -> (Model, Vec<VarId>) {
        let mut m = Model::new("path_packing", Sense::Maximize);
        let xs: Vec<VarId> = (0..n).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for &x in &xs {
            m.add_objective_term(x, 1.0);
        }
        (m, xs)
    }

    /// Every racer enforces the caller's lazy rows, its own start included: the answer
    /// never takes two neighbours, even where one racer starts from a point that does.
    #[test]
    fn every_racer_keeps_the_lazy_rows() {
        let (m, xs) = path_model(9);
        for threads in [2, 3] {
            let hooks_for = |racer: usize| Hooks {
                separator: Some(Box::new(PathPacking(xs.clone()))),
                start: if racer == 1 { xs.iter().map(|&x| (x, 1.0)).collect() } else { Vec::new() },
                lazy: true,
                heuristic: None,
            };
            let s = solve_racing(&m, &Limits { threads, ..Limits::default() }, &hooks_for).unwrap();
            assert_eq!(s.status, SolveStatus::Optimal, "threads {threads}");
            assert!((s.objective - 5.0).abs() < 1e-6, "threads {threads}: objective {}", s.objective);
            for w in xs.windows(2) {
                assert!(s.values[w[0].0] + s.values[w[1].0] <= 1.0 + 1e-6, "neighbours both taken: {:?}", s.values);
            }
        }
    }

    /// Knapsacks with a side row, solved by one thread and by races of two and three:
    /// the same proven optimum every time.
    #[test]
    fn racing_proves_the_optimum_of_one_solve() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |n: u64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % n
        };
        for case in 0..6 {
            let mut m = Model::new(format!("knapsack{case}"), Sense::Maximize);
            let items: Vec<VarId> =
                (0..14).map(|i| m.add_variable(format!("y{i}"), VarKind::Binary, 0.0, 1.0)).collect();
            let weights: Vec<(VarId, f64)> = items.iter().map(|&y| (y, (1 + next(20)) as f64)).collect();
            let cardinality: Vec<(VarId, f64)> = items.iter().map(|&y| (y, 1.0)).collect();
            for &y in &items {
                m.add_objective_term(y, (1 + next(30)) as f64);
            }
            m.add_row("weight", weights, -1e20, 40.0);
            m.add_row("count", cardinality, -1e20, 5.0);
            let one = solve_with(&m, &Limits::default(), Hooks::default()).unwrap();
            for threads in [2, 3] {
                let raced = solve_racing(&m, &Limits { threads, ..Limits::default() }, &|_| Hooks::default()).unwrap();
                assert_eq!(raced.status, SolveStatus::Optimal, "case {case}, threads {threads}");
                assert!((raced.objective - one.objective).abs() < 1e-6, "case {case}, threads {threads}");
                assert!(crate::check_feasible(&m, &raced.values, 1e-6).is_ok());
            }
        }
    }

    /// A racer that finishes stops the others. The model is a market split problem
    /// (Cornuéjols and Dawande: equality knapsacks, here with slack costed), whose LP
    /// bound is 0 and whose proofs need a long search. Racer 0 is given the optimum (by
    /// enumeration) as its start and the valid row "slack ≥ optimum", so it proves at
    /// the root; racer 1 has neither, and its propagation (called at every node) counts its calls,
    /// 20 ms each.
    /// Alone, without the delay, racer 1's search calls it at least 100 times (checked
    /// first), so a race in which it is called far fewer times stopped it.
    #[test]
    fn the_first_racer_to_finish_stops_the_others() {
        struct Counting {
            calls: std::sync::Arc<AtomicUsize>,
            delay: std::time::Duration,
            floor: Option<Row>,
        }
        impl CutSeparator for Counting {
            fn separate(&mut self, values: &[f64]) -> Vec<Row> {
                let violated =
                    |row: &Row| row.terms.iter().map(|&(v, c)| c * values[v.0]).sum::<f64>() < row.lower - 1e-6;
                self.floor.iter().filter(|row| violated(row)).cloned().collect()
            }
            fn propagate(&mut self, _: &[f64], _: &[f64]) -> crate::scip::Propagation {
                self.calls.fetch_add(1, Ordering::SeqCst);
                std::thread::sleep(self.delay);
                crate::scip::Propagation::Nothing
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state % 100
        };
        let (rows, items) = (4, 20);
        let coefs: Vec<Vec<i64>> = (0..rows).map(|_| (0..items).map(|_| next() as i64).collect()).collect();
        let targets: Vec<i64> = coefs.iter().map(|row| row.iter().sum::<i64>() / 2).collect();
        let slack_of = |mask: usize| -> i64 {
            let total = |row: &Vec<i64>| (0..items).filter(|j| mask >> j & 1 == 1).map(|j| row[j]).sum::<i64>();
            coefs.iter().zip(&targets).map(|(row, t)| (total(row) - t).abs()).sum()
        };
        let best_mask = (0..1usize << items).min_by_key(|&mask| slack_of(mask)).expect("non-empty");
        let optimum = slack_of(best_mask) as f64;

        let mut m = Model::new("market_split", Sense::Minimize);
        m.heuristics = Heuristics::WarmStartOnly;
        let ys: Vec<VarId> = (0..items).map(|j| m.add_variable(format!("y{j}"), VarKind::Binary, 0.0, 1.0)).collect();
        let mut slack = Vec::new();
        for (i, row) in coefs.iter().enumerate() {
            let over = m.add_variable(format!("over{i}"), VarKind::Integer, 0.0, 1e4);
            let under = m.add_variable(format!("under{i}"), VarKind::Integer, 0.0, 1e4);
            m.add_objective_term(over, 1.0);
            m.add_objective_term(under, 1.0);
            let mut terms: Vec<(VarId, f64)> = ys.iter().zip(row).map(|(&y, &c)| (y, c as f64)).collect();
            terms.extend([(over, -1.0), (under, 1.0)]);
            let target = targets[i] as f64;
            m.add_row(format!("split{i}"), terms, target, target);
            slack.extend([over, under]);
        }
        let start: Vec<(VarId, f64)> = ys.iter().enumerate().map(|(j, &y)| (y, (best_mask >> j & 1) as f64)).collect();
        let floor =
            Row { name: "floor".into(), terms: slack.iter().map(|&v| (v, 1.0)).collect(), lower: optimum, upper: 1e20 };
        let counted = |delay_ms: u64, calls: &std::sync::Arc<AtomicUsize>| Hooks {
            separator: Some(Box::new(Counting {
                calls: calls.clone(),
                delay: std::time::Duration::from_millis(delay_ms),
                floor: None,
            })),
            lazy: true,
            ..Hooks::default()
        };
        let alone = std::sync::Arc::new(AtomicUsize::new(0));
        let s = solve_with(&m, &Limits { time_seconds: 1e6, ..Limits::default() }, counted(0, &alone)).unwrap();
        assert!((s.objective - optimum).abs() < 1e-6, "{} against {optimum}", s.objective);
        let alone = alone.load(Ordering::SeqCst);
        assert!(
            alone >= 100,
            "the separator alone was called only {alone} times: the test proves nothing ({s:?}, optimum {optimum})"
        );
        let slow = std::sync::Arc::new(AtomicUsize::new(0));
        let finisher = std::sync::Arc::new(AtomicUsize::new(0));
        let hooks_for = |racer: usize| match racer {
            0 => Hooks {
                separator: Some(Box::new(Counting {
                    calls: finisher.clone(),
                    delay: std::time::Duration::ZERO,
                    floor: Some(floor.clone()),
                })),
                start: start.clone(),
                lazy: true,
                ..Hooks::default()
            },
            _ => counted(20, &slow),
        };
        let limits = Limits { time_seconds: 1e6, threads: 2, ..Limits::default() };
        let raced = solve_racing(&m, &limits, &hooks_for).unwrap();
        assert_eq!(raced.status, SolveStatus::Optimal);
        assert!((raced.objective - optimum).abs() < 1e-6);
        let slow = slow.load(Ordering::SeqCst);
        assert!(slow < alone / 4, "the slow racer was called {slow} times of {alone}: it was not stopped");
    }

    fn solution(status: SolveStatus, objective: f64, dual_bound: f64) -> Solution {
        Solution {
            status,
            objective,
            values: vec![objective],
            solve_ms: 1.0,
            gap: f64::NAN,
            dual_bound,
            warnings: Vec::new(),
            effort: SearchEffort { nodes: 1, lp_iterations: 10 },
        }
    }

    fn shared(sense: Sense) -> Shared {
        Shared { stop: AtomicBool::new(false), best: Mutex::new(None), sense }
    }

    /// The race's answer: a proof wins; otherwise the best incumbent with the strongest
    /// bound of all racers; a proof of infeasibility wins over incumbents; no answer at
    /// all keeps the first error.
    #[test]
    fn the_answer_is_the_proof_or_the_best_of_every_racer() {
        let min = shared(Sense::Minimize);
        let limited = |objective, bound| Ok(solution(SolveStatus::LimitReached, objective, bound));
        let proof = Ok(solution(SolveStatus::Optimal, 12.0, 12.0));
        let answer = combine(&min, vec![limited(13.0, 10.0), proof], 0.0).unwrap();
        assert_eq!((answer.status, answer.objective), (SolveStatus::Optimal, 12.0));
        // The effort is the race's: both racers' nodes and iterations.
        assert_eq!(answer.effort, SearchEffort { nodes: 2, lp_iterations: 20 });
        // Best incumbent from one racer, best bound from the other.
        let answer = combine(&min, vec![limited(14.0, 11.0), limited(13.0, 10.0)], 0.0).unwrap();
        assert_eq!((answer.status, answer.objective, answer.dual_bound), (SolveStatus::LimitReached, 13.0, 11.0));
        assert!((answer.gap - 2.0 / 11.0).abs() < 1e-12, "gap {}", answer.gap);
        // The bounds meet: proven by the two together.
        let answer = combine(&min, vec![limited(14.0, 13.0), limited(13.0, 12.0)], 0.0).unwrap();
        assert_eq!((answer.status, answer.gap), (SolveStatus::Optimal, 0.0));
        let max = shared(Sense::Maximize);
        let answer = combine(&max, vec![limited(5.0, 9.0), limited(4.0, 7.0)], 0.0).unwrap();
        assert_eq!((answer.objective, answer.dual_bound), (5.0, 7.0));
        assert_eq!(
            combine(&min, vec![limited(14.0, 11.0), Err(SolveError::Infeasible)], 0.0),
            Err(SolveError::Infeasible)
        );
        let none = |what: &str| Err(SolveError::NoSolutionWithinLimits(what.into()));
        assert_eq!(
            combine(&min, vec![none("first"), none("second")], 0.0),
            Err(SolveError::NoSolutionWithinLimits("first".into()))
        );
        let answer = combine(&min, vec![none("first"), limited(14.0, -f64::INFINITY)], 0.0).unwrap();
        assert_eq!((answer.objective, answer.gap), (14.0, f64::INFINITY));
        assert_eq!(answer.effort, SearchEffort { nodes: 1, lp_iterations: 10 }, "only racers with an answer count");
        assert!(answer.warnings.is_empty(), "a racer stopped by its limit is no failure: {:?}", answer.warnings);
        // A racer that failed is reported with the other's answer, proof or not.
        let broken = || Err(SolveError::Solver("solution violates row r".into()));
        for other in [limited(14.0, 11.0), Ok(solution(SolveStatus::Optimal, 12.0, 12.0))] {
            let answer = combine(&min, vec![broken(), other], 0.0).unwrap();
            assert_eq!(answer.warnings.len(), 1, "{:?}", answer.warnings);
            assert!(answer.warnings[0].contains("racer 0 of 2 failed") && answer.warnings[0].contains("row r"));
        }
        assert_eq!(combine(&min, vec![broken(), none("x")], 0.0), broken());
    }
}
