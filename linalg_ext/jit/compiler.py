"""`compile_module`: from a module of tensors or memrefs to machine code.

All in this process, without `mlir-opt`:

0. the module is verified (a module that does not verify is a `JitError`
   with the verifier's message, on one line);
1. `ccl.all_reduce`s become what they compute on one device
   (`linalg_ext.lowering.ccl_single_device`, docs/ccl.md); then
   a program with tensors is bufferized (`BUFFERIZATION`:
   `one-shot-bufferize` with function boundaries and identity layouts, then
   `buffer-deallocation-pipeline`). Tensor arguments of public functions are
   marked `bufferization.writable = false`, so a call never writes into the
   caller's arrays (the analysis copies only where the function would);
2. `lower-to-llvm` (passes/lower_to_llvm.py) takes the memref program to the
   `llvm` dialect, with run-time checks unless `runtime_checks=False`;
3. xDSL's translation (with `linalg_ext.compat`'s additions) gives LLVM IR,
   to which `linalg_ext.jit.llvm_additions` adds a packed entry point per
   public function and the runtime's `_lx_malloc` and `_lx_fail` (and,
   with `threads`, `linalg_ext.jit.parallel` the parallel loops' launches);
4. llvmlite optimizes the IR at `-O3` (LLVM's new pass manager, loop and SLP
   vectorization on) for the host CPU and MCJIT compiles it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
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
from xdsl.ir import Attribute, Operation
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
from linalg_ext.jit.failures import context_key
from linalg_ext.jit.llvm_additions import (
    PACKED_PREFIX,
    RUNTIME_FREE,
    RUNTIME_MALLOC,
    add_packed_entry_points,
    define_runtime_fail,
    define_runtime_free,
    define_runtime_malloc,
    mutable_globals,
    rename_defined_functions,
    route_calls,
)
from linalg_ext.jit.memory import bind_tracking_symbols, keep_freed_buffers_mapped
from linalg_ext.jit.parallel import check_threads, define_parallel_launches
from linalg_ext.jit.writes import unwritten_globals, written_arguments
from linalg_ext.lowering.ccl_single_device import lower_all_reduces
from linalg_ext.lowering.fast_math import FastMathMode, check_fast_math_mode
from linalg_ext.pass_pipelines import BUFFERIZATION  # also a pass's: defined low
from linalg_ext.pipelines import apply_pipeline

_llvm_ready = False


def llvm_binding() -> Any:
    """llvmlite's binding, with the native target initialised once."""
    global _llvm_ready
    import llvmlite.binding as binding

    if not _llvm_ready:
        binding.initialize_native_target()
        binding.initialize_native_asmprinter()
        keep_freed_buffers_mapped()  # compiled code is about to run here
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


def _optimized(llvm_ir: str, opt_level: int, machine: Any) -> Any:
    """The IR parsed, verified and optimized for `machine` (llvmlite's
    module)."""
    binding = llvm_binding()
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
    return parsed


def optimized_llvm_ir(llvm_ir: str, opt_level: int = 3) -> str:
    """The LLVM IR `compile_module` hands to MCJIT for `llvm_ir` (a
    `JitModule.llvm_ir`, before optimization): optimized at `opt_level` for
    the host CPU as it does, so one can see what LLVM made of a loop
    (vectorised or not, fused multiply-adds)."""
    return str(_optimized(llvm_ir, opt_level, _host_target_machine(opt_level)))


def optimized_assembly(llvm_ir: str, opt_level: int = 3) -> str:
    """The host's assembly `compile_module` makes of `llvm_ir` (as
    `optimized_llvm_ir`, one step further): what the back end did, such as
    repeated divisions by one value turned into one reciprocal and
    multiplications under `arcp`."""
    machine = _host_target_machine(opt_level)
    return machine.emit_assembly(_optimized(llvm_ir, opt_level, machine))


def _compile_llvm_ir(llvm_ir: str, opt_level: int, track_memory: bool) -> Any:
    """Optimize and compile the IR for the host; the execution engine."""
    binding = llvm_binding()
    if track_memory:
        bind_tracking_symbols(binding)
    machine = _host_target_machine(opt_level)
    parsed = _optimized(llvm_ir, opt_level, machine)
    engine = binding.create_mcjit_compiler(parsed, machine)
    engine.finalize_object()
    return engine


