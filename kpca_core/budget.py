"""What a request costs, estimated before it runs, and the budget it must fit in.

A shared lecture server has two cores for a whole class.  Every view states
the cost of a request in seconds of one core of this machine, from the sizes
that drive it, and a request above :data:`REQUEST_BUDGET_S` is refused with a
message saying what to reduce, or (the Contours grid) computed at a coarser
resolution with a notice.  The views enforce it (``kpca_ui.views``); the
estimates here are pure.

The constants are CPU time (``time.process_time``) measured in a worker's
setting (one BLAS thread) on this 2-core machine while it was shared with
other engineers' work.  A fit (a Contours column, any ``KernelPCA``) is priced
step by step along the route the engine takes (:func:`route_seconds`, below),
whose constants ``bench/cost_model.py --measure`` measures against a reference
computation (:func:`reference_work`); ``tests/test_cost_model.py`` checks the
estimates within 2× of the measured times, rescaled by that reference, and
``bench/cost_model.py`` prints the ratios.  The other rows are envelopes:

========================  =====================================================
Contours, grid            M × res² kernel values and products: 3.1–3.7 ns
                          each (Gaussian, M = 300–2000, res 60 and 100).
Contours, polynomial      evaluated through D explicit features
through its features      (``kernel_pca.explicit_features``; Fig. 2: D = d + 1
                          for 300 points): 110–1900 ns per grid point
                          (M = 300–5000, res 100 and 200, D = 2–66, idle
                          machine), all below 25 ns × (D + 10) × res².
                          Priced as the middle of what ``bench/cost_model.py``
                          measures (M = 300–2000, res 100 and 200, D = 2–10,
                          a linear column through its 2 inputs: within
                          0.77–1.31 of 1 ms + (17 (D + 5) + 0.04 M) ns × res²).
Spectrum, one width       eigenvalues of an M × M centred kernel matrix
                          (``WidthSweep``, three rings, widths 1e-3…1e2 of
                          the median distance; 5 and 10 widths, CPU time):
                          Laplacian 0.056 ns × M³ at 1000 points, 0.054 at
                          2000; Gaussian 0.027 and 0.026 (its wide widths are
                          of low rank).  Priced 0.065 and 0.035 (the
                          polynomial as the Laplacian); ``bench/cost_model.py``
                          prints predicted / measured.
Denoising                 the model's dense eigenproblem of M training digits
                          (``DigitDenoiser.fit``, ``scipy.linalg.eigh`` with
                          vectors): 0.17 ns × M³ CPU at M = 1000, 0.15 at
                          2000; priced 0.2.
Denoising, pre-images     the fixed point (Mika et al. eq. 10) of T noisy
                          digits at one n, with their projection, per test
                          digit × training digit (USPS, M = 1000, T = 200, the
                          error sweep's 20 n averaged; 7 widths c × centred or
                          not × 5 noises): c ≥ 0.3: 180–510 ns (one run under
                          heavier load 675); c = 0.2: 400–870; c = 0.1:
                          670–1120; c = 0.05: 580–1600.  The mean number of
                          steps per digit sets it, and grows as the kernel
                          narrows; the preset: 300–330 ns at M = 1000 and
                          3000.  The learned pre-image: a kernel ridge fit of
                          M digits per n, 0.87 s (n = 1) to 1.25 s (n = 1024)
                          at M = 3000 with 200 digits, 0.09–0.13 s at 1000;
                          over the error sweep's 20 n with 500 digits 1.08 s
                          per n at M = 3000 (120 ns × M²), 0.11 s at 1000
                          (108 ns × M²), the digits' projection and
                          prediction included.  Every method of the
                          Pre-images tab on 100 digits at 4 n, M = 3000:
                          4.9 s, the ridge fits 4.2 s of it.  One digit
                          (Fig. 3, the demo): below 0.1 s at M = 3000.  Those
                          were envelopes; the constants are now the middle
                          of what ``bench/cost_model.py`` measures (the ridge
                          fit: 32 ms per n at M = 1000, as M³ beyond).
Features, a live          kernel PCA of 3000 digits, the components of the
Table 2 cell              9298, their linear kernels and five SV machines on
                          7291 digits: 11.3 s CPU at d = 3, n = 64 (kernel
                          PCA 4.8 s, the kernels 1.6, the machines 4.9),
                          12.8 at d = 5, n = 2048 (:func:`table2_cell_seconds`).
========================  =====================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy import linalg

REQUEST_BUDGET_S = 45.0
"""Largest cost of one request, in seconds of one core.

