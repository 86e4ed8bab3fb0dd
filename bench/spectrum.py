"""Spectrum benchmark: a width sweep through kpca_core and through scikit-learn, in one process.

    python bench/spectrum.py             # the two targets of the Spectrum issue
    python bench/spectrum.py --drivers   # the measurements behind the sweep's choices
    python bench/spectrum.py --server    # server CPU per Spectrum slider change (issue #36)
    python bench/spectrum.py --new-sweep # CPU of one new sweep's work, ours vs the old way (#36)

Targets (three rings, Gaussian kernel, 60 log-spaced widths, the whole spectrum):

1. 300 points: ours ≤ 200 ms, and the ratio to refitting scikit-learn's
   KernelPCA at each width printed;
2. 1000 points: ours ≤ 4 s.

Ours: ``kpca_core.spectrum.WidthSweep`` (distances once, eigenvalues only:
pivoted Cholesky for the wide widths of low numerical rank, stacks of full
eigenvalue problems on two threads for the rest).  scikit-learn: ``KernelPCA(kernel="rbf", gamma=…,
eigen_solver="dense").fit(X).eigenvalues_ / M`` at every width.  Times are
medians over repeats after a warm-up; the machine has 2 cores shared with other
work, so the numbers are indicative.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import time
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
from scipy import linalg
from sklearn.decomposition import KernelPCA as SkKernelPCA
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.results import save
from bench.timing import median_time
from kpca_core.datasets import three_rings
from kpca_core.figures import spectrum as figures
from kpca_core.kernels import sigma_to_gamma, squared_distances
from kpca_core.spectrum import WidthSweep, double_centre, leading_shares

N_WIDTHS = 60


def scikit_learn_sweep(X: np.ndarray, widths: np.ndarray) -> np.ndarray:
    """Refit scikit-learn's KernelPCA at every width; its eigenvalues / M (eq. 12)."""
    M = len(X)
    spectra = []
    for width in widths:
        model = SkKernelPCA(kernel="rbf", gamma=sigma_to_gamma(width), eigen_solver="dense")
        spectra.append(model.fit(X).eigenvalues_ / M)
    return np.array([spectrum[:10] for spectrum in spectra])


