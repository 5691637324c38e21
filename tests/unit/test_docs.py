"""The docs stay true to the code.

- Every op has a page whose example parses and verifies; every pass has a page
  naming its options and a row in the README.
- Every code block of the README and of docs/ runs (one test per block, named
  by its page, line and first line):
  - `mlir` blocks go through `linalg-ext-opt` (in this process), which parses
    and verifies them; a block with `expected-error` comments is run with
    `--verify-diagnostics`;
  - `sh`/`console` blocks are run command by command with `.venv/bin` first on
    the PATH and the repository root as working directory. Plain lines are
    commands that must succeed. In a transcript (lines starting with `$ `),
    the lines after a command are its expected output: each must appear in a
    line of what the command printed (stdout or stderr), where `...` or `…`
    stands for any text; a command with no expected output must succeed.
    Only our commands run (see `RUNNABLE_COMMANDS`): `linalg-ext-*` in this
    process, through their entry points; `xdsl-opt` (whose behaviour depends
    on what the process has loaded) and `python` in a fresh process;
  - `python` blocks are executed, in a fresh namespace.
- A block gets no test case only when it is marked, on the line before its fence,
  with `<!-- not runnable: why -->` (a fragment, a placeholder, `make bench`,
  `pip install`, ...). Blocks without a language (printed output) are text.
  A block marked `an excerpt of examples/<file>` must appear in that file
  verbatim (the file itself is run by another block).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

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


NEWCOMER_PAGES = ("tutorial.md", "pipelines.md", "api.md", "adding-an-op.md")
NEWCOMER_PAGES += ("troubleshooting.md",)


def test_index_and_readme_link_the_newcomer_pages():
    index = (DOCS / "index.md").read_text()
    readme = (REPO / "README.md").read_text()
    for page in NEWCOMER_PAGES:
        assert (DOCS / page).is_file(), page
        assert f"]({page})" in index, f"docs/index.md does not link {page}"
        assert f"](docs/{page})" in readme, f"README.md does not link {page}"


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


# --------------------------------------------------------------------------
# Every code block runs


RUN_LANGUAGES = ("mlir", "sh", "console", "python")
RUNNABLE_COMMANDS = {
    "xdsl-opt",
    "linalg-ext-opt",
    "linalg-ext-run",
    "linalg-ext-check",
    "python",
    "echo",
}
"""First words of the commands a shell block may run; anything else (`make`,
`pip`, `apt-get`) needs the block marked not runnable."""
COMMAND_TIMEOUT = 120
FENCE = re.compile(
    r"^(?P<indent> *)```(?P<lang>[\w-]*)[^\n]*\n(?P<body>.*?)^(?P=indent)```",
    re.M | re.S,
)
NOT_RUNNABLE = re.compile(r"^\s*<!--\s*not runnable:\s*(?P<why>\S.*?)\s*-->\s*$")
ELLIPSIS = re.compile(r"\.\.\.|…")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    language: str
    text: str
    skip_reason: str | None

    @property
    def name(self) -> str:
        first = next((s.strip() for s in self.text.splitlines() if s.strip()), "")
        return f"{self.page}:{self.line}: {first[:60]}"


def _pages() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]


def _blocks() -> list[Block]:
    blocks: list[Block] = []
    for path in _pages():
        text = path.read_text()
        for match in FENCE.finditer(text):
            language = match["lang"]
            if language not in RUN_LANGUAGES:
                continue
            line = text.count("\n", 0, match.start()) + 1
            before = text[: match.start()].rstrip("\n").rsplit("\n", 1)[-1]
            marker = NOT_RUNNABLE.match(before)
            indent = len(match["indent"])
            body = "\n".join(s[indent:] for s in match["body"].splitlines())
            blocks.append(
                Block(
                    str(path.relative_to(REPO)),
                    line,
                    language,
                    body + "\n",
                    marker["why"] if marker else None,
                )
            )
    return blocks


BLOCKS = _blocks()


def test_blocks_are_found():
    languages = {b.language for b in BLOCKS}
    assert {"mlir", "sh", "python"} <= languages
    assert any(b.page == "docs/tutorial.md" for b in BLOCKS)


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join([bin_dir, env.get("PATH", "")])
    env["PYTHONWARNINGS"] = "ignore::DeprecationWarning"
    return env


@dataclass
class Command:
    text: str
    expected: list[str]
    transcript: bool


def _commands(block: Block) -> list[Command]:
    """The block's commands, each with the output lines it must print."""
    lines = block.text.splitlines()
    transcript = any(s.startswith("$ ") for s in lines)
    commands: list[Command] = []
    pending = ""
    for line in lines:
        if transcript:
            if line.startswith("$ "):
                commands.append(Command(line[2:], [], True))
            elif line.strip():
                assert commands, f"output before the first command: {line!r}"
                commands[-1].expected.append(line.strip())
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.endswith("\\"):
            pending += stripped[:-1] + " "
            continue
        commands.append(Command(pending + stripped, [], False))
        pending = ""
    return commands


