"""How much installing this package costs `xdsl-opt` at start-up.

    python bench/startup_bench.py [--quick] [--runs N]

`xdsl-opt FILE` is run as a subprocess, N times each (after one untimed
warm-up run that fills the file cache and writes .pyc files), on two small
files:

- plain.mlir: func and arith only, what a user of plain xDSL feeds it;
- linalg_ext.mlir: one `linalg_ext` op, so our dialect (and with it our
  fixes to xDSL) is loaded.

Each file is timed with the `xdsl-opt` of `.venv` (this package installed)
and of `.venv-xdsl` (plain xDSL at the same versions, made by
`tests/xdsl_compat/plain_venv.py` if missing; plain xDSL cannot parse
linalg_ext.mlir, so that cell is n/a and checked to fail). The runs of the
two environments alternate, so that load on the machine affects both alike.
Reported are the median wall time and the median CPU time of the child
(user + system, from getrusage), and the ratio to plain xDSL on plain.mlir.

Target: on plain.mlir, start-up with the package within 10 % of plain
xDSL. The last line is PASS or FAIL; exit status 1 on FAIL. With --quick
(3 runs; used by the test suite) the plain venv is not created when missing,
and the target is printed but not judged: a few runs are too noisy.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
VENV = REPO / ".venv"
PLAIN_VENV = REPO / ".venv-xdsl"
TARGET_RATIO = 1.10
RUNS, QUICK_RUNS = 20, 3

PLAIN_FILE = """\
func.func @axpy(%a: i32, %x: i32, %y: i32) -> i32 {
  %p = arith.muli %a, %x : i32
  %s = arith.addi %p, %y : i32
  func.return %s : i32
}
"""

LINALG_EXT_FILE = """\
func.func @bmm(%a: tensor<2x4x8xf32>, %b: tensor<2x4x8xf32>,
               %c: tensor<2x4x4xf32>) -> tensor<2x4x4xf32> {
  %r = linalg_ext.batch_matmul ins(%a, %b : tensor<2x4x8xf32>, tensor<2x4x8xf32>)
                               outs(%c : tensor<2x4x4xf32>) layout = "nt"
  func.return %r : tensor<2x4x4xf32>
}
"""


def run_once(venv: Path, path: Path) -> tuple[float, float, int]:
    """Wall seconds, child CPU seconds and exit status of one `xdsl-opt path`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(
        [str(venv / "bin" / "xdsl-opt"), str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, result.returncode


def machine(venv: Path) -> str:
    """CPU model, cores, and the Python and xDSL versions of `venv`."""
    model = platform.processor() or platform.machine()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    versions = subprocess.run(
        [
            str(venv / "bin" / "python"),
            "-c",
            "import platform, importlib.metadata as m;"
            "print(platform.python_version(), m.version('xdsl'))",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    return (
        f"machine: {model}, {os.cpu_count()} cores; "
        f"Python {versions[0]}, xDSL {versions[1]}"
    )


def plain_venv_ready(create: bool) -> bool:
    """Whether `.venv-xdsl` exists (made by the shared helper when `create`)."""
    if create:
        helper = REPO / "tests" / "xdsl_compat" / "plain_venv.py"
        made = subprocess.run([sys.executable, str(helper), "--quiet"], check=False)
        return made.returncode == 0
    return (PLAIN_VENV / "bin" / "xdsl-opt").exists()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs, not judged")
    parser.add_argument("--runs", type=int, help=f"runs per cell (default {RUNS})")
    parser.add_argument(
        "--venv", type=Path, default=VENV, help="with the package (default .venv)"
    )
    args = parser.parse_args()
    runs = args.runs or (QUICK_RUNS if args.quick else RUNS)

    print(machine(args.venv))
    ours_label = f"with package ({os.path.relpath(args.venv, REPO)})"
    envs = {ours_label: args.venv}
    if plain_venv_ready(create=not args.quick):
        envs["plain xDSL (.venv-xdsl)"] = PLAIN_VENV
    else:
        print(
            "note: no plain xDSL venv (.venv-xdsl; `make venv-xdsl` makes it): "
            "timing with the package only, no comparison"
        )

    with tempfile.TemporaryDirectory() as tmp:
        files = {"plain.mlir": Path(tmp, "plain.mlir")}
        files["linalg_ext.mlir"] = Path(tmp, "linalg_ext.mlir")
        files["plain.mlir"].write_text(PLAIN_FILE)
        files["linalg_ext.mlir"].write_text(LINALG_EXT_FILE)

        # Warm-up, and what each environment is expected to make of each file.
        cells = []
        for file_name, path in files.items():
            for env, venv in envs.items():
                status = run_once(venv, path)[2]
                parses = file_name == "plain.mlir" or venv == args.venv
                if parses and status != 0:
                    print(f"FAIL: {env} xdsl-opt rejects {file_name}", file=sys.stderr)
                    return 1
                if not parses and status == 0:
                    print(f"FAIL: plain xDSL parses {file_name}?", file=sys.stderr)
                    return 1
                if parses:
                    cells.append((file_name, env))

        times: dict[tuple[str, str], list[tuple[float, float]]] = {
            cell: [] for cell in cells
        }
        for file_name in files:
            row = [cell for cell in cells if cell[0] == file_name]
            print(f"{file_name}: {runs} runs x {len(row)} environments ", end="")
            for _ in range(runs):
                for cell in row:
                    wall, cpu, _status = run_once(envs[cell[1]], files[file_name])
                    times[cell].append((wall, cpu))
                print(".", end="", flush=True)
            print()

    medians = {
        cell: (
            statistics.median(w for w, _ in samples),
            statistics.median(c for _, c in samples),
        )
        for cell, samples in times.items()
    }
    reference = medians.get(("plain.mlir", "plain xDSL (.venv-xdsl)"))
    print()
    width = max(len(env) for env in envs) + 2
    header = (
        f"{'file':<16}{'xdsl-opt of':<{width}}{'wall ms':>9}{'cpu ms':>9}"
        f"{'wall vs plain xDSL on plain.mlir':>34}"
    )
    print(header)
    print("-" * len(header))
    for file_name in files:
        for env in envs:
            if (file_name, env) not in medians:
                na = "n/a (cannot parse linalg_ext)"
                print(f"{file_name:<16}{env:<{width}}{na:>52}")
                continue
            wall, cpu = medians[(file_name, env)]
            ratio = f"{wall / reference[0]:.2f}x" if reference else "n/a"
            print(
                f"{file_name:<16}{env:<{width}}{wall * 1e3:>9.0f}{cpu * 1e3:>9.0f}"
                f"{ratio:>34}"
            )
    print(f"(medians of {runs} runs each)")

    if reference is None:
        print("SKIP: no plain xDSL to compare with")
        return 0
    ours = medians[("plain.mlir", ours_label)]
    ratio = ours[0] / reference[0]
    verdict = "PASS" if ratio <= TARGET_RATIO else "FAIL"
    claim = (
        f"xdsl-opt start-up on plain.mlir with the package: {ratio:.2f}x plain "
        f"xDSL (target <= {TARGET_RATIO:.2f}x; CPU time {ours[1] / reference[1]:.2f}x)"
    )
    if args.quick:
        print(f"not judged (--quick): {claim}")
        return 0
    print(f"{verdict}: {claim}")
    return 0 if verdict == "PASS" else 1


if __name__ == "__main__":
    sys.exit(main())
