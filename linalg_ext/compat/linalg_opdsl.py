"""Upstream's OpDSL named Linalg ops that xDSL 0.74 lacks, from one table.

MLIR 22 defines its contractions, convolutions and poolings in OpDSL
(`LinalgNamedStructuredOps.yaml`); xDSL 0.74 has only `matmul`,
`quantized_matmul`, six 2-D convolutions and `pooling_nchw_max`. The ones
torch-mlir emits for real models (depthwise and grouped convolutions, 1-D
and 3-D convolutions and poolings, sum/min poolings, `matvec`, `dot`, ...)
are added here, each described by one `OpDslDescription` entry of
`DESCRIPTIONS`:

- its loops, named, in upstream's order (the order of the op's domain);
- the indexing map of each operand, over those names; in an operand of a
  windowed op, `oh*s0+kh*d0` reads the output position `oh` times the first
  stride plus the window position `kh` times the first dilation;
- its body kind (`BODY_KINDS`): `mac` (`out + cast(a) * cast(b)`), `mac_q`
  (the same with each factor minus its zero point, two scalar inputs),
  `sum`, `max`, `min`, `max_unsigned`, `min_unsigned` (a pooling: the
  output combined with the converted input; the second input only gives
  the window's shape).

A loop is parallel if the output's map uses it, a reduction otherwise (true
of every OpDSL op). The hidden body is built as MLIR 22's region builder
builds it (same ops, same order), so the generic form, the interpreter
(which runs the maps and the body), `linalg-generalization-ext` (which
clones the body), the loops and the tiling model all follow from the entry.

Syntax, as upstream's: `linalg.depthwise_conv_2d_nhwc_hwc {dilations =
dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(...)
outs(...) -> type` (`linalg_named_attrs.parse_named`/`print_named`);
`strides` and `dilations` default to ones when absent, and are printed only
when given, as upstream does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Self

from xdsl.builder import Builder
from xdsl.dialects import arith
from xdsl.dialects.builtin import (
    AffineMapAttr,
    AnyFloat,
    ArrayAttr,
    DenseIntElementsAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.dialects.linalg.ops import YieldOp
from xdsl.ir import Attribute, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, opt_attr_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException

from linalg_ext.compat.checks import (
    element_type,
    verify_destination_results,
    verify_shaped_operands,
)
from linalg_ext.type_functions import can_cast_signed, cast_signed
from linalg_ext.verification import op_error


@dataclass(frozen=True)
class OpDslDescription:
    """One OpDSL op: see the module doc."""

    name: str
    loops: str
    """The loop names, space separated, in upstream's order."""
    operands: tuple[str, ...]
    """Each operand's map results, comma separated (empty: a scalar), inputs
    then the output."""
    body: str
    """One of `BODY_KINDS`."""
    window: int = 0
    """How many strides and dilations the op takes (0: none)."""
    maps_property: bool = False
    """Whether the op carries its maps in an `indexing_maps` property that
    the IR may set (`batch_reduce_matmul`, an ODS op in MLIR 22, like
    `matmul`)."""

    @property
    def loop_names(self) -> list[str]:
        return self.loops.split()


BODY_KINDS = ("mac", "mac_q", "sum", "max", "min", "max_unsigned", "min_unsigned")


def _d(name: str, loops: str, *operands: str, body: str = "mac") -> OpDslDescription:
    window = sum(f"*s{i}" in "".join(operands) for i in range(3))
    return OpDslDescription(name, loops, operands, body, window)


_W1 = "ow*s0+kw*d0"
_W2 = "oh*s0+kh*d0, ow*s1+kw*d1"
_W3 = "od*s0+kd*d0, oh*s1+kh*d1, ow*s2+kw*d2"


