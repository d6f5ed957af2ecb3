//! The compiled differential property test: random well-typed programs with random inputs give the
//! same results through the reference interpreter (the oracle, on the unfused and on the
//! fused program), the JIT-compiled unfused program and the JIT-compiled ILP-fused program.
//! The programs are integer programs (maps with free variables, folds with commuting and
//! non-commuting combines, filters, scans, scatters, reverses as generate + gather:
//! `fuse_roundtrip::random_program`), so the comparison is exact; and every cluster the
//! analysis chose for them is lowered as one loop nest. Inputs come from the runner's generator, with extents from 0 (empty arrays) up.

use fusion_codegen::check::{CheckOutcome, check_file_with_threads};
use fusion_codegen::inputs::generate_args;
use fusion_codegen::{LaunchShape, ScatterForm, Threads};
use proptest::prelude::*;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Writes `source` to a fresh file (the JIT compiles files) and checks every function.
pub(crate) fn check_source(
    source: &str,
    input_seed: u64,
    size: usize,
    threads: Threads,
) -> Vec<(String, CheckOutcome)> {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let path = std::env::temp_dir().join(format!(
        "fusion-compiled-differential-{}-{}.mlir",
        std::process::id(),
        FILES.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::write(&path, source).unwrap();
    let mut outcomes = Vec::new();
    let result = check_file_with_threads(
        &path,
        None,
        threads,
        |f| Ok(generate_args(&f.inputs, input_seed, size)),
        |f, _, outcome| outcomes.push((f.name.clone(), outcome.clone())),
    );
    let _ = std::fs::remove_file(&path);
    result.unwrap_or_else(|e| panic!("{e}\n{source}"));
    outcomes
}

/// Every function is compiled both ways and all four runs agree; the interpreter may
/// also reject the inputs the same way on both programs (then nothing is compiled).
fn assert_all_match(source: &str, input_seed: u64, size: usize) -> usize {
    assert_all_match_with(source, input_seed, size, Threads::Sequential)
}

pub(crate) fn assert_all_match_with(source: &str, input_seed: u64, size: usize, threads: Threads) -> usize {
    let mut compiled = 0;
    for (name, outcome) in check_source(source, input_seed, size, threads) {
        match outcome {
            CheckOutcome::Match { .. } => compiled += 1,
            CheckOutcome::BothFail { .. } => {}
            other => panic!("@{name} (inputs: seed {input_seed}, size {size}): {other}\n{source}"),
        }
    }
    compiled
}

/// Programs per run: 300 in `make test`; `FUSION_DIFFERENTIAL_CASES=N` for the long mode
/// (the README records the last long run).
fn cases() -> u32 {
    std::env::var("FUSION_DIFFERENTIAL_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(300)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn random_programs_agree_interpreted_unfused_and_fused_compiled(
        program_seed in any::<u64>(),
        ops in 3usize..16,
        input_seed in any::<u64>(),
        size in 0usize..40,
    ) {
        let source = integration_tests::random_program(program_seed, ops);
        // The clustering the analysis chose is the code that runs: no cluster is lowered
        // op by op (issue "no silent per-op fallback").
        let (_, diagnostics) = crate::lowering::fused_lowered_text(&source);
        prop_assert!(diagnostics.iter().all(|d| !d.contains("op by op")), "{diagnostics:?}\n{source}");
        assert_all_match(&source, input_seed, size);
    }
}

/// Programs per run of the OpenMP property: 40 in `make test`;
/// `FUSION_DIFFERENTIAL_OPENMP_CASES=N` for more.
fn openmp_cases() -> u32 {
    std::env::var("FUSION_DIFFERENTIAL_OPENMP_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(40)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: openmp_cases(), failure_persistence: None, ..ProptestConfig::default() })]
    /// The same with the parallel loops (parallel reductions, three-phase scans and
    /// filters included) on OpenMP threads, scatters in each of their forms (on private
    /// copies where exact, in order, by owner, atomic, on private copies): integer
    /// results, so any grouping of a reduction or a scan, and any order of commutative
    /// updates, must give the sequential value.
    #[test]
    fn random_programs_agree_with_openmp_threads(
        program_seed in any::<u64>(),
        ops in 3usize..16,
        input_seed in any::<u64>(),
        size in 0usize..200,
        scatters in 0usize..ScatterForm::ALL.len(),
    ) {
        let source = integration_tests::random_program(program_seed, ops);
        let threads = Threads::OpenMp(ScatterForm::ALL[scatters]);
        assert_all_match_with(&source, input_seed, size, threads);
    }
}

/// Programs per run of the GPU property: 40 in `make test`;
/// `FUSION_DIFFERENTIAL_GPU_CASES=N` for more.
fn gpu_cases() -> u32 {
    std::env::var("FUSION_DIFFERENTIAL_GPU_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(40)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: gpu_cases(), failure_persistence: None, ..ProptestConfig::default() })]
    /// The same with every loop nest a GPU kernel (`array-gpu-kernels`: grid-stride
    /// kernels, two-kernel block reductions, three-phase scans, atomic scatters,
    /// one-thread sequential nests), the kernels emulated on the CPU block by block and
    /// thread by thread (`array-gpu-emulate`). The launch shape is drawn too: blocks of
    /// 32 to 256 threads, grids of at most 1 to 4 blocks, so with up to 600 elements the
    /// threads of a grid-stride loop wrap around, and the partials of several blocks
    /// are combined; the default shape (256 × 4096) is the one `--gpu-sim` checks.
    #[test]
    fn random_programs_agree_as_emulated_gpu_kernels(
        program_seed in any::<u64>(),
        ops in 3usize..16,
        input_seed in any::<u64>(),
        size in 0usize..600,
        warps in 1u32..=8,
        max_blocks in 1u32..=4,
    ) {
        let source = integration_tests::random_program(program_seed, ops);
        let shape = LaunchShape { block_size: 32 * warps, max_blocks, ..LaunchShape::default() };
        assert_all_match_with(&source, input_seed, size, Threads::GpuEmulated(shape));
    }
}

/// Programs where `array-recompute` copies producers into their consumers' loops (the
/// generator above rarely makes one): the copies compute what the original did.
#[test]
fn programs_with_recomputed_producers_agree() {
    let mut recomputed = 0;
    for seed in 0..24 {
        let source = integration_tests::recompute_program(seed, 3 + (seed as usize % 5));
        if crate::analysis::analysed_objective(&source, "").2.contains("array.recomputed") {
            recomputed += 1;
        }
        assert_all_match(&source, seed, (seed as usize * 7) % 40);
    }
    assert!(recomputed >= 8, "only {recomputed} of 24 programs had producers recomputed");
}

/// The property above is not vacuous: on a fixed set of programs, most runs are compiled
/// and compared (none is skipped for want of a lowering).
#[test]
fn random_programs_are_compiled_and_compared() {
    let compared: usize =
        (0..20).map(|seed| assert_all_match(&integration_tests::random_program(seed, 12), seed, 17)).sum();
    assert!(compared >= 18, "only {compared} of 20 random programs were compiled and compared");
}

/// A disagreement is caught: the same program with a wrong compiled result is not a match
/// (checked through the comparison the property relies on).
#[test]
fn a_wrong_result_is_a_mismatch() {
    use fusion_codegen::check::first_difference;
    use fusion_interpreter::{ElemType, Value};
    let expected = vec![Value::tensor(ElemType::Int(64), vec![2], vec![Value::int(64, 1), Value::int(64, 2)])];
    let actual = vec![Value::tensor(ElemType::Int(64), vec![2], vec![Value::int(64, 1), Value::int(64, 3)])];
    assert_eq!(first_difference(&expected, &actual), Some(0));
    assert_eq!(first_difference(&expected, &expected), None);
}

/// A backpermute of `xs` (length n, the size) whose index is a random chain of `arith.addi`
/// and `arith.muli` from the position i, taken mod n: the shape `array-remainder-segments`
/// rewrites (its run-time guard decides per run). Steps: `· c` (c from 1 to 3), `+ c` (a
/// constant up to 2^62), `+ size` (the index argument), `+ shift` (a small random i64 as
/// an index: a negative one is near 2^64, so the chain wraps and the guard falls back).
fn affine_remainder_program(seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut next = |bound: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % bound
    };
    let mut body = String::new();
    let mut current = "%i".to_string();
    for step in 0..1 + next(4) {
        let (constant, operation, operand) = match next(4) {
            0 => (Some(1 + next(3)), "muli", format!("%c{step}")),
            1 => (Some(next(4) * (1 << 60) + next(5000)), "addi", format!("%c{step}")),
            2 => (None, "addi", "%size".to_string()),
            _ => (None, "addi", "%shifted".to_string()),
        };
        if let Some(c) = constant {
            body += &format!("    %c{step} = arith.constant {c} : index\n");
        }
        // Either operand order: the chain is found from either side.
        let (lhs, rhs) = if next(2) == 0 { (current.clone(), operand) } else { (operand, current.clone()) };
        body += &format!("    %x{step} = arith.{operation} {lhs}, {rhs} : index\n");
        current = format!("%x{step}");
    }
    format!(
        "func.func @affineRemainder(%xs: tensor<?xi64>, %size: index, %shift: i64) -> tensor<?xi64> {{
  %n = array.size %xs : tensor<?xi64>
  %shifted = arith.index_cast %shift : i64 to index
  %ys = array.backpermute %xs to (%size) : tensor<?xi64> -> tensor<?xi64> {{
  ^bb0(%i: index):
{body}    %j = arith.remui {current}, %n : index
    array.yield %j : index
  }}
  return %ys : tensor<?xi64>
}}
"
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]
    /// Random affine remainders agree compiled (sequential and on OpenMP threads) with the
    /// interpreter, at sizes on both sides of the segments' guard (n ≥ 1024 · D).
    #[test]
    fn random_affine_remainders_agree(
        program_seed in any::<u64>(),
        input_seed in any::<u64>(),
        size in prop::sample::select(vec![0usize, 1, 2, 1023, 2047, 2048, 3100, 7000, 9300]),
        openmp in any::<bool>(),
    ) {
        let source = affine_remainder_program(program_seed);
        let threads = if openmp { Threads::OpenMp(ScatterForm::Sequential) } else { Threads::Sequential };
        let compiled = assert_all_match_with(&source, input_seed, size, threads);
        prop_assert!(compiled == 1 || size == 0, "not compared at size {size}\n{source}");
    }
}
