//! Property test of the fusion trees: for random well-sized programs, the analysis
//! followed by `array-fuse` gives verified IR, and `array-unfuse` after it gives back
//! the original program up to op order (compared as a canonical term DAG).

use integration_tests::random_program;
use melior::{
    Context,
    ir::{BlockLike, Module, RegionLike, Value, ValueLike, operation::OperationLike},
    pass::PassManager,
    utility::parse_pass_pipeline,
};
use proptest::prelude::*;
use std::collections::HashMap;

/// A canonical name of every value: function arguments by position, op results by the
/// op (name, operands' canonical names, regions printed generically with outer values
/// renamed) and result number. Two programs equal up to op order have the same multiset.
fn canonical_ops(module: &Module) -> Vec<String> {
    let function = module.body().first_operation().expect("one function");
    let body = function.region(0).unwrap().first_block().unwrap();
    let mut names: HashMap<usize, String> = HashMap::new();
    for i in 0..body.argument_count() {
        let a: Value = body.argument(i).unwrap().into();
        names.insert(a.to_raw().ptr as usize, format!("arg{i}"));
    }
    let mut pending: Vec<_> = {
        let mut v = Vec::new();
        let mut op = body.first_operation();
        while let Some(o) = op {
            v.push(o);
            op = o.next_in_block();
        }
        v
    };
    let mut out = Vec::new();
    // Resolve in dependency order (ops can be listed in any order).
    while !pending.is_empty() {
        let before = pending.len();
        pending.retain(|op| {
            // Every value the op reads from outside itself must be named already.
            let mut outer = Vec::new();
            op.walk(melior::ir::operation::WalkOrder::PreOrder, |inner| {
                for i in 0..inner.operand_count() {
                    let v = inner.operand(i).unwrap();
                    outer.push(v.to_raw().ptr as usize);
                }
                melior::ir::operation::WalkResult::Advance
            });
            let defined_inside = |p: usize| {
                let mut inside = false;
                op.walk(melior::ir::operation::WalkOrder::PreOrder, |inner| {
                    for r in 0..inner.result_count() {
                        inside |= inner.result(r).unwrap().to_raw().ptr as usize == p;
                    }
                    for region in inner.regions() {
                        let mut b = region.first_block();
                        while let Some(block) = b {
                            for a in 0..block.argument_count() {
                                let v: Value = block.argument(a).unwrap().into();
                                inside |= v.to_raw().ptr as usize == p;
                            }
                            b = block.next_in_region();
                        }
                    }
                    melior::ir::operation::WalkResult::Advance
                });
                inside
            };
            if outer.iter().any(|p| !names.contains_key(p) && !defined_inside(*p)) {
                return true;
            }
            // Print generically, then replace outer value names by canonical ones.
            let mut text = op
                .to_string_with_flags(
                    melior::ir::operation::OperationPrintingFlags::new().print_generic_operation_form(),
                )
                .unwrap_or_default();
            text = text.lines().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
            let mut operand_names = Vec::new();
            for i in 0..op.operand_count() {
                operand_names.push(names[&(op.operand(i).unwrap().to_raw().ptr as usize)].clone());
            }
            let mut captured = Vec::new();
            for p in &outer {
                if let Some(n) = names.get(p)
                    && !defined_inside(*p)
                {
                    captured.push(n.clone());
                }
            }
            // Strip SSA numbers (they depend on op order) and the analysis attributes.
            let stripped: String = strip_ssa(&text);
            let signature = format!("{} [{}] captures [{}]", stripped, operand_names.join(","), captured.join(","));
            // array-fuse may ask a size from an equally sized array (a map's input
            // instead of its result): size queries are compared as opaque sizes.
            let is_size_query = matches!(op.name().as_string_ref().as_str(), Ok("array.dim" | "array.size"));
            for r in 0..op.result_count() {
                let v = op.result(r).unwrap();
                let name = if is_size_query { "size".to_owned() } else { format!("({signature})#{r}") };
                names.insert(v.to_raw().ptr as usize, name);
            }
            if !is_size_query {
                out.push(signature);
            }
            false
        });
        assert!(pending.len() < before, "cyclic or unresolvable program");
    }
    out.sort();
    out
}

fn strip_ssa(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '%' {
            out.push('%');
            while chars.peek().is_some_and(|c| c.is_alphanumeric() || *c == '_' || *c == '#' || *c == ':') {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    // The analysis annotations are not part of the program.
    let mut s = out;
    for key in ["array.cluster", "array.order", "array.label"] {
        while let Some(at) = s.find(key) {
            let end = s[at..].find([',', '}']).map(|e| at + e).unwrap_or(s.len());
            s.replace_range(at..end, "");
        }
    }
    let s = s.replace(", ,", ",").replace("{, ", "{").replace(", }", "}").replace("{}", "");
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn run(context: &Context, module: &mut Module, pipeline: &str) {
    let pm = PassManager::new(context);
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).expect("pipeline parses");
    let before = module.as_operation().to_string();
    if pm.run(module).is_err() {
        panic!("{pipeline} failed on\n{before}");
    }
    assert!(module.as_operation().verify());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, .. ProptestConfig::default() })]

    #[test]
    fn fuse_then_unfuse_gives_back_the_program(seed in any::<u64>(), ops in 1usize..14) {
        fusion_passes::register_all_passes();
        fusion_passes::register_test_passes();
        let context = array_dialect::context();
        let source = random_program(seed, ops);
        let original = array_dialect::source::parse_source(&context, &source, "random.mlir")
            .unwrap_or_else(|e| panic!("{e}\n{source}"));
        let mut module = array_dialect::source::parse_source(&context, &source, "random.mlir").unwrap();
        // Without recomputation: its copies are new ops, which array-unfuse keeps.
        run(&context, &mut module, "builtin.module(func.func(array-fusion-analysis{time-limit=20 recompute=false}, array-fuse))");
        let fused = module.as_operation().to_string();
        run(&context, &mut module, "builtin.module(func.func(array-unfuse))");
        let text = module.as_operation().to_string();
        for op in ["array.cluster ->", "array.cluster {", "array.vertical", "array.horizontal", "array.diagonal"] {
            prop_assert!(!text.contains(op), "{} left after unfuse:\n{}", op, text);
        }
        prop_assert_eq!(canonical_ops(&original), canonical_ops(&module), "program:\n{}\nfused:\n{}", source, fused);
    }
}

/// The generator's programs do get fused (the property is not vacuous).
#[test]
fn random_programs_contain_clusters() {
    fusion_passes::register_all_passes();
    let context = array_dialect::context();
    let mut clustered = 0;
    for seed in 0..10 {
        let source = random_program(seed, 10);
        let mut module = array_dialect::source::parse_source(&context, &source, "random.mlir").unwrap();
        run(&context, &mut module, "builtin.module(func.func(array-fusion-analysis, array-fuse))");
        clustered += module.as_operation().to_string().matches("array.cluster").count();
    }
    assert!(clustered >= 5, "only {clustered} clusters in 10 programs");
}
