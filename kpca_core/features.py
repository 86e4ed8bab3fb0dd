"""Kernel PCA as a feature extractor (Schölkopf, Smola & Müller 1998, Sect. 6.3).

Equation and table numbers refer to the paper's text in
``shared/papers/scholkopf-smola-muller-1996-kernel-pca.md`` (Technical
Report 44, 1996; Table 2 is the same in the 1998 Neural Computation article).

Two experiments, as pure functions:

**The toy** (:func:`toy_experiment`): 2-D points with two or three classes,
a linear classifier (``sklearn.svm.LinearSVC``) trained on the first n kernel
principal components, beside the same classifier on the raw coordinates, and
the class of every point of a grid over the plane through both pipelines
(the decision regions).  In the plane the classes are not linearly
separable; in the kernel components they are.

**USPS, the paper's Table 2** (:func:`load_table2_data`, :func:`decompose`,
:func:`table2_cell`, :func:`table2_cells`).  The protocol, in the reading
that comes closest to the paper:

1. kernel PCA on the first :data:`KPCA_TRAIN` = 3000 training digits with
   the homogeneous polynomial k(x, y) = (x·y)^d (eq. 22), divided by 256^d,
   centred in feature space (eq. 49);
2. the first n components (eq. 51) of all 7291 training and 2007 test digits;
3. a linear support vector machine on the components, one machine per digit
   against the rest, its C chosen from :data:`C_GRID` on held-out training
   digits (:data:`VALIDATION_FRACTION` of them, stratified, seeded; the test
   digits are never looked at), then trained on all 7291 training digits;
4. the test error on the 2007 test digits.

Why 1/256^d: on the files' grey values in [−1, 1], x·y reaches 256, so
(x·y)^7 reaches 7·10¹⁶.  Dividing by 256^d keeps every kernel value in
[−1, 1] at every degree, so one grid of C (the price of a margin error
against ‖w‖²) serves all degrees.  It does not make C mean the same at every
degree: the mean squared length of the centred features (the trace of K̃ / M,
:func:`feature_scales`) still varies 1.9× over degrees 1–7 on the first 3000
training digits (0.54 at degree 2, 0.28 at degree 7); C is chosen per cell.
The eigenvectors, and so the components up to a constant factor per degree,
are unchanged by the division.

The linear SVM. Solved by libsvm (``sklearn.svm.SVC``) on the linear kernel of
the components, computed once by BLAS (``kernel="precomputed"``): the
classifier is linear in the components, w = Σ_i α_i y_i β(x_i), with the hinge
loss and the free (unpenalised) bias of the SV machines of the paper (one
against the rest, as in Schölkopf, Burges & Vapnik 1995). It is not the
machine of scikit-learn's ``LinearSVC``, which by default minimises the
squared hinge loss and penalises its bias with the weights. The linear kernel
of n components is that of n/2 components plus the new ones, so the grid over
n adds to it instead of starting again, and the fits for every C share it.
Measured on degree 3, 2048 components of the 7291 training digits (2 cores
shared, load ≈ 9): ``LinearSVC`` took 29–33 s per fit in the primal and 10–86
s in the dual (the dual slows as C grows); libsvm on the precomputed kernel
1.3–1.5 s per fit, after 11 s once for the kernel. A cell fits one SVM per C
of :data:`C_GRID` and one more.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsRestClassifier
from sklearn.pipeline import Pipeline
from sklearn.svm import SVC, LinearSVC

from .kernel_pca import KernelPCA, Progress
from .usps import USPS_SIDE, load_usps

KPCA_TRAIN = 3000
"""Kernel PCA is fitted on the first 3000 training digits (Sect. 6.3)."""
ALL_TRAIN = 7291
"""All the USPS training digits: the app's option beyond the paper (randomized solver)."""
TABLE2_DEGREES = (1, 2, 3, 4, 5, 6, 7)
TABLE2_N = (32, 64, 128, 256, 512, 1024, 2048)
LINEAR_MAX_COMPONENTS = USPS_SIDE * USPS_SIDE
"""Degree 1 is linear PCA: at most 256 non-zero components (the pixels)."""
C_GRID = (1.0, 10.0, 100.0, 1000.0)
"""The SVM's C is chosen from these on held-out training digits."""
VALIDATION_FRACTION = 0.2
VALIDATION_SEED = 0

