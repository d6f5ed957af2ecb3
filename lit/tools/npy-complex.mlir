// Complex arrays in .npy files: complex<f64> is numpy's complex128 (`<c16`), complex<f32>
// its complex64 (`<c8`), real part first. A result written with --output-dir reads back
// as an argument; a file of the other precision is refused.
// RUN: rm -rf %t && mkdir -p %t
// RUN: fuse-opt %s --run --check --function=twice --size=3 --output-dir=%t | FileCheck %s --check-prefix=WRITE
// RUN: python3 -c "import sys; print(open(sys.argv[1], 'rb').read()[10:75].decode())" %t/twice.0.npy | FileCheck %s --check-prefix=HEADER
// RUN: fuse-opt %s --run --check --function=twice --input=%t/twice.0.npy | FileCheck %s --check-prefix=READ
// RUN: fuse-opt %s --run --function=twice --input=%t/twice.0.npy | FileCheck %s --check-prefix=VALUES
// RUN: python3 -c "import struct, sys; h=b\"{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }\"; h=h+b' '*(117-len(h))+b'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+bytes([len(h),0])+h+struct.pack('<4f', 1.0, 2.0, 0.0, -0.5))" %t/single.npy
// RUN: fuse-opt %s --run --check --function=halve --input=%t/single.npy | FileCheck %s --check-prefix=SINGLE
// RUN: not fuse-opt %s --run --function=twice --input=%t/single.npy 2>&1 | FileCheck %s --check-prefix=PRECISION

// WRITE: @twice: match (interpreter, unfused, fused)
// HEADER: {'descr': '<c16', 'fortran_order': False, 'shape': (3,), }
// READ: @twice: match (interpreter, unfused, fused)
// VALUES: @twice: tensor<3xcomplex<f64>>[(16.0, 4.0), (20.0, 16.0), (12.0, 12.0)] ({{.*}}interpreter)
// SINGLE: @halve: match (interpreter, unfused, fused)
// PRECISION: fuse-opt: error: @twice: {{.*}}single.npy: dtype <c8 does not fit the argument type tensor<?xcomplex<f64>>

func.func @twice(%zs: tensor<?xcomplex<f64>>) -> tensor<?xcomplex<f64>> {
  %ys = array.map %zs : tensor<?xcomplex<f64>> -> tensor<?xcomplex<f64>> {
  ^bb0(%z: complex<f64>):
    %y = complex.add %z, %z : complex<f64>
    array.yield %y : complex<f64>
  }
  return %ys : tensor<?xcomplex<f64>>
}

func.func @halve(%zs: tensor<?xcomplex<f32>>) -> tensor<?xcomplex<f32>> {
  %ys = array.map %zs : tensor<?xcomplex<f32>> -> tensor<?xcomplex<f32>> {
  ^bb0(%z: complex<f32>):
    %h = arith.constant 0.5 : f32
    %zero = arith.constant 0.0 : f32
    %c = complex.create %h, %zero : complex<f32>
    %y = complex.mul %z, %c : complex<f32>
    array.yield %y : complex<f32>
  }
  return %ys : tensor<?xcomplex<f32>>
}
