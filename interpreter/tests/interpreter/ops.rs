//! Every `array` op on small inputs with hand-computed results.

use crate::{floats, ints, run, run_example, run_ok, scalar_of, shape};
use fusion_interpreter::{ElemType, Value};

/// Seed 004 §1.3: expand (\a -> 3) (\a i -> a*i) [1,2,3,4].
#[test]
fn expand_example_of_seed_004() {
    let out = run_example("seed004_expand_example.mlir", "expandExample", vec![]);
    assert_eq!(ints(&out[0]), vec![0, 1, 2, 0, 2, 4, 0, 3, 6, 0, 4, 8]);
    assert_eq!(shape(&out[0]), vec![12]);
}

/// Seed 001 normalize2 with `divsi` (truncating): xs = [3, -40, 2, 1, 7].
/// sum1 = -27, ys1 = xs / -27 = [0, 1, 0, 0, 0]; gts = [3, 2, 1, 7], sum2 = 13,
/// ys2 = xs / 13 = [0, -3, 0, 0, 0] (truncation, not floor: -40/13 = -3.08).
#[test]
fn normalize2_of_seed_001() {
    let out = run_example("seed001_normalize2.mlir", "normalize2", vec![Value::vector_i64(&[3, -40, 2, 1, 7])]);
    assert_eq!(ints(&out[0]), vec![0, 1, 0, 0, 0]);
    assert_eq!(ints(&out[1]), vec![0, -3, 0, 0, 0]);
}

/// Seed 002 normalise2 with `floordivsi` and a scan: xs = [3, -40, 2, 1, 7]; sum1 = -27,
/// ys1 = floor(xs / -27) = [-1, 1, -1, -1, -1]; scan = [3, -37, -35, -34, -27], sum2 = -130,
/// ys2 = floor(xs / -130) = [-1, 0, -1, -1, -1].
#[test]
fn normalise2_of_seed_002() {
    let out = run_example("seed002_normalise2.mlir", "normalise2", vec![Value::vector_i64(&[3, -40, 2, 1, 7])]);
    assert_eq!(ints(&out[0]), vec![-1, 1, -1, -1, -1]);
    assert_eq!(ints(&out[1]), vec![-1, 0, -1, -1, -1]);
}

const SCANS: &str = r#"
func.func @scans(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>) {
  %z = arith.constant 0 : i64
  %li = array.scan left inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %c10 = arith.constant 10 : i64
    %t = arith.muli %acc, %c10 : i64
    %s = arith.addi %t, %x : i64
    array.yield %s : i64
  }
  %le = array.scan left exclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %c10 = arith.constant 10 : i64
    %t = arith.muli %acc, %c10 : i64
    %s = arith.addi %t, %x : i64
    array.yield %s : i64
  }
  %ri = array.scan right inclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %c10 = arith.constant 10 : i64
    %t = arith.muli %acc, %c10 : i64
    %s = arith.addi %t, %x : i64
    array.yield %s : i64
  }
  %re = array.scan right exclusive %xs init(%z : i64) : tensor<?xi64> -> tensor<?xi64> {
  ^bb0(%acc: i64, %x: i64):
    %c10 = arith.constant 10 : i64
    %t = arith.muli %acc, %c10 : i64
    %s = arith.addi %t, %x : i64
    array.yield %s : i64
  }
  return %li, %le, %ri, %re : tensor<?xi64>, tensor<?xi64>, tensor<?xi64>, tensor<?xi64>
}

func.func @scan2d(%xs: tensor<?x?xi64>, %init: i64) -> (tensor<?x?xi64>, tensor<?x?xi64>) {
  %sum, %cnt = array.scan left inclusive %xs, %xs init(%init, %init : i64, i64) : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64>, tensor<?x?xi64> {
  ^bb0(%acc: i64, %n: i64, %x: i64, %x2: i64):
    %c1 = arith.constant 1 : i64
    %s = arith.addi %acc, %x : i64
    %m = arith.addi %n, %c1 : i64
    array.yield %s, %m : i64, i64
  }
  return %sum, %cnt : tensor<?x?xi64>, tensor<?x?xi64>
}
"#;

