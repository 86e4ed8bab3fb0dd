"""Per width: the kernel matrix minus a constant, centred, and its eigenvalues.

Steps 1–3 of the algorithm at one width, from the base matrix of
:mod:`kpca_core.spectrum.base`:

1. E = K/scale − offset from the base matrix (eq. 10), by ``expm1`` so that
   wide kernels keep their differences (:func:`kernel_minus_constant`);
2. centring, in place: Ẽ = E − 1_M E − E 1_M + 1_M E 1_M (eq. 49,
   :func:`double_centre`); it removes the constant, so K̃ = scale · Ẽ;
3. the eigenvalues of Ẽ by full symmetric eigenvalue problems, stacks of
   widths on worker threads (eq. 12, :func:`dense_spectra`).

The widths of low numerical rank take a shortcut instead of step 3
(:mod:`kpca_core.spectrum.low_rank`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from contextlib import nullcontext

import numpy as np
from threadpoolctl import threadpool_limits

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
OVERFLOW = "the kernel matrix overflowed: choose a smaller degree or a smaller range of c"
"""What a sweep whose kernel values no float holds says (a ``ValueError``)."""

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

Centred = tuple[np.ndarray, float, np.ndarray]
"""What :func:`centred_at` gives for one width: Ẽ, its scale, its entry summary."""
Solved = Callable[[int, np.ndarray, np.ndarray], None]
"""Called as ``solved(index, eig(K̃) descending, entry summary)`` once per width."""


def choose_precision(precision: str, n_samples: int) -> str:
    """``"double"`` or ``"single"``: ``precision`` itself unless it is ``"auto"``."""
    if precision != "auto":
        return precision
    return "single" if n_samples >= SINGLE_PRECISION_MIN_SAMPLES else "double"


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


def kernel_minus_constant(
    base: np.ndarray,
    *,
    kernel: str,
    gamma: float = 1.0,
    degree: int = 3,
    coef0: float = 1.0,
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

    Parameters
    ----------
    base : ndarray of shape (M, M)
        From :func:`kpca_core.spectrum.base.base_matrix`: squared distances
        (``"rbf"``), L1 distances (``"laplacian"``) or the Gram matrix
        (``"poly"``).
    kernel, gamma, degree, coef0
        The kernel at this width, as :class:`~kpca_core.kernel_pca.KernelPCA`
        takes it (``WidthSweep.kernel_params``); ``gamma`` is ignored for
        ``"poly"``.

    Returns
    -------
    E : ndarray of shape (M, M), a new array
    scale, offset : float
    """
    if kernel in ("rbf", "laplacian"):
        E = np.multiply(base, -gamma, dtype=base.dtype)
        return np.expm1(E, out=E), 1.0, 1.0
    degree, coef0 = int(degree), float(coef0)
    if coef0 == 0:
        largest = float(np.max(np.abs(base)))
        if not largest > 0:
            raise ValueError("the kernel matrix is zero: every x·y is 0")
        E = np.divide(base, largest, dtype=base.dtype)
        return np.power(E, degree, out=E), _power(largest, degree), 0.0
    g = np.divide(base, coef0, dtype=base.dtype)
    # (1 + g)^d − 1 for g ≤ −1 has no cancellation (and no logarithm)
    far = g <= -1
    E = np.log1p(np.where(far, 0, g))
    E *= degree
    np.expm1(E, out=E)
    if np.any(far):
        E[far] = (1 + g[far]) ** degree - 1
    return E, _power(coef0, degree), 1.0


def _power(value: float, degree: int) -> float:
    """``value ** degree``, the scale c^d of :func:`kernel_minus_constant`, checked.

    Data that is allowed (coordinates up to 1e100) makes x·y and so c up to
    ~1e200, whose cube no float holds: Python raises ``OverflowError`` there.
    That is told as the ``ValueError`` the sweep gives for any overflow.
    """
    try:
        return value**degree
    except OverflowError:
        raise ValueError(OVERFLOW) from None


def centred_kernel(base: np.ndarray, params: dict, *, center: bool = True) -> Centred:
    """The centred Ẽ at one width (eqs. 10, 49), its scale and entry summary.

    Without centring the constant matters (eig(K) ≠ eig(K − 1)), so the
    matrix is K / scale itself, exact to ε max|K| only: wide kernels lose
    the differences between points that centring keeps.

    Parameters
    ----------
    base : ndarray of shape (M, M)
    params : dict
        The kernel at this width (``WidthSweep.kernel_params``).
    center : bool, default=True
        ``False``: K / scale, uncentred (the eigenproblem of eq. 12 on K).

    Returns
    -------
    centred : ndarray of shape (M, M)
        Ẽ, with K̃ = scale · Ẽ (uncentred: K / scale).
    scale : float
    summary : ndarray of shape (4,)
        The scale, the largest |entry| of the matrix before centring, its
        max − min and the offset of :func:`kernel_minus_constant` (0
        uncentred, where K / scale is offset + E itself): what the rounding
        floor and the regimes are judged by (:mod:`kpca_core.spectrum.summary`).
    """
    E, scale, offset = kernel_minus_constant(base, **params)
    if not center:
        E += offset
        offset = 0.0
    low, high = float(E.min()), float(E.max())
    spread = max(abs(low), abs(high))
    matrix = double_centre(E) if center else E
    return matrix, scale, np.array([scale, spread, high - low, offset])


def dense_spectra(
    centred_at: Callable[[int], Centred],
    indices: Sequence[int],
    matrix_bytes: int,
    n_jobs: int,
    solved: Solved,
) -> None:
    """Eigenvalues of K̃ = scale · Ẽ at the widths ``indices`` (eq. 12), by full problems.

    Stacks of at most ``STACK_BYTES`` (and ``MAX_STACK`` widths) go to
    ``n_jobs`` threads, each calling ``numpy.linalg.eigvalsh`` on a whole
    stack; BLAS is limited to one thread meanwhile (see ``WidthSweep``'s
    ``n_jobs``).  ``solved`` is called in this thread, once per width, as
    the stacks come back.

    Parameters
    ----------
    centred_at : callable
        ``centred_at(index)`` gives :func:`centred_kernel` at that width.
    indices : sequence of int
    matrix_bytes : int
        Bytes of one M × M matrix in the working precision.
    n_jobs : int
    solved : callable
        ``solved(index, mu, summary)`` with mu = eig(K̃), descending.
    """

    def solve(stack: Sequence[int]) -> list[tuple[int, np.ndarray, np.ndarray]]:
        prepared = [centred_at(index) for index in stack]
        spectra = np.linalg.eigvalsh(np.stack([centred for centred, _, _ in prepared]))
        return [
            (index, spectrum[::-1].astype(float) * scale, summary)
            for index, spectrum, (_, scale, summary) in zip(stack, spectra, prepared, strict=True)
        ]

    size = int(np.clip(STACK_BYTES // matrix_bytes, 2, MAX_STACK))
    stacks = [indices[i : i + size] for i in range(0, len(indices), size)]
    workers = min(int(n_jobs), max(len(stacks), 1))
    with (
        threadpool_limits(1, user_api="blas") if workers > 1 else nullcontext(),
        ThreadPoolExecutor(workers) as pool,
    ):
        futures = [pool.submit(solve, stack) for stack in stacks]
        for future in as_completed(futures):
            for index, spectrum, summary in future.result():
                solved(index, spectrum, summary)
