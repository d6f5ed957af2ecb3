//! Fusion never changes a result: every example, and random programs, interpreted
//! before and after the whole fusion pipeline (desugar, analysis, fusion trees) give
//! the same values, or the same error, on the same inputs. The fused program is run as
//! a tree (the interpreter executes vertical/horizontal/diagonal nodes), so this checks
//! the trees' binding and result rules as well as the clustering.

use fusion_interpreter::{ElemType, Interpreter, Type, Value};
use melior::{
    Context,
    ir::{Module, operation::OperationLike},
    pass::PassManager,
    utility::parse_pass_pipeline,
};

/// Element k of a generated tensor: integers 1..=5 (shifted by `salt`), `index` 0..=4,
/// alternating booleans, floats.
fn element(elem: ElemType, k: usize, salt: i64) -> Value {
    let v = ((k as i64 + salt) % 5) + 1;
    match elem {
        ElemType::Int(1) => Value::i1((k as i64 + salt) % 2 == 0),
        ElemType::Int(w) => Value::int(w, v - 2),
        ElemType::Index => Value::Index(v - 1),
        ElemType::F32 => Value::F32(v as f32 * 0.5),
        ElemType::F64 => Value::F64(v as f64 * 0.5),
        ElemType::Complex32 | ElemType::Complex64 => Value::complex(v as f64, ((v * v) % 7) as f64),
        ElemType::Opaque => Value::Opaque(0),
    }
}

fn argument(t: &Type, salt: i64) -> Value {
    match t {
        Type::Scalar(e) => element(*e, 4, salt),
        Type::Tensor { elem, shape } => {
            let shape: Vec<usize> = shape.iter().map(|d| d.unwrap_or(5)).collect();
            let n = shape.iter().product();
            Value::tensor(*elem, shape, (0..n).map(|k| element(*elem, k, salt)).collect())
        }
        Type::Other(_) => Value::Opaque(0),
    }
}

fn fused<'c>(context: &'c Context, source: &str) -> Module<'c> {
    fusion_passes::register_all_passes();
    let mut module = array_dialect::source::parse_source(context, source, "program.mlir").expect("loads");
    let pm = PassManager::new(context);
    parse_pass_pipeline(pm.as_operation_pass_manager(), "builtin.module(func.func(array-fusion))").unwrap();
    pm.run(&mut module).expect("the fusion pipeline succeeds");
    assert!(module.as_operation().verify());
    module
}

/// Runs every public function of both modules on the same inputs and compares.
fn compare(original: &Module, fused: &Module, label: &str) -> usize {
    let (a, b) = (Interpreter::new(original), Interpreter::new(fused));
    let mut compared = 0;
    for f in a.functions().into_iter().filter(|f| f.public && f.defined) {
        for salt in 0..3 {
            let args: Vec<Value> = f.inputs.iter().map(|t| argument(t, salt)).collect();
            let (x, y) = (a.run(&f.name, args.clone()), b.run(&f.name, args));
            match (&x, &y) {
                (Ok(x), Ok(y)) => {
                    assert_eq!(x.len(), y.len());
                    for (u, v) in x.iter().zip(y) {
                        assert!(u.bitwise_eq(v), "{label} @{}: unfused {u:?} vs fused {v:?}", f.name);
                    }
                    compared += 1;
                }
                (Err(e), Err(g)) => assert_eq!(
                    std::mem::discriminant(e),
                    std::mem::discriminant(g),
                    "{label} @{}: different errors {e} / {g}",
                    f.name
                ),
                _ => panic!("{label} @{}: unfused {x:?} but fused {y:?}", f.name),
            }
        }
    }
    compared
}

#[test]
fn every_example_computes_the_same_after_fusion() {
    let context = array_dialect::context();
    let mut compared = 0;
    for entry in std::fs::read_dir(crate::repo_root().join("examples")).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !name.ends_with(".mlir") {
            continue; // examples/inputs/ holds input files
        }
        let source = std::fs::read_to_string(&path).unwrap();
        let original = array_dialect::source::parse_source(&context, &source, &name).unwrap();
        let after = fused(&context, &source);
        compared += compare(&original, &after, &name);
    }
    assert!(compared >= 60, "only {compared} runs compared");
}

#[test]
fn random_programs_compute_the_same_after_fusion() {
    let context = array_dialect::context();
    let mut compared = 0;
    for seed in 0..40 {
        let source = integration_tests::random_program(seed, 12);
        let original = array_dialect::source::parse_source(&context, &source, "random.mlir").unwrap();
        let after = fused(&context, &source);
        compared += compare(&original, &after, &format!("seed {seed}:\n{source}"));
    }
    assert!(compared >= 60, "only {compared} runs compared");
}
