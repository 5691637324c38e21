"""xDSL's own FileCheck tests, with and without this package: same results?

    python tests/xdsl_compat/run_xdsl_tests.py [--jobs 2] [--keep-going]

Installing xdsl-linalg-ext must change nothing for people who use xDSL
without our dialect or passes. This script takes xDSL's own lit tests (from
the xDSL sdist on PyPI: the wheel has no tests) for the dialects and passes we
touch, runs them with lit in two environments,

- `.venv`: the project environment, this package installed;
- `.venv-xdsl`: plain xDSL at the same versions (see `plain_venv.py`),

and compares them test by test:

1. the lit status (PASS, FAIL, UNSUPPORTED, ...) must be the same;
2. every `xdsl-opt` invocation of the RUN lines must print the same output
   and diagnostics and exit with the same status. The RUN lines go through
   `record_xdsl_opt.py` (a lit substitution) which records what each
   invocation printed; this costs one small extra Python process per
   invocation and catches changes that the tests' CHECK lines do not look at.

It prints a summary table and every differing test, with the first lines of
the difference, and exits 1 when anything differs (2 when the check could not
run at all). The sdist is downloaded once into `.cache/` (git-ignored).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CACHE = REPO / ".cache"
XDSL_VERSION = "0.74.0"
SDIST = CACHE / f"xdsl-{XDSL_VERSION}.tar.gz"
SDIST_ROOT = f"xdsl-{XDSL_VERSION}/tests/filecheck"

# xDSL's tests of the dialects our compat layer adds to or patches.
DIALECT_DIRS = [
    f"dialects/{name}"
    for name in ("linalg", "affine", "scf", "tensor", "bufferization", "llvm", "memref")
]
# xDSL passes whose names our package reuses; their tests are found by RUN line.
PASS_NAMES = ("convert-linalg-to-loops", "lower-affine", "convert-scf-to-cf")


# Installed into each copy of the tests: every `xdsl-opt` of a RUN line (also
# inside xDSL's XDSL_ROUNDTRIP substitutions, which come earlier in the list)
# runs through the recorder. `%s` is expanded by lit after our substitution.
RECORDER_CFG = """\
# Written by tests/xdsl_compat/run_xdsl_tests.py: record every xdsl-opt run.
import sys
config.substitutions.append(
    (r"(?<![\\w./-])xdsl-opt(?![\\w.-])",
     " ".join([sys.executable, {recorder!r}, {records!r}, {tree!r}, "%s", "xdsl-opt"]))
)
"""


def download_sdist() -> None:
    """Fetch xDSL's sdist from PyPI into .cache/ unless it is already there."""
    if SDIST.exists():
        return
    CACHE.mkdir(exist_ok=True)
    print(f"downloading xdsl=={XDSL_VERSION} sdist into {CACHE.relative_to(REPO)}/")
    subprocess.run(
        [
            str(REPO / ".venv" / "bin" / "python"),
            *("-m", "pip", "download", "--quiet", "--no-deps"),
            *("--no-binary", ":all:", f"xdsl=={XDSL_VERSION}", "-d", str(CACHE)),
        ],
        check=True,
    )


def sdist_tests() -> dict[str, bytes]:
    """Every file under the sdist's tests/filecheck, by path relative to it."""
    with tarfile.open(SDIST) as tar:
        return {
            member.name.removeprefix(SDIST_ROOT + "/"): handle.read()
            for member in tar.getmembers()
            if member.name.startswith(SDIST_ROOT + "/") and member.isfile()
            if (handle := tar.extractfile(member)) is not None
        }


def runs_pass(text: bytes, name: str) -> bool:
    """Whether a RUN line of `text` names the pass `name`."""
    pattern = rb"RUN:.*(?<![\w-])" + re.escape(name.encode()) + rb"(?![\w-])"
    return re.search(pattern, text) is not None


def selected_tests(files: dict[str, bytes]) -> list[str]:
    """Paths (relative to tests/filecheck) of the test files to run."""
    chosen = []
    for directory in DIALECT_DIRS:
        found = [name for name in files if name.startswith(directory + "/")]
        if not found:
            raise SystemExit(f"the sdist has no tests under {directory}")
        chosen += found
    for pass_name in PASS_NAMES:
        found = [
            name
            for name, text in files.items()
            if name.startswith("transforms/") and runs_pass(text, pass_name)
        ]
        if not found:
            raise SystemExit(f"no test under transforms/ runs {pass_name}")
        chosen += found
    return sorted(set(chosen))


def extract(files: dict[str, bytes], tests: list[str], tree: Path) -> None:
    """Write xDSL's lit.cfg and `tests` under `tree`, a fresh directory."""
    shutil.rmtree(tree, ignore_errors=True)
    for name in ["lit.cfg", *tests]:
        target = tree / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(files[name])


def run_lit(venv: Path, tree: Path, tests: list[str], jobs: int) -> dict[str, dict]:
    """Run lit of `venv` over `tests`; {test: {"code", "output", "records"}}."""
    records = tree.parent / "records"
    shutil.rmtree(records, ignore_errors=True)
    for directory in {Path(t).parts[0] for t in tests}:
        (tree / directory / "lit.local.cfg").write_text(
            RECORDER_CFG.format(
                recorder=str(HERE / "record_xdsl_opt.py"),
                records=str(records),
                tree=str(tree),
            )
        )
    result_file = tree.parent / "lit-results.json"
    env = dict(os.environ, PATH=f"{venv / 'bin'}{os.pathsep}{os.environ['PATH']}")
    lit = subprocess.run(
        [
            str(venv / "bin" / "lit"),
            *("-q", f"-j{jobs}", "-o", str(result_file)),
            *(str(tree / t) for t in tests),
        ],
        env=env,
        capture_output=True,
        text=True,
    )
    if not result_file.exists():
        sys.stderr.write(lit.stdout + lit.stderr)
        raise SystemExit(f"lit of {venv} produced no results")
    results = {}
    for test in json.loads(result_file.read_text())["tests"]:
        name = test["name"].split(" :: ", 1)[1]
        results[name] = {
            "code": test["code"],
            "output": test.get("output", ""),
            "records": _records(records / name),
        }
    return results


