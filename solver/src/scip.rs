//! Solving a [`Model`] with SCIP 10 through russcip.
//!
//! The contract the fusion passes rely on: never panic on a bad model or a solver
//! failure, and report whether the answer is proven optimal, merely the best incumbent
//! found before a limit, or absent. Every returned solution has been re-checked
//! against the model ([`check_feasible`]), so a solver or translation bug surfaces as
//! [`SolveError::Solver`] instead of a wrong fusion decision.

use crate::model::{
    Branching, GeneralCuts, Heuristics, INFINITE_BOUND, Model, Row, Sense, VarId, VarKind, check_feasible, violates_le,
};
use crate::race::{Racer, Shared};
use russcip::prelude::*;
use russcip::{ObjSense, ProblemCreated, Status, VarType};
use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Instant;

/// Resource limits of one solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Wall-clock limit in seconds for building the SCIP problem and solving it
    /// (SCIP's `limits/time` gets what building left); values are clamped to
    /// `[0, 1e20]`, NaN is rejected. When it
    /// strikes, the best incumbent comes back as [`SolveStatus::LimitReached`].
    pub time_seconds: f64,
    /// Relative optimality gap at which to stop (`limits/gap`); 0 proves optimality.
    pub relative_gap: f64,
    /// Threads SCIP may use. `<= 1` solves sequentially (deterministic: the same
    /// model gives the same solution). `> 1` (capped at 64) runs SCIP's concurrent
    /// solver (`parallel/maxnthreads`), racing differently seeded searches, which
    /// can return a different optimal solution from run to run; `lp/threads` is
    /// set too but the bundled SoPlex LP solver is single-threaded. [`solve_with`]
    /// with a separator solves in one thread whatever this says
    /// ([`sequential_with_separator`]); [`crate::solve_racing`] races this many solves
    /// of its own, each with the caller's hooks, every second one on reliability
    /// branching where the model asks for inference branching (again possibly a
    /// different optimal solution from run to run).
    pub threads: i32,
    /// Branch-and-bound nodes after which to stop (`limits/nodes`), like the time
    /// limit with [`SolveStatus::LimitReached`]; `None` for no limit. Unlike time, a
    /// node limit ends a sequential solve at the same point on every machine.
    pub nodes: Option<u64>,
}

impl Default for Limits {
    fn default() -> Self {
        Self { time_seconds: 10.0, relative_gap: 0.0, threads: 1, nodes: None }
    }
}

/// How good a returned solution is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SolveStatus {
    /// Proven optimal (within the requested gap).
    Optimal,
    /// The best incumbent when a limit stopped the search.
    LimitReached,
}

/// A feasible point of the model and how it was obtained.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// Whether optimality was proven or a limit cut the search short.
    pub status: SolveStatus,
    /// Objective value of `values` (as reported by SCIP, cross-checked against the model).
    pub objective: f64,
    /// Values of all variables, indexed like `Model::variables`. Integer and binary
    /// values are integral within SCIP's feasibility tolerance (1e-6), not rounded.
    pub values: Vec<f64>,
    /// Wall-clock milliseconds spent in [`solve`] (building the SCIP problem, solving
    /// and checking), so reports can show what the ILP cost.
    pub solve_ms: f64,
    /// Final relative gap `|primal - dual| / min(|primal|, |dual|)` as SCIP computes it
    /// (`SCIPgetGap`): 0 when proven optimal, `f64::INFINITY` when no finite dual bound
    /// is known or the bounds differ in sign. Lets reports say how far from proven a
    /// [`SolveStatus::LimitReached`] answer may be.
    pub gap: f64,
    /// SCIP's dual bound (`SCIPgetDualbound`): no point of the model has a better
    /// objective (smaller when minimising, larger when maximising). Equal to
    /// `objective` (within tolerances) when proven optimal; infinite when no finite
    /// bound is known.
    pub dual_bound: f64,
    /// What the caller should report with this answer: a racer of
    /// [`crate::solve_racing`] that failed while another answered (its error). Empty
    /// for one solve.
    pub warnings: Vec<String>,
    /// How much searching the answer took, in units that do not depend on the
    /// machine's speed or load.
    pub effort: SearchEffort,
}

/// SCIP's branch-and-bound nodes and simplex iterations (`SCIPgetNNodes`,
/// `SCIPgetNLPIterations`) of the solve that gave an answer: for a race
/// ([`crate::solve_racing`]), summed over the racers that returned one. Not counted: the
/// solves that complete a partial start (a model whose fixings leave presolving little
/// to decide). A solve in one thread is deterministic (SCIP with a given model and
/// parameters makes the same search every time, checked by a test here), so unlike
/// [`Solution::solve_ms`] these numbers compare formulations and settings across runs
/// and machines, as long as no time limit cut the search short (a limit makes them
/// depend on speed again) and the caller's hooks are deterministic too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchEffort {
    pub nodes: u64,
    pub lp_iterations: u64,
}

impl std::ops::Add for SearchEffort {
    type Output = SearchEffort;
    fn add(self, other: SearchEffort) -> SearchEffort {
        SearchEffort { nodes: self.nodes + other.nodes, lp_iterations: self.lp_iterations + other.lp_iterations }
    }
}

/// Why no solution came back.
#[derive(Clone, Debug, PartialEq)]
pub enum SolveError {
    /// Proven that no point satisfies all rows, bounds and integrality.
    Infeasible,
    /// The objective can be improved without bound.
    Unbounded,
    /// A limit was hit before any feasible solution was found (SCIP's final status).
    NoSolutionWithinLimits(String),
    /// SCIP refused the model or a parameter, failed internally, or returned a
    /// solution that violates the model (the message names the violated item).
    Solver(String),
    /// The model (or the limits) cannot be solved as given: NaN or infinite
    /// coefficients, NaN bounds, a bound on the wrong infinity, a dangling variable
    /// index. Detected before SCIP is called; see [`Model::validate`].
    InvalidModel(String),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Infeasible => write!(f, "the model is infeasible"),
            SolveError::Unbounded => write!(f, "the model is unbounded"),
            SolveError::NoSolutionWithinLimits(s) => write!(f, "no solution found before the limit ({s})"),
            SolveError::Solver(s) => write!(f, "SCIP failed: {s}"),
            SolveError::InvalidModel(s) => write!(f, "invalid model: {s}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// Relative feasibility tolerance of the guard on returned solutions: ten times
/// SCIP's `numerics/feastol`, so solutions SCIP accepted after un-presolving (which
/// may drift by a few feastol in the original space) pass, while wrong translations
/// (violations of whole units) are caught.
pub const SOLUTION_CHECK_TOLERANCE: f64 = 1e-5;

fn solver_error(e: russcip::Retcode) -> SolveError {
    SolveError::Solver(format!("{e:?}"))
}

/// Maps to SCIP's number range: beyond ±1e20 SCIP means infinity.
fn finite(x: f64) -> f64 {
    x.clamp(-INFINITE_BOUND, INFINITE_BOUND)
}

/// Solves `model` with SCIP under `limits`.
///
/// Returns the optimum ([`SolveStatus::Optimal`]), or the best incumbent when a
/// limit stopped the search ([`SolveStatus::LimitReached`]), or why there is none.
/// Never panics: the model is validated first, and a panic inside russcip is caught
/// and reported as [`SolveError::Solver`].
pub fn solve(model: &Model, limits: &Limits) -> Result<Solution, SolveError> {
    solve_with(model, limits, Hooks::default())
}

/// Valid inequalities for a model, found from a fractional point: the caller's own
/// cutting planes, separated inside SCIP's branch and cut.
///
/// **Contract.** Every row returned must hold for every integer-feasible point of the
/// model (a *valid* inequality): then the model's optimum is unchanged and SCIP's dual
/// bound stays a bound. The solver cannot check validity; it only re-checks the returned
/// solution against the model's own rows, as for every solve.
pub trait CutSeparator {
    /// Rows violated by `values` (the current LP solution, indexed like
    /// `Model::variables`), or none. Rows that `values` satisfies are ignored.
    fn separate(&mut self, values: &[f64]) -> Vec<Row>;

    /// The same at a node of SCIP's search `depth` levels below the root (0 at the
    /// root): the separator plugin calls this, so a separator may spend more at the
    /// top of the tree. The default ignores the depth.
    fn separate_at_depth(&mut self, values: &[f64], _depth: usize) -> Vec<Row> {
        self.separate(values)
    }

    /// What the rows imply at a node of the search whose variables lie between `lower`
    /// and `upper` (indexed like `Model::variables`). Used where the rows are lazy
    /// ([`Hooks::lazy`]): SCIP propagates it before each node's LP. **Contract:** a
    /// fixing must hold at every integer point within the bounds that meets the rows,
    /// and [`Propagation::Infeasible`] means no such point exists. The default
    /// implies nothing.
    fn propagate(&mut self, _lower: &[f64], _upper: &[f64]) -> Propagation {
        Propagation::Nothing
    }
}

/// What a [`CutSeparator`]'s rows imply from a node's bounds.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Propagation {
    #[default]
    Nothing,
    /// Variables that take these values at every point of the node that meets the rows.
    Fixings(Vec<(VarId, f64)>),
    /// No point of the node meets the rows.
    Infeasible,
}

/// What a caller may add to a solve beyond the model and its limits.
#[derive(Default)]
pub struct Hooks {
    /// Cutting planes separated at every node of the search ([`CutSeparator`]). A solve
    /// with a separator runs in one thread whatever [`Limits::threads`] asks (see
    /// [`sequential_with_separator`]).
    pub separator: Option<Box<dyn CutSeparator>>,
    /// Values of some variables of a known feasible point. They are completed first by a
    /// solve with them fixed (cheap: presolving nearly decides the rest; SCIP's own
    /// `completesol` gives up on some fusion models), and SCIP starts with the completed
    /// point as incumbent; when that fails in its time share, SCIP gets them as a partial
    /// solution for its `completesol` heuristic. SCIP checks a start before it keeps it,
    /// so a wrong start costs time, never soundness.
    pub start: Vec<(VarId, f64)>,
    /// The separator's rows are constraints of the model, not only cuts: the model
    /// leaves out rows that they replace, and SCIP enforces them on every point it
    /// accepts (a constraint handler, `LazyRows`), asking the separator about each
    /// candidate. Needs a separator whose rows, at a point that meets the model's own
    /// rows, are violated exactly when the point is not a solution of the full problem.
    /// The handler locks every variable both ways, which keeps SCIP's dual reductions
    /// sound (`lazy_rows_lock`); SCIP's symmetry handling is off.
    pub lazy: bool,
    /// A primal heuristic of the caller's own ([`PrimalHeuristic`]), run after the root
    /// node's LP and, until one of its proposals has been completed, after the LPs of
    /// the next nodes, at most [`PrimalHeuristic::attempts`] times. Each proposal is
    /// completed like [`Hooks::start`] (a solve of the model with the proposed values
    /// fixed, with the same lazy rows), within the same node limit; all its completions
    /// together take at most the time one start's completion may take.
    pub heuristic: Option<Box<dyn PrimalHeuristic>>,
}

/// A primal heuristic that knows what the model means: from the LP solution of a node
/// (the root first, see [`Hooks::heuristic`]), it proposes values for some variables of
/// a point it believes feasible.
/// The solver completes the proposal as it completes [`Hooks::start`] (a solve with
/// those values fixed, with the lazy rows where the solve has them) and offers the
/// completed point to SCIP, which checks it against every row before keeping it. So a
/// wrong proposal costs time, never soundness: heuristics find solutions, they prove
/// nothing.
pub trait PrimalHeuristic {
    /// Values of some variables (a partial solution), built from `values`, the LP
    /// solution indexed like `Model::variables`; empty for none.
    fn propose(&mut self, values: &[f64]) -> Vec<(VarId, f64)>;

