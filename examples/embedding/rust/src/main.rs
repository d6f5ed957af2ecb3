//! `embed-example FILE FUNCTION [N...]`: what a host compiler built on melior does to use
//! optimal fusion, through the `array-fusion` crate's public API only.
//!
//! 1. Registers the `array` dialect beside the upstream ones in its own context.
//! 2. Builds its own pass manager: the fusion passes with typed options, the lowering to
//!    loops, MLIR's lowering to LLVM; runs it on the file and prints each function's
//!    clustering from the typed reports.
//! 3. Compiles the file (fused, and unfused for comparison) and calls FUNCTION on the index
//!    arguments N..., printing both results.

use array_fusion::{CompileOptions, CostFunction, FusionOptions, Program, Reports, Value};
use melior::{
    Context,
    dialect::DialectRegistry,
    ir::operation::{OperationLike, WalkOrder, WalkResult},
    pass::PassManager,
    utility::register_all_dialects,
};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("embed-example: error: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, function, numbers @ ..] = args.as_slice() else {
        return Err("usage: embed-example FILE FUNCTION [N...]  (N: the function's index arguments)".into());
    };
    let path = PathBuf::from(file);
    let arguments = numbers
        .iter()
        .map(|n| n.parse::<i64>().map(Value::index).map_err(|_| format!("'{n}' is not an index")))
        .collect::<Result<Vec<_>, _>>()?;

    // 1. The host's context, with the array dialect.
    let registry = DialectRegistry::new();
    register_all_dialects(&registry);
    array_fusion::register_dialect(&registry);
    let context = Context::new();
    context.append_dialect_registry(&registry);
    context.load_all_available_dialects();
    let mut module = array_fusion::load_file(&context, &path)?;

    // 2. The host's pass manager, with the fusion passes in it.
    let options = FusionOptions { cost: "reads".parse::<CostFunction>()?, ..FusionOptions::default() };
    let reports = Reports::new();
    let pm = PassManager::new(&context);
    array_fusion::add_fusion_passes(&pm, &options, &reports)?;
    pm.add_pass(array_fusion::passes::to_loops());
    array_fusion::add_lowering_to_llvm(&pm, array_fusion::Threads::Sequential)?;
    pm.run(&mut module).map_err(|e| format!("the pipeline failed: {e}"))?;
    for report in reports.functions() {
        println!(
            "{}: {} loop(s), cost {} ({}, objective {})",
            report.name,
            report.clusters.len(),
            report.cost,
            report.status.as_str(),
            report.objective
        );
        for cluster in &report.clusters {
            println!("  [{}]", cluster.join(", "));
        }
    }
    let mut others = std::collections::BTreeSet::new();
    module.as_operation().walk(WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or_default().to_owned();
        if !name.starts_with("llvm.") && name != "builtin.module" {
            others.insert(name);
        }
        WalkResult::Advance
    });
    println!("ops left outside the LLVM dialect: {others:?}");

    // 3. Compiled code, fused and unfused, on the same arguments.
    let fused = Program::compile_file(&path, &CompileOptions::default())?;
    let unfused = Program::compile_file(&path, &CompileOptions { fused: false, ..CompileOptions::default() })?;
    let fused_results = fused.call(function, &arguments)?;
    let unfused_results = unfused.call(function, &arguments)?;
    println!("@{function} fused:   {fused_results:?}");
    println!("@{function} unfused: {unfused_results:?}");
    if fused_results != unfused_results {
        return Err("the fused and unfused programs disagree".into());
    }
    Ok(())
}