@contextmanager
def _stage(what: str, prefix: str = "") -> Iterator[None]:
    """The errors of one stage as JitError: a diagnostic (refused input) on
    one line after `prefix`; anything else is an internal error, said as
    such (the cause chained), so that the API raises only JitError."""
    try:
        yield
    except JitError:
        raise
    except DiagnosticException as error:
        raise JitError(prefix + _one_line(str(error))) from error
    except Exception as error:
        raise JitError(
            f"internal error while {what}: {type(error).__name__}: "
            f"{_one_line(str(error))}"
        ) from error


def _one_line(text: str) -> str:
    return " ".join(line.strip() for line in text.splitlines() if line.strip())


def _verify(module: ModuleOp) -> None:
    """JitError with the verifier's message if `module` does not verify:
    each op on its own, outer ops first (as MLIR), then the whole module."""
    failing: Operation = module
    try:
        for op in module.walk():
            failing = op
            op.verify(verify_nested_ops=False)
        failing = module
        module.verify()
    except DiagnosticException as error:
        message = _one_line(str(error))
        prefix = f"'{failing.name}' op "
        if failing is not module and not message.startswith(prefix):
            message = prefix + message
        raise JitError(f"the module does not verify: {message}") from None
    except Exception as error:
        raise JitError(
            f"internal error while verifying '{failing.name}': "
            f"{type(error).__name__}: {_one_line(str(error))}"
        ) from error


def _drop_transform_scripts(module: ModuleOp) -> None:
    """Erase the top-level ops of the `transform` dialect (a
    `transform.sequence` left by `transform-dialect-interpreter`, whose
    default keeps it as ByteIR's does, or a `named_sequence`): they are
    scripts about the code, not code, and the interpreter ignores them too."""
    for op in list(module.ops):
        if op.dialect_name() == "transform":
            op.detach()
            op.erase()


def _check_options(
    opt_level: object,
    track_memory: object,
    runtime_checks: object,
    fast_math: object,
    approximate_math: object = False,
    microkernels: object = True,
) -> None:
    """Raise a one-line `JitError` for an option of the wrong type or range."""
    try:
        check_fast_math_mode(fast_math, "compile_module: fast_math")
    except ValueError as error:
        raise JitError(str(error)) from None
    if (
        isinstance(opt_level, bool)
        or not isinstance(opt_level, int)
        or not 0 <= opt_level <= 3
    ):
        raise JitError(
            f"compile_module: opt_level must be an int in 0..3, not {opt_level!r}"
        )
    for name, value in (
        ("track_memory", track_memory),
        ("runtime_checks", runtime_checks),
        ("approximate_math", approximate_math),
        ("microkernels", microkernels),
    ):
        if not isinstance(value, bool):
            raise JitError(
                f"compile_module: {name} must be True or False, not {value!r}"
            )