/// The four scans with a non-commutative body `acc*10 + x` (digits show the order).
#[test]
fn scans_in_all_four_forms() {
    let out = run_ok(SCANS, "scans", vec![Value::vector_i64(&[1, 2, 3, 4])]);
    assert_eq!(ints(&out[0]), vec![1, 12, 123, 1234], "left inclusive");
    assert_eq!(ints(&out[1]), vec![0, 1, 12, 123], "left exclusive");
    assert_eq!(ints(&out[2]), vec![4321, 432, 43, 4], "right inclusive");
    assert_eq!(ints(&out[3]), vec![432, 43, 4, 0], "right exclusive");
    let empty = run_ok(SCANS, "scans", vec![Value::vector_i64(&[])]);
    assert!(empty.iter().all(|v| shape(v) == vec![0]));
}

/// A 2-D scan with two accumulators runs per row of the innermost dimension.
#[test]
fn scan_of_a_matrix_runs_per_row() {
    let out = run_ok(SCANS, "scan2d", vec![Value::matrix_i64(2, 3, &[1, 2, 3, 10, 20, 30]), Value::i64(100)]);
    assert_eq!(shape(&out[0]), vec![2, 3]);
    assert_eq!(ints(&out[0]), vec![101, 103, 106, 110, 130, 160]);
    assert_eq!(ints(&out[1]), vec![101, 102, 103, 101, 102, 103]);
}

const FOLDS: &str = r#"
func.func @sumAndMax(%xs: tensor<?x?xi64>) -> (tensor<?xi64>, tensor<?xi64>) {
  %z = arith.constant 0 : i64
  %lo = arith.constant -1000 : i64
  %s, %m = array.fold %xs, %xs init(%z, %lo : i64, i64) : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?xi64>, tensor<?xi64> {
  ^bb0(%acc: i64, %mx: i64, %x: i64, %x2: i64):
    %s1 = arith.addi %acc, %x : i64
    %m1 = arith.maxsi %mx, %x2 : i64
    array.yield %s1, %m1 : i64, i64
  }
  return %s, %m : tensor<?xi64>, tensor<?xi64>
}

func.func @dot(%xs: tensor<?xf64>, %ys: tensor<?xf64>) -> (tensor<f64>, tensor<f64>) {
  %z = arith.constant 0.0 : f64
  %ps = array.map %xs, %ys : tensor<?xf64>, tensor<?xf64> -> tensor<?xf64> {
  ^bb0(%x: f64, %y: f64):
    %p = arith.mulf %x, %y : f64
    array.yield %p : f64
  }
  %d, %sy = array.fold %ps, %ys init(%z, %z : f64, f64) : tensor<?xf64>, tensor<?xf64> -> tensor<f64>, tensor<f64> {
  ^bb0(%acc: f64, %accy: f64, %p: f64, %y: f64):
    %s = arith.addf %acc, %p : f64
    %t = arith.addf %accy, %y : f64
    array.yield %s, %t : f64, f64
  }
  return %d, %sy : tensor<f64>, tensor<f64>
}

func.func @fold3d(%xs: tensor<2x2x2xi32>) -> tensor<2x2xi32> {
  %z = arith.constant 0 : i32
  %d = array.fold %xs init(%z : i32) : tensor<2x2x2xi32> -> tensor<2x2xi32> {
  ^bb0(%acc: i32, %x: i32):
    %c10 = arith.constant 10 : i32
    %t = arith.muli %acc, %c10 : i32
    %s = arith.addi %t, %x : i32
    array.yield %s : i32
  }
  return %d : tensor<2x2xi32>
}
"#;

#[test]
fn fold_of_a_matrix_reduces_rows_with_two_accumulators() {
    let out = run_ok(FOLDS, "sumAndMax", vec![Value::matrix_i64(2, 3, &[1, 5, 2, -3, -1, -7])]);
    assert_eq!(ints(&out[0]), vec![8, -11]);
    assert_eq!(ints(&out[1]), vec![5, -1]);
    // Rows of length 0 give the initial values.
    let out = run_ok(FOLDS, "sumAndMax", vec![Value::matrix_i64(2, 0, &[])]);
    assert_eq!(ints(&out[0]), vec![0, 0]);
    assert_eq!(ints(&out[1]), vec![-1000, -1000]);
}

#[test]
fn fold_of_two_vectors_and_of_rank_3() {
    let out = run_ok(FOLDS, "dot", vec![Value::vector_f64(&[1.0, 2.0, 3.0]), Value::vector_f64(&[4.0, 0.5, -1.0])]);
    assert_eq!(scalar_of(&out[0]), Value::f64(2.0));
    assert_eq!(scalar_of(&out[1]), Value::f64(3.5));
    let xs = Value::tensor(ElemType::Int(32), vec![2, 2, 2], (1..=8).map(Value::i32).collect());
    let out = run_ok(FOLDS, "fold3d", vec![xs]);
    assert_eq!(shape(&out[0]), vec![2, 2]);
    assert_eq!(ints(&out[0]), vec![12, 34, 56, 78]);
}

