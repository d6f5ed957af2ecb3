//! The typed view of the `array` ops: the one place where an op's name, operand layout,
//! enum attributes and attribute names are decoded.
//!
//! Every pass, the extractor, the lowering and the interpreter read `array` ops through
//! [`ArrayOp::decode`] (or [`OpKind::of`] where only the kind matters), so a change to
//! `td/ArrayOps.td` (an operand's position, an enum case) is made here and nowhere else.
//! The tests at the bottom check the name table and decode the ops whose operand layout
//! has more than one group (gather, scatter, fold, scan, dim, replicate, …), so a
//! desynchronised layout fails there first.

use melior::ir::{
    OperationRef, RegionRef, Value, ValueLike,
    attribute::{Attribute, AttributeLike, DenseI64ArrayAttribute, IntegerAttribute},
    operation::OperationLike,
};

/// Names of the attributes the project reads or writes on `array` ops.
pub mod attribute {
    /// Inherent: the scan direction ([`super::ScanDirection`]).
    pub const DIRECTION: &str = "direction";
    /// Inherent: inclusive or exclusive scan ([`super::ScanKind`]).
    pub const KIND: &str = "kind";
    /// Inherent: the dimension `array.dim` reads.
    pub const DIMENSION: &str = "dimension";
    /// Inherent: the input dimension of each result dimension of `array.transpose`.
    pub const PERMUTATION: &str = "permutation";
    /// Inherent: operand group sizes of ops with two variadic operand groups.
    pub const OPERAND_SEGMENT_SIZES: &str = "operandSegmentSizes";
    /// Discardable, written by the fusion analysis: a combinator's traversal order
    /// (0 forward, 1 backward; seed 000 §3.3).
    pub const ORDER: &str = "array.order";
    /// Discardable, written by the fusion analysis: the number of a combinator's cluster
    /// (clusters with a combinator, numbered in execution order); `array-fuse` groups by it.
    pub const CLUSTER: &str = "array.cluster";
    /// Discardable, written by the fusion analysis: a gather's iteration label (seed 000
    /// §3.4); gathers with equal labels read their source in the same order.
    pub const LABEL: &str = "array.label";
    /// Discardable, written on functions by the fusion analysis: the clustering summary.
    pub const FUSION_SUMMARY: &str = "array.fusion";
    /// Discardable, written by the fusion analysis on a combinator whose size equality it
    /// could not prove (a string: what the op requires): `array-to-loops` checks the
    /// equality at run time (`cf.assert` with that message) before the op's loop nest.
    pub const CHECK_SIZES: &str = "array.check_sizes";
}

/// The prefix of every op name of the dialect.
pub const DIALECT_PREFIX: &str = "array.";

macro_rules! op_kinds {
    ($($kind:ident => $name:literal),* $(,)?) => {
        /// Which `array` op an operation is.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum OpKind { $($kind),* }

        impl OpKind {
            /// Every kind, in the order of `td/ArrayOps.td`.
            pub const ALL: &'static [OpKind] = &[$(OpKind::$kind),*];

            /// The op's full name, e.g. `array.map`.
            pub const fn name(self) -> &'static str {
                match self { $(OpKind::$kind => $name),* }
            }

            /// The kind named `name` (a full name such as `array.map`).
            pub fn from_name(name: &str) -> Option<OpKind> {
                match name { $($name => Some(OpKind::$kind),)* _ => None }
            }
        }
    };
}

op_kinds! {
    Map => "array.map",
    Generate => "array.generate",
    Gather => "array.gather",
    Scatter => "array.scatter",
    Fold => "array.fold",
    Scan => "array.scan",
    Filter => "array.filter",
    Expand => "array.expand",
    Force => "array.force",
    Size => "array.size",
    Dim => "array.dim",
    Index => "array.index",
    Yield => "array.yield",
    Backpermute => "array.backpermute",
    Permute => "array.permute",
    Reverse => "array.reverse",
    Transpose => "array.transpose",
    Slice => "array.slice",
    Reshape => "array.reshape",
    Concat => "array.concat",
    Replicate => "array.replicate",
    Cluster => "array.cluster",
    Vertical => "array.vertical",
    Horizontal => "array.horizontal",
    Diagonal => "array.diagonal",
}

