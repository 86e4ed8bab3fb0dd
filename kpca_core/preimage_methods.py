"""Four ways to find a pre-image z with Φ(z) ≈ P_n Φ(y), side by side.

Every method answers the same question for a fitted Gaussian kernel PCA,
k(x, y) = exp(−γ‖x − y‖²): given the projections β_k of a point y onto the
first n axes, find z in input space whose image is close to
Ψ = P_n Φ(y) = Σ_i γ_i Φ(x_i) (Mika et al. 1999, eqs. 4 and 8; with
centring, Ψ is the projection of Φ̃(y) plus the mean Φ̄, see
:func:`kpca_core.preimage.expansion_weights`).

=======================  =========================================  ==========
method                   idea                                       paper
=======================  =========================================  ==========
``"fixed-point"``        iterate eq. (10) from the noisy point      Mika et al. 1999
``"distance"``           feature-space distances to the nearest     Kwok & Tsang 2004
                         training points → input distances → MDS
``"gradient"``           gradient descent on ρ(z) (eq. 7)           Mika et al. 1999
``"ridge"``              a kernel ridge map from the n components   Bakır et al. 2004
                         back to input space, learned on the
                         training points
=======================  =========================================  ==========

All of them are vectorised over the rows and return a :class:`Preimages`:
the pre-images and, per row, the restarts, the steps taken and whether the
method met its own criterion (its "failures").

References
----------
Mika, Schölkopf, Smola, Müller, Scholz, Rätsch (1999). Kernel PCA and
de-noising in feature spaces. NIPS 11.
Kwok, Tsang (2004). The pre-image problem in kernel methods. IEEE Trans.
Neural Networks 15(6), 1517–1525.
Bakır, Weston, Schölkopf (2004). Learning to find pre-images. NIPS 16.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
from sklearn.kernel_ridge import KernelRidge
from sklearn.metrics.pairwise import rbf_kernel

from .kernel_pca import KernelPCA
from .preimage import FixedPointIteration, expansion_weights

Method = Literal["fixed-point", "distance", "gradient", "ridge"]
METHODS: tuple[Method, ...] = ("fixed-point", "distance", "gradient", "ridge")
"""The pre-image methods, in the order they are shown."""
METHOD_LABELS: dict[str, str] = {
    "fixed-point": "fixed point (Mika et al. 1999, eq. 10)",
    "distance": "distance constraints / MDS (Kwok & Tsang 2004)",
    "gradient": "gradient descent on ρ (Mika et al. 1999, eq. 7)",
    "ridge": "learned kernel ridge map (Bakır et al. 2004)",
}
"""What each method is called in figures and tables."""

ARMIJO = 1e-4
"""Sufficient decrease of the gradient method's line search: ρ must fall by ARMIJO η‖∇ρ‖²."""
MAX_HALVINGS = 40
"""Halvings of the step before a gradient step counts as failed."""


