"""Interpreter functions for the `bufferization` ops.

Registered over xDSL's own (override=True; xDSL 0.74 has none). They are
where tensor values (immutable) and buffers (mutable, aliased by views)
meet, so each one copies: a tensor made from a buffer does not see later
stores to the buffer, and a buffer made from a tensor is a new allocation
that stores to it do not reach the tensor.

`bufferization.clone` makes a new buffer that its user owns and frees
(upstream's buffer deallocation frees clones with `memref.dealloc`), so the
allocation tracker records it as an allocation.
"""

from __future__ import annotations

from xdsl.dialects import bufferization
from xdsl.dialects.builtin import ShapedType
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
    register_impls,
)
from xdsl.utils.exceptions import InterpretationError

from linalg_ext.semantics.arrays import (
    check_allocation,
    check_fits_type,
    check_sizes,
    contiguous_copy,
    element_xtype,
    fill_dynamic,
    numpy_view,
)
from linalg_ext.semantics.fresh_buffers import fresh_buffer
from linalg_ext.semantics.memref_ops import allocation_tracker


@register_impls
class BufferizationOpFunctions(InterpreterFunctions):
    @impl(bufferization.ToTensorOp)
    def run_to_tensor(
        self, interpreter: Interpreter, op: bufferization.ToTensorOp, args: PythonValues
    ) -> PythonValues:
        (buffer,) = args
        return (contiguous_copy(buffer),)

    @impl(bufferization.ToBufferOp)
    def run_to_buffer(
        self, interpreter: Interpreter, op: bufferization.ToBufferOp, args: PythonValues
    ) -> PythonValues:
        (value,) = args
        return (contiguous_copy(value),)

    @impl(bufferization.CloneOp)
    def run_clone(
        self, interpreter: Interpreter, op: bufferization.CloneOp, args: PythonValues
    ) -> PythonValues:
        (buffer,) = args
        clone = contiguous_copy(buffer)
        allocation_tracker(interpreter).allocate(op, clone)
        return (clone,)

    @impl(bufferization.AllocTensorOp)
    def run_alloc_tensor(
        self,
        interpreter: Interpreter,
        op: bufferization.AllocTensorOp,
        args: PythonValues,
    ) -> PythonValues:
        # Operands: the dynamic sizes, then `copy` and `size_hint` if present.
        # The size hint is for sparse tensors; a dense one has no use for it.
        dynamic_sizes = args[: len(op.dynamic_sizes)]
        result_type = op.tensor.type
        if op.copy is not None:
            copied = args[len(op.dynamic_sizes)]
            if dynamic_sizes:
                raise InterpretationError(
                    f"{op.name}: dynamic sizes given along with a copy"
                )
            check_fits_type(copied.shape, result_type, op.name, "the copy")
            return (contiguous_copy(copied),)
        if not isinstance(result_type, ShapedType):
            raise InterpretationError(
                f"{op.name}: an unranked tensor needs a copy to take its shape from"
            )
        shape = fill_dynamic(result_type.get_shape(), dynamic_sizes, op.name, "sizes")
        check_sizes(shape, op.name)
        element_type = result_type.get_element_type()
        xtype = element_xtype(element_type, interpreter.index_bitwidth)
        check_allocation(shape, xtype, op.name)
        # Its elements are undefined: zeros unless a fill says otherwise
        # (fresh_buffers), as for tensor.empty.
        return (fresh_buffer(op, shape, xtype, element_type),)

    @impl(bufferization.MaterializeInDestinationOp)
    def run_materialize_in_destination(
        self,
        interpreter: Interpreter,
        op: bufferization.MaterializeInDestinationOp,
        args: PythonValues,
    ) -> PythonValues:
        source, destination = args
        if list(source.shape) != list(destination.shape):
            raise InterpretationError(
                f"{op.name}: source of shape {source.shape} does not fit the "
                f"destination of shape {destination.shape}"
            )
        if op.result is not None:
            # A tensor destination: the result is the source's value in the
            # destination's place, a new value like every tensor result.
            return (contiguous_copy(source),)
        numpy_view(destination)[...] = numpy_view(source)
        return ()