impl OpKind {
    /// The kind of `op`, if it is an `array` op.
    pub fn of<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<OpKind> {
        op.name().as_string_ref().as_str().ok().and_then(OpKind::from_name)
    }

    /// The fusion-tree ops (seed 002 §4.4): `cluster`, `vertical`, `horizontal`, `diagonal`.
    pub fn is_fusion_tree(self) -> bool {
        matches!(self, OpKind::Cluster | OpKind::Vertical | OpKind::Horizontal | OpKind::Diagonal)
    }

    /// Ops that only read sizes or single elements (`size`, `dim`, `index`): no loop of
    /// their own, not nodes of the dependence graph.
    pub fn is_size_or_element_read(self) -> bool {
        matches!(self, OpKind::Size | OpKind::Dim | OpKind::Index)
    }

    /// The combinators that are nodes of the fusion graph (seed 000 §3.1; the sugar
    /// `backpermute`, `reverse` and `replicate` are gathers and `permute` is a scatter).
    pub fn is_combinator(self) -> bool {
        !self.is_fusion_tree() && !self.is_size_or_element_read() && !matches!(self, OpKind::Yield | OpKind::Force)
    }
}

/// `array.scan`'s direction (ODS `Array_ScanDirection`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanDirection {
    Left,
    Right,
}

impl ScanDirection {
    /// The ODS enum value of `td/ArrayOps.td`.
    pub const fn ods_value(self) -> i64 {
        match self {
            ScanDirection::Left => 0,
            ScanDirection::Right => 1,
        }
    }

    pub fn from_ods_value(value: i64) -> Option<ScanDirection> {
        [ScanDirection::Left, ScanDirection::Right].into_iter().find(|d| d.ods_value() == value)
    }
}

/// `array.scan`'s kind (ODS `Array_ScanKind`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScanKind {
    Inclusive,
    Exclusive,
}

impl ScanKind {
    /// The ODS enum value of `td/ArrayOps.td`.
    pub const fn ods_value(self) -> i64 {
        match self {
            ScanKind::Inclusive => 0,
            ScanKind::Exclusive => 1,
        }
    }

    pub fn from_ods_value(value: i64) -> Option<ScanKind> {
        [ScanKind::Inclusive, ScanKind::Exclusive].into_iter().find(|k| k.ods_value() == value)
    }
}

