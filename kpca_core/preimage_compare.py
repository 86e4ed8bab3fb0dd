"""Pre-images made visible: the methods side by side, Fig. 3, and the fixed point's paths.

* :func:`compare_methods` — for the same noisy points, every method of
  :mod:`kpca_core.preimage_methods` at every n: the MSE to the clean points,
  the time per point, and the failures (restarts, non-convergence).
* :func:`reconstruction_series` — Mika et al. (1999) Fig. 3: one digit
  rebuilt without noise from n = 1 … 20 components by linear and kernel PCA.
* :func:`fixed_point_paths` — each point's path z_0 → z_1 → … under eq. (10),
  restarts marked, for the animation over the contours of ρ(z).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd

from .denoise import TOY_SETS, DigitDenoiser, ImageGrid, kernel_gamma, squared_errors
from .kernel_pca import KernelPCA
from .preimage_methods import (
    METHOD_LABELS,
    METHODS,
    GaussianExpansion,
    Method,
    PreimageProblem,
    preimages,
)

Progress = Callable[[float, str], None]
TOY_N: tuple[int, ...] = (1, 2, 3, 4, 6, 8, 12, 16)
"""Numbers of components of the 2-D toy's comparison."""
FIG3_N: tuple[int, ...] = tuple(range(1, 21))
"""The numbers of components of Mika et al. Fig. 3."""


# ------------------------------------------------------- methods side by side
@dataclass(frozen=True)
class MethodCurve:
    """One method's results against n.

    Attributes
    ----------
    method : str
    n : ndarray of int
    mse : ndarray
        Mean over the points of ‖z − x‖² to the clean point.
    seconds_per_point : ndarray
        Wall time of the method (after the common projection) / number of points.
    failures : ndarray of int
        Points that did not meet the method's criterion, at each n.
    restarts : ndarray of int
        Restarts over all points, at each n.
    """

    method: str
    n: np.ndarray
    mse: np.ndarray
    seconds_per_point: np.ndarray
    failures: np.ndarray
    restarts: np.ndarray

    @property
    def label(self) -> str:
        """The method's name with its paper."""
        return METHOD_LABELS[self.method]


@dataclass(frozen=True)
class MethodComparison:
    """Every method's :class:`MethodCurve` on the same noisy points.

    Attributes
    ----------
    curves : tuple of MethodCurve
    baseline_mse : float
        MSE of the noisy points themselves.
    n_points : int
    """

    curves: tuple[MethodCurve, ...]
    baseline_mse: float
    n_points: int

    def curve(self, method: str) -> MethodCurve:
        """The curve of one method."""
        for curve in self.curves:
            if curve.method == method:
                return curve
        raise KeyError(method)

    def to_frame(self) -> pd.DataFrame:
        """One row per (method, n): MSE, seconds per point, failures, restarts."""
        return pd.concat(
            [
                pd.DataFrame(
                    {
                        "method": curve.method,
                        "n": curve.n,
                        "mse": curve.mse,
                        "seconds_per_point": curve.seconds_per_point,
                        "failures": curve.failures,
                        "restarts": curve.restarts,
                    }
                )
                for curve in self.curves
            ],
            ignore_index=True,
        )


def _expansion(model: KernelPCA | DigitDenoiser | GaussianExpansion) -> GaussianExpansion:
    if isinstance(model, GaussianExpansion):
        return model
    if isinstance(model, DigitDenoiser):
        model = model.kernel_
    return GaussianExpansion.of(model)


