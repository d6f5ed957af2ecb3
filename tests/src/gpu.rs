//! The GPU path without a GPU: every example and random programs are lowered to one kernel
//! per loop nest (`array-gpu-kernels`), compiled to PTX for sm_80 and sm_90, and assembled
//! by NVIDIA's `ptxas` (installed by scripts/setup.sh into .deps/cuda); the kernel
//! structure (block reductions, reported one-thread kernels) is checked on the IR.

use fusion_codegen::Variant;
use fusion_codegen::gpu::{ExpandStrategy, GpuTarget, assemble_amdgpu, assemble_ptx, compile_gpu, compile_gpu_file};
use std::path::PathBuf;

fn examples() -> Vec<PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(crate::repo_root().join("examples"))
        .expect("examples/ exists")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mlir"))
        .collect();
    files.sort();
    files
}

fn nvptx(chip: &str) -> GpuTarget {
    GpuTarget::Nvptx { chip: chip.into() }
}

#[test]
fn every_example_assembles_with_ptxas_for_sm_80_and_sm_90() {
    let mut kernels = 0;
    for path in examples() {
        for chip in ["sm_80", "sm_90"] {
            let program = compile_gpu_file(&path, Variant::Fused, &nvptx(chip), ExpandStrategy::Auto)
                .unwrap_or_else(|e| panic!("{} for {chip}: {e}", path.display()));
            assert!(!program.kernels.is_empty(), "{}: no kernel", path.display());
            // The host program is LLVM IR calling the GPU runtime: one launch call per
            // gpu.launch_func, its buffers in managed memory.
            let calls = |name: &str| program.host_llvm_ir.matches(&format!(" @{name}(")).count() - 1;
            assert_eq!(
                calls("mgpuLaunchKernel"),
                program.host.matches("gpu.launch_func ").count(),
                "{}",
                path.display()
            );
            assert!(calls("mgpuMemAlloc") > 0, "{}: no managed buffer", path.display());
            for kernel in &program.kernels {
                assert!(kernel.assembly.contains(&format!(".target {chip}")), "{}", kernel.module);
                assemble_ptx(&kernel.assembly, chip)
                    .unwrap_or_else(|e| panic!("{} kernel {}: {e}", path.display(), kernel.module));
                kernels += 1;
            }
        }
    }
    assert!(kernels > 100, "only {kernels} kernels");
}

#[test]
fn every_example_assembles_with_llvm_mc_for_gfx90a_and_gfx942() {
    let mut kernels = 0;
    for path in examples() {
        for chip in ["gfx90a", "gfx942"] {
            let program =
                compile_gpu_file(&path, Variant::Fused, &GpuTarget::Amdgcn { chip: chip.into() }, ExpandStrategy::Auto)
                    .unwrap_or_else(|e| panic!("{} for {chip}: {e}", path.display()));
            for kernel in &program.kernels {
                let target = format!(".amdgcn_target \"amdgcn-amd-amdhsa--{chip}\"");
                assert!(kernel.assembly.contains(&target), "{}", kernel.module);
                assemble_amdgpu(&kernel.assembly, chip)
                    .unwrap_or_else(|e| panic!("{} kernel {}: {e}", path.display(), kernel.module));
                kernels += 1;
            }
        }
    }
    assert!(kernels > 100, "only {kernels} kernels");
    // The check can fail: gfx942 code is not gfx90a code.
    let path = crate::repo_root().join("examples/seed000_single_loop.mlir");
    let program =
        compile_gpu_file(&path, Variant::Fused, &GpuTarget::Amdgcn { chip: "gfx942".into() }, ExpandStrategy::Auto)
            .unwrap();
    let error = assemble_amdgpu(&program.kernels[0].assembly, "gfx90a").unwrap_err();
    assert!(error.contains("does not match the specified target id"), "{error}");
}

