#!/usr/bin/env python3
"""Writes the input files shipped with the examples (Python's standard library only).

`fuse-opt FILE --run [--check]` takes the arguments of a function @f of
examples/NAME.mlir from examples/inputs/NAME/f.<i>.npy (argument i; a scalar is a
0-d array) when these files exist and neither --seed nor --size is given, and
generates them from --seed/--size otherwise.
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
        elif kind == "i64 matrix":
            npy(path, [x for row in value for x in row], [len(value), len(value[0])])
        elif kind == "f64 array":
            flat, shape = value
            npy(path, flat, shape, "<f8")
        elif kind == "f64 tensor3":
            npy(path, [x for plane in value for row in plane for x in row], [len(value), len(value[0]), len(value[0][0])], "<f8")
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
# relaxDistances from the frontier [1, 2] at distance 1 (1000 is "not reached"): nodes
# 3 and 4 (neighbours of 1) and 5 (of 2) get distance 2; 0 keeps 0.
DISTANCES = [0, 1, 1, 1000, 1000, 1000, 1000, 1000]
inputs("seed004_bfs", "relaxDistances", ("vector", DISTANCES), ("vector", [1, 2]), ("vector", OFFSETS), ("vector", EDGES))

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

# seed003_game_of_life: a glider (rows 1-3, columns 1-3) and a lone live border cell on a
# 6 x 7 grid: the glider's next phase one row down, the border cell kept (the border is fixed).
inputs("seed003_game_of_life", "lifeStep", ("i64 matrix", [[0, 0, 0, 0, 0, 0, 1], [0, 0, 1, 0, 0, 0, 0], [0, 0, 0, 1, 0, 0, 0], [0, 1, 1, 1, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0]]))

# seed003_stencil27: a 3 x 3 x 4 grid whose two inside points average to exact values:
# [1, 1, 1] = (27 + 54 + 27) / 27 = 4, [1, 1, 2] = (27 + 54 + 81) / 27 = 6; the border stays.
inputs("seed003_stencil27", "stencil27Step", ("f64 tensor3", [[[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0], [27.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 0.0], [0.0, 27.0, 54.0, 0.0], [0.0, 0.0, 0.0, 0.0]], [[0.0, 0.0, 0.0, 81.0], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]]))

# seed003_sor: the sub-grids (r0, r1, b0, b1) of a 4 x 6 grid with a top edge of 25 and one hot
# inside point G[2][3] = b0[1][1] = 25: every sum of the sweep is a multiple of 5 (exact), delta = 24.
inputs("seed003_sor", "sorSweep", ("f64 matrix", [[25.0, 25.0, 25.0], [0.0, 0.0, 0.0]]), ("f64 matrix", [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]), ("f64 matrix", [[25.0, 25.0, 25.0], [0.0, 25.0, 0.0]]), ("f64 matrix", [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]]))

# seed003_monte_carlo_pi: 1000 points, key 42 (Benchpress's default seed); a separate
# Python SplitMix64 gives 794 inside, so pi ~ 4 * 794 / 1000 = 3.176.
inputs("seed003_monte_carlo_pi", "monteCarloPi", ("index", 1000), ("scalar", 42))

# seed003_rosenbrock: x = [0, 1, 2, 3], easy by hand: (100 + 1) + (100 + 0) + (100 + 1) = 302.
inputs("seed003_rosenbrock", "rosenbrock", ("f64 vector", [0.0, 1.0, 2.0, 3.0]))

# seed003_shallow_water: a 5 x 6 pool of still water, height 1 with a bump of 1.5 at row 2,
# column 3, U = V = 0; one step (checked against a Python transcription of Benchpress's
# loop_body): the bump falls to 1.495096675, its four neighbours rise to 1.00122583125.
H = [[1.5 if (i, j) == (2, 3) else 1.0 for j in range(6)] for i in range(5)]
Z = [[0.0] * 6 for _ in range(5)]
inputs("seed003_shallow_water", "shallowWaterStep", ("f64 matrix", H), ("f64 matrix", Z), ("f64 matrix", Z))

# seed003_gauss_elimination, seed003_lu_factorization: step k = 1 of a 4 x 4 matrix with
# whole multipliers (pivot 2: 4/2 = 2, 6/2 = 3) and a nonzero column 0 the step must leave.
GAUSS_LU = [[1.0, 2.0, 3.0, 4.0], [5.0, 2.0, 1.0, 3.0], [6.0, 4.0, 5.0, 7.0], [7.0, 6.0, 2.0, 1.0]]
inputs("seed003_gauss_elimination", "gaussStep", ("f64 matrix", GAUSS_LU), ("scalar", 1))
inputs("seed003_lu_factorization", "luStep", ("f64 matrix", GAUSS_LU), ("scalar", 1))

# seed003_nbody_nice: a 3-4-5 triangle (planets A (0,0,0) m 27, B (0,0,4) m 125; asteroids
# at (3,0,0), (0,3,0)), dt = 2, so every acceleration and the new state are exact by hand.
inputs(
    "seed003_nbody_nice",
    "nbodyNiceStep",
    ("f64 vector", [0.0, 0.0]), ("f64 vector", [0.0, 0.0]), ("f64 vector", [0.0, 4.0]),
    ("f64 vector", [1.0, 0.0]), ("f64 vector", [0.0, -1.0]), ("f64 vector", [0.0, 0.0]),
    ("f64 vector", [27.0, 125.0]),
    ("f64 vector", [3.0, 0.0]), ("f64 vector", [0.0, 3.0]), ("f64 vector", [0.0, 0.0]),
    ("f64 vector", [0.0, 0.0]), ("f64 vector", [0.0, 0.0]), ("f64 vector", [1.0, -1.0]),
    ("f64", 2.0),
)

# seed003_lattice_boltzmann: a 3 x 2 grid of D2Q9 populations at rest with density 36
# (f_q = 36 w_q: 16, 4 on the axes, 1 on the diagonals) plus 4 in population 5, c = (1, 1),
# of cell (0, 0), omega = 1: that cell's density 40 and velocity (0.1, 0.1) by hand.
LBM_REST = [16.0] + [4.0] * 4 + [1.0] * 4
LBM_F = [LBM_REST[q] + (4.0 if (x, y, q) == (0, 0, 5) else 0.0) for x in range(3) for y in range(2) for q in range(9)]
inputs("seed003_lattice_boltzmann", "lbmStep", ("f64 array", (LBM_F, [3, 2, 9])), ("f64", 1.0))

# seed000_lulesh: a gas at rest, 5 nodes 3 apart, 4 elements of mass 3 and energy 6
# (ghost entries 0), dt = 0.2, gamma = 3: a fixed point with dt_courant = 3 / 6 = 0.5.
inputs(
    "seed000_lulesh",
    "hydroStep",
    ("f64 vector", [0.0, 3.0, 6.0, 9.0, 12.0]),
    ("f64 vector", [0.0] * 5),
    ("f64 vector", [6.0] * 4 + [0.0]),
    ("f64 vector", [3.0] * 4 + [0.0]),
    ("f64", 0.2),
    ("f64", 3.0),
)

# seed003_water_ice: one top step (i = 10: every layer, winter, I_export = 14.22) of a 2 x 3
# grid: start temperatures [-4, 0.1, 5, 2] (0.1 as 0) plus a + b, square salinities (cell
# (1, 1) fresher at the top), ice volumes on both sides of V <= 0.5; integer T and square S
# make every power exact.
WISP_T = [[-4.0, 0.0, 5.0, 2.0][k] + a + b for a in range(2) for b in range(3) for k in range(4)]
WISP_S = [
    ([25.0, 36.0, 36.0, 36.0] if (a, b) == (1, 1) else [36.0, 36.0, 25.0, 36.0])[k]
    for a in range(2)
    for b in range(3)
    for k in range(4)
]
inputs(
    "seed003_water_ice",
    "wispStep",
    ("f64 array", (WISP_T, [2, 3, 4])),
    ("f64 array", (WISP_S, [2, 3, 4])),
    ("f64 matrix", [[2.0, 0.25, 1.0], [0.5, 4.0, 0.0625]]),
    ("scalar", 10),
)
