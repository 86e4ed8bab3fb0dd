"""Approximate pre-images for Gaussian kernels (Mika et al. 1999, section 3).

We look for z with Φ(z) ≈ P_n Φ(y), the projection of Φ(y) onto the first n
kernel principal axes (eq. 4), by maximising (Φ(z) · P_n Φ(y)) (eq. 8).  For
k(x, y) = exp(−γ‖x − y‖²) a stationary point satisfies eq. (9), which gives
the fixed-point iteration of eq. (10):

    z_{t+1} = Σ_i γ_i k(z_t, x_i) x_i / Σ_i γ_i k(z_t, x_i).

(The paper writes the weights as γ_i and the width as c = 1/γ; below the
weights are ``weights`` and the kernel coefficient ``gamma``.)
"""

from __future__ import annotations

import numpy as np
from sklearn.utils import check_random_state

# A denominator below this fraction of Σ_i |γ_i k(z, x_i)| counts as vanishing.
VANISHING = 1e-8
MAX_RESTARTS = 10


def expansion_weights(beta: np.ndarray, alphas: np.ndarray, *, center: bool) -> np.ndarray:
    """Weights γ_i of P_n Φ(y) = Σ_i γ_i Φ(x_i), one row per point y.

    Without centring γ_i = Σ_k β_k α_i^k (Mika et al. eq. 8).  With centring
    the axes are V^k = Σ_i α_i^k (Φ(x_i) − Φ̄), and adding back the mean Φ̄
    gives

        γ_i = Σ_k β_k α_i^k + (1/M)(1 − Σ_j Σ_k β_k α_j^k).

    Without the correction term the weights of a centred model sum to ~0 and
    the denominator of eq. (10) vanishes.

    Parameters
    ----------
    beta : ndarray of shape (n_points, n)
        Projections β_k of each point onto the first n axes.
    alphas : ndarray of shape (M, n)
        Normalised expansion coefficients α^k of the first n axes.
    center : bool
        Whether the model was centred in feature space.

    Returns
    -------
    ndarray of shape (n_points, M)
    """
    weights = beta @ alphas.T
    if center:
        M = alphas.shape[0]
        weights += (1.0 - weights.sum(axis=1, keepdims=True)) / M
    return weights


def fixed_point_preimage(
    beta: np.ndarray,
    alphas: np.ndarray,
    X_fit: np.ndarray,
    *,
    gamma: float,
    center: bool,
    start: np.ndarray,
    max_iter: int = 300,
    tol: float = 1e-6,
    random_state: int | np.random.RandomState | None = None,
) -> tuple[np.ndarray, dict]:
    """Iterate Mika et al. eq. (10) for all points at once.

    Parameters
    ----------
    beta : ndarray of shape (n_points, n)
        Projections of the points to de-noise onto the first n axes.
    alphas : ndarray of shape (M, n)
        Expansion coefficients of those axes.
    X_fit : ndarray of shape (M, n_features)
        The training points x_i.
    gamma : float
        Kernel coefficient, k = exp(−γ‖x − y‖²) (γ = 1/c in the paper).
    center : bool
        Whether the model was centred (adds the correction of
        :func:`expansion_weights`).
    start : ndarray of shape (n_points, n_features)
        z_0, the noisy points themselves when de-noising.
    max_iter : int
        Iterations per start.
    tol : float
        Stop a row when ‖z_{t+1} − z_t‖² / n_features ≤ tol.
    random_state :
        Seeds the choice of restart points.

    Returns
    -------
    Z : ndarray of shape (n_points, n_features)
    info : dict
        ``n_iter`` (the most iterations any row took), ``restarts`` (how many
        times a vanishing or negative denominator forced a new start),
        ``converged`` (boolean per row: met ``tol`` within ``max_iter``).

    Notes
    -----
    The denominator of eq. (10) equals (Φ(z) · P_n Φ(y)), positive near the
    optimum; where it vanishes or turns negative the row is restarted, first
    from the training point with the largest weight γ_i, then from random
    training points (the paper's remedy).  A row that exhausts its restarts
    keeps that training point.

    Each step needs k(z_t, x_i) for all rows and all x_i: one matrix product
    for the z_t · x_i, one ``exp``, and one matrix product for the numerator
    of eq. (10); everything else is a pass over the (rows × M) array, done in
    place.  Rows leave the iteration as soon as they converge.
    """
    rng = check_random_state(random_state)
    weights = expansion_weights(beta, alphas, center=center)
    abs_weights = np.abs(weights)
    half_sq_norms = 0.5 * np.einsum("ij,ij->i", X_fit, X_fit)
    n_points, n_features = start.shape
    Z = np.array(start, dtype=float, copy=True)
    fallback = X_fit[np.argmax(weights, axis=1)]

    active = np.arange(n_points)
    iters = np.zeros(n_points, dtype=int)
    restarts = np.zeros(n_points, dtype=int)
    converged = np.zeros(n_points, dtype=bool)
    n_iter = 0
    while active.size:
        n_iter += 1
        every = active.size == n_points
        w_active = weights if every else weights[active]
        abs_active = abs_weights if every else abs_weights[active]
        # −γ‖z − x_i‖² = −γ‖z‖² + 2γ(z · x_i − ‖x_i‖²/2).  The first term, and
        # the row maximum subtracted below, multiply numerator and denominator
        # of eq. (10) by the same positive factor, so both are dropped: the
        # largest k left in each row is 1, and exp() cannot underflow to 0
        # for points far from all x_i.
        E = Z[active] @ X_fit.T
        E -= half_sq_norms
        E -= E.max(axis=1, keepdims=True)
        E *= 2.0 * gamma
        np.exp(E, out=E)  # k(z, x_i) up to a positive factor per row
        denom = np.einsum("ij,ij->i", w_active, E)
        bad = denom <= VANISHING * np.einsum("ij,ij->i", abs_active, E)

        good = ~bad
        E *= w_active  # γ_i k(z, x_i)
        Z_new = (E @ X_fit)[good] / denom[good, np.newaxis]
        step = np.sum((Z_new - Z[active[good]]) ** 2, axis=1) / n_features
        Z[active[good]] = Z_new
        iters[active] += 1
        done_rows = active[good][step <= tol]
        converged[done_rows] = True
        stalled = active[good][(step > tol) & (iters[active[good]] >= max_iter)]

        failed = active[bad]
        restart_rows = failed[restarts[failed] < MAX_RESTARTS]
        given_up = failed[restarts[failed] >= MAX_RESTARTS]
        Z[given_up] = fallback[given_up]
        for row in restart_rows:
            Z[row] = fallback[row] if restarts[row] == 0 else X_fit[rng.randint(len(X_fit))]
        restarts[restart_rows] += 1
        iters[restart_rows] = 0

        finished = np.concatenate([done_rows, stalled, given_up])
        active = np.setdiff1d(active, finished, assume_unique=True)
    info = {
        "n_iter": n_iter,
        "restarts": int(restarts.sum()),
        "converged": converged,
    }
    return Z, info
