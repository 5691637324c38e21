// Named linalg ops and linalg.map, each tiled alone and with its producer
// computed tile by tile inside the loops. Every op is 6x7 and tiled 4x3:
// neither size divides its extent, so both loops clamp the last tile with
// affine.min. The transpose reads (and its fused producer computes) the
// transposed tile; the broadcast's producer is tiled along the kept dimension
// only. With `interchange=1,0` the column loop is outermost.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,3}' | filecheck %s
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,3 interchange=1,0}' | filecheck %s --check-prefix=SWAP

#id = affine_map<(d0, d1) -> (d0, d1)>

// CHECK-LABEL: func.func @add_alone
func.func @add_alone(%x: tensor<6x7xf32>, %y: tensor<6x7xf32>) -> tensor<6x7xf32> {
  %e = tensor.empty() : tensor<6x7xf32>
  %r = linalg.add ins(%x, %y : tensor<6x7xf32>, tensor<6x7xf32>) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
// CHECK:          %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %e) -> (tensor<6x7xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<6x7xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[I]])
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 3)> (%[[J]])
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<6x7xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[Y:.*]] = tensor.extract_slice %y[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<6x7xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<6x7xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.add ins(%[[X]], %[[Y]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[U:.*]] = tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<6x7xf32>
// CHECK-NEXT:         scf.yield %[[U]] : tensor<6x7xf32>

// CHECK-LABEL: func.func @exp_of_add
func.func @exp_of_add(%x: tensor<6x7xf32>, %y: tensor<6x7xf32>) -> tensor<6x7xf32> {
  %e = tensor.empty() : tensor<6x7xf32>
  %s = linalg.add ins(%x, %y : tensor<6x7xf32>, tensor<6x7xf32>) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
  %r = linalg.exp ins(%s : tensor<6x7xf32>) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
// CHECK-NOT:      linalg.add
// CHECK:          %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %e) -> (tensor<6x7xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<6x7xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min
// CHECK-NEXT:         %[[SJ:.*]] = affine.min
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[Y:.*]] = tensor.extract_slice %y[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SI]], %[[SJ]])
// CHECK-NEXT:         %[[S:.*]] = linalg.add ins(%[[X]], %[[Y]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[T:.*]] = linalg.exp ins(%[[S]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<6x7xf32>

// CHECK-LABEL: func.func @map_of_generic
func.func @map_of_generic(%x: tensor<6x7xf32>, %y: tensor<6x7xf32>) -> tensor<6x7xf32> {
  %e = tensor.empty() : tensor<6x7xf32>
  %n = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<6x7xf32>) outs(%e : tensor<6x7xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v = arith.negf %a : f32
    linalg.yield %v : f32
  } -> tensor<6x7xf32>
  %r = linalg.map ins(%n, %y : tensor<6x7xf32>, tensor<6x7xf32>) outs(%e : tensor<6x7xf32>)
    (%a: f32, %b: f32, %unused: f32) {
      %m = arith.mulf %a, %b : f32
      linalg.yield %m : f32
    }
  return %r : tensor<6x7xf32>
}
// CHECK-NOT:      linalg.generic
// CHECK:          %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %e) -> (tensor<6x7xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<6x7xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min
// CHECK-NEXT:         %[[SJ:.*]] = affine.min
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SI]], %[[SJ]])
// CHECK-NEXT:         %[[N:.*]] = linalg.generic {{.*}} ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) {
// CHECK:              arith.negf
// CHECK:            } -> tensor<?x?xf32>
// CHECK-NEXT:         %[[Y:.*]] = tensor.extract_slice %y[%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[T:.*]] = linalg.map { arith.mulf } ins(%[[N]], %[[Y]] : tensor<?x?xf32>, tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>)
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]

// The fill is the copy's input (not its destination): fused, it fills the
// tile of its own init: a tensor.empty of the tile's shape.
// CHECK-LABEL: func.func @copy_of_fill
func.func @copy_of_fill(%v: f32) -> tensor<6x7xf32> {
  %e = tensor.empty() : tensor<6x7xf32>
  %f = linalg.fill ins(%v : f32) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
  %o = tensor.empty() : tensor<6x7xf32>
  %r = linalg.copy ins(%f : tensor<6x7xf32>) outs(%o : tensor<6x7xf32>) -> tensor<6x7xf32>
  return %r : tensor<6x7xf32>
}
// CHECK-NOT:      linalg.fill
// CHECK:          %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %o) -> (tensor<6x7xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<6x7xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min
// CHECK-NEXT:         %[[SJ:.*]] = affine.min
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SI]], %[[SJ]])
// CHECK-NEXT:         %[[F:.*]] = linalg.fill ins(%v : f32) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]
// CHECK-NEXT:         %[[T:.*]] = linalg.copy ins(%[[F]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1]

