//! Property test of the whole solver path: random small MILPs (at most 6 integer or
//! binary variables in [0, 4], at most 5 rows of every shape) are solved by SCIP and
//! by brute-force enumeration, and the answers must agree. Any translation bug in
//! `scip.rs` (a dropped term, a swapped side, a wrong sense or bound) shows up as a
//! different optimum or a wrong infeasibility verdict. The same model also goes
//! through the LP writer and SCIP's LP reader, which must give the same optimum.

use fusion_solver::{
    Limits, Model, Sense, SolveError, SolveStatus, VarId, VarKind, check_feasible, solve, write_lp_file,
};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use std::sync::atomic::{AtomicUsize, Ordering};

const INF: f64 = f64::INFINITY;

/// Row shapes, so that every side combination the translation handles is drawn.
#[derive(Clone, Copy, Debug)]
enum Shape {
    AtMost,
    AtLeast,
    Equal,
    Ranged,
    Free,
}

#[derive(Clone, Debug)]
struct Spec {
    maximize: bool,
    /// (binary?, lower, upper) with 0 <= lower <= upper <= 4 (upper <= 1 for binaries).
    vars: Vec<(bool, i32, i32)>,
    /// Objective coefficients in halves, one per variable.
    objective: Vec<i32>,
    rows: Vec<RowSpec>,
}

/// Terms (variable, coefficient in halves; repeats allowed), shape, two sides in halves.
type RowSpec = (Vec<(usize, i32)>, Shape, i32, i32);

fn spec() -> impl Strategy<Value = Spec> {
    let var = (any::<bool>(), 0..=4i32, 0..=4i32).prop_map(|(binary, a, b)| {
        let top = if binary { 1 } else { 4 };
        let (lo, hi) = (a.min(b).min(top), a.max(b).min(top));
        (binary, lo, hi)
    });
    (1..=6usize).prop_flat_map(move |n| {
        let shape = prop_oneof![
            Just(Shape::AtMost),
            Just(Shape::AtLeast),
            Just(Shape::Equal),
            Just(Shape::Ranged),
            Just(Shape::Free)
        ];
        let row = (prop::collection::vec((0..n, -8..=8i32), 0..=n + 1), shape, -20..=40i32, -20..=40i32);
        (
            any::<bool>(),
            prop::collection::vec(var.clone(), n),
            prop::collection::vec(-10..=10i32, n),
            prop::collection::vec(row, 0..=5),
        )
            .prop_map(|(maximize, vars, objective, rows)| Spec { maximize, vars, objective, rows })
    })
}

fn half(k: i32) -> f64 {
    k as f64 / 2.0
}

fn build(spec: &Spec) -> Model {
    let sense = if spec.maximize { Sense::Maximize } else { Sense::Minimize };
    let mut m = Model::new("random", sense);
    for (i, &(binary, lo, hi)) in spec.vars.iter().enumerate() {
        let kind = if binary { VarKind::Binary } else { VarKind::Integer };
        let id = m.add_variable(format!("x{i}"), kind, lo as f64, hi as f64);
        m.add_objective_term(id, half(spec.objective[i]));
    }
    for (r, (terms, shape, a, b)) in spec.rows.iter().enumerate() {
        let terms = terms.iter().map(|&(v, c)| (VarId(v), half(c))).collect();
        let (a, b) = (half(*a), half(*b));
        let (lower, upper) = match shape {
            Shape::AtMost => (-INF, a),
            Shape::AtLeast => (a, INF),
            Shape::Equal => (a, a),
            Shape::Ranged => (a.min(b), a.max(b)),
            Shape::Free => (-INF, INF),
        };
        m.add_row(format!("r{r}"), terms, lower, upper);
    }
    m
}

/// The optimum by enumerating every integer point of the box, or None if infeasible.
/// All data are multiples of 1/2, so the arithmetic is exact.
fn brute_force(m: &Model) -> Option<f64> {
    let domains: Vec<Vec<f64>> =
        m.variables.iter().map(|v| (v.lower as i32..=v.upper as i32).map(f64::from).collect()).collect();
    let mut point = vec![0.0; domains.len()];
    let mut best: Option<f64> = None;
    fn visit(m: &Model, domains: &[Vec<f64>], i: usize, point: &mut Vec<f64>, best: &mut Option<f64>) {
        if i == domains.len() {
            let feasible = m.rows.iter().all(|r| {
                let activity: f64 = r.terms.iter().map(|&(id, c)| c * point[id.0]).sum();
                r.lower <= activity && activity <= r.upper
            });
            if feasible {
                let value = m.objective_value(point);
                let better = match (*best, m.sense) {
                    (None, _) => true,
                    (Some(b), Sense::Minimize) => value < b,
                    (Some(b), Sense::Maximize) => value > b,
                };
                if better {
                    *best = Some(value);
                }
            }
            return;
        }
        for &x in &domains[i] {
            point[i] = x;
            visit(m, domains, i + 1, point, best);
        }
    }
    visit(m, &domains, 0, &mut point, &mut best);
    best
}

/// SCIP's verdict on the model read back from an LP file: Some(optimum) or None (infeasible).
fn solve_via_lp_file(m: &Model) -> Option<f64> {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!("fusion-solver-prop-{}-{n}.lp", std::process::id()));
    write_lp_file(m, &path).unwrap();
    let read = russcip::Model::new()
        .hide_output()
        .include_default_plugins()
        .set_bool_param("misc/catchctrlc", false)
        .unwrap()
        .read_prob(path.to_str().unwrap());
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let solved = read.unwrap_or_else(|e| panic!("SCIP cannot read:\n{text}\n{e:?}")).solve();
    match solved.status() {
        russcip::Status::Optimal => Some(solved.obj_val()),
        russcip::Status::Infeasible | russcip::Status::Inforunbd => None,
        other => panic!("unexpected status {other:?} for\n{text}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        // Failing seeds go to tests/random_milp.proptest-regressions (commit them).
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource("proptest-regressions"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn scip_agrees_with_brute_force(spec in spec()) {
        let m = build(&spec);
        let expected = brute_force(&m);
        match (solve(&m, &Limits::default()), expected) {
            (Ok(s), Some(best)) => {
                prop_assert_eq!(s.status, SolveStatus::Optimal);
                prop_assert!((s.objective - best).abs() < 1e-6, "SCIP {} vs brute force {}", s.objective, best);
                prop_assert!(check_feasible(&m, &s.values, 1e-6).is_ok(), "{:?}", check_feasible(&m, &s.values, 1e-6));
                prop_assert!((m.objective_value(&s.values) - best).abs() < 1e-6);
            }
            (Err(SolveError::Infeasible), None) => {}
            (got, want) => prop_assert!(false, "SCIP {:?} vs brute force {:?}", got, want),
        }
    }

    #[test]
    fn lp_file_agrees_with_brute_force(spec in spec()) {
        let m = build(&spec);
        let expected = brute_force(&m);
        match (solve_via_lp_file(&m), expected) {
            (Some(got), Some(best)) => prop_assert!((got - best).abs() < 1e-6, "LP file {} vs brute force {}", got, best),
            (None, None) => {}
            (got, want) => prop_assert!(false, "LP file {:?} vs brute force {:?}", got, want),
        }
    }
}