With at most one heavy request running at a time and a worker kept for the
others (``kpca_ui.workers``), no student holds a worker for more than well
under a minute.  It admits the views' largest defaults: the Spectrum's 60
Gaussian widths on 2000 points (17 s by the model), the paper's 300 training
digits per class (5.4 s) and its error curve on 50 test digits per class
(21 s), the Fig. 2 preset (0.02 s)."""

GRID_NS = 3.5
"""Nanoseconds per (data point × grid point) to evaluate a Contours column (Gaussian,
M = 300–2000, res 60 and 100: 3.1–3.7; ``bench/cost_model.py``)."""
FEATURES_NS = (17.0, 5.0, 0.04)
"""(a, b, c): nanoseconds a (D + b) + c M per grid point of a Contours column of M points
evaluated through its D explicit features (see the table)."""
GRID_OVERHEAD_S = 1e-3
"""Seconds of a Contours column's evaluation whatever its size."""
MIN_RESOLUTION = 40
"""The coarsest grid the Contours view falls back to."""

SWEEP_NS_PER_M3: dict[str, float] = {"rbf": 0.035, "laplacian": 0.065, "poly": 0.065}
"""Nanoseconds × M³ for one width's eigenvalues, by kernel (see the table)."""
DISTANCES_NS = 30.0
"""Nanoseconds per pair of points for the sweep's distances (once per sweep)."""

DENOISE_NS_PER_M3 = 0.2
"""Nanoseconds × M³ for the denoising model's dense eigenproblem of M digits."""
FIXED_POINT_NS: dict[float, float] = {0.3: 320.0, 0.2: 450.0, 0.1: 600.0, 0.0: 1100.0}
"""Nanoseconds per noisy digit × training digit for its fixed-point pre-image at one n,
by the smallest width c (per pixel) each applies from: the middle of what the error curve
and the Fig. 4 grid take at M = 1000 (c = 0.5: 250 and 390; c = 0.1: 490 and 660,
``bench/cost_model.py``), and of the table's 580–1600 below c = 0.1."""
METHOD_STEPS: dict[str, float] = {"distance": 0.35, "gradient": 4.0}
"""The Pre-images tab's other iterative methods, in units of the fixed point's time per
digit: the distance constraints 0.17–0.76 of it, the gradient descent 2.7–6.3 (M = 500 and
1000, c = 0.05–0.5, 20 digits at 4 n)."""
RIDGE_NS = (10.0, 0.03)
"""(× M², × M³) nanoseconds to fit the learned pre-image (kernel ridge regression) at one
n: its kernel matrix, then its Cholesky solve (32 ms at M = 1000, 0.9–1.25 s at 3000)."""
PROJECTION_NS = 150.0
"""Nanoseconds per noisy digit × training digit to project it (eq. 54) and to map it back
with the learned pre-image: two kernel values of 256 pixels (not measured apart; the fixed
point at n = 1, a few steps more, takes 280)."""

SVM_NS = 380.0
"""Nanoseconds × (training digits)^1.7 for one linear SV machine of a Table 2 cell (ten
classes against the rest, libsvm on the precomputed linear kernel of the components): 3.9–4.9 s
for the cell's five at 7291 digits, 0.5 at 2000, 1.4–2.3 at 4000; its time grows as n^1.7."""
SVM_POWER = 1.7
"""The power of the training digits in :data:`SVM_NS`."""
COPY_NS = 25.0
"""Nanoseconds per entry of a Table 2 cell's training kernel of the components, beyond
its product: allocated, summed into and indexed for the held-out digits (1.56 s for the
7291² entries at n = 64)."""


