//! `array-to-loops` (first slice) end to end: small programs without tensor arguments
//! are lowered (array-to-loops, then MLIR 22's upstream pipeline to the LLVM dialect),
//! JIT-compiled with melior's `ExecutionEngine`, run, and their result compared with the
//! reference interpreter's on the unlowered program. Also: ops outside the slice are
//! left intact and the partially lowered program still verifies.

use melior::{
    Context, ExecutionEngine,
    ir::{
        Attribute, BlockLike, Module,
        operation::{OperationLike, OperationMutLike},
    },
    pass::PassManager,
    utility::parse_pass_pipeline,
};

/// `array-to-loops`, then the shipped lowering to the LLVM dialect
/// (`fusion_codegen::pipeline`, sequential; it also allows loops that yield new tensors).
fn to_llvm() -> String {
    format!(
        "builtin.module(array-to-loops, {})",
        fusion_codegen::pipeline::to_llvm(fusion_codegen::Threads::Sequential)
    )
}

fn context() -> Context {
    fusion_passes::register_all_passes();
    array_dialect::context()
}

fn run_pipeline(context: &Context, module: &mut Module, pipeline: &str) {
    let pm = PassManager::new(context);
    parse_pass_pipeline(pm.as_operation_pass_manager(), pipeline).expect("the pipeline parses");
    pm.run(module).expect("the pipeline succeeds");
    assert!(module.as_operation().verify(), "the result verifies");
}

/// Marks `@name` with `llvm.emit_c_interface`.
fn emit_c_interface(context: &Context, module: &Module, name: &str) {
    let mut found = false;
    let mut op = module.body().first_operation_mut();
    while let Some(mut f) = op {
        let is_it = f
            .attribute("sym_name")
            .ok()
            .and_then(|a| melior::ir::attribute::StringAttribute::try_from(a).ok())
            .is_some_and(|s| s.value() == name);
        if is_it {
            f.set_discardable_attribute("llvm.emit_c_interface", Attribute::unit(context));
            found = true;
        }
        op = f.next_in_block_mut();
    }
    assert!(found, "no function @{name}");
}

/// The interpreter's result of `@name() -> i64` on the unlowered program, and the JIT's
/// on the lowered one.
fn interpret_and_jit(source: &str, name: &str) -> (i64, i64) {
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "lowering.mlir").expect("parses");
    let expected = fusion_interpreter::run_function(&module, name, vec![]).expect("the interpreter runs it");
    assert_eq!(expected.len(), 1);
    let expected = expected[0].as_i64().expect("an i64 result");

    emit_c_interface(&context, &module, name);
    run_pipeline(&context, &mut module, &to_llvm());
    let text = module.as_operation().to_string();
    assert!(!text.contains("array."), "every array op is lowered:\n{text}");
    assert!(text.contains("llvm.func @") && !text.contains("scf.") && !text.contains("memref."), "{text}");

    let engine = ExecutionEngine::new(&module, 2, &[], false, false);
    let mut result: i64 = i64::MIN;
    // SAFETY: `@name` takes no arguments and returns one i64, written through the pointer.
    unsafe { engine.invoke_packed(name, &mut [&mut result as *mut i64 as *mut ()]) }.expect("the JIT runs it");
    (expected, result)
}

fn assert_same(source: &str, name: &str, known: Option<i64>) {
    let (expected, got) = interpret_and_jit(source, name);
    assert_eq!(got, expected, "@{name}: JIT {got}, interpreter {expected}");
    if let Some(k) = known {
        assert_eq!(expected, k, "@{name}: the expected value itself");
    }
}

#[test]
fn generate_map_fold_sum_of_squares() {
    let source = r#"
func.func @sumSquares() -> i64 {
  %n = arith.constant 10 : index
  %z = arith.constant 0 : i64
  %is = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %sq = array.map %is : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %s = array.fold %sq init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
"#;
    assert_same(source, "sumSquares", Some(285));
}

#[test]
fn gather_with_integer_indices_then_fold() {
    // xs[i] = 3*i + 1 for i < 8; is[k] = (5*k) mod 8 as i32 for k < 6; sum of xs[is].
    let source = r#"
func.func @gatherSum() -> i64 {
  %n = arith.constant 8 : index
  %m = arith.constant 6 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c3 = arith.constant 3 : i64
    %c1 = arith.constant 1 : i64
    %t = arith.muli %v, %c3 : i64
    %u = arith.addi %t, %c1 : i64
    array.yield %u : i64
  }
  %is = array.generate (%m) : tensor<?xi32> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i32
    %c5 = arith.constant 5 : i32
    %c8 = arith.constant 8 : i32
    %t = arith.muli %v, %c5 : i32
    %u = arith.remui %t, %c8 : i32
    array.yield %u : i32
  }
  %ys = array.gather %xs[%is] : tensor<?xi64>[tensor<?xi32>] -> tensor<?xi64>
  %s = array.fold %ys init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
"#;
    // is = 0 5 2 7 4 1 → xs = 1 16 7 22 13 4 → 63.
    assert_same(source, "gatherSum", Some(63));
}

#[test]
fn two_dimensional_fold_and_binary_map() {
    // m[i][j] = 10*i + j (3 x 4); row sums and row maxima by one fold with two
    // accumulators; a binary map with two results combines them; a ternary map
    // weights (sum - max) by the diagonal (a 2-D gather) and adds max^2; a fold sums.
    let source = r#"
func.func @rows() -> i64 {
  %r3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i64
  %lo = arith.constant -1000 : i64
  %m = array.generate (%r3, %c4) : tensor<?x4xi64> {
  ^bb0(%i: index, %j: index):
    %a = arith.index_cast %i : index to i64
    %b = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %t = arith.muli %a, %c10 : i64
    %u = arith.addi %t, %b : i64
    array.yield %u : i64
  }
  %sums, %maxs = array.fold %m, %m init(%z, %lo : i64, i64) : tensor<?x4xi64>, tensor<?x4xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%s: i64, %mx: i64, %x: i64, %y: i64):
    %a = arith.addi %s, %x : i64
    %b = arith.maxsi %mx, %y : i64
    array.yield %a, %b : i64, i64
  }
  %d, %e = array.map %sums, %maxs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%s: i64, %mx: i64):
    %a = arith.subi %s, %mx : i64
    %b = arith.muli %mx, %mx : i64
    array.yield %a, %b : i64, i64
  }
  %ri = array.generate (%r3) : tensor<?xindex> {
  ^bb0(%k: index):
    array.yield %k : index
  }
  %ci = array.generate (%r3) : tensor<?xi64> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i64
    array.yield %v : i64
  }
  %diag = array.gather %m[%ri, %ci] : tensor<?x4xi64>[tensor<?xindex>, tensor<?xi64>] -> tensor<?xi64>
  %w = array.map %d, %e, %diag : tensor<?xi64>, tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64, %g: i64):
    %p = arith.muli %x, %g : i64
    %b = arith.addi %p, %y : i64
    array.yield %b : i64
  }
  %t = array.fold %w init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %t[] : tensor<i64>
  return %r : i64
}
"#;
    // rows: sums 6, 46, 86; maxs 3, 13, 23; d = 3, 33, 63; e = 9, 169, 529;
    // diag = m[0][0], m[1][1], m[2][2] = 0, 11, 22 → 0+9 + 363+169 + 1386+529 = 2456.
    assert_same(source, "rows", Some(2456));
}