    /// How many proposals a solve may ask for: the first at the root; each further one
    /// at the next node whose LP is solved, and only while no proposal has been
    /// completed into a point (an empty proposal counts as one that was not).
    fn attempts(&self) -> usize {
        1
    }
}

/// [`solve`] with [`Hooks`]: a cut separator and a starting solution.
pub fn solve_with(model: &Model, limits: &Limits, hooks: Hooks) -> Result<Solution, SolveError> {
    solve_checked(model, limits, hooks, None)
}

/// [`solve_with`] as one racer of [`crate::race::solve_racing`]: the solve shares its
/// incumbents through `racer` and stops when another racer has finished.
pub(crate) fn solve_racer(model: &Model, limits: &Limits, hooks: Hooks, racer: Racer) -> Result<Solution, SolveError> {
    solve_checked(model, limits, hooks, Some(racer))
}

fn solve_checked(model: &Model, limits: &Limits, hooks: Hooks, racer: Option<Racer>) -> Result<Solution, SolveError> {
    let start = Instant::now();
    model.validate().map_err(SolveError::InvalidModel)?;
    if limits.time_seconds.is_nan() || limits.relative_gap.is_nan() {
        return Err(SolveError::InvalidModel(format!("limits contain NaN: {limits:?}")));
    }
    if has_empty_interval(model) {
        // Decided here because SCIP prints a warning for `lhs > rhs` even when quiet.
        return Err(SolveError::Infeasible);
    }
    if let Some((var, value)) = hooks.start.iter().find(|(v, x)| v.0 >= model.variables.len() || !x.is_finite()) {
        return Err(SolveError::InvalidModel(format!(
            "the starting solution gives variable {} the value {value}",
            var.0
        )));
    }
    let limits = &sequential_with_separator(limits, &hooks);
    let outcome = catch_unwind(AssertUnwindSafe(|| solve_validated(model, limits, hooks, start, racer)));
    outcome.unwrap_or_else(|panic| {
        let msg = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic payload".to_string());
        Err(SolveError::Solver(format!("panic inside russcip: {msg}")))
    })
}

/// `limits` with one thread when `hooks` has a separator.
///
/// Why: SCIP's concurrent solver (more than one thread) solves copies of the instance,
/// and a plugin without a copy callback is not copied; russcip includes a separator
/// without one, so the copies would solve without the caller's rows. On the fusion
/// models those are the cycle inequalities that make the bound: at 200 combinators
/// (`fusion-bench --sizes 200 --seeds 5 --time-limit 30`, threads forced to 2) seed 0
/// went from proven in 3.4 s to a 30 s time limit with bound 231.9 against 237, and the
/// other four bounds fell by 6 to 10 units. With [`Hooks::lazy`] the rows are part of
/// the model, and copies without them would solve a different problem. One thread with
/// the rows is the stronger solve; callers that want threads with their hooks race
/// them ([`crate::solve_racing`]), and others should say that they did not get them.
pub fn sequential_with_separator(limits: &Limits, hooks: &Hooks) -> Limits {
    if hooks.separator.is_some() { Limits { threads: 1, ..*limits } } else { *limits }
}

/// Relative slack below which `lower > upper` is taken for rounding noise, not
/// for a contradiction; far below SCIP's feasibility tolerance (1e-6).
const INVERSION_NOISE: f64 = 1e-9;

/// Whether some variable's bounds or some row's sides contradict each other.
fn has_empty_interval(model: &Model) -> bool {
    let variables = (0..model.variables.len()).map(|i| model.effective_bounds(VarId(i)));
    let rows = model.rows.iter().map(|r| (r.lower, r.upper));
    variables.chain(rows).any(|(lower, upper)| violates_le(lower, upper, INVERSION_NOISE))
}

/// `(lower, upper)` with rounding-noise inversions (see [`INVERSION_NOISE`]) undone.
fn ordered(lower: f64, upper: f64) -> (f64, f64) {
    (finite(lower.min(upper)), finite(lower.max(upper)))
}

/// Serializes SCIP instances that use the concurrent solver, from solve to free.
///
/// Why: SCIP's task-processing interface keeps its thread pool in one process-global
/// variable, created by each concurrent solve and destroyed when that instance is
/// freed, without checking for other instances; two overlapping concurrent solves
/// corrupt it. Sequential solves never touch it and run in parallel freely.
static CONCURRENT_SOLVES: Mutex<()> = Mutex::new(());

fn concurrent_solve_guard(limits: &Limits) -> Option<MutexGuard<'static, ()>> {
    // Poisoning is ignored: the lock guards no data, only the order of SCIP calls.
    (thread_count(limits) > 1).then(|| CONCURRENT_SOLVES.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
}

/// Threads actually requested from SCIP (its parameters accept 0..=64).
fn thread_count(limits: &Limits) -> i32 {
    limits.threads.clamp(1, 64)
}

/// Builds the SCIP problem for `model`; without `objective`, all objective
/// coefficients are zero (a pure feasibility problem).
fn build(
    model: &Model,
    limits: &Limits,
    objective: bool,
) -> Result<(russcip::Model<ProblemCreated>, Vec<russcip::Variable>), SolveError> {
    let threads = thread_count(limits);
    // `FUSION_SCIP_LOG=1` shows SCIP's own log and, after a solve in one thread, its
    // statistics (on stdout) to study a slow solve.
    let verbosity = if std::env::var_os("FUSION_SCIP_LOG").is_some() { 4 } else { 0 };
    let mut scip = russcip::Model::try_new()
        .map_err(solver_error)?
        .set_display_verbosity(verbosity)
        .include_default_plugins()
        // SCIP's SIGINT handler is process-global: installing it from a library would
        // swallow the user's Ctrl-C, and concurrent solves in several threads race on
        // saving and restoring it.
        .set_bool_param("misc/catchctrlc", false)
        .map_err(solver_error)?
        .set_real_param("limits/time", limits.time_seconds.clamp(0.0, INFINITE_BOUND))
        .map_err(solver_error)?
        .set_real_param("limits/gap", limits.relative_gap.clamp(0.0, INFINITE_BOUND))
        .map_err(solver_error)?
        // SCIP's -1 is no limit; a limit beyond its range is none either.
        .set_longint_param("limits/nodes", limits.nodes.and_then(|n| i64::try_from(n).ok()).unwrap_or(-1))
        .map_err(solver_error)?
        .set_int_param("lp/threads", threads)
        .map_err(solver_error)?
        .set_int_param("parallel/maxnthreads", threads)
        .map_err(solver_error)?
        .create_prob(&model.name)
        .set_obj_sense(match model.sense {
            Sense::Minimize => ObjSense::Minimize,
            Sense::Maximize => ObjSense::Maximize,
        });

    if verbosity == 0 {
        // SCIP prints warnings (symmetry handling, ignored partial solutions) whatever the
        // verbosity; a compiler library must not write to the user's stderr. What matters
        // reaches the caller as the solve's status and result.
        // SAFETY: the pointer is the live SCIP instance owned by `scip`.
        unsafe { russcip::ffi::SCIPsetMessagehdlrQuiet(scip.scip_ptr(), 1) };
    }
    let mut costs = vec![0.0; model.variables.len()];
    if objective {
        for &(id, coef) in &model.objective {
            costs[id.0] += coef;
        }
    }
    let vars: Vec<_> = model
        .variables
        .iter()
        .enumerate()
        .zip(&costs)
        .map(|((i, v), &cost)| {
            let kind = match v.kind {
                VarKind::Continuous => VarType::Continuous,
                VarKind::Integer => VarType::Integer,
                VarKind::Binary => VarType::Binary,
            };
            let (lower, upper) = model.effective_bounds(VarId(i));
            let (lower, upper) = ordered(lower, upper);
            scip.add_var(lower, upper, cost, &v.name, kind)
        })
        .collect();
    if model.heuristics == Heuristics::WarmStartOnly {
        // Every heuristic's frequency to -1 (off), then `completesol` back to its default
        // (0: at the root), so that a partial solution given as a warm start is completed.
        scip = scip
            .set_heuristics(russcip::ParamSetting::Off)
            .set_int_param("heuristics/completesol/freq", 0)
            .map_err(solver_error)?;
    }
    if model.heuristics == Heuristics::RoundingOnly {
        for name in SEARCHING_HEURISTICS {
            scip = scip.set_int_param(&format!("heuristics/{name}/freq"), -1).map_err(solver_error)?;
        }
    }
    if model.general_cuts == GeneralCuts::RootOnly {
        for name in GENERAL_SEPARATORS {
            // Frequency 0: at depth 0 only.
            scip = scip.set_int_param(&format!("separating/{name}/freq"), 0).map_err(solver_error)?;
        }
    }
    // No restart after presolving: SCIP restarts when the root fixes many binaries, and on
    // the fusion models (random programs of 100 combinators, 20 seeds, two runs each way)
    // the solves took 10–13 % less time in all without restarts; at 1000 combinators the
    // same incumbents and bounds at a 30 s limit. A search setting: it never changes the
    // optimum or a proof of it.
    scip = scip.set_int_param("presolving/maxrestarts", 0).map_err(solver_error)?;
    // At most five rounds of cutting planes at the root (SCIP's default has no limit and
    // stops after ten rounds without progress): on the fusion models the later rounds
    // raised the bound by fractions of a unit each while re-solving the LP every round.
    // Random programs of 100 combinators, 20 seeds, three runs each way through
    // FUSION_SCIP_PARAMS: median 1.45–1.56 s → 0.71–0.98 s, all twenty 29.6–34.5 s →
    // 24.7–27.8 s (3 rounds and 10 rounds measured between the two, 20 like the default).
    // A search setting: it never changes the optimum or a proof of it.
    scip = scip.set_int_param("separating/maxroundsroot", 5).map_err(solver_error)?;
    match model.branching {
        Branching::SolverDefault => {}
        Branching::Inference => {
            // Above every default rule's priority (relpscost has 10000), so it is used.
            scip = scip
                .set_int_param("branching/inference/priority", INFERENCE_BRANCHING_PRIORITY)
                .map_err(solver_error)?;
        }
        Branching::Reliability => {
            // relpscost is SCIP's rule by default; only its strong branching's budget
            // changes (measured at 200 combinators: docs/ilp-measurements.md).
            scip = scip
                .set_int_param("branching/relpscost/sbiterofs", STRONG_BRANCHING_ITERATIONS)
                .and_then(|scip| scip.set_real_param("branching/relpscost/sbiterquot", STRONG_BRANCHING_SHARE))
                .map_err(solver_error)?;
        }
    }
    for (var, v) in vars.iter().zip(&model.variables) {
        if v.branch_priority != 0 {
            // SAFETY: both pointers belong to the live instance `scip`, in problem stage.
            let code =
                unsafe { russcip::ffi::SCIPchgVarBranchPriority(scip.scip_ptr(), var.inner(), v.branch_priority) };
            if code != russcip::ffi::SCIP_Retcode_SCIP_OKAY {
                return Err(SolveError::Solver(format!("SCIPchgVarBranchPriority failed with code {code}")));
            }
        }
    }
    for row in &model.rows {
        let row_vars: Vec<_> = row.terms.iter().map(|(id, _)| &vars[id.0]).collect();
        let coefs: Vec<f64> = row.terms.iter().map(|(_, c)| *c).collect();
        let (lower, upper) = ordered(row.lower, row.upper);
        scip.add_cons(row_vars, &coefs, lower, upper, &row.name);
    }
    Ok((scip, vars))
}

/// SCIP's primal heuristics that dive, shift, round at random or search a neighbourhood
/// with a sub-solve: off under [`Heuristics::RoundingOnly`].
const SEARCHING_HEURISTICS: [&str; 23] = [
    "adaptivediving",
    "alns",
    "clique",
    "conflictdiving",
    "crossover",
    "distributiondiving",
    "feaspump",
    "fracdiving",
    "gins",
    "guideddiving",
    "intshifting",
    "linesearchdiving",
    "locks",
    "objpscostdiving",
    "pscostdiving",
    "randrounding",
    "rens",
    "rins",
    "rootsoldiving",
    "shifting",
    "vbounds",
    "veclendiving",
    "zirounding",
];

/// SCIP's general-purpose separators that [`GeneralCuts::RootOnly`] keeps to the root.
const GENERAL_SEPARATORS: [&str; 3] = ["gomory", "zerohalf", "aggregation"];

/// `FUSION_SCIP_PARAMS=FILE` reads a SCIP settings file (`name = value` lines) over
/// every setting of this module, to study the solver's parameters without a rebuild.
/// Read last, just before the solve, so that it reaches the plugins a solve includes
/// after building the problem too (the caller's separator, e.g.
/// `separating/caller_cuts/freq`; SCIP skips a parameter it does not know yet).
fn read_settings_file(scip: &russcip::Model<ProblemCreated>, path: Option<&std::ffi::OsStr>) -> Result<(), SolveError> {
    let Some(path) = path else { return Ok(()) };
    let path = path.to_string_lossy().into_owned();
    // Checked here: SCIP reports a missing file on stderr itself.
    std::fs::File::open(&path)
        .map_err(|e| SolveError::Solver(format!("FUSION_SCIP_PARAMS: cannot read '{path}': {e}")))?;
    let c_path = std::ffi::CString::new(path.clone())
        .map_err(|_| SolveError::Solver(format!("FUSION_SCIP_PARAMS: '{path}' contains a NUL byte")))?;
    // SAFETY: the pointer is the live SCIP instance owned by `scip`; the string lives
    // for the call.
    let code = unsafe { russcip::ffi::SCIPreadParams(scip.scip_ptr(), c_path.as_ptr()) };
    if code != russcip::ffi::SCIP_Retcode_SCIP_OKAY {
        return Err(SolveError::Solver(format!("FUSION_SCIP_PARAMS: SCIP could not read '{path}' (code {code})")));
    }
    Ok(())
}

/// Runs SCIP on a built problem: concurrently when more than one thread is allowed
/// (the caller must then hold [`concurrent_solve_guard`] until the instance is freed).
fn run(scip: russcip::Model<ProblemCreated>, limits: &Limits) -> Result<russcip::Model<russcip::Solved>, SolveError> {
    read_settings_file(&scip, std::env::var_os("FUSION_SCIP_PARAMS").as_deref())?;
    if thread_count(limits) > 1 {
        // The concurrent solvers print progress regardless of `display/verblevel`;
        // a quiet message handler (shared with their copies) keeps the compiler silent.
        // SAFETY: the pointer is the live SCIP instance owned by `scip`.
        unsafe { russcip::ffi::SCIPsetMessagehdlrQuiet(scip.scip_ptr(), 1) };
        scip.try_solve_concurrent().map_err(solver_error)
    } else {
        let solved = scip.try_solve().map_err(solver_error)?;
        if std::env::var_os("FUSION_SCIP_LOG").is_some() {
            // With the log, SCIP's statistics too (time per LP, separator, heuristic;
            // nodes; root bound), which tell where a slow solve spends its time.
            // SAFETY: the pointer is the live, solved SCIP instance owned by `solved`;
            // a null file is stdout.
            unsafe { russcip::ffi::SCIPprintStatistics(solved.scip_ptr(), std::ptr::null_mut()) };
        }
        Ok(solved)
    }
}

fn solve_validated(
    model: &Model,
    limits: &Limits,
    hooks: Hooks,
    start: Instant,
    racer: Option<Racer>,
) -> Result<Solution, SolveError> {
    // Declared first, so dropped last: after every handle on the SCIP instance.
    let _pool = concurrent_solve_guard(limits);
    let building = Instant::now();
    let separator = hooks.separator.map(|inner| Rc::new(RefCell::new(inner)));
    // The completion must meet the lazy rows too, or SCIP would reject it.
    let lazy_rows = separator.as_ref().filter(|_| hooks.lazy);
    let completed = if hooks.start.is_empty() {
        None
    } else {
        completed_start(model, limits.time_seconds * COMPLETION_SHARE, &hooks.start, lazy_rows)
    };
    let (mut scip, vars) = build(model, limits, true)?;
    let originals: Vec<*mut russcip::ffi::SCIP_VAR> = vars.iter().map(|v| v.inner()).collect();
    if let Some(inner) = hooks.heuristic {
        // Frequency 1 with offset 0: at every node from the root, after its LP (and
        // cuts); the bridge itself stops after its first completed proposal or
        // `PrimalHeuristic::attempts` proposals.
        scip.include_heur(
            HEURISTIC_NAME,
            "the caller's primal heuristic, from a node's LP solution",
            HEURISTIC_PRIORITY,
            'C',
            1,
            0,
            -1,
            russcip::HeurTiming::AFTER_LP_NODE,
            true,
            Box::new(CallerHeuristic {
                model: model.clone(),
                limits: *limits,
                lazy_rows: lazy_rows.cloned(),
                originals: originals.clone(),
                inner,
                attempts: 0,
                completed: false,
                failed: None,
                completing_seconds: 0.0,
            }),
        );
    }
    if let Some(racer) = &racer {
        if racer.index > 0 {
            // Each racer but the first searches with its own seeds: SCIP's random
            // choices and the order of the problem's variables and rows, which is what
            // makes the racers' search paths differ.
            let seed = racer.index as i32;
            scip = scip
                .set_int_param("randomization/randomseedshift", seed)
                .and_then(|scip| scip.set_int_param("randomization/permutationseed", seed))
                .and_then(|scip| scip.set_bool_param("randomization/permutevars", true))
                .map_err(solver_error)?;
        }
        // At every node: interrupt once another racer has finished, and trade
        // incumbents with the others (a point received is checked like any other).
        scip.include_heur(
            SHARING_HEURISTIC_NAME,
            "incumbents shared between racers; stops when another racer has finished",
            SHARING_HEURISTIC_PRIORITY,
            'R',
            1,
            0,
            -1,
            russcip::HeurTiming::AFTER_LP_NODE | russcip::HeurTiming::AFTER_PSEUDO_NODE,
            false,
            Box::new(SharingHeuristic {
                shared: Arc::clone(&racer.shared),
                originals: originals.clone(),
                offered: None,
            }),
        );
    }
    if hooks.lazy {
        let Some(inner) = &separator else {
            return Err(SolveError::InvalidModel("lazy rows were asked for without a separator".into()));
        };
        // SCIP's symmetry handling sees only the model's own rows, and a symmetry of
        // those need not be one of the lazy rows: it could cut off every optimum.
        scip = scip.set_int_param("misc/usesymmetry", 0).map_err(solver_error)?;
        include_lazy_rows(
            &mut scip,
            LazyRows { originals: originals.clone(), transformed: None, inner: inner.clone() },
        )?;
    }
    if let Some(values) = completed {
        let sol = scip.create_orig_sol();
        for (var, value) in vars.iter().zip(values) {
            sol.set_val(var, value);
        }
        // SCIP checks it; a rejected start costs nothing but the completion's time.
        let _ = scip.add_sol(sol);
    } else if !hooks.start.is_empty() {
        let sol = scip.create_partial_sol();
        for &(var, value) in &hooks.start {
            sol.set_val(&vars[var.0], value);
        }
        // Stored for the completesol heuristic; nothing is lost if it fails.
        let _ = scip.add_sol(sol);
    }
    // What completing the start and building the problem took is taken off SCIP's own
    // limit (which starts with SCIPsolve). Waiting for another caller's concurrent solve
    // is not counted.
    let remaining = (limits.time_seconds - building.elapsed().as_secs_f64()).clamp(0.0, INFINITE_BOUND);
    scip = scip.set_real_param("limits/time", remaining).map_err(solver_error)?;
    if let Some(separator) = separator {
        scip.include_separator(
            SEPARATOR_NAME,
            "valid inequalities of the caller's model",
            SEPARATOR_PRIORITY,
            1,
            1.0,
            false,
            false,
            Box::new(ScipCutSeparator { originals, transformed: None, inner: Box::new(SharedSeparator(separator)) }),
        );
    }
    let solved = run(scip, limits)?;
    let scip_status = solved.status();
    // SAFETY: `solved` owns a live SCIP instance in the SOLVED stage, where
    // SCIPgetGap is allowed.
    let gap = unsafe { russcip::ffi::SCIPgetGap(solved.scip_ptr()) };
    let gap = if gap >= INFINITE_BOUND { f64::INFINITY } else { gap };
    // SAFETY: as above; SCIPgetDualbound is allowed in the SOLVED stage.
    let dual_bound = unsafe { russcip::ffi::SCIPgetDualbound(solved.scip_ptr()) };
    let dual_bound = if dual_bound.abs() >= INFINITE_BOUND { dual_bound.signum() * f64::INFINITY } else { dual_bound };
    let effort = SearchEffort { nodes: solved.n_nodes() as u64, lp_iterations: solved.n_lp_iterations() as u64 };
    let status = match scip_status {
        Status::Optimal | Status::GapLimit => SolveStatus::Optimal,
        Status::Infeasible => return Err(SolveError::Infeasible),
        Status::Unbounded => return Err(SolveError::Unbounded),
        Status::Inforunbd => {
            // Free this instance (variables hold it too) before solving another.
            drop(solved);
            drop(vars);
            return Err(infeasible_or_unbounded(model, limits));
        }
        // A limit (time, nodes, memory, interrupt) stopped the search. If the gap was
        // closed anyway (the limit struck right after the last proof step), the
        // incumbent is proven optimal.
        _ if gap <= limits.relative_gap.max(0.0) => SolveStatus::Optimal,
        _ => SolveStatus::LimitReached,
    };
    let Some(best) = solved.best_sol() else {
        return Err(SolveError::NoSolutionWithinLimits(format!("{scip_status:?}")));
    };
    let values: Vec<f64> = vars.iter().map(|v| best.val(v)).collect();
    let objective = best.obj_val();
    check_feasible(model, &values, SOLUTION_CHECK_TOLERANCE)
        .map_err(|violation| SolveError::Solver(format!("solution violates {violation}")))?;
    let recomputed = model.objective_value(&values);
    let scale =
        model.objective.iter().map(|&(id, c)| (c * values[id.0]).abs()).fold(1f64.max(objective.abs()), f64::max);
    if (recomputed - objective).abs() > SOLUTION_CHECK_TOLERANCE * scale {
        return Err(SolveError::Solver(format!(
            "SCIP reports objective {objective} but the solution evaluates to {recomputed}"
        )));
    }
    let solve_ms = start.elapsed().as_secs_f64() * 1e3;
    Ok(Solution { status, objective, values, solve_ms, gap, dual_bound, warnings: Vec::new(), effort })
}

/// The share of the time limit that completing a partial start (or all of a
/// [`PrimalHeuristic`]'s proposals together) may take: a safety net, which
/// [`COMPLETION_NODES`] keeps from striking on most of the models measured.
const COMPLETION_SHARE: f64 = 0.1;

/// The branch-and-bound nodes a completion may take. A node limit, not a time limit,
/// ends it, so that a solve takes the same path on a fast machine and a slow one: the
/// completion of `rens::FixIntegralDecisions` (fusion-analysis) leaves open what the
/// root LP leaves open. On random programs of 200 combinators, uncapped, it took up to
/// 121 nodes on seeds 0–9 and up to 502 on seeds 10–19 (seed 16's did not end within
/// 15 s); those that ended within 100 nodes took 0.9–2.4 s on a two-core Intel Xeon
/// guest, under the 3 s of [`COMPLETION_SHARE`] at a 30 s limit. Under the time cap
/// it had before (5 % of the limit) that guest cut seeds 6 and 7 short where a faster
/// one had not, and their proofs took 389 and 463 nodes instead of 144 and 299
/// (docs/ilp-measurements.md). A warm start's completion takes one node or a few.
const COMPLETION_NODES: u64 = 100;

/// A partial start made whole: the model solved with the start's variables fixed to its
/// values (sequentially, within [`COMPLETION_NODES`] nodes and `seconds`: callers give
/// it [`COMPLETION_SHARE`] of their limit, or what is left of it), so that SCIP begins
/// with a complete incumbent. SCIP's own `completesol` heuristic is given the partial
/// start otherwise, but it gives up on some of the fusion models whose completion is
/// easy (measured on `fusion-bench --sizes 100`: no incumbent at the root for 6 of 20
/// random programs, and the slowest of them took 10.5 s); with the fixings, presolving
/// alone nearly decides the rest. With [`Hooks::lazy`] the completion enforces the same
/// lazy rows (else it could complete the free variables into a point SCIP then rejects).
/// `None` when the fixed model has no solution in time (the start is then handed to
/// `completesol` as before).
fn completed_start(
    model: &Model,
    seconds: f64,
    start: &[(VarId, f64)],
    lazy_rows: Option<&Rc<RefCell<Box<dyn CutSeparator>>>>,
) -> Option<Vec<f64>> {
    let mut fixed = model.clone();
    fixed.name = format!("{}_start", model.name);
    // SCIP's searching heuristics (diving, shifting, neighbourhood searches) do not see
    // the lazy rows, so where the completion has them their points are mostly rejected;
    // the larger lazy models' main solves turn them off for that reason
    // (`Heuristics::RoundingOnly`), and so does the completion, whose other points come
    // from its node LPs. Measured on a RENS completion of n = 200 seed 7, 100 nodes in
    // 2.2 s: 0.68 s in SCIP's heuristics, whose points were the first three (clique,
    // variable bounds, one-opt); every improvement after them came from a node's LP.
    // Random programs of 200 combinators, seeds 0–19, side by side with SCIP's whole
    // set: the same 15 proven, 11 of them with the same search node for node, ten of
    // those 0.08–2.1 s faster and one 0.04 s slower; median 8.3 s against 8.9 s
    // (docs/ilp-measurements.md). Without lazy rows, SCIP's whole set: a point it finds
    // is a point of the model.
    fixed.heuristics = if lazy_rows.is_some() { Heuristics::RoundingOnly } else { Heuristics::SolverDefault };
    for &(var, value) in start {
        fixed.variables[var.0].lower = value;
        fixed.variables[var.0].upper = value;
    }
    if has_empty_interval(&fixed) {
        return None;
    }
    let limits = Limits { time_seconds: seconds, relative_gap: 0.0, threads: 1, nodes: Some(COMPLETION_NODES) };
    let hooks = match lazy_rows {
        Some(rows) => Hooks {
            separator: Some(Box::new(SharedSeparator(rows.clone()))),
            start: Vec::new(),
            lazy: true,
            heuristic: None,
        },
        None => Hooks::default(),
    };
    solve_validated(&fixed, &limits, hooks, Instant::now(), None).ok().map(|s| s.values)
}

const SEPARATOR_NAME: &str = "caller_cuts";
const HEURISTIC_NAME: &str = "caller_heuristic";
/// Above SCIP's LP-based heuristics (rounding is −1000): the caller's proposal is tried
/// first.
const HEURISTIC_PRIORITY: i32 = 10_000;
/// SCIP's default rule, reliability pseudo-cost branching, has priority 10000.
const INFERENCE_BRANCHING_PRIORITY: i32 = 100_000;
/// [`Branching::Reliability`]: the simplex iterations strong branching may always spend
/// (SCIP: 100 000, at 200 combinators several seconds of strong branching)...
const STRONG_BRANCHING_ITERATIONS: i32 = 10_000;
/// ... and the share of the node LPs' iterations it may spend besides (SCIP: 0.5).
const STRONG_BRANCHING_SHARE: f64 = 0.2;
/// Above SCIP's own general-purpose separators (gomory is −1000, cmir −100000), so the
/// model's structural cuts come first.
const SEPARATOR_PRIORITY: i32 = 1000;
/// How far a row must cut off the LP point (in row activity units) to be added.
const MIN_VIOLATION: f64 = 1e-4;

/// One separator used by both the separator plugin and the lazy rows' handler.
struct SharedSeparator(Rc<RefCell<Box<dyn CutSeparator>>>);

impl CutSeparator for SharedSeparator {
    fn separate(&mut self, values: &[f64]) -> Vec<Row> {
        self.0.borrow_mut().separate(values)
    }