# ---------------------------------------------------------------- the engine's routes
# What one KernelPCA fit costs, step by step, by the route it takes: the kernel matrix
# (eq. 10) and its centring (eq. 49), then the eigenproblem (eq. 12) by the dense, subset
# or ARPACK solver; or, for a polynomial kernel, its explicit features Φ (eqs. 20-22) and
# their SVD.  Nanoseconds of one core (one BLAS thread), measured by
# ``python bench/cost_model.py --measure`` as medians over a grid of sizes on this machine;
# ``REFERENCE_S`` is the reference computation (:func:`reference_work`) timed with them, by
# which ``tests/test_cost_model.py`` rescales every estimate to the machine it runs on.
REFERENCE_S = 0.022
"""Seconds of one core for :func:`reference_work` when the constants below were measured."""
GEMM_NS = 0.02
"""Per multiply-add of a matrix product: the M² N of the kernel matrix's x·y."""
ENTRY_NS: dict[str, float] = {
    "linear": 3.5,
    "poly": 5.4,
    "rbf": 5.3,
    "sigmoid": 4.8,
    "cosine": 4.6,
    "laplacian": 3.5,
}
"""Per kernel value beyond the product (exp, tanh, powers, its centring, the copies)."""
LAPLACIAN_NS = 1.0
"""Per kernel value and input of the Laplacian (scikit-learn's city-block distances),
in place of :data:`GEMM_NS`."""
DENSE_NS = (0.1, 37.0)
"""(× M³, × M²): every eigenpair of the M × M matrix, LAPACK's divide and conquer (6 ms
at M = 300, 150 ms at 1000)."""
SUBSET_NS = (0.028, 16.0)
"""(× M³, × M²): the top k by ``eigh(subset_by_index)``, its tridiagonal reduction and
what does not scale as M³ (Gaussian, k = 3: 2.2, 44 and 135 ms at M = 300, 1000, 1500)."""
ARPACK_NS = 0.25
"""Per kernel value and ARPACK step (one product K v)."""
ARPACK_STEPS = {"plane": (14, 1.4), "wide": (80, 1.4)}
"""Steps of ARPACK for the top k: a + b k, (a, b) by the inputs: points in the plane, whose
kernel's spectrum decays fast (Gaussian, M = 1000–1500: 12–15 steps for k = 3, 37–55 for
k = 30), or more inputs (256: 69 and 104)."""
NARROW_STEPS = 28.0
"""Steps of ARPACK added per halving of a Gaussian or Laplacian kernel's width σ below the
data's RMS radius (:func:`narrowness`): its spectrum decays more slowly (k = 3 of 1000–3000
points uniform in a square, on a parabola or three rings: 21 steps at a radius of 1.6σ,
36–70 at 2–4σ, 54–135 at 7–8σ, 70–170 at 13–53σ; Laplacian as Gaussian)."""
ARPACK_BASIS_NS = 6.0
"""× M k²: ARPACK's work on its basis of 2k + 1 vectors (k = 64 of 1000 points: 26 ms)."""
LOWEST_STEPS = {"plane": 25, "wide": 100}
"""Steps of ARPACK for the smallest eigenvalue to a relative 1e-4 (sigmoid, M = 300–2000:
21 on 2 inputs, 81–131 on 64–256; the engine stops at the cost of ``eigh``'s reduction)."""
FEATURE_NS = 3.7
"""Per point and feature of Φ (one product of two columns, and its scaling)."""
SVD_NS = 0.25
"""× M D²: the thin SVD of the centred M × D matrix Φ."""
FIT_OVERHEAD_S = 1.5e-3
"""Seconds of a fit whatever its size: validation, normalisation, Python."""
PCA_S = 1e-3
"""Seconds of the Contours' linear PCA column (scikit-learn's ``PCA`` of 2-D points)."""


def reference_work() -> None:
    """The computation the constants are timed against, a fit in miniature: the Gaussian
    kernel matrix of 1500 points (its product, its exponential and its centring stream
    through memory, as a fit's do) and the eigenpairs of a 400 × 400 block of it."""
    X = np.random.RandomState(0).rand(1500, 16)
    K = X @ X.T
    np.exp(K * -0.1, out=K)
    K -= K.mean(axis=0)
    linalg.eigh(K[:400, :400], driver="evd", check_finite=False)