/// Seed 000 simple4: a 2-D fold then a gather of its rows.
#[test]
fn simple4_folds_rows_and_gathers() {
    let xs = Value::matrix_i64(3, 2, &[1, 2, 3, 4, 5, 6]);
    let out = run_example("seed000_simple.mlir", "simple4", vec![Value::vector_index(&[2, 0, 2, 1]), xs]);
    assert_eq!(ints(&out[0]), vec![11, 3, 11, 7]);
}

const GATHERS: &str = r#"
func.func @gather2d(%xs: tensor<?x?xf64>, %is: tensor<?xindex>, %js: tensor<?xi32>) -> tensor<?xf64> {
  %ys = array.gather %xs[%is, %js] : tensor<?x?xf64>[tensor<?xindex>, tensor<?xi32>] -> tensor<?xf64>
  return %ys : tensor<?xf64>
}

func.func @gatherI64(%xs: tensor<?xi64>, %is: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %ys = array.gather %xs[%is] : tensor<?xi64>[tensor<?x?xi64>] -> tensor<?x?xi64>
  return %ys : tensor<?x?xi64>
}
"#;

#[test]
fn gathers_with_one_index_array_per_source_dimension() {
    let xs = Value::tensor(ElemType::F64, vec![2, 3], (0..6).map(|i| Value::f64(i as f64)).collect());
    let out = run_ok(GATHERS, "gather2d", vec![xs, Value::vector_index(&[1, 0, 1]), Value::vector_i32(&[2, 0, 0])]);
    assert_eq!(floats(&out[0]), vec![5.0, 0.0, 3.0]);
    let is = Value::matrix_i64(2, 2, &[3, 0, 1, 3]);
    let out = run_ok(GATHERS, "gatherI64", vec![Value::vector_i64(&[10, 11, 12, 13]), is]);
    assert_eq!(shape(&out[0]), vec![2, 2]);
    assert_eq!(ints(&out[0]), vec![13, 10, 11, 13]);
}

/// Seed 000 greedyBottomUpBad: a rank-2 index array for a rank-1 source (a replicate),
/// two folds of it, and a map that reads `zs[0]`.
#[test]
fn greedy_bottom_up_bad_of_seed_000() {
    let out = run_example(
        "seed000_greedy.mlir",
        "greedyBottomUpBad",
        vec![Value::vector_f64(&[1.0, 2.0, 3.0]), Value::index(2)],
    );
    // large = [[1,1],[2,2],[3,3]]; ys = [2,4,6]; zs = [1,4,9]; result = ys + zs[0]
    assert_eq!(floats(&out[0]), vec![3.0, 5.0, 7.0]);
    let out = run_example("seed000_greedy.mlir", "greedyTopDownBad", vec![Value::vector_i64(&[1, 2, 3])]);
    // bs = [2,4,6], cs = [3,5,7], ds = [0+2, 1+2, 2+2], es = [5,8,11]
    assert_eq!(scalar_of(&out[0]), Value::i64(24));
}

/// Seed 000 scatterExample with indices 2x in range: xs = [0,1,2,0,1], bs = xs+1.
#[test]
fn scatter_example_of_seed_000() {
    let out = run_example("seed000_scatter_example.mlir", "scatterExample", vec![Value::vector_i64(&[0, 1, 2, 0, 1])]);
    assert_eq!(ints(&out[0]), vec![1, 2, 5, 1, 4]);
}

