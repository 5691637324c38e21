"""The packing half of a contraction's micro-kernel lowering
(linalg_ext/lowering/microkernel.py): the small index builders, and the
loops that copy blocks of A and B into the contiguous, zero-padded panels
the micro-kernel reads (`PackingEmitter`, which the emitter extends).

A step of the packed k is a point of the contraction's reduction loops in
row-major order (`PackingEmitter.k_point` splits it back with `remui` and
`divui` by their extents); the operands are read through their indexing
maps, so a convolution's `oh * stride + kh` is computed here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects import arith, vector
from xdsl.dialects.builtin import MemRefType, UnitAttr, VectorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineBinaryOpKind,
    AffineDimExpr,
    AffineMap,
)

from linalg_ext.lowering.contraction import Contraction
from linalg_ext.lowering.loop_nest import IN_BOUNDS, LoopNestBuilder, map_indices


@dataclass(frozen=True)
class KernelShape:
    """The tiles of one micro-kernel lowering."""

    rows: int
    """MR: rows of the register tile (of C and of a packed A panel)."""

    lanes: int
    """VL: elements in one vector."""

    vectors: int
    """Vectors per row of the register tile (NR = lanes * vectors)."""

    mc: int
    """Rows of A packed at a time (a multiple of `rows`)."""

    nc: int
    """Columns of B packed at a time (a multiple of NR)."""

    kc: int
    """Reduction steps packed at a time."""

    @property
    def columns(self) -> int:
        """NR: columns of the register tile (of C and of a packed B panel)."""
        return self.lanes * self.vectors


def access_indices(
    b: LoopNestBuilder, map_: AffineMap, point: dict[int, SSAValue]
) -> list[SSAValue]:
    """The indices `map_` gives at `point` (loop -> iv; the loops it does not
    use may be missing): an iv as it is, another expression (a
    convolution's `oh + kh`) as an `affine.apply`."""
    zero = b.index(0)
    return map_indices(b, map_, [point.get(d, zero) for d in range(map_.num_dims)])


class PackingEmitter:
    """Index builders and the packing loops of one micro-kernel lowering
    (the attributes are set by the emitter that extends it)."""

    c: Contraction
    shape: KernelShape
    upper: list[SSAValue]
    in_bounds: bool
    vector_type: VectorType
    zero: SSAValue
    packed_a: SSAValue
    packed_b: SSAValue
    rhs_rows_contiguous: bool

    # -- small builders ------------------------------------------------------

    def _mark(self, op: Operation) -> Operation:
        if self.in_bounds:
            op.attributes[IN_BOUNDS] = UnitAttr()
        return op

    def min(self, b: LoopNestBuilder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return b.add(arith.MinSIOp(lhs, rhs))

    def sub(self, b: LoopNestBuilder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return b.add(arith.SubiOp(lhs, rhs))

    def addi(self, b: LoopNestBuilder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return b.add(arith.AddiOp(lhs, rhs))

    def muli(self, b: LoopNestBuilder, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return b.add(arith.MuliOp(lhs, rhs))

    def panel_bounds(
        self,
        b: LoopNestBuilder,
        panel: SSAValue,
        size: int,
        extent: SSAValue,
        start: SSAValue,
    ) -> tuple[SSAValue, SSAValue, SSAValue]:
        """(offset in the block, valid length, offset in the operand) of
        panel `panel` of `size` in a block of `extent` starting at `start`."""
        first = self.muli(b, panel, b.index(size))
        valid = self.min(b, b.index(size), self.sub(b, extent, first))
        return first, valid, self.addi(b, start, first)

    def panels(self, b: LoopNestBuilder, extent: SSAValue, size: int) -> SSAValue:
        """ceil(extent / size) for a positive constant `size`."""
        plus = self.addi(b, extent, b.index(size - 1))
        return b.add(arith.DivUIOp(plus, b.index(size)))

    def k_point(self, b: LoopNestBuilder, flat: SSAValue) -> dict[int, SSAValue]:
        """The point of the packed reduction loops at step `flat` of the
        flattened k (row-major: the last loop fastest)."""
        loops = self.c.packed_k
        point: dict[int, SSAValue] = {}
        for loop in reversed(loops[1:]):
            size = self.c.static_size(loop)
            extent = b.index(size) if size is not None else self.upper[loop]
            point[loop] = b.add(arith.RemUIOp(flat, extent))
            flat = b.add(arith.DivUIOp(flat, extent))
        point[loops[0]] = flat
        return point

    def vload(
        self, b: LoopNestBuilder, buffer: SSAValue, indices: Sequence[SSAValue]
    ) -> SSAValue:
        op = vector.LoadOp(buffer, indices, self.vector_type)
        return b.add(self._mark(op))

    def vstore(
        self,
        b: LoopNestBuilder,
        value: SSAValue,
        buffer: SSAValue,
        indices: Sequence[SSAValue],
    ) -> None:
        b.insert(self._mark(vector.StoreOp(value, buffer, indices)))

    def pack_rhs(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        jc: SSAValue,
        ncur: SSAValue,
        pc: SSAValue,
        kcur: SSAValue,
    ) -> None:
        """Bp[p][k][l] = B[k = pc + k, n = jc + p*NR + l], zero past N."""
        c, nr = self.c, self.shape.columns

        def panel(b: LoopNestBuilder, p: SSAValue, _: Sequence[SSAValue]):
            valid, column = self.panel_bounds(b, p, nr, ncur, jc)[1:]

            def row(b: LoopNestBuilder, kk: SSAValue, _: Sequence[SSAValue]):
                k_point = {**point, **self.k_point(b, self.addi(b, pc, kk))}

                def copy(b: LoopNestBuilder, lane: SSAValue, _: Sequence[SSAValue]):
                    at = {**k_point, c.n: self.addi(b, column, lane)}
                    value = b.load(c.rhs, access_indices(b, c.maps[1], at))
                    b.store(value, self.packed_b, [p, kk, lane])
                    return ()

                def pad(b: LoopNestBuilder, lane: SSAValue, _: Sequence[SSAValue]):
                    b.store(self.zero, self.packed_b, [p, kk, lane])
                    return ()

                b.for_loop(valid, (), copy, iv="lane")
                b.for_loop(nr, (), pad, lower=valid, iv="lane")
                return ()

            def vector_row(b: LoopNestBuilder, kk: SSAValue, _: Sequence[SSAValue]):
                k_point = {**point, **self.k_point(b, self.addi(b, pc, kk))}
                for v in range(self.shape.vectors):
                    offset = b.index(v * self.shape.lanes)
                    at = {**k_point, c.n: self.addi(b, column, offset)}
                    value = self.vload(b, c.rhs, access_indices(b, c.maps[1], at))
                    self.vstore(b, value, self.packed_b, [p, kk, offset])
                return ()

            if not self.rhs_rows_contiguous:
                b.for_loop(kcur, (), row, iv="kk")
                return ()

            def whole(b: LoopNestBuilder) -> Sequence[SSAValue]:
                b.for_loop(kcur, (), vector_row, iv="kk")
                return ()

            def edge(b: LoopNestBuilder) -> Sequence[SSAValue]:
                b.for_loop(kcur, (), row, iv="kk")
                return ()

            is_whole = b.add(arith.CmpiOp(valid, b.index(nr), "eq"))
            b.if_then(is_whole, [], whole, edge)
            return ()

        b.for_loop(self.panels(b, ncur, nr), (), panel, iv="panel")

    def pack_lhs(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        ic: SSAValue,
        mcur: SSAValue,
        pc: SSAValue,
        kcur: SSAValue,
    ) -> None:
        """Ap[p][k][r] = A[m = ic + p*MR + r, k = pc + k], zero past M."""
        c, mr = self.c, self.shape.rows

        def panel(b: LoopNestBuilder, p: SSAValue, _: Sequence[SSAValue]):
            valid, row_start = self.panel_bounds(b, p, mr, mcur, ic)[1:]

            def row(b: LoopNestBuilder, r: SSAValue, _: Sequence[SSAValue]):
                m_index = self.addi(b, row_start, r)

                def copy(b: LoopNestBuilder, kk: SSAValue, _: Sequence[SSAValue]):
                    k_point = self.k_point(b, self.addi(b, pc, kk))
                    at = {**point, c.m: m_index, **k_point}
                    value = b.load(c.lhs, access_indices(b, c.maps[0], at))
                    b.store(value, self.packed_a, [p, kk, r])
                    return ()

                b.for_loop(kcur, (), copy, iv="kk")
                return ()

            def pad(b: LoopNestBuilder, r: SSAValue, _: Sequence[SSAValue]):
                def zero(b: LoopNestBuilder, kk: SSAValue, _: Sequence[SSAValue]):
                    b.store(self.zero, self.packed_a, [p, kk, r])
                    return ()

                b.for_loop(kcur, (), zero, iv="kk")
                return ()

            b.for_loop(valid, (), row, iv="r")
            b.for_loop(mr, (), pad, lower=valid, iv="r")
            return ()

        b.for_loop(self.panels(b, mcur, mr), (), panel, iv="panel")


def used_loops(map_: AffineMap) -> set[int]:
    """The loops any result of `map_` uses."""
    used: set[int] = set()
    for expr in map_.results:
        used |= set(expr.used_dims())
    return used


def unit_stride_columns(c: Contraction, operand: SSAValue, map_: AffineMap) -> bool:
    """The last dimension of `operand` (read through `map_`) moves with the
    column loop one for one (the loop itself, or the loop plus an
    expression of other loops: a convolution's `ow + kw`), with a static
    unit stride."""
    last = map_.results[-1]
    if isinstance(last, AffineBinaryOpExpr) and last.kind == AffineBinaryOpKind.Add:
        terms = [last.lhs, last.rhs]
        columns = [
            t for t in terms if isinstance(t, AffineDimExpr) and t.position == c.n
        ]
        if len(columns) != 1:
            return False
        (other,) = [t for t in terms if t is not columns[0]]
        if c.n in other.used_dims():
            return False
        last = columns[0]
    if not isinstance(last, AffineDimExpr) or last.position != c.n:
        return False
    if any(c.n in expr.used_dims() for expr in map_.results[:-1]):
        return False  # the lanes would move along another dimension too
    type_ = operand.type
    assert isinstance(type_, MemRefType)
    strides = type_.get_strides()
    return bool(strides) and strides[-1] == 1
