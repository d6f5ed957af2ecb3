//! `array-to-loops` end to end: small programs without tensor arguments (in
//! `tests/programs/lowering/`) are lowered (array-to-loops, then MLIR 22's upstream
//! pipeline to the LLVM dialect),
//! JIT-compiled with melior's `ExecutionEngine`, run, and their result compared with the
//! reference interpreter's on the unlowered program. Also: sugar the lowering keeps is
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
    let source = include_str!("../programs/lowering/generate_map_fold_sum_of_squares.mlir");
    assert_same(source, "sumSquares", Some(285));
}

#[test]
fn gather_with_integer_indices_then_fold() {
    // xs[i] = 3*i + 1 for i < 8; is[k] = (5*k) mod 8 as i32 for k < 6; sum of xs[is].
    let source = include_str!("../programs/lowering/gather_with_integer_indices_then_fold.mlir");
    // is = 0 5 2 7 4 1 → xs = 1 16 7 22 13 4 → 63.
    assert_same(source, "gatherSum", Some(63));
}

#[test]
fn two_dimensional_fold_and_binary_map() {
    // m[i][j] = 10*i + j (3 x 4); row sums and row maxima by one fold with two
    // accumulators; a binary map with two results combines them; a ternary map
    // weights (sum - max) by the diagonal (a 2-D gather) and adds max^2; a fold sums.
    let source = include_str!("../programs/lowering/two_dimensional_fold_and_binary_map.mlir");
    // rows: sums 6, 46, 86; maxs 3, 13, 23; d = 3, 33, 63; e = 9, 169, 529;
    // diag = m[0][0], m[1][1], m[2][2] = 0, 11, 22 → 0+9 + 363+169 + 1386+529 = 2456.
    assert_same(source, "rows", Some(2456));
}

#[test]
fn sugar_is_left_intact_and_a_filter_cluster_is_one_loop() {
    let source = include_str!("../programs/lowering/sugar_is_left_intact_and_a_filter_cluster_is_one_loop.mlir");
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
// Fused clusters of maps, generates and folds become one loop nest each.
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
    let source = include_str!("../programs/lowering/fused_generate_map_fold_is_one_loop.mlir");
    let (expected, got, clusters) = fuse_and_jit(source, "sumSquares");
    assert_eq!(expected, 285);
    assert_eq!(got, expected);
    assert_eq!(clusters, 1, "generate, map and fold fuse into one loop");
}

#[test]
fn fused_horizontal_and_diagonal_clusters() {
    // xs[i] = i (i < 7); ys = 2x+1; qs = x*x; s1 = sum ys; s2 = sum qs; ds = ys - qs
    // (reads both); s3 = sum ds; the result is s1 * 10000 + s2 * 100 + s3.
    let source = include_str!("../programs/lowering/fused_horizontal_and_diagonal_clusters.mlir");
    let (expected, got, clusters) = fuse_and_jit(source, "shared");
    // s1 = 49, s2 = 91, s3 = -42 → 490000 + 9100 - 42.
    assert_eq!(expected, 499058);
    assert_eq!(got, expected);
    assert_eq!(clusters, 1, "every combinator fuses into one loop");
}

// ---------------------------------------------------------------------------
// Scan and scatter outside clusters.
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
        include_str!("../programs/lowering/scans_in_all_four_forms.mlir"),
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
    let source = include_str!("../programs/lowering/two_dimensional_right_exclusive_scan.mlir");
    assert_same(source, "scan2d", Some(285_126_045_003));
}

