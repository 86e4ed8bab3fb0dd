"""Contours view: from a changed slider to a ready Figure, ours against scikit-learn.

    python bench/contours.py [--repeats 15]

The Fig. 2 preset (Schölkopf et al. 1998): parabola with 300 points,
homogeneous polynomial kernels of degree 1–4, components 1–3, a 100 × 100
grid.  A changed data slider (noise, seed, points) invalidates every column,
so the server then fits the 4 kernels, evaluates them on the grid and builds
both figures.  That is timed here, with the page's own functions, and the same
work with scikit-learn's ``KernelPCA`` in place of the engine (same grid, same
figure builders).  Target: ours ≤ 60 ms.

Also shown: one column changed (one value of the sweep edited: the other
three come from the cache) and the figures alone (a redraw with every fit
cached).  Medians over repeats, after one warm-up call; the machine is shared,
so the numbers are indicative.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.metrics.pairwise import polynomial_kernel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_time
from kpca_core import contours as ct
from kpca_core.datasets import parabola
from kpca_core.figures import contours as figures

DEGREES = (1, 2, 3, 4)
N_COMPONENTS = 3
RESOLUTION = 100


def sklearn_fit(X: np.ndarray, spec: ct.KernelSpec) -> ct.ColumnFit:
    """One column through scikit-learn's KernelPCA, with the same conventions as ours."""
    model = SkKernelPCA(
        N_COMPONENTS,
        kernel="poly",
        degree=spec.degree,
        gamma=spec.gamma,
        coef0=spec.coef0,
        remove_zero_eig=True,
        random_state=0,
    )
    projections = model.fit_transform(X)
    M = len(X)
    K = polynomial_kernel(X, degree=spec.degree, gamma=spec.gamma, coef0=spec.coef0)
    trace = np.trace(K) - K.sum() / M  # trace of the centred K (eq. 49)
    eigenvalues = model.eigenvalues_ / M
    return ct.ColumnFit(
        spec, True, N_COMPONENTS, model, projections, eigenvalues, model.eigenvalues_ / trace
    )


def build(X: np.ndarray, labels: np.ndarray, column: Callable, specs: list) -> tuple:
    """Columns → both figures, as the page does after a changed widget."""
    grid = ct.make_grid(X, RESOLUTION)
    columns = tuple(column(X, spec, grid) for spec in specs)
    sweep = ct.ContourSweep(X, labels, grid, columns, "degree", N_COMPONENTS)
    return figures.contour_figure(sweep, title="Fig. 2"), figures.projection_figure(
        sweep, len(columns) - 1, 1, 2
    )


def computed(fit: Callable) -> Callable:
    """A column computed now: the fit (eq. 12), then the grid (eq. 51)."""
    return lambda X, spec, grid: ct.evaluate_column(fit(X, spec), grid)


def partly_cached(cache: dict, fit: Callable, changed: ct.KernelSpec) -> Callable:
    """The page's caches: only the ``changed`` column is computed."""
    return lambda X, spec, grid: (
        ct.evaluate_column(fit(X, spec), grid) if spec == changed else cache[spec]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    repeats = parser.parse_args().repeats

    X, labels = parabola(300, 0.2, 0)
    specs = ct.sweep_specs(ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", DEGREES)

    def ours_fit(X: np.ndarray, spec: ct.KernelSpec) -> ct.ColumnFit:
        return ct.fit_column(X, spec, n_components=N_COMPONENTS)

    # the same numbers both ways, before timing anything: 11 panels (degree 1 has
    # no third component), equal up to the sign of each component
    grid = ct.make_grid(X, RESOLUTION)
    ours = [computed(ours_fit)(X, spec, grid).values for spec in specs]
    reference = [computed(sklearn_fit)(X, spec, grid).values for spec in specs]
    assert sum(len(v) for v in ours) == sum(len(v) for v in reference) == 11
    for a, b in zip(ours, reference, strict=True):
        np.testing.assert_allclose(np.abs(a), np.abs(b), atol=1e-3)
    images = build(X, labels, computed(ours_fit), specs)[0].layout.images
    assert sum(image.name != "data" for image in images) == 11  # a colour picture per panel

    ours_cache = {spec: computed(ours_fit)(X, spec, grid) for spec in specs}
    theirs_cache = {spec: computed(sklearn_fit)(X, spec, grid) for spec in specs}
    changed = specs[-1]
    rows = [
        (
            "data slider moved: 4 fits, 4 grids, figures",
            lambda: build(X, labels, computed(ours_fit), specs),
            lambda: build(X, labels, computed(sklearn_fit), specs),
            "target ≤ 60 ms",
        ),
        (
            "one value edited: 1 fit, 1 grid, figures",
            lambda: build(X, labels, partly_cached(ours_cache, ours_fit, changed), specs),
            lambda: build(X, labels, partly_cached(theirs_cache, sklearn_fit, changed), specs),
            "",
        ),
        (
            "redraw, every column cached: figures",
            lambda: build(X, labels, partly_cached(ours_cache, ours_fit, None), specs),
            lambda: build(X, labels, partly_cached(theirs_cache, sklearn_fit, None), specs),
            "same builders",
        ),
    ]
    print(
        f"Fig. 2 preset: {len(X)} points, degrees {DEGREES}, {N_COMPONENTS} components, "
        f"{RESOLUTION} × {RESOLUTION} grid; median of {repeats}"
    )
    for name, ours, theirs, target in rows:
        t_ours, t_theirs = median_time(ours, repeats), median_time(theirs, repeats)
        print(
            f"{name:<44} ours {t_ours * 1e3:7.1f} ms   scikit-learn {t_theirs * 1e3:7.1f} ms   "
            f"ratio {t_theirs / t_ours:5.1f}x   {target}"
        )
    sweep = ct.contour_sweep(X, specs, n_components=N_COMPONENTS, parameter="degree", labels=labels)
    figure_only = median_time(lambda: figures.contour_figure(sweep), repeats)
    print(f"{'of which the contour figure alone':<44} ours {figure_only * 1e3:7.1f} ms")


if __name__ == "__main__":
    main()
