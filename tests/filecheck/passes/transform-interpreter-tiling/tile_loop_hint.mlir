// transform.structured.tile_loop_hint: `__byteir_parallel__` on the loops
// around a tiled op that walk only parallel dimensions of what the innermost
// loop computes. A matmul tiled along k (outermost, by the interchange), n
// and m: the k loop is not parallel, the two others are. A softmax tiled
// along its rows: parallel. A row sum tiled along its rows and along the
// summed columns: the row loop is parallel, the column loop is not.
// RUN: linalg-ext-opt %s -p transform-interpreter,test-transform-dialect-erase-schedule | filecheck %s

module attributes {transform.with_named_sequence} {
  // CHECK-LABEL: func.func @matmul
  func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x12xf32>, %c: tensor<8x12xf32>) -> tensor<8x12xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x12xf32>) outs(%c : tensor<8x12xf32>) -> tensor<8x12xf32>
    return %r : tensor<8x12xf32>
  }
  // CHECK:      scf.for %[[K:[0-9]+]] =
  // CHECK-NEXT:   scf.for %[[N:[0-9]+]] =
  // CHECK-NEXT:     scf.for %[[M:[0-9]+]] =
  // CHECK:            tensor.extract_slice %a[%[[M]], %[[K]]]
  // CHECK:            linalg.matmul
  // CHECK:            scf.yield
  // CHECK-NEXT:     } {__byteir_parallel__}
  // CHECK-NEXT:     scf.yield
  // CHECK-NEXT:   } {__byteir_parallel__}
  // CHECK-NEXT:   scf.yield
  // CHECK-NEXT: }{{$}}
  // CHECK-NEXT: func.return

  // CHECK-LABEL: func.func @softmax_rows
  func.func @softmax_rows(%x: tensor<6x8xf32>, %max: tensor<6xf32>, %acc: tensor<6xf32>) -> tensor<6x8xf32> {
    %out = tensor.empty() : tensor<6x8xf32>
    %scale = tensor.empty() : tensor<6xf32>
    %r:4 = linalg_ext.softmax dimension(1) ins(%x : tensor<6x8xf32>)
        outs(%out, %max, %acc, %scale : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>)
        : tensor<6x8xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
    return %r#0 : tensor<6x8xf32>
  }
  // CHECK:      scf.for
  // CHECK:        linalg_ext.softmax dimension(1)
  // CHECK:        scf.yield
  // CHECK-NEXT: } {__byteir_parallel__}

  // CHECK-LABEL: func.func @row_sum
  func.func @row_sum(%x: tensor<6x8xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
    %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
        ins(%x : tensor<6x8xf32>) outs(%init : tensor<6xf32>) {
    ^bb0(%v: f32, %s: f32):
      %t = arith.addf %v, %s : f32
      linalg.yield %t : f32
    } -> tensor<6xf32>
    return %r : tensor<6xf32>
  }
  // CHECK:      scf.for %[[I:[0-9]+]] =
  // CHECK-NEXT:   scf.for %[[J:[0-9]+]] =
  // CHECK:          tensor.extract_slice %x[%[[I]], %[[J]]]
  // CHECK:          linalg.generic
  // CHECK:          scf.yield
  // CHECK-NEXT:   }{{$}}
  // CHECK-NEXT:   scf.yield
  // CHECK-NEXT: } {__byteir_parallel__}

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %t0, %l0:3 = transform.structured.tile_using_for %mm tile_sizes [2, 4, 8] interchange = [2, 1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.tile_loop_hint %t0 : !transform.any_op
    %sm = transform.structured.match ops{["linalg_ext.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %t1, %l1 = transform.structured.tile_using_for %sm tile_sizes [2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.tile_loop_hint %t1 : !transform.any_op
    %sum = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %t2, %l2:2 = transform.structured.tile_using_for %sum tile_sizes [3, 4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.tile_loop_hint %t2 : !transform.any_op
    transform.yield
  }
}
