"""The low-rank shortcut: eigenvalues of wide widths from a pivoted Cholesky factor.

A wide Gaussian kernel behaves like a low-degree polynomial, and a
polynomial kernel matrix has at most as many nonzero eigenvalues as there are
monomials: at such widths K̃ has few eigenvalues above the rounding floor.
There a pivoted Cholesky factorisation that stops at the floor gives them in
O(M r²) instead of the O(M³) of a full eigenvalue problem
(:func:`low_rank_eigenvalues`).  :func:`low_rank_spectra` walks the widths
from the one of lowest expected rank on (:func:`low_rank_order`) and stops
at the first whose rank is too large; the rest go to the dense path
(:mod:`kpca_core.spectrum.dense`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from scipy.linalg import get_lapack_funcs

from .base import Sweep
from .dense import ROUNDING_ERRORS, Centred, Solved

LOW_RANK_FRACTION = 0.125
"""Widths whose centred kernel matrix has a numerical rank of at most this
fraction of M get their eigenvalues from a pivoted Cholesky factorisation
(:func:`low_rank_eigenvalues`); from the first width with a larger rank on,
the sweep solves full eigenvalue problems.  On 300 points of the three rings
that is 16 of the 60 default widths, and the sweep takes 25 % less time
(``python bench/spectrum.py``)."""


def low_rank_order(widths: np.ndarray, sweep: Sweep) -> list[int]:
    """Widths from the one with the lowest expected numerical rank on.

    A Gaussian or Laplacian kernel matrix has fewer significant eigenvalues
    the wider the kernel; a polynomial one the lower its degree (for a
    swept c its rank is at most the number of monomials, small throughout).
    """
    order = np.argsort(widths, kind="stable")
    return [int(i) for i in (order if sweep == "degree" else order[::-1])]


def low_rank_eigenvalues(
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


def low_rank_spectra(
    centred_at: Callable[[int], Centred],
    order: Sequence[int],
    eps: float,
    solved: Solved,
) -> int:
    """Eigenvalues of K̃ at the widths ``order``, in turn, while their rank stays low.

    Parameters
    ----------
    centred_at : callable
        ``centred_at(index)`` gives :func:`kpca_core.spectrum.dense.centred_kernel`
        at that width.
    order : sequence of int
        Widths from the lowest expected rank on (:func:`low_rank_order`).
    eps : float
        The machine epsilon of the working precision; the tolerance of the
        factorisation is the rounding floor / M (``ROUNDING_ERRORS`` ε max|E|).
    solved : callable
        ``solved(index, mu, summary)`` with mu = eig(K̃), descending, per width.

    Returns
    -------
    int
        How many widths of ``order`` were solved: the first of rank above
        ``LOW_RANK_FRACTION`` · M stops the walk.
    """
    done = 0
    for index in order:
        centred, scale, summary = centred_at(index)
        tolerance = ROUNDING_ERRORS * eps * summary[1]  # the floor / M
        mu = low_rank_eigenvalues(centred, tolerance, len(centred) * LOW_RANK_FRACTION)
        if mu is None:
            break
        solved(index, mu * scale, summary)
        done += 1
    return done