    fn separate_at_depth(&mut self, values: &[f64], depth: usize) -> Vec<Row> {
        self.0.borrow_mut().separate_at_depth(values, depth)
    }

    fn propagate(&mut self, lower: &[f64], upper: &[f64]) -> Propagation {
        self.0.borrow_mut().propagate(lower, upper)
    }
}

/// The name of the lazy rows' constraint handler.
const LAZY_ROWS_NAME: &std::ffi::CStr = c"caller_lazy_rows";

/// A constraint handler that enforces a separator's rows ([`Hooks::lazy`]): it rejects
/// every candidate solution that violates one (check), adds the violated rows when the
/// LP solution of a node violates one (LP enforcement), and asks for the LP when a
/// pseudo solution does (pseudo enforcement). Its check priority is below the
/// integrality handler's, so the separator only judges integral points.
struct LazyRows {
    originals: Vec<*mut russcip::ffi::SCIP_VAR>,
    transformed: Option<Vec<*mut russcip::ffi::SCIP_VAR>>,
    inner: Rc<RefCell<Box<dyn CutSeparator>>>,
}

impl LazyRows {
    /// The separator's rows violated by `sol` (null: the current LP or pseudo solution),
    /// with the transformed variables when `transformed_space`, else the originals.
    fn violated(
        &mut self,
        scip: *mut russcip::ffi::SCIP,
        sol: *mut russcip::ffi::SCIP_SOL,
        transformed_space: bool,
    ) -> Vec<Row> {
        use russcip::ffi;
        let vars = if transformed_space { self.transformed(scip) } else { &self.originals[..] };
        // SAFETY: variables of the live instance (a variable fixed away in presolving
        // has a null transformed counterpart only if it was never transformed, which
        // SCIP does not do: every original has one).
        let values: Vec<f64> =
            vars.iter().map(|&v| if v.is_null() { 0.0 } else { unsafe { ffi::SCIPgetSolVal(scip, sol, v) } }).collect();
        let rows = self.inner.borrow_mut().separate(&values);
        rows.into_iter()
            .filter(|row| {
                let activity: f64 = row.terms.iter().map(|(v, c)| c * values.get(v.0).copied().unwrap_or(0.0)).sum();
                activity < row.lower - MIN_VIOLATION || activity > row.upper + MIN_VIOLATION
            })
            .collect()
    }

