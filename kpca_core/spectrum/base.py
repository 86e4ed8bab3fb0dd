"""What does not depend on the width: one base matrix, computed once per sweep.

Every kernel of the sweep is a function of one matrix that the width does not
change (eq. 10): the squared distances ‖x_i − x_j‖² for the Gaussian, the L1
distances ‖x_i − x_j‖₁ for the Laplacian, the Gram matrix x_i · x_j for the
polynomial kernel.  :func:`base_matrix` computes it once, with the data scale
the relative widths refer to and the smallest distance between two points,
which decides where K becomes numerically the identity
(:func:`identity_offdiagonal`).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy.spatial.distance import squareform
from sklearn.metrics.pairwise import manhattan_distances

from ..kernels import sigma_to_gamma, squared_distances

SweepKernel = Literal["rbf", "laplacian", "poly"]
Sweep = Literal["width", "degree"]


def base_matrix(
    X: np.ndarray, kernel: SweepKernel, sweep: Sweep = "width"
) -> tuple[np.ndarray, float, float]:
    """What does not depend on the width: a matrix, the data scale, min distance.

    Gaussian: squared distances ‖x_i − x_j‖²; Laplacian: L1 distances;
    polynomial: the Gram matrix x_i · x_j.  The minimum off-diagonal
    distance decides where K becomes numerically the identity.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    kernel : {"rbf", "laplacian", "poly"}
    sweep : {"width", "degree"}, default="width"

    Returns
    -------
    base : ndarray of shape (n_samples, n_samples)
    scale : float
        The median pairwise distance (Euclidean for ``"rbf"``, L1 for
        ``"laplacian"``), the mean squared norm ‖x‖² for the c of ``"poly"``,
        1 for the degree sweep.
    minimum : float
        The smallest off-diagonal distance (squared for ``"rbf"``); 0 for
        ``"poly"``.
    """
    if kernel == "poly":
        G = X @ X.T
        scale = float(np.mean(np.diag(G)))
        if sweep == "width" and not scale > 0:
            raise ValueError("every point is at the origin: x·y is 0 and c has no scale")
        return G, scale if sweep == "width" else 1.0, 0.0
    if kernel == "rbf":
        base = squared_distances(X, X)
        np.fill_diagonal(base, 0.0)
        squared = squareform(base, checks=False)
        minimum = float(squared.min())
        condensed = np.sqrt(squared)
    else:
        base = manhattan_distances(X)
        condensed = squareform(base, checks=False)
        minimum = float(condensed.min())
    scale = float(np.median(condensed))
    if not scale > 0:
        raise ValueError(
            "at least half of the pairs of points coincide: the distances have no scale; "
            "remove duplicate points"
        )
    return base, scale, minimum


def identity_offdiagonal(kernel: SweepKernel, parameter: float, minimum: float) -> float:
    """The largest off-diagonal entry of K / max K: exp(−γ · min distance)."""
    if kernel == "rbf":
        return float(np.exp(-sigma_to_gamma(parameter) * minimum))
    if kernel == "laplacian":
        return float(np.exp(-minimum / parameter))
    return 1.0  # a polynomial kernel matrix is never the identity