def kernel_seconds(kernel: str, n_x: int, n_y: int, n_features: int) -> float:
    """Seconds of one core for the n_x × n_y kernel values of ``kernel`` (eq. 10), centred."""
    per_input = LAPLACIAN_NS if kernel == "laplacian" else GEMM_NS
    per_value = per_input * n_features + ENTRY_NS.get(kernel, max(ENTRY_NS.values()))
    return 1e-9 * n_x * n_y * per_value


def narrowness(X: np.ndarray, sigma: float) -> float:
    """The data's RMS radius √(mean ‖x − x̄‖²) in units of a kernel's width σ: how many
    widths the points spread over, which sets ARPACK's steps (:data:`NARROW_STEPS`)."""
    X = np.asarray(X, dtype=float)
    return float(np.sqrt(np.mean(np.sum((X - X.mean(axis=0)) ** 2, axis=1)))) / sigma


def eigen_seconds(
    solver: str, M: int, k: int, *, n_inputs: int = 2, narrowness: float = 1.0
) -> float:
    """Seconds of one core for the top k eigenpairs of an M × M kernel matrix of points of
    ``n_inputs`` inputs by ``solver`` (``eigenproblem.eigsolve``), ARPACK's steps more for
    a kernel narrower than the data (``narrowness``, :func:`narrowness`)."""
    if solver == "dense":
        return 1e-9 * (DENSE_NS[0] * M**3 + DENSE_NS[1] * M**2)
    if solver == "subset":
        return 1e-9 * (SUBSET_NS[0] * M**3 + SUBSET_NS[1] * M**2)
    a, b = ARPACK_STEPS["plane" if n_inputs <= 2 else "wide"]
    steps = a + b * k + NARROW_STEPS * np.log2(max(1.0, narrowness))
    return 1e-9 * (ARPACK_NS * M**2 * steps + ARPACK_BASIS_NS * M * k**2)


def lowest_seconds(kernel: str, M: int, n_inputs: int) -> float:
    """Seconds of one core for the first read of ``KernelPCA.negative_eigenvalue_ratio_``
    after a fit of an indefinite kernel by a solver of the top k: the kernel matrix again
    and its smallest eigenvalue (ARPACK, :data:`LOWEST_STEPS`, at most ``eigh``'s reduction:
    ``eigenproblem.lowest_eigenvalue``)."""
    steps = LOWEST_STEPS["plane" if n_inputs <= 2 else "wide"]
    lowest = min(1e-9 * ARPACK_NS * M**2 * steps, eigen_seconds("subset", M, 1))
    return kernel_seconds(kernel, M, M, n_inputs) + lowest


def features_seconds(M: int, n_features: int) -> float:
    """Seconds of one core to fit through D = ``n_features`` explicit features: Φ, its SVD."""
    return 1e-9 * (FEATURE_NS * M * n_features + SVD_NS * M * n_features**2)


def route_seconds(
    kernel: str,
    M: int,
    n_inputs: int,
    k: int,
    *,
    features: int | None = None,
    narrowness: float = 1.0,
) -> dict[str, float]:
    """Seconds of one core of a fit of M points of ``n_inputs`` inputs, top k, by each route.

    ``"dense"``, ``"subset"``, ``"arpack"``: the kernel matrix and that solver;
    ``"features"`` (given ``features``, their number D): Φ and its SVD.  The engine
    takes the cheapest (``kernel_pca.explicit_features``, ``eigenproblem.choose_solver``).
    """
    matrix = kernel_seconds(kernel, M, M, n_inputs)
    routes = {
        solver: matrix + eigen_seconds(solver, M, k, n_inputs=n_inputs, narrowness=narrowness)
        for solver in ("dense", "subset", "arpack")
    }
    if features is not None:
        routes["features"] = features_seconds(M, features)
    return routes


