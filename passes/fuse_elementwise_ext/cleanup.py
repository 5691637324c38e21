"""The tidying that makes fusion possible and keeps fused ops small.

- `drop_redundant_inputs`: inputs read twice through the same map are
  merged, and inputs the body no longer reads are dropped (upstream's
  generic canonicalization), as long as the remaining operands still give
  every loop's size.
- `break_init_dependency`: an init whose value the body never reads is only
  a shape; it becomes a `tensor.empty` of that shape (upstream's
  RemoveOutsDependency), so the op no longer depends on the tensor that
  provided it. Its sizes are the equivalent sizes of an earlier tensor
  (looking through destination-style ops to their inits, ByteIR's
  extension), never `tensor.dim` of an intermediate: the seed's
  `may_more_break_outs_dependency` example.
- `simplify_dims`: `tensor.dim` of the result of a destination-style op
  becomes the equivalent size of an earlier tensor, for the same reason.
"""

from __future__ import annotations

from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.linalg.ops import FillOp, GenericOp
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free
from xdsl.transforms.canonicalization_patterns.arith import (
    FoldConstConstOp,
    SignlessIntegerBinaryOperationConstantProp,
)

from linalg_ext.shaped import is_ranked_shaped
from linalg_ext.transforms.affine_maps import dims_used
from linalg_ext.transforms.dps import (
    has_pure_tensor_semantics,
    init_for_result,
    is_structured,
)
from linalg_ext.transforms.shape_reification import reify_dim

from .fusion import maps_of


def drop_redundant_inputs(op: GenericOp) -> GenericOp:
    """`op`, or a copy of it (same region) without duplicate or unused
    inputs."""
    block = op.body.block
    maps = maps_of(op)
    num_inputs = len(op.inputs)
    output_maps = maps[num_inputs:]
    kept: list[int] = []
    seen: dict[tuple[SSAValue, object], int] = {}
    for i, value in enumerate(op.inputs):
        key = (value, maps[i])
        if key in seen:
            block.args[i].replace_all_uses_with(block.args[seen[key]])
            continue
        seen[key] = i
        kept.append(i)
    # Unused inputs go, unless their shape is the only one giving a loop's
    # size (with reductions, the inits do not give them all).
    loops = set(range(maps[0].num_dims)) if maps else set()
    for i in reversed(list(kept)):
        if block.args[i].uses:
            continue
        others = [maps[j] for j in kept if j != i] + output_maps
        if dims_used(others) >= loops:
            kept.remove(i)
    if len(kept) == num_inputs:
        return op
    for i in reversed(range(num_inputs)):
        if i not in kept:
            block.erase_arg(block.args[i])
    region = Rewriter.move_region_contents_to_new_regions(op.body)
    simplified = GenericOp(
        [op.inputs[i] for i in kept],
        list(op.outputs),
        region,
        [AffineMapAttr(maps[i]) for i in kept]
        + [AffineMapAttr(m) for m in output_maps],
        op.iterator_types,
        [r.type for r in op.results],
    )
    simplified.attributes.update(op.attributes)
    Rewriter.replace_op(op, simplified)
    return simplified


def break_init_dependency(op: GenericOp) -> bool:
    """Replace each init the body does not read by a `tensor.empty`; whether
    anything changed."""
    block = op.body.block
    num_inputs = len(op.inputs)
    changed = False
    for k, init in enumerate(op.outputs):
        if block.args[num_inputs + k].uses or not isinstance(init.type, TensorType):
            continue
        if isinstance(init, OpResult) and isinstance(init.op, tensor.EmptyOp):
            continue
        new_ops: list[Operation] = []
        rank = len(init.type.get_shape())
        sizes = [reify_dim(init, d, new_ops) for d in range(rank)]
        dynamic = [s for s in sizes if isinstance(s, SSAValue)]
        empty = tensor.EmptyOp(dynamic, init.type)
        new_ops.append(empty)
        Rewriter.insert_op(new_ops, InsertPoint.before(op))
        op.operands[num_inputs + k] = empty.tensor
        changed = True
    return changed


def simplify_dims(root: Operation) -> None:
    """`tensor.dim` of a destination-style result or of a `tensor.empty`, at
    a constant index, becomes the equivalent size of an earlier tensor."""
    for dim in [o for o in root.walk() if isinstance(o, tensor.DimOp)]:
        source, index = dim.source, dim.index
        if not (
            isinstance(source, OpResult)
            and isinstance(source.type, TensorType)
            and isinstance(index, OpResult)
            and isinstance(index.op, arith.ConstantOp)
            and isinstance(index.op.value, IntegerAttr)
        ):
            continue
        if not (
            isinstance(source.op, tensor.EmptyOp)
            or init_for_result(source.op, source.index) is not None
        ):
            continue
        d = index.op.value.value.data
        if not 0 <= d < len(source.type.get_shape()):
            continue  # out of range: left for the verifier or the run to report
        new_ops: list[Operation] = []
        size = reify_dim(source, d, new_ops)
        if isinstance(size, int):
            size_op = arith.ConstantOp(IntegerAttr.from_index_int_value(size))
            Rewriter.replace_op(dim, size_op)
            continue
        Rewriter.insert_op(new_ops, InsertPoint.before(dim))
        dim.result.replace_all_uses_with(size)
        Rewriter.erase_op(dim)