#[test]
fn ptxas_refuses_ptx_for_a_newer_chip() {
    // The check above can fail: PTX for sm_90 is not sm_80 code.
    let path = crate::repo_root().join("examples/seed000_single_loop.mlir");
    let program = compile_gpu_file(&path, Variant::Fused, &nvptx("sm_90"), ExpandStrategy::Auto).unwrap();
    let error = assemble_ptx(&program.kernels[0].assembly, "sm_80").unwrap_err();
    assert!(error.contains("SM version"), "{error}");
}

/// The kernels of a program, summed over the summary remarks of `array-gpu-kernels`
/// ("P parallel kernels (A with atomic updates), R reductions (…), C scans (…), S
/// one-thread kernels"): each count is the number written before its label.
fn kernel_count(remarks: &[String], label: &str) -> usize {
    remarks
        .iter()
        .filter(|r| r.contains("array-gpu-kernels: ") && r.contains(" parallel kernels ("))
        .map(|r| {
            let before = &r[..r.find(label).unwrap_or_else(|| panic!("no '{label}' in {r}"))];
            let number = before.trim_end().rsplit([' ', '(', ',', ':']).next().unwrap_or_default();
            number.parse::<usize>().unwrap_or_else(|_| panic!("no count before '{label}' in {r}"))
        })
        .sum()
}

/// (parallel kernels, reductions, one-thread kernels) of a program.
fn kernel_counts(remarks: &[String]) -> (usize, usize, usize) {
    (
        kernel_count(remarks, " parallel kernels"),
        kernel_count(remarks, " reductions"),
        kernel_count(remarks, " one-thread kernels"),
    )
}

#[test]
fn parallel_folds_are_block_reductions_and_ordered_float_folds_one_thread() {
    let path = crate::repo_root().join("lit/lowering/reductions.mlir");
    let program = compile_gpu_file(&path, Variant::Fused, &nvptx("sm_90"), ExpandStrategy::Auto).unwrap();
    // int_reductions: one cluster, both folds regroupable → one reduction (two kernels);
    // float_sums: the reassoc sum is a reduction, the strict one one thread; all_positive
    // (an i1 'and', an in-order scf.for for OpenMP's sake) a scan without stores: its
    // partials and their total (two kernels).
    assert_eq!(kernel_counts(&program.remarks), (0, 2, 1), "{:#?}", program.remarks);
    assert_eq!(kernel_count(&program.remarks, " scans"), 1, "{:#?}", program.remarks);
    assert_eq!(program.kernels.len(), 2 * 2 + 1 + 2);
    let one_thread = program.remarks.iter().filter(|r| r.contains("runs as one GPU thread")).count();
    assert_eq!(one_thread, 1, "{:#?}", program.remarks);
    // The block reductions are warp shuffles (gpu.all_reduce lowered by convert-gpu-to-nvvm).
    let shuffles = program.kernels.iter().filter(|k| k.assembly.contains("shfl.sync.bfly")).count();
    assert_eq!(shuffles, 4);
}

#[test]
fn commutative_scatters_are_atomic_updates_and_ordered_ones_one_thread() {
    // seed000_scatter_example adds into the destination (an atomic add); last_write in
    // lit/gpu/kernels.mlir keeps the newest value, whose order matters (one thread).
    let path = crate::repo_root().join("examples/seed000_scatter_example.mlir");
    let program = compile_gpu_file(&path, Variant::Fused, &nvptx("sm_80"), ExpandStrategy::Auto).unwrap();
    assert_eq!(kernel_count(&program.remarks, " with atomic updates"), 1, "{:#?}", program.remarks);
    assert_eq!(kernel_counts(&program.remarks).2, 0, "{:#?}", program.remarks);
    let atomic = program.kernels.iter().filter(|k| k.assembly.contains("atom.global.add.u64")).count();
    assert_eq!(atomic, 1);
    let path = crate::repo_root().join("lit/gpu/kernels.mlir");
    let program = compile_gpu_file(&path, Variant::Fused, &nvptx("sm_80"), ExpandStrategy::Auto).unwrap();
    let last_write = program.kernels.iter().find(|k| k.module.starts_with("last_write_kernel_")).expect("kernel");
    assert!(!last_write.assembly.contains("atom."), "{}", last_write.assembly);
}