#[test]
fn sugar_is_left_intact_and_a_filter_cluster_is_one_loop() {
    let source = r#"
func.func @partial(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %c0 = arith.constant 0 : i64
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %x : i64
    array.yield %y : i64
  }
  %gts = array.reverse %ys : tensor<?xi64>
  %zs = array.cluster -> tensor<?xi64> {
    %v = array.vertical -> tensor<?xi64> producer {
      %m = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %y = arith.muli %x, %x : i64
        array.yield %y : i64
      }
      array.yield %m : tensor<?xi64>
    } consumer {
    ^bb0(%ms: tensor<?xi64>):
      %f = array.filter %ms : tensor<?xi64> -> tensor<?xi64> {
      ^bb0(%x: i64):
        %p = arith.cmpi sgt, %x, %c0 : i64
        array.yield %p : i1
      }
      array.yield %f : tensor<?xi64>
    }
    array.yield %v : tensor<?xi64>
  }
  return %gts, %zs : tensor<?xi64>, tensor<?xi64>
}
"#;
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "partial.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(array-to-loops)");
    let text = module.as_operation().to_string();
    assert!(text.contains("array.reverse"), "the reverse is kept:\n{text}");
    // Only the sugar is kept: the cluster map → filter is one sequential loop.
    assert_eq!(text.matches("array.").count(), 1, "only the reverse is kept:\n{text}");
    assert_eq!(text.matches("scf.parallel").count(), 1, "the map outside the cluster is lowered:\n{text}");
    assert_eq!(text.matches("scf.for").count(), 1, "the cluster is one scf.for:\n{text}");
    // The partially lowered module still prints and parses back.
    let again = array_dialect::source::parse_source(&context, &text, "again.mlir").expect("parses back");
    assert!(again.as_operation().verify());
}

// ---------------------------------------------------------------------------
// Second slice: fused clusters of maps, generates and folds become one loop nest each.
// ---------------------------------------------------------------------------

/// The outermost loops (`scf.parallel` or `scf.for` directly in a function) of `module`.
fn outermost_loops(module: &Module) -> usize {
    let mut count = 0;
    module.as_operation().walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        if (name == "scf.parallel" || name == "scf.for")
            && op.parent_operation().is_some_and(|p| p.name().as_string_ref().as_str() == Ok("func.func"))
        {
            count += 1;
        }
        melior::ir::operation::WalkResult::Advance
    });
    count
}

/// The clusters and the combinators outside clusters of the fused `module`.
fn clusters_and_unclustered(module: &Module) -> (usize, usize) {
    let (mut clusters, mut unclustered) = (0, 0);
    module.as_operation().walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        let name = op.name().as_string_ref().as_str().unwrap_or("").to_string();
        let in_function = op.parent_operation().is_some_and(|p| p.name().as_string_ref().as_str() == Ok("func.func"));
        if name == "array.cluster" {
            clusters += 1;
        } else if in_function && matches!(name.as_str(), "array.map" | "array.generate" | "array.fold" | "array.gather")
        {
            unclustered += 1;
        }
        melior::ir::operation::WalkResult::Advance
    });
    (clusters, unclustered)
}

/// Interprets `@name` unfused, then fuses (`array-fusion`), lowers (`array-to-loops`),
/// checks that every cluster and unclustered combinator became exactly one loop nest,
/// and JIT-runs it. Returns (interpreter, JIT, clusters, combinators with a loop nest each).
fn fuse_and_jit(source: &str, name: &str) -> (i64, i64, usize) {
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "fused.mlir").expect("parses");
    let expected = fusion_interpreter::run_function(&module, name, vec![]).expect("the interpreter runs it");
    let expected = expected[0].as_i64().expect("an i64 result");

    run_pipeline(&context, &mut module, "builtin.module(func.func(array-fusion))");
    let (clusters, unclustered) = clusters_and_unclustered(&module);
    assert!(clusters > 0, "fusion made clusters:\n{}", module.as_operation());
    run_pipeline(&context, &mut module, "builtin.module(array-to-loops)");
    let text = module.as_operation().to_string();
    let mut array_ops = 0;
    module.as_operation().walk(melior::ir::operation::WalkOrder::PreOrder, |op| {
        array_ops += op.name().as_string_ref().as_str().unwrap_or("").starts_with("array.") as usize;
        melior::ir::operation::WalkResult::Advance
    });
    assert_eq!(array_ops, 0, "every cluster is lowered:\n{text}");
    assert_eq!(outermost_loops(&module), clusters + unclustered, "one loop nest per cluster:\n{text}");

    emit_c_interface(&context, &module, name);
    run_pipeline(&context, &mut module, &to_llvm());
    let engine = ExecutionEngine::new(&module, 2, &[], false, false);
    let mut result: i64 = i64::MIN;
    // SAFETY: `@name` takes no arguments and returns one i64, written through the pointer.
    unsafe { engine.invoke_packed(name, &mut [&mut result as *mut i64 as *mut ()]) }.expect("the JIT runs it");
    (expected, result, clusters)
}