#[test]
fn histogram_and_ordered_scatter() {
    // is[k] = (k*k) mod 5 as i32 for k < 10 → buckets 0,1,4,4,1,0,1,4,4,1; a histogram
    // of ones by `+` into 5 zeros gives 2,4,0,0,4. A second scatter of vs[k] = k with
    // the non-commutative old*10 + new shows that the elements are combined in source
    // order. Both results are encoded with the fold acc*1000 + x (histogram) and summed.
    let source = include_str!("../programs/lowering/histogram_and_ordered_scatter.mlir");
    // Histogram 2,4,0,0,4 → 2004000000004. Ordered: bucket 0 ← 0,5 → 5; bucket 1 ← 1,4,6,9
    // → 1469; bucket 4 ← 2,3,7,8 → 2378; sum 3852.
    assert_same(source, "histogram", Some(2_004_000_000_004 + 3852));
}

#[test]
fn fused_gather_simple1_is_one_loop() {
    // seed 000 simple1 with generated inputs: xs[i] = i (i < 8), is[k] = (3k) mod 8 as
    // i32 (k < 8, a permutation), as = 2x + 1 fused into the gather, then summed. The
    // generate feeding `is` and the fold fuse too, so the map runs at the gathered index.
    let source = include_str!("../programs/lowering/fused_gather_simple1_is_one_loop.mlir");
    let (expected, got, clusters) = fuse_and_jit(source, "simple1");
    // bs = 2*is[k] + 1 for is = 0,3,6,1,4,7,2,5 → 1,7,13,3,9,15,5,11 in base 100.
    assert_eq!(expected, 1_07_13_03_09_15_05_11);
    assert_eq!(got, expected);
    assert_eq!(clusters, 1, "generates, map, gather and fold fuse into one loop");
}

// ---------------------------------------------------------------------------
// Filter and expand outside clusters, sequentially.
// ---------------------------------------------------------------------------

/// Lowers `source` with array-to-loops only; its text.
fn lowered_text(source: &str) -> String {
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "filter_expand.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(array-to-loops)");
    module.as_operation().to_string()
}

const FILTER_TWO: &str = include_str!("../programs/lowering/filter_two.mlir");

#[test]
fn filter_of_two_arrays_then_folds() {
    // Keeps x odd with y = x² > 10: x = 5, 7, 9 → sum 21, y sum 25+49+81 = 155, count 3.
    assert_same(FILTER_TWO, "filterTwo", Some(21_155_003));
    let text = lowered_text(FILTER_TWO);
    assert!(!text.contains("array.filter"), "{text}");
    assert!(text.contains("scf.if") && text.contains("memref.reinterpret_cast"), "{text}");
}

const EXPAND_SEED004: &str = include_str!("../programs/lowering/expand_seed004.mlir");

#[test]
fn expand_of_seed_004() {
    // expand (\a -> 3) (\a i -> a*i) [1,2,3,4], summed: 0+1+2 + 0+2+4 + 0+3+6 + 0+4+8.
    assert_same(EXPAND_SEED004, "expand3", Some(30));
    let text = lowered_text(EXPAND_SEED004);
    assert!(!text.contains("array.expand"), "{text}");
    // The expand's sizing loop, filling loop and segment loop; the fold (a sum) is a
    // parallel reduction.
    assert_eq!(text.matches("scf.for").count(), 3, "{text}");
    assert_eq!(text.matches("scf.reduce(").count(), 1, "{text}");
    assert_eq!(text.matches("arith.maxsi").count(), 2, "the count region runs in both passes:\n{text}");
}

#[test]
fn expand_with_data_dependent_counts_and_empty_segments() {
    // xs = 0..5, count x = x mod 3 (0 1 2 0 1 2), two results: 10x + j and j.
    // Segments: [] [10] [20 21] [] [40] [50 51] → sum 192; j sum 0+0+1+0+0+1 = 2; 6 elements.
    let source = include_str!("../programs/lowering/expand_with_data_dependent_counts_and_empty_segments.mlir");
    assert_same(source, "expandVar", Some(192_206));
}

#[test]
fn filter_then_expand_and_an_empty_filter() {
    // xs = 0..7; odd ones 1 3 5 7 expanded to 0..x-1: sums 0 + 3 + 10 + 21 = 34 over
    // 16 elements; a filter keeping nothing gives an empty vector (fold 0, count 0).
    let source = include_str!("../programs/lowering/filter_then_expand_and_an_empty_filter.mlir");
    assert_same(source, "chain", Some(341_600));
}