/// One `array` op with its operands by role, its regions by name and its attributes
/// decoded. Borrowed from the operation: the view lives as long as the IR it reads.
#[derive(Clone, Debug)]
pub enum ArrayOp<'c, 'a> {
    Map {
        inputs: Vec<Value<'c, 'a>>,
        body: RegionRef<'c, 'a>,
    },
    Generate {
        shape: Vec<Value<'c, 'a>>,
        body: RegionRef<'c, 'a>,
    },
    Gather {
        source: Value<'c, 'a>,
        indices: Vec<Value<'c, 'a>>,
    },
    Scatter {
        dest: Value<'c, 'a>,
        indices: Vec<Value<'c, 'a>>,
        /// The `i1` flags of seed 004's `Nothing` targets: a position whose flag is false
        /// is dropped.
        keep: Option<Value<'c, 'a>>,
        values: Value<'c, 'a>,
        combine: RegionRef<'c, 'a>,
    },
    Fold {
        inputs: Vec<Value<'c, 'a>>,
        inits: Vec<Value<'c, 'a>>,
        body: RegionRef<'c, 'a>,
    },
    Scan {
        direction: ScanDirection,
        kind: ScanKind,
        inputs: Vec<Value<'c, 'a>>,
        inits: Vec<Value<'c, 'a>>,
        body: RegionRef<'c, 'a>,
    },
    Filter {
        inputs: Vec<Value<'c, 'a>>,
        predicate: RegionRef<'c, 'a>,
    },
    Expand {
        inputs: Vec<Value<'c, 'a>>,
        count: RegionRef<'c, 'a>,
        get: RegionRef<'c, 'a>,
    },
    Force {
        input: Value<'c, 'a>,
    },
    Size {
        input: Value<'c, 'a>,
    },
    Dim {
        input: Value<'c, 'a>,
        dimension: i64,
    },
    Index {
        array: Value<'c, 'a>,
        indices: Vec<Value<'c, 'a>>,
    },
    Yield {
        values: Vec<Value<'c, 'a>>,
    },
    Backpermute {
        source: Value<'c, 'a>,
        shape: Vec<Value<'c, 'a>>,
        index_map: RegionRef<'c, 'a>,
    },
    Permute {
        source: Value<'c, 'a>,
        dest: Value<'c, 'a>,
        index_map: RegionRef<'c, 'a>,
        combine: RegionRef<'c, 'a>,
    },
    Reverse {
        input: Value<'c, 'a>,
    },
    /// Result dimension `k` is input dimension `permutation[k]`.
    Transpose {
        input: Value<'c, 'a>,
        permutation: Vec<usize>,
    },
    Replicate {
        input: Value<'c, 'a>,
        count: Value<'c, 'a>,
    },
    /// `lhs` followed by `rhs` along the innermost dimension.
    Concat {
        lhs: Value<'c, 'a>,
        rhs: Value<'c, 'a>,
    },
    /// The elements of `input` in row-major order, in the shape `shape`.
    Reshape {
        input: Value<'c, 'a>,
        shape: Vec<Value<'c, 'a>>,
    },
    /// `ys[..., i] = xs[..., offset + i]` for `i < size`.
    Slice {
        input: Value<'c, 'a>,
        offset: Value<'c, 'a>,
        size: Value<'c, 'a>,
    },
    Cluster {
        body: RegionRef<'c, 'a>,
    },
    Vertical {
        producer: RegionRef<'c, 'a>,
        consumer: RegionRef<'c, 'a>,
    },
    Horizontal {
        left: RegionRef<'c, 'a>,
        right: RegionRef<'c, 'a>,
    },
    Diagonal {
        producer: RegionRef<'c, 'a>,
        consumer: RegionRef<'c, 'a>,
    },
}

/// Why an operation named like an `array` op could not be decoded (only possible on IR
/// that skipped the verifier, or after a change to `td/ArrayOps.td` not made here).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    pub kind: OpKind,
    pub message: String,
}

impl std::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "malformed '{}': {}", self.kind.name(), self.message)
    }
}

impl std::error::Error for DecodeError {}

impl<'c, 'a> ArrayOp<'c, 'a> {
    /// Decodes `op`: `None` for ops of other dialects, an error for a malformed `array` op.
    pub fn decode(op: OperationRef<'c, 'a>) -> Option<Result<ArrayOp<'c, 'a>, DecodeError>> {
        let kind = OpKind::of(&op)?;
        Some(Decoder { op, kind }.decode())
    }

    /// Decodes an op that is known to be a verified `array` op (for example one just
    /// matched by [`OpKind::of`]); `None` for any other op.
    pub fn of(op: OperationRef<'c, 'a>) -> Option<ArrayOp<'c, 'a>> {
        ArrayOp::decode(op).and_then(Result::ok)
    }

    pub fn kind(&self) -> OpKind {
        match self {
            ArrayOp::Map { .. } => OpKind::Map,
            ArrayOp::Generate { .. } => OpKind::Generate,
            ArrayOp::Gather { .. } => OpKind::Gather,
            ArrayOp::Scatter { .. } => OpKind::Scatter,
            ArrayOp::Fold { .. } => OpKind::Fold,
            ArrayOp::Scan { .. } => OpKind::Scan,
            ArrayOp::Filter { .. } => OpKind::Filter,
            ArrayOp::Expand { .. } => OpKind::Expand,
            ArrayOp::Force { .. } => OpKind::Force,
            ArrayOp::Size { .. } => OpKind::Size,
            ArrayOp::Dim { .. } => OpKind::Dim,
            ArrayOp::Index { .. } => OpKind::Index,
            ArrayOp::Yield { .. } => OpKind::Yield,
            ArrayOp::Backpermute { .. } => OpKind::Backpermute,
            ArrayOp::Permute { .. } => OpKind::Permute,
            ArrayOp::Reverse { .. } => OpKind::Reverse,
            ArrayOp::Transpose { .. } => OpKind::Transpose,
            ArrayOp::Slice { .. } => OpKind::Slice,
            ArrayOp::Reshape { .. } => OpKind::Reshape,
            ArrayOp::Concat { .. } => OpKind::Concat,
            ArrayOp::Replicate { .. } => OpKind::Replicate,
            ArrayOp::Cluster { .. } => OpKind::Cluster,
            ArrayOp::Vertical { .. } => OpKind::Vertical,
            ArrayOp::Horizontal { .. } => OpKind::Horizontal,
            ArrayOp::Diagonal { .. } => OpKind::Diagonal,
        }
    }
}

