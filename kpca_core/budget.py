"""What a request costs, estimated before it runs, and the budget it must fit in.

A shared lecture server has two cores for a whole class.  Every view states
the cost of a request in seconds of one core of this machine, from the sizes
that drive it, and a request above :data:`REQUEST_BUDGET_S` is refused with a
message saying what to reduce, or (the Contours grid) computed at a coarser
resolution with a notice.  The views enforce it (``kpca_ui.views``); the
estimates here are pure.

The constants are CPU time (``time.process_time``) measured in a worker's
setting (one BLAS thread) on this 2-core machine while it was shared with
other engineers' work, so they are upper envelopes rather than means:

========================  =====================================================
Contours, one column      eigenproblem of M points (``KernelPCA``, top k):
                          sigmoid 3.5 s at M = 1000 (``subset`` solver),
                          9.6 s at 2000 (``arpack``); Gaussian 1.1–1.7 s and
                          0.19 s; Laplacian 3.8 s and 0.26 s; polynomial
                          0.03 s and 0.18 s.  Modelled as F × (M / 1000)² per
                          kernel, F the envelope at M = 1000 (the top-k
                          solvers cost O(M² k) per iteration; the solver
                          changes between 1000 and 2000 points, so the model
                          overestimates the Gaussian at 2000 points ~30×).
Contours, grid            M × res² kernel values and products: 19 ns each
                          (sigmoid), 14 ns (Gaussian), at M = 2000, res 200.
Spectrum, one width       eigenvalues of an M × M centred kernel matrix
                          (``WidthSweep``, three rings, widths 1e-3…1e2 of
                          the median distance; 10 and 20 widths): Laplacian
                          0.13 ns × M³ at 1000 points, 0.16 at 2000;
                          Gaussian 0.07 and 0.09 (its wide widths are of low
                          rank).  The issue's Laplacian sweep of 2000 points
                          × 200 widths: 256 s by this model, 185 s measured
                          (wall, two threads).
Denoising                 the model's dense eigenproblem of M training digits
                          (``scipy.linalg.eigh`` with vectors): 25.5 s at
                          M = 3000, 0.94 ns × M³.
========================  =====================================================
"""

from __future__ import annotations

from dataclasses import dataclass

REQUEST_BUDGET_S = 45.0
"""Largest cost of one request, in seconds of one core.

With at most one heavy request running at a time and a worker kept for the
others (``kpca_ui.workers``), no student holds a worker for more than well
under a minute.  It admits the views' largest defaults: the Spectrum's 60
Gaussian widths on 2000 points (44 s by the model), the paper's 300 training
digits per class (25 s), the Fig. 2 preset (~1 s)."""

FIT_S_AT_1000: dict[str, float] = {
    "sigmoid": 3.5,
    "laplacian": 3.8,
    "rbf": 1.7,
    "poly": 0.2,
    "linear": 0.2,
    "pca": 0.01,
}
"""Seconds of one core to fit one Contours column of 1000 points (see the table)."""
GRID_NS = 20.0
"""Nanoseconds per (data point × grid point) to evaluate a Contours column."""
MIN_RESOLUTION = 40
"""The coarsest grid the Contours view falls back to."""

SWEEP_NS_PER_M3: dict[str, float] = {"rbf": 0.09, "laplacian": 0.16, "poly": 0.16}
"""Nanoseconds × M³ for one width's eigenvalues, by kernel (see the table)."""
DISTANCES_NS = 30.0
"""Nanoseconds per pair of points for the sweep's distances (once per sweep)."""

DENOISE_NS_PER_M3 = 1.0
"""Nanoseconds × M³ for the denoising model's dense eigenproblem of M digits."""


@dataclass(frozen=True)
class Cost:
    """An estimate and its verdict.

    Attributes
    ----------
    seconds : float
        Estimated seconds of one core.
    fits : bool
        ``seconds`` ≤ :data:`REQUEST_BUDGET_S`.
    advice : str
        When it does not fit: what to reduce, in one sentence; else ``""``.
    """

    seconds: float
    fits: bool
    advice: str = ""


def fit_seconds(n_points: int, kernel: str) -> float:
    """Seconds of one core to fit one Contours column (``"pca"``: linear PCA)."""
    factor = FIT_S_AT_1000.get(kernel, max(FIT_S_AT_1000.values()))
    return factor * (n_points / 1000) ** 2


