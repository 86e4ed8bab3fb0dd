"""The eigenvalue spectrum of the centred kernel matrix as the kernel width varies.

The kernel width decides everything in kernel PCA.  Too narrow, and every
point is similar only to itself: the kernel matrix tends to the identity and
each of the M points becomes its own component.  Too wide, and a Gaussian
behaves like a low-degree polynomial: exp(−‖x−y‖²/2σ²) ≈ 1 − ‖x−y‖²/2σ², and
after centring (eq. 49) only the dot products x·y survive, so the spectrum
tends to that of linear PCA.  :class:`WidthSweep` computes the whole spectrum
for a range of widths so that this transition can be seen.

Equation numbers refer to Schölkopf, Smola & Müller (1998).  For every width
the sweep takes steps 1–3 of the algorithm and stops at the eigenvalues:

1. kernel matrix K_ij = k(x_i, x_j)                      (eq. 10)
2. centring  K̃ = K − 1_M K − K 1_M + 1_M K 1_M            (eq. 49)
3. eigenvalues of  M λ α = K̃ α, i.e. λ = eig(K̃) / M      (eq. 12)

Centring removes any constant matrix, so step 2 is applied to K minus a
constant, E = K − 1 computed by ``expm1``: it keeps the differences between
the k(x_i, x_j) exact when a wide kernel makes them all nearly 1 (see
:meth:`WidthSweep._kernel_minus_constant`).  Eigenvalues at the rounding
level are clipped to zero and counted; widths where K is numerically the
identity or a constant are labelled (``regime_``).

What does not depend on the width is computed once: the pairwise squared
distances (Gaussian), the L1 distances (Laplacian) or the Gram matrix X Xᵀ
(polynomial).  Wide widths, where K̃ has few eigenvalues above the rounding
floor, take them from a pivoted Cholesky factorisation instead of a full
eigenvalue problem (:func:`_low_rank_eigenvalues`).  Eigenvectors are
computed only at one chosen width, by a full
:class:`~kpca_core.kernel_pca.KernelPCA` fit (:meth:`WidthSweep.fit_at`).

The two limits, for M distinct points and the Gaussian kernel:

* σ → 0: K → I, so K̃ → I − 1_M, whose eigenvalues are 1 (M − 1 times) and 0.
  Every variance λ_k = 1/M, and each is a share 1/(M − 1) of the total.
* σ → ∞: K̃ ≈ X̃ X̃ᵀ / σ² (X̃ the centred data), the linear-PCA Gram matrix, so
  λ_k/Σλ tends to linear PCA's explained-variance ratios; on 2-D data the
  first two components take all the variance, (λ₁ + λ₂)/Σλ → 1.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import nullcontext
from typing import Literal

import numpy as np
import pandas as pd
from scipy.linalg import get_lapack_funcs
from scipy.spatial.distance import squareform
from sklearn.decomposition import PCA
from sklearn.metrics.pairwise import manhattan_distances
from threadpoolctl import threadpool_limits

from .kernel_pca import KernelPCA, Progress, _check_array, _notify
from .kernels import sigma_to_gamma, squared_distances

SweepKernel = Literal["rbf", "laplacian", "poly"]
Sweep = Literal["width", "degree"]
Precision = Literal["auto", "double", "single"]

SYMBOLS = {"rbf": "σ", "laplacian": "ℓ", "poly": "c", "degree": "d"}
"""The swept parameter's symbol, by kernel (``"degree"`` for the degree sweep)."""

# Eigenvalues come from ``numpy.linalg.eigvalsh`` (LAPACK ``syevd``): scipy's
# drivers ``ev``, ``evr`` and ``evd`` are equal within noise here
# (``python bench/spectrum.py --drivers``), but scipy's wrapper holds the GIL
# for the whole solve, so the two worker threads below ran one at a time and
# every other session of the server waited.  numpy releases it, but only for
# a stack of matrices or one of more than about 512 rows (numpy 2.4,
# measured): one 300 × 300 matrix at a time held it, so the sweep hands numpy
# stacks of widths.  Two threads then solve 60 widths on 300 points in 92 ms
# against 185 ms for one matrix at a time.

