//! Writing a [`Model`] in the CPLEX LP file format.
//!
//! Why: an LP file is the lingua franca of MILP solvers. Dumping the fusion ILP lets
//! a developer re-solve it with the SCIP shell, CPLEX, Gurobi or HiGHS, diff two
//! compiler runs, attach it to a bug report, and snapshot-test the model builder,
//! all without linking any solver.
//!
//! The output is deterministic (sections and items in model order) and portable:
//!
//! * names are sanitized to the format's character set (letters, digits and
//!   `` !"#$%&()/,.;?@_`'{}|~ ``), never start with a digit or a period, never spell
//!   a section keyword (`end`, `bounds`, `inf`, ...), are at most [`MAX_NAME_LEN`]
//!   characters, and are made unique by deterministic renaming; [`LpNames`] maps the
//!   model's items to the names written;
//! * a ranged row `lower <= expr <= upper` becomes two rows `name_lo: expr >= lower`
//!   and `name_hi: expr <= upper` (the SCIP reader has no range syntax), an equality
//!   row `name: expr = v`, and a row with both sides infinite is left out;
//! * numbers print so that they read back to the same `f64` (integers without `.0`,
//!   extreme magnitudes in exponent notation); values at or beyond
//!   [`INFINITE_BOUND`] are infinite;
//! * no line is longer than [`MAX_LINE_LEN`] characters.

use crate::model::{INFINITE_BOUND, Model, Sense, VarId, VarKind};
use std::collections::HashSet;
use std::path::Path;

/// Longest name written. The format allows 255; 200 leaves room for a coefficient
/// and separators, so a term never has to be split across lines.
pub const MAX_NAME_LEN: usize = 200;

/// Longest line written (CPLEX's reader limit is 255 characters a line).
pub const MAX_LINE_LEN: usize = 254;

/// The name of the objective in the file; reserved in the row namespace.
pub const OBJECTIVE_NAME: &str = "obj";

/// Words the LP readers treat as section keywords or values, compared
/// case-insensitively; a name spelling one is renamed (prefixed with `_`).
#[rustfmt::skip]
const RESERVED: &[&str] = &[
    "minimize", "minimise", "minimum", "min", "maximize", "maximise", "maximum", "max", "subject", "such", "st",
    "st.", "s.t.", "lazy", "user", "bound", "bounds", "general", "generals", "gen", "integer", "integers", "int",
    "binary", "binaries", "bin", "semi", "semis", "semi-continuous", "sos", "end", "free", "inf", "infinity",
];

/// Which names the written file uses for the model's items.
///
/// Why: sanitizing and de-duplicating names changes some of them; a caller that reads
/// a solution file or a solver log of the LP file needs to map the names back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LpNames {
    /// The name of each variable, indexed like `Model::variables`.
    pub variables: Vec<String>,
    /// The names of the rows written for each model row, indexed like `Model::rows`:
    /// empty for a row with both sides infinite (left out), one name for a one-sided
    /// or equality row, `[name_lo, name_hi]` for a ranged row.
    pub rows: Vec<Vec<String>>,
}

/// Renders `model` as a CPLEX LP file.
///
/// The writer does not validate: a model that [`Model::validate`] rejects is still
/// written without panicking (a dangling variable index prints as
/// `_invalid_var_<index>`, NaN prints as `NaN`), behind a `\ WARNING` comment, so
/// broken models can be inspected too.
pub fn write_lp(model: &Model) -> String {
    write_lp_with_names(model).0
}

/// Writes [`write_lp`]'s text to `path`.
pub fn write_lp_file(model: &Model, path: impl AsRef<Path>) -> std::io::Result<()> {
    std::fs::write(path, write_lp(model))
}

