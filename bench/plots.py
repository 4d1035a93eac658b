"""PNG figures for docs/benchmarks.md (matplotlib, no display needed)."""

from collections.abc import Mapping, Sequence
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # files only: never a window, never a display server

import matplotlib.pyplot as plt

Series = Mapping[str, Sequence[tuple[float, float]]]  # label -> (x, y) points


def line_panels(
    path: Path, panels: Sequence[tuple[str, str, Series, bool]], xlabel: str, suptitle: str
) -> Path:
    """One row of panels, each (title, y label, series, log y); x is always logarithmic."""
    figure, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 4.0), squeeze=False)
    for axis, (title, ylabel, series, log_y) in zip(axes[0], panels, strict=True):
        for label, points in series.items():
            xs, ys = zip(*points, strict=True)
            axis.plot(xs, ys, marker="o", label=label)
        axis.set_xscale("log")
        if log_y:
            axis.set_yscale("log")
        axis.set_title(title)
        axis.set_xlabel(xlabel)
        axis.set_ylabel(ylabel)
        axis.grid(True, which="both", alpha=0.3)
        axis.legend()
    figure.suptitle(suptitle)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path
