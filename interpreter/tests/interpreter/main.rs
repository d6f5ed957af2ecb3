//! Tests of the reference interpreter (one test binary; a module per area).

mod arith;
mod control;
mod errors;
mod examples;
mod fusion_trees;
mod ops;
mod props;

use fusion_interpreter::{InterpError, Interpreter, Value};
use melior::ir::Module;
use std::path::PathBuf;

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("the workspace").to_path_buf()
}

/// Parses `source` (a test program) and passes the module to `f`.
pub fn with_source<T>(source: &str, f: impl FnOnce(&Module) -> T) -> T {
    let context = array_dialect::context();
    let module = array_dialect::source::parse_source(&context, source, "test.mlir")
        .unwrap_or_else(|e| panic!("the test program does not load:\n{e}"));
    f(&module)
}

/// Loads `examples/<file>` and passes the module to `f`.
pub fn with_example<T>(file: &str, f: impl FnOnce(&Module) -> T) -> T {
    let context = array_dialect::context();
    let path = repo_root().join("examples").join(file);
    let module = array_dialect::source::load_file(&context, &path).unwrap_or_else(|e| panic!("{file}:\n{e}"));
    f(&module)
}

/// Runs `name` of `source` on `args`.
pub fn run(source: &str, name: &str, args: Vec<Value>) -> Result<Vec<Value>, InterpError> {
    with_source(source, |m| Interpreter::new(m).run(name, args))
}

/// Runs `name` of `source` on `args`, which must succeed.
pub fn run_ok(source: &str, name: &str, args: Vec<Value>) -> Vec<Value> {
    run(source, name, args).unwrap_or_else(|e| panic!("@{name} failed: {e}"))
}

/// Runs `name` of `examples/<file>`, which must succeed.
pub fn run_example(file: &str, name: &str, args: Vec<Value>) -> Vec<Value> {
    with_example(file, |m| Interpreter::new(m).run(name, args)).unwrap_or_else(|e| panic!("@{name} failed: {e}"))
}

/// The integers of a tensor value.
pub fn ints(v: &Value) -> Vec<i64> {
    v.as_tensor().and_then(|t| t.to_i64_vec()).unwrap_or_else(|| panic!("not an integer tensor: {v}"))
}

pub fn floats(v: &Value) -> Vec<f64> {
    v.as_tensor().and_then(|t| t.to_f64_vec()).unwrap_or_else(|| panic!("not a float tensor: {v}"))
}

pub fn shape(v: &Value) -> Vec<usize> {
    v.as_tensor().unwrap_or_else(|| panic!("not a tensor: {v}")).shape.clone()
}

/// The single element of a rank-0 tensor.
pub fn scalar_of(v: &Value) -> Value {
    let t = v.as_tensor().unwrap_or_else(|| panic!("not a tensor: {v}"));
    assert_eq!(t.shape, Vec::<usize>::new(), "not rank 0: {v}");
    t.elements[0].clone()
}

/// `examples/<file>` with the bodies of the private functions `names` (stand-ins for
/// functions the seed leaves abstract) removed, so that they are external declarations.
pub fn with_example_external<T>(file: &str, names: &[&str], f: impl FnOnce(&Module) -> T) -> T {
    let mut text = std::fs::read_to_string(repo_root().join("examples").join(file)).unwrap();
    for name in names {
        let start = text.find(&format!("func.func private @{name}(")).unwrap_or_else(|| panic!("no @{name} in {file}"));
        let open = start + text[start..].find(" {\n").expect("a body");
        let close = open + text[open..].find("\n}\n").expect("the end of the body") + 3;
        text = format!("{}\n{}", &text[..open], &text[close..]);
    }
    with_source(&text, f)
}