STACK_BYTES = 32 * 2**20
"""Largest stack of kernel matrices one worker solves at once, in bytes."""
MAX_STACK = 8
"""Widths per stack at most, so that the progress bar moves and both workers get work."""

SINGLE_PRECISION_MIN_SAMPLES = 600
"""From this many points up, ``precision="auto"`` works in float32.

The tridiagonal reduction is memory-bound: once the matrix (8 M² bytes in
float64) no longer fits in the cache, halving the bytes halves the time.
Measured per eigenvalue problem: M = 300, 4.4 ms (float64) against 3.5 ms
(float32); M = 700, 60 against 28 ms; M = 1000, 100 against 64 ms, which the
1000-point target of 60 widths within 4 s needs (``bench/spectrum.py``).
The price is a rounding floor (``ROUNDING_ERRORS``) with ε = 1.2e-7 instead
of 2.2e-16: normalised eigenvalues are correct to within 1e-5
(``tests/test_spectrum.py`` checks it against float64), and eigenvalues
below the floor, about 1e-6 of the largest, are clipped to zero, so the
heatmap shows fewer decades of the tail.  Below this size float64 costs
little and shows the whole tail.
"""

ROUNDING_ERRORS = 4.0
"""Rounding errors per entry of the centred matrix Ẽ: the kernel value, the row
mean, the column mean and the overall mean (eq. 49) each add up to ε max|E|.
The perturbation of the eigenvalues is then at most ‖δẼ‖₂ ≤ ‖δẼ‖_F ≤
4 M ε max|E| (Weyl), the "rounding floor"; eigenvalues below it are
indistinguishable from zero."""

LOW_RANK_FRACTION = 0.125
"""Widths whose centred kernel matrix has a numerical rank of at most this
fraction of M get their eigenvalues from a pivoted Cholesky factorisation
(:func:`_low_rank_eigenvalues`); from the first width with a larger rank on,
the sweep solves full eigenvalue problems.  On 300 points of the three rings
that is 16 of the 60 default widths, and the sweep takes 25 % less time
(``python bench/spectrum.py``)."""

NOISE_MARGIN = 100.0
"""A width's spectrum is rounding noise when the largest centred eigenvalue is
below this multiple of the rounding floor (it has fewer than two correct
digits): it is labelled "constant" and its ratios are NaN, not plotted."""

IDENTITY = "identity"
CONSTANT = "constant"


def double_centre(K: np.ndarray) -> np.ndarray:
    """Centre a symmetric Gram matrix in feature space, in place (eq. 49).

    K̃ = K − 1_M K − K 1_M + 1_M K 1_M, with (1_M)_ij = 1/M: subtract the
    column means, the row means (equal, K being symmetric), and add back the
    overall mean.  The same as :func:`kpca_core.kernel_pca.center_kernel`
    without the copy, which matters when it is done for every width.

    Returns
    -------
    K : the same array, centred
    """
    means = K.mean(axis=0)
    total = means.mean()
    K -= means[np.newaxis, :]
    K -= means[:, np.newaxis]
    K += total
    return K