def _pooling(layout: str, kinds: Sequence[str]) -> list[OpDslDescription]:
    """`pooling_<layout>_<kind>` for each kind: `n`, the channel `c` and the
    output positions parallel, then the window positions."""
    spatial = {1: ("ow", "kw", _W1), 2: ("oh ow", "kh kw", _W2)}.get(
        len(layout) - 2, ("od oh ow", "kd kh kw", _W3)
    )
    outs, window, reads = spatial
    channels_last = layout.endswith("c")
    loops = f"n {outs} c {window}" if channels_last else f"n c {outs} {window}"
    out_dims = ", ".join(outs.split())
    image = f"n, {reads}, c" if channels_last else f"n, c, {reads}"
    result = f"n, {out_dims}, c" if channels_last else f"n, c, {out_dims}"
    return [
        _d(
            f"linalg.pooling_{layout}_{kind}",
            loops,
            image,
            ", ".join(window.split()),
            result,
            body=kind,
        )
        for kind in kinds
    ]


_ZP = ("", "")
"""The two zero points of a quantized op: scalars."""

DESCRIPTIONS: tuple[OpDslDescription, ...] = (
    # Contractions.
    _d("linalg.matvec", "m n", "m, n", "n", "m"),
    _d("linalg.vecmat", "n m", "m", "m, n", "n"),
    _d("linalg.batch_matvec", "b m k", "b, m, k", "b, k", "b, m"),
    _d("linalg.batch_vecmat", "b n k", "b, k", "b, k, n", "b, n"),
    _d("linalg.dot", "m", "m", "m", ""),
    OpDslDescription(
        "linalg.batch_reduce_matmul",
        "b m n k",
        ("b, m, k", "b, k, n", "m, n"),
        "mac",
        maps_property=True,
    ),
    _d(
        "linalg.quantized_batch_matmul",
        "b m n k",
        "b, m, k",
        "b, k, n",
        *_ZP,
        "b, m, n",
        body="mac_q",
    ),
    _d(
        "linalg.mmt4d",
        "m n k m0 n0 k0",
        "m, k, m0, k0",
        "n, k, n0, k0",
        "m, n, m0, n0",
    ),
    _d(
        "linalg.batch_mmt4d",
        "b m n k m0 n0 k0",
        "b, m, k, m0, k0",
        "b, n, k, n0, k0",
        "b, m, n, m0, n0",
    ),
    # Convolutions without strides.
    _d("linalg.conv_1d", "ow kw", "ow+kw", "kw", "ow"),
    _d("linalg.conv_2d", "oh ow kh kw", "oh+kh, ow+kw", "kh, kw", "oh, ow"),
    _d(
        "linalg.conv_3d",
        "od oh ow kd kh kw",
        "od+kd, oh+kh, ow+kw",
        "kd, kh, kw",
        "od, oh, ow",
    ),
    # Convolutions.
    _d("linalg.conv_1d_nwc_wcf", "n ow f kw c", f"n, {_W1}, c", "kw, c, f", "n, ow, f"),
    _d("linalg.conv_1d_ncw_fcw", "n f ow c kw", f"n, c, {_W1}", "f, c, kw", "n, f, ow"),
    _d(
        "linalg.conv_2d_nhwc_hwcf_q",
        "n oh ow f kh kw c",
        f"n, {_W2}, c",
        "kh, kw, c, f",
        *_ZP,
        "n, oh, ow, f",
        body="mac_q",
    ),
    _d(
        "linalg.conv_2d_nhwc_fhwc_q",
        "n oh ow f kh kw c",
        f"n, {_W2}, c",
        "f, kh, kw, c",
        *_ZP,
        "n, oh, ow, f",
        body="mac_q",
    ),
    _d(
        "linalg.conv_2d_nchw_fchw_q",
        "n f oh ow c kh kw",
        f"n, c, {_W2}",
        "f, c, kh, kw",
        *_ZP,
        "n, f, oh, ow",
        body="mac_q",
    ),
    _d(
        "linalg.conv_2d_ngchw_gfchw_q",
        "n g f oh ow c kh kw",
        f"n, g, c, {_W2}",
        "g, f, c, kh, kw",
        *_ZP,
        "n, g, f, oh, ow",
        body="mac_q",
    ),
    _d(
        "linalg.conv_2d_nhwgc_gfhwc_q",
        "n oh ow g f kh kw c",
        f"n, {_W2}, g, c",
        "g, f, kh, kw, c",
        *_ZP,
        "n, oh, ow, g, f",
        body="mac_q",
    ),
    _d(
        "linalg.conv_3d_ndhwc_dhwcf",
        "n od oh ow f kd kh kw c",
        f"n, {_W3}, c",
        "kd, kh, kw, c, f",
        "n, od, oh, ow, f",
    ),
    _d(
        "linalg.conv_3d_ndhwc_dhwcf_q",
        "n od oh ow f kd kh kw c",
        f"n, {_W3}, c",
        "kd, kh, kw, c, f",
        *_ZP,
        "n, od, oh, ow, f",
        body="mac_q",
    ),
    _d(
        "linalg.conv_3d_ncdhw_fcdhw",
        "n f od oh ow c kd kh kw",
        f"n, c, {_W3}",
        "f, c, kd, kh, kw",
        "n, f, od, oh, ow",
    ),
    # Depthwise convolutions.
    _d(
        "linalg.depthwise_conv_1d_ncw_cw",
        "n ow c kw",
        f"n, c, {_W1}",
        "c, kw",
        "n, c, ow",
    ),
    _d(
        "linalg.depthwise_conv_1d_nwc_wc",
        "n ow c kw",
        f"n, {_W1}, c",
        "kw, c",
        "n, ow, c",
    ),
    _d(
        "linalg.depthwise_conv_1d_nwc_wcm",
        "n ow c m kw",
        f"n, {_W1}, c",
        "kw, c, m",
        "n, ow, c, m",
    ),
    _d(
        "linalg.depthwise_conv_2d_nchw_chw",
        "n oh ow c kh kw",
        f"n, c, {_W2}",
        "c, kh, kw",
        "n, c, oh, ow",
    ),
    _d(
        "linalg.depthwise_conv_2d_nhwc_hwc",
        "n oh ow c kh kw",
        f"n, {_W2}, c",
        "kh, kw, c",
        "n, oh, ow, c",
    ),
    _d(
        "linalg.depthwise_conv_2d_nhwc_hwc_q",
        "n oh ow c kh kw",
        f"n, {_W2}, c",
        "kh, kw, c",
        *_ZP,
        "n, oh, ow, c",
        body="mac_q",
    ),
    _d(
        "linalg.depthwise_conv_2d_nhwc_hwcm",
        "n oh ow c m kh kw",
        f"n, {_W2}, c",
        "kh, kw, c, m",
        "n, oh, ow, c, m",
    ),
    _d(
        "linalg.depthwise_conv_2d_nhwc_hwcm_q",
        "n oh ow c m kh kw",
        f"n, {_W2}, c",
        "kh, kw, c, m",
        *_ZP,
        "n, oh, ow, c, m",
        body="mac_q",
    ),
    _d(
        "linalg.depthwise_conv_3d_ndhwc_dhwc",
        "n od oh ow kd kh kw c",
        f"n, {_W3}, c",
        "kd, kh, kw, c",
        "n, od, oh, ow, c",
    ),
    _d(
        "linalg.depthwise_conv_3d_ncdhw_cdhw",
        "n od oh ow kd kh kw c",
        f"n, c, {_W3}",
        "c, kd, kh, kw",
        "n, c, od, oh, ow",
    ),
    _d(
        "linalg.depthwise_conv_3d_ndhwc_dhwcm",
        "n od oh ow m kd kh kw c",
        f"n, {_W3}, c",
        "kd, kh, kw, c, m",
        "n, od, oh, ow, c, m",
    ),
    # Poolings (xDSL has `pooling_nchw_max`).
    *_pooling("nhwc", ("sum", "max", "max_unsigned", "min", "min_unsigned")),
    *_pooling("nchw", ("sum",)),
    *_pooling("nwc", ("sum", "max", "max_unsigned", "min", "min_unsigned")),
    *_pooling("ncw", ("sum", "max")),
    *_pooling("ndhwc", ("sum", "max", "min")),
)
"""Every op this module adds, in upstream's terms."""


