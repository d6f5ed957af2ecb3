# The two commands of the README:
#   make demo   set up (idempotent), build, and run the pipeline on every bundled example
#   make test   set up (idempotent), build, and run every test: Rust unit, integration and
#               doc tests, the lit suite, and the warning-free API documentation
# Also: make xla-bench   our fused programs against JAX/XLA and NumPy, one core each, on
#               kernel-bench's inputs (its Python packages go into .venv-bench, installed by
#               scripts/xla-bench/setup.sh, not by `make setup`; see scripts/xla-bench/run.py)
# Overrides: LLVM_PREFIX (an LLVM/MLIR 22 install), SCIP_LIB_DIR (a SCIP 10 library folder).

SHELL := /bin/bash
# A failing command before a `| tee` fails its recipe.
.SHELLFLAGS := -o pipefail -c
LLVM_PREFIX ?= /usr/lib/llvm-22
export LLVM_PREFIX
export MLIR_SYS_220_PREFIX ?= $(LLVM_PREFIX)
export TABLEGEN_220_PREFIX ?= $(LLVM_PREFIX)
export LIBCLANG_PATH ?= $(LLVM_PREFIX)/lib
CARGO ?= cargo

.PHONY: setup build demo test unit lit doc plugin-path memcheck fuzz fuzz-smoke bench xla-bench clean

setup:
	./scripts/setup.sh

build: setup
	$(CARGO) build --workspace --all-targets

demo: build
	./target/debug/fusion-demo examples

unit: build
	$(CARGO) test --workspace --no-fail-fast

lit: build
	$(LLVM_PREFIX)/bin/lit -sv lit

# The API documentation must build without warnings (broken or private links).
doc: setup
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

test: unit lit doc

# Builds libarray_fusion.so (the mlir-opt plugin and C API library) and prints its path
# (use `make -s plugin-path`; build output goes to stderr).
plugin-path:
	@./scripts/setup.sh >&2
	@$(CARGO) build -p array-fusion --lib >&2
	@echo "$(CURDIR)/target/debug/libarray_fusion.so"

# Valgrind over `fuse-opt --run --check` of every example (slow; not part of `make test`).
memcheck: build
	./scripts/memcheck.sh

# Coverage-guided fuzzing, FUZZ_SECONDS per target (nightly toolchain and cargo-fuzz,
# installed by the script when missing; not part of `make test`).
FUZZ_SECONDS ?= 600
fuzz: setup
	./scripts/fuzz.sh $(FUZZ_SECONDS)

# A short, reproducible run of each fuzz target (fixed libFuzzer seed), for CI.
fuzz-smoke: setup
	FUZZ_SEED=1 ./scripts/fuzz.sh 20

# The strategies side by side on every example (table, CSV, speed-up plot), their objectives
# under every cost model on the larger examples (table), and the ILP's
# solve time against program size (plot), release build; not part of `make test`. The
# table and CSV go to target/bench/, the plots to docs/plots/ and the objectives table to
# docs/objectives.md (shown or linked by the README).
BENCH_ELEMENTS ?= 1000000
bench: setup
	$(CARGO) build --release -p fusion-bench
	mkdir -p target/bench docs/plots
	./target/release/strategy-bench examples --elements $(BENCH_ELEMENTS) --reps 5 \
	  --csv target/bench/strategies.csv --svg docs/plots/strategies.svg | tee target/bench/strategies.md
	./target/release/strategy-bench --objectives examples --min-combinators 15 | tee docs/objectives.md
	./target/release/fusion-bench --sizes 10,30,100,200 --seeds 3 --time-limit 30 --formulations combined \
	  --strategies ilp,greedy-top-down,bohrium-greedy --csv target/bench/solve-times.csv \
	  --svg docs/plots/solve-times.svg | tee target/bench/solve-times.txt

# Our fused programs against JAX (XLA's CPU backend) and NumPy, one core each, on the inputs
# kernel-bench generates (10^7 elements, three rounds of medians of 5), results checked against ours: a
# Markdown table of the times and ratios. The Python packages go into .venv-bench (pinned,
# idempotent; not installed by `make setup`). Not part of `make test`.
xla-bench: setup
	$(CARGO) build --release -p fusion-bench
	./scripts/xla-bench/setup.sh
	.venv-bench/bin/python scripts/xla-bench/run.py

clean:
	$(CARGO) clean
	rm -rf lit/Output