_NA = np.nan
PAPER_TABLE2 = np.array(
    [
        [9.6, 8.8, 8.1, 8.5, 9.1, 9.3, 10.8],
        [8.8, 7.3, 6.8, 6.7, 6.7, 7.2, 7.5],
        [8.6, 5.8, 5.9, 6.1, 5.8, 6.0, 6.8],
        [8.7, 5.5, 5.3, 5.2, 5.2, 5.4, 5.4],
        [_NA, 4.9, 4.6, 4.4, 5.1, 4.6, 4.9],
        [_NA, 4.9, 4.3, 4.4, 4.6, 4.8, 4.6],
        [_NA, 4.9, 4.2, 4.1, 4.0, 4.3, 4.4],
    ]
)
"""Test error (%) on USPS, rows n = :data:`TABLE2_N`, columns degree 1–7; NaN: n.a.

Schölkopf, Smola & Müller, *Nonlinear component analysis as a kernel
eigenvalue problem*, Technical Report 44, MPI für biologische Kybernetik
(1996), Table 2; Neural Computation 10 (1998), 1299–1319, Table 2.
"""


def paper_error(degree: int, n_components: int) -> float:
    """The paper's Table 2 test error (%) at (degree, n); NaN where it has none."""
    if degree not in TABLE2_DEGREES or n_components not in TABLE2_N:
        return float("nan")
    return float(PAPER_TABLE2[TABLE2_N.index(n_components), TABLE2_DEGREES.index(degree)])


def table2_cells_planned() -> list[tuple[int, int]]:
    """The 46 cells (degree, n) of Table 2: degree 1 stops at 256 components."""
    return [
        (degree, n)
        for degree in TABLE2_DEGREES
        for n in TABLE2_N
        if degree > 1 or n <= LINEAR_MAX_COMPONENTS
    ]


def _notify(progress: Progress | None, fraction: float, message: str) -> None:
    if progress is not None:
        progress(fraction, message)


# ---------------------------------------------------------------- the toy
TOY_GRID = 100
"""Grid points along each axis of the decision-region pictures."""
TOY_MARGIN = 0.1
"""The grid extends this fraction of the data's range beyond the data on every side."""
TOY_C = 1.0
"""C of the toy's LinearSVC (the components are not rescaled)."""


def linear_classifier(C: float = TOY_C) -> LinearSVC:
    """The toy's linear classifier: ``LinearSVC``, one against the rest, seeded."""
    return LinearSVC(C=C, dual="auto", max_iter=10_000, random_state=0)


def toy_pipeline(
    n_components: int,
    *,
    kernel: str = "rbf",
    gamma: float | None = None,
    degree: float = 3,
    coef0: float = 1.0,
    C: float = TOY_C,
) -> Pipeline:
    """Kernel PCA (first n components) then a linear SVM, as one scikit-learn ``Pipeline``.

    :func:`toy_features` and :func:`toy_experiment` compute the same thing
    with one kernel PCA fit for every n.
    """
    kpca = KernelPCA(
        n_components,
        kernel=kernel,
        gamma=gamma,
        degree=degree,
        coef0=coef0,
        remove_zero_eig=True,
    )
    return Pipeline([("kpca", kpca), ("svm", linear_classifier(C))])


def toy_grid(X: np.ndarray, size: int = TOY_GRID) -> tuple[np.ndarray, np.ndarray]:
    """Coordinates (xs, ys) of a size × size grid over the data and a margin."""
    low, high = X.min(axis=0), X.max(axis=0)
    pad = TOY_MARGIN * np.maximum(high - low, 1e-9)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], size)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], size)
    return xs, ys


@dataclass(frozen=True)
class ToyFeatures:
    """One kernel PCA fit of 2-D points, with the components of the points and of a grid.

    Attributes
    ----------
    X : ndarray of shape (n_samples, 2)
    labels : ndarray of shape (n_samples,)
    xs, ys : ndarray
        The grid's coordinates.
    points : ndarray of shape (n_samples, n_max)
        Kernel principal components of the points (eq. 51).
    grid : ndarray of shape (len(ys) * len(xs), n_max)
        Components of the grid points, row by row (y outer, x inner).
    eigenvalues : ndarray of shape (n_max,)
    """

    X: np.ndarray
    labels: np.ndarray
    xs: np.ndarray
    ys: np.ndarray
    points: np.ndarray
    grid: np.ndarray
    eigenvalues: np.ndarray

    @property
    def n_max(self) -> int:
        """How many components there are (the kernel's non-zero eigenvalues, at most n_max)."""
        return self.points.shape[1]