def compare_methods(
    model: KernelPCA | DigitDenoiser | GaussianExpansion,
    clean: np.ndarray,
    noisy: np.ndarray,
    n_values: Sequence[int],
    *,
    methods: Sequence[Method] = METHODS,
    options: dict[str, dict] | None = None,
    progress: Progress | None = None,
) -> MethodComparison:
    """De-noise the same points with every method at every n.

    Parameters
    ----------
    model : KernelPCA, DigitDenoiser or GaussianExpansion
        A fitted Gaussian kernel PCA (a DigitDenoiser's ``kernel_``).
    clean, noisy : ndarray of shape (n_points, n_features)
    n_values : sequence of int
        Capped at the model's number of components (duplicates dropped).
    methods : sequence of str
        Some of :data:`~kpca_core.preimage_methods.METHODS`.
    options : dict, optional
        Keyword arguments per method, e.g. ``{"ridge": {"alpha": 0.1}}``.
    progress : callable, optional
        ``progress(fraction, message)`` after each (method, n).
    """
    expansion = _expansion(model)
    clean = np.asarray(clean, dtype=float)
    noisy = np.asarray(noisy, dtype=float)
    n_values = np.unique(np.minimum(np.asarray(n_values, dtype=int), expansion.n_components))
    beta = expansion.project(noisy, int(n_values.max()))
    options = options or {}
    n_points = len(noisy)
    curves = []
    for m, method in enumerate(methods):
        rows = []
        for j, n in enumerate(n_values):
            problem = PreimageProblem(expansion, beta[:, :n], noisy)
            start = time.perf_counter()
            result = preimages(problem, method, **options.get(method, {}))
            seconds = time.perf_counter() - start
            rows.append(
                (
                    squared_errors(result.Z, clean).mean(),
                    seconds / n_points,
                    result.failures,
                    result.total_restarts,
                )
            )
            if progress is not None:
                done = (m * len(n_values) + j + 1) / (len(methods) * len(n_values))
                progress(done, f"{METHOD_LABELS[method]}, n = {n}")
        mse, seconds, failures, restarts = (np.array(column) for column in zip(*rows, strict=True))
        curves.append(MethodCurve(method, n_values, mse, seconds, failures, restarts))
    return MethodComparison(tuple(curves), float(squared_errors(noisy, clean).mean()), n_points)


@dataclass(frozen=True)
class ToyData:
    """A noisy 2-D toy set (Mika et al. Fig. 1), its clean points and the model fitted on it."""

    name: str
    clean: np.ndarray
    noisy: np.ndarray
    model: KernelPCA


def toy_data(
    name: str,
    *,
    n_samples: int = 200,
    noise: float = 0.1,
    c: float = 0.5,
    center: bool = True,
    random_state: int = 0,
) -> ToyData:
    """The half circle or square of Fig. 1, with kernel PCA fitted on the noisy points.

    As :func:`kpca_core.denoise.toy_denoising`: k = exp(−‖x − y‖² / (2c)),
    fitted on the noisy points themselves. The clean points are the same
    draw without noise (the generators draw positions before noise).
    """
    if name not in TOY_SETS:
        raise ValueError(f"name must be one of {sorted(TOY_SETS)}, got {name!r}")
    noisy, _ = TOY_SETS[name](n_samples, noise, random_state)
    clean, _ = TOY_SETS[name](n_samples, 0.0, random_state)
    model = KernelPCA(kernel="rbf", gamma=kernel_gamma(c, 2), center=center).fit(noisy)
    return ToyData(name, clean, noisy, model)


def toy_comparison(
    name: str, n_values: Sequence[int] = TOY_N, **toy_options: object
) -> MethodComparison:
    """:func:`compare_methods` on a 2-D toy set (:func:`toy_data` takes ``toy_options``).

    The error is the squared distance to the point's own clean position, so a
    point moved onto the curve but along it (on the square: towards a corner)
    still counts as wrong.
    """
    toy = toy_data(name, **toy_options)
    return compare_methods(toy.model, toy.clean, toy.noisy, n_values)


# --------------------------------------------------------------------- Fig. 3
@dataclass(frozen=True)
class Reconstruction:
    """Mika et al. Fig. 3 for one digit.

    Attributes
    ----------
    grid : ImageGrid
        Rows "linear" and "kernel", columns n = 1 … 20 and the original.
    fraction_linear, fraction_kernel : ndarray
        ‖z_n − x‖² / ‖x̄ − x‖² per n: the fraction of the digit's squared
        distance to the mean training digit x̄ (what no component at all
        gives) that is left after n components.
    n_values : ndarray of int
    """

    grid: ImageGrid
    fraction_linear: np.ndarray
    fraction_kernel: np.ndarray
    n_values: np.ndarray

    def to_frame(self) -> pd.DataFrame:
        """Per n, the squared distance to the digit and its fraction, both methods."""
        return pd.DataFrame(
            {
                "n": self.n_values,
                "squared_distance_linear": self.grid.errors[0, :-1],
                "squared_distance_kernel": self.grid.errors[1, :-1],
                "fraction_linear": self.fraction_linear,
                "fraction_kernel": self.fraction_kernel,
            }
        )


