"""Programs with one structured linalg op each, for the tests of its
tiling (test_tiling_structured.py) and of the drivers that tile it.

Every program is a `@main` whose arguments are the op's operands (the init
last) and that returns the op's results; `generic_program` builds
one `linalg.generic`, `named_program` one named op."""

from __future__ import annotations

from collections.abc import Sequence


def generic_program(
    maps: Sequence[str],
    iterators: Sequence[str],
    ins: Sequence[tuple[str, str]],
    out_type: str,
    body: str,
) -> str:
    """`@main` with one `linalg.generic` whose init is the last argument."""
    arguments = ", ".join(f"%{n}: {t}" for n, t in ins)
    block_args = ", ".join(f"%{n}_e: {element_type(t)}" for n, t in ins)
    return f"""
func.func @main({arguments}, %out: {out_type}) -> {out_type} {{
  %r = linalg.generic {{indexing_maps = [{", ".join(maps)}],
                       iterator_types = [{", ".join(f'"{i}"' for i in iterators)}]}}
      ins({", ".join(f"%{n}" for n, _ in ins)} : {", ".join(t for _, t in ins)})
      outs(%out : {out_type}) {{
  ^bb0({block_args}, %out_e: {element_type(out_type)}):
{body}
  }} -> {out_type}
  return %r : {out_type}
}}
"""


def element_type(type_: str) -> str:
    """`f32` of `tensor<5x7xf32>`, `tensor<f32>` or `f32`."""
    return type_.removesuffix(">").rsplit("x", 1)[-1].rsplit("<", 1)[-1]


def named_program(line: str, arguments: str, result_type: str) -> str:
    return f"""
func.func @main({arguments}) -> {result_type} {{
  %r = {line}
  return %r : {result_type}
}}
"""


ADD_BODY = """    %s = arith.addf %a_e, %out_e : f32
    linalg.yield %s : f32"""

GENERIC_TRANSPOSE_BROADCAST = generic_program(
    [
        "affine_map<(d0, d1) -> (d1, d0)>",
        "affine_map<(d0, d1) -> (d1)>",
        "affine_map<(d0, d1) -> (d0, d1)>",
    ],
    ["parallel", "parallel"],
    [("a", "tensor<7x5xf32>"), ("v", "tensor<7xf32>")],
    "tensor<5x7xf32>",
    """    %s = arith.addf %a_e, %v_e : f32
    %t = arith.mulf %s, %out_e : f32
    linalg.yield %t : f32""",
)

GENERIC_ROW_SUM = generic_program(
    ["affine_map<(d0, d1) -> (d0, d1)>", "affine_map<(d0, d1) -> (d0)>"],
    ["parallel", "reduction"],
    [("a", "tensor<6x9xf32>")],
    "tensor<6xf32>",
    ADD_BODY,
)

GENERIC_INDEX = generic_program(
    ["affine_map<(d0, d1) -> (d0, d1)>", "affine_map<(d0, d1) -> (d0, d1)>"],
    ["parallel", "parallel"],
    [("a", "tensor<6x7xf32>")],
    "tensor<6x7xf32>",
    """    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %i10 = arith.muli %i, %c10 : index
    %ij = arith.addi %i10, %j : index
    %n = arith.index_cast %ij : index to i64
    %f = arith.sitofp %n : i64 to f32
    %s = arith.addf %a_e, %f : f32
    linalg.yield %s : f32""",
)

# out[i] = a[i + 2] * a[i]: a constant term in a map.
GENERIC_SHIFTED = generic_program(
    [
        "affine_map<(d0) -> (d0 + 2)>",
        "affine_map<(d0) -> (d0)>",
        "affine_map<(d0) -> (d0)>",
    ],
    ["parallel"],
    [("a", "tensor<12xf32>"), ("b", "tensor<10xf32>")],
    "tensor<10xf32>",
    """    %s = arith.mulf %a_e, %b_e : f32
    linalg.yield %s : f32""",
)

GENERIC_MATVEC = generic_program(
    [
        "affine_map<(d0, d1) -> (d0, d1)>",
        "affine_map<(d0, d1) -> (d1)>",
        "affine_map<(d0, d1) -> (d0)>",
    ],
    ["parallel", "reduction"],
    [("a", "tensor<5x6xf32>"), ("x", "tensor<6xf32>")],
    "tensor<5xf32>",
    """    %p = arith.mulf %a_e, %x_e : f32
    %s = arith.addf %p, %out_e : f32
    linalg.yield %s : f32""",
)