def toy_features(
    X: np.ndarray,
    labels: np.ndarray,
    *,
    kernel: str = "rbf",
    gamma: float | None = None,
    degree: float = 3,
    coef0: float = 1.0,
    n_max: int = 50,
    grid_size: int = TOY_GRID,
    half_width: float | None = None,
) -> ToyFeatures:
    """Fit kernel PCA once and project the points and the grid onto its first ``n_max`` components.

    Every n ≤ ``n_max`` then needs only a linear SVM (:func:`toy_experiment`).
    Kernel parameters as for :class:`kpca_core.KernelPCA`.  The grid covers
    the data and a margin (:func:`toy_grid`), or with ``half_width`` h the
    square [−h, h]² (a drawing's canvas).
    """
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"the toy needs 2-D points, got shape {X.shape}")
    labels = np.asarray(labels)
    if np.unique(labels).size < 2:
        raise ValueError("the toy needs at least two classes")
    model = KernelPCA(
        n_max, kernel=kernel, gamma=gamma, degree=degree, coef0=coef0, remove_zero_eig=True
    )
    points = model.fit_transform(X)
    if model.n_components_ == 0:
        raise ValueError(
            "every point looks the same to this kernel: its centred kernel matrix is zero"
        )
    if half_width is None:
        xs, ys = toy_grid(X, grid_size)
    else:
        xs = ys = np.linspace(-half_width, half_width, grid_size)
    gx, gy = np.meshgrid(xs, ys)
    grid = model.transform(np.column_stack([gx.ravel(), gy.ravel()]))
    return ToyFeatures(X, labels, xs, ys, points, grid, model.eigenvalues_)


@dataclass(frozen=True)
class ToyResult:
    """Decision regions and accuracies of the linear SVM on kernel components and on raw x, y.

    Attributes
    ----------
    n_components : int
        n actually used (at most the kernel's number of components).
    kernel_regions, raw_regions : ndarray of shape (len(ys), len(xs)), int
        The class predicted at every grid point.
    kernel_accuracy, raw_accuracy : float
        Fraction of the points classified correctly (the points shown).
    """

    n_components: int
    kernel_regions: np.ndarray
    raw_regions: np.ndarray
    kernel_accuracy: float
    raw_accuracy: float


def toy_experiment(features: ToyFeatures, n_components: int, *, C: float = TOY_C) -> ToyResult:
    """Train ``LinearSVC`` on the first n components and on raw x, y; classify the grid.

    Parameters
    ----------
    features : ToyFeatures
        From :func:`toy_features`.
    n_components : int
        n; more than ``features.n_max`` uses them all.
    C : float

    Returns
    -------
    ToyResult
    """
    if int(n_components) != n_components or n_components < 1:
        raise ValueError(f"n_components must be a positive integer, got {n_components!r}")
    n = min(int(n_components), features.n_max)
    y = features.labels
    shape = (features.ys.size, features.xs.size)
    kernel_svm = linear_classifier(C).fit(features.points[:, :n], y)
    raw_svm = linear_classifier(C).fit(features.X, y)
    gx, gy = np.meshgrid(features.xs, features.ys)
    return ToyResult(
        n_components=n,
        kernel_regions=kernel_svm.predict(features.grid[:, :n]).reshape(shape),
        raw_regions=raw_svm.predict(np.column_stack([gx.ravel(), gy.ravel()])).reshape(shape),
        kernel_accuracy=float(kernel_svm.score(features.points[:, :n], y)),
        raw_accuracy=float(raw_svm.score(features.X, y)),
    )


# ---------------------------------------------------------------- USPS data
@dataclass(frozen=True)
class Table2Data:
    """The USPS digits of the protocol: all 7291 training and 2007 test digits.

    Attributes
    ----------
    train_images, test_images : ndarray of shape (n, 256)
        Grey values in [−1, 1].
    train_labels, test_labels : ndarray of shape (n,)
    """

    train_images: np.ndarray
    train_labels: np.ndarray
    test_images: np.ndarray
    test_labels: np.ndarray


