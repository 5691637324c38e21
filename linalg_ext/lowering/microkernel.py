"""A contraction on memrefs as a packed, cache-blocked, register-tiled
micro-kernel in the `vector` dialect: what `linalg-contraction-microkernel`
writes (the GotoBLAS / BLIS scheme that IREE's data tiling and `mmt4d`
follow).

A contraction (linalg_ext/lowering/contraction.py) is a structured op
`C[p] += A[p] * B[p]` with a row loop `m`, a column loop `n` and a
reduction `k` (all its reduction loops flattened: a convolution's channel
and window, split back into the loops' indices by the packing loops); its
other parallel loops (batch) run around what follows. An operand the batch
loops do not move over that fits one block (a convolution's filter) is
packed once before them.

The loops (sizes `mc`, `nc`, `kc` of the cache tile, `MR` rows by `NR`
columns of the register tile, `NR` a multiple of the vector length `VL`):

    for batch...:                       # the other loops, as they are
      for jc in 0..N step nc:           # a block of columns of C
        for pc in 0..K step kc:         # a block of the reduction
          pack B[pc:pc+kc, jc:jc+nc]    # panels of NR columns, each row of a
                                        # panel contiguous, zero-padded
          for ic in 0..M step mc:
            pack A[ic:ic+mc, pc:pc+kc]  # panels of MR rows, k-major
            for each NR panel, each MR panel:
              stage the C tile in an MR x NR buffer (zeros outside C)
              acc[r][v] = vector load of the staged tile
              for k in 0..kc:           # the micro-kernel: MR x NR/VL
                acc[r][v] += broadcast(Ap[k][r]) * Bp[k][v]   # vectors
              store acc to the stage; copy its valid part back into C

Every element of C still adds its products in the order of `k`, starting
from its value in C, as the plain loops do: without `fma` (a multiply, then
an add, each rounded) the result is bit for bit the plain loops'; with
`fma` each step is one `vector.fma` (one rounding), which the
floating-point contract `contract` allows. The operands are read through
their indexing maps by the packing loops only, so any layout (transposed
operands, batch dimensions anywhere) runs the same micro-kernel; edges
(sizes not multiples of the tiles, dynamic sizes) are zero-padded in the
packed panels and cut when the stage is copied back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, memref, scf, vector
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    MemRefType,
    VectorType,
    i64,
)
from xdsl.ir import Block, Region, SSAValue
from xdsl.rewriter import InsertPoint

from linalg_ext.lowering.contraction import Contraction
from linalg_ext.lowering.loop_nest import LoopNestBuilder, map_indices
from linalg_ext.lowering.microkernel_fusion import Fusion
from linalg_ext.lowering.microkernel_packing import (
    KernelShape,
    PackingEmitter,
    access_indices,
    unit_stride_columns,
    used_loops,
)
from linalg_ext.lowering.structured_scalar import inline_body

__all__ = ["KernelShape", "emit_microkernel"]


class _Emitter(PackingEmitter):
    """The ops of one contraction's micro-kernel lowering."""

    def __init__(
        self,
        b: LoopNestBuilder,
        c: Contraction,
        shape: KernelShape,
        fma: bool,
        upper: Sequence[SSAValue],
        fusion: Fusion,
        parallel: bool = False,
    ):
        self.b = b
        self.c = c
        self.fusion = fusion
        self.shape = shape
        self.fma = fma
        self.upper = list(upper)
        self.vector_type = VectorType(c.element, [shape.lanes])
        self.in_bounds = b.marks_in_bounds
        self.parallel = parallel
        self.packed_b: SSAValue
        self.packed_a: SSAValue
        self.stage: SSAValue
        self.zero_vector: SSAValue
        self.direct = unit_stride_columns(c, c.init, c.maps[2])
        self.rhs_rows_contiguous = unit_stride_columns(c, c.rhs, c.maps[1])
        """Whole panels of B are copied a vector at a time."""
        """Whole tiles of C load and store their vectors in C itself: C's
        last dimension is the column loop, with a static unit stride."""

    # -- the lowering ----------------------------------------------------------

    def emit(self) -> None:
        b, c, shape = self.b, self.c, self.shape
        element = c.element
        sizes = {loop: c.static_size(loop) for loop in (c.m, c.n)}  # None: dynamic
        big_k = c.static_k()
        nr, mr = shape.columns, shape.rows
        kc = min(shape.kc, big_k or shape.kc) or 1
        nc = min(shape.nc, _round_up(sizes[c.n] or shape.nc, nr)) or nr
        mc = min(shape.mc, _round_up(sizes[c.m] or shape.mc, mr)) or mr
        self.kc, self.nc, self.mc = kc, nc, mc
        # One block of rows has nothing to share out; then the first batch
        # loop that runs more than once is shared out instead (a
        # convolution's output rows), each iteration with all its buffers.
        rows = sizes[c.m]
        wanted, self.parallel = self.parallel, False
        self.heap_stage = wanted
        if wanted and (rows is None or rows > mc):
            self.parallel = True
        outer = [*c.batch, *c.outer_reductions]
        names = ["batch"] * len(c.batch) + ["window"] * len(c.outer_reductions)
        shared = None
        if wanted and not self.parallel:
            shared = next((d for d in c.batch if (c.static_size(d) or 2) > 1), None)
        self.zero = b.constant(0.0, element)
        self.big_k = self.upper[c.k] if big_k is None else b.index(big_k)
        if big_k is None:
            for loop in c.packed_k[:-1]:
                self.big_k = self.muli(b, self.upper[loop], self.big_k)
        # An input the loops around the kernel do not move over, whose rows
        # (or columns) and k fit one cache block, is packed once for all.
        whole_k = big_k is not None and big_k <= shape.kc
        self.hoist_lhs = (
            whole_k
            and not self.parallel
            and (sizes[c.m] or shape.mc + 1) <= shape.mc
            and not used_loops(c.maps[0]) & set(outer)
        )
        self.hoist_rhs = (
            whole_k
            and (sizes[c.n] or shape.nc + 1) <= shape.nc
            and not used_loops(c.maps[1]) & set(outer)
        )

        def batch_body(
            b: LoopNestBuilder, ivs: Sequence[SSAValue], _: Sequence[SSAValue]
        ) -> Sequence[SSAValue]:
            point = dict(zip([d for d in outer if d != shared], ivs, strict=True))
            if shared is not None:
                assert shared_iv is not None
                point[shared] = shared_iv
            self.column_blocks(b, point)
            return ()

        # With the batch loop shared out, the inputs packed once are packed
        # before it and read by every iteration.
        packed_once = shared is not None

        def hoisted(b: LoopNestBuilder) -> None:
            zero = b.index(0)
            if self.hoist_rhs:
                self.packed_b = self._alloc_packed_rhs(b)
                self.pack_rhs(b, {}, zero, self.upper[c.n], zero, self.big_k)
            if self.hoist_lhs:
                self.packed_a = self._alloc_packed_lhs(b)
                self.pack_lhs(b, {}, zero, self.upper[c.m], zero, self.big_k)

        def buffers_and_loops(b: LoopNestBuilder) -> None:
            if not self.hoist_rhs:
                self.packed_b = self._alloc_packed_rhs(b)
            if not self.parallel:
                self._thread_buffers(b, with_packed_lhs=not self.hoist_lhs)
            if not packed_once:
                hoisted(b)
            inner = [d for d in outer if d != shared]
            inner_names = [n for d, n in zip(outer, names, strict=True) if d != shared]
            b.loop_nest([self.upper[d] for d in inner], (), batch_body, ivs=inner_names)
            if not self.parallel:
                if self.heap_stage:
                    b.insert(memref.DeallocOp.get(self.stage))
                if not (packed_once and self.hoist_lhs):
                    b.insert(memref.DeallocOp.get(self.packed_a))
            if not (packed_once and self.hoist_rhs):
                b.insert(memref.DeallocOp.get(self.packed_b))

        shared_iv: SSAValue | None = None
        if shared is None:
            buffers_and_loops(b)
            return
        hoisted(b)

        def shared_body(
            b: LoopNestBuilder, iv: SSAValue, _: Sequence[SSAValue]
        ) -> Sequence[SSAValue]:
            nonlocal shared_iv
            shared_iv = iv
            buffers_and_loops(b)
            return ()

        self._parallel(b, self.upper[shared], 1, shared_body, "batch")
        if self.hoist_lhs:
            b.insert(memref.DeallocOp.get(self.packed_a))
        if self.hoist_rhs:
            b.insert(memref.DeallocOp.get(self.packed_b))

    def _alloc_packed_rhs(self, b: LoopNestBuilder) -> SSAValue:
        nr = self.shape.columns
        type_ = MemRefType(self.c.element, [self.nc // nr, self.kc, nr])
        alloc = memref.AllocOp([], [], type_, IntegerAttr(64, i64))
        return b.add(alloc, "packed_rhs")

    def _alloc_packed_lhs(self, b: LoopNestBuilder) -> SSAValue:
        mr = self.shape.rows
        type_ = MemRefType(self.c.element, [self.mc // mr, self.kc, mr])
        alloc = memref.AllocOp([], [], type_, IntegerAttr(64, i64))
        return b.add(alloc, "packed_lhs")

    def _thread_buffers(self, b: LoopNestBuilder, with_packed_lhs: bool = True) -> None:
        """The buffers each thread of the row blocks writes: the packed A
        block (unless it is packed once for all), the stage (and the zero
        vector its edges start from)."""
        element, shape = self.c.element, self.shape
        mr, nr = shape.rows, shape.columns
        if with_packed_lhs:
            self.packed_a = self._alloc_packed_lhs(b)
        stage_type = MemRefType(element, [mr, nr])
        if self.heap_stage:  # an alloca would grow the stack at each iteration
            stage = memref.AllocOp([], [], stage_type, IntegerAttr(64, i64))
        else:
            stage = memref.AllocaOp.get(element, 64, [mr, nr])
        self.stage = b.add(stage, "stage")
        self.zero_vector = b.add(vector.BroadcastOp(self.zero, self.vector_type))

    def column_blocks(self, b: LoopNestBuilder, point: dict[int, SSAValue]) -> None:
        c = self.c
        big_n, big_k, big_m = self.upper[c.n], self.big_k, self.upper[c.m]

        def over_n(b: LoopNestBuilder, jc: SSAValue, _: Sequence[SSAValue]):
            ncur = self.min(b, b.index(self.nc), self.sub(b, big_n, jc))

            def over_k(b: LoopNestBuilder, pc: SSAValue, _: Sequence[SSAValue]):
                kcur = self.min(b, b.index(self.kc), self.sub(b, big_k, pc))
                if not self.hoist_rhs:
                    self.pack_rhs(b, point, jc, ncur, pc, kcur)

                def over_m(b: LoopNestBuilder, ic: SSAValue, _: Sequence[SSAValue]):
                    mcur = self.min(b, b.index(self.mc), self.sub(b, big_m, ic))
                    if self.parallel:
                        self._thread_buffers(b)
                    if not self.hoist_lhs:
                        self.pack_lhs(b, point, ic, mcur, pc, kcur)
                    self.tiles(b, point, (ic, mcur), (jc, ncur), (pc, kcur))
                    if self.parallel:
                        b.insert(memref.DeallocOp.get(self.stage))
                        b.insert(memref.DeallocOp.get(self.packed_a))
                    return ()

                if self.parallel:
                    self._parallel(b, big_m, self.mc, over_m)
                else:
                    b.for_loop(big_m, (), over_m, step=self.mc, iv="ic")
                return ()

            b.for_loop(big_k, (), over_k, step=self.kc, iv="pc")
            return ()

        b.for_loop(big_n, (), over_n, step=self.nc, iv="jc")

    def _parallel(
        self,
        b: LoopNestBuilder,
        upper: SSAValue,
        step: int,
        body: Callable[
            [LoopNestBuilder, SSAValue, Sequence[SSAValue]], Sequence[SSAValue]
        ],
        name: str = "ic",
    ) -> None:
        """`scf.parallel` from 0 to `upper` by `step` around `body`: the
        blocks of rows (or the batch iterations) are independent (each has
        its own packed buffers and stage, and writes its own part of C)."""
        block = Block(arg_types=[IndexType()])
        block.args[0].name_hint = name
        body(b.at(InsertPoint.at_end(block)), block.args[0], ())
        block.add_op(scf.ReduceOp())
        bounds = (b.index(0), upper, b.index(step))
        b.insert(scf.ParallelOp([bounds[0]], [bounds[1]], [bounds[2]], Region(block)))

    def tiles(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        rows: tuple[SSAValue, SSAValue],
        columns: tuple[SSAValue, SSAValue],
        reduction: tuple[SSAValue, SSAValue],
    ) -> None:
        """Every register tile of the block: its C tile staged, the
        micro-kernel, the stage copied back."""
        shape = self.shape
        pc, kcur = reduction
        ic, mcur = rows
        jc, ncur = columns

        def over_columns(b: LoopNestBuilder, q: SSAValue, _: Sequence[SSAValue]):
            width, column = self.panel_bounds(b, q, shape.columns, ncur, jc)[1:]

            def over_rows(b: LoopNestBuilder, p: SSAValue, _: Sequence[SSAValue]):
                height, row = self.panel_bounds(b, p, shape.rows, mcur, ic)[1:]
                tile = (row, height, column, width)
                if not self.direct:
                    self.stage_in(b, point, *tile, pc)
                    inits = self.load_stage(b)
                    finals = self.kernel(b, p, q, kcur, inits)
                    self.store_stage(b, finals)
                    self.stage_out(b, point, *tile, (pc, kcur))
                    return ()
                # A whole tile of C reads and writes C directly; an edge tile
                # (or one the epilogue finishes) goes through the stage.
                whole = b.add(
                    arith.AndIOp(
                        b.add(arith.CmpiOp(height, b.index(shape.rows), "eq")),
                        b.add(arith.CmpiOp(width, b.index(shape.columns), "eq")),
                    )
                )
                types = [self.vector_type] * (shape.rows * shape.vectors)

                def direct_in(b: LoopNestBuilder) -> Sequence[SSAValue]:
                    return self.load_c(b, point, row, column, pc)

                def staged_in(b: LoopNestBuilder) -> Sequence[SSAValue]:
                    self.stage_in(b, point, *tile, pc)
                    return self.load_stage(b)

                inits = b.if_then(whole, types, direct_in, staged_in)
                finals = self.kernel(b, p, q, kcur, inits)

                def direct_out(b: LoopNestBuilder) -> Sequence[SSAValue]:
                    self.store_c(b, point, row, column, finals)
                    return ()

                def staged_out(b: LoopNestBuilder) -> Sequence[SSAValue]:
                    self.store_stage(b, finals)
                    self.stage_out(b, point, *tile, (pc, kcur))
                    return ()

                if self.fusion.epilogue is None:
                    b.if_then(whole, [], direct_out, staged_out)
                    return ()
                not_last = self.not_last_block(b, pc, kcur)
                if not_last is None:
                    staged_out(b)
                    return ()
                direct = b.add(arith.AndIOp(whole, not_last))
                b.if_then(direct, [], direct_out, staged_out)
                return ()

            b.for_loop(self.panels(b, mcur, shape.rows), (), over_rows, iv="p")
            return ()

        b.for_loop(self.panels(b, ncur, shape.columns), (), over_columns, iv="q")

    def _stage_copy(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        row: SSAValue,
        height: SSAValue,
        column: SSAValue,
        width: SSAValue,
        into_stage: bool,
    ) -> None:
        c = self.c

        def over_r(b: LoopNestBuilder, r: SSAValue, _: Sequence[SSAValue]):
            m_index = self.addi(b, row, r)

            def over_j(b: LoopNestBuilder, j: SSAValue, _: Sequence[SSAValue]):
                at = {**point, c.m: m_index, c.n: self.addi(b, column, j)}
                indices = access_indices(b, c.maps[2], at)
                if into_stage:
                    b.store(b.load(c.init, indices), self.stage, [r, j])
                else:
                    b.store(b.load(self.stage, [r, j]), c.init, indices)
                return ()

            b.for_loop(width, (), over_j, iv="j")
            return ()

        b.for_loop(height, (), over_r, iv="r")

    def stage_in(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        row: SSAValue,
        height: SSAValue,
        column: SSAValue,
        width: SSAValue,
        pc: SSAValue,
    ) -> None:
        """The stage: zeros, then the valid part of the C tile; with an
        absorbed fill, the fill value in the first block of k."""
        fill = self.fusion.fill

        def from_c(b: LoopNestBuilder) -> Sequence[SSAValue]:
            self._splat_stage(b, self.zero_vector)
            self._stage_copy(b, point, row, height, column, width, True)
            return ()

        if fill is None:
            from_c(b)
            return

        def from_fill(b: LoopNestBuilder) -> Sequence[SSAValue]:
            value = b.add(vector.BroadcastOp(fill.inputs[0], self.vector_type))
            self._splat_stage(b, value)
            return ()

        if self.kc >= (self.c.static_k() or 0):
            from_fill(b)  # one block of k: always the first
            return
        first = b.add(arith.CmpiOp(pc, b.index(0), "eq"))
        b.if_then(first, [], from_fill, from_c)

    def _splat_stage(self, b: LoopNestBuilder, value: SSAValue) -> None:
        shape = self.shape
        for r in range(shape.rows):
            for v in range(shape.vectors):
                indices = [b.index(r), b.index(v * shape.lanes)]
                self.vstore(b, value, self.stage, indices)

    def stage_out(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        row: SSAValue,
        height: SSAValue,
        column: SSAValue,
        width: SSAValue,
        reduction: tuple[SSAValue, SSAValue],
    ) -> None:
        """The valid part of the stage into C; with an epilogue, in the
        last block of k, the epilogue's body applied to it into the
        epilogue's output instead."""
        epilogue = self.fusion.epilogue

        def to_c(b: LoopNestBuilder) -> Sequence[SSAValue]:
            self._stage_copy(b, point, row, height, column, width, False)
            return ()

        if epilogue is None:
            to_c(b)
            return

        def through_epilogue(b: LoopNestBuilder) -> Sequence[SSAValue]:
            self._epilogue_copy(b, point, row, height, column, width)
            return ()

        big_k = self.c.static_k()
        if big_k is not None and self.kc >= big_k:
            through_epilogue(b)  # one block of k: always the last
            return
        pc, kcur = reduction
        end = self.addi(b, pc, kcur)
        last = b.add(arith.CmpiOp(end, self.big_k, "sge"))
        b.if_then(last, [], through_epilogue, to_c)

    def _epilogue_copy(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        row: SSAValue,
        height: SSAValue,
        column: SSAValue,
        width: SSAValue,
    ) -> None:
        c, fusion = self.c, self.fusion
        generic = fusion.epilogue
        assert generic is not None
        maps = [m.data for m in generic.indexing_maps]
        block = generic.body.block
        num_inputs = len(generic.inputs)

        def over_r(b: LoopNestBuilder, r: SSAValue, _: Sequence[SSAValue]):
            m_index = self.addi(b, row, r)

            def over_j(b: LoopNestBuilder, j: SSAValue, _: Sequence[SSAValue]):
                at = {**point, c.m: m_index, c.n: self.addi(b, column, j)}
                # The epilogue's loop d runs along C's dimension d.
                ivs = access_indices(b, c.maps[2], at)
                mapping: dict[SSAValue, SSAValue] = {}
                for index, (arg, operand, map_) in enumerate(
                    zip(block.args, generic.operands, maps, strict=True)
                ):
                    if not arg.uses:
                        continue
                    if index == fusion.epilogue_input:
                        mapping[arg] = b.load(self.stage, [r, j])
                    elif isinstance(operand.type, MemRefType):
                        mapping[arg] = b.load(operand, map_indices(b, map_, ivs))
                    else:
                        assert index < num_inputs
                        mapping[arg] = operand
                (value,) = inline_body(b, block, mapping, ivs)
                output = generic.outputs[0]
                b.store(value, output, map_indices(b, maps[-1], ivs))
                return ()

            b.for_loop(width, (), over_j, iv="j")
            return ()

        b.for_loop(height, (), over_r, iv="r")

    def _places(self) -> list[tuple[int, int]]:
        """(row, vector) of each accumulator, in order."""
        shape = self.shape
        return [(r, v) for r in range(shape.rows) for v in range(shape.vectors)]

    def load_stage(self, b: LoopNestBuilder) -> list[SSAValue]:
        lanes = self.shape.lanes
        return [
            self.vload(b, self.stage, [b.index(r), b.index(v * lanes)])
            for r, v in self._places()
        ]

    def store_stage(self, b: LoopNestBuilder, values: Sequence[SSAValue]) -> None:
        lanes = self.shape.lanes
        for (r, v), value in zip(self._places(), values, strict=True):
            self.vstore(b, value, self.stage, [b.index(r), b.index(v * lanes)])

    def _c_indices(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        row: SSAValue,
        column: SSAValue,
        r: int,
        v: int,
    ) -> list[SSAValue]:
        c = self.c
        at = {
            **point,
            c.m: self.addi(b, row, b.index(r)),
            c.n: self.addi(b, column, b.index(v * self.shape.lanes)),
        }
        return access_indices(b, c.maps[2], at)

    def load_c(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        row: SSAValue,
        column: SSAValue,
        pc: SSAValue,
    ) -> list[SSAValue]:
        """The accumulators of a whole tile, from C (or, with an absorbed
        fill, from its value in the first block of k)."""
        fill = self.fusion.fill

        def from_c(b: LoopNestBuilder) -> list[SSAValue]:
            return [
                self.vload(b, self.c.init, self._c_indices(b, point, row, column, r, v))
                for r, v in self._places()
            ]

        if fill is None:
            return from_c(b)

        def from_fill(b: LoopNestBuilder) -> list[SSAValue]:
            value = b.add(vector.BroadcastOp(fill.inputs[0], self.vector_type))
            return [value] * len(self._places())

        if self.kc >= (self.c.static_k() or 0):
            return from_fill(b)
        first = b.add(arith.CmpiOp(pc, b.index(0), "eq"))
        types = [self.vector_type] * len(self._places())
        return list(b.if_then(first, types, from_fill, from_c))

    def store_c(
        self,
        b: LoopNestBuilder,
        point: dict[int, SSAValue],
        row: SSAValue,
        column: SSAValue,
        values: Sequence[SSAValue],
    ) -> None:
        for (r, v), value in zip(self._places(), values, strict=True):
            indices = self._c_indices(b, point, row, column, r, v)
            self.vstore(b, value, self.c.init, indices)

    def not_last_block(
        self, b: LoopNestBuilder, pc: SSAValue, kcur: SSAValue
    ) -> SSAValue | None:
        """Whether the block of k at `pc` is not the last; None when there
        is one block only (statically)."""
        big_k = self.c.static_k()
        if big_k is not None and self.kc >= big_k:
            return None
        end = self.addi(b, pc, kcur)
        return b.add(arith.CmpiOp(end, self.big_k, "slt"))

    def kernel(
        self,
        b: LoopNestBuilder,
        p: SSAValue,
        q: SSAValue,
        kcur: SSAValue,
        inits: Sequence[SSAValue],
    ) -> tuple[SSAValue, ...]:
        """for k: acc[r][v] += Ap[p][k][r] * Bp[q][k][v]; the final acc."""
        shape = self.shape

        def step(
            b: LoopNestBuilder, kk: SSAValue, acc: Sequence[SSAValue]
        ) -> Sequence[SSAValue]:
            columns = [
                self.vload(b, self.packed_b, [q, kk, b.index(v * shape.lanes)])
                for v in range(shape.vectors)
            ]
            results: list[SSAValue] = []
            for r in range(shape.rows):
                scalar = b.load(self.packed_a, [p, kk, b.index(r)])
                row = b.add(vector.BroadcastOp(scalar, self.vector_type))
                for v in range(shape.vectors):
                    current = acc[r * shape.vectors + v]
                    if self.fma:
                        results.append(b.add(vector.FMAOp(row, columns[v], current)))
                    else:
                        product = b.add(arith.MulfOp(row, columns[v]))
                        results.append(b.add(arith.AddfOp(current, product)))
            return results

        return b.for_loop(kcur, inits, step, iv="k", names=["acc"] * len(inits))


def _round_up(value: int, multiple: int) -> int:
    return -(-value // multiple) * multiple


def emit_microkernel(
    b: LoopNestBuilder,
    contraction: Contraction,
    shape: KernelShape,
    fma: bool,
    upper: Sequence[SSAValue],
    fusion: Fusion | None = None,
    parallel: bool = False,
) -> None:
    """Build, with `b`, the micro-kernel lowering of `contraction` (module
    docstring) and of what `fusion` fuses into it (the caller erases those
    ops and moves `fusion.moved` before the built ops); `upper` holds each
    loop's extent. Accesses are marked in bounds when `b` marks them (its
    caller has checked the extents). With `parallel`, the loop over the
    blocks of rows is an `scf.parallel` (each iteration with its own packed
    A block and stage) that `outline-parallel-loops-ext` can run on threads."""
    emitter = _Emitter(b, contraction, shape, fma, upper, fusion or Fusion(), parallel)
    emitter.emit()
