//! Read-only access to live IR over the MLIR C API: ops, regions, blocks, values, types
//! and attributes. Every function takes handles of IR owned by a module that outlives the
//! interpretation (guaranteed by the borrow in [`crate::Interpreter`]).

use crate::value::ElemType;
use array_dialect::raw::string_ref;
pub use array_dialect::raw::{Op, Val, block_arguments, block_ops, operands, results, value_type};
use mlir_sys::*;

fn str_of<'a>(s: MlirStringRef) -> &'a str {
    if s.data.is_null() {
        return "";
    }
    // SAFETY: the string is owned by the context (identifiers, attribute strings), which
    // outlives every use here; MLIR names are UTF-8.
    unsafe { std::str::from_utf8(std::slice::from_raw_parts(s.data as *const u8, s.length)).unwrap_or("") }
}

/// The op's name, e.g. `array.map` (borrowed from the context).
pub fn op_name<'a>(op: Op) -> &'a str {
    // SAFETY: live op.
    unsafe { str_of(mlirIdentifierStr(mlirOperationGetName(op))) }
}

pub fn result_count(op: Op) -> usize {
    // SAFETY: live op.
    unsafe { mlirOperationGetNumResults(op) as usize }
}

pub fn result_types(op: Op) -> Vec<MlirType> {
    results(op).into_iter().map(value_type).collect()
}

pub fn key(v: Val) -> usize {
    v.ptr as usize
}

pub fn region_count(op: Op) -> usize {
    // SAFETY: live op.
    unsafe { mlirOperationGetNumRegions(op) as usize }
}

pub fn region(op: Op, index: usize) -> MlirRegion {
    // SAFETY: live op; callers check `region_count` first.
    unsafe { mlirOperationGetRegion(op, index as isize) }
}

/// The first block of a region, if it has one.
pub fn first_block(region: MlirRegion) -> Option<MlirBlock> {
    // SAFETY: live region.
    let b = unsafe { mlirRegionGetFirstBlock(region) };
    (!b.ptr.is_null()).then_some(b)
}

pub fn successor(op: Op, index: usize) -> Option<MlirBlock> {
    // SAFETY: live op.
    unsafe {
        if index >= mlirOperationGetNumSuccessors(op) as usize {
            return None;
        }
        Some(mlirOperationGetSuccessor(op, index as isize))
    }
}

pub fn attribute(op: Op, name: &str) -> Option<MlirAttribute> {
    // SAFETY: live op; a null attribute means absent.
    let a = unsafe { mlirOperationGetAttributeByName(op, string_ref(name)) };
    (!a.ptr.is_null()).then_some(a)
}

pub fn int_attribute(op: Op, name: &str) -> Option<i64> {
    let a = attribute(op, name)?;
    // SAFETY: checked to be an integer attribute first.
    unsafe { mlirAttributeIsAInteger(a).then(|| mlirIntegerAttrGetValueInt(a)) }
}

pub fn string_attribute(op: Op, name: &str) -> Option<String> {
    let a = attribute(op, name)?;
    // SAFETY: checked kinds before reading.
    unsafe {
        if mlirAttributeIsAString(a) {
            Some(str_of(mlirStringAttrGetValue(a)).to_owned())
        } else if mlirAttributeIsAFlatSymbolRef(a) {
            Some(str_of(mlirFlatSymbolRefAttrGetValue(a)).to_owned())
        } else {
            None
        }
    }
}

/// The elements of a `DenseI32ArrayAttr` (e.g. `operandSegmentSizes`).
pub fn i32_array_attribute(op: Op, name: &str) -> Option<Vec<i32>> {
    let a = attribute(op, name)?;
    // SAFETY: checked kind first.
    unsafe {
        if !mlirAttributeIsADenseI32Array(a) {
            return None;
        }
        let n = mlirDenseArrayGetNumElements(a);
        Some((0..n).map(|i| mlirDenseI32ArrayGetElement(a, i)).collect())
    }
}

/// `file:line:col` of the op, or a placeholder when it has no file location.
pub fn location(op: Op) -> String {
    // SAFETY: the location is live as long as the op's context.
    let loc = unsafe { melior::ir::Location::from_raw(mlirOperationGetLocation(op)) };
    match array_dialect::source::file_line_col(loc) {
        Some((file, line, col)) => format!("{file}:{line}:{col}"),
        None => "<unknown location>".to_owned(),
    }
}

/// The textual form of a type, for messages.
pub fn type_string(t: MlirType) -> String {
    unsafe extern "C" fn append(s: MlirStringRef, data: *mut std::ffi::c_void) {
        // SAFETY: `data` is the `String` passed below; `s` is valid for the call.
        unsafe {
            let out = &mut *(data as *mut String);
            out.push_str(&String::from_utf8_lossy(std::slice::from_raw_parts(s.data as *const u8, s.length)));
        }
    }
    let mut out = String::new();
    // SAFETY: live type; the callback only appends to `out`.
    unsafe { mlirTypePrint(t, Some(append), &mut out as *mut String as *mut _) };
    out
}

/// The interpreter's view of an MLIR type.
#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    Scalar(ElemType),
    /// A ranked tensor; `None` for a dynamic dimension.
    Tensor {
        elem: ElemType,
        shape: Vec<Option<usize>>,
    },
    /// Anything else (`!llvm.ptr`, `f16`, unranked tensors, ...), by its text.
    Other(String),
}

impl Ty {
    pub fn elem(&self) -> Option<ElemType> {
        match self {
            Ty::Scalar(e) => Some(*e),
            Ty::Tensor { elem, .. } => Some(*elem),
            Ty::Other(_) => None,
        }
    }
}

