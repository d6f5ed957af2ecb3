//! The solver-neutral model: variables with bounds, linear rows, a linear objective.
//!
//! Plain data on purpose: the fusion analysis builds it without knowing the solver, so
//! it can be printed ([`crate::lp`]), compared in tests, checked
//! ([`Model::validate`], [`check_feasible`]) and solved by any backend.

/// Index of a variable in its [`Model`] (a position in `Model::variables`), so rows
/// and the objective refer to variables cheaply and without lifetimes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub usize);

/// Domain of a variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarKind {
    /// Any real value within the bounds (e.g. a cost or a slack).
    Continuous,
    /// Any integer within the bounds.
    Integer,
    /// 0 or 1 (bounds are intersected with `[0, 1]`): a yes/no decision such as
    /// "fuse these two loops".
    Binary,
}

/// One variable: a name (used in LP files and diagnostics), its kind and bounds.
#[derive(Clone, Debug, PartialEq)]
pub struct Variable {
    /// Diagnostic name. Need not be unique or legal in any file format: SCIP ignores
    /// it for solving and the LP writer sanitizes and de-duplicates it.
    pub name: String,
    /// Continuous, integer or binary.
    pub kind: VarKind,
    /// Lower bound; `f64::NEG_INFINITY` (or anything `<= -1e20`) for none.
    pub lower: f64,
    /// Upper bound; `f64::INFINITY` (or anything `>= 1e20`) for none.
    pub upper: f64,
    /// Branching priority (0 unless set): a branch-and-bound solver branches on the
    /// fractional variables of the highest priority first. A hint only: it changes
    /// the search, never the optimum.
    pub branch_priority: i32,
}

/// One linear row `lower <= sum(coef * var) <= upper` (either side may be infinite).
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// Diagnostic name, like [`Variable::name`]; named in infeasibility reports.
    pub name: String,
    /// `(variable, coefficient)` pairs; a variable may repeat (coefficients add up).
    pub terms: Vec<(VarId, f64)>,
    /// Left-hand side; `f64::NEG_INFINITY` for none.
    pub lower: f64,
    /// Right-hand side; `f64::INFINITY` for none. Equal to `lower` for an equation.
    pub upper: f64,
}

/// Direction of optimisation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sense {
    /// Find the smallest objective value (e.g. memory traffic).
    Minimize,
    /// Find the largest objective value (e.g. the benefit of fusions).
    Maximize,
}

/// How a branch-and-bound solver picks the variable to branch on. A hint: it changes
/// the search, never the optimum.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Branching {
    /// The solver's own rule (SCIP: reliability pseudo-cost branching).
    #[default]
    SolverDefault,
    /// Inference branching: the fractional variable whose earlier fixings implied the
    /// most other fixings. Suits models whose binaries imply one another in long chains.
    Inference,
    /// Reliability pseudo-cost branching (SCIP's default rule) with its strong branching
    /// capped at 10 000 simplex iterations plus a fifth of the node LPs' (SCIP allows
    /// 100 000 plus half): strong branching picks better variables near the root, which
    /// shrinks the trees of the hardest proofs, at a price the easy ones feel.
    Reliability,
}

/// Which primal heuristics a branch-and-bound solver runs. A hint: heuristics only find
/// solutions, so they change the search and the incumbents found before a limit, never
/// the optimum or a proof of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Heuristics {
    /// The solver's own set.
    #[default]
    SolverDefault,
    /// Only the one that completes a given partial solution (SCIP's `completesol`, which
    /// turns the caller's warm start into an incumbent); the others are off.
    WarmStartOnly,
    /// The heuristics that round an LP point or polish a solution, and the one that
    /// completes a warm start (SCIP: simple rounding, rounding, trivial, one-opt,
    /// `completesol`, and those off by default); the diving, shifting, randomised
    /// rounding and large-neighbourhood ones are off. For models whose [`crate::Hooks::lazy`]
    /// rows those heuristics cannot see, so that most of their points are rejected.
    RoundingOnly,
}

/// Where a branch-and-bound solver runs its general-purpose cutting planes (SCIP: Gomory,
/// zero-half and aggregation/c-MIR cuts). A hint: valid cuts never change the optimum,
/// only the bound at each node and the time a node takes. A caller's own separator
/// (`crate::CutSeparator`) runs at every node either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GeneralCuts {
    /// The solver's own frequencies (SCIP: at the root and every tenth depth).
    #[default]
    SolverDefault,
    /// At the root only.
    RootOnly,
}