# ------------------------------------------------------------------ the model
@dataclass(frozen=True)
class GaussianExpansion:
    """A fitted Gaussian kernel PCA, as the pre-image methods read it.

    Attributes
    ----------
    X_fit : ndarray of shape (M, n_features)
        The training points x_i.
    alphas : ndarray of shape (M, n_components)
        Normalised expansion coefficients α^k, (Mλ_k)(α^k · α^k) = 1.
    mu : ndarray of shape (n_components,)
        Mλ_k, the eigenvalues of the (centred) kernel matrix.
    gamma : float
        k(x, y) = exp(−γ‖x − y‖²).
    center : bool
        Whether the model was centred in feature space.
    column_means : ndarray of shape (M,)
        (1/M) Σ_j k(x_i, x_j); zeros without centring.
    total_mean : float
        (1/M²) Σ_ij k(x_i, x_j); zero without centring.
    """

    X_fit: np.ndarray
    alphas: np.ndarray
    mu: np.ndarray
    gamma: float
    center: bool
    column_means: np.ndarray
    total_mean: float

    @classmethod
    def of(cls, model: KernelPCA) -> GaussianExpansion:
        """Read a fitted :class:`~kpca_core.KernelPCA` with the ``"rbf"`` kernel."""
        if model.kernel != "rbf":
            raise ValueError(
                f"the pre-image methods need the Gaussian (rbf) kernel, got {model.kernel!r}"
            )
        X_fit = np.asarray(model.X_fit_, dtype=float)
        M = X_fit.shape[0]
        if model.center:
            means = rbf_kernel(X_fit, gamma=model.gamma_).mean(axis=0)
            total = float(means.mean())
        else:
            means, total = np.zeros(M), 0.0
        return cls(
            X_fit=X_fit,
            alphas=model.alphas_,
            mu=model.eigenvalues_ * M,
            gamma=float(model.gamma_),
            center=bool(model.center),
            column_means=means,
            total_mean=total,
        )

    @property
    def n_components(self) -> int:
        """How many axes the model has."""
        return self.alphas.shape[1]

    def project(self, Y: np.ndarray, n: int) -> np.ndarray:
        """β_k = Σ_i α_i^k k̃(x_i, y) for k ≤ n (eq. 51, centred by eq. 54 if the model is)."""
        K = rbf_kernel(np.asarray(Y, dtype=float), self.X_fit, gamma=self.gamma)
        if self.center:
            K -= K.mean(axis=1, keepdims=True)
            K -= self.column_means
            K += self.total_mean
        return K @ self.alphas[:, :n]

    def problem(self, Y: np.ndarray, n: int, *, start: np.ndarray | None = None) -> PreimageProblem:
        """The pre-image problem of P_n Φ(y) for each row y of ``Y`` (n capped at the axes)."""
        if int(n) != n or n < 1:
            raise ValueError(f"the number of components must be a positive integer, got {n!r}")
        Y = np.asarray(Y, dtype=float)
        n = min(int(n), self.n_components)
        return PreimageProblem(self, self.project(Y, n), Y if start is None else start)


@dataclass(frozen=True)
class PreimageProblem:
    """Find z_r with Φ(z_r) ≈ Ψ_r = Σ_i γ_ri Φ(x_i), one row r per point.

    Attributes
    ----------
    expansion : GaussianExpansion
    beta : ndarray of shape (n_points, n)
        Projections onto the first n axes; n is ``beta.shape[1]``. Rows may
        be zero-padded to reach fewer axes (Σ_{k≤n} with β_k = 0 beyond).
    start : ndarray of shape (n_points, n_features)
        Starting points of the iterative methods (the noisy points when
        de-noising, as in the paper).
    """

    expansion: GaussianExpansion
    beta: np.ndarray
    start: np.ndarray

    @property
    def n(self) -> int:
        """The number of components of P_n."""
        return self.beta.shape[1]

    @cached_property
    def weights(self) -> np.ndarray:
        """γ_ri of Ψ_r = Σ_i γ_ri Φ(x_i) (eq. 8, with the centring correction)."""
        e = self.expansion
        return expansion_weights(self.beta, e.alphas[:, : self.n], center=e.center)

    @cached_property
    def dot_train(self) -> np.ndarray:
        """(Ψ_r · Φ(x_i)) = (Kγ_r)_i, shape (n_points, M), without forming K.

        K̃α^k = Mλ_k α^k gives K̃γ = Σ_k Mλ_k β_k α^k; with centring
        K = K̃ + 1mᵀ + m1ᵀ − t11ᵀ (m the column means, t the total mean)
        and Σ_i γ_i = 1, so Kγ = K̃γ + m + (mᵀγ − t)1.
        """
        e = self.expansion
        dots = (self.beta * e.mu[: self.n]) @ e.alphas[:, : self.n].T
        if e.center:
            dots += e.column_means
            dots += (self.weights @ e.column_means - e.total_mean)[:, np.newaxis]
        return dots

    @cached_property
    def target_sq_norm(self) -> np.ndarray:
        """‖Ψ_r‖² = γ_rᵀ K γ_r, per row (the Ω of eq. 7)."""
        return np.einsum("ij,ij->i", self.weights, self.dot_train)

    def objective(self, Z: np.ndarray) -> np.ndarray:
        """ρ(z_r) = ‖Φ(z_r) − Ψ_r‖² = 1 − 2 Σ_i γ_ri k(z_r, x_i) + ‖Ψ_r‖² (eqs. 5–7), per row."""
        Z = np.asarray(Z, dtype=float)
        if Z.shape[0] != self.beta.shape[0]:
            raise ValueError(
                f"Z must have one row per point ({self.beta.shape[0]}), got {Z.shape[0]}"
            )
        K = rbf_kernel(Z, self.expansion.X_fit, gamma=self.expansion.gamma)
        return 1.0 - 2.0 * np.einsum("ij,ij->i", K, self.weights) + self.target_sq_norm

    def objective_of(self, row: int, Z: np.ndarray) -> np.ndarray:
        """ρ at many points z (rows of ``Z``) for the one target Ψ of ``row`` (its landscape)."""
        K = rbf_kernel(np.asarray(Z, dtype=float), self.expansion.X_fit, gamma=self.expansion.gamma)
        return 1.0 - 2.0 * (K @ self.weights[row]) + self.target_sq_norm[row]

    def fixed_point_iteration(
        self,
        *,
        max_iter: int = 300,
        tol: float = 1e-6,
        random_state: int | np.random.RandomState | None = 0,
    ) -> FixedPointIteration:
        """Eq. (10) for every row, from ``start``, ready to step (not yet run)."""
        return FixedPointIteration(
            self.weights,
            self.expansion.X_fit,
            gamma=self.expansion.gamma,
            start=self.start,
            max_iter=max_iter,
            tol=tol,
            random_state=random_state,
        )

    def train_distances(self) -> np.ndarray:
        """‖Ψ_r − Φ(x_i)‖² = ‖Ψ_r‖² + 1 − 2(Ψ_r · Φ(x_i)), shape (n_points, M)."""
        return self.target_sq_norm[:, np.newaxis] + 1.0 - 2.0 * self.dot_train


