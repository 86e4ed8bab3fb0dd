"""Kernel principal components over the plane: the contour grid of Fig. 2.

Schölkopf, Smola & Müller (1998), Fig. 2: over 2-D data, the lines of
constant value of the first kernel principal components.  Each column of the
grid is one kernel (one value of a swept parameter), each row one component.
The value drawn at a point t of the plane is its k-th nonlinear principal
component

    (V^k · Φ̃(t)) = Σ_i α_i^k k̃(x_i, t)                    (eqs. 17, 51, 54)

so a panel is :meth:`kpca_core.KernelPCA.transform` of a grid of points.

The work is split so that a user interface can cache it on small keys:

* :func:`fit_column` fits one kernel (the expensive eigenproblem, eq. 12);
* :func:`evaluate_column` evaluates a fitted column on a :class:`Grid`;
* :func:`contour_sweep` does both for every column (for scripts and tests).

Kernels and parameters that give no picture (a width so small that every
point is its own component, a kernel matrix that is constant to rounding, an
overflowing polynomial) are not errors: the column carries a sentence saying
what happened and what to change, and components that do not exist (the
linear kernel in 2-D has two) are explained by :func:`missing_reason`.
"""

from __future__ import annotations

import io
import math
import re
from dataclasses import dataclass, replace
from typing import Literal

import numpy as np
import pandas as pd
from scipy.spatial import cKDTree
from sklearn.decomposition import PCA

from .kernel_pca import KernelPCA
from .kernels import feature_space_dimension, sigma_to_gamma

KernelKind = Literal["linear", "poly", "rbf", "laplacian", "sigmoid", "pca"]
Parameter = Literal["degree", "c", "gamma", "sigma"]

MAX_COMPONENTS = 8
MAX_COLUMNS = 6

SWEEPABLE: dict[str, tuple[str, ...]] = {
    "poly": ("degree", "c", "gamma"),
    "rbf": ("sigma",),
    "laplacian": ("sigma",),
    "sigmoid": ("c", "gamma"),
    "linear": (),
}
"""The parameters of each kernel that can make the columns of the grid."""

DEFAULT_VALUES: dict[tuple[str, str], str] = {
    ("poly", "degree"): "1, 2, 3, 4",
    ("poly", "c"): "0, 0.5, 1, 2",
    ("poly", "gamma"): "0.1, 1, 10",
    ("rbf", "sigma"): "0.1, 0.3, 1, 3",
    ("laplacian", "sigma"): "0.3, 1, 3, 10",
    ("sigmoid", "c"): "-1, -0.5, 0, 0.5",
    ("sigmoid", "gamma"): "0.1, 1, 10",
}
"""Values shown when a parameter is chosen to sweep (Fig. 2: degrees 1–4)."""

LIMITS: dict[str, tuple[float, float]] = {
    "degree": (1, 10),
    "c": (-100.0, 100.0),
    "gamma": (1e-6, 1e6),
    "sigma": (1e-4, 1e4),
}
"""Accepted range of each parameter, inclusive."""

SYMBOLS = {"degree": "degree", "c": "c", "gamma": "γ", "sigma": "σ"}

ISOLATED_KERNEL_VALUE = 1e-3
"""Below this median k(x, nearest neighbour) every point is its own component."""
NEARLY_CONSTANT_SPREAD = 1e-3
"""Above 1 − k over the data below this, the kernel matrix is 'nearly constant'."""
ROUNDING_SPREAD = 1e-12
"""Below this spread the centred kernel matrix is rounding noise: nothing is fitted."""
INDEFINITE_RATIO = 1e-6
"""|most negative| / largest eigenvalue above which a kernel is reported indefinite."""


