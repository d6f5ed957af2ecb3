//! Arbitrary bytes as a `.npy` file: the reader must accept or refuse them with an
//! error, never crash; what it accepts must survive writing and reading back.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(array) = fusion_codegen::npy::decode(data) else { return };
    let again = fusion_codegen::npy::decode(&fusion_codegen::npy::encode(&array))
        .unwrap_or_else(|e| panic!("a decoded array does not read back: {e}"));
    assert_eq!(again, array, "an array changes through encode and decode");
});
