// transform.structured.detensorize (ByteIR's op, script form): a Linalg op
// without loops, on 0-d tensors and scalars, becomes its body on the
// elements: tensor.extract of what the body reads, the body's ops,
// tensor.from_elements of what it yields (upstream's linalg-detensorize
// form; upstream's pass takes linalg.generic only, this op named ops too).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

// ByteIR's test, with the named ops of our Linalg: exp, then add.
// CHECK-LABEL: func.func @elementwise(
// CHECK-SAME:      %[[A:.*]]: tensor<f32>, %[[B:.*]]: tensor<f32>)
// CHECK-NEXT:    %[[EA:.*]] = tensor.extract %[[A]][] : tensor<f32>
// CHECK-NEXT:    %[[EXP:.*]] = math.exp %[[EA]] : f32
// CHECK-NEXT:    %[[X:.*]] = tensor.from_elements %[[EXP]] : tensor<f32>
// CHECK-NEXT:    %[[EX:.*]] = tensor.extract %[[X]][] : tensor<f32>
// CHECK-NEXT:    %[[EB:.*]] = tensor.extract %[[B]][] : tensor<f32>
// CHECK-NEXT:    %[[SUM:.*]] = arith.addf %[[EX]], %[[EB]] : f32
// CHECK-NEXT:    %[[Y:.*]] = tensor.from_elements %[[SUM]] : tensor<f32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<f32>
func.func @elementwise(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %x = linalg.exp ins(%a : tensor<f32>) outs(%b : tensor<f32>) -> tensor<f32>
  %y = linalg.add ins(%x, %b : tensor<f32>, tensor<f32>) outs(%b : tensor<f32>) -> tensor<f32>
  return %y : tensor<f32>
}

// A generic with two results that reads its first init (an accumulation)
// and a scalar input; the second init is not read, so not extracted.
// CHECK-LABEL: func.func @generic(
// CHECK-SAME:      %[[A:.*]]: tensor<f32>, %[[S:.*]]: f32, %[[ACC:.*]]: tensor<f32>, %[[O:.*]]: tensor<i32>)
// CHECK-NEXT:    %[[EA:.*]] = tensor.extract %[[A]][] : tensor<f32>
// CHECK-NEXT:    %[[EACC:.*]] = tensor.extract %[[ACC]][] : tensor<f32>
// CHECK-NEXT:    %[[M:.*]] = arith.mulf %[[EA]], %[[S]] : f32
// CHECK-NEXT:    %[[N:.*]] = arith.addf %[[M]], %[[EACC]] : f32
// CHECK-NEXT:    %[[I:.*]] = arith.fptosi %[[N]] : f32 to i32
// CHECK-NEXT:    %[[R0:.*]] = tensor.from_elements %[[N]] : tensor<f32>
// CHECK-NEXT:    %[[R1:.*]] = tensor.from_elements %[[I]] : tensor<i32>
// CHECK-NEXT:    func.return %[[R0]], %[[R1]] : tensor<f32>, tensor<i32>
#s = affine_map<() -> ()>
func.func @generic(%a: tensor<f32>, %s: f32, %acc: tensor<f32>, %o: tensor<i32>) -> (tensor<f32>, tensor<i32>) {
  %r:2 = linalg.generic {indexing_maps = [#s, #s, #s, #s], iterator_types = []}
      ins(%a, %s : tensor<f32>, f32) outs(%acc, %o : tensor<f32>, tensor<i32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %w: i32):
    %m = arith.mulf %x, %y : f32
    %n = arith.addf %m, %z : f32
    %i = arith.fptosi %n : f32 to i32
    linalg.yield %n, %i : f32, i32
  } -> (tensor<f32>, tensor<i32>)
  return %r#0, %r#1 : tensor<f32>, tensor<i32>
}

// A fill: its value is the element.
// CHECK-LABEL: func.func @fill(
// CHECK-SAME:      %[[V:.*]]: f32)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<f32>
// CHECK-NEXT:    %[[F:.*]] = tensor.from_elements %[[V]] : tensor<f32>
// CHECK-NEXT:    func.return %[[F]] : tensor<f32>
func.func @fill(%v: f32) -> tensor<f32> {
  %e = tensor.empty() : tensor<f32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<f32>) -> tensor<f32>
  return %f : tensor<f32>
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match interface{LinalgOp} in %root : (!pdl.operation) -> !pdl.operation
  transform.structured.detensorize %0
}