@dataclass(frozen=True)
class Preimages:
    """Pre-images found by one method, with its per-row failures.

    Attributes
    ----------
    Z : ndarray of shape (n_points, n_features)
    method : str
        One of :data:`METHODS`.
    restarts : ndarray of int, per row
        Fresh starts (fixed point: a vanishing denominator of eq. 10).
    steps : ndarray of int, per row
        Iterations taken (0 for the non-iterative methods).
    converged : ndarray of bool, per row
        Whether the row met the method's own criterion: converged within the
        iteration limit; for the distance method, every neighbour's feature
        distance could be turned into an input distance.
    """

    Z: np.ndarray
    method: str
    restarts: np.ndarray
    steps: np.ndarray
    converged: np.ndarray

    @property
    def failures(self) -> int:
        """Rows that did not meet the method's criterion."""
        return int(np.count_nonzero(~self.converged))

    @property
    def total_restarts(self) -> int:
        """Restarts over all rows."""
        return int(self.restarts.sum())


# -------------------------------------------------------------------- methods
def fixed_point(
    problem: PreimageProblem,
    *,
    max_iter: int = 300,
    tol: float = 1e-6,
    random_state: int | np.random.RandomState | None = 0,
) -> Preimages:
    """Mika et al. (1999) eq. (10): z ← Σ γ_i k(z, x_i) x_i / Σ γ_i k(z, x_i).

    Started at ``problem.start``; see :class:`kpca_core.preimage.FixedPointIteration`
    for the restarts and the stopping rule (‖z_{t+1} − z_t‖² / N ≤ ``tol``).
    """
    iteration = problem.fixed_point_iteration(max_iter=max_iter, tol=tol, random_state=random_state)
    iteration.run()
    return Preimages(
        iteration.Z, "fixed-point", iteration.restarts, iteration.steps, iteration.converged
    )


