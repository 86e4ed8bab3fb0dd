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

The package is split where this maths splits, one module per step:

* :mod:`.base`: what does not depend on the width, computed once: the
  pairwise squared distances (Gaussian), the L1 distances (Laplacian) or the
  Gram matrix X Xᵀ (polynomial);
* :mod:`.dense`: per width, K minus a constant, centred, and its eigenvalues
  by full eigenvalue problems.  Centring removes any constant matrix, so
  step 2 is applied to E = K − 1 computed by ``expm1``: it keeps the
  differences between the k(x_i, x_j) exact when a wide kernel makes them all
  nearly 1 (:func:`~.dense.kernel_minus_constant`).  ``center=False``
  skips step 2 and takes K itself, where the constant matters;
* :mod:`.low_rank`: the shortcut for wide widths, where K̃ has few
  eigenvalues above the rounding floor: a pivoted Cholesky factorisation
  instead of a full eigenvalue problem;
* :mod:`.leading`: where one number per width is shown, (λ₁ + … + λ_n)/Σλ,
  the leading eigenvalues alone (Lanczos, or the low-rank shortcut) over the
  trace, not the whole spectrum;
* :mod:`.summary`: eigenvalues at the rounding level clipped to zero and
  counted, widths where K is numerically the identity or a constant labelled
  (``regime_``), the two limits of the width;
* :mod:`.chosen`: eigenvectors, computed only at one chosen width by a full
  :class:`~kpca_core.kernel_pca.KernelPCA` fit (:meth:`WidthSweep.fit_at`),
  and its components over a grid (:func:`component_grid`);
* :mod:`.sweep`: :class:`WidthSweep`, which holds the parameters and the
  results and calls the steps in order.

What belongs here: the numerics of the width sweep, as functions of arrays
and plain parameters.  What must not: streamlit or any other user interface,
figures (:mod:`kpca_core.figures.spectrum`), caching.  This ``__init__``
re-exports the public names, so ``from kpca_core.spectrum import WidthSweep``
and the others keep working; a test that replaces a function replaces it in
the module that calls it (e.g. ``kpca_core.spectrum.low_rank``).
"""

from .base import Sweep, SweepKernel
from .chosen import component_grid
from .dense import (
    MAX_STACK,
    ROUNDING_ERRORS,
    SINGLE_PRECISION_MIN_SAMPLES,
    STACK_BYTES,
    double_centre,
)
from .leading import leading_shares
from .low_rank import LOW_RANK_FRACTION
from .summary import CONSTANT, IDENTITY, NOISE_MARGIN
from .sweep import SYMBOLS, Precision, WidthSweep

__all__ = [
    "CONSTANT",
    "IDENTITY",
    "LOW_RANK_FRACTION",
    "MAX_STACK",
    "NOISE_MARGIN",
    "ROUNDING_ERRORS",
    "SINGLE_PRECISION_MIN_SAMPLES",
    "STACK_BYTES",
    "SYMBOLS",
    "Precision",
    "Sweep",
    "SweepKernel",
    "WidthSweep",
    "component_grid",
    "double_centre",
    "leading_shares",
]
