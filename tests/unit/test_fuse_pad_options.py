"""fuse-pad's options: a bad value is a one-line error naming the pass, the
option and its choices (from the option's `Literal` type)."""

from __future__ import annotations

import typing

from helpers import REPO
from linalg_ext.passes.fuse_pad import FusePadPass
from linalg_ext.tools import check, opt

PROGRAM = str(
    REPO / "tests" / "filecheck" / "passes" / "fuse-pad" / "seed_examples.mlir"
)
MESSAGE = "pass 'fuse-pad': option 'fill' expects one of full, border, got 'diagonal'"


def test_fill_modes_are_the_literal_type_of_the_option():
    hint = typing.get_type_hints(FusePadPass)["fill"]
    assert typing.get_args(hint) == ("full", "border")


def test_bad_fill_mode_in_a_pipeline_is_one_line(capsys):
    assert check.main([PROGRAM, "-p", "fuse-pad{fill=diagonal}"]) == 1
    err = capsys.readouterr().err.strip()
    assert err == (
        f"linalg-ext-check: error: bad pipeline 'fuse-pad{{fill=diagonal}}': {MESSAGE}"
    )


def test_bad_fill_mode_in_linalg_ext_opt_is_one_line(capsys):
    assert opt.main([PROGRAM, "-p", "fuse-pad{fill=diagonal}"]) == 1
    assert capsys.readouterr().err.strip() == f"linalg-ext-opt: error: {MESSAGE}"


def test_a_pipeline_that_does_not_parse_is_one_line_in_both_tools(capsys):
    # xDSL reports this with a BaseException and a drawing of the spec.
    where = "cannot parse the pass pipeline 'fuse-pad{' at column 10: "
    assert check.main([PROGRAM, "-p", "fuse-pad{"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"linalg-ext-check: error: bad pipeline: {where}Expected argument name here"
    )
    assert opt.main([PROGRAM, "-p", "fuse-pad{"]) == 1
    assert capsys.readouterr().err.strip() == (
        f"linalg-ext-opt: error: {where}Expected argument name here"
    )
