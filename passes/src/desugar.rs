//! `array-desugar`: rewrites the sugar ops into core combinators (seed 000 §2.1), so the
//! fusion analysis only sees map, generate, gather, scatter, fold, scan, filter and
//! expand:
//! * `reverse xs` → `generate` of the index arrays (innermost index `n-1-i`) + `gather`;
//! * `backpermute xs to (s) f` → `generate (s) f` (the same region) + `gather`;
//! * `replicate xs, m` → `generate` over `(dims of xs, m)` dropping the new index, then
//!   `gather`;
//! * `permute src into dest f c` → `generate` over the source shape with `f`, then
//!   `scatter dest[...] , src combine c`.
//!
//! Left as they are, with a remark: `permute` whose index region yields a keep flag
//! (scatter has no way to drop an element) and `replicate` of a rank-0 array (gather
//! needs a source of rank ≥ 1); the analysis still treats them as scatter/gather.

use crate::bridge::{PassDefinition, PassFailed, PassOptions, emit_remark};
use crate::ir::{self, Op};
use melior::{
    Context,
    dialect::arith,
    ir::{
        Block, BlockLike, Location, OperationRef, Region, RegionLike, Type, Value, ValueLike,
        attribute::IntegerAttribute,
        operation::{OperationBuilder, OperationLike},
        r#type::{RankedTensorType, ShapedTypeLike},
    },
};

pub static DEFINITION: PassDefinition = PassDefinition {
    argument: "array-desugar",
    description: "Rewrite reverse, backpermute, replicate and permute into generate + gather/scatter (seed 000 §2.1)",
    anchor: Some("func.func"),
    dependent_dialects: &[mlir_sys::mlirGetDialectHandle__arith__],
    options: &[],
    state: None,
    run,
};

