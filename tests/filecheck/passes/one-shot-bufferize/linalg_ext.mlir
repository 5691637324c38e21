// linalg_ext ops bufferize as destination-passing ops: result i is the
// buffer of tensor output i, written in place unless that would clobber a
// value read later (then the op gets a new buffer, with a copy of the old
// contents only if the op reads them). Which outputs each op reads: softmax
// and unnorm_softmax their max and accumulator, scan its accumulator,
// scatter its src, batch_matmul its init; diag, topk and layer_norm none.
// linalg_ext.alias on tensors is its operand's buffer. custom's body takes
// the buffers; what it yields is copied into the outputs when it is not
// already there.
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s
// RUN: xdsl-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS

// The running max and sum start from fills of one tensor.empty that is
// also the scale output: four outputs, four buffers.
func.func @softmax(%x: tensor<4x6xf32>) -> (tensor<4x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %lowest = arith.constant -1.0e+30 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x6xf32>
  %s = tensor.empty() : tensor<4xf32>
  %m = linalg.fill ins(%lowest : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %a = linalg.fill ins(%zero : f32) outs(%s : tensor<4xf32>) -> tensor<4xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<4x6xf32>) outs(%e, %m, %a, %s : tensor<4x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<4x6xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @softmax(
// CHECK-NEXT:    %lowest = arith.constant -1.000000e+30 : f32
// CHECK-NEXT:    %zero = arith.constant 0.000000e+00 : f32
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x6xf32>
// CHECK-NEXT:    %[[V1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    %[[V2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%lowest : f32) outs(%[[V2]] : memref<4xf32>)
// CHECK-NEXT:    %[[V3:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.fill ins(%zero : f32) outs(%[[V3]] : memref<4xf32>)
// CHECK-NEXT:    linalg_ext.softmax dimension(1) ins(%x : memref<4x6xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]], %[[V2]], %[[V3]], %[[V1]] : memref<4x6xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>)
// CHECK-NEXT:    func.return %[[V0]], %[[V2]], %[[V3]], %[[V1]] : memref<4x6xf32>, memref<4xf32>, memref<4xf32>, memref<4xf32>
// ANALYSIS-LABEL: func.func @softmax(%x: tensor<4x6xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg.fill{{.*}}__inplace_operands_attr__ = ["none", "false"]
// ANALYSIS:       linalg.fill{{.*}}__inplace_operands_attr__ = ["none", "false"]
// ANALYSIS:       linalg_ext.softmax{{.*}}__inplace_operands_attr__ = ["true", "true", "true", "true", "true"]

// Constants cannot be written: the max and accumulator inits are read, so
// they are copied; the scale init is not read, so it gets a buffer alone.
func.func @softmax_constant_inits(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %m = arith.constant dense<-1.0e+30> : tensor<2xf32>
  %z = arith.constant dense<0.0> : tensor<2xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<2x3xf32>) outs(%e, %m, %z, %z : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<2x3xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @softmax_constant_inits(
// CHECK-NEXT:    %[[V0:.*]] = memref.get_global @{{__constant_2xf32(_[0-9]+)?}} : memref<2xf32>
// CHECK-NEXT:    %[[V1:.*]] = memref.get_global @{{__constant_2xf32(_[0-9]+)?}} : memref<2xf32>
// CHECK-NEXT:    %[[V2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3xf32>
// CHECK-NEXT:    %[[V3:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    memref.copy{{.*}}%[[V0]], %[[V3]]
// CHECK-NEXT:    %[[V4:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    memref.copy{{.*}}%[[V1]], %[[V4]]
// CHECK-NEXT:    %[[V5:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    linalg_ext.softmax dimension(1) ins(%x : memref<2x3xf32, strided<[?, ?], offset: ?>>) outs(%[[V2]], %[[V3]], %[[V4]], %[[V5]] : memref<2x3xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>)
// CHECK-NEXT:    func.return %[[V2]], %[[V3]], %[[V4]], %[[V5]] : memref<2x3xf32>, memref<2xf32>, memref<2xf32>, memref<2xf32>
// ANALYSIS-LABEL: func.func @softmax_constant_inits(%x: tensor<2x3xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.softmax{{.*}}__inplace_operands_attr__ = ["true", "true", "false", "false", "false"]

// All outputs in place on the arguments; the output and scale arguments
// are only written.
func.func @unnorm_softmax_in_place(%x: tensor<3x5xf32>, %o: tensor<3x5xf32>, %m: tensor<5xf32>, %a: tensor<5xf32>, %s: tensor<5xf32>) -> (tensor<3x5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) {
  %r:4 = linalg_ext.unnorm_softmax dimension(0) ins(%x : tensor<3x5xf32>) outs(%o, %m, %a, %s : tensor<3x5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>) : tensor<3x5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
  return %r#0, %r#1, %r#2, %r#3 : tensor<3x5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>
}
// CHECK-LABEL: func.func @unnorm_softmax_in_place(
// CHECK-NEXT:    linalg_ext.unnorm_softmax dimension(0) ins(%x : memref<3x5xf32, strided<[?, ?], offset: ?>>) outs(%o, %m, %a, %s : memref<3x5xf32, strided<[?, ?], offset: ?>>, memref<5xf32, strided<[?], offset: ?>>, memref<5xf32, strided<[?], offset: ?>>, memref<5xf32, strided<[?], offset: ?>>)
// CHECK-NEXT:    func.return %o, %m, %a, %s : memref<3x5xf32, strided<[?, ?], offset: ?>>, memref<5xf32, strided<[?], offset: ?>>, memref<5xf32, strided<[?], offset: ?>>, memref<5xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @unnorm_softmax_in_place(%x: tensor<3x5xf32> {bufferization.access = "read"}, %o: tensor<3x5xf32> {bufferization.access = "write"}, %m: tensor<5xf32> {bufferization.access = "read-write"}, %a: tensor<5xf32> {bufferization.access = "read-write"}, %s: tensor<5xf32> {bufferization.access = "write"})
// ANALYSIS:       linalg_ext.unnorm_softmax{{.*}}__inplace_operands_attr__ = ["true", "true", "true", "true", "true"]

func.func @diag(%v: tensor<2x3xf32>) -> tensor<2x3x3xf32> {
  %e = tensor.empty() : tensor<2x3x3xf32>
  %d = linalg_ext.diag ins(%v : tensor<2x3xf32>) outs(%e : tensor<2x3x3xf32>) : tensor<2x3x3xf32>
  return %d : tensor<2x3x3xf32>
}
// CHECK-LABEL: func.func @diag(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3x3xf32>
// CHECK-NEXT:    linalg_ext.diag ins(%v : memref<2x3xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]] : memref<2x3x3xf32>)
// CHECK-NEXT:    func.return %[[V0]] : memref<2x3x3xf32>

// diag overwrites its whole output: a new buffer, no copy.
func.func @diag_output_read_after(%v: tensor<3xi32>, %o: tensor<3x3xi32>) -> (tensor<3x3xi32>, tensor<3x3xi32>) {
  %d = linalg_ext.diag ins(%v : tensor<3xi32>) outs(%o : tensor<3x3xi32>) : tensor<3x3xi32>
  return %d, %o : tensor<3x3xi32>, tensor<3x3xi32>
}
// CHECK-LABEL: func.func @diag_output_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x3xi32>
// CHECK-NEXT:    linalg_ext.diag ins(%v : memref<3xi32, strided<[?], offset: ?>>) outs(%[[V0]] : memref<3x3xi32>)
// CHECK-NEXT:    func.return %[[V0]], %o : memref<3x3xi32>, memref<3x3xi32, strided<[?, ?], offset: ?>>
// ANALYSIS-LABEL: func.func @diag_output_read_after(%v: tensor<3xi32> {bufferization.access = "read"}, %o: tensor<3x3xi32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.diag{{.*}}__inplace_operands_attr__ = ["true", "false"]

// The carry is read by the scan and returned as it was: copied.
func.func @scan_carry_read_after(%x: tensor<4x5xi32>, %carry: tensor<4xi32>) -> (tensor<4x5xi32>, tensor<4xi32>, tensor<4xi32>) {
  %e = tensor.empty() : tensor<4x5xi32>
  %r:2 = linalg_ext.scan dimension(1) inclusive(true) ins(%x : tensor<4x5xi32>) outs(%e, %carry : tensor<4x5xi32>, tensor<4xi32>) {
  ^bb0(%run: i32, %el: i32):
    %n = arith.addi %run, %el : i32
    linalg_ext.yield %n : i32
  } -> tensor<4x5xi32>, tensor<4xi32>
  return %r#0, %r#1, %carry : tensor<4x5xi32>, tensor<4xi32>, tensor<4xi32>
}
// CHECK-LABEL: func.func @scan_carry_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x5xi32>
// CHECK-NEXT:    %[[V1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xi32>
// CHECK-NEXT:    memref.copy{{.*}}%carry, %[[V1]]
// CHECK-NEXT:    linalg_ext.scan dimension(1) inclusive(true) ins(%x : memref<4x5xi32, strided<[?, ?], offset: ?>>) outs(%[[V0]], %[[V1]] : memref<4x5xi32>, memref<4xi32>) {
// CHECK-NEXT:    ^bb0(%run: i32, %el: i32):
// CHECK-NEXT:      %n = arith.addi %run, %el : i32
// CHECK-NEXT:      linalg_ext.yield %n : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]], %[[V1]], %carry : memref<4x5xi32>, memref<4xi32>, memref<4xi32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @scan_carry_read_after(%x: tensor<4x5xi32> {bufferization.access = "read"}, %carry: tensor<4xi32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.scan{{.*}}__inplace_operands_attr__ = ["true", "true", "false"]

// The output is the input itself: not elementwise, so a new buffer, and no
// copy since the scan does not read its output.
func.func @scan_into_input(%x: tensor<6xf32>, %carry: tensor<f32>) -> (tensor<6xf32>, tensor<f32>) {
  %r:2 = linalg_ext.scan dimension(0) inclusive(false) ins(%x : tensor<6xf32>) outs(%x, %carry : tensor<6xf32>, tensor<f32>) {
  ^bb0(%run: f32, %el: f32):
    %n = arith.addf %run, %el : f32
    linalg_ext.yield %n : f32
  } -> tensor<6xf32>, tensor<f32>
  return %r#0, %r#1 : tensor<6xf32>, tensor<f32>
}
// CHECK-LABEL: func.func @scan_into_input(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<6xf32>
// CHECK-NEXT:    linalg_ext.scan dimension(0) inclusive(false) ins(%x : memref<6xf32, strided<[?], offset: ?>>) outs(%[[V0]], %carry : memref<6xf32>, memref<f32, strided<[], offset: ?>>) {
// CHECK-NEXT:    ^bb0(%run: f32, %el: f32):
// CHECK-NEXT:      %n = arith.addf %run, %el : f32
// CHECK-NEXT:      linalg_ext.yield %n : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]], %carry : memref<6xf32>, memref<f32, strided<[], offset: ?>>
// ANALYSIS-LABEL: func.func @scan_into_input(%x: tensor<6xf32> {bufferization.access = "read"}, %carry: tensor<f32> {bufferization.access = "read-write"})
// ANALYSIS:       linalg_ext.scan{{.*}}__inplace_operands_attr__ = ["true", "false", "true"]

// scatter updates src in place; the constant indices are only read.
func.func @scatter(%src: tensor<8x3xf32>, %upd: tensor<2x3xf32>) -> tensor<8x3xf32> {
  %idx = arith.constant dense<[[1], [6]]> : tensor<2x1xi32>
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<2x1xi32>, tensor<2x3xf32>) outs(%src : tensor<8x3xf32>) {
  ^bb0(%old: f32, %new: f32):
    %s = arith.addf %old, %new : f32
    linalg_ext.yield %s : f32
  } -> tensor<8x3xf32>
  return %r : tensor<8x3xf32>
}
// CHECK-LABEL: func.func @scatter(
// CHECK-NEXT:    %[[V0:.*]] = memref.get_global @{{__constant_2x1xi32(_[0-9]+)?}} : memref<2x1xi32>
// CHECK-NEXT:    linalg_ext.scatter ins(%[[V0]], %upd : memref<2x1xi32>, memref<2x3xf32, strided<[?, ?], offset: ?>>) outs(%src : memref<8x3xf32, strided<[?, ?], offset: ?>>) {
// CHECK-NEXT:    ^bb0(%old: f32, %new: f32):
// CHECK-NEXT:      %s = arith.addf %old, %new : f32
// CHECK-NEXT:      linalg_ext.yield %s : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %src : memref<8x3xf32, strided<[?, ?], offset: ?>>
// ANALYSIS-LABEL: func.func @scatter(%src: tensor<8x3xf32> {bufferization.access = "read-write"}, %upd: tensor<2x3xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.scatter{{.*}}__inplace_operands_attr__ = ["true", "true", "true"]

func.func @scatter_src_read_after(%src: tensor<5xi32>, %upd: tensor<2xi32>) -> (tensor<5xi32>, tensor<5xi32>) {
  %idx = arith.constant dense<[[4], [0]]> : tensor<2x1xindex>
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<2x1xindex>, tensor<2xi32>) outs(%src : tensor<5xi32>) {
  ^bb0(%old: i32, %new: i32):
    linalg_ext.yield %new : i32
  } -> tensor<5xi32>
  return %r, %src : tensor<5xi32>, tensor<5xi32>
}
// CHECK-LABEL: func.func @scatter_src_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.get_global @{{__constant_2x1xindex(_[0-9]+)?}} : memref<2x1xindex>
// CHECK-NEXT:    %[[V1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<5xi32>
// CHECK-NEXT:    memref.copy{{.*}}%src, %[[V1]]
// CHECK-NEXT:    linalg_ext.scatter ins(%[[V0]], %upd : memref<2x1xindex>, memref<2xi32, strided<[?], offset: ?>>) outs(%[[V1]] : memref<5xi32>) {
// CHECK-NEXT:    ^bb0(%old: i32, %new: i32):
// CHECK-NEXT:      linalg_ext.yield %new : i32
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V1]], %src : memref<5xi32>, memref<5xi32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @scatter_src_read_after(%src: tensor<5xi32> {bufferization.access = "read"}, %upd: tensor<2xi32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.scatter{{.*}}__inplace_operands_attr__ = ["true", "true", "false"]

func.func @topk(%v: tensor<3x10xf32>) -> (tensor<3x4xf32>, tensor<3x4xi64>) {
  %ev = tensor.empty() : tensor<3x4xf32>
  %ei = tensor.empty() : tensor<3x4xi64>
  %r:2 = linalg_ext.topk dimension(1) ins(%v : tensor<3x10xf32>) outs(%ev, %ei : tensor<3x4xf32>, tensor<3x4xi64>) {
  ^bb0(%a: f32, %b: f32):
    %c = arith.cmpf ogt, %a, %b : f32
    linalg_ext.yield %c : i1
  } -> tensor<3x4xf32>, tensor<3x4xi64>
  return %r#0, %r#1 : tensor<3x4xf32>, tensor<3x4xi64>
}
// CHECK-LABEL: func.func @topk(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4xf32>
// CHECK-NEXT:    %[[V1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3x4xi64>
// CHECK-NEXT:    linalg_ext.topk dimension(1) ins(%v : memref<3x10xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]], %[[V1]] : memref<3x4xf32>, memref<3x4xi64>) {
// CHECK-NEXT:    ^bb0(%a: f32, %b: f32):
// CHECK-NEXT:      %c = arith.cmpf ogt, %a, %b : f32
// CHECK-NEXT:      linalg_ext.yield %c : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]], %[[V1]] : memref<3x4xf32>, memref<3x4xi64>

// topk overwrites both outputs: new buffers without copies.
func.func @topk_outputs_read_after(%v: tensor<8xi32>, %i: tensor<8xi32>, %ov: tensor<3xi32>, %oi: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>) {
  %r:2 = linalg_ext.topk dimension(0) ins(%v, %i : tensor<8xi32>, tensor<8xi32>) outs(%ov, %oi : tensor<3xi32>, tensor<3xi32>) {
  ^bb0(%a: i32, %b: i32):
    %c = arith.cmpi slt, %a, %b : i32
    linalg_ext.yield %c : i1
  } -> tensor<3xi32>, tensor<3xi32>
  return %r#0, %r#1, %ov, %oi : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<3xi32>
}
// CHECK-LABEL: func.func @topk_outputs_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xi32>
// CHECK-NEXT:    %[[V1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<3xi32>
// CHECK-NEXT:    linalg_ext.topk dimension(0) ins(%v, %i : memref<8xi32, strided<[?], offset: ?>>, memref<8xi32, strided<[?], offset: ?>>) outs(%[[V0]], %[[V1]] : memref<3xi32>, memref<3xi32>) {
// CHECK-NEXT:    ^bb0(%a: i32, %b: i32):
// CHECK-NEXT:      %c = arith.cmpi slt, %a, %b : i32
// CHECK-NEXT:      linalg_ext.yield %c : i1
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]], %[[V1]], %ov, %oi : memref<3xi32>, memref<3xi32>, memref<3xi32, strided<[?], offset: ?>>, memref<3xi32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @topk_outputs_read_after(%v: tensor<8xi32> {bufferization.access = "read"}, %i: tensor<8xi32> {bufferization.access = "read"}, %ov: tensor<3xi32> {bufferization.access = "read"}, %oi: tensor<3xi32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.topk{{.*}}__inplace_operands_attr__ = ["true", "true", "false", "false"]

// mean and rstd from one tensor.empty: the second gets a buffer of its own.
func.func @layer_norm(%x: tensor<2x8xf32>, %w: tensor<8xf32>, %b: tensor<8xf32>) -> (tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>) {
  %e = tensor.empty() : tensor<2x8xf32>
  %s = tensor.empty() : tensor<2xf32>
  %r:3 = linalg_ext.layer_norm axis([1]) epsilon(1.0e-05) ins(%x, %w, %b : tensor<2x8xf32>, tensor<8xf32>, tensor<8xf32>) outs(%e, %s, %s : tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>) : tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>
  return %r#0, %r#1, %r#2 : tensor<2x8xf32>, tensor<2xf32>, tensor<2xf32>
}
// CHECK-LABEL: func.func @layer_norm(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x8xf32>
// CHECK-NEXT:    %[[V1:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    %[[V2:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2xf32>
// CHECK-NEXT:    linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x, %w, %b : memref<2x8xf32, strided<[?, ?], offset: ?>>, memref<8xf32, strided<[?], offset: ?>>, memref<8xf32, strided<[?], offset: ?>>) outs(%[[V0]], %[[V1]], %[[V2]] : memref<2x8xf32>, memref<2xf32>, memref<2xf32>)
// CHECK-NEXT:    func.return %[[V0]], %[[V1]], %[[V2]] : memref<2x8xf32>, memref<2xf32>, memref<2xf32>
// ANALYSIS-LABEL: func.func @layer_norm(%x: tensor<2x8xf32> {bufferization.access = "read"}, %w: tensor<8xf32> {bufferization.access = "read"}, %b: tensor<8xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.layer_norm{{.*}}__inplace_operands_attr__ = ["true", "true", "true", "true", "true", "false"]

func.func @layer_norm_into_input(%x: tensor<4x6xf32>) -> tensor<4x6xf32> {
  %r = linalg_ext.layer_norm axis([0, 1]) epsilon(1.0e-05) ins(%x : tensor<4x6xf32>) outs(%x : tensor<4x6xf32>) : tensor<4x6xf32>
  return %r : tensor<4x6xf32>
}
// CHECK-LABEL: func.func @layer_norm_into_input(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4x6xf32>
// CHECK-NEXT:    linalg_ext.layer_norm axis([0, 1]) epsilon(1.000000e-05) ins(%x : memref<4x6xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]] : memref<4x6xf32>)
// CHECK-NEXT:    func.return %[[V0]] : memref<4x6xf32>
// ANALYSIS-LABEL: func.func @layer_norm_into_input(%x: tensor<4x6xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.layer_norm{{.*}}__inplace_operands_attr__ = ["true", "false"]

// batch_matmul accumulates into its init.
func.func @batch_matmul(%a: tensor<2x3x4xf32>, %b: tensor<2x5x4xf32>, %c: tensor<2x3x5xf32>) -> tensor<2x3x5xf32> {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x5x4xf32>) outs(%c : tensor<2x3x5xf32>) layout = "nt"
  return %r : tensor<2x3x5xf32>
}
// CHECK-LABEL: func.func @batch_matmul(
// CHECK-NEXT:    linalg_ext.batch_matmul ins(%a, %b : memref<2x3x4xf32, strided<[?, ?, ?], offset: ?>>, memref<2x5x4xf32, strided<[?, ?, ?], offset: ?>>) outs(%c : memref<2x3x5xf32, strided<[?, ?, ?], offset: ?>>) layout = "nt"
// CHECK-NEXT:    func.return %c : memref<2x3x5xf32, strided<[?, ?, ?], offset: ?>>
// ANALYSIS-LABEL: func.func @batch_matmul(%a: tensor<2x3x4xf32> {bufferization.access = "read"}, %b: tensor<2x5x4xf32> {bufferization.access = "read"}, %c: tensor<2x3x5xf32> {bufferization.access = "read-write"})
// ANALYSIS:       linalg_ext.batch_matmul{{.*}}__inplace_operands_attr__ = ["true", "true", "true"]