def _matches(expected: str, output_lines: list[str]) -> bool:
    pieces = [p.strip() for p in ELLIPSIS.split(expected)]
    for line in output_lines:
        position = 0
        for piece in pieces:
            found = line.find(piece, position)
            if found < 0:
                break
            position = found + len(piece)
        else:
            return True
    return False


OUR_SCRIPTS = {
    entry.name: entry
    for entry in entry_points(group="console_scripts")
    if entry.value.startswith("linalg_ext.")
}
"""Our command-line tools: run in this process (their start-up would dominate
the test's time), through the same entry point their scripts call."""
SHELL_SYNTAX = re.compile(r"[|<>;&$`*]")


def _run_in_process(command: str, monkeypatch: pytest.MonkeyPatch) -> tuple[int, str]:
    argv = shlex.split(command, comments=True)
    monkeypatch.chdir(REPO)
    monkeypatch.setattr(sys, "argv", argv)
    out = io.StringIO()
    code: int | str | None = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        try:
            OUR_SCRIPTS[argv[0]].load()()
        except SystemExit as exit_:
            code = exit_.code
    status = code if isinstance(code, int) else (0 if code is None else 1)
    return status, out.getvalue()


def _run_in_shell(command: str, status: int) -> tuple[int, str]:
    # `$?` in a transcript is the previous command's status.
    done = subprocess.run(
        ["bash", "-c", f"(exit {status}); {command}"],
        cwd=REPO,
        env=_environment(),
        capture_output=True,
        text=True,
        timeout=COMMAND_TIMEOUT,
    )
    return done.returncode, done.stdout + done.stderr


def _run_shell(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    commands = _commands(block)
    assert commands, "a shell block without commands"
    status = 0
    for command in commands:
        program = command.text.split()[0]
        assert program in RUNNABLE_COMMANDS, (
            f"`{program}` is not one of our commands: mark the block "
            "`<!-- not runnable: why -->` or use one of "
            f"{sorted(RUNNABLE_COMMANDS)}"
        )
        if program in OUR_SCRIPTS and not SHELL_SYNTAX.search(command.text):
            status, output = _run_in_process(command.text, monkeypatch)
        else:
            status, output = _run_in_shell(command.text, status)
        if not command.expected:
            assert status == 0, f"`{command.text}` failed ({status}):\n{output}"
            continue
        output_lines = output.splitlines()
        for expected in command.expected:
            assert _matches(expected, output_lines), (
                f"`{command.text}` did not print {expected!r}; it printed "
                f"(exit {status}):\n{output}"
            )


def _run_mlir(block: Block, tmp_path: Path) -> None:
    from linalg_ext.tools import opt

    path = tmp_path / "block.mlir"
    path.write_text(block.text)
    argv = [str(path)]
    if re.search(r"//\s*expected-(error|warning|note|remark)", block.text):
        argv.append("--verify-diagnostics")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = opt.main(argv)
    assert code == 0, f"linalg-ext-opt {' '.join(argv[1:])} failed:\n{err.getvalue()}"


def _run_python(block: Block, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    code = compile(block.text, f"{block.page}:{block.line}", "exec")
    namespace = {"__name__": "__docs__"}
    with contextlib.redirect_stdout(io.StringIO()):
        exec(code, namespace)


RUNNABLE = [b for b in BLOCKS if b.skip_reason is None]
"""Every block but those marked not runnable (with a reason, which
`NOT_RUNNABLE` requires): those get no test case at all, rather than one that
is always skipped."""


@pytest.mark.parametrize("block", RUNNABLE, ids=[b.name for b in RUNNABLE])
def test_code_block_runs(block: Block, tmp_path, monkeypatch):
    if block.language == "mlir":
        _run_mlir(block, tmp_path)
    elif block.language == "python":
        _run_python(block, monkeypatch)
    else:
        _run_shell(block, monkeypatch)


EXCERPT = re.compile(r"an excerpt of (?P<path>examples/[\w/.-]+\.\w+)")


@pytest.mark.parametrize(
    "block",
    [b for b in BLOCKS if b.skip_reason and EXCERPT.match(b.skip_reason)],
    ids=lambda b: b.name,
)
def test_excerpts_are_in_their_file(block: Block):
    """An excerpt is not run, but the file it comes from is: it must be there."""
    match = EXCERPT.match(block.skip_reason or "")
    assert match
    assert block.text in (REPO / match["path"]).read_text()


def test_the_tutorial_shows_its_program():
    tutorial = next(b for b in BLOCKS if b.page == "docs/tutorial.md")
    assert tutorial.text == (REPO / "examples" / "tutorial.mlir").read_text()
