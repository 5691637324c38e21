"""Programs of the OpDSL ops `linalg_ext.compat.linalg_opdsl` and
`linalg_fill_rng` add: one function per op and element type, on tensors or
memrefs, its shapes read off the op's indexing maps (loop extents 2 and 3
in turn; strides 2 on the first window dimension, dilation 2 on the last).
Used by test_opdsl_ops.py, test_fill_rng.py and by the coverage checks of
test_generalize.py and test_convert_linalg_to_loops.py.
"""

from __future__ import annotations

from linalg_ext.compat.linalg_opdsl import (
    DESCRIPTIONS,
    OpDslDescription,
    indexing_maps,
    iterator_types,
)


def extents(description: OpDslDescription) -> list[int]:
    return [2 + index % 2 for index in range(len(description.loop_names))]


def _window(description: OpDslDescription) -> tuple[list[int], list[int]]:
    """Strides 2 on the first window dimension, dilation 2 on the last."""
    count = description.window
    if not count:
        return [], []
    return [2] + [1] * (count - 1), [1] * (count - 1) + [2]


def _type(shape: list[int], element: str, kind: str) -> str:
    if not shape:
        return element if kind == "scalar" else f"{kind}<{element}>"
    return f"{kind}<{'x'.join(map(str, shape))}x{element}>"


def op_function(
    description: OpDslDescription, element: str, result: str, kind: str, name: str
) -> str:
    """`@name` applying the op to its arguments, on tensors or memrefs."""
    strides, dilations = _window(description)
    maps = indexing_maps(description, strides, dilations)
    last = [e - 1 for e in extents(description)]
    types: list[str] = []
    for index, (map_, operand) in enumerate(
        zip(maps, description.operands, strict=True)
    ):
        shape = [end + 1 for end in map_.eval(last, [])]
        output = index == len(maps) - 1
        if not operand and not output:  # a zero point
            types.append(result)
        else:
            types.append(_type(shape, result if output else element, kind))
    args = [f"%a{index}" for index in range(len(types))]
    signature = ", ".join(f"{a}: {t}" for a, t in zip(args, types, strict=True))
    attributes = ""
    if description.window:
        count = description.window
        attributes = (
            f" {{dilations = dense<{dilations}> : tensor<{count}xi64>, "
            f"strides = dense<{strides}> : tensor<{count}xi64>}}"
        )
    operands = (
        f"ins({', '.join(args[:-1])} : {', '.join(types[:-1])}) "
        f"outs({args[-1]} : {types[-1]})"
    )
    if kind == "tensor":
        return (
            f"func.func @{name}({signature}) -> {types[-1]} {{\n"
            f"  %r = {description.name}{attributes} {operands} -> {types[-1]}\n"
            f"  return %r : {types[-1]}\n}}\n"
        )
    return (
        f"func.func @{name}({signature}) {{\n"
        f"  {description.name}{attributes} {operands}\n  return\n}}\n"
    )


def variants(description: OpDslDescription) -> list[tuple[str, str, str, str]]:
    """(element, result element, kind, suffix) of the functions of an op."""
    short = description.name.removeprefix("linalg.")
    if description.body == "mac_q":
        return [("i8", "i32", "tensor", short), ("i8", "i32", "memref", f"{short}_m")]
    if description.body.endswith("unsigned"):
        return [("i8", "i32", "tensor", short), ("i16", "i8", "memref", f"{short}_m")]
    return [("f32", "f32", "tensor", short), ("i8", "i32", "memref", f"{short}_m")]


ELEMENTWISE = {"linalg.round": ("f32", 1), "linalg.erf": ("f32", 1)}
ELEMENTWISE["linalg.div_unsigned"] = ("i32", 2)
"""The OpDSL elementwise ops `linalg_ext.compat.linalg_ops` adds with them:
element type and arity."""


