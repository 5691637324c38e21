// Reductions: a linalg.reduce (rows summed, its init a fill, its input an
// exp) and a generic whose first loop reduces (a column max).
// Tiled along the parallel loop only (`tile-sizes=4` for the reduce, whose
// first loop is parallel): each tile reduces its whole rows, so the fill of
// the init is fused with the exp. Tiled along the reduced loop too
// (`tile-sizes=4,3`): the partial sums are carried in the loops' iter_args
// and each k step adds onto them, so the fill stays before the loops and runs
// once; the exp (an input's producer) is still computed per tile. 6x7 by 4x3:
// partial tiles on both loops.
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4}' | filecheck %s --check-prefix=PAR
// RUN: xdsl-opt %s -p 'linalg-tile-and-fuse{tile-sizes=4,3}' | filecheck %s --check-prefix=RED

// PAR-LABEL: func.func @reduce_of_exp
// RED-LABEL: func.func @reduce_of_exp
func.func @reduce_of_exp(%x: tensor<6x7xf32>) -> tensor<6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<6x7xf32>
  %ex = linalg.exp ins(%x : tensor<6x7xf32>) outs(%e : tensor<6x7xf32>) -> tensor<6x7xf32>
  %o = tensor.empty() : tensor<6xf32>
  %f = linalg.fill ins(%zero : f32) outs(%o : tensor<6xf32>) -> tensor<6xf32>
  %r = linalg.reduce ins(%ex : tensor<6x7xf32>) outs(%f : tensor<6xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  return %r : tensor<6xf32>
}
// PAR-NOT:        linalg.fill
// PAR-NOT:        linalg.exp
// PAR:            %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %o) -> (tensor<6xf32>) {
// PAR-NEXT:         %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[I]])
// PAR-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[I]], 0] [%[[SI]], 7] [1, 1] : tensor<6x7xf32> to tensor<?x7xf32>
// PAR-NEXT:         %[[E:.*]] = tensor.empty(%[[SI]]) : tensor<?x7xf32>
// PAR-NEXT:         %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?x7xf32>) outs(%[[E]] : tensor<?x7xf32>) -> tensor<?x7xf32>
// PAR-NEXT:         %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]]] [%[[SI]]] [1] : tensor<6xf32> to tensor<?xf32>
// PAR-NEXT:         %[[F:.*]] = linalg.fill ins(%zero : f32) outs(%[[D]] : tensor<?xf32>) -> tensor<?xf32>
// PAR-NEXT:         %[[T:.*]] = linalg.reduce ins(%[[EXP]] : tensor<?x7xf32>) outs(%[[F]] : tensor<?xf32>) dimensions = [1]
// PAR:              tensor.insert_slice %[[T]] into %[[ACC]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> into tensor<6xf32>
// RED-NOT:        linalg.exp
// RED:            %f = linalg.fill ins(%zero : f32) outs(%o : tensor<6xf32>) -> tensor<6xf32>
// RED-NOT:        linalg.exp
// RED:            %r = scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_I:.*]] = %f) -> (tensor<6xf32>) {
// RED-NEXT:         scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_I]]) -> (tensor<6xf32>) {
// RED-NEXT:           %[[SI:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 6), 4)> (%[[I]])
// RED-NEXT:           %[[SK:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 3)> (%[[K]])
// RED-NEXT:           %[[X:.*]] = tensor.extract_slice %x[%[[I]], %[[K]]] [%[[SI]], %[[SK]]] [1, 1] : tensor<6x7xf32> to tensor<?x?xf32>
// RED-NEXT:           %[[E:.*]] = tensor.empty(%[[SI]], %[[SK]]) : tensor<?x?xf32>
// RED-NEXT:           %[[EXP:.*]] = linalg.exp ins(%[[X]] : tensor<?x?xf32>) outs(%[[E]] : tensor<?x?xf32>) -> tensor<?x?xf32>
// RED-NEXT:           %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[I]]] [%[[SI]]] [1] : tensor<6xf32> to tensor<?xf32>
// RED-NEXT:           %[[T:.*]] = linalg.reduce ins(%[[EXP]] : tensor<?x?xf32>) outs(%[[D]] : tensor<?xf32>) dimensions = [1]
// RED:                %[[U:.*]] = tensor.insert_slice %[[T]] into %[[ACC]][%[[I]]] [%[[SI]]] [1] : tensor<?xf32> into tensor<6xf32>
// RED-NEXT:           scf.yield %[[U]] : tensor<6xf32>
// RED-NOT:        linalg.fill