#[test]
fn random_programs_assemble_with_ptxas() {
    let context = array_dialect::context();
    let mut kernels = 0;
    for seed in 0..12u64 {
        let source = integration_tests::random_program(seed, 6);
        for variant in [Variant::Unfused, Variant::Fused] {
            let mut module = array_dialect::source::parse_source(&context, &source, "random.mlir").unwrap();
            let program = compile_gpu(&context, &mut module, variant, &nvptx("sm_90"), ExpandStrategy::Auto)
                .unwrap_or_else(|e| panic!("seed {seed} {variant:?}: {e}\n{source}"));
            for kernel in &program.kernels {
                assemble_ptx(&kernel.assembly, "sm_90")
                    .unwrap_or_else(|e| panic!("seed {seed} {variant:?} {}: {e}\n{source}", kernel.module));
                kernels += 1;
            }
        }
    }
    assert!(kernels >= 24, "only {kernels} kernels");
}

#[test]
fn unknown_targets_and_missing_tools_are_clear_errors() {
    let error = "nvptx:90".parse::<GpuTarget>().unwrap_err();
    assert!(error.contains("nvptx:sm_<NN>"), "{error}");
    let error = assemble_ptx("not ptx", "sm_90").unwrap_err();
    assert!(error.starts_with("ptxas -arch=sm_90:"), "{error}");
    let error = assemble_amdgpu("not assembly", "gfx90a").unwrap_err();
    assert!(error.starts_with("llvm-mc -mcpu=gfx90a:"), "{error}");
}

/// Calls `@name` of tests/programs/gpu/emulation_faults.mlir, its kernels emulated with
/// checked accesses (`compile_emulated_kernels_file`), on vectors of i64 of the given
/// lengths (element k = 100 + k); its i64 result if it has one, or the error.
fn call_emulated(name: &str, lengths: &[usize], returns: bool) -> Result<Option<i64>, String> {
    use fusion_codegen::compile_emulated_kernels_file;
    use fusion_interpreter::{ElemType, Type, Value};
    let path = crate::repo_root().join("tests/programs/gpu/emulation_faults.mlir");
    let compiled =
        compile_emulated_kernels_file(&path, Some(name)).unwrap_or_else(|e| panic!("@{name} does not compile: {e}"));
    let vector = Type::Tensor { elem: ElemType::Int(64), shape: vec![None] };
    let inputs: Vec<Type> = lengths.iter().map(|_| vector.clone()).collect();
    let args: Vec<Value> = lengths
        .iter()
        .map(|&n| Value::tensor(ElemType::Int(64), vec![n], (0..n).map(|k| Value::i64(100 + k as i64)).collect()))
        .collect();
    let results = if returns { vec![Type::Scalar(ElemType::Int(64))] } else { vec![] };
    let (out, _) = compiled.call(name, &inputs, &results, &args)?;
    Ok(out.first().map(|v| v.as_i64().expect("an i64 result")))
}

#[test]
fn emulated_kernels_report_accesses_out_of_bounds() {
    assert_eq!(call_emulated("store_ids", &[64], true), Ok(Some(63)));
    let error = call_emulated("store_ids", &[10], true).unwrap_err();
    assert!(error.contains("'memref.store' at loc(") && error.contains("emulation_faults.mlir\":13:"), "{error}");
    assert!(error.contains("in @store_ids"), "{error}");
    assert!(
        error.contains("block 0 thread 10 uses index 10 in dimension 0, whose extent is 10 (out of bounds"),
        "{error}"
    );
    assert!(error.contains("(54 faults in all; the first:)"), "{error}");
}