/// [`write_lp`] together with the names the text uses.
pub fn write_lp_with_names(model: &Model) -> (String, LpNames) {
    let names = lp_names(model);
    let mut out = String::new();
    out.push_str(&format!("\\ Problem: {}\n", comment_text(&model.name)));
    if let Err(problem) = model.validate() {
        out.push_str(&format!("\\ WARNING: invalid model: {}\n", comment_text(&problem)));
    }
    let var_name = |id: VarId| -> String {
        names.variables.get(id.0).cloned().unwrap_or_else(|| format!("_invalid_var_{}", id.0))
    };
    // Variables the file mentions outside the Bounds section; the others get an
    // explicit bound so that readers create them (General/Binary only accept known names).
    let mut mentioned = vec![false; model.variables.len()];

    out.push_str(match model.sense {
        Sense::Minimize => "Minimize\n",
        Sense::Maximize => "Maximize\n",
    });
    let mut line = Line::new(&mut out);
    line.word(&format!("{OBJECTIVE_NAME}:"));
    for (i, (id, coef)) in merge_terms(&model.objective).into_iter().enumerate() {
        if let Some(m) = mentioned.get_mut(id.0) {
            *m = true;
        }
        line.word(&term(i == 0, coef, &var_name(id)));
    }
    line.finish();

    out.push_str("Subject To\n");
    for (row, row_names) in model.rows.iter().zip(&names.rows) {
        if row_names.is_empty() {
            continue;
        }
        let mut terms = merge_terms(&row.terms);
        if terms.is_empty() {
            // A row needs at least one term to parse; `0 x` keeps an empty row (and its
            // possible infeasibility, e.g. `0 >= 1`) without changing its meaning.
            if !model.variables.is_empty() {
                terms.push((VarId(0), 0.0));
            }
        }
        for (id, _) in &terms {
            if let Some(m) = mentioned.get_mut(id.0) {
                *m = true;
            }
        }
        let sides: Vec<(&str, f64)> = match (is_finite_side(row.lower), is_finite_side(row.upper)) {
            (true, true) if row.lower == row.upper => vec![("=", row.lower)],
            (true, true) => vec![(">=", row.lower), ("<=", row.upper)],
            (true, false) => vec![(">=", row.lower)],
            (false, true) => vec![("<=", row.upper)],
            (false, false) => vec![],
        };
        for (name, (op, side)) in row_names.iter().zip(sides) {
            let mut line = Line::new(&mut out);
            line.word(&format!("{name}:"));
            for (i, &(id, coef)) in terms.iter().enumerate() {
                line.word(&term(i == 0, coef, &var_name(id)));
            }
            line.word(&format!("{op} {}", number(side)));
            line.finish();
        }
    }

    let mut bounds = Vec::new();
    for (i, v) in model.variables.iter().enumerate() {
        let name = &names.variables[i];
        let (lower, upper) = model.effective_bounds(VarId(i));
        let lower_inf = lower <= -INFINITE_BOUND;
        let upper_inf = upper >= INFINITE_BOUND;
        let statements: Vec<String> = if v.kind == VarKind::Binary && lower <= 0.0 && upper >= 1.0 {
            // The Binary section implies [0, 1].
            if mentioned[i] { vec![] } else { vec![format!("0 <= {name} <= 1")] }
        } else if lower == upper {
            vec![format!("{name} = {}", number(lower))]
        } else if lower_inf && upper_inf {
            vec![format!("{name} free")]
        } else if lower_inf {
            vec![format!("-inf <= {name} <= {}", number(upper))]
        } else if upper_inf {
            if lower == 0.0 && mentioned[i] { vec![] } else { vec![format!("{name} >= {}", number(lower))] }
        } else {
            let both = format!("{} <= {name} <= {}", number(lower), number(upper));
            if both.len() < MAX_LINE_LEN {
                vec![both]
            } else {
                vec![format!("{name} >= {}", number(lower)), format!("{name} <= {}", number(upper))]
            }
        };
        bounds.extend(statements);
    }
    if !bounds.is_empty() {
        out.push_str("Bounds\n");
        for b in bounds {
            out.push_str(&format!(" {b}\n"));
        }
    }

    for (section, kind) in [("General", VarKind::Integer), ("Binary", VarKind::Binary)] {
        let members: Vec<&String> =
            model.variables.iter().zip(&names.variables).filter(|(v, _)| v.kind == kind).map(|(_, n)| n).collect();
        if members.is_empty() {
            continue;
        }
        out.push_str(section);
        out.push('\n');
        let mut line = Line::new(&mut out);
        for name in members {
            line.word(name);
        }
        line.finish();
    }
    out.push_str("End\n");
    (out, names)
}