# --------------------------------------------------------------------------
# Indexing maps
# --------------------------------------------------------------------------


def _term(text: str, dims: dict[str, int], strides, dilations) -> AffineExpr:
    """`oh`, `oh*s0` or `kh*d1`: a loop, times a stride or dilation."""
    name, _, factor = text.partition("*")
    expr: AffineExpr = AffineDimExpr(dims[name.strip()])
    if factor:
        factor = factor.strip()
        scale = (strides if factor[0] == "s" else dilations)[int(factor[1:])]
        if scale != 1:
            expr = expr * scale
    return expr


def indexing_maps(
    description: OpDslDescription,
    strides: Sequence[int] = (),
    dilations: Sequence[int] = (),
) -> tuple[AffineMap, ...]:
    """The maps of the op for these strides and dilations (ones if empty)."""
    strides = tuple(strides) or (1,) * description.window
    dilations = tuple(dilations) or (1,) * description.window
    names = description.loop_names
    dims = {name: index for index, name in enumerate(names)}
    maps: list[AffineMap] = []
    for operand in description.operands:
        results: list[AffineExpr] = []
        for result in filter(None, (r.strip() for r in operand.split(","))):
            terms = [_term(t, dims, strides, dilations) for t in result.split("+")]
            expr = terms[0]
            for term in terms[1:]:
                expr = expr + term
            results.append(expr)
        maps.append(AffineMap(len(names), 0, tuple(results)))
    return tuple(maps)