class WidthSweep:
    """The spectrum of the centred kernel matrix over a range of kernel widths.

    Parameters
    ----------
    kernel : {"rbf", "laplacian", "poly"}
        The swept kernel and its parameter:

        * ``"rbf"``: exp(−‖x−y‖²/(2σ²)) (eq. 62), the width σ;
        * ``"laplacian"``: exp(−‖x−y‖₁/ℓ), the width ℓ;
        * ``"poly"``: (x·y + c)^d, the offset c (``sweep="width"``) or the
          degree d = 1, 2, … ``max_degree`` (``sweep="degree"``).
    sweep : {"width", "degree"}, default="width"
        ``"degree"`` is only for ``kernel="poly"``.
    n_widths : int, default=60
        Number of widths, log-spaced.
    decades : (float, float), default=(-3.0, 2.0)
        The range of widths as powers of ten of the data scale ``scale_``:
        the median pairwise distance (Euclidean for ``"rbf"``, L1 for
        ``"laplacian"``), or the mean squared norm ‖x‖² for the c of ``"poly"``
        (the size of x·y).  Relative widths make one default fit any data.
    widths : array-like, optional
        Explicit (absolute) widths, or degrees for ``sweep="degree"``;
        overrides ``n_widths``, ``decades`` and ``max_degree``.
    degree : int, default=3
        The polynomial degree d when c is swept.
    coef0 : float, default=1.0
        The polynomial offset c when the degree is swept.
    max_degree : int, default=10
        The largest degree of the degree sweep.
    precision : {"auto", "double", "single"}, default="auto"
        Floating-point type of the eigenproblems; ``"auto"`` is float64 below
        ``SINGLE_PRECISION_MIN_SAMPLES`` points and float32 from there on.
    n_jobs : int, default=2
        Stacks of widths solved at the same time, one stack per thread.
        numpy's LAPACK releases the GIL for a stack (see ``STACK_BYTES``), and
        each eigensolver then runs with one BLAS thread: the
        tridiagonal reduction gains little from a second BLAS thread, and
        OpenBLAS's threads spin when the 2 cores are busy.  Measured for 60
        widths on 300 points with the machine under load: 0.44 s with two
        single-threaded solvers against 2.6 s with one solver and two BLAS
        threads (``python bench/spectrum.py --drivers``).  While the sweep
        runs, BLAS is limited to one thread in the whole process.

    Attributes
    ----------
    widths_ : ndarray of shape (n_widths,)
        The swept parameter: σ, ℓ, c, or the degrees.
    scale_ : float
        The data scale the ``decades`` refer to (1 for the degree sweep).
    eigenvalues_ : ndarray of shape (n_widths, n_samples)
        Variances λ = eig(K̃)/M (eq. 12) per width, descending; eigenvalues
        at the rounding level are clipped to 0.
    ratios_ : ndarray of shape (n_widths, n_samples)
        Normalised eigenvalues λ_k/Σ_j λ_j; NaN rows where the whole
        spectrum is at the rounding level.
    regime_ : ndarray of shape (n_widths,), dtype object
        ``"identity"`` where the kernel matrix is numerically the identity
        (every off-diagonal k(x_i, x_j) below the machine epsilon);
        ``"constant"`` where every entry of K rounds to the same number (the
        spectrum is still exact there, computed from K − 1), or where even
        the largest eigenvalue is at the rounding level (its ratios are then
        NaN); ``""`` elsewhere.
    floor_ : ndarray of shape (n_widths,)
        The rounding floor in units of λ (see ``ROUNDING_ERRORS``).
    n_clipped_ : ndarray of shape (n_widths,)
        How many eigenvalues per width were at or below the floor (zero or
        negative from rounding) and were set to 0.  With centring, one
        eigenvalue is exactly 0 in exact arithmetic (the constant vector), so
        this is at least 1.
    negative_ratio_ : ndarray of shape (n_widths,)
        |most negative eigenvalue| / largest eigenvalue before clipping; 0
        where none was negative.
    linear_ratios_ : ndarray of shape (n_features,)
        Explained-variance ratios of linear PCA on the same data, the wide
        limit of the Gaussian kernel.
    precision_ : {"double", "single"}
    n_samples_, n_features_in_ : int
    X_fit_ : ndarray of shape (n_samples, n_features)
    """

    def __init__(
        self,
        kernel: SweepKernel = "rbf",
        *,
        sweep: Sweep = "width",
        n_widths: int = 60,
        decades: tuple[float, float] = (-3.0, 2.0),
        widths: np.ndarray | None = None,
        degree: int = 3,
        coef0: float = 1.0,
        max_degree: int = 10,
        precision: Precision = "auto",
        n_jobs: int = 2,
    ) -> None:
        self.kernel = kernel
        self.sweep = sweep
        self.n_widths = n_widths
        self.decades = decades
        self.widths = widths
        self.degree = degree
        self.coef0 = coef0
        self.max_degree = max_degree
        self.precision = precision
        self.n_jobs = n_jobs

    # ---------------------------------------------------------- validation
    def _validate(self) -> None:
        if self.kernel not in ("rbf", "laplacian", "poly"):
            raise ValueError(f"kernel must be 'rbf', 'laplacian' or 'poly', got {self.kernel!r}")
        if self.sweep not in ("width", "degree"):
            raise ValueError(f"sweep must be 'width' or 'degree', got {self.sweep!r}")
        if self.sweep == "degree" and self.kernel != "poly":
            raise ValueError("only the polynomial kernel has a degree to sweep")
        if self.precision not in ("auto", "double", "single"):
            raise ValueError(
                f"precision must be 'auto', 'double' or 'single', got {self.precision!r}"
            )
        if int(self.n_jobs) != self.n_jobs or self.n_jobs < 1:
            raise ValueError(f"n_jobs must be a positive integer, got {self.n_jobs!r}")
        if self.kernel == "poly":
            _check_positive_integer(self.degree, "degree")
            if not (np.isfinite(self.coef0) and self.coef0 >= 0):
                raise ValueError(
                    f"coef0 must be ≥ 0 (a positive semidefinite kernel), got {self.coef0!r}"
                )
        if self.widths is None:
            if self.sweep == "degree":
                _check_positive_integer(self.max_degree, "max_degree")
            else:
                _check_positive_integer(self.n_widths, "n_widths")
                low, high = self.decades
                if not (np.isfinite(low) and np.isfinite(high) and low < high):
                    raise ValueError(
                        f"decades must be two finite numbers with low < high, got {low}, {high}"
                    )

    def _parameter_values(self, scale: float) -> np.ndarray:
        if self.widths is not None:
            widths = np.asarray(self.widths, dtype=float).ravel()
            if widths.size == 0 or not np.all(np.isfinite(widths)):
                raise ValueError("widths must be a non-empty list of finite numbers")
            if self.sweep == "degree":
                for d in widths:
                    _check_positive_integer(d, "every degree")
            elif self.kernel == "poly" and np.any(widths < 0):
                raise ValueError("c must be ≥ 0 (a positive semidefinite kernel)")
            elif self.kernel != "poly" and np.any(widths <= 0):
                raise ValueError("widths must be positive")
            return widths
        if self.sweep == "degree":
            return np.arange(1, int(self.max_degree) + 1, dtype=float)
        return scale * np.logspace(self.decades[0], self.decades[1], int(self.n_widths))

    # ----------------------------------------------------------------- fit
    def _base(self, X: np.ndarray) -> tuple[np.ndarray, float, float]:
        """What does not depend on the width: a matrix, the data scale, min distance.

        Gaussian: squared distances ‖x_i − x_j‖²; Laplacian: L1 distances;
        polynomial: the Gram matrix x_i · x_j.  The minimum off-diagonal
        distance decides where K becomes numerically the identity.
        """
        if self.kernel == "poly":
            G = X @ X.T
            scale = float(np.mean(np.diag(G)))
            if self.sweep == "width" and not scale > 0:
                raise ValueError("every point is at the origin: x·y is 0 and c has no scale")
            return G, scale if self.sweep == "width" else 1.0, 0.0
        if self.kernel == "rbf":
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

    def _kernel_minus_constant(
        self, base: np.ndarray, parameter: float
    ) -> tuple[np.ndarray, float, float]:
        """E with K = scale · (offset + E) for one parameter value (eq. 10).

        Centring (eq. 49) removes any constant matrix, so K̃ = scale · Ẽ: the
        sweep centres E, never K.  This matters for wide kernels, where every
        k(x, y) is close to 1 and K itself holds the differences between
        points only in its last digits.  E keeps them to full relative
        precision:

        * Gaussian / Laplacian: E = exp(−γ d) − 1 = ``expm1(−γ d)``, offset 1;
        * polynomial, c > 0: (x·y + c)^d = c^d (1 + g)^d with g = x·y / c, and
          E = (1 + g)^d − 1 = ``expm1(d · log1p(g))`` (g > −1), offset 1;
        * homogeneous polynomial (c = 0): E = (x·y / max|x·y|)^d, offset 0.

        The scale keeps float32 from overflowing ((x·y + c)^d can be huge) and
        leaves the normalised eigenvalues unchanged.

        Returns
        -------
        E : ndarray of shape (M, M), a new array
        scale, offset : float
        """
        if self.kernel in ("rbf", "laplacian"):
            gamma = sigma_to_gamma(parameter) if self.kernel == "rbf" else 1.0 / parameter
            E = np.multiply(base, -gamma, dtype=base.dtype)
            return np.expm1(E, out=E), 1.0, 1.0
        degree, coef0 = (
            (int(parameter), float(self.coef0))
            if self.sweep == "degree"
            else (int(self.degree), parameter)
        )
        if coef0 == 0:
            largest = float(np.max(np.abs(base)))
            if not largest > 0:
                raise ValueError("the kernel matrix is zero: every x·y is 0")
            E = np.divide(base, largest, dtype=base.dtype)
            return np.power(E, degree, out=E), largest**degree, 0.0
        g = np.divide(base, coef0, dtype=base.dtype)
        # (1 + g)^d − 1 for g ≤ −1 has no cancellation (and no logarithm)
        far = g <= -1
        E = np.log1p(np.where(far, 0, g))
        E *= degree
        np.expm1(E, out=E)
        if np.any(far):
            E[far] = (1 + g[far]) ** degree - 1
        return E, coef0**degree, 1.0

    def _identity_offdiagonal(self, parameter: float, minimum: float) -> float:
        """The largest off-diagonal entry of K / max K: exp(−γ · min distance)."""
        if self.kernel == "rbf":
            return float(np.exp(-sigma_to_gamma(parameter) * minimum))
        if self.kernel == "laplacian":
            return float(np.exp(-minimum / parameter))
        return 1.0  # a polynomial kernel matrix is never the identity

    def fit(self, X: np.ndarray, y: None = None, *, progress: Progress | None = None) -> WidthSweep:
        """Eigenvalues of the centred kernel matrix of ``X`` at every width.

        Parameters
        ----------
        X : ndarray of shape (n_samples, n_features)
        y : ignored
        progress : callable, optional
            Called as ``progress(fraction, message)`` after every width.

        Returns
        -------
        self
        """
        self._validate()
        X = _check_array(X, "X")
        M = X.shape[0]
        if M < 3:
            raise ValueError(f"a spectrum needs at least 3 points, got {M}")
        self.X_fit_ = X
        self.n_samples_, self.n_features_in_ = X.shape
        _notify(progress, 0.0, "distances (once for all widths)")
        base, self.scale_, minimum = self._base(X)
        self.widths_ = self._parameter_values(self.scale_)
        self.precision_ = self._choose_precision(M)
        dtype = np.float32 if self.precision_ == "single" else np.float64
        base = base.astype(dtype, copy=False)
        eps = float(np.finfo(dtype).eps)

        def prepare(index: int) -> tuple[np.ndarray, float, np.ndarray]:
            """The centred Ẽ at one width (eqs. 10, 49), its scale and entry summary."""
            E, scale, offset = self._kernel_minus_constant(base, float(self.widths_[index]))
            low, high = float(E.min()), float(E.max())
            spread = max(abs(low), abs(high))
            return double_centre(E), scale, np.array([scale, spread, high - low, offset])

        def solve(indices: list[int]) -> list[tuple[int, np.ndarray, np.ndarray]]:
            prepared = [prepare(index) for index in indices]
            spectra = np.linalg.eigvalsh(np.stack([centred for centred, _, _ in prepared]))
            return [
                (index, spectrum[::-1].astype(float) * scale, summary)
                for index, spectrum, (_, scale, summary) in zip(
                    indices, spectra, prepared, strict=True
                )
            ]

        n = self.widths_.size
        mu = np.empty((n, M))
        entries = np.empty((n, 4))
        done = 0
        order = self._low_rank_order()
        # Phase 1, from the widest width on: low numerical rank, pivoted Cholesky.
        for index in order:
            centred, scale, entries[index] = prepare(index)
            tolerance = ROUNDING_ERRORS * eps * entries[index, 1]  # the floor / M
            low_rank = _low_rank_eigenvalues(centred, tolerance, M * LOW_RANK_FRACTION)
            if low_rank is None:
                break
            mu[index] = low_rank * scale
            done += 1
            _notify(progress, done / n, f"width {done} of {n}: eigenvalues (eq. 12)")
        # Phase 2, the rest: full symmetric eigenvalue problems, stacks of widths
        # in parallel.
        remaining = order[done:]
        matrix_bytes = M * M * np.dtype(dtype).itemsize
        size = int(np.clip(STACK_BYTES // matrix_bytes, 2, MAX_STACK))
        stacks = [remaining[i : i + size] for i in range(0, len(remaining), size)]
        workers = min(int(self.n_jobs), max(len(stacks), 1))
        with (
            threadpool_limits(1, user_api="blas") if workers > 1 else nullcontext(),
            ThreadPoolExecutor(workers) as pool,
        ):
            futures = [pool.submit(solve, stack) for stack in stacks]
            for future in as_completed(futures):
                for index, spectrum, summary in future.result():
                    mu[index], entries[index] = spectrum, summary
                    done += 1
                    _notify(progress, done / n, f"width {done} of {n}: eigenvalues (eq. 12)")
        if not np.all(np.isfinite(mu)):
            raise ValueError(
                "the kernel matrix overflowed: choose a smaller degree or a smaller range of c"
            )
        self._summarise(mu, entries, eps, minimum)
        self.linear_ratios_ = PCA().fit(X).explained_variance_ratio_
        return self

    def _low_rank_order(self) -> list[int]:
        """Widths from the one with the lowest expected numerical rank on.

        A Gaussian or Laplacian kernel matrix has fewer significant eigenvalues
        the wider the kernel; a polynomial one the lower its degree (for a
        swept c its rank is at most the number of monomials, small throughout).
        """
        order = np.argsort(self.widths_, kind="stable")
        return [int(i) for i in (order if self.sweep == "degree" else order[::-1])]

    def _choose_precision(self, n_samples: int) -> str:
        if self.precision != "auto":
            return self.precision
        return "single" if n_samples >= SINGLE_PRECISION_MIN_SAMPLES else "double"

    def _summarise(self, mu: np.ndarray, entries: np.ndarray, eps: float, minimum: float) -> None:
        """Clip rounding, detect the two limits, normalise.

        ``entries`` holds per width: the scale, max|E|, max E − min E and the
        offset of :meth:`_kernel_minus_constant`.
        """
        n, M = mu.shape
        scale, spread, variation, offset = entries.T
        # the entries of E are exact to ε max|E|, so this bounds the rounding
        floor = ROUNDING_ERRORS * M * eps * spread * scale  # in units of eig(K̃)
        top = mu[:, 0]
        self.negative_ratio_ = np.where(
            (mu[:, -1] < 0) & (top > 0), -mu[:, -1] / np.where(top > 0, top, 1.0), 0.0
        )
        clipped = mu <= floor[:, np.newaxis]
        self.n_clipped_ = clipped.sum(axis=1)
        mu = np.where(clipped, 0.0, mu)
        self.floor_ = floor / M
        self.eigenvalues_ = mu / M

        offdiagonal = np.array([self._identity_offdiagonal(w, minimum) for w in self.widths_])
        regime = np.full(n, "", dtype=object)
        regime[(offdiagonal <= eps) & (minimum > 0)] = IDENTITY
        # K = scale (offset + E) rounds to a constant matrix when the spread of
        # its entries is below ε times their size
        largest = np.maximum(np.abs(offset + spread), np.abs(offset - spread))
        regime[variation <= eps * largest] = CONSTANT
        noise = top <= NOISE_MARGIN * floor
        regime[noise] = CONSTANT
        self.regime_ = regime

        totals = mu.sum(axis=1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            ratios = mu / totals
        ratios[noise] = np.nan
        self.ratios_ = ratios

    # ---------------------------------------------------------- summaries
    def _check_fitted(self) -> None:
        if not hasattr(self, "ratios_"):
            raise RuntimeError("this WidthSweep is not fitted yet: call fit(X) first")

    def share(self, n_components: int = 2) -> np.ndarray:
        """(λ₁ + … + λ_n)/Σλ per width; NaN at numerically constant widths."""
        self._check_fitted()
        _check_positive_integer(n_components, "n_components")
        return self.ratios_[:, :n_components].sum(axis=1)

    def effective_components(self, fraction: float) -> np.ndarray:
        """The fewest leading components whose variance reaches ``fraction`` of the total.

        Parameters
        ----------
        fraction : float in (0, 1]

        Returns
        -------
        ndarray of shape (n_widths,), float
            min{n : Σ_{k≤n} λ_k ≥ fraction · Σλ}; NaN at constant widths.
        """
        self._check_fitted()
        if not 0 < fraction <= 1:
            raise ValueError(f"fraction must be in (0, 1], got {fraction!r}")
        cumulative = np.cumsum(np.nan_to_num(self.ratios_), axis=1)
        # tolerate rounding in the cumulative sum, so that fraction = 1 is reachable
        reached = cumulative >= fraction - 1e-12
        counts = reached.argmax(axis=1).astype(float) + 1.0
        counts[np.isnan(self.ratios_[:, 0])] = np.nan
        return counts

    def kernel_params(self, index: int) -> dict:
        """Keyword arguments of :class:`~kpca_core.kernel_pca.KernelPCA` at one width."""
        self._check_fitted()
        value = float(self.widths_[index])
        if self.kernel == "rbf":
            return {"kernel": "rbf", "gamma": sigma_to_gamma(value)}
        if self.kernel == "laplacian":
            return {"kernel": "laplacian", "gamma": 1.0 / value}
        if self.sweep == "degree":
            return {"kernel": "poly", "gamma": 1.0, "degree": int(value), "coef0": self.coef0}
        return {"kernel": "poly", "gamma": 1.0, "degree": int(self.degree), "coef0": value}

    def fit_at(
        self,
        index: int,
        n_components: int | None = 2,
        *,
        progress: Progress | None = None,
    ) -> KernelPCA:
        """A full kernel PCA (eigenvectors too) at the width ``widths_[index]``."""
        model = KernelPCA(n_components, random_state=0, **self.kernel_params(index))
        return model.fit(self.X_fit_, progress=progress)

    def to_frame(self) -> pd.DataFrame:
        """The sweep as a table, one row per width: the CSV download.

        Columns: the parameter, the regime, (λ₁+λ₂)/Σλ, the effective numbers
        of components for 90 % and 95 %, the clipping report, then λ_k/Σλ
        for every component k.
        """
        self._check_fitted()
        name = "degree" if self.sweep == "degree" else f"{self.kernel}_{_ASCII[self.kernel]}"
        columns = {
            name: self.widths_,
            "regime": self.regime_,
            "share_first_two": self.share(2),
            "components_90": self.effective_components(0.90),
            "components_95": self.effective_components(0.95),
            "n_clipped": self.n_clipped_,
            "most_negative_over_largest": self.negative_ratio_,
        }
        ratios = pd.DataFrame(
            self.ratios_, columns=[f"ratio_{k}" for k in range(1, self.n_samples_ + 1)]
        )
        return pd.concat([pd.DataFrame(columns), ratios], axis=1)


_ASCII = {"rbf": "sigma", "laplacian": "width", "poly": "c"}


def _low_rank_eigenvalues(
    centred: np.ndarray, tolerance: float, max_rank: float
) -> np.ndarray | None:
    """Eigenvalues of a centred kernel matrix of low numerical rank, or None.

    The pivoted Cholesky factorisation (LAPACK ``pstrf``) of the positive
    semidefinite Ẽ stops once every remaining pivot is below ``tolerance``:
    Ẽ = P L Lᵀ Pᵀ + R with L of shape (M, r) and R positive semidefinite with
    diagonal ≤ ``tolerance``, so ‖R‖₂ ≤ trace R ≤ M · tolerance.  With
    ``tolerance`` = floor / M every eigenvalue is then within the rounding
    floor (Weyl), where the sweep clips anyway.  The r nonzero eigenvalues of
    L Lᵀ are those of the r × r matrix Lᵀ L.  For r ≪ M this costs O(M r²)
    instead of the O(M³) of a full eigenvalue problem; for larger r LAPACK's
    unblocked ``pstrf`` is slower than ``eigvalsh`` (measured: 0.1 ms at
    r = 14 and 0.3 ms at r = 51 against 2.5 ms, but 7.8 ms at r = 122, for
    M = 300), hence ``max_rank``.

    Returns
    -------
    mu : ndarray of shape (M,), descending, or None when the rank exceeds ``max_rank``
    """
    (pstrf,) = get_lapack_funcs(("pstrf",), (centred,))
    factor, _, rank, info = pstrf(centred, tol=tolerance, lower=1, overwrite_a=1)
    if info < 0 or rank > max_rank:
        return None
    L = np.tril(factor[:, :rank])
    mu = np.zeros(len(centred))
    mu[:rank] = np.linalg.eigvalsh(L.T @ L)[::-1]
    return mu


def _check_positive_integer(value: float, name: str) -> None:
    if int(value) != value or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")


def component_grid(
    model: KernelPCA,
    X: np.ndarray,
    *,
    n_components: int = 2,
    resolution: int = 80,
    margin: float = 0.15,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The first nonlinear components over a grid covering 2-D data (eqs. 51, 54).

    Parameters
    ----------
    model : fitted KernelPCA
    X : ndarray of shape (n_samples, 2)
        The points whose bounding box, widened by ``margin`` of its size on
        every side, the grid covers.
    n_components : int, default=2
    resolution : int, default=80
        Grid points along each axis.

    Returns
    -------
    xs : ndarray of shape (resolution,)
    ys : ndarray of shape (resolution,)
    values : ndarray of shape (n, resolution, resolution)
        ``values[k, i, j]`` is component k + 1 at (xs[j], ys[i]), for the
        n = min(n_components, model.n_components_) components there are.
    """
    X = _check_array(X, "X")
    if X.shape[1] != 2:
        raise ValueError(f"contour maps need 2-D data, got {X.shape[1]} features")
    low, high = X.min(axis=0), X.max(axis=0)
    pad = margin * np.maximum(high - low, 1e-12)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], resolution)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], resolution)
    gx, gy = np.meshgrid(xs, ys)
    n = min(n_components, model.n_components_)
    values = model.transform(np.column_stack([gx.ravel(), gy.ravel()]))[:, :n]
    return xs, ys, values.T.reshape(n, resolution, resolution)