def load_table2_data(progress: Progress | None = None) -> Table2Data:
    """Load USPS (:func:`kpca_core.usps.load_usps`); raises ``USPSError`` without it.

    Table 2 is about USPS: there is no fallback to other digits.
    """
    train_images, train_labels = load_usps("train", progress=progress)
    test_images, test_labels = load_usps("test", progress=progress)
    return Table2Data(train_images, train_labels, test_images, test_labels)


def feature_scales(images: np.ndarray, degrees: Sequence[int]) -> np.ndarray:
    """Mean squared length of the centred features of (x·y / 256)^d, per degree.

    ‖Φ̃(x)‖² averaged over the M images is the trace of the centred kernel
    matrix K̃ (eq. 49) divided by M: mean(diag K) − mean(K).
    """
    gram = images @ images.T / USPS_SIDE**2
    scales = []
    for degree in degrees:
        K = gram**degree
        scales.append(np.mean(np.diag(K)) - np.mean(K))
    return np.array(scales)


def polynomial_kpca(
    degree: int, n_components: int | None = None, *, eigen_solver: str = "dense"
) -> KernelPCA:
    """Kernel PCA with (x·y / 256)^d, i.e. eq. 22 divided by 256^d, centred."""
    return KernelPCA(
        n_components,
        kernel="poly",
        degree=degree,
        gamma=1.0 / LINEAR_MAX_COMPONENTS,
        coef0=0.0,
        center=True,
        eigen_solver=eigen_solver,
        random_state=0,
        remove_zero_eig=True,
    )


@dataclass(frozen=True)
class Decomposition:
    """Kernel PCA of one degree and the components of every digit: what a cell needs.

    Attributes
    ----------
    degree : int
    eigenvalues : ndarray of shape (n_max,)
        λ_k of the kept components (eq. 12, kernel divided by 256^d).
    train_features : ndarray of shape (7291, n_max)
        Components β_k (eq. 51) of the training digits, k = 1 … n_max.
    test_features : ndarray of shape (2007, n_max)
    train_labels, test_labels : ndarray
    seconds : dict
        Wall time of the steps: ``"eigendecomposition"`` (kernel matrix,
        centring, eigh of all 3000 eigenpairs) and ``"projection"``.
    n_fit : int
        Training digits kernel PCA was fitted on.
    """

    degree: int
    eigenvalues: np.ndarray
    train_features: np.ndarray
    test_features: np.ndarray
    train_labels: np.ndarray
    test_labels: np.ndarray
    seconds: dict[str, float]
    n_fit: int = KPCA_TRAIN

    @property
    def n_max(self) -> int:
        """The number of components available (256 at degree 1)."""
        return self.train_features.shape[1]


def decompose(
    data: Table2Data,
    degree: int,
    *,
    n_max: int = max(TABLE2_N),
    n_fit: int = KPCA_TRAIN,
    progress: Progress | None = None,
) -> Decomposition:
    """Fit kernel PCA of ``degree`` on the first 3000 training digits; project all digits.

    All eigenpairs are computed (``eigen_solver="dense"``); the first
    ``n_max`` components of every digit are kept, so that any cell with
    n ≤ ``n_max`` needs no more kernel evaluations.  Beyond the paper's 3000
    digits (the app's "all 7291 digits"), only the ``n_max`` leading
    eigenpairs are computed, by the randomized solver (seeded).  The training digits the
    model was fitted on get their components from the eigenvectors
    (K̃α = Mλα), the others through the test kernel (eqs. 51, 54).

    Parameters
    ----------
    data : Table2Data
    degree : int
        d of (x·y)^d, 1–7 in the paper.
    n_max : int
        Components kept; fewer at degree 1 (rank 256).
    n_fit : int
        Kernel PCA is fitted on the first ``n_fit`` training digits (the
        paper: 3000; fewer for quick checks).
    progress : callable, optional

    Returns
    -------
    Decomposition
    """
    if int(degree) != degree or degree < 1:
        raise ValueError(f"degree must be a positive integer, got {degree!r}")
    solver = "dense" if n_fit <= KPCA_TRAIN else "randomized"
    model = polynomial_kpca(int(degree), n_max, eigen_solver=solver)
    start = time.perf_counter()
    _notify(progress, 0.0, f"degree {degree}: eigendecomposition of {n_fit} digits")
    fitted = model.fit_transform(data.train_images[:n_fit])
    middle = time.perf_counter()
    _notify(progress, 0.7, f"degree {degree}: components of every digit")
    others = data.train_images[n_fit:]
    rest = model.transform(others) if len(others) else fitted[:0]
    test = model.transform(data.test_images)
    end = time.perf_counter()
    _notify(progress, 1.0, f"degree {degree}: done")
    return Decomposition(
        degree=int(degree),
        eigenvalues=model.eigenvalues_,
        train_features=np.vstack([fitted, rest]),
        test_features=test,
        train_labels=data.train_labels,
        test_labels=data.test_labels,
        seconds={"eigendecomposition": middle - start, "projection": end - middle},
        n_fit=min(n_fit, len(data.train_images)),
    )


