"""``WidthSweep``: the spectrum over a range of widths, the steps put together.

The class holds the parameters and the fitted attributes, and calls the steps
in order: the base matrix once (:mod:`~kpca_core.spectrum.base`), the
low-rank shortcut from the widest width on (:mod:`~kpca_core.spectrum.low_rank`),
full eigenvalue problems for the rest (:mod:`~kpca_core.spectrum.dense`), the
summary (:mod:`~kpca_core.spectrum.summary`); the fit at one chosen width
is :mod:`~kpca_core.spectrum.chosen`.  The maths is explained in
:mod:`kpca_core.spectrum`.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA

from ..kernel_pca import KernelPCA, Progress, _check_array, _notify
from . import chosen, summary
from .base import Sweep, SweepKernel, base_matrix, identity_offdiagonal
from .dense import OVERFLOW, centred_kernel, choose_precision, dense_spectra
from .leading import leading_shares
from .low_rank import low_rank_order, low_rank_spectra

Precision = Literal["auto", "double", "single"]

SYMBOLS = {"rbf": "σ", "laplacian": "ℓ", "poly": "c", "degree": "d"}
"""The swept parameter's symbol, by kernel (``"degree"`` for the degree sweep)."""


class WidthSweep:
    """The spectrum of the centred (or uncentred) kernel matrix over a range of kernel widths.

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
    center : bool, default=True
        Centre in feature space (eq. 49), on E = K − 1 (see
        :mod:`kpca_core.spectrum`).  ``False`` takes the eigenvalues of K
        itself, the eigenproblem of eq. 12 on the raw kernel matrix (what
        Deręgowski & Krzyśko solve: they centre only the inputs); the
        constant then matters, and K holds the differences between points
        only to ε max|K|, so the rounding floor is relative to max|K|.
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
        center: bool = True,
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
        self.center = center
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
        if not isinstance(self.center, bool | np.bool_):
            raise ValueError(f"center must be True or False, got {self.center!r}")
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

    def widths_for(self, X: np.ndarray) -> np.ndarray:
        """The widths (σ, ℓ, c or degrees) a fit on ``X`` sweeps, ``widths_``, without fitting.

        Only the data scale is computed (:func:`~kpca_core.spectrum.base.base_matrix`),
        so that what needs the widths alone (the uncentred shares of
        :func:`~kpca_core.spectrum.leading_shares`) can start beside the fit.
        """
        self._validate()
        _, scale, _ = base_matrix(_check_array(X, "X"), self.kernel, self.sweep)
        return self._parameter_values(scale)

    def leading_shares(
        self, X: np.ndarray, n_components: int = 2, *, progress: Progress | None = None
    ) -> np.ndarray:
        """(λ₁ + … + λ_n)/Σλ at each width a fit on ``X`` sweeps, without fitting.

        :func:`~kpca_core.spectrum.leading.leading_shares` at :meth:`widths_for`
        (centred as ``center`` says): the same numbers as ``fit(X).share(n_components)``
        (to within the rounding floor), from the leading eigenvalues only.  A method,
        so that a worker process can be sent it with the sweep's settings, beside the fit.
        """
        return leading_shares(
            X,
            self.widths_for(X),
            kernel=self.kernel,
            n_components=n_components,
            center=bool(self.center),
            progress=progress,
        )

    def fit(self, X: np.ndarray, y: None = None, *, progress: Progress | None = None) -> WidthSweep:
        """Eigenvalues of the centred (``center=False``: raw) kernel matrix of ``X`` per width.

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
        base, self.scale_, minimum = base_matrix(X, self.kernel, self.sweep)
        self.widths_ = self._parameter_values(self.scale_)
        self.precision_ = choose_precision(self.precision, M)
        dtype = np.float32 if self.precision_ == "single" else np.float64
        base = base.astype(dtype, copy=False)
        eps = float(np.finfo(dtype).eps)

        def centred_at(index: int) -> tuple[np.ndarray, float, np.ndarray]:
            params = self._params(float(self.widths_[index]))
            return centred_kernel(base, params, center=bool(self.center))

        n = self.widths_.size
        mu = np.empty((n, M))
        entries = np.empty((n, 4))
        done = 0

        def solved(index: int, spectrum: np.ndarray, entry_summary: np.ndarray) -> None:
            nonlocal done
            mu[index], entries[index] = spectrum, entry_summary
            done += 1
            _notify(progress, done / n, f"width {done} of {n}: eigenvalues (eq. 12)")

        order = low_rank_order(self.widths_, self.sweep)
        # Phase 1, from the widest width on: low numerical rank, pivoted Cholesky.
        n_low_rank = low_rank_spectra(centred_at, order, eps, solved)
        # Phase 2, the rest: full symmetric eigenvalue problems, stacks of widths
        # in parallel.
        matrix_bytes = M * M * np.dtype(dtype).itemsize
        dense_spectra(centred_at, order[n_low_rank:], matrix_bytes, self.n_jobs, solved)
        if not np.all(np.isfinite(mu)):
            raise ValueError(OVERFLOW)
        self._summarise(mu, entries, eps, minimum)
        self.linear_ratios_ = PCA().fit(X).explained_variance_ratio_
        return self

    def _params(self, value: float) -> dict:
        return chosen.kernel_params(
            self.kernel, self.sweep, value, degree=self.degree, coef0=self.coef0
        )

    def _summarise(self, mu: np.ndarray, entries: np.ndarray, eps: float, minimum: float) -> None:
        """Clip rounding, detect the two limits, normalise (:func:`summary.summarise`)."""
        offdiagonal = np.array(
            [identity_offdiagonal(self.kernel, w, minimum) for w in self.widths_]
        )
        result = summary.summarise(mu, entries, eps, offdiagonal, minimum)
        self.negative_ratio_ = result.negative_ratio
        self.n_clipped_ = result.n_clipped
        self.floor_ = result.floor
        self.eigenvalues_ = result.eigenvalues
        self.regime_ = result.regime
        self.ratios_ = result.ratios

    # ---------------------------------------------------------- summaries
    def _check_fitted(self) -> None:
        if not hasattr(self, "ratios_"):
            raise RuntimeError("this WidthSweep is not fitted yet: call fit(X) first")

    def share(self, n_components: int = 2) -> np.ndarray:
        """(λ₁ + … + λ_n)/Σλ per width; NaN at numerically constant widths."""
        self._check_fitted()
        _check_positive_integer(n_components, "n_components")
        return summary.share(self.ratios_, n_components)

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
        return summary.effective_components(self.ratios_, fraction)

    def kernel_params(self, index: int) -> dict:
        """Keyword arguments of :class:`~kpca_core.kernel_pca.KernelPCA` at one width."""
        self._check_fitted()
        return self._params(float(self.widths_[index]))

    def fit_at(
        self,
        index: int,
        n_components: int | None = 2,
        *,
        progress: Progress | None = None,
    ) -> KernelPCA:
        """A full kernel PCA (eigenvectors too) at the width ``widths_[index]``."""
        return chosen.fit_at(
            self.X_fit_,
            {**self.kernel_params(index), "center": bool(self.center)},
            n_components,
            progress=progress,
        )

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


def _check_positive_integer(value: float, name: str) -> None:
    if int(value) != value or value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value!r}")