# A depthwise NHWC convolution, stride 2 and dilation 2, loops
# (n, oh, ow, c, kh, kw).
GENERIC_DEPTHWISE = generic_program(
    [
        "affine_map<(n, oh, ow, c, kh, kw) -> (n, oh * 2 + kh * 2, ow * 2 + kw * 2, c)>",
        "affine_map<(n, oh, ow, c, kh, kw) -> (kh, kw, c)>",
        "affine_map<(n, oh, ow, c, kh, kw) -> (n, oh, ow, c)>",
    ],
    ["parallel"] * 4 + ["reduction"] * 2,
    [("i", "tensor<1x9x9x2xf32>"), ("f", "tensor<2x2x2xf32>")],
    "tensor<1x4x4x2xf32>",
    """    %p = arith.mulf %i_e, %f_e : f32
    %s = arith.addf %p, %out_e : f32
    linalg.yield %s : f32""",
)

GENERIC_DYNAMIC = generic_program(
    [
        "affine_map<(d0, d1) -> (d0, d1)>",
        "affine_map<(d0, d1) -> (d1)>",
        "affine_map<(d0, d1) -> (d0, d1)>",
    ],
    ["parallel", "parallel"],
    [("a", "tensor<?x?xf32>"), ("v", "tensor<?xf32>")],
    "tensor<?x?xf32>",
    """    %s = arith.subf %a_e, %v_e : f32
    linalg.yield %s : f32""",
)

# A dot product into a rank-0 tensor: the init is not sliced.
GENERIC_DOT = generic_program(
    [
        "affine_map<(d0) -> (d0)>",
        "affine_map<(d0) -> (d0)>",
        "affine_map<(d0) -> ()>",
    ],
    ["reduction"],
    [("x", "tensor<9xf32>"), ("y", "tensor<9xf32>")],
    "tensor<f32>",
    """    %p = arith.mulf %x_e, %y_e : f32
    %s = arith.addf %p, %out_e : f32
    linalg.yield %s : f32""",
)

F57 = "tensor<5x7xf32>"
FILL = named_program(
    f"linalg.fill ins(%s : f32) outs(%o : {F57}) -> {F57}", f"%s: f32, %o: {F57}", F57
)
COPY = named_program(
    f"linalg.copy ins(%a : {F57}) outs(%o : {F57}) -> {F57}",
    f"%a: {F57}, %o: {F57}",
    F57,
)
TRANSPOSE = named_program(
    f"linalg.transpose ins(%a : tensor<7x5xf32>) outs(%o : {F57}) permutation = [1, 0]",
    f"%a: tensor<7x5xf32>, %o: {F57}",
    F57,
)
BROADCAST = named_program(
    f"linalg.broadcast ins(%v : tensor<5xf32>) outs(%o : {F57}) dimensions = [1]",
    f"%v: tensor<5xf32>, %o: {F57}",
    F57,
)
REDUCE = named_program(
    "linalg.reduce { arith.addf } ins(%a : tensor<5x7xf32>) "
    "outs(%o : tensor<7xf32>) dimensions = [0]",
    "%a: tensor<5x7xf32>, %o: tensor<7xf32>",
    "tensor<7xf32>",
)
REDUCE_TWO = """
func.func @main(%a: tensor<5x7xf32>, %b: tensor<5x7xf32>, %s: tensor<5xf32>,
                %m: tensor<5xf32>) -> (tensor<5xf32>, tensor<5xf32>) {
  %r:2 = linalg.reduce ins(%a, %b : tensor<5x7xf32>, tensor<5x7xf32>)
      outs(%s, %m : tensor<5xf32>, tensor<5xf32>) dimensions = [1]
      (%x: f32, %y: f32, %acc_s: f32, %acc_m: f32) {
        %0 = arith.addf %x, %acc_s : f32
        %1 = arith.maximumf %y, %acc_m : f32
        linalg.yield %0, %1 : f32, f32
      }
  return %r#0, %r#1 : tensor<5xf32>, tensor<5xf32>
}
"""
MAP = named_program(
    f"linalg.map {{ arith.mulf }} ins(%a, %b : {F57}, {F57}) outs(%o : {F57})",
    f"%a: {F57}, %b: {F57}, %o: {F57}",
    F57,
)
MAP_INDEX = f"""
func.func @main(%o: {F57}) -> {F57} {{
  %r = linalg.map outs(%o : {F57}) (%init: f32) {{
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %k = arith.muli %i, %c7 : index
    %l = arith.addi %k, %j : index
    %n = arith.index_cast %l : index to i64
    %f = arith.sitofp %n : i64 to f32
    linalg.yield %f : f32
  }}
  return %r : {F57}
}}
"""
ELEMENTWISE_NAMED = {
    "linalg.add": (2, "f32"),
    "linalg.sub": (2, "f32"),
    "linalg.mul": (2, "f32"),
    "linalg.div": (2, "f32"),
    "linalg.max": (2, "f32"),
    "linalg.min": (2, "f32"),
    "linalg.powf": (2, "f32"),
    "linalg.exp": (1, "f32"),
    "linalg.log": (1, "f32"),
    "linalg.sqrt": (1, "f32"),
    "linalg.negf": (1, "f32"),
    "linalg.abs": (1, "f32"),
    "linalg.floor": (1, "f32"),
    "linalg.ceil": (1, "f32"),
    "linalg.tanh": (1, "f32"),
    "linalg.rsqrt": (1, "f32"),
    "linalg.reciprocal": (1, "f32"),
    "linalg.square": (1, "f32"),
    "linalg.elemwise_unary": (1, "f32"),
    "linalg.elemwise_binary": (2, "f32"),
}


