"""What every benchmark here measures with: the median of repeated runs."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any


def median_seconds(run: Callable[[], Any], repetitions: int) -> tuple[float, Any]:
    """The median wall time of `repetitions` calls of `run`, and its last result."""
    times, result = [], None
    for _ in range(repetitions):
        start = time.perf_counter()
        result = run()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result
