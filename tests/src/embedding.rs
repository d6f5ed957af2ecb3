//! The Rust embedding API (`array-fusion`): passes made by the API do what the registered
//! pipeline does, options reach the analysis or are refused with a reason, reports come back
//! typed, compiled programs refuse bad calls.

use array_fusion::{CompileOptions, CostFunction, Formulation, FusionOptions, Program, Reports, Status, Value};
use melior::{pass::PassManager, utility::parse_pass_pipeline};
use std::path::PathBuf;

fn examples() -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(crate::repo_root().join("examples"))
        .expect("examples/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    files
}

/// The module after `pipeline` (text) or after the API's passes, printed; `None` if it failed.
fn through_text(path: &std::path::Path, pipeline: &str) -> Option<String> {
    let context = array_dialect::context();
    let mut module = array_fusion::load_file(&context, path).ok()?;
    let pm = PassManager::new(&context);
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).expect("the pipeline parses");
    pm.run(&mut module).ok()?;
    Some(module.as_operation().to_string())
}

fn through_api(path: &std::path::Path, options: &FusionOptions, reports: &Reports) -> Option<String> {
    let context = array_dialect::context();
    let mut module = array_fusion::load_file(&context, path).ok()?;
    let pm = PassManager::new(&context);
    array_fusion::add_fusion_passes(&pm, options, reports).expect("the passes are made");
    pm.add_pass(array_fusion::passes::to_loops());
    pm.run(&mut module).ok()?;
    Some(module.as_operation().to_string())
}

#[test]
fn api_passes_equal_the_registered_pipeline_on_every_example() {
    let options = FusionOptions { cost: "reads".parse::<CostFunction>().unwrap(), ..FusionOptions::default() };
    let mut analysed = 0;
    for path in examples() {
        let reports = Reports::new();
        let api = through_api(&path, &options, &reports);
        let text = through_text(&path, "builtin.module(func.func(array-fusion{cost=reads}), array-to-loops)");
        assert_eq!(api, text, "{}: the API's passes and the pipeline text differ", path.display());
        // Every report is the analysis's proven optimum.
        for report in reports.functions() {
            assert_eq!(report.cost, "reads", "{}: the options reached the analysis", path.display());
            assert_eq!(report.status, Status::Optimal, "{}: {}", path.display(), report.name);
            assert!(!report.clusters.is_empty());
            analysed += 1;
        }
    }
    assert!(analysed >= 30, "only {analysed} functions reported");
}

#[test]
fn recomputation_is_on_by_default_and_can_be_turned_off() {
    let path = crate::repo_root().join("examples/seed001_cycle.mlir");
    let objective = |options: &FusionOptions| {
        let reports = Reports::new();
        through_api(&path, options, &reports).expect("the example lowers");
        reports.functions()[0].objective
    };
    let off = FusionOptions { no_recomputation: true, ..FusionOptions::default() };
    assert_eq!(off.to_pipeline_options().unwrap().matches("recompute=false").count(), 1);
    assert_eq!(
        through_api(&path, &off, &Reports::new()),
        through_text(&path, "builtin.module(func.func(array-fusion{recompute=false}), array-to-loops)")
    );
    // seed 001's cycle: ys is written and read back without recomputation (objective 6),
    // recomputed in the output loop with it (5).
    assert_eq!((objective(&FusionOptions::default()), objective(&off)), (5.0, 6.0));
}

#[test]
fn reports_are_typed_in_source_order_and_shared_by_clones() {
    let path = crate::repo_root().join("examples/seed002_normalise2.mlir");
    let reports = Reports::new();
    let shared = reports.clone();
    let options = FusionOptions { formulation: Formulation::Gather, ..FusionOptions::default() };
    through_api(&path, &options, &shared).expect("the example lowers");
    let functions = reports.functions();
    assert!(!functions.is_empty());
    let positions: Vec<_> = functions.iter().map(|r| r.position.clone()).collect();
    let mut sorted = positions.clone();
    sorted.sort();
    assert_eq!(positions, sorted, "reports in source order");
    assert!(functions.iter().all(|r| r.formulation == "gather"));
    assert!(reports.to_json().starts_with("{\"functions\":["));
    assert!(reports.to_dot().contains("digraph"));
    reports.clear();
    assert!(shared.functions().is_empty(), "clones share one sink");
}

