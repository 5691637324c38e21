"""`insert-runtime-checks`: guard memref-level IR with `rtcheck.assert`.

Compiled code does not check what the interpreter checks: an index out of
bounds reads or writes outside a buffer, a division by zero or of the
minimum value by -1 traps, an `scf.for` whose step is 0 never ends. This
pass puts an `rtcheck.assert` before each op that could do so, with the
message the interpreter gives for that op, so that the compiled program
stops with the same error (`linalg_ext.jit` raises it as a `JitError`):

    %v = memref.load %a[%i] : memref<?xf32>

becomes

    %c0 = arith.constant 0 : index
    %d = memref.dim %a, %c0 : memref<?xf32>
    %ok = arith.cmpi ult, %i, %d : index
    rtcheck.assert %ok, "memref.load: index [{}] is out of bounds of shape [{}]"
        (%i, %d : index, index)
    %v = memref.load %a[%i] : memref<?xf32>

(the assert is one line in the IR).

Checked, each only where it is not proven unnecessary:

- `memref.load` / `memref.store` / `affine.load` / `affine.store`: every
  index in `[0, dim)` (one unsigned comparison each). An index is proven in
  range when it is a constant inside a static size, or the induction
  variable of an `scf.for` / `scf.parallel` / `affine.for` running from a
  constant >= 0 to at most that size (a static one, or the `memref.dim` of
  the same buffer). Accesses the loop lowerings made and marked
  `rtcheck.in_bounds` (in bounds once the extents they use are checked,
  which those lowerings do with `runtime-checks`) are not checked; the
  mark is removed.
- `vector.load` / `vector.store` of a 1-D vector: the leading indices as
  above, the last one with the whole vector inside the last dimension
  ("vector.load: vector<16xf32> at index [{}, {}] is out of bounds of shape
  [4, 16]"); unless marked `rtcheck.in_bounds` (as the micro-kernel pass
  marks the accesses it proves) or proven (a constant, or a loop variable
  whose static upper bound leaves room for the vector).
- integer divisions and remainders (`arith.divsi`, `divui`, `remsi`, `remui`,
  `ceildivsi`, `ceildivui`, `floordivsi`; the `index` dialect's): the divisor
  is not 0 and, signed, not the minimum value divided by -1; a constant
  divisor other than 0 and -1 needs no check.
- `scf.for` and `scf.parallel` with a step that is not a constant: positive.
- `memref.cast` to a static size (or a strided layout's static stride or
  offset, or the identity layout from a strided one) where its source's
  is dynamic: the source has it;
- `memref.copy` between buffers of dynamic shapes: the same shape;
  `memref.subview` with a dynamic offset, size or stride, or of a dynamic
  dimension: inside its source (semantics/arrays.py's `check_slice_bounds`).
- `memref.alloc` / `memref.alloca`: dynamic sizes not negative ("negative
  size in [-1, 3]"), and a byte size that fits in int64 (else
  `finalize-memref-to-llvm`'s size wraps and a too small buffer is
  allocated); a static shape too large to address always fails, and so
  does a static `memref.alloc` larger than the machine's memory ("cannot
  allocate N bytes", N without the alignment padding `malloc` is asked
  for). A
  `memref.alloca` takes at most 1 MiB (semantics/arrays.py's
  `STACK_LIMIT`): "memref.alloca: 4000000 bytes exceed the stack limit of
  1048576 bytes" (a larger one could overflow the native stack).
- `memref.dim` with an index that is not a constant in `[0, rank)`:
  `0 <= index < rank` ("memref.dim: dimension 3 of a memref of rank 1").
- `memref.expand_shape` with dynamic output sizes or source dimensions: no
  size negative, each group's sizes multiply (exactly) to its source
  dimension; `memref.collapse_shape` of a strided source with a dynamic
  size or stride in a group: the group contiguous (semantics/memref_ops.py).

Any checked op whose discardable attribute `rtcheck.origin` (`ORIGIN`)
names another op (e.g. the `tensor.extract` it was bufferized from) is
reported under that name; a `memref.copy` into a subview made from a
`tensor.insert_slice` with that op's message ("source of shape [2] does not
fill a slice of sizes [3]").

The pass works on memref-level IR: after bufferization and the loop
lowerings, before `convert-scf-to-cf-ext` (`lower-to-llvm{runtime-checks}`
runs it after `lower-affine-ext`). Tensor ops are not checked.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

from xdsl.builder import Builder
from xdsl.context import Context
from xdsl.dialects import affine, arith, memref, scf, vector
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ModuleOp,
    VectorType,
)
from xdsl.dialects.utils import get_dynamic_index_list
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.ir.affine import AffineConstantExpr, AffineDimExpr, AffineMap, AffineSymExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from linalg_ext.compat import index_ops as index
from linalg_ext.dialect.runtime_check import reported_name
from linalg_ext.lowering.memref_ops import element_size
from linalg_ext.lowering.runtime_checks import (
    DIVISIONS,
    IN_BOUNDS,
    check_allocation,
    check_dim_index,
    check_division,
    check_in_bounds,
    check_same_shape,
    check_slice,
    check_stack_limit,
    check_static_memory,
    check_steps,
    check_vector_in_bounds,
)
from linalg_ext.lowering.view_checks import (
    check_cast,
    check_collapse_shape,
    check_expand_shape,
)
from linalg_ext.semantics.static_rules import reassociation_groups


def _constant(value: SSAValue) -> int | None:
    """The integer `value` is, if it is an integer constant."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp | index.ConstantOp):
        attr = owner.value
        if isinstance(attr, IntegerAttr):
            return attr.value.data
    return None


