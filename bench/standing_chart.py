"""The standing bench's chart: time per workload for each system, log scale,
the machine in the title. Needs matplotlib (the `bench` extra)."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

COLOURS = {
    "ours": "#1f77b4",
    "ours fast-math": "#6baed6",
    "upstream": "#7f7f7f",
    "IREE": "#d62728",
    "IREE data-tiled": "#ff9896",
    "numpy": "#2ca02c",
}


def draw(document: dict[str, Any], path: Path) -> str | None:
    """Draw `document` (standing_bench's JSON) into `path` (PNG); None when
    drawn, else why not (matplotlib missing, nothing measured)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "not drawn: matplotlib is not installed (pip install -e '.[bench]')"
    rows = document["workloads"]
    systems = [
        s
        for s in document["systems"]
        if any(row["results"][s]["seconds"] for row in rows)
    ]
    if not systems:
        return "not drawn: nothing was measured"
    height = 0.8 / len(systems)
    figure, axes = plt.subplots(figsize=(11, 1.3 + 0.55 * len(rows)))
    for offset, system in enumerate(systems):
        positions, widths = [], []
        for index, row in enumerate(rows):
            seconds = row["results"][system]["seconds"]
            if seconds:
                positions.append(index + offset * height)
                widths.append(seconds)
        axes.barh(
            positions,
            widths,
            height=height,
            label=system,
            color=COLOURS.get(system),
        )
    axes.set_yticks([i + 0.4 - height / 2 for i in range(len(rows))])
    axes.set_yticklabels([row["label"] for row in rows])
    axes.invert_yaxis()
    axes.set_xscale("log")
    axes.set_xlabel(
        "seconds per call (CPU time, one thread; log scale; shorter is better)"
    )
    axes.grid(axis="x", which="major", alpha=0.3)
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize="small")
    title = textwrap.fill(document["machine"], 100)
    peak = document["peak"]
    axes.set_title(
        f"Time per call, one thread\n{title}\npeak: sgemm "
        f"{peak['sgemm_gflops']:.0f} GFLOP/s (numpy, one thread), copy "
        f"{peak['copy_gbs']:.0f} GB/s",
        fontsize="medium",
    )
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return None
