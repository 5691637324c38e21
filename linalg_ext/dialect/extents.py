"""Which operand dimensions of a `linalg_ext` op must have the same extent.

The verifiers check these equalities where the types are static; with
dynamic extents only a run can. The interpreter (semantics/linalg_ext_ops.py)
and the loops built with run-time checks (lowering/linalg_ext_loops.py) both
go through `extent_groups(op)`, in its order, and word a disagreement with
`mismatch_message`, so that both refuse the same input with the same text:

    'linalg_ext.scan': output has size 3 in dimension 0, but input has size 5
    in dimension 0

(one line). Each group lists `OperandDim`s that must agree; its reference is
`reference(group)` (the first static one, else the first) and every other
member is compared with it, unless both are static (then the verifier has).
`linalg_ext.topk` also needs K <= N (`topk_k_exceeds_message`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, ShapedType
from xdsl.ir import Operation, SSAValue

from linalg_ext.dialect.batch_matmul import BatchMatmulOp
from linalg_ext.dialect.diag import DiagOp
from linalg_ext.dialect.layer_norm import LayerNormOp
from linalg_ext.dialect.scan import ScanOp
from linalg_ext.dialect.scatter import ScatterOp
from linalg_ext.dialect.softmax import SoftmaxLikeOp
from linalg_ext.dialect.topk import TopkOp


@dataclass(frozen=True)
class OperandDim:
    """Dimension `dim` of operand number `position` (named `role`)."""

    position: int
    dim: int
    role: str
    value: SSAValue

    @property
    def static_size(self) -> int | None:
        assert isinstance(self.value.type, ShapedType)
        size = self.value.type.get_shape()[self.dim]
        return None if size == DYNAMIC_INDEX else size


ExtentGroup = tuple[OperandDim, ...]


def reference(group: ExtentGroup) -> OperandDim:
    """The member the others are compared with: the first static one."""
    return next((d for d in group if d.static_size is not None), group[0])


def compared_pairs(group: ExtentGroup) -> list[tuple[OperandDim, OperandDim]]:
    """(member, reference) for each member a run must compare."""
    ref = reference(group)
    return [
        (d, ref)
        for d in group
        if d is not ref and (d.static_size is None or ref.static_size is None)
    ]


def mismatch_message(op: Operation, other: OperandDim, ref: OperandDim) -> str:
    """The template (sizes as `{}`: `other`'s, then `ref`'s) of a run-time
    disagreement of `other` with `ref`."""
    return (
        f"'{op.name}': {other.role} has size {{}} in dimension {other.dim}, but "
        f"{ref.role} has size {{}} in dimension {ref.dim}"
    )


def topk_k_exceeds_message(op: TopkOp) -> str:
    """The template (K, then N) of a topk whose K exceeds N at run time."""
    dimension = op.dimension.value.data
    return (
        f"'{op.name}': K ({{}}, the outputs' extent along dimension {dimension}) "
        f"exceeds the input extent along that dimension ({{}})"
    )


class _Dims:
    """OperandDims of one op, by value and role."""

    def __init__(self, op: Operation, roles: Sequence[tuple[SSAValue, str]]):
        self.positions = {id(v): i for i, v in reversed(list(enumerate(op.operands)))}
        self.roles = {id(v): role for v, role in reversed(roles)}

    def __call__(self, value: SSAValue, dim: int) -> OperandDim:
        return OperandDim(self.positions[id(value)], dim, self.roles[id(value)], value)


def _rank(value: SSAValue) -> int:
    assert isinstance(value.type, ShapedType)
    return len(value.type.get_shape())


def _softmax(op: SoftmaxLikeOp) -> list[ExtentGroup]:
    x = op.inputs[0]
    output, max_, accumulator, scale = op.outputs
    at = _Dims(
        op,
        [(x, "input"), (output, "output"), (max_, "max"), (accumulator, "accumulator")]
        + [(scale, "scale")],
    )
    dimension = op.dimension.value.data
    outer = [d for d in range(_rank(x)) if d != dimension]
    groups: list[ExtentGroup] = [
        (at(x, d), at(output, d), at(max_, i), at(accumulator, i), at(scale, i))
        for i, d in enumerate(outer)
    ]
    groups.append((at(x, dimension), at(output, dimension)))
    return groups


def _diag(op: DiagOp) -> list[ExtentGroup]:
    vector, matrix = op.inputs[0], op.outputs[0]
    at = _Dims(op, [(vector, "input"), (matrix, "output")])
    rank = _rank(matrix)
    groups: list[ExtentGroup] = [
        (at(vector, d), at(matrix, d)) for d in range(rank - 2)
    ]
    groups.append((at(vector, rank - 2), at(matrix, rank - 2), at(matrix, rank - 1)))
    return groups


def _scan(op: ScanOp) -> list[ExtentGroup]:
    x = op.inputs[0]
    output, accumulator = op.outputs
    at = _Dims(op, [(x, "input"), (output, "output"), (accumulator, "accumulator")])
    dimension = op.dimension.value.data
    outer = [d for d in range(_rank(x)) if d != dimension]
    groups: list[ExtentGroup] = [
        (at(x, d), at(output, d), at(accumulator, i)) for i, d in enumerate(outer)
    ]
    groups.append((at(x, dimension), at(output, dimension)))
    return groups


def _scatter(op: ScatterOp) -> list[ExtentGroup]:
    indices, updates = op.inputs
    src = op.outputs[0]
    at = _Dims(op, [(indices, "indices"), (updates, "updates"), (src, "src")])
    batch_rank = _rank(indices) - 1
    assert isinstance(indices.type, ShapedType)
    depth = indices.type.get_shape()[-1]
    window_rank = _rank(updates) - batch_rank
    groups: list[ExtentGroup] = [
        (at(indices, d), at(updates, d)) for d in range(batch_rank)
    ]
    groups += [
        (at(updates, batch_rank + d), at(src, depth + d)) for d in range(window_rank)
    ]
    return groups


def _topk(op: TopkOp) -> list[ExtentGroup]:
    values = op.inputs[0]
    given = op.inputs[1] if len(op.inputs) == 2 else None
    out_values, out_indices = op.outputs
    roles = [(values, "input values"), (out_values, "output values")]
    roles.append((out_indices, "output indices"))
    if given is not None:
        roles.append((given, "input indices"))
    at = _Dims(op, roles)
    operands = [values, out_values, out_indices] + ([given] if given else [])
    dimension = op.dimension.value.data
    groups: list[ExtentGroup] = [
        tuple(at(v, d) for v in operands)
        for d in range(_rank(values))
        if d != dimension
    ]
    if given is not None:
        groups.append((at(values, dimension), at(given, dimension)))
    groups.append((at(out_values, dimension), at(out_indices, dimension)))
    return groups


def _layer_norm(op: LayerNormOp) -> list[ExtentGroup]:
    x = op.inputs[0]
    weight, bias = (op.inputs[1], op.inputs[2]) if len(op.inputs) == 3 else (None, None)
    output = op.outputs[0]
    mean, rstd = (
        (op.outputs[1], op.outputs[2]) if len(op.outputs) == 3 else (None, None)
    )
    roles = [(x, "input"), (output, "output")]
    if weight is not None and bias is not None:
        roles += [(weight, "weight"), (bias, "bias")]
    if mean is not None and rstd is not None:
        roles += [(mean, "mean"), (rstd, "rstd")]
    at = _Dims(op, roles)
    axes = op.axis_values
    others = [d for d in range(_rank(x)) if d not in axes]
    groups: list[ExtentGroup] = []
    for d in range(_rank(x)):
        group = [at(x, d), at(output, d)]
        if d in axes and weight is not None and bias is not None:
            group += [at(weight, axes.index(d)), at(bias, axes.index(d))]
        if d in others and mean is not None and rstd is not None:
            group += [at(mean, others.index(d)), at(rstd, others.index(d))]
        groups.append(tuple(group))
    return groups


def _batch_matmul(op: BatchMatmulOp) -> list[ExtentGroup]:
    lhs, rhs, init = op.lhs, op.rhs, op.init
    at = _Dims(op, [(lhs, "lhs"), (rhs, "rhs"), (init, "init")])
    layout = op.layout.data
    batch = _rank(init) - 2
    m_dim = batch if layout[0] == "n" else batch + 1
    k_lhs = batch + 1 if layout[0] == "n" else batch
    k_rhs = batch if layout[1] == "n" else batch + 1
    n_dim = batch + 1 if layout[1] == "n" else batch
    groups: list[ExtentGroup] = [
        (at(init, d), at(lhs, d), at(rhs, d)) for d in range(batch)
    ]
    groups.append((at(init, batch), at(lhs, m_dim)))
    groups.append((at(init, batch + 1), at(rhs, n_dim)))
    groups.append((at(lhs, k_lhs), at(rhs, k_rhs)))
    return groups


def extent_groups(op: Operation) -> list[ExtentGroup]:
    """The groups of operand dimensions of `op` that must agree, in the
    order they are checked (none for an op without such constraints)."""
    if isinstance(op, SoftmaxLikeOp):
        return _softmax(op)
    if isinstance(op, DiagOp):
        return _diag(op)
    if isinstance(op, ScanOp):
        return _scan(op)
    if isinstance(op, ScatterOp):
        return _scatter(op)
    if isinstance(op, TopkOp):
        return _topk(op)
    if isinstance(op, LayerNormOp):
        return _layer_norm(op)
    if isinstance(op, BatchMatmulOp):
        return _batch_matmul(op)
    return []


def scatter_index_message(op: ScatterOp) -> str:
    """The template of an out-of-bounds scatter index: the index's
    coordinates, the batch position, then src's shape."""
    indices, _ = op.inputs
    src = op.outputs[0]
    assert isinstance(indices.type, ShapedType) and isinstance(src.type, ShapedType)
    depth = indices.type.get_shape()[-1]
    batch_rank = _rank(indices) - 1
    where = ", ".join("{}" for _ in range(depth))
    batch = ", ".join("{}" for _ in range(batch_rank))
    shape = ", ".join(
        "{}" if size == DYNAMIC_INDEX else str(size) for size in src.type.get_shape()
    )
    return (
        f"'{op.name}' index [{where}] at batch position [{batch}] is out of bounds "
        f"for src of shape [{shape}]"
    )
