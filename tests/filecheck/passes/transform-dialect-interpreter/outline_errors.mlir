// What transform.structured.outline refuses: one located error at the
// transform op naming the payload op, the payload unchanged.
// RUN: linalg-ext-opt --split-input-file --verify-diagnostics %s -p transform-dialect-interpreter

// A terminator.
func.func @terminator(%x: f32) -> f32 {
  return %x : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["func.return"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.outline' op cannot outline func.return: it is a terminator (target: func.return at}}
  %f, %c = transform.structured.outline %0 {func_name = "f"} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

// A function (it defines a symbol).
func.func @symbol(%x: f32) -> f32 {
  return %x : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["func.func"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.outline' op cannot outline func.func: it defines a symbol (target: func.func at}}
  %f, %c = transform.structured.outline %0 {func_name = "f"} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

// One target inside another (the op would be outlined twice).
func.func @nested(%x: f32, %y: f32) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %c1 step %c1 iter_args(%a = %x) -> (f32) {
    %s = arith.addf %a, %y : f32
    scf.yield %s : f32
  }
  return %r : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["scf.for", "arith.addf"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.outline' op cannot outline arith.addf: it is inside another target, a scf.for (target: arith.addf at}}
  %f, %c = transform.structured.outline %0 {func_name = "f"} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

// libcall: a function of that name with a body, not a libcall outline
// (ByteIR: the library function must be external).
func.func @exp(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["math.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.outline' op cannot call library @exp: @exp is a function with a body and no linalg_ext.libcall (a library function is a declaration or a libcall outline) (target: math.exp at}}
  %f, %c = transform.structured.outline %0 {func_name = "exp", libcall} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

// libcall: a declaration of another type (ByteIR would emit a call that
// does not verify).
func.func private @lib(f64) -> f64
func.func @wrong_type(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["math.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.outline' op cannot call library @lib: @lib has type (f64) -> f64, the target needs (f32) -> f32 (target: math.exp at}}
  %f, %c = transform.structured.outline %0 {func_name = "lib", libcall} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

// libcall: targets computing different things cannot share one routine.
func.func @different(%x: f32) -> f32 {
  %e = math.exp %x : f32
  %l = math.log %e : f32
  return %l : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["math.exp", "math.log"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.outline' op cannot call library @lib: this math.log computes something else than the first target, a math.exp (target: math.log at}}
  %f, %c = transform.structured.outline %0 {func_name = "lib", libcall} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

func.func @empty_name(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["math.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.outline' op expects a non-empty func_name}}
  %f, %c = transform.structured.outline %0 {func_name = ""} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}

// -----

// libcall: an existing libcall outline computing another op.
func.func private @lib(%x: f32) -> f32 attributes {linalg_ext.libcall} {
  %l = math.log %x : f32
  return %l : f32
}
func.func @other_routine(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}
transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match ops{["math.exp"]} in %root : (!pdl.operation) -> !pdl.operation
  // expected-error @below {{'transform.structured.outline' op cannot call library @lib: @lib computes something else (target: math.exp at}}
  %f, %c = transform.structured.outline %0 {func_name = "lib", libcall} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
}