func.func @batch_matmul_init_read_after(%a: tensor<2x4x3xi8>, %b: tensor<2x4x2xi8>, %c: tensor<2x3x2xi32>) -> (tensor<2x3x2xi32>, tensor<2x3x2xi32>) {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x3xi8>, tensor<2x4x2xi8>) outs(%c : tensor<2x3x2xi32>) layout = "tn"
  return %r, %c : tensor<2x3x2xi32>, tensor<2x3x2xi32>
}
// CHECK-LABEL: func.func @batch_matmul_init_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<2x3x2xi32>
// CHECK-NEXT:    memref.copy{{.*}}%c, %[[V0]]
// CHECK-NEXT:    linalg_ext.batch_matmul ins(%a, %b : memref<2x4x3xi8, strided<[?, ?, ?], offset: ?>>, memref<2x4x2xi8, strided<[?, ?, ?], offset: ?>>) outs(%[[V0]] : memref<2x3x2xi32>) layout = "tn"
// CHECK-NEXT:    func.return %[[V0]], %c : memref<2x3x2xi32>, memref<2x3x2xi32, strided<[?, ?, ?], offset: ?>>
// ANALYSIS-LABEL: func.func @batch_matmul_init_read_after(%a: tensor<2x4x3xi8> {bufferization.access = "read"}, %b: tensor<2x4x2xi8> {bufferization.access = "read"}, %c: tensor<2x3x2xi32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.batch_matmul{{.*}}__inplace_operands_attr__ = ["true", "true", "false"]

