"""A pass that is a fixed pipeline of other passes (`lower-to-llvm`).

`StagedPass.apply` runs `stages()` in order on a clone and replaces the
module's contents only when every stage and the final check (`finish`)
succeed. A driver that shows the IR between passes or times them
(`linalg-ext-opt --print-between-passes`, `--time-passes`) runs the same
stages itself, one `run_stage` at a time, then `finish`: the stages it shows
are the ones `apply` runs.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from linalg_ext.diagnostics import with_prefix
from linalg_ext.transforms.module_contents import replace_module_contents


@dataclass(frozen=True)
class StagedPass(ModulePass, ABC):
    """A pass made of other passes, run in order."""

    @abstractmethod
    def stages(self) -> tuple[ModulePass, ...]:
        """The passes this pass runs, in order, configured by its options."""

    def run_stage(self, ctx: Context, module: ModuleOp, stage: ModulePass) -> None:
        """Apply one stage; a failure names this pass and the stage."""
        try:
            stage.apply(ctx, module)
        except PassFailedException as error:
            prefixed = with_prefix(error, f"{stage.name}: ")
            raise with_prefix(prefixed, f"{self.name}: ") from error

    def finish(self, module: ModuleOp) -> None:
        """Check the result of the last stage (raise to refuse it)."""
        module.verify()

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        work = op.clone()
        for stage in self.stages():
            self.run_stage(ctx, work, stage)
        self.finish(work)
        replace_module_contents(op, work)
