"""The share of the leading eigenvalues per width, (λ₁ + … + λ_n)/Σλ, without the whole spectrum.

Some figures need one number per width, not the spectrum: the comparison with
Deręgowski & Krzyśko draws (λ₁+λ₂)/Σλ of the kernel matrix not centred, and
states it at one width, centred and not.  Its denominator needs no eigenvalue:
Σλ = tr K̃ / M (eq. 12).  Its numerator needs the n largest only, which
:func:`leading_eigenvalues` finds without the tridiagonal reduction, O(M³),
that every eigenvalue of a full problem costs:

* where the matrix has low numerical rank (wide widths), from the pivoted
  Cholesky factor, as the sweep does (:mod:`kpca_core.spectrum.low_rank`);
* elsewhere by a Lanczos iteration (ARPACK, ``scipy.sparse.linalg.eigsh``)
  to machine precision, which needs products K v only, O(M²) each; if it
  does not converge, by a full eigenvalue problem.

The matrices are those of the sweep (:func:`kpca_core.spectrum.dense.centred_kernel`:
centred from K − 1, or K itself), and eigenvalues at the rounding level are set
to zero as the sweep sets them (:mod:`kpca_core.spectrum.summary`).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from scipy.sparse.linalg import ArpackNoConvergence, eigsh

from ..kernel_pca import Progress, _check_array, _notify
from .base import SweepKernel, base_matrix
from .chosen import kernel_params
from .dense import ROUNDING_ERRORS, centred_kernel
from .low_rank import LOW_RANK_FRACTION, low_rank_eigenvalues, low_rank_order
from .summary import NOISE_MARGIN

LANCZOS_MIN_SAMPLES = 200
"""Below this many points a full eigenvalue problem costs less than the Lanczos iteration
(measured on the three rings: 120 points, 25 ms for 60 widths against 35 ms; 300 points,
127 against 96 ms)."""


def leading_eigenvalues(
    matrix: np.ndarray, n: int, tolerance: float, *, low_rank: bool = True
) -> np.ndarray | None:
    """The ``n`` largest eigenvalues of a symmetric positive semidefinite ``matrix``, descending.

    Parameters
    ----------
    matrix : ndarray of shape (M, M)
        Overwritten by the low-rank factorisation.
    n : int
    tolerance : float
        The pivoted Cholesky factorisation's (``low_rank_eigenvalues``): every
        eigenvalue left out is below M · ``tolerance``.
    low_rank : bool, default=True
        Try the pivoted Cholesky factorisation first.

    Returns
    -------
    ndarray of shape (n,), or None when ``low_rank`` was tried and the rank was too
    large for it (the matrix is then overwritten: compute it again).
    """
    M = len(matrix)
    if low_rank:
        mu = low_rank_eigenvalues(matrix, tolerance, M * LOW_RANK_FRACTION)
        return None if mu is None else mu[:n]
    if M < LANCZOS_MIN_SAMPLES or n >= M - 1:
        return np.linalg.eigvalsh(matrix)[::-1][:n]
    # a fixed start: the same answer every time (ARPACK's own start is random)
    start = np.random.default_rng(0).uniform(-1.0, 1.0, M)
    try:
        mu = eigsh(matrix, k=n, which="LA", v0=start, tol=0, return_eigenvectors=False)
    except ArpackNoConvergence:
        return np.linalg.eigvalsh(matrix)[::-1][:n]
    return np.sort(mu)[::-1]


def leading_shares(
    X: np.ndarray,
    widths: Sequence[float] | np.ndarray,
    *,
    kernel: SweepKernel = "rbf",
    n_components: int = 2,
    center: bool = False,
    progress: Progress | None = None,
) -> np.ndarray:
    """(λ₁ + … + λ_n)/Σλ of the kernel matrix of ``X`` at each width, without the spectrum.

    The same numbers as ``WidthSweep(kernel, widths=widths, center=center).fit(X)
    .share(n_components)`` (to within the rounding floor), at a fraction of its cost.

    Parameters
    ----------
    X : ndarray of shape (n_samples, n_features)
    widths : sequence of float
        σ (``"rbf"``) or ℓ (``"laplacian"``).
    kernel : {"rbf", "laplacian"}, default="rbf"
    n_components : int, default=2
    center : bool, default=False
        Centre in feature space (eq. 49) or take K itself (eq. 12 on K).
    progress : callable, optional
        Called as ``progress(fraction, message)`` after every width.

    Returns
    -------
    ndarray of shape (n_widths,)
        NaN where even the largest eigenvalue is at the rounding level.
    """
    if kernel not in ("rbf", "laplacian"):
        raise ValueError(f"kernel must be 'rbf' or 'laplacian', got {kernel!r}")
    X = _check_array(X, "X")
    widths = np.asarray(widths, dtype=float).ravel()
    if widths.size == 0 or not np.all(np.isfinite(widths) & (widths > 0)):
        raise ValueError("widths must be a non-empty list of positive numbers")
    M = X.shape[0]
    if M < 3:
        raise ValueError(f"a spectrum needs at least 3 points, got {M}")
    n = min(int(n_components), M)
    base, _, _ = base_matrix(X, kernel)
    eps = float(np.finfo(float).eps)
    shares = np.empty(widths.size)
    low_rank = True
    for done, index in enumerate(low_rank_order(widths, "width"), start=1):
        params = kernel_params(kernel, "width", float(widths[index]), degree=1, coef0=0.0)
        matrix, _, summary = centred_kernel(base, params, center=center)
        floor = ROUNDING_ERRORS * M * eps * summary[1]  # as the sweep's, in units of the matrix
        total = float(np.trace(matrix))
        # from the widest on, low rank while it lasts (the sweep's order)
        mu = leading_eigenvalues(matrix, n, floor / M, low_rank=low_rank)
        if mu is None:
            low_rank = False
            matrix, _, _ = centred_kernel(base, params, center=center)
            mu = leading_eigenvalues(matrix, n, floor / M, low_rank=False)
        mu = np.where(mu <= floor, 0.0, mu)
        shares[index] = np.nan if mu[0] <= NOISE_MARGIN * floor else mu.sum() / total
        _notify(progress, done / widths.size, f"width {done} of {widths.size}: leading eigenvalues")
    return shares