#[test]
fn fused_generate_map_fold_is_one_loop() {
    let source = r#"
func.func @sumSquares() -> i64 {
  %n = arith.constant 10 : index
  %z = arith.constant 0 : i64
  %is = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %sq = array.map %is : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.muli %x, %x : i64
    array.yield %y : i64
  }
  %s = array.fold %sq init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
"#;
    let (expected, got, clusters) = fuse_and_jit(source, "sumSquares");
    assert_eq!(expected, 285);
    assert_eq!(got, expected);
    assert_eq!(clusters, 1, "generate, map and fold fuse into one loop");
}

#[test]
fn fused_horizontal_and_diagonal_clusters() {
    // xs[i] = i (i < 7); ys = 2x+1; qs = x*x; s1 = sum ys; s2 = sum qs; ds = ys - qs
    // (reads both); s3 = sum ds; the result is s1 * 10000 + s2 * 100 + s3.
    let source = r#"
func.func @shared() -> i64 {
  %n = arith.constant 7 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %t = arith.muli %x, %c2 : i64
    %u = arith.addi %t, %c1 : i64
    array.yield %u : i64
  }
  %qs = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %q = arith.muli %x, %x : i64
    array.yield %q : i64
  }
  %s1 = array.fold %ys init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %s2 = array.fold %qs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %ds = array.map %ys, %qs : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%y: i64, %q: i64):
    %d = arith.subi %y, %q : i64
    array.yield %d : i64
  }
  %s3 = array.fold %ds init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %a = tensor.extract %s1[] : tensor<i64>
  %b = tensor.extract %s2[] : tensor<i64>
  %c = tensor.extract %s3[] : tensor<i64>
  %k4 = arith.constant 10000 : i64
  %k2 = arith.constant 100 : i64
  %p = arith.muli %a, %k4 : i64
  %q = arith.muli %b, %k2 : i64
  %pq = arith.addi %p, %q : i64
  %r = arith.addi %pq, %c : i64
  return %r : i64
}
"#;
    let (expected, got, clusters) = fuse_and_jit(source, "shared");
    // s1 = 49, s2 = 91, s3 = -42 → 490000 + 9100 - 42.
    assert_eq!(expected, 499058);
    assert_eq!(got, expected);
    assert_eq!(clusters, 1, "every combinator fuses into one loop");
}

// ---------------------------------------------------------------------------
// Third slice: scan and scatter outside clusters.
// ---------------------------------------------------------------------------

#[test]
fn scans_in_all_four_forms() {
    // xs[i] = i + 1 (i < 5); the combine a*2 + x is not commutative, so direction and
    // kind both show. Each scan is reduced to one number with the fold acc*1000 + x
    // (every element is below 1000), and the four are summed with weights.
    let scan = |name: &str, dir: &str, kind: &str| {
        format!(
            r#"
  %{name} = array.scan {dir} {kind} %xs init(%c3 : i64) : tensor<?xi64> -> tensor<?xi64> {{
  ^bb0(%a: i64, %x: i64):
    %t = arith.muli %a, %c2 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }}
  %{name}f = array.fold %{name} init(%z : i64) : tensor<?xi64> -> tensor<i64> {{
  ^bb0(%acc: i64, %x: i64):
    %t = arith.muli %acc, %k : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }}
  %{name}e = tensor.extract %{name}f[] : tensor<i64>
"#
        )
    };
    let source = format!(
        r#"
func.func @scans() -> i64 {{
  %n = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %k = arith.constant 1000 : i64
  %xs = array.generate (%n) : tensor<?xi64> {{
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %w = arith.addi %v, %one : i64
    array.yield %w : i64
  }}
{}{}{}{}
  %w1 = arith.constant 1 : i64
  %w2 = arith.constant 3 : i64
  %w3 = arith.constant 7 : i64
  %w4 = arith.constant 13 : i64
  %p1 = arith.muli %lie, %w1 : i64
  %p2 = arith.muli %lee, %w2 : i64
  %p3 = arith.muli %rie, %w3 : i64
  %p4 = arith.muli %ree, %w4 : i64
  %s12 = arith.addi %p1, %p2 : i64
  %s34 = arith.addi %p3, %p4 : i64
  %r = arith.addi %s12, %s34 : i64
  return %r : i64
}}
"#,
        scan("li", "left", "inclusive"),
        scan("le", "left", "exclusive"),
        scan("ri", "right", "inclusive"),
        scan("re", "right", "exclusive"),
    );
    assert_same(&source, "scans", Some(3_048_536_806_504_491));
}

#[test]
fn two_dimensional_right_exclusive_scan() {
    // m[i][j] = 10*i + j (3x4); right exclusive scan of each row with a*2 + x, init 1;
    // every row reduced with acc*1000 + x, the rows summed.
    let source = r#"
func.func @scan2d() -> i64 {
  %r3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %z = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %k = arith.constant 1000 : i64
  %m = array.generate (%r3, %c4) : tensor<?x?xi64> {
  ^bb0(%i: index, %j: index):
    %a = arith.index_cast %i : index to i64
    %b = arith.index_cast %j : index to i64
    %ten = arith.constant 10 : i64
    %t = arith.muli %a, %ten : i64
    %u = arith.addi %t, %b : i64
    array.yield %u : i64
  }
  %s = array.scan right exclusive %m init(%one : i64) : tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%a: i64, %x: i64):
    %t = arith.muli %a, %c2 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %rows = array.fold %s init(%z : i64) : tensor<?x?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.muli %acc, %k : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %all = array.fold %rows init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %u = arith.addi %acc, %x : i64
    array.yield %u : i64
  }
  %r = tensor.extract %all[] : tensor<i64>
  return %r : i64
}
"#;
    assert_same(source, "scan2d", Some(285_126_045_003));
}