const SCATTERS: &str = r#"
func.func @digits(%dest: tensor<?xi64>, %is: tensor<?xindex>, %vs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.scatter %dest[%is], %vs : tensor<?xi64>[tensor<?xindex>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %c10 = arith.constant 10 : i64
    %t = arith.muli %old, %c10 : i64
    %s = arith.addi %t, %new : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}

func.func @digitsKept(%dest: tensor<?xi64>, %is: tensor<?xi64>, %ks: tensor<?xi1>, %vs: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.scatter %dest[%is] keep(%ks : tensor<?xi1>), %vs : tensor<?xi64>[tensor<?xi64>], tensor<?xi64> combine {
  ^bb0(%old: i64, %new: i64):
    %c10 = arith.constant 10 : i64
    %t = arith.muli %old, %c10 : i64
    %s = arith.addi %t, %new : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}

func.func @scatter2d(%dest: tensor<2x2xf32>, %is: tensor<?xindex>, %js: tensor<?xindex>, %vs: tensor<?xf32>) -> tensor<2x2xf32> {
  %r = array.scatter %dest[%is, %js], %vs : tensor<2x2xf32>[tensor<?xindex>, tensor<?xindex>], tensor<?xf32> combine {
  ^bb0(%old: f32, %new: f32):
    %s = arith.addf %old, %new : f32
    array.yield %s : f32
  }
  return %r : tensor<2x2xf32>
}
"#;

/// Keep flags (seed 004's `Nothing`): a dropped position is never combined, and its
/// index is not looked at (here -1 and 99, out of range); the kept ones combine in
/// source order.
#[test]
fn scatter_drops_positions_whose_keep_flag_is_false() {
    let out = run_ok(
        SCATTERS,
        "digitsKept",
        vec![
            Value::vector_i64(&[0, 0, 7]),
            Value::vector_i64(&[0, -1, 0, 99, 1, 0]),
            Value::vector_i1(&[true, false, true, false, true, false]),
            Value::vector_i64(&[1, 2, 3, 4, 5, 6]),
        ],
    );
    assert_eq!(ints(&out[0]), vec![13, 5, 7]);
}

/// A non-commutative combine shows the sequential, source-order semantics.
#[test]
fn scatter_combines_sequentially_in_source_order() {
    let out = run_ok(
        SCATTERS,
        "digits",
        vec![Value::vector_i64(&[0, 0, 7]), Value::vector_index(&[0, 0, 1, 0]), Value::vector_i64(&[1, 2, 3, 4])],
    );
    assert_eq!(ints(&out[0]), vec![124, 3, 7]);
    let dest = Value::tensor(ElemType::F32, vec![2, 2], vec![Value::f32(0.5); 4]);
    let out = run_ok(
        SCATTERS,
        "scatter2d",
        vec![
            dest,
            Value::vector_index(&[1, 0, 1]),
            Value::vector_index(&[0, 1, 0]),
            Value::vector_f32(&[1.0, 2.0, 3.0]),
        ],
    );
    assert_eq!(floats(&out[0]), vec![0.5, 2.5, 4.5, 0.5]);
}

#[test]
fn reverse_core_and_sugar_agree() {
    let xs = Value::vector_f32(&[1.0, 2.5, -3.0, 4.0]);
    let core = run_example("seed000_reverse.mlir", "reverse", vec![xs.clone()]);
    let sugar = run_example("seed000_reverse.mlir", "reverseSugar", vec![xs]);
    assert_eq!(floats(&core[0]), vec![4.0, -3.0, 2.5, 1.0]);
    assert_eq!(core, sugar);
}

const SUGAR: &str = r#"
func.func @reverse2d(%xs: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %r = array.reverse %xs : tensor<?x?xi64>
  return %r : tensor<?x?xi64>
}

func.func @replicate(%xs: tensor<?xi64>, %n: index) -> tensor<?x?xi64> {
  %r = array.replicate %xs, %n : tensor<?xi64> -> tensor<?x?xi64>
  return %r : tensor<?x?xi64>
}

func.func @shapes(%xs: tensor<?x?xi64>) -> (index, index, index, tensor<?x?xi64>, i64) {
  %m, %n = array.size %xs : tensor<?x?xi64>
  %d = array.dim %xs, 1 : tensor<?x?xi64>
  %f = array.force %xs : tensor<?x?xi64>
  %c1 = arith.constant 1 : index
  %c0 = arith.constant 0 : index
  %e = array.index %f[%c1, %c0] : tensor<?x?xi64>
  return %m, %n, %d, %f, %e : index, index, index, tensor<?x?xi64>, i64
}

func.func @transpose(%xs: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %m, %n = array.size %xs : tensor<?x?xi64>
  %t = array.backpermute %xs to (%n, %m) : tensor<?x?xi64> -> tensor<?x?xi64> {
  ^bb0(%i: index, %j: index):
    array.yield %j, %i : index, index
  }
  return %t : tensor<?x?xi64>
}

func.func @transposeOp(%xs: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %t = array.transpose %xs [1, 0] : tensor<?x?xi64> -> tensor<?x?xi64>
  return %t : tensor<?x?xi64>
}

func.func @rotateAxes(%xs: tensor<2x3x4xi64>) -> tensor<4x2x3xi64> {
  %t = array.transpose %xs [2, 0, 1] : tensor<2x3x4xi64> -> tensor<4x2x3xi64>
  return %t : tensor<4x2x3xi64>
}

func.func @sliceOp(%xs: tensor<?x?xi64>, %o: index, %n: index) -> tensor<?x?xi64> {
  %s = array.slice %xs from %o size %n : tensor<?x?xi64> -> tensor<?x?xi64>
  return %s : tensor<?x?xi64>
}

func.func @reshapeOp(%xs: tensor<?x?xi64>, %a: index, %b: index, %c: index) -> tensor<?x?x?xi64> {
  %r = array.reshape %xs to (%a, %b, %c) : tensor<?x?xi64> -> tensor<?x?x?xi64>
  return %r : tensor<?x?x?xi64>
}

func.func @concatOp(%a: tensor<?x?xi64>, %b: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %c = array.concat %a, %b : tensor<?x?xi64>, tensor<?x?xi64> -> tensor<?x?xi64>
  return %c : tensor<?x?xi64>
}

func.func @permuteKeep(%src: tensor<?xi64>, %dest: tensor<?xi64>) -> tensor<?xi64> {
  %r = array.permute %src into %dest : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%i: index):
    %x = array.index %src[%i] : tensor<?xi64>
    %c0 = arith.constant 0 : i64
    %keep = arith.cmpi sge, %x, %c0 : i64
    %c2 = arith.constant 2 : index
    %t = arith.remui %i, %c2 : index
    array.yield %t, %keep : index, i1
  } combine {
  ^bb0(%old: i64, %new: i64):
    %s = arith.addi %old, %new : i64
    array.yield %s : i64
  }
  return %r : tensor<?xi64>
}