#[test]
fn emulated_kernels_report_data_races() {
    let error = call_emulated("all_store_first", &[4], false).unwrap_err();
    assert!(
        error.contains("block 0 thread 1 writes element 0 after block 0 thread 0 wrote it, with no barrier between"),
        "{error}"
    );
    let error = call_emulated("rotate", &[32, 32], true).unwrap_err();
    assert!(error.contains("'memref.store' at") && error.contains(":45:"), "{error}");
    assert!(error.contains("block 0 thread 1 writes element 1, which block 0 thread 0 read"), "{error}");
    // A barrier orders the accesses of one block: no race, and thread t reads what t + 1 wrote.
    assert_eq!(call_emulated("rotate_synchronised", &[32, 32], true), Ok(Some(1)));
    // It does not order two blocks.
    let error = call_emulated("swap_blocks", &[64, 64], false).unwrap_err();
    assert!(error.contains("block 1 thread 0 writes element 32, which block 0 thread 0 read"), "{error}");
    // Atomic updates of one element by every thread are no race; a plain write among them is.
    assert_eq!(call_emulated("count_atomically", &[1], true), Ok(Some(164)));
    let error = call_emulated("reset_while_counting", &[1], false).unwrap_err();
    assert!(error.contains("block 0 thread 1 updates element 0 atomically, which block 0 thread 0 wrote"), "{error}");
}

// --- An expand fused with a scatter (seed 004) ----------------------------------------

/// seed 004's micro-benchmark shapes (examples/gpu/seed004_expand_permute.mlir).
fn expand_permute_examples() -> PathBuf {
    crate::repo_root().join("examples/gpu/seed004_expand_permute.mlir")
}

/// The remarks saying which strategy divided an expand's segments.
fn divisions(remarks: &[String]) -> Vec<&String> {
    remarks.iter().filter(|r| r.contains("an expand fused with a scatter runs as")).collect()
}

#[test]
fn every_expand_strategy_assembles_with_ptxas_for_sm_80_and_sm_90() {
    let path = expand_permute_examples();
    for strategy in ExpandStrategy::ALL {
        for chip in ["sm_80", "sm_90"] {
            let program = compile_gpu_file(&path, Variant::Fused, &nvptx(chip), strategy)
                .unwrap_or_else(|e| panic!("{} for {chip}: {e}", strategy.name()));
            // All seven functions are one segment nest each, divided as asked.
            let divided = divisions(&program.remarks);
            assert_eq!(divided.len(), 7, "{:#?}", program.remarks);
            let asked = format!("runs as {} kernels (as requested)", strategy.name());
            assert!(divided.iter().all(|r| r.contains(&asked)), "{divided:#?}");
            assert_eq!(kernel_counts(&program.remarks).2, 0, "a one-thread kernel: {:#?}", program.remarks);
            for kernel in &program.kernels {
                assemble_ptx(&kernel.assembly, chip)
                    .unwrap_or_else(|e| panic!("{} {chip} kernel {}: {e}", strategy.name(), kernel.module));
            }
            // What makes each division what it is, in the PTX.
            let all: String = program.kernels.iter().map(|k| k.assembly.as_str()).collect();
            assert!(all.contains("atom.global.add.u64"), "{}: no atomic add", strategy.name());
            let shuffles = all.contains("shfl.sync.idx");
            let shared = all.contains(".shared") && all.contains("bar.sync");
            match strategy {
                ExpandStrategy::PerWarp | ExpandStrategy::PerBlockShuffle => assert!(shuffles && !shared),
                ExpandStrategy::PerBlockShared | ExpandStrategy::PerBlock(_) => assert!(shared && !shuffles),
                _ => assert!(!shuffles && !shared, "{}", strategy.name()),
            }
        }
    }
    // And for an AMD GPU, the two that share values within a block.
    for strategy in [ExpandStrategy::PerBlockShuffle, ExpandStrategy::PerBlock(16)] {
        let target = GpuTarget::Amdgcn { chip: "gfx942".into() };
        let program = compile_gpu_file(&path, Variant::Fused, &target, strategy).unwrap();
        for kernel in &program.kernels {
            assemble_amdgpu(&kernel.assembly, "gfx942")
                .unwrap_or_else(|e| panic!("{} kernel {}: {e}", strategy.name(), kernel.module));
        }
    }
}