def mds_point(neighbours: np.ndarray, sq_distances: np.ndarray) -> np.ndarray:
    """The point whose squared distances to given points are closest to given ones.

    Kwok & Tsang (2004), Sect. III-B (eqs. 17–22): centre the neighbours,
    X_c = X − x̄; a z with ‖z − x_j‖² = d_j² satisfies
    2 X_c (z − x̄) = d_0² − d² (d_0² = ‖x_j − x̄‖²) once the common ‖z − x̄‖²
    term is removed by the centring; the least-squares, minimum-norm
    solution z = x̄ + ½ X_c⁺ (d_0² − d²) lies in the span of the neighbours
    (their −½ Λ⁻¹ Vᵀ (d² − d_0²) in SVD form).

    Parameters
    ----------
    neighbours : ndarray of shape (n_points, k, n_features)
        The k neighbours of each row.
    sq_distances : ndarray of shape (n_points, k)
        The wanted squared input-space distances d_j².

    Returns
    -------
    ndarray of shape (n_points, n_features)
    """
    centre = neighbours.mean(axis=1, keepdims=True)
    Xc = neighbours - centre
    d0 = np.einsum("rkd,rkd->rk", Xc, Xc)
    rhs = 0.5 * (d0 - sq_distances)
    return centre[:, 0] + np.einsum("rdk,rk->rd", np.linalg.pinv(Xc, rcond=1e-10), rhs)


def distance_constraint(problem: PreimageProblem, *, n_neighbours: int = 10) -> Preimages:
    """Kwok & Tsang (2004): pre-image from distances to the nearest training points.

    Non-iterative. For each row: the feature-space distances
    d̃_i² = ‖Ψ − Φ(x_i)‖² to all training points (their eq. 10); the
    ``n_neighbours`` nearest x_i; their input-space distances from
    d̃² = 2 − 2 exp(−γ d²), i.e. d² = −ln(1 − d̃²/2) / γ (their eq. 14, for
    Gaussian kernels); and the point matching those distances best
    (:func:`mds_point`). Where 1 − d̃²/2 ≤ 0 no input distance fits: the
    distance is taken as the largest that does, and the row counts as not
    converged.
    """
    e = problem.expansion
    k = min(int(n_neighbours), e.X_fit.shape[0])
    distances = problem.train_distances()
    nearest = np.argpartition(distances, k - 1, axis=1)[:, :k]
    feature_sq = np.take_along_axis(distances, nearest, axis=1)
    similarity = 1.0 - 0.5 * feature_sq  # exp(−γ d²) if Φ(z) were exactly Ψ
    tiny = np.finfo(float).tiny
    ok = np.all(similarity > tiny, axis=1)
    input_sq = -np.log(np.clip(similarity, tiny, 1.0)) / e.gamma
    Z = mds_point(e.X_fit[nearest], input_sq)
    n_points = Z.shape[0]
    zeros = np.zeros(n_points, dtype=int)
    return Preimages(Z, "distance", zeros, zeros.copy(), ok)