struct Decoder<'c, 'a> {
    op: OperationRef<'c, 'a>,
    kind: OpKind,
}

impl<'c, 'a> Decoder<'c, 'a> {
    fn error(&self, message: impl Into<String>) -> DecodeError {
        DecodeError { kind: self.kind, message: message.into() }
    }

    fn operands(&self) -> Vec<Value<'c, 'a>> {
        self.op.operands().collect()
    }

    fn region(&self, index: usize) -> Result<RegionRef<'c, 'a>, DecodeError> {
        self.op.region(index).map_err(|_| self.error(format!("has no region #{index}")))
    }

    fn operand(&self, index: usize) -> Result<Value<'c, 'a>, DecodeError> {
        self.op.operand(index).map_err(|_| self.error(format!("has no operand #{index}")))
    }

    fn exactly(&self, count: usize) -> Result<Vec<Value<'c, 'a>>, DecodeError> {
        let operands = self.operands();
        if operands.len() == count {
            Ok(operands)
        } else {
            Err(self.error(format!("has {} operands, expected {count}", operands.len())))
        }
    }

    fn inherent_integer(&self, name: &str) -> Result<i64, DecodeError> {
        let attribute: Attribute =
            self.op.inherent_attribute(name).map_err(|_| self.error(format!("has no '{name}' attribute")))?;
        IntegerAttribute::try_from(attribute)
            .map(|a| a.value())
            .map_err(|_| self.error(format!("'{name}' is not an integer attribute")))
    }

    /// A `DenseI64ArrayAttr` of dimension numbers (the verifier has checked the range).
    fn inherent_dimensions(&self, name: &str) -> Result<Vec<usize>, DecodeError> {
        let attribute: Attribute =
            self.op.inherent_attribute(name).map_err(|_| self.error(format!("has no '{name}' attribute")))?;
        let array = DenseI64ArrayAttribute::try_from(attribute)
            .map_err(|_| self.error(format!("'{name}' is not an array of integers")))?;
        (0..array.len())
            .map(|i| {
                array
                    .element(i)
                    .ok()
                    .and_then(|d| usize::try_from(d).ok())
                    .ok_or_else(|| self.error(format!("'{name}' holds a negative dimension")))
            })
            .collect()
    }

    /// Splits `inputs` and `inits` of ops with `AttrSizedOperandSegments`.
    fn two_segments(&self) -> Result<(Vec<Value<'c, 'a>>, Vec<Value<'c, 'a>>), DecodeError> {
        let operands = self.operands();
        let sizes = segment_sizes(&self.op).ok_or_else(|| self.error("has no operand segment sizes"))?;
        match sizes.as_slice() {
            [inputs, inits] if (*inputs + *inits) as usize == operands.len() && *inputs >= 0 && *inits >= 0 => {
                let (inputs, inits) = operands.split_at(*inputs as usize);
                Ok((inputs.to_vec(), inits.to_vec()))
            }
            _ => Err(self.error(format!("operand segment sizes {sizes:?} do not match {} operands", operands.len()))),
        }
    }

