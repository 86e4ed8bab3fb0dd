"""From eigenvalues per width to what is shown: rounding clipped, limits labelled, ratios.

Eigenvalues at the rounding level (the floor, ``ROUNDING_ERRORS`` in
:mod:`kpca_core.spectrum.dense`) are clipped to zero and counted; widths
where K is numerically the identity or a constant are labelled (the
regimes); the rest is normalised to λ_k/Σλ.

The two limits, for M distinct points and the Gaussian kernel:

* σ → 0: K → I, so K̃ → I − 1_M, whose eigenvalues are 1 (M − 1 times) and 0.
  Every variance λ_k = 1/M, and each is a share 1/(M − 1) of the total.
* σ → ∞: K̃ ≈ X̃ X̃ᵀ / σ² (X̃ the centred data), the linear-PCA Gram matrix, so
  λ_k/Σλ tends to linear PCA's explained-variance ratios; on 2-D data the
  first two components take all the variance, (λ₁ + λ₂)/Σλ → 1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .dense import ROUNDING_ERRORS

NOISE_MARGIN = 100.0
"""A width's spectrum is rounding noise when the largest centred eigenvalue is
below this multiple of the rounding floor (it has fewer than two correct
digits): it is labelled "constant" and its ratios are NaN, not plotted."""

IDENTITY = "identity"
CONSTANT = "constant"


@dataclass(frozen=True)
class Summary:
    """The fitted attributes of ``WidthSweep`` that :func:`summarise` computes."""

    eigenvalues: np.ndarray
    ratios: np.ndarray
    regime: np.ndarray
    floor: np.ndarray
    n_clipped: np.ndarray
    negative_ratio: np.ndarray


def summarise(
    mu: np.ndarray, entries: np.ndarray, eps: float, offdiagonal: np.ndarray, minimum: float
) -> Summary:
    """Clip rounding, detect the two limits, normalise.

    Parameters
    ----------
    mu : ndarray of shape (n_widths, M)
        eig(K̃) per width, descending (M λ, eq. 12).
    entries : ndarray of shape (n_widths, 4)
        Per width: the scale, max|E|, max E − min E and the offset of
        :func:`kpca_core.spectrum.dense.kernel_minus_constant`.
    eps : float
        The machine epsilon of the working precision.
    offdiagonal : ndarray of shape (n_widths,)
        The largest off-diagonal entry of K / max K per width
        (:func:`kpca_core.spectrum.base.identity_offdiagonal`).
    minimum : float
        The smallest distance between two points.
    """
    n, M = mu.shape
    scale, spread, variation, offset = entries.T
    # the entries of E are exact to ε max|E|, so this bounds the rounding
    floor = ROUNDING_ERRORS * M * eps * spread * scale  # in units of eig(K̃)
    top = mu[:, 0]
    negative_ratio = np.where(
        (mu[:, -1] < 0) & (top > 0), -mu[:, -1] / np.where(top > 0, top, 1.0), 0.0
    )
    clipped = mu <= floor[:, np.newaxis]
    n_clipped = clipped.sum(axis=1)
    mu = np.where(clipped, 0.0, mu)

    regime = np.full(n, "", dtype=object)
    regime[(offdiagonal <= eps) & (minimum > 0)] = IDENTITY
    # K = scale (offset + E) rounds to a constant matrix when the spread of
    # its entries is below ε times their size
    largest = np.maximum(np.abs(offset + spread), np.abs(offset - spread))
    regime[variation <= eps * largest] = CONSTANT
    noise = top <= NOISE_MARGIN * floor
    regime[noise] = CONSTANT

    totals = mu.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        ratios = mu / totals
    ratios[noise] = np.nan
    return Summary(
        eigenvalues=mu / M,
        ratios=ratios,
        regime=regime,
        floor=floor / M,
        n_clipped=n_clipped,
        negative_ratio=negative_ratio,
    )


def share(ratios: np.ndarray, n_components: int) -> np.ndarray:
    """(λ₁ + … + λ_n)/Σλ per width; NaN at numerically constant widths."""
    return ratios[:, :n_components].sum(axis=1)


def effective_components(ratios: np.ndarray, fraction: float) -> np.ndarray:
    """min{n : Σ_{k≤n} λ_k ≥ fraction · Σλ} per width; NaN at constant widths."""
    cumulative = np.cumsum(np.nan_to_num(ratios), axis=1)
    # tolerate rounding in the cumulative sum, so that fraction = 1 is reachable
    reached = cumulative >= fraction - 1e-12
    counts = reached.argmax(axis=1).astype(float) + 1.0
    counts[np.isnan(ratios[:, 0])] = np.nan
    return counts
