// affine.min and affine.max: every result of the map, then a chain of
// arith.minsi (arith.maxsi) over them in order; one result is that result.
// RUN: xdsl-opt %s -p lower-affine-ext | filecheck %s

func.func @min(%a: i32, %s: index) -> index {
  %x = arith.index_cast %a : i32 to index
  %r = affine.min affine_map<(d0)[s0] -> (d0, s0 * 2 - 1, 3)>(%x)[%s]
  return %r : index
}
// CHECK-LABEL: func.func @min(
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[CM1:.*]] = arith.constant -1 : index
// CHECK-NEXT:    %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[T:.*]] = arith.muli %s, %[[C2]] : index
// CHECK-NEXT:    %[[U:.*]] = arith.addi %[[T]], %[[CM1]] : index
// CHECK-NEXT:    %[[M1:.*]] = arith.minsi %x, %[[U]] : index
// CHECK-NEXT:    %[[M2:.*]] = arith.minsi %[[M1]], %[[C3]] : index
// CHECK-NEXT:    func.return %[[M2]] : index

func.func @max(%a: i32, %b: i32) -> index {
  %x = arith.index_cast %a : i32 to index
  %y = arith.index_cast %b : i32 to index
  %r = affine.max affine_map<(d0, d1) -> (d0 - d1, d1 floordiv 2, -2)>(%x, %y)
  return %r : index
}
// CHECK-LABEL: func.func @max(
// CHECK:         %[[D:.*]] = arith.subi %x, %y : index
// CHECK:         arith.divsi
// CHECK-NEXT:    arith.subi
// CHECK-NEXT:    %[[F:.*]] = arith.select
// CHECK-NEXT:    %[[M1:.*]] = arith.maxsi %[[D]], %[[F]] : index
// CHECK-NEXT:    %[[M2:.*]] = arith.maxsi %[[M1]], %{{.*}} : index
// CHECK-NEXT:    func.return %[[M2]] : index

func.func @single_result(%n: index) -> (index, index) {
  %r = affine.min affine_map<()[s0] -> (s0 + 1)>()[%n]
  %t = affine.max affine_map<(d0) -> (d0)>(%n)
  return %r, %t : index, index
}
// CHECK-LABEL: func.func @single_result(
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[R:.*]] = arith.addi %n, %[[C1]] : index
// CHECK-NEXT:    func.return %[[R]], %n : index, index