    fn decode(&self) -> Result<ArrayOp<'c, 'a>, DecodeError> {
        Ok(match self.kind {
            OpKind::Map => ArrayOp::Map { inputs: self.operands(), body: self.region(0)? },
            OpKind::Generate => ArrayOp::Generate { shape: self.operands(), body: self.region(0)? },
            OpKind::Gather => {
                let operands = self.operands();
                let (source, indices) = operands.split_first().ok_or_else(|| self.error("has no source"))?;
                ArrayOp::Gather { source: *source, indices: indices.to_vec() }
            }
            OpKind::Scatter => {
                let operands = self.operands();
                let sizes = segment_sizes(&self.op).ok_or_else(|| self.error("has no operand segment sizes"))?;
                match sizes.as_slice() {
                    [1, indices, keep @ (0 | 1), 1] if (2 + indices + keep) as usize == operands.len() => {
                        let (indices, keep) = (*indices as usize, *keep as usize);
                        ArrayOp::Scatter {
                            dest: operands[0],
                            indices: operands[1..1 + indices].to_vec(),
                            keep: (keep == 1).then(|| operands[1 + indices]),
                            values: operands[operands.len() - 1],
                            combine: self.region(0)?,
                        }
                    }
                    _ => {
                        return Err(self.error(format!(
                            "operand segment sizes {sizes:?} do not match a destination, index arrays, \
                             an optional keep array and values ({} operands)",
                            operands.len()
                        )));
                    }
                }
            }
            OpKind::Fold => {
                let (inputs, inits) = self.two_segments()?;
                ArrayOp::Fold { inputs, inits, body: self.region(0)? }
            }
            OpKind::Scan => {
                let (inputs, inits) = self.two_segments()?;
                let direction = self.inherent_integer(attribute::DIRECTION)?;
                let kind = self.inherent_integer(attribute::KIND)?;
                ArrayOp::Scan {
                    direction: ScanDirection::from_ods_value(direction)
                        .ok_or_else(|| self.error(format!("unknown scan direction {direction}")))?,
                    kind: ScanKind::from_ods_value(kind)
                        .ok_or_else(|| self.error(format!("unknown scan kind {kind}")))?,
                    inputs,
                    inits,
                    body: self.region(0)?,
                }
            }
            OpKind::Filter => ArrayOp::Filter { inputs: self.operands(), predicate: self.region(0)? },
            OpKind::Expand => ArrayOp::Expand { inputs: self.operands(), count: self.region(0)?, get: self.region(1)? },
            OpKind::Force => ArrayOp::Force { input: self.exactly(1)?[0] },
            OpKind::Size => ArrayOp::Size { input: self.exactly(1)?[0] },
            OpKind::Dim => {
                ArrayOp::Dim { input: self.exactly(1)?[0], dimension: self.inherent_integer(attribute::DIMENSION)? }
            }
            OpKind::Index => {
                let operands = self.operands();
                let (array, indices) = operands.split_first().ok_or_else(|| self.error("has no array"))?;
                ArrayOp::Index { array: *array, indices: indices.to_vec() }
            }
            OpKind::Yield => ArrayOp::Yield { values: self.operands() },
            OpKind::Backpermute => {
                let operands = self.operands();
                let (source, shape) = operands.split_first().ok_or_else(|| self.error("has no source"))?;
                ArrayOp::Backpermute { source: *source, shape: shape.to_vec(), index_map: self.region(0)? }
            }
            OpKind::Permute => {
                let operands = self.exactly(2)?;
                ArrayOp::Permute {
                    source: operands[0],
                    dest: operands[1],
                    index_map: self.region(0)?,
                    combine: self.region(1)?,
                }
            }
            OpKind::Reverse => ArrayOp::Reverse { input: self.exactly(1)?[0] },
            OpKind::Transpose => ArrayOp::Transpose {
                input: self.exactly(1)?[0],
                permutation: self.inherent_dimensions(attribute::PERMUTATION)?,
            },
            OpKind::Concat => {
                let operands = self.exactly(2)?;
                ArrayOp::Concat { lhs: operands[0], rhs: operands[1] }
            }
            OpKind::Reshape => {
                let operands = self.operands();
                let (input, shape) = operands.split_first().ok_or_else(|| self.error("has no input"))?;
                ArrayOp::Reshape { input: *input, shape: shape.to_vec() }
            }
            OpKind::Slice => {
                let operands = self.exactly(3)?;
                ArrayOp::Slice { input: operands[0], offset: operands[1], size: operands[2] }
            }
            OpKind::Replicate => {
                let operands = self.exactly(2)?;
                ArrayOp::Replicate { input: operands[0], count: self.operand(1)? }
            }
            OpKind::Cluster => ArrayOp::Cluster { body: self.region(0)? },
            OpKind::Vertical => ArrayOp::Vertical { producer: self.region(0)?, consumer: self.region(1)? },
            OpKind::Horizontal => ArrayOp::Horizontal { left: self.region(0)?, right: self.region(1)? },
            OpKind::Diagonal => ArrayOp::Diagonal { producer: self.region(0)?, consumer: self.region(1)? },
        })
    }
}

