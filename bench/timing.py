"""What every benchmark here measures with: the median of repeated runs,
and the line naming the machine that every table is printed under."""

from __future__ import annotations

import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any


def machine_line() -> str:
    """`machine: <CPU model>, N cores, AVX2|AVX-512, Linux x86_64, Python 3.11`:
    numbers measured here hold for that machine only."""
    model, flags = platform.processor() or platform.machine(), set[str]()
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.exists():
        for line in cpuinfo.read_text().splitlines():
            if line.startswith("model name") and model == (
                platform.processor() or platform.machine()
            ):
                model = line.split(":", 1)[1].strip()
            elif line.startswith("flags") and not flags:
                flags = set(line.split(":", 1)[1].split())
    vector = "no AVX2"
    if "avx512f" in flags:
        vector = "AVX-512"
    elif "avx2" in flags:
        vector = "AVX2"
    return (
        f"machine: {model}, {os.cpu_count()} cores, {vector}, "
        f"{platform.system()} {platform.machine()}, Python {platform.python_version()}"
    )


def median_seconds(run: Callable[[], Any], repetitions: int) -> tuple[float, Any]:
    """The median wall time of `repetitions` calls of `run`, and its last result."""
    times, result = [], None
    for _ in range(repetitions):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result