    /// The transformed counterparts of the originals, found on first use (null where
    /// SCIP has none).
    fn transformed(&mut self, scip: *mut russcip::ffi::SCIP) -> &[*mut russcip::ffi::SCIP_VAR] {
        self.transformed.get_or_insert_with(|| {
            self.originals
                .iter()
                .map(|&var| {
                    let mut t = std::ptr::null_mut();
                    // SAFETY: `scip` is the live instance past presolving (a handler's
                    // callbacks run while solving) and `var` one of its originals.
                    unsafe { russcip::ffi::SCIPgetTransformedVar(scip, var, &mut t) };
                    t
                })
                .collect()
        })
    }

    /// Applies what the separator's rows imply from the current node's bounds
    /// ([`CutSeparator::propagate`]): SCIP's result for the propagation callback.
    fn propagate(&mut self, scip: *mut russcip::ffi::SCIP) -> russcip::ffi::SCIP_RESULT {
        use russcip::ffi;
        let inner = self.inner.clone();
        let vars = self.transformed(scip);
        // A variable without a transformed counterpart (none, in practice) is left free.
        // SAFETY: variables of the live instance; the computed bounds also cover
        // variables presolving aggregated.
        let lower: Vec<f64> = vars
            .iter()
            .map(|&v| if v.is_null() { 0.0 } else { unsafe { ffi::SCIPcomputeVarLbLocal(scip, v) } })
            .collect();
        let upper: Vec<f64> = vars
            .iter()
            .map(|&v| if v.is_null() { 1.0 } else { unsafe { ffi::SCIPcomputeVarUbLocal(scip, v) } })
            .collect();
        let fixings = match inner.borrow_mut().propagate(&lower, &upper) {
            Propagation::Nothing => return ffi::SCIP_Result_SCIP_DIDNOTFIND,
            Propagation::Infeasible => return ffi::SCIP_Result_SCIP_CUTOFF,
            Propagation::Fixings(fixings) => fixings,
        };
        let mut reduced = false;
        for (var, value) in fixings {
            let Some(&v) = vars.get(var.0) else { continue };
            if v.is_null() {
                continue;
            }
            // SAFETY: a live variable of this instance.
            let status = unsafe { ffi::SCIPvarGetStatus(v) };
            // SCIP changes the bounds of active variables and of those aggregated or
            // negated into one; a multi-aggregated one is left alone (a fixing not
            // applied loses nothing).
            if status == ffi::SCIP_Varstatus_SCIP_VARSTATUS_MULTAGGR {
                continue;
            }
            let (mut infeasible, mut tightened) = (0, 0);
            // SAFETY: as above, while SCIP propagates a node.
            let code = unsafe {
                if value >= 0.5 {
                    ffi::SCIPtightenVarLb(scip, v, value, 0, &mut infeasible, &mut tightened)
                } else {
                    ffi::SCIPtightenVarUb(scip, v, value, 0, &mut infeasible, &mut tightened)
                }
            };
            if code != ffi::SCIP_Retcode_SCIP_OKAY {
                continue;
            }
            if infeasible != 0 {
                return ffi::SCIP_Result_SCIP_CUTOFF;
            }
            reduced |= tightened != 0;
        }
        if reduced { ffi::SCIP_Result_SCIP_REDUCEDDOM } else { ffi::SCIP_Result_SCIP_DIDNOTFIND }
    }

    /// Adds `rows` to the LP of the current node (and the global cut pool); whether
    /// any was added.
    fn add_rows(&self, scip: *mut russcip::ffi::SCIP, handler: *mut russcip::ffi::SCIP_CONSHDLR, rows: &[Row]) -> bool {
        use russcip::ffi;
        let Some(transformed) = &self.transformed else { return false };
        let mut added = false;
        for row in rows {
            let (lower, upper) = ordered(row.lower, row.upper);
            let mut lp_row = std::ptr::null_mut();
            let name = std::ffi::CString::new(row.name.replace('\0', "")).unwrap_or_default();
            // SAFETY: a row of this handler over transformed variables of the live
            // instance, added to the LP and the pool, released once.
            unsafe {
                let code =
                    ffi::SCIPcreateEmptyRowConshdlr(scip, &mut lp_row, handler, name.as_ptr(), lower, upper, 0, 0, 1);
                if code != ffi::SCIP_Retcode_SCIP_OKAY {
                    continue;
                }
                for &(v, c) in &row.terms {
                    ffi::SCIPaddVarToRow(scip, lp_row, transformed[v.0], c);
                }
                let mut infeasible = 0;
                if ffi::SCIPaddRow(scip, lp_row, 1, &mut infeasible) == ffi::SCIP_Retcode_SCIP_OKAY {
                    added = true;
                    ffi::SCIPaddPoolCut(scip, lp_row);
                }
                ffi::SCIPreleaseRow(scip, &mut lp_row);
            }
        }
        added
    }
}

/// The handler's data: the `LazyRows`, reached from SCIP's callbacks.
fn lazy_rows_of(handler: *mut russcip::ffi::SCIP_CONSHDLR) -> *mut LazyRows {
    // SAFETY: the data pointer was set from a `Box<LazyRows>` in `include_lazy_rows`.
    unsafe { russcip::ffi::SCIPconshdlrGetData(handler) as *mut LazyRows }
}

/// Writes a callback's outcome to SCIP's `result`: a panic (caught, since it must not
/// cross SCIP's C frames) becomes an error of the solve.
fn report(
    outcome: std::thread::Result<russcip::ffi::SCIP_RESULT>,
    result: *mut russcip::ffi::SCIP_RESULT,
) -> russcip::ffi::SCIP_RETCODE {
    match outcome {
        Ok(r) => {
            // SAFETY: SCIP passes a valid result pointer to every callback.
            unsafe { *result = r };
            russcip::ffi::SCIP_Retcode_SCIP_OKAY
        }
        Err(_) => russcip::ffi::SCIP_Retcode_SCIP_ERROR,
    }
}

unsafe extern "C" fn lazy_rows_enforce_lp(
    scip: *mut russcip::ffi::SCIP,
    handler: *mut russcip::ffi::SCIP_CONSHDLR,
    _conss: *mut *mut russcip::ffi::SCIP_CONS,
    _nconss: std::os::raw::c_int,
    _nusefulconss: std::os::raw::c_int,
    _solinfeasible: std::os::raw::c_uint,
    result: *mut russcip::ffi::SCIP_RESULT,
) -> russcip::ffi::SCIP_RETCODE {
    use russcip::ffi;
    let lazy = lazy_rows_of(handler);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: `lazy` is the handler's live data; SCIP calls its callbacks in turn.
        let lazy = unsafe { &mut *lazy };
        let rows = lazy.violated(scip, std::ptr::null_mut(), true);
        if rows.is_empty() {
            ffi::SCIP_Result_SCIP_FEASIBLE
        } else if lazy.add_rows(scip, handler, &rows) {
            ffi::SCIP_Result_SCIP_SEPARATED
        } else {
            ffi::SCIP_Result_SCIP_INFEASIBLE
        }
    }));
    report(outcome, result)
}

unsafe extern "C" fn lazy_rows_enforce_pseudo(
    scip: *mut russcip::ffi::SCIP,
    handler: *mut russcip::ffi::SCIP_CONSHDLR,
    _conss: *mut *mut russcip::ffi::SCIP_CONS,
    _nconss: std::os::raw::c_int,
    _nusefulconss: std::os::raw::c_int,
    _solinfeasible: std::os::raw::c_uint,
    _objinfeasible: std::os::raw::c_uint,
    result: *mut russcip::ffi::SCIP_RESULT,
) -> russcip::ffi::SCIP_RETCODE {
    use russcip::ffi;
    let lazy = lazy_rows_of(handler);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `lazy_rows_enforce_lp`.
        let lazy = unsafe { &mut *lazy };
        // The rows can only be added to an LP: a violated pseudo solution asks for one.
        if lazy.violated(scip, std::ptr::null_mut(), true).is_empty() {
            ffi::SCIP_Result_SCIP_FEASIBLE
        } else {
            ffi::SCIP_Result_SCIP_SOLVELP
        }
    }));
    report(outcome, result)
}

unsafe extern "C" fn lazy_rows_check(
    scip: *mut russcip::ffi::SCIP,
    handler: *mut russcip::ffi::SCIP_CONSHDLR,
    _conss: *mut *mut russcip::ffi::SCIP_CONS,
    _nconss: std::os::raw::c_int,
    sol: *mut russcip::ffi::SCIP_SOL,
    _checkintegrality: std::os::raw::c_uint,
    _checklprows: std::os::raw::c_uint,
    _printreason: std::os::raw::c_uint,
    _completely: std::os::raw::c_uint,
    result: *mut russcip::ffi::SCIP_RESULT,
) -> russcip::ffi::SCIP_RETCODE {
    use russcip::ffi;
    let lazy = lazy_rows_of(handler);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `lazy_rows_enforce_lp`; `sol` is SCIP's candidate.
        let lazy = unsafe { &mut *lazy };
        // SAFETY: `sol` is a live solution of this instance.
        let original = unsafe { ffi::SCIPsolIsOriginal(sol) } != 0;
        if lazy.violated(scip, sol, !original).is_empty() {
            ffi::SCIP_Result_SCIP_FEASIBLE
        } else {
            ffi::SCIP_Result_SCIP_INFEASIBLE
        }
    }));
    report(outcome, result)
}

/// Propagation of the lazy rows ([`CutSeparator::propagate`]) before each node's LP.
unsafe extern "C" fn lazy_rows_propagate(
    scip: *mut russcip::ffi::SCIP,
    handler: *mut russcip::ffi::SCIP_CONSHDLR,
    _conss: *mut *mut russcip::ffi::SCIP_CONS,
    _nconss: std::os::raw::c_int,
    _nusefulconss: std::os::raw::c_int,
    _nmarkedconss: std::os::raw::c_int,
    _proptiming: russcip::ffi::SCIP_PROPTIMING,
    result: *mut russcip::ffi::SCIP_RESULT,
) -> russcip::ffi::SCIP_RETCODE {
    let lazy = lazy_rows_of(handler);
    let outcome = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `lazy_rows_enforce_lp`.
        let lazy = unsafe { &mut *lazy };
        lazy.propagate(scip)
    }));
    report(outcome, result)
}

/// A handler without constraints (`needscons` false) is asked once, with no
/// constraint, to lock the variables of the transformed problem (and once more, with
/// negative counts, to unlock them). The lazy rows may mention any variable with
/// either sign, so every variable is locked in both directions. With these locks
/// SCIP's dual reductions stay sound: those that rely on locks (fixing a variable
/// that no row stops from moving towards a better objective) find nothing to do, and
/// those that use only the objective and the incumbent (reduced-cost fixing) remove
/// only solutions no better than the incumbent, wherever the lazy rows cut.
unsafe extern "C" fn lazy_rows_lock(
    scip: *mut russcip::ffi::SCIP,
    handler: *mut russcip::ffi::SCIP_CONSHDLR,
    cons: *mut russcip::ffi::SCIP_CONS,
    locktype: russcip::ffi::SCIP_LOCKTYPE,
    nlockspos: std::os::raw::c_int,
    nlocksneg: std::os::raw::c_int,
) -> russcip::ffi::SCIP_RETCODE {
    use russcip::ffi;
    let lazy = lazy_rows_of(handler);
    if lazy.is_null() {
        return ffi::SCIP_Retcode_SCIP_ERROR;
    }
    // SAFETY: the handler's live data; SCIP calls its callbacks one at a time.
    let lazy = unsafe { &*lazy };
    // SAFETY: `cons`, when not null, is a live constraint of this instance.
    let transformed = cons.is_null() || unsafe { ffi::SCIPconsIsTransformed(cons) } != 0;
    let both = nlockspos + nlocksneg;
    for &original in &lazy.originals {
        let mut var = original;
        if transformed {
            // SAFETY: SCIP transforms the variables before the constraints.
            let code = unsafe { ffi::SCIPgetTransformedVar(scip, original, &mut var) };
            if code != ffi::SCIP_Retcode_SCIP_OKAY {
                return code;
            }
            if var.is_null() {
                return ffi::SCIP_Retcode_SCIP_ERROR;
            }
        }
        // SAFETY: `var` is a live variable of this instance in the constraint's space.
        let code = unsafe { ffi::SCIPaddVarLocksType(scip, var, locktype, both, both) };
        if code != ffi::SCIP_Retcode_SCIP_OKAY {
            return code;
        }
    }
    ffi::SCIP_Retcode_SCIP_OKAY
}

unsafe extern "C" fn lazy_rows_free(
    _scip: *mut russcip::ffi::SCIP,
    handler: *mut russcip::ffi::SCIP_CONSHDLR,
) -> russcip::ffi::SCIP_RETCODE {
    let lazy = lazy_rows_of(handler);
    if !lazy.is_null() {
        // SAFETY: created by `Box::into_raw` in `include_lazy_rows`, freed once here.
        drop(unsafe { Box::from_raw(lazy) });
        // SAFETY: the handler is live while SCIP frees it.
        unsafe { russcip::ffi::SCIPconshdlrSetData(handler, std::ptr::null_mut()) };
    }
    russcip::ffi::SCIP_Retcode_SCIP_OKAY
}

