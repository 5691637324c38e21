// RUN: xdsl-opt -p lower-to-llvm %s | filecheck %s
// RUN: xdsl-opt -p lower-to-llvm %s -t llvm | filecheck %s --check-prefix=IR

// A linalg op, a linalg_ext op and a loop in one memref program: everything
// ends in the llvm dialect (nothing else is left), and translates to LLVM IR.

#id = affine_map<(i, j) -> (i, j)>
func.func @relu_then_softmax(%x: memref<3x5xf32>, %y: memref<3x5xf32>,
                             %m: memref<3xf32>, %s: memref<3xf32>, %c: memref<3xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<3x5xf32>) outs(%y : memref<3x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  linalg_ext.softmax dimension(1) ins(%x : memref<3x5xf32>)
      outs(%y, %m, %s, %c : memref<3x5xf32>, memref<3xf32>, memref<3xf32>, memref<3xf32>)
  return
}

// CHECK:       llvm.func @relu_then_softmax(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64
// CHECK-NOT:   linalg.
// CHECK-NOT:   memref.
// CHECK-NOT:   scf.
// CHECK-NOT:   arith.
// CHECK-NOT:   builtin.unrealized_conversion_cast
// CHECK:       llvm.intr.exp
// CHECK:       llvm.return

// IR: define void @"relu_then_softmax"(ptr %{{.*}}, ptr %{{.*}}, i64
// IR: call float @"llvm.maximum.f32"
// IR: call float @"llvm.exp.f32"