// On slices of the arguments: every output is written in place through a
// strided subview.
func.func @softmax_slices(%x: tensor<4x6xf32>, %out: tensor<4x6xf32>, %m: tensor<8xf32>, %a: tensor<8xf32>, %sc: tensor<8xf32>) -> (tensor<4x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  %xs = tensor.extract_slice %x[0, 1] [4, 3] [1, 2] : tensor<4x6xf32> to tensor<4x3xf32>
  %os = tensor.extract_slice %out[0, 0] [4, 3] [1, 2] : tensor<4x6xf32> to tensor<4x3xf32>
  %ms = tensor.extract_slice %m[1] [4] [2] : tensor<8xf32> to tensor<4xf32>
  %as = tensor.extract_slice %a[0] [4] [2] : tensor<8xf32> to tensor<4xf32>
  %ss = tensor.extract_slice %sc[4] [4] [1] : tensor<8xf32> to tensor<4xf32>
  %r:4 = linalg_ext.softmax dimension(1) ins(%xs : tensor<4x3xf32>) outs(%os, %ms, %as, %ss : tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) : tensor<4x3xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  %o2 = tensor.insert_slice %r#0 into %out[0, 0] [4, 3] [1, 2] : tensor<4x3xf32> into tensor<4x6xf32>
  %m2 = tensor.insert_slice %r#1 into %m[1] [4] [2] : tensor<4xf32> into tensor<8xf32>
  %a2 = tensor.insert_slice %r#2 into %a[0] [4] [2] : tensor<4xf32> into tensor<8xf32>
  %s2 = tensor.insert_slice %r#3 into %sc[4] [4] [1] : tensor<4xf32> into tensor<8xf32>
  return %o2, %m2, %a2, %s2 : tensor<4x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<8xf32>
}
// CHECK-LABEL: func.func @softmax_slices(
// CHECK-NEXT:    %[[V0:.*]] = memref.subview %x[0, 1] [4, 3] [1, 2] : memref<4x6xf32, strided<[?, ?], offset: ?>> to memref<4x3xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[V1:.*]] = memref.subview %out[0, 0] [4, 3] [1, 2] : memref<4x6xf32, strided<[?, ?], offset: ?>> to memref<4x3xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[V2:.*]] = memref.subview %m[1] [4] [2] : memref<8xf32, strided<[?], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %[[V3:.*]] = memref.subview %a[0] [4] [2] : memref<8xf32, strided<[?], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %[[V4:.*]] = memref.subview %sc[4] [4] [1] : memref<8xf32, strided<[?], offset: ?>> to memref<4xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    linalg_ext.softmax dimension(1) ins(%[[V0]] : memref<4x3xf32, strided<[?, ?], offset: ?>>) outs(%[[V1]], %[[V2]], %[[V3]], %[[V4]] : memref<4x3xf32, strided<[?, ?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>)
// CHECK-NEXT:    func.return %out, %m, %a, %sc : memref<4x6xf32, strided<[?, ?], offset: ?>>, memref<8xf32, strided<[?], offset: ?>>, memref<8xf32, strided<[?], offset: ?>>, memref<8xf32, strided<[?], offset: ?>>

