"""`compile_module`: from a module of tensors or memrefs to machine code.

All in this process, without `mlir-opt`:

1. a program with tensors is bufferized first (`BUFFERIZATION`:
   `one-shot-bufferize` with function boundaries and identity layouts, then
   `buffer-deallocation-pipeline`). Tensor arguments of public functions are
   marked `bufferization.writable = false`, so a call never writes into the
   caller's arrays (the analysis copies only where the function would);
2. `lower-to-llvm` (passes/lower_to_llvm.py) takes the memref program to the
   `llvm` dialect;
3. xDSL's translation (with `linalg_ext.compat`'s additions) gives LLVM IR,
   to which `linalg_ext.jit.llvm_additions` adds a packed entry point per
   public function and the runtime's `_lx_malloc`;
4. llvmlite optimizes the IR at `-O3` (LLVM's new pass manager, loop and SLP
   vectorization on) for the host CPU and MCJIT compiles it.
"""

from __future__ import annotations

import time
from typing import Any

from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    BoolAttr,
    DictionaryAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedMemRefType,
)
from xdsl.ir import Attribute
from xdsl.utils.exceptions import DiagnosticException, InterpretationError

from linalg_ext.calling_convention import results_ctype
from linalg_ext.context import make_context
from linalg_ext.jit.compiled import (
    PACKED_SIGNATURE,
    CompileTimes,
    JitError,
    JitFunction,
    JitModule,
)
from linalg_ext.jit.llvm_additions import (
    PACKED_PREFIX,
    add_packed_entry_points,
    define_runtime_malloc,
    rename_defined_functions,
    route_malloc,
)
from linalg_ext.jit.memory import bind_tracking_symbols
from linalg_ext.pipelines import apply_pipeline

BUFFERIZATION = (
    "one-shot-bufferize{bufferize-function-boundaries=true "
    "function-boundary-type-conversion=identity-layout-map},"
    "buffer-deallocation-pipeline"
)
"""How a tensor program is bufferized before lowering."""


_llvm_ready = False


def llvm_binding() -> Any:
    """llvmlite's binding, with the native target initialised once."""
    global _llvm_ready
    import llvmlite.binding as binding

    if not _llvm_ready:
        binding.initialize_native_target()
        binding.initialize_native_asmprinter()
        _llvm_ready = True
    return binding


def _host_target_machine(opt_level: int) -> Any:
    binding = llvm_binding()
    target = binding.Target.from_default_triple()
    return target.create_target_machine(
        cpu=binding.get_host_cpu_name(),
        features=binding.get_host_cpu_features().flatten(),
        opt=opt_level,
        codemodel="jitdefault",
    )


def _has_tensors(module: ModuleOp) -> bool:
    for op in module.walk():
        for value in (*op.operands, *op.results):
            if isinstance(value.type, TensorType):
                return True
        if isinstance(op, func.FuncOp) and any(
            isinstance(t, TensorType)
            for t in (*op.function_type.inputs, *op.function_type.outputs)
        ):
            return True
    return False


def _mark_tensor_arguments_read_only(module: ModuleOp) -> None:
    """Calls must not write into the caller's arrays: a tensor is a value."""
    for op in module.ops:
        if not isinstance(op, func.FuncOp) or op.is_declaration:
            continue
        if op.sym_visibility == StringAttr("private"):
            continue
        inputs = op.function_type.inputs.data
        old = op.arg_attrs.data if op.arg_attrs is not None else None
        new = []
        for index, type_ in enumerate(inputs):
            attrs = dict(old[index].data) if old is not None else {}
            if isinstance(type_, TensorType):
                attrs.setdefault("bufferization.writable", BoolAttr.from_bool(False))
            new.append(DictionaryAttr(attrs))
        op.arg_attrs = ArrayAttr(new)


def _signatures(module: ModuleOp) -> dict[str, func.FuncOp]:
    return {
        op.sym_name.data: op
        for op in module.ops
        if isinstance(op, func.FuncOp)
        and not op.is_declaration
        and op.sym_visibility != StringAttr("private")
    }