def targets(repeats: int) -> None:
    print(f"load average before: {os.getloadavg()[0]:.1f} (2 cores)")
    rows = []
    for n_points, target_s, sk_repeats in ((300, 0.2, 3), (1000, 4.0, 1)):
        X, _ = three_rings(n_points, 0.25, 0)
        sweep = WidthSweep("rbf", n_widths=N_WIDTHS)
        ours = median_time(lambda X=X, sweep=sweep: sweep.fit(X), repeats)
        widths = sweep.widths_
        theirs = median_time(lambda X=X, w=widths: scikit_learn_sweep(X, w), sk_repeats)
        reference = scikit_learn_sweep(X, widths)
        error = np.max(np.abs(sweep.eigenvalues_[:, :10] - reference) / reference[:, :1])
        verdict = "met" if ours <= target_s else "MISSED"
        print(
            f"{N_WIDTHS} widths on {n_points:>4} points ({sweep.precision_} precision): "
            f"ours {ours * 1e3:8.1f} ms   scikit-learn {theirs * 1e3:9.1f} ms   "
            f"ratio {theirs / ours:5.1f}x   target ≤ {target_s * 1e3:.0f} ms: {verdict}   "
            f"max |Δλ|/λ₁ (first 10) {error:.1e}"
        )
        rows.append(
            [n_points, ours * 1e3, theirs * 1e3, theirs / ours, target_s * 1e3, verdict, error]
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    save(
        "spectrum",
        f"Spectrum: {N_WIDTHS} Gaussian widths on the three rings, every eigenvalue",
        ["points", "ours (ms)", "scikit-learn (ms)", "ratio", "target (ms)", "", "max Δλ/λ₁"],
        rows,
        note="Ours: kpca_core.spectrum.WidthSweep; scikit-learn: KernelPCA refitted at each "
        f"width. Medians of {repeats} (scikit-learn: fewer); ratio = scikit-learn's time / "
        "ours; max Δλ/λ₁: the largest difference of the first 10 eigenvalues, relative to λ₁.",
    )


def drivers(repeats: int) -> None:
    """Per-width eigenvalue time by LAPACK driver and precision; sweep by threading."""
    for n_points in (300, 1000):
        X, _ = three_rings(n_points, 0.25, 0)
        D = squared_distances(X, X)
        E = double_centre(np.expm1(-D / (2 * np.median(D))))
        print(f"\nM = {n_points}: one eigenvalue problem (ms), BLAS threads 1 | 2")
        for dtype in (np.float64, np.float32):
            A = E.astype(dtype)
            for driver in ("ev", "evr", "evd", "evx"):
                row = []
                for threads in (1, 2):
                    with threadpool_limits(threads, user_api="blas"):
                        seconds = median_time(
                            lambda A=A, driver=driver: linalg.eigvalsh(
                                A, driver=driver, check_finite=False
                            ),
                            repeats,
                        )
                    row.append(f"{seconds * 1e3:7.1f}")
                print(f"  {np.dtype(dtype).name:<8} {driver:<4} {' | '.join(row)}")
        print(f"M = {n_points}: the sweep of {N_WIDTHS} widths (ms)")
        for precision in ("double", "single"):
            for n_jobs in (1, 2):
                sweep = WidthSweep("rbf", n_widths=N_WIDTHS, precision=precision, n_jobs=n_jobs)
                seconds = median_time(lambda X=X, sweep=sweep: sweep.fit(X), max(1, repeats // 2))
                blas = "1 BLAS thread each" if n_jobs > 1 else "BLAS threads as set"
                print(f"  {precision:<6} n_jobs={n_jobs} ({blas:<19}) {seconds * 1e3:8.1f}")


def new_sweep(repeats: int) -> None:
    """CPU of what a new sweep costs the workers, piece by piece: ours vs the old way.

    One process, one BLAS thread (as in the app's workers), CPU time of all
    threads.  The old ways: the sweep again without centring for the
    comparison's (λ₁+λ₂)/Σλ (``WidthSweep(center=False)``, every eigenvalue),
    and each figure made by plotly's validating objects (``go.Figure(spec)`` of
    the same figure: the old builders' ``add_trace``/``update_layout`` cost
    about as much, 10–20 ms a figure).
    """
    threadpool_limits(1, user_api="blas")
    print(f"load average before: {os.getloadavg()[0]:.1f} (2 cores; CPU ms, medians of {repeats})")
    for n_points in (300, 1000):
        X, _ = three_rings(n_points, 0.25, 0)
        sweep = WidthSweep("rbf", n_widths=N_WIDTHS).fit(X)
        index = int(np.argmin(np.abs(np.log(sweep.widths_ / sweep.scale_))))
        shares = leading_shares(X, sweep.widths_)
        full = WidthSweep("rbf", widths=sweep.widths_, center=False).fit(X).share(2)
        error = float(np.max(np.abs(shares - full)))
        rows = [
            (
                "uncentred (λ₁+λ₂)/Σλ",
                lambda X=X, w=sweep.widths_: leading_shares(X, w),
                lambda X=X, w=sweep.widths_: WidthSweep("rbf", widths=w, center=False).fit(X),
            )
        ]
        builders = {
            "bars": lambda s=sweep, i=index: figures.spectrum_bars_figure(s, i),
            "lines": lambda s=sweep, i=index: figures.ratio_lines_figure(s, chosen=i),
            "components": lambda s=sweep, i=index: figures.effective_components_figure(s, chosen=i),
            "heatmap": lambda s=sweep, i=index: figures.spectrum_heatmap_figure(s, chosen=i),
            "centring": lambda s=sweep, u=shares: figures.centring_share_figure(s, u),
        }
        for name, build in builders.items():
            spec = build().to_plotly_json()
            rows.append(
                (f"figure: {name}", build, lambda spec=spec: go.Figure(spec).to_plotly_json())
            )
        sweep_s = median_time(
            lambda X=X: WidthSweep("rbf", n_widths=N_WIDTHS).fit(X), repeats, time.process_time
        )
        print(f"\n{n_points} points, {N_WIDTHS} widths: the sweep itself {sweep_s * 1e3:.0f} ms")
        print(f"  {'':<26} {'ours':>8} {'old way':>8} {'ratio':>6}")
        total_ours, total_old = sweep_s, sweep_s
        for name, ours, old in rows:
            ours_s, old_s = (median_time(f, repeats, time.process_time) for f in (ours, old))
            total_ours, total_old = total_ours + ours_s, total_old + old_s
            print(f"  {name:<26} {ours_s * 1e3:8.1f} {old_s * 1e3:8.1f} {old_s / ours_s:6.1f}x")
        print(
            f"  {'sweep + these':<26} {total_ours * 1e3:8.1f} {total_old * 1e3:8.1f} "
            f"{total_old / total_ours:6.1f}x   max |Δ share| {error:.1e}"
        )
    print(f"load average after: {os.getloadavg()[0]:.1f}")


SERVER_SLIDERS = ("sp_n", "sp_noise", "sp_nw", "sp_range", "sp_at", "sp_k")
"""The sliders of the three rings' link that ``--server`` moves: the load test's storm's."""


def server_cpu_of_spectrum(repeats: int) -> None:
    """What a served app spends per change of a Spectrum slider (``--server``).

    As ``bench/contours.py --server``, on the three rings' link: each slider
    moved ``repeats`` times to values not seen before; the data sliders
    (points, noise, widths, range) each make a new sweep.  No run without a
    change: on this page the client's wait for one timed out (120 s each).
    """
    sys.path.insert(1, str(Path(__file__).resolve().parent))
    from browser import RINGS_LINK
    from contours import server_cpu

    asyncio.run(
        server_cpu(repeats, path="spectrum", link=RINGS_LINK, sliders=SERVER_SLIDERS, quiet=None)
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--drivers", action="store_true", help="the table behind the choices")
    parser.add_argument("--server", action="store_true", help="server CPU per slider change")
    parser.add_argument(
        "--new-sweep", action="store_true", help="CPU of a new sweep's work, ours vs the old way"
    )
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if args.server:
        server_cpu_of_spectrum(args.repeats)
    elif args.new_sweep:
        new_sweep(args.repeats)
    elif args.drivers:
        drivers(args.repeats)
    else:
        targets(args.repeats)


if __name__ == "__main__":
    main()
