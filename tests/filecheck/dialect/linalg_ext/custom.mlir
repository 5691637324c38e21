// Round trip of custom: inputs present and absent, tensor and memref, and an
// unregistered op in the body as ByteIR wraps foreign calls.
// RUN: xdsl-opt --allow-unregistered-dialect %s | filecheck %s
// RUN: xdsl-opt --allow-unregistered-dialect %s | xdsl-opt --allow-unregistered-dialect | filecheck %s
// RUN: xdsl-opt --allow-unregistered-dialect %s --print-op-generic | xdsl-opt --allow-unregistered-dialect | filecheck %s
// RUN: xdsl-opt --allow-unregistered-dialect %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// CHECK-LABEL: func.func @custom_outs_only
func.func @custom_outs_only(%t: tensor<16x4xf32>) -> tensor<16x4xf32> {
  %r = linalg_ext.custom {target_name = "my_kernel"} outs(%t : tensor<16x4xf32>) {
    ^bb0(%o : tensor<16x4xf32>):
      %c = "vendor.call"(%o) {callee = "k"} : (tensor<16x4xf32>) -> tensor<16x4xf32>
      linalg_ext.yield %c : tensor<16x4xf32>
  } -> tensor<16x4xf32>
  return %r : tensor<16x4xf32>
}
// CHECK:      %r = linalg_ext.custom {target_name = "my_kernel"} outs(%t : tensor<16x4xf32>) {
// CHECK-NEXT: ^bb0(%o: tensor<16x4xf32>):
// CHECK-NEXT:   %c = "vendor.call"(%o) {callee = "k"} : (tensor<16x4xf32>) -> tensor<16x4xf32>
// CHECK-NEXT:   linalg_ext.yield %c : tensor<16x4xf32>
// CHECK-NEXT: } -> tensor<16x4xf32>

// CHECK-LABEL: func.func @custom_ins_outs
func.func @custom_ins_outs(%a: tensor<8xf32>, %b: tensor<8xf32>, %o1: tensor<8xf32>, %o2: tensor<8xi1>) -> (tensor<8xf32>, tensor<8xi1>) {
  %r:2 = linalg_ext.custom ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%o1, %o2 : tensor<8xf32>, tensor<8xi1>) {
  ^bb0(%x : tensor<8xf32>, %y : tensor<8xf32>, %p : tensor<8xf32>, %q : tensor<8xi1>):
    %s = arith.addf %x, %y : tensor<8xf32>
    %c = "vendor.less"(%x, %y) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xi1>
    linalg_ext.yield %s, %c : tensor<8xf32>, tensor<8xi1>
  } -> tensor<8xf32>, tensor<8xi1>
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi1>
}
// CHECK:      %{{.*}}, %{{.*}} = linalg_ext.custom ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%o1, %o2 : tensor<8xf32>, tensor<8xi1>) {
// CHECK-NEXT: ^bb0(%x: tensor<8xf32>, %y: tensor<8xf32>, %p: tensor<8xf32>, %q: tensor<8xi1>):
// CHECK:        linalg_ext.yield %s, %c : tensor<8xf32>, tensor<8xi1>
// CHECK-NEXT: } -> tensor<8xf32>, tensor<8xi1>

// CHECK-LABEL: func.func @custom_memref
func.func @custom_memref(%a: memref<4x4xf32>, %o: memref<4x4xf32>) {
  linalg_ext.custom ins(%a : memref<4x4xf32>) outs(%o : memref<4x4xf32>) {
  ^bb0(%x : memref<4x4xf32>, %y : memref<4x4xf32>):
    linalg_ext.yield %x : memref<4x4xf32>
  }
  return
}
// CHECK:      linalg_ext.custom ins(%a : memref<4x4xf32>) outs(%o : memref<4x4xf32>) {
// CHECK-NEXT: ^bb0(%x: memref<4x4xf32>, %y: memref<4x4xf32>):
// CHECK-NEXT:   linalg_ext.yield %x : memref<4x4xf32>
// CHECK-NEXT: }
// CHECK-NEXT: func.return

// ByteIR's custom has an implicit terminator: on memrefs the body may write
// the outputs in place and end without a yield. It is added on parsing and
// not printed.
// CHECK-LABEL: func.func @custom_implicit_terminator
func.func @custom_implicit_terminator(%a: memref<4xf32>, %o: memref<4xf32>) {
  linalg_ext.custom {target_name = "in_place"} ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) {
  ^bb0(%x : memref<4xf32>, %y : memref<4xf32>):
    "vendor.copy"(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
  }
  return
}
// CHECK:      linalg_ext.custom {target_name = "in_place"} ins(%a : memref<4xf32>) outs(%o : memref<4xf32>) {
// CHECK-NEXT: ^bb0(%x: memref<4xf32>, %y: memref<4xf32>):
// CHECK-NEXT:   "vendor.copy"(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
// CHECK-NEXT: }
// CHECK-NEXT: func.return
// GENERIC-LABEL: sym_name = "custom_implicit_terminator"
// GENERIC:      "vendor.copy"(%x, %y) : (memref<4xf32>, memref<4xf32>) -> ()
// GENERIC-NEXT: "linalg_ext.yield"() : () -> ()
