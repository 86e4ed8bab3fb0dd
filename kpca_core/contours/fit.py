"""One column fitted: the eigenproblem of one kernel on the data (eq. 12), and what it means.

:func:`fit_column` is the expensive step, cached per column by the page.
Kernels and parameters that give no picture (a width so small that every
point is its own component, a kernel matrix that is constant to rounding, an
overflowing polynomial) are not errors: the column carries a sentence saying
what happened and what to change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.spatial import cKDTree
from sklearn.decomposition import PCA

from ..kernel_pca import KernelPCA, Progress
from .specs import MAX_COMPONENTS, KernelSpec

ISOLATED_KERNEL_VALUE = 1e-3
"""Below this median k(x, nearest neighbour) every point is its own component."""
SEPARATE_KERNEL_VALUE = 1e-2
"""Below this median k(x, nearest neighbour) (Gaussian: neighbours more than 3σ apart)
the bump around each point is separate from its neighbour's: the panels show one bump
per point, not a shape of the data.  Tested against that picture, the value of kPC 1
halfway between neighbours (tests/test_contours.py)."""
NEARLY_CONSTANT_SPREAD = 1e-3
"""Above 1 − k over the data below this, the kernel matrix is 'nearly constant'."""
ROUNDING_SPREAD = 1e-12
"""Below this spread the centred kernel matrix is rounding noise: nothing is fitted."""
FLAT_ROUNDING = 10 * np.finfo(float).eps
"""|λ| at or below this times the largest |k(x, y)| is rounding noise: a "flat" component.

Measured on the parabola (300 points, Gaussian): at σ = 300 λ₆ = 4.8e-16 and at
σ = 1000 λ₆ = 5.1e-16 (noise: it does not move with σ), while λ₅ = 1.2e-12 and
9.8e-15 (real: it shrinks as σ⁻⁴, as the second-order terms of the kernel do);
the floor, 2.2e-15 for k ≤ 1, lies between.  The contours of a flat component
traced rounding noise: a 3.9 MB path in one panel (issue #14)."""
INDEFINITE_RATIO = 1e-6
"""|most negative| / largest eigenvalue above which a kernel is reported indefinite."""


@dataclass(frozen=True)
class Note:
    """A sentence about one column, with its cause, so that columns sharing a cause
    can share one notice (:func:`merge_notes`).

    ``template`` holds one ``{}`` where ``number`` goes: the merged notice
    lists every column's number there.
    """

    cause: str
    template: str
    number: str = ""

    @property
    def text(self) -> str:
        """The sentence for this column alone."""
        return self.template.format(self.number)

    def __str__(self) -> str:
        return self.text

    def __contains__(self, words: str) -> bool:
        return words in self.text


def _listed(numbers: list[str]) -> str:
    return numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]


def merge_notes(labelled: list[tuple[str, tuple[Note, ...]]]) -> list[str]:
    """One notice per cause over the columns: ``[(label, notes), …]`` → sentences.

    A cause found in several columns is said once, with their labels and each
    column's number in their order ("**c = 1, 2**: … 18.1% and 22.5% …").
    """
    causes: dict[str, list[tuple[str, Note]]] = {}
    for label, notes in labelled:
        for note in notes:
            causes.setdefault(note.cause, []).append((label, note))
    merged = []
    for found in causes.values():
        labels = [label for label, _ in found]
        numbers = list(dict.fromkeys(note.number for _, note in found))
        text = found[0][1].template.format(_listed(numbers))
        merged.append(f"**{_labels(labels)}**: {text}")
    return merged


def _labels(labels: list[str]) -> str:
    """ "σ = 0.1", "σ = 0.2" → "σ = 0.1, 0.2"; other labels joined as they are."""
    heads = {label.partition(" = ")[0] for label in labels}
    if len(labels) > 1 and len(heads) == 1 and all(" = " in label for label in labels):
        return f"{heads.pop()} = " + ", ".join(label.partition(" = ")[2] for label in labels)
    return ", ".join(labels)