#[test]
fn histogram_and_ordered_scatter() {
    // is[k] = (k*k) mod 5 as i32 for k < 10 → buckets 0,1,4,4,1,0,1,4,4,1; a histogram
    // of ones by `+` into 5 zeros gives 2,4,0,0,4. A second scatter of vs[k] = k with
    // the non-commutative old*10 + new shows that the elements are combined in source
    // order. Both results are encoded with the fold acc*1000 + x (histogram) and summed.
    let source = r#"
func.func @histogram() -> i64 {
  %n = arith.constant 10 : index
  %b = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %k = arith.constant 1000 : i64
  %is = array.generate (%n) : tensor<?xi32> {
  ^bb0(%i: index):
    %sq = arith.muli %i, %i : index
    %c5 = arith.constant 5 : index
    %m = arith.remui %sq, %c5 : index
    %v = arith.index_cast %m : index to i32
    array.yield %v : i32
  }
  %ones, %vs = array.generate (%n) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%i: index):
    %o = arith.constant 1 : i64
    %v = arith.index_cast %i : index to i64
    array.yield %o, %v : i64, i64
  }
  %zeros = array.generate (%b) : tensor<?xi64> {
  ^bb0(%i: index):
    %o = arith.constant 0 : i64
    array.yield %o : i64
  }
  %zeros2 = array.generate (%b) : tensor<?xi64> {
  ^bb0(%i: index):
    %o = arith.constant 0 : i64
    array.yield %o : i64
  }
  %h = array.scatter %zeros[%is], %ones : tensor<?xi64>[tensor<?xi32>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  %o = array.scatter %zeros2[%is], %vs : tensor<?xi64>[tensor<?xi32>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %t = arith.muli %old, %ten : i64
    %s = arith.addi %t, %new : i64
    array.yield %s : i64
  }
  %hf = array.fold %h init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.muli %acc, %k : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %of = array.fold %o init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %u = arith.addi %acc, %x : i64
    array.yield %u : i64
  }
  %a = tensor.extract %hf[] : tensor<i64>
  %c = tensor.extract %of[] : tensor<i64>
  %r = arith.addi %a, %c : i64
  return %r : i64
}
"#;
    // Histogram 2,4,0,0,4 → 2004000000004. Ordered: bucket 0 ← 0,5 → 5; bucket 1 ← 1,4,6,9
    // → 1469; bucket 4 ← 2,3,7,8 → 2378; sum 3852.
    assert_same(source, "histogram", Some(2_004_000_000_004 + 3852));
}

#[test]
fn fused_gather_simple1_is_one_loop() {
    // seed 000 simple1 with generated inputs: xs[i] = i (i < 8), is[k] = (3k) mod 8 as
    // i32 (k < 8, a permutation), as = 2x + 1 fused into the gather, then summed. The
    // generate feeding `is` and the fold fuse too, so the map runs at the gathered index.
    let source = r#"
func.func @simple1() -> i64 {
  %n = arith.constant 8 : index
  %z = arith.constant 0 : i64
  %k = arith.constant 100 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %is = array.generate (%n) : tensor<?xi32> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %t = arith.muli %i, %c3 : index
    %m = arith.remui %t, %c8 : index
    %v = arith.index_cast %m : index to i32
    array.yield %v : i32
  }
  %as = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c2 = arith.constant 2 : i64
    %c1 = arith.constant 1 : i64
    %twice = arith.muli %x, %c2 : i64
    %a = arith.addi %twice, %c1 : i64
    array.yield %a : i64
  }
  %bs = array.gather %as[%is] : tensor<?xi64>[tensor<?xi32>] -> tensor<?xi64>
  %s = array.fold %bs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.muli %acc, %k : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
"#;
    let (expected, got, clusters) = fuse_and_jit(source, "simple1");
    // bs = 2*is[k] + 1 for is = 0,3,6,1,4,7,2,5 → 1,7,13,3,9,15,5,11 in base 100.
    assert_eq!(expected, 1_07_13_03_09_15_05_11);
    assert_eq!(got, expected);
    assert_eq!(clusters, 1, "generates, map, gather and fold fuse into one loop");
}

// ---------------------------------------------------------------------------
// Fourth slice: filter and expand outside clusters, sequentially.
// ---------------------------------------------------------------------------

/// Lowers `source` with array-to-loops only; its text.
fn lowered_text(source: &str) -> String {
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "slice4.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(array-to-loops)");
    module.as_operation().to_string()
}

const FILTER_TWO: &str = r#"
func.func @filterTwo() -> i64 {
  %n = arith.constant 10 : index
  %z = arith.constant 0 : i64
  %z32 = arith.constant 0 : i32
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %ys = array.generate (%n) : tensor<?xi32> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i32
    %s = arith.muli %v, %v : i32
    array.yield %s : i32
  }
  %fx, %fy = array.filter %xs, %ys : tensor<?xi64>, tensor<?xi32> -> tensor<?xi64>, tensor<?xi32> {
  ^bb0(%x: i64, %y: i32):
    %c2 = arith.constant 2 : i64
    %c10 = arith.constant 10 : i32
    %r = arith.remsi %x, %c2 : i64
    %c1 = arith.constant 1 : i64
    %odd = arith.cmpi eq, %r, %c1 : i64
    %big = arith.cmpi sgt, %y, %c10 : i32
    %p = arith.andi %odd, %big : i1
    array.yield %p : i1
  }
  %sx = array.fold %fx init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %sy = array.fold %fy init(%z32 : i32) : tensor<?xi32> -> tensor<i32> {
  ^bb0(%acc: i32, %y: i32):
    %a = arith.addi %acc, %y : i32
    array.yield %a : i32
  }
  %cnt = array.fold %fx init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %one = arith.constant 1 : i64
    %a = arith.addi %acc, %one : i64
    array.yield %a : i64
  }
  %a = tensor.extract %sx[] : tensor<i64>
  %b32 = tensor.extract %sy[] : tensor<i32>
  %b = arith.extsi %b32 : i32 to i64
  %c = tensor.extract %cnt[] : tensor<i64>
  %m6 = arith.constant 1000000 : i64
  %m3 = arith.constant 1000 : i64
  %a6 = arith.muli %a, %m6 : i64
  %b3 = arith.muli %b, %m3 : i64
  %t = arith.addi %a6, %b3 : i64
  %r = arith.addi %t, %c : i64
  return %r : i64
}
"#;

#[test]
fn filter_of_two_arrays_then_folds() {
    // Keeps x odd with y = x² > 10: x = 5, 7, 9 → sum 21, y sum 25+49+81 = 155, count 3.
    assert_same(FILTER_TWO, "filterTwo", Some(21_155_003));
    let text = lowered_text(FILTER_TWO);
    assert!(!text.contains("array.filter"), "{text}");
    assert!(text.contains("scf.if") && text.contains("memref.reinterpret_cast"), "{text}");
}