// scatter, layer_norm and batch_matmul on strided subviews, in place.
func.func @scatter_ln_bmm_slices(%src: tensor<10x4xf32>, %upd: tensor<2x2xf32>, %x: tensor<2x8xf32>, %o: tensor<2x8xf32>, %a: tensor<2x3x8xf32>, %b: tensor<2x8x4xf32>, %c: tensor<2x6x4xf32>) -> (tensor<10x4xf32>, tensor<2x8xf32>, tensor<2x6x4xf32>) {
  %idx = arith.constant dense<[[1], [3]]> : tensor<2x1xi32>
  %ss = tensor.extract_slice %src[0, 1] [5, 2] [2, 2] : tensor<10x4xf32> to tensor<5x2xf32>
  %r = linalg_ext.scatter ins(%idx, %upd : tensor<2x1xi32>, tensor<2x2xf32>) outs(%ss : tensor<5x2xf32>) {
  ^bb0(%p: f32, %q: f32):
    %n = arith.addf %p, %q : f32
    linalg_ext.yield %n : f32
  } -> tensor<5x2xf32>
  %src2 = tensor.insert_slice %r into %src[0, 1] [5, 2] [2, 2] : tensor<5x2xf32> into tensor<10x4xf32>
  %xs = tensor.extract_slice %x[0, 0] [2, 4] [1, 2] : tensor<2x8xf32> to tensor<2x4xf32>
  %os = tensor.extract_slice %o[0, 1] [2, 4] [1, 2] : tensor<2x8xf32> to tensor<2x4xf32>
  %l = linalg_ext.layer_norm axis([1]) epsilon(1.0e-05) ins(%xs : tensor<2x4xf32>) outs(%os : tensor<2x4xf32>) : tensor<2x4xf32>
  %o2 = tensor.insert_slice %l into %o[0, 1] [2, 4] [1, 2] : tensor<2x4xf32> into tensor<2x8xf32>
  %as = tensor.extract_slice %a[0, 0, 0] [2, 3, 4] [1, 1, 2] : tensor<2x3x8xf32> to tensor<2x3x4xf32>
  %bs = tensor.extract_slice %b[0, 0, 0] [2, 4, 2] [1, 2, 2] : tensor<2x8x4xf32> to tensor<2x4x2xf32>
  %cs = tensor.extract_slice %c[0, 1, 0] [2, 3, 2] [1, 2, 2] : tensor<2x6x4xf32> to tensor<2x3x2xf32>
  %m = linalg_ext.batch_matmul ins(%as, %bs : tensor<2x3x4xf32>, tensor<2x4x2xf32>) outs(%cs : tensor<2x3x2xf32>) layout = "nn"
  %c2 = tensor.insert_slice %m into %c[0, 1, 0] [2, 3, 2] [1, 2, 2] : tensor<2x3x2xf32> into tensor<2x6x4xf32>
  return %src2, %o2, %c2 : tensor<10x4xf32>, tensor<2x8xf32>, tensor<2x6x4xf32>
}
// CHECK-LABEL: func.func @scatter_ln_bmm_slices(
// CHECK-NEXT:    %[[V0:.*]] = memref.get_global @{{__constant_2x1xi32(_[0-9]+)?}} : memref<2x1xi32>
// CHECK-NEXT:    %[[V1:.*]] = memref.subview %src[0, 1] [5, 2] [2, 2] : memref<10x4xf32, strided<[?, ?], offset: ?>> to memref<5x2xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    linalg_ext.scatter ins(%[[V0]], %upd : memref<2x1xi32>, memref<2x2xf32, strided<[?, ?], offset: ?>>) outs(%[[V1]] : memref<5x2xf32, strided<[?, ?], offset: ?>>) {
// CHECK-NEXT:    ^bb0(%p: f32, %q: f32):
// CHECK-NEXT:      %n = arith.addf %p, %q : f32
// CHECK-NEXT:      linalg_ext.yield %n : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[V2:.*]] = memref.subview %x[0, 0] [2, 4] [1, 2] : memref<2x8xf32, strided<[?, ?], offset: ?>> to memref<2x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[V3:.*]] = memref.subview %o[0, 1] [2, 4] [1, 2] : memref<2x8xf32, strided<[?, ?], offset: ?>> to memref<2x4xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%[[V2]] : memref<2x4xf32, strided<[?, ?], offset: ?>>) outs(%[[V3]] : memref<2x4xf32, strided<[?, ?], offset: ?>>)
// CHECK-NEXT:    %[[V4:.*]] = memref.subview %a[0, 0, 0] [2, 3, 4] [1, 1, 2] : memref<2x3x8xf32, strided<[?, ?, ?], offset: ?>> to memref<2x3x4xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:    %[[V5:.*]] = memref.subview %b[0, 0, 0] [2, 4, 2] [1, 2, 2] : memref<2x8x4xf32, strided<[?, ?, ?], offset: ?>> to memref<2x4x2xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:    %[[V6:.*]] = memref.subview %c[0, 1, 0] [2, 3, 2] [1, 2, 2] : memref<2x6x4xf32, strided<[?, ?, ?], offset: ?>> to memref<2x3x2xf32, strided<[?, ?, ?], offset: ?>>
// CHECK-NEXT:    linalg_ext.batch_matmul ins(%[[V4]], %[[V5]] : memref<2x3x4xf32, strided<[?, ?, ?], offset: ?>>, memref<2x4x2xf32, strided<[?, ?, ?], offset: ?>>) outs(%[[V6]] : memref<2x3x2xf32, strided<[?, ?, ?], offset: ?>>) layout = "nn"
// CHECK-NEXT:    func.return %src, %o, %c : memref<10x4xf32, strided<[?, ?], offset: ?>>, memref<2x8xf32, strided<[?, ?], offset: ?>>, memref<2x6x4xf32, strided<[?, ?, ?], offset: ?>>

