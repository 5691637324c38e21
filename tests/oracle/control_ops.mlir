// scf and affine ops: our interpreter against mlir-opt-22's compiled code.

func.func @loop_with_iter_args(%x: tensor<8xf32>, %n: index) -> (f32, index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%sum = %zero, %count = %c0) -> (f32, index) {
    %v = tensor.extract %x[%i] : tensor<8xf32>
    %s = arith.addf %sum, %v : f32
    %c = arith.addi %count, %c1 : index
    scf.yield %s, %c : f32, index
  }
  return %r#0, %r#1 : f32, index
}

func.func @branch(%a: i32, %b: i32) -> i32 {
  %lt = arith.cmpi slt, %a, %b : i32
  %r = scf.if %lt -> (i32) {
    %d = arith.subi %b, %a : i32
    scf.yield %d : i32
  } else {
    %d = arith.muli %a, %b : i32
    scf.yield %d : i32
  }
  return %r : i32
}

func.func @affine(%i: index, %n: index) -> (index, index) {
  %a = affine.apply affine_map<(d0)[s0] -> (d0 * 3 + s0 - 1)>(%i)[%n]
  %m = affine.min affine_map<(d0)[s0] -> (d0 + 2, s0)>(%i)[%n]
  return %a, %m : index, index
}