/// A mixed-integer linear program.
#[derive(Clone, Debug, PartialEq)]
pub struct Model {
    /// Problem name, shown in LP files and SCIP diagnostics.
    pub name: String,
    /// Whether the objective is minimized or maximized.
    pub sense: Sense,
    /// The variables; a [`VarId`] indexes this vector.
    pub variables: Vec<Variable>,
    /// The constraints, in the order they are written and reported.
    pub rows: Vec<Row>,
    /// Sparse objective coefficients, in insertion order; a variable may repeat
    /// (coefficients add up).
    pub objective: Vec<(VarId, f64)>,
    /// The branching rule to ask the solver for.
    pub branching: Branching,
    /// The primal heuristics to ask the solver for.
    pub heuristics: Heuristics,
    /// Where the solver's general-purpose cutting planes run.
    pub general_cuts: GeneralCuts,
}

impl Model {
    /// An empty model: no variables, rows or objective terms yet.
    pub fn new(name: impl Into<String>, sense: Sense) -> Self {
        Self {
            name: name.into(),
            sense,
            variables: Vec::new(),
            rows: Vec::new(),
            objective: Vec::new(),
            branching: Branching::SolverDefault,
            heuristics: Heuristics::SolverDefault,
            general_cuts: GeneralCuts::SolverDefault,
        }
    }

    /// Adds a variable and returns its id. Binary bounds are intersected with `[0, 1]`.
    /// Names should be unique for readable diagnostics, but duplicates are harmless
    /// (SCIP accepts them; the LP writer renames them).
    pub fn add_variable(&mut self, name: impl Into<String>, kind: VarKind, lower: f64, upper: f64) -> VarId {
        let (lower, upper) = match kind {
            VarKind::Binary => (lower.max(0.0), upper.min(1.0)),
            _ => (lower, upper),
        };
        self.variables.push(Variable { name: name.into(), kind, lower, upper, branch_priority: 0 });
        VarId(self.variables.len() - 1)
    }

    /// Adds the row `lower <= terms <= upper`.
    pub fn add_row(&mut self, name: impl Into<String>, terms: Vec<(VarId, f64)>, lower: f64, upper: f64) {
        self.rows.push(Row { name: name.into(), terms, lower, upper });
    }

    /// Adds `coef * var` to the objective.
    pub fn add_objective_term(&mut self, var: VarId, coef: f64) {
        self.objective.push((var, coef));
    }

    /// The variable behind `id`, e.g. to print its name next to a solution value.
    /// Panics if `id` does not belong to this model (ids only come from `add_variable`).
    pub fn variable(&self, id: VarId) -> &Variable {
        &self.variables[id.0]
    }
}

/// Magnitude at and beyond which a bound or row side means "infinite".
///
/// SCIP (`numerics/infinity`) and the CPLEX LP format both use 1e20; sharing the
/// threshold keeps the in-memory solve, the LP writer and [`check_feasible`] in
/// agreement about which sides are absent.
pub const INFINITE_BOUND: f64 = 1e20;

fn is_neg_inf(x: f64) -> bool {
    x <= -INFINITE_BOUND
}

fn is_pos_inf(x: f64) -> bool {
    x >= INFINITE_BOUND
}

impl Model {
    /// Bounds of variable `id` as a solver sees them: binaries intersected with `[0, 1]`.
    ///
    /// The fields of [`Variable`] are public, so a binary may carry wider bounds than
    /// [`Model::add_variable`] would allow; every consumer must apply the same rule.
    /// Panics if `id` does not belong to this model.
    pub fn effective_bounds(&self, id: VarId) -> (f64, f64) {
        let v = &self.variables[id.0];
        match v.kind {
            VarKind::Binary => (v.lower.max(0.0), v.upper.min(1.0)),
            _ => (v.lower, v.upper),
        }
    }