const EXPAND_SEED004: &str = r#"
func.func @expand3() -> i64 {
  %n = arith.constant 4 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c1 = arith.constant 1 : i64
    %w = arith.addi %v, %c1 : i64
    array.yield %w : i64
  }
  %c3 = arith.constant 3 : index
  %ys = array.expand %xs : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%a: i64):
    array.yield %c3 : index
  } get {
  ^bb0(%a: i64, %j: index):
    %jj = arith.index_cast %j : index to i64
    %y = arith.muli %a, %jj : i64
    array.yield %y : i64
  }
  %s = array.fold %ys init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %a = arith.addi %acc, %x : i64
    array.yield %a : i64
  }
  %r = tensor.extract %s[] : tensor<i64>
  return %r : i64
}
"#;

#[test]
fn expand_of_seed_004() {
    // expand (\a -> 3) (\a i -> a*i) [1,2,3,4], summed: 0+1+2 + 0+2+4 + 0+3+6 + 0+4+8.
    assert_same(EXPAND_SEED004, "expand3", Some(30));
    let text = lowered_text(EXPAND_SEED004);
    assert!(!text.contains("array.expand"), "{text}");
    // The expand's sizing loop, filling loop and segment loop, and the fold's loop.
    assert_eq!(text.matches("scf.for").count(), 4, "{text}");
    assert_eq!(text.matches("arith.maxsi").count(), 2, "the count region runs in both passes:\n{text}");
}

#[test]
fn expand_with_data_dependent_counts_and_empty_segments() {
    // xs = 0..5, count x = x mod 3 (0 1 2 0 1 2), two results: 10x + j and j.
    // Segments: [] [10] [20 21] [] [40] [50 51] → sum 192; j sum 0+0+1+0+0+1 = 2; 6 elements.
    let source = r#"
func.func @expandVar() -> i64 {
  %n = arith.constant 6 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %ys, %js = array.expand %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64> count {
  ^bb0(%a: i64):
    %c3 = arith.constant 3 : i64
    %r = arith.remsi %a, %c3 : i64
    %k = arith.index_cast %r : i64 to index
    array.yield %k : index
  } get {
  ^bb0(%a: i64, %j: index):
    %jj = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %t = arith.muli %a, %c10 : i64
    %y = arith.addi %t, %jj : i64
    array.yield %y, %jj : i64, i64
  }
  %s, %sj, %cnt = array.fold %ys, %js, %ys init(%z, %z, %z : i64, i64, i64) : tensor<?xi64>, tensor<?xi64>, tensor<?xi64> -> tensor<i64>, tensor<i64>, tensor<i64> {
  ^bb0(%a: i64, %b: i64, %c: i64, %y: i64, %j: i64, %y2: i64):
    %one = arith.constant 1 : i64
    %a2 = arith.addi %a, %y : i64
    %b2 = arith.addi %b, %j : i64
    %c2 = arith.addi %c, %one : i64
    array.yield %a2, %b2, %c2 : i64, i64, i64
  }
  %x = tensor.extract %s[] : tensor<i64>
  %y = tensor.extract %sj[] : tensor<i64>
  %c = tensor.extract %cnt[] : tensor<i64>
  %m1000 = arith.constant 1000 : i64
  %m100 = arith.constant 100 : i64
  %x3 = arith.muli %x, %m1000 : i64
  %y2 = arith.muli %y, %m100 : i64
  %t = arith.addi %x3, %y2 : i64
  %r = arith.addi %t, %c : i64
  return %r : i64
}
"#;
    assert_same(source, "expandVar", Some(192_206));
}

#[test]
fn filter_then_expand_and_an_empty_filter() {
    // xs = 0..7; odd ones 1 3 5 7 expanded to 0..x-1: sums 0 + 3 + 10 + 21 = 34 over
    // 16 elements; a filter keeping nothing gives an empty vector (fold 0, count 0).
    let source = r#"
func.func @chain() -> i64 {
  %n = arith.constant 8 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    array.yield %v : i64
  }
  %odd = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c1 = arith.constant 1 : i64
    %b = arith.andi %x, %c1 : i64
    %p = arith.cmpi eq, %b, %c1 : i64
    array.yield %p : i1
  }
  %none = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %c100 = arith.constant 100 : i64
    %p = arith.cmpi sgt, %x, %c100 : i64
    array.yield %p : i1
  }
  %ys = array.expand %odd : tensor<?xi64> -> tensor<?xi64> count {
  ^bb0(%a: i64):
    %k = arith.index_cast %a : i64 to index
    array.yield %k : index
  } get {
  ^bb0(%a: i64, %j: index):
    %jj = arith.index_cast %j : index to i64
    array.yield %jj : i64
  }
  %s, %cnt = array.fold %ys, %ys init(%z, %z : i64, i64) : tensor<?xi64>, tensor<?xi64> -> tensor<i64>, tensor<i64> {
  ^bb0(%a: i64, %c: i64, %y: i64, %y2: i64):
    %one = arith.constant 1 : i64
    %a2 = arith.addi %a, %y : i64
    %c2 = arith.addi %c, %one : i64
    array.yield %a2, %c2 : i64, i64
  }
  %e, %ecnt = array.fold %none, %none init(%z, %z : i64, i64) : tensor<?xi64>, tensor<?xi64> -> tensor<i64>, tensor<i64> {
  ^bb0(%a: i64, %c: i64, %y: i64, %y2: i64):
    %one = arith.constant 1 : i64
    %a2 = arith.addi %a, %y : i64
    %c2 = arith.addi %c, %one : i64
    array.yield %a2, %c2 : i64, i64
  }
  %x = tensor.extract %s[] : tensor<i64>
  %c = tensor.extract %cnt[] : tensor<i64>
  %ex = tensor.extract %e[] : tensor<i64>
  %ec = tensor.extract %ecnt[] : tensor<i64>
  %m10000 = arith.constant 10000 : i64
  %m100 = arith.constant 100 : i64
  %m10 = arith.constant 10 : i64
  %x4 = arith.muli %x, %m10000 : i64
  %c2 = arith.muli %c, %m100 : i64
  %e1 = arith.muli %ex, %m10 : i64
  %t = arith.addi %x4, %c2 : i64
  %u = arith.addi %t, %e1 : i64
  %r = arith.addi %u, %ec : i64
  return %r : i64
}
"#;
    assert_same(source, "chain", Some(341_600));
}

// ---------------------------------------------------------------------------
// Fifth slice: scalar queries, filters and scans in clusters, folds fused into gathers.
// ---------------------------------------------------------------------------

