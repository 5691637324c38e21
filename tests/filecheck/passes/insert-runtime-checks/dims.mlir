// memref.dim with an index that is not a constant inside the rank: checked
// (0 <= index < rank, one unsigned comparison), with the interpreter's
// message; named tensor.dim when one-shot-bufferize made it from one
// (rtcheck.origin). A constant index inside the rank needs no check.
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @dims(%a: memref<?x?xf32>, %d: index) -> index {
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %d : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  %t = memref.dim %a, %d {rtcheck.origin = "tensor.dim"} : memref<?x?xf32>
  %s = arith.addi %n, %m : index
  %r = arith.addi %s, %t : index
  return %r : index
}
// CHECK-LABEL: func.func @dims(
// CHECK:         %[[RANK:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[IN:.*]] = arith.cmpi ult, %d, %[[RANK]] : index
// CHECK-NEXT:    rtcheck.assert %[[IN]], "memref.dim: dimension {} of a memref of rank 2" (%d : index)
// CHECK-NEXT:    %n = memref.dim %a, %d : memref<?x?xf32>
// CHECK-NEXT:    %m = memref.dim %a, %c1 : memref<?x?xf32>
// CHECK-NEXT:    %[[RANK2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[IN2:.*]] = arith.cmpi ult, %d, %[[RANK2]] : index
// CHECK-NEXT:    rtcheck.assert %[[IN2]], "tensor.dim: dimension {} of a tensor of rank 2" (%d : index)
// CHECK-NEXT:    %t = memref.dim %a, %d {rtcheck.origin = "tensor.dim"} : memref<?x?xf32>
