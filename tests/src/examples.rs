//! Every bundled example parses, verifies, and has the structure its paper gives.

use fusion_passes::summary::{FunctionSummary, summarize};

fn all_summaries() -> Vec<(String, FunctionSummary)> {
    let context = array_dialect::context();
    let dir = crate::repo_root().join("examples");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("examples/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    assert!(!files.is_empty());
    let mut out = Vec::new();
    for file in files {
        let module = array_dialect::source::load_file(&context, &file)
            .unwrap_or_else(|e| panic!("{} does not load:\n{e}", file.display()));
        for s in summarize(&module) {
            out.push((file.file_name().unwrap().to_string_lossy().into_owned(), s));
        }
    }
    out
}

fn find<'a>(all: &'a [(String, FunctionSummary)], name: &str) -> &'a FunctionSummary {
    &all.iter().find(|(_, s)| s.name == name).unwrap_or_else(|| panic!("no function {name}")).1
}

#[test]
fn every_example_loads() {
    let all = all_summaries();
    assert!(all.len() >= 25, "only {} functions", all.len());
}

/// Seed 001 §1.1: two folds, a filter and two maps over one input and two outputs.
#[test]
fn normalize2_has_the_papers_combinators() {
    let all = all_summaries();
    let s = find(&all, "normalize2");
    let ops: Vec<(&str, usize)> = s.combinators.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    assert_eq!(ops, vec![("array.fold", 2), ("array.filter", 1), ("array.map", 2)]);
    // xs, sum1, gts, sum2, ys1, ys2
    assert_eq!(s.array_values, 6);
}
