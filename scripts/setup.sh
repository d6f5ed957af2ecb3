#!/usr/bin/env bash
# Installs, idempotently, everything this repository needs on a Debian 12 machine:
#   * Debian's LLVM/MLIR 22 packages (skipped when LLVM_PREFIX already holds them);
#   * the SCIP 10.0.2 runtime taken from the pyscipopt==6.3.0 wheel, into .deps/scip
#     (skipped when SCIP_LIB_DIR names another SCIP 10 library folder);
#   * libMLIR-C.so, the MLIR C API as one shared library (Debian ships only static
#     archives of it), into .deps/mlir-c, so that every binary links MLIR dynamically;
#   * NVIDIA's ptxas and libdevice from the nvidia-cuda-nvcc-cu12==12.9.86 wheel, into
#     .deps/cuda (skipped when FUSION_CUDA_DIR names another CUDA directory).
# Overrides: LLVM_PREFIX (default /usr/lib/llvm-22), SCIP_LIB_DIR, FUSION_CUDA_DIR.
# What each step installs and why: README, "The two commands".
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LLVM_PREFIX="${LLVM_PREFIX:-/usr/lib/llvm-22}"
DEPS="$ROOT/.deps"
log() { printf '[setup] %s\n' "$*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else log "need root (or sudo) to run: $*"; exit 1; fi
}

# --- 0. Basic build tools (a C++ compiler for the dialect, pip to fetch the SCIP wheel) ---
NEED=()
command -v g++ >/dev/null 2>&1 || NEED+=(g++)
python3 -m pip --version >/dev/null 2>&1 || NEED+=(python3-pip)
if [ "${#NEED[@]}" -gt 0 ]; then
  log "installing Debian packages: ${NEED[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${NEED[@]}"
fi

# --- 1. LLVM / MLIR 22 ------------------------------------------------------------
APT_PACKAGES=(llvm-22-dev llvm-22-tools libmlir-22-dev mlir-22-tools libclang-22-dev
              libpolly-22-dev libomp-22-dev libzstd-dev libz3-dev libxml2-dev zlib1g-dev unzip)