def _at_most_size(bound: SSAValue, buffer: SSAValue, dim: int) -> bool:
    """`bound` is at most dimension `dim` of `buffer`."""
    assert isinstance(buffer.type, MemRefType)
    size = buffer.type.get_shape()[dim]
    value = _constant(bound)
    if value is not None:
        return size >= 0 and value <= size
    owner = bound.owner
    return (
        isinstance(owner, memref.DimOp)
        and owner.source == buffer
        and _constant(owner.index) == dim
    )


def _map_bound(
    map_: AffineMap, operands: Sequence[SSAValue]
) -> tuple[int | None, SSAValue | None]:
    """A one-result affine bound map as a constant or a single operand."""
    if len(map_.results) != 1:
        return None, None
    (expr,) = map_.results
    if isinstance(expr, AffineConstantExpr):
        return expr.value, None
    if isinstance(expr, AffineDimExpr) and not map_.num_symbols:
        return None, operands[expr.position]
    return None, None


def _loop_bounds(
    argument: BlockArgument,
) -> tuple[SSAValue | int, SSAValue | int] | None:
    """The (lower, upper) bound of the loop whose induction variable
    `argument` is, as values or constants."""
    loop = argument.block.parent_op()
    if isinstance(loop, scf.ForOp) and argument.index == 0:
        return loop.lb, loop.ub
    if isinstance(loop, scf.ParallelOp) and argument.index < len(loop.lowerBound):
        return loop.lowerBound[argument.index], loop.upperBound[argument.index]
    if isinstance(loop, affine.ForOp) and argument.index == 0:
        lower_map, upper_map = loop.lowerBoundMap.data, loop.upperBoundMap.data
        count = lower_map.num_dims + lower_map.num_symbols
        lower, _ = _map_bound(lower_map, loop.lowerBoundOperands)
        upper_value, upper = _map_bound(upper_map, loop.upperBoundOperands)
        if lower is None or count:
            return None
        if upper_value is not None:
            return lower, upper_value
        if upper is not None:
            return lower, upper
    return None


def _proven_in_range(index_value: SSAValue, buffer: SSAValue, dim: int) -> bool:
    """`0 <= index_value < dim(buffer, dim)` whenever the access runs."""
    assert isinstance(buffer.type, MemRefType)
    size = buffer.type.get_shape()[dim]
    value = _constant(index_value)
    if value is not None:
        return 0 <= value < size
    if not isinstance(index_value, BlockArgument):
        return False
    bounds = _loop_bounds(index_value)
    if bounds is None:
        return False
    lower, upper = bounds
    lower_value = lower if isinstance(lower, int) else _constant(lower)
    if lower_value is None or lower_value < 0:
        return False
    if isinstance(upper, int):
        return 0 <= upper <= size
    return _at_most_size(upper, buffer, dim)


def _insert_before(op: Operation, rewriter: PatternRewriter, block: Block) -> None:
    """Move the ops built in `block` before `op`."""
    ops = list(block.ops)
    for built in ops:
        built.detach()
    if ops:
        rewriter.insert(ops, InsertPoint.before(op))


