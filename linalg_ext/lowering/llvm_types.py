"""Types of the LLVM lowering, and casts between original and converted values.

Every lowering pass converts its own ops only, so a converted op may take an
operand that an earlier pass has not converted yet, or produce a result that a
later pass consumes in its original type. As upstream MLIR does, the gap is
bridged with `builtin.unrealized_conversion_cast`: `to_llvm` casts an original
value to its LLVM type (or looks through a cast that already did), `from_llvm`
casts back. `reconcile-unrealized-casts` removes the pairs at the end of
`lower-to-llvm`.

Type conversion (upstream's `LLVMTypeConverter` with 64-bit index):

- `index` -> `i64`; signless integers and floats are unchanged;
- a one-dimensional vector of fixed length whose elements are signless
  integers or floats (`vector<16xf32>`) is unchanged (LLVM's vector type);
  other vectors (scalable, n-D, of `index`) have no LLVM type here;
- `memref<... x T>` of rank N -> the descriptor
  `!llvm.struct<(ptr, ptr, i64, array<N x i64>, array<N x i64>)>`:
  allocated pointer (what `free` takes), aligned pointer (where element 0
  lives), offset (in elements), sizes, strides (in elements). Rank 0 has
  no arrays: `!llvm.struct<(ptr, ptr, i64)>`.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseArrayBase,
    FunctionType,
    IndexType,
    IntAttr,
    IntegerAttr,
    IntegerType,
    MemRefType,
    UnrankedMemRefType,
    UnrealizedConversionCastOp,
    VectorType,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter

INDEX_TYPE = i64
"""What `index` becomes: the lowering targets 64-bit hosts."""

POINTER = llvm.LLVMPointerType()
"""The opaque pointer every memref's data is reached through."""

ALLOCATED_PTR, ALIGNED_PTR, OFFSET, SIZES, STRIDES = range(5)
"""Field positions in a memref descriptor."""


class LoweringError(Exception):
    """A value or op the LLVM lowering cannot convert; the message names it."""


def descriptor_type(rank: int) -> llvm.LLVMStructType:
    """The descriptor struct of a ranked memref of `rank` dimensions."""
    fields: list[Attribute] = [POINTER, POINTER, INDEX_TYPE]
    if rank:
        array = llvm.LLVMArrayType(IntAttr(rank), INDEX_TYPE)
        fields += [array, array]
    return llvm.LLVMStructType.from_type_list(fields)


def is_llvm_compatible(type_: Attribute) -> bool:
    """True for types the LLVM dialect takes as they are."""
    if isinstance(type_, IntegerType | AnyFloat):
        return True
    return type_.name.startswith("llvm.")


def vector_type_problem(type_: VectorType) -> str | None:
    """Why the vector type `type_` has no LLVM type here, or None: only
    one-dimensional vectors of fixed length whose elements are signless
    integers or floats are lowered (scalable and n-D vectors are not, and
    neither are `index` elements, which upstream would make i64)."""
    if type_.get_num_scalable_dims():
        return f"scalable vectors are not supported: {type_}"
    if type_.get_num_dims() != 1:
        return f"only one-dimensional vectors are supported: {type_}"
    if not isinstance(type_.element_type, IntegerType | AnyFloat):
        return (
            f"vectors of {type_.element_type} are not supported "
            f"(only of signless integers and floats): {type_}"
        )
    return None


def convert_type(type_: Attribute) -> Attribute:
    """The LLVM dialect type of `type_` (see the module docstring)."""
    if isinstance(type_, VectorType):
        problem = vector_type_problem(type_)
        if problem is not None:
            raise LoweringError(problem)
        return type_
    if isinstance(type_, IndexType):
        return INDEX_TYPE
    if isinstance(type_, MemRefType):
        return descriptor_type(len(type_.get_shape()))
    if isinstance(type_, UnrankedMemRefType):
        raise LoweringError(f"unranked memrefs are not supported: {type_}")
    if is_llvm_compatible(type_):
        return type_
    raise LoweringError(f"no LLVM type for {type_}")