def engine_fit_seconds(
    kernel: str, M: int, n_inputs: int, k: int | None, *, degree: float = 3, coef0: float = 1.0
) -> float:
    """Seconds of one core of ``KernelPCA(k, kernel=kernel, eigen_solver="auto").fit`` of M
    points of ``n_inputs`` inputs (``k=None``: all components), by the route it takes."""
    # imported here: the engine chooses its route by this module's estimates
    from .eigenproblem import choose_solver
    from .kernel_pca import explicit_features
    from .kernels import feature_space_dimension

    k = M if k is None else min(k, M)
    features = explicit_features(kernel, M, n_inputs, degree=degree, coef0=coef0, n_components=k)
    if features is not None:
        return FIT_OVERHEAD_S + features_seconds(M, features)
    dimension = feature_space_dimension(kernel, n_inputs, degree=degree, coef0=coef0)
    solver = choose_solver("auto", M, k, feature_dimension=dimension, n_inputs=n_inputs)
    return FIT_OVERHEAD_S + route_seconds(kernel, M, n_inputs, k)[solver]


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

    def refusal(self, request: str, action: str = "draw it") -> str:
        """Why ``request`` (named with its sizes, "This grid (2000 points, …)") is refused.

        The sentence every view shows above the budget: the estimate, the
        limit, and what to reduce to ``action`` it.
        """
        return (
            f"{request} would take about {self.seconds:.0f} s of computing; this shared "
            f"server allows {REQUEST_BUDGET_S:.0f} s per request. To {action}, {self.advice}."
        )


def fit_seconds(
    n_points: int,
    kernel: str,
    features: int | None = None,
    *,
    n_components: int = 3,
    narrowness: float = 1.0,
) -> float:
    """Seconds of one core to fit one Contours column (``"pca"``: linear PCA) of points in
    the plane, through ``features`` explicit features if given
    (``KernelSpec.explicit_features``): the engine's route (:func:`route_seconds`; a
    Gaussian or Laplacian kernel ``narrowness`` times narrower than the data,
    ``KernelSpec.narrowness``, takes ARPACK more steps), and for an indefinite kernel the
    smallest eigenvalue its note reports (:func:`lowest_seconds`)."""
    if kernel == "pca":
        return PCA_S
    if features is not None:
        return FIT_OVERHEAD_S + features_seconds(n_points, features)
    from .eigenproblem import choose_solver  # it chooses by this module's estimates

    k = min(n_components, n_points)
    dimension = 2 if kernel == "linear" else None
    solver = choose_solver("auto", n_points, k, feature_dimension=dimension)
    seconds = FIT_OVERHEAD_S + route_seconds(kernel, n_points, 2, k, narrowness=narrowness)[solver]
    indefinite = kernel not in ("rbf", "laplacian", "linear")  # a poly column without Φ: c < 0
    if indefinite and solver != "dense":
        seconds += lowest_seconds(kernel, n_points, 2)
    return seconds


def grid_seconds(
    n_points: int, resolution: int, features: int | None = None, *, kernel: str = "rbf"
) -> float:
    """Seconds of one core to evaluate one Contours column on its grid, through
    ``features`` explicit features if given; a linear column's grid goes through its two
    inputs (``KernelPCA._explicit_features``)."""
    if kernel == "linear":
        features = 2
    if features is None:
        return GRID_OVERHEAD_S + GRID_NS * 1e-9 * n_points * resolution**2
    a, b, c = FEATURES_NS
    return GRID_OVERHEAD_S + 1e-9 * (a * (features + b) + c * n_points) * resolution**2


def contour_seconds(
    n_points: int,
    kernels: Sequence[str],
    resolution: int,
    features: Sequence[int | None] = (),
    narrowness: Sequence[float] = (),
) -> float:
    """Seconds of one core for a Contours grid: each column's fit and evaluation.

    Parameters
    ----------
    n_points : int
    kernels : sequence of str
        One kernel name per column (``"pca"`` for the linear PCA column).
    resolution : int
        Grid points per axis.
    features : sequence of int or None, optional
        Per column, the explicit features it is fitted through, or ``None`` (the
        default for every column) where it forms the kernel matrix.
    narrowness : sequence of float, optional
        Per column, the data's radius in widths of its kernel (``KernelSpec.narrowness``;
        default 1 for every column): see :func:`fit_seconds`.
    """
    features = list(features) or [None] * len(kernels)
    narrowness = list(narrowness) or [1.0] * len(kernels)
    return sum(
        fit_seconds(n_points, kernel, size, narrowness=narrow)
        + grid_seconds(n_points, resolution, size, kernel=kernel)
        for kernel, size, narrow in zip(kernels, features, narrowness, strict=True)
    )