// CHECK-LABEL: func.func @transpose_of_exp
// SWAP-LABEL: func.func @transpose_of_exp
func.func @transpose_of_exp(%x: tensor<7x6xf32>) -> tensor<6x7xf32> {
  %e = tensor.empty() : tensor<7x6xf32>
  %x2 = linalg.exp ins(%x : tensor<7x6xf32>) outs(%e : tensor<7x6xf32>) -> tensor<7x6xf32>
  %o = tensor.empty() : tensor<6x7xf32>
  %r = linalg.transpose ins(%x2 : tensor<7x6xf32>) outs(%o : tensor<6x7xf32>) permutation = [1, 0]
  return %r : tensor<6x7xf32>
}
// CHECK-NOT:      linalg.exp
// CHECK:          %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %o) -> (tensor<6x7xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<6x7xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[I]])
// CHECK-NEXT:         %[[SJ:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 3)> (%[[J]])
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[J]], %[[I]]] [%[[SJ]], %[[SI]]] [1, 1] : tensor<7x6xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SJ]], %[[SI]]) : tensor<?x?xf32>
// CHECK-NEXT:         %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<6x7xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.transpose ins(%[[EXP]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) permutation = [1, 0]
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<6x7xf32>
// SWAP-NOT:       linalg.exp
// SWAP:           %r = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_J:.*]] = %o) -> (tensor<6x7xf32>) {
// SWAP-NEXT:        scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_J]]) -> (tensor<6x7xf32>) {
// SWAP-NEXT:          %[[SJ:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 3)> (%[[J]])
// SWAP-NEXT:          %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[I]])
// SWAP-NEXT:          %[[X:.*]] = tensor.extract_slice %x[%[[J]], %[[I]]] [%[[SJ]], %[[SI]]] [1, 1] : tensor<7x6xf32> to tensor<?x?xf32>
// SWAP-NEXT:          %[[E:.*]] = tensor.empty(%[[SJ]], %[[SI]]) : tensor<?x?xf32>
// SWAP-NEXT:          %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// SWAP-NEXT:          %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<6x7xf32> to tensor<?x?xf32>
// SWAP-NEXT:          linalg.transpose ins(%[[EXP]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?x?xf32>) permutation = [1, 0]

// CHECK-LABEL: func.func @broadcast_of_exp
func.func @broadcast_of_exp(%x: tensor<7xf32>) -> tensor<6x7xf32> {
  %e = tensor.empty() : tensor<7xf32>
  %x2 = linalg.exp ins(%x : tensor<7xf32>) outs(%e : tensor<7xf32>) -> tensor<7xf32>
  %o = tensor.empty() : tensor<6x7xf32>
  %r = linalg.broadcast ins(%x2 : tensor<7xf32>) outs(%o : tensor<6x7xf32>) dimensions = [0]
  return %r : tensor<6x7xf32>
}
// CHECK-NOT:      linalg.exp
// CHECK:          %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %o) -> (tensor<6x7xf32>) {
// CHECK-NEXT:       scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<6x7xf32>) {
// CHECK-NEXT:         %[[SI:.*]] = affine.min
// CHECK-NEXT:         %[[SJ:.*]] = affine.min
// CHECK-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[J]]] [%[[SJ]]] [1] : tensor<7xf32> to tensor<?xf32>
// CHECK-NEXT:         %[[E:.*]] = tensor.empty(%[[SJ]]) : tensor<?xf32>
// CHECK-NEXT:         %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?xf32>) outs(%[[E]] : tensor<?xf32>) -> tensor<?xf32>
// CHECK-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<6x7xf32> to tensor<?x?xf32>
// CHECK-NEXT:         %[[T:.*]] = linalg.broadcast ins(%[[EXP]] : tensor<?xf32>) outs(%[[D]] : tensor<?x?xf32>) dimensions = [0]
// CHECK-NEXT:         tensor.insert_slice %[[T]] into %[[ACC]][%[[I]], %[[J]]] [%[[SI]], %[[SJ]]] [1, 1] : tensor<?x?xf32> into tensor<6x7xf32>
