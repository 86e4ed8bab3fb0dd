"""Kernel functions and the width conventions found in the literature.

Every kernel is k(x, y) = (Φ(x) · Φ(y)) for some feature map Φ (Schölkopf,
Smola & Müller 1998, eq. 18).  Why most formulas are written out here and
not taken from ``sklearn.metrics.pairwise``: see :func:`kernel_matrix`; sparse
input, ``"laplacian"`` and callables go to ``pairwise.pairwise_kernels``.

Width conventions for the Gaussian kernel exp(−γ‖x − y‖²):

=====================  ==========================  =====================
paper                  written as                  γ
=====================  ==========================  =====================
Schölkopf et al. (62)  exp(−‖x − y‖² / (2σ²))      1 / (2σ²)
Mika et al. (1999)     exp(−‖x − y‖² / c)          1 / c
scikit-learn           exp(−γ‖x − y‖²)             γ
=====================  ==========================  =====================
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from typing import Literal

import numpy as np
from scipy import sparse
from sklearn.metrics import pairwise
from sklearn.preprocessing import PolynomialFeatures
from sklearn.utils.extmath import row_norms

KernelName = Literal["linear", "poly", "rbf", "laplacian", "sigmoid", "cosine", "precomputed"]
KERNELS: tuple[str, ...] = (
    "linear",
    "poly",
    "rbf",
    "laplacian",
    "sigmoid",
    "cosine",
    "precomputed",
)
WRITTEN_OUT = ("linear", "poly", "rbf", "sigmoid", "cosine")


def sigma_to_gamma(sigma: float) -> float:
    """γ of exp(−γ‖x−y‖²) for the width σ of exp(−‖x−y‖²/(2σ²)) (eq. 62)."""
    return 1.0 / (2.0 * float(sigma) ** 2)


def gamma_to_sigma(gamma: float) -> float:
    """Width σ of exp(−‖x−y‖²/(2σ²)) for γ of exp(−γ‖x−y‖²)."""
    return float(np.sqrt(1.0 / (2.0 * float(gamma))))


def c_to_gamma(c: float) -> float:
    """γ of exp(−γ‖x−y‖²) for Mika et al.'s c in exp(−‖x−y‖²/c)."""
    return 1.0 / float(c)


def gamma_to_c(gamma: float) -> float:
    """Mika et al.'s c in exp(−‖x−y‖²/c) for γ of exp(−γ‖x−y‖²)."""
    return 1.0 / float(gamma)


def integer_power(base: np.ndarray, degree: int) -> np.ndarray:
    """``base ** degree`` for a positive integer degree, by repeated squaring.

    ``base`` is overwritten.  ``np.power`` with a float exponent other than 2
    calls ``pow`` per element; multiplication is several times faster
    (``bench/engine.py``).
    """
    if degree < 1 or int(degree) != degree:
        raise ValueError(f"degree must be a positive integer, got {degree!r}")
    degree = int(degree)
    result = None
    while True:
        if degree & 1:
            if degree == 1:
                return base if result is None else np.multiply(result, base, out=result)
            result = base.copy() if result is None else np.multiply(result, base, out=result)
        degree >>= 1
        np.multiply(base, base, out=base)


