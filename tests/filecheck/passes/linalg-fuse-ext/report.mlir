// linalg-fuse-ext{report=true}: one line to stderr per root left untiled
// and per cone op left outside the loops, with the reason. The matmul is
// tiled along k: its fill stays before the loops. The 3-d exp is tiled
// along the softmax's dimension: the softmax stays whole before the loops,
// and so do its fills. The one-loop exp cannot take three sizes: left as
// it is. Without report, nothing is printed to stderr.
// RUN: linalg-ext-opt %s -p 'linalg-fuse-ext{tile-sizes=4,4,8 report=true}' 2>&1 | filecheck %s
// RUN: linalg-ext-opt %s -p 'linalg-fuse-ext{tile-sizes=4,4,8}' 2>&1 | filecheck %s --check-prefix=QUIET

// CHECK-DAG: linalg-fuse-ext: linalg.exp not tiled: linalg.exp has 1 loops but 3 tile sizes were given
// CHECK-DAG: linalg-fuse-ext: linalg_ext.softmax left outside the loops: linalg_ext.softmax cannot be tiled along loop 2: it is the softmax dimension
// CHECK-DAG: linalg-fuse-ext: linalg.fill left outside the loops: a consumer of it in the cone stayed outside the loops
// CHECK-DAG: linalg-fuse-ext: linalg.fill left outside the loops: it initialises a destination carried along a reduction loop, whose iterations accumulate onto it: it stays before the loops
// CHECK: builtin.module

// QUIET-NOT: linalg-fuse-ext:
// QUIET:     builtin.module

// CHECK-LABEL: func.func @matmul(
// CHECK:         %[[FILL:.*]] = linalg.fill
// CHECK:         scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%{{.*}} = %[[FILL]])
// CHECK-NOT:       linalg.fill
// CHECK:           linalg.matmul {__root__}
func.func @matmul(%a: tensor<16x24xf32>, %b: tensor<24x8xf32>) -> tensor<16x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<16x8xf32>) -> tensor<16x8xf32>
  %mm = linalg.matmul {__root__} ins(%a, %b : tensor<16x24xf32>, tensor<24x8xf32>) outs(%fill : tensor<16x8xf32>) -> tensor<16x8xf32>
  return %mm : tensor<16x8xf32>
}

// CHECK-LABEL: func.func @vector(
// CHECK-NEXT:    linalg.exp {__root__} ins(%{{.*}} : tensor<8xf32>)
// CHECK-NEXT:    func.return
func.func @vector(%a: tensor<8xf32>, %b: tensor<8xf32>) -> tensor<8xf32> {
  %0 = linalg.exp {__root__} ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// The exp tiled along the softmax's dimension (2): the softmax stays
// before the loops, whole, and so do its fills; the loops read its result.
// CHECK-LABEL: func.func @softmax_dimension(
// CHECK:         linalg.fill
// CHECK-NEXT:    linalg.fill
// CHECK-NEXT:    %[[S:.*]], %{{.*}}, %{{.*}}, %{{.*}} = linalg_ext.softmax dimension(2) ins(%{{.*}} : tensor<4x16x24xf32>)
// CHECK:         scf.for
// CHECK:           tensor.extract_slice %[[S]]
// CHECK-NOT:       linalg_ext.softmax
// CHECK:           linalg.exp {__root__}
func.func @softmax_dimension(%x: tensor<4x16x24xf32>) -> tensor<4x16x24xf32> {
  %e = tensor.empty() : tensor<4x16x24xf32>
  %v = tensor.empty() : tensor<4x16xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = linalg.fill ins(%ninf : f32) outs(%v : tensor<4x16xf32>) -> tensor<4x16xf32>
  %sum = linalg.fill ins(%zero : f32) outs(%v : tensor<4x16xf32>) -> tensor<4x16xf32>
  %s:4 = linalg_ext.softmax dimension(2) ins(%x : tensor<4x16x24xf32>)
      outs(%e, %max, %sum, %v : tensor<4x16x24xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>)
      : tensor<4x16x24xf32>, tensor<4x16xf32>, tensor<4x16xf32>, tensor<4x16xf32>
  %r = linalg.exp {__root__} ins(%s#0 : tensor<4x16x24xf32>) outs(%e : tensor<4x16x24xf32>) -> tensor<4x16x24xf32>
  return %r : tensor<4x16x24xf32>
}