/// Includes the [`LazyRows`] handler in `scip`. It is called even without constraints
/// (`needscons` false), with enforcement and check priorities below the integrality
/// handler's (0), so it judges integral points only.
fn include_lazy_rows(scip: &mut russcip::Model<ProblemCreated>, lazy: LazyRows) -> Result<(), SolveError> {
    use russcip::ffi;
    let data = Box::into_raw(Box::new(lazy));
    let mut handler = std::ptr::null_mut();
    // SAFETY: the live instance in the PROBLEM stage; the name and description are
    // static; the data is freed by `lazy_rows_free` (or below, if including fails).
    let code = unsafe {
        ffi::SCIPincludeConshdlrBasic(
            scip.scip_ptr(),
            &mut handler,
            LAZY_ROWS_NAME.as_ptr(),
            c"the caller's lazy rows".as_ptr(),
            -1,
            -1,
            -1,
            0,
            Some(lazy_rows_enforce_lp),
            Some(lazy_rows_enforce_pseudo),
            Some(lazy_rows_check),
            Some(lazy_rows_lock),
            data as *mut ffi::SCIP_CONSHDLRDATA,
        )
    };
    if code != ffi::SCIP_Retcode_SCIP_OKAY || handler.is_null() {
        // SAFETY: not handed to SCIP.
        drop(unsafe { Box::from_raw(data) });
        return Err(SolveError::Solver(format!("SCIP did not include the lazy rows' handler ({code})")));
    }
    // SAFETY: the handler just included.
    let code = unsafe { ffi::SCIPsetConshdlrFree(scip.scip_ptr(), handler, Some(lazy_rows_free)) };
    if code != ffi::SCIP_Retcode_SCIP_OKAY {
        return Err(SolveError::Solver(format!("SCIP did not accept the lazy rows' free callback ({code})")));
    }
    // SAFETY: as above.
    let code = unsafe {
        ffi::SCIPsetConshdlrProp(
            scip.scip_ptr(),
            handler,
            Some(lazy_rows_propagate),
            1,
            0,
            ffi::SCIP_PROPTIMING_BEFORELP,
        )
    };
    if code != ffi::SCIP_Retcode_SCIP_OKAY {
        return Err(SolveError::Solver(format!("SCIP did not accept the lazy rows' propagation ({code})")));
    }
    Ok(())
}

/// The transformed counterparts of `originals` (the space the LP lives in), or `None`
/// if SCIP has none for one of them.
fn transformed_vars(
    scip: *mut russcip::ffi::SCIP,
    originals: &[*mut russcip::ffi::SCIP_VAR],
) -> Option<Vec<*mut russcip::ffi::SCIP_VAR>> {
    use russcip::ffi;
    let mut transformed = Vec::with_capacity(originals.len());
    for &var in originals {
        let mut t = std::ptr::null_mut();
        // SAFETY: `scip` is the live instance in the SOLVING stage and `var` one of its
        // original variables (kept alive by the caller's `vars`).
        let code = unsafe { ffi::SCIPgetTransformedVar(scip, var, &mut t) };
        if code != ffi::SCIP_Retcode_SCIP_OKAY || t.is_null() {
            return None;
        }
        transformed.push(t);
    }
    Some(transformed)
}

/// The current LP solution's values of `transformed` (variables of the live instance,
/// read while a separator or an after-LP heuristic runs, when the LP solution is defined).
fn lp_values(scip: *mut russcip::ffi::SCIP, transformed: &[*mut russcip::ffi::SCIP_VAR]) -> Vec<f64> {
    // SAFETY: as documented above; a null solution is the current LP solution.
    transformed.iter().map(|&t| unsafe { russcip::ffi::SCIPgetSolVal(scip, std::ptr::null_mut(), t) }).collect()
}

/// The bridge between SCIP's separator callback and a [`CutSeparator`].
struct ScipCutSeparator {
    /// The model's variables in SCIP's original space, indexed like `Model::variables`.
    originals: Vec<*mut russcip::ffi::SCIP_VAR>,
    /// Their transformed counterparts (the space the LP lives in), found on first use.
    transformed: Option<Vec<*mut russcip::ffi::SCIP_VAR>>,
    inner: Box<dyn CutSeparator>,
}

impl russcip::Separator for ScipCutSeparator {
    fn execute_lp(
        &mut self,
        model: russcip::Model<russcip::Solving>,
        _sepa: russcip::SCIPSeparator,
    ) -> russcip::SeparationResult {
        // A panic must not cross SCIP's C frames; the callback then simply adds nothing.
        let outcome = catch_unwind(AssertUnwindSafe(|| self.separate(model.scip_ptr())));
        match outcome {
            Ok(Ok(true)) => russcip::SeparationResult::Separated,
            _ => russcip::SeparationResult::DidNotFind,
        }
    }
}

impl ScipCutSeparator {
    /// Reads the LP point, asks the inner separator for rows and adds the violated ones
    /// as global cuts; whether any was added.
    fn separate(&mut self, scip: *mut russcip::ffi::SCIP) -> Result<bool, russcip::Retcode> {
        use russcip::ffi;
        if self.transformed.is_none() {
            let Some(transformed) = transformed_vars(scip, &self.originals) else { return Ok(false) };
            self.transformed = Some(transformed);
        }
        let transformed = self.transformed.as_ref().expect("set above");
        let values = lp_values(scip, transformed);
        // SAFETY: the live instance, in the SOLVING stage (a separator's callback).
        let depth = unsafe { ffi::SCIPgetDepth(scip) }.max(0) as usize;
        let rows = self.inner.separate_at_depth(&values, depth);
        // SAFETY: the name is NUL-terminated and the separator was included above.
        let sepa = unsafe { ffi::SCIPfindSepa(scip, c"caller_cuts".as_ptr()) };
        if sepa.is_null() {
            return Ok(false);
        }
        let mut added = false;
        for row in rows {
            let activity: f64 = row.terms.iter().map(|(v, c)| c * values.get(v.0).copied().unwrap_or(0.0)).sum();
            let violated = activity < row.lower - MIN_VIOLATION || activity > row.upper + MIN_VIOLATION;
            if !violated || row.terms.iter().any(|(v, _)| v.0 >= transformed.len()) {
                continue;
            }
            let (lower, upper) = ordered(row.lower, row.upper);
            let mut lp_row = std::ptr::null_mut();
            let name = std::ffi::CString::new(row.name.replace('\0', "")).unwrap_or_default();
            // SAFETY: a row of this separator, filled with transformed variables of the
            // live instance, added to the global cut pool and released once.
            unsafe {
                let code = ffi::SCIPcreateEmptyRowSepa(scip, &mut lp_row, sepa, name.as_ptr(), lower, upper, 0, 0, 1);
                if code != ffi::SCIP_Retcode_SCIP_OKAY {
                    return Ok(added);
                }
                for &(v, c) in &row.terms {
                    ffi::SCIPaddVarToRow(scip, lp_row, transformed[v.0], c);
                }
                let mut infeasible = 0;
                if ffi::SCIPaddRow(scip, lp_row, 0, &mut infeasible) == ffi::SCIP_Retcode_SCIP_OKAY {
                    added = true;
                    // Kept in the global pool, so other nodes of the tree use it too.
                    ffi::SCIPaddPoolCut(scip, lp_row);
                }
                ffi::SCIPreleaseRow(scip, &mut lp_row);
            }
        }
        Ok(added)
    }
}

const SHARING_HEURISTIC_NAME: &str = "racers_incumbents";

/// Below the caller's heuristic; the order among heuristics of one timing only.
const SHARING_HEURISTIC_PRIORITY: i32 = 9_000;

/// A racer's link to the others ([`crate::race`]): after every node it interrupts the
/// solve once another racer has finished, offers SCIP a better incumbent that another
/// racer found (SCIP checks it against every row, lazy rows included), and publishes
/// its own incumbent when it is the best so far.
struct SharingHeuristic {
    shared: Arc<Shared>,
    /// The model's variables in SCIP's original space, indexed like `Model::variables`.
    originals: Vec<*mut russcip::ffi::SCIP_VAR>,
    /// The objective of the last shared point offered to SCIP: each is offered once
    /// (one SCIP rejected would otherwise be checked again after every node).
    offered: Option<f64>,
}

impl russcip::Heuristic for SharingHeuristic {
    fn execute(
        &mut self,
        model: russcip::Model<russcip::Solving>,
        _timing: russcip::HeurTiming,
        _node_infeasible: bool,
    ) -> russcip::HeurResult {
        // The racer then shares nothing.
        without_unwinding(|| self.run(model.scip_ptr()), russcip::HeurResult::DidNotRun)
    }
}

impl SharingHeuristic {
    fn run(&mut self, scip: *mut russcip::ffi::SCIP) -> russcip::HeurResult {
        use russcip::ffi;
        use std::sync::atomic::Ordering;
        if self.shared.stop.load(Ordering::SeqCst) {
            // SAFETY: the live instance in the SOLVING stage, where an interrupt may be
            // requested; SCIP stops after this node with the status "user interrupt".
            unsafe { ffi::SCIPinterruptSolve(scip) };
            return russcip::HeurResult::DidNotRun;
        }
        // SAFETY: the live instance in the SOLVING stage; the primal bound is in the
        // original problem's objective, like the shared objective.
        let own = unsafe { ffi::SCIPgetPrimalbound(scip) };
        let mut best = self.shared.best.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        match best.as_ref() {
            Some((objective, values)) if self.shared.better(*objective, own) => {
                if self.offered == Some(*objective) {
                    return russcip::HeurResult::DidNotRun;
                }
                self.offered = Some(*objective);
                try_original_point(scip, SHARING_HEURISTIC_NAME, &self.originals, values)
            }
            Some((objective, _)) if !self.shared.better(own, *objective) => russcip::HeurResult::DidNotRun,
            _ => {
                // SAFETY: the live instance in the SOLVING stage; the best solution, if
                // any, is read in the original variables.
                let sol = unsafe { ffi::SCIPgetBestSol(scip) };
                if sol.is_null() {
                    return russcip::HeurResult::DidNotRun;
                }
                let values = self.originals.iter().map(|&var| unsafe { ffi::SCIPgetSolVal(scip, sol, var) }).collect();
                *best = Some((own, values));
                russcip::HeurResult::DidNotRun
            }
        }
    }
}

/// The bridge between SCIP's heuristic callback and a [`PrimalHeuristic`].
struct CallerHeuristic {
    /// The model being solved, for the completion of a proposal.
    model: Model,
    limits: Limits,
    /// The solve's lazy rows, which the completion must meet too ([`Hooks::lazy`]).
    lazy_rows: Option<Rc<RefCell<Box<dyn CutSeparator>>>>,
    /// The model's variables in SCIP's original space, indexed like `Model::variables`.
    originals: Vec<*mut russcip::ffi::SCIP_VAR>,
    inner: Box<dyn PrimalHeuristic>,
    /// Proposals asked for so far (at most [`PrimalHeuristic::attempts`]).
    attempts: usize,
    /// A proposal has been completed: the heuristic has done its work.
    completed: bool,
    /// The last proposal that no point completed: asked again with the same values (a
    /// node whose LP decides the same fusion decisions), it is not completed again.
    failed: Option<Vec<(VarId, f64)>>,
    /// Seconds the completions have taken so far. All of them together get the time
    /// one completion may take ([`COMPLETION_SHARE`] of the limit), so that proposing
    /// again never costs more time than the first proposal could.
    completing_seconds: f64,
}

impl russcip::Heuristic for CallerHeuristic {
    fn execute(
        &mut self,
        model: russcip::Model<russcip::Solving>,
        _timing: russcip::HeurTiming,
        _node_infeasible: bool,
    ) -> russcip::HeurResult {
        // The heuristic then finds nothing.
        without_unwinding(|| self.run(model.scip_ptr()), russcip::HeurResult::NoSolFound)
    }
}

/// `run()`, or `fallback` if it panics: a panic must not cross SCIP's C frames.
fn without_unwinding<T>(run: impl FnOnce() -> T, fallback: T) -> T {
    catch_unwind(AssertUnwindSafe(run)).unwrap_or(fallback)
}

impl CallerHeuristic {
    /// Reads the LP point, asks for a proposal, completes it and offers it to SCIP; at
    /// the root and, until a proposal has been completed, at the next nodes, at most
    /// [`PrimalHeuristic::attempts`] times.
    fn run(&mut self, scip: *mut russcip::ffi::SCIP) -> russcip::HeurResult {
        use russcip::ffi;
        let budget = self.limits.time_seconds * COMPLETION_SHARE - self.completing_seconds;
        if self.completed || self.attempts >= self.inner.attempts() || budget <= 0.0 {
            return russcip::HeurResult::DidNotRun;
        }
        // SAFETY: `scip` is the live instance in the SOLVING stage (after a node's LP).
        if unsafe { ffi::SCIPgetLPSolstat(scip) } != ffi::SCIP_LPSolStat_SCIP_LPSOLSTAT_OPTIMAL {
            return russcip::HeurResult::DidNotRun;
        }
        let Some(transformed) = transformed_vars(scip, &self.originals) else {
            return russcip::HeurResult::DidNotRun;
        };
        self.attempts += 1;
        let values = lp_values(scip, &transformed);
        let proposal = self.inner.propose(&values);
        if proposal.is_empty()
            || proposal.iter().any(|(v, x)| v.0 >= self.originals.len() || !x.is_finite())
            || self.failed.as_ref() == Some(&proposal)
        {
            return russcip::HeurResult::NoSolFound;
        }
        let completing = Instant::now();
        let completion = completed_start(&self.model, budget, &proposal, self.lazy_rows.as_ref());
        self.completing_seconds += completing.elapsed().as_secs_f64();
        let Some(point) = completion else {
            self.failed = Some(proposal);
            return russcip::HeurResult::NoSolFound;
        };
        self.completed = true;
        try_original_point(scip, HEURISTIC_NAME, &self.originals, &point)
    }
}