/// `fuse_and_jit` and the lowered text of the fused program: the interpreter and the JIT
/// agree, and the fused program has `clusters` clusters.
fn fused_matches(source: &str, name: &str, known: i64) -> usize {
    let (expected, got, clusters) = fuse_and_jit(source, name);
    assert_eq!(got, expected, "@{name}: JIT {got}, interpreter {expected}");
    assert_eq!(expected, known, "@{name}: the expected value itself");
    clusters
}

/// The fused and lowered text of `source` (array-fusion, then array-to-loops), and the
/// diagnostics the lowering emitted.
fn fused_lowered_text(source: &str) -> (String, Vec<String>) {
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "fused.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(func.func(array-fusion))");
    let messages = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = messages.clone();
    let handler = context.attach_diagnostic_handler(move |d| {
        sink.borrow_mut().push(d.to_string());
        true
    });
    run_pipeline(&context, &mut module, "builtin.module(array-to-loops)");
    context.detach_diagnostic_handler(handler);
    let text = module.as_operation().to_string();
    (text, messages.take())
}

/// seed 001 normalize2 without arguments: xs[i] = (7i mod 11) - 5; two folds, a filter
/// of xs and a fold of the kept elements (the filter's consumer runs under the
/// predicate), and maps reading the sums through `array.index` of rank-0 arrays.
const NORMALIZE2: &str = r#"
func.func @normalize2() -> i64 {
  %n = arith.constant 20 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c7 = arith.constant 7 : i64
    %c11 = arith.constant 11 : i64
    %c5 = arith.constant 5 : i64
    %m = arith.muli %v, %c7 : i64
    %r = arith.remsi %m, %c11 : i64
    %x = arith.subi %r, %c5 : i64
    array.yield %x : i64
  }
  %sum1 = array.fold %xs init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %gts = array.filter %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %p = arith.cmpi sgt, %x, %z : i64
    array.yield %p : i1
  }
  %sum2 = array.fold %gts init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %ys1 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = array.index %sum1[] : tensor<i64>
    %c100 = arith.constant 100 : i64
    %y = arith.muli %x, %c100 : i64
    %q = arith.addi %y, %s : i64
    array.yield %q : i64
  }
  %ys2 = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %s = array.index %sum2[] : tensor<i64>
    %y = arith.muli %x, %s : i64
    array.yield %y : i64
  }
  %t1 = array.fold %ys1 init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %t2 = array.fold %ys2 init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %len = array.dim %gts, 0 : tensor<?xi64>
  %a = tensor.extract %t1[] : tensor<i64>
  %b = tensor.extract %t2[] : tensor<i64>
  %l = arith.index_cast %len : index to i64
  %m6 = arith.constant 1000000 : i64
  %m3 = arith.constant 1000 : i64
  %a6 = arith.muli %a, %m6 : i64
  %b3 = arith.muli %b, %m3 : i64
  %t = arith.addi %a6, %b3 : i64
  %r = arith.addi %t, %l : i64
  return %r : i64
}
"#;

#[test]
fn normalize2_with_a_filter_in_a_cluster() {
    // xs = (7i mod 11) - 5 for i < 20: sum1 = -2, the positive ones sum to 27 (9 of them);
    // t1 = 100·(-2) + 20·(-2) = -240, t2 = 27·(-2) = -54.
    let clusters = fused_matches(NORMALIZE2, "normalize2", -240_000_000 - 54_000 + 9);
    assert!(clusters >= 2, "normalize2 is fused into clusters");
    let (text, diagnostics) = fused_lowered_text(NORMALIZE2);
    assert!(diagnostics.is_empty(), "every cluster is one loop nest: {diagnostics:?}");
    // The cluster of the filter: one sequential loop carrying the count and the folds'
    // accumulators, the fold of the kept elements under scf.if.
    assert!(text.contains("scf.if"), "{text}");
    assert!(text.contains("-> (index, i64)") || text.contains("-> (i64, index"), "count and sum carried:\n{text}");
    assert!(!text.contains(" array."), "{text}");
}

/// seed 000 simple4 without arguments: a 2-D fold fused into a gather.
const SIMPLE4: &str = r#"
func.func @simple4() -> i64 {
  %n = arith.constant 6 : index
  %m = arith.constant 5 : index
  %k = arith.constant 4 : index
  %z = arith.constant 0 : i64
  %xs = array.generate (%n, %m) : tensor<?x?xi64> {
  ^bb0(%i: index, %j: index):
    %a = arith.index_cast %i : index to i64
    %b = arith.index_cast %j : index to i64
    %c10 = arith.constant 10 : i64
    %t = arith.muli %a, %c10 : i64
    %v = arith.addi %t, %b : i64
    array.yield %v : i64
  }
  %is = array.generate (%k) : tensor<?xindex> {
  ^bb0(%i: index):
    %c5 = arith.constant 5 : index
    %c6 = arith.constant 6 : index
    %t = arith.muli %i, %c5 : index
    %r = arith.remui %t, %c6 : index
    array.yield %r : index
  }
  %sums = array.fold %xs init(%z : i64) : tensor<?x?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %g = array.gather %sums[%is] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  %w = array.generate (%k) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c1 = arith.constant 1 : i64
    %c1000 = arith.constant 1000 : i64
    %p = arith.addi %v, %c1 : i64
    %e = arith.muli %p, %c1000 : i64
    array.yield %e : i64
  }
  %h = array.map %g, %w : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%a: i64, %b: i64):
    %y = arith.muli %a, %b : i64
    array.yield %y : i64
  }
  %r = array.fold %h init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%a: i64, %x: i64):
    %s = arith.addi %a, %x : i64
    array.yield %s : i64
  }
  %e = tensor.extract %r[] : tensor<i64>
  return %e : i64
}
"#;

#[test]
fn simple4_fold_fused_into_a_gather() {
    // Row sums 50i + 10; is = 0, 5, 4, 3 → 10, 260, 210, 160, weighted by 1000..4000.
    fused_matches(SIMPLE4, "simple4", (10 + 2 * 260 + 3 * 210 + 4 * 160) * 1000);
    let (text, diagnostics) = fused_lowered_text(SIMPLE4);
    assert!(diagnostics.is_empty(), "{diagnostics:?}\n{text}");
    assert!(!text.contains(" array."), "{text}");
}