#[test]
fn the_default_division_follows_the_stated_segment_lengths() {
    let program =
        compile_gpu_file(&expand_permute_examples(), Variant::Fused, &nvptx("sm_90"), ExpandStrategy::Auto).unwrap();
    let divided: Vec<String> =
        divisions(&program.remarks).into_iter().map(|r| r[r.find("runs as ").unwrap() + 8..].to_string()).collect();
    // In the order of the file: 0-10, 0-100, 1000-3000, a filter, 0-10 or 3000-3500,
    // mostly empty (at most 4), one huge segment.
    assert_eq!(
        divided,
        [
            "32-per-block kernels (chosen for segments of at most 10 elements)",
            "4-per-block kernels (chosen for segments of at most 100 elements)",
            "1-per-block-shared kernels (chosen for segments of at most 3000 elements)",
            "1-per-thread kernels (chosen for segments of at most 1 elements)",
            "1-per-block-shared kernels (chosen for segments of at most 3500 elements)",
            "128-per-block kernels (chosen for segments of at most 4 elements)",
            "1-per-block-shared kernels (chosen for segments of at most 4096 elements)",
        ]
    );
}

#[test]
fn every_expand_strategy_gives_the_interpreters_results_when_emulated() {
    use fusion_codegen::{LaunchShape, Threads};
    let source = std::fs::read_to_string(expand_permute_examples()).unwrap();
    let mut strategies = ExpandStrategy::ALL.to_vec();
    strategies.push(ExpandStrategy::Auto);
    for (k, strategy) in strategies.into_iter().enumerate() {
        // Blocks of 64 threads: two warps, so shuffles within each warp of a block and
        // the N-per-block search over more elements than threads are both exercised.
        let shape = LaunchShape { block_size: 64, max_blocks: 2, expand: strategy };
        let size = if k == 0 { 0 } else { 23 + 7 * k };
        let compared =
            crate::compiled_differential::assert_all_match_with(&source, k as u64, size, Threads::GpuEmulated(shape));
        assert_eq!(compared, 7, "{}", strategy.name());
    }
}

