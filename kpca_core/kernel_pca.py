"""Kernel principal component analysis, exactly as in the papers, as a scikit-learn estimator.

Equation numbers refer to Schölkopf, Smola & Müller, *Nonlinear component
analysis as a kernel eigenvalue problem* (1998; the text in
``shared/papers/scholkopf-smola-muller-1996-kernel-pca.md``), and, for
pre-images, to Mika et al., *Kernel PCA and de-noising in feature spaces*
(1999).

The five steps of the algorithm, and where they live:

1. kernel matrix K_ij = k(x_i, x_j)                  (eq. 10)       ``kernels.kernel_matrix``
2. centring  K̃ = K − 1_M K − K 1_M + 1_M K 1_M       (eq. 49)       ``eigenproblem.center_kernel``
3. eigenproblem  M λ α = K̃ α                         (eq. 12/46)    ``eigenproblem.eigsolve``
4. normalisation  (M λ)(α · α) = 1, ‖V‖ = 1 in F      (eq. 16/50)    ``KernelPCA._normalise``
5. projection  (V^k · Φ(t)) = Σ_i α_i^k k̃(x_i, t)    (eq. 17/51/54) ``KernelPCA.transform``
   (a kernel of degree one, or a polynomial with fewer features than points:
   Φ(t) · Σ_i α_i^k Φ(x_i), ``kernels.polynomial_features``)

Why this file is over 900 lines: it is one estimator class, with all of
scikit-learn's parameters and the Nyström fit, and 330 of its lines are the
numpydoc docstrings that tie each method to its equations.  The seam that
could be cut next is the Nyström fit (``_fit_nystrom``, into its own module
beside ``eigenproblem.py``).  The eigenproblem (centring, solvers) lives in
``eigenproblem.py``; cutting the class itself (e.g. the pre-image methods
into a mixin) would spread one object's fitted state over two modules.

Input validation (``validate_data``, ``_parameter_constraints``) happens once
per public call, never per block of the test kernel: the Fig. 2 grid makes
four fits and four transforms in ~40 ms, and validation costs ~1 ms of it
(``bench/engine.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from numbers import Integral, Real
from typing import ClassVar, Literal

import numpy as np
from scipy import linalg, sparse
from scipy.linalg import blas
from sklearn.base import (
    BaseEstimator,
    ClassNamePrefixFeaturesOutMixin,
    TransformerMixin,
    _fit_context,
)
from sklearn.exceptions import NotFittedError
from sklearn.kernel_ridge import KernelRidge
from sklearn.utils import Tags, check_random_state
from sklearn.utils._param_validation import Interval, StrOptions
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import (
    _check_psd_eigenvalues,
    check_array,
    check_is_fitted,
    validate_data,
)

from . import budget
from .eigenproblem import (
    EIGEN_SOLVERS,
    EigenSolver,
    center_kernel,
    choose_solver,
    eigsolve,
    lowest_eigenvalue,
)
from .kernels import (
    KERNELS,
    feature_space_dimension,
    is_positive_semidefinite,
    kernel_diagonal,
    kernel_matrix,
    polynomial_features,
    unit_rows,
)
from .preimage import expansion_weights, fixed_point_preimage

__all__ = ["BLOCK_ROWS", "KernelPCA", "Progress", "center_kernel"]

Progress = Callable[[float, str], None]
"""A progress callback: called with a fraction in [0, 1] and a short message."""

Inverse = Literal["auto", "fixed-point", "ridge"]

BLOCK_ROWS = 256
FEATURES_PER_SAMPLE = 0.25
"""Test points of a polynomial kernel are projected through its explicit features Φ
(:func:`~kpca_core.kernels.polynomial_features`) when there are at most this many per
point fitted on: Φ(y) · (Σ_i α_i Φ(x_i)) instead of Σ_i α_i k(x_i, y)."""
NYSTROM_BLOCK = 4096
NON_FINITE = "{name} contains NaN or infinite values: remove or replace them"
KERNEL_OVERFLOW = (
    "the kernel matrix has non-finite entries (too large for floating point): "
    "lower gamma or degree, or rescale the data"
)


def explicit_features(
    kernel: str,
    n_samples: int,
    n_features: int,
    *,
    degree: float = 3,
    coef0: float = 1.0,
    n_components: int | None = None,
) -> int | None:
    """How many explicit features a fit of ``n_samples`` points goes through, or ``None``.

    A polynomial kernel with fewer features Φ than points (eqs. 20–22,
    :func:`~kpca_core.kernels.feature_space_dimension`) is fitted through them by
    :class:`KernelPCA` with ``eigen_solver="auto"`` where the cost model says that is
    cheaper, Φ and its SVD against the kernel matrix and the cheapest eigensolver for
    ``n_components`` (``None``: all) components (:func:`kpca_core.budget.route_seconds`);
    any other kernel (or c < 0, where Φ is not real) through its kernel matrix:
    ``None``.  The cost model prices a fit by this.
    """
    if kernel != "poly" or not is_positive_semidefinite("poly", degree=degree, coef0=coef0):
        return None
    dimension = feature_space_dimension("poly", n_features, degree=degree, coef0=coef0)
    if dimension is None or dimension >= n_samples:
        return None
    k = n_samples if n_components is None else min(n_components, n_samples)
    costs = budget.route_seconds(kernel, n_samples, n_features, k, features=dimension)
    solver = choose_solver("auto", n_samples, k, feature_dimension=dimension, n_inputs=n_features)
    return dimension if costs["features"] <= costs[solver] else None


def _notify(progress: Progress | None, fraction: float, message: str) -> None:
    if progress is not None:
        progress(fraction, message)


def _has_input_points(model: KernelPCA) -> bool:
    """Whether pre-images exist: not for a precomputed kernel, which has no input points,
    nor for a Nyström model, which keeps only its landmarks."""
    if model.kernel == "precomputed":
        raise AttributeError("a pre-image needs input points, and a precomputed kernel has none")
    if getattr(model, "n_landmarks_", model.n_landmarks) is not None:
        raise AttributeError(
            "a pre-image needs the exact model: this one uses the Nyström approximation "
            "(n_landmarks); refit with n_landmarks=None"
        )
    return True


def _signs(u: np.ndarray) -> np.ndarray:
    """±1 per column of ``u`` that makes its entry of largest magnitude positive
    (on a tie, the first of the two): deterministic signs for the eigenvectors."""
    # max/min reduce along rows at memory speed; argmax along axis 0 copies
    # the M × M matrix first (150 ms at M = 3000), so it runs on ties only.
    high, low = np.max(u, axis=0, initial=-np.inf), -np.min(u, axis=0, initial=np.inf)
    flip = low > high
    ties = np.flatnonzero(low == high)
    if ties.size:
        flip[ties] = np.argmin(u[:, ties], axis=0) < np.argmax(u[:, ties], axis=0)
    return np.where(flip, -1.0, 1.0)


class KernelPCA(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Kernel PCA (Schölkopf, Smola & Müller 1998) with pre-images (Mika et al. 1999).

    A scikit-learn transformer: it works in ``Pipeline``, ``clone``,
    ``GridSearchCV`` and ``set_output``, and its output columns are named
    ``kernelpca0``, ``kernelpca1``, …

    The parameters of ``sklearn.decomposition.KernelPCA`` are accepted with
    the same defaults and meaning (the documentation's "The engine" page lists
    the few differences and why); ``center``, ``inverse`` and ``n_landmarks`` are
    this project's.

    Parameters
    ----------
    n_components : int, optional
        Number of components to keep.  ``None`` keeps every component with a
        non-zero eigenvalue (as ``remove_zero_eig=True``).
    kernel : {"linear", "poly", "rbf", "laplacian", "sigmoid", "cosine", \
            "precomputed"} or callable, default="linear"
        See :func:`kpca_core.kernels.kernel_matrix`; scikit-learn's default.
        ``"precomputed"`` takes Gram matrices in ``fit`` and ``transform``
        instead of points; a callable k(x, y) takes two 1-D arrays.
    gamma : float, optional
        Kernel coefficient of rbf, laplacian, poly and sigmoid.  ``None`` means
        1 / n_features.  Use :func:`kpca_core.kernels.sigma_to_gamma` or
        :func:`~kpca_core.kernels.c_to_gamma` to convert a width.
    degree : int, default=3
        Degree d of the polynomial kernel (γ x·y + c)^d: a whole number
        (a fractional power of a negative x·y is not real).
    coef0 : float, default=1.0
        The c of poly and sigmoid; ``coef0=0`` gives the homogeneous
        polynomial (x·y)^d of eq. 22 (with ``gamma=1``).
    kernel_params : dict, optional
        Keyword arguments of a callable kernel.
    alpha : float, default=1.0
        Ridge parameter of the learned map (``inverse="ridge"``).
    fit_inverse_transform : bool, default=False
        ``True`` is scikit-learn's name for ``inverse="ridge"``.  ``False``
        leaves the choice to ``inverse``: unlike scikit-learn's,
        :meth:`inverse_transform` then still works (pre-images are this
        project's subject), except after a fit on sparse input.
    eigen_solver : {"auto", "dense", "subset", "arpack", "randomized"}, default="auto"
        ``"dense"``: all eigenpairs, LAPACK's divide and conquer
        (``scipy.linalg.eigh(driver="evd")``, which, like scikit-learn's
        solvers, holds the GIL while it runs); ``"subset"``: the
        top ``n_components`` with ``scipy.linalg.eigh``'s ``subset_by_index``;
        ``"arpack"``: ``scipy.sparse.linalg.eigsh``; ``"randomized"``:
        scikit-learn's randomized solver (Halko et al. 2011), for many points
        and few components: it gives the leading eigenvalues to about 1e-10 (relative)
        but, where the spectrum is flat past the last requested one, the last ones only
        to about 1e-3, as scikit-learn's (the same solver; ``"arpack"`` gives them all
        to rounding); ``"auto"`` picks the fastest of dense, subset
        and arpack by the cost model (:mod:`kpca_core.budget`, its constants
        measured by ``bench/cost_model.py``), and solves a polynomial kernel with
        fewer explicit features than points through them, without the kernel matrix
        (``eigen_solver_ = "features"``), where that model says it is cheaper
        (:func:`explicit_features`).
    tol : float, default=0
        Convergence tolerance of ARPACK (0: machine precision).
    max_iter : int, optional
        Restarts of ARPACK (``None``: 100).
    iterated_power : int or "auto", default="auto"
        Power iterations of the randomized solver.
    remove_zero_eig : bool, default=False
        Drop the components with a zero eigenvalue.  When ``False`` and
        ``n_components`` is given, they are kept as columns of zeros, as in
        scikit-learn.  Zero means below the rounding level M·ε·max(|K_ij|,
        λ_max M) (eq. 50 cannot divide by it).
    random_state : int, RandomState instance or None
        Seeds ARPACK's starting vector, the randomized solver, the choice of
        landmarks and the restarts of the fixed-point iteration.
    copy_X : bool, default=True
        Keep a copy of the training points (``False``: a reference, which
        the caller must then leave unchanged).
    n_jobs : int, optional
        Processes of ``sklearn.metrics.pairwise.pairwise_kernels``, which
        computes callable kernels and kernels of sparse input.
    center : bool, default=True
        Centre the data in feature space (Appendix A).  ``False`` is the
        eigenproblem of eq. 12 on the raw K.
    inverse : {"auto", "fixed-point", "ridge"}, default="auto"
        How :meth:`inverse_transform` maps components back to input space:
        ``"fixed-point"``, the iteration of Mika et al. eq. (10) (Gaussian
        kernel only); ``"ridge"``, the map learned by kernel ridge regression
        from the training points' components to the points (Bakır et al.
        2004, scikit-learn's ``fit_inverse_transform``).  ``"auto"`` is the
        fixed point for ``kernel="rbf"`` and the ridge map otherwise.
    n_landmarks : int, optional
        Nyström approximation (Williams & Seeger 2001) for many points: the
        kernel is evaluated against ``n_landmarks`` training points drawn at
        random, K ≈ K_nm K_mm⁻¹ K_mn, and the principal axes are those of
        the n_landmarks-dimensional features K_mm^(-1/2) k_m(x), found from
        their covariance without ever forming an M × M matrix.  ``None`` (or
        at least as many landmarks as points): exact kernel PCA.
        Pre-images and ``reconstruction_error`` need the exact model.

    Attributes
    ----------
    eigenvalues_ : ndarray of shape (n_components_,)
        Variances along the feature-space principal axes, λ = eig(K̃)/M
        (eq. 12), in descending order.  Negative values occur only for
        indefinite kernels (Appendix B.2).
    alphas_ : ndarray of shape (n_samples, n_components_)
        Expansion coefficients α^k of the eigenvectors V^k = Σ_i α_i^k Φ̃(x_i)
        (eq. 47), scaled so that ‖V^k‖ = 1, i.e. (Mλ_k)(α^k · α^k) = 1
        (eq. 50), with 1/√|Mλ_k| for negative eigenvalues (Appendix B.2).
    explained_variance_ratio_ : ndarray of shape (n_components_,)
        λ_k / Σ_j λ_j, the share of the total variance trace(K̃)/M, whichever
        solver ran and however many components were kept.
    negative_eigenvalue_ratio_ : float
        |most negative eigenvalue| / largest eigenvalue of K̃; 0 for a positive
        semidefinite kernel matrix.  Reported so the UI can say how far an
        indefinite kernel is from being a dot product.  Found on first read
        where the fit did not need it (see the property).
    n_components_ : int
    n_samples_fit_ : int
    n_features_in_ : int
    feature_names_in_ : ndarray of str, only when ``X`` had string column names
    gamma_ : float
    X_fit_ : ndarray of shape (n_samples, n_features)
        A copy of the training points (the landmarks for a Nyström fit).
    eigen_solver_ : str
        The solver that was used (``"nystrom"`` for a Nyström fit, ``"features"`` for
        a fit through a polynomial kernel's explicit features).
    eigenvectors_ : ndarray of shape (n_samples, n_components_)
        scikit-learn's unit eigenvectors of K̃, α^k √|Mλ_k| (columns of zeros
        for zero eigenvalues).
    """

    _parameter_constraints: ClassVar[dict] = {
        "n_components": [Interval(Integral, 1, None, closed="left"), None],
        "kernel": [StrOptions(set(KERNELS)), callable],
        "gamma": [Interval(Real, 0, None, closed="neither"), None],
        "degree": [Interval(Real, 0, None, closed="left")],
        "coef0": [Interval(Real, None, None, closed="neither")],
        "kernel_params": [dict, None],
        "alpha": [Interval(Real, 0, None, closed="left")],
        "fit_inverse_transform": ["boolean"],
        "eigen_solver": [StrOptions(set(EIGEN_SOLVERS))],
        "tol": [Interval(Real, 0, None, closed="left")],
        "max_iter": [Interval(Integral, 1, None, closed="left"), None],
        "iterated_power": [Interval(Integral, 0, None, closed="left"), StrOptions({"auto"})],
        "remove_zero_eig": ["boolean"],
        "random_state": ["random_state"],
        "copy_X": ["boolean"],
        "n_jobs": [Integral, None],
        "center": ["boolean"],
        "inverse": [StrOptions({"auto", "fixed-point", "ridge"})],
        "n_landmarks": [Interval(Integral, 1, None, closed="left"), None],
    }

    def __init__(
        self,
        n_components: int | None = None,
        *,
        kernel: str | Callable = "linear",
        gamma: float | None = None,
        degree: int = 3,
        coef0: float = 1.0,
        kernel_params: dict | None = None,
        alpha: float = 1.0,
        fit_inverse_transform: bool = False,
        eigen_solver: EigenSolver = "auto",
        tol: float = 0,
        max_iter: int | None = None,
        iterated_power: int | Literal["auto"] = "auto",
        remove_zero_eig: bool = False,
        random_state: int | np.random.RandomState | None = None,
        copy_X: bool = True,
        n_jobs: int | None = None,
        center: bool = True,
        inverse: Inverse = "auto",
        n_landmarks: int | None = None,
    ) -> None:
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.kernel_params = kernel_params
        self.alpha = alpha
        self.fit_inverse_transform = fit_inverse_transform
        self.eigen_solver = eigen_solver
        self.tol = tol
        self.max_iter = max_iter
        self.iterated_power = iterated_power
        self.remove_zero_eig = remove_zero_eig
        self.random_state = random_state
        self.copy_X = copy_X
        self.n_jobs = n_jobs
        self.center = center
        self.inverse = inverse
        self.n_landmarks = n_landmarks

    def __sklearn_tags__(self) -> Tags:
        tags = super().__sklearn_tags__()
        tags.input_tags.pairwise = self.kernel == "precomputed"
        tags.input_tags.sparse = self.kernel != "precomputed"
        return tags

    @property
    def _n_features_out(self) -> int:
        """Number of output columns, for ``get_feature_names_out``."""
        return self.n_components_

    # ------------------------------------------------------------------ fit
    def _validate_input(self, X: np.ndarray, *, reset: bool, copy: bool = False) -> np.ndarray:
        """``validate_data`` (shape, dtype, n_features_in_), then our own NaN/inf message.

        NaN and inf are reported first, as scikit-learn does, even when the
        shape is wrong too.  Sparse input is kept as CSR.
        """
        try:
            X = validate_data(
                self,
                X,
                reset=reset,
                accept_sparse="csr" if self.kernel != "precomputed" else False,
                # scikit-learn's manhattan distances take 32-bit sparse indices only
                accept_large_sparse=self.kernel != "laplacian",
                dtype=np.float64,
                ensure_all_finite=False,
                copy=copy,
            )
        except ValueError:
            if _has_non_finite(X):
                raise ValueError(NON_FINITE.format(name="X")) from None
            raise
        return _check_finite(X, "X")

    def _kernel(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        return kernel_matrix(
            X,
            Y,
            kernel=self.kernel,
            gamma=self.gamma_,
            degree=self.degree,
            coef0=self.coef0,
            kernel_params=self.kernel_params,
            n_jobs=self.n_jobs,
        )

    def _check_fit_params(self, X: np.ndarray) -> None:
        """The errors scikit-learn raises at fit, and ours for undefined input."""
        M = X.shape[0]
        if M == 1 and self.center:
            raise ValueError(
                "centring needs at least 2 points, got 1 sample: after centring in feature "
                "space every point looks the same (K̃ = 0); give more points or center=False"
            )
        if self.kernel == "poly" and not float(self.degree).is_integer():
            raise ValueError(
                f"degree must be a whole number, got {self.degree!r}: (γ x·y + c)^d is not "
                "real where γ x·y + c < 0 for a fractional d"
            )
        if self.fit_inverse_transform and self.inverse == "fixed-point":
            raise ValueError(
                "fit_inverse_transform=True is inverse='ridge', which contradicts "
                "inverse='fixed-point': give one of them"
            )
        if self.kernel == "precomputed":
            if self.fit_inverse_transform or self.inverse != "auto":
                raise ValueError(
                    "Cannot fit_inverse_transform with a precomputed kernel: a pre-image "
                    "needs input points, and a precomputed kernel has none"
                )
            if X.shape != (M, M):
                raise ValueError(f"a precomputed kernel must be square, got shape {X.shape}")
            scale = max(abs(float(X.max())), abs(float(X.min())))
            if np.max(np.abs(X - X.T)) > 1e-10 * max(scale, np.finfo(float).tiny):
                raise ValueError(
                    "a precomputed kernel must be symmetric, K_ij = k(x_i, x_j) = K_ji: the "
                    "eigenproblem of a non-symmetric matrix is not kernel PCA (its solvers "
                    "would each read a different triangle); pass (K + K.T) / 2 if that is meant"
                )

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X: np.ndarray, y: None = None, *, progress: Progress | None = None) -> KernelPCA:
        """Solve the kernel eigenproblem for the training points ``X``.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training points, or the (n_samples, n_samples) Gram matrix when
            ``kernel="precomputed"``.
        y : ignored
        progress : callable, optional
            Called as ``progress(fraction, message)`` between the steps.

        Returns
        -------
        self
        """
        X = self._validate_input(X, reset=True, copy=self.copy_X)
        M = X.shape[0]
        self._check_fit_params(X)
        self.gamma_ = 1.0 / X.shape[1] if self.gamma is None else float(self.gamma)
        self.X_fit_ = X
        self.n_samples_fit_ = M
        self._sparse = sparse.issparse(X)
        k = M if self.n_components is None else min(self.n_components, M)
        if self.n_landmarks is not None and self.n_landmarks < M:
            if self.kernel == "precomputed":
                raise ValueError("n_landmarks needs input points, not a precomputed kernel")
            return self._fit_nystrom(X, k, progress)
        self.n_landmarks_ = None
        if (
            self.eigen_solver == "auto"
            and not self._sparse
            and explicit_features(
                self.kernel, *X.shape, degree=self.degree, coef0=self.coef0, n_components=k
            )
        ):
            return self._fit_features(self._feature_map()(X), k, progress)

        _notify(progress, 0.0, "kernel matrix (eq. 10)")
        with np.errstate(over="ignore", invalid="ignore"):  # reported just below
            K = X.copy() if self.kernel == "precomputed" else self._kernel(X)
        kernel_scale = _largest_magnitude(K)
        if not np.isfinite(kernel_scale):
            raise ValueError(KERNEL_OVERFLOW)
        _notify(progress, 0.2, "centring in feature space (eq. 49)")
        if self.center:
            with np.errstate(over="ignore", invalid="ignore"):  # reported just below
                K, self._column_means, self._total_mean = center_kernel(K, overwrite=True)
            if not _all_finite(K):
                raise ValueError(
                    "centring the kernel matrix overflowed: its entries are too large; "
                    "lower gamma or degree, or rescale the data"
                )
        trace = float(np.trace(K))

        _notify(progress, 0.3, "eigenproblem (eq. 12)")
        dim_f = feature_space_dimension(
            self.kernel, self.n_features_in_, degree=self.degree, coef0=self.coef0
        )
        solver = choose_solver(
            self.eigen_solver, M, k, feature_dimension=dim_f, n_inputs=self.n_features_in_
        )
        mu, u, self.eigen_solver_ = eigsolve(
            K,
            k,
            solver,
            random_state=self.random_state,
            tol=self.tol,
            max_iter=self.max_iter,
            iterated_power=self.iterated_power,
        )
        del K
        if not np.all(np.isfinite(mu)):
            raise ValueError(
                "the eigenproblem overflowed: the kernel matrix's entries are too large; "
                "lower gamma or degree, or rescale the data"
            )
        # The smallest eigenvalue: the dense solver's lowest; none below 0 but rounding for a
        # positive semidefinite kernel; else unknown until negative_eigenvalue_ratio_ is read.
        psd = is_positive_semidefinite(self.kernel, degree=self.degree, coef0=self.coef0)
        lowest = float(mu.min()) if psd or self.eigen_solver_ == "dense" else None
        _notify(progress, 0.9, "normalisation (eq. 50)")
        self._normalise(mu, u, k, lowest, trace, kernel_scale)
        _notify(progress, 1.0, "done")
        return self

    def _fit_features(self, Phi: np.ndarray, k: int, progress: Progress | None) -> KernelPCA:
        """Kernel PCA through the polynomial kernel's explicit features Φ (eqs. 20–22).

        K = ΦΦᵀ, and centred (eq. 49) K̃ = Φ̃Φ̃ᵀ with Φ̃ = Φ − φ̄, φ̄ the mean of the
        mapped points; so the thin SVD Φ̃ = U S Wᵀ gives K̃'s eigenpairs, K̃U = U S²
        (eq. 12, μ = s²), and K̃ has no other non-zero eigenvalue.  What the kernel
        route takes from K comes from Φ too: the centring of test points (eq. 54)
        needs (1/M) Σ_m K_mj = Φ_j · φ̄ and (1/M²) Σ_mn K_mn = φ̄ · φ̄; trace K̃ = Σ s²;
        and the rounding level, max |K_ij| = max_i ‖Φ_i‖² (K is positive
        semidefinite).  O(M D²) for D features instead of the M × M matrix and its
        eigenproblem: Fig. 2's four fits of 300 points, 4.4 → 1.0 ms.
        """
        M = Phi.shape[0]
        _notify(progress, 0.0, "explicit features (eqs. 20-22)")
        if not _all_finite(Phi):
            raise ValueError(KERNEL_OVERFLOW)
        kernel_scale = float(np.max(np.einsum("ij,ij->i", Phi, Phi)))
        if self.center:
            mean = Phi.mean(axis=0)
            self._column_means, self._total_mean = Phi @ mean, float(mean @ mean)
            Phi = Phi - mean
        _notify(progress, 0.3, "eigenproblem (eq. 12) through the features")
        u, s, _ = linalg.svd(Phi, full_matrices=False, check_finite=False)
        mu = s * s
        missing = k - mu.size
        if missing > 0 and not (self.remove_zero_eig or self.n_components is None):
            # rank K̃ ≤ D: the other eigenvalues are 0, kept as columns of zeros
            mu, u = np.concatenate([mu, np.zeros(missing)]), np.hstack([u, np.zeros((M, missing))])
        self.eigen_solver_ = "features"
        _notify(progress, 0.9, "normalisation (eq. 50)")
        self._normalise(mu, u, k, 0.0, float(mu.sum()), kernel_scale)
        _notify(progress, 1.0, "done")
        return self

    def _fit_nystrom(self, X: np.ndarray, k: int, progress: Progress | None) -> KernelPCA:
        """Kernel PCA of the Nyström features φ̂(x) = K_mm^(-1/2) k_m(x) of ``n_landmarks`` points.

        K̂ = Φ̂Φ̂ᵀ = K_nm K_mm⁻¹ K_mn approximates K (Williams & Seeger 2001);
        the eigenproblem of its centred version, M λ α = K̃̂ α (eq. 12), has
        the non-zero λ of the covariance C = (1/M) Σ_i (φ̂_i − φ̄)(φ̂_i − φ̄)ᵀ,
        an r × r matrix (r ≤ m): the principal axes are its unit eigenvectors
        v, and the components (φ̂(y) − φ̄) · v = k_m(y)ᵀ W v − φ̄ · v are an
        expansion over the landmarks, α = W v with W = U S^(-1/2) from
        K_mm = U S Uᵀ.  C is accumulated from blocks of K_nm (a symmetric
        rank-k update, ``dsyrk``), so memory is O(m² + block · m).
        """
        M, m = X.shape[0], self.n_landmarks
        rng = check_random_state(self.random_state)
        landmarks = X[np.sort(rng.choice(M, m, replace=False))]
        _notify(progress, 0.0, "Nyström: kernel of the landmarks")
        with np.errstate(over="ignore", invalid="ignore"):
            K_mm = self._kernel(landmarks)
        if not _all_finite(K_mm):
            raise ValueError(KERNEL_OVERFLOW)
        s, U = linalg.eigh(K_mm, check_finite=False)
        positive = s > m * np.finfo(float).eps * max(float(s.max()), 0.0)
        W = U[:, positive] / np.sqrt(s[positive])
        G = np.zeros((m, m), order="F")
        k_sum = np.zeros(m)
        for begin in range(0, M, NYSTROM_BLOCK):
            _notify(progress, 0.1 + 0.7 * begin / M, "Nyström: kernel against the landmarks")
            K_block = self._kernel(X[begin : begin + NYSTROM_BLOCK], landmarks)
            G = blas.dsyrk(1.0, K_block.T, beta=1.0, c=G, trans=0, overwrite_c=True)
            k_sum += K_block.sum(axis=0)
        G = np.triu(G) + np.triu(G, 1).T
        _notify(progress, 0.8, "Nyström: covariance of the features")
        C = W.T @ G @ W / M
        if self.center:
            phi_mean = W.T @ k_sum / M
            C -= np.outer(phi_mean, phi_mean)
        lam, V = linalg.eigh(C, check_finite=False)
        order = np.argsort(lam, kind="stable")[::-1][:k]
        lam, alphas = lam[order], W @ V[:, order]
        zero = np.abs(lam) <= M * np.finfo(float).eps * max(float(np.max(np.abs(lam))), 1.0)
        if self.remove_zero_eig or self.n_components is None:
            lam, alphas = lam[~zero], alphas[:, ~zero]
        else:
            lam[zero] = 0.0
            alphas[:, zero] = 0.0
        alphas *= _signs(alphas)
        total = float(np.trace(C))
        self.X_fit_ = landmarks
        self.n_landmarks_ = m
        self.eigen_solver_ = "nystrom"
        self._landmark_means = k_sum / M if self.center else np.zeros(m)
        self._mu = lam * M
        self.eigenvalues_ = lam
        self.alphas_ = alphas
        self.explained_variance_ratio_ = lam / total if total > 0 else np.zeros_like(lam)
        self._negative_ratio = 0.0
        self.n_components_ = lam.size
        _notify(progress, 1.0, "done")
        return self

    def _normalise(
        self,
        mu: np.ndarray,
        u: np.ndarray,
        k: int,
        lowest: float | None,
        trace: float,
        kernel_scale: float,
    ) -> None:
        """Keep the top k eigenpairs, zero or drop null ones, fix signs, scale α: ‖V‖ = 1 (eq. 50).

        Maintenance note on the normalisation
        -------------------------------------
        ``u`` holds unit eigenvectors of K̃ (u · u = 1) with K̃u = μu, μ = Mλ.
        The feature-space axis V = Σ_i α_i Φ̃(x_i) has ‖V‖² = αᵀK̃α = μ (α · α),
        so α = u / √μ gives ‖V‖ = 1 (eqs. 16 and 50); for μ < 0 the axis has
        squared length −1 and α = u / √|μ| (Appendix B.2).  Zero eigenvalues
        carry no variance, and eq. 50 would divide by 0: below the rounding
        level of K̃'s eigenvalues, M·ε·max(|K_ij|, max|μ|) (``kernel_scale`` is
        max |K_ij| before centring, whose rounding the centring carries
        along), μ is 0; its column is dropped (``remove_zero_eig``, or
        ``n_components=None``) or kept as zeros, as scikit-learn does.  Where the
        smallest eigenvalue ``lowest`` is not known (``None``: an indefinite kernel
        solved for its top k only), the level is that of the kept μ and max |K_ij|,
        still above the solvers' rounding ε‖K̃‖₂, as ‖K̃‖₂ ≤ ‖K‖₂ ≤ M max |K_ij|.  For a
        precomputed or callable kernel, whose positive semidefiniteness
        nobody vouched for, the kept μ go through scikit-learn's own
        ``_check_psd_eigenvalues``: a significant negative one is an error, a
        tiny one becomes 0.  Signs are made deterministic: the entry of
        largest |u_i| of each column is positive (as
        ``sklearn.utils.extmath.svd_flip``, without its two M × k
        temporaries).  The kept columns, in descending order, are gathered
        from ``u`` in one copy and scaled in place.
        """
        M = u.shape[0]
        order = np.argsort(mu, kind="stable")[::-1][:k]
        mu = mu[order]
        if self.kernel == "precomputed" or callable(self.kernel):
            mu = _check_psd_eigenvalues(mu, enable_warnings=False)
        scale = float(np.max(np.abs(mu), initial=abs(lowest or 0.0)))
        zero = np.abs(mu) <= max(scale, kernel_scale) * M * np.finfo(float).eps
        if self.remove_zero_eig or self.n_components is None:
            mu, order = mu[~zero], order[~zero]
        else:
            mu[zero] = 0.0
        u = np.take(u, order, axis=1)
        inverse_sqrt = np.zeros_like(mu)
        nonzero = mu != 0
        inverse_sqrt[nonzero] = 1.0 / np.sqrt(np.abs(mu[nonzero]))
        u *= _signs(u) * inverse_sqrt

        self._mu = mu
        self.eigenvalues_ = mu / M
        self.alphas_ = u
        self.explained_variance_ratio_ = mu / trace if trace > 0 else np.zeros_like(mu)
        self.n_components_ = mu.size
        self._negative_ratio = None if lowest is None else self._ratio_to_largest(lowest)

    def _ratio_to_largest(self, lowest: float) -> float:
        """|λ_min| / max(λ_max, |λ_min|) for the smallest eigenvalue μ = ``lowest`` of K̃,
        0 where λ_min ≥ 0 or the ratio is below rounding (M·ε)."""
        scale = float(np.max(np.abs(self._mu), initial=abs(lowest)))
        ratio = max(0.0, -lowest) / scale if scale > 0 else 0.0
        return ratio if ratio > self.alphas_.shape[0] * np.finfo(float).eps else 0.0

    @property
    def negative_eigenvalue_ratio_(self) -> float:
        """|most negative eigenvalue| / largest eigenvalue of K̃ (Appendix B.2); 0 when
        K̃ is positive semidefinite.

        Known from the fit after the dense solver (all eigenvalues), for a positive
        semidefinite kernel (its negatives are rounding) and through explicit features or
        landmarks.  An indefinite kernel solved for its top k (``"subset"``, ``"arpack"``,
        ``"randomized"``) finds it here, on first read, once: the kernel matrix again
        (eqs. 10, 49) and its smallest eigenvalue to a relative 1e-4
        (:func:`~kpca_core.eigenproblem.lowest_eigenvalue`).  A fit and transform then cost
        what scikit-learn's do, which never looks for it; the Contours view, which reports
        it, pays it (:func:`kpca_core.budget.lowest_seconds`).
        """
        check_is_fitted(self)
        if self._negative_ratio is None:
            X = self.X_fit_
            K = X.copy() if self.kernel == "precomputed" else self._kernel(X)
            if self.center:
                K = center_kernel(K, overwrite=True)[0]
            self._negative_ratio = self._ratio_to_largest(lowest_eigenvalue(K, self.random_state))
        return self._negative_ratio

    @property
    def eigenvectors_(self) -> np.ndarray:
        """scikit-learn's unit eigenvectors of K̃: α^k √|Mλ_k| (zeros where λ_k = 0)."""
        check_is_fitted(self)
        return self.alphas_ * np.sqrt(np.abs(self._mu))

    # ------------------------------------------------------------ transform
    def _project_blocks(
        self, Y: np.ndarray, alphas: np.ndarray
    ) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
        """β = K̃ᵗᵉˢᵗ α block by block, with the centring of eq. 54 carried through.

        (Kᵗ − 1'_M K − Kᵗ 1_M + 1'_M K 1_M) α
            = Kᵗα − rowmean(Kᵗ) Σ_i α_i − (1/M)1ᵀKα + mean(K) Σ_i α_i,
        so the centred test kernel itself is never formed; rowmean(Kᵗ) comes
        out of the same matrix product as a last column 1/M.  A block of
        ``BLOCK_ROWS`` × M entries of Kᵗᵉˢᵗ (eq. 52) stays in the CPU cache
        while it is raised to its power, projected and centred; a whole
        10⁴ × 300 matrix would be streamed through memory several times (5×
        slower on the contour grid, ``bench/engine.py``).  For a kernel with cheap
        features (:meth:`_explicit_features`), Kᵗᵉˢᵗ A = Φ(Y) (Φ(X)ᵀ A), in blocks of
        as many values, the fitted points mapped once.  ``Y`` is validated.

        Yields
        ------
        rows : slice of ``Y``
        row_means : ndarray, (1/M) Σ_i k(y, x_i) for those rows
        beta : ndarray of shape (block, n)
        """
        M = self.X_fit_.shape[0]
        A = np.column_stack([alphas, np.full(M, 1.0 / M)])
        features = None if sparse.issparse(Y) else self._explicit_features()
        step = BLOCK_ROWS
        if features is not None:  # k(y, x_i) = Φ(y) · Φ(x_i): Kᵗ A = Φ(Y) (Φ(X)ᵀ A)
            fitted = features(self.X_fit_)
            A = fitted.T @ A
            step = BLOCK_ROWS * max(1, M // fitted.shape[1])  # as many values per block
        alpha_sums = alphas.sum(axis=0)
        if self.n_landmarks_ is not None:
            # Nyström: β = k_m(y)ᵀ W v − φ̄ · v, centred in the features' space.
            offset, alpha_sums = -self._landmark_means @ alphas, np.zeros_like(alpha_sums)
        elif self.center:
            offset = self._total_mean * alpha_sums - self._column_means @ alphas
        else:
            offset = 0
        for begin in range(0, Y.shape[0], step):
            rows = slice(begin, begin + step)
            if features is not None:
                K = features(Y[rows])
            else:
                K = Y[rows] if self.kernel == "precomputed" else self._kernel(Y[rows], self.X_fit_)
            P = K @ A
            beta, row_means = P[:, :-1], P[:, -1]
            if self.center or self.n_landmarks_ is not None:
                beta += offset - row_means[:, np.newaxis] * alpha_sums
            yield rows, row_means, beta

    def _explicit_features(self) -> Callable[[np.ndarray], np.ndarray] | None:
        """A feature map Φ with k(x, y) = Φ(x) · Φ(y) that test points are projected
        through, or ``None`` (their kernel values).

        Degree one: the linear kernel's inputs, the cosine kernel's unit rows and
        γ x·y + c's (√γ x, √c) cost what the inputs do, so a test point costs N
        inputs times the k axes instead of M kernel values of N inputs, whatever N
        (wide digits: half the work of a fit and transform, ``bench/engine_sweep.py``).
        A polynomial of higher degree (eqs. 20–22), where it has at most
        :data:`FEATURES_PER_SAMPLE` features per point fitted on: on the Fig. 2 grid
        (300 points in the plane, (x·y)^d: d + 1 features) a test point costs d + 1
        monomials instead of 300 kernel values.
        """
        X = self.X_fit_
        if sparse.issparse(X):
            return None
        if self.kernel in ("linear", "cosine"):
            return np.asarray if self.kernel == "linear" else unit_rows
        if self.kernel != "poly" or not is_positive_semidefinite(
            "poly", degree=self.degree, coef0=self.coef0
        ):
            return None
        dimension = feature_space_dimension(
            "poly", X.shape[1], degree=self.degree, coef0=self.coef0
        )
        if self.degree != 1 and dimension > FEATURES_PER_SAMPLE * X.shape[0]:
            return None
        return self._feature_map()

    def _feature_map(self) -> Callable[[np.ndarray], np.ndarray]:
        """Φ of the polynomial kernel (eqs. 20–22) with this model's parameters."""
        return functools.partial(
            polynomial_features, degree=int(self.degree), gamma=self.gamma_, coef0=self.coef0
        )

    def _project(self, Y: np.ndarray, n: int) -> np.ndarray:
        """β_k = (V^k · Φ̃(y)) for k ≤ n (eqs. 51 and 54) of the validated ``Y``."""
        return np.vstack([beta for _, _, beta in self._project_blocks(Y, self.alphas_[:, :n])])

    def _components(self, n_components: int | None) -> int:
        check_is_fitted(self)
        if n_components is None:
            return self.n_components_
        if int(n_components) != n_components or n_components < 1:
            raise ValueError(f"n_components must be a positive integer, got {n_components!r}")
        return min(int(n_components), self.n_components_)

    def transform(self, X: np.ndarray) -> np.ndarray:
        """Nonlinear principal components of new points (eqs. 51 and 54).

        Parameters
        ----------
        X : array-like of shape (n_points, n_features)
            Points, or the (n_points, n_samples_fit_) test Gram matrix when
            ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_points, n_components_)
            β_k = (V^k · Φ̃(x)) = Σ_i α_i^k k̃(x_i, x).
        """
        check_is_fitted(self)
        return self._project(self._validate_input(X, reset=False), self.n_components_)

    def fit_transform(
        self, X: np.ndarray, y: None = None, *, progress: Progress | None = None
    ) -> np.ndarray:
        """Fit, then return the components of the training points.

        For training points K̃α^k = Mλ_k α^k, so the projections are
        u^k √|Mλ_k| (with the sign of λ_k) and need no second kernel matrix.
        """
        self.fit(X, progress=progress)
        if self.n_landmarks_ is not None:
            return self.transform(X)
        return self._training_projections()

    def _training_projections(self) -> np.ndarray:
        """Components of the training points: K̃α^k = Mλ_k α^k (eq. 12), no kernel needed."""
        return self.alphas_ * self._mu

    # ------------------------------------------------- feature-space error
    def reconstruction_error(self, Y: np.ndarray, n_components: int | None = None) -> np.ndarray:
        """Squared feature-space distance ‖Φ̃(y) − P_n Φ̃(y)‖² of each point.

        By orthonormality of the V^k (eq. 15), ‖Φ̃(y) − P_n Φ̃(y)‖² =
        k̃(y, y) − Σ_{k≤n} β_k², with k̃(y, y) the centred kernel value and
        P_n the projection of Mika et al. eq. (4).  For a negative eigenvalue
        the axis has squared length −1 (Appendix B.2), so its term enters
        with the opposite sign.  A novelty score: ~0 for training points when
        n covers all non-zero components.

        Parameters
        ----------
        Y : array-like of shape (n_points, n_features)
        n_components : int, optional
            n in P_n; defaults to all kept components.

        Returns
        -------
        ndarray of shape (n_points,)
        """
        if self.kernel == "precomputed":
            raise ValueError("reconstruction_error needs k(y, y), unknown for a precomputed kernel")
        n = self._components(n_components)
        self._check_exact("reconstruction_error")
        Y = self._validate_input(Y, reset=False)
        k_yy = kernel_diagonal(
            Y,
            kernel=self.kernel,
            gamma=self.gamma_,
            degree=self.degree,
            coef0=self.coef0,
            kernel_params=self.kernel_params,
        )
        signs = np.sign(self._mu[:n])
        for rows, row_means, beta in self._project_blocks(Y, self.alphas_[:, :n]):
            if self.center:
                k_yy[rows] += self._total_mean - 2.0 * row_means
            k_yy[rows] -= (beta**2) @ signs
        return k_yy

    # ------------------------------------------------------------ pre-images
    def preimage(
        self,
        Y: np.ndarray,
        n_components: int | None = None,
        *,
        method: Literal["fixed-point", "ridge"] = "fixed-point",
        start: np.ndarray | None = None,
        max_iter: int = 300,
        tol: float = 1e-6,
        ridge_alpha: float | None = None,
        random_state: int | np.random.RandomState | None = None,
        return_info: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, dict]:
        """Approximate pre-images z with Φ(z) ≈ P_n Φ(y), one per row of ``Y``: de-noising.

        Parameters
        ----------
        Y : array-like of shape (n_points, n_features)
            The (noisy) points to de-noise.
        n_components : int, optional
            n in the projection P_n (Mika et al. eq. 4); defaults to all.
        method : {"fixed-point", "ridge"}
            ``"fixed-point"``: the iteration of Mika et al. eq. (10), Gaussian
            kernel only, see :func:`kpca_core.preimage.fixed_point_preimage`.
            ``"ridge"``: the learned map of :meth:`inverse_transform`.
        start : array-like of shape (n_points, n_features), optional
            Starting points of the iteration; defaults to ``Y`` itself
            (de-noising, as in the paper).
        max_iter, tol :
            Iteration limit, and the convergence threshold on
            ‖z_{t+1} − z_t‖² / n_features.
        ridge_alpha : float, optional
            Ridge parameter of the ``"ridge"`` method; defaults to ``alpha``.
        random_state :
            Seeds the restarts of the fixed-point iteration.
        return_info : bool
            Also return a dict with ``n_iter``, ``restarts`` and ``converged``
            (see :func:`~kpca_core.preimage.fixed_point_preimage`; the ridge
            method reports no iterations and no restarts).

        Returns
        -------
        Z : ndarray of shape (n_points, n_features)
        info : dict, only if ``return_info``
        """
        n = self._components(n_components)
        if method not in ("fixed-point", "ridge"):
            raise ValueError(f"method must be 'fixed-point' or 'ridge', got {method!r}")
        self._check_inverse(method)
        Y = self._validate_input(Y, reset=False)
        if start is not None:
            start = check_array(start, dtype=np.float64, ensure_all_finite=False)
            _check_finite(start, "start")
            if start.shape != Y.shape:
                raise ValueError(f"start must have the shape of Y, {Y.shape}; got {start.shape}")
        beta = self._project(Y, n)
        alpha = self.alpha if ridge_alpha is None else ridge_alpha
        if method == "ridge":
            Z = self._ridge_map(n, alpha).predict(beta)
            info = {"n_iter": 0, "restarts": 0, "converged": np.ones(len(Z), dtype=bool)}
        else:
            Z, info = self._fixed_point(
                beta, Y if start is None else start, max_iter, tol, random_state
            )
        return (Z, info) if return_info else Z

    @available_if(_has_input_points)
    def inverse_transform(self, X: np.ndarray) -> np.ndarray:
        """Map components back to input space: a pre-image z of Σ_k β_k V^k.

        ``inverse="fixed-point"`` (the default for the Gaussian kernel)
        iterates Mika et al. eq. (10) with the centring correction of
        :func:`kpca_core.preimage.expansion_weights`.  From components alone
        there is no noisy input to start from: the iteration starts from
        the training point of largest weight γ_i in the expansion
        P_n Φ = Σ_i γ_i Φ(x_i), the point it also restarts from.  On the
        USPS digits of Mika et al.'s Fig. 4 this start reaches the same
        MSE as the weighted mean Σγ_i x_i / Σγ_i, the ridge map's answer,
        and the noisy digit itself (``bench/engine.py --inverse-start``),
        and needs no ridge fit.  ``inverse="ridge"`` (the default
        for every other kernel) applies the map learned by kernel ridge
        regression (parameter ``alpha``) from the training points'
        components to the points, with the model's own kernel (Bakır et al.
        2004; scikit-learn's ``KernelPCA(fit_inverse_transform=True)``).

        Parameters
        ----------
        X : array-like of shape (n_points, n)
            Components β_1 … β_n, n ≤ ``n_components_``: the pre-image of the
            projection onto the first n axes.

        Returns
        -------
        ndarray of shape (n_points, n_features_in_)

        Raises
        ------
        AttributeError
            For ``kernel="precomputed"``, which has no input points to map
            back to (``hasattr(model, "inverse_transform")`` is then False,
            as scikit-learn's meta-estimators expect).
        """
        check_is_fitted(self)
        method = self._inverse_method()
        self._check_inverse(method)
        beta = _check_finite(check_array(X, dtype=np.float64, ensure_all_finite=False), "X")
        n = beta.shape[1]
        if n > self.n_components_:
            raise ValueError(
                f"X has {n} components, but this KernelPCA has only {self.n_components_}"
            )
        if method == "ridge":
            return self._ridge_map(n, self.alpha).predict(beta)
        weights = expansion_weights(beta, self.alphas_[:, :n], center=self.center)
        start = self.X_fit_[np.argmax(weights, axis=1)]
        return self._fixed_point(beta, start, 300, 1e-6, self.random_state)[0]

    def _inverse_method(self) -> str:
        if self.inverse != "auto":
            return self.inverse
        if self.fit_inverse_transform:
            return "ridge"
        return "fixed-point" if self.kernel == "rbf" else "ridge"

    def _check_exact(self, what: str) -> None:
        if self.n_landmarks_ is not None:
            raise ValueError(
                f"{what} needs the exact model: this one was fitted with the Nyström "
                "approximation (n_landmarks); refit with n_landmarks=None"
            )

    def _check_inverse(self, method: str) -> None:
        if self.kernel == "precomputed":
            raise ValueError("a pre-image needs input points, and a precomputed kernel has none")
        self._check_exact("a pre-image")
        if self._sparse:
            raise NotFittedError(
                "pre-images are not available for a model fitted on sparse input (nor in "
                "scikit-learn's KernelPCA): fit on X.toarray() to map components back"
            )
        if method == "fixed-point" and self.kernel != "rbf":
            raise ValueError(
                "the fixed-point pre-image (Mika et al. eq. 10) needs the Gaussian (rbf) kernel"
            )

    def _fixed_point(
        self,
        beta: np.ndarray,
        start: np.ndarray,
        max_iter: int,
        tol: float,
        random_state: int | np.random.RandomState | None,
    ) -> tuple[np.ndarray, dict]:
        return fixed_point_preimage(
            beta,
            self.alphas_[:, : beta.shape[1]],
            self.X_fit_,
            gamma=self.gamma_,
            center=self.center,
            start=start,
            max_iter=max_iter,
            tol=tol,
            random_state=random_state,
        )

    def _ridge_map(self, n: int, alpha: float) -> KernelRidge:
        """Kernel ridge regression from the first n components of the training points to them."""
        model = KernelRidge(
            alpha=alpha,
            kernel=self.kernel,
            gamma=self.gamma_,
            degree=self.degree,
            coef0=self.coef0,
            kernel_params=self.kernel_params,
        )
        return model.fit(self._training_projections()[:, :n], self.X_fit_)


def _all_finite(A: np.ndarray) -> bool:
    """Whether no entry is NaN or ±inf: two reductions, no boolean temporary."""
    return bool(np.isfinite(A.max()) and np.isfinite(A.min()))


def _largest_magnitude(A: np.ndarray) -> float:
    """max |A_ij| (NaN or inf if an entry is not finite), from two reductions."""
    return max(abs(float(A.max())), abs(float(A.min())))


def _has_non_finite(X: object) -> bool:
    """Whether ``X`` reads as a numeric array with a NaN or an infinite entry."""
    try:
        array = np.asarray(X, dtype=np.float64)
    except (TypeError, ValueError):
        return False
    return array.size > 0 and not _all_finite(array)


def _check_finite(X: np.ndarray, name: str) -> np.ndarray:
    if not _all_finite(X):
        raise ValueError(NON_FINITE.format(name=name))
    return X


def _check_array(X: np.ndarray, name: str) -> np.ndarray:
    """A non-empty, finite 2-D float array, or a ValueError that says what is wrong.

    For the callers that are not estimators (``kpca_core.spectrum``); the
    estimator validates with scikit-learn's ``validate_data``.
    """
    X = np.asarray(X, dtype=float)
    if X.ndim == 1:
        raise ValueError(f"{name} must be 2-D (n_points, n_features); got a 1-D array")
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array, got shape {X.shape}")
    return _check_finite(X, name)
