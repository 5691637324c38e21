"""Function boundaries: the order functions are analysed in (callees
first) and their bufferized signatures."""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.ir import Attribute

from linalg_ext.bufferization.analysis import BufferizationError
from linalg_ext.bufferization.layouts import fully_dynamic_memref, identity_memref

if TYPE_CHECKING:
    from linalg_ext.bufferization.bufferizer import Bufferizer


def ordered_functions(module: ModuleOp) -> list[func.FuncOp]:
    """The module's functions, every callee before its callers. Recursion is
    refused: a function's facts would depend on themselves."""
    functions = {
        op.sym_name.data: op
        for op in module.body.block.ops
        if isinstance(op, func.FuncOp)
    }
    callees: dict[str, list[str]] = {}
    for name, function in functions.items():
        callees[name] = [
            op.callee.root_reference.data
            for op in function.walk()
            if isinstance(op, func.CallOp)
            and op.callee.root_reference.data in functions
        ]
    ordered: list[func.FuncOp] = []
    state: dict[str, str] = {}

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == "done":
            return
        if state.get(name) == "active":
            cycle = " -> ".join([*path[path.index(name) :], name])
            raise BufferizationError(
                functions[name],
                f"recursive calls ({cycle}) cannot be bufferized across function "
                "boundaries",
            )
        state[name] = "active"
        for callee in callees[name]:
            visit(callee, [*path, name])
        state[name] = "done"
        ordered.append(functions[name])

    for name in functions:
        visit(name, [])
    return ordered


def compute_signatures(bufferizer: Bufferizer) -> None:
    """The memref signature of every function, before any is rewritten:
    arguments as `function-boundary-type-conversion` says; results too,
    except with `infer-layout-map`, where a result has the type of the
    buffer returned."""
    options = bufferizer.options
    functions = ordered_functions(bufferizer.module)
    for function in functions:
        inputs = [
            bufferizer.boundary_type(t) if isinstance(t, TensorType) else t
            for t in function.function_type.inputs
        ]
        bufferizer.function_types[function.sym_name.data] = FunctionType.from_lists(
            inputs, list(function.function_type.outputs)
        )
    for function in functions:
        name = function.sym_name.data
        returns = [op for op in function.walk() if isinstance(op, func.ReturnOp)]
        outputs: list[Attribute] = []
        for index, output in enumerate(function.function_type.outputs):
            if not isinstance(output, TensorType):
                outputs.append(output)
                continue
            conversion = options.function_boundary_type_conversion
            if conversion == "identity-layout-map":
                outputs.append(identity_memref(output))
            elif conversion == "fully-dynamic-layout-map" or not returns:
                outputs.append(fully_dynamic_memref(output))
            else:
                types = {bufferizer.buffer_type(r.operands[index]) for r in returns}
                outputs.append(
                    types.pop() if len(types) == 1 else fully_dynamic_memref(output)
                )
        inputs = list(bufferizer.function_types[name].inputs)
        bufferizer.function_types[name] = FunctionType.from_lists(inputs, outputs)