def iterator_types(description: OpDslDescription) -> ArrayAttr[IteratorTypeAttr]:
    """Parallel for the loops the output's map uses, reduction for the rest."""
    output = indexing_maps(description)[-1]
    used = {e.position for e in output.results if isinstance(e, AffineDimExpr)}
    return ArrayAttr(
        IteratorTypeAttr.parallel() if index in used else IteratorTypeAttr.reduction()
        for index in range(len(description.loop_names))
    )


# --------------------------------------------------------------------------
# Bodies, as MLIR 22's region builder emits them
# --------------------------------------------------------------------------


def _is_bool(type_: Attribute) -> bool:
    return isinstance(type_, IntegerType) and type_.width.data == 1


def _cast(value: SSAValue, to_type: Attribute) -> SSAValue:
    if not can_cast_signed(value.type, to_type):
        raise VerifyException(f"cannot convert {value.type} to {to_type}")
    return cast_signed(value, to_type)


def _cast_unsigned(value: SSAValue, to_type: Attribute) -> SSAValue:
    from_type = value.type
    if from_type == to_type:
        return value
    if isinstance(from_type, IntegerType) and isinstance(to_type, IntegerType):
        if from_type.width.data < to_type.width.data:
            return arith.ExtUIOp(value, to_type).result
        return arith.TruncIOp(value, to_type).result
    raise VerifyException(f"cannot convert {from_type} to {to_type} as unsigned")


_Binary = Callable[[SSAValue, SSAValue], Operation]

# kind -> (float op, integer op, i1 op); None: upstream builds no body.
_FUNCTIONS: dict[str, tuple[_Binary | None, _Binary | None, _Binary | None]] = {
    "add": (arith.AddfOp, arith.AddiOp, arith.OrIOp),
    "sub": (arith.SubfOp, arith.SubiOp, None),
    "mul": (arith.MulfOp, arith.MuliOp, arith.AndIOp),
    "max": (arith.MaximumfOp, arith.MaxSIOp, arith.MaxSIOp),
    "min": (arith.MinimumfOp, arith.MinSIOp, arith.MinSIOp),
    "max_unsigned": (None, arith.MaxUIOp, arith.MaxUIOp),
    "min_unsigned": (None, arith.MinUIOp, arith.MinUIOp),
}


