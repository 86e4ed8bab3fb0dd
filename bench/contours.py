"""Contours view: from a changed slider to a ready Figure, ours against scikit-learn.

    python bench/contours.py [--repeats 15]
    python bench/contours.py --server [--repeats 10]   # server CPU per slider change
    python bench/contours.py --server --before /tmp/before   # ... and another checkout's

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

``--server`` measures instead what a served app spends per change of a
Contours slider (issue #36: ≤ 60 ms of CPU): it starts the app
(``bench/appserver.py``), waits until its warm-up is over, opens the Fig. 2
link in one session speaking Streamlit's websocket protocol
(``bench/load_test.py``'s client), then moves
each slider ``--repeats`` times to values not seen before, one change at a
time, and prints the CPU of the server's process and of its whole tree (its
workers too) per change: run as a browser asks for it (the slider's fragment,
if it is in one) against the whole script (the alternative a fragment avoids).
The kernel counts CPU in 10 ms ticks, so each line is the mean over its
changes.  ``--before DIR`` measures the app of another checkout too (``git
worktree add /tmp/before <commit>``), the two servers in turn, ``--rounds``
times each.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.metrics.pairwise import polynomial_kernel

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(1, str(Path(__file__).resolve().parent))  # appserver, browser, load_test

from bench.results import save
from bench.timing import median_time
from kpca_core import contours as ct
from kpca_core.datasets import parabola
from kpca_core.figures import contours as figures
from kpca_core.figures.style import figure_json

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


SERVER_SLIDERS = ("ct_noise", "ct_k", "ct_n", "ct_res")
"""The Contours sliders of the Fig. 2 link that ``--server`` moves."""


async def server_cpu(
    repeats: int,
    *,
    path: str = "contours",
    link: str = "",
    sliders: tuple[str, ...] = SERVER_SLIDERS,
    quiet: str | None = "ct_k",
    root: Path | None = None,
) -> None:
    """Server CPU per slider change, and of a run that changes nothing (``--server``).

    The view at ``path`` opened from ``link`` (default: the Fig. 2 link); each of
    ``sliders`` moved to values not seen before; the run that changes nothing is
    the fragment of the slider ``quiet`` (the whole script if it is in none) and
    the whole script (none without ``quiet``).  ``root``: the checkout served
    (default this one).
    """
    from appserver import ROOT, AppServer, cpu_seconds
    from browser import FIG2_LINK
    from load_test import Record, Scenario, Session
    from websockets.asyncio.client import connect

    scenario = Scenario(path, path, link or FIG2_LINK, sliders=sliders)
    with AppServer(root=root or ROOT) as server:
        # as a lecture's server: its warm-up over (both workers started), so that no
        # change counts a worker's start (~1.5 s of CPU, when a change first needs both)
        server.wait_quiet()
        url = server.url.replace("http://", "ws://") + "/_stcore/stream"
        async with connect(url, subprotocols=["streamlit"], max_size=None) as ws:
            session = Session(ws, scenario, Record("cpu"))
            await session.run(timeout=120)

            async def cpu_of(fragment_id: str) -> tuple[float, float]:
                """CPU ms of one run: the server's process, and its tree (with the workers)."""
                cpu, main_cpu = server.tree_cpu(), cpu_seconds(server.process.pid)
                await session.run(fragment_id=fragment_id, timeout=120)
                main_ms = 1000 * (cpu_seconds(server.process.pid) - main_cpu)
                return main_ms, 1000 * (server.tree_cpu() - cpu)

            print(
                f"{path} ({server.root}), one session: CPU ms per run, mean (changes at most "
                f"{repeats})"
            )
            print(f"{'slider':<9} {'run':>8} {'changes':>7} {'server':>6} {'tree':>6}")
            fragments = {}
            for key in sliders:
                # each run replaces the session's sliders: find this one anew every time
                def slider(key: str = key) -> Any:
                    return next(s for s in session.sliders.values() if s.key == key)

                fragments[key] = fragment_id = slider().fragment_id
                options, step = slider().options, slider().step or 1
                top = len(options) - 1 if options else slider().maximum
                bottom = 0 if options else slider().minimum
                seen, times = {slider().value[0]}, []
                for _ in range(repeats):
                    value = round(slider().value[0] + (1 if options else step), 10)
                    value = bottom if value > top else value  # from the top, to the bottom
                    if value in seen:  # only values not seen yet: none from a cache
                        break
                    seen.add(value)
                    slider().value = [value, *slider().value[1:]]
                    times.append(await cpu_of(fragment_id))
                main_ms, tree_ms = (statistics.fmean(t) for t in zip(*times, strict=True))
                where = "fragment" if fragment_id else "script"
                print(f"{key:<9} {where:>8} {len(times):7d} {main_ms:6.1f} {tree_ms:6.1f}")
            # nothing changed: what a run itself costs, the controls' fragment or the script
            runs = (("fragment", fragments[quiet]), ("script", "")) if quiet else ()
            for name, fragment_id in runs:
                times = [await cpu_of(fragment_id) for _ in range(repeats)]
                main_ms, tree_ms = (statistics.fmean(t) for t in zip(*times, strict=True))
                print(f"{'no change':<9} {name:>8} {'-':>7} {main_ms:6.1f} {tree_ms:6.1f}")
    print(
        f"load average {os.getloadavg()[0]:.1f} (the machine is shared; CPU is counted in "
        "the kernel's 10 ms ticks, so a run's is a mean over the changes)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--server", action="store_true", help="server CPU per slider change")
    parser.add_argument(
        "--before",
        type=Path,
        metavar="DIR",
        help="with --server: also serve the app of another checkout, the two in turn",
    )
    parser.add_argument("--rounds", type=int, default=2, help="with --before: turns of each")
    args = parser.parse_args()
    repeats = args.repeats
    if args.server:
        roots = [args.before, None] * args.rounds if args.before else [None]
        for root in roots:
            asyncio.run(server_cpu(repeats, root=root))
        return

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
    table = []
    for name, ours, theirs, target in rows:
        t_ours, t_theirs = median_time(ours, repeats), median_time(theirs, repeats)
        print(
            f"{name:<44} ours {t_ours * 1e3:7.1f} ms   scikit-learn {t_theirs * 1e3:7.1f} ms   "
            f"ratio {t_theirs / t_ours:5.1f}x   {target}"
        )
        table.append([name, t_ours * 1e3, t_theirs * 1e3, t_theirs / t_ours, target])
    sweep = ct.contour_sweep(X, specs, n_components=N_COMPONENTS, parameter="degree", labels=labels)
    figure_only = median_time(lambda: figures.contour_figure(sweep), repeats)
    print(f"{'of which the contour figure alone':<44} ours {figure_only * 1e3:7.1f} ms")
    # what the worker sends the server once the figure is built: its data and the JSON
    # the chart sends, directly, against through plotly's Figure (copied in, out, out again)
    spec = figures.contour_figure_data(sweep)
    ours = median_time(lambda: figure_json(spec), repeats)

    def through_figure() -> tuple[dict, str]:
        figure = go.Figure(spec, _validate=False)
        return figure.to_plotly_json(), pio.to_json(figure, validate=False, engine="orjson")

    theirs = median_time(through_figure, repeats)
    print(
        f"{'then its data and JSON for the server':<44} ours {ours * 1e3:7.1f} ms   "
        f"via go.Figure {theirs * 1e3:7.1f} ms   ratio {theirs / ours:5.1f}x"
    )
    save(
        "contours",
        "Contours: a changed slider to a ready figure, Fig. 2 preset, ours and scikit-learn's",
        ["change", "ours (ms)", "scikit-learn (ms)", "ratio", "target"],
        table,
        note=f"{len(X)} points, degrees {DEGREES}, {N_COMPONENTS} components, {RESOLUTION} × "
        f"{RESOLUTION} grid, the page's own figure builders both ways; medians of {repeats}; "
        "ratio = scikit-learn's time / ours. Of the first row, the contour figure alone takes "
        f"{figure_only * 1e3:.1f} ms.",
    )


if __name__ == "__main__":
    main()
