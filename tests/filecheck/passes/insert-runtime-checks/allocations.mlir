// memref.alloc / memref.alloca with dynamic sizes: no size negative (the
// interpreter's "negative size in [..]"), and a byte size that fits in int64
// (finalize-memref-to-llvm's multiplication would wrap, and a too small
// buffer be allocated): an unsigned extended product per dynamic size, its
// high half or sign bit set meaning overflow, unless some size is 0.
// All-static shapes that fit get no check. A memref.alloca also gets its
// byte size checked against the stack limit (1 MiB).
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @alloc(%a: memref<?x?xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %a, %c0 : memref<?x?xf32>
  %m = memref.dim %a, %c1 : memref<?x?xf32>
  %b = memref.alloc(%n, %m) : memref<?x3x?xf32>
  %x = memref.load %a[%c0, %c0] : memref<?x?xf32>
  memref.store %x, %b[%c0, %c1, %c0] : memref<?x3x?xf32>
  %y = memref.load %b[%c0, %c1, %c0] : memref<?x3x?xf32>
  memref.dealloc %b : memref<?x3x?xf32>
  return %y : f32
}
// CHECK-LABEL: func.func @alloc(
// CHECK:         %[[N0:.*]] = arith.cmpi sge, %n, %[[ZERO:.*]] : index
// CHECK-NEXT:    %[[M0:.*]] = arith.cmpi sge, %m, %[[ZERO]] : index
// CHECK-NEXT:    %[[NONNEG:.*]] = arith.andi %[[N0]], %[[M0]] : i1
// CHECK-NEXT:    rtcheck.assert %[[NONNEG]], "memref.alloc: negative size in [{}, 3, {}]" (%n, %m : index, index)
// CHECK:         %[[BYTES:.*]] = arith.constant 12 : index
// CHECK-NEXT:    %[[LOW:.*]], %[[HIGH:.*]] = arith.mului_extended %[[BYTES]], %n : index
// CHECK:         %{{.*}}, %{{.*}} = arith.mului_extended %[[LOW]], %m : index
// CHECK:         %[[FIT:.*]] = arith.xori %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:    %[[FITS0:.*]] = arith.ori %[[FIT]], %{{.*}} : i1
// CHECK-NEXT:    %[[FITS:.*]] = arith.ori %[[FITS0]], %{{.*}} : i1
// CHECK-NEXT:    rtcheck.assert %[[FITS]], "memref.alloc: cannot allocate shape [{}, 3, {}] of 4-byte elements (more than 2**63 - 1 bytes)" (%n, %m : index, index)
// CHECK-NEXT:    %b = memref.alloc(%n, %m) : memref<?x3x?xf32>

func.func @alloca(%a: memref<?xi64>) -> i64 {
  %c0 = arith.constant 0 : index
  %n = memref.dim %a, %c0 : memref<?xi64>
  %b = memref.alloca(%n) : memref<?xindex>
  %s = memref.alloca() : memref<2xi64>
  %x = memref.load %a[%c0] : memref<?xi64>
  memref.store %x, %s[%c0] : memref<2xi64>
  %y = memref.load %s[%c0] : memref<2xi64>
  return %y : i64
}
// CHECK-LABEL: func.func @alloca(
// CHECK:         rtcheck.assert %{{.*}}, "memref.alloca: negative size in [{}]" (%n : index)
// CHECK:         %[[BYTES:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %{{.*}}, %{{.*}} = arith.mului_extended %[[BYTES]], %n : index
// CHECK:         rtcheck.assert %{{.*}}, "memref.alloca: cannot allocate shape [{}] of 8-byte elements (more than 2**63 - 1 bytes)" (%n : index)
// An alloca also takes at most 1 MiB (the native stack's share):
// CHECK-NEXT:    %[[SIZE:.*]] = arith.constant 8 : index
// CHECK-NEXT:    %[[STACK:.*]] = arith.muli %[[SIZE]], %n : index
// CHECK-NEXT:    %[[LIMIT:.*]] = arith.constant 1048576 : index
// CHECK-NEXT:    %[[UNDER:.*]] = arith.cmpi sle, %[[STACK]], %[[LIMIT]] : index
// CHECK-NEXT:    rtcheck.assert %[[UNDER]], "memref.alloca: {} bytes exceed the stack limit of 1048576 bytes" (%[[STACK]] : index)
// CHECK-NEXT:    %b = memref.alloca(%n) : memref<?xindex>
// CHECK-NOT:     rtcheck.assert %{{.*}}, "memref.alloca
// CHECK:         %s = memref.alloca() : memref<2xi64>
