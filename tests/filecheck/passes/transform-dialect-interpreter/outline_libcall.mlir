// transform.structured.outline {libcall}: every target calls the one
// function named func_name (never renamed), the library routine. ByteIR
// makes it a declaration, which cannot run until linked; here it keeps the
// op as its reference body and carries `linalg_ext.libcall`, so the output
// runs. Targets computing the same op share it (checked: the
// `functions` handle holds it once, the `calls` handle both calls).
// RUN: linalg-ext-opt %s -p 'transform-dialect-interpreter{erase-after=true}' | filecheck %s

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func private @relu(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3xf32>, %[[E:.*]]: tensor<2x3xf32>, %[[Z:.*]]: f32) -> tensor<2x3xf32>
// CHECK-SAME:      attributes {linalg_ext.libcall, __function__} {
// CHECK-NEXT:    %[[R:.*]] = linalg.generic
// CHECK:           arith.maximumf %{{.*}}, %[[Z]] : f32
// CHECK:         func.return %[[R]] : tensor<2x3xf32>
// CHECK-NOT:   func.func private @relu
// CHECK-LABEL: func.func @first(
// CHECK-SAME:      %[[X:.*]]: tensor<2x3xf32>)
// CHECK:         %[[Z:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK-NEXT:    %[[R:.*]] = func.call @relu(%[[X]], %[[E]], %[[Z]]) {__call__} : (tensor<2x3xf32>, tensor<2x3xf32>, f32) -> tensor<2x3xf32>
// CHECK-LABEL: func.func @second(
// CHECK-SAME:      %[[Y:.*]]: tensor<2x3xf32>, %[[O:.*]]: tensor<2x3xf32>)
// CHECK:         %[[R:.*]] = func.call @relu(%[[Y]], %[[O]], %{{.*}}) {__call__}
// CHECK:         func.return %[[R]]
func.func @first(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) attrs = {__relu__} {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

// The same op on other values (its init a function argument).
func.func @second(%y: tensor<2x3xf32>, %o: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %zero = arith.constant 0.0 : f32
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<2x3xf32>) outs(%o : tensor<2x3xf32>) attrs = {__relu__} {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<2x3xf32>
  return %r : tensor<2x3xf32>
}

transform.sequence failures(propagate) {
^bb0(%root: !pdl.operation):
  %0 = transform.structured.match attributes {__relu__} in %root : (!pdl.operation) -> !pdl.operation
  %funcs, %calls = transform.structured.outline %0 {func_name = "relu", libcall} : (!pdl.operation) -> (!pdl.operation, !pdl.operation)
  transform.annotate_ext %funcs {__function__}
  transform.annotate_ext %calls {__call__}
}