# ---------------------------------------------------------------- the SVM
def linear_svm(C: float) -> OneVsRestClassifier:
    """The linear SV machine on a precomputed linear kernel, one per class against the rest.

    Fit it with G = F Fᵀ of the training components F and predict with
    F_test Fᵀ: the same machine as ``SVC(kernel="linear")`` on F, with the
    kernel computed by BLAS once instead of by libsvm per pair.
    """
    return OneVsRestClassifier(SVC(C=C, kernel="precomputed"))


@dataclass(frozen=True)
class Table2Cell:
    """One cell (degree, n) of Table 2.

    Attributes
    ----------
    degree, n_components : int
    C : float
        The C chosen on the held-out training digits.
    validation_errors : dict of float to float
        Error (%) on the held-out training digits for every C tried.
    test_error : float
        Error (%) on the 2007 test digits of the SVM trained on all 7291
        training digits with the chosen C.
    confusion : ndarray of shape (10, 10)
        Rows: true digit; columns: predicted digit.
    predictions : ndarray of shape (2007,)
    misclassified : ndarray
        Indices of the misclassified test digits (into the test file).
    seconds : float
        Wall time of the cell from its decomposition.
    n_fit : int
        Training digits kernel PCA was fitted on (the paper: 3000).
    """

    degree: int
    n_components: int
    C: float
    validation_errors: dict[float, float]
    test_error: float
    confusion: np.ndarray
    predictions: np.ndarray
    misclassified: np.ndarray
    seconds: float
    n_fit: int = KPCA_TRAIN

    @property
    def paper_error(self) -> float:
        """The paper's test error (%) at this cell, NaN where it has none."""
        return paper_error(self.degree, self.n_components)


