"""The older transform-script form ByteIR's tests are written in:
`transform.sequence` with MLIR's syntax, and `!pdl.operation` handles.

    transform.sequence failures(propagate) {
    ^bb0(%arg0: !pdl.operation):
      %0 = transform.structured.match attributes {__root__} in %arg0
          : (!pdl.operation) -> !pdl.operation
      ...
    }

xDSL 0.74 has `transform.SequenceOp` in the generic format only, with no
results, its root restricted to `!transform.any_op`, and declared isolated
from above (MLIR's is not: a nested sequence may use its parent's handles).
`SequenceOp` here replaces it in the `transform` dialect when our package
loads, with MLIR's op. It is a new definition, not a subclass (IRDL keeps
every trait of a superclass), registered as a virtual subclass of xDSL's so
that `isinstance` checks keep finding it:

    transform.sequence ($root (`,` $extra_bindings)* `:` type | `(` types `)`)?
        (`->` types)?
        `failures` `(` (`propagate` | `suppress`) `)` (`attributes` dict)? region

- the mode is stored as MLIR stores it (`failure_propagation_mode = 1 : i32`
  for propagate, 2 for suppress, which the generic form shows); xDSL's
  `FailurePropagationModeAttr` is read too;
- the body's terminator `transform.yield` is implicit: added when the body
  does not end with one, not printed when it yields nothing;
- results (what the body yields), root and extra bindings of any handle
  type; MLIR's verifier rules (and words): an entry block argument of a
  handle type, a root for a nested sequence, block arguments typed like the
  operands, yielded types like the results, only transform ops inside.

Bare op names inside the body (ByteIR writes `cleanup`, MLIR prints
`yield`) already resolve to `transform.<name>`: xDSL's parser looks an
unknown name up in the dialect of each op it is inside (MLIR's default
dialect rule). xDSL prints full names, which MLIR reads as well.

`!pdl.operation` handles. MLIR's `pdl.operation` type implements the
transform handle interface, so it types any op handle. Every transform op
constrains its handles with xDSL's abstract bases (`TransformHandleType`,
`TransformOpHandleType`) or with `AnyOpType` (`tile_using_for`'s results,
the sequence's root), and IRDL checks those with `isinstance`. The least
invasive fix is to declare xDSL's `pdl.OperationType` a virtual subclass
(`ABCMeta.register`) of `TransformOpHandleType` and of `AnyOpType`: every
op, xDSL's and ours, then verifies with `!pdl.operation` wherever it
accepts `!transform.any_op`, with no op redefined and no type replaced (the
`pdl` dialect's own ops still see their type). The interpreter does not
look at handle types, so interpretation is the same. Rejected: a compat
type replacing `pdl.operation` (xDSL's attribute classes are final, so it
could not stay a `pdl.OperationType` and `pdl` ops would reject it), and
relaxing each op's constraints (one redefinition per op).

`install_transform_sequence()` does both, once; `linalg_ext.compat.install`
calls it. Users of xDSL without our package see xDSL unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import nullcontext
from typing import Self

from xdsl.dialects import pdl, transform
from xdsl.dialects.builtin import IntegerAttr, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    prop_def,
    region_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.utils.str_enum import StrEnum

from linalg_ext.verification import op_error

PROPAGATE = 1
SUPPRESS = 2
"""MLIR's `FailurePropagationMode` values, as its generic form stores them."""


class FailureMode(StrEnum):
    """What a sequence does when one of its ops fails silenceably."""

    PROPAGATE = "propagate"
    SUPPRESS = "suppress"


_MODE_VALUES = {FailureMode.PROPAGATE: PROPAGATE, FailureMode.SUPPRESS: SUPPRESS}


