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
        ``converged`` (boolean per row: met ``tol`` within ``max_iter``),
        ``row_restarts`` and ``row_steps`` (restarts and steps of eq. (10)
        per row).

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
    weights = expansion_weights(beta, alphas, center=center)
    iteration = FixedPointIteration(
        weights,
        X_fit,
        gamma=gamma,
        start=start,
        max_iter=max_iter,
        tol=tol,
        random_state=random_state,
    )
    iteration.run()
    info = {
        "n_iter": iteration.n_iter,
        "restarts": int(iteration.restarts.sum()),
        "converged": iteration.converged,
        "row_restarts": iteration.restarts,
        "row_steps": iteration.steps,
    }
    return iteration.Z, info


class FixedPointIteration:
    """The iteration of Mika et al. eq. (10) for many rows, one step at a time.

    :func:`fixed_point_preimage` runs it to the end; a caller that wants the
    path z_0 → z_1 → … of every row (the animation of the 2-D toy) calls
    :meth:`step` and reads ``Z`` and ``restarted`` after each step.

    Parameters
    ----------
    weights : ndarray of shape (n_points, M)
        γ_i of each row (:func:`expansion_weights`).
    X_fit : ndarray of shape (M, n_features)
    gamma : float
        k = exp(−γ‖x − y‖²).
    start : ndarray of shape (n_points, n_features)
    max_iter, tol, random_state :
        As in :func:`fixed_point_preimage`.

    Attributes
    ----------
    Z : ndarray of shape (n_points, n_features)
        The current z_t of every row.
    active : ndarray of int
        Rows still iterating.
    restarts : ndarray of int, per row
        Restarts so far (vanishing or negative denominator of eq. 10).
    restarted : ndarray of int
        Rows restarted by the last step (their z jumped to a training point).
    steps : ndarray of int, per row
        Steps of eq. (10) taken, over all starts.
    converged : ndarray of bool, per row
    n_iter : int
        Steps taken by the iteration as a whole.
    """

    def __init__(
        self,
        weights: np.ndarray,
        X_fit: np.ndarray,
        *,
        gamma: float,
        start: np.ndarray,
        max_iter: int = 300,
        tol: float = 1e-6,
        random_state: int | np.random.RandomState | None = None,
    ) -> None:
        self._rng = check_random_state(random_state)
        self._weights = weights
        self._abs_weights = np.abs(weights)
        self._X_fit = X_fit
        self._half_sq_norms = 0.5 * np.einsum("ij,ij->i", X_fit, X_fit)
        self._gamma = gamma
        self._max_iter = max_iter
        self._tol = tol
        self._fallback = X_fit[np.argmax(weights, axis=1)]
        n_points = start.shape[0]
        self.Z = np.array(start, dtype=float, copy=True)
        self.active = np.arange(n_points)
        self._iters = np.zeros(n_points, dtype=int)  # since the last (re)start
        self.steps = np.zeros(n_points, dtype=int)
        self.restarts = np.zeros(n_points, dtype=int)
        self.restarted = np.zeros(0, dtype=int)
        self.converged = np.zeros(n_points, dtype=bool)
        self.n_iter = 0

    def run(self) -> None:
        """Step until every row has converged, stalled or given up."""
        while self.active.size:
            self.step()

    def step(self) -> None:
        """One step of eq. (10) for every active row (restarting where it fails)."""
        Z, X_fit, active = self.Z, self._X_fit, self.active
        n_points, n_features = Z.shape
        self.n_iter += 1
        every = active.size == n_points
        w_active = self._weights if every else self._weights[active]
        abs_active = self._abs_weights if every else self._abs_weights[active]
        # −γ‖z − x_i‖² = −γ‖z‖² + 2γ(z · x_i − ‖x_i‖²/2).  The first term, and
        # the row maximum subtracted below, multiply numerator and denominator
        # of eq. (10) by the same positive factor, so both are dropped: the
        # largest k left in each row is 1, and exp() cannot underflow to 0
        # for points far from all x_i.
        E = Z[active] @ X_fit.T
        E -= self._half_sq_norms
        E -= E.max(axis=1, keepdims=True)
        E *= 2.0 * self._gamma
        np.exp(E, out=E)  # k(z, x_i) up to a positive factor per row
        denom = np.einsum("ij,ij->i", w_active, E)
        bad = denom <= VANISHING * np.einsum("ij,ij->i", abs_active, E)

        good = ~bad
        E *= w_active  # γ_i k(z, x_i)
        Z_new = (E @ X_fit)[good] / denom[good, np.newaxis]
        moved = active[good]
        step = np.sum((Z_new - Z[moved]) ** 2, axis=1) / n_features
        Z[moved] = Z_new
        self._iters[active] += 1
        self.steps[moved] += 1
        done_rows = moved[step <= self._tol]
        self.converged[done_rows] = True
        stalled = moved[(step > self._tol) & (self._iters[moved] >= self._max_iter)]

        failed = active[bad]
        restart_rows = failed[self.restarts[failed] < MAX_RESTARTS]
        given_up = failed[self.restarts[failed] >= MAX_RESTARTS]
        Z[given_up] = self._fallback[given_up]
        for row in restart_rows:
            Z[row] = (
                self._fallback[row]
                if self.restarts[row] == 0
                else X_fit[self._rng.randint(len(X_fit))]
            )
        self.restarts[restart_rows] += 1
        self._iters[restart_rows] = 0
        self.restarted = restart_rows

        finished = np.concatenate([done_rows, stalled, given_up])
        self.active = np.setdiff1d(active, finished, assume_unique=True)