def validation_split(labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices (fit, held out) of the training digits for choosing C: stratified, seeded."""
    return train_test_split(
        np.arange(labels.size),
        test_size=VALIDATION_FRACTION,
        stratify=labels,
        random_state=VALIDATION_SEED,
    )


class _LinearKernels:
    """G = F Fᵀ (training) and F_test Fᵀ over the first n components, grown with n."""

    def __init__(self, decomposition: Decomposition) -> None:
        self._train = decomposition.train_features
        self._test = decomposition.test_features
        self.n = 0
        m, t = self._train.shape[0], self._test.shape[0]
        self.train = np.zeros((m, m))
        self.test = np.zeros((t, m))

    def grow(self, n: int) -> None:
        if n < self.n:
            raise ValueError("the linear kernels only grow")
        new = np.ascontiguousarray(self._train[:, self.n : n])
        self.train += new @ new.T
        self.test += self._test[:, self.n : n] @ new.T
        self.n = n


def _error(predicted: np.ndarray, labels: np.ndarray) -> float:
    return 100.0 * float(np.mean(predicted != labels))


def _fit_cell(
    decomposition: Decomposition,
    kernels: _LinearKernels,
    c_grid: Sequence[float],
    progress: Progress | None,
) -> Table2Cell:
    start = time.perf_counter()
    n = kernels.n
    y = decomposition.train_labels
    fit, held_out = validation_split(y)
    G_fit = kernels.train[np.ix_(fit, fit)]
    G_held = kernels.train[np.ix_(held_out, fit)]
    validation = {}
    for i, C in enumerate(c_grid):
        _notify(progress, i / (len(c_grid) + 1), f"n = {n}: choosing C ({C:g})")
        svm = linear_svm(C).fit(G_fit, y[fit])
        validation[float(C)] = _error(svm.predict(G_held), y[held_out])
    best = min(validation, key=lambda C: (validation[C], C))  # ties: the smaller C
    _notify(progress, len(c_grid) / (len(c_grid) + 1), f"n = {n}: training with C = {best:g}")
    predictions = linear_svm(best).fit(kernels.train, y).predict(kernels.test)
    labels = decomposition.test_labels
    _notify(progress, 1.0, f"n = {n}: done")
    return Table2Cell(
        degree=decomposition.degree,
        n_components=n,
        C=best,
        validation_errors=validation,
        test_error=_error(predictions, labels),
        confusion=confusion_matrix(labels, predictions, labels=np.arange(10)),
        predictions=predictions,
        misclassified=np.flatnonzero(predictions != labels),
        seconds=time.perf_counter() - start,
        n_fit=decomposition.n_fit,
    )


def _check_n(decomposition: Decomposition, n_components: int) -> int:
    if int(n_components) != n_components or n_components < 1:
        raise ValueError(f"n_components must be a positive integer, got {n_components!r}")
    if n_components > decomposition.n_max:
        raise ValueError(
            f"degree {decomposition.degree} has {decomposition.n_max} components, "
            f"not {n_components}"
        )
    return int(n_components)


def table2_cell(
    decomposition: Decomposition,
    n_components: int,
    *,
    c_grid: Sequence[float] = C_GRID,
    progress: Progress | None = None,
) -> Table2Cell:
    """One cell of Table 2 from its degree's decomposition.

    Parameters
    ----------
    decomposition : Decomposition
        From :func:`decompose`.
    n_components : int
        n ≤ ``decomposition.n_max``.
    c_grid : sequence of float
        Values of C tried on the held-out training digits.
    progress : callable, optional

    Returns
    -------
    Table2Cell
    """
    kernels = _LinearKernels(decomposition)
    kernels.grow(_check_n(decomposition, n_components))
    return _fit_cell(decomposition, kernels, c_grid, progress)


def table2_cells(
    decomposition: Decomposition,
    n_components: Sequence[int],
    *,
    c_grid: Sequence[float] = C_GRID,
    progress: Progress | None = None,
) -> list[Table2Cell]:
    """Several cells of one degree, in increasing n, the linear kernel grown from one to the next.

    Returns the cells in the order of ``sorted(set(n_components))``.
    """
    ns = sorted({_check_n(decomposition, n) for n in n_components})
    kernels = _LinearKernels(decomposition)
    cells = []
    for i, n in enumerate(ns):
        kernels.grow(n)

        def step(fraction: float, message: str, i: int = i) -> None:
            _notify(progress, (i + fraction) / len(ns), message)

        cells.append(_fit_cell(decomposition, kernels, c_grid, step))
    return cells


def recompute_cell(
    degree: int,
    n_components: int,
    *,
    n_fit: int = KPCA_TRAIN,
    n_train: int | None = None,
    n_test: int | None = None,
    c_grid: Sequence[float] = C_GRID,
    progress: Progress | None = None,
) -> Table2Cell:
    """One cell of Table 2 from scratch: load USPS, decompose, fit the SVMs.

    What the app's "recompute this cell live" runs (in a worker process):
    :func:`load_table2_data`, :func:`decompose` keeping only the first
    ``n_components`` components, then :func:`table2_cell`.  Raises
    ``USPSError`` without the USPS files.

    Parameters
    ----------
    degree, n_components : int
        The cell; degree 1 has at most 256 components.
    n_fit : int
        Kernel PCA is fitted on the first ``n_fit`` training digits (3000 in
        the paper; :data:`ALL_TRAIN` for all of them, by the randomized solver).
    n_train, n_test : int, optional
        Only the first ``n_train`` training and ``n_test`` test digits
        (default: all, the protocol; fewer for quick checks).
    c_grid : sequence of float
    progress : callable, optional
        The decomposition reports the first 60 %, the SVMs the rest.

    Returns
    -------
    Table2Cell
    """
    full = load_table2_data()
    train, test = slice(n_train), slice(n_test)
    data = Table2Data(
        full.train_images[train],
        full.train_labels[train],
        full.test_images[test],
        full.test_labels[test],
    )

    def scaled(start: float, stop: float) -> Progress:
        return lambda f, m: _notify(progress, start + (stop - start) * f, m)

    decomposition = decompose(
        data, degree, n_max=n_components, n_fit=n_fit, progress=scaled(0.0, 0.6)
    )
    return table2_cell(decomposition, n_components, c_grid=c_grid, progress=scaled(0.6, 1.0))


# ---------------------------------------------------------------- the claims
@dataclass(frozen=True)
class Claim:
    """One of the paper's claims about Table 2, checked against a grid of errors.

    Attributes
    ----------
    statement : str
        The claim in words.
    holds : bool
        Whether it holds in every cell compared.
    detail : str
        The numbers it was checked on, in words.
    """

    statement: str
    holds: bool
    detail: str


def _claim(statement: str, name: str, checks: list[tuple[int, bool]], numbers: str) -> Claim:
    """A claim checked at each value of ``name`` (n or d): where it holds, then the numbers.

    "Holds at every n compared", "Holds at n = 128, 256; not at n = 32, 64" or
    "Does not hold at any n".
    """
    held = [str(value) for value, ok in checks if ok]
    failed = [str(value) for value, ok in checks if not ok]
    if not failed:
        where = f"Holds at every {name} compared"
    elif not held:
        where = f"Does not hold at any {name}"
    else:
        where = f"Holds at {name} = {', '.join(held)}; not at {name} = {', '.join(failed)}"
    return Claim(statement, bool(checks) and not failed, f"{where}. {numbers}")


def table2_claims(errors: np.ndarray) -> tuple[Claim, Claim]:
    """Check Sect. 6.3's two claims on a Table 2 grid (ours or the paper's).

    (i) Nonlinear components beat the same number of linear ones: at every n
    with a degree-1 cell, each degree 2–7 against degree 1.  (ii) More than
    256 components help further: at every degree 2–7, the best error with
    n > 256 against the error at n = 256.  Cells without a number are skipped.

    Parameters
    ----------
    errors : ndarray of shape (len(TABLE2_N), len(TABLE2_DEGREES))
        Test error (%), rows n, columns degree, NaN where there is no cell.

    Returns
    -------
    (Claim, Claim)
    """
    errors = np.asarray(errors, dtype=float)
    linear, nonlinear = errors[:, 0], errors[:, 1:]
    beaten, counts = [], []
    for i, n in enumerate(TABLE2_N):
        others = nonlinear[i][np.isfinite(nonlinear[i])]
        if np.isnan(linear[i]) or others.size == 0:
            continue
        wins = int(np.sum(others < linear[i]))
        beaten.append((n, wins == others.size))
        counts.append(f"n = {n}: {wins} of {others.size}")
    first = _claim(
        "Nonlinear components beat the same number of linear ones (degree 2–7 against degree 1).",
        "n",
        beaten,
        f"Degrees below degree 1's error: {'; '.join(counts)}.",
    )
    at_256 = TABLE2_N.index(LINEAR_MAX_COMPONENTS)
    helped, changes = [], []
    for j, degree in enumerate(TABLE2_DEGREES[1:], start=1):
        beyond = errors[at_256 + 1 :, j]
        if np.isnan(errors[at_256, j]) or not np.isfinite(beyond).any():
            continue
        best = int(np.nanargmin(beyond))
        helped.append((degree, beyond[best] < errors[at_256, j]))
        changes.append(
            f"d = {degree}: {errors[at_256, j]:.2f} → {beyond[best]:.2f} % "
            f"(n = {TABLE2_N[at_256 + 1 + best]})"
        )
    second = _claim(
        "More than 256 components help further.",
        "d",
        helped,
        f"Error at n = 256 → best with n > 256: {'; '.join(changes)}.",
    )
    return first, second


NAMED_CELLS = 2
"""At most this many cells above, below or equal to the paper's are named one by one."""