// ---------------------------------------------------------------------------
// Scalar queries, filters and scans in clusters, folds fused into gathers.
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
pub(crate) fn fused_lowered_text(source: &str) -> (String, Vec<String>) {
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
const NORMALIZE2: &str = include_str!("../programs/lowering/normalize2.mlir");

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
const SIMPLE4: &str = include_str!("../programs/lowering/simple4.mlir");

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
const GENERATOR_MIX: &str = include_str!("../programs/lowering/generator_mix.mlir");

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
// sequential loop in source order, into the destination's own buffer when nothing else
// reads it (else into a copy).
// ---------------------------------------------------------------------------

#[test]
fn permute_with_keep_flag() {
    // vs[k] = k (k < 10); ts[k] = k² mod 5, or -1 (Nothing) for k = 3 and 8: those are
    // dropped although their target -1 is out of range (the interpreter drops before it
    // checks). Targets 0 ← 0,5; 1 ← 1,4,6,9; 4 ← 2,7; 2 and 3 are never written and keep
    // the destination's 102, 103. The combine old*10 + new is order sensitive: 100 → 1000 →
    // 10005; 101 → 1011469; 104 → 10427. The result is encoded by the fold acc*31 + x.
    let source = include_str!("../programs/lowering/permute_with_keep_flag.mlir");
    // 10005, 1011469, 102, 103, 10427 folded by acc*31 + x.
    assert_same(source, "permuteKeep", Some(39_372_612_226));
    // array-desugar makes it a generate of the targets and flags and a scatter with keep
    // flags; array-to-loops lowers both.
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, source, "permute.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(func.func(array-desugar), array-to-loops)");
    let text = module.as_operation().to_string();
    assert!(!text.contains("array."), "the permute is lowered:\n{text}");
    // The destination is made by a generate and read by the scatter only, so the scatter
    // updates its buffer in place (`lit/lowering/scatter-in-place.mlir` has the cases
    // that copy).
    assert!(!text.contains("memref.copy") && text.contains("scf.if"), "{text}");
}

#[test]
fn permute_with_keep_flag_in_a_loop() {
    // a[i] = i+1 (n = 6); three times a ← permute a into a: element i is kept when
    // a[i] mod 3 /= 0 and goes to (2i+1) mod 6 (two sources per odd target), combined as
    // old*2 + new in source order. The iterations give [1,14,3,25,5,6], [1,83,3,133,5,6],
    // [1,467,3,703,5,6] (14 = (2*2+1)*2 + 4: source 0 then 3; the other order gives 17).
    let source = include_str!("../programs/lowering/permute_with_keep_flag_in_a_loop.mlir");
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
    let source = include_str!("../programs/lowering/scatter_and_permute_fused_with_their_producers.mlir");
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

/// Issue "no silent per-op fallback": every cluster the analysis chooses for the bundled
/// examples is lowered as one loop nest (no "op by op" remark), and the compiled fused
/// program agrees with the interpreter and the compiled unfused one, empty arrays
/// included.
#[test]
fn every_example_cluster_is_one_loop_nest_and_agrees() {
    let dir = crate::repo_root().join("examples");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "mlir"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 20, "{paths:?}");
    let mut compared = 0;
    for path in &paths {
        let source = std::fs::read_to_string(path).unwrap();
        let (text, diagnostics) = fused_lowered_text(&source);
        assert!(
            diagnostics.iter().all(|d| !d.contains("op by op")),
            "{}: a cluster is lowered op by op: {diagnostics:?}\n{text}",
            path.display()
        );
        for (size, seed) in [(0, 1), (1, 2), (37, 3)] {
            let result = fusion_codegen::check::check_file(
                path,
                None,
                |f| Ok(fusion_codegen::inputs::generate_args(&f.inputs, seed, size)),
                |f, _, outcome| {
                    use fusion_codegen::check::CheckOutcome;
                    match outcome {
                        CheckOutcome::Match { .. } => compared += 1,
                        CheckOutcome::BothFail { .. } => {}
                        other => panic!("{} @{} (size {size}): {other}", path.display(), f.name),
                    }
                },
            );
            result.unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        }
    }
    assert!(compared >= 60, "only {compared} compiled comparisons");
    // The remark is seen where a cluster does fall back (an expand of an expand's segments).
    let source = std::fs::read_to_string(crate::repo_root().join("lit/lowering/filter-clusters.mlir")).unwrap();
    let (_, diagnostics) = fused_lowered_text(&source);
    assert!(diagnostics.iter().any(|d| d.contains("op by op")), "{diagnostics:?}");
}