#[test]
fn bad_options_are_refused_with_the_reason() {
    let reports = Reports::new();
    // A negative time limit passes the option parser but not the analysis: the pass fails.
    let options = FusionOptions {
        limits: fusion_solver::Limits { time_seconds: -1.0, ..Default::default() },
        ..FusionOptions::default()
    };
    let path = crate::repo_root().join("examples/seed001_normalize2.mlir");
    assert_eq!(through_api(&path, &options, &reports), None);
    assert!(reports.functions().is_empty());

    // An option value no pass option can hold.
    let options = FusionOptions { dump_ilp: Some(PathBuf::from("it's a \"file\".lp")), ..FusionOptions::default() };
    let error = array_fusion::passes::fusion_analysis(&options, &reports).err().expect("refused");
    assert!(error.0.contains("dump-ilp"), "{error}");

    // A path with a space is quoted, and accepted.
    let dir = std::env::temp_dir().join(format!("fusion api {}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = FusionOptions { dump_ilp: Some(dir.join("model.lp")), ..FusionOptions::default() };
    assert!(options.to_pipeline_options().unwrap().contains(&format!("dump-ilp='{}'", dir.join("model.lp").display())));
    through_api(&path, &options, &reports).expect("the example lowers");
    assert!(dir.join("model.normalize2.lp").exists(), "the ILP was written where the option says");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bridge_create_pass_refuses_unknown_options() {
    fusion_passes::register_all_passes();
    let error =
        fusion_passes::bridge::create_pass(&fusion_passes::fusion_analysis::DEFINITION, "no-such-option=1", None)
            .err()
            .expect("refused");
    assert!(error.contains("array-fusion-analysis") && error.contains("no-such-option"), "{error}");
}

#[test]
fn programs_compile_and_refuse_bad_calls() {
    let path = crate::repo_root().join("examples/seed004_sum_of_squares.mlir");
    let fused = Program::compile_file(&path, &CompileOptions::default()).expect("compiles");
    assert_eq!(fused.call("sumSquares", &[Value::index(3)]).unwrap(), vec![Value::scalar_tensor(Value::i64(14))]);
    assert!(fused.call("noSuchFunction", &[]).unwrap_err().0.contains("no public function @noSuchFunction"));
    assert!(fused.call("sumSquares", &[]).is_err(), "wrong arity");
    let missing = crate::repo_root().join("examples/no-such-file.mlir");
    assert!(Program::compile_file(&missing, &CompileOptions::default()).is_err());
}

#[test]
fn run_pipeline_returns_reports_or_the_located_errors() {
    let context = array_fusion::context();
    let path = crate::repo_root().join("examples/seed000_simple.mlir");
    let mut module = array_fusion::load_file(&context, &path).unwrap();
    let reports = array_fusion::run_pipeline(
        &context,
        &mut module,
        &FusionOptions::default(),
        Some(array_fusion::Threads::Sequential),
    )
    .expect("the example lowers to LLVM");
    assert!(reports.len() >= 4, "one report per function of simple1–simple4");
    assert!(reports.iter().all(|r| r.status == Status::Optimal));
    assert!(!module.as_operation().to_string().contains("scf."), "lowered to the LLVM dialect");

    // An unprovable size equality is no error: the program compiles, with the run-time check.
    let path = crate::repo_root().join("examples/seed001_ill_sized.mlir");
    let mut module = array_fusion::load_file(&context, &path).unwrap();
    let reports = array_fusion::run_pipeline(&context, &mut module, &FusionOptions::default(), None).unwrap();
    assert_eq!(reports.len(), 2, "bad1 and bad2");
    assert!(reports.iter().all(|r| r.status == Status::Optimal && r.clusters.len() == 2));
    assert!(module.as_operation().to_string().contains("run-time size check failed"), "the check is compiled in");
}
