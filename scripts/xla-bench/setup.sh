#!/usr/bin/env bash
# Installs, idempotently, the Python packages of the XLA/NumPy comparison
# (scripts/xla-bench/run.py) into a virtual environment of their own, .venv-bench at the
# repository root (git-ignored). Not part of scripts/setup.sh: nothing else needs them.
#
# Pinned (what pip resolved for `jax[cpu] numpy` on CPython 3.11, x86_64, 2026-11):
#   jax[cpu] 0.10.2 with jaxlib 0.10.2 (XLA's CPU backend), numpy 2.4.6, and scipy 1.17.1
#   (a dependency of jax; the NumPy version of Black–Scholes takes its `erf` from it).
# Overrides: PYTHON (the interpreter the environment is made from, default python3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
VENV="$ROOT/.venv-bench"
PYTHON="${PYTHON:-python3}"
PINS=("jax[cpu]==0.10.2" "jaxlib==0.10.2" "numpy==2.4.6" "scipy==1.17.1")
STAMP="$VENV/.xla-bench-pins"
log() { printf '[xla-bench setup] %s\n' "$*" >&2; }

# Already installed with these pins (and importable): nothing to do.
if [ -x "$VENV/bin/python" ] && [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "${PINS[*]}" ] &&
   "$VENV/bin/python" -c 'import jax, jaxlib, numpy, scipy.special' >/dev/null 2>&1; then
  log "$VENV is up to date (${PINS[*]})"
  exit 0
fi

if ! "$PYTHON" -m venv --help >/dev/null 2>&1; then
  log "$PYTHON has no venv module (on Debian: apt-get install python3-venv)"
  exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
  log "creating $VENV with $("$PYTHON" --version 2>&1)"
  "$PYTHON" -m venv "$VENV"
fi
log "installing ${PINS[*]}"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"
"$VENV/bin/python" -c 'import jax, numpy, scipy; print("[xla-bench setup] jax", jax.__version__, "numpy", numpy.__version__, "scipy", scipy.__version__)' >&2
printf '%s' "${PINS[*]}" > "$STAMP"