/// The flags Linux gives the mapping that holds `address` (`VmFlags` of
/// `/proc/self/smaps`: `hg` is `MADV_HUGEPAGE`), or `None` when no mapping holds it.
fn mapping_flags(address: usize) -> Option<Vec<String>> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let mut inside = false;
    for line in smaps.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        if let Some((start, end)) = first.split_once('-')
            && let (Ok(start), Ok(end)) = (usize::from_str_radix(start, 16), usize::from_str_radix(end, 16))
        {
            inside = (start..end).contains(&address);
        } else if inside && let Some(flags) = line.strip_prefix("VmFlags:") {
            return Some(flags.split_whitespace().map(str::to_string).collect());
        }
    }
    None
}

/// `array-huge-pages` in the CPU pipeline: a compiled program's large result lies in memory
/// advised for transparent huge pages (`hg`) and starts at a 2 MiB boundary, a small one is
/// left alone, and the values are right either way.
#[test]
#[cfg(target_os = "linux")]
fn large_buffers_are_advised_for_huge_pages() {
    use fusion_codegen::raw::{Arg, Buffer, Output};
    let dir = tempfile_dir("huge-pages");
    let path = dir.join("double.mlir");
    std::fs::write(
        &path,
        r#"func.func @double(%xs: tensor<?xi64>) -> tensor<?xi64> {
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%x: i64):
    %y = arith.addi %x, %x : i64
    array.yield %y : i64
  }
  return %ys : tensor<?xi64>
}
"#,
    )
    .unwrap();
    let compiled =
        fusion_codegen::raw::compile_file(&path, fusion_codegen::pipeline::Variant::Fused, None).expect("compiles");
    let vector = fusion_interpreter::Type::Tensor { elem: fusion_interpreter::ElemType::Int(64), shape: vec![None] };
    let (inputs, results) = (vec![vector.clone()], vec![vector]);
    // 8 MiB (above the 4 MiB default) and 8 KiB.
    for (n, advised) in [(1 << 20, true), (1 << 10, false)] {
        let input = fusion_interpreter::Value::tensor(
            fusion_interpreter::ElemType::Int(64),
            vec![n],
            (0..n as i64).map(|i| fusion_interpreter::Value::int(64, i)).collect(),
        );
        let mut buffer = Buffer::from_value(&input).unwrap();
        let (outputs, _) = compiled.call("double", &inputs, &results, &mut [Arg::Tensor(&mut buffer)]).unwrap();
        let Output::Tensor(result) = &outputs[0] else { panic!("a tensor result") };
        let values = result.to_buffer().to_f64s();
        assert!(values.iter().enumerate().all(|(i, v)| *v == 2.0 * i as f64), "wrong values at n = {n}");
        // The advice covers the whole block, a large one from its first element on.
        let flags = mapping_flags(result.data_address()).expect("the result lies in a mapping");
        assert_eq!(flags.iter().any(|f| f == "hg"), advised, "n = {n}: VmFlags {flags:?}");
        // A large block starts at a 2 MiB boundary, so that none of its huge pages is cut.
        if advised {
            assert_eq!(result.data_address() % (2 << 20), 0, "n = {n}: the block is not 2 MiB aligned");
        }
    }
}

fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fusion-tests-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `array-invariant-division`: divisions and remainders by a divisor fixed for the loop,
/// compiled, against Rust's own on the edge cases of the 64-bit range (divisors 1, powers
/// of two, 2^63 ± 1, 2^64 − 1, negative ones; numerators at the ends of the range). The
/// reference interpreter's are Rust's too.
#[test]
fn loop_invariant_divisions_agree_with_native_division() {
    use fusion_codegen::raw::{Arg, Buffer, Output};
    use fusion_interpreter::{ElemType, Type, Value};
    let dir = tempfile_dir("invariant-division");
    let path = dir.join("divisions.mlir");
    let ops = ["divui", "remui", "divsi", "remsi", "floordivsi"];
    let mut source = String::new();
    for op in ops {
        source += &format!(
            "func.func @{op}(%xs: tensor<?xi64>, %d: i64) -> tensor<?xi64> {{
  %ys = array.map %xs : tensor<?xi64> -> tensor<?xi64> {{
  ^bb0(%x: i64):
    %y = arith.{op} %x, %d : i64
    array.yield %y : i64
  }}
  return %ys : tensor<?xi64>
}}
"
        );
    }
    // The same through `index`, the type of the seeds' index arithmetic.
    source += "func.func @remuiIndex(%n: index, %d: index) -> tensor<?xindex> {
  %ys = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %x = arith.muli %i, %c3 : index
    %y = arith.remui %x, %d : index
    array.yield %y : index
  }
  return %ys : tensor<?xindex>
}
";
    std::fs::write(&path, &source).unwrap();
    // Every division is rewritten (so the comparison below is of the rewritten form).
    let (loops, _) = fused_lowered_text(&source);
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, &loops, "loops.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(array-invariant-division)");
    let text = module.as_operation().to_string();
    for op in ops {
        // The reciprocal function's one 128-bit division is the only one left.
        let left = text.matches(&format!("arith.{op} ")).count();
        assert_eq!(left, usize::from(op == "divui"), "arith.{op} is left:\n{text}");
    }
    assert_eq!(text.matches("call @_fusion_division_magic").count(), ops.len() + 1, "{text}");
    let compiled =
        fusion_codegen::raw::compile_file(&path, fusion_codegen::pipeline::Variant::Fused, None).expect("compiles");
    let edges: Vec<u64> = {
        let mut e = vec![0, 1, 2, 3, 5, 7, 10, 1000, 4095, 4096, 1 << 32, (1 << 32) - 1, (1 << 32) + 1];
        e.extend([(1 << 63) - 1, 1 << 63, (1 << 63) + 1, u64::MAX, u64::MAX - 1, u64::MAX / 3, 0x9E37_79B9_7F4A_7C15]);
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for _ in 0..40 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            e.push(state >> (state % 64));
        }
        e
    };
    let numerators: Vec<u64> = edges.iter().flat_map(|&x| [x, x.wrapping_add(1), x.wrapping_sub(1)]).collect();
    let vector = Type::Tensor { elem: ElemType::Int(64), shape: vec![None] };
    let mut compared = 0;
    for &d in edges.iter().filter(|&&d| d != 0) {
        for op in ops {
            let expected = |x: u64| -> Option<u64> {
                let (xs, ds) = (x as i64, d as i64);
                Some(match op {
                    "divui" => x / d,
                    "remui" => x % d,
                    _ if xs == i64::MIN && ds == -1 => return None, // overflow: undefined
                    "divsi" => (xs / ds) as u64,
                    "remsi" => (xs % ds) as u64,
                    _ => {
                        let (q, r) = (xs / ds, xs % ds);
                        (if r != 0 && (r < 0) != (ds < 0) { q - 1 } else { q }) as u64
                    }
                })
            };
            let input = Value::tensor(
                ElemType::Int(64),
                vec![numerators.len()],
                numerators.iter().map(|&x| Value::int(64, x as i64)).collect(),
            );
            let mut buffer = Buffer::from_value(&input).unwrap();
            let (outputs, _) = compiled
                .call(
                    op,
                    &[vector.clone(), Type::Scalar(ElemType::Int(64))],
                    std::slice::from_ref(&vector),
                    &mut [Arg::Tensor(&mut buffer), Arg::Scalar(Value::int(64, d as i64))],
                )
                .unwrap();
            let Output::Tensor(result) = &outputs[0] else { panic!("a tensor result") };
            let got = result.to_buffer().to_value();
            let Value::Tensor(got) = got else { panic!("a tensor value") };
            for (x, y) in numerators.iter().zip(got.elements.iter()) {
                let Some(want) = expected(*x) else { continue };
                assert_eq!(y.as_i64().unwrap() as u64, want, "{op}({}, {})", *x as i64, d as i64);
                compared += 1;
            }
        }
        // Through index.
        let (outputs, _) = compiled
            .call(
                "remuiIndex",
                &[Type::Scalar(ElemType::Index), Type::Scalar(ElemType::Index)],
                &[Type::Tensor { elem: ElemType::Index, shape: vec![None] }],
                &mut [Arg::Scalar(Value::Index(50)), Arg::Scalar(Value::Index(d as i64))],
            )
            .unwrap();
        let Output::Tensor(result) = &outputs[0] else { panic!("a tensor result") };
        let Value::Tensor(got) = result.to_buffer().to_value() else { panic!("a tensor value") };
        for (i, y) in got.elements.iter().enumerate() {
            assert_eq!(y.as_i64().unwrap() as u64, (3 * i as u64) % d, "remui index {} mod {d}", 3 * i);
        }
    }
    assert!(compared > 10_000, "{compared}");
}