    /// Checks that the model can be handed to a solver: no NaN, no infinite
    /// coefficient, no bound or side on the wrong infinity, no dangling [`VarId`].
    ///
    /// Why: SCIP asserts or misbehaves on such input (a NaN coefficient silently
    /// poisons the LP), so [`crate::scip::solve`] rejects it up front with a message
    /// naming the offending item. Inverted finite bounds (`lower > upper`) are *not*
    /// errors: they describe an infeasible model and solve reports it as such.
    pub fn validate(&self) -> Result<(), String> {
        let n = self.variables.len();
        for (i, v) in self.variables.iter().enumerate() {
            let what = || format!("variable `{}` (#{i})", v.name);
            if v.lower.is_nan() || v.upper.is_nan() {
                return Err(format!("{}: bound is NaN ([{}, {}])", what(), v.lower, v.upper));
            }
            if is_pos_inf(v.lower) {
                return Err(format!("{}: lower bound {} is +infinity", what(), v.lower));
            }
            if is_neg_inf(v.upper) {
                return Err(format!("{}: upper bound {} is -infinity", what(), v.upper));
            }
        }
        let check_term = |owner: &dyn Fn() -> String, id: VarId, coef: f64| -> Result<(), String> {
            if id.0 >= n {
                return Err(format!("{}: refers to variable #{} but the model has {n}", owner(), id.0));
            }
            if !coef.is_finite() || coef.abs() >= INFINITE_BOUND {
                let name = &self.variables[id.0].name;
                return Err(format!("{}: coefficient of `{name}` is {coef}", owner()));
            }
            Ok(())
        };
        for (i, row) in self.rows.iter().enumerate() {
            let what = || format!("row `{}` (#{i})", row.name);
            if row.lower.is_nan() || row.upper.is_nan() {
                return Err(format!("{}: side is NaN ([{}, {}])", what(), row.lower, row.upper));
            }
            if is_pos_inf(row.lower) {
                return Err(format!("{}: lower side {} is +infinity", what(), row.lower));
            }
            if is_neg_inf(row.upper) {
                return Err(format!("{}: upper side {} is -infinity", what(), row.upper));
            }
            for &(id, coef) in &row.terms {
                check_term(&what, id, coef)?;
            }
        }
        for &(id, coef) in &self.objective {
            check_term(&|| "objective".to_string(), id, coef)?;
        }
        Ok(())
    }

    /// The objective `sum(coef * value)` at `values` (indexed like `variables`).
    ///
    /// Why: callers and the solver guard compare it with the solver's reported
    /// objective; terms naming a missing variable count as zero instead of panicking.
    pub fn objective_value(&self, values: &[f64]) -> f64 {
        self.objective.iter().map(|&(id, c)| c * values.get(id.0).copied().unwrap_or(0.0)).sum()
    }
}

/// Whether `a <= b` fails by more than `tol`, measured relative to
/// `max(1, |a|, |b|)` exactly like SCIP's `SCIPisFeasLE` (its feasibility checks are
/// relative, so an absolute test would reject solutions SCIP rightly accepts).
pub(crate) fn violates_le(a: f64, b: f64, tol: f64) -> bool {
    (a - b) / 1f64.max(a.abs()).max(b.abs()) > tol
}