def grid_seconds(n_points: int, resolution: int) -> float:
    """Seconds of one core to evaluate one Contours column on its grid."""
    return GRID_NS * 1e-9 * n_points * resolution**2


def contour_seconds(n_points: int, kernels: list[str], resolution: int) -> float:
    """Seconds of one core for a Contours grid: each column's fit and evaluation.

    Parameters
    ----------
    n_points : int
    kernels : list of str
        One kernel name per column (``"pca"`` for the linear PCA column).
    resolution : int
        Grid points per axis.
    """
    return sum(
        fit_seconds(n_points, kernel) + grid_seconds(n_points, resolution) for kernel in kernels
    )


def contour_cost(n_points: int, kernels: list[str], resolution: int) -> tuple[Cost, int]:
    """The cost of a Contours grid, at the finest resolution within the budget.

    Returns
    -------
    cost : Cost
        At the returned resolution.
    resolution : int
        ``resolution`` if it fits, else the finest of ``resolution`` halved
        step by step down to :data:`MIN_RESOLUTION` that does; if none does,
        ``resolution`` and a refusal whose advice names the largest number of
        points or columns that would fit.
    """
    seconds = contour_seconds(n_points, kernels, resolution)
    if seconds <= REQUEST_BUDGET_S:
        return Cost(seconds, True), resolution
    coarser = resolution
    while coarser > MIN_RESOLUTION:
        coarser = max(MIN_RESOLUTION, coarser // 2)
        seconds = contour_seconds(n_points, kernels, coarser)
        if seconds <= REQUEST_BUDGET_S:
            return Cost(seconds, True), coarser
    points = n_points
    while points > 20 and contour_seconds(points, kernels, MIN_RESOLUTION) > REQUEST_BUDGET_S:
        points = int(points * 0.9)
    columns = len(kernels)
    while columns > 1 and (
        contour_seconds(n_points, kernels[:columns], MIN_RESOLUTION) > REQUEST_BUDGET_S
    ):
        columns -= 1
    advice = f"use at most {points} points"
    if columns < len(kernels):
        advice += f", or at most {columns} column{'s' if columns > 1 else ''}"
    return Cost(contour_seconds(n_points, kernels, resolution), False, advice), resolution


def sweep_seconds(n_points: int, n_widths: int, kernel: str = "laplacian") -> float:
    """Seconds of one core for a Spectrum sweep: distances, then every width's eigenvalues.

    ``kernel`` as ``WidthSweep`` takes it (``"rbf"``, ``"laplacian"``, ``"poly"``).
    """
    per_width = SWEEP_NS_PER_M3.get(kernel, max(SWEEP_NS_PER_M3.values())) * 1e-9 * n_points**3
    return DISTANCES_NS * 1e-9 * n_points**2 + n_widths * per_width


def sweep_cost(n_points: int, n_widths: int, kernel: str = "laplacian") -> Cost:
    """The cost of a Spectrum sweep, and if it is above the budget what to reduce."""
    seconds = sweep_seconds(n_points, n_widths, kernel)
    if seconds <= REQUEST_BUDGET_S:
        return Cost(seconds, True)
    widths = n_widths
    while widths > 1 and sweep_seconds(n_points, widths, kernel) > REQUEST_BUDGET_S:
        widths -= 1
    points = n_points
    while points > 20 and sweep_seconds(points, n_widths, kernel) > REQUEST_BUDGET_S:
        points = int(points * 0.95)
    return Cost(seconds, False, f"use at most {widths} widths, or at most {points} points")


def denoise_seconds(n_digits: int) -> float:
    """Seconds of one core for the denoising model's eigenproblem of ``n_digits`` digits."""
    return DENOISE_NS_PER_M3 * 1e-9 * n_digits**3


def denoise_cost(n_digits: int) -> Cost:
    """The cost of fitting a denoising model, and if it is above the budget what to reduce."""
    seconds = denoise_seconds(n_digits)
    if seconds <= REQUEST_BUDGET_S:
        return Cost(seconds, True)
    digits = int((REQUEST_BUDGET_S / (DENOISE_NS_PER_M3 * 1e-9)) ** (1 / 3))
    return Cost(seconds, False, f"use at most {digits} training digits")