def elementwise_program(name: str, arity: int) -> str:
    names = ["%a", "%b"][:arity]
    return named_program(
        f"{name} ins({', '.join(names)} : {', '.join([F57] * arity)}) "
        f"outs(%o : {F57}) -> {F57}",
        ", ".join(f"{n}: {F57}" for n in names) + f", %o: {F57}",
        F57,
    )


SELECT = named_program(
    f"linalg.select ins(%c, %a, %b : tensor<5x7xi1>, {F57}, {F57}) "
    f"outs(%o : {F57}) -> {F57}",
    f"%c: tensor<5x7xi1>, %a: {F57}, %b: {F57}, %o: {F57}",
    F57,
)
ELEMENTWISE_BROADCASTING = named_program(
    "linalg.elementwise kind=#linalg.elementwise_kind<add> indexing_maps = ["
    "affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, "
    "affine_map<(d0, d1) -> (d0, d1)>] "
    f"ins(%a, %v : {F57}, tensor<7xf32>) outs(%o : {F57}) -> {F57}",
    f"%a: {F57}, %v: tensor<7xf32>, %o: {F57}",
    F57,
)
MATMUL = named_program(
    "linalg.matmul ins(%a, %b : tensor<10x12xf32>, tensor<12x7xf32>) "
    "outs(%c : tensor<10x7xf32>) -> tensor<10x7xf32>",
    "%a: tensor<10x12xf32>, %b: tensor<12x7xf32>, %c: tensor<10x7xf32>",
    "tensor<10x7xf32>",
)
MATMUL_TRANSPOSE_A = named_program(
    "linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>, "
    "affine_map<(d0, d1, d2) -> (d2, d1)>, affine_map<(d0, d1, d2) -> (d0, d1)>] "
    "ins(%a, %b : tensor<6x4xf32>, tensor<6x5xf32>) "
    "outs(%c : tensor<4x5xf32>) -> tensor<4x5xf32>",
    "%a: tensor<6x4xf32>, %b: tensor<6x5xf32>, %c: tensor<4x5xf32>",
    "tensor<4x5xf32>",
)
MATMUL_DYNAMIC = named_program(
    "linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) "
    "outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>",
    "%a: tensor<?x?xf32>, %b: tensor<?x?xf32>, %c: tensor<?x?xf32>",
    "tensor<?x?xf32>",
)
BATCH_MATMUL = named_program(
    "linalg.batch_matmul ins(%a, %b : tensor<3x4x6xf32>, tensor<3x6x5xf32>) "
    "outs(%c : tensor<3x4x5xf32>) -> tensor<3x4x5xf32>",
    "%a: tensor<3x4x6xf32>, %b: tensor<3x6x5xf32>, %c: tensor<3x4x5xf32>",
    "tensor<3x4x5xf32>",
)
QUANTIZED_MATMUL = named_program(
    "linalg.quantized_matmul ins(%a, %b, %az, %bz : tensor<4x6xi8>, tensor<6x5xi8>, "
    "i32, i32) outs(%o : tensor<4x5xi32>) -> tensor<4x5xi32>",
    "%a: tensor<4x6xi8>, %b: tensor<6x5xi8>, %az: i32, %bz: i32, %o: tensor<4x5xi32>",
    "tensor<4x5xi32>",
)
CONV_NHWC = named_program(
    "linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, "
    "strides = dense<2> : tensor<2xi64>} "
    "ins(%i, %f : tensor<1x9x9x2xf32>, tensor<2x2x2x3xf32>) "
    "outs(%o : tensor<1x4x4x3xf32>) -> tensor<1x4x4x3xf32>",
    "%i: tensor<1x9x9x2xf32>, %f: tensor<2x2x2x3xf32>, %o: tensor<1x4x4x3xf32>",
    "tensor<1x4x4x3xf32>",
)
CONV_NCHW = named_program(
    "linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, "
    "strides = dense<1> : tensor<2xi64>} "
    "ins(%i, %f : tensor<1x2x6x6xf32>, tensor<3x2x3x3xf32>) "
    "outs(%o : tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>",
    "%i: tensor<1x2x6x6xf32>, %f: tensor<3x2x3x3xf32>, %o: tensor<1x3x4x4xf32>",
    "tensor<1x3x4x4xf32>",
)
POOL_MAX = named_program(
    "linalg.pooling_nchw_max {dilations = dense<1> : tensor<2xi64>, "
    "strides = dense<2> : tensor<2xi64>} "
    "ins(%i, %w : tensor<1x2x9x9xf32>, tensor<3x3xf32>) "
    "outs(%o : tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32>",
    "%i: tensor<1x2x9x9xf32>, %w: tensor<3x3xf32>, %o: tensor<1x2x4x4xf32>",
    "tensor<1x2x4x4xf32>",
)
SOFTMAX_DYNAMIC = named_program(
    "linalg.softmax dimension(1) ins(%a : tensor<?x?xf32>) "
    "outs(%o : tensor<?x?xf32>) -> tensor<?x?xf32>",
    "%a: tensor<?x?xf32>, %o: tensor<?x?xf32>",
    "tensor<?x?xf32>",
)
SOFTMAX = named_program(
    "linalg.softmax dimension(1) ins(%a : tensor<4x6xf32>) "
    "outs(%o : tensor<4x6xf32>) -> tensor<4x6xf32>",
    "%a: tensor<4x6xf32>, %o: tensor<4x6xf32>",
    "tensor<4x6xf32>",
)