def _scalar_source(value: SSAValue) -> tuple[SSAValue | None, Operation | None]:
    """For an input that holds one value everywhere: that value, if it
    already exists as a scalar (a `linalg.fill`'s), or a scalar constant to
    create (a splat `arith.constant`)."""
    if not isinstance(value, OpResult):
        return None, None
    owner = value.op
    if isinstance(owner, FillOp) and isinstance(value.type, TensorType):
        scalar = owner.inputs[0]
        if not is_ranked_shaped(scalar.type):
            return scalar, None
    if isinstance(owner, arith.ConstantOp) and isinstance(value.type, TensorType):
        attr = owner.value
        if isinstance(attr, DenseIntOrFPElementsAttr) and attr.is_splat():
            element_type = value.type.get_element_type()
            (first, *_) = attr.get_values()
            # (An integer or float element is a Python int or float.)
            if isinstance(element_type, IntegerType | IndexType):
                assert isinstance(first, int)
                return None, arith.ConstantOp(IntegerAttr(int(first), element_type))
            if isinstance(element_type, AnyFloat):
                assert isinstance(first, int | float)
                return None, arith.ConstantOp(FloatAttr(float(first), element_type))
    return None, None


def fold_constant_inputs(op: GenericOp) -> bool:
    """Inputs that are the same value everywhere (a `linalg.fill`'s result,
    a splat constant) are read as that scalar in the body instead (upstream's
    FoldFillWithGenericOp and FoldScalarOrSplatConstant); the inputs are then
    unused and `drop_redundant_inputs` drops them. Whether anything changed."""
    block = op.body.block
    maps = maps_of(op)
    loops = set(range(maps[0].num_dims)) if maps else set()
    changed = False
    for i, value in enumerate(op.inputs):
        argument = block.args[i]
        if not argument.uses:
            continue
        # Only worth it if the input can then go: its shape may be the only
        # one giving some loop's size.
        if not dims_used(m for j, m in enumerate(maps) if j != i) >= loops:
            continue
        scalar, constant = _scalar_source(value)
        if constant is not None:
            Rewriter.insert_op(constant, InsertPoint.before(op))
            scalar = constant.results[0]
            scalar.name_hint = "cst"  # not the block argument's name
        if scalar is None or scalar.type != argument.type:
            continue
        argument.replace_all_uses_with(scalar)
        changed = True
    return changed


def _is_removable(op: Operation) -> bool:
    """Unused, and running it has no effect but its results: pure ops, and
    destination-style ops on tensors (they only make new tensors)."""
    if any(r.uses for r in op.results) or not op.results:
        return False
    if is_side_effect_free(op):
        return True
    return is_structured(op) and has_pure_tensor_semantics(op)


def erase_dead_ops(root: Operation) -> None:
    """Erase what fusion left unused (a folded `linalg.fill`, its
    `tensor.empty`, constants), as upstream's rewrite driver does."""
    for op in reversed(list(root.walk())):
        if op.parent is not None and _is_removable(op):
            Rewriter.erase_op(op)


def _is_whole_insert(op: tensor.InsertSliceOp) -> bool:
    """An insert of a tensor into one of the same static shape at offset 0
    with unit strides: the result is the source itself."""
    source_type, dest_type = op.source.type, op.dest.type
    if source_type != dest_type or not isinstance(dest_type, TensorType):
        return False
    shape = list(dest_type.get_shape())
    return (
        not op.offsets
        and not op.sizes
        and not op.strides
        and all(o == 0 for o in op.static_offsets.get_values())
        and list(op.static_sizes.get_values()) == shape
        and all(s == 1 for s in op.static_strides.get_values())
        and all(e >= 0 for e in shape)
    )


def fold_trivial_ops(root: ModuleOp) -> None:
    """The folds upstream's rewrite driver applies to every op it visits,
    that matter around fused ops: float and integer ops on two constants
    become a constant, and a whole-tensor `tensor.insert_slice` is its
    source."""
    for op in list(root.walk()):
        if op.parent is None:
            continue
        if isinstance(op, tensor.InsertSliceOp) and _is_whole_insert(op):
            op.result.replace_all_uses_with(op.source)
            Rewriter.erase_op(op)
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [FoldConstConstOp(), SignlessIntegerBinaryOperationConstantProp()]
        ),
        apply_recursively=True,
    ).rewrite_module(root)