def gradient_descent(
    problem: PreimageProblem, *, max_iter: int = 500, tol: float = 1e-6
) -> Preimages:
    """Mika et al. (1999) eq. (7): minimise ρ(z) by gradient descent.

    ∇ρ(z) = 4γ Σ_i γ_i k(z, x_i)(z − x_i). A step z ← z − η∇ρ is accepted
    when ρ falls by at least :data:`ARMIJO` η‖∇ρ‖² (Armijo), else η is
    halved and tried again; after an accepted step η grows by half. The
    first η is 1/(4γ Σ|γ_i| k(z_0, x_i)), the curvature of ρ's isotropic
    part at the start with every γ_i taken positive. A row stops when
    a step of length 1/(4γ Σ|γ_i| k(z, x_i)) along −∇ρ would move it by
    ‖Δz‖² / N ≤ ``tol`` (the fixed-point rule's scale: eq. (10) is this
    descent with η = 1/(4γ Σ γ_i k(z, x_i)), see the paper's remark after
    eq. 9); rows still moving after ``max_iter`` steps, or whose step halved
    :data:`MAX_HALVINGS` times without descent, have not converged.
    """
    e = problem.expansion
    X, gamma, W = e.X_fit, e.gamma, problem.weights
    Z = np.array(problem.start, dtype=float, copy=True)
    n_points, n_features = Z.shape
    steps = np.zeros(n_points, dtype=int)
    converged = np.zeros(n_points, dtype=bool)
    failed = np.zeros(n_points, dtype=bool)

    def evaluate(rows: np.ndarray, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(−½ρ up to the constant, kernel rows γ_i k(z, x_i)) at ``points``."""
        weighted = rbf_kernel(points, X, gamma=gamma)
        weighted *= W[rows]
        return weighted.sum(axis=1), weighted

    def gradient(points: np.ndarray, weighted: np.ndarray) -> np.ndarray:
        return 4.0 * gamma * (weighted.sum(axis=1)[:, np.newaxis] * points - weighted @ X)

    active = np.arange(n_points)
    score, weighted = evaluate(active, Z)
    grad = gradient(Z, weighted)
    eta = 1.0 / np.maximum(4.0 * gamma * np.abs(weighted).sum(axis=1), np.finfo(float).tiny)
    for _ in range(max_iter):
        if not active.size:
            break
        g = grad
        sq_g = np.einsum("ij,ij->i", g, g)
        pending = np.arange(active.size)
        new_Z = np.empty_like(g)
        new_score = np.empty(active.size)
        new_weighted = np.empty_like(weighted)
        for _ in range(MAX_HALVINGS):
            rows = active[pending]
            trial = Z[rows] - eta[rows, np.newaxis] * g[pending]
            s, w = evaluate(rows, trial)
            # ρ = const − 2·score: descent of ρ by ARMIJO η‖g‖² is a rise of score by half that.
            ok = s >= score[pending] + 0.5 * ARMIJO * eta[rows] * sq_g[pending]
            done = pending[ok]
            new_Z[done], new_score[done], new_weighted[done] = trial[ok], s[ok], w[ok]
            pending = pending[~ok]
            eta[rows[~ok]] *= 0.5
            if not pending.size:
                break
        stuck = active[pending]
        failed[stuck] = True
        moved_local = np.setdiff1d(np.arange(active.size), pending, assume_unique=True)
        moved = active[moved_local]
        Z[moved] = new_Z[moved_local]
        steps[moved] += 1
        eta[moved] *= 1.5
        score_next = new_score[moved_local]
        weighted_next = new_weighted[moved_local]
        grad_next = gradient(Z[moved], weighted_next)
        # the length of a fixed-point-sized step along −∇ρ
        size = 4.0 * gamma * np.abs(weighted_next).sum(axis=1)
        sq_step = np.einsum("ij,ij->i", grad_next, grad_next) / np.maximum(size, 1e-300) ** 2
        still = sq_step / n_features > tol
        converged[moved[~still]] = True
        active = moved[still]
        score, weighted, grad = score_next[still], weighted_next[still], grad_next[still]
    return Preimages(Z, "gradient", np.zeros(n_points, dtype=int), steps, converged & ~failed)


def learned_ridge(problem: PreimageProblem, *, alpha: float = 1.0) -> Preimages:
    """Bakır, Weston & Schölkopf (2004): a learned map from components to input space.

    Kernel ridge regression (scikit-learn's ``KernelRidge``, the Gaussian
    kernel of the model, ridge ``alpha``) from the first n components of the
    training points, K̃α^k = Mλ_k α^k, to the training points themselves;
    the pre-image of y is the map at β(y). This is what
    ``sklearn.decomposition.KernelPCA(fit_inverse_transform=True)`` does.
    Non-iterative: no restarts, every row converged.
    """
    e = problem.expansion
    train = e.alphas[:, : problem.n] * e.mu[: problem.n]
    model = KernelRidge(alpha=alpha, kernel="rbf", gamma=e.gamma).fit(train, e.X_fit)
    Z = model.predict(problem.beta)
    n_points = Z.shape[0]
    zeros = np.zeros(n_points, dtype=int)
    return Preimages(Z, "ridge", zeros, zeros.copy(), np.ones(n_points, dtype=bool))


SOLVERS: dict[str, Callable[..., Preimages]] = {
    "fixed-point": fixed_point,
    "distance": distance_constraint,
    "gradient": gradient_descent,
    "ridge": learned_ridge,
}


def preimages(problem: PreimageProblem, method: Method, **options: object) -> Preimages:
    """Solve ``problem`` with one of :data:`METHODS` (``options`` go to that method)."""
    if method not in SOLVERS:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    return SOLVERS[method](problem, **options)