def squared_distances(X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """‖x − y‖² = ‖x‖² − 2 x·y + ‖y‖², clipped at 0 against rounding."""
    D = X @ Y.T
    D *= -2.0
    D += np.einsum("ij,ij->i", X, X)[:, np.newaxis]
    D += np.einsum("ij,ij->i", Y, Y)[np.newaxis, :]
    return np.maximum(D, 0.0, out=D)


def kernel_matrix(
    X: np.ndarray,
    Y: np.ndarray | None = None,
    *,
    kernel: KernelName | Callable = "rbf",
    gamma: float = 1.0,
    degree: float = 3,
    coef0: float = 1.0,
    kernel_params: dict | None = None,
    n_jobs: int | None = None,
) -> np.ndarray:
    """Gram matrix K_ij = k(x_i, y_j) (eq. 10, and eq. 52 for test points).

    The dot-product kernels and the Gaussian are written out here rather than
    taken from ``sklearn.metrics.pairwise``: the engine evaluates test kernels
    in blocks of 256 rows (so that each block stays in cache), and
    scikit-learn's input validation costs 0.2–0.7 ms per call against tens of
    µs of arithmetic for such a block, which made the Fig. 2 grid 10× slower
    (``bench/engine.py --kernels`` times ours and scikit-learn's).
    ``tests/test_kernels.py`` checks every formula against scikit-learn.
    Integer polynomial degrees are raised by multiplication
    (:func:`integer_power`).  Sparse matrices, ``"laplacian"`` and callables
    are handed to ``sklearn.metrics.pairwise.pairwise_kernels``
    as scikit-learn's ``KernelPCA`` does.

    Parameters
    ----------
    X : ndarray or sparse matrix of shape (n_x, n_features)
    Y : ndarray or sparse matrix of shape (n_y, n_features), optional
        Defaults to ``X``.
    kernel : {"linear", "poly", "rbf", "laplacian", "sigmoid", "cosine"} or callable
        linear x·y; poly (γ x·y + c)^d, homogeneous (x·y)^d (eq. 22) for
        γ = 1, c = 0; rbf exp(−γ‖x−y‖²) (eq. 62 with γ = 1/(2σ²));
        laplacian exp(−γ‖x−y‖₁); sigmoid tanh(γ x·y + c) (eq. 63); cosine
        x·y / (‖x‖‖y‖); a callable k(x, y) of two 1-D arrays.
    gamma, degree, coef0 : float
        Kernel parameters (``coef0`` is the c above); ignored by a callable.
    kernel_params : dict, optional
        Keyword arguments of a callable kernel.
    n_jobs : int, optional
        Processes of ``pairwise_kernels`` (callables and sparse input).

    Returns
    -------
    K : ndarray of shape (n_x, n_y)
    """
    symmetric, Y = Y is None, X if Y is None else Y
    if kernel not in WRITTEN_OUT or sparse.issparse(X) or sparse.issparse(Y):
        params = (
            (kernel_params or {})
            if callable(kernel)
            else {"gamma": gamma, "degree": degree, "coef0": coef0}
        )
        return pairwise.pairwise_kernels(
            X, Y, metric=kernel, filter_params=True, n_jobs=n_jobs, **params
        )
    if kernel == "rbf":
        K = squared_distances(X, Y)
        K *= -gamma
        return np.exp(K, out=K)
    if kernel == "cosine":  # x·y / (‖x‖‖y‖): the linear kernel of the unit rows
        X = unit_rows(X)
        Y = X if symmetric else unit_rows(Y)
    K = X @ Y.T
    if kernel in ("linear", "cosine"):
        return K
    if gamma != 1.0:
        K *= gamma
    if coef0 != 0.0:
        K += coef0
    if kernel == "sigmoid":
        return np.tanh(K, out=K)
    if float(degree).is_integer() and degree >= 1:
        return integer_power(K, int(degree))
    return np.power(K, degree, out=K)


def unit_rows(X: np.ndarray) -> np.ndarray:
    """x / ‖x‖ for each row x (dense), a zero row staying zero as in scikit-learn's cosine
    kernel: x·y / (‖x‖‖y‖) is the linear kernel of these rows."""
    norms = row_norms(X)
    return X / np.where(norms == 0, 1.0, norms)[:, np.newaxis]


def kernel_diagonal(
    X: np.ndarray,
    *,
    kernel: KernelName | Callable = "rbf",
    gamma: float = 1.0,
    degree: float = 3,
    coef0: float = 1.0,
    kernel_params: dict | None = None,
) -> np.ndarray:
    """k(x, x) for each row x (dense or sparse), without forming the Gram matrix."""
    if callable(kernel):
        return np.array(
            [
                kernel_matrix(X[i : i + 1], kernel=kernel, kernel_params=kernel_params)[0, 0]
                for i in range(X.shape[0])
            ]
        )
    if kernel in ("rbf", "laplacian"):
        return np.ones(X.shape[0])
    sq_norms = row_norms(X, squared=True)
    if kernel == "cosine":
        return (sq_norms > 0).astype(float)
    if kernel == "linear":
        return sq_norms
    if kernel == "poly":
        return (gamma * sq_norms + coef0) ** degree
    if kernel == "sigmoid":
        return np.tanh(gamma * sq_norms + coef0)
    raise ValueError(f"k(x, x) is not known for kernel {kernel!r}")


def is_positive_semidefinite(kernel: str, *, degree: float = 3, coef0: float = 1.0) -> bool:
    """Whether every Gram matrix of this kernel is positive semidefinite (Mercer).

    Sigmoid kernels are indefinite for most parameters (Appendix B.2), and so
    are polynomials with c < 0 or a non-integer degree; precomputed matrices
    and callables are unknown.
    """
    if kernel in ("linear", "rbf", "laplacian", "cosine"):
        return True
    if kernel == "poly":
        return coef0 >= 0 and float(degree).is_integer() and degree >= 1
    return False


def feature_space_dimension(
    kernel: str, n_features: int, *, degree: float = 3, coef0: float = 1.0
) -> int | None:
    """Dimension of the feature space F, or ``None`` where it is infinite or unknown.

    Linear: N.  Homogeneous polynomial (x·y)^d: the number of d-th order
    monomials of N inputs, C(N + d − 1, d) (section 3, after eq. 22);
    inhomogeneous (x·y + c)^d: all monomials up to degree d, C(N + d, d).
    The rank of any Gram matrix is at most this number.
    """
    if kernel in ("linear", "cosine"):
        return int(n_features)
    if kernel == "poly" and float(degree).is_integer() and degree >= 1:
        d = int(degree)
        return math.comb(n_features + d - (1 if coef0 == 0 else 0), d)
    return None


def polynomial_features(X: np.ndarray, *, degree: int, gamma: float, coef0: float) -> np.ndarray:
    """An explicit feature map of the polynomial kernel: Φ(x) · Φ(y) = (γ x·y + c)^d.

    (γ x·y + c)^d = (z·w)^d with z = (√γ x, √c) and w = (√γ y, √c), and
    (z·w)^d = Σ_k (d! / k₁!…k_p!) z^k w^k over the monomials z^k = z₁^k₁ … z_p^k_p
    of degree d (section 3, eqs. 20–22): Φ(x) are those monomials of z, each
    times the square root of its multinomial coefficient.  Their number is
    :func:`feature_space_dimension`; where it is smaller than the number of
    points a model was fitted on, a test point's projections cost less through
    Φ than through its kernel values (``KernelPCA`` does so).

    Parameters
    ----------
    X : ndarray of shape (n_points, n_features), dense
    degree : int
        d ≥ 1.
    gamma : float
        γ > 0.
    coef0 : float
        c ≥ 0 (c = 0: the homogeneous kernel, without the constant's monomials).

    Returns
    -------
    ndarray of shape (n_points, feature_space_dimension("poly", n_features, ...))
    """
    if not (gamma > 0 and coef0 >= 0):
        raise ValueError(f"Φ needs γ > 0 and c ≥ 0, got γ = {gamma!r}, c = {coef0!r}")
    Z = math.sqrt(gamma) * np.asarray(X, dtype=float)
    if coef0 != 0:
        Z = np.column_stack([Z, np.full(len(Z), math.sqrt(coef0))])
    degree = int(degree)
    n_inputs = Z.shape[1]
    # Degree by degree, in scikit-learn's PolynomialFeatures order (its dense transform,
    # without its input validation): the monomials of degree e whose lowest variable is j
    # are z_j times those of degree e − 1 whose lowest variable is j or later.  Each
    # feature is one product of two columns, O(M D), and nothing larger than Φ is formed.
    Phi = np.asfortranarray(Z)
    first = np.arange(n_inputs + 1)  # column where the monomials of lowest variable j begin
    for _ in range(2, degree + 1):
        sizes = Phi.shape[1] - first[:-1]
        higher = np.empty((len(Z), int(sizes.sum())), order="F")
        start = np.concatenate([[0], np.cumsum(sizes)])
        for j in range(n_inputs):
            np.multiply(
                Phi[:, first[j] :], Z[:, j, np.newaxis], out=higher[:, start[j] : start[j + 1]]
            )
        Phi, first = higher, start
    Phi *= _monomials(n_inputs, degree)
    return Phi


@functools.cache
def _monomials(n_inputs: int, degree: int) -> np.ndarray:
    """√(d! / k₁!…k_p!) for each monomial z^k of degree ``degree`` in ``n_inputs`` variables,
    in the order of scikit-learn's ``PolynomialFeatures``."""
    if degree < 1:
        raise ValueError(f"degree must be a positive integer, got {degree!r}")
    powers = PolynomialFeatures((degree, degree), include_bias=False).fit(np.zeros((1, n_inputs)))
    counts = [math.factorial(degree) // math.prod(map(math.factorial, k)) for k in powers.powers_]
    return np.sqrt(np.array(counts, dtype=float))
