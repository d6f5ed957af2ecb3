//! Generated well-typed programs (the property tests' generator,
//! `integration_tests::random_program`) through the whole compilation pipeline: desugar,
//! fusion analysis (SCIP), fusion trees, loops, LLVM; fused and unfused. A generated
//! program is always valid, so any error is a finding, as is any crash.
#![no_main]

use fusion_codegen::pipeline::{Variant, lower_to_llvm};
use libfuzzer_sys::fuzz_target;
use melior::Context;

thread_local! {
    static CONTEXT: Context = {
        fusion_passes::register_all_passes();
        array_dialect::context()
    };
}

fuzz_target!(|data: &[u8]| {
    // The first eight bytes seed the generator, the ninth sets the program's length.
    let mut seed = [0u8; 8];
    let n = data.len().min(8);
    seed[..n].copy_from_slice(&data[..n]);
    let ops = 3 + data.get(8).map_or(0, |b| usize::from(*b) % 14);
    let source = integration_tests::random_program(u64::from_le_bytes(seed), ops);
    CONTEXT.with(|context| {
        for variant in [Variant::Unfused, Variant::Fused] {
            let mut module = array_dialect::source::parse_source(context, &source, "generated.mlir")
                .unwrap_or_else(|e| panic!("a generated program does not load: {e}\n{source}"));
            if let Err(e) = lower_to_llvm(context, &mut module, variant) {
                panic!("the {variant:?} pipeline fails on a generated program: {e}\n{source}");
            }
        }
    });
});
