"""Parsing and printing helpers shared by the unit tests."""

from __future__ import annotations

import io
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp
from xdsl.parser import Parser
from xdsl.printer import Printer

from linalg_ext.context import make_context

REPO = Path(__file__).resolve().parents[2]
FILECHECK_DIALECT_DIR = REPO / "tests" / "filecheck" / "dialect" / "linalg_ext"


def parse_module(text: str, *, allow_unregistered: bool = True) -> ModuleOp:
    module = Parser(
        make_context(allow_unregistered=allow_unregistered), text
    ).parse_module()
    module.verify()
    return module


def print_module(module: ModuleOp, *, generic: bool = False) -> str:
    out = io.StringIO()
    Printer(stream=out, print_generic_format=generic).print_op(module)
    return out.getvalue()


def roundtrip_inputs() -> list[Path]:
    """The valid programs of the FileCheck suite (the invalid ones are not)."""
    return sorted(
        p
        for p in FILECHECK_DIALECT_DIR.glob("*.mlir")
        if not p.name.startswith("invalid")
    )