@irdl_op_definition
class SequenceOp(IRDLOperation):
    """`transform.sequence`: run the ops of the body one after the other,
    the entry block's arguments bound to the root (the payload root when
    the sequence is at the top level) and extra bindings; MLIR's syntax and
    rules. `failures(suppress)` skips a failing op (its results are empty
    handles) and goes on; `failures(propagate)` stops at it."""

    name = "transform.sequence"

    body = region_def("single_block")
    failure_propagation_mode = prop_def()
    root = var_operand_def(transform.TransformHandleType)
    extra_bindings = var_operand_def(transform.TransformHandleType)
    results_ = var_result_def(transform.TransformHandleType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(
        self,
        failure_propagation_mode: transform.FailurePropagationModeAttr
        | IntegerAttr
        | int,
        root: Sequence[SSAValue],
        extra_bindings: Sequence[SSAValue],
        body: Region,
        result_types: Sequence[Attribute] = (),
    ):
        if isinstance(failure_propagation_mode, int):
            failure_propagation_mode = IntegerAttr(failure_propagation_mode, i32)
        ensure_terminator(body)
        super().__init__(
            properties={"failure_propagation_mode": failure_propagation_mode},
            regions=[body],
            operands=[root, extra_bindings],
            result_types=[result_types],
        )

    @property
    def mode(self) -> FailureMode:
        """The failure propagation mode, however it is stored."""
        attr = self.failure_propagation_mode
        if isinstance(attr, transform.FailurePropagationModeAttr):
            return FailureMode(attr.data.value)
        if isinstance(attr, IntegerAttr) and attr.value.data == SUPPRESS:
            return FailureMode.SUPPRESS
        return FailureMode.PROPAGATE

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands: list[UnresolvedOperand] = []
        operand_types: list[Attribute] = []
        if (first := parser.parse_optional_unresolved_operand()) is not None:
            operands.append(first)
            while parser.parse_optional_punctuation(",") is not None:
                operands.append(parser.parse_unresolved_operand())
            parser.parse_punctuation(":")
            # MLIR writes the types of a root and extra bindings in
            # parentheses; it reads them without too.
            in_parens = parser.parse_optional_punctuation("(") is not None
            operand_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
            if in_parens:
                parser.parse_punctuation(")")
        pos = parser.pos
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->") is not None:
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        parser.parse_keyword("failures")
        parser.parse_punctuation("(")
        mode_pos = parser.pos
        word = parser.parse_optional_identifier() or parser.parse_optional_str_literal()
        mode = next((m for m in FailureMode if m.value == word), None)
        if mode is None:
            parser.raise_error(
                "expected string or keyword containing one of the following "
                "enum values for attribute 'failure_propagation_mode' "
                "[propagate, suppress]",
                mode_pos,
            )
        parser.parse_punctuation(")")
        attributes = parser.parse_optional_attr_dict_with_keyword()
        body = parser.parse_region()
        resolved = parser.resolve_operands(operands, operand_types, pos)
        op = cls(
            _MODE_VALUES[mode],
            resolved[:1],
            resolved[1:],
            body,
            result_types,
        )
        if attributes is not None:
            op.attributes |= attributes.data
        return op

    def print(self, printer: Printer) -> None:
        operands = list(self.operands)
        if operands:
            printer.print_string(" ")
            printer.print_list(operands, printer.print_ssa_value)
            printer.print_string(" : ")
            with printer.in_parens() if len(operands) > 1 else nullcontext():
                printer.print_list([o.type for o in operands], printer.print_attribute)
        if self.results:
            printer.print_string(" -> ")
            printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(f" failures({self.mode.value})")
        printer.print_op_attributes(self.attributes, print_keyword=True)
        printer.print_string(" ")
        printer.print_region(
            self.body, print_block_terminators=not _implicit_terminator(self.body)
        )

    def verify_(self) -> None:
        block = self.body.block
        last = block.last_op
        if not isinstance(last, transform.YieldOp):
            op_error(self, "expects its body to end with 'transform.yield'")
        if not block.args:
            op_error(self, "expects the entry block to have at least one argument")
        if not isinstance(block.args[0].type, transform.TransformHandleType):
            op_error(
                self,
                "expects the first entry block argument to be of type "
                "implementing TransformHandleTypeInterface",
            )
        if self.root:
            if self.root[0].type != block.args[0].type:
                op_error(
                    self,
                    "expects the type of the block argument to match the type "
                    "of the operand",
                )
        elif _nested_in_transform_op(self):
            op_error(self, "expects operands to be provided for a nested op")
        for arg, extra in zip(block.args[1:], self.extra_bindings, strict=False):
            if arg.type != extra.type:
                op_error(
                    self,
                    "expects the types of the entry block arguments to match "
                    "the types of the extra bindings",
                )
        for child in block.ops:
            if not child.name.startswith("transform."):
                op_error(
                    self, "expected children ops to implement TransformOpInterface"
                )
        if tuple(last.operand_types) != tuple(self.result_types):
            op_error(
                self,
                "expects the types of the terminator operands to match the "
                "types of the result",
            )


def ensure_terminator(body: Region) -> None:
    """Give `body` its implicit `transform.yield` (and a block, when it has
    none), as MLIR's `SingleBlockImplicitTerminator` does when parsing."""
    if not body.blocks:
        body.add_block(Block())
    block = body.block
    if not isinstance(block.last_op, transform.YieldOp):
        block.add_op(transform.YieldOp())


def _implicit_terminator(body: Region) -> bool:
    """Whether the body's terminator is the implicit one (MLIR elides a
    terminator with neither operands nor attributes)."""
    last = body.block.last_op
    return (
        isinstance(last, transform.YieldOp)
        and not last.operands
        and not last.attributes
    )


def _nested_in_transform_op(op: Operation) -> bool:
    parent = op.parent_op()
    while parent is not None:
        if parent.name.startswith("transform."):
            return True
        parent = parent.parent_op()
    return False


_installed = False


def install_transform_sequence() -> None:
    """Put `SequenceOp` in place of xDSL's in the `transform` dialect and
    let `!pdl.operation` type transform handles (idempotent)."""
    global _installed
    if _installed:
        return
    _installed = True
    transform.SequenceOp.register(SequenceOp)
    transform.TransformOpHandleType.register(pdl.OperationType)
    transform.AnyOpType.register(pdl.OperationType)
