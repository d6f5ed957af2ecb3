//! The typed Rust builders generated from `ArrayOps.td` build ops that print in the
//! custom syntax and pass the C++ verifiers.

use array_dialect::ops::array;
use melior::{
    dialect::{arith, func},
    ir::{
        Block, BlockLike, Location, Module, Region, RegionLike, Type,
        attribute::{StringAttribute, TypeAttribute},
        operation::OperationLike,
        r#type::FunctionType,
    },
};

#[test]
fn build_a_map_of_two_inputs_and_verify_it() {
    let context = array_dialect::context();
    let location = Location::unknown(&context);
    let f32 = Type::float32(&context);
    let vector = Type::parse(&context, "tensor<?xf32>").unwrap();

    let module = Module::new(location);
    let function_type = FunctionType::new(&context, &[vector, vector], &[vector]);
    let entry = Block::new(&[(vector, location), (vector, location)]);

    let body = Block::new(&[(f32, location), (f32, location)]);
    let sum = body.append_operation(arith::addf(
        body.argument(0).unwrap().into(),
        body.argument(1).unwrap().into(),
        location,
    ));
    body.append_operation(array::r#yield(&context, &[sum.result(0).unwrap().into()], location).into());
    let region = Region::new();
    region.append_block(body);

    let map = entry.append_operation(
        array::map(
            &context,
            &[vector],
            &[entry.argument(0).unwrap().into(), entry.argument(1).unwrap().into()],
            region,
            location,
        )
        .into(),
    );
    entry.append_operation(func::r#return(&[map.result(0).unwrap().into()], location));
    let function_region = Region::new();
    function_region.append_block(entry);
    module.body().append_operation(func::func(
        &context,
        StringAttribute::new(&context, "zipWithAdd"),
        TypeAttribute::new(function_type.into()),
        function_region,
        &[],
        location,
    ));

    assert!(module.as_operation().verify());
    let text = module.as_operation().to_string();
    assert!(text.contains("array.map %arg0, %arg1 : tensor<?xf32>, tensor<?xf32> -> tensor<?xf32>"), "{text}");
}

#[test]
fn builder_output_with_a_wrong_yield_is_rejected_by_the_verifier() {
    let context = array_dialect::context();
    let location = Location::unknown(&context);
    let f32 = Type::float32(&context);
    let i64 = melior::ir::r#type::IntegerType::new(&context, 64).into();
    let vector = Type::parse(&context, "tensor<?xf32>").unwrap();

    let module = Module::new(location);
    let entry = Block::new(&[(vector, location)]);
    let body = Block::new(&[(f32, location)]);
    // Yields an i64 where the result's element type f32 is required.
    let constant = body.append_operation(arith::constant(
        &context,
        melior::ir::attribute::IntegerAttribute::new(i64, 1).into(),
        location,
    ));
    body.append_operation(array::r#yield(&context, &[constant.result(0).unwrap().into()], location).into());
    let region = Region::new();
    region.append_block(body);
    let map = entry.append_operation(
        array::map(&context, &[vector], &[entry.argument(0).unwrap().into()], region, location).into(),
    );
    entry.append_operation(func::r#return(&[map.result(0).unwrap().into()], location));
    let function_region = Region::new();
    function_region.append_block(entry);
    module.body().append_operation(func::func(
        &context,
        StringAttribute::new(&context, "bad"),
        TypeAttribute::new(FunctionType::new(&context, &[vector], &[vector]).into()),
        function_region,
        &[],
        location,
    ));
    assert!(!module.as_operation().verify());
}
