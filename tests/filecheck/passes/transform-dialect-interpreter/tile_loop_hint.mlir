// transform.structured.tile_loop_hint in ByteIR's script form: a matmul
// tiled by tile_ext along k (outermost, by the interchange), n and m gets
// __byteir_parallel__ on the n and m loops, not on k; a linalg_ext.softmax
// tiled along its rows gets it on its one loop. Annotations and the bare
// `cleanup` op on the way (tests/filecheck/passes/transform-interpreter-tiling/
// has their own tests in MLIR 22's form).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// CHECK-LABEL: func.func @matmul
// CHECK-SAME:  attributes {__byteir_to_gpu__}
func.func @matmul(%a: tensor<16x32xf32>, %b: tensor<32x24xf32>, %c: tensor<16x24xf32>) -> tensor<16x24xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x24xf32>) outs(%c : tensor<16x24xf32>) -> tensor<16x24xf32>
  return %r : tensor<16x24xf32>
}
// CHECK:      scf.for
// CHECK-NEXT:   scf.for
// CHECK-NEXT:     scf.for
// CHECK:            linalg.matmul {__scope__ = "threadblock"}
// CHECK:            scf.yield
// CHECK-NEXT:     } {__byteir_parallel__}
// CHECK-NEXT:     scf.yield
// CHECK-NEXT:   } {__byteir_parallel__}
// CHECK-NEXT:   scf.yield
// CHECK-NEXT: } {__byteir_loop_to_simt__ = "k"}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<64x16xf32>) -> tensor<64x16xf32> {
  %0 = tensor.empty() : tensor<64x16xf32>
  %1 = tensor.empty() : tensor<64xf32>
  %2 = tensor.empty() : tensor<64xf32>
  %3 = tensor.empty() : tensor<64xf32>
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %max = linalg.fill ins(%ninf : f32) outs(%1 : tensor<64xf32>) -> tensor<64xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%2 : tensor<64xf32>) -> tensor<64xf32>
  %4:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<64x16xf32>)
      outs(%0, %max, %acc, %3 : tensor<64x16xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>)
      : tensor<64x16xf32>, tensor<64xf32>, tensor<64xf32>, tensor<64xf32>
  return %4#0 : tensor<64x16xf32>
}
// CHECK:      scf.for
// CHECK:        linalg_ext.softmax
// CHECK:        scf.yield
// CHECK-NEXT: } {__byteir_parallel__}

// CHECK-NOT: @unused
func.func private @unused(tensor<4xf32>) -> tensor<4xf32>

transform.sequence failures(propagate) {
^bb0(%arg0: !pdl.operation):
  %0 = transform.structured.match ops{["linalg.matmul"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %1, %loops:3 = transform.structured.tile_ext %0 [2, 4, 8] {interchange = [2, 1, 0]}
  transform.structured.tile_loop_hint %1 : !pdl.operation
  transform.annotate_ext %loops#0 {__byteir_loop_to_simt__ = "k"}
  transform.annotate_ext %1 {__scope__ = "threadblock"}
  %2 = transform.structured.match ops{["linalg_ext.softmax"]} in %arg0 : (!pdl.operation) -> !pdl.operation
  %3, %loop = transform.structured.tile_ext %2 [4]
  transform.structured.tile_loop_hint %3 : !pdl.operation
  %f = transform.structured.match ops{["func.func"]} attributes {sym_name = "matmul"} in %arg0 : (!pdl.operation) -> !pdl.operation
  transform.annotate_ext %f {__byteir_to_gpu__}
  cleanup
}