def contour_cost(
    n_points: int,
    kernels: Sequence[str],
    resolution: int,
    features: Sequence[int | None] = (),
    narrowness: Sequence[float] = (),
) -> tuple[Cost, int]:
    """The cost of a Contours grid, at the finest resolution within the budget.

    The parameters are :func:`contour_seconds`'s.

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
    shape = {"features": features, "narrowness": narrowness}
    seconds = contour_seconds(n_points, kernels, resolution, **shape)
    if seconds <= REQUEST_BUDGET_S:
        return Cost(seconds, True), resolution
    coarser = resolution
    while coarser > MIN_RESOLUTION:
        coarser = max(MIN_RESOLUTION, coarser // 2)
        seconds = contour_seconds(n_points, kernels, coarser, **shape)
        if seconds <= REQUEST_BUDGET_S:
            return Cost(seconds, True), coarser
    points = n_points
    while (
        points > 20 and contour_seconds(points, kernels, MIN_RESOLUTION, **shape) > REQUEST_BUDGET_S
    ):
        points = int(points * 0.9)
    columns = len(kernels)
    while columns > 1 and (
        contour_seconds(
            n_points,
            kernels[:columns],
            MIN_RESOLUTION,
            features[:columns],
            narrowness[:columns],
        )
        > REQUEST_BUDGET_S
    ):
        columns -= 1
    advice = f"use at most {points} points"
    if columns < len(kernels):
        advice += f", or at most {columns} column{'s' if columns > 1 else ''}"
    return Cost(contour_seconds(n_points, kernels, resolution, **shape), False, advice), resolution


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


def maps_seconds(n_points: int, kernel: str, resolution: int = 80) -> float:
    """Seconds of one core for the Spectrum's component maps at one width.

    A kernel PCA fit there (as a Contours column: :func:`fit_seconds`) and its
    two components over the maps' grid (:func:`grid_seconds`).
    """
    return fit_seconds(n_points, kernel) + grid_seconds(n_points, resolution)


def comparison_seconds(n_points: int, n_widths: int) -> float:
    """Seconds of one core for the Spectrum's comparison with Deręgowski & Krzyśko.

    The Gaussian sweep again without centring (same widths), and the share at
    their c, centred and not (one width each).
    """
    return sweep_seconds(n_points, n_widths, "rbf") + 2 * sweep_seconds(n_points, 1, "rbf")


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


def preimage_seconds(
    n_digits: int,
    n_train: int,
    n_values: int,
    methods: tuple[str, ...] = ("fixed-point",),
    *,
    c: float = 0.5,
) -> float:
    """Seconds of one core for pre-images of ``n_digits`` noisy digits at ``n_values`` n each.

    Parameters
    ----------
    n_digits, n_train : int
        Noisy digits to de-noise, and training digits of the model (M).
    n_values : int
        Numbers of components n, each a separate pre-image of every digit.
    methods : tuple of str
        ``"fixed-point"`` (Mika et al. eq. 10), ``"distance"`` and ``"gradient"``
        (:mod:`kpca_core.preimage_methods`, :data:`METHOD_STEPS` times the fixed
        point's), ``"ridge"`` (the learned pre-image, one kernel ridge fit per n).
    c : float
        The model's kernel width per pixel: a narrower kernel takes more steps.
    """
    per_digit = next(ns for width, ns in FIXED_POINT_NS.items() if c >= width)
    per_n = 0.0
    for method in methods:
        if method == "ridge":
            per_n += RIDGE_NS[0] * n_train**2 + RIDGE_NS[1] * n_train**3
            per_n += PROJECTION_NS * n_digits * n_train
        else:
            per_n += METHOD_STEPS.get(method, 1.0) * per_digit * n_digits * n_train
    return 1e-9 * n_values * per_n


def preimage_cost(
    n_digits: int,
    n_train: int,
    n_values: int,
    methods: tuple[str, ...] = ("fixed-point",),
    *,
    c: float = 0.5,
    digits: str | None = "noisy digits",
    per_class: int = 1,
    without_ridge: str | None = None,
) -> Cost:
    """The cost of pre-images (:func:`preimage_seconds`), and if above the budget what to reduce.

    The advice names the most noisy digits (``digits``, counted in steps of
    ``per_class``: 10 for a number per class; ``None`` when they are fixed,
    as in Fig. 4), the most training digits per class, and ``without_ridge``
    (how to do without the learned pre-image, if one can), each where it
    alone would make the request fit.
    """

    def seconds(t: int, m: int, chosen: tuple[str, ...] = methods) -> float:
        return preimage_seconds(t, m, n_values, chosen, c=c)

    total = seconds(n_digits, n_train)
    if total <= REQUEST_BUDGET_S:
        return Cost(total, True)
    ways = []
    fewer = n_digits - n_digits % per_class
    while fewer > per_class and seconds(fewer, n_train) > REQUEST_BUDGET_S:
        fewer -= per_class
    if digits is not None and seconds(fewer, n_train) <= REQUEST_BUDGET_S:
        ways.append(f"use at most {fewer // per_class} {digits}")
    train = n_train - n_train % 10
    while train > 100 and seconds(n_digits, train) > REQUEST_BUDGET_S:  # 10 per class at least
        train -= 10
    if seconds(n_digits, train) <= REQUEST_BUDGET_S:
        ways.append(f"use at most {train // 10} training digits per class")
    without = tuple(method for method in methods if method != "ridge") or ("fixed-point",)
    if (
        without_ridge
        and "ridge" in methods
        and seconds(n_digits, n_train, without) <= (REQUEST_BUDGET_S)
    ):
        ways.append(without_ridge)
    return Cost(total, False, ", or ".join(ways) or "use fewer digits")


def table2_cell_seconds(
    n_components: int,
    *,
    n_fit: int = 3000,
    n_train: int = 7291,
    n_test: int = 2007,
    n_c: int = 4,
    n_pixels: int = 256,
) -> float:
    """Seconds of one core to recompute one cell of the Features view's Table 2 live
    (``kpca_core.features.recompute_cell``).

    Kernel PCA of the first ``n_fit`` training digits, every eigenpair
    (:func:`eigen_seconds`, ``"dense"``) or beyond 3000 digits the ``n_components`` leading
    ones by the randomized solver (:func:`randomized_seconds`); the components of the other
    training and the test digits (eq. 54: their kernel values and a product); the linear
    kernels of the components; then ``n_c`` SV machines on the 80 % of the training digits
    that choose C and one on all of them (:data:`SVM_NS`).  The degree does not change it.

    Parameters
    ----------
    n_components : int
        The cell's n.
    n_fit, n_train, n_test : int
        Digits kernel PCA is fitted on, training and test digits (the protocol's defaults).
    n_c : int
        Values of C tried (``features.C_GRID``).
    n_pixels : int
        Inputs per digit.
    """
    from .features import KPCA_TRAIN  # the solver features.decompose takes

    n = n_components
    dense = n_fit <= KPCA_TRAIN
    eigen = eigen_seconds("dense", n_fit, n) if dense else randomized_seconds(n_fit, n)
    others = n_train - min(n_fit, n_train) + n_test
    fit = kernel_seconds("poly", n_fit, n_fit, n_pixels) + eigen
    projection = (
        kernel_seconds("poly", others, n_fit, n_pixels) + 1e-9 * GEMM_NS * others * n_fit * n
    )
    kernels = 1e-9 * (GEMM_NS * n * (n_train**2 / 2 + n_test * n_train) + COPY_NS * n_train**2)
    machines = 1e-9 * SVM_NS * n_train**SVM_POWER * (n_c * 0.8**SVM_POWER + 1)
    return FIT_OVERHEAD_S + fit + projection + kernels + machines


def randomized_seconds(M: int, k: int) -> float:
    """Seconds of one core for the top k eigenpairs of an M × M matrix by scikit-learn's
    randomized solver (Halko et al. 2011; 10 more vectors, 7 power iterations for k < M/10,
    else 4): two products M² (k + 10) per iteration and two more, and as many
    factorisations of the M × (k + 10) block (:data:`SVD_NS`)."""
    iterations = 7 if k < 0.1 * M else 4
    width = k + 10
    return 1e-9 * (
        GEMM_NS * M**2 * width * (2 * iterations + 2) + SVD_NS * M * width**2 * (iterations + 2)
    )