/// The `operandSegmentSizes` of an op with several variadic or optional operand groups
/// (`fold`, `scan`, `scatter`).
pub fn segment_sizes<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<Vec<i32>> {
    let attribute = op.inherent_attribute(attribute::OPERAND_SEGMENT_SIZES).ok()?;
    let raw = attribute.to_raw();
    // SAFETY: `raw` is a live attribute of a live op; its kind is checked before reading.
    unsafe {
        if !mlir_sys::mlirAttributeIsADenseI32Array(raw) {
            return None;
        }
        let n = mlir_sys::mlirDenseArrayGetNumElements(raw);
        Some((0..n).map(|i| mlir_sys::mlirDenseI32ArrayGetElement(raw, i)).collect())
    }
}

/// The integer `arith` ops that are associative and commutative, bit for bit: a fold or
/// reduction combining with one of them may be regrouped in any way.
pub const INTEGER_REGROUPABLE: &[&str] = &[
    "arith.addi",
    "arith.muli",
    "arith.andi",
    "arith.ori",
    "arith.xori",
    "arith.maxsi",
    "arith.minsi",
    "arith.maxui",
    "arith.minui",
];

/// The floating-point `arith` ops that are associative and commutative exactly: IEEE
/// 754-2019's `minimum` and `maximum` return one of their operands (−0 below +0) or NaN
/// when either is NaN, whatever the grouping (only which NaN payload comes out may
/// differ). Not `minnumf` / `maxnumf`: of +0 and −0 they may return either.
pub const EXACT_FLOAT_REGROUPABLE: &[&str] = &["arith.minimumf", "arith.maximumf"];

/// The floating-point `arith` ops that are associative and commutative up to rounding:
/// one may be regrouped where it carries the `fastmath` flag `reassoc`
/// ([`allows_reassociation`]).
pub const REASSOCIABLE_FLOAT: &[&str] = &["arith.addf", "arith.mulf"];

/// Whether a fold's or scan's element function `body` (`^bb0(%acc, %x)`) is one op that
/// is associative and commutative, applied to the accumulator and the element (`acc ⊕ x`
/// or `x ⊕ acc`) and yielded, so that folding in any order and grouping (from the right,
/// or in parallel parts) gives the value of folding from the left (the dialect's meaning):
/// an integer op (`addi`, `muli`, `andi`, `ori`, `xori`, signed and unsigned min and
/// max), bit for bit; or `arith.addf` / `arith.mulf` carrying MLIR's `fastmath` flag
/// `reassoc` (or `fast`), the user's permission to regroup them (rounding then differs).
/// Other floating-point ops are not, nor is any body this cannot see through; the answer
/// errs towards `false`.
pub fn combine_commutes<'c, 'a>(body: RegionRef<'c, 'a>) -> bool {
    use melior::ir::{RegionLike, block::BlockLike};
    let Some(block) = body.first_block() else { return false };
    let (Ok(acc), Ok(x), 2) = (block.argument(0), block.argument(1), block.argument_count()) else { return false };
    let (acc, x): (Value, Value) = (acc.into(), x.into());
    let Some(combine) = block.first_operation() else { return false };
    let Some(terminator) = combine.next_in_block() else { return false };
    if terminator.next_in_block().is_some()
        || combine.operand_count() != 2
        || combine.result_count() != 1
        || terminator.operand_count() != 1
    {
        return false;
    }
    let name = combine.name();
    let Ok(name) = name.as_string_ref().as_str() else { return false };
    let (Ok(a), Ok(b), Ok(result), Ok(yielded)) =
        (combine.operand(0), combine.operand(1), combine.result(0), terminator.operand(0))
    else {
        return false;
    };
    let result: Value = result.into();
    let regroupable =
        INTEGER_REGROUPABLE.contains(&name) || (REASSOCIABLE_FLOAT.contains(&name) && allows_reassociation(&combine));
    regroupable && ((a == acc && b == x) || (a == x && b == acc)) && yielded == result
}