MEMREF_MATMUL = """
func.func @main(%a: memref<4x6xf32>, %b: memref<6x5xf32>, %c: memref<4x5xf32>) {
  linalg.matmul ins(%a, %b : memref<4x6xf32>, memref<6x5xf32>) outs(%c : memref<4x5xf32>)
  return
}
"""
REVERSED = generic_program(
    ["affine_map<(d0) -> (9 - d0)>", "affine_map<(d0) -> (d0)>"],
    ["parallel"],
    [("a", "tensor<10xf32>")],
    "tensor<10xf32>",
    "    linalg.yield %a_e : f32",
)
DIAGONAL_SUMS = generic_program(
    ["affine_map<(d0, d1) -> (d0, d1)>", "affine_map<(d0, d1) -> (d0 + d1)>"],
    ["reduction", "reduction"],
    [("a", "tensor<3x4xf32>")],
    "tensor<6xf32>",
    ADD_BODY,
)


def conv_program(name: str, image: str, filter_: str, out: str, strides: int) -> str:
    """`@main` with one 2-D convolution `name` (dilation 1)."""
    return named_program(
        f"{name} {{dilations = dense<1> : tensor<2xi64>, "
        f"strides = dense<{strides}> : tensor<2xi64>}} "
        f"ins(%i, %f : {image}, {filter_}) outs(%o : {out}) -> {out}",
        f"%i: {image}, %f: {filter_}, %o: {out}",
        out,
    )


# The other layouts xDSL defines: (op name, program, loops).
CONV_LAYOUTS = {
    "linalg.conv_2d_nhwc_fhwc": conv_program(
        "linalg.conv_2d_nhwc_fhwc",
        "tensor<1x7x7x2xf32>",
        "tensor<3x2x2x2xf32>",
        "tensor<1x3x3x3xf32>",
        2,
    ),
    "linalg.conv_2d_ngchw_fgchw": conv_program(
        "linalg.conv_2d_ngchw_fgchw",
        "tensor<1x2x2x6x6xf32>",
        "tensor<2x2x2x3x3xf32>",
        "tensor<1x2x2x4x4xf32>",
        1,
    ),
    "linalg.conv_2d_ngchw_gfchw": conv_program(
        "linalg.conv_2d_ngchw_gfchw",
        "tensor<1x2x2x6x6xf32>",
        "tensor<2x2x2x3x3xf32>",
        "tensor<1x2x2x4x4xf32>",
        1,
    ),
    "linalg.conv_2d_nhwgc_gfhwc": conv_program(
        "linalg.conv_2d_nhwgc_gfhwc",
        "tensor<1x6x6x2x2xf32>",
        "tensor<2x2x3x3x2xf32>",
        "tensor<1x4x4x2x2xf32>",
        1,
    ),
}
