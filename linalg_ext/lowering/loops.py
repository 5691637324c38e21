"""Building `scf.for` loop nests and the index values they need.

The loop lowerings (`convert-linalg-to-loops-ext`, and `convert-scf-to-cf-ext` for
`scf.parallel` / `scf.forall`) emit the same things: index constants, the
extent of a memref dimension, perfect nests of `scf.for` with loop-carried
values. Ops are appended to an `OpSink` (a detached block being filled)
rather than inserted through an implicit builder: the caller takes them out
(`take_ops`) and hands them to its rewriter where they belong.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Block, Operation, Region, SSAValue


class OpSink:
    """Where emitted ops go: the end of a block. Index constants are made
    once per nest, at the start of the outermost sink's block (so they
    dominate every loop of it), and reused."""

    def __init__(self, block: Block | None = None, parent: OpSink | None = None):
        self.block = Block() if block is None else block
        self._root: OpSink = self if parent is None else parent._root
        self._constants: dict[int, SSAValue] = {}
        self._last_constant: Operation | None = None

    def nested(self, block: Block) -> OpSink:
        """A sink for a block nested in this one's, sharing its constants."""
        return OpSink(block, self)

    def add(self, op: Operation) -> Operation:
        self.block.add_op(op)
        return op

    def index(self, value: int) -> SSAValue:
        """`arith.constant value : index`, made once per nest."""
        root = self._root
        found = root._constants.get(value)
        if found is None:
            constant = arith.ConstantOp(IntegerAttr.from_index_int_value(value))
            constant.result.name_hint = f"c{value}" if value >= 0 else f"c_neg{-value}"
            if root._last_constant is not None:
                root.block.insert_op_after(constant, root._last_constant)
            elif root.block.first_op is not None:
                root.block.insert_op_before(constant, root.block.first_op)
            else:
                root.block.add_op(constant)
            root._last_constant = constant
            found = root._constants[value] = constant.result
        return found

    def take_ops(self) -> list[Operation]:
        """The ops emitted so far, detached, for a rewriter to insert."""
        ops = list(self.block.ops)
        for op in ops:
            op.detach()
        self._constants.clear()
        self._last_constant = None
        return ops


def memref_extent(sink: OpSink, value: SSAValue, dim: int) -> SSAValue:
    """The extent of dimension `dim` of memref `value`: a constant when the
    type gives it, else `memref.dim`."""
    assert isinstance(value.type, MemRefType)
    extent = value.type.get_shape()[dim]
    if extent != DYNAMIC_INDEX:
        return sink.index(extent)
    dim_op = memref.DimOp(value, sink.index(dim))
    dim_op.result.name_hint = "dim"
    return sink.add(dim_op).results[0]


NestBody = Callable[
    [OpSink, Sequence[SSAValue], Sequence[SSAValue]], Sequence[SSAValue]
]
"""Fills the innermost loop: (sink of the innermost block, induction
variables from the outermost, loop-carried values) -> the values to carry
on (as many as were given)."""


def build_loop_nest(
    sink: OpSink,
    lower: Sequence[SSAValue],
    upper: Sequence[SSAValue],
    steps: Sequence[SSAValue],
    inits: Sequence[SSAValue],
    body: NestBody,
) -> Sequence[SSAValue]:
    """A perfect nest of `scf.for`, outermost first, emitted into `sink`,
    each loop carrying `inits` (their types) through `iter_args`; returns
    the values the outermost loop produces. With no loops, `body` is called
    in `sink` itself with no induction variables and `inits`, and what it
    returns is returned."""
    return _nest(sink, lower, upper, steps, inits, body, ())


def _nest(
    sink: OpSink,
    lower: Sequence[SSAValue],
    upper: Sequence[SSAValue],
    steps: Sequence[SSAValue],
    carried: Sequence[SSAValue],
    body: NestBody,
    outer_ivs: tuple[SSAValue, ...],
) -> Sequence[SSAValue]:
    level = len(outer_ivs)
    if level == len(upper):
        return body(sink, outer_ivs, carried)
    block = Block(arg_types=[IndexType(), *(v.type for v in carried)])
    loop = scf.ForOp(lower[level], upper[level], steps[level], carried, Region(block))
    sink.add(loop)
    inner = sink.nested(block)
    yielded = _nest(
        inner, lower, upper, steps, block.args[1:], body, (*outer_ivs, block.args[0])
    )
    inner.add(scf.YieldOp(*yielded))
    return loop.results
