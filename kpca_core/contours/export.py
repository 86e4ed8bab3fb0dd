"""The Contours sweep as tables and CSV text, and a file name saying what it shows."""

from __future__ import annotations

import io
import re

import numpy as np
import pandas as pd

from .evaluate import ContourSweep


def eigenvalues_table(sweep: ContourSweep) -> pd.DataFrame:
    """Per column and component: λ, share of variance and the colour scale."""
    rows = []
    for c, column in enumerate(sweep.columns):
        fit = column.fit
        for r in range(fit.n_components):
            rows.append(
                {
                    "column": sweep.column_label(c),
                    "kernel": fit.spec.formula(),
                    "component": r + 1,
                    "eigenvalue": fit.eigenvalues[r],
                    "share_of_variance": fit.shares[r],
                    "max_abs_on_data": column.scales[r] if r < column.scales.size else np.nan,
                }
            )
    return pd.DataFrame(rows)


def points_table(sweep: ContourSweep) -> pd.DataFrame:
    """The data points and every component of every column at each point."""
    table = pd.DataFrame({"x": sweep.X[:, 0], "y": sweep.X[:, 1]})
    if sweep.labels is not None:
        table["group"] = sweep.labels
    for c, column in enumerate(sweep.columns):
        for r in range(column.n_components):
            table[f"{sweep.column_label(c)}: kPC {r + 1}"] = column.fit.projections[:, r]
    return table


def grid_table(sweep: ContourSweep) -> pd.DataFrame:
    """Long table of the panels: column, component, x, y and the component's value."""
    gx, gy = np.meshgrid(sweep.grid.xs, sweep.grid.ys)
    parts = [
        pd.DataFrame(
            {
                "column": sweep.column_label(c),
                "component": r + 1,
                "x": gx.ravel(),
                "y": gy.ravel(),
                "value": column.values[r].ravel().astype(float) * column.scales[r],
            }
        )
        for c, column in enumerate(sweep.columns)
        for r in range(column.n_components)
    ]
    if not parts:
        return pd.DataFrame(columns=["column", "component", "x", "y", "value"])
    return pd.concat(parts, ignore_index=True)


def to_csv(table: pd.DataFrame) -> str:
    """CSV text with 6 significant digits."""
    buffer = io.StringIO()
    table.to_csv(buffer, index=False, float_format="%.6g")
    return buffer.getvalue()


def sweep_slug(sweep: ContourSweep) -> str:
    """A file-name part saying what the figure shows, e.g. ``poly_degree-1-2-3-4_k3``."""
    specs = [column.fit.spec for column in sweep.columns if column.fit.spec.kernel != "pca"]
    if not specs:
        return f"pca_k{sweep.n_components}"
    first = specs[0]
    parts = [first.kernel]
    if sweep.parameter is not None:
        values = "-".join(f"{spec.value(sweep.parameter):g}" for spec in specs)
        parts.append(f"{sweep.parameter}-{values}")
    fixed = {"poly": ("degree", "gamma", "c"), "sigmoid": ("gamma", "c")}.get(
        first.kernel, ("sigma",) if first.kernel in ("rbf", "laplacian") else ()
    )
    parts += [f"{p}{first.value(p):g}" for p in fixed if p != sweep.parameter]
    parts.append(f"k{sweep.n_components}")
    if not sweep.columns[-1].fit.center:
        parts.append("uncentred")
    return re.sub(r"[^A-Za-z0-9_.-]", "", "_".join(parts))
