// cf.switch becomes llvm.switch; an index flag (and its case values) is
// i64. A destination reached again with other operands is reached through
// a new block.
// RUN: xdsl-opt %s -p convert-cf-to-llvm | filecheck %s

// CHECK-LABEL: func.func @pick
func.func @pick(%flag: i32, %x: f64) -> f64 {
  %two = arith.constant 2.0 : f64
  %doubled = arith.mulf %x, %two : f64
  cf.switch %flag : i32, [
    default: ^out(%x : f64),
    -1: ^negate,
    4: ^out(%doubled : f64),
    3: ^out(%x : f64)
  ]
^negate:
  %n = arith.negf %x : f64
  cf.br ^out(%n : f64)
^out(%r: f64):
  return %r : f64
}
// CHECK:        llvm.switch %flag : i32, ^out(%x : f64) [
// CHECK-NEXT:     -1: ^negate,
// CHECK-NEXT:     4: ^[[EDGE:.*]],
// CHECK-NEXT:     3: ^out(%x : f64)
// CHECK-NEXT:   ]
// CHECK-NEXT: ^[[EDGE]]:
// CHECK-NEXT:   llvm.br ^out(%doubled : f64)
// CHECK-NEXT: ^negate:
// CHECK-NEXT:   %n = arith.negf %x : f64
// CHECK-NEXT:   llvm.br ^out(%n : f64)
// CHECK-NEXT: ^out(%r: f64):
// CHECK-NEXT:   func.return %r : f64

// CHECK-LABEL: func.func @on_index
func.func @on_index(%flag: index, %a: i32, %b: i32) -> i32 {
  cf.switch %flag : index, [
    default: ^out(%a : i32),
    2: ^out(%b : i32),
    3: ^other
  ]
^other:
  %s = arith.addi %a, %b : i32
  cf.br ^out(%s : i32)
^out(%r: i32):
  return %r : i32
}
// CHECK-NEXT:   %[[FLAG:.*]] = builtin.unrealized_conversion_cast %flag : index to i64
// CHECK-NEXT:   llvm.switch %[[FLAG]] : i64, ^out(%a : i32) [
// CHECK-NEXT:     2: ^[[EDGE:.*]],
// CHECK-NEXT:     3: ^other
// CHECK-NEXT:   ]
// CHECK-NEXT: ^[[EDGE]]:
// CHECK-NEXT:   llvm.br ^out(%b : i32)

// Only a default.
// CHECK-LABEL: func.func @default_only
func.func @default_only(%flag: i8, %a: f32) -> f32 {
  cf.switch %flag : i8, [
    default: ^out
  ]
^out:
  return %a : f32
}
// CHECK-NEXT:   llvm.switch %flag : i8, ^out []