@dataclass(frozen=True)
class ColumnFit:
    """One fitted column: the eigenproblem of one kernel on the data.

    Attributes
    ----------
    spec : KernelSpec
    center : bool
    n_requested : int
        Components asked for; ``eigenvalues`` can be shorter (zero
        eigenvalues are dropped).
    model : fitted KernelPCA or PCA, or None when nothing could be fitted
    projections : ndarray of shape (n_samples, n_components)
        Components of the training points.
    eigenvalues : ndarray of shape (n_components,)
        λ = eig(K̃)/M (eq. 12); for linear PCA the same convention (variance
        with 1/M).
    shares : ndarray of shape (n_components,)
        λ_k / trace(K̃)/M: the share of the total variance in F.
    notes : tuple of Note
        Sentences for the user about this kernel on these data.
    error : str or None
        Why there is no picture at all, and what to change.
    n_flat : int
        Components after the last one kept whose eigenvalue is rounding noise
        (:data:`FLAT_ROUNDING`): reported flat, never drawn.
    """

    spec: KernelSpec
    center: bool
    n_requested: int
    model: KernelPCA | PCA | None
    projections: np.ndarray
    eigenvalues: np.ndarray
    shares: np.ndarray
    notes: tuple[Note, ...] = ()
    error: str | None = None
    n_flat: int = 0

    @property
    def n_components(self) -> int:
        return int(self.eigenvalues.size)


def _empty_fit(spec: KernelSpec, center: bool, n: int, M: int, error: str) -> ColumnFit:
    return ColumnFit(spec, center, n, None, np.zeros((M, 0)), np.zeros(0), np.zeros(0), (), error)


def _width_checks(X: np.ndarray, spec: KernelSpec) -> tuple[list[Note], str | None]:
    """Notes (and a reason to skip the fit) for a Gaussian or Laplacian width.

    Too small a width: k(x, y) ≈ 0 between neighbours, so K ≈ I, every
    eigenvalue of K̃ is ≈ 1 (a degenerate spectrum) and each component is a
    spike on one point.  Too large: k ≈ 1 for all pairs, K is nearly
    constant and K̃ = K − 1_M K − K 1_M + 1_M K 1_M (eq. 49) loses its digits
    to cancellation.
    """
    gamma = spec.engine_gamma
    metric = 2 if spec.kernel == "rbf" else 1
    nearest, _ = cKDTree(X).query(X, k=2, p=metric)
    distance = float(np.median(nearest[:, 1]))
    power = 2 if spec.kernel == "rbf" else 1
    k_neighbour = math.exp(-gamma * distance**power)
    if k_neighbour < ISOLATED_KERNEL_VALUE:
        return [], (
            "σ is so small that every point is its own component: "
            f"between nearest neighbours (median distance {distance:.2g} = "
            f"{distance / spec.sigma:.0f} σ) k(x, y) = {k_neighbour:.1e}, so K ≈ I, "
            "all eigenvalues are nearly equal and each component would be a "
            f"spike on a single point. Increase σ to about {distance:.2g} or more."
        )
    extent = np.ptp(X, axis=0)
    reach = float(np.sum(extent**2)) if spec.kernel == "rbf" else float(np.sum(extent))
    spread = -math.expm1(-gamma * reach)
    if spread < ROUNDING_SPREAD:
        return [], (
            "σ is so large that the kernel matrix is constant: its entries "
            f"differ by at most {spread:.1e}, below the rounding error of the centring "
            "(eq. 49), so any component would be noise. Decrease σ towards the size "
            f"of the data ({math.sqrt(float(np.sum(extent**2))):.2g})."
        )
    notes = []
    if k_neighbour < SEPARATE_KERNEL_VALUE:
        notes.append(
            Note(
                "separate",
                "σ is so small that almost every point is its own component: between "
                "nearest neighbours k(x, y) is {}, so each point has a bump of its own in "
                "every panel. Increase σ to about the neighbours' median distance, "
                f"{distance:.2g}, or more.",
                f"{k_neighbour:.1e}",
            )
        )
    if spread < NEARLY_CONSTANT_SPREAD:
        first_order = "γ‖x−y‖²" if spec.kernel == "rbf" else "γ‖x−y‖₁"
        notes.append(
            Note(
                "nearly constant",
                "the kernel matrix is nearly constant (its entries differ by at most {}): "
                f"k(x, y) ≈ 1 − {first_order}, so the components stop changing with σ and "
                "only λ shrinks.",
                f"{spread:.1e}",
            )
        )
    return notes, None