func.func @permuteAll(%src: tensor<?xi64>, %dest: tensor<?xi64>) -> tensor<?xi64> {
  %n = array.dim %src, 0 : tensor<?xi64>
  %r = array.permute %src into %dest : tensor<?xi64> into tensor<?xi64> index {
  ^bb0(%i: index):
    %c1 = arith.constant 1 : index
    %ni = arith.subi %n, %i : index
    %t = arith.subi %ni, %c1 : index
    array.yield %t : index
  } combine {
  ^bb0(%old: i64, %new: i64):
    array.yield %new : i64
  }
  return %r : tensor<?xi64>
}
"#;

#[test]
fn reverse_of_a_matrix_reverses_rows() {
    let out = run_ok(SUGAR, "reverse2d", vec![Value::matrix_i64(2, 3, &[1, 2, 3, 4, 5, 6])]);
    assert_eq!(ints(&out[0]), vec![3, 2, 1, 6, 5, 4]);
}

#[test]
fn replicate_adds_an_innermost_dimension() {
    let out = run_ok(SUGAR, "replicate", vec![Value::vector_i64(&[7, 8]), Value::index(3)]);
    assert_eq!(shape(&out[0]), vec![2, 3]);
    assert_eq!(ints(&out[0]), vec![7, 7, 7, 8, 8, 8]);
}

#[test]
fn size_dim_force_and_index() {
    let xs = Value::matrix_i64(2, 3, &[1, 2, 3, 4, 5, 6]);
    let out = run_ok(SUGAR, "shapes", vec![xs.clone()]);
    assert_eq!(out, vec![Value::index(2), Value::index(3), Value::index(3), xs, Value::i64(4)]);
}

