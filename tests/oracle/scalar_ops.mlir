// arith and math through a generic body: our interpreter against upstream.

#id = affine_map<(i) -> (i)>

func.func @float_math(%x: tensor<16xf32>, %y: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = math.tanh %a : f32
    %d = arith.divf %t, %b : f32
    %n = arith.negf %d : f32
    %abs = math.absf %b : f32
    %s = math.sqrt %abs : f32
    %m = arith.maxnumf %n, %s : f32
    %f = math.floor %m : f32
    %g = arith.addf %m, %f : f32
    linalg.yield %g : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

func.func @integer_and_casts(%x: tensor<16xi32>, %y: tensor<16xf32>) -> (tensor<16xi32>, tensor<16xf64>) {
  %e = tensor.empty() : tensor<16xi32>
  %f = tensor.empty() : tensor<16xf64>
  %r:2 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<16xi32>, tensor<16xf32>) outs(%e, %f : tensor<16xi32>, tensor<16xf64>) {
  ^bb0(%a: i32, %b: f32, %o1: i32, %o2: f64):
    %c3 = arith.constant 3 : i32
    %q = arith.divsi %a, %c3 : i32
    %m = arith.remsi %a, %c3 : i32
    %x1 = arith.maxsi %q, %m : i32
    %bi = arith.fptosi %b : f32 to i32
    %s = arith.addi %x1, %bi : i32
    %t = arith.trunci %s : i32 to i8
    %w = arith.extsi %t : i8 to i32
    %fe = arith.extf %b : f32 to f64
    %si = arith.sitofp %w : i32 to f64
    %z = arith.mulf %fe, %si : f64
    linalg.yield %w, %z : i32, f64
  } -> (tensor<16xi32>, tensor<16xf64>)
  return %r#0, %r#1 : tensor<16xi32>, tensor<16xf64>
}