def convert_function_type(type_: FunctionType) -> llvm.LLVMFunctionType:
    """The LLVM function type with each memref argument expanded into its
    descriptor's scalars (upstream's default calling convention) and the
    results returned as one value: nothing, the converted result, or a struct
    of the converted results."""
    inputs: list[Attribute] = []
    for input_type in type_.inputs.data:
        inputs += expanded_argument_types(input_type)
    outputs = [convert_type(t) for t in type_.outputs.data]
    if not outputs:
        output: Attribute = llvm.LLVMVoidType()
    elif len(outputs) == 1:
        output = outputs[0]
    else:
        output = llvm.LLVMStructType.from_type_list(outputs)
    return llvm.LLVMFunctionType(inputs, output)


def expanded_argument_types(type_: Attribute) -> list[Attribute]:
    """The scalars a function argument of `type_` is passed as: a memref of
    rank N as `ptr, ptr, i64, N x i64 sizes, N x i64 strides`; any other type
    as its converted self."""
    if isinstance(type_, MemRefType):
        rank = len(type_.get_shape())
        return [POINTER, POINTER, INDEX_TYPE] + [INDEX_TYPE] * (2 * rank)
    return [convert_type(type_)]


def _position(*indices: int) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, indices)


def _insert(rewriter: PatternRewriter | Rewriter | None, op: Operation, where):
    if isinstance(rewriter, PatternRewriter):
        rewriter.insert(op, where)
    else:
        Rewriter.insert_op(op, where)


class MemRefDescriptor:
    """Reads and builds the fields of a memref descriptor value.

    Every method inserts its ops at `where` (an `InsertPoint`, advanced past
    each inserted op so that calls read in program order) and returns the new
    value. `rewriter` may be a `PatternRewriter` (inside a pattern) or None
    (outside one)."""

    def __init__(
        self,
        value: SSAValue,
        where: InsertPoint,
        rewriter: PatternRewriter | None = None,
    ):
        if not isinstance(value.type, llvm.LLVMStructType):
            raise LoweringError(f"not a memref descriptor: {value.type}")
        self.value = value
        self.where = where
        self.rewriter = rewriter
        self.rank = 0 if len(value.type.types.data) == 3 else self._array_size()

    def _array_size(self) -> int:
        descriptor = self.value.type
        assert isinstance(descriptor, llvm.LLVMStructType)  # as __init__ checked
        array = descriptor.types.data[SIZES]
        assert isinstance(array, llvm.LLVMArrayType)
        return array.size.data

    def emit(self, op: Operation) -> Operation:
        """Insert `op` at the current point and move the point past it."""
        _insert(self.rewriter, op, self.where)
        self.where = InsertPoint.after(op)
        return op

    @staticmethod
    def undef(
        rank: int, where: InsertPoint, rewriter: PatternRewriter | None = None
    ) -> MemRefDescriptor:
        """A descriptor whose fields are all to be set."""
        op = llvm.UndefOp(descriptor_type(rank))
        _insert(rewriter, op, where)
        return MemRefDescriptor(op.res, InsertPoint.after(op), rewriter)

    def _extract(self, type_: Attribute, *position: int) -> SSAValue:
        op = self.emit(llvm.ExtractValueOp(_position(*position), self.value, type_))
        return op.results[0]

    def _set(self, value: SSAValue, *position: int) -> MemRefDescriptor:
        op = self.emit(llvm.InsertValueOp(_position(*position), self.value, value))
        self.value = op.results[0]
        return self

    def allocated_ptr(self) -> SSAValue:
        return self._extract(POINTER, ALLOCATED_PTR)

    def aligned_ptr(self) -> SSAValue:
        return self._extract(POINTER, ALIGNED_PTR)

    def offset(self) -> SSAValue:
        return self._extract(INDEX_TYPE, OFFSET)

    def size(self, dim: int) -> SSAValue:
        return self._extract(INDEX_TYPE, SIZES, dim)

    def stride(self, dim: int) -> SSAValue:
        return self._extract(INDEX_TYPE, STRIDES, dim)

    def set_allocated_ptr(self, value: SSAValue) -> MemRefDescriptor:
        return self._set(value, ALLOCATED_PTR)

    def set_aligned_ptr(self, value: SSAValue) -> MemRefDescriptor:
        return self._set(value, ALIGNED_PTR)

    def set_offset(self, value: SSAValue) -> MemRefDescriptor:
        return self._set(value, OFFSET)

    def set_size(self, dim: int, value: SSAValue) -> MemRefDescriptor:
        return self._set(value, SIZES, dim)

    def set_stride(self, dim: int, value: SSAValue) -> MemRefDescriptor:
        return self._set(value, STRIDES, dim)

    def constant(self, value: int) -> SSAValue:
        """An i64 constant, inserted at the current point."""
        op = self.emit(llvm.ConstantOp(IntegerAttr(value, INDEX_TYPE), INDEX_TYPE))
        return op.results[0]