def _apply(function: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
    float_op, int_op, bool_op = _FUNCTIONS[function]
    type_ = lhs.type
    if isinstance(type_, AnyFloat):
        op_type = float_op
    elif _is_bool(type_):
        op_type = bool_op
    elif isinstance(type_, IntegerType):
        op_type = int_op
    else:
        op_type = None
    if op_type is None:
        raise VerifyException(f"has no {function.replace('_', ' ')} of {type_}")
    return op_type(lhs, rhs).results[0]


def build_body(kind: str, arg_types: Sequence[Attribute]) -> Region:
    """The hidden body of an op of this body kind, for these element types
    (inputs, then the output)."""
    target = arg_types[-1]

    @Builder.implicit_region(arg_types)
    def body(args: tuple[BlockArgument, ...]) -> None:
        out = args[-1]
        if kind == "mac":
            product = _apply("mul", _cast(args[0], target), _cast(args[1], target))
            result = _apply("add", out, product)
        elif kind == "mac_q":
            lhs = _apply("sub", _cast(args[0], target), _cast(args[2], target))
            rhs = _apply("sub", _cast(args[1], target), _cast(args[3], target))
            result = _apply("add", out, _apply("mul", lhs, rhs))
        elif kind.endswith("unsigned"):
            result = _apply(kind, out, _cast_unsigned(args[0], target))
        else:
            function = "add" if kind == "sum" else kind
            result = _apply(function, out, _cast(args[0], target))
        YieldOp(result)

    return body


# --------------------------------------------------------------------------
# The ops
# --------------------------------------------------------------------------


class OpDslOperation(NamedOperation):
    """A named op of `DESCRIPTIONS`: its maps, iterator types and body come
    from its entry."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    DESCRIPTION: ClassVar[OpDslDescription]

    memoized_indexing_maps = opt_attr_def(
        ArrayAttr[AffineMapAttr], attr_name="linalg.memoized_indexing_maps"
    )
    """The maps, as MLIR 22 keeps them on an OpDSL op (in its generic form
    too); never printed in the custom form (`linalg_named_attrs`)."""

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        outputs: Sequence[SSAValue] = (),
        res: Sequence[Attribute] | None = None,
        attributes: dict[str, Attribute] | None = None,
        properties: dict[str, Attribute] | None = None,
    ):
        super().__init__(
            ins=inputs,
            outs=outputs,
            result_types=(
                [o.type for o in outputs if isinstance(o.type, TensorType)]
                if res is None
                else res
            ),
            properties=properties,
            attributes=attributes,
            hidden_region=self.get_hidden_region(inputs, outputs),
        )
        self.memoize_indexing_maps()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        op = super().parse(parser)
        assert isinstance(op, cls)
        op.memoize_indexing_maps()
        return op

    def memoize_indexing_maps(self) -> None:
        """Set `linalg.memoized_indexing_maps` as upstream has it: to the
        maps, unless the op has an `indexing_maps` property or the attribute
        already."""
        if self.DESCRIPTION.maps_property or self.memoized_indexing_maps is not None:
            return
        self.memoized_indexing_maps = ArrayAttr(
            AffineMapAttr(m) for m in self.get_default_indexing_maps()
        )

    @classmethod
    def _counts(cls) -> int:
        return len(cls.DESCRIPTION.operands) - 1

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        expected = cls._counts()
        if len(inputs) != expected or len(outputs) != 1:
            raise VerifyException(
                f"expects {expected} input(s) and 1 output, got {len(inputs)} and "
                f"{len(outputs)}"
            )
        arg_types = [element_type(v.type) for v in (*inputs, *outputs)]
        for type_ in arg_types:
            if not isinstance(type_, AnyFloat | IntegerType):
                raise VerifyException(f"expects numeric element types, got {type_}")
        return build_body(cls.DESCRIPTION.body, arg_types)

    def window_values(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The strides and dilations (empty for an op without a window)."""
        return (), ()

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return indexing_maps(self.DESCRIPTION, *self.window_values())

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        return iterator_types(self.DESCRIPTION)

    def verify_(self) -> None:
        expected = self._counts()
        if len(self.inputs) != expected or len(self.outputs) != 1:
            op_error(
                self,
                f"expects {expected} input(s) and 1 output, got {len(self.inputs)} "
                f"and {len(self.outputs)}",
            )
        roles = [
            (f"input #{i}", v)
            for i, (v, m) in enumerate(
                zip(self.inputs, self.DESCRIPTION.operands, strict=False)
            )
            if m
        ]
        if self.DESCRIPTION.operands[-1]:
            roles.append(("output", self.outputs[0]))
        verify_shaped_operands(self, roles)
        verify_destination_results(self, self.outputs, self.res)
        self._verify_window()
        try:
            NamedOperation.verify_(self)
        except VerifyException as error:
            op_error(self, str(error))

    def _verify_window(self) -> None:
        pass


class OpDslWindowOperation(OpDslOperation):
    """An `OpDslOperation` with strides and dilations (ones when absent)."""

    strides = opt_prop_def(DenseIntElementsAttr)
    dilations = opt_prop_def(DenseIntElementsAttr)

    def window_values(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        count = self.DESCRIPTION.window
        values: list[tuple[int, ...]] = []
        for attr in (self.strides, self.dilations):
            given = () if attr is None else tuple(attr.get_values())
            # Verification reports a wrong count; the maps stay buildable.
            values.append(given if len(given) == count else (1,) * count)
        return values[0], values[1]

    def _verify_window(self) -> None:
        count = self.DESCRIPTION.window
        for name, attr in (("strides", self.strides), ("dilations", self.dilations)):
            if attr is None:
                continue
            values = tuple(attr.get_values())
            if len(values) != count or attr.get_element_type() != IntegerType(64):
                op_error(
                    self,
                    f"expects {name} to be dense<...> : tensor<{count}xi64>, got "
                    f"{attr}",
                )
            if any(v < 1 for v in values):
                op_error(self, f"expects positive {name}, got {list(values)}")


def _class_name(op_name: str) -> str:
    return "".join(part.capitalize() for part in op_name[7:].split("_")) + "Op"


class OpDslMapsOperation(OpDslOperation):
    """An `OpDslOperation` whose maps are a property, the entry's by
    default; others may read an input transposed or broadcast (each map
    selects loops), the output's map stays the entry's."""

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.properties["indexing_maps"]  # pyright: ignore[reportReturnType]

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return tuple(m.data for m in self.get_indexing_maps().data)

    def _verify_window(self) -> None:
        maps = self.get_default_indexing_maps()
        defaults = indexing_maps(self.DESCRIPTION)
        loops = len(self.DESCRIPTION.loop_names)
        if len(maps) != len(defaults):
            op_error(self, f"expects {len(defaults)} indexing maps, got {len(maps)}")
        for index, map_ in enumerate(maps):
            dims = [e for e in map_.results if isinstance(e, AffineDimExpr)]
            if (
                map_.num_dims != loops
                or map_.num_symbols
                or len(dims) != len(map_.results)
                or len({e.position for e in dims}) != len(dims)
            ):
                op_error(
                    self,
                    f"expects indexing map #{index} to select distinct loops of "
                    f"{loops}, got {map_}",
                )
        if maps[-1] != defaults[-1]:
            op_error(
                self,
                f"expects the output's indexing map {defaults[-1]}, got {maps[-1]}",
            )


def _make_op(description: OpDslDescription) -> type[OpDslOperation]:
    base = OpDslWindowOperation if description.window else OpDslOperation
    fields: dict[str, object] = {}
    if description.maps_property:
        base = OpDslMapsOperation
        default = ArrayAttr(AffineMapAttr(m) for m in indexing_maps(description))
        fields["indexing_maps"] = prop_def(
            ArrayAttr[AffineMapAttr], default_value=default
        )
    cls: type[OpDslOperation] = type(  # pyright: ignore[reportAssignmentType]
        _class_name(description.name),
        (base,),
        {
            "name": description.name,
            "DESCRIPTION": description,
            "__doc__": (
                f"Upstream's `{description.name}` (OpDSL): loops "
                f"({description.loops}), body `{description.body}`.\n\n"
                "See external [documentation]"
                "(https://mlir.llvm.org/docs/Dialects/Linalg/)."
            ),
            "__module__": __name__,
            "__annotations__": {"DESCRIPTION": ClassVar[OpDslDescription]},
            **fields,
        },
    )
    return irdl_op_definition(cls)


OPDSL_OPS: tuple[type[OpDslOperation], ...] = tuple(map(_make_op, DESCRIPTIONS))
"""Every op this module adds to xDSL's `linalg` dialect."""

OPDSL_OPS_BY_NAME: dict[str, type[OpDslOperation]] = {op.name: op for op in OPDSL_OPS}