@contextmanager
def _checks_before(op: Operation, rewriter: PatternRewriter) -> Iterator[Builder]:
    """A builder whose ops (the checks of `op`) go before `op`."""
    block = Block()
    yield Builder(InsertPoint.at_end(block))
    _insert_before(op, rewriter, block)


def _mixed(static: Sequence[int], dynamic: Sequence[SSAValue]) -> list[int | SSAValue]:
    return get_dynamic_index_list(static, dynamic, DYNAMIC_INDEX)


def _guard_access(
    op: Operation,
    rewriter: PatternRewriter,
    buffer: SSAValue,
    indices: Sequence[SSAValue] | None,
) -> None:
    """Check `indices` into `buffer` before `op` (None: op's affine map
    gives them), unless the lowering marked it or they are proven."""
    if IN_BOUNDS in op.attributes:
        del op.attributes[IN_BOUNDS]
        return
    if not isinstance(buffer.type, MemRefType):
        return
    block = Block()
    b = Builder(InsertPoint.at_end(block))
    if indices is None:
        assert isinstance(op, affine.LoadOp | affine.StoreOp)
        indices = _affine_indices(b, op)
    unproven = [not _proven_in_range(i, buffer, dim) for dim, i in enumerate(indices)]
    if any(unproven):
        check_in_bounds(b, reported_name(op), buffer, indices, unproven)
        _insert_before(op, rewriter, block)


def _affine_indices(b: Builder, op: affine.LoadOp | affine.StoreOp) -> list[SSAValue]:
    """The indices of an affine access: an operand where its map's result is
    one, else an `affine.apply` of that result."""
    map_ = op.map.data
    operands = list(op.indices)
    indices: list[SSAValue] = []
    for expr in map_.results:
        if isinstance(expr, AffineDimExpr):
            indices.append(operands[expr.position])
            continue
        if isinstance(expr, AffineSymExpr):
            indices.append(operands[map_.num_dims + expr.position])
            continue
        single = AffineMap(map_.num_dims, map_.num_symbols, (expr,))
        indices.append(b.insert(affine.ApplyOp(operands, AffineMapAttr(single))).result)
    return indices


class CheckLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.LoadOp, rewriter: PatternRewriter) -> None:
        _guard_access(op, rewriter, op.memref, list(op.indices))


class CheckStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.StoreOp, rewriter: PatternRewriter) -> None:
        _guard_access(op, rewriter, op.memref, list(op.indices))


def _proven_vector_in_range(
    index_value: SSAValue, buffer: SSAValue, length: int
) -> bool:
    """`0 <= index_value` and `index_value + length <= size` of `buffer`'s
    last dimension whenever the access runs: a constant, or the induction
    variable of a loop from a constant >= 0 to a constant upper bound whose
    last value (by its constant step, else the bound minus one) leaves room
    for the vector."""
    assert isinstance(buffer.type, MemRefType)
    size = buffer.type.get_shape()[-1]
    if size == DYNAMIC_INDEX:
        return False
    value = _constant(index_value)
    if value is not None:
        return 0 <= value and value + length <= size
    if not isinstance(index_value, BlockArgument):
        return False
    bounds = _loop_bounds(index_value)
    if bounds is None:
        return False
    lower, upper = bounds
    lower_value = lower if isinstance(lower, int) else _constant(lower)
    upper_value = upper if isinstance(upper, int) else _constant(upper)
    if lower_value is None or lower_value < 0 or upper_value is None:
        return False
    if upper_value <= lower_value:
        return True  # the loop does not run
    # The last value the variable takes: the largest `lower + k * step`
    # below `upper` (`upper - 1` for an unknown step).
    last = upper_value - 1
    step = _loop_step(index_value)
    if step is not None and step > 0:
        last = lower_value + (upper_value - 1 - lower_value) // step * step
    return last + length <= size


def _loop_step(argument: BlockArgument) -> int | None:
    """The constant step of the loop whose induction variable `argument`
    is, if known."""
    loop = argument.block.parent_op()
    if isinstance(loop, scf.ForOp) and argument.index == 0:
        return _constant(loop.step)
    if isinstance(loop, scf.ParallelOp) and argument.index < len(loop.step):
        return _constant(loop.step[argument.index])
    if isinstance(loop, affine.ForOp) and argument.index == 0:
        return loop.step.value.data
    return None


