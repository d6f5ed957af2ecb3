//! What the analysis tells the user: the JSON report of `fuse-opt --emit-clustering=json`
//! and a Graphviz drawing of the dependence graph with clusters as boxes, like the
//! papers' figures (seed 000 Fig. 3, seed 001 Fig. 1.1).

use super::clustering::Clustering;
use super::graph::Graph;
use std::fmt::Write;

/// How the clustering of one function was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// The solver proved the clustering optimal.
    Optimal,
    /// A limit stopped the solver; its best incumbent is used (the report gives the
    /// solver's lower bound and the gap).
    TimeLimit,
    /// The solver proved the model's optimum, but the clustering read back from it
    /// costs more (the model's value is only a lower bound: seed 001's formulation
    /// rewards putting loops that share nothing in one cluster, which seed 000 §4.1
    /// splits into separate loops). A valid clustering, not proven optimal; the report
    /// gives the bound and the gap.
    Unproven,
    /// No usable solver answer: the unfused clustering is used.
    Fallback,
    /// A baseline strategy chose the clustering (`strategy=` other than `ilp`): valid, and
    /// not optimal by construction; for comparison with the optimum.
    Baseline,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Optimal => "optimal",
            Status::TimeLimit => "time-limit",
            Status::Unproven => "unproven",
            Status::Fallback => "fallback",
            Status::Baseline => "baseline",
        }
    }
}

/// The analysis result of one function (or nested block), as reported.
#[derive(Clone, Debug, PartialEq)]
pub struct FunctionReport {
    pub name: String,
    pub formulation: String,
    pub cost: String,
    /// Value of the cost function for the clustering used.
    pub objective: f64,
    /// A lower bound on the cost of every clustering in the formulation's space (the
    /// solver's dual bound): equal to `objective` when optimal; `None` without a
    /// solver answer.
    pub bound: Option<f64>,
    pub status: Status,
    pub solve_ms: f64,
    /// The solver's branch-and-bound nodes and simplex iterations
    /// (`fusion_solver::SearchEffort`; JSON `null` without a solver answer): unlike
    /// `solve_ms`, the same on every run for a solve in one thread that ends in a proof.
    pub effort: Option<fusion_solver::SearchEffort>,
    pub variables: usize,
    pub rows: usize,
    /// Clusters in execution order, each a list of node names (barriers and inputs left out).
    pub clusters: Vec<Vec<String>>,
    /// Sort key: where the function starts in its file (functions may be analysed in
    /// parallel; reports are printed in source order).
    pub position: (String, u32, u32),
}

/// The clusters of `clustering` by name, leaving out inputs and barriers (they are not
/// loops the user wrote as combinators).
pub fn cluster_names(graph: &Graph, clustering: &Clustering) -> Vec<Vec<String>> {
    clustering
        .clusters
        .iter()
        .map(|c| {
            c.iter()
                .filter(|n| graph.node(**n).kind.is_fusible_kind())
                .map(|n| graph.node(*n).name.clone())
                .collect::<Vec<_>>()
        })
        .filter(|c| !c.is_empty())
        .collect()
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `(objective − bound) / |objective|`: 0 when the bound is reached, infinite (JSON
/// `null`) when the objective is 0 and the bound below it.
pub fn relative_gap(objective: f64, bound: f64) -> f64 {
    let slack = 1e-9 * objective.abs().max(1.0);
    if objective - bound <= slack {
        0.0
    } else if objective.abs() <= slack {
        f64::INFINITY
    } else {
        (objective - bound) / objective.abs()
    }
}

fn json_number(x: f64) -> String {
    if !x.is_finite() {
        "null".into()
    } else if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

/// `{"functions":[...]}` with one object per report, in the given order.
pub fn to_json(reports: &[FunctionReport]) -> String {
    let mut out = String::from("{\"functions\":[");
    for (i, r) in reports.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let clusters: Vec<String> = r
            .clusters
            .iter()
            .map(|c| format!("[{}]", c.iter().map(|n| json_string(n)).collect::<Vec<_>>().join(",")))
            .collect();
        let _ = write!(
            out,
            "{{\"name\":{},\"formulation\":{},\"cost\":{},\"objective\":{},\"bound\":{},\"gap\":{},\"status\":{},\"solve_ms\":{},\"nodes\":{},\"lp_iterations\":{},\"variables\":{},\"rows\":{},\"clusters\":[{}]}}",
            json_string(&r.name),
            json_string(&r.formulation),
            json_string(&r.cost),
            json_number(r.objective),
            r.bound.map_or("null".into(), json_number),
            r.bound.map_or("null".into(), |b| json_number(relative_gap(r.objective, b))),
            json_string(r.status.as_str()),
            json_number((r.solve_ms * 1000.0).round() / 1000.0),
            r.effort.map_or("null".into(), |e| e.nodes.to_string()),
            r.effort.map_or("null".into(), |e| e.lp_iterations.to_string()),
            r.variables,
            r.rows,
            clusters.join(",")
        );
    }
    out.push_str("]}");
    out
}

fn dot_id(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

/// A Graphviz drawing: one box per cluster (inputs and barriers outside any box),
/// fusible edges as plain arrows, infusible edges doubled and red (the papers draw them
/// as double arrows / dashed-through), edges labelled with their array.
pub fn to_dot(name: &str, graph: &Graph, clustering: &Clustering) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "digraph {} {{", dot_id(name));
    let _ = writeln!(out, "  rankdir=TB;\n  node [shape=ellipse, fontname=\"monospace\"];");
    // Numbered like the `array.cluster` attributes: loops only, in execution order.
    let mut c = 0;
    for nodes in &clustering.clusters {
        let fusible: Vec<_> = nodes.iter().filter(|n| graph.node(**n).kind.is_fusible_kind()).collect();
        if fusible.is_empty() {
            continue;
        }
        c += 1;
        let c = c - 1;
        let _ = writeln!(out, "  subgraph cluster_{c} {{\n    style=dotted; label=\"cluster {c}\";");
        for n in fusible {
            let node = graph.node(*n);
            let _ =
                writeln!(out, "    n{} [label={}];", n.0, dot_id(&format!("{} = {}", node.name, node.kind.mnemonic())));
        }
        let _ = writeln!(out, "  }}");
    }
    for (i, node) in graph.nodes.iter().enumerate() {
        if !node.kind.is_fusible_kind() {
            let _ = writeln!(
                out,
                "  n{i} [shape=box, label={}];",
                dot_id(&format!("{} ({})", node.name, node.kind.mnemonic()))
            );
        }
    }
    for e in &graph.edges {
        let style = if e.fusible { String::new() } else { ", color=\"red:red\", penwidth=1.5".to_owned() };
        let _ = writeln!(out, "  n{} -> n{} [label={}{style}];", e.from.0, e.to.0, dot_id(&e.array));
    }
    out.push_str("}\n");
    out
}