/// The names [`write_lp`] uses for `model`'s variables and rows.
///
/// Renaming is deterministic: first every name that is already legal claims itself
/// (first occurrence wins), then the others, in model order, take their sanitized
/// form or, if that is taken, the sanitized form plus `_1`, `_2`, ... (a ranged row
/// takes the first base whose `_lo` and `_hi` forms are both free). Variables and
/// rows are separate namespaces; [`OBJECTIVE_NAME`] is reserved among rows.
pub fn lp_names(model: &Model) -> LpNames {
    let variables = unique_names(model.variables.iter().map(|v| (v.name.as_str(), &[""][..])), &[]);
    let suffixes: Vec<&[&str]> = model
        .rows
        .iter()
        .map(|r| match (is_finite_side(r.lower), is_finite_side(r.upper)) {
            (false, false) => &[][..],
            (true, true) if r.lower != r.upper => &["_lo", "_hi"][..],
            _ => &[""][..],
        })
        .collect();
    let rows = unique_names(model.rows.iter().map(|r| r.name.as_str()).zip(suffixes), &[OBJECTIVE_NAME]);
    let variables = variables.into_iter().map(|mut v| v.pop().unwrap_or_default()).collect();
    LpNames { variables, rows }
}

/// `name` restricted to the LP format's name syntax: illegal characters become `_`;
/// a name that is empty, starts with a digit or a period, or spells a keyword gets a
/// leading `_`; the result is cut to [`MAX_NAME_LEN`] characters.
pub fn sanitize_name(name: &str) -> String {
    const PUNCTUATION: &str = "!\"#$%&()/,.;?@_`'{}|~";
    let mut s: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || PUNCTUATION.contains(c) { c } else { '_' }).collect();
    let lower = s.to_ascii_lowercase();
    let needs_prefix = match s.chars().next() {
        None => true,
        Some(c) => {
            c.is_ascii_digit()
                || c == '.'
                || RESERVED.contains(&lower.as_str())
                // strtod, which readers use to recognise numbers, also accepts these.
                || lower == "nan"
                || (lower.starts_with("nan(") && lower.ends_with(')'))
        }
    };
    if needs_prefix {
        s.insert(0, '_');
    }
    s.truncate(MAX_NAME_LEN);
    s
}

/// Assigns each item a base name such that `base + suffix` is unused for all of the
/// item's suffixes; items with no suffixes get nothing. Returns the full names.
fn unique_names<'a>(items: impl Iterator<Item = (&'a str, &'a [&'a str])>, reserved: &[&str]) -> Vec<Vec<String>> {
    let items: Vec<(&str, &[&str])> = items.collect();
    let mut taken: HashSet<String> = reserved.iter().map(|s| s.to_string()).collect();
    let mut result: Vec<Option<Vec<String>>> = vec![None; items.len()];
    let claim = |taken: &mut HashSet<String>, base: &str, suffixes: &[&str]| -> Option<Vec<String>> {
        let full: Vec<String> = suffixes.iter().map(|s| format!("{base}{s}")).collect();
        if full.iter().any(|n| taken.contains(n)) {
            return None;
        }
        taken.extend(full.iter().cloned());
        Some(full)
    };
    // Pass 1: names that are already legal and written as they are keep themselves.
    for (slot, &(raw, suffixes)) in result.iter_mut().zip(&items) {
        if suffixes == [""] && sanitize_name(raw) == raw {
            *slot = claim(&mut taken, raw, suffixes);
        }
    }
    // Pass 2: everything else (sanitized, duplicate or suffixed), renamed until free.
    for (slot, &(raw, suffixes)) in result.iter_mut().zip(&items) {
        if slot.is_some() {
            continue;
        }
        let longest = suffixes.iter().map(|s| s.len()).max().unwrap_or(0);
        let base = sanitize_name(raw);
        let mut k = 0usize;
        loop {
            let counter = if k == 0 { String::new() } else { format!("_{k}") };
            let mut candidate = base.clone();
            candidate.truncate(MAX_NAME_LEN - longest - counter.len());
            candidate.push_str(&counter);
            if let Some(full) = claim(&mut taken, &candidate, suffixes) {
                *slot = Some(full);
                break;
            }
            k += 1;
        }
    }
    result.into_iter().map(|r| r.unwrap_or_default()).collect()
}