def _guard_vector_access(
    op: vector.LoadOp | vector.StoreOp, rewriter: PatternRewriter
) -> None:
    """Check that the vector `op` reads or writes lies in its memref, unless
    it is marked IN_BOUNDS or proven."""
    if IN_BOUNDS in op.attributes:
        del op.attributes[IN_BOUNDS]
        return
    buffer = op.base
    type_ = op.result.type if isinstance(op, vector.LoadOp) else op.vector.type
    if not isinstance(buffer.type, MemRefType) or not isinstance(type_, VectorType):
        return
    if type_.get_num_dims() != 1 or not op.indices:
        # finalize-memref-to-llvm refuses it, naming the op.
        return
    indices = list(op.indices)
    length = type_.get_shape()[0]
    unproven = [
        not _proven_in_range(i, buffer, dim) for dim, i in enumerate(indices[:-1])
    ] + [not _proven_vector_in_range(indices[-1], buffer, length)]
    if any(unproven):
        with _checks_before(op, rewriter) as b:
            check_vector_in_bounds(
                b,
                reported_name(op),
                buffer,
                indices,
                type_,
                unproven,
            )


class CheckVectorLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.LoadOp, rewriter: PatternRewriter) -> None:
        _guard_vector_access(op, rewriter)


class CheckVectorStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: vector.StoreOp, rewriter: PatternRewriter) -> None:
        _guard_vector_access(op, rewriter)


class CheckAffineLoad(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.LoadOp, rewriter: PatternRewriter) -> None:
        _guard_access(op, rewriter, op.memref, None)


class CheckAffineStore(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: affine.StoreOp, rewriter: PatternRewriter) -> None:
        _guard_access(op, rewriter, op.memref, None)


class CheckDivision(RewritePattern):
    """An integer division or remainder (arith or index) of scalars."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if op.name not in DIVISIONS or len(op.operands) != 2:
            return
        lhs, rhs = op.operands
        if not isinstance(rhs.type, IntegerType | IndexType):
            return  # elementwise on vectors or tensors: not checked
        divisor = _constant(rhs)
        if divisor is not None and divisor != 0 and divisor != -1:
            return
        if divisor == 0:
            # Always fails: still a check, so the failure is the
            # interpreter's message rather than a trap.
            divisor = None
        with _checks_before(op, rewriter) as b:
            check_division(b, op.name, lhs, rhs, divisor)


class CheckCopy(RewritePattern):
    """`memref.copy` between buffers of dynamic shapes: the same shape. A
    copy made from a `tensor.insert_slice` (its `rtcheck.origin`) into a
    subview fails as the interpreter's insert_slice does: "source of shape
    [2] does not fill a slice of sizes [3]"."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CopyOp, rewriter: PatternRewriter) -> None:
        source, destination = op.source, op.destination
        if not isinstance(source.type, MemRefType) or not isinstance(
            destination.type, MemRefType
        ):
            return
        name = reported_name(op)
        view = destination.owner
        slice_sizes = None
        if name != op.name and isinstance(view, memref.SubviewOp):
            slice_sizes = _mixed(view.static_sizes.get_values(), view.sizes)
        with _checks_before(op, rewriter) as b:
            check_same_shape(b, name, source, destination, slice_sizes)


class CheckSubview(RewritePattern):
    """`memref.subview` with a dynamic offset, size or stride, or of a
    dynamic dimension: inside its source."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.SubviewOp, rewriter: PatternRewriter
    ) -> None:
        if not isinstance(op.source.type, MemRefType):
            return
        with _checks_before(op, rewriter) as b:
            check_slice(
                b,
                reported_name(op),
                op.source,
                _mixed(op.static_offsets.get_values(), op.offsets),
                _mixed(op.static_sizes.get_values(), op.sizes),
                _mixed(op.static_strides.get_values(), op.strides),
            )


class CheckCast(RewritePattern):
    """`memref.cast` to a type with a static size, stride or offset where
    its source's is dynamic: the run-time value is the static one."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.CastOp, rewriter: PatternRewriter) -> None:
        source_type, target = op.source.type, op.dest.type
        if not isinstance(source_type, MemRefType) or not isinstance(
            target, MemRefType
        ):
            return
        name = reported_name(op)
        with _checks_before(op, rewriter) as b:
            check_cast(b, name, op.source, target, name != op.name)