llvm_complete() {
  [ -x "$LLVM_PREFIX/bin/mlir-tblgen" ] && [ -x "$LLVM_PREFIX/bin/FileCheck" ] &&
  [ -x "$LLVM_PREFIX/bin/lit" ] && [ -x "$LLVM_PREFIX/bin/llvm-mc" ] && [ -f "$LLVM_PREFIX/lib/libMLIR.so" ] &&
  [ -f "$LLVM_PREFIX/lib/libMLIRCAPIIR.a" ] && [ -f "$LLVM_PREFIX/include/mlir/IR/Operation.h" ] &&
  { [ -f "$LLVM_PREFIX/lib/libclang.so" ] || [ -f "$LLVM_PREFIX/lib/libclang.so.1" ]; }
}
missing_debs() {
  local p
  for p in "${APT_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}
if [ "$LLVM_PREFIX" = /usr/lib/llvm-22 ]; then
  mapfile -t MISSING < <(missing_debs)
  if [ "${#MISSING[@]}" -gt 0 ]; then
    log "installing Debian packages: ${MISSING[*]}"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${MISSING[@]}"
  fi
fi
llvm_complete || { log "LLVM/MLIR 22 not complete under LLVM_PREFIX=$LLVM_PREFIX"; exit 1; }

# --- 2. libMLIR-C.so -----------------------------------------------------------------
MLIRC_DIR="$DEPS/mlir-c"
if [ ! -f "$MLIRC_DIR/libMLIR-C.so" ] || [ "$MLIRC_DIR/libMLIR-C.so" -ot "$LLVM_PREFIX/lib/libMLIR.so" ]; then
  log "building $MLIRC_DIR/libMLIR-C.so from the static C API archives"
  mkdir -p "$MLIRC_DIR"
  g++ -shared -o "$MLIRC_DIR/libMLIR-C.so.tmp" -Wl,--whole-archive "$LLVM_PREFIX"/lib/libMLIRCAPI*.a \
      -Wl,--no-whole-archive -L"$LLVM_PREFIX/lib" -lMLIR -lLLVM -Wl,-rpath,"$LLVM_PREFIX/lib"
  mv "$MLIRC_DIR/libMLIR-C.so.tmp" "$MLIRC_DIR/libMLIR-C.so"
fi

# --- 3. SCIP 10.0.2 runtime --------------------------------------------------------
if [ -n "${SCIP_LIB_DIR:-}" ]; then
  [ -e "$SCIP_LIB_DIR/libscip.so" ] || { log "SCIP_LIB_DIR=$SCIP_LIB_DIR has no libscip.so"; exit 1; }
else
  SCIP_DIR="$DEPS/scip/lib"
  if [ ! -e "$SCIP_DIR/libscip.so" ]; then
    log "fetching the SCIP 10.0.2 runtime from the pyscipopt==6.3.0 wheel"
    command -v unzip >/dev/null || as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q unzip
    WHEELS="$DEPS/wheels"; mkdir -p "$WHEELS" "$SCIP_DIR"
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
      --implementation cp --platform manylinux_2_28_x86_64 -d "$WHEELS" pyscipopt==6.3.0
    TMP="$(mktemp -d)"; unzip -q -o "$WHEELS"/pyscipopt-6.3.0-*.whl 'pyscipopt.libs/*' -d "$TMP"
    cp -a "$TMP"/pyscipopt.libs/. "$SCIP_DIR/"; rm -rf "$TMP"
    LIB="$(cd "$SCIP_DIR" && ls libscip-*.so.10.0 | head -n1)"
    [ -n "$LIB" ] || { log "no libscip-*.so.10.0 in the wheel"; exit 1; }
    ln -sf "$LIB" "$SCIP_DIR/libscip.so"
  fi
fi
# --- 4. NVIDIA's PTX assembler and libdevice (the GPU path; no GPU or driver needed) ------
# From the nvidia-cuda-nvcc-cu12==12.9.86 wheel, into .deps/cuda: bin/ptxas (assembles the
# generated PTX in the tests) and nvvm/libdevice/libdevice.10.bc (math functions linked
# into kernels). FUSION_CUDA_DIR names another CUDA directory instead.
if [ -z "${FUSION_CUDA_DIR:-}" ]; then
  CUDA_DIR="$DEPS/cuda"
  if [ ! -x "$CUDA_DIR/bin/ptxas" ] || [ ! -f "$CUDA_DIR/nvvm/libdevice/libdevice.10.bc" ]; then
    log "fetching ptxas and libdevice from the nvidia-cuda-nvcc-cu12==12.9.86 wheel"
    WHEELS="$DEPS/wheels"; mkdir -p "$WHEELS"
    python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.11 \
      --implementation cp --platform manylinux2014_x86_64 -d "$WHEELS" nvidia-cuda-nvcc-cu12==12.9.86
    TMP="$(mktemp -d)"
    unzip -q -o "$WHEELS"/nvidia_cuda_nvcc_cu12-12.9.86-*.whl 'nvidia/cuda_nvcc/bin/ptxas' \
      'nvidia/cuda_nvcc/nvvm/libdevice/*' -d "$TMP"
    mkdir -p "$CUDA_DIR"; cp -a "$TMP"/nvidia/cuda_nvcc/. "$CUDA_DIR/"; rm -rf "$TMP"
    chmod +x "$CUDA_DIR/bin/ptxas"   # zip archives do not keep the run bit
  fi
fi
# --- 5. AMD's device libraries (the AMDGPU path; no GPU or driver needed) ---------------
# Debian's rocm-device-libs (ocml, ockl and the oclc control libraries as LLVM bitcode),
# unpacked (not installed) into .deps/rocm/amdgcn/bitcode, where the ROCDL serializer
# looks for them (gpu-module-to-binary's toolkit path). FUSION_ROCM_DIR names another
# ROCm directory instead.
if [ -z "${FUSION_ROCM_DIR:-}" ]; then
  ROCM_DIR="$DEPS/rocm"
  if [ ! -f "$ROCM_DIR/amdgcn/bitcode/ockl.bc" ]; then
    log "fetching AMD's device libraries from Debian's rocm-device-libs package"
    TMP="$(mktemp -d)"; chmod 755 "$TMP"
    if ! (cd "$TMP" && apt-get download rocm-device-libs >/dev/null 2>&1); then
      as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
      (cd "$TMP" && apt-get download rocm-device-libs)
    fi
    dpkg -x "$TMP"/rocm-device-libs_*.deb "$TMP/x"
    mkdir -p "$ROCM_DIR/amdgcn"
    cp -a "$TMP"/x/usr/lib/*/amdgcn/bitcode "$ROCM_DIR/amdgcn/"
    rm -rf "$TMP"
  fi
fi
log "toolchain ready (LLVM_PREFIX=$LLVM_PREFIX)"