def _cast(
    value: SSAValue,
    target: Attribute,
    where: InsertPoint,
    rewriter: PatternRewriter | None,
) -> SSAValue:
    """`value` as `target`: itself, the input of the cast that made it from a
    `target` value, or a new `unrealized_conversion_cast` at `where`."""
    if value.type == target:
        return value
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and len(owner.inputs) == 1
        and owner.inputs[0].type == target
    ):
        return owner.inputs[0]
    cast = UnrealizedConversionCastOp.get([value], [target])
    _insert(rewriter, cast, where)
    return cast.results[0]


def to_llvm(
    value: SSAValue, where: InsertPoint, rewriter: PatternRewriter | None = None
) -> SSAValue:
    """`value` in its LLVM type (a cast at `where` where one is needed)."""
    return _cast(value, convert_type(value.type), where, rewriter)


def from_llvm(
    value: SSAValue,
    original_type: Attribute,
    where: InsertPoint,
    rewriter: PatternRewriter | None = None,
) -> SSAValue:
    """A converted `value` seen as `original_type` again."""
    return _cast(value, original_type, where, rewriter)


def operands_to_llvm(
    op: Operation, rewriter: PatternRewriter | None = None
) -> list[SSAValue]:
    """Every operand of `op` in its LLVM type, casts inserted before `op`."""
    return [to_llvm(v, InsertPoint.before(op), rewriter) for v in op.operands]


def replace_with_llvm(
    op: Operation,
    new_ops: Sequence[Operation],
    new_results: Sequence[SSAValue],
    rewriter: PatternRewriter,
) -> None:
    """Replace `op` by `new_ops`, whose `new_results` are the converted
    results: each is cast back to the original result type for users not yet
    converted."""
    for new_op in new_ops:
        rewriter.insert(new_op, InsertPoint.before(op))
    replacements: list[SSAValue] = []
    for old, new in zip(op.results, new_results, strict=True):
        if new.type == old.type:
            replacements.append(new)
            continue
        cast = UnrealizedConversionCastOp.get([new], [old.type])
        rewriter.insert(cast, InsertPoint.before(op))
        replacements.append(cast.results[0])
    rewriter.replace(op, [], replacements)


def convert_block_arguments(block: Block, rewriter: PatternRewriter) -> bool:
    """Give every argument of `block` its LLVM type; its uses see the original
    type through a cast at the top of the block. Returns whether anything
    changed."""
    changed = False
    for arg in list(block.args):
        target = convert_type(arg.type)
        if target == arg.type:
            continue
        original = arg.type
        new_arg = rewriter.replace_value_with_new_type(arg, target)
        cast = UnrealizedConversionCastOp.get([new_arg], [original])
        rewriter.insert(cast, InsertPoint.at_start(block))
        rewriter.replace_uses_with_if(
            new_arg, cast.results[0], lambda use, cast=cast: use.operation is not cast
        )
        changed = True
    return changed