/// Checks that `values` (indexed like `model.variables`) is a feasible point of
/// `model`: every bound and row side holds within the relative tolerance `tol`
/// (as in SCIP: violation divided by `max(1, |activity|, |side|)`), and every
/// integer or binary variable is within `tol` (absolute) of an integer.
///
/// Why: a solver bug or a translation bug in a backend must never reach the fusion
/// decisions; [`crate::scip::solve`] runs this on every solution it returns, and tests
/// use it to check solutions independently of the solver. Sides and bounds at or
/// beyond [`INFINITE_BOUND`] are absent. The error names the first violated item.
pub fn check_feasible(model: &Model, values: &[f64], tol: f64) -> Result<(), String> {
    if values.len() != model.variables.len() {
        return Err(format!("{} values for {} variables", values.len(), model.variables.len()));
    }
    for (i, (v, &x)) in model.variables.iter().zip(values).enumerate() {
        let what = || format!("variable `{}` (#{i})", v.name);
        if !x.is_finite() {
            return Err(format!("{} has value {x}", what()));
        }
        let (lower, upper) = model.effective_bounds(VarId(i));
        if !is_neg_inf(lower) && violates_le(lower, x, tol) {
            return Err(format!("{}: value {x} < lower bound {lower}", what()));
        }
        if !is_pos_inf(upper) && violates_le(x, upper, tol) {
            return Err(format!("{}: value {x} > upper bound {upper}", what()));
        }
        if v.kind != VarKind::Continuous && (x - x.round()).abs() > tol {
            return Err(format!("{}: value {x} is not integral", what()));
        }
    }
    for (i, row) in model.rows.iter().enumerate() {
        let what = || format!("row `{}` (#{i})", row.name);
        let mut activity = 0.0;
        for &(id, coef) in &row.terms {
            match values.get(id.0) {
                Some(x) => activity += coef * x,
                None => return Err(format!("{}: refers to missing variable #{}", what(), id.0)),
            }
        }
        if activity.is_nan() {
            return Err(format!("{}: activity is NaN", what()));
        }
        if !is_neg_inf(row.lower) && violates_le(row.lower, activity, tol) {
            return Err(format!("{}: activity {activity} < lower side {}", what(), row.lower));
        }
        if !is_pos_inf(row.upper) && violates_le(activity, row.upper, tol) {
            return Err(format!("{}: activity {activity} > upper side {}", what(), row.upper));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const INF: f64 = f64::INFINITY;

    /// x integer in [0, 4], y continuous free, b binary; 1 <= x + y <= 3, y - 2b = 0.5.
    fn model() -> Model {
        let mut m = Model::new("check", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Integer, 0.0, 4.0);
        let y = m.add_variable("y", VarKind::Continuous, -INF, INF);
        let b = m.add_variable("b", VarKind::Binary, 0.0, 1.0);
        m.add_objective_term(x, 1.0);
        m.add_row("range", vec![(x, 1.0), (y, 1.0)], 1.0, 3.0);
        m.add_row("link", vec![(y, 1.0), (b, -2.0)], 0.5, 0.5);
        m
    }

    #[test]
    fn check_feasible_accepts_feasible_points_within_tolerance() {
        let m = model();
        assert_eq!(check_feasible(&m, &[0.0, 2.5, 1.0], 1e-6), Ok(()));
        assert_eq!(check_feasible(&m, &[2.0, 0.5, 0.0], 1e-6), Ok(()));
        // Off by less than the tolerance: bounds, integrality and rows all pass.
        assert_eq!(check_feasible(&m, &[-1e-7, 2.5 + 1e-7, 1.0 - 1e-7], 1e-6), Ok(()));
    }

    #[test]
    fn check_feasible_names_the_first_violation() {
        let m = model();
        let err = |values: &[f64]| check_feasible(&m, values, 1e-6).unwrap_err();
        assert_eq!(err(&[5.0, -2.5, 1.0]), "variable `x` (#0): value 5 > upper bound 4");
        assert_eq!(err(&[1.5, 0.5, 0.0]), "variable `x` (#0): value 1.5 is not integral");
        assert_eq!(err(&[0.0, 0.5, 0.0]), "row `range` (#0): activity 0.5 < lower side 1");
        assert_eq!(err(&[3.0, 2.5, 1.0]), "row `range` (#0): activity 5.5 > upper side 3");
        assert_eq!(err(&[1.0, 1.0, 0.0]), "row `link` (#1): activity 1 > upper side 0.5");
        assert_eq!(err(&[1.0, 0.5, 2.0]), "variable `b` (#2): value 2 > upper bound 1");
        assert_eq!(err(&[1.0, f64::NAN, 0.0]), "variable `y` (#1) has value NaN");
        assert_eq!(err(&[1.0, 0.5]), "2 values for 3 variables");
    }

    /// Like SCIP, the tolerance is relative to the magnitude of the compared values.
    #[test]
    fn check_feasible_tolerance_is_relative() {
        let mut m = Model::new("big", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Continuous, 0.0, INF);
        m.add_row("big", vec![(x, 1.0)], -INF, 1e9);
        assert_eq!(check_feasible(&m, &[1e9 + 100.0], 1e-6), Ok(()));
        assert!(check_feasible(&m, &[1e9 + 10_000.0], 1e-6).is_err());
    }

    #[test]
    fn check_feasible_uses_binary_bounds_even_if_fields_are_wider() {
        let mut m = model();
        m.variables[2].upper = 5.0;
        assert!(check_feasible(&m, &[1.0, 4.5, 2.0], 1e-6).is_err());
    }

    #[test]
    fn validate_accepts_infinite_bounds_and_inverted_finite_ones() {
        let mut m = model();
        assert_eq!(m.validate(), Ok(()));
        m.variables[0].lower = 5.0; // lower > upper: infeasible, not invalid
        m.rows[0].upper = -1e30; // beyond 1e20 counts as -infinity: invalid
        assert_eq!(
            m.validate(),
            Err("row `range` (#0): upper side -1000000000000000000000000000000 is -infinity".into())
        );
    }

    #[test]
    fn objective_value_sums_repeated_terms_and_ignores_missing_variables() {
        let mut m = model();
        m.add_objective_term(VarId(0), 2.0);
        m.add_objective_term(VarId(9), 100.0);
        assert_eq!(m.objective_value(&[2.0, 0.0, 0.0]), 6.0);
    }
}
