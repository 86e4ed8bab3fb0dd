"""Fitted columns over the plane: the grid, the component values on it, the whole sweep.

The value drawn at a point t of the plane is its k-th nonlinear principal
component (V^k · Φ̃(t)) = Σ_i α_i^k k̃(x_i, t) (eqs. 17, 51, 54):
:func:`evaluate_column` evaluates a fitted column on a :class:`Grid` and traces
its lines of constant value (:func:`contour_lines`), and :func:`missing_reason`
explains the components that do not exist.
"""

from __future__ import annotations

from dataclasses import dataclass

import contourpy
import numpy as np

from ..kernel_pca import BLOCK_ROWS, Progress
from ..kernels import feature_space_dimension
from .fit import ColumnFit, Note
from .specs import KernelSpec, Parameter

GRID_BLOCK_VALUES = 2**22
"""Test-kernel values k(x_i, t) (eq. 52) per block of grid points between progress reports.

About 15 ms of one core at ``kpca_core.budget.GRID_NS``: a cancelled
evaluation stops within that.  The 300 points of Fig. 2 on a 100 × 100 grid
(3·10⁶ values) are one block; 2000 points on 200 × 200, 20 blocks."""


LEVEL_STEP = 0.2
LEVEL_MAX = 2.0
LEVELS = np.round(np.arange(-LEVEL_MAX, LEVEL_MAX + LEVEL_STEP / 2, LEVEL_STEP), 10)
"""The values of the contour lines (0 included), of components divided by their
largest magnitude on the data (:class:`Column`)."""


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
    notes : tuple of Note
    error : str or None
    lines : tuple of (ndarray, ndarray)
        Each component's contour lines every :data:`LEVEL_STEP` on the grid
        (:func:`contour_lines`: vertices, where each line starts), traced with the
        values, so that a cached column is not traced again for another figure.
    """

    fit: ColumnFit
    values: np.ndarray
    scales: np.ndarray
    notes: tuple[Note, ...]
    error: str | None
    lines: tuple[tuple[np.ndarray, np.ndarray], ...] = ()

    @property
    def n_components(self) -> int:
        return int(self.values.shape[0])


def block_rows(n_points: int) -> int:
    """Grid points per block of :func:`evaluate_column` for a fit of ``n_points`` points.

    A multiple of the engine's ``BLOCK_ROWS``, so that its own blocks, and
    hence the values, are those of one ``transform`` of the whole grid.
    """
    return max(1, GRID_BLOCK_VALUES // (max(n_points, 1) * BLOCK_ROWS)) * BLOCK_ROWS


def evaluate_column(fit: ColumnFit, grid: Grid, *, progress: Progress | None = None) -> Column:
    """Components of every grid point for a fitted column (eqs. 51 and 54).

    ``fit.model`` may be any fitted object with ``transform`` returning
    (n_points, ≥ n_components) components, e.g. scikit-learn's ``KernelPCA``.
    Non-finite values (a polynomial overflowing in the margin beyond the
    data) turn into an error, never into a NaN panel.

    The grid is evaluated in blocks of :func:`block_rows` points; before each
    block, and at the end, ``progress(fraction, message)`` is called if given.
    An exception it raises (a cancelled request) stops the evaluation there
    and is raised here.
    """
    shape = (0, grid.ys.size, grid.xs.size)
    if fit.error is not None or fit.model is None:
        return Column(fit, np.zeros(shape, np.float32), np.zeros(0), fit.notes, fit.error)
    n = fit.n_components
    scales = np.max(np.abs(fit.projections[:, :n]), axis=0)
    scales[scales == 0] = 1.0
    points = grid.points
    rows = block_rows(fit.projections.shape[0])
    blocks = []
    with np.errstate(over="ignore", invalid="ignore"):
        for begin in range(0, len(points), rows):
            if progress is not None:
                block, n_blocks = begin // rows + 1, -(-len(points) // rows)
                progress(begin / len(points), f"grid block {block} of {n_blocks} (eq. 54)")
            blocks.append(fit.model.transform(points[begin : begin + rows])[:, :n])
        values = np.vstack(blocks) / scales
        values = values.T.reshape(n, grid.ys.size, grid.xs.size).astype(np.float32)
    if progress is not None:
        progress(1.0, "done")
    if not np.all(np.isfinite(values)):
        error = (
            f"{fit.spec.formula()} overflows on the grid beyond the data (values above "
            "the largest floating-point number). Lower the degree or γ, or rescale the data."
        )
        return Column(fit, np.zeros(shape, np.float32), np.zeros(0), fit.notes, error)
    notes = list(fit.notes)
    if fit.spec.kernel in ("rbf", "laplacian") and fit.spec.sigma < grid.spacing:
        notes.append(
            Note(
                "grid spacing",
                "σ is smaller than the grid spacing ({}): the bumps around the points fall "
                "between grid points and the panels look patchy. Raise the grid resolution "
                "or σ.",
                f"{grid.spacing:.2g}",
            )
        )
    lines = tuple(contour_lines(grid.xs, grid.ys, component) for component in values)
    return Column(fit, values, scales, tuple(notes), None, lines)


def contour_lines(
    xs: np.ndarray, ys: np.ndarray, values: np.ndarray, levels: np.ndarray = LEVELS
) -> tuple[np.ndarray, np.ndarray]:
    """Lines of constant value of a grid (``contourpy``), every level one after the other.

    Parameters
    ----------
    xs, ys : ndarray
        Grid coordinates.
    values : ndarray of shape (len(ys), len(xs))
    levels : ndarray
        The values of the lines.

    Returns
    -------
    points : ndarray of shape (n, 2)
        The vertices of all lines, in data coordinates.
    starts : ndarray of shape (n,), bool
        Where a new line starts.
    """
    values = np.asarray(values, dtype=float)
    finite = values[np.isfinite(values)]
    # a level outside the values has no line, but contourpy would scan the grid for it
    if finite.size:
        levels = levels[(levels >= finite.min()) & (levels <= finite.max())]
    generator = contourpy.contour_generator(
        xs, ys, values, line_type=contourpy.LineType.ChunkCombinedOffset
    )
    chunks = [
        (vertices, offsets)
        for level_points, level_offsets in generator.multi_lines(levels)
        for vertices, offsets in zip(level_points, level_offsets, strict=True)
        if vertices is not None
    ]
    if not chunks:
        return np.zeros((0, 2)), np.zeros(0, bool)
    points = np.concatenate([vertices for vertices, _ in chunks])
    sizes = np.array([len(vertices) for vertices, _ in chunks])
    starts = np.zeros(len(points), bool)
    # each chunk's line starts, shifted by the vertices of the chunks before it
    bases = np.cumsum(sizes) - sizes
    first = [offsets[:-1] + base for (_, offsets), base in zip(chunks, bases, strict=True)]
    starts[np.concatenate(first)] = True
    return points, starts


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


def fitted_column(
    X: np.ndarray,
    spec: KernelSpec,
    grid: Grid,
    *,
    n_components: int,
    center: bool = True,
    progress: Progress | None = None,
) -> Column:
    """One column fitted (:func:`fit_column`, eq. 12) and evaluated on ``grid``
    (:func:`evaluate_column`, eqs. 51 and 54): both in one call, so that a worker
    process is asked once and the fit crosses to it and back once, not three times.

    ``progress`` is passed to both steps.
    """
    from . import fit_column  # the package's: what a test replacing ct.fit_column replaces

    fit = fit_column(X, spec, n_components=n_components, center=center, progress=progress)
    return evaluate_column(fit, grid, progress=progress)


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
    around: np.ndarray | None = None,
) -> ContourSweep:
    """Fit every column and evaluate it on one grid (no caching): the grid of
    :func:`make_grid` over ``X``, or over the points ``around`` (a held figure keeps the
    plane of the figure drawn)."""
    from . import fit_column  # the package's, as in fitted_column

    grid = make_grid(X if around is None else around, resolution, margin)
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
    if r < n + fit.n_flat:
        return (
            f"kPC {r + 1} is flat: its eigenvalue is at the rounding level of the kernel "
            "matrix, so its contour lines would only trace rounding noise"
        )
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