/// A random expand fused with a scatter: `count` from one of a few shapes (empty,
/// constant, a remainder, rare long segments among short ones), targets a hash into a
/// destination of random length, a random commutative combine, and in half the programs
/// keep flags (seed 004's `Nothing`) that drop a third of the elements (their targets stay
/// in range, so an update that ignored its flag would change the result).
fn random_expand_permute(seed: u64) -> String {
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1);
    let mut next = |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let count = match next(4) {
        0 => "    %n = arith.constant 0 : i64".to_string(),
        1 => format!("    %n = arith.constant {} : i64", 1 + next(40)),
        2 => format!("    %m = arith.constant {} : i64\n    %n = arith.remui %x, %m : i64", 1 + next(70)),
        _ => format!(
            "    %m = arith.constant {} : i64\n    %short = arith.remui %x, %m : i64\n    %k = arith.constant {} : i64\n    \
             %long = arith.constant {} : i64\n    %isLong = arith.cmpi eq, %x, %k : i64\n    \
             %n = arith.select %isLong, %long, %short : i64",
            1 + next(5),
            next(16),
            200 + next(900)
        ),
    };
    let combine =
        ["arith.addi", "arith.maxsi", "arith.minsi", "arith.maxui", "arith.xori", "arith.ori"][next(6) as usize];
    let (length, multiplier) = (1 + next(300), 1 + next(50));
    let (flag, yielded, types, keep) = if next(2) == 0 {
        (
            "    %c3 = arith.constant 3 : i64\n    %third = arith.remui %g, %c3 : i64\n    %zero = arith.constant 0 : i64\n    \
             %keep = arith.cmpi ne, %third, %zero : i64",
            "%target, %keep, %value",
            "i64, i1, i64",
            ("%targets, %keeps, %values", "tensor<?xi64>, tensor<?xi1>, tensor<?xi64>", " keep(%keeps : tensor<?xi1>)"),
        )
    } else {
        ("", "%target, %value", "i64, i64", ("%targets, %values", "tensor<?xi64>, tensor<?xi64>", ""))
    };
    let (results, result_types, keep) = keep;
    format!(
        r#"func.func @expandPermute(%src: tensor<?xi64>) -> tensor<?xi64> {{
  %length = arith.constant {length} : index
  %base = array.generate (%length) : tensor<?xi64> {{
  ^bb0(%i: index):
    %ii = arith.index_cast %i : index to i64
    array.yield %ii : i64
  }}
  {results} = array.expand %src : tensor<?xi64> -> {result_types} count {{
  ^bb0(%a: i64):
    %c8 = arith.constant 8 : i64
    %x = arith.addi %a, %c8 : i64
{count}
    %count = arith.index_cast %n : i64 to index
    array.yield %count : index
  }} get {{
  ^bb0(%a: i64, %i: index):
    %ii = arith.index_cast %i : index to i64
    %c = arith.constant {multiplier} : i64
    %l = arith.constant {length} : i64
    %h = arith.muli %a, %c : i64
    %g = arith.addi %h, %ii : i64
    %target = arith.remui %g, %l : i64
    %value = arith.subi %ii, %a : i64
{flag}
    array.yield {yielded} : {types}
  }}
  %result = array.scatter %base[%targets]{keep}, %values : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {{
  ^bb0(%old: i64, %new: i64):
    %r = {combine} %old, %new : i64
    array.yield %r : i64
  }}
  return %result : tensor<?xi64>
}}
"#
    )
}

#[test]
fn random_expand_permute_programs_are_divided_and_assemble() {
    let context = array_dialect::context();
    for seed in 0..8u64 {
        let source = random_expand_permute(seed);
        let strategy = ExpandStrategy::ALL[seed as usize % ExpandStrategy::ALL.len()];
        let mut module = array_dialect::source::parse_source(&context, &source, "random.mlir").unwrap();
        let program = compile_gpu(&context, &mut module, Variant::Fused, &nvptx("sm_90"), strategy)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{source}"));
        // An expand of empty segments only leaves no loop to divide (canonicalization
        // removes it).
        let empty = source.contains("%n = arith.constant 0 : i64");
        assert_eq!(
            divisions(&program.remarks).len(),
            usize::from(!empty),
            "seed {seed}: {:#?}\n{source}",
            program.remarks
        );
        for kernel in &program.kernels {
            assemble_ptx(&kernel.assembly, "sm_90").unwrap_or_else(|e| panic!("seed {seed}: {e}\n{source}"));
        }
    }
}

/// Random expand + permute programs per run: 12 in `make test`;
/// `FUSION_EXPAND_PERMUTE_CASES=N` for more.
fn expand_permute_cases() -> u32 {
    std::env::var("FUSION_EXPAND_PERMUTE_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(12)
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: expand_permute_cases(),
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    })]
    /// Every strategy, on random expand + permute programs and inputs (from empty ones
    /// up), with random launch shapes, emulated, gives the interpreter's results.
    #[test]
    fn random_expand_permute_programs_agree_under_every_strategy(
        program_seed in proptest::prelude::any::<u64>(),
        strategy in 0usize..=ExpandStrategy::ALL.len(),
        input_seed in proptest::prelude::any::<u64>(),
        size in 0usize..200,
        warps in 1u32..=4,
    ) {
        use fusion_codegen::{LaunchShape, Threads};
        let source = random_expand_permute(program_seed);
        let expand = ExpandStrategy::ALL.get(strategy).copied().unwrap_or(ExpandStrategy::Auto);
        let shape = LaunchShape { block_size: 32 * warps, max_blocks: 3, expand };
        crate::compiled_differential::assert_all_match_with(&source, input_seed, size, Threads::GpuEmulated(shape));
    }
}