/// The random generator's combinators fused together: a reverse (`array.dim` +
/// generate + gather), a left inclusive and a right exclusive scan, a filter and folds.
const GENERATOR_MIX: &str = r#"
func.func @mix() -> i64 {
  %n = arith.constant 9 : index
  %c0 = arith.constant 0 : i64
  %a0 = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %c3 = arith.constant 3 : i64
    %c4 = arith.constant 4 : i64
    %m = arith.muli %v, %c3 : i64
    %x = arith.subi %m, %c4 : i64
    array.yield %x : i64
  }
  %n1 = array.dim %a0, 0 : tensor<?xi64>
  %is1 = array.generate (%n1) : tensor<?xindex> {
  ^bb0(%j: index):
    %c1 = arith.constant 1 : index
    %m = arith.subi %n1, %j : index
    %k = arith.subi %m, %c1 : index
    array.yield %k : index
  }
  %v1 = array.gather %a0[%is1] : tensor<?xi64>[tensor<?xindex>] -> tensor<?xi64>
  %v2 = array.scan left inclusive %v1 init(%c0 : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %v3 = array.scan right exclusive %a0 init(%c0 : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %v4 = array.filter %v2 : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %p = arith.cmpi sgt, %x, %c0 : i64
    array.yield %p : i1
  }
  %v5 = array.map %v4, %v4 : tensor<?xi64>, tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64, %y: i64):
    %t = arith.addi %x, %y : i64
    %u = arith.muli %t, %y : i64
    array.yield %u : i64
  }
  %f1 = array.fold %v5 init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %f2 = array.fold %v3 init(%c0 : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %t = arith.addi %acc, %x : i64
    array.yield %t : i64
  }
  %a = tensor.extract %f1[] : tensor<i64>
  %b = tensor.extract %f2[] : tensor<i64>
  %m = arith.constant 100000 : i64
  %am = arith.muli %a, %m : i64
  %r = arith.addi %am, %b : i64
  return %r : i64
}
"#;

#[test]
fn generator_combinators_fused_and_compiled() {
    // a0 = 3i - 4 (i < 9): reversed 20, 17, …, -4; prefix sums 20, 37, 51, 62, 70, 75, 77,
    // 76, 72 (all kept); Σ 2x² = 2·35 628 = 71 256. Right exclusive sums of a0: Σ_i Σ_{j>i}
    // a0[j] = Σ_j j·a0[j] = 3·204 - 4·36 = 468.
    fused_matches(GENERATOR_MIX, "mix", 71_256 * 100_000 + 468);
    let (text, diagnostics) = fused_lowered_text(GENERATOR_MIX);
    assert!(diagnostics.is_empty(), "every cluster is one loop nest: {diagnostics:?}\n{text}");
    assert!(!text.contains(" array."), "{text}");
}

// ---------------------------------------------------------------------------
// `array.permute` with a keep flag (seed 004 §1.1): kept by array-desugar, lowered as a
// copy of the destination plus a sequential loop in source order.
// ---------------------------------------------------------------------------

#[test]
fn permute_with_keep_flag() {
    // vs[k] = k (k < 10); ts[k] = k² mod 5, or -1 (Nothing) for k = 3 and 8: those are
    // dropped although their target -1 is out of range (the interpreter drops before it
    // checks). Targets 0 ← 0,5; 1 ← 1,4,6,9; 4 ← 2,7; 2 and 3 are never written and keep
    // the destination's 102, 103. The combine old*10 + new is order sensitive: 100 → 1000 →
    // 10005; 101 → 1011469; 104 → 10427. The result is encoded by the fold acc*31 + x.
    let source = r#"
func.func @permuteKeep() -> i64 {
  %n = arith.constant 10 : index
  %m = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %vs, %ts = array.generate (%n) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i64
    %sq = arith.muli %v, %v : i64
    %c5 = arith.constant 5 : i64
    %t = arith.remsi %sq, %c5 : i64
    %c3 = arith.constant 3 : index
    %c8 = arith.constant 8 : index
    %is3 = arith.cmpi eq, %k, %c3 : index
    %is8 = arith.cmpi eq, %k, %c8 : index
    %drop = arith.ori %is3, %is8 : i1
    %nothing = arith.constant -1 : i64
    %target = arith.select %drop, %nothing, %t : i64
    array.yield %v, %target : i64, i64
  }
  %dest = array.generate (%m) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %h = arith.constant 100 : i64
    %d = arith.addi %v, %h : i64
    array.yield %d : i64
  }
  %p = array.permute %vs into %dest : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%i: index):
    %nothing = arith.constant -1 : i64
    %t = array.index %ts[%i] : tensor<?xi64>
    %keep = arith.cmpi ne, %t, %nothing : i64
    %ti = arith.index_cast %t : i64 to index
    array.yield %ti, %keep : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %o = arith.muli %old, %ten : i64
    %s = arith.addi %o, %new : i64
    array.yield %s : i64
  }
  %h = array.fold %p init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %t = arith.muli %acc, %c31 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %r = tensor.extract %h[] : tensor<i64>
  return %r : i64
}
"#;
    // 10005, 1011469, 102, 103, 10427 folded by acc*31 + x.
    assert_same(source, "permuteKeep", Some(39_372_612_226));
    // array-desugar keeps it (a scatter cannot drop elements); array-to-loops lowers it.
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "permute.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(func.func(array-desugar), array-to-loops)");
    let text = module.as_operation().to_string();
    assert!(!text.contains("array."), "the permute is lowered:\n{text}");
    assert!(text.contains("memref.copy") && text.contains("scf.if"), "{text}");
}

