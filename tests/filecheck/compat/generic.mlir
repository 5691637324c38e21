// linalg.generic as MLIR 22 reads and prints it, where xDSL 0.74 falls
// short: several results (`-> (T1, T2)`, which xDSL prints but cannot read
// back), and discardable attributes, written in the leading dictionary or
// after `attrs =`, which xDSL drops. The op's own attributes are printed
// sorted by name and the others after `attrs = ` with MLIR's two spaces.
// RUN: linalg-ext-opt %s | filecheck %s --strict-whitespace
// RUN: linalg-ext-opt %s | linalg-ext-opt | filecheck %s --strict-whitespace
// RUN: linalg-ext-opt %s --print-op-generic | linalg-ext-opt | filecheck %s --strict-whitespace
// RUN: linalg-ext-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

#id = affine_map<(d0) -> (d0)>

// CHECK-LABEL: func.func @two_results
func.func @two_results(%a: tensor<8xf32>, %b: tensor<8xf32>, %c: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%b, %c : tensor<8xf32>, tensor<8xi32>) {
  ^bb0(%x: f32, %y: f32, %z: i32):
    %n = arith.fptosi %x : f32 to i32
    linalg.yield %x, %n : f32, i32
  } -> (tensor<8xf32>, tensor<8xi32>)
  return %r#0, %r#1 : tensor<8xf32>, tensor<8xi32>
}
// CHECK-NEXT:    %r, %r_1 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%b, %c : tensor<8xf32>, tensor<8xi32>) {
// CHECK-NEXT:    ^bb0(%x: f32, %y: f32, %z: i32):
// CHECK-NEXT:      %n = arith.fptosi %x : f32 to i32
// CHECK-NEXT:      linalg.yield %x, %n : f32, i32
// CHECK-NEXT:    } -> (tensor<8xf32>, tensor<8xi32>)
// CHECK-NEXT:    func.return %r, %r_1 : tensor<8xf32>, tensor<8xi32>

// Extra entries of the leading dictionary become discardable attributes, as
// in MLIR; doc and library_call stay the op's own.
// CHECK-LABEL: func.func @attributes
func.func @attributes(%a: tensor<8xf32>, %b: tensor<8xf32>, %m: memref<8xf32>) -> tensor<8xf32> {
  %r = linalg.generic {library_call = "copy", tag = "first", indexing_maps = [#id, #id], iterator_types = ["parallel"], doc = "a copy", __root__} ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) attrs = {more = 1 : i32} {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<8xf32>
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%m : memref<8xf32>) attrs = {tag} {
  ^bb0(%y: f32):
    linalg.yield %y : f32
  }
  return %r : tensor<8xf32>
}
// CHECK-NEXT:    %r = linalg.generic {doc = "a copy", indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"], library_call = "copy"} ins(%a : tensor<8xf32>) outs(%b : tensor<8xf32>) attrs =  {__root__, more = 1 : i32, tag = "first"} {
// CHECK-NEXT:    ^bb0(%x: f32, %y: f32):
// CHECK-NEXT:      linalg.yield %x : f32
// CHECK-NEXT:    } -> tensor<8xf32>
// CHECK-NEXT:    linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} outs(%m : memref<8xf32>) attrs =  {tag} {
// CHECK-NEXT:    ^bb0(%y_1: f32):
// CHECK-NEXT:      linalg.yield %y_1 : f32
// CHECK-NEXT:    }
// GENERIC-LABEL: sym_name = "attributes"
// GENERIC:       %r = "linalg.generic"(%a, %b) <{indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = [#linalg.iterator_type<parallel>], doc = "a copy", library_call = "copy", operandSegmentSizes = array<i32: 1, 1>}> ({
// GENERIC:       }) {tag = "first", __root__, more = 1 : i32} : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
