// What transform.structured.inline refuses: one located error at the
// transform op naming the call, the payload unchanged.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

// Not a call.
func.func @not_a_call(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["math.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.inline' op expects func.call targets, not math.exp (target: math.exp at}}
  transform.structured.inline %0
}

// -----

// A declaration: no body to inline.
func.func private @external(f32) -> f32
func.func @declaration(%x: f32) -> f32 {
  %r = func.call @external(%x) : (f32) -> f32
  return %r : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["func.call"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.inline' op cannot inline @external: it is a declaration (no body) (target: func.call at}}
  transform.structured.inline %0
}

// -----

// Recursion, through another function.
func.func @even(%n: i32) -> i1 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %zero -> (i1) {
    %t = arith.constant true
    scf.yield %t : i1
  } else {
    %m = arith.subi %n, %c1 : i32
    %o = func.call @odd(%m) : (i32) -> i1
    scf.yield %o : i1
  }
  return %r : i1
}
func.func @odd(%n: i32) -> i1 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.cmpi eq, %n, %c0 : i32
  %r = scf.if %zero -> (i1) {
    %f = arith.constant false
    scf.yield %f : i1
  } else {
    %m = arith.subi %n, %c1 : i32
    %e = func.call @even(%m) {__inline__} : (i32) -> i1
    scf.yield %e : i1
  }
  return %r : i1
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match attributes {__inline__} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.inline' op cannot inline @even: it is recursive (target: func.call at}}
  transform.structured.inline %0
}