// Dynamic extents: the new buffers take the tensor.empty sizes.
func.func @dynamic(%x: tensor<?x?xf32>, %v: tensor<?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %k = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%n, %k) : tensor<?x?xf32>
  %l = linalg_ext.layer_norm axis([1]) epsilon(1.0e-05) ins(%x : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) : tensor<?x?xf32>
  %m = tensor.dim %v, %c0 : tensor<?xf32>
  %e2 = tensor.empty(%m, %m) : tensor<?x?xf32>
  %d = linalg_ext.diag ins(%v : tensor<?xf32>) outs(%e2 : tensor<?x?xf32>) : tensor<?x?xf32>
  return %l, %d : tensor<?x?xf32>, tensor<?x?xf32>
}
// CHECK-LABEL: func.func @dynamic(
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %n = memref.dim %x, %c0 : memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %k = memref.dim %x, %c1 : memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc(%n, %k) {alignment = 64 : i64, rtcheck.origin = "tensor.empty"} : memref<?x?xf32>
// CHECK-NEXT:    linalg_ext.layer_norm axis([1]) epsilon(1.000000e-05) ins(%x : memref<?x?xf32, strided<[?, ?], offset: ?>>) outs(%[[V0]] : memref<?x?xf32>)
// CHECK-NEXT:    %m = memref.dim %v, %c0 : memref<?xf32, strided<[?], offset: ?>>
// CHECK-NEXT:    %[[V1:.*]] = memref.alloc(%m, %m) {alignment = 64 : i64, rtcheck.origin = "tensor.empty"} : memref<?x?xf32>
// CHECK-NEXT:    linalg_ext.diag ins(%v : memref<?xf32, strided<[?], offset: ?>>) outs(%[[V1]] : memref<?x?xf32>)
// CHECK-NEXT:    func.return %[[V0]], %[[V1]] : memref<?x?xf32>, memref<?x?xf32>

