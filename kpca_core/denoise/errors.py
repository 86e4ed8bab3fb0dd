"""The MSE against the number of components, for each method (Mika et al. Fig. 4's numbers)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .denoiser import DigitDenoiser, Progress, notify, squared_errors

SWEEP_N: tuple[int, ...] = tuple(sorted({2**k for k in range(11)} | {3 * 2**k for k in range(9)}))
"""Numbers of components of the MSE-against-n sweep: 1, 2, 3, 4, 6, 8, 12, …, 768, 1024
(powers of 2 and three times powers of 2, evenly spread on a log axis)."""


@dataclass(frozen=True)
class ErrorCurve:
    """MSE against the number of components for one method."""

    method: str
    n: np.ndarray
    mse: np.ndarray

    @property
    def best_n(self) -> int:
        """The n with the smallest MSE."""
        return int(self.n[np.argmin(self.mse)])

    @property
    def best_mse(self) -> float:
        """The smallest MSE."""
        return float(np.min(self.mse))


@dataclass(frozen=True)
class ErrorSweep:
    """The MSE-against-n curves of the de-noising experiment.

    Attributes
    ----------
    linear, kernel : ErrorCurve
    ridge : ErrorCurve or None
        The learned (kernel ridge) pre-image, when asked for.
    restarts : int
        Fixed-point restarts over the whole sweep.
    baseline_mse : float
        MSE of the noisy digits themselves (no de-noising).
    """

    linear: ErrorCurve
    kernel: ErrorCurve
    ridge: ErrorCurve | None = None
    restarts: int = 0
    baseline_mse: float = field(default=float("nan"))

    def on_grid(self, n_values: Sequence[int]) -> ErrorSweep:
        """The same sweep restricted to the n in ``n_values`` (e.g. the paper's powers of 2)."""

        def keep(curve: ErrorCurve) -> ErrorCurve:
            mask = np.isin(curve.n, n_values)
            return ErrorCurve(curve.method, curve.n[mask], curve.mse[mask])

        return ErrorSweep(
            linear=keep(self.linear),
            kernel=keep(self.kernel),
            ridge=None if self.ridge is None else keep(self.ridge),
            restarts=self.restarts,
            baseline_mse=self.baseline_mse,
        )

    def to_frame(self) -> pd.DataFrame:
        """The curves as a table, one row per n.

        Columns ``mse_linear_pca``, ``mse_kernel_pca`` (and the learned
        pre-image's), empty where a method has no such n (linear PCA beyond the
        number of pixels), and ``mse_noisy``, the error of the noisy digits.
        """
        curves = [self.linear, self.kernel] + ([self.ridge] if self.ridge is not None else [])
        table = pd.DataFrame({"n": np.unique(np.concatenate([curve.n for curve in curves]))})
        for curve in curves:
            mse = pd.Series(curve.mse, index=curve.n)
            name = re.sub(r"[^a-z0-9]+", "_", curve.method.lower()).strip("_")
            table[f"mse_{name}"] = table["n"].map(mse)
        table["mse_noisy"] = self.baseline_mse
        return table

    @property
    def ratio_at_best(self) -> float:
        """Best linear MSE / best kernel MSE (the paper's 1.6 and 1.2)."""
        return self.linear.best_mse / self.kernel.best_mse

    def same_n_ratios(self) -> tuple[np.ndarray, np.ndarray]:
        """(n, linear MSE / kernel MSE) at the n both curves share."""
        common, i_lin, i_ker = np.intersect1d(self.linear.n, self.kernel.n, return_indices=True)
        return common, self.linear.mse[i_lin] / self.kernel.mse[i_ker]

    @property
    def largest_same_n_ratio(self) -> tuple[int, float]:
        """(n, ratio) where kernel PCA beats linear PCA most at equal n (the paper's "8×")."""
        n, ratios = self.same_n_ratios()
        best = int(np.argmax(ratios))
        return int(n[best]), float(ratios[best])


def error_sweep(
    model: DigitDenoiser,
    clean: np.ndarray,
    noisy: np.ndarray,
    n_values: Sequence[int] = SWEEP_N,
    *,
    ridge: bool = False,
    ridge_alpha: float = 1.0,
    random_state: int | None = 0,
    progress: Progress | None = None,
) -> ErrorSweep:
    """MSE against n for linear PCA, kernel PCA (fixed point) and optionally ridge.

    Each method is evaluated at the n of ``n_values`` it has components for
    (linear: at most the number of pixels or of training digits; kernel: the
    number of non-zero eigenvalues).

    Parameters
    ----------
    model : DigitDenoiser
        Fitted.
    clean, noisy : ndarray of shape (n_digits, n_pixels)
        The test digits and their noisy versions.
    n_values : sequence of int
    ridge : bool
        Also evaluate the learned pre-image (one kernel ridge fit per n).
    ridge_alpha : float
    random_state : int or None
        Seeds the fixed-point restarts.
    progress : callable, optional
        ``progress(fraction, message)`` after each n.
    """
    n_values = np.unique(np.asarray(n_values, dtype=int))
    n_linear = n_values[n_values <= model.n_linear_max_]
    n_kernel = n_values[n_values <= model.n_kernel_max_]
    n_ridge = n_kernel if ridge else n_kernel[:0]
    steps = len(n_linear) + len(n_kernel) + len(n_ridge)
    done = 0

    def tick(message: str) -> None:
        nonlocal done
        done += 1
        notify(progress, done / steps, message)

    mse_linear = []
    for n in n_linear:
        mse_linear.append(squared_errors(model.reconstruct_linear(noisy, n), clean).mean())
        tick(f"linear PCA, n = {n}")
    mse_kernel, restarts = [], 0
    for n in n_kernel:
        Z, r = model.reconstruct_kernel(noisy, n, random_state=random_state)
        mse_kernel.append(squared_errors(Z, clean).mean())
        restarts += r
        tick(f"kernel PCA, n = {n}")
    mse_ridge = []
    for n in n_ridge:
        Z, _ = model.reconstruct_kernel(noisy, n, method="ridge", ridge_alpha=ridge_alpha)
        mse_ridge.append(squared_errors(Z, clean).mean())
        tick(f"learned pre-image, n = {n}")
    return ErrorSweep(
        linear=ErrorCurve("linear PCA", n_linear, np.array(mse_linear)),
        kernel=ErrorCurve("kernel PCA", n_kernel, np.array(mse_kernel)),
        ridge=ErrorCurve("kernel PCA, learned pre-image", n_ridge, np.array(mse_ridge))
        if ridge
        else None,
        restarts=restarts,
        baseline_mse=float(squared_errors(noisy, clean).mean()),
    )
