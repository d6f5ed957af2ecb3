//! `array-desugar`: rewrites the sugar ops into core combinators (seed 000 §2.1), so the
//! fusion analysis only sees map, generate, gather, scatter, fold, scan, filter and
//! expand:
//! * `reverse xs` → `generate` of the index arrays (innermost index `n-1-i`) + `gather`;
//! * `backpermute xs to (s) f` → `generate (s) f` (the same region) + `gather`;
//! * `replicate xs, m` → `generate` over `(dims of xs, m)` dropping the new index, then
//!   `gather`;
//! * `transpose xs p` → `generate` over the permuted dims of xs yielding the source index
//!   (`j[p[k]] = i_k`), then `gather`;
//! * `slice xs from o size n` → `generate` over `(outer dims of xs, n)` yielding the
//!   innermost index plus `o`, then `gather`;
//! * `reshape xs to (s)` → `generate (s)` yielding the output's row-major index split
//!   along the dims of xs (remainders from the innermost), then `gather`;
//! * `concat a, b` → `generate` over `(outer dims, n_a + n_b)` whose element function
//!   reads `a[…, i]` or `b[…, i - n_a]` in the branches of a `scf.if` (`array.index`: a
//!   gather cannot choose between two sources, and an index clamped into one of them is
//!   out of range when it is empty);
//! * `permute src into dest f c` → `generate` over the source shape with `f`, then
//!   `scatter dest[...] , src combine c`; when `f` also yields a keep flag (seed 004's
//!   `Nothing` target), the generate yields the flags too and the scatter drops the
//!   positions whose flag is false (`scatter dest[...] keep(flags), src`).
//!
//! * `replicate x, m` of a rank-0 `x` → `generate (m)` reading `x[]` (a gather needs a
//!   source of rank ≥ 1).

use crate::bridge::{PassDefinition, PassFailed, PassOptions};
use crate::ir::{self, Op};
use array_dialect::view::{ArrayOp, OpKind, attribute};
use melior::{
    Context,
    dialect::{arith, scf},
    ir::{
        Attribute, Block, BlockLike, Identifier, Location, OperationRef, Region, RegionLike, RegionRef, Type, Value,
        ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
        r#type::{IntegerType, RankedTensorType, ShapedTypeLike},
    },
};

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-desugar",
    description: "Rewrite reverse, backpermute, replicate, permute, transpose, slice, reshape and concat into \
                  generate + gather/scatter (seed 000 §2.1)",
    anchor: Some("func.func"),
    // scf: concat's element function chooses its operand in a `scf.if`.
    dependent_dialects: &[mlir_sys::mlirGetDialectHandle__arith__, mlir_sys::mlirGetDialectHandle__scf__],
    options: &[],
    state: None,
    run,
};

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let mut sugar = Vec::new();
    function.walk(melior::ir::operation::WalkOrder::PostOrder, |op| {
        if matches!(
            OpKind::of(&op),
            Some(
                OpKind::Reverse
                    | OpKind::Transpose
                    | OpKind::Slice
                    | OpKind::Reshape
                    | OpKind::Concat
                    | OpKind::Backpermute
                    | OpKind::Replicate
                    | OpKind::Permute
            )
        ) {
            sugar.push(op.to_raw());
        }
        melior::ir::operation::WalkResult::Advance
    });
    for raw in sugar {
        // SAFETY: collected from the live function; each is rewritten once.
        let op = unsafe { OperationRef::from_raw(raw) };
        desugar(context, op);
    }
    Ok(())
}

fn index(context: &Context) -> Type<'_> {
    Type::index(context)
}

/// `tensor<shape x index>`.
fn index_array<'c>(context: &'c Context, shape: &[u64]) -> Type<'c> {
    RankedTensorType::new(shape, index(context), None).into()
}

