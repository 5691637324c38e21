// Wrong options: one line naming the option; the module is left unchanged.
// RUN: xdsl-opt --verify-diagnostics %s -p 'linalg-contraction-microkernel{vector-bits=384}' 2>&1 | filecheck %s --check-prefix=BITS
// RUN: xdsl-opt --verify-diagnostics %s -p 'linalg-contraction-microkernel{register-tile=4}' 2>&1 | filecheck %s --check-prefix=TILE
// RUN: xdsl-opt --verify-diagnostics %s -p 'linalg-contraction-microkernel{vector-bits=256 register-tile=4,12 min-multiply-adds=0}' 2>&1 | filecheck %s --check-prefix=LANES
// RUN: xdsl-opt --verify-diagnostics %s -p 'linalg-contraction-microkernel{cache-tile=64,0,256}' 2>&1 | filecheck %s --check-prefix=CACHE

func.func @matmul(%a: memref<16x16xf32>, %b: memref<16x16xf32>, %c: memref<16x16xf32>) {
  linalg.matmul ins(%a, %b : memref<16x16xf32>, memref<16x16xf32>) outs(%c : memref<16x16xf32>)
  return
}
// BITS: linalg-contraction-microkernel: vector-bits must be 0, 128, 256 or 512, not 384
// TILE: linalg-contraction-microkernel: register-tile must be two positive integers MR,NR, not 4
// LANES: linalg-contraction-microkernel: linalg.matmul: register-tile: NR=12 is not a multiple of the vector length (8 elements of f32 in 256 bits)
// CACHE: linalg-contraction-microkernel: cache-tile must be three positive integers mc,nc,kc, not 64,0,256