fn elem_type(t: MlirType) -> Option<ElemType> {
    // SAFETY: live type; kinds checked before reading.
    unsafe {
        if mlirTypeIsAIndex(t) {
            Some(ElemType::Index)
        } else if mlirTypeIsAInteger(t) {
            let w = mlirIntegerTypeGetWidth(t);
            (mlirIntegerTypeIsSignless(t) && (1..=64).contains(&w)).then_some(ElemType::Int(w))
        } else if mlirTypeIsAF32(t) {
            Some(ElemType::F32)
        } else if mlirTypeIsAF64(t) {
            Some(ElemType::F64)
        } else if mlirTypeIsAComplex(t) {
            let e = mlirComplexTypeGetElementType(t);
            if mlirTypeIsAF64(e) {
                Some(ElemType::Complex64)
            } else if mlirTypeIsAF32(e) {
                Some(ElemType::Complex32)
            } else {
                None
            }
        } else {
            None
        }
    }
}

pub fn ty(t: MlirType) -> Ty {
    if let Some(e) = elem_type(t) {
        return Ty::Scalar(e);
    }
    // SAFETY: live type; kinds checked before reading.
    unsafe {
        if mlirTypeIsARankedTensor(t)
            && let Some(elem) = elem_type(mlirShapedTypeGetElementType(t))
        {
            let rank = mlirShapedTypeGetRank(t) as isize;
            let shape = (0..rank)
                .map(|d| {
                    if mlirShapedTypeIsDynamicDim(t, d) { None } else { Some(mlirShapedTypeGetDimSize(t, d) as usize) }
                })
                .collect();
            return Ty::Tensor { elem, shape };
        }
    }
    Ty::Other(type_string(t))
}

/// Input and result types of a `func.func`.
pub fn function_type(op: Op) -> Option<(Vec<MlirType>, Vec<MlirType>)> {
    let a = attribute(op, "function_type")?;
    // SAFETY: kinds checked before reading.
    unsafe {
        if !mlirAttributeIsAType(a) {
            return None;
        }
        let t = mlirTypeAttrGetValue(a);
        if !mlirTypeIsAFunction(t) {
            return None;
        }
        let inputs = (0..mlirFunctionTypeGetNumInputs(t)).map(|i| mlirFunctionTypeGetInput(t, i)).collect();
        let results = (0..mlirFunctionTypeGetNumResults(t)).map(|i| mlirFunctionTypeGetResult(t, i)).collect();
        Some((inputs, results))
    }
}

/// The `func.func` ops at the top level of the module, by `sym_name`.
pub fn module_functions(module: MlirModule) -> Vec<(String, Op)> {
    // SAFETY: live module.
    let body = unsafe { mlirModuleGetBody(module) };
    block_ops(body)
        .into_iter()
        .filter(|&op| op_name(op) == "func.func")
        .filter_map(|op| Some((string_attribute(op, "sym_name")?, op)))
        .collect()
}

/// Whether a `func.func` has a body.
pub fn has_body(function: Op) -> bool {
    region_count(function) > 0 && first_block(region(function, 0)).is_some()
}

/// What an attribute holds, for constants.
pub enum AttrValue {
    Int(i64),
    Float(f64),
    Bool(bool),
    Array(Vec<MlirAttribute>),
    Dense(MlirAttribute),
    Other,
}

pub fn attr_value(a: MlirAttribute) -> AttrValue {
    // SAFETY: kinds checked before reading.
    unsafe {
        if mlirAttributeIsABool(a) {
            AttrValue::Bool(mlirBoolAttrGetValue(a))
        } else if mlirAttributeIsAInteger(a) {
            AttrValue::Int(mlirIntegerAttrGetValueInt(a))
        } else if mlirAttributeIsAFloat(a) {
            AttrValue::Float(mlirFloatAttrGetValueDouble(a))
        } else if mlirAttributeIsAArray(a) {
            AttrValue::Array((0..mlirArrayAttrGetNumElements(a)).map(|i| mlirArrayAttrGetElement(a, i)).collect())
        } else if mlirAttributeIsADenseElements(a) {
            AttrValue::Dense(a)
        } else {
            AttrValue::Other
        }
    }
}

/// Element `pos` of a dense elements attribute of element type `elem`, or `None` for an
/// element type without a getter.
pub fn dense_element(a: MlirAttribute, elem: ElemType, pos: usize) -> Option<crate::value::Value> {
    use crate::value::Value;
    let p = pos as isize;
    // SAFETY: `a` is a dense elements attribute whose element type is `elem`, and `pos` is
    // below its number of elements (or it is a splat, for which every position is valid).
    unsafe {
        Some(match elem {
            ElemType::Int(1) => Value::i1(mlirDenseElementsAttrGetBoolValue(a, p)),
            ElemType::Int(8) => Value::int(8, mlirDenseElementsAttrGetInt8Value(a, p) as i64),
            ElemType::Int(16) => Value::int(16, mlirDenseElementsAttrGetInt16Value(a, p) as i64),
            ElemType::Int(32) => Value::int(32, mlirDenseElementsAttrGetInt32Value(a, p) as i64),
            ElemType::Int(64) => Value::int(64, mlirDenseElementsAttrGetInt64Value(a, p)),
            ElemType::Index => Value::Index(mlirDenseElementsAttrGetIndexValue(a, p) as i64),
            ElemType::F32 => Value::F32(mlirDenseElementsAttrGetFloatValue(a, p)),
            ElemType::F64 => Value::F64(mlirDenseElementsAttrGetDoubleValue(a, p)),
            _ => return None,
        })
    }
}

pub fn dense_is_splat(a: MlirAttribute) -> bool {
    // SAFETY: a dense elements attribute.
    unsafe { mlirDenseElementsAttrIsSplat(a) }
}
