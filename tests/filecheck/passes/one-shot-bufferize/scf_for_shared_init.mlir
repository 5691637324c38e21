// Several iteration arguments of one scf.for initialised with the same
// tensor (one tensor.empty for three destinations, as tiling a softmax-like
// op and CSE leave it) are three buffers: the first init is in place, the
// others get their own allocation. Sharing one would let the tiled op's
// running-max and sum outputs overwrite each other (found by make fuzz,
// seed 118 of the tiling family). mlir-opt-22 decides the same on loops of
// linalg ops shaped alike.
// RUN: linalg-ext-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true test-analysis-only=true}' | filecheck %s --check-prefix=ANALYSIS
// RUN: linalg-ext-opt %s -p 'one-shot-bufferize{bufferize-function-boundaries=true}' | filecheck %s

func.func @shared_init(%x: tensor<6x3xf32>) -> tensor<6x3xf32> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %c6 = arith.constant 6 : index
  %zero = arith.constant 0.0 : f32
  %low = arith.constant -3.0e38 : f32
  %e = tensor.empty() : tensor<6x3xf32>
  %v = tensor.empty() : tensor<6xf32>
  %r:4 = scf.for %i = %c0 to %c6 step %c4 iter_args(%out = %e, %mx = %v, %sum = %v, %scale = %v) -> (tensor<6x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) {
    %sz = affine.min affine_map<(d0) -> (-d0 + 6, 4)>(%i)
    %xs = tensor.extract_slice %x[%i, 0] [%sz, 3] [1, 1] : tensor<6x3xf32> to tensor<?x3xf32>
    %os = tensor.extract_slice %out[%i, 0] [%sz, 3] [1, 1] : tensor<6x3xf32> to tensor<?x3xf32>
    %ms = tensor.extract_slice %mx[%i] [%sz] [1] : tensor<6xf32> to tensor<?xf32>
    %mf = linalg.fill ins(%low : f32) outs(%ms : tensor<?xf32>) -> tensor<?xf32>
    %ss = tensor.extract_slice %sum[%i] [%sz] [1] : tensor<6xf32> to tensor<?xf32>
    %sf = linalg.fill ins(%zero : f32) outs(%ss : tensor<?xf32>) -> tensor<?xf32>
    %cs = tensor.extract_slice %scale[%i] [%sz] [1] : tensor<6xf32> to tensor<?xf32>
    %y:4 = linalg_ext.unnorm_softmax dimension(1) ins(%xs : tensor<?x3xf32>) outs(%os, %mf, %sf, %cs : tensor<?x3xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>) : tensor<?x3xf32>, tensor<?xf32>, tensor<?xf32>, tensor<?xf32>
    %o2 = tensor.insert_slice %y#0 into %out[%i, 0] [%sz, 3] [1, 1] : tensor<?x3xf32> into tensor<6x3xf32>
    %m2 = tensor.insert_slice %y#1 into %mx[%i] [%sz] [1] : tensor<?xf32> into tensor<6xf32>
    %s2 = tensor.insert_slice %y#2 into %sum[%i] [%sz] [1] : tensor<?xf32> into tensor<6xf32>
    %c2 = tensor.insert_slice %y#3 into %scale[%i] [%sz] [1] : tensor<?xf32> into tensor<6xf32>
    scf.yield %o2, %m2, %s2, %c2 : tensor<6x3xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>
  }
  return %r#0 : tensor<6x3xf32>
}

// ANALYSIS-LABEL: func.func @shared_init
// ANALYSIS:         scf.for
// ANALYSIS:         } {__inplace_operands_attr__ = ["none", "none", "none", "true", "true", "false", "false"]}

// CHECK-LABEL: func.func @shared_init
// CHECK:         %[[OUT:.*]] = memref.alloc() {{.*}} : memref<6x3xf32>
// CHECK-DAG:     %[[V:.*]] = memref.alloc() {{.*}} : memref<6xf32>
// CHECK-DAG:     %[[V1:.*]] = memref.alloc() {{.*}} : memref<6xf32>
// CHECK-DAG:     %[[V2:.*]] = memref.alloc() {{.*}} : memref<6xf32>
// CHECK:         scf.for {{.*}} iter_args(%{{.*}} = %[[OUT]], %{{.*}} = %[[V]], %{{.*}} = %[[V1]], %{{.*}} = %[[V2]])
// CHECK-NOT:       memref.alloc
// CHECK:           linalg_ext.unnorm_softmax
