"""The `linalg_ext` dialect: ByteIR's Linalg extensions, declared with IRDL.

Every op parses and prints ByteIR's own textual form, in the tensor form (the
op returns one result per tensor output) and the memref form (no results).
The verifiers check every operand: counts, element types, ranks, static
extents (a dynamic `?` is compatible with anything), attributes in range,
region signatures and terminators. Messages start with `'<op name>' op`, as
MLIR's do.

The numerical meaning of each op is written down in `docs/ops/`.

    from xdsl.context import Context
    from linalg_ext.dialect import LinalgExt

    ctx = Context()
    ctx.load_dialect(LinalgExt)
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    I64,
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    Float64Type,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    MemRefType,
    ShapedType,
    StringAttr,
    TensorType,
    i1,
)
from xdsl.dialects.linalg import ops as upstream_linalg
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.utils import AbstractYieldOperation
from xdsl.ir import Attribute, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import (
    EffectInstance,
    IsTerminator,
    MemoryEffect,
    MemoryEffectKind,
    Pure,
    get_effects,
)

from linalg_ext.assembly import (
    I64ArrayList,
    MlirF64,
    parse_optional_operand_group,
    print_operand_group,
)
from linalg_ext.shaped import (
    Shape,
    drop_dims,
    extents_compatible,
    format_shape,
    is_ranked_shaped,
    join_shapes,
    rank_of,
    rank_of_value,
    shape_of,
    shapes_compatible,
)
from linalg_ext.transforms.affine_maps import projection
from linalg_ext.transforms.dps import iterator_types
from linalg_ext.type_functions import (
    can_cast_signed,
    cast_signed,
    is_int_or_float,
)
from linalg_ext.verification import op_error

BATCH_MATMUL_LAYOUTS = ("nn", "nt", "tn", "tt")


# --------------------------------------------------------------------------
# Verification helpers: each raises with the op's name in front of the reason.
# --------------------------------------------------------------------------


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _expect_count(
    op: Operation, what: str, got: int, allowed: Sequence[int], names: str
) -> None:
    if got not in allowed:
        expected = " or ".join(str(n) for n in allowed[:-1])
        expected += (" or " if expected else "") + _count(
            allowed[-1], f"{what} operand"
        )
        op_error(op, f"expected {expected} ({names}), got {got}")


def _expect_rank_at_least(op: Operation, role: str, type_: ShapedType, least: int):
    if rank_of(type_) < least:
        op_error(op, f"expected {role} to have rank >= {least}, got {type_}")


def _expect_shape(
    op: Operation, role: str, type_: ShapedType, expected: Shape
) -> Shape:
    """Rank must match exactly; each static extent must match a static one.

    Returns what `expected` and the operand's shape say together, for the
    next operand to be checked against.
    """
    if rank_of(type_) != len(expected):
        op_error(op, f"expected {role} to have rank {len(expected)}, got {type_}")
    if not shapes_compatible(shape_of(type_), expected):
        op_error(
            op,
            f"expected {role} shape to be compatible with {format_shape(expected)}, "
            f"got {type_}",
        )
    return join_shapes(expected, shape_of(type_))


def _expect_same_element_type(
    op: Operation, role: str, type_: ShapedType, ref_role: str, ref: ShapedType
):
    if type_.get_element_type() != ref.get_element_type():
        op_error(
            op,
            f"expected {role} element type to match {ref_role} element type "
            f"{ref.get_element_type()}, got {type_.get_element_type()}",
        )


def _expect_float_elements(op: Operation, role: str, type_: ShapedType):
    if not isinstance(type_.get_element_type(), AnyFloat):
        op_error(
            op,
            f"expected {role} element type to be a float type, "
            f"got {type_.get_element_type()}",
        )


def _expect_integer_elements(op: Operation, role: str, type_: ShapedType):
    if not isinstance(type_.get_element_type(), IntegerType | IndexType):
        op_error(
            op,
            f"expected {role} element type to be an integer or index type, "
            f"got {type_.get_element_type()}",
        )


def _expect_dimension_in_range(op: Operation, name: str, value: int, rank: int):
    if not 0 <= value < rank:
        op_error(op, f"expected {name} to be in [0, {rank}), got {value}")


def _verify_destination_style(
    op: Operation,
    operand_roles: Sequence[tuple[str, SSAValue]],
    outputs: Sequence[SSAValue],
    results: Sequence[SSAValue],
) -> None:
    """Ranked shaped operands with pure tensor or pure buffer semantics, and
    results mirroring the tensor outputs.

    ByteIR (through MLIR's DestinationStyleOpInterface) lets a tensor op carry
    memref operands; we do not, because such an op has no single meaning.
    """
    for role, value in operand_roles:
        if not is_ranked_shaped(value.type):
            op_error(
                op, f"expected {role} to be a ranked tensor or memref, got {value.type}"
            )
    shaped = [value.type for _, value in operand_roles]
    has_tensor = any(isinstance(t, TensorType) for t in shaped)
    has_memref = any(isinstance(t, MemRefType) for t in shaped)
    if has_tensor and has_memref:
        op_error(op, "expected all operands to be tensors or all to be memrefs")
    if has_memref:
        if results:
            op_error(op, f"expected no results on memref operands, got {len(results)}")
        return
    if len(results) != len(outputs):
        op_error(
            op,
            f"expected one result per tensor output ({len(outputs)}), "
            f"got {len(results)}",
        )
    for index, (output, result) in enumerate(zip(outputs, results, strict=True)):
        if output.type != result.type:
            op_error(
                op,
                f"expected result #{index} type to match output #{index} type "
                f"{output.type}, got {result.type}",
            )


def _verify_body(
    op: Operation,
    region: Region,
    terminator_type: type[Operation],
    arg_types: Sequence[Attribute],
    arg_names: str,
    yield_types: Sequence[Attribute],
    yield_names: str,
) -> None:
    """The region is one block with the given signature, ending in a yield."""
    if len(region.blocks) != 1:
        op_error(op, f"expected a region with one block, got {len(region.blocks)}")
    block = region.block
    if len(block.args) != len(arg_types):
        op_error(
            op,
            f"expected the region to take {_count(len(arg_types), 'argument')} "
            f"({arg_names}), "
            f"got {len(block.args)}",
        )
    for index, (arg, expected) in enumerate(zip(block.args, arg_types, strict=True)):
        if arg.type != expected:
            op_error(
                op,
                f"expected region argument #{index} to be of type {expected}, "
                f"got {arg.type}",
            )
    terminator = block.last_op
    if not isinstance(terminator, terminator_type):
        op_error(op, f"expected the region to end with {terminator_type.name}")
    yielded = terminator.operands
    if len(yielded) != len(yield_types):
        op_error(
            op,
            f"expected the region to yield {_count(len(yield_types), 'value')} "
            f"({yield_names}), got {len(yielded)}",
        )
    for index, (value, expected) in enumerate(zip(yielded, yield_types, strict=True)):
        if value.type != expected:
            op_error(
                op,
                f"expected yielded value #{index} to be of type {expected}, "
                f"got {value.type}",
            )


class DestinationStyleMemoryEffect(MemoryEffect):
    """Reads of memref inputs, reads and writes of memref outputs, and whatever
    the op's body does (unknown if the body has an op of unknown effects).

    On tensors that leaves only the body's effects, so an unused tensor-form op
    is dead and `dce` may remove it; on memrefs the writes keep it alive. This
    is what ByteIR's `getEffects` declares.
    """

    @classmethod
    def get_effects(cls, op: Operation) -> set[EffectInstance] | None:
        assert isinstance(op, LinalgExtDpsOp | BatchMatmulOp)
        effects = set[EffectInstance]()
        for value in op.inputs:
            if isinstance(value.type, MemRefType):
                effects.add(EffectInstance(MemoryEffectKind.READ, value))
        for value in op.outputs:
            if isinstance(value.type, MemRefType):
                effects.add(EffectInstance(MemoryEffectKind.READ, value))
                effects.add(EffectInstance(MemoryEffectKind.WRITE, value))
        for region in op.regions:
            for nested in region.walk():
                # The body's terminator only hands values back to this op.
                # (`linalg.yield` declares no effects in xDSL, so ask no trait.)
                # An unregistered op is never taken for a terminator here: its
                # effects are unknown.
                block = nested.parent_block()
                if (
                    block is not None
                    and block.last_op is nested
                    and nested.parent_op() is op
                    and nested.has_trait(IsTerminator, value_if_unregistered=False)
                ):
                    continue
                nested_effects = get_effects(nested)
                if nested_effects is None:
                    return None
                effects.update(nested_effects)
        return effects


# --------------------------------------------------------------------------
# Base of the destination-passing ops: `ins(...) outs(...)` with results
# mirroring the tensor outputs.
# --------------------------------------------------------------------------


def _input_loops(
    op: LinalgExtDpsOp, reduced: Sequence[int]
) -> ArrayAttr[IteratorTypeAttr]:
    """The loops of an op iterating over its first input, `reduced` being
    reductions (ByteIR's getLoopIteratorTypes for scan, softmax, topk and
    layer_norm)."""
    return iterator_types(rank_of_value(op.inputs[0]), reduced)


class LinalgExtDpsOp(IRDLOperation, ABC):
    """An op with variadic `inputs` and `outputs` (ByteIR's `LinalgExt_Op`).

    Subclasses implement `verify_operands` for their own operand rules; the
    destination-style rules (pure tensor or memref, results = tensor outputs)
    are checked here first.
    """

    # Operand and result types are checked by the verifier rather than by IRDL
    # constraints, so that a wrong type is reported with the operand's name.
    inputs = var_operand_def()
    outputs = var_operand_def()
    res = var_result_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = traits_def(DestinationStyleMemoryEffect())

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        *,
        properties: Mapping[str, Attribute | None] | None = None,
        attributes: Mapping[str, Attribute | None] | None = None,
        regions: Sequence[Region] = (),
    ):
        super().__init__(
            operands=[inputs, outputs],
            result_types=[[o.type for o in outputs if isinstance(o.type, TensorType)]],
            properties=properties,
            attributes=attributes,
            regions=regions,
        )

    def verify_(self) -> None:
        roles = [(f"input #{i}", v) for i, v in enumerate(self.inputs)]
        roles += [(f"output #{i}", v) for i, v in enumerate(self.outputs)]
        _verify_destination_style(self, roles, self.outputs, self.res)
        self.verify_operands()

    def verify_operands(self) -> None:
        raise NotImplementedError

    def reads_output(self, index: int) -> bool:
        """Whether the op reads the old value of output `index` (so a pass that
        changes its destination must keep those values there). True unless
        the op is known to overwrite all of it."""
        return True


_INS = "(`ins` `(` $inputs^ `:` type($inputs) `)`)?"
_OUTS = "(`outs` `(` $outputs^ `:` type($outputs) `)`)?"


# --------------------------------------------------------------------------
# softmax and unnorm_softmax
# --------------------------------------------------------------------------


class SoftmaxLikeOp(LinalgExtDpsOp, ABC):
    """Shared operand layout of `softmax` and `unnorm_softmax`.

    ins(input) outs(output, max, accumulator, scale); `dimension` is reduced.
    """

    dimension = prop_def(IntegerAttr[I64])

    assembly_format = (
        f"attr-dict `dimension` `(` $dimension `)` {_INS} {_OUTS} (`:` type($res)^)?"
    )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The input's loops; `dimension` is a reduction."""
        return _input_loops(self, (self.dimension.value.data,))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """input and output: identity; max, accumulator, scale: without
        `dimension`."""
        rank = rank_of_value(self.inputs[0])
        identity = AffineMapAttr(AffineMap.identity(rank))
        reduced = AffineMapAttr(projection(rank, (self.dimension.value.data,)))
        return ArrayAttr((identity, identity, reduced, reduced, reduced))

    def __init__(
        self,
        input: SSAValue,
        outputs: Sequence[SSAValue],
        dimension: int,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            [input],
            outputs,
            properties={"dimension": IntegerAttr(dimension, 64)},
            attributes=attributes,
        )

    def verify_operands(self) -> None:
        _expect_count(self, "input", len(self.inputs), (1,), "input")
        _expect_count(
            self, "output", len(self.outputs), (4,), "output, max, accumulator, scale"
        )
        input_type = self.inputs[0].type
        assert isinstance(input_type, ShapedType)
        _expect_rank_at_least(self, "input", input_type, 1)
        _expect_float_elements(self, "input", input_type)
        dimension = self.dimension.value.data
        _expect_dimension_in_range(self, "dimension", dimension, rank_of(input_type))
        for role, value in zip(
            ("output", "max", "accumulator", "scale"), self.outputs, strict=True
        ):
            assert isinstance(value.type, ShapedType)
            _expect_same_element_type(self, role, value.type, "input", input_type)
        output_type = self.outputs[0].type
        assert isinstance(output_type, ShapedType)
        shape = _expect_shape(self, "output", output_type, shape_of(input_type))
        reduced_shape = drop_dims(shape, [dimension])
        for role, value in zip(
            ("max", "accumulator", "scale"), self.outputs[1:], strict=True
        ):
            assert isinstance(value.type, ShapedType)
            reduced_shape = _expect_shape(self, role, value.type, reduced_shape)


@irdl_op_definition
class SoftmaxOp(SoftmaxLikeOp):
    """Softmax along `dimension`, continuing from running max/sum inits.

    With m0 = max init, a0 = accumulator init, x = input:
    max = max(m0, max_d x); acc = a0·exp(m0 − max) + Σ_d exp(x − max);
    output = exp(x − max) / acc; scale = a0·exp(m0 − max) / acc.
    """

    name = "linalg_ext.softmax"


@irdl_op_definition
class UnnormSoftmaxOp(SoftmaxLikeOp):
    """Unnormalised softmax: like `softmax`, without the division.

    max and accumulator as for softmax; output = exp(x − max);
    scale = exp(m0 − max).
    """

    name = "linalg_ext.unnorm_softmax"


# --------------------------------------------------------------------------
# diag
# --------------------------------------------------------------------------


@irdl_op_definition
class DiagOp(LinalgExtDpsOp):
    """A diagonal matrix from the last dimension of its input.

    ins(input: [B..., N]) outs(output: [B..., N, N]);
    output[b, i, j] = input[b, i] if i == j else 0.
    """

    name = "linalg_ext.diag"

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """One parallel loop per output dimension."""
        return iterator_types(rank_of_value(self.outputs[0]))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """input: (b..., i, j) -> (b..., i); output: identity. The input is
        only read where i == j: the maps say which elements exist, not which
        are read."""
        rank = rank_of_value(self.outputs[0])
        return ArrayAttr(
            (
                AffineMapAttr(projection(rank, (rank - 1,))),
                AffineMapAttr(AffineMap.identity(rank)),
            )
        )

    def reads_output(self, index: int) -> bool:
        return False  # every element, on the diagonal or not, is written

    assembly_format = f"attr-dict {_INS} {_OUTS} (`:` type($res)^)?"

    def __init__(
        self,
        input: SSAValue,
        output: SSAValue,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__([input], [output], attributes=attributes)

    def verify_operands(self) -> None:
        _expect_count(self, "input", len(self.inputs), (1,), "input")
        _expect_count(self, "output", len(self.outputs), (1,), "output")
        input_type, output_type = self.inputs[0].type, self.outputs[0].type
        assert isinstance(input_type, ShapedType)
        assert isinstance(output_type, ShapedType)
        _expect_rank_at_least(self, "input", input_type, 1)
        _expect_same_element_type(self, "output", output_type, "input", input_type)
        input_shape = shape_of(input_type)
        shape = _expect_shape(
            self, "output", output_type, input_shape + input_shape[-1:]
        )
        if not extents_compatible(shape[-2], shape[-1]):
            op_error(
                self,
                f"expected output to be square in its last two dimensions, "
                f"got {output_type}",
            )


# --------------------------------------------------------------------------
# scan
# --------------------------------------------------------------------------


@irdl_op_definition
class ScanOp(LinalgExtDpsOp):
    """Inclusive or exclusive scan along `dimension` with a combiner region.

    ins(input) outs(output, accumulator); the accumulator (rank − 1) is the
    carry-in and receives the carry-out. The region combines
    (running value, element) into the next running value.
    """

    name = "linalg_ext.scan"

    dimension = prop_def(IntegerAttr[I64])
    inclusive = prop_def(BoolAttr)
    region = region_def()

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The input's loops; `dimension` is a reduction."""
        return _input_loops(self, (self.dimension.value.data,))

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        """input and output: identity; accumulator: without `dimension`."""
        rank = rank_of_value(self.inputs[0])
        return ArrayAttr(
            (
                AffineMapAttr(AffineMap.identity(rank)),
                AffineMapAttr(AffineMap.identity(rank)),
                AffineMapAttr(projection(rank, (self.dimension.value.data,))),
            )
        )

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)` `inclusive` `(` $inclusive `)` "
        "`ins` `(` $inputs `:` type($inputs) `)` "
        "`outs` `(` $outputs `:` type($outputs) `)` "
        "$region (`->` type($res)^)?"
    )

    def __init__(
        self,
        input: SSAValue,
        outputs: Sequence[SSAValue],
        dimension: int,
        inclusive: bool,
        region: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            [input],
            outputs,
            properties={
                "dimension": IntegerAttr(dimension, 64),
                "inclusive": IntegerAttr(int(inclusive), 1),
            },
            attributes=attributes,
            regions=[region],
        )

    def verify_operands(self) -> None:
        _expect_count(self, "input", len(self.inputs), (1,), "input")
        _expect_count(self, "output", len(self.outputs), (2,), "output, accumulator")
        input_type = self.inputs[0].type
        output_type, accumulator_type = (o.type for o in self.outputs)
        assert isinstance(input_type, ShapedType)
        assert isinstance(output_type, ShapedType)
        assert isinstance(accumulator_type, ShapedType)
        _expect_rank_at_least(self, "input", input_type, 1)
        dimension = self.dimension.value.data
        _expect_dimension_in_range(self, "dimension", dimension, rank_of(input_type))
        _expect_same_element_type(self, "output", output_type, "input", input_type)
        _expect_same_element_type(
            self, "accumulator", accumulator_type, "input", input_type
        )
        shape = _expect_shape(self, "output", output_type, shape_of(input_type))
        _expect_shape(
            self, "accumulator", accumulator_type, drop_dims(shape, [dimension])
        )
        element = input_type.get_element_type()
        _verify_body(
            self,
            self.region,
            YieldOp,
            (element, element),
            "running value, element",
            (element,),
            "next running value",
        )


# --------------------------------------------------------------------------
# scatter
# --------------------------------------------------------------------------


@irdl_op_definition
class ScatterOp(LinalgExtDpsOp):
    """Update `src` at positions given by `indices` with `updates`.

    ins(indices: [B..., D], updates: [B..., W...]) outs(src: [S0..S(D-1), W...]);
    for each batch position b, in row-major order, and window position w:
    src[indices[b, :], w] = combine(src[indices[b, :], w], updates[b, w]).
    """

    name = "linalg_ext.scatter"

    region = region_def()

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The updates' loops: the batch loops are reductions (two updates
        may hit one position), the window loops parallel."""
        batches = rank_of_value(self.inputs[0]) - 1
        return iterator_types(rank_of_value(self.inputs[1]), tuple(range(batches)))

    assembly_format = (
        "attr-dict `ins` `(` $inputs `:` type($inputs) `)` "
        "`outs` `(` $outputs `:` type($outputs) `)` "
        "$region (`->` type($res)^)?"
    )

    def __init__(
        self,
        indices: SSAValue,
        updates: SSAValue,
        src: SSAValue,
        region: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            [indices, updates], [src], attributes=attributes, regions=[region]
        )

    def verify_operands(self) -> None:
        _expect_count(self, "input", len(self.inputs), (2,), "indices, updates")
        _expect_count(self, "output", len(self.outputs), (1,), "src")
        indices_type, updates_type = (i.type for i in self.inputs)
        src_type = self.outputs[0].type
        assert isinstance(indices_type, ShapedType)
        assert isinstance(updates_type, ShapedType)
        assert isinstance(src_type, ShapedType)
        _expect_integer_elements(self, "indices", indices_type)
        _expect_same_element_type(self, "updates", updates_type, "src", src_type)
        _expect_rank_at_least(self, "indices", indices_type, 1)
        indices_shape = shape_of(indices_type)
        updates_shape = shape_of(updates_type)
        src_shape = shape_of(src_type)
        index_depth = indices_shape[-1]
        if index_depth < 0:
            op_error(
                self,
                f"expected the last dimension of indices to be static, "
                f"got {indices_type}",
            )
        batch_rank = len(indices_shape) - 1
        _expect_rank_at_least(self, "updates", updates_type, batch_rank)
        if not shapes_compatible(
            updates_shape[:batch_rank], indices_shape[:batch_rank]
        ):
            op_error(
                self,
                f"expected updates to start with the batch dimensions of indices "
                f"{format_shape(indices_shape[:batch_rank])}, got {updates_type}",
            )
        window_shape = updates_shape[batch_rank:]
        if len(src_shape) != index_depth + len(window_shape):
            op_error(
                self,
                f"expected src to have rank {index_depth + len(window_shape)} "
                f"(index depth {index_depth} + window rank {len(window_shape)}), "
                f"got {src_type}",
            )
        if not shapes_compatible(src_shape[index_depth:], window_shape):
            op_error(
                self,
                f"expected src to end with the window dimensions of updates "
                f"{format_shape(window_shape)}, got {src_type}",
            )
        _verify_body(
            self,
            self.region,
            YieldOp,
            (src_type.get_element_type(), updates_type.get_element_type()),
            "src element, update element",
            (src_type.get_element_type(),),
            "new src element",
        )


# --------------------------------------------------------------------------
# topk
# --------------------------------------------------------------------------


@irdl_op_definition
class TopkOp(LinalgExtDpsOp):
    """The first K elements along `dimension` in comparator order.

    ins(values [, indices]) outs(output values, output indices); K is the
    extent of the outputs along `dimension`. The region (a, b) -> i1 says
    whether a comes before b; ties keep the smaller original index first.
    """

    name = "linalg_ext.topk"

    dimension = prop_def(IntegerAttr[I64])
    region = region_def()

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The input's loops; `dimension` is a reduction."""
        return _input_loops(self, (self.dimension.value.data,))

    assembly_format = (
        "attr-dict `dimension` `(` $dimension `)` "
        "`ins` `(` $inputs `:` type($inputs) `)` "
        "`outs` `(` $outputs `:` type($outputs) `)` "
        "$region (`->` type($res)^)?"
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        dimension: int,
        region: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            inputs,
            outputs,
            properties={"dimension": IntegerAttr(dimension, 64)},
            attributes=attributes,
            regions=[region],
        )

    def verify_operands(self) -> None:
        _expect_count(
            self, "input", len(self.inputs), (1, 2), "values, optional indices"
        )
        _expect_count(self, "output", len(self.outputs), (2,), "values, indices")
        values_type = self.inputs[0].type
        out_values_type, out_indices_type = (o.type for o in self.outputs)
        assert isinstance(values_type, ShapedType)
        assert isinstance(out_values_type, ShapedType)
        assert isinstance(out_indices_type, ShapedType)
        _expect_rank_at_least(self, "input values", values_type, 1)
        rank = rank_of(values_type)
        dimension = self.dimension.value.data
        _expect_dimension_in_range(self, "dimension", dimension, rank)
        values_shape = shape_of(values_type)
        if len(self.inputs) == 2:
            in_indices_type = self.inputs[1].type
            assert isinstance(in_indices_type, ShapedType)
            _expect_integer_elements(self, "input indices", in_indices_type)
            values_shape = _expect_shape(
                self, "input indices", in_indices_type, values_shape
            )
            _expect_same_element_type(
                self,
                "output indices",
                out_indices_type,
                "input indices",
                in_indices_type,
            )
        _expect_same_element_type(
            self, "output values", out_values_type, "input values", values_type
        )
        _expect_integer_elements(self, "output indices", out_indices_type)
        if rank_of(out_values_type) != rank:
            op_error(
                self,
                f"expected output values to have rank {rank}, got {out_values_type}",
            )
        # The outputs have the input's shape but along `dimension`, where both
        # have the extent K.
        k_extent = shape_of(out_values_type)[dimension]
        out_shape = _expect_shape(
            self,
            "output values",
            out_values_type,
            values_shape[:dimension] + (k_extent,) + values_shape[dimension + 1 :],
        )
        out_shape = _expect_shape(self, "output indices", out_indices_type, out_shape)
        k, n = out_shape[dimension], values_shape[dimension]
        if k >= 0 and n >= 0 and k > n:
            op_error(
                self,
                f"expected K ({k}, the outputs' extent along dimension {dimension}) "
                f"not to exceed the input extent along that dimension ({n})",
            )
        element = values_type.get_element_type()
        _verify_body(
            self,
            self.region,
            YieldOp,
            (element, element),
            "lhs value, rhs value",
            (i1,),
            "lhs comes first",
        )


# --------------------------------------------------------------------------
# layer_norm
# --------------------------------------------------------------------------


@irdl_op_definition
class LayerNormOp(LinalgExtDpsOp):
    """Layer normalisation over the `axis` dimensions.

    ins(input [, weight, bias]) outs(output [, mean, rstd]);
    output = (x − mean) · rstd · weight + bias with the biased variance and
    rstd = 1 / sqrt(var + epsilon).
    """

    name = "linalg_ext.layer_norm"

    axis = prop_def(ArrayAttr[IntegerAttr[I64]])
    epsilon = prop_def(FloatAttr[Float64Type])

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        """The input's loops; the `axis` dimensions are reductions."""
        axes = tuple(a.value.data for a in self.axis)
        return _input_loops(self, axes)

    custom_directives = (I64ArrayList, MlirF64)
    assembly_format = (
        "attr-dict `axis` `(` custom<I64ArrayList>($axis) `)` "
        f"`epsilon` `(` custom<MlirF64>($epsilon) `)` {_INS} {_OUTS} "
        "(`:` type($res)^)?"
    )

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        axis: Sequence[int],
        epsilon: float,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            inputs,
            outputs,
            properties={
                "axis": ArrayAttr(IntegerAttr(a, 64) for a in axis),
                "epsilon": FloatAttr(epsilon, Float64Type()),
            },
            attributes=attributes,
        )

    @property
    def axis_values(self) -> tuple[int, ...]:
        return tuple(a.value.data for a in self.axis.data)

    def verify_operands(self) -> None:
        _expect_count(self, "input", len(self.inputs), (1, 3), "input, weight, bias")
        _expect_count(self, "output", len(self.outputs), (1, 3), "output, mean, rstd")
        input_type = self.inputs[0].type
        assert isinstance(input_type, ShapedType)
        _expect_float_elements(self, "input", input_type)
        rank = rank_of(input_type)
        axis = self.axis_values
        if not axis:
            op_error(self, "expected at least one axis")
        for a in axis:
            _expect_dimension_in_range(self, "axis", a, rank)
        if list(axis) != sorted(set(axis)):
            op_error(self, f"expected axis to be strictly increasing, got {list(axis)}")
        epsilon = self.epsilon.value.data
        if not epsilon >= 0.0 or epsilon == float("inf"):
            op_error(self, f"expected epsilon to be finite and >= 0, got {epsilon}")
        operand_types = [v.type for v in (*self.inputs, *self.outputs)]
        roles = ("input", "weight", "bias")[: len(self.inputs)]
        roles += ("output", "mean", "rstd")[: len(self.outputs)]
        for role, type_ in zip(roles[1:], operand_types[1:], strict=True):
            assert isinstance(type_, ShapedType)
            _expect_same_element_type(self, role, type_, "input", input_type)
        output_type = self.outputs[0].type
        assert isinstance(output_type, ShapedType)
        shape = _expect_shape(self, "output", output_type, shape_of(input_type))
        if len(self.inputs) == 3:
            normalized_shape = tuple(shape[a] for a in axis)
            for role, value in zip(("weight", "bias"), self.inputs[1:], strict=True):
                assert isinstance(value.type, ShapedType)
                normalized_shape = _expect_shape(
                    self, role, value.type, normalized_shape
                )
        if len(self.outputs) == 3:
            statistics_shape = drop_dims(shape, axis)
            for role, value in zip(("mean", "rstd"), self.outputs[1:], strict=True):
                assert isinstance(value.type, ShapedType)
                statistics_shape = _expect_shape(
                    self, role, value.type, statistics_shape
                )


# --------------------------------------------------------------------------
# custom
# --------------------------------------------------------------------------


@irdl_op_definition
class CustomOp(LinalgExtDpsOp):
    """An opaque computation wrapped in destination-passing form.

    The region takes every operand whole (inputs, then outputs) and yields
    one value per output, of the output's type: the op's results (tensors) or
    the new contents of the output buffers (memrefs).
    """

    name = "linalg_ext.custom"

    region = region_def()

    # ByteIR declares custom with `SingleBlockImplicitTerminator<YieldOp>`: a
    # body may omit an operand-less `linalg_ext.yield`, and it is not printed.
    # xDSL's declarative format has no implicit terminators, hence the
    # hand-written syntax: [attr-dict] [ins(...)] outs(...) region [-> types].

    @classmethod
    def parse(cls, parser: Parser) -> CustomOp:
        attributes = parser.parse_optional_attr_dict()
        ins = parse_optional_operand_group(parser, "ins") or []
        outs = parse_optional_operand_group(parser, "outs")
        if outs is None:
            parser.raise_error("Expected 'outs' in 'linalg_ext.custom'")
        region = parser.parse_region()
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_type
            )
        if len(region.blocks) == 1 and not (
            (last := region.block.last_op) is not None
            and last.has_trait(IsTerminator, value_if_unregistered=False)
        ):
            region.block.add_op(YieldOp())
        return cls.build(
            operands=[ins, outs],
            result_types=[result_types],
            attributes=attributes,
            regions=[region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        if self.inputs:
            print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        printer.print_string(" ")
        terminator = self.region.block.last_op if len(self.region.blocks) == 1 else None
        implicit = (
            isinstance(terminator, YieldOp)
            and not terminator.operands
            and not terminator.attributes
        )
        printer.print_region(self.region, print_block_terminators=not implicit)
        if self.res:
            printer.print_string(" -> ")
            printer.print_list([r.type for r in self.res], printer.print_attribute)

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue],
        region: Region,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(inputs, outputs, attributes=attributes, regions=[region])

    def verify_operands(self) -> None:
        if not self.outputs:
            op_error(self, "expected at least one output operand")
        input_types = [i.type for i in self.inputs]
        output_types = [o.type for o in self.outputs]
        yield_types, yield_names = output_types, "one per output, of its type"
        on_memrefs = isinstance(output_types[0], MemRefType)
        if on_memrefs and len(self.region.blocks) == 1:
            terminator = self.region.block.last_op
            if isinstance(terminator, YieldOp) and not terminator.operands:
                # The body wrote the output buffers in place.
                yield_types = []
        _verify_body(
            self,
            self.region,
            YieldOp,
            input_types + output_types,
            "one per input and output, of its type",
            yield_types,
            yield_names + (", or none on memrefs" if on_memrefs else ""),
        )


# --------------------------------------------------------------------------
# batch_matmul (a structured op with a hidden multiply-accumulate region)
# --------------------------------------------------------------------------


def batch_matmul_body(
    lhs_element: Attribute, rhs_element: Attribute, out_element: Attribute
) -> Region:
    """`out + cast(lhs) * cast(rhs)`, yielded with `linalg.yield`.

    This is the region ByteIR fills in with Linalg's batch_matmul region
    builder; it is hidden in the custom form and explicit in the generic one.
    """
    add, mul = (
        (arith.AddfOp, arith.MulfOp)
        if isinstance(out_element, AnyFloat)
        else (arith.AddiOp, arith.MuliOp)
    )

    @Builder.implicit_region((lhs_element, rhs_element, out_element))
    def body(args: tuple[BlockArgument, ...]) -> None:
        lhs = cast_signed(args[0], out_element)
        rhs = cast_signed(args[1], out_element)
        product = mul(lhs, rhs)
        upstream_linalg.YieldOp(add(args[2], product))

    return body


@irdl_op_definition
class BatchMatmulOp(IRDLOperation):
    """Batched matrix multiply of rank >= 3 operands in one of four layouts.

    ins(lhs, rhs) outs(init) layout = "nn" | "nt" | "tn" | "tt". The first
    letter says whether lhs is [B..., M, K] (n) or [B..., K, M] (t); the
    second whether rhs is [B..., K, N] (n) or [B..., N, K] (t). init is
    [B..., M, N] and is accumulated into. Inputs are cast to the init's
    element type before the multiply.
    """

    name = "linalg_ext.batch_matmul"

    lhs = operand_def()
    rhs = operand_def()
    init = operand_def()
    layout = prop_def(StringAttr)
    res = var_result_def()
    body = region_def()

    traits = traits_def(DestinationStyleMemoryEffect())

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        init: SSAValue,
        layout: str,
        attributes: Mapping[str, Attribute] | None = None,
    ):
        element_types = [
            v.type.get_element_type()
            for v in (lhs, rhs, init)
            if isinstance(v.type, ShapedType)
        ]
        super().__init__(
            operands=[lhs, rhs, init],
            result_types=[[init.type] if isinstance(init.type, TensorType) else []],
            properties={"layout": StringAttr(layout)},
            attributes=attributes,
            regions=[batch_matmul_body(*element_types)],
        )

    @property
    def inputs(self) -> tuple[SSAValue, SSAValue]:
        return (self.lhs, self.rhs)

    @property
    def outputs(self) -> tuple[SSAValue]:
        return (self.init,)

    @classmethod
    def parse(cls, parser: Parser) -> BatchMatmulOp:
        # ByteIR parses this with Linalg's `parseDstStyleOp`: an optional
        # attribute dictionary, ins, outs, then `layout = "..."`, then an
        # optional attribute dictionary. Result types follow from the init.
        attributes = parser.parse_optional_attr_dict()
        operands_pos = parser.pos
        ins = parse_optional_operand_group(parser, "ins")
        if ins is None:
            parser.raise_error("Expected 'ins' in 'linalg_ext.batch_matmul'")
        outs = parse_optional_operand_group(parser, "outs")
        if outs is None:
            parser.raise_error("Expected 'outs' in 'linalg_ext.batch_matmul'")
        parser.parse_keyword("layout", " in 'linalg_ext.batch_matmul'")
        parser.parse_punctuation("=")
        layout = parser.parse_str_literal(" for the batch_matmul layout")
        attributes |= parser.parse_optional_attr_dict()
        if "layout" in attributes:
            parser.raise_error(
                "'linalg_ext.batch_matmul' has its layout given twice, as "
                "`layout = ...` and in the attribute dictionary",
                operands_pos,
                parser.pos,
            )
        if len(ins) != 2 or len(outs) != 1:
            parser.raise_error(
                "'linalg_ext.batch_matmul' expects ins(lhs, rhs) and outs(init), "
                f"got {len(ins)} inputs and {len(outs)} outputs",
                operands_pos,
                parser.pos,
            )
        for value in (*ins, *outs):
            if not isinstance(value.type, ShapedType) or not is_int_or_float(
                value.type.get_element_type()
            ):
                parser.raise_error(
                    "'linalg_ext.batch_matmul' expects tensor or memref operands "
                    f"of integer or float elements, got {value.type}",
                    operands_pos,
                    parser.pos,
                )
        return cls(ins[0], ins[1], outs[0], layout, attributes)

    def print(self, printer: Printer) -> None:
        print_operand_group(printer, "ins", self.inputs)
        print_operand_group(printer, "outs", self.outputs)
        printer.print_string(f' layout = "{self.layout.data}"')
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _verify_destination_style(
            self,
            (("lhs", self.lhs), ("rhs", self.rhs), ("init", self.init)),
            self.outputs,
            self.res,
        )
        lhs_type, rhs_type, init_type = (
            v.type for v in (self.lhs, self.rhs, self.init)
        )
        assert isinstance(lhs_type, ShapedType)
        assert isinstance(rhs_type, ShapedType)
        assert isinstance(init_type, ShapedType)
        for role, type_ in (("lhs", lhs_type), ("rhs", rhs_type), ("init", init_type)):
            if not is_int_or_float(type_.get_element_type()):
                op_error(
                    self,
                    f"expected {role} element type to be an integer or float type, "
                    f"got {type_.get_element_type()}",
                )
        init_element = init_type.get_element_type()
        for role, type_ in (("lhs", lhs_type), ("rhs", rhs_type)):
            if not can_cast_signed(type_.get_element_type(), init_element):
                op_error(
                    self,
                    f"expected {role} element type {type_.get_element_type()} to "
                    f"convert to the init element type {init_element}: floats of "
                    f"the same width cannot be converted by extf or truncf",
                )
        layout = self.layout.data
        if layout not in BATCH_MATMUL_LAYOUTS:
            op_error(
                self,
                f'expected layout to be one of "nn", "nt", "tn", "tt", got "{layout}"',
            )
        _expect_rank_at_least(self, "lhs", lhs_type, 3)
        rank = rank_of(lhs_type)
        if rank_of(rhs_type) != rank or rank_of(init_type) != rank:
            op_error(
                self,
                f"expected lhs, rhs and init to have the same rank, got "
                f"{rank}, {rank_of(rhs_type)} and {rank_of(init_type)}",
            )
        lhs, rhs, init = shape_of(lhs_type), shape_of(rhs_type), shape_of(init_type)
        for index in range(rank - 2):
            extents = (lhs[index], rhs[index], init[index])
            if not all(extents_compatible(a, b) for a in extents for b in extents):
                op_error(
                    self,
                    f"expected batch dimension #{index} to agree, got "
                    f"{format_shape(extents)} for lhs, rhs and init",
                )
        m_lhs, k_lhs = (lhs[-2], lhs[-1]) if layout[0] == "n" else (lhs[-1], lhs[-2])
        k_rhs, n_rhs = (rhs[-2], rhs[-1]) if layout[1] == "n" else (rhs[-1], rhs[-2])
        for what, a_role, a, b_role, b in (
            ("M", "lhs", m_lhs, "init", init[-2]),
            ("N", "rhs", n_rhs, "init", init[-1]),
            ("K", "lhs", k_lhs, "rhs", k_rhs),
        ):
            if not extents_compatible(a, b):
                op_error(
                    self,
                    f'expected {what} to agree for layout "{layout}", got {a} in '
                    f"{a_role} and {b} in {b_role}",
                )
        _verify_body(
            self,
            self.body,
            upstream_linalg.YieldOp,
            tuple(t.get_element_type() for t in (lhs_type, rhs_type, init_type)),
            "lhs, rhs and init elements",
            (init_type.get_element_type(),),
            "new init element",
        )
        # The custom form prints no body and the parser rebuilds the standard
        # one, so any other body would silently change meaning on a round trip.
        expected_body = batch_matmul_body(
            *(t.get_element_type() for t in (lhs_type, rhs_type, init_type))
        )
        if not self.body.is_structurally_equivalent(expected_body):
            op_error(
                self,
                "expected the body to be the multiply-accumulate "
                "`init + cast(lhs) * cast(rhs)`, as the custom form implies",
            )


# --------------------------------------------------------------------------
# alias and yield
# --------------------------------------------------------------------------


@irdl_op_definition
class AliasOp(IRDLOperation):
    """The identity: `result` is `operand`.

    An auxiliary op of input-sharing fusion, kept apart from canonicalisation
    so a fused body can name the same input twice.
    """

    name = "linalg_ext.alias"

    operand = operand_def()
    result = result_def()

    traits = traits_def(Pure())

    assembly_format = "`(` $operand `:` type($operand) `)` attr-dict `:` type($result)"

    def __init__(self, operand: SSAValue):
        super().__init__(operands=[operand], result_types=[operand.type])

    def verify_(self) -> None:
        if self.operand.type != self.result.type:
            op_error(
                self,
                f"expected result type to match operand type {self.operand.type}, "
                f"got {self.result.type}",
            )


@irdl_op_definition
class YieldOp(AbstractYieldOperation[Attribute]):
    """Terminator of the regions of `scan`, `scatter`, `topk` and `custom`."""

    name = "linalg_ext.yield"

    traits = traits_def(IsTerminator(), Pure())

    PARENTS: ClassVar[tuple[type[Operation], ...]] = ()

    def verify_(self) -> None:
        parent = self.parent_op()
        if not isinstance(parent, self.PARENTS):
            names = ", ".join(f"'{p.name}'" for p in self.PARENTS)
            found = "no parent" if parent is None else f"'{parent.name}'"
            op_error(self, f"expects its parent op to be one of {names}, got {found}")


YieldOp.PARENTS = (ScanOp, ScatterOp, TopkOp, CustomOp)


LinalgExt = Dialect(
    "linalg_ext",
    [
        YieldOp,
        AliasOp,
        DiagOp,
        ScanOp,
        ScatterOp,
        SoftmaxOp,
        UnnormSoftmaxOp,
        TopkOp,
        LayerNormOp,
        BatchMatmulOp,
        CustomOp,
    ],
)
"""The `linalg_ext` dialect, ready for `Context.load_dialect`."""