/// `array-remainder-segments`: `((3i + b) · 2) mod d` (D = 6, so the chunked form runs
/// where d ≥ 6 · 1024), compiled, against Rust's wrapping arithmetic, around every edge of
/// the run-time guard: divisors just below, at and above 6144, lengths around the chunk of
/// 1024, and addends b for which the last iteration's chain fits exactly, wraps by one,
/// or wraps in the addition.
#[test]
fn remainder_segments_agree_with_wrapping_arithmetic() {
    use fusion_codegen::raw::Output;
    use fusion_interpreter::{ElemType, Type, Value};
    let dir = tempfile_dir("remainder-segments");
    let path = dir.join("segments.mlir");
    let source = "func.func @affine(%n: index, %b: index, %d: index) -> tensor<?xindex> {
  %ys = array.generate (%n) : tensor<?xindex> {
  ^bb0(%i: index):
    %c3 = arith.constant 3 : index
    %c2 = arith.constant 2 : index
    %x = arith.muli %i, %c3 : index
    %y = arith.addi %x, %b : index
    %z = arith.muli %y, %c2 : index
    %r = arith.remui %z, %d : index
    array.yield %r : index
  }
  return %ys : tensor<?xindex>
}
func.func @rows(%m: index, %n: index, %b: index, %d: index) -> tensor<?x?xindex> {
  %ys = array.generate (%m, %n) : tensor<?x?xindex> {
  ^bb0(%i: index, %j: index):
    %c2 = arith.constant 2 : index
    %x = arith.muli %j, %c2 : index
    %y = arith.addi %b, %x : index
    %r = arith.remui %y, %d : index
    %s = arith.addi %r, %i : index
    array.yield %s : index
  }
  return %ys : tensor<?x?xindex>
}
";
    std::fs::write(&path, source).unwrap();
    // The loop is rewritten (so the comparison below is of the rewritten form).
    let (loops, _) = fused_lowered_text(source);
    let context = context();
    let mut module = array_dialect::source::parse_source(&context, &loops, "loops.mlir").expect("parses");
    run_pipeline(&context, &mut module, "builtin.module(array-remainder-segments)");
    let text = module.as_operation().to_string();
    // Both functions: D = 6 in @affine, D = 2 in @rows (its innermost dimension).
    assert!(text.contains("arith.constant 6144 : index") && text.contains("arith.constant 2048 : index"), "{text}");
    assert_eq!(text.matches("} else {").count(), 2, "not rewritten:\n{text}");
    assert_eq!(text.matches("arith.remui").count(), 4, "one remainder per chunk, one in each unchanged loop:\n{text}");
    let compiled =
        fusion_codegen::raw::compile_file(&path, fusion_codegen::pipeline::Variant::Fused, None).expect("compiles");
    let index = Type::Scalar(ElemType::Index);
    let mut compared = 0;
    for n in [0u64, 1, 2, 1023, 1024, 1025, 5000] {
        let last = n.saturating_sub(1);
        // (3 · last + b) · 2 ≤ 2^64 − 1 exactly when 3 · last + b ≤ ⌊(2^64 − 1) / 2⌋.
        let fits = u64::MAX / 2 - 3 * last;
        for b in [0, 1, 5, 99_991, fits, fits + 1, u64::MAX - 2] {
            for d in [1u64, 7, 6143, 6144, 6145, 10_007, 30_011, 1 << 33, u64::MAX] {
                let (outputs, _) = compiled
                    .call(
                        "affine",
                        &[index.clone(), index.clone(), index.clone()],
                        &[Type::Tensor { elem: ElemType::Index, shape: vec![None] }],
                        &mut [
                            fusion_codegen::raw::Arg::Scalar(Value::Index(n as i64)),
                            fusion_codegen::raw::Arg::Scalar(Value::Index(b as i64)),
                            fusion_codegen::raw::Arg::Scalar(Value::Index(d as i64)),
                        ],
                    )
                    .unwrap();
                let Output::Tensor(result) = &outputs[0] else { panic!("a tensor result") };
                let Value::Tensor(got) = result.to_buffer().to_value() else { panic!("a tensor value") };
                assert_eq!(got.elements.len() as u64, n);
                for (i, y) in got.elements.iter().enumerate() {
                    let want = (3 * i as u64).wrapping_add(b).wrapping_mul(2) % d;
                    assert_eq!(y.as_i64().unwrap() as u64, want, "i = {i}, n = {n}, b = {b}, d = {d}");
                    compared += 1;
                }
            }
        }
    }
    // A matrix whose rows each wrap around: the chunks of the innermost dimension, the
    // rows in parallel as before.
    for (m, n) in [(3u64, 5000u64), (2, 2049), (1, 1024), (4, 0)] {
        for b in [0u64, 17, u64::MAX - 3] {
            for d in [1000u64, 2047, 2048, 4099] {
                let (outputs, _) = compiled
                    .call(
                        "rows",
                        &[index.clone(), index.clone(), index.clone(), index.clone()],
                        &[Type::Tensor { elem: ElemType::Index, shape: vec![None, None] }],
                        &mut [m, n, b, d].map(|x| fusion_codegen::raw::Arg::Scalar(Value::Index(x as i64))),
                    )
                    .unwrap();
                let Output::Tensor(result) = &outputs[0] else { panic!("a tensor result") };
                let Value::Tensor(got) = result.to_buffer().to_value() else { panic!("a tensor value") };
                assert_eq!(got.elements.len() as u64, m * n);
                for (k, y) in got.elements.iter().enumerate() {
                    let (i, j) = (k as u64 / n.max(1), k as u64 % n.max(1));
                    let want = b.wrapping_add(2 * j) % d + i;
                    assert_eq!(y.as_i64().unwrap() as u64, want, "({i}, {j}) of {m} x {n}, b = {b}, d = {d}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 100_000, "{compared}");
}