/// `s` for a `\` comment: one line, at most [`MAX_NAME_LEN`] bytes.
fn comment_text(s: &str) -> String {
    let mut text = String::new();
    for c in s.chars().map(|c| if c.is_control() { ' ' } else { c }) {
        if text.len() + c.len_utf8() > MAX_NAME_LEN {
            break;
        }
        text.push(c);
    }
    text
}

fn is_finite_side(x: f64) -> bool {
    x.abs() < INFINITE_BOUND || x.is_nan()
}

/// Sums repeated variables (keeping first-occurrence order), since some readers
/// reject a variable twice in one row.
fn merge_terms(terms: &[(VarId, f64)]) -> Vec<(VarId, f64)> {
    let mut merged: Vec<(VarId, f64)> = Vec::with_capacity(terms.len());
    let mut position: std::collections::HashMap<VarId, usize> = std::collections::HashMap::new();
    for &(id, coef) in terms {
        match position.get(&id) {
            Some(&i) => merged[i].1 += coef,
            None => {
                position.insert(id, merged.len());
                merged.push((id, coef));
            }
        }
    }
    merged
}

/// `3 x`, `- x`, `+ 0.5 y`: a signed term; the sign is a separate token so that the
/// coefficient itself is unsigned, and a unit coefficient is left out.
fn term(first: bool, coef: f64, name: &str) -> String {
    let sign = if coef.is_sign_negative() && coef != 0.0 {
        "-"
    } else if first {
        ""
    } else {
        "+"
    };
    let magnitude = coef.abs();
    let body = if magnitude == 1.0 { name.to_string() } else { format!("{} {name}", number(magnitude)) };
    if sign.is_empty() { body } else { format!("{sign} {body}") }
}