def compile_module(
    module: ModuleOp,
    *,
    opt_level: int = 3,
    track_memory: bool = False,
    runtime_checks: bool = True,
    fast_math: FastMathMode = "none",
    approximate_math: bool = False,
    microkernels: bool = True,
    threads: int = 1,
) -> JitModule:
    """Compile every public function of `module` (see the module docstring).

    `runtime_checks`: compiled code checks what the interpreter checks
    (indices, extents, divisions, loop steps) and a failing check raises
    `JitError` with the interpreter's message; False leaves out what
    `lower-to-llvm`'s `runtime-checks` adds (`cf.assert` and allocation
    failures are checked either way).

    `fast_math`: what compiled code may do to float arithmetic
    (`lower-to-llvm`'s `fast-math`; docs/jit.md, "Floating-point
    contract"): `"none"` (the default) rounds every op as written, in the
    order of the loops; `"contract"` allows fused multiply-adds; `"reassoc"`
    also reordered sums and products (vectorised reductions); `"fast"` sets
    all fast-math flags on every float op (a NaN or infinity then gives an
    undefined result).

    `approximate_math`: f32 `exp`, `log`, `tanh`, `erf`, ... become
    polynomials (`math-polynomial-approximation-ext`, 1 to 4 ulps) instead
    of libm calls, so loops with them vectorise; `fast_math="fast"` implies
    it.

    `microkernels`: matmuls and other contractions become packed,
    register-tiled vector loops (`linalg-contraction-microkernel`, the same
    bits as the plain loops unless `fast_math` allows fused multiply-adds);
    False keeps the plain loops.

    `threads`: with more than 1, each outermost 1-D `scf.parallel` of a
    function, and the micro-kernels' blocks of rows (`lower-to-llvm`'s
    `parallel`: `outline-parallel-loops-ext`), runs its iterations in
    contiguous chunks on up to `threads` threads, created per loop execution
    (linalg_ext/jit/parallel.py; docs/jit.md, "Threads"). A failing iteration
    fails the call with the message a sequential run gives. With
    `track_memory` loops run sequentially.

    Raises `JitError` naming what could not be compiled (also for a
    `module` that is not a `ModuleOp`, or does not verify, and for an option
    out of range: `opt_level` an int in 0..3, `fast_math` one of
    `FAST_MATH_MODES`, `threads` an int >= 1, the others bools)."""
    from linalg_ext.compat import install

    _check_options(
        opt_level,
        track_memory,
        runtime_checks,
        fast_math,
        approximate_math,
        microkernels,
    )
    check_threads(threads)
    # Tracking counts allocations per call on the calling thread
    # (linalg_ext/jit/memory.py): a tracked module runs its loops there.
    threads = 1 if track_memory else threads
    if not isinstance(module, ModuleOp):
        raise JitError(
            f"compile_module takes a builtin.module (a ModuleOp), not "
            f"{type(module).__name__}; parse text first (linalg_ext.context."
            "make_context() and xdsl.parser.Parser(...).parse_module())"
        )
    install()
    _verify(module)
    times = CompileTimes()
    work = module.clone()
    _drop_transform_scripts(work)
    # ccl.all_reduce on this one device (docs/ccl.md), before bufferization.
    with _stage("lowering ccl.all_reduce", "cannot compile: "):
        lower_all_reduces(work)
    start = time.perf_counter()
    tensor_arguments = {
        name: [isinstance(t, TensorType) for t in op.function_type.inputs.data]
        for name, op in _signatures(work).items()
    }
    if _has_tensors(work):
        _mark_tensor_arguments_read_only(work)
        with _stage("bufferizing", "cannot bufferize: "):
            apply_pipeline(BUFFERIZATION, work)
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
    # Tensor arguments are never written (bufferization copies first).
    written = {
        name: [
            may and not tensor
            for may, tensor in zip(
                written_arguments(op), tensor_arguments[name], strict=True
            )
        ]
        for name, op in _signatures(work).items()
    }
    kept_globals = unwritten_globals(work)
    start = time.perf_counter()
    from linalg_ext.passes.lower_to_llvm import LowerToLLVMPass

    lowering = LowerToLLVMPass(
        use_generic_functions=track_memory,
        runtime_checks=runtime_checks,
        fast_math=fast_math,
        approximate_math=approximate_math,
        microkernels=microkernels,
        # The micro-kernels' row blocks as `scf.parallel`, and every
        # outermost 1-D `scf.parallel` outlined into a launch (below).
        parallel=threads > 1,
    )
    with _stage("lowering"):
        lowering.apply(make_context(), work)
    times.lowering = time.perf_counter() - start

    start = time.perf_counter()
    from xdsl.backend.llvm.convert import convert_module

    rename_defined_functions(work)
    allocator = "_mlir_memref_to_llvm_alloc" if track_memory else "malloc"
    allocates = route_calls(work, allocator, RUNTIME_MALLOC)
    frees = not track_memory and route_calls(work, "free", RUNTIME_FREE)
    try:
        llvm_module = convert_module(work, fallback_target_triple=None)
    except Exception as error:
        message = _one_line(str(error))
        raise JitError(f"cannot translate to LLVM IR: {message}") from error
    key = context_key()
    reset = mutable_globals(llvm_module, sorted(kept_globals))
    add_packed_entry_points(llvm_module, list(signatures), key, reset)
    # Before `_lx_fail` is defined: a parallel loop may call it.
    define_parallel_launches(llvm_module, threads, key)
    if allocates:
        define_runtime_malloc(llvm_module, allocator, key)
    if frees:
        define_runtime_free(llvm_module, key)
    define_runtime_fail(llvm_module, key)
    llvm_ir = str(llvm_module)
    times.translation = time.perf_counter() - start

    start = time.perf_counter()
    engine = _compile_llvm_ir(llvm_ir, opt_level, track_memory)
    times.llvm = time.perf_counter() - start

    turns = threading.Lock() if reset else None
    functions = {
        name: JitFunction(
            name=name,
            argument_types=inputs,
            result_types=outputs,
            _entry=PACKED_SIGNATURE(engine.get_function_address(PACKED_PREFIX + name)),
            _result_ctype=_results_ctype(name, outputs),
            _tracked=track_memory,
            _engine=engine,
            _written=written[name],
            _turns=turns,
        )
        for name, (inputs, outputs) in signatures.items()
    }
    return JitModule(functions, times, llvm_ir, track_memory, engine)
