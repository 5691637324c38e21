// Forms upstream's and ByteIR's test files write that xDSL 0.74 could not
// read: result types of scf.for/scf.if without parentheses, scf.while without
// operands, linalg.generic with an attribute alias, vector.print, and the
// shape ops (semi-affine maps: semi_affine.mlir). Read, printed, and read back
// (custom and generic forms); test_compat_oracle.py checks that mlir-opt-22
// reads them as we do and prints them as we do.
// RUN: linalg-ext-opt --split-input-file %s | filecheck %s
// RUN: linalg-ext-opt --split-input-file %s | linalg-ext-opt --split-input-file | filecheck %s
// RUN: linalg-ext-opt --split-input-file %s --print-op-generic | linalg-ext-opt --split-input-file | filecheck %s

// CHECK-LABEL: func.func @loop_and_branch
func.func @loop_and_branch(%t: tensor<4xf32>, %n: index, %c: i1, %v: f32) -> (tensor<4xf32>, f32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> tensor<4xf32> {
    %e = tensor.insert %v into %acc[%c0] : tensor<4xf32>
    scf.yield %e : tensor<4xf32>
  }
  %s = scf.if %c -> f32 {
    scf.yield %v : f32
  } else {
    %z = arith.negf %v : f32
    scf.yield %z : f32
  }
  scf.while : () -> () {
    %false = arith.constant false
    scf.condition(%false)
  } do {
    scf.yield
  }
  return %r, %s : tensor<4xf32>, f32
}
// CHECK:      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<4xf32>) {
// CHECK:      %s = scf.if %c -> (f32) {
// CHECK:      scf.while : () -> () {

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#elementwise = {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
#row_sum = {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"], doc = "sum of each row"}

// CHECK-LABEL: func.func @generic_traits
func.func @generic_traits(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>, %init: tensor<2xf32>) -> (tensor<2x3xf32>, tensor<2xf32>) {
  %sum = linalg.generic #elementwise ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%a : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<2x3xf32>
  %prod = linalg.generic #elementwise ins(%sum, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%a : tensor<2x3xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<2x3xf32>
  %rows = linalg.generic #row_sum ins(%prod : tensor<2x3xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %s = arith.addf %x, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  return %prod, %rows : tensor<2x3xf32>, tensor<2xf32>
}
// CHECK:      %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<2x3xf32>, tensor<2x3xf32>) outs(%a : tensor<2x3xf32>) {
// CHECK:      %prod = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sum, %b : tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK:      %rows = linalg.generic {doc = "sum of each row", indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%prod : tensor<2x3xf32>) outs(%init : tensor<2xf32>) {

// -----

// CHECK-LABEL: func.func @printing
func.func @printing(%x: f32, %k: i32, %v: vector<3xf32>) {
  vector.print %x : f32
  vector.print %v : vector<3xf32>
  vector.print %k : i32 punctuation <comma>
  vector.print str "done\n"
  vector.print punctuation <open>
  vector.print {tag}
  return
}
// CHECK-NEXT: vector.print %x : f32
// CHECK-NEXT: vector.print %v : vector<3xf32>
// CHECK-NEXT: vector.print %k : i32 punctuation <comma>
// CHECK-NEXT: vector.print str "done\0A"
// CHECK-NEXT: vector.print punctuation <open>
// CHECK-NEXT: vector.print {tag}

// -----

// upstream's one-shot-bufferize does not bufferize the shape ops.
// CHECK-LABEL: func.func @shapes
func.func @shapes(%t: tensor<?x4xf32>, %m: memref<2x?xi8>) -> (tensor<2xindex>, tensor<2xindex>, tensor<3xindex>) {
  %s = shape.shape_of %t : tensor<?x4xf32> -> tensor<?xindex>
  %e = shape.to_extent_tensor %s : tensor<?xindex> -> tensor<2xindex>
  %b = shape.shape_of %m {tag} : memref<2x?xi8> -> tensor<2xindex>
  %c = shape.const_shape [2, 1, 4] : tensor<3xindex>
  return %e, %b, %c : tensor<2xindex>, tensor<2xindex>, tensor<3xindex>
}
// CHECK-NEXT: %s = shape.shape_of %t : tensor<?x4xf32> -> tensor<?xindex>
// CHECK-NEXT: %e = shape.to_extent_tensor %s : tensor<?xindex> -> tensor<2xindex>
// CHECK-NEXT: %b = shape.shape_of %m {tag} : memref<2x?xi8> -> tensor<2xindex>
// CHECK-NEXT: %c = shape.const_shape [2, 1, 4] : tensor<3xindex>