fn shape_of(t: Type) -> Vec<u64> {
    let tensor = RankedTensorType::try_from(t).expect("array operands are ranked tensors");
    // MLIR's marker of a dynamic extent (ShapedType::kDynamic) as melior expects it.
    (0..tensor.rank())
        .map(|d| match tensor.dim_size(d) {
            Ok(melior::ir::r#type::DimSize::Static(s)) => s,
            _ => i64::MIN as u64,
        })
        .collect()
}

fn desugar<'c>(context: &'c Context, op: OperationRef<'c, '_>) {
    let Some(decoded) = ArrayOp::of(op) else { return };
    let sugar = Sugar { context, location: op.location(), op };
    let replacement = match decoded {
        ArrayOp::Reverse { input } => Some(sugar.reverse(input)),
        ArrayOp::Transpose { input, permutation } => Some(sugar.transpose(input, &permutation)),
        ArrayOp::Slice { input, offset, size } => Some(sugar.slice(input, offset, size)),
        ArrayOp::Reshape { input, shape } => Some(sugar.reshape(input, &shape)),
        ArrayOp::Concat { lhs, rhs } => Some(sugar.concat(lhs, rhs)),
        ArrayOp::Backpermute { source, shape, index_map } => Some(sugar.backpermute(source, &shape, index_map)),
        ArrayOp::Replicate { input, count } => sugar.replicate(input, count),
        ArrayOp::Permute { source, dest, index_map, combine } => Some(sugar.permute(source, dest, index_map, combine)),
        _ => None,
    };
    if let Some(new) = replacement {
        ir::replace_uses_where(op.result(0).unwrap().to_raw(), new.to_raw(), |_| true);
        // SAFETY: the sugar op's one result was replaced above; `op` is not used again.
        unsafe { ir::erase(op.to_raw() as Op) };
    }
}

/// One sugar op being rewritten: new ops go right before it.
struct Sugar<'c, 'a> {
    context: &'c Context,
    location: Location<'c>,
    op: OperationRef<'c, 'a>,
}

impl<'c, 'a> Sugar<'c, 'a> {
    fn insert(&self, new: melior::ir::Operation<'c>) -> OperationRef<'c, 'a> {
        let block = self.op.block().expect("ops of a function are in blocks");
        block.insert_operation_before(self.op, new)
    }