class CheckAllocation(RewritePattern):
    """`memref.alloc` / `memref.alloca`: no dynamic size negative, a byte
    size that fits in int64 (and memory, for a static alloc), and for an
    alloca, at most `STACK_LIMIT`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.AllocOp | memref.AllocaOp, rewriter: PatternRewriter
    ) -> None:
        type_ = op.memref.type
        if not isinstance(type_, MemRefType):
            return
        element_bytes = element_size(type_.get_element_type())
        if element_bytes is None:
            return  # not compiled anyway
        with _checks_before(op, rewriter) as b:
            check_allocation(
                b,
                reported_name(op),
                type_.get_shape(),
                list(op.dynamic_sizes),
                element_bytes,
            )
            if isinstance(op, memref.AllocOp):
                check_static_memory(
                    b, reported_name(op), type_.get_shape(), element_bytes
                )
            else:
                check_stack_limit(
                    b,
                    reported_name(op),
                    type_.get_shape(),
                    list(op.dynamic_sizes),
                    element_bytes,
                )


class CheckExpandShape(RewritePattern):
    """`memref.expand_shape`: dynamic output sizes not negative, and each
    group's sizes make up its source dimension."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.ExpandShapeOp, rewriter: PatternRewriter
    ) -> None:
        if not isinstance(op.src.type, MemRefType) or not op.reassociation.data:
            return
        with _checks_before(op, rewriter) as b:
            check_expand_shape(
                b,
                reported_name(op),
                op.src,
                reassociation_groups(op.reassociation),
                op.static_output_shape.get_values(),
                list(op.output_shape),
            )


class CheckCollapseShape(RewritePattern):
    """`memref.collapse_shape` of a strided source: each group contiguous."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: memref.CollapseShapeOp, rewriter: PatternRewriter
    ) -> None:
        if not isinstance(op.src.type, MemRefType):
            return
        with _checks_before(op, rewriter) as b:
            check_collapse_shape(
                b,
                reported_name(op),
                op.src,
                reassociation_groups(op.reassociation),
            )


class CheckDim(RewritePattern):
    """`memref.dim` with an index not a constant in `[0, rank)`: in range,
    with the interpreter's message ("tensor.dim: dimension 3 of a tensor of
    rank 1" when bufferized from a `tensor.dim`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: memref.DimOp, rewriter: PatternRewriter) -> None:
        source_type = op.source.type
        if not isinstance(source_type, MemRefType):
            return
        rank = source_type.get_num_dims()
        value = _constant(op.index)
        if value is not None and 0 <= value < rank:
            return
        name = reported_name(op)
        kind = "tensor" if name == "tensor.dim" else "memref"
        with _checks_before(op, rewriter) as b:
            check_dim_index(b, name, kind, op.index, rank)


class CheckForStep(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ForOp, rewriter: PatternRewriter) -> None:
        step = _constant(op.step)
        if step is not None and step > 0:
            return
        with _checks_before(op, rewriter) as b:
            check_steps(b, op.name, [op.step])


class CheckParallelSteps(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.ParallelOp, rewriter: PatternRewriter) -> None:
        steps = list(op.step)
        if all((c := _constant(s)) is not None and c > 0 for s in steps):
            return
        with _checks_before(op, rewriter) as b:
            check_steps(b, op.name, steps)


@dataclass(frozen=True)
class InsertRuntimeChecksPass(ModulePass):
    """Insert `rtcheck.assert` before loads, stores, integer divisions and
    loops whose operands are not provably valid, with the interpreter's
    messages (see the module docstring)."""

    name = "insert-runtime-checks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        # One walk: the checks are inserted before their op, which is not
        # changed, so no op is visited twice.
        PatternRewriteWalker(
            GreedyRewritePatternApplier(
                [
                    CheckLoad(),
                    CheckStore(),
                    CheckVectorLoad(),
                    CheckVectorStore(),
                    CheckAffineLoad(),
                    CheckAffineStore(),
                    CheckDivision(),
                    CheckCopy(),
                    CheckSubview(),
                    CheckCast(),
                    CheckAllocation(),
                    CheckDim(),
                    CheckExpandShape(),
                    CheckCollapseShape(),
                    CheckForStep(),
                    CheckParallelSteps(),
                ],
                dce_enabled=False,
            ),
            apply_recursively=False,
        ).rewrite_module(op)