/// Offers SCIP `values` (indexed like `Model::variables`, over `originals`, the
/// variables in SCIP's original space) as a solution found by the heuristic named
/// `heuristic`; SCIP checks it against every row and constraint handler before it
/// keeps it. Called from a heuristic's callback, in the SOLVING stage.
fn try_original_point(
    scip: *mut russcip::ffi::SCIP,
    heuristic: &str,
    originals: &[*mut russcip::ffi::SCIP_VAR],
    values: &[f64],
) -> russcip::HeurResult {
    use russcip::ffi;
    let Ok(name) = std::ffi::CString::new(heuristic) else { return russcip::HeurResult::NoSolFound };
    // SAFETY: the live instance in the SOLVING stage, where original-space solutions
    // may be created and tried; the heuristic is found by its own name; the solution
    // is freed by SCIPtrySolFree.
    unsafe {
        let heur = ffi::SCIPfindHeur(scip, name.as_ptr());
        let mut sol = std::ptr::null_mut();
        if ffi::SCIPcreateOrigSol(scip, &mut sol, heur) != ffi::SCIP_Retcode_SCIP_OKAY || sol.is_null() {
            return russcip::HeurResult::NoSolFound;
        }
        for (&var, &value) in originals.iter().zip(values) {
            ffi::SCIPsetSolVal(scip, sol, var, value);
        }
        let mut stored = 0;
        let code = ffi::SCIPtrySolFree(scip, &mut sol, 0, 0, 1, 1, 1, &mut stored);
        if code == ffi::SCIP_Retcode_SCIP_OKAY && stored != 0 {
            russcip::HeurResult::FoundSol
        } else {
            russcip::HeurResult::NoSolFound
        }
    }
}

