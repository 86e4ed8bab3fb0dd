"""Kernel principal component analysis, exactly as in the papers.

Equation numbers refer to Schölkopf, Smola & Müller, *Nonlinear component
analysis as a kernel eigenvalue problem* (1998; the text in
``shared/papers/scholkopf-smola-muller-1996-kernel-pca.md``), and, for
pre-images, to Mika et al., *Kernel PCA and de-noising in feature spaces*
(1999).

The five steps of the algorithm, and where they live below:

1. kernel matrix K_ij = k(x_i, x_j)                          (eq. 10)  ``fit``
2. centring in feature space  K̃ = K − 1_M K − K 1_M + 1_M K 1_M  (eq. 49)  ``fit``
3. eigenproblem  M λ α = K̃ α                                 (eq. 12/46) ``_eigsolve``
4. normalisation  (Mλ)(α · α) = 1, i.e. ‖V‖ = 1 in F          (eq. 16/50) ``fit``
5. projection  (V^k · Φ(t)) = Σ_i α_i^k k̃(x_i, t)            (eq. 17/51/54) ``transform``
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Literal

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, eigsh
from sklearn.kernel_ridge import KernelRidge
from sklearn.utils import check_random_state
from sklearn.utils.extmath import svd_flip

from .kernels import (
    KERNELS,
    feature_space_dimension,
    is_positive_semidefinite,
    kernel_diagonal,
    kernel_matrix,
)

Progress = Callable[[float, str], None]
"""A progress callback: called with a fraction in [0, 1] and a short message."""

EigenSolver = Literal["auto", "dense", "subset", "arpack"]

# Crossovers of ``eigen_solver="auto"``, measured on the 2-core machine the app
# is served from (``bench/engine.py --solvers`` prints the table behind them).
ARPACK_MIN_SAMPLES = 1500
ARPACK_MAX_COMPONENTS = 30
SUBSET_MAX_FRACTION = 0.5
LOW_RANK = 50
ARPACK_MAX_RESTARTS = 100
BLOCK_ROWS = 256


def _notify(progress: Progress | None, fraction: float, message: str) -> None:
    if progress is not None:
        progress(fraction, message)


def center_kernel(K: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Centre a training Gram matrix in feature space (eq. 49).

    K̃ = K − 1_M K − K 1_M + 1_M K 1_M, with (1_M)_ij = 1/M.

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
    K_centered = K - column_means[np.newaxis, :]
    K_centered -= column_means[:, np.newaxis]  # K is symmetric: row means = column means
    K_centered += total_mean
    return K_centered, column_means, total_mean


class KernelPCA:
    """Kernel PCA (Schölkopf, Smola & Müller 1998) with pre-images (Mika et al. 1999).

    Parameters
    ----------
    n_components : int, optional
        Number of components to keep.  ``None`` keeps every component with a
        non-zero eigenvalue.  Components with a zero eigenvalue are always
        dropped, so ``n_components_`` can be smaller than asked.
    kernel : {"linear", "poly", "rbf", "laplacian", "sigmoid", "precomputed"}
        See :func:`kpca_core.kernels.kernel_matrix`.  ``"precomputed"`` takes
        Gram matrices in ``fit`` and ``transform`` instead of points.
    gamma : float, optional
        Kernel coefficient of rbf, laplacian, poly and sigmoid.  ``None`` means
        1 / n_features.  Use :func:`kpca_core.kernels.sigma_to_gamma` or
        :func:`~kpca_core.kernels.c_to_gamma` to convert a width.
    degree : float, default=3
        Degree d of the polynomial kernel (γ x·y + c)^d.
    coef0 : float, default=1.0
        The c of poly and sigmoid; ``coef0=0`` gives the homogeneous
        polynomial (x·y)^d of eq. 22 (with ``gamma=1``).
    center : bool, default=True
        Centre the data in feature space (Appendix A).  ``False`` is the
        eigenproblem of eq. 12 on the raw K.
    eigen_solver : {"auto", "dense", "subset", "arpack"}, default="auto"
        ``"dense"``: all eigenpairs, LAPACK's divide and conquer
        (``numpy.linalg.eigh``, which releases the GIL); ``"subset"``: the
        top ``n_components`` with ``scipy.linalg.eigh``'s ``subset_by_index``;
        ``"arpack"``: ``scipy.sparse.linalg.eigsh``;
        ``"auto"`` picks the fastest of these for the problem size (measured
        crossovers, see ``bench/engine.py``).
    random_state : int, RandomState instance or None
        Seeds ARPACK's starting vector (the only random step), so that the
        same call gives the same result.

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
        |most negative eigenvalue| / largest eigenvalue; 0 for a positive
        semidefinite kernel matrix.  Reported so the UI can say how far an
        indefinite kernel is from being a dot product.
    n_components_ : int
    n_samples_fit_ : int
    n_features_in_ : int
    gamma_ : float
    X_fit_ : ndarray of shape (n_samples, n_features)
    eigen_solver_ : str
        The solver that was used.
    """

    def __init__(
        self,
        n_components: int | None = None,
        *,
        kernel: str = "rbf",
        gamma: float | None = None,
        degree: float = 3,
        coef0: float = 1.0,
        center: bool = True,
        eigen_solver: EigenSolver = "auto",
        random_state: int | np.random.RandomState | None = None,
    ) -> None:
        self.n_components = n_components
        self.kernel = kernel
        self.gamma = gamma
        self.degree = degree
        self.coef0 = coef0
        self.center = center
        self.eigen_solver = eigen_solver
        self.random_state = random_state

    # ------------------------------------------------------------------ fit
    def _validate(self, X: np.ndarray) -> np.ndarray:
        if self.kernel not in KERNELS:
            raise ValueError(f"kernel must be one of {KERNELS}, got {self.kernel!r}")
        if self.eigen_solver not in ("auto", "dense", "subset", "arpack"):
            raise ValueError(
                "eigen_solver must be 'auto', 'dense', 'subset' or 'arpack', "
                f"got {self.eigen_solver!r}"
            )
        if self.n_components is not None and (
            int(self.n_components) != self.n_components or self.n_components < 1
        ):
            raise ValueError(f"n_components must be a positive integer, got {self.n_components!r}")
        if self.kernel == "poly" and not self.degree > 0:
            raise ValueError(f"degree must be positive, got {self.degree!r}")
        if self.gamma is not None and not (np.isfinite(self.gamma) and self.gamma > 0):
            raise ValueError(f"gamma must be a positive finite number, got {self.gamma!r}")
        return _check_array(X, "X")

    def _kernel(self, X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
        return kernel_matrix(
            X, Y, kernel=self.kernel, gamma=self.gamma_, degree=self.degree, coef0=self.coef0
        )

    def fit(self, X: np.ndarray, y: None = None, *, progress: Progress | None = None) -> KernelPCA:
        """Solve the kernel eigenproblem for the training points ``X``.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
            Training points, or the (n_samples, n_samples) Gram matrix when
            ``kernel="precomputed"``.
        y : ignored
        progress : callable, optional
            Called as ``progress(fraction, message)`` between the steps.

        Returns
        -------
        self
        """
        X = self._validate(X)
        M = X.shape[0]
        if self.kernel == "precomputed" and X.shape != (M, M):
            raise ValueError(f"a precomputed kernel must be square, got shape {X.shape}")
        self.n_features_in_ = X.shape[1]
        self.gamma_ = 1.0 / X.shape[1] if self.gamma is None else float(self.gamma)
        self.X_fit_ = X
        self.n_samples_fit_ = M

        _notify(progress, 0.0, "kernel matrix (eq. 10)")
        with np.errstate(over="ignore", invalid="ignore"):  # reported just below
            K = X.copy() if self.kernel == "precomputed" else self._kernel(X)
        if not np.all(np.isfinite(K)):
            raise ValueError(
                "the kernel matrix has non-finite entries (too large for floating point): "
                "lower gamma or degree, or rescale the data"
            )
        _notify(progress, 0.2, "centring in feature space (eq. 49)")
        if self.center:
            K, self._column_means, self._total_mean = center_kernel(K)
            if not np.all(np.isfinite(K)):
                raise ValueError(
                    "centring the kernel matrix overflowed: its entries are too large; "
                    "lower gamma or degree, or rescale the data"
                )
        trace = float(np.trace(K))

        _notify(progress, 0.3, "eigenproblem (eq. 12)")
        mu, u, mu_min = self._eigsolve(K)
        if not (np.all(np.isfinite(mu)) and np.isfinite(mu_min)):
            raise ValueError(
                "the eigenproblem overflowed: the kernel matrix's entries are too large; "
                "lower gamma or degree, or rescale the data"
            )
        _notify(progress, 0.9, "normalisation (eq. 50)")

        # Drop zero eigenvalues (numerical rank, as numpy.linalg.matrix_rank
        # decides it): they carry no variance, and eq. 50 would divide by 0.
        scale = max(float(np.max(np.abs(mu))), abs(mu_min)) if mu.size else 0.0
        keep = np.abs(mu) > scale * M * np.finfo(float).eps
        mu, u = mu[keep], u[:, keep]
        if mu.size == 0:
            where = " after centring" if self.center else ""
            raise ValueError(
                f"the kernel matrix is zero{where}: every point looks the same to this kernel "
                "(all points equal, or the kernel width is so large that k is constant)"
            )
        u, _ = svd_flip(u, None)

        self._mu = mu
        self.eigenvalues_ = mu / M
        self.alphas_ = u / np.sqrt(np.abs(mu))
        self.explained_variance_ratio_ = mu / trace if trace > 0 else np.zeros_like(mu)
        self.negative_eigenvalue_ratio_ = max(0.0, -mu_min) / scale if scale else 0.0
        if self.negative_eigenvalue_ratio_ <= M * np.finfo(float).eps:
            self.negative_eigenvalue_ratio_ = 0.0
        self.n_components_ = mu.size
        _notify(progress, 1.0, "done")
        return self

    def _choose_solver(self, M: int, k: int) -> str:
        """The fastest solver for k of M eigenpairs, by the crossovers measured.

        ARPACK wins when M is large and k small, and whenever the kernel's
        feature space is low-dimensional (rank(K) ≤ dim F, so the Krylov
        space is exhausted after a few steps: the polynomial kernels on 2-D
        data of Fig. 2); ``eigh`` with ``subset_by_index`` wins for small,
        full-rank matrices; the full divide-and-conquer ``eigh`` for k ≥ M/2.
        """
        if self.eigen_solver != "auto":
            return self.eigen_solver
        if k >= SUBSET_MAX_FRACTION * M:
            return "dense"
        dim_f = feature_space_dimension(
            self.kernel, self.n_features_in_, degree=self.degree, coef0=self.coef0
        )
        low_rank = dim_f is not None and dim_f <= LOW_RANK
        if k <= ARPACK_MAX_COMPONENTS and (M >= ARPACK_MIN_SAMPLES or low_rank):
            return "arpack"
        return "subset"

    def _eigsolve(self, K: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
        """Leading eigenpairs of the symmetric K, descending, and its smallest eigenvalue."""
        M = K.shape[0]
        k = M if self.n_components is None else min(int(self.n_components), M)
        solver = self._choose_solver(M, k)
        if solver == "arpack" and k >= M - 1:
            solver = "dense"  # ARPACK needs k < M - 1
        # An indefinite kernel may have a negative eigenvalue outside the top k:
        # find the smallest one too, so that it is reported.
        lowest = np.inf
        if solver != "dense" and not self._is_psd():
            lowest = linalg.eigh(K, eigvals_only=True, subset_by_index=(0, 0), check_finite=False)
            lowest = float(lowest[0])

        if solver == "arpack":
            v0 = check_random_state(self.random_state).uniform(-1, 1, M)
            try:
                mu, u = eigsh(K, k=k, which="LA", v0=v0, maxiter=ARPACK_MAX_RESTARTS)
            except ArpackError:
                # A nearly flat spectrum (K ≈ I) stalls ARPACK; K = 0 stops it at once.
                solver = "subset"
        if solver == "subset":
            mu, u = linalg.eigh(K, subset_by_index=(M - k, M - 1), check_finite=False)
            if mu.size < k:
                # LAPACK's index-range driver can return nothing from inside a
                # large cluster of equal eigenvalues (K̃ ≈ I − 1_M, σ → 0).
                solver = "dense"
        if solver == "dense":
            # The same LAPACK divide and conquer as scipy's eigh(driver="evd"), as
            # fast, but numpy releases the GIL while it runs: scipy's wrapper
            # holds it, and one large fit froze every other session of the
            # server for its whole duration (bench/load_test.py --heavy).
            mu, u = np.linalg.eigh(K)
        self.eigen_solver_ = solver
        order = np.argsort(mu)[::-1][:k]
        return mu[order], u[:, order], min(lowest, float(mu.min()))

    def _is_psd(self) -> bool:
        return is_positive_semidefinite(self.kernel, degree=self.degree, coef0=self.coef0)

    # ------------------------------------------------------------ transform
    def _test_kernel_blocks(self, Y: np.ndarray) -> Iterator[tuple[slice, np.ndarray]]:
        """Row blocks of the uncentred test kernel Kᵗᵉˢᵗ (eq. 52).

        A block of ``BLOCK_ROWS`` × M entries stays in the CPU cache while it
        is raised to its power, projected and centred; a whole 10⁴ × 300
        matrix would be streamed through memory several times (5× slower on
        the contour grid, ``bench/engine.py``).
        """
        self._check_fitted()
        Y = _check_array(Y, "Y")
        if self.kernel == "precomputed":
            if Y.shape[1] != self.n_samples_fit_:
                raise ValueError(
                    f"a precomputed test kernel needs {self.n_samples_fit_} columns, "
                    f"got {Y.shape[1]}"
                )
        elif Y.shape[1] != self.n_features_in_:
            raise ValueError(
                f"Y has {Y.shape[1]} features, but the model was fitted on {self.n_features_in_}"
            )
        for begin in range(0, Y.shape[0], BLOCK_ROWS):
            rows = slice(begin, begin + BLOCK_ROWS)
            block = Y[rows]
            yield rows, block if self.kernel == "precomputed" else self._kernel(block, self.X_fit_)

    def _project_blocks(
        self, Y: np.ndarray, alphas: np.ndarray
    ) -> Iterator[tuple[slice, np.ndarray, np.ndarray]]:
        """β = K̃ᵗᵉˢᵗ α block by block, with the centring of eq. 54 carried through.

        (Kᵗ − 1'_M K − Kᵗ 1_M + 1'_M K 1_M) α
            = Kᵗα − rowmean(Kᵗ) Σ_i α_i − (1/M)1ᵀKα + mean(K) Σ_i α_i,
        so the centred test kernel itself is never formed; rowmean(Kᵗ) comes
        out of the same matrix product as a last column 1/M.

        Yields
        ------
        rows : slice of ``Y``
        row_means : ndarray, (1/M) Σ_i k(y, x_i) for those rows
        beta : ndarray of shape (block, n)
        """
        M = self.n_samples_fit_
        A = np.column_stack([alphas, np.full(M, 1.0 / M)])
        alpha_sums = alphas.sum(axis=0)
        offset = self._total_mean * alpha_sums - self._column_means @ alphas if self.center else 0
        for rows, K in self._test_kernel_blocks(Y):
            P = K @ A
            beta, row_means = P[:, :-1], P[:, -1]
            if self.center:
                beta += offset - row_means[:, np.newaxis] * alpha_sums
            yield rows, row_means, beta

    def _components(self, n_components: int | None) -> int:
        self._check_fitted()
        if n_components is None:
            return self.n_components_
        if int(n_components) != n_components or n_components < 1:
            raise ValueError(f"n_components must be a positive integer, got {n_components!r}")
        return min(int(n_components), self.n_components_)

    def transform(self, Y: np.ndarray) -> np.ndarray:
        """Nonlinear principal components of new points (eqs. 51 and 54).

        Parameters
        ----------
        Y : ndarray of shape (n_points, n_features)
            Points, or the (n_points, n_samples_fit_) test Gram matrix when
            ``kernel="precomputed"``.

        Returns
        -------
        ndarray of shape (n_points, n_components_)
            β_k = (V^k · Φ̃(y)) = Σ_i α_i^k k̃(x_i, y).
        """
        self._check_fitted()
        return np.vstack([beta for _, _, beta in self._project_blocks(Y, self.alphas_)])

    def fit_transform(
        self, X: np.ndarray, y: None = None, *, progress: Progress | None = None
    ) -> np.ndarray:
        """Fit, then return the components of the training points.

        For training points K̃α^k = Mλ_k α^k, so the projections are
        u^k √|Mλ_k| (with the sign of λ_k) and need no second kernel matrix.
        """
        return self.fit(X, progress=progress)._training_projections()

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
        Y : ndarray of shape (n_points, n_features)
        n_components : int, optional
            n in P_n; defaults to all kept components.

        Returns
        -------
        ndarray of shape (n_points,)
        """
        if self.kernel == "precomputed":
            raise ValueError("reconstruction_error needs k(y, y), unknown for a precomputed kernel")
        n = self._components(n_components)
        Y = _check_array(Y, "Y")
        k_yy = kernel_diagonal(
            Y, kernel=self.kernel, gamma=self.gamma_, degree=self.degree, coef0=self.coef0
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
        ridge_alpha: float = 1.0,
        random_state: int | np.random.RandomState | None = None,
        return_info: bool = False,
    ) -> np.ndarray | tuple[np.ndarray, dict]:
        """Approximate pre-images z with Φ(z) ≈ P_n Φ(y), one per row of ``Y``.

        Parameters
        ----------
        Y : ndarray of shape (n_points, n_features)
            The (noisy) points to de-noise.
        n_components : int, optional
            n in the projection P_n (Mika et al. eq. 4); defaults to all.
        method : {"fixed-point", "ridge"}
            ``"fixed-point"``: the iteration of Mika et al. eq. (10), Gaussian
            kernel only, see :func:`kpca_core.preimage.fixed_point_preimage`.
            ``"ridge"``: a learned map from the first n components back to
            input space, by kernel ridge regression on the training points
            (scikit-learn's ``fit_inverse_transform``).
        start : ndarray of shape (n_points, n_features), optional
            Starting points of the iteration; defaults to ``Y`` itself
            (de-noising, as in the paper).
        max_iter, tol :
            Iteration limit, and the convergence threshold on
            ‖z_{t+1} − z_t‖² / n_features.
        ridge_alpha : float
            Ridge parameter of the ``"ridge"`` method.
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
        from .preimage import fixed_point_preimage

        n = self._components(n_components)
        Y = _check_array(Y, "Y")
        if method not in ("fixed-point", "ridge"):
            raise ValueError(f"method must be 'fixed-point' or 'ridge', got {method!r}")
        if method == "fixed-point" and self.kernel != "rbf":
            raise ValueError(
                "the fixed-point pre-image (Mika et al. eq. 10) needs the Gaussian (rbf) kernel"
            )
        if method == "ridge" and self.kernel == "precomputed":
            raise ValueError("the ridge pre-image needs input points, not a precomputed kernel")
        if start is not None:
            start = _check_array(start, "start")
            if start.shape != Y.shape:
                raise ValueError(f"start must have the shape of Y, {Y.shape}; got {start.shape}")
        # β_k = (V^k · Φ̃(y)) for k ≤ n only (eq. 4 needs no more): the first n α^k.
        beta = np.vstack([b for _, _, b in self._project_blocks(Y, self.alphas_[:, :n])])
        if method == "ridge":
            train = self._training_projections()[:, :n]
            model = KernelRidge(alpha=ridge_alpha, kernel="rbf", gamma=self.gamma_)
            Z = model.fit(train, self.X_fit_).predict(beta)
            info = {"n_iter": 0, "restarts": 0, "converged": np.ones(len(Z), dtype=bool)}
            return (Z, info) if return_info else Z
        Z, info = fixed_point_preimage(
            beta,
            self.alphas_[:, :n],
            self.X_fit_,
            gamma=self.gamma_,
            center=self.center,
            start=Y if start is None else start,
            max_iter=max_iter,
            tol=tol,
            random_state=random_state,
        )
        return (Z, info) if return_info else Z

    def _training_projections(self) -> np.ndarray:
        """Components of the training points: K̃α^k = Mλ_k α^k (eq. 12), no kernel needed."""
        return self.alphas_ * self._mu

    def _check_fitted(self) -> None:
        if not hasattr(self, "alphas_"):
            raise RuntimeError("this KernelPCA is not fitted yet: call fit(X) first")


def _check_array(X: np.ndarray, name: str) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    if X.ndim == 1:
        raise ValueError(f"{name} must be 2-D (n_points, n_features); got a 1-D array")
    if X.ndim != 2 or X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} must be a non-empty 2-D array, got shape {X.shape}")
    if not np.all(np.isfinite(X)):
        raise ValueError(f"{name} contains NaN or infinite values: remove or replace them")
    return X
