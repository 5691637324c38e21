// Round trip of linalg.map: the short form naming one payload op, the region
// form, and the memref form, printed as mlir-opt-22 prints them. Custom form,
// re-parse of the printed form, and re-parse of the generic form all print
// the same.
// RUN: linalg-ext-opt %s | filecheck %s
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s

// CHECK-LABEL: func.func @short_form
func.func @short_form(%a: tensor<8xf32>, %b: tensor<8xf32>, %init: tensor<8xf32>, %flags: tensor<8xi1>) -> tensor<8xf32> {
  %sum = linalg.map { arith.addf } ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%init : tensor<8xf32>)
  %exp = linalg.map { math.exp } ins(%a : tensor<8xf32>) outs(%init : tensor<8xf32>) {tag = 1 : i64}
  %fast = linalg.map { arith.mulf {fastmath = #arith.fastmath<fast>} } ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%init : tensor<8xf32>)
  %less = linalg.map { arith.cmpf {predicate = 4 : i64} } ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%flags : tensor<8xi1>)
  return %sum : tensor<8xf32>
}
// CHECK-NEXT: %sum = linalg.map { arith.addf } ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%init : tensor<8xf32>)
// CHECK-NEXT: %exp = linalg.map { math.exp } ins(%a : tensor<8xf32>) outs(%init : tensor<8xf32>) {tag = 1 : i64}
// CHECK-NEXT: %fast = linalg.map { arith.mulf {fastmath = #arith.fastmath<fast>} } ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%init : tensor<8xf32>)
// CHECK-NEXT: %less = linalg.map { arith.cmpf {predicate = 4 : i64} } ins(%a, %b : tensor<8xf32>, tensor<8xf32>) outs(%flags : tensor<8xi1>)
// CHECK-NEXT: func.return %sum : tensor<8xf32>

// A mapper that is one op on the inputs in order is printed short, whichever
// form it was written in; anything else keeps its region.
// CHECK-LABEL: func.func @region_form
func.func @region_form(%a: tensor<4x2xf32>, %b: tensor<4x2xf32>, %init: tensor<4x2xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>) {
  %product = linalg.map ins(%a, %b : tensor<4x2xf32>, tensor<4x2xf32>) outs(%init : tensor<4x2xf32>)
    (%x: f32, %y: f32, %out: f32) {
      %p = arith.mulf %x, %y : f32
      linalg.yield %p : f32
    }
  %accumulated = linalg.map ins(%a : tensor<4x2xf32>) outs(%init : tensor<4x2xf32>) {tag}
    (%v: f32, %acc: f32) {
      %s = arith.addf %v, %acc : f32
      linalg.yield %s : f32
    }
  %swapped = linalg.map ins(%a, %b : tensor<4x2xf32>, tensor<4x2xf32>) outs(%init : tensor<4x2xf32>)
    (%lhs: f32, %rhs: f32, %unused: f32) {
      %d = arith.subf %rhs, %lhs : f32
      linalg.yield %d : f32
    }
  %filled = linalg.map outs(%init : tensor<4x2xf32>)
    (%current: f32) {
      %one = arith.constant 1.000000e+00 : f32
      linalg.yield %one : f32
    }
  return %product, %accumulated, %swapped : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>
}
// CHECK-NEXT: %product = linalg.map { arith.mulf } ins(%a, %b : tensor<4x2xf32>, tensor<4x2xf32>) outs(%init : tensor<4x2xf32>)
// CHECK-NEXT: %accumulated = linalg.map ins(%a : tensor<4x2xf32>) outs(%init : tensor<4x2xf32>) {tag}
// CHECK-NEXT:   (%v: f32, %acc: f32) {
// CHECK-NEXT:     %s = arith.addf %v, %acc : f32
// CHECK-NEXT:     linalg.yield %s : f32
// CHECK-NEXT:   }
// CHECK-NEXT: %swapped = linalg.map ins(%a, %b : tensor<4x2xf32>, tensor<4x2xf32>) outs(%init : tensor<4x2xf32>)
// CHECK-NEXT:   (%lhs: f32, %rhs: f32, %unused: f32) {
// CHECK-NEXT:     %d = arith.subf %rhs, %lhs : f32
// CHECK-NEXT:     linalg.yield %d : f32
// CHECK-NEXT:   }
// CHECK-NEXT: %filled = linalg.map outs(%init : tensor<4x2xf32>)
// CHECK-NEXT:   (%current: f32) {
// CHECK-NEXT:     %one = arith.constant 1.000000e+00 : f32
// CHECK-NEXT:     linalg.yield %one : f32
// CHECK-NEXT:   }
// CHECK-NEXT: func.return %product, %accumulated, %swapped : tensor<4x2xf32>, tensor<4x2xf32>, tensor<4x2xf32>

// On memrefs the init is written in place and there is no result.
// CHECK-LABEL: func.func @memref_form
func.func @memref_form(%a: memref<?x3xi32>, %init: memref<?x3xi32>) {
  linalg.map { arith.addi } ins(%a, %a : memref<?x3xi32>, memref<?x3xi32>) outs(%init : memref<?x3xi32>)
  linalg.map ins(%a : memref<?x3xi32>) outs(%init : memref<?x3xi32>)
    (%x: i32, %out: i32) {
      linalg.yield %x : i32
    }
  return
}
// CHECK-NEXT: linalg.map { arith.addi {overflowFlags = #arith.overflow<none>} } ins(%a, %a : memref<?x3xi32>, memref<?x3xi32>) outs(%init : memref<?x3xi32>)
// CHECK-NEXT: linalg.map ins(%a : memref<?x3xi32>) outs(%init : memref<?x3xi32>)
// CHECK-NEXT:   (%x: i32, %out: i32) {
// CHECK-NEXT:     linalg.yield %x : i32
// CHECK-NEXT:   }
// CHECK-NEXT: func.return