@dataclass(frozen=True)
class KernelSpec:
    """One kernel with its parameters, as the user sets them.

    ``kernel="pca"`` is scikit-learn's linear PCA, the comparison column.
    The polynomial is (γ x·y + c)^d (eq. 22 for γ = 1, c = 0); the sigmoid
    tanh(γ x·y + c) (eq. 63); the Gaussian exp(−‖x−y‖²/(2σ²)) (eq. 62); the
    Laplacian exp(−‖x−y‖₁/σ).
    """

    kernel: KernelKind
    degree: int = 2
    gamma: float = 1.0
    coef0: float = 0.0
    sigma: float = 1.0

    @property
    def engine_gamma(self) -> float:
        """The γ that :class:`~kpca_core.KernelPCA` takes for this kernel."""
        if self.kernel == "rbf":
            return sigma_to_gamma(self.sigma)
        if self.kernel == "laplacian":
            return 1.0 / self.sigma
        return float(self.gamma)

    def value(self, parameter: Parameter) -> float:
        """The current value of ``parameter``."""
        return {"degree": self.degree, "c": self.coef0, "gamma": self.gamma, "sigma": self.sigma}[
            parameter
        ]

    def with_value(self, parameter: Parameter, value: float) -> KernelSpec:
        """A copy with ``parameter`` set to ``value``."""
        field = {"degree": "degree", "c": "coef0", "gamma": "gamma", "sigma": "sigma"}[parameter]
        return replace(self, **{field: int(value) if parameter == "degree" else float(value)})

    def formula(self) -> str:
        """The kernel written out with its numbers, e.g. ``(x·y)^2``."""
        if self.kernel == "pca":
            return "linear PCA (scikit-learn)"
        if self.kernel == "linear":
            return "x·y"
        if self.kernel == "rbf":
            return f"exp(−‖x−y‖²/(2·{self.sigma:g}²)), γ = {self.engine_gamma:.3g}"
        if self.kernel == "laplacian":
            return f"exp(−‖x−y‖₁/{self.sigma:g}), γ = {self.engine_gamma:.3g}"
        inner = "x·y" if self.gamma == 1 else f"{self.gamma:g} x·y"
        if self.coef0:
            inner = f"{inner} {'+' if self.coef0 > 0 else '−'} {abs(self.coef0):g}"
        if self.kernel == "sigmoid":
            return f"tanh({inner})"
        return f"({inner})^{self.degree}"

    def label(self, parameter: Parameter | None) -> str:
        """Short column heading: the swept parameter's value, or the formula."""
        if self.kernel == "pca":
            return "linear PCA"
        if parameter is None:
            return self.formula()
        if parameter == "degree":
            return f"degree {self.degree}"
        return f"{SYMBOLS[parameter]} = {self.value(parameter):g}"


@dataclass(frozen=True)
class Grid:
    """A regular grid over the data: ``xs`` by ``ys``, values as (len(ys), len(xs))."""

    xs: np.ndarray
    ys: np.ndarray

    @property
    def points(self) -> np.ndarray:
        """All grid points, x running fastest, so values reshape to (len(ys), len(xs))."""
        gx, gy = np.meshgrid(self.xs, self.ys)
        return np.column_stack([gx.ravel(), gy.ravel()])

    @property
    def spacing(self) -> float:
        """The larger of the two grid steps."""
        return float(max(self.xs[1] - self.xs[0], self.ys[1] - self.ys[0]))