    /// `array.dim` of every dimension of `array`.
    fn dims(&self, array: Value<'c, 'a>) -> Vec<Value<'c, 'a>> {
        let (context, location) = (self.context, self.location);
        let rank = shape_of(array.r#type()).len();
        (0..rank)
            .map(|d| {
                let dim = OperationBuilder::new(OpKind::Dim.name(), location)
                    .add_operands(&[array])
                    .add_attributes(&[(
                        melior::ir::Identifier::new(context, attribute::DIMENSION),
                        IntegerAttribute::new(Type::parse(context, "i64").unwrap(), d as i64).into(),
                    )])
                    .add_results(&[index(context)])
                    .build()
                    .expect("a dim of an array operand is valid");
                self.insert(dim).result(0).unwrap().into()
            })
            .collect()
    }

    /// A `generate` of index arrays of `result`'s shape, then the `gather` of `source` at them.
    fn generate_and_gather(
        &self,
        source: Value<'c, 'a>,
        extents: &[Value<'c, 'a>],
        index_shape: &[u64],
        body: Region<'c>,
        result: Type<'c>,
    ) -> Value<'c, 'a> {
        let source_rank = shape_of(source.r#type()).len();
        let index_types = vec![index_array(self.context, index_shape); source_rank];
        let generate = self.insert(generate_op(self.location, extents, &index_types, body));
        let indices: Vec<Value> = (0..source_rank).map(|i| generate.result(i).unwrap().into()).collect();
        self.insert(gather_op(self.location, source, &indices, result)).result(0).unwrap().into()
    }

    fn reverse(&self, source: Value<'c, 'a>) -> Value<'c, 'a> {
        let (context, location) = (self.context, self.location);
        let shape = shape_of(source.r#type());
        let extents = self.dims(source);
        let rank = shape.len();
        // Body: (i_0, ..., i_{r-1}) -> (i_0, ..., n-1-i_{r-1}).
        let body = Block::new(&vec![(index(context), location); rank]);
        let one =
            body.append_operation(arith::constant(context, IntegerAttribute::new(index(context), 1).into(), location));
        let last = body.argument(rank - 1).unwrap().into();
        let m = body.append_operation(arith::subi(extents[rank - 1], last, location));
        let k =
            body.append_operation(arith::subi(m.result(0).unwrap().into(), one.result(0).unwrap().into(), location));
        let mut yielded: Vec<Value> = (0..rank - 1).map(|i| body.argument(i).unwrap().into()).collect();
        yielded.push(k.result(0).unwrap().into());
        body.append_operation(crate::ops_yield(context, &yielded, location));
        let region = Region::new();
        region.append_block(body);
        self.generate_and_gather(source, &extents, &shape, region, self.op.result(0).unwrap().r#type())
    }

    fn transpose(&self, source: Value<'c, 'a>, permutation: &[usize]) -> Value<'c, 'a> {
        let (context, location) = (self.context, self.location);
        let dims = self.dims(source);
        let extents: Vec<Value> = permutation.iter().map(|&d| dims[d]).collect();
        let result = self.op.result(0).unwrap().r#type();
        // Body: (i_0, ..., i_{r-1}) -> j with j[permutation[k]] = i_k.
        let rank = permutation.len();
        let body = Block::new(&vec![(index(context), location); rank]);
        let mut yielded: Vec<Option<Value>> = vec![None; rank];
        for (k, &d) in permutation.iter().enumerate() {
            yielded[d] = Some(body.argument(k).unwrap().into());
        }
        let yielded: Vec<Value> =
            yielded.into_iter().map(|v| v.expect("the verifier checked the permutation")).collect();
        body.append_operation(crate::ops_yield(context, &yielded, location));
        let region = Region::new();
        region.append_block(body);
        self.generate_and_gather(source, &extents, &shape_of(result), region, result)
    }

    fn slice(&self, source: Value<'c, 'a>, offset: Value<'c, 'a>, size: Value<'c, 'a>) -> Value<'c, 'a> {
        let (context, location) = (self.context, self.location);
        let mut extents = self.dims(source);
        let rank = extents.len();
        extents[rank - 1] = size;
        let result = self.op.result(0).unwrap().r#type();
        // Body: (i_0, ..., i_{r-1}) -> (i_0, ..., offset + i_{r-1}).
        let body = Block::new(&vec![(index(context), location); rank]);
        let last = body.argument(rank - 1).unwrap().into();
        let shifted = body.append_operation(arith::addi(offset, last, location));
        let mut yielded: Vec<Value> = (0..rank - 1).map(|i| body.argument(i).unwrap().into()).collect();
        yielded.push(shifted.result(0).unwrap().into());
        body.append_operation(crate::ops_yield(context, &yielded, location));
        let region = Region::new();
        region.append_block(body);
        self.generate_and_gather(source, &extents, &shape_of(result), region, result)
    }

    fn reshape(&self, source: Value<'c, 'a>, shape: &[Value<'c, 'a>]) -> Value<'c, 'a> {
        let (context, location) = (self.context, self.location);
        let dims = self.dims(source);
        let result = self.op.result(0).unwrap().r#type();
        let rank = shape.len();
        let body = Block::new(&vec![(index(context), location); rank]);
        // k = ((i_0 · s_1 + i_1) · s_2 + i_2) …, the row-major position in the output.
        let mut linear: Value = body.argument(0).unwrap().into();
        for (d, &extent) in shape.iter().enumerate().skip(1) {
            let scaled = body.append_operation(arith::muli(linear, extent, location));
            let next = body.append_operation(arith::addi(
                scaled.result(0).unwrap().into(),
                body.argument(d).unwrap().into(),
                location,
            ));
            linear = next.result(0).unwrap().into();
        }
        // Split k along the source's extents, innermost first: j_d = k mod n_d, k = k / n_d;
        // the outermost index takes what is left.
        let mut source_index: Vec<Value> = vec![linear; dims.len()];
        for d in (1..dims.len()).rev() {
            let rem = body.append_operation(arith::remui(linear, dims[d], location));
            let quot = body.append_operation(arith::divui(linear, dims[d], location));
            source_index[d] = rem.result(0).unwrap().into();
            linear = quot.result(0).unwrap().into();
        }
        source_index[0] = linear;
        body.append_operation(crate::ops_yield(context, &source_index, location));
        let region = Region::new();
        region.append_block(body);
        self.generate_and_gather(source, shape, &shape_of(result), region, result)
    }

    fn concat(&self, lhs: Value<'c, 'a>, rhs: Value<'c, 'a>) -> Value<'c, 'a> {
        let (context, location) = (self.context, self.location);
        let result = self.op.result(0).unwrap().r#type();
        let element = RankedTensorType::try_from(result).expect("concat gives an array").element();
        let mut extents = self.dims(lhs);
        let rank = extents.len();
        let split = extents[rank - 1];
        let rhs_inner = self.dims(rhs)[rank - 1];
        extents[rank - 1] = self.insert(arith::addi(split, rhs_inner, location)).result(0).unwrap().into();
        let body = Block::new(&vec![(index(context), location); rank]);
        let outer: Vec<Value> = (0..rank - 1).map(|d| body.argument(d).unwrap().into()).collect();
        let i: Value = body.argument(rank - 1).unwrap().into();
        let read = |array: Value<'c, 'a>, inner: Value<'c, '_>| {
            let branch = Block::new(&[]);
            let mut operands = vec![array];
            operands.extend(outer.iter().copied());
            operands.push(inner);
            let element_read = branch.append_operation(
                OperationBuilder::new(OpKind::Index.name(), location)
                    .add_operands(&operands)
                    .add_results(&[element])
                    .build()
                    .expect("a read of an array element is valid"),
            );
            branch.append_operation(scf::r#yield(&[element_read.result(0).unwrap().into()], location));
            let region = Region::new();
            region.append_block(branch);
            region
        };
        let in_lhs = body.append_operation(arith::cmpi(context, arith::CmpiPredicate::Ult, i, split, location));
        let then_region = read(lhs, i);
        let shifted = body.append_operation(arith::subi(i, split, location));
        let else_region = read(rhs, shifted.result(0).unwrap().into());
        let chosen = body.append_operation(scf::r#if(
            in_lhs.result(0).unwrap().into(),
            &[element],
            then_region,
            else_region,
            location,
        ));
        body.append_operation(crate::ops_yield(context, &[chosen.result(0).unwrap().into()], location));
        let region = Region::new();
        region.append_block(body);
        self.insert(generate_op(location, &extents, &[result], region)).result(0).unwrap().into()
    }

    fn backpermute(
        &self,
        source: Value<'c, 'a>,
        extents: &[Value<'c, 'a>],
        index_map: RegionRef<'c, '_>,
    ) -> Value<'c, 'a> {
        let result_type = self.op.result(0).unwrap().r#type();
        let region = take_region(index_map);
        self.generate_and_gather(source, extents, &shape_of(result_type), region, result_type)
    }

    fn replicate(&self, source: Value<'c, 'a>, count: Value<'c, 'a>) -> Option<Value<'c, 'a>> {
        let (context, location) = (self.context, self.location);
        let source_rank = shape_of(source.r#type()).len();
        let result_type = self.op.result(0).unwrap().r#type();
        if source_rank == 0 {
            return Some(self.replicate_scalar(source, count, result_type));
        }
        let mut extents = self.dims(source);
        extents.push(count);
        let body = Block::new(&vec![(index(context), location); source_rank + 1]);
        let yielded: Vec<Value> = (0..source_rank).map(|i| body.argument(i).unwrap().into()).collect();
        body.append_operation(crate::ops_yield(context, &yielded, location));
        let region = Region::new();
        region.append_block(body);
        Some(self.generate_and_gather(source, &extents, &shape_of(result_type), region, result_type))
    }

    /// `replicate x, m` of a rank-0 `x`: `generate (m)` whose element function reads the
    /// one element, `x[]` (`array.index`: `x` becomes a free variable of the generate, seed
    /// 000 `xs ! i`), since a gather needs a source of rank 1 or more.
    fn replicate_scalar(&self, source: Value<'c, 'a>, count: Value<'c, 'a>, result: Type<'c>) -> Value<'c, 'a> {
        let (context, location) = (self.context, self.location);
        let element = RankedTensorType::try_from(source.r#type()).expect("replicate takes an array").element();
        let body = Block::new(&[(index(context), location)]);
        let read = body.append_operation(
            OperationBuilder::new(OpKind::Index.name(), location)
                .add_operands(&[source])
                .add_results(&[element])
                .build()
                .expect("a read of a rank-0 array is valid"),
        );
        body.append_operation(crate::ops_yield(context, &[read.result(0).unwrap().into()], location));
        let region = Region::new();
        region.append_block(body);
        self.insert(generate_op(location, &[count], &[result], region)).result(0).unwrap().into()
    }

    fn permute(
        &self,
        source: Value<'c, 'a>,
        dest: Value<'c, 'a>,
        index_map: RegionRef<'c, '_>,
        combine: RegionRef<'c, '_>,
    ) -> Value<'c, 'a> {
        let location = self.location;
        let dest_rank = shape_of(dest.r#type()).len();
        // The index region yields one index per destination dimension, then (seed 004's
        // `Nothing`) an optional keep flag, which becomes the scatter's `keep` array.
        let keep = yield_count(self.op, 0) == dest_rank + 1;
        let extents = self.dims(source);
        let source_shape = shape_of(source.r#type());
        let mut generated = vec![index_array(self.context, &source_shape); dest_rank];
        if keep {
            let flag = IntegerType::new(self.context, 1).into();
            generated.push(RankedTensorType::new(&source_shape, flag, None).into());
        }
        let generate = self.insert(generate_op(location, &extents, &generated, take_region(index_map)));
        let mut operands = vec![dest];
        operands.extend((0..generated.len()).map(|i| -> Value { generate.result(i).unwrap().into() }));
        operands.push(source);
        let segments = format!("array<i32: 1, {dest_rank}, {}, 1>", keep as i32);
        let scatter = OperationBuilder::new(OpKind::Scatter.name(), location)
            .add_operands(&operands)
            .add_results(&[dest.r#type()])
            .add_attributes(&[(
                Identifier::new(self.context, attribute::OPERAND_SEGMENT_SIZES),
                Attribute::parse(self.context, &segments).expect("a dense i32 array"),
            )])
            .add_regions([take_region(combine)])
            .build()
            .expect("a scatter of a permute's operands is valid");
        self.insert(scatter).result(0).unwrap().into()
    }
}

/// Moves the blocks of `from`, a region of the op being rewritten, into a new region.
fn take_region<'c>(from: RegionRef<'c, '_>) -> Region<'c> {
    let region = Region::new();
    // SAFETY: both regions are live; the op's region is left empty and the op is erased.
    unsafe { mlir_sys::mlirRegionTakeBody(region.to_raw(), from.to_raw()) };
    region
}

/// How many values the terminator of region `index` of `op` yields.
fn yield_count(op: OperationRef, index: usize) -> usize {
    // The last op of the block (the C API's terminator lookup does not see every
    // terminator trait).
    let block = ir::first_block(ir::region(op.to_raw(), index as isize));
    ir::block_ops(block).last().map(|t| ir::operands(*t).len()).unwrap_or(0)
}

fn generate_op<'c>(
    location: Location<'c>,
    extents: &[Value<'c, '_>],
    results: &[Type<'c>],
    body: Region<'c>,
) -> melior::ir::Operation<'c> {
    OperationBuilder::new(OpKind::Generate.name(), location)
        .add_operands(extents)
        .add_results(results)
        .add_regions([body])
        .build()
        .expect("a generate of index extents is valid")
}

fn gather_op<'c>(
    location: Location<'c>,
    source: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    result: Type<'c>,
) -> melior::ir::Operation<'c> {
    let mut operands = vec![source];
    operands.extend_from_slice(indices);
    OperationBuilder::new(OpKind::Gather.name(), location)
        .add_operands(&operands)
        .add_results(&[result])
        .build()
        .expect("a gather of index arrays is valid")
}
