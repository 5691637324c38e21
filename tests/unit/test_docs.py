"""The docs stay true to the code: a page per op, and its example parses and verifies."""

from __future__ import annotations

import re

import pytest

from helpers import REPO, parse_module
from linalg_ext.dialect import LinalgExt

DOCS = REPO / "docs"
OP_NAMES = sorted(op.name for op in LinalgExt.operations)


def example_block(page: str) -> str:
    section = page.split("## Example\n", 1)[1]
    match = re.search(r"```mlir\n(.*?)```", section, re.S)
    assert match, "the Example section has no mlir block"
    return match.group(1)


@pytest.mark.parametrize("op_name", OP_NAMES)
def test_every_op_has_a_page_with_a_verified_example(op_name):
    page = (DOCS / "ops" / f"{op_name.removeprefix('linalg_ext.')}.md").read_text()
    for section in ("## Syntax", "## Definition", "## Verifier rules", "## Example"):
        assert section in page, f"{op_name}: missing {section}"
    example = example_block(page)
    assert op_name in example
    parse_module(example)


def test_index_and_dialect_page_link_every_op():
    for page in ("index.md", "dialect.md"):
        text = (DOCS / page).read_text()
        for op_name in OP_NAMES:
            assert f"ops/{op_name.removeprefix('linalg_ext.')}.md" in text, (
                page,
                op_name,
            )


def test_readme_gives_the_two_commands():
    readme = (REPO / "README.md").read_text()
    assert "make demo" in readme and "make test" in readme
    assert "from linalg_ext.dialect import LinalgExt" in readme


def _option_names(pass_class) -> list[str]:
    import dataclasses

    return [f.name.replace("_", "-") for f in dataclasses.fields(pass_class)]


def test_every_pass_has_a_page_naming_its_options_and_a_readme_row():
    from linalg_ext.passes import ALL_PASSES

    readme = (REPO / "README.md").read_text()
    for name, get_class in ALL_PASSES.items():
        page = (DOCS / "passes" / f"{name}.md").read_text()
        assert page.startswith(f"# `{name}`"), name
        for option in _option_names(get_class()):
            assert f"`{option}`" in page, f"{name}: option {option} undocumented"
        assert f"| `{name}` |" in readme, f"{name}: no row in README's pass table"
