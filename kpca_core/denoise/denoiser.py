"""The de-noiser: linear PCA and Gaussian kernel PCA fitted on the same digits.

A noisy digit y is reconstructed from its first n components: by linear PCA,
projecting onto the first n principal axes; by kernel PCA, an approximate
pre-image z of P_n Φ(y) (Mika et al. eqs. 4–10, :mod:`kpca_core.preimage`).
:func:`squared_errors` is the error measure of the package.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import numpy as np
from sklearn.decomposition import PCA

from ..kernel_pca import KernelPCA
from .settings import kernel_gamma

Progress = Callable[[float, str], None]
PreimageMethod = Literal["fixed-point", "ridge"]


def notify(progress: Progress | None, fraction: float, message: str) -> None:
    """Report ``fraction`` done and what is being computed, if anyone listens."""
    if progress is not None:
        progress(fraction, message)


def scaled(progress: Progress | None, begin: float, end: float) -> Progress | None:
    """A callback reporting ``[0, 1]`` of a sub-task as ``[begin, end]`` of the whole."""
    if progress is None:
        return None
    return lambda fraction, message: progress(begin + (end - begin) * fraction, message)


def squared_errors(Z: np.ndarray, X: np.ndarray) -> np.ndarray:
    """‖z − x‖² of each reconstruction z to its clean original x (summed over pixels)."""
    return np.sum((np.asarray(Z) - np.asarray(X)) ** 2, axis=1)


class DigitDenoiser:
    """Linear PCA and Gaussian kernel PCA fitted on the same training digits.

    Parameters
    ----------
    c : float, default=0.5
        Kernel width per input dimension, k(x, y) = exp(−‖x − y‖² / (N c))
        (Mika et al. Sect. 4).
    center : bool, default=False
        Centre in feature space (the pre-image weights then carry the
        centring correction, :func:`kpca_core.preimage.expansion_weights`).

    Attributes
    ----------
    linear_ : sklearn.decomposition.PCA
        All min(M, N) linear components.
    kernel_ : KernelPCA
        All kernel components with a non-zero eigenvalue.
    n_linear_max_, n_kernel_max_ : int
        How many components each method has.
    """

    def __init__(self, c: float = 0.5, *, center: bool = False) -> None:
        self.c = c
        self.center = center

    def fit(self, X: np.ndarray, *, progress: Progress | None = None) -> DigitDenoiser:
        """Fit both models on the training digits ``X`` (n_digits, n_pixels)."""
        X = np.asarray(X, dtype=float)
        notify(progress, 0.0, "linear PCA")
        self.linear_ = PCA(svd_solver="full").fit(X)
        self.kernel_ = KernelPCA(
            kernel="rbf",
            gamma=kernel_gamma(self.c, X.shape[1]),
            center=self.center,
            eigen_solver="dense",
        ).fit(X, progress=scaled(progress, 0.05, 1.0))
        self.n_linear_max_ = int(self.linear_.n_components_)
        self.n_kernel_max_ = int(self.kernel_.n_components_)
        return self

    def reconstruct_linear(self, Y: np.ndarray, n: int) -> np.ndarray:
        """x̄ + Σ_{k≤n} ((y − x̄) · v_k) v_k: projection onto the first n principal axes.

        ``n`` is capped at the number of components (then nothing is removed).
        """
        n = min(int(n), self.n_linear_max_)
        V = self.linear_.components_[:n]
        return (np.asarray(Y, dtype=float) - self.linear_.mean_) @ V.T @ V + self.linear_.mean_

    def reconstruct_kernel(
        self,
        Y: np.ndarray,
        n: int,
        *,
        method: PreimageMethod = "fixed-point",
        ridge_alpha: float = 1.0,
        random_state: int | None = 0,
    ) -> tuple[np.ndarray, int]:
        """Approximate pre-images of P_n Φ(y) (Mika et al. eqs. 4–10), and the restart count.

        ``method="fixed-point"`` iterates eq. (10) from the noisy digit;
        ``"ridge"`` is scikit-learn's learned pre-image (kernel ridge
        regression with parameter ``ridge_alpha``). ``n`` is capped at the
        number of kernel components.
        """
        Z, info = self.kernel_.preimage(
            Y,
            min(int(n), self.n_kernel_max_),
            method=method,
            ridge_alpha=ridge_alpha,
            random_state=random_state,
            return_info=True,
        )
        return Z, int(info["restarts"])
