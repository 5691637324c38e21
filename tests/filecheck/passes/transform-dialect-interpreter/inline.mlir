// transform.structured.inline (ByteIR's op, script form): each func.call of
// the handle is replaced by a copy of its callee's body, the callee's
// arguments by the call's operands, the call's results by what the body
// returns. A private callee nothing refers to any more is erased; a public
// one stays (ByteIR erases it too, removing an entry point).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

#id = affine_map<(d0) -> (d0)>

// Outlined then inlined: the op is back, the private function gone.
// CHECK-NOT:   func.func private @roundtrip
// CHECK-LABEL: func.func @roundtrip(
// CHECK-SAME:      %[[X:.*]]: tensor<4xf32>, %[[B:.*]]: f32)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<4xf32>
// CHECK-NEXT:    %[[R:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<4xf32>) outs(%[[E]] : tensor<4xf32>)
// CHECK:           arith.addf %{{.*}}, %[[B]] : f32
// CHECK:         func.return %[[R]] : tensor<4xf32>
func.func @roundtrip(%x: tensor<4xf32>, %b: f32) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<4xf32>) outs(%e : tensor<4xf32>) attrs = {__outline__} {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}

// A public callee with two results stays; its call in a loop is inlined.
// CHECK-LABEL: func.func @scale_shift(
// CHECK:         arith.mulf
// CHECK:         arith.addf
// CHECK:         func.return
func.func @scale_shift(%v: f32, %s: f32) -> (f32, f32) {
  %m = arith.mulf %v, %s : f32
  %a = arith.addf %m, %s : f32
  return %m, %a : f32, f32
}

// CHECK-LABEL: func.func @in_loop(
// CHECK-SAME:      %[[V:.*]]: f32, %[[S:.*]]: f32)
// CHECK:         scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[V]]) -> (f32) {
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[ACC]], %[[S]] : f32
// CHECK-NEXT:      %[[A:.*]] = arith.addf %[[M]], %[[S]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.subf %[[A]], %[[M]] : f32
// CHECK-NEXT:      scf.yield %[[T]] : f32
// CHECK-NOT:     func.call
func.func @in_loop(%v: f32, %s: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %v) -> (f32) {
    %m, %a = func.call @scale_shift(%acc, %s) {__inline__} : (f32, f32) -> (f32, f32)
    %t = arith.subf %a, %m : f32
    scf.yield %t : f32
  }
  return %r : f32
}

// A private callee on memrefs, called twice, one call inlined: the other
// still refers to it, so it stays. Its body's own call is kept as is.
// CHECK-LABEL: func.func private @fill_twice(
// CHECK-LABEL: func.func @memrefs(
// CHECK-SAME:      %[[A:.*]]: memref<2x2xf32>, %[[B:.*]]: memref<2x2xf32>, %[[F:.*]]: f32)
// CHECK-NEXT:    linalg.fill ins(%[[F]] : f32) outs(%[[A]] : memref<2x2xf32>)
// CHECK-NEXT:    func.call @add_into(%[[A]], %[[A]]) : (memref<2x2xf32>, memref<2x2xf32>) -> ()
// CHECK-NEXT:    func.call @fill_twice(%[[B]], %[[F]]) : (memref<2x2xf32>, f32) -> ()
func.func private @fill_twice(%m: memref<2x2xf32>, %f: f32) {
  linalg.fill ins(%f : f32) outs(%m : memref<2x2xf32>)
  func.call @add_into(%m, %m) : (memref<2x2xf32>, memref<2x2xf32>) -> ()
  return
}
func.func private @add_into(%x: memref<2x2xf32>, %y: memref<2x2xf32>) {
  linalg.add ins(%x, %x : memref<2x2xf32>, memref<2x2xf32>) outs(%y : memref<2x2xf32>)
  return
}
func.func @memrefs(%a: memref<2x2xf32>, %b: memref<2x2xf32>, %f: f32) {
  func.call @fill_twice(%a, %f) {__inline__} : (memref<2x2xf32>, f32) -> ()
  func.call @fill_twice(%b, %f) : (memref<2x2xf32>, f32) -> ()
  return
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match attributes {__outline__} in %root : (!pdl.operation) -> !pdl.operation
  %f, %c = transform.structured.outline %0 {func_name = "roundtrip"} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
  transform.structured.inline %c
  %1 = transform.structured.match attributes {__inline__} in %root : (!pdl.operation) -> !pdl.operation
  transform.structured.inline %1
}