fn run<'c>(context: &'c Context, function: OperationRef<'c, '_>, _: &PassOptions) -> Result<(), PassFailed> {
    let mut sugar = Vec::new();
    function.walk(melior::ir::operation::WalkOrder::PostOrder, |op| {
        if matches!(
            op.name().as_string_ref().as_str(),
            Ok("array.reverse" | "array.backpermute" | "array.replicate" | "array.permute")
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
    let location = op.location();
    let name = op.name().as_string_ref().as_str().unwrap_or_default().to_owned();
    let block = op.block().expect("ops of a function are in blocks");
    let insert = |new: melior::ir::Operation<'c>| -> OperationRef<'c, '_> { block.insert_operation_before(op, new) };
    let dims = |array: Value<'c, '_>| -> Vec<Value<'c, '_>> {
        let rank = shape_of(array.r#type()).len();
        (0..rank)
            .map(|d| {
                let dim = OperationBuilder::new("array.dim", location)
                    .add_operands(&[array])
                    .add_attributes(&[(
                        melior::ir::Identifier::new(context, "dimension"),
                        IntegerAttribute::new(Type::parse(context, "i64").unwrap(), d as i64).into(),
                    )])
                    .add_results(&[index(context)])
                    .build()
                    .expect("valid array.dim");
                insert(dim).result(0).unwrap().into()
            })
            .collect()
    };
    let replacement: Option<Value> = match name.as_str() {
        "array.reverse" => {
            let source = op.operand(0).unwrap();
            let shape = shape_of(source.r#type());
            let extents = dims(source);
            let rank = shape.len();
            // Body: (i_0, ..., i_{r-1}) -> (i_0, ..., n-1-i_{r-1}).
            let body = Block::new(&vec![(index(context), location); rank]);
            let one = body.append_operation(arith::constant(
                context,
                IntegerAttribute::new(index(context), 1).into(),
                location,
            ));
            let last = body.argument(rank - 1).unwrap().into();
            let m = body.append_operation(arith::subi(extents[rank - 1], last, location));
            let k = body.append_operation(arith::subi(
                m.result(0).unwrap().into(),
                one.result(0).unwrap().into(),
                location,
            ));
            let mut yielded: Vec<Value> = (0..rank - 1).map(|i| body.argument(i).unwrap().into()).collect();
            yielded.push(k.result(0).unwrap().into());
            body.append_operation(crate::ops_yield(context, &yielded, location));
            let region = Region::new();
            region.append_block(body);
            let generate =
                insert(generate_op(context, location, &extents, &vec![index_array(context, &shape); rank], region));
            let indices: Vec<Value> = (0..rank).map(|i| generate.result(i).unwrap().into()).collect();
            Some(
                insert(gather_op(location, source, &indices, op.result(0).unwrap().r#type())).result(0).unwrap().into(),
            )
        }
        "array.backpermute" => {
            let source = op.operand(0).unwrap();
            let extents: Vec<Value> = (1..op.operand_count()).map(|i| op.operand(i).unwrap()).collect();
            let result_type = op.result(0).unwrap().r#type();
            let source_rank = shape_of(source.r#type()).len();
            let region = take_region(op, 0);
            let generate = insert(generate_op(
                context,
                location,
                &extents,
                &vec![index_array(context, &shape_of(result_type)); source_rank],
                region,
            ));
            let indices: Vec<Value> = (0..source_rank).map(|i| generate.result(i).unwrap().into()).collect();
            Some(insert(gather_op(location, source, &indices, result_type)).result(0).unwrap().into())
        }
        "array.replicate" => {
            let source = op.operand(0).unwrap();
            let count: Value = op.operand(1).unwrap();
            let source_rank = shape_of(source.r#type()).len();
            if source_rank == 0 {
                emit_remark(
                    location,
                    "array-desugar: a replicated rank-0 array is kept as it is (gather needs a source of rank 1 or more)",
                );
                None
            } else {
                let result_type = op.result(0).unwrap().r#type();
                let mut extents = dims(source);
                extents.push(count);
                let body = Block::new(&vec![(index(context), location); source_rank + 1]);
                let yielded: Vec<Value> = (0..source_rank).map(|i| body.argument(i).unwrap().into()).collect();
                body.append_operation(crate::ops_yield(context, &yielded, location));
                let region = Region::new();
                region.append_block(body);
                let generate = insert(generate_op(
                    context,
                    location,
                    &extents,
                    &vec![index_array(context, &shape_of(result_type)); source_rank],
                    region,
                ));
                let indices: Vec<Value> = (0..source_rank).map(|i| generate.result(i).unwrap().into()).collect();
                Some(insert(gather_op(location, source, &indices, result_type)).result(0).unwrap().into())
            }
        }
        "array.permute" => {
            let source: Value = op.operand(0).unwrap();
            let dest: Value = op.operand(1).unwrap();
            let dest_rank = shape_of(dest.r#type()).len();
            let yields = yield_count(op, 0);
            if yields != dest_rank {
                emit_remark(
                    location,
                    "array-desugar: a permute with a keep flag is kept as it is (scatter cannot drop elements)",
                );
                None
            } else {
                let extents = dims(source);
                let index_region = take_region(op, 0);
                let combine = take_region(op, 1);
                let generate = insert(generate_op(
                    context,
                    location,
                    &extents,
                    &vec![index_array(context, &shape_of(source.r#type())); dest_rank],
                    index_region,
                ));
                let mut operands = vec![dest];
                operands.extend((0..dest_rank).map(|i| -> Value { generate.result(i).unwrap().into() }));
                operands.push(source);
                let scatter = OperationBuilder::new("array.scatter", location)
                    .add_operands(&operands)
                    .add_results(&[dest.r#type()])
                    .add_regions([combine])
                    .build()
                    .expect("valid array.scatter");
                Some(insert(scatter).result(0).unwrap().into())
            }
        }
        _ => None,
    };
    if let Some(new) = replacement {
        ir::replace_uses_where(op.result(0).unwrap().to_raw(), new.to_raw(), |_| true);
        ir::erase(op.to_raw() as Op);
    }
}

/// Moves the blocks of region `index` of `op` into a new region.
fn take_region<'c>(op: OperationRef<'c, '_>, index: usize) -> Region<'c> {
    let region = Region::new();
    // SAFETY: both regions are live; the op's region is left empty and the op is erased.
    unsafe { mlir_sys::mlirRegionTakeBody(region.to_raw(), op.region(index).unwrap().to_raw()) };
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
    _context: &'c Context,
    location: Location<'c>,
    extents: &[Value<'c, '_>],
    results: &[Type<'c>],
    body: Region<'c>,
) -> melior::ir::Operation<'c> {
    OperationBuilder::new("array.generate", location)
        .add_operands(extents)
        .add_results(results)
        .add_regions([body])
        .build()
        .expect("valid array.generate")
}

fn gather_op<'c>(
    location: Location<'c>,
    source: Value<'c, '_>,
    indices: &[Value<'c, '_>],
    result: Type<'c>,
) -> melior::ir::Operation<'c> {
    let mut operands = vec![source];
    operands.extend_from_slice(indices);
    OperationBuilder::new("array.gather", location)
        .add_operands(&operands)
        .add_results(&[result])
        .build()
        .expect("valid array.gather")
}
