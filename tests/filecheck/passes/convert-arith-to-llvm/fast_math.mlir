// The `fast-math` option: flags added to the float ops' own. `contract` and
// `reassoc` reach addf/subf/mulf only (what a fused multiply-add or a
// reordered sum is made of); `arcp` adds `arcp` to divf only (x / y may be
// x * (1 / y)); `fast` sets all seven flags on every float op.
// Flags written in the input are kept in every mode.
// RUN: xdsl-opt %s -p convert-arith-to-llvm | filecheck %s --check-prefix=NONE
// RUN: xdsl-opt %s -p 'convert-arith-to-llvm{fast-math=none}' | filecheck %s --check-prefix=NONE
// RUN: xdsl-opt %s -p 'convert-arith-to-llvm{fast-math=contract}' | filecheck %s --check-prefix=CONTRACT
// RUN: xdsl-opt %s -p 'convert-arith-to-llvm{fast-math=reassoc}' | filecheck %s --check-prefix=REASSOC
// RUN: xdsl-opt %s -p 'convert-arith-to-llvm{fast-math=arcp}' | filecheck %s --check-prefix=ARCP
// RUN: xdsl-opt %s -p 'convert-arith-to-llvm{fast-math=fast}' | filecheck %s --check-prefix=FAST

func.func @axpy_ratio(%a: f32, %x: f32, %y: f32) -> f32 {
  %p = arith.mulf %a, %x : f32
  %s = arith.addf %p, %y : f32
  %d = arith.subf %s, %y fastmath<nsz> : f32
  %q = arith.divf %d, %a : f32
  %m = arith.maximumf %q, %x : f32
  %n = arith.negf %m : f32
  return %n : f32
}
// NONE:      %p = llvm.fmul %a, %x : f32
// NONE-NEXT: %s = llvm.fadd %p, %y : f32
// NONE-NEXT: %d = llvm.fsub %s, %y {fastmathFlags = #llvm.fastmath<nsz>} : f32
// NONE-NEXT: %q = llvm.fdiv %d, %a : f32
// NONE-NEXT: %m = llvm.intr.maximum(%q, %x) : (f32, f32) -> f32
// NONE-NEXT: %n = llvm.fneg %m : f32

// CONTRACT:      %p = llvm.fmul %a, %x {fastmathFlags = #llvm.fastmath<contract>} : f32
// CONTRACT-NEXT: %s = llvm.fadd %p, %y {fastmathFlags = #llvm.fastmath<contract>} : f32
// CONTRACT-NEXT: %d = llvm.fsub %s, %y {fastmathFlags = #llvm.fastmath<nsz,contract>} : f32
// CONTRACT-NEXT: %q = llvm.fdiv %d, %a : f32
// CONTRACT-NEXT: %m = llvm.intr.maximum(%q, %x) : (f32, f32) -> f32
// CONTRACT-NEXT: %n = llvm.fneg %m : f32

// REASSOC:      %p = llvm.fmul %a, %x {fastmathFlags = #llvm.fastmath<reassoc,contract>} : f32
// REASSOC-NEXT: %s = llvm.fadd %p, %y {fastmathFlags = #llvm.fastmath<reassoc,contract>} : f32
// REASSOC-NEXT: %d = llvm.fsub %s, %y {fastmathFlags = #llvm.fastmath<reassoc,nsz,contract>} : f32
// REASSOC-NEXT: %q = llvm.fdiv %d, %a : f32
// REASSOC-NEXT: %m = llvm.intr.maximum(%q, %x) : (f32, f32) -> f32
// REASSOC-NEXT: %n = llvm.fneg %m : f32

// ARCP:      %p = llvm.fmul %a, %x {fastmathFlags = #llvm.fastmath<reassoc,contract>} : f32
// ARCP-NEXT: %s = llvm.fadd %p, %y {fastmathFlags = #llvm.fastmath<reassoc,contract>} : f32
// ARCP-NEXT: %d = llvm.fsub %s, %y {fastmathFlags = #llvm.fastmath<reassoc,nsz,contract>} : f32
// ARCP-NEXT: %q = llvm.fdiv %d, %a {fastmathFlags = #llvm.fastmath<arcp>} : f32
// ARCP-NEXT: %m = llvm.intr.maximum(%q, %x) : (f32, f32) -> f32
// ARCP-NEXT: %n = llvm.fneg %m : f32

// FAST:      %p = llvm.fmul %a, %x {fastmathFlags = #llvm.fastmath<fast>} : f32
// FAST-NEXT: %s = llvm.fadd %p, %y {fastmathFlags = #llvm.fastmath<fast>} : f32
// FAST-NEXT: %d = llvm.fsub %s, %y {fastmathFlags = #llvm.fastmath<fast>} : f32
// FAST-NEXT: %q = llvm.fdiv %d, %a {fastmathFlags = #llvm.fastmath<fast>} : f32
// FAST-NEXT: %m = llvm.intr.maximum(%q, %x) {fastmathFlags = #llvm.fastmath<fast>} : (f32, f32) -> f32
// FAST-NEXT: %n = llvm.fneg %m {fastmathFlags = #llvm.fastmath<fast>} : f32
