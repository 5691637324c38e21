"""Contractions: structured ops that are `C[p] += A[p] * B[p]` summed over
their reduction loops, as `linalg-contraction-microkernel` takes them
(linalg_ext/lowering/microkernel.py).

`match_contraction(op)` reads `linalg.matmul`, `linalg.batch_matmul`,
`linalg_ext.batch_matmul` (its layout's maps, from its tiling model), the
convolutions `generalize` knows, or a `linalg.generic` whose body
multiplies its two inputs and adds the product to the output. C's map is a
projected permutation of the parallel loops; A's and B's maps may combine
loops (a convolution's `oh + kh`), and every reduction loop is used by
both. The row loop `m` is the last loop in C's order that only A uses, the
column loop `n` the last that only B uses; the other parallel loops are
batch loops. Every reduction loop is packed as one flattened `k`
(`k_loops`, in the domain's order, `k` the last of them): a
convolution's window (`c`, `kh`, `kw`) is one k of extent C*KH*KW, packed
im2col-style, and each element of C still adds its terms in the domain's
order. When C's last (contiguous) loop is one only A uses (a convolution
in NCHW: C's `ow` comes from the image), the two inputs swap roles, so
that the columns of the register tile run along C's contiguous dimension
(a product is the same bits in either order). One float element type.
It returns a `Contraction`, or why the op is not one.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    MemRefType,
)
from xdsl.dialects.linalg import ops as linalg
from xdsl.ir import Block, Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineMap

ELEMENT_BYTES: dict[type, int] = {Float16Type: 2, Float32Type: 4, Float64Type: 8}
"""The float element types the micro-kernel handles, with their sizes."""


@dataclass
class Contraction:
    """A structured op seen as `C[p] += A[p] * B[p]` (module docstring)."""

    op: Operation
    lhs: SSAValue
    rhs: SSAValue
    init: SSAValue
    maps: tuple[AffineMap, AffineMap, AffineMap]
    """The indexing maps of lhs, rhs and init, from the op's loops."""
    m: int
    n: int
    k: int
    batch: tuple[int, ...]
    element: AnyFloat
    generic: linalg.GenericOp | None = None
    """The generic made from a named op to read it (the caller erases it)."""
    outer_reductions: tuple[int, ...] = ()
    """Reduction loops run around the packed product (in the domain's
    order) instead of being packed into k; `match_contraction` packs every
    reduction loop, so this is empty unless a caller builds it otherwise."""
    k_loops: tuple[int, ...] = ()
    """The reduction loops packed as one flattened k, outermost first (the
    last is `k`); empty means `(k,)`. Step `i` of the flattened k is the
    point of these loops whose row-major rank is `i`."""

    @property
    def packed_k(self) -> tuple[int, ...]:
        """The loops of the flattened k, outermost first."""
        return self.k_loops or (self.k,)

    def static_k(self) -> int | None:
        """The extent of the flattened k, when static."""
        total = 1
        for loop in self.packed_k:
            size = self.static_size(loop)
            if size is None:
                return None
            total *= size
        return total

    @property
    def num_loops(self) -> int:
        return self.maps[0].num_dims

    def multiply_adds(self) -> int | None:
        """How many multiply-adds the op does, when its sizes are static."""
        total = 1
        for loop in range(self.num_loops):
            size = self.static_size(loop)
            if size is None:
                return None
            total *= size
        return total

    def sources(self, loop: int) -> list[tuple[SSAValue, int]]:
        """Every (operand, dimension) the loop `loop` indexes."""
        found: list[tuple[SSAValue, int]] = []
        for operand, map_ in zip(
            (self.lhs, self.rhs, self.init), self.maps, strict=True
        ):
            for dim, expr in enumerate(map_.results):
                if isinstance(expr, AffineDimExpr) and expr.position == loop:
                    found.append((operand, dim))
        return found

    def static_size(self, loop: int) -> int | None:
        for operand, dim in self.sources(loop):
            assert isinstance(operand.type, MemRefType)
            size = operand.type.get_shape()[dim]
            if size >= 0:
                return size
        return None


def _is_multiply_add(block: Block) -> bool:
    """The body is `yield (c + a * b)` of its three arguments (in any order
    of the operands of the add and of the multiply)."""
    ops = list(block.ops)
    if len(ops) != 3 or len(block.args) != 3:
        return False
    mul, add, yield_ = ops
    a, b, c = block.args
    if not isinstance(mul, arith.MulfOp) or not isinstance(add, arith.AddfOp):
        return False
    if {mul.lhs, mul.rhs} != {a, b} or mul.lhs is mul.rhs:
        return False
    if {add.lhs, add.rhs} != {c, mul.result}:
        return False
    return list(yield_.operands) == [add.result]


def _used(map_: AffineMap) -> set[int]:
    """The loops any result of `map_` uses."""
    used: set[int] = set()
    for expr in map_.results:
        used |= set(expr.used_dims())
    return used