/// Whether `op`'s `fastmath` flags include `reassoc` (`fast` includes it).
pub fn allows_reassociation<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> bool {
    op.attribute("fastmath").is_ok_and(|flags| {
        let flags = flags.to_string();
        let inner = flags.trim_start_matches("#arith.fastmath<").trim_end_matches('>');
        inner.split(',').any(|f| matches!(f.trim(), "reassoc" | "fast"))
    })
}

/// Whether `value` has a ranked tensor type (an array of the dialect).
pub fn is_array<'c>(value: impl ValueLike<'c>) -> bool {
    melior::ir::r#type::RankedTensorType::try_from(value.r#type()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use melior::ir::{RegionLike, block::BlockLike};

    const EVERY_OP: &str = r#"
func.func @f(%a: tensor<?xf32>, %m: tensor<?x4xf32>, %i: tensor<?xindex>, %n: index) -> () {
  %map = array.map %a, %a : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%x: f32, %y: f32):
    %s = arith.addf %x, %y : f32
    array.yield %s : f32
  }
  %gen = array.generate (%n) : tensor<?xindex> {
  ^bb0(%k: index):
    array.yield %k : index
  }
  %gat = array.gather %a[%i] : tensor<?xf32>[tensor<?xindex>] -> tensor<?xf32>
  %sca = array.scatter %a[%i], %a : tensor<?xf32>[tensor<?xindex>], tensor<?xf32> combine {
  ^bb0(%o: f32, %v: f32):
    array.yield %v : f32
  }
  %z = arith.constant 0.0 : f32
  %fol = array.fold %m init(%z : f32) : tensor<?x4xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    %s = arith.addf %acc, %x : f32
    array.yield %s : f32
  }
  %sca2 = array.scan right exclusive %a init(%z : f32) : tensor<?xf32> -> tensor<?xf32> {
  ^bb0(%acc: f32, %x: f32):
    %s = arith.addf %acc, %x : f32
    array.yield %s : f32
  }
  %d = array.dim %m, 1 : tensor<?x4xf32>
  %r = array.replicate %a, %n : tensor<?xf32> -> tensor<?x?xf32>
  %t = array.transpose %m [1, 0] : tensor<?x4xf32> -> tensor<4x?xf32>
  %sl = array.slice %m from %n size %n : tensor<?x4xf32> -> tensor<?x?xf32>
  %rs = array.reshape %m to (%n, %n, %n) : tensor<?x4xf32> -> tensor<?x?x?xf32>
  %cat = array.concat %a, %map : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>
  return
}
"#;

    #[test]
    fn names_round_trip() {
        for kind in OpKind::ALL {
            assert_eq!(OpKind::from_name(kind.name()), Some(*kind));
            assert!(kind.name().starts_with(DIALECT_PREFIX));
        }
        assert_eq!(OpKind::from_name("arith.addf"), None);
    }

    #[test]
    fn only_one_regroupable_op_on_acc_and_x_commutes() {
        let fold = |body: &str, t: &str| {
            format!(
                "func.func @f(%a: tensor<?x{t}>, %z: {t}) -> tensor<{t}> {{\n  %r = array.fold %a init(%z : {t}) : tensor<?x{t}> -> tensor<{t}> {{\n  ^bb0(%acc: {t}, %x: {t}):\n{body}\n  }}\n  return %r : tensor<{t}>\n}}"
            )
        };
        let cases = [
            ("    %s = arith.addi %acc, %x : i64\n    array.yield %s : i64", "i64", true),
            ("    %s = arith.maxsi %x, %acc : i64\n    array.yield %s : i64", "i64", true),
            ("    %s = arith.subi %acc, %x : i64\n    array.yield %s : i64", "i64", false),
            ("    %s = arith.addi %x, %x : i64\n    array.yield %s : i64", "i64", false),
            ("    array.yield %x : i64", "i64", false),
            (
                "    %c = arith.constant 3 : i64\n    %m = arith.muli %acc, %c : i64\n    %s = arith.addi %m, %x : i64\n    array.yield %s : i64",
                "i64",
                false,
            ),
            ("    %s = arith.addf %acc, %x : f64\n    array.yield %s : f64", "f64", false),
            ("    %s = arith.addf %acc, %x fastmath<contract> : f64\n    array.yield %s : f64", "f64", false),
            ("    %s = arith.addf %acc, %x fastmath<reassoc> : f64\n    array.yield %s : f64", "f64", true),
            ("    %s = arith.mulf %x, %acc fastmath<nnan,reassoc> : f64\n    array.yield %s : f64", "f64", true),
            ("    %s = arith.addf %acc, %x fastmath<fast> : f64\n    array.yield %s : f64", "f64", true),
            ("    %s = arith.subf %acc, %x fastmath<fast> : f64\n    array.yield %s : f64", "f64", false),
        ];
        let context = crate::context();
        for (body, t, commutes) in cases {
            let source = fold(body, t);
            let module = crate::source::parse_source(&context, &source, "fold.mlir")
                .unwrap_or_else(|e| panic!("{e}:\n{source}"));
            let function = module.body().first_operation().expect("one function");
            let fold = function.region(0).unwrap().first_block().unwrap().first_operation().unwrap();
            let Some(Ok(ArrayOp::Fold { body, .. })) = ArrayOp::decode(fold) else { panic!("a fold:\n{source}") };
            assert_eq!(combine_commutes(body), commutes, "{source}");
        }
    }

    #[test]
    fn decodes_operands_by_role() {
        let context = crate::context();
        let module = crate::source::parse_source(&context, EVERY_OP, "every_op.mlir").expect("the test program parses");
        let function = module.body().first_operation().expect("one function");
        let block = function.region(0).unwrap().first_block().unwrap();
        let mut seen = Vec::new();
        let mut op = block.first_operation();
        while let Some(o) = op {
            if let Some(decoded) = ArrayOp::decode(o) {
                let decoded = decoded.expect("verified ops decode");
                seen.push(decoded.kind());
                match decoded {
                    ArrayOp::Map { inputs, .. } => assert_eq!(inputs.len(), 2),
                    ArrayOp::Generate { shape, .. } => assert_eq!(shape.len(), 1),
                    ArrayOp::Gather { indices, .. } => assert_eq!(indices.len(), 1),
                    ArrayOp::Scatter { dest, indices, values, .. } => {
                        assert_eq!(indices.len(), 1);
                        assert_eq!(dest, values, "both are %a");
                    }
                    ArrayOp::Fold { inputs, inits, .. } => {
                        assert_eq!((inputs.len(), inits.len()), (1, 1));
                        assert!(is_array(inputs[0]) && !is_array(inits[0]));
                    }
                    ArrayOp::Scan { direction, kind, inputs, inits, .. } => {
                        assert_eq!((direction, kind), (ScanDirection::Right, ScanKind::Exclusive));
                        assert_eq!((inputs.len(), inits.len()), (1, 1));
                    }
                    ArrayOp::Dim { dimension, .. } => assert_eq!(dimension, 1),
                    ArrayOp::Replicate { input, count } => assert!(is_array(input) && !is_array(count)),
                    ArrayOp::Concat { lhs, rhs } => assert!(is_array(lhs) && is_array(rhs) && lhs != rhs),
                    ArrayOp::Reshape { input, shape } => {
                        assert!(is_array(input));
                        assert_eq!(shape.len(), 3);
                    }
                    ArrayOp::Slice { input, offset, size } => {
                        assert!(is_array(input) && !is_array(offset));
                        assert_eq!(offset, size, "both are %n");
                    }
                    ArrayOp::Transpose { input, permutation } => {
                        assert!(is_array(input));
                        assert_eq!(permutation, [1, 0]);
                    }
                    other => panic!("unexpected op {other:?}"),
                }
            }
            op = o.next_in_block();
        }
        use OpKind::*;
        assert_eq!(
            seen,
            [Map, Generate, Gather, Scatter, Fold, Scan, Dim, Replicate, Transpose, Slice, Reshape, Concat]
        );
    }
}
