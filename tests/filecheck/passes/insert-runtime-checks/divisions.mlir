// Integer divisions and remainders: a divisor that is not a constant is
// checked against 0 ("'arith.divsi' divides by zero") and, for the signed
// ones, the minimum value divided by -1 ("'arith.divsi' of -2147483648 by -1
// overflows"), the interpreter's messages. A constant divisor other than 0
// and -1 needs no check; -1 only the overflow one.
// RUN: xdsl-opt %s -p insert-runtime-checks | filecheck %s

func.func @signed(%x: i32, %y: i32) -> i32 {
  %c1 = arith.constant 1 : i32
  %d = arith.ori %y, %c1 : i32
  %q = arith.divsi %x, %d : i32
  return %q : i32
}
// CHECK-LABEL: func.func @signed(
// CHECK:         %d = arith.ori %y, %c1 : i32
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : i32
// CHECK-NEXT:    %[[NZ:.*]] = arith.cmpi ne, %d, %[[ZERO]] : i32
// CHECK-NEXT:    rtcheck.assert %[[NZ]], "'arith.divsi' divides by zero"
// CHECK-NEXT:    %[[MIN:.*]] = arith.constant -2147483648 : i32
// CHECK-NEXT:    %[[M1:.*]] = arith.constant -1 : i32
// CHECK-NEXT:    %[[A:.*]] = arith.cmpi eq, %x, %[[MIN]] : i32
// CHECK-NEXT:    %[[B:.*]] = arith.cmpi eq, %d, %[[M1]] : i32
// CHECK-NEXT:    %[[BOTH:.*]] = arith.andi %[[A]], %[[B]] : i1
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    %[[OK:.*]] = arith.xori %[[BOTH]], %[[T]] : i1
// CHECK-NEXT:    rtcheck.assert %[[OK]], "'arith.divsi' of {} by -1 overflows" (%x : i32)
// CHECK-NEXT:    %q = arith.divsi %x, %d : i32

func.func @unsigned(%x: i64, %y: i64) -> i64 {
  %c5 = arith.constant 5 : i64
  %d = arith.addi %y, %c5 : i64
  %r = arith.remui %x, %d : i64
  return %r : i64
}
// CHECK-LABEL: func.func @unsigned(
// CHECK:         rtcheck.assert %{{.*}}, "'arith.remui' divides by zero"
// CHECK-NEXT:    %r = arith.remui %x, %d : i64

func.func @constant_divisors(%x: i32) -> (i32, i32, i32) {
  %c7 = arith.constant 7 : i32
  %m1 = arith.constant -1 : i32
  %a = arith.floordivsi %x, %c7 : i32
  %b = arith.ceildivui %x, %c7 : i32
  %c = arith.remsi %x, %m1 : i32
  return %a, %b, %c : i32, i32, i32
}
// CHECK-LABEL: func.func @constant_divisors(
// CHECK-NEXT:    %c7 = arith.constant 7 : i32
// CHECK-NEXT:    %m1 = arith.constant -1 : i32
// CHECK-NEXT:    %a = arith.floordivsi %x, %c7 : i32
// CHECK-NEXT:    %b = arith.ceildivui %x, %c7 : i32
// CHECK-NOT:     divides by zero
// CHECK:         rtcheck.assert %{{.*}}, "'arith.remsi' of {} by -1 overflows" (%x : i32)
// CHECK-NEXT:    %c = arith.remsi %x, %m1 : i32

func.func @index_dialect(%x: index, %y: index) -> index {
  %c1 = index.constant 1
  %d = index.add %y, %c1
  %q = index.ceildivs %x, %d
  return %q : index
}
// CHECK-LABEL: func.func @index_dialect(
// CHECK:         rtcheck.assert %{{.*}}, "'index.ceildivs' divides by zero"
// CHECK:         rtcheck.assert %{{.*}}, "'index.ceildivs' of {} by -1 overflows" (%x : index)
// CHECK-NEXT:    %q = index.ceildivs %x, %d