// alias is the very same buffer: the add reads %x twice.
func.func @alias(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = linalg_ext.alias(%x : tensor<4xf32>) : tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg.add ins(%a, %x : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @alias(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg.add ins(%x, %x : memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) outs(%[[V0]] : memref<4xf32>)
// CHECK-NEXT:    func.return %[[V0]] : memref<4xf32>

// Writing the alias writes the argument.
func.func @alias_written(%x: tensor<4xf32>) -> tensor<4xf32> {
  %a = linalg_ext.alias(%x : tensor<4xf32>) : tensor<4xf32>
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @alias_written(
// CHECK-NEXT:    linalg.exp ins(%x : memref<4xf32, strided<[?], offset: ?>>) outs(%x : memref<4xf32, strided<[?], offset: ?>>)
// CHECK-NEXT:    func.return %x : memref<4xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @alias_written(%x: tensor<4xf32> {bufferization.access = "read-write"})
// ANALYSIS:       linalg_ext.alias{{.*}}__inplace_operands_attr__ = ["true"]
// ANALYSIS:       linalg.exp{{.*}}__inplace_operands_attr__ = ["true", "true"]

// The argument is read afterwards: the alias takes a copy.
func.func @alias_written_read_after(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %a = linalg_ext.alias(%x : tensor<4xf32>) : tensor<4xf32>
  %r = linalg.exp ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) -> tensor<4xf32>
  return %r, %x : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @alias_written_read_after(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    memref.copy{{.*}}%x, %[[V0]]
// CHECK-NEXT:    linalg.exp ins(%[[V0]] : memref<4xf32>) outs(%[[V0]] : memref<4xf32>)
// CHECK-NEXT:    func.return %[[V0]], %x : memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @alias_written_read_after(%x: tensor<4xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.alias{{.*}}__inplace_operands_attr__ = ["false"]
// ANALYSIS:       linalg.exp{{.*}}__inplace_operands_attr__ = ["true", "true"]

// A scalar alias has nothing to bufferize.
func.func @alias_scalar(%v: f32, %x: tensor<4xf32>) -> tensor<4xf32> {
  %a = linalg_ext.alias(%v : f32) : f32
  %r = linalg.fill ins(%a : f32) outs(%x : tensor<4xf32>) -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @alias_scalar(
// CHECK-NEXT:    %a = linalg_ext.alias(%v : f32) : f32
// CHECK-NEXT:    linalg.fill ins(%a : f32) outs(%x : memref<4xf32, strided<[?], offset: ?>>)
// CHECK-NEXT:    func.return %x : memref<4xf32, strided<[?], offset: ?>>

// The body's arguments are the operands' buffers; the add writes the output
// in place and yields it, so nothing is copied.
func.func @custom(%x: tensor<4xf32>, %y: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4xf32>
  %r = linalg_ext.custom ins(%x, %y : tensor<4xf32>, tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>, %o: tensor<4xf32>):
    %s = linalg.add ins(%a, %b : tensor<4xf32>, tensor<4xf32>) outs(%o : tensor<4xf32>) -> tensor<4xf32>
    linalg_ext.yield %s : tensor<4xf32>
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @custom(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg_ext.custom ins(%x, %y : memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) outs(%[[V0]] : memref<4xf32>) {
// CHECK-NEXT:    ^bb0(%a: memref<4xf32, strided<[?], offset: ?>>, %b: memref<4xf32, strided<[?], offset: ?>>, %o: memref<4xf32>):
// CHECK-NEXT:      linalg.add ins(%a, %b : memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) outs(%o : memref<4xf32>)
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]] : memref<4xf32>
// ANALYSIS-LABEL: func.func @custom(%x: tensor<4xf32> {bufferization.access = "read"}, %y: tensor<4xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.custom{{.*}}__inplace_operands_attr__ = ["true", "true", "true"]
// ANALYSIS:       linalg.add{{.*}}__inplace_operands_attr__ = ["true", "true", "true"]
// ANALYSIS:       linalg_ext.yield{{.*}}__inplace_operands_attr__ = ["true"]

// The yielded value is an input: copied into the output buffer.
func.func @custom_yield_input(%x: tensor<4xf32>, %o: tensor<4xf32>) -> tensor<4xf32> {
  %r = linalg_ext.custom ins(%x : tensor<4xf32>) outs(%o : tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    linalg_ext.yield %a : tensor<4xf32>
  } -> tensor<4xf32>
  return %r : tensor<4xf32>
}
// CHECK-LABEL: func.func @custom_yield_input(
// CHECK-NEXT:    linalg_ext.custom ins(%x : memref<4xf32, strided<[?], offset: ?>>) outs(%o : memref<4xf32, strided<[?], offset: ?>>) {
// CHECK-NEXT:    ^bb0(%a: memref<4xf32, strided<[?], offset: ?>>, %b: memref<4xf32, strided<[?], offset: ?>>):
// CHECK-NEXT:      memref.copy{{.*}}%a, %b
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %o : memref<4xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @custom_yield_input(%x: tensor<4xf32> {bufferization.access = "read"}, %o: tensor<4xf32> {bufferization.access = "write"})
// ANALYSIS:       linalg_ext.custom{{.*}}__inplace_operands_attr__ = ["true", "true"]
// ANALYSIS:       linalg_ext.yield{{.*}}__inplace_operands_attr__ = ["true"]

// Input and output are one tensor: the output gets a new buffer, without a
// copy since the body does not read the output's old contents.
func.func @custom_same_in_out(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %r = linalg_ext.custom ins(%x : tensor<4xf32>) outs(%x : tensor<4xf32>) {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
    %f = linalg.exp ins(%a : tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
    %g = linalg.add ins(%f, %a : tensor<4xf32>, tensor<4xf32>) outs(%b : tensor<4xf32>) -> tensor<4xf32>
    linalg_ext.yield %g : tensor<4xf32>
  } -> tensor<4xf32>
  return %r, %x : tensor<4xf32>, tensor<4xf32>
}
// CHECK-LABEL: func.func @custom_same_in_out(
// CHECK-NEXT:    %[[V0:.*]] = memref.alloc() {alignment = 64 : i64} : memref<4xf32>
// CHECK-NEXT:    linalg_ext.custom ins(%x : memref<4xf32, strided<[?], offset: ?>>) outs(%[[V0]] : memref<4xf32>) {
// CHECK-NEXT:    ^bb0(%a: memref<4xf32, strided<[?], offset: ?>>, %b: memref<4xf32>):
// CHECK-NEXT:      linalg.exp ins(%a : memref<4xf32, strided<[?], offset: ?>>) outs(%b : memref<4xf32>)
// CHECK-NEXT:      linalg.add ins(%b, %a : memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>) outs(%b : memref<4xf32>)
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[V0]], %x : memref<4xf32>, memref<4xf32, strided<[?], offset: ?>>
// ANALYSIS-LABEL: func.func @custom_same_in_out(%x: tensor<4xf32> {bufferization.access = "read"})
// ANALYSIS:       linalg_ext.custom{{.*}}__inplace_operands_attr__ = ["true", "false"]
// ANALYSIS:       linalg.exp{{.*}}__inplace_operands_attr__ = ["true", "true"]
// ANALYSIS:       linalg.add{{.*}}__inplace_operands_attr__ = ["true", "true", "true"]
// ANALYSIS:       linalg_ext.yield{{.*}}__inplace_operands_attr__ = ["true"]