#[test]
fn every_runtime_function_a_host_program_calls_is_provided() {
    // `fuse-opt --run --gpu` JIT-compiles the host program with the runtime functions of
    // fusion_codegen::cuda; a function the host program declares but the runtime lacks
    // would fail only on a GPU machine. Every kind of kernel is among these programs.
    let provided: Vec<&str> = fusion_codegen::cuda::runtime_symbols().iter().map(|(n, _)| *n).collect();
    let root = crate::repo_root();
    let mut declared = std::collections::BTreeSet::new();
    for (path, strategy) in [
        (expand_permute_examples(), ExpandStrategy::Balanced),
        (expand_permute_examples(), ExpandStrategy::PerBlock(16)),
        (root.join("lit/gpu/kernels.mlir"), ExpandStrategy::Auto),
        (root.join("examples/seed004_bfs.mlir"), ExpandStrategy::Auto),
    ] {
        let program = compile_gpu_file(&path, Variant::Fused, &nvptx("sm_90"), strategy).unwrap();
        for line in program.host_llvm_ir.lines().filter(|l| l.starts_with("declare ")) {
            let name = line.split('@').nth(1).and_then(|rest| rest.split('(').next()).unwrap_or_default();
            if name.starts_with("mgpu") {
                assert!(provided.contains(&name), "{name} is called by {} but not provided", path.display());
                declared.insert(name.to_string());
            }
        }
    }
    assert!(declared.len() >= 9, "{declared:?}");
}

