//! Arbitrary bytes as MLIR source with the `array` dialect: the parser and the
//! verifiers (MLIR's and the dialect's own, `dialects/array/cpp`) must answer with
//! diagnostics, never crash. (The `pipeline` target compiles programs.)
#![no_main]

use libfuzzer_sys::fuzz_target;
use melior::Context;

thread_local! {
    /// One context for many inputs (creating one registers every dialect: slow). Types
    /// and attributes the inputs create stay interned in it, so it is renewed now and
    /// then to bound memory.
    static CONTEXT: std::cell::RefCell<(Context, usize)> = std::cell::RefCell::new((fresh_context(), 0));
}

fn fresh_context() -> Context {
    array_dialect::context()
}

const INPUTS_PER_CONTEXT: usize = 2000;

fuzz_target!(|data: &[u8]| {
    let Ok(source) = std::str::from_utf8(data) else { return };
    CONTEXT.with(|cell| {
        let mut cell = cell.borrow_mut();
        if cell.1 >= INPUTS_PER_CONTEXT {
            *cell = (fresh_context(), 0);
        }
        cell.1 += 1;
        let context = &cell.0;
        let _ = array_dialect::source::parse_source(context, source, "fuzz.mlir");
    });
});
