// transform.annotate_ext: the op's attribute dictionary is set on every
// payload op of the handle (replacing an attribute of the same name); its
// result holds the same ops, so annotations chain. ByteIR's kinds: loops
// marked for a GPU mapping, the tiled op's scope and target, the function's
// unit and array attributes.
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @matmul
  // CHECK-SAME:  attributes {__byteir_to_gpu__, __byteir_copy_async__, __byteir_block_size__ = [32 : i64, 2 : i64, 2 : i64]}
  func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x12xf32>, %c: tensor<8x12xf32>) -> tensor<8x12xf32> {
    %r = linalg.matmul {__scope__ = "warp"} ins(%a, %b : tensor<8x16xf32>, tensor<16x12xf32>) outs(%c : tensor<8x12xf32>) -> tensor<8x12xf32>
    return %r : tensor<8x12xf32>
  }
  // CHECK:      scf.for
  // CHECK-NEXT:   scf.for
  // CHECK:          linalg.matmul {__scope__ = "threadblock", __target__ = "nv_sm_80"} ins(
  // CHECK:        } {__byteir_loop_to_simt__ = "block_id.x"}
  // CHECK:      } {__byteir_loop_to_simt__ = "block_id.y"}

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [4, 6] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %y = transform.annotate_ext %l#0 {__byteir_loop_to_simt__ = "block_id.y"}
    %x = transform.annotate_ext %l#1 {__byteir_loop_to_simt__ = "block_id.x"}
    %s = transform.annotate_ext %t {__scope__ = "threadblock"}
    %u = transform.annotate_ext %s {__target__ = "nv_sm_80"}
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    %g = transform.annotate_ext %f {__byteir_to_gpu__, __byteir_copy_async__, __byteir_block_size__ = [32, 2, 2]}
    transform.yield
  }
}
