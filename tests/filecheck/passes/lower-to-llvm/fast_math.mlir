// RUN: xdsl-opt -p lower-to-llvm %s -t llvm | filecheck %s --check-prefix=NONE
// RUN: xdsl-opt -p 'lower-to-llvm{fast-math=contract}' %s -t llvm | filecheck %s --check-prefix=CONTRACT
// RUN: xdsl-opt -p 'lower-to-llvm{fast-math=reassoc}' %s -t llvm | filecheck %s --check-prefix=REASSOC
// RUN: xdsl-opt -p 'lower-to-llvm{fast-math=fast}' %s -t llvm | filecheck %s --check-prefix=FAST

// `fast-math` reaches the LLVM IR instructions of the loops a linalg op
// becomes (through convert-arith-to-llvm), with LLVM's order of the flags;
// the flags written on an op reach them in every mode.

func.func @dot(%x: memref<8xf32>, %y: memref<8xf32>, %acc: memref<f32>) {
  linalg.generic {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>,
                                   affine_map<(k) -> ()>],
                  iterator_types = ["reduction"]}
      ins(%x, %y : memref<8xf32>, memref<8xf32>) outs(%acc : memref<f32>) {
  ^bb0(%a: f32, %b: f32, %s: f32):
    %p = arith.mulf %a, %b : f32
    %t = arith.addf %s, %p : f32
    linalg.yield %t : f32
  }
  return
}
// NONE-LABEL:   define void @"dot"
// NONE:         fmul float
// NONE-NEXT:    fadd float

// CONTRACT-LABEL: define void @"dot"
// CONTRACT:       fmul contract float
// CONTRACT-NEXT:  fadd contract float

// REASSOC-LABEL: define void @"dot"
// REASSOC:       fmul reassoc contract float
// REASSOC-NEXT:  fadd reassoc contract float

// FAST-LABEL:   define void @"dot"
// FAST:         fmul fast float
// FAST-NEXT:    fadd fast float

func.func @written(%a: f32, %b: f32) -> f32 {
  %d = arith.subf %a, %b fastmath<nnan,nsz,reassoc> : f32
  return %d : f32
}
// NONE-LABEL:     define float @"written"
// NONE:           fsub reassoc nnan nsz float
// CONTRACT-LABEL: define float @"written"
// CONTRACT:       fsub reassoc nnan nsz contract float
// FAST-LABEL:     define float @"written"
// FAST:           fsub fast float