def best_cell(errors: np.ndarray) -> tuple[float, int, int]:
    """The smallest error (%) of a Table 2 grid and its cell: (error, degree, n)."""
    i, j = np.unravel_index(np.nanargmin(errors), np.shape(errors))
    return float(errors[i, j]), TABLE2_DEGREES[j], TABLE2_N[i]


def differences_from_paper(errors: np.ndarray, paper: np.ndarray = PAPER_TABLE2) -> str:
    """How a grid's errors differ from the paper's, in one sentence of numbers.

    Compares the cells both have: how many are above, below and equal to the
    paper's error, and by how much (percentage points; a group of at most
    :data:`NAMED_CELLS` cells names them), the median of ours − paper, and the
    best cell of each.
    """
    errors = np.asarray(errors, dtype=float)
    both = np.isfinite(errors) & np.isfinite(paper)
    if not both.any():
        return "No cell to compare with the paper."
    diff = errors - paper
    groups = []
    for name, where in (
        ("above", both & (diff > 0)),
        ("below", both & (diff < 0)),
        ("equal to", both & (diff == 0)),
    ):
        count = int(where.sum())
        if not count:
            continue
        cells = list(zip(*np.nonzero(where), strict=True))
        if count <= NAMED_CELLS:
            by = ", ".join(
                f"degree {TABLE2_DEGREES[j]}, n = {TABLE2_N[i]}"
                + (f", by {abs(diff[i, j]):.2f}" if name != "equal to" else "")
                for i, j in cells
            )
        elif name != "equal to":
            sizes = np.abs(diff[where])
            by = f"by {sizes.min():.2f} to {sizes.max():.2f}"
        else:
            by = ""
        groups.append(f"{count} {name} it" + (f" ({by})" if by else ""))
    ours, theirs = best_cell(errors), best_cell(paper)
    return (
        f"Of {int(both.sum())} cells, ours are {', '.join(groups)}, in points of error; "
        f"ours − paper has median {np.median(diff[both]):+.2f}. Best cell: {ours[0]:.2f} % "
        f"(degree {ours[1]}, n = {ours[2]}) against the paper's {theirs[0]:.1f} % "
        f"(degree {theirs[1]}, n = {theirs[2]})."
    )


