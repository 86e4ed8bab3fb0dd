"""The eigenproblem of kernel PCA: centring, solvers, rank and normalisation.

Equation numbers refer to Schölkopf, Smola & Müller (1998):

- centring in feature space  K̃ = K − 1_M K − K 1_M + 1_M K 1_M   (eq. 49)
- the eigenproblem  M λ α = K̃ α                                 (eq. 12/46)
- the normalisation  (M λ)(α · α) = 1, i.e. ‖V‖ = 1 in F          (eq. 16/50)

Every step works on the M × M matrix in place: for M = 3000 each full copy
costs 72 MB and 20–40 ms, and the eigensolver itself is the only step that
should take time (``bench/engine.py`` prints the stages).
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, eigsh
from sklearn.utils import check_random_state
from sklearn.utils.extmath import _randomized_eigsh

from . import budget

EigenSolver = Literal["auto", "dense", "subset", "arpack", "randomized"]
EIGEN_SOLVERS: tuple[str, ...] = ("auto", "dense", "subset", "arpack", "randomized")

# Bounds of ``eigen_solver="auto"``; between them the cost model chooses
# (``bench/engine.py --solvers`` prints the solvers' times).
ARPACK_MAX_COMPONENTS = 30
SUBSET_MAX_FRACTION = 0.5
LOW_RANK = 50
ARPACK_MAX_RESTARTS = 100
LOWEST_TOL = 1e-4
LOWEST_NCV = 20


def center_kernel(
    K: np.ndarray, *, overwrite: bool = False
) -> tuple[np.ndarray, np.ndarray, float]:
    """Centre a training Gram matrix in feature space (eq. 49).

    K̃ = K − 1_M K − K 1_M + 1_M K 1_M, with (1_M)_ij = 1/M.

    Parameters
    ----------
    K : ndarray of shape (M, M), symmetric
    overwrite : bool, default=False
        Centre ``K`` itself instead of a copy.

    Returns
    -------
    K_centered : ndarray of shape (M, M)
    column_means : ndarray of shape (M,)
        (1/M) Σ_m K_mj, needed again to centre test kernels (eq. 54).
    total_mean : float
        (1/M²) Σ_mn K_mn.
    """
    column_means = K.mean(axis=0)
    total_mean = float(column_means.mean())
    K_centered = K if overwrite else K.copy()
    # One pass: K_ij − m_j − (m_i − m̄); K is symmetric, so row means = column means.
    K_centered -= column_means[np.newaxis, :]
    K_centered -= (column_means - total_mean)[:, np.newaxis]
    return K_centered, column_means, total_mean


def choose_solver(
    eigen_solver: str,
    M: int,
    k: int,
    *,
    feature_dimension: int | None,
    n_inputs: int = 2,
) -> str:
    """The fastest solver for k of M eigenpairs, by the cost model.

    The full divide-and-conquer ``eigh`` for k ≥ M/2; ARPACK whenever the
    kernel's feature space is low-dimensional (rank(K) ≤ dim F, so the Krylov
    space is exhausted after a few steps: the polynomial kernels on 2-D data of
    Fig. 2); otherwise the cheapest of ``eigh`` with ``subset_by_index``, ARPACK
    and the dense ``eigh`` by :func:`kpca_core.budget.eigen_seconds`, whose
    constants are measured (``bench/cost_model.py``).
    """
    if eigen_solver != "auto":
        return eigen_solver
    if k >= SUBSET_MAX_FRACTION * M:
        return "dense"
    low_rank = feature_dimension is not None and feature_dimension <= LOW_RANK
    if k <= ARPACK_MAX_COMPONENTS and low_rank:
        return "arpack"
    costs = {
        solver: budget.eigen_seconds(solver, M, k, n_inputs=n_inputs)
        for solver in ("subset", "arpack", "dense")
    }
    return min(costs, key=costs.__getitem__)


def eigsolve(
    K: np.ndarray,
    k: int,
    solver: str,
    *,
    random_state: int | np.random.RandomState | None,
    tol: float = 0.0,
    max_iter: int | None = None,
    iterated_power: int | str = "auto",
) -> tuple[np.ndarray, np.ndarray, str]:
    """The k leading eigenpairs (or more) of the symmetric K.

    K is overwritten when the dense solver runs (the caller's last use of it).
    ``"randomized"`` is scikit-learn's own solver
    (``sklearn.utils.extmath._randomized_eigsh``, Halko et al. 2011, with
    ``iterated_power`` power iterations): like scikit-learn's it selects the k
    eigenvalues of largest modulus, which are the k largest for a positive
    semidefinite K.  ``tol`` and ``max_iter`` are ARPACK's (``max_iter=None``:
    ``ARPACK_MAX_RESTARTS``).

    Returns
    -------
    mu : ndarray of shape (m,), m ≥ k
        Eigenvalues in the solver's order (ascending), the top k among them:
        the dense solver returns all M.  They are sorted, and the
        eigenvectors gathered, once, by the caller.
    u : ndarray of shape (M, m), orthonormal columns
    solver : str
        The solver that ran (a fallback may replace the one asked for).
    """
    M = K.shape[0]
    if solver == "arpack" and k >= M - 1:
        solver = "dense"  # ARPACK needs k < M - 1
    if solver == "arpack":
        v0 = check_random_state(random_state).uniform(-1, 1, M)
        try:
            maxiter = ARPACK_MAX_RESTARTS if max_iter is None else max_iter
            mu, u = eigsh(K, k=k, which="LA", v0=v0, tol=tol, maxiter=maxiter)
        except ArpackError:
            # A nearly flat spectrum (K ≈ I) stalls ARPACK; K = 0 stops it at once.
            solver = "subset"
    if solver == "randomized":
        mu, u = _randomized_eigsh(
            K, n_components=k, n_iter=iterated_power, random_state=random_state
        )
    if solver == "subset":
        mu, u = linalg.eigh(K, subset_by_index=(M - k, M - 1), check_finite=False)
        if mu.size < k:
            # LAPACK's index-range driver can return nothing from inside a
            # large cluster of equal eigenvalues (K̃ ≈ I − 1_M, σ → 0).
            solver = "dense"
    if solver == "dense":
        # LAPACK's divide and conquer in place.  numpy.linalg.eigh runs the
        # same routine but copies K in and the vectors out, and was 7 % slower
        # on a 3000-point Gaussian kernel (medians of 3, 4.15 s against 3.87 s).
        # scipy's wrapper holds the GIL while it runs, so the app fits large
        # models in worker processes, never in the server's threads
        # (kpca_ui.workers).  K.T is the same symmetric matrix in Fortran
        # order, which LAPACK overwrites instead of copying.
        mu, u = linalg.eigh(K.T, driver="evd", overwrite_a=True, check_finite=False)
    return mu, u, solver


def lowest_eigenvalue(K: np.ndarray, random_state: int | np.random.RandomState | None) -> float:
    """K's smallest eigenvalue, to a relative 1e-4 (it is only reported, as a ratio).

    ARPACK's products K v instead of ``eigh``'s O(M³) reduction (10× faster at M = 2000,
    where ~100 products suffice), given at most as many restarts as cost what that
    reduction does (:mod:`kpca_core.budget`): a cluster of small eigenvalues can take
    ARPACK a thousand products.  Then ``eigh``.
    """
    M = K.shape[0]
    # as many products as cost one reduction
    steps = budget.eigen_seconds("subset", M, 1) / (1e-9 * budget.ARPACK_NS * M**2)
    restarts = int(steps // LOWEST_NCV)
    if M > LOWEST_NCV and restarts >= 1:
        v0 = check_random_state(random_state).uniform(-1, 1, M)
        arpack = {"ncv": LOWEST_NCV, "tol": LOWEST_TOL, "maxiter": restarts}
        try:
            return float(eigsh(K, k=1, which="SA", v0=v0, return_eigenvectors=False, **arpack)[0])
        except ArpackError:
            pass
    return float(linalg.eigh(K, eigvals_only=True, subset_by_index=(0, 0), check_finite=False)[0])