def _records(directory: Path) -> list[str]:
    """The recorded invocations of one test, in an order independent of timing."""
    if not directory.is_dir():
        return []
    found = [json.loads(p.read_text()) for p in directory.glob("*.json")]
    found.sort(key=lambda r: (r["argv"], r["stdin_sha256"] or "", r["stdout"]))
    return [_describe(r) for r in found]


def _describe(record: dict) -> str:
    stdin = f" < input {record['stdin_sha256'][:12]}" if record["stdin_sha256"] else ""
    lines = [f"$ {' '.join(record['argv'])}{stdin}  [exit {record['returncode']}]"]
    lines += ["stdout: " + line for line in record["stdout"].splitlines()]
    lines += ["stderr: " + line for line in record["stderr"].splitlines()]
    return "\n".join(lines)


def compare(ours: dict[str, dict], plain: dict[str, dict]) -> list[str]:
    """One report paragraph per test whose status or recorded output differs."""
    reports = []
    for test in sorted(set(ours) | set(plain)):
        a, b = ours.get(test), plain.get(test)
        if a is None or b is None:
            reports.append(f"{test}: ran in only one environment")
            continue
        lines = []
        if a["code"] != b["code"]:
            lines.append(f"  status: {a['code']} with package, {b['code']} plain")
            if a["code"] != "PASS":
                lines += ["    | " + s for s in _tail(a["output"], 12)]
        if a["records"] != b["records"]:
            diff = list(
                difflib.unified_diff(
                    "\n".join(b["records"]).splitlines(),
                    "\n".join(a["records"]).splitlines(),
                    "plain xDSL",
                    "with package",
                    n=1,
                    lineterm="",
                )
            )
            lines.append(f"  xdsl-opt output differs ({len(diff)} diff lines):")
            lines += ["    " + s for s in diff[:24]]
            lines += ["    ..."] if len(diff) > 24 else []
        if lines:
            reports.append("\n".join([test + ":", *lines]))
    return reports


def _tail(text: str, count: int) -> list[str]:
    interesting = [
        line
        for line in text.splitlines()
        if line.strip() and not line.startswith(("$ ", "# RUN", "# executed"))
    ]
    return interesting[-count:]


def summary(results: dict[str, dict[str, dict]]) -> str:
    codes = sorted({r["code"] for env in results.values() for r in env.values()})
    width = max(len(name) for name in results)
    header = f"{'environment':<{width}}  " + "  ".join(f"{c:>11}" for c in codes)
    rows = [header, "-" * len(header)]
    for env, tests in results.items():
        counts = Counter(r["code"] for r in tests.values())
        rows.append(f"{env:<{width}}  " + "  ".join(f"{counts[c]:>11}" for c in codes))
    return "\n".join(rows)


def _shown(path: Path) -> str:
    """`path` relative to the repository when it is inside it."""
    path = path.resolve()
    return str(path.relative_to(REPO)) if path.is_relative_to(REPO) else str(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", "-j", type=int, default=2)
    parser.add_argument(
        "--venv",
        type=Path,
        default=REPO / ".venv",
        help="environment with the package installed (default: .venv)",
    )
    parser.add_argument(
        "--plain",
        type=Path,
        default=REPO / ".venv-xdsl",
        help="plain xDSL environment, made from --venv's pins if out of date",
    )
    args = parser.parse_args()

    if not (args.venv / "bin" / "lit").exists():
        print(f"{args.venv} has no lit: run `make venv`", file=sys.stderr)
        return 2
    plain_ready = subprocess.run(
        [
            sys.executable,
            str(HERE / "plain_venv.py"),
            *("--venv", str(args.venv), "--plain", str(args.plain)),
        ],
        check=False,
    )
    if plain_ready.returncode != 0:
        print("the plain xDSL venv could not be created", file=sys.stderr)
        return 2
    download_sdist()

    environments = {
        f"with package ({_shown(args.venv)})": args.venv,
        f"plain xDSL ({_shown(args.plain)})": args.plain,
    }
    files = sdist_tests()
    tests = selected_tests(files)
    results: dict[str, dict[str, dict]] = {}
    for index, (label, venv) in enumerate(environments.items()):
        work = CACHE / "xdsl-compat" / ("with-package", "plain")[index]
        extract(files, tests, work / "filecheck")
        print(f"lit -j{args.jobs}, {label}: {len(tests)} xDSL test files", flush=True)
        results[label] = run_lit(venv.resolve(), work / "filecheck", tests, args.jobs)

    ours, plain = results.values()
    print()
    print(summary(results))
    invocations = sum(len(r["records"]) for r in plain.values())
    print(f"({invocations} xdsl-opt invocations recorded and compared)")
    if invocations == 0:
        print("no xdsl-opt invocation was recorded: the check did not run")
        return 2
    reports = compare(ours, plain)
    print()
    if reports:
        print(f"{len(reports)} of {len(plain)} xDSL tests differ with our package:")
        print("\n\n".join(reports))
        return 1
    print(f"all {len(plain)} xDSL tests: same status and same xdsl-opt output")
    return 0


if __name__ == "__main__":
    sys.exit(main())