def elementwise_function(op_name: str, kind: str, name: str) -> str:
    element, arity = ELEMENTWISE[op_name]
    if kind == "memref" and element == "i32":
        element = "i8"
    type_ = f"{kind}<2x3x{element}>"
    args = [f"%a{index}" for index in range(arity + 1)]
    signature = ", ".join(f"{a}: {type_}" for a in args)
    operands = (
        f"ins({', '.join(args[:-1])} : {', '.join([type_] * arity)}) "
        f"outs({args[-1]} : {type_})"
    )
    if kind == "tensor":
        return (
            f"func.func @{name}({signature}) -> {type_} {{\n"
            f"  %r = {op_name} {operands} -> {type_}\n  return %r : {type_}\n}}\n"
        )
    return f"func.func @{name}({signature}) {{\n  {op_name} {operands}\n  return\n}}\n"


def fill_rng_function(element: str, kind: str, name: str, shape: str = "5x7") -> str:
    """`@name` filling its `kind<shape x element>` argument with
    `linalg.fill_rng_2d` between its `f64` arguments, from its `i32` seed."""
    type_ = f"{kind}<{shape}x{element}>"
    signature = f"%lo: f64, %hi: f64, %seed: i32, %o: {type_}"
    operands = f"ins(%lo, %hi, %seed : f64, f64, i32) outs(%o : {type_})"
    if kind == "tensor":
        return (
            f"func.func @{name}({signature}) -> {type_} {{\n"
            f"  %r = linalg.fill_rng_2d {operands} -> {type_}\n"
            f"  return %r : {type_}\n}}\n"
        )
    return (
        f"func.func @{name}({signature}) {{\n"
        f"  linalg.fill_rng_2d {operands}\n  return\n}}\n"
    )


FILL_RNG = [("f32", "tensor", "fill_rng_2d"), ("i32", "memref", "fill_rng_2d_m")]
"""`linalg.fill_rng_2d`'s functions in `ALL_OPS` (its operands are not those
of an `OpDslDescription`'s table entry): element, kind, name."""


def _elementwise_functions(kinds: tuple[str, ...]) -> list[str]:
    return [
        elementwise_function(op, kind, op[7:] + ("_m" if kind == "memref" else ""))
        for op in ELEMENTWISE
        for kind in kinds
    ]


ALL_OPS = "\n".join(
    [
        op_function(d, element, result, kind, name)
        for d in DESCRIPTIONS
        for element, result, kind, name in variants(d)
    ]
    + _elementwise_functions(("tensor", "memref"))
    + [fill_rng_function(*case) for case in FILL_RNG]
)


MEMREF_OPS = "\n".join(
    [
        op_function(d, element, result, kind, name)
        for d in DESCRIPTIONS
        for element, result, kind, name in variants(d)
        if kind == "memref"
    ]
    + _elementwise_functions(("memref",))
    + [fill_rng_function(*case) for case in FILL_RNG if case[1] == "memref"]
)
"""The memref functions of `ALL_OPS`: what convert-linalg-to-loops-ext lowers."""


def tile_case(
    description: OpDslDescription,
) -> tuple[str, str, list[tuple[list[int], list[int]]]]:
    """(program with the op in `@main`, op name, [(offsets, sizes)]): a tile
    of every parallel loop from 1 to its end, the reductions whole (a tile of
    a reduction computes part of a sum)."""
    element, result, kind, _ = variants(description)[0]
    text = op_function(description, element, result, kind, "main")
    parallel = [str(t.data) == "parallel" for t in iterator_types(description)]
    loop_extents = extents(description)
    offsets = [1 if p else 0 for p in parallel]
    sizes = [e - 1 if p else e for e, p in zip(loop_extents, parallel, strict=True)]
    return text, description.name, [(offsets, sizes)]


TILE_CASES = {d.name.removeprefix("linalg."): tile_case(d) for d in DESCRIPTIONS}
TILE_CASES.update(
    (op[7:], (elementwise_function(op, "tensor", "main"), op, [([1, 1], [1, 2])]))
    for op in ELEMENTWISE
)
# Its body reads the loop indices: a tile off the origin shows the shift.
TILE_CASES["fill_rng_2d"] = (
    fill_rng_function("f32", "tensor", "main"),
    "linalg.fill_rng_2d",
    [([1, 2], [3, 4]), ([3, 4], [2, 3])],
)
"""Every OpDSL op's tile case, by the op's short name (test_tiling_structured)."""