#[test]
fn backpermute_transposes_and_matches_its_generate_gather_form() {
    let out = run_ok(SUGAR, "transpose", vec![Value::matrix_i64(2, 3, &[1, 2, 3, 4, 5, 6])]);
    assert_eq!(shape(&out[0]), vec![3, 2]);
    assert_eq!(ints(&out[0]), vec![1, 4, 2, 5, 3, 6]);
    // array.transpose gives what the backpermute spelled out by hand gives.
    let op = run_ok(SUGAR, "transposeOp", vec![Value::matrix_i64(2, 3, &[1, 2, 3, 4, 5, 6])]);
    assert_eq!(op, out);
    // Rank 3, permutation [2, 0, 1]: ys[i, j, k] = xs[j, k, i].
    let xs = Value::tensor(ElemType::Int(64), vec![2, 3, 4], (0..24).map(|v| Value::int(64, v)).collect());
    let ys = run_ok(SUGAR, "rotateAxes", vec![xs]);
    assert_eq!(shape(&ys[0]), vec![4, 2, 3]);
    let expected: Vec<i64> = (0..24)
        .map(|k| {
            let (i, j, l) = (k / 6, (k / 3) % 2, k % 3);
            (j * 12 + l * 4 + i) as i64
        })
        .collect();
    assert_eq!(ints(&ys[0]), expected);
    let xs = Value::vector_f32(&[1.0, 2.0, 3.0]);
    let core = run_example("seed000_backpermute.mlir", "backpermute", vec![Value::index(5), xs.clone()]);
    let sugar = run_example("seed000_backpermute.mlir", "backpermuteSugar", vec![Value::index(5), xs.clone()]);
    // f(i) = 2i mod 3
    assert_eq!(floats(&core[0]), vec![1.0, 3.0, 2.0, 1.0, 3.0]);
    assert_eq!(core, sugar);
    let via =
        run_example("seed000_backpermute.mlir", "gatherViaBackpermute", vec![Value::vector_index(&[2, 2, 0]), xs]);
    assert_eq!(floats(&via[0]), vec![3.0, 3.0, 1.0]);
}

/// permute with a keep flag drops the elements whose flag is false (seed 004's Nothing).
#[test]
fn permute_with_and_without_keep_flag() {
    // sources 5, -1 (dropped), 3, 4 go to i mod 2: dest[0] = 100+5+3, dest[1] = 200+4
    let out =
        run_ok(SUGAR, "permuteKeep", vec![Value::vector_i64(&[5, -1, 3, 4]), Value::vector_i64(&[100, 200, 300])]);
    assert_eq!(ints(&out[0]), vec![108, 204, 300]);
    let out = run_ok(SUGAR, "permuteAll", vec![Value::vector_i64(&[1, 2, 3]), Value::vector_i64(&[0, 0, 0])]);
    assert_eq!(ints(&out[0]), vec![3, 2, 1]);
}

const FILTERS: &str = r#"
func.func @soa(%flags: tensor<?xi1>, %xs: tensor<?xi64>, %ys: tensor<?xf64>) -> (tensor<?xi1>, tensor<?xi64>, tensor<?xf64>) {
  %f, %a, %b = array.filter %flags, %xs, %ys : tensor<?xi1>, tensor<?xi64>, tensor<?xf64> -> tensor<?xi1>, tensor<?xi64>, tensor<?xf64> {
  ^bb0(%flag: i1, %x: i64, %y: f64):
    array.yield %flag : i1
  }
  return %f, %a, %b : tensor<?xi1>, tensor<?xi64>, tensor<?xf64>
}

func.func @multiExpand(%xs: tensor<?xi64>) -> (tensor<?xi64>, tensor<?xindex>) {
  %v, %j = array.expand %xs : tensor<?xi64> -> tensor<?xi64>, tensor<?xindex> count {
  ^bb0(%x: i64):
    %n = arith.index_cast %x : i64 to index
    array.yield %n : index
  } get {
  ^bb0(%x: i64, %i: index):
    array.yield %x, %i : i64, index
  }
  return %v, %j : tensor<?xi64>, tensor<?xindex>
}
"#;

/// A structure-of-arrays filter keeps the order and filters all arrays together.
#[test]
fn filter_of_structure_of_arrays() {
    let out = run_ok(
        FILTERS,
        "soa",
        vec![
            Value::vector_i1(&[true, false, true, true, false]),
            Value::vector_i64(&[1, 2, 3, 4, 5]),
            Value::vector_f64(&[0.1, 0.2, 0.3, 0.4, 0.5]),
        ],
    );
    assert_eq!(out[0].as_tensor().unwrap().to_bool_vec().unwrap(), vec![true, true, true]);
    assert_eq!(ints(&out[1]), vec![1, 3, 4]);
    assert_eq!(floats(&out[2]), vec![0.1, 0.3, 0.4]);
    let out = run_example("seed001_filter_left.mlir", "filterLeft", vec![Value::vector_i64(&[1, 2, 3, 4, -6])]);
    assert_eq!(ints(&out[0]), vec![2, 3, 4, 5, -5]);
    assert_eq!(ints(&out[1]), vec![2, 4, -6]);
}

/// expand with data-dependent counts (including 0) and two results.
#[test]
fn expand_with_counts_from_data() {
    let out = run_ok(FILTERS, "multiExpand", vec![Value::vector_i64(&[2, 0, 3, 1])]);
    assert_eq!(ints(&out[0]), vec![2, 2, 3, 3, 3, 1]);
    assert_eq!(ints(&out[1]), vec![0, 1, 0, 1, 2, 0]);
}

