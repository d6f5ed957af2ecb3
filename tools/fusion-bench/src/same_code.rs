//! Whether a function's fused program is the unfused program: the same LLVM IR.
//!
//! When the optimal clustering fuses nothing in a function (every cluster one combinator,
//! or clusters whose loops the lowering builds exactly as the unfused ones), both variants
//! compile to the same instructions, and any difference between their measured times is
//! the machine's noise. `kernel-bench` says so in its note, so that such a row is not read
//! as fusion winning or losing (seed 000's `simple3` and `simple4`, two loops on both
//! sides, measured 0.93–1.07 over runs on one 2-core machine).
//!
//! The comparison is textual, on the LLVM IR of both variants before LLVM's own
//! optimizations ([`fusion_codegen::aot::llvm_ir_of_file`]): the function's definition and
//! every definition it reaches through `@symbol` references (callees, globals, transitively)
//! must be the same text in both. LLVM numbers values per function, so identical bodies
//! print identically; anything else the two modules hold (other functions) does not matter.

use std::collections::{BTreeSet, HashMap};

/// The definitions of an LLVM IR module, by symbol: each `define` with its body and each
/// global (`@name = …`), as text.
fn definitions(ir: &str) -> HashMap<&str, String> {
    let mut map = HashMap::new();
    let mut lines = ir.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("define ") {
            let Some(name) = defined_symbol(line) else { continue };
            let mut text = String::from(line);
            for body in lines.by_ref() {
                text.push('\n');
                text.push_str(body);
                if body == "}" {
                    break;
                }
            }
            map.insert(name, text);
        } else if let Some(rest) = line.strip_prefix('@')
            && let Some((name, _)) = rest.split_once(" = ")
        {
            map.insert(name, line.to_owned());
        }
    }
    map
}

/// The symbol a `define` line defines: the name after the first `@`, up to `(`.
fn defined_symbol(line: &str) -> Option<&str> {
    let after = &line[line.find('@')? + 1..];
    after.split('(').next()
}

/// The symbols `text` refers to (`@name`, name made of letters, digits, `_`, `.`, `$`).
fn referenced_symbols(text: &str) -> BTreeSet<&str> {
    let mut symbols = BTreeSet::new();
    for (at, _) in text.match_indices('@') {
        let rest = &text[at + 1..];
        let end =
            rest.find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '$'))).unwrap_or(rest.len());
        if end > 0 {
            symbols.insert(&rest[..end]);
        }
    }
    symbols
}

/// The texts of `name`'s definition and of every definition it reaches, by symbol; `None`
/// when `name` is not defined in `ir`.
fn closure(ir: &str, name: &str) -> Option<Vec<(String, String)>> {
    let definitions = definitions(ir);
    definitions.get(name)?;
    let mut seen = BTreeSet::from([name.to_owned()]);
    let mut work = vec![name.to_owned()];
    let mut texts = Vec::new();
    while let Some(symbol) = work.pop() {
        let Some(text) = definitions.get(symbol.as_str()) else { continue };
        for next in referenced_symbols(text) {
            if seen.insert(next.to_owned()) {
                work.push(next.to_owned());
            }
        }
        texts.push((symbol, text.clone()));
    }
    texts.sort();
    Some(texts)
}

/// Whether public function `name` and everything it reaches are the same LLVM IR in the
/// modules `a` and `b`; false when either does not define it.
pub fn same_function(a: &str, b: &str, name: &str) -> bool {
    match (closure(a, name), closure(b, name)) {
        (Some(x), Some(y)) => x == y,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fusion_codegen::{Threads, Variant, aot::llvm_ir_of_file};
    use std::path::Path;

    const MODULE: &str = "\
@table = private constant [2 x i64] [i64 1, i64 2]

define i64 @f(i64 %0) {
  %2 = call i64 @g(i64 %0)
  ret i64 %2
}

define i64 @g(i64 %0) {
  %2 = load i64, ptr @table, align 8
  %3 = add i64 %0, %2
  ret i64 %3
}

define i64 @h(i64 %0) {
  ret i64 %0
}
";

    #[test]
    fn a_difference_in_a_callee_or_a_global_it_reads_makes_the_code_differ() {
        assert!(same_function(MODULE, MODULE, "f"));
        let other_callee = MODULE.replace("%3 = add i64 %0, %2", "%3 = sub i64 %0, %2");
        assert!(!same_function(MODULE, &other_callee, "f"));
        assert!(!same_function(MODULE, &other_callee, "g"));
        let other_global = MODULE.replace("i64 1, i64 2", "i64 1, i64 3");
        assert!(!same_function(MODULE, &other_global, "f"));
        // A function neither reaches does not matter.
        let other_function = MODULE.replace("ret i64 %0\n}\n", "%2 = mul i64 %0, %0\n  ret i64 %2\n}\n");
        assert!(same_function(MODULE, &other_function, "f"));
        assert!(!same_function(MODULE, &other_function, "h"));
        assert!(!same_function(MODULE, MODULE, "missing"));
    }

    /// Seed 000's `simple3` is fused as it is unfused (a map, then its gather, in two
    /// loops), `simple1` into one loop.
    #[test]
    fn simple3_compiles_to_the_unfused_code_and_simple1_does_not() {
        fusion_passes::register_all_passes();
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/seed000_simple.mlir");
        let ir = |variant| llvm_ir_of_file(&path, variant, Threads::Sequential).unwrap().0;
        let (unfused, fused) = (ir(Variant::Unfused), ir(Variant::Fused));
        assert!(same_function(&unfused, &fused, "simple3"));
        assert!(same_function(&unfused, &fused, "_mlir_ciface_simple3"));
        assert!(!same_function(&unfused, &fused, "simple1"));
    }
}