def _overflow_check(X: np.ndarray, spec: KernelSpec) -> str | None:
    """Why a polynomial kernel cannot be computed in floating point, or None.

    |k(x, y)| ≤ (γ‖x‖‖y‖ + |c|)^d (Cauchy–Schwarz).  Above ~1e300 the kernel
    matrix, or its centring (eq. 49, sums of M entries), overflows.
    """
    largest = float(np.max(np.abs(X)))
    if largest == 0:
        return None
    # log10 of γ‖x‖² + |c| without forming ‖x‖², which overflows for data near 1e154
    norms = float(np.max(np.einsum("ij,ij->i", X / largest, X / largest)))
    terms = [math.log10(spec.gamma) + math.log10(norms) + 2 * math.log10(largest)]
    if spec.coef0 != 0:
        terms.append(math.log10(abs(spec.coef0)))
    top = max(terms)
    exponent = spec.degree * (top + math.log10(sum(10 ** (t - top) for t in terms)))
    if exponent <= 300:
        return None
    return (
        f"{spec.formula()} overflows on these data: its values reach up to about "
        f"1e{exponent:.0f}, beyond the largest floating-point number (≈ 1e308). "
        "Lower the degree or γ, or rescale the data."
    )


def _fit_pca(X: np.ndarray, spec: KernelSpec, n: int, center: bool) -> ColumnFit:
    """Linear PCA by scikit-learn, with the kernel-PCA conventions for λ and signs."""
    M = X.shape[0]
    model = PCA(n_components=min(n, X.shape[1])).fit(X)
    eigenvalues = model.explained_variance_ * (M - 1) / M
    keep = eigenvalues > eigenvalues[0] * M * np.finfo(float).eps
    projections = model.transform(X)[:, keep]
    signs = _largest_positive(projections)
    model.components_[: keep.sum()] *= signs[:, np.newaxis]
    return ColumnFit(
        spec,
        True,
        n,
        model,
        projections * signs,
        eigenvalues[keep],
        model.explained_variance_ratio_[keep],
        ()
        if center
        else (Note("pca centres", "always centres the data{}, whatever the toggle says."),),
    )


def _largest_positive(projections: np.ndarray) -> np.ndarray:
    """Signs making the largest-magnitude projection of each component positive.

    The engine's convention (``svd_flip``), so that a linear PCA column and the
    degree-1 polynomial column look the same.
    """
    rows = np.argmax(np.abs(projections), axis=0)
    return np.sign(projections[rows, np.arange(projections.shape[1])])