# ---------------------------------------------------------------- the table
TABLE2_COLUMNS = ("degree", "n_components", "C", "validation_error", "test_error", "paper_error")
"""Columns of the shipped table (errors in %); its ``#`` lines say who made it."""


def table2_csv(cells: Sequence[Table2Cell], provenance: dict[str, str]) -> str:
    """The cells as CSV text, ``# key: value`` provenance lines first."""
    lines = [f"# {key}: {value}" for key, value in provenance.items()]
    lines.append(",".join(TABLE2_COLUMNS))
    for cell in sorted(cells, key=lambda c: (c.degree, c.n_components)):
        validation = cell.validation_errors[cell.C]
        lines.append(
            f"{cell.degree},{cell.n_components},{cell.C:g},{validation:.2f},"
            f"{cell.test_error:.2f},{cell.paper_error:.1f}"
        )
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Table2:
    """A table read from CSV: the grid of test errors and where it came from.

    Attributes
    ----------
    errors : ndarray of shape (len(TABLE2_N), len(TABLE2_DEGREES))
        Test error (%); NaN where the table has no cell.
    C : ndarray of the same shape
        The C chosen for each cell.
    provenance : dict of str to str
        The ``# key: value`` lines (command, date, commit, …).
    """

    errors: np.ndarray
    C: np.ndarray
    provenance: dict[str, str]

    def error(self, degree: int, n_components: int) -> float:
        """The test error (%) at (degree, n); NaN where the table has none."""
        return float(self.errors[TABLE2_N.index(n_components), TABLE2_DEGREES.index(degree)])


def read_table2(text: str) -> Table2:
    """Parse :func:`table2_csv`'s text.

    Raises
    ------
    ValueError
        If the header is not :data:`TABLE2_COLUMNS` or a cell is outside Table 2.
    """
    provenance: dict[str, str] = {}
    rows = []
    for line in text.splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            provenance[key.strip()] = value.strip()
        elif line.strip():
            rows.append(line.strip().split(","))
    if not rows or tuple(rows[0]) != TABLE2_COLUMNS:
        raise ValueError(f"not a Table 2 CSV: the header must be {','.join(TABLE2_COLUMNS)}")
    shape = (len(TABLE2_N), len(TABLE2_DEGREES))
    errors, chosen = np.full(shape, np.nan), np.full(shape, np.nan)
    for row in rows[1:]:
        degree, n = int(row[0]), int(row[1])
        if degree not in TABLE2_DEGREES or n not in TABLE2_N:
            raise ValueError(f"cell (degree {degree}, n {n}) is not in Table 2")
        where = TABLE2_N.index(n), TABLE2_DEGREES.index(degree)
        chosen[where], errors[where] = float(row[2]), float(row[4])
    return Table2(errors=errors, C=chosen, provenance=provenance)
