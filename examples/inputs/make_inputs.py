#!/usr/bin/env python3
"""Writes the input files shipped with the examples (Python's standard library only).

`fuse-opt FILE --run [--check]` takes the arguments of a function @f of
examples/NAME.mlir from examples/inputs/NAME/f.<i>.npy (argument i; a scalar is a
0-d array) when these files exist, and generates them from --seed/--size otherwise.
The functions below need inputs with a structure that random values lack; each entry
says why. Run from anywhere: `python3 examples/inputs/make_inputs.py`.
"""

import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def npy(path, values, shape, dtype="<i8"):
    """Writes an .npy file (format 1.0, C order)."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (
        dtype,
        "(%d,)" % shape[0] if len(shape) == 1 else "(%s)" % ", ".join(map(str, shape)),
    )
    total = (10 + len(header) + 1 + 63) // 64 * 64
    header = header + " " * (total - 10 - len(header) - 1) + "\n"
    code = {"<i8": "q", "<f8": "d"}[dtype]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), code), *values))


def vector(path, values):
    npy(path, values, [len(values)])


def scalar(path, value):
    npy(path, [value], [])


def inputs(example, function, *args):
    directory = os.path.join(HERE, example)
    os.makedirs(directory, exist_ok=True)
    for i, (kind, value) in enumerate(args):
        path = os.path.join(directory, "%s.%d.npy" % (function, i))
        if kind == "vector":
            vector(path, value)
        elif kind == "f64 vector":
            npy(path, value, [len(value)], "<f8")
        elif kind == "f64":
            npy(path, [value], [], "<f8")
        elif kind == "f64 matrix":
            npy(path, [x for row in value for x in row], [len(value), len(value[0])], "<f8")
        else:
            scalar(path, value)


# seed000_scatter_example: the scatter is defined only when 0 <= 2*x < size(xs).
inputs("seed000_scatter_example", "scatterExample", ("vector", [0, 3, 1, 2, 3, 0, 1, 2]))

# seed001_ill_sized: bad1/bad2 are meaningful only when the map2 inputs happen to have
# one length: every x > 0 (bad1), as many x > 0 as even x (bad2).
inputs("seed001_ill_sized", "bad1", ("vector", [3, 1, 4, 1, 5, 9, 2, 6]))
inputs("seed001_ill_sized", "bad2", ("vector", [2, 4, -1, -3, 6, -5, 8, -7]))

# seed004_bfs: a CSR graph of 8 nodes (undirected, both directions stored):
# 0-1, 0-2, 1-3, 1-4, 2-5, 3-6, 4-6, 5-7. offsets has totalNodes+1 entries.
OFFSETS = [0, 2, 5, 7, 9, 11, 13, 15, 16]
EDGES = [1, 2, 0, 3, 4, 0, 5, 1, 6, 1, 6, 2, 7, 3, 4, 5]
# The parents after the first step of a BFS from node 0 (-1 is Nothing).
PARENTS = [0, 0, 0, -1, -1, -1, -1, -1]
for step in ["bfsStep", "bfsStepScatter"]:
    inputs("seed004_bfs", step, ("vector", PARENTS), ("vector", OFFSETS), ("vector", EDGES))
inputs("seed004_bfs", "bfs", ("scalar", 0), ("index", 8), ("vector", OFFSETS), ("vector", EDGES))

# seed004_sieve: primes up to n = 30 (n must be >= 0: limit = truncate (sqrt (n+1)));
# sieveStep on the loop state of primes 30 after its first step: old = [2, 3], c = 4.
inputs("seed004_sieve", "primes", ("scalar", 30))
inputs("seed004_sieve", "sieveStep", ("vector", [2, 3]), ("scalar", 4), ("scalar", 30), ("scalar", 5))

# seed003_black_scholes: prices are meaningful for positive stock prices, strike,
# maturity and volatility (random values give logarithms of negative numbers: NaN).
# 16 stock prices from 20 to 95, strike 50, one year, 5 % interest, 20 % volatility.
inputs(
    "seed003_black_scholes",
    "blackScholes",
    ("f64 vector", [20.0 + 5.0 * i for i in range(16)]),
    ("f64", 50.0),
    ("f64", 1.0),
    ("f64", 0.05),
    ("f64", 0.2),
)

# seed003_heat_equation: a 3 x 3 grid, hot in the middle, whose one step is easy to
# check by hand: the middle becomes 0.2 * 9 = 1.8, the border stays, delta = 7.2.
inputs("seed003_heat_equation", "heatStep", ("f64 matrix", [[0.0, 0.0, 0.0], [0.0, 9.0, 0.0], [0.0, 0.0, 0.0]]))
