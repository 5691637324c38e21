"""`convert-func-to-llvm`: functions, calls and returns to the `llvm` dialect.

As upstream's pass of the same name, with its default calling convention
(`linalg_ext.lowering.llvm_types.convert_function_type`, which the JIT relies
on):

- `func.func @f` becomes `llvm.func @f` (same name) whose arguments are the
  converted argument types, each memref expanded into its descriptor's
  scalars `(allocated ptr, aligned ptr, offset, sizes..., strides...)`, and
  whose result is nothing (void), the one converted result, or a struct of
  the converted results. In the body, each expanded memref is rebuilt into
  its descriptor (`llvm.mlir.undef` and `llvm.insertvalue`) at the top of
  the entry block, and `index` arguments are i64: the body sees its
  original types through casts until the other lowerings convert it;
- a public function (and a declaration) has `external` linkage, so that
  the JIT finds it by name; a private definition is `internal`;
- `func.return` becomes `llvm.return` (of a struct built with
  `llvm.insertvalue` for several results);
- `func.call` becomes `llvm.call`: memref operands are passed as their
  descriptors' fields (`llvm.extractvalue`), and several results are
  unpacked from the returned struct.

Refused (the module is left unchanged, the message names the op): types
without an LLVM counterpart in a signature, call or return (tensors —
bufferize first —, unranked memrefs, ...).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import (
    DenseArrayBase,
    FunctionType,
    MemRefType,
    ModuleOp,
    StringAttr,
    UnrealizedConversionCastOp,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint, Rewriter

from linalg_ext.lowering.llvm_types import (
    LoweringError,
    MemRefDescriptor,
    convert_function_type,
    convert_type,
    expanded_argument_types,
    replace_with_llvm,
    to_llvm,
)
from linalg_ext.lowering.scalar_ops import apply_patterns, check_ops


def _position(index: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, [index])


def _result_type(types: Sequence[Attribute]) -> Attribute | None:
    """What an `llvm.call` of a function with results `types` returns."""
    converted = [convert_type(t) for t in types]
    if not converted:
        return None
    if len(converted) == 1:
        return converted[0]
    return llvm.LLVMStructType.from_type_list(converted)


def _descriptor_fields(
    value: SSAValue, type_: MemRefType, where: InsertPoint, rewriter: PatternRewriter
) -> list[SSAValue]:
    """The scalars a memref argument is passed as, read from its descriptor."""
    descriptor = MemRefDescriptor(to_llvm(value, where, rewriter), where, rewriter)
    rank = len(type_.get_shape())
    return [
        descriptor.allocated_ptr(),
        descriptor.aligned_ptr(),
        descriptor.offset(),
        *(descriptor.size(d) for d in range(rank)),
        *(descriptor.stride(d) for d in range(rank)),
    ]


class ReturnToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.ReturnOp, rewriter: PatternRewriter):
        where = InsertPoint.before(op)
        values = [to_llvm(v, where, rewriter) for v in op.arguments]
        if len(values) <= 1:
            rewriter.replace(op, llvm.ReturnOp(values[0] if values else None))
            return
        struct = _result_type([v.type for v in op.arguments])
        assert struct is not None
        new_ops: list[Operation] = [llvm.UndefOp(struct)]
        for index, value in enumerate(values):
            new_ops.append(
                llvm.InsertValueOp(_position(index), new_ops[-1].results[0], value)
            )
        new_ops.append(llvm.ReturnOp(new_ops[-1].results[0]))
        rewriter.replace(op, new_ops)


class CallToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.CallOp, rewriter: PatternRewriter):
        where = InsertPoint.before(op)
        arguments: list[SSAValue] = []
        for value in op.arguments:
            if isinstance(value.type, MemRefType):
                arguments += _descriptor_fields(value, value.type, where, rewriter)
            else:
                arguments.append(to_llvm(value, where, rewriter))
        result_type = _result_type([r.type for r in op.res])
        call = llvm.CallOp(
            op.callee.string_value(), *arguments, return_type=result_type
        )
        new_ops: list[Operation] = [call]
        results: list[SSAValue] = []
        if len(op.res) == 1:
            results = [call.results[0]]
        elif len(op.res) > 1:
            assert isinstance(result_type, llvm.LLVMStructType)
            for index, type_ in enumerate(result_type.types.data):
                extract = llvm.ExtractValueOp(_position(index), call.results[0], type_)
                new_ops.append(extract)
                results.append(extract.results[0])
        replace_with_llvm(op, new_ops, results, rewriter)


def _linkage(op: func.FuncOp) -> str:
    if op.is_declaration:
        return "external"
    visibility = op.sym_visibility
    if visibility is None or visibility == StringAttr("public"):
        return "external"
    return "internal"


def _convert_entry_arguments(block: Block, inputs: Sequence[Attribute]) -> None:
    """Replace the entry block's arguments by the expanded, converted ones;
    the body keeps seeing each original argument through a cast (of a
    descriptor rebuilt from its fields, for a memref)."""
    old_arguments = list(block.args)
    first_op = block.first_op
    assert first_op is not None
    where = InsertPoint.before(first_op)
    for old, type_ in zip(old_arguments, inputs, strict=True):
        new = [
            block.insert_arg(t, len(block.args)) for t in expanded_argument_types(type_)
        ]
        if isinstance(type_, MemRefType):
            rank = len(type_.get_shape())
            descriptor = MemRefDescriptor.undef(rank, where)
            descriptor.set_allocated_ptr(new[0]).set_aligned_ptr(new[1])
            descriptor.set_offset(new[2])
            for dim in range(rank):
                descriptor.set_size(dim, new[3 + dim])
                descriptor.set_stride(dim, new[3 + rank + dim])
            converted = descriptor.value
        else:
            (converted,) = new
        replacement = converted
        if converted.type != type_:
            cast = UnrealizedConversionCastOp.get([converted], [type_])
            Rewriter.insert_op(cast, where)
            replacement = cast.results[0]
        if old.name_hint and len(new) == 1:
            new[0].name_hint = old.name_hint
        old.replace_all_uses_with(replacement)
    for old in old_arguments:
        block.erase_arg(old)


class FuncToLLVM(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: func.FuncOp, rewriter: PatternRewriter):
        function_type = convert_function_type(op.function_type)
        linkage = llvm.LinkageAttr(_linkage(op))
        body = rewriter.move_region_contents_to_new_regions(op.body)
        if body.blocks:
            _convert_entry_arguments(body.blocks[0], op.function_type.inputs.data)
        new = llvm.FuncOp(
            op.sym_name,
            function_type,
            linkage=linkage,
            body=body,
        )
        rewriter.replace(op, new)


def _types(op: Operation) -> list[Attribute]:
    if isinstance(op, func.FuncOp):
        function_type: FunctionType = op.function_type
        return [*function_type.inputs.data, *function_type.outputs.data]
    return [v.type for v in (*op.operands, *op.results)]


def why_not_converted(op: Operation) -> str | None:
    """Why `op` (a func op) cannot be converted, or None."""
    if not isinstance(op, func.FuncOp | func.ReturnOp | func.CallOp):
        return "has no lowering to the llvm dialect"
    for type_ in _types(op):
        try:
            convert_type(type_)
        except LoweringError:
            return f"type {type_} has no LLVM counterpart"
    return None


@dataclass(frozen=True)
class ConvertFuncToLLVMPass(ModulePass):
    """Convert `func` functions, calls and returns to the `llvm` dialect
    (see the module docstring)."""

    name = "convert-func-to-llvm"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_ops(self.name, op, "func.", why_not_converted)
        # Calls and returns first: the functions' regions move to new ops.
        apply_patterns(self.name, op, (ReturnToLLVM(), CallToLLVM()))
        apply_patterns(self.name, op, (FuncToLLVM(),))