def _results_ctype(name: str, outputs: list[Attribute]) -> Any:
    try:
        return results_ctype(outputs)
    except (InterpretationError, NotImplementedError) as error:
        raise JitError(f"@{name}: no C layout for its results {outputs}") from error


def _compile_llvm_ir(llvm_ir: str, opt_level: int, track_memory: bool) -> Any:
    """Optimize and compile the IR for the host; the execution engine."""
    binding = llvm_binding()
    if track_memory:
        bind_tracking_symbols(binding)
    machine = _host_target_machine(opt_level)
    try:
        parsed = binding.parse_assembly(llvm_ir)
        parsed.triple = machine.triple
        parsed.data_layout = str(machine.target_data)
        parsed.verify()
    except RuntimeError as error:
        raise JitError(f"invalid LLVM IR: {error}") from error
    if opt_level > 0:
        tuning = binding.create_pipeline_tuning_options(speed_level=opt_level)
        tuning.loop_vectorization = True
        tuning.slp_vectorization = True
        builder = binding.create_pass_builder(machine, tuning)
        builder.getModulePassManager().run(parsed, builder)
    engine = binding.create_mcjit_compiler(parsed, machine)
    engine.finalize_object()
    return engine


def compile_module(
    module: ModuleOp,
    *,
    opt_level: int = 3,
    track_memory: bool = False,
) -> JitModule:
    """Compile every public function of `module` (see the module docstring).

    Raises `JitError` naming what could not be compiled."""
    from linalg_ext.compat import install

    install()
    times = CompileTimes()
    work = module.clone()
    start = time.perf_counter()
    if _has_tensors(work):
        _mark_tensor_arguments_read_only(work)
        try:
            apply_pipeline(BUFFERIZATION, work)
        except DiagnosticException as error:
            raise JitError(f"cannot bufferize: {error}") from error
    times.bufferization = time.perf_counter() - start
    signatures = {
        name: (
            list(op.function_type.inputs.data),
            list(op.function_type.outputs.data),
        )
        for name, op in _signatures(work).items()
    }
    for name, (inputs, outputs) in signatures.items():
        for type_ in (*inputs, *outputs):
            if isinstance(type_, UnrankedMemRefType | TensorType):
                raise JitError(f"@{name}: cannot pass {type_} to compiled code")
    start = time.perf_counter()
    from linalg_ext.passes.lower_to_llvm import LowerToLLVMPass

    try:
        LowerToLLVMPass(use_generic_functions=track_memory).apply(make_context(), work)
    except DiagnosticException as error:
        raise JitError(str(error)) from error
    times.lowering = time.perf_counter() - start

    start = time.perf_counter()
    from xdsl.backend.llvm.convert import convert_module

    rename_defined_functions(work)
    calls_malloc = route_malloc(work)
    try:
        llvm_module = convert_module(work, fallback_target_triple=None)
    except (NotImplementedError, Exception) as error:
        raise JitError(f"cannot translate to LLVM IR: {error}") from error
    add_packed_entry_points(llvm_module, list(signatures))
    if calls_malloc:
        define_runtime_malloc(llvm_module)
    llvm_ir = str(llvm_module)
    times.translation = time.perf_counter() - start

    start = time.perf_counter()
    engine = _compile_llvm_ir(llvm_ir, opt_level, track_memory)
    times.llvm = time.perf_counter() - start

    functions = {
        name: JitFunction(
            name=name,
            argument_types=inputs,
            result_types=outputs,
            _entry=PACKED_SIGNATURE(engine.get_function_address(PACKED_PREFIX + name)),
            _result_ctype=_results_ctype(name, outputs),
            _tracked=track_memory,
            _engine=engine,
        )
        for name, (inputs, outputs) in signatures.items()
    }
    return JitModule(functions, times, llvm_ir, track_memory, engine)
