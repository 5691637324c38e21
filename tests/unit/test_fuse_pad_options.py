"""fuse-pad's options: a bad value is a one-line error naming the pass."""

from __future__ import annotations

import pytest

from helpers import REPO
from linalg_ext.passes.fuse_pad import FusePadPass
from linalg_ext.tools import check


def test_bad_fill_mode_is_rejected_when_the_pass_is_built():
    with pytest.raises(
        ValueError, match="fuse-pad: fill must be one of full, border, got 'diagonal'"
    ):
        FusePadPass(fill="diagonal")


def test_bad_fill_mode_in_a_pipeline_is_one_line(capsys):
    program = str(
        REPO / "tests" / "filecheck" / "passes" / "fuse-pad" / "seed_examples.mlir"
    )
    assert check.main([program, "-p", "fuse-pad{fill=diagonal}"]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(
        "linalg-ext-check: error: bad pipeline 'fuse-pad{fill=diagonal}'"
    )
    assert "fill must be one of full, border" in err
    assert len(err.splitlines()) == 1