def fit_column(
    X: np.ndarray,
    spec: KernelSpec,
    *,
    n_components: int,
    center: bool = True,
    random_state: int = 0,
    progress: Progress | None = None,
) -> ColumnFit:
    """Solve the kernel eigenproblem (eq. 12) of one column of the grid.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    spec : KernelSpec
    n_components : int
        Components to keep, 1 … :data:`MAX_COMPONENTS`.
    center : bool
        Centre in feature space (eq. 49).  Linear PCA always centres.
    random_state : int
        Seeds the ARPACK start vector.
    progress : callable, optional
        Passed to :meth:`KernelPCA.fit`, which calls ``progress(fraction, message)``
        between its steps; an exception it raises (a cancelled request) stops
        the fit there and is raised here.

    Returns
    -------
    ColumnFit
        Never raises for extreme parameters: ``error`` and ``notes`` say
        what happened instead.
    """
    if not 1 <= n_components <= MAX_COMPONENTS:
        raise ValueError(f"n_components must be in 1…{MAX_COMPONENTS}, got {n_components}")
    X = np.asarray(X, dtype=float)
    M = X.shape[0]
    if spec.kernel == "pca":
        return _fit_pca(X, spec, n_components, center)
    notes: list[Note] = []
    if spec.kernel == "poly":
        skip = _overflow_check(X, spec)
        if skip is not None:
            return _empty_fit(spec, center, n_components, M, skip)
    if spec.kernel in ("rbf", "laplacian"):
        notes, skip = _width_checks(X, spec)
        if skip is not None:
            return _empty_fit(spec, center, n_components, M, skip)
    model = KernelPCA(
        n_components,
        kernel=spec.kernel,
        gamma=spec.engine_gamma,
        degree=spec.degree,
        coef0=spec.coef0,
        center=center,
        random_state=random_state,
        remove_zero_eig=True,
    )
    try:
        projections = model.fit_transform(X, progress=progress)
    except ValueError as error:
        return _empty_fit(spec, center, n_components, M, _explain_failure(spec, str(error)))
    if model.n_components_ == 0:  # every eigenvalue is zero: K̃ = 0
        reason = _explain_failure(spec, "centred kernel matrix is zero")
        return _empty_fit(spec, center, n_components, M, reason)
    notes += _model_notes(model, spec)
    eigenvalues = model.eigenvalues_
    kept = int(np.sum(np.abs(eigenvalues) > FLAT_ROUNDING * _kernel_bound(X, spec)))
    n_flat = eigenvalues.size - kept
    if spec.kernel in ("rbf", "laplacian"):
        # Strictly positive definite: every component exists, and those the engine
        # removed as zero (remove_zero_eig) are flat at the rounding level too.
        n_flat = max(min(n_components, M - int(center)) - kept, n_flat)
    if n_flat:
        first, last = kept + 1, kept + n_flat
        which = f"kPC {first}" if first == last else f"kPC {first}–{last}"
        notes.append(
            Note(
                "flat",
                "{} flat (|λ| at the rounding level of the kernel matrix): not drawn.",
                f"{which} {'is' if n_flat == 1 else 'are'}",
            )
        )
    return ColumnFit(
        spec,
        center,
        n_components,
        model,
        projections[:, :kept],
        eigenvalues[:kept],
        model.explained_variance_ratio_[:kept],
        tuple(notes),
        n_flat=n_flat,
    )


def _kernel_bound(X: np.ndarray, spec: KernelSpec) -> float:
    """An upper bound of |k(x_i, x_j)| over the data (Cauchy–Schwarz for x·y)."""
    if spec.kernel in ("rbf", "laplacian"):
        return 1.0
    if spec.kernel == "linear":
        return float(np.max(np.einsum("ij,ij->i", X, X)))
    reach = spec.gamma * float(np.max(np.einsum("ij,ij->i", X, X))) + abs(spec.coef0)
    return math.tanh(reach) if spec.kernel == "sigmoid" else reach**spec.degree


def _explain_failure(spec: KernelSpec, message: str) -> str:
    if "non-finite" in message:
        return (
            f"{spec.formula()} overflows on these data: the kernel values exceed the largest "
            "floating-point number (≈ 1e308). Lower the degree or γ, or rescale the data."
        )
    if "centred kernel matrix is zero" in message:
        return (
            f"{spec.formula()}: the centred kernel matrix is zero, so there is no variance "
            "in feature space: the kernel is constant on these data."
        )
    return f"{spec.formula()} cannot be used on these data: {message}."


def _model_notes(model: KernelPCA, spec: KernelSpec) -> list[Note]:
    if model.negative_eigenvalue_ratio_ <= INDEFINITE_RATIO:
        return []
    return [
        Note(
            "indefinite",
            "the kernel is indefinite: its most negative eigenvalue is {} of the largest, "
            "so K is not a matrix of dot products (Appendix B.2). The components are still "
            "computed; the shares are of the trace of K̃ and can exceed 100 %.",
            f"{model.negative_eigenvalue_ratio_:.1%}",
        )
    ]