def reconstruction_series(
    model: DigitDenoiser,
    digit: np.ndarray,
    *,
    side: int,
    n_values: Sequence[int] = FIG3_N,
    start: Literal["mean", "digit"] = "mean",
    label: str = "",
    random_state: int | None = 0,
) -> Reconstruction:
    """Rebuild one clean digit from its first n components (Mika et al. Fig. 3).

    Linear PCA projects onto the first n axes; kernel PCA iterates eq. (10).
    The paper: de-noising "differs from reconstruction by the fact that we
    are allowed to make use of the original test data as starting points",
    so by default the iteration starts at the mean training digit;
    ``start="digit"`` starts it at the digit itself. All n are solved in one
    stacked iteration (β beyond n set to 0).
    """
    digit = np.asarray(digit, dtype=float).reshape(1, -1)
    n_values = np.asarray(n_values, dtype=int)
    expansion = _expansion(model)
    n_kernel = np.minimum(n_values, expansion.n_components)
    beta = expansion.project(digit, int(n_kernel.max()))
    stacked = np.zeros((len(n_values), beta.shape[1]))
    for j, n in enumerate(n_kernel):
        stacked[j, :n] = beta[0, :n]
    mean = model.linear_.mean_
    origin = np.repeat(mean[np.newaxis] if start == "mean" else digit, len(n_values), axis=0)
    kernel = preimages(
        PreimageProblem(expansion, stacked, origin), "fixed-point", random_state=random_state
    )
    linear = np.vstack([model.reconstruct_linear(digit, n) for n in n_values])
    reference = squared_errors(mean[np.newaxis], digit)[0]
    images = np.stack(
        [np.vstack([linear, digit]), np.vstack([kernel.Z, digit])]
    )  # (2, len(n) + 1, pixels)
    errors = np.stack([squared_errors(row, np.repeat(digit, len(row), 0)) for row in images])
    grid = ImageGrid(
        images=images,
        side=side,
        row_labels=("linear PCA", "kernel PCA"),
        column_labels=(*(str(n) for n in n_values), f"original {label}".strip()),
        errors=errors,
        restarts=kernel.total_restarts,
    )
    return Reconstruction(
        grid=grid,
        fraction_linear=errors[0, :-1] / reference,
        fraction_kernel=errors[1, :-1] / reference,
        n_values=n_values,
    )


FEW_N = 4
"""Fig. 3's "small number of components": n = 1 … FEW_N."""
MUCH_THE_SAME = 0.1
"""Fractions within this of each other are "nearly the same" (Mika et al., Fig. 3)."""


def fig3_findings(recon: Reconstruction, label: str = "") -> str:
    """What Fig. 3 shows on this digit, set against the paper's caption, with its numbers.

    The paper (Fig. 3): "For a small number of components both algorithms do
    nearly the same. For more components, ... linear PCA yields a result
    resembling the original digit, whereas kernel PCA gives a result
    resembling a more prototypical" digit.  Each half is said only where this
    digit's fractions ‖z − x‖² / ‖x̄ − x‖² bear it out; otherwise the numbers
    say how it differs.
    """

    def run(values: np.ndarray) -> str:
        return "/".join(f"{v:.2f}" for v in values)

    few = recon.n_values <= FEW_N
    linear, kernel = recon.fraction_linear[few], recon.fraction_kernel[few]
    span = f"n = {recon.n_values[few][0]}–{recon.n_values[few][-1]}"
    numbers = f"({span}: linear PCA {run(linear)}, kernel PCA {run(kernel)})"
    if np.all(np.abs(kernel - linear) <= MUCH_THE_SAME):
        first = f"With few components both rebuild much the same, as in the paper {numbers}."
    else:
        closer = "linear" if np.mean(linear) < np.mean(kernel) else "kernel"
        first = (
            "The paper says that with few components both do nearly the same; on this "
            f"digit they do not: {closer} PCA leaves less of the distance {numbers}."
        )
    n, lin, ker = recon.n_values[-1], recon.fraction_linear[-1], recon.fraction_kernel[-1]
    if lin < ker:
        second = (
            f"With more, **linear PCA comes closer to this very digit, kernel PCA draws a "
            f"more prototypical {label or 'digit'}** (n = {n}: linear PCA {lin:.2f}, "
            f"kernel PCA {ker:.2f})."
        )
    else:
        second = (
            f"At n = {n} linear PCA is not the closer here, unlike the paper's digit "
            f"(linear PCA {lin:.2f}, kernel PCA {ker:.2f})."
        )
    return f"{first} {second}"