def _dims(map_: AffineMap) -> list[int] | None:
    """The loops a projected permutation reads, in its results' order."""
    if map_.num_symbols:
        return None
    dims: list[int] = []
    for expr in map_.results:
        if not isinstance(expr, AffineDimExpr) or expr.position in dims:
            return None
        dims.append(expr.position)
    return dims


def _structure(
    op: Operation,
) -> tuple[list[SSAValue], list[AffineMap], list[str], Block, linalg.GenericOp | None]:
    """(operands, maps, iterator kinds, body, generic made) of a linalg or
    linalg_ext op, or raises ValueError with the reason."""
    from linalg_ext.dialect.batch_matmul import BatchMatmulOp
    from linalg_ext.dialect.tiling_support import ProjectedTilingModel
    from linalg_ext.tiling.interface import tiling_model
    from linalg_ext.transforms.generalize import GENERALIZED_OPS, generalize

    if isinstance(op, BatchMatmulOp):
        model = tiling_model(op)
        assert isinstance(model, ProjectedTilingModel)
        maps = [t.map for t in model.operand_tilings(op) if t.map is not None]
        kinds = [str(kind) for kind in model.loop_types(op)]
        return [op.lhs, op.rhs, op.init], maps, kinds, op.body.block, None
    made = None
    if isinstance(op, linalg.GenericOp):
        generic = op
    elif op.name in GENERALIZED_OPS and op.name != "linalg.generic":
        made = generalize(op)
        if made is None:
            raise ValueError("has no generic form")
        generic = made
    else:
        raise ValueError("is not a contraction")
    maps = [m.data for m in generic.indexing_maps]
    kinds = [str(t.data) for t in generic.iterator_types]
    return list(generic.operands), maps, kinds, generic.body.block, made


def match_contraction(op: Operation) -> Contraction | str:
    """`op` as a Contraction, or why it is not one (a phrase)."""
    try:
        operands, maps, kinds, body, made = _structure(op)
    except ValueError as error:
        return str(error)
    contraction_or_reason = _match(op, operands, maps, kinds, body, made)
    if isinstance(contraction_or_reason, str) and made is not None:
        made.erase()
    return contraction_or_reason


def _match(
    op: Operation,
    operands: list[SSAValue],
    maps: list[AffineMap],
    kinds: list[str],
    body: Block,
    made: linalg.GenericOp | None,
) -> Contraction | str:
    if len(operands) != 3:
        return "does not have two inputs and one output"
    types = [v.type for v in operands]
    if not all(isinstance(t, MemRefType) for t in types):
        return "does not work on memrefs"
    elements = {t.element_type for t in types if isinstance(t, MemRefType)}
    if len(elements) != 1:
        return "mixes element types"
    (element,) = elements
    if type(element) not in ELEMENT_BYTES or not isinstance(element, AnyFloat):
        return f"has elements of type {element} (f16, f32 or f64 only)"
    if not _is_multiply_add(body):
        return "has a body other than a multiply-add"
    if any(m.num_symbols for m in maps):
        return "has indexing maps with symbols"
    out_order = _dims(maps[2])
    if out_order is None:
        return "has an output map that is not a projected permutation"
    lhs_dims, rhs_dims = (_used(m) for m in maps[:2])
    out_dims = set(out_order)
    reductions = [loop for loop, kind in enumerate(kinds) if kind == "reduction"]
    if not reductions:
        return "has no reduction loop"
    if any(r not in lhs_dims or r not in rhs_dims for r in reductions):
        return "reduces along a loop both inputs do not share"
    parallel = [loop for loop, kind in enumerate(kinds) if kind == "parallel"]
    if set(parallel) != out_dims or len(parallel) + len(reductions) != len(kinds):
        return "has an output that does not use every parallel loop"
    pure = {e.position for m in maps for e in m.results if isinstance(e, AffineDimExpr)}
    if any(loop not in pure for loop in range(len(kinds))):
        return "has a loop no operand dimension gives the extent of"
    # Rows and columns: the last lhs-only and rhs-only loops in C's order
    # (C's contiguous dimension, usually); the others run as batch loops.
    ms = [d for d in out_order if d in lhs_dims and d not in rhs_dims]
    ns = [d for d in out_order if d in rhs_dims and d not in lhs_dims]
    if not ms or not ns:
        return "does not have a row loop of the lhs and a column loop of the rhs"
    m, n, k = ms[-1], ns[-1], reductions[-1]
    lhs, rhs, lhs_map, rhs_map = operands[0], operands[1], maps[0], maps[1]
    if out_order[-1] == m:
        # The register tile's columns (vectors) run along C's contiguous
        # loop: the inputs swap roles (a * b and b * a round alike).
        m, n, lhs, rhs, lhs_map, rhs_map = n, m, rhs, lhs, rhs_map, lhs_map
    batch = tuple(loop for loop in parallel if loop not in (m, n))
    assert isinstance(element, AnyFloat)
    return Contraction(
        op,
        lhs,
        rhs,
        operands[2],
        (lhs_map, rhs_map, maps[2]),
        m,
        n,
        k,
        batch,
        element,
        made,
        (),
        tuple(reductions),
    )