/// Shortest text that reads back as `x`: integers without `.0`, decimals for
/// moderate magnitudes, exponent notation (`1e-7`, `2.5e17`) otherwise; infinities
/// as `inf`/`-inf`.
pub fn number(x: f64) -> String {
    if x == 0.0 {
        "0".to_string()
    } else if x >= INFINITE_BOUND {
        "inf".to_string()
    } else if x <= -INFINITE_BOUND {
        "-inf".to_string()
    } else if (1e-4..1e15).contains(&x.abs()) || x.is_nan() {
        // Display is the shortest round-tripping decimal and omits `.0`.
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

/// Accumulates space-separated words into lines of at most [`MAX_LINE_LEN`]
/// characters, indented by one space. Words are whole terms (`+ 3 x`), so a
/// continuation line starts with a sign or an operator, never with a name that a
/// reader could take for a row label.
struct Line<'a> {
    out: &'a mut String,
    len: usize,
}

impl<'a> Line<'a> {
    fn new(out: &'a mut String) -> Self {
        Self { out, len: 0 }
    }

    fn word(&mut self, w: &str) {
        if self.len > 0 && self.len + 1 + w.len() > MAX_LINE_LEN {
            self.out.push('\n');
            self.len = 0;
        }
        self.out.push(' ');
        self.out.push_str(w);
        self.len += 1 + w.len();
    }

    fn finish(self) {
        if self.len > 0 {
            self.out.push('\n');
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scip::{Limits, SolveError, SolveStatus, solve};
    use russcip::prelude::ModelWithProblem;
    use std::path::PathBuf;
    use std::sync::atomic::{AtomicUsize, Ordering};

    const INF: f64 = f64::INFINITY;

    /// A fresh path in the system temp directory (no tempfile crate needed).
    fn temp_lp_path(tag: &str) -> PathBuf {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        std::env::temp_dir().join(format!("fusion-solver-{}-{n}-{tag}.lp", std::process::id()))
    }

    /// What SCIP makes of an LP file: status, objective, number of variables and rows.
    struct ReadBack {
        status: russcip::Status,
        objective: f64,
        n_vars: usize,
        n_conss: usize,
    }

    fn solve_lp_file(path: &Path) -> ReadBack {
        let problem = russcip::Model::new()
            .hide_output()
            .include_default_plugins()
            .set_bool_param("misc/catchctrlc", false)
            .unwrap()
            .read_prob(path.to_str().unwrap())
            .unwrap_or_else(|e| panic!("SCIP could not read {}: {e:?}", path.display()));
        let (n_vars, n_conss) = (problem.n_vars(), problem.n_conss());
        let solved = problem.solve();
        ReadBack { status: solved.status(), objective: solved.obj_val(), n_vars, n_conss }
    }

    /// Writes `model`, has SCIP read the file back and solve it, and checks that it
    /// agrees with solving the in-memory model: same optimum (or both infeasible), and
    /// every variable and every written row present.
    fn assert_round_trip(model: &Model) -> String {
        let path = temp_lp_path(&model.name);
        write_lp_file(model, &path).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let back = solve_lp_file(&path);
        std::fs::remove_file(&path).unwrap();
        let names = lp_names(model);
        assert_eq!(back.n_vars, model.variables.len(), "variables lost in\n{text}");
        assert_eq!(back.n_conss, names.rows.iter().map(Vec::len).sum::<usize>(), "rows lost in\n{text}");
        match solve(model, &Limits::default()) {
            Ok(direct) => {
                assert_eq!(direct.status, SolveStatus::Optimal);
                assert_eq!(back.status, russcip::Status::Optimal, "file:\n{text}");
                let scale = 1f64.max(direct.objective.abs());
                assert!(
                    (back.objective - direct.objective).abs() <= 1e-6 * scale,
                    "in memory {} vs from file {}; file:\n{text}",
                    direct.objective,
                    back.objective
                );
            }
            Err(SolveError::Infeasible) => {
                assert!(
                    matches!(back.status, russcip::Status::Infeasible | russcip::Status::Inforunbd),
                    "in memory infeasible, from file {:?}; file:\n{text}",
                    back.status
                );
            }
            Err(e) => panic!("in-memory solve failed: {e}"),
        }
        for line in text.lines() {
            assert!(line.len() <= MAX_LINE_LEN, "line of {} chars: {line}", line.len());
        }
        text
    }

    /// Binary knapsack, maximized.
    fn knapsack() -> Model {
        let mut m = Model::new("knapsack", Sense::Maximize);
        let xs: Vec<_> = (0..4).map(|i| m.add_variable(format!("x{i}"), VarKind::Binary, 0.0, 1.0)).collect();
        for (x, v) in xs.iter().zip([30.0, 50.0, 60.0, 70.0]) {
            m.add_objective_term(*x, v);
        }
        m.add_row("capacity", xs.iter().copied().zip([3.0, 4.0, 5.0, 6.0]).collect(), -INF, 10.0);
        m
    }

    /// Every bound and row shape: ranged, equality, one-sided, free row; negative,
    /// free, fixed, half-infinite and default bounds; all three variable kinds.
    fn mixed() -> Model {
        let mut m = Model::new("mixed bounds", Sense::Minimize);
        let a = m.add_variable("a", VarKind::Integer, -5.0, 5.0);
        let b = m.add_variable("b", VarKind::Continuous, -INF, INF);
        let c = m.add_variable("c", VarKind::Continuous, 3.0, 3.0);
        let d = m.add_variable("d", VarKind::Integer, 0.0, INF);
        let e = m.add_variable("e", VarKind::Binary, 0.0, 1.0);
        let f = m.add_variable("f", VarKind::Continuous, -INF, -1.5);
        let g = m.add_variable("g", VarKind::Integer, -2.0, INF);
        m.add_objective_term(a, 1.0);
        m.add_objective_term(b, 0.5);
        m.add_objective_term(d, 2.0);
        m.add_objective_term(e, -3.0);
        m.add_objective_term(f, -1.0);
        m.add_objective_term(g, 1.25);
        m.add_row("range", vec![(a, 1.0), (b, 1.0)], -2.5, 4.0);
        m.add_row("equal", vec![(b, 1.0), (c, -1.0), (d, 1.0)], 1.0, 1.0);
        m.add_row("atleast", vec![(a, -2.0), (e, 7.0), (g, 1.0)], -6.0, INF);
        m.add_row("atmost", vec![(f, 1.0), (d, 1.0), (g, 0.1)], -INF, 2.0);
        m.add_row("free", vec![(a, 1.0)], -INF, INF);
        m
    }

    /// Names that need sanitizing or renaming, an empty row, repeated terms, and a
    /// variable used nowhere.
    fn awkward_names() -> Model {
        let mut m = Model::new("awkward\nnames", Sense::Minimize);
        let x0 = m.add_variable("x[0]", VarKind::Integer, 0.0, 4.0);
        let lit = m.add_variable("x_0_", VarKind::Integer, 0.0, 4.0);
        let first = m.add_variable("1st", VarKind::Continuous, 0.0, 10.0);
        let end = m.add_variable("end", VarKind::Binary, 0.0, 1.0);
        let dup_a = m.add_variable("dup", VarKind::Continuous, 0.0, 2.0);
        let dup_b = m.add_variable("dup", VarKind::Continuous, 0.0, 2.0);
        let _unused = m.add_variable("unused var", VarKind::Integer, 0.0, INF);
        m.add_objective_term(x0, 1.0);
        m.add_objective_term(lit, 1.0);
        m.add_objective_term(first, -0.25);
        m.add_objective_term(end, 1.0);
        m.add_objective_term(dup_a, -1.0);
        m.add_objective_term(dup_b, -1.0);
        m.add_objective_term(x0, 1.0);
        m.add_row("obj", vec![(x0, 1.0), (lit, 1.0), (x0, 1.0)], 3.0, INF);
        m.add_row("r", vec![(first, 1.0), (end, -10.0)], -5.0, 5.0);
        m.add_row("r_lo", vec![(dup_a, 1.0), (dup_b, 1.0)], -INF, 3.0);
        m.add_row("empty", vec![], -1.0, 1.0);
        m
    }

    #[test]
    fn snapshot_knapsack() {
        insta::assert_snapshot!(write_lp(&knapsack()));
    }

    #[test]
    fn snapshot_mixed_bounds_and_rows() {
        insta::assert_snapshot!(write_lp(&mixed()));
    }

    #[test]
    fn snapshot_awkward_names() {
        insta::assert_snapshot!(write_lp(&awkward_names()));
    }

    #[test]
    fn scip_reads_back_knapsack() {
        assert_round_trip(&knapsack());
    }

    #[test]
    fn scip_reads_back_mixed_bounds_and_rows() {
        assert_round_trip(&mixed());
    }

    #[test]
    fn scip_reads_back_awkward_names() {
        assert_round_trip(&awkward_names());
    }

    #[test]
    fn scip_reads_back_infeasible_empty_row() {
        let mut m = Model::new("empty_infeasible", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Integer, 0.0, 3.0);
        m.add_objective_term(x, 1.0);
        m.add_row("never", vec![], 1.0, INF);
        let text = assert_round_trip(&m);
        assert!(text.contains(" never: 0 x >= 1\n"), "{text}");
    }

    #[test]
    fn scip_reads_back_model_without_variables() {
        let mut m = Model::new("nothing", Sense::Maximize);
        m.add_row("trivial", vec![], -INF, 0.0);
        let text = assert_round_trip(&m);
        assert_eq!(text, "\\ Problem: nothing\nMaximize\n obj:\nSubject To\n trivial: <= 0\nEnd\n");
    }

    #[test]
    fn scip_reads_back_extreme_coefficients() {
        let mut m = Model::new("numbers", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Continuous, 1e-7, 1.0 / 3.0);
        let y = m.add_variable("y", VarKind::Continuous, -1e6, 2.5e15);
        let z = m.add_variable("z", VarKind::Integer, -7.0, 123456789.0);
        m.add_objective_term(x, 0.1);
        m.add_objective_term(y, 1e-5);
        m.add_objective_term(z, 3.0);
        m.add_row("small", vec![(x, 1e-3), (y, 2e-6), (z, 1.0)], -1e4 / 3.0, 1e7);
        m.add_row("mixed_signs", vec![(x, -1.0), (y, 1.0), (z, -0.5)], -12.75, INF);
        assert_round_trip(&m);
    }

    #[test]
    fn long_names_and_rows_wrap_below_the_line_limit() {
        let mut m = Model::new("long", Sense::Minimize);
        let stem = "v".repeat(300);
        let xs: Vec<_> =
            (0..40).map(|i| m.add_variable(format!("{stem}{i}"), VarKind::Integer, -1.0 - i as f64, 10.0)).collect();
        for (i, x) in xs.iter().enumerate() {
            m.add_objective_term(*x, 1.0 + i as f64 / 7.0);
        }
        m.add_row("r".repeat(400), xs.iter().map(|&x| (x, -1.0 / 3.0)).collect(), -100.0, 50.0);
        let text = assert_round_trip(&m);
        let names = lp_names(&m);
        assert!(names.variables.iter().all(|n| n.len() <= MAX_NAME_LEN));
        assert_eq!(names.variables.iter().collect::<HashSet<_>>().len(), 40, "truncated names must stay unique");
        assert_eq!(names.rows[0].len(), 2);
        assert!(text.lines().count() > 40);
    }

    #[test]
    fn sanitizing_keeps_legal_names_and_fixes_the_rest() {
        assert_eq!(sanitize_name("fuse_3_4"), "fuse_3_4");
        assert_eq!(sanitize_name("a!\"#$%&()/,.;?@_`'{}|~z"), "a!\"#$%&()/,.;?@_`'{}|~z");
        assert_eq!(sanitize_name("x[1] + y-2:z"), "x_1____y_2_z");
        assert_eq!(sanitize_name("3d"), "_3d");
        assert_eq!(sanitize_name(".hidden"), "_.hidden");
        assert_eq!(sanitize_name(""), "_");
        assert_eq!(sanitize_name("naïve"), "na_ve");
        for keyword in ["End", "st", "S.T.", "inf", "Infinity", "free", "bin", "General", "nan", "NaN(1)"] {
            assert_eq!(sanitize_name(keyword), format!("_{keyword}"));
        }
        assert_eq!(sanitize_name("ending"), "ending");
        assert_eq!(sanitize_name(&"n".repeat(300)).len(), MAX_NAME_LEN);
    }

    #[test]
    fn renaming_is_deterministic_and_prefers_literal_names() {
        let m = awkward_names();
        let names = lp_names(&m);
        assert_eq!(names.variables, ["x_0__1", "x_0_", "_1st", "_end", "dup", "dup_1", "unused_var"]);
        let rows: Vec<Vec<&str>> = names.rows.iter().map(|r| r.iter().map(String::as_str).collect()).collect();
        assert_eq!(rows, [vec!["obj_1"], vec!["r_1_lo", "r_1_hi"], vec!["r_lo"], vec!["empty_lo", "empty_hi"]]);
        assert_eq!(lp_names(&m), names);
        assert_eq!(write_lp(&m), write_lp(&m));
    }

    #[test]
    fn numbers_round_trip_without_noise() {
        for (x, text) in [
            (3.0, "3"),
            (-12.0, "-12"),
            (0.5, "0.5"),
            (-0.0, "0"),
            (1e-7, "1e-7"),
            (2.5e17, "2.5e17"),
            (123456789.0, "123456789"),
            (1e20, "inf"),
            (f64::NEG_INFINITY, "-inf"),
        ] {
            assert_eq!(number(x), text);
        }
        for x in [0.1, 1.0 / 3.0, -2.0f64.sqrt(), 1e-300, 6.02e23 / 1e5, 1e15, 0.0001, 9.999e14 + 0.5] {
            assert_eq!(number(x).parse::<f64>().unwrap(), x, "{}", number(x));
        }
    }

    #[test]
    fn invalid_models_are_written_without_panicking() {
        let mut m = Model::new("broken", Sense::Minimize);
        let x = m.add_variable("x", VarKind::Continuous, f64::NAN, 1.0);
        m.add_objective_term(VarId(7), 1.0);
        m.add_row("nan", vec![(x, f64::NAN)], 0.0, 1.0);
        let text = write_lp(&m);
        assert!(text.contains("\\ WARNING: invalid model:"), "{text}");
        assert!(text.contains("_invalid_var_7"), "{text}");
    }
}
