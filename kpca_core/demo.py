"""The plain-language demo's cases: digits where kernel PCA's advantage is plain to see.

The demo shows one noisy digit cleaned by linear PCA ("classic method") and by
kernel PCA ("kernel method") with the numbers of components of Mika et al.
(1999), Fig. 4. Which digit, and how much noise, is chosen by measuring: for
every test digit the squared error to its clean original of both methods
(Mika et al., Sec. 4), and the ratio linear / kernel. Only digits with a
ratio of at least :data:`THRESHOLD` are shown, and the noise level is the one
with the most of them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from .denoise import DEMO_N, DigitDenoiser, Noise, squared_errors

THRESHOLD = 3.0
"""A convincing case: linear PCA's squared error at least this many times kernel PCA's."""


def noisy_digits(X: np.ndarray, indices: np.ndarray, noise: Noise) -> np.ndarray:
    """Each digit ``X[i]`` with noise seeded by ``i``, as the demo draws it one at a time."""
    return np.vstack([noise.apply(X[i : i + 1], int(i)) for i in indices])


@dataclass(frozen=True)
class DemoCases:
    """The measured test digits at one noise level.

    Attributes
    ----------
    level : float
        Noise level (Gaussian σ on the 0–1 intensity scale).
    ratios : ndarray of shape (n_digits,)
        Linear PCA's squared error ÷ kernel PCA's, per test digit.
    chosen : ndarray of int
        Indices of the digits with a ratio ≥ :data:`THRESHOLD`, largest ratio first.
    """

    level: float
    ratios: np.ndarray
    chosen: np.ndarray


def measure(
    model: DigitDenoiser,
    X: np.ndarray,
    level: float,
    *,
    n_linear: int = DEMO_N["linear"],
    n_kernel: int = DEMO_N["kernel"],
    threshold: float = THRESHOLD,
) -> DemoCases:
    """Both methods' squared errors on every digit of ``X`` at Gaussian noise ``level``.

    The error of a reconstruction z of the clean digit x is ‖z − x‖² (summed
    over pixels), as in :func:`kpca_core.denoise.squared_errors`.
    """
    indices = np.arange(len(X))
    noisy = noisy_digits(X, indices, Noise("gaussian", level))
    linear = squared_errors(model.reconstruct_linear(noisy, n_linear), X)
    kernel = squared_errors(model.reconstruct_kernel(noisy, n_kernel)[0], X)
    ratios = linear / np.maximum(kernel, np.finfo(float).tiny)
    good = np.flatnonzero(ratios >= threshold)
    return DemoCases(level, ratios, good[np.argsort(-ratios[good], kind="stable")])


def most_convincing(cases: Iterable[DemoCases]) -> DemoCases:
    """The noise level with the most convincing digits (the lower level on a tie)."""
    return max(cases, key=lambda c: (len(c.chosen), -c.level))