/// A rank-0 map, a generate with no shape operands and a fold of a vector.
#[test]
fn sum_of_squares_and_cycle() {
    let out = run_example("seed004_sum_of_squares.mlir", "sumSquares", vec![Value::index(4)]);
    assert_eq!(scalar_of(&out[0]), Value::i64(30));
    let out = run_example("seed001_cycle.mlir", "cycle", vec![Value::vector_i64(&[1, 2, 3])]);
    // ys = [2,3,4], sum = 9, zs = ys + 9
    assert_eq!(ints(&out[0]), vec![11, 12, 13]);
}

/// Seed 004 sieve: the primes up to 30 (expand, maps, permute with keep flags, filter,
/// append by generate + scf.if, all under an scf.while calling @sieveStep).
#[test]
fn sieve_of_seed_004_finds_the_primes() {
    let out = run_example("seed004_sieve.mlir", "primes", vec![Value::i64(30)]);
    assert_eq!(ints(&out[0]), vec![2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
    let out = run_example("seed004_sieve.mlir", "primes", vec![Value::i64(1)]);
    assert_eq!(ints(&out[0]), Vec::<i64>::new());
}

/// Seed 004 BFS on 0 -> {1, 2}, 1 -> {3}, 2 -> {3}: parents [0, 0, 0, 1] (the first
/// discoverer wins in the sequential permute/scatter).
#[test]
fn bfs_of_seed_004() {
    let offsets = Value::vector_i64(&[0, 2, 3, 4, 4]);
    let edges = Value::vector_i64(&[1, 2, 3, 3]);
    let out =
        run_example("seed004_bfs.mlir", "bfs", vec![Value::i64(0), Value::index(4), offsets.clone(), edges.clone()]);
    assert_eq!(ints(&out[0]), vec![0, 0, 0, 1]);
    let parents = Value::vector_i64(&[0, 0, 0, -1]);
    let step = run_example("seed004_bfs.mlir", "bfsStep", vec![parents.clone(), offsets.clone(), edges.clone()]);
    let scatter = run_example("seed004_bfs.mlir", "bfsStepScatter", vec![parents.clone(), offsets, edges]);
    assert_eq!(ints(&step[0]), vec![0, 0, 0, 1]);
    assert_eq!(step, scatter);
    assert_eq!(step[1], parents);
}

/// Seed 001 quickhull's filterMax on complex points: the farthest point from the line
/// (0,0)-(1,0) and the points above it.
#[test]
fn quickhull_filter_max_on_complex_points() {
    let pts = Value::vector_complex(&[(0.5, 2.0), (0.2, -1.0), (0.7, 3.0), (0.1, 0.5)]);
    let out = run_example(
        "seed001_quickhull.mlir",
        "filterMax",
        vec![Value::complex(0.0, 0.0), Value::complex(1.0, 0.0), pts],
    );
    assert_eq!(scalar_of(&out[0]), Value::complex(0.7, 3.0));
    let above: Vec<_> = out[1].as_tensor().unwrap().elements.iter().map(|v| v.as_complex().unwrap()).collect();
    assert_eq!(above, vec![(0.5, 2.0), (0.7, 3.0), (0.1, 0.5)]);
}

/// The remaining seed 000 programs on hand-computed inputs.
#[test]
fn simple_programs_of_seed_000() {
    let xs = Value::vector_i64(&[1, 2, 3, 4]);
    let is = Value::vector_index(&[3, 0, 0, 2]);
    let f = |x: i64| 2 * x + 1;
    let out = run_example("seed000_simple.mlir", "simple1", vec![is.clone(), xs.clone()]);
    assert_eq!(ints(&out[0]), vec![f(4), f(1), f(1), f(3)]);
    let out = run_example("seed000_simple.mlir", "simple2", vec![is.clone(), Value::vector_index(&[1, 3]), xs.clone()]);
    assert_eq!(ints(&out[0]), vec![1, 3]);
    let out = run_example("seed000_simple.mlir", "simple3", vec![is.clone(), xs.clone()]);
    assert_eq!(ints(&out[0]), vec![3, 5, 7, 9]);
    assert_eq!(ints(&out[1]), vec![9, 3, 3, 7]);
    let out = run_example("seed000_simple.mlir", "simple5", vec![is, xs.clone()]);
    assert_eq!(ints(&out[0]), vec![1 - 4, 4 - 1, 9 - 1, 16 - 3]);
    let out = run_example("seed000_single_loop.mlir", "singleLoop", vec![xs.clone()]);
    // bs = reverse, cs = 2a+1, ds = cs^2
    assert_eq!(ints(&out[0]), vec![4 + 3 + 9, 3 + 5 + 25, 2 + 7 + 49, 1 + 9 + 81]);
    let out = run_example("seed000_intro.mlir", "mergeExample", vec![xs.clone()]);
    assert_eq!(ints(&out[0]), vec![4, 7, 10, 13]);
    let out = run_example("seed001_normalize_inc.mlir", "normalizeInc", vec![Value::vector_i64(&[1, 2, 7])]);
    assert_eq!(ints(&out[0]), vec![0, 0, 0]);
    let out = run_example("seed001_normalize_inc.mlir", "normalizeInc", vec![Value::vector_i64(&[-3, 8, -6])]);
    // sum = -1, incs = [-2, 9, -5]
    assert_eq!(ints(&out[0]), vec![2, -9, 5]);
}

/// `slice` cuts each row: from 1 size 2 of a 2×4 matrix keeps columns 1 and 2; an empty
/// run may start anywhere; a run reaching past the row is an out-of-bounds error.
#[test]
fn slice_cuts_every_row_and_refuses_a_run_past_the_end() {
    let m = || Value::matrix_i64(2, 4, &[1, 2, 3, 4, 5, 6, 7, 8]);
    let out = run_ok(SUGAR, "sliceOp", vec![m(), Value::index(1), Value::index(2)]);
    assert_eq!(shape(&out[0]), vec![2, 2]);
    assert_eq!(ints(&out[0]), vec![2, 3, 6, 7]);
    let empty = run_ok(SUGAR, "sliceOp", vec![m(), Value::index(9), Value::index(0)]);
    assert_eq!(shape(&empty[0]), vec![2, 0]);
    let e = run(SUGAR, "sliceOp", vec![m(), Value::index(3), Value::index(2)]).unwrap_err().to_string();
    assert!(e.contains("the run from 3 of size 2 is outside the innermost dimension of extent 4"), "{e}");
    // A negative size is undefined behaviour, the error its desugared generate gives too.
    let e = run(SUGAR, "sliceOp", vec![m(), Value::index(0), Value::index(-2)]).unwrap_err();
    assert!(e.to_string().contains("undefined behaviour: negative size -2"), "{e}");
}

/// `reshape` keeps the row-major order of the elements and changes only the shape; the
/// element counts must agree.
#[test]
fn reshape_keeps_row_major_order_and_refuses_another_count() {
    let m = || Value::matrix_i64(2, 6, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    let idx = Value::index;
    let out = run_ok(SUGAR, "reshapeOp", vec![m(), idx(3), idx(2), idx(2)]);
    assert_eq!(shape(&out[0]), vec![3, 2, 2]);
    assert_eq!(ints(&out[0]), (1..=12).collect::<Vec<i64>>());
    let e = run(SUGAR, "reshapeOp", vec![m(), idx(2), idx(2), idx(2)]).unwrap_err().to_string();
    assert!(e.contains("cannot reshape 12 elements of shape [2, 6] into shape [2, 2, 2]"), "{e}");
}

/// `concat` joins the rows: row r of the result is row r of `a`, then row r of `b`; an
/// empty operand contributes nothing; different numbers of rows are refused.
#[test]
fn concat_joins_rows_and_refuses_other_outer_dimensions() {
    let a = Value::matrix_i64(2, 2, &[1, 2, 3, 4]);
    let b = Value::matrix_i64(2, 1, &[5, 6]);
    let out = run_ok(SUGAR, "concatOp", vec![a.clone(), b]);
    assert_eq!(shape(&out[0]), vec![2, 3]);
    assert_eq!(ints(&out[0]), vec![1, 2, 5, 3, 4, 6]);
    let empty = Value::matrix_i64(2, 0, &[]);
    assert_eq!(run_ok(SUGAR, "concatOp", vec![empty, a.clone()]), vec![a.clone()]);
    let e = run(SUGAR, "concatOp", vec![a, Value::matrix_i64(1, 2, &[7, 8])]).unwrap_err().to_string();
    assert!(e.contains("operands of shapes [2, 2] and [1, 2]"), "{e}");
}