/// SCIP's presolve sometimes only proves "infeasible or unbounded". Re-solving the
/// feasibility problem (zero objective) tells which: an infeasible model stays
/// infeasible; if it has a point, the objective must be unbounded. Runs under the
/// caller's [`concurrent_solve_guard`].
fn infeasible_or_unbounded(model: &Model, limits: &Limits) -> SolveError {
    let resolved = build(model, limits, false).and_then(|(scip, _)| run(scip, limits));
    match resolved {
        Ok(s) if s.status() == Status::Infeasible => SolveError::Infeasible,
        Ok(s) if s.n_sols() > 0 => SolveError::Unbounded,
        Ok(s) => SolveError::NoSolutionWithinLimits(format!("Inforunbd, then {:?} deciding which", s.status())),
        Err(e) => e,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::{Model, Sense, VarId, VarKind};

    const INF: f64 = f64::INFINITY;

    /// xorshift64: reproducible pseudo-random instances without a rand dependency.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// A multi-dimensional 0-1 knapsack: 200 items, 5 capacity rows at half the total
    /// weight. Easy to find solutions for, slow to prove optimal.
    fn hard_knapsack(seed: u64) -> Model {
        knapsack(seed, 200, 5)
    }

    /// `items` random items, `capacities` random capacity rows, each half the sum of its
    /// weights.
    fn knapsack(seed: u64, items: usize, capacities: usize) -> Model {
        let mut rng = Rng(seed);
        let mut m = Model::new("knapsack", Sense::Maximize);
        let xs: Vec<_> = (0..items).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for &x in &xs {
            m.add_objective_term(x, (rng.below(1000) + 1) as f64);
        }
        for r in 0..capacities {
            let weights: Vec<f64> = xs.iter().map(|_| (rng.below(1000) + 1) as f64).collect();
            let capacity = weights.iter().sum::<f64>() / 2.0;
            m.add_row(format!("cap{r}"), xs.iter().copied().zip(weights).collect(), -INF, capacity);
        }
        m
    }

    /// A weighted set cover: 250 sets, 150 elements, each element in 3 to 8 random sets.
    fn hard_set_cover(seed: u64) -> Model {
        let mut rng = Rng(seed);
        let mut m = Model::new("hard_set_cover", Sense::Minimize);
        let sets: Vec<_> = (0..250).map(|i| m.add_variable(format!("s{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for &s in &sets {
            m.add_objective_term(s, (rng.below(100) + 1) as f64);
        }
        for e in 0..150 {
            let k = 3 + rng.below(6);
            let terms = (0..k).map(|_| (sets[rng.below(250) as usize], 1.0)).collect();
            m.add_row(format!("cover{e}"), terms, 1.0, INF);
        }
        m
    }

    /// Market split (Cornuejols-Dawande): equality knapsacks whose few solutions are
    /// very hard to find. A planted solution rules out "infeasible".
    fn market_split(rows: usize, seed: u64) -> Model {
        let mut rng = Rng(seed);
        let n = 10 * (rows - 1);
        let mut m = Model::new("market_split", Sense::Minimize);
        let xs: Vec<_> = (0..n).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        let planted: Vec<bool> = (0..n).map(|_| rng.below(2) == 0).collect();
        for r in 0..rows {
            let a: Vec<f64> = (0..n).map(|_| rng.below(100) as f64).collect();
            let rhs: f64 = a.iter().zip(&planted).filter(|(_, p)| **p).map(|(a, _)| a).sum();
            m.add_row(format!("split{r}"), xs.iter().copied().zip(a).collect(), rhs, rhs);
        }
        m
    }

    /// The invariant every returned solution must satisfy, checked independently.
    fn assert_valid(model: &Model, s: &Solution) {
        check_feasible(model, &s.values, 1e-6).unwrap_or_else(|e| panic!("{}: {e}", model.name));
        let recomputed = model.objective_value(&s.values);
        assert!(
            (recomputed - s.objective).abs() <= 1e-6 * recomputed.abs().max(1.0),
            "{recomputed} vs {}",
            s.objective
        );
        assert!(s.solve_ms >= 0.0 && s.solve_ms.is_finite(), "solve_ms {}", s.solve_ms);
        assert!(s.gap >= 0.0, "gap {}", s.gap);
        if s.status == SolveStatus::Optimal {
            assert!(s.gap <= 1e-9, "optimal with gap {}", s.gap);
        }
        // No incumbent beats the dual bound.
        let slack = 1e-6 * s.objective.abs().max(1.0);
        match model.sense {
            Sense::Minimize => {
                assert!(s.dual_bound <= s.objective + slack, "bound {} above {}", s.dual_bound, s.objective)
            }
            Sense::Maximize => {
                assert!(s.dual_bound >= s.objective - slack, "bound {} below {}", s.dual_bound, s.objective)
            }
        }
    }

    /// A knapsack whose optimum is known by enumeration: the runtime is linked and works.
    #[test]
    fn solves_small_integer_program_to_optimality() {
        let mut m = Model::new("knapsack", Sense::Maximize);
        let weights = [3.0, 4.0, 5.0, 6.0];
        let values = [30.0, 50.0, 60.0, 70.0];
        let xs: Vec<_> = (0..4).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for (x, v) in xs.iter().zip(values) {
            m.add_objective_term(*x, v);
        }
        m.add_row("capacity", xs.iter().copied().zip(weights).collect(), f64::NEG_INFINITY, 10.0);
        let s = solve(&m, &Limits::default()).expect("solvable");
        // Best subsets of weight <= 10: {4,6} -> 120, {3,6} -> 100, {4,5} -> 110.
        assert_eq!(s.status, SolveStatus::Optimal);
        assert!((s.objective - 120.0).abs() < 1e-6, "objective {}", s.objective);
        let chosen: Vec<bool> = s.values.iter().map(|v| *v > 0.5).collect();
        assert_eq!(chosen, vec![false, true, false, true]);
        assert_valid(&m, &s);
        assert_eq!(s.gap, 0.0);
    }

    /// A partial start that fixes a tenth of the variables (SCIP's `completesol` ignores
    /// starts with more than 85 % unknown) is completed by a solve with those fixings:
    /// the result satisfies the model and keeps the start's values; a start that
    /// contradicts the model (or its bounds) is not completed.
    #[test]
    fn a_partial_start_is_completed_with_its_values_kept() {
        let mut m = Model::new("choose five", Sense::Minimize);
        let xs: Vec<_> = (0..20).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for (i, &x) in xs.iter().enumerate() {
            m.add_objective_term(x, (i % 7) as f64 + 1.0);
        }
        m.add_row("five", xs.iter().map(|&x| (x, 1.0)).collect(), 5.0, 5.0);
        let start = vec![(xs[0], 1.0), (xs[6], 1.0)];
        let values = completed_start(&m, Limits::default().time_seconds, &start, None).expect("completed");
        check_feasible(&m, &values, 1e-6).expect("a point of the model");
        assert_eq!((values[0], values[6]), (1.0, 1.0), "the start's values are kept");
        // The cheapest completion: x0 and x6 (costs 1 and 7), x7 and x14 (1 each), one of
        // cost 2.
        assert!((m.objective_value(&values) - 12.0).abs() < 1e-6, "{values:?}");
        let too_many: Vec<_> = xs[..6].iter().map(|&x| (x, 1.0)).collect();
        assert!(completed_start(&m, Limits::default().time_seconds, &too_many, None).is_none());
        assert!(completed_start(&m, Limits::default().time_seconds, &[(xs[1], 2.0)], None).is_none());
        let solved =
            solve_with(&m, &Limits::default(), Hooks { start, ..Hooks::default() }).expect("solved from the start");
        assert!((solved.objective - 7.0).abs() < 1e-6, "x0, x7 and x14, then two of cost 2: {}", solved.objective);
    }

    /// A knapsack of 40 items and 3 capacities: SCIP needs its LP for it.
    fn small_knapsack() -> Model {
        let mut m = Model::new("knapsack", Sense::Maximize);
        let mut rng = Rng(0x4e75_0001);
        let xs: Vec<_> = (0..40).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for &x in &xs {
            m.add_objective_term(x, (rng.below(100) + 1) as f64);
        }
        for r in 0..3 {
            let weights: Vec<f64> = xs.iter().map(|_| (rng.below(100) + 1) as f64).collect();
            let capacity = weights.iter().sum::<f64>() / 3.0;
            m.add_row(format!("cap{r}"), xs.iter().copied().zip(weights).collect(), -INF, capacity);
        }
        m
    }

    /// Records the points it is given and proposes a fixed partial solution, at most
    /// [`RECORDING_ATTEMPTS`] times.
    struct Recording(Rc<RefCell<Vec<Vec<f64>>>>, Vec<(VarId, f64)>);

    const RECORDING_ATTEMPTS: usize = 3;

    impl PrimalHeuristic for Recording {
        fn propose(&mut self, values: &[f64]) -> Vec<(VarId, f64)> {
            self.0.borrow_mut().push(values.to_vec());
            self.1.clone()
        }

        fn attempts(&self) -> usize {
            RECORDING_ATTEMPTS
        }
    }

    /// The caller's heuristic runs first at the root, on the root's LP solution (a point
    /// in the variables' bounds whose objective bounds the optimum); after a proposal
    /// that is completed it runs no more, after one that no point completes it runs again
    /// at the next nodes, as many times as it asks for in all; its proposals leave
    /// the optimum as it is.
    #[test]
    fn a_callers_heuristic_runs_at_the_root_and_again_only_after_a_failure() {
        let mut m = small_knapsack();
        // Without SCIP's heuristics and general cuts, the knapsack takes many nodes.
        (m.heuristics, m.general_cuts) = (Heuristics::WarmStartOnly, GeneralCuts::RootOnly);
        let plain = solve(&m, &Limits::default()).unwrap();
        for (proposal, completes) in [(vec![(VarId(0), 1.0), (VarId(1), 0.0)], true), (vec![(VarId(0), 2.0)], false)] {
            let seen = Rc::new(RefCell::new(Vec::new()));
            let hooks = Hooks { heuristic: Some(Box::new(Recording(seen.clone(), proposal))), ..Hooks::default() };
            let solved = solve_with(&m, &Limits::default(), hooks).unwrap();
            assert_eq!(solved.status, SolveStatus::Optimal);
            assert_valid(&m, &solved);
            assert!((solved.objective - plain.objective).abs() < 1e-6, "{} vs {}", solved.objective, plain.objective);
            let seen = seen.borrow();
            if completes {
                assert_eq!(seen.len(), 1, "called once");
            } else {
                // Once per node whose LP was solved, up to the limit: the knapsack takes
                // more nodes than that.
                assert!(solved.effort.nodes > RECORDING_ATTEMPTS as u64, "{} nodes", solved.effort.nodes);
                assert_eq!(seen.len(), RECORDING_ATTEMPTS, "called again after each failure, up to the limit");
            }
            assert!(seen.iter().all(|point| point.len() == m.variables.len()));
            assert!(seen.iter().flatten().all(|v| (-1e-9..=1.0 + 1e-9).contains(v)), "{seen:?}");
            assert!(m.objective_value(&seen[0]) >= plain.objective - 1e-6, "the LP bounds the optimum");
        }
    }

    /// The heuristic sets and cut frequencies reach SCIP as asked (every name in
    /// `SEARCHING_HEURISTICS` and `GENERAL_SEPARATORS` is SCIP's, or building would fail)
    /// and steer the search only: a knapsack of 40 items and 3 capacities has the same
    /// optimum under each.
    #[test]
    fn search_settings_switch_what_they_say_and_keep_the_optimum() {
        let mut m = small_knapsack();
        let settings = [
            (Heuristics::SolverDefault, GeneralCuts::SolverDefault),
            (Heuristics::WarmStartOnly, GeneralCuts::SolverDefault),
            (Heuristics::RoundingOnly, GeneralCuts::RootOnly),
        ];
        let mut optima = Vec::new();
        for (heuristics, general_cuts) in settings {
            (m.heuristics, m.general_cuts) = (heuristics, general_cuts);
            let (scip, _) = build(&m, &Limits::default(), true).expect("the settings are SCIP's");
            let heuristic = |name: &str| scip.int_param(&format!("heuristics/{name}/freq"));
            let separator = |name: &str| scip.int_param(&format!("separating/{name}/freq"));
            match heuristics {
                Heuristics::SolverDefault => assert!(heuristic("shifting") >= 0 && heuristic("oneopt") >= 0),
                Heuristics::WarmStartOnly => assert!(heuristic("oneopt") < 0 && heuristic("completesol") == 0),
                Heuristics::RoundingOnly => {
                    assert!(SEARCHING_HEURISTICS.iter().all(|name| heuristic(name) < 0));
                    assert!(heuristic("oneopt") >= 0 && heuristic("rounding") >= 0 && heuristic("completesol") == 0);
                }
            }
            match general_cuts {
                GeneralCuts::SolverDefault => assert!(GENERAL_SEPARATORS.iter().all(|name| separator(name) > 0)),
                GeneralCuts::RootOnly => assert!(GENERAL_SEPARATORS.iter().all(|name| separator(name) == 0)),
            }
            drop(scip);
            let solved = solve(&m, &Limits::default()).expect("solved");
            assert_eq!(solved.status, SolveStatus::Optimal);
            assert_valid(&m, &solved);
            optima.push(solved.objective);
        }
        assert!(optima.iter().all(|o| (o - optima[0]).abs() < 1e-6), "{optima:?}");
    }

    /// A settings file is read once the solve's own plugins are in (`run`), so that it
    /// reaches them too: SCIP skips a parameter it does not know yet, such as the
    /// frequency of the caller's separator before the separator is included.
    #[test]
    fn a_settings_file_reaches_the_callers_separator() {
        struct NoCuts;
        impl CutSeparator for NoCuts {
            fn separate(&mut self, _: &[f64]) -> Vec<Row> {
                Vec::new()
            }
        }
        let mut m = Model::new("one", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Binary, 0.0, 1.0);
        m.add_objective_term(x, 1.0);
        let (mut scip, vars) = build(&m, &Limits::default(), true).expect("built");
        let path = std::env::temp_dir().join(format!("fusion_solver_settings_{}.set", std::process::id()));
        std::fs::write(&path, format!("separating/{SEPARATOR_NAME}/freq = 7\n")).expect("written");
        let separator = ScipCutSeparator {
            originals: vars.iter().map(|v| v.inner()).collect(),
            transformed: None,
            inner: Box::new(NoCuts),
        };
        scip.include_separator(SEPARATOR_NAME, "none", SEPARATOR_PRIORITY, 1, 1.0, false, false, Box::new(separator));
        read_settings_file(&scip, Some(path.as_os_str())).expect("read");
        let _ = std::fs::remove_file(&path);
        assert_eq!(scip.int_param(&format!("separating/{SEPARATOR_NAME}/freq")), 7);
        let missing = std::env::temp_dir().join("fusion_solver_settings_that_do_not_exist.set");
        let error = read_settings_file(&scip, Some(missing.as_os_str())).expect_err("a missing file is an error");
        assert!(error.to_string().contains("cannot read"), "{error}");
    }

    /// Branching priorities and the branching rule steer the search only: a small
    /// knapsack (with an integer variable in it) has the same optimum with and without.
    #[test]
    fn branching_priorities_keep_the_optimum() {
        let mut m = Model::new("knapsack", Sense::Maximize);
        let mut rng = Rng(0x5eed_0b0b);
        let xs: Vec<_> = (0..30).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        let k = m.add_variable("k", VarKind::Integer, 0.0, 7.0);
        let mut weights = Vec::new();
        for &x in &xs {
            m.add_objective_term(x, (rng.below(100) + 1) as f64);
            weights.push((x, (rng.below(100) + 1) as f64));
        }
        m.add_objective_term(k, 13.0);
        weights.push((k, 37.0));
        let capacity = weights.iter().map(|(_, w)| w).sum::<f64>() / 3.0;
        m.add_row("cap", weights, -INF, capacity);
        let plain = solve(&m, &Limits::default()).unwrap();
        for (i, v) in m.variables.iter_mut().enumerate() {
            v.branch_priority = if i % 2 == 0 { 5 } else { -3 };
        }
        let steered = solve(&m, &Limits::default()).unwrap();
        m.branching = Branching::Inference;
        let inference = solve(&m, &Limits::default()).unwrap();
        m.branching = Branching::Reliability;
        let reliability = solve(&m, &Limits::default()).unwrap();
        for s in [&plain, &steered, &inference, &reliability] {
            assert_eq!(s.status, SolveStatus::Optimal);
            assert_valid(&m, s);
            assert!((plain.objective - s.objective).abs() < 1e-6, "{} vs {}", plain.objective, s.objective);
        }
    }

    /// Each branching rule reaches SCIP as the settings its documentation names.
    #[test]
    fn each_branching_rule_sets_its_parameters() {
        let mut m = Model::new("one", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Binary, 0.0, 1.0);
        m.add_objective_term(x, 1.0);
        for branching in [Branching::SolverDefault, Branching::Inference, Branching::Reliability] {
            m.branching = branching;
            let (scip, _) = build(&m, &Limits::default(), true).expect("built");
            let inference_first =
                scip.int_param("branching/inference/priority") > scip.int_param("branching/relpscost/priority");
            assert_eq!(inference_first, branching == Branching::Inference, "{branching:?}");
            let capped = scip.int_param("branching/relpscost/sbiterofs") == STRONG_BRANCHING_ITERATIONS
                && scip.real_param("branching/relpscost/sbiterquot") == STRONG_BRANCHING_SHARE;
            assert_eq!(capped, branching == Branching::Reliability, "{branching:?}");
        }
    }

    #[test]
    fn reports_infeasible_models_without_panicking() {
        let mut m = Model::new("infeasible", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Integer, 0.0, 10.0);
        m.add_row("low", vec![(x, 1.0)], 11.0, f64::INFINITY);
        assert_eq!(solve(&m, &Limits::default()), Err(SolveError::Infeasible));
    }

    /// The limit may or may not strike first depending on the machine; either way the
    /// answer must be a feasible point labelled honestly.
    #[test]
    fn time_limit_returns_incumbent_or_optimum_knapsack() {
        let limits = Limits { time_seconds: 0.05, relative_gap: 0.0, threads: 1, nodes: None };
        for seed in [0x5eed_0001, 0x5eed_0002] {
            let m = hard_knapsack(seed);
            let s = solve(&m, &limits).expect("a knapsack always has the empty solution");
            assert!(matches!(s.status, SolveStatus::Optimal | SolveStatus::LimitReached));
            assert_valid(&m, &s);
            // Generous: the limit is wall-clock and SCIP checks it often.
            assert!(s.solve_ms < 10_000.0, "took {} ms", s.solve_ms);
        }
    }

    /// The search effort is SCIP's own count, and one thread makes the same search
    /// every time: a knapsack of 40 items and three capacities, which needs branching,
    /// solved twice, reports the same nodes and iterations, more than the root's one
    /// node.
    #[test]
    fn search_effort_is_counted_and_repeatable() {
        let limits = Limits { time_seconds: 600.0, relative_gap: 0.0, threads: 1, nodes: None };
        let m = knapsack(0x5eed_0003, 40, 3);
        let first = solve(&m, &limits).expect("a knapsack always has the empty solution");
        let second = solve(&m, &limits).expect("a knapsack always has the empty solution");
        assert_eq!(first.status, SolveStatus::Optimal);
        assert!(first.effort.nodes > 1 && first.effort.lp_iterations > 0, "{:?}", first.effort);
        assert_eq!(first.effort, second.effort);
        assert_eq!(first.values, second.values);
    }

    /// A node limit ends a search at the same point whatever the time limit: the
    /// knapsack above, which needs more than three nodes, stopped after three comes back
    /// as the same feasible incumbent, labelled a limit, under time limits of 600 s and 30 s.
    #[test]
    fn a_node_limit_ends_the_search_at_the_same_point() {
        let m = knapsack(0x5eed_0003, 40, 3);
        let full = solve(&m, &Limits { time_seconds: 600.0, ..Limits::default() }).expect("solved");
        assert!(full.effort.nodes > 3, "{:?}", full.effort);
        let stopped: Vec<Solution> = [600.0, 30.0]
            .into_iter()
            .map(|time_seconds| {
                solve(&m, &Limits { time_seconds, nodes: Some(3), ..Limits::default() }).expect("an incumbent")
            })
            .collect();
        for s in &stopped {
            assert_eq!(s.status, SolveStatus::LimitReached);
            assert!(s.effort.nodes <= 3, "{:?}", s.effort);
            assert_valid(&m, s);
        }
        assert_eq!(stopped[0].effort, stopped[1].effort);
        assert_eq!(stopped[0].values, stopped[1].values);
    }

    #[test]
    fn time_limit_returns_incumbent_or_optimum_set_cover() {
        let limits = Limits { time_seconds: 0.05, relative_gap: 0.0, threads: 1, nodes: None };
        let m = hard_set_cover(0xc0fe_0001);
        match solve(&m, &limits) {
            Ok(s) => {
                assert!(matches!(s.status, SolveStatus::Optimal | SolveStatus::LimitReached));
                assert_valid(&m, &s);
            }
            // Elements whose random sets all coincide cannot make it infeasible (each has
            // at least one set), so the only other honest answer is "no solution yet".
            Err(e) => assert!(matches!(e, SolveError::NoSolutionWithinLimits(_)), "{e}"),
        }
    }

    /// Without any incumbent at the limit the error says so. Market split instances
    /// defeat SCIP's heuristics; with a zero time limit nothing is found in practice, and
    /// if a (very) fast machine does find the planted point it must be valid.
    #[test]
    fn time_limit_without_incumbent_is_no_solution_error() {
        let m = market_split(5, 99);
        match solve(&m, &Limits { time_seconds: 0.0, relative_gap: 0.0, threads: 1, nodes: None }) {
            Err(SolveError::NoSolutionWithinLimits(status)) => assert_eq!(status, "TimeLimit"),
            Ok(s) => assert_valid(&m, &s),
            Err(e) => panic!("unexpected {e}"),
        }
    }

    /// A requested gap stops early, and that counts as optimal (within the gap).
    #[test]
    fn relative_gap_limit_counts_as_optimal() {
        let m = hard_knapsack(0x5eed_0003);
        let s = solve(&m, &Limits { time_seconds: 10.0, relative_gap: 0.05, threads: 1, nodes: None }).unwrap();
        check_feasible(&m, &s.values, 1e-6).unwrap();
        if s.status == SolveStatus::Optimal {
            assert!(s.gap <= 0.05, "gap {}", s.gap);
        }
    }

    /// `threads` is accepted for every value (clamped to SCIP's 1..=64), and more than
    /// one thread (SCIP's concurrent solver) still gives valid, optimal answers.
    #[test]
    fn threads_are_accepted_and_give_the_same_optimum() {
        let m = hard_knapsack(0x5eed_0004);
        let mut small = Model::new("small", Sense::Maximize);
        let xs: Vec<_> = (0..4).map(|i| small.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for (x, v) in xs.iter().zip([30.0, 50.0, 60.0, 70.0]) {
            small.add_objective_term(*x, v);
        }
        small.add_row("capacity", xs.iter().copied().zip([3.0, 4.0, 5.0, 6.0]).collect(), -INF, 10.0);
        for threads in [-3, 0, 1, 2, 4, 1000] {
            let s = solve(&small, &Limits { threads, ..Limits::default() }).unwrap();
            assert_eq!(s.status, SolveStatus::Optimal, "threads {threads}");
            assert!((s.objective - 120.0).abs() < 1e-6, "threads {threads}: {}", s.objective);
            let s = solve(&m, &Limits { time_seconds: 0.05, relative_gap: 0.0, threads, nodes: None }).unwrap();
            assert_valid(&m, &s);
        }
    }

    /// A separator is called even when more threads are asked for: the solve then runs
    /// in one thread (SCIP's concurrent copies would drop it).
    #[test]
    fn a_separator_runs_when_threads_are_asked_for() {
        struct Counting(std::sync::Arc<std::sync::atomic::AtomicUsize>);
        impl CutSeparator for Counting {
            fn separate(&mut self, _: &[f64]) -> Vec<Row> {
                self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                Vec::new()
            }
        }
        let m = hard_knapsack(0x5eed_0020);
        let calls = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let limits = Limits { time_seconds: 0.3, relative_gap: 0.0, threads: 2, nodes: None };
        let hooks = Hooks {
            separator: Some(Box::new(Counting(calls.clone()))),
            start: Vec::new(),
            lazy: false,
            heuristic: None,
        };
        assert_eq!(sequential_with_separator(&limits, &hooks).threads, 1);
        let s = solve_with(&m, &limits, hooks).unwrap();
        assert_valid(&m, &s);
        assert!(calls.load(std::sync::atomic::Ordering::Relaxed) > 0, "the separator was never called");
        let without = Hooks::default();
        assert_eq!(sequential_with_separator(&limits, &without).threads, 2);
    }

    /// The separator plugin passes the depth of SCIP's node: the root's LP at depth 0,
    /// and the LPs of nodes below it deeper (a knapsack that needs branching).
    #[test]
    fn the_separator_learns_the_depth_of_each_node() {
        struct Depths(std::rc::Rc<std::cell::RefCell<Vec<usize>>>);
        impl CutSeparator for Depths {
            fn separate(&mut self, _: &[f64]) -> Vec<Row> {
                panic!("the plugin calls separate_at_depth")
            }
            fn separate_at_depth(&mut self, _: &[f64], depth: usize) -> Vec<Row> {
                self.0.borrow_mut().push(depth);
                Vec::new()
            }
        }
        let m = knapsack(0x5eed_0030, 60, 5);
        let depths = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
        let hooks = Hooks {
            separator: Some(Box::new(Depths(depths.clone()))),
            start: Vec::new(),
            lazy: false,
            heuristic: None,
        };
        let s = solve_with(&m, &Limits::default(), hooks).unwrap();
        assert_eq!(s.status, SolveStatus::Optimal);
        let depths = depths.borrow();
        assert!(depths.contains(&0), "never called at the root: {depths:?}");
        assert!(depths.iter().any(|&d| d > 0), "never called below the root: {depths:?}");
    }

    /// The rows "no two neighbours on a path" given only by a separator.
    pub(crate) struct PathPacking(pub(crate) Vec<VarId>);

    impl CutSeparator for PathPacking {
        fn separate(&mut self, values: &[f64]) -> Vec<Row> {
            self.0
                .windows(2)
                .filter(|w| values[w[0].0] + values[w[1].0] > 1.0 + 1e-6)
                .map(|w| Row {
                    name: "neighbours".into(),
                    terms: vec![(w[0], 1.0), (w[1], 1.0)],
                    lower: f64::NEG_INFINITY,
                    upper: 1.0,
                })
                .collect()
        }
    }

    /// Lazy rows are constraints: the model alone would take every variable (SCIP's
    /// presolve fixes them all to 1 without an LP, so a separator alone never sees the
    /// point), the lazy rows allow every other one. It also checks the handler's locks:
    /// SCIP's dual reductions are on in these solves, and without the locks its dual
    /// fixing would set every variable to 1, leaving no point the lazy rows accept.
    #[test]
    fn lazy_rows_are_enforced_on_every_accepted_solution() {
        let mut m = Model::new("path_packing", Sense::Maximize);
        let xs: Vec<VarId> = (0..7).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for &x in &xs {
            m.add_objective_term(x, 1.0);
        }
        let solve_path = |lazy: bool| {
            let hooks =
                Hooks { separator: Some(Box::new(PathPacking(xs.clone()))), start: Vec::new(), lazy, heuristic: None };
            solve_with(&m, &Limits::default(), hooks).unwrap()
        };
        let s = solve_path(true);
        assert_eq!(s.status, SolveStatus::Optimal);
        assert!((s.objective - 4.0).abs() < 1e-6, "objective {}", s.objective);
        for w in xs.windows(2) {
            assert!(s.values[w[0].0] + s.values[w[1].0] <= 1.0 + 1e-6, "neighbours both taken: {:?}", s.values);
        }
        // Without the handler the separator's rows are only cuts, and this point never
        // reaches it: what the test above guards against.
        assert!((solve_path(false).objective - 7.0).abs() < 1e-6);
        // A start that violates the lazy rows is rejected, not taken as the incumbent.
        let start = xs.iter().map(|&x| (x, 1.0)).collect();
        let hooks = Hooks { separator: Some(Box::new(PathPacking(xs.clone()))), start, lazy: true, heuristic: None };
        assert!((solve_with(&m, &Limits::default(), hooks).unwrap().objective - 4.0).abs() < 1e-6);
    }

    /// What the lazy rows' separator implies at a node reaches SCIP: a fixing holds in
    /// the answer. Three free binaries, each worth 1; SCIP's heuristics are off, so only
    /// the search's own points count.
    #[test]
    fn lazy_rows_propagation_fixes_what_it_implies() {
        struct Implies(Propagation, std::rc::Rc<std::cell::Cell<usize>>);
        impl CutSeparator for Implies {
            fn separate(&mut self, _: &[f64]) -> Vec<Row> {
                Vec::new()
            }
            fn propagate(&mut self, _: &[f64], _: &[f64]) -> Propagation {
                self.1.set(self.1.get() + 1);
                self.0.clone()
            }
        }
        let mut m = Model::new("free", Sense::Maximize);
        m.heuristics = Heuristics::WarmStartOnly;
        let xs: Vec<VarId> = (0..3).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for &x in &xs {
            m.add_objective_term(x, 1.0);
        }
        let run = |implied: Propagation| {
            let calls = std::rc::Rc::new(std::cell::Cell::new(0));
            let hooks = Hooks {
                separator: Some(Box::new(Implies(implied, calls.clone()))),
                start: Vec::new(),
                lazy: true,
                heuristic: None,
            };
            (solve_with(&m, &Limits::default(), hooks), calls.get())
        };
        let (s, calls) = run(Propagation::Nothing);
        assert!((s.unwrap().objective - 3.0).abs() < 1e-6);
        assert!(calls > 0, "the propagation was never called");
        let (s, _) = run(Propagation::Fixings(vec![(xs[0], 0.0)]));
        let s = s.unwrap();
        assert!((s.objective - 2.0).abs() < 1e-6 && s.values[xs[0].0] < 0.5, "{s:?}");
    }

    /// Threaded solves from several caller threads at once must not share SCIP's
    /// global thread pool unsafely (they are serialized), and sequential ones run freely.
    #[test]
    fn threaded_solves_from_parallel_callers_do_not_interfere() {
        let handles: Vec<_> = (0..4)
            .map(|i| {
                std::thread::spawn(move || {
                    let m = hard_knapsack(0x5eed_0010 + i);
                    let threads = if i < 3 { 2 } else { 1 };
                    let s = solve(&m, &Limits { time_seconds: 0.05, relative_gap: 0.0, threads, nodes: None }).unwrap();
                    assert_valid(&m, &s);
                })
            })
            .collect();
        for h in handles {
            h.join().unwrap();
        }
    }

    #[test]
    fn invalid_models_are_rejected_before_scip() {
        let base = || {
            let mut m = Model::new("base", Sense::Minimize);
            let x = m.add_variable("x", VarKind::Integer, 0.0, 4.0);
            m.add_objective_term(x, 1.0);
            m.add_row("r", vec![(x, 1.0)], 1.0, INF);
            m
        };
        type Corruption = Box<dyn Fn(&mut Model)>;
        let cases: Vec<(&str, Corruption)> = vec![
            ("row `r` (#0): coefficient of `x` is NaN", Box::new(|m| m.rows[0].terms[0].1 = f64::NAN)),
            ("row `r` (#0): coefficient of `x` is inf", Box::new(|m| m.rows[0].terms[0].1 = INF)),
            ("row `r` (#0): coefficient of `x` is 100000000000000000000", Box::new(|m| m.rows[0].terms[0].1 = 1e20)),
            ("row `r` (#0): side is NaN", Box::new(|m| m.rows[0].upper = f64::NAN)),
            ("row `r` (#0): lower side inf is +infinity", Box::new(|m| m.rows[0].lower = INF)),
            ("row `r` (#0): refers to variable #3", Box::new(|m| m.rows[0].terms.push((VarId(3), 1.0)))),
            ("variable `x` (#0): bound is NaN", Box::new(|m| m.variables[0].lower = f64::NAN)),
            ("variable `x` (#0): upper bound -inf is -infinity", Box::new(|m| m.variables[0].upper = -INF)),
            ("objective: coefficient of `x` is NaN", Box::new(|m| m.objective[0].1 = f64::NAN)),
            ("objective: refers to variable #9", Box::new(|m| m.add_objective_term(VarId(9), 1.0))),
        ];
        for (expected, corrupt) in cases {
            let mut m = base();
            corrupt(&mut m);
            match solve(&m, &Limits::default()) {
                Err(SolveError::InvalidModel(msg)) => assert!(msg.starts_with(expected), "{msg:?} vs {expected:?}"),
                other => panic!("{expected}: got {other:?}"),
            }
        }
        let nan_time = Limits { time_seconds: f64::NAN, ..Limits::default() };
        assert!(matches!(solve(&base(), &nan_time), Err(SolveError::InvalidModel(_))));
        // Infinite and negative limits are clamped, not errors.
        let s = solve(&base(), &Limits { time_seconds: INF, relative_gap: -1.0, threads: 1, nodes: None }).unwrap();
        assert_eq!(s.objective, 1.0);
    }

    #[test]
    fn degenerate_models_solve_without_panicking() {
        let empty = Model::new("empty", Sense::Maximize);
        let s = solve(&empty, &Limits::default()).unwrap();
        assert_eq!((s.status, s.objective, s.values.len()), (SolveStatus::Optimal, 0.0, 0));

        let mut trivially_true = Model::new("empty_row", Sense::Minimize);
        let x = trivially_true.add_variable("x", VarKind::Continuous, -1.0, 1.0);
        trivially_true.add_objective_term(x, 1.0);
        trivially_true.add_row("nothing", vec![], -1.0, 0.0);
        let s = solve(&trivially_true, &Limits::default()).unwrap();
        assert_eq!(s.objective, -1.0);

        let mut never = Model::new("violated_empty_row", Sense::Minimize);
        never.add_row("never", vec![], 1.0, INF);
        assert_eq!(solve(&never, &Limits::default()), Err(SolveError::Infeasible));

        // SCIP accepts duplicate names (it keys nothing on them); only the LP writer renames.
        let mut dup = Model::new("duplicates", Sense::Maximize);
        let a = dup.add_variable("x", VarKind::Integer, 0.0, 3.0);
        let b = dup.add_variable("x", VarKind::Integer, 0.0, 3.0);
        dup.add_objective_term(a, 1.0);
        dup.add_objective_term(b, 2.0);
        dup.add_objective_term(a, 1.0);
        dup.add_row("c", vec![(a, 1.0), (b, 1.0)], -INF, 4.0);
        dup.add_row("c", vec![(a, 1.0), (a, 1.0)], -INF, 2.0);
        let s = solve(&dup, &Limits::default()).unwrap();
        // 2a + 2b with a + b <= 4 and 2a <= 2: any a in {0, 1} with b = 4 - a, b <= 3.
        assert_eq!(s.objective, 8.0);
        assert_valid(&dup, &s);

        let mut inverted = Model::new("inverted", Sense::Minimize);
        inverted.add_variable("x", VarKind::Continuous, 3.0, 1.0);
        assert_eq!(solve(&inverted, &Limits::default()), Err(SolveError::Infeasible));
        let mut inverted_row = Model::new("inverted_row", Sense::Minimize);
        let x = inverted_row.add_variable("x", VarKind::Continuous, 0.0, 10.0);
        inverted_row.add_row("r", vec![(x, 1.0)], 5.0, 4.0);
        assert_eq!(solve(&inverted_row, &Limits::default()), Err(SolveError::Infeasible));

        // A binary given wide bounds through the public fields is still 0/1.
        let mut wide = Model::new("wide_binary", Sense::Maximize);
        let b = wide.add_variable("b", VarKind::Binary, 0.0, 1.0);
        wide.variables[0].upper = 7.0;
        wide.add_objective_term(b, 1.0);
        assert_eq!(solve(&wide, &Limits::default()).unwrap().objective, 1.0);
    }

    #[test]
    fn unbounded_and_infeasible_or_unbounded_are_told_apart() {
        let mut ray = Model::new("ray", Sense::Maximize);
        let x = ray.add_variable("x", VarKind::Continuous, 0.0, INF);
        ray.add_objective_term(x, 1.0);
        assert_eq!(solve(&ray, &Limits::default()), Err(SolveError::Unbounded));

        let mut int_ray = Model::new("int_ray", Sense::Minimize);
        let x = int_ray.add_variable("x", VarKind::Integer, -INF, INF);
        let y = int_ray.add_variable("y", VarKind::Integer, 0.0, 5.0);
        int_ray.add_objective_term(x, 1.0);
        int_ray.add_row("a", vec![(x, 1.0), (y, 1.0)], -INF, 3.0);
        assert_eq!(solve(&int_ray, &Limits::default()), Err(SolveError::Unbounded));

        // SCIP's presolve answers "infeasible or unbounded" here (x is a free ray, y is
        // contradictory); the follow-up feasibility solve must say infeasible.
        let mut both = Model::new("both", Sense::Maximize);
        let x = both.add_variable("x", VarKind::Continuous, -INF, INF);
        let y = both.add_variable("y", VarKind::Continuous, -INF, INF);
        both.add_objective_term(x, 1.0);
        both.add_row("a", vec![(y, 1.0)], 1.0, INF);
        both.add_row("b", vec![(y, 1.0)], -INF, 0.0);
        assert_eq!(solve(&both, &Limits::default()), Err(SolveError::Infeasible));
        assert_eq!(solve(&both, &Limits { threads: 2, ..Limits::default() }), Err(SolveError::Infeasible));
    }

    #[test]
    fn continuous_and_mixed_models_are_checked() {
        // min x + 2y  s.t.  x + y >= 2.5, x - y <= 1, x in [0, 10] continuous, y integer.
        let mut m = Model::new("mixed", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Continuous, 0.0, 10.0);
        let y = m.add_variable("y", VarKind::Integer, -INF, INF);
        m.add_objective_term(x, 1.0);
        m.add_objective_term(y, 2.0);
        m.add_row("sum", vec![(x, 1.0), (y, 1.0)], 2.5, INF);
        m.add_row("diff", vec![(x, 1.0), (y, -1.0)], -INF, 1.0);
        let s = solve(&m, &Limits::default()).unwrap();
        // y = 1 forces x >= 1.5 and x <= 2: objective 3.5; y = 2 gives x >= 0.5: 4.5.
        assert!((s.objective - 3.5).abs() < 1e-6, "{}", s.objective);
        assert_valid(&m, &s);
    }
}