#[test]
fn permute_with_keep_flag_in_a_loop() {
    // a[i] = i+1 (n = 6); three times a ← permute a into a: element i is kept when
    // a[i] mod 3 /= 0 and goes to (2i+1) mod 6 (two sources per odd target), combined as
    // old*2 + new in source order. The iterations give [1,14,3,25,5,6], [1,83,3,133,5,6],
    // [1,467,3,703,5,6] (14 = (2*2+1)*2 + 4: source 0 then 3; the other order gives 17).
    let source = r#"
func.func @permuteLoop() -> i64 {
  %n = arith.constant 6 : index
  %z = arith.constant 0 : i64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %a0 = array.generate (%n) : tensor<?xi64> {
  ^bb0(%i: index):
    %v = arith.index_cast %i : index to i64
    %one = arith.constant 1 : i64
    %w = arith.addi %v, %one : i64
    array.yield %w : i64
  }
  %a = scf.for %it = %c0 to %c3 step %c1 iter_args(%acc = %a0) -> (tensor<?xi64>) {
    %p = array.permute %acc into %acc : tensor<?xi64> into tensor<?xi64> index {
    ^bb0(%i: index):
      %x = array.index %acc[%i] : tensor<?xi64>
      %three = arith.constant 3 : i64
      %zero = arith.constant 0 : i64
      %r = arith.remsi %x, %three : i64
      %keep = arith.cmpi ne, %r, %zero : i64
      %two = arith.constant 2 : index
      %one = arith.constant 1 : index
      %six = arith.constant 6 : index
      %d = arith.muli %i, %two : index
      %e = arith.addi %d, %one : index
      %t = arith.remui %e, %six : index
      array.yield %t, %keep : index, i1
    } combine {
    ^bb0(%old: i64, %new: i64):
      %two = arith.constant 2 : i64
      %o = arith.muli %old, %two : i64
      %s = arith.addi %o, %new : i64
      array.yield %s : i64
    }
    scf.yield %p : tensor<?xi64>
  }
  %h = array.fold %a init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %t = arith.muli %acc, %c31 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %r = tensor.extract %h[] : tensor<i64>
  return %r : i64
}
"#;
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "loop.mlir").expect("parses");
    let expected = fusion_interpreter::run_function(&module, "permuteLoop", vec![]).expect("the interpreter runs it");
    let expected = expected[0].as_i64().expect("an i64 result");
    // 1, 467, 3, 703, 5, 6 folded by acc*31 + x.
    assert_eq!(expected, 460_678_575);
    emit_c_interface(&context, &module, "permuteLoop");
    run_pipeline(&context, &mut module, &to_llvm());
    let engine = ExecutionEngine::new(&module, 2, &[], false, false);
    let mut result: i64 = i64::MIN;
    // SAFETY: `@permuteLoop` takes no arguments and returns one i64, written through the pointer.
    unsafe { engine.invoke_packed("permuteLoop", &mut [&mut result as *mut i64 as *mut ()]) }.expect("the JIT runs it");
    assert_eq!(result, expected);
}

#[test]
fn scatter_and_permute_fused_with_their_producers() {
    // The values (and the scatter's index array) are computed by a generate that fuses
    // into the scatter/permute (seed 000 Table 1: values and indices stream, the
    // destination does not), so each cluster is one sequential scf.for writing into a copy
    // of its destination in source order. Scatter: buckets k² mod 5 of k < 10 into zeros
    // with old*10 + new → 5, 1469, 0, 0, 2378. Permute: 2k kept for k mod 3 /= 0, to
    // k mod 5, into 100 + i → 1010, 1012, 10254, 1046, 1048. Encoded by acc*31 + x.
    let source = r#"
func.func @fusedWriters() -> i64 {
  %n = arith.constant 10 : index
  %m = arith.constant 5 : index
  %z = arith.constant 0 : i64
  %zeros, %hundreds = array.generate (%m) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%i: index):
    %o = arith.constant 0 : i64
    %v = arith.index_cast %i : index to i64
    %h = arith.constant 100 : i64
    %d = arith.addi %v, %h : i64
    array.yield %o, %d : i64, i64
  }
  %is, %vs = array.generate (%n) : tensor<?xi64>, tensor<?xi64> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i64
    %sq = arith.muli %v, %v : i64
    %c5 = arith.constant 5 : i64
    %t = arith.remsi %sq, %c5 : i64
    array.yield %t, %v : i64, i64
  }
  %s = array.scatter %zeros[%is], %vs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %o = arith.muli %old, %ten : i64
    %r = arith.addi %o, %new : i64
    array.yield %r : i64
  }
  %ws = array.generate (%n) : tensor<?xi64> {
  ^bb0(%k: index):
    %v = arith.index_cast %k : index to i64
    %w = arith.addi %v, %v : i64
    array.yield %w : i64
  }
  %p = array.permute %ws into %hundreds : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%k: index):
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c0 = arith.constant 0 : index
    %r = arith.remui %k, %c3 : index
    %keep = arith.cmpi ne, %r, %c0 : index
    %t = arith.remui %k, %c5 : index
    array.yield %t, %keep : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    %ten = arith.constant 10 : i64
    %o = arith.muli %old, %ten : i64
    %r = arith.addi %o, %new : i64
    array.yield %r : i64
  }
  %hs = array.fold %s init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %t = arith.muli %acc, %c31 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %hp = array.fold %p init(%z : i64) : tensor<?xi64> -> tensor<i64> {
  ^bb0(%acc: i64, %x: i64):
    %c31 = arith.constant 31 : i64
    %t = arith.muli %acc, %c31 : i64
    %u = arith.addi %t, %x : i64
    array.yield %u : i64
  }
  %a = tensor.extract %hs[] : tensor<i64>
  %b = tensor.extract %hp[] : tensor<i64>
  %r = arith.addi %a, %b : i64
  return %r : i64
}
"#;
    // 48382962 + 972792270.
    assert_same(source, "fusedWriters", Some(1_021_175_232));
    let (text, diagnostics) = fused_lowered_text(source);
    assert!(
        diagnostics.iter().all(|d| !d.contains("op by op")),
        "every cluster is one loop nest: {diagnostics:?}\n{text}"
    );
    assert!(!text.contains("array.scatter") && !text.contains("array.permute"), "{text}");
    // Compiled fused: the same value.
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "fused.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(func.func(array-fusion))");
    let fused = module.as_operation().to_string();
    assert!(fused.matches("array.cluster").count() >= 2, "the writers are fused with their producers:\n{fused}");
    emit_c_interface(&context, &module, "fusedWriters");
    run_pipeline(&context, &mut module, &to_llvm());
    let engine = ExecutionEngine::new(&module, 2, &[], false, false);
    let mut result: i64 = i64::MIN;
    // SAFETY: `@fusedWriters` takes no arguments and returns one i64, written through the pointer.
    unsafe { engine.invoke_packed("fusedWriters", &mut [&mut result as *mut i64 as *mut ()]) }
        .expect("the JIT runs it");
    assert_eq!(result, 1_021_175_232);
}