# ------------------------------------------------------ the fixed point, paths
@dataclass(frozen=True)
class FixedPointPaths:
    """Every point's path under eq. (10), frame by frame.

    Attributes
    ----------
    positions : ndarray of shape (n_frames, n_points, n_features)
        z_t of every point at frame t (frame 0: the start); a point that has
        stopped keeps its last position.
    restarted : ndarray of shape (n_frames, n_points), bool
        The point jumped to a restart point at this frame.
    converged : ndarray of shape (n_points,), bool
        Converged within the frames shown.
    steps : ndarray of shape (n_points,), int
        Frames in which the point moved.
    problem : PreimageProblem
        The problem solved (for the contours of ρ).
    """

    positions: np.ndarray
    restarted: np.ndarray
    converged: np.ndarray
    steps: np.ndarray
    problem: PreimageProblem

    @property
    def n_frames(self) -> int:
        """Frames, the start included."""
        return self.positions.shape[0]


def fixed_point_paths(
    problem: PreimageProblem,
    *,
    max_steps: int = 60,
    tol: float = 1e-6,
    random_state: int | None = 0,
) -> FixedPointPaths:
    """Run eq. (10) step by step from ``problem.start``, recording every z_t.

    Stops when every point has converged (‖z_{t+1} − z_t‖² / N ≤ ``tol``) or
    after ``max_steps`` steps. A step that restarts a point (vanishing
    denominator, see :class:`~kpca_core.preimage.FixedPointIteration`) puts it
    on a training point: the frame records that jump.
    """
    iteration = problem.fixed_point_iteration(
        max_iter=max_steps, tol=tol, random_state=random_state
    )
    frames = [iteration.Z.copy()]
    jumps = [np.zeros(len(iteration.Z), dtype=bool)]
    while iteration.active.size and iteration.n_iter < max_steps:
        iteration.step()
        frames.append(iteration.Z.copy())
        jump = np.zeros(len(iteration.Z), dtype=bool)
        jump[iteration.restarted] = True
        jumps.append(jump)
    return FixedPointPaths(
        positions=np.stack(frames),
        restarted=np.stack(jumps),
        converged=iteration.converged.copy(),
        steps=iteration.steps.copy(),
        problem=problem,
    )


def toy_paths(
    name: str,
    *,
    n_components: int = 4,
    max_steps: int = 60,
    random_state: int = 0,
    **toy_options: object,
) -> tuple[ToyData, FixedPointPaths]:
    """:func:`fixed_point_paths` of every noisy point of a 2-D toy set (Fig. 1's setting)."""
    toy = toy_data(name, random_state=random_state, **toy_options)
    problem = GaussianExpansion.of(toy.model).problem(toy.noisy, n_components)
    return toy, fixed_point_paths(problem, max_steps=max_steps, random_state=random_state)


def rho_landscape(problem: PreimageProblem, row: int, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """ρ(z) = ‖Φ(z) − P_n Φ(y)‖² (eq. 5) of one point over the 2-D grid xs × ys.

    Returns
    -------
    ndarray of shape (len(ys), len(xs))
    """
    gx, gy = np.meshgrid(xs, ys)
    values = problem.objective_of(row, np.column_stack([gx.ravel(), gy.ravel()]))
    return values.reshape(gy.shape)