#[test]
fn host_programs_jit_compile_and_link_with_the_gpu_runtime() {
    // What `--gpu` runs, up to the first driver call: the kernels as PTX for sm_90 in the
    // host program, JIT-compiled with the runtime functions registered. Looking a function
    // up materialises it, so an unresolved symbol would fail here, without a GPU (the
    // module's constructors, which load the kernels, run at the first call; its
    // destructors, run when it is dropped, find no module to unload).
    for strategy in [ExpandStrategy::Auto, ExpandStrategy::Balanced] {
        let compiled = fusion_codegen::jit::compile_file_for_gpu(
            &expand_permute_examples(),
            Variant::Fused,
            None,
            "sm_90",
            strategy,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", strategy.name()));
        for name in ["smallSegments", "largeSegments", "oneHugeSegment"] {
            assert!(compiled.has_function(name), "@{name} ({})", strategy.name());
        }
        assert!(!compiled.has_function("noSuchFunction"));
    }
}

#[test]
fn expand_strategies_run_on_a_gpu_where_there_is_one() {
    use fusion_codegen::{LaunchShape, Threads};
    let driver = match fusion_codegen::cuda::driver() {
        Ok(driver) => driver,
        Err(why) => {
            eprintln!("skipped (needs a GPU): {why}");
            return;
        }
    };
    eprintln!("running on {} ({})", driver.name, driver.chip);
    let source = std::fs::read_to_string(expand_permute_examples()).unwrap();
    let mut strategies = ExpandStrategy::ALL.to_vec();
    strategies.push(ExpandStrategy::Auto);
    for (k, strategy) in strategies.into_iter().enumerate() {
        let shape = LaunchShape { expand: strategy, ..LaunchShape::default() };
        let compared =
            crate::compiled_differential::assert_all_match_with(&source, k as u64, 1000 + k, Threads::Gpu(shape));
        assert_eq!(compared, 7, "{}", strategy.name());
    }
}

#[test]
fn bfs_distance_relaxation_gives_the_interpreters_results_under_every_strategy() {
    // seed 004 §1.4's shortest-path update on the shipped CSR graph: an expand over the
    // frontier fused with a scatter of atomic minima, under every division.
    use fusion_codegen::check::check_file_with_threads;
    use fusion_codegen::inputs::{read_args, shipped_inputs};
    use fusion_codegen::{LaunchShape, Threads};
    let path = crate::repo_root().join("examples/seed004_bfs.mlir");
    let files = shipped_inputs(&path, "relaxDistances").expect("shipped inputs");
    let mut strategies = ExpandStrategy::ALL.to_vec();
    strategies.push(ExpandStrategy::Auto);
    for strategy in strategies {
        let shape = LaunchShape { block_size: 64, max_blocks: 2, expand: strategy };
        let mut outcomes = Vec::new();
        check_file_with_threads(
            &path,
            Some("relaxDistances"),
            Threads::GpuEmulated(shape),
            |f| read_args(&files, &f.inputs),
            |_, _, outcome| outcomes.push(outcome.to_string()),
        )
        .unwrap();
        assert_eq!(outcomes.len(), 1);
        assert!(outcomes[0].starts_with("match (interpreter, unfused, fused)"), "{}: {}", strategy.name(), outcomes[0]);
    }
    let program = compile_gpu_file(&path, Variant::Fused, &nvptx("sm_80"), ExpandStrategy::PerWarp).unwrap();
    assert_eq!(divisions(&program.remarks).len(), 1, "{:#?}", program.remarks);
    assert!(program.kernels.iter().any(|k| k.assembly.contains("atom.global.min.s64")));
}

#[test]
fn the_sieve_is_one_divided_nest_with_the_interpreters_results_under_every_strategy() {
    // seed 004 §5's Sieve of Eratosthenes: the expand of the multiples, two maps and the
    // `permute'` (a scatter whose keep flags drop the Nothing targets, overwriting with
    // the constant 0: atomic exchanges) are one cluster, divided among threads by every
    // strategy; @primes runs the whole sieve (n = 30, the
    // shipped input, and n = 2000: segments from 1 to about 1000 multiples), @sieveStep
    // one step on the shipped state.
    use fusion_codegen::check::check_file_with_threads;
    use fusion_codegen::inputs::{read_args, shipped_inputs};
    use fusion_codegen::{LaunchShape, Threads};
    use fusion_interpreter::Value;
    let path = crate::repo_root().join("examples/seed004_sieve.mlir");
    let mut strategies = ExpandStrategy::ALL.to_vec();
    strategies.push(ExpandStrategy::Auto);
    for strategy in strategies {
        let shape = LaunchShape { block_size: 64, max_blocks: 2, expand: strategy };
        for (function, n) in [("sieveStep", None), ("primes", None), ("primes", Some(2000))] {
            let mut outcomes = Vec::new();
            check_file_with_threads(
                &path,
                Some(function),
                Threads::GpuEmulated(shape),
                |f| match n {
                    Some(n) => Ok(vec![Value::i64(n)]),
                    None => read_args(&shipped_inputs(&path, function).expect("shipped inputs"), &f.inputs),
                },
                |_, _, outcome| outcomes.push(outcome.to_string()),
            )
            .unwrap();
            assert_eq!(outcomes.len(), 1);
            assert!(
                outcomes[0].starts_with("match (interpreter, unfused, fused)"),
                "{} @{function} n={n:?}: {}",
                strategy.name(),
                outcomes[0]
            );
        }
    }
    for strategy in ExpandStrategy::ALL {
        for chip in ["sm_80", "sm_90"] {
            let program = compile_gpu_file(&path, Variant::Fused, &nvptx(chip), strategy).unwrap();
            let divided = divisions(&program.remarks);
            assert_eq!(divided.len(), 1, "{:#?}", program.remarks);
            assert!(divided[0].contains(&format!("runs as {} kernels", strategy.name())), "{divided:#?}");
            for kernel in &program.kernels {
                assemble_ptx(&kernel.assembly, chip)
                    .unwrap_or_else(|e| panic!("{} {chip} kernel {}: {e}", strategy.name(), kernel.module));
            }
            assert!(program.kernels.iter().any(|k| k.assembly.contains("atom.global.exch.b64")), "{}", strategy.name());
        }
    }
}