def make_grid(X: np.ndarray, resolution: int = 100, margin: float = 0.15) -> Grid:
    """A ``resolution`` × ``resolution`` grid covering the 2-D data with a margin.

    Both axes get the same margin, ``margin`` × the larger extent of the data,
    so that the panels of Fig. 2 show a little of the plane around the data.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"contours need 2-D points, got shape {X.shape}")
    if resolution < 2:
        raise ValueError(f"resolution must be at least 2, got {resolution}")
    low, high = X.min(axis=0), X.max(axis=0)
    pad = margin * max(float(np.max(high - low)), 1e-12)
    xs = np.linspace(low[0] - pad, high[0] + pad, resolution)
    ys = np.linspace(low[1] - pad, high[1] + pad, resolution)
    return Grid(xs, ys)


@dataclass(frozen=True)
class ColumnFit:
    """One fitted column: the eigenproblem of one kernel on the data.

    Attributes
    ----------
    spec : KernelSpec
    center : bool
    n_requested : int
        Components asked for; ``eigenvalues`` can be shorter (zero
        eigenvalues are dropped).
    model : fitted KernelPCA or PCA, or None when nothing could be fitted
    projections : ndarray of shape (n_samples, n_components)
        Components of the training points.
    eigenvalues : ndarray of shape (n_components,)
        λ = eig(K̃)/M (eq. 12); for linear PCA the same convention (variance
        with 1/M).
    shares : ndarray of shape (n_components,)
        λ_k / trace(K̃)/M: the share of the total variance in F.
    notes : tuple of str
        Sentences for the user about this kernel on these data.
    error : str or None
        Why there is no picture at all, and what to change.
    """

    spec: KernelSpec
    center: bool
    n_requested: int
    model: KernelPCA | PCA | None
    projections: np.ndarray
    eigenvalues: np.ndarray
    shares: np.ndarray
    notes: tuple[str, ...] = ()
    error: str | None = None

    @property
    def n_components(self) -> int:
        return int(self.eigenvalues.size)


def _empty_fit(spec: KernelSpec, center: bool, n: int, M: int, error: str) -> ColumnFit:
    return ColumnFit(spec, center, n, None, np.zeros((M, 0)), np.zeros(0), np.zeros(0), (), error)


def _width_checks(X: np.ndarray, spec: KernelSpec) -> tuple[list[str], str | None]:
    """Notes (and a reason to skip the fit) for a Gaussian or Laplacian width.

    Too small a width: k(x, y) ≈ 0 between neighbours, so K ≈ I, every
    eigenvalue of K̃ is ≈ 1 (a degenerate spectrum) and each component is a
    spike on one point.  Too large: k ≈ 1 for all pairs, K is nearly
    constant and K̃ = K − 1_M K − K 1_M + 1_M K 1_M (eq. 49) loses its digits
    to cancellation.
    """
    gamma = spec.engine_gamma
    metric = 2 if spec.kernel == "rbf" else 1
    nearest, _ = cKDTree(X).query(X, k=2, p=metric)
    distance = float(np.median(nearest[:, 1]))
    power = 2 if spec.kernel == "rbf" else 1
    k_neighbour = math.exp(-gamma * distance**power)
    if k_neighbour < ISOLATED_KERNEL_VALUE:
        return [], (
            f"σ = {spec.sigma:g} is so small that every point is its own component: "
            f"between nearest neighbours (median distance {distance:.2g} = "
            f"{distance / spec.sigma:.0f} σ) k(x, y) = {k_neighbour:.1e}, so K ≈ I, "
            "all eigenvalues are nearly equal and each component would be a "
            f"spike on a single point. Increase σ to about {distance:.2g} or more."
        )
    extent = np.ptp(X, axis=0)
    reach = float(np.sum(extent**2)) if spec.kernel == "rbf" else float(np.sum(extent))
    spread = -math.expm1(-gamma * reach)
    if spread < ROUNDING_SPREAD:
        return [], (
            f"σ = {spec.sigma:g} is so large that the kernel matrix is constant: its entries "
            f"differ by at most {spread:.1e}, below the rounding error of the centring "
            "(eq. 49), so any component would be noise. Decrease σ towards the size "
            f"of the data ({math.sqrt(float(np.sum(extent**2))):.2g})."
        )
    if spread < NEARLY_CONSTANT_SPREAD:
        first_order = "γ‖x−y‖²" if spec.kernel == "rbf" else "γ‖x−y‖₁"
        return [
            f"σ = {spec.sigma:g}: the kernel matrix is nearly constant (its entries differ by "
            f"at most {spread:.1e}). For σ much larger than the data, k(x, y) ≈ 1 − {first_order} "
            "to first order, so the components stop changing with σ and only λ shrinks; "
            "at even larger σ rounding errors take over."
        ], None
    return [], None


def _overflow_check(X: np.ndarray, spec: KernelSpec) -> str | None:
    """Why a polynomial kernel cannot be computed in floating point, or None.

    |k(x, y)| ≤ (γ‖x‖‖y‖ + |c|)^d (Cauchy–Schwarz).  Above ~1e300 the kernel
    matrix, or its centring (eq. 49, sums of M entries), overflows.
    """
    reach = spec.gamma * float(np.max(np.einsum("ij,ij->i", X, X))) + abs(spec.coef0)
    exponent = spec.degree * math.log10(reach) if reach > 0 else -math.inf
    if exponent <= 300:
        return None
    return (
        f"{spec.formula()} overflows on these data: its values reach up to about "
        f"1e{exponent:.0f}, beyond the largest floating-point number (≈ 1e308). "
        "Lower the degree or γ, or rescale the data."
    )


def _fit_pca(X: np.ndarray, spec: KernelSpec, n: int, center: bool) -> ColumnFit:
    """Linear PCA by scikit-learn, with the kernel-PCA conventions for λ and signs."""
    M = X.shape[0]
    model = PCA(n_components=min(n, X.shape[1])).fit(X)
    eigenvalues = model.explained_variance_ * (M - 1) / M
    keep = eigenvalues > eigenvalues[0] * M * np.finfo(float).eps
    projections = model.transform(X)[:, keep]
    signs = _largest_positive(projections)
    model.components_[: keep.sum()] *= signs[:, np.newaxis]
    return ColumnFit(
        spec,
        True,
        n,
        model,
        projections * signs,
        eigenvalues[keep],
        model.explained_variance_ratio_[keep],
        () if center else ("Linear PCA always centres the data, whatever the toggle says.",),
    )


def _largest_positive(projections: np.ndarray) -> np.ndarray:
    """Signs making the largest-magnitude projection of each component positive.

    The engine's convention (``svd_flip``), so that a linear PCA column and the
    degree-1 polynomial column look the same.
    """
    rows = np.argmax(np.abs(projections), axis=0)
    return np.sign(projections[rows, np.arange(projections.shape[1])])


def fit_column(
    X: np.ndarray,
    spec: KernelSpec,
    *,
    n_components: int,
    center: bool = True,
    random_state: int = 0,
) -> ColumnFit:
    """Solve the kernel eigenproblem (eq. 12) of one column of the grid.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    spec : KernelSpec
    n_components : int
        Components to keep, 1 … :data:`MAX_COMPONENTS`.
    center : bool
        Centre in feature space (eq. 49).  Linear PCA always centres.
    random_state : int
        Seeds the ARPACK start vector.

    Returns
    -------
    ColumnFit
        Never raises for extreme parameters: ``error`` and ``notes`` say
        what happened instead.
    """
    if not 1 <= n_components <= MAX_COMPONENTS:
        raise ValueError(f"n_components must be in 1…{MAX_COMPONENTS}, got {n_components}")
    X = np.asarray(X, dtype=float)
    M = X.shape[0]
    if spec.kernel == "pca":
        return _fit_pca(X, spec, n_components, center)
    notes: list[str] = []
    if spec.kernel == "poly":
        skip = _overflow_check(X, spec)
        if skip is not None:
            return _empty_fit(spec, center, n_components, M, skip)
    if spec.kernel in ("rbf", "laplacian"):
        notes, skip = _width_checks(X, spec)
        if skip is not None:
            return _empty_fit(spec, center, n_components, M, skip)
    model = KernelPCA(
        n_components,
        kernel=spec.kernel,
        gamma=spec.engine_gamma,
        degree=spec.degree,
        coef0=spec.coef0,
        center=center,
        random_state=random_state,
    )
    try:
        projections = model.fit_transform(X)
    except ValueError as error:
        return _empty_fit(spec, center, n_components, M, _explain_failure(spec, str(error)))
    notes += _model_notes(model, spec)
    return ColumnFit(
        spec,
        center,
        n_components,
        model,
        projections,
        model.eigenvalues_,
        model.explained_variance_ratio_,
        tuple(notes),
    )


def _explain_failure(spec: KernelSpec, message: str) -> str:
    if "non-finite" in message:
        return (
            f"{spec.formula()} overflows on these data: the kernel values exceed the largest "
            "floating-point number (≈ 1e308). Lower the degree or γ, or rescale the data."
        )
    if "centred kernel matrix is zero" in message:
        return (
            f"{spec.formula()}: the centred kernel matrix is zero, so there is no variance "
            "in feature space: the kernel is constant on these data."
        )
    return f"{spec.formula()} cannot be used on these data: {message}."


def _model_notes(model: KernelPCA, spec: KernelSpec) -> list[str]:
    notes = []
    M = model.n_samples_fit_
    share = float(model.explained_variance_ratio_[0])
    if spec.kernel in ("rbf", "laplacian") and M * share < 2.0:
        notes.append(
            f"σ = {spec.sigma:g} is so small that almost every point is its own component: "
            f"the first component carries {share:.2%} of the variance, hardly more than the "
            f"1/M = {1 / M:.2%} of a single isolated point, so no group of points shares a "
            "component. Increase σ."
        )
    if model.negative_eigenvalue_ratio_ > INDEFINITE_RATIO:
        notes.append(
            f"{spec.formula()} is indefinite: the most negative eigenvalue is "
            f"{model.negative_eigenvalue_ratio_:.1%} of the largest, so K is not a matrix of "
            "dot products (Appendix B.2). The components are still computed; a negative λ "
            "belongs to an axis of negative squared length, and the shares are of the "
            "trace of K̃, which the negative eigenvalues reduce, so they can exceed 100 %."
        )
    return notes


@dataclass(frozen=True)
class Column:
    """One evaluated column: component values over the grid.

    Attributes
    ----------
    fit : ColumnFit
    values : ndarray of shape (n_components, len(ys), len(xs)), float32
        (V^k · Φ̃(t)) / scales[k] at every grid point t (eq. 51): each
        component divided by its largest magnitude on the data, so that one
        colour scale fits every panel and float32 never overflows.
    scales : ndarray of shape (n_components,)
        max_i |(V^k · Φ̃(x_i))| over the data points; ``values * scales``
        are the components themselves.
    notes : tuple of str
    error : str or None
    """

    fit: ColumnFit
    values: np.ndarray
    scales: np.ndarray
    notes: tuple[str, ...]
    error: str | None

    @property
    def n_components(self) -> int:
        return int(self.values.shape[0])


def evaluate_column(fit: ColumnFit, grid: Grid) -> Column:
    """Components of every grid point for a fitted column (eqs. 51 and 54).

    ``fit.model`` may be any fitted object with ``transform`` returning
    (n_points, ≥ n_components) components, e.g. scikit-learn's ``KernelPCA``.
    Non-finite values (a polynomial overflowing in the margin beyond the
    data) turn into an error, never into a NaN panel.
    """
    shape = (0, grid.ys.size, grid.xs.size)
    if fit.error is not None or fit.model is None:
        return Column(fit, np.zeros(shape, np.float32), np.zeros(0), fit.notes, fit.error)
    n = fit.n_components
    scales = np.max(np.abs(fit.projections[:, :n]), axis=0)
    scales[scales == 0] = 1.0
    with np.errstate(over="ignore", invalid="ignore"):
        values = fit.model.transform(grid.points)[:, :n] / scales
        values = values.T.reshape(n, grid.ys.size, grid.xs.size).astype(np.float32)
    if not np.all(np.isfinite(values)):
        error = (
            f"{fit.spec.formula()} overflows on the grid beyond the data (values above "
            "the largest floating-point number). Lower the degree or γ, or rescale the data."
        )
        return Column(fit, np.zeros(shape, np.float32), np.zeros(0), fit.notes, error)
    notes = list(fit.notes)
    if fit.spec.kernel in ("rbf", "laplacian") and fit.spec.sigma < grid.spacing:
        notes.append(
            f"σ = {fit.spec.sigma:g} is smaller than the grid spacing ({grid.spacing:.2g}): "
            "the bumps around the points fall between grid points and the panels look "
            "patchy. Raise the grid resolution or σ."
        )
    return Column(fit, values, scales, tuple(notes), None)


@dataclass(frozen=True)
class ContourSweep:
    """Everything the Contours figures show.

    Attributes
    ----------
    X : ndarray of shape (n_samples, 2)
    labels : ndarray of shape (n_samples,) or None
        Group of each point, for colour.
    grid : Grid
    columns : tuple of Column
    parameter : str or None
        The swept parameter, for the column headings.
    n_components : int
        Rows of the grid (components asked for).
    """

    X: np.ndarray
    labels: np.ndarray | None
    grid: Grid
    columns: tuple[Column, ...]
    parameter: Parameter | None
    n_components: int

    def column_label(self, c: int) -> str:
        return self.columns[c].fit.spec.label(self.parameter)


def sweep_specs(
    base: KernelSpec, parameter: Parameter | None, values: tuple[float, ...]
) -> list[KernelSpec]:
    """The columns: ``base`` with ``parameter`` set to each value (or ``base`` alone)."""
    if parameter is None:
        return [base]
    return [base.with_value(parameter, value) for value in values]


def contour_sweep(
    X: np.ndarray,
    specs: list[KernelSpec],
    *,
    n_components: int,
    center: bool = True,
    parameter: Parameter | None = None,
    labels: np.ndarray | None = None,
    resolution: int = 100,
    margin: float = 0.15,
    random_state: int = 0,
) -> ContourSweep:
    """Fit every column and evaluate it on one grid (no caching)."""
    grid = make_grid(X, resolution, margin)
    columns = tuple(
        evaluate_column(
            fit_column(
                X, spec, n_components=n_components, center=center, random_state=random_state
            ),
            grid,
        )
        for spec in specs
    )
    return ContourSweep(np.asarray(X, float), labels, grid, columns, parameter, n_components)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, … 11th, 12th, …"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def missing_reason(column: Column, r: int) -> str:
    """Why row ``r`` (0-based) of ``column`` has no picture, for the empty panel."""
    if column.error is not None:
        return column.error
    fit = column.fit
    spec = fit.spec
    n = fit.n_components
    head = f"no {ordinal(r + 1)} component: "
    if (
        spec.kernel == "pca"
        or spec.kernel == "linear"
        or (spec.kernel == "poly" and spec.degree == 1 and spec.coef0 == 0)
    ):
        name = {"pca": "linear PCA", "linear": "the linear kernel"}.get(
            spec.kernel, "degree 1 is the linear kernel, which"
        )
        return head + f"{name} in 2-D has only {_count(n)} non-zero eigenvalues"
    dimension = feature_space_dimension(
        "poly" if spec.kernel == "poly" else spec.kernel, 2, degree=spec.degree, coef0=spec.coef0
    )
    if spec.kernel == "poly" and dimension is not None:
        reason = f"its feature space has dimension {dimension}"
        if spec.coef0 != 0 and fit.center:
            reason += ", and centring removes the constant monomial"
        return head + f"{spec.formula()} has only {_count(n)} non-zero eigenvalues ({reason})"
    return head + f"the centred kernel matrix has only {_count(n)} non-zero eigenvalues"


def _count(n: int) -> str:
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")
    return words[n] if n < len(words) else str(n)


def parse_values(text: str, parameter: Parameter) -> tuple[float, ...]:
    """Values of the swept parameter from text such as ``"1, 2, 3, 4"``.

    Raises
    ------
    ValueError
        With a message for the user: not numbers, out of range, a
        non-integer degree, repeated, none, or more than
        :data:`MAX_COLUMNS`.
    """
    parts = [part for part in re.split(r"[,;\s]+", text.strip()) if part]
    if not parts:
        raise ValueError(f"enter at least one value of {SYMBOLS[parameter]}, e.g. 1, 2, 3")
    values = []
    for part in parts:
        try:
            value = float(part.replace("−", "-"))
        except ValueError:
            raise ValueError(f"{part!r} is not a number; separate values by commas") from None
        if not math.isfinite(value):
            raise ValueError(f"{part!r} is not a finite number")
        low, high = LIMITS[parameter]
        if not low <= value <= high:
            raise ValueError(f"{SYMBOLS[parameter]} = {value:g} is outside {low:g} … {high:g}")
        if parameter == "degree" and not value.is_integer():
            raise ValueError(f"the degree must be a whole number, got {value:g}")
        values.append(value)
    if len(set(values)) != len(values):
        raise ValueError("a value is repeated; give each value once")
    if len(values) > MAX_COLUMNS:
        raise ValueError(f"{len(values)} values are too many; give at most {MAX_COLUMNS}")
    return tuple(values)


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


__all__ = [
    "DEFAULT_VALUES",
    "MAX_COLUMNS",
    "MAX_COMPONENTS",
    "SWEEPABLE",
    "Column",
    "ColumnFit",
    "ContourSweep",
    "Grid",
    "KernelSpec",
    "contour_sweep",
    "eigenvalues_table",
    "evaluate_column",
    "fit_column",
    "grid_table",
    "make_grid",
    "missing_reason",
    "parse_values",
    "points_table",
    "sweep_specs",
    "to_csv",
]