// The reduced loop comes first: `tile-sizes=4` tiles it alone (one loop,
// over the rows of the input, carrying the whole max), `4,3` tiles the
// columns too. The init is an argument: nothing to fuse on that side.
// PAR-LABEL: func.func @column_max
// RED-LABEL: func.func @column_max
func.func @column_max(%x: tensor<7x6xf32>, %init: tensor<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<7x6xf32>
  %n = linalg.negf ins(%x : tensor<7x6xf32>) outs(%e : tensor<7x6xf32>) -> tensor<7x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["reduction", "parallel"]}
      ins(%n : tensor<7x6xf32>) outs(%init : tensor<6xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %m = arith.maximumf %a, %acc : f32
    linalg.yield %m : f32
  } -> tensor<6xf32>
  return %r : tensor<6xf32>
}
// PAR-NOT:        linalg.negf
// PAR:            %r = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %init) -> (tensor<6xf32>) {
// PAR-NEXT:         %[[SK:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 4)> (%[[K]])
// PAR-NEXT:         %[[X:.*]] = tensor.extract_slice %x[%[[K]], 0] [%[[SK]], 6] [1, 1] : tensor<7x6xf32> to tensor<?x6xf32>
// PAR-NEXT:         %[[E:.*]] = tensor.empty(%[[SK]]) : tensor<?x6xf32>
// PAR-NEXT:         %[[N:.*]] = linalg.negf ins(%[[X]] : tensor<?x6xf32>) outs(%[[E]] : tensor<?x6xf32>) -> tensor<?x6xf32>
// PAR-NEXT:         %[[T:.*]] = linalg.generic {{.*}} ins(%[[N]] : tensor<?x6xf32>) outs(%[[ACC]] : tensor<6xf32>) {
// PAR:              arith.maximumf
// PAR:            } -> tensor<6xf32>
// PAR-NEXT:         scf.yield %[[T]] : tensor<6xf32>
// RED-NOT:        linalg.negf
// RED:            %r = scf.for %[[K:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC_K:.*]] = %init) -> (tensor<6xf32>) {
// RED-NEXT:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[ACC_K]]) -> (tensor<6xf32>) {
// RED-NEXT:           %[[SK:.*]] = affine.min affine_map<(d0) -> (((d0 * -1) + 7), 4)> (%[[K]])
// RED-NEXT:           %[[X:.*]] = tensor.extract_slice %x[%[[K]], %[[J]]] [%[[SK]], 3] [1, 1] : tensor<7x6xf32> to tensor<?x3xf32>
// RED-NEXT:           %[[E:.*]] = tensor.empty(%[[SK]]) : tensor<?x3xf32>
// RED-NEXT:           %[[N:.*]] = linalg.negf ins(%[[X]] : tensor<?x3xf32>) outs(%[[E]] : tensor<?x3xf32>) -> tensor<?x3xf32>
// RED-NEXT:           %[[D:.*]] = tensor.extract_slice %[[ACC]][%[[J]]] [3] [1] : tensor<6xf32> to tensor<3xf32>
// RED-NEXT:           %[[T:.*]] = linalg.generic {{.*}} ins(%[[N]] : tensor<?x3xf32>) outs(%[[D]] : tensor<3xf32>) {
// RED:              } -> tensor<3xf32>
// RED-NEXT:           tensor.insert_slice %[[T]] into %[[ACC]][%[[J]]] [3] [1] : tensor<3xf32> into tensor<6xf32>
