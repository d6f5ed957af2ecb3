//! Facts about the element types arrays hold, shared by the extractor (the `bytes` cost
//! model's weights) and the benchmarks' bytes-moved model.

use melior::ir::{Type, TypeLike};

/// Bytes of one element of type `ty`: the bit width rounded up to bytes, 8 for `index`,
/// twice the part for `complex`; `None` for other types.
pub fn element_bytes(ty: Type) -> Option<u64> {
    use mlir_sys::*;
    let raw = ty.to_raw();
    // SAFETY: plain queries on a live type; each kind is checked before its accessor.
    unsafe {
        if mlirTypeIsAIndex(raw) {
            Some(8)
        } else if mlirTypeIsAInteger(raw) {
            Some((mlirIntegerTypeGetWidth(raw) as u64).div_ceil(8))
        } else if mlirTypeIsAFloat(raw) {
            Some((mlirFloatTypeGetWidth(raw) as u64).div_ceil(8))
        } else if mlirTypeIsAComplex(raw) {
            element_bytes(Type::from_raw(mlirComplexTypeGetElementType(raw))).map(|b| 2 * b)
        } else {
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::element_bytes;
    use melior::ir::Type;

    #[test]
    fn widths() {
        let context = crate::context();
        let bytes = |text: &str| element_bytes(Type::parse(&context, text).expect("a type"));
        assert_eq!(bytes("i1"), Some(1));
        assert_eq!(bytes("i64"), Some(8));
        assert_eq!(bytes("index"), Some(8));
        assert_eq!(bytes("f32"), Some(4));
        assert_eq!(bytes("complex<f64>"), Some(16));
        assert_eq!(bytes("tensor<4xf32>"), None);
    }
}
