"""The de-noising experiments of Mika et al. (1999), Sect. 4, as pure functions.

USPS protocol ("USPS example" in the paper): for each of the ten digits draw
300 training and 50 test digits at random; fit linear PCA and kernel PCA
(Gaussian kernel) on the *clean* training digits; add noise to the test
digits; reconstruct every noisy test digit from its first n components —
linear PCA by projecting onto the first n principal axes, kernel PCA by an
approximate pre-image z of P_n Φ(y) (eqs. 4–10, :mod:`kpca_core.preimage`) —
and compare each reconstruction with the clean original.

Error measure
-------------
The squared distance ‖z − x‖² between a reconstruction and its clean
original, summed over the pixels of the digit, on the files' [−1, 1] grey
scale, averaged over the test digits (the paper's "mean squared distance of
each reconstructed digit … to its original counterpart"). Every "MSE" below
is this per-digit quantity; ratios are linear MSE / kernel MSE, so > 1 means
kernel PCA did better.

Scales, and what the presets mean
---------------------------------
The paper uses k(x, y) = exp(−‖x − y‖² / (N c)) with N the input dimension
(256 pixels) and c = 0.5, "equaling twice the average of the data's variance
in each dimension", and Gaussian noise with σ = 0.5; it does not say on which
grey scale. The USPS files store grey values in [−1, 1] (per-pixel variance
0.47 on average there, 0.12 on a [0, 1] scale, so the "twice the variance"
remark fits neither scale). Measured on these files with the paper's
protocol (seed 0; ``python bench/denoise_usps.py --interpretations``), the
ratio of the best linear MSE to the best kernel MSE over n = 1, 2, 3, 4, 6,
…, 1024 (in brackets: over the paper's powers of 2 only):

====================================================  ===========  ===========
interpretation                                        Gaussian     speckle
====================================================  ===========  ===========
centred, N c = mean squared distance between digits   1.47         1.02 (1.03)
(240), σ = 0.5 on the [−1, 1] scale
the same without centring                             1.57         1.16
**preset**: no centring, N c = 256 · 0.5 = 128 on     **1.85**     **1.27**
the files' [−1, 1] scale, σ = 0.5 on a [0, 1]         **(1.90)**
intensity scale (1.0 on the files' scale), p = 0.4
====================================================  ===========  ===========

The paper reports 1.6 and 1.2. The preset reads the paper literally: its
kernel formula with c = 0.5 applied to the grey values as distributed, no
centring (eqs. 3–10 are written without it; footnote 1 only says that
centring would go through the same algebra), and a noise σ quoted for the
usual [0, 1] intensity scale. On the
paper's grid of powers of 2 it also reproduces the best numbers of
components (32 linear; 512 and 256 kernel) and the "up to 8×" at equal n
(8.45 at n = 256). In kernel-width terms the preset is
k = exp(−‖x − y‖² / 128), i.e. σ_k = 8 in exp(−‖x − y‖² / (2σ_k²)).

Random numbers
--------------
One seed drives everything: the digits are drawn with ``seed``, the test
noise with ``seed + 1`` and (when training on noisy digits) the training
noise with ``seed + 2``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA
from sklearn.utils import check_random_state

from .datasets import half_circle, square
from .kernel_pca import KernelPCA
from .noise import gaussian_noise, sigma_on_file_scale, speckle_noise

Progress = Callable[[float, str], None]
NoiseKind = Literal["gaussian", "speckle"]
PreimageMethod = Literal["fixed-point", "ridge"]

SWEEP_N: tuple[int, ...] = tuple(sorted({2**k for k in range(11)} | {3 * 2**k for k in range(9)}))
"""Numbers of components of the MSE-against-n sweep: 1, 2, 3, 4, 6, 8, 12, …, 768, 1024
(powers of 2 and three times powers of 2, evenly spread on a log axis)."""
FIG4_N: tuple[int, ...] = (1, 4, 16, 64, 256)
"""The numbers of components shown in the paper's Fig. 4."""
DEMO_N: dict[str, int] = {"linear": 32, "kernel": 512}
"""Components used by the demo: the paper's best n for Gaussian noise."""


def _notify(progress: Progress | None, fraction: float, message: str) -> None:
    if progress is not None:
        progress(fraction, message)


def _scaled(progress: Progress | None, begin: float, end: float) -> Progress | None:
    """A callback reporting ``[0, 1]`` of a sub-task as ``[begin, end]`` of the whole."""
    if progress is None:
        return None
    return lambda fraction, message: progress(begin + (end - begin) * fraction, message)


# --------------------------------------------------------------------- noise
@dataclass(frozen=True)
class Noise:
    """One of the paper's two noise models, with its level.

    Parameters
    ----------
    kind : {"gaussian", "speckle"}
        Additive Gaussian noise, or speckle (each pixel, with probability p,
        replaced by black or white, each half the time).
    level : float
        Gaussian: the standard deviation σ on a [0, 1] intensity scale
        (0 = white, 1 = full ink), i.e. 2σ on the files' [−1, 1] scale.
        Speckle: the probability p.
    """

    kind: NoiseKind
    level: float

    def __post_init__(self) -> None:
        if self.kind not in ("gaussian", "speckle"):
            raise ValueError(f"noise kind must be 'gaussian' or 'speckle', got {self.kind!r}")
        if not np.isfinite(self.level) or self.level < 0:
            raise ValueError(f"the noise level must be a number ≥ 0, got {self.level!r}")
        if self.kind == "speckle" and self.level > 1:
            raise ValueError(f"the speckle probability must be at most 1, got {self.level!r}")

    def apply(self, X: np.ndarray, random_state: int | np.random.RandomState | None) -> np.ndarray:
        """Noisy copies of the images ``X`` (grey values in [−1, 1])."""
        if self.kind == "gaussian":
            return gaussian_noise(X, sigma_on_file_scale(self.level), random_state)
        return speckle_noise(X, self.level, random_state, low=-1.0, high=1.0)

    def describe(self) -> str:
        """Plain text such as ``Gaussian noise σ = 0.5 (0–1 intensity scale)``."""
        if self.kind == "gaussian":
            return f"Gaussian noise σ = {self.level:g} (0–1 intensity scale)"
        return f"speckle noise p = {self.level:g}"


# ------------------------------------------------------------------- presets
@dataclass(frozen=True)
class Preset:
    """A setting of the USPS experiment, with what the paper reports for it.

    Attributes
    ----------
    noise : Noise
    c : float
        Mika et al.'s kernel width per input dimension:
        k(x, y) = exp(−‖x − y‖² / (N c)), N the number of pixels.
    center : bool
        Centre the data in feature space.
    n_train_per_class, n_test_per_class : int
    paper : str
        The paper's result for this setting, for display.
    """

    noise: Noise
    c: float = 0.5
    center: bool = False
    n_train_per_class: int = 300
    n_test_per_class: int = 50
    paper: str = ""


PRESETS: dict[str, Preset] = {
    "Mika et al. 1999, Fig. 4 (Gaussian noise)": Preset(
        Noise("gaussian", 0.5),
        paper="kernel PCA 1.6× better at the best n (32 linear, 512 kernel); up to 8× at equal n",
    ),
    "Mika et al. 1999, Fig. 4 (speckle noise)": Preset(
        Noise("speckle", 0.4),
        paper="kernel PCA 1.2× better at the best n (32 linear, 256 kernel)",
    ),
}
"""The settings that reproduce the paper's Fig. 4 numbers (see the module docstring)."""


def kernel_gamma(c: float, n_features: int) -> float:
    """γ of exp(−γ‖x − y‖²) for Mika et al.'s exp(−‖x − y‖² / (N c)), N = ``n_features``."""
    if not (np.isfinite(c) and c > 0):
        raise ValueError(f"the kernel width c must be a positive number, got {c!r}")
    return 1.0 / (n_features * c)


def mean_squared_distance(X: np.ndarray) -> float:
    """Mean of ‖x_i − x_j‖² over all ordered pairs: 2 Σ_d Var(x_d).

    N c for the data-driven width "twice the average variance per dimension".
    """
    return float(2.0 * np.asarray(X).var(axis=0).sum())


# ------------------------------------------------------------------ sampling
def stratified_indices(
    labels: np.ndarray, per_class: int, random_state: int | np.random.RandomState | None = None
) -> np.ndarray:
    """Indices of ``per_class`` randomly chosen examples of each class.

    Drawn without replacement, class by class in increasing label order
    (a class with fewer examples gives all it has).

    Parameters
    ----------
    labels : ndarray of shape (n,)
    per_class : int
    random_state : int, RandomState or None

    Returns
    -------
    ndarray of int
    """
    if int(per_class) != per_class or per_class < 1:
        raise ValueError(f"per_class must be a positive integer, got {per_class!r}")
    rng = check_random_state(random_state)
    labels = np.asarray(labels)
    chosen = []
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        chosen.append(rng.choice(members, min(int(per_class), members.size), replace=False))
    return np.concatenate(chosen)


@dataclass(frozen=True)
class DigitSubsets:
    """Training and test digits drawn per class, and the data's name.

    Attributes
    ----------
    X_train, y_train, X_test, y_test : ndarray
        Images (rows of side² grey values in [−1, 1]) and labels.
    side : int
        Image side in pixels (16 USPS, 8 scikit-learn digits).
    source : str
        Where the digits come from, for every label shown.
    """

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    side: int
    source: str

    @property
    def n_train_per_class(self) -> int:
        """The smallest number of training digits of any class."""
        return int(np.bincount(self.y_train).min())

    @property
    def n_test_per_class(self) -> int:
        """The smallest number of test digits of any class."""
        return int(np.bincount(self.y_test).min())


def sample_digits(
    train: tuple[np.ndarray, np.ndarray],
    test: tuple[np.ndarray, np.ndarray],
    n_train_per_class: int,
    n_test_per_class: int,
    *,
    side: int,
    source: str,
    random_state: int | None = None,
) -> DigitSubsets:
    """Draw the paper's training and test subsets (300 and 50 per class there).

    Parameters
    ----------
    train, test : (images, labels)
        The full training and test sets.
    n_train_per_class, n_test_per_class : int
    side : int
    source : str
    random_state : int or None
        One generator draws the training subset, then the test subset.
    """
    rng = check_random_state(random_state)
    i_train = stratified_indices(train[1], n_train_per_class, rng)
    i_test = stratified_indices(test[1], n_test_per_class, rng)
    return DigitSubsets(
        X_train=np.asarray(train[0], dtype=float)[i_train],
        y_train=np.asarray(train[1])[i_train],
        X_test=np.asarray(test[0], dtype=float)[i_test],
        y_test=np.asarray(test[1])[i_test],
        side=side,
        source=source,
    )


# -------------------------------------------------------------------- models
def squared_errors(Z: np.ndarray, X: np.ndarray) -> np.ndarray:
    """‖z − x‖² of each reconstruction z to its clean original x (summed over pixels)."""
    return np.sum((np.asarray(Z) - np.asarray(X)) ** 2, axis=1)


class DigitDenoiser:
    """Linear PCA and Gaussian kernel PCA fitted on the same training digits.

    Parameters
    ----------
    c : float, default=0.5
        Kernel width per input dimension, k(x, y) = exp(−‖x − y‖² / (N c))
        (Mika et al. Sect. 4).
    center : bool, default=False
        Centre in feature space (the pre-image weights then carry the
        centring correction, :func:`kpca_core.preimage.expansion_weights`).

    Attributes
    ----------
    linear_ : sklearn.decomposition.PCA
        All min(M, N) linear components.
    kernel_ : KernelPCA
        All kernel components with a non-zero eigenvalue.
    n_linear_max_, n_kernel_max_ : int
        How many components each method has.
    """

    def __init__(self, c: float = 0.5, *, center: bool = False) -> None:
        self.c = c
        self.center = center

    def fit(self, X: np.ndarray, *, progress: Progress | None = None) -> DigitDenoiser:
        """Fit both models on the training digits ``X`` (n_digits, n_pixels)."""
        X = np.asarray(X, dtype=float)
        _notify(progress, 0.0, "linear PCA")
        self.linear_ = PCA(svd_solver="full").fit(X)
        self.kernel_ = KernelPCA(
            kernel="rbf",
            gamma=kernel_gamma(self.c, X.shape[1]),
            center=self.center,
            eigen_solver="dense",
        ).fit(X, progress=_scaled(progress, 0.05, 1.0))
        self.n_linear_max_ = int(self.linear_.n_components_)
        self.n_kernel_max_ = int(self.kernel_.n_components_)
        return self

    def reconstruct_linear(self, Y: np.ndarray, n: int) -> np.ndarray:
        """x̄ + Σ_{k≤n} ((y − x̄) · v_k) v_k: projection onto the first n principal axes.

        ``n`` is capped at the number of components (then nothing is removed).
        """
        n = min(int(n), self.n_linear_max_)
        V = self.linear_.components_[:n]
        return (np.asarray(Y, dtype=float) - self.linear_.mean_) @ V.T @ V + self.linear_.mean_

    def reconstruct_kernel(
        self,
        Y: np.ndarray,
        n: int,
        *,
        method: PreimageMethod = "fixed-point",
        ridge_alpha: float = 1.0,
        random_state: int | None = 0,
    ) -> tuple[np.ndarray, int]:
        """Approximate pre-images of P_n Φ(y) (Mika et al. eqs. 4–10), and the restart count.

        ``method="fixed-point"`` iterates eq. (10) from the noisy digit;
        ``"ridge"`` is scikit-learn's learned pre-image (kernel ridge
        regression with parameter ``ridge_alpha``). ``n`` is capped at the
        number of kernel components.
        """
        Z, info = self.kernel_.preimage(
            Y,
            min(int(n), self.n_kernel_max_),
            method=method,
            ridge_alpha=ridge_alpha,
            random_state=random_state,
            return_info=True,
        )
        return Z, int(info["restarts"])


# --------------------------------------------------------------------- sweep
@dataclass(frozen=True)
class ErrorCurve:
    """MSE against the number of components for one method."""

    method: str
    n: np.ndarray
    mse: np.ndarray

    @property
    def best_n(self) -> int:
        """The n with the smallest MSE."""
        return int(self.n[np.argmin(self.mse)])

    @property
    def best_mse(self) -> float:
        """The smallest MSE."""
        return float(np.min(self.mse))


@dataclass(frozen=True)
class ErrorSweep:
    """The MSE-against-n curves of the de-noising experiment.

    Attributes
    ----------
    linear, kernel : ErrorCurve
    ridge : ErrorCurve or None
        The learned (kernel ridge) pre-image, when asked for.
    restarts : int
        Fixed-point restarts over the whole sweep.
    baseline_mse : float
        MSE of the noisy digits themselves (no de-noising).
    """

    linear: ErrorCurve
    kernel: ErrorCurve
    ridge: ErrorCurve | None = None
    restarts: int = 0
    baseline_mse: float = field(default=float("nan"))

    def on_grid(self, n_values: Sequence[int]) -> ErrorSweep:
        """The same sweep restricted to the n in ``n_values`` (e.g. the paper's powers of 2)."""

        def keep(curve: ErrorCurve) -> ErrorCurve:
            mask = np.isin(curve.n, n_values)
            return ErrorCurve(curve.method, curve.n[mask], curve.mse[mask])

        return ErrorSweep(
            linear=keep(self.linear),
            kernel=keep(self.kernel),
            ridge=None if self.ridge is None else keep(self.ridge),
            restarts=self.restarts,
            baseline_mse=self.baseline_mse,
        )

    def to_frame(self) -> pd.DataFrame:
        """The curves as a table, one row per n.

        Columns ``mse_linear_pca``, ``mse_kernel_pca`` (and the learned
        pre-image's), empty where a method has no such n (linear PCA beyond the
        number of pixels), and ``mse_noisy``, the error of the noisy digits.
        """
        curves = [self.linear, self.kernel] + ([self.ridge] if self.ridge is not None else [])
        table = pd.DataFrame({"n": np.unique(np.concatenate([curve.n for curve in curves]))})
        for curve in curves:
            mse = pd.Series(curve.mse, index=curve.n)
            name = re.sub(r"[^a-z0-9]+", "_", curve.method.lower()).strip("_")
            table[f"mse_{name}"] = table["n"].map(mse)
        table["mse_noisy"] = self.baseline_mse
        return table

    @property
    def ratio_at_best(self) -> float:
        """Best linear MSE / best kernel MSE (the paper's 1.6 and 1.2)."""
        return self.linear.best_mse / self.kernel.best_mse

    def same_n_ratios(self) -> tuple[np.ndarray, np.ndarray]:
        """(n, linear MSE / kernel MSE) at the n both curves share."""
        common, i_lin, i_ker = np.intersect1d(self.linear.n, self.kernel.n, return_indices=True)
        return common, self.linear.mse[i_lin] / self.kernel.mse[i_ker]

    @property
    def largest_same_n_ratio(self) -> tuple[int, float]:
        """(n, ratio) where kernel PCA beats linear PCA most at equal n (the paper's "8×")."""
        n, ratios = self.same_n_ratios()
        best = int(np.argmax(ratios))
        return int(n[best]), float(ratios[best])


def error_sweep(
    model: DigitDenoiser,
    clean: np.ndarray,
    noisy: np.ndarray,
    n_values: Sequence[int] = SWEEP_N,
    *,
    ridge: bool = False,
    ridge_alpha: float = 1.0,
    random_state: int | None = 0,
    progress: Progress | None = None,
) -> ErrorSweep:
    """MSE against n for linear PCA, kernel PCA (fixed point) and optionally ridge.

    Each method is evaluated at the n of ``n_values`` it has components for
    (linear: at most the number of pixels or of training digits; kernel: the
    number of non-zero eigenvalues).

    Parameters
    ----------
    model : DigitDenoiser
        Fitted.
    clean, noisy : ndarray of shape (n_digits, n_pixels)
        The test digits and their noisy versions.
    n_values : sequence of int
    ridge : bool
        Also evaluate the learned pre-image (one kernel ridge fit per n).
    ridge_alpha : float
    random_state : int or None
        Seeds the fixed-point restarts.
    progress : callable, optional
        ``progress(fraction, message)`` after each n.
    """
    n_values = np.unique(np.asarray(n_values, dtype=int))
    n_linear = n_values[n_values <= model.n_linear_max_]
    n_kernel = n_values[n_values <= model.n_kernel_max_]
    n_ridge = n_kernel if ridge else n_kernel[:0]
    steps = len(n_linear) + len(n_kernel) + len(n_ridge)
    done = 0

    def tick(message: str) -> None:
        nonlocal done
        done += 1
        _notify(progress, done / steps, message)

    mse_linear = []
    for n in n_linear:
        mse_linear.append(squared_errors(model.reconstruct_linear(noisy, n), clean).mean())
        tick(f"linear PCA, n = {n}")
    mse_kernel, restarts = [], 0
    for n in n_kernel:
        Z, r = model.reconstruct_kernel(noisy, n, random_state=random_state)
        mse_kernel.append(squared_errors(Z, clean).mean())
        restarts += r
        tick(f"kernel PCA, n = {n}")
    mse_ridge = []
    for n in n_ridge:
        Z, _ = model.reconstruct_kernel(noisy, n, method="ridge", ridge_alpha=ridge_alpha)
        mse_ridge.append(squared_errors(Z, clean).mean())
        tick(f"learned pre-image, n = {n}")
    return ErrorSweep(
        linear=ErrorCurve("linear PCA", n_linear, np.array(mse_linear)),
        kernel=ErrorCurve("kernel PCA", n_kernel, np.array(mse_kernel)),
        ridge=ErrorCurve("kernel PCA, learned pre-image", n_ridge, np.array(mse_ridge))
        if ridge
        else None,
        restarts=restarts,
        baseline_mse=float(squared_errors(noisy, clean).mean()),
    )


# --------------------------------------------------------------- image grids
@dataclass(frozen=True)
class ImageGrid:
    """Images laid out in rows and columns, for the mosaic figures.

    Attributes
    ----------
    images : ndarray of shape (n_rows, n_cols, side * side)
    side : int
    row_labels, column_labels : tuple of str
    errors : ndarray of shape (n_rows, n_cols), optional
        Squared error of each image to its clean original (NaN where none).
    restarts : int
        Fixed-point restarts while computing the kernel rows.
    """

    images: np.ndarray
    side: int
    row_labels: tuple[str, ...]
    column_labels: tuple[str, ...]
    errors: np.ndarray | None = None
    restarts: int = 0

    def to_frame(self) -> pd.DataFrame:
        """The images as a table, one row per image.

        Columns: its row and column label, its squared error to the clean
        original (empty where unknown) and its grey values ``pixel_0`` …, row
        by row.
        """
        n_rows, n_cols, n_pixels = self.images.shape
        table = pd.DataFrame(
            {
                "row": np.repeat(self.row_labels, n_cols),
                "column": np.tile(self.column_labels, n_rows),
                "squared_error": (
                    np.full(n_rows * n_cols, np.nan)
                    if self.errors is None
                    else self.errors.reshape(-1)
                ),
            }
        )
        pixels = pd.DataFrame(
            self.images.reshape(-1, n_pixels), columns=[f"pixel_{i}" for i in range(n_pixels)]
        )
        return pd.concat([table, pixels], axis=1)


def first_of_each_class(labels: np.ndarray) -> np.ndarray:
    """Index of the first example of each class, in label order (Fig. 4's top row)."""
    labels = np.asarray(labels)
    return np.array([np.flatnonzero(labels == label)[0] for label in np.unique(labels)])


def _n_label(method: str, n: int, available: int) -> str:
    return f"{method} n = {n}" if n <= available else f"{method} n = {n} (all {available})"


def fig4_grid(
    model: DigitDenoiser,
    clean: np.ndarray,
    noisy: np.ndarray,
    labels: np.ndarray,
    *,
    side: int,
    n_values: Sequence[int] = FIG4_N,
    method: PreimageMethod = "fixed-point",
    ridge_alpha: float = 1.0,
    random_state: int | None = 0,
) -> ImageGrid:
    """The image grid of Mika et al. Fig. 4 (one half of it).

    Columns: the first test digit of each class. Rows: the clean digit, its
    noisy version, linear PCA with n = 1, 4, 16, 64, 256 components, kernel
    PCA with the same n. An n beyond a method's components uses all of them
    (said in the row label).
    """
    pick = first_of_each_class(labels)
    rows = [np.asarray(clean)[pick], np.asarray(noisy)[pick]]
    row_labels = ["original", "noisy"]
    for n in n_values:
        rows.append(model.reconstruct_linear(rows[1], n))
        row_labels.append(_n_label("linear", n, model.n_linear_max_))
    restarts = 0
    kernel_name = "kernel (learned)" if method == "ridge" else "kernel"
    for n in n_values:
        Z, r = model.reconstruct_kernel(
            rows[1], n, method=method, ridge_alpha=ridge_alpha, random_state=random_state
        )
        rows.append(Z)
        restarts += r
        row_labels.append(_n_label(kernel_name, n, model.n_kernel_max_))
    images = np.stack(rows)
    return ImageGrid(
        images=images,
        side=side,
        row_labels=tuple(row_labels),
        column_labels=tuple(str(label) for label in np.asarray(labels)[pick]),
        errors=np.stack([squared_errors(row, rows[0]) for row in rows]),
        restarts=restarts,
    )


def side_by_side(
    model: DigitDenoiser,
    clean: np.ndarray,
    noisy: np.ndarray,
    labels: np.ndarray,
    n: int,
    *,
    side: int,
    method: PreimageMethod = "fixed-point",
    ridge_alpha: float = 1.0,
    random_state: int | None = 0,
) -> ImageGrid:
    """Clean / noisy / linear / kernel rows for the given digits, at one n.

    ``errors`` holds each image's squared error to its clean original.
    """
    clean = np.asarray(clean, dtype=float)
    noisy = np.asarray(noisy, dtype=float)
    linear = model.reconstruct_linear(noisy, n)
    kernel, restarts = model.reconstruct_kernel(
        noisy, n, method=method, ridge_alpha=ridge_alpha, random_state=random_state
    )
    rows = [clean, noisy, linear, kernel]
    kernel_name = "kernel (learned)" if method == "ridge" else "kernel"
    return ImageGrid(
        images=np.stack(rows),
        side=side,
        row_labels=(
            "original",
            "noisy",
            _n_label("linear", n, model.n_linear_max_),
            _n_label(kernel_name, n, model.n_kernel_max_),
        ),
        column_labels=tuple(str(label) for label in labels),
        errors=np.stack([squared_errors(row, clean) for row in rows]),
        restarts=restarts,
    )


def demo_images(
    model: DigitDenoiser,
    clean: np.ndarray,
    noise: Noise,
    *,
    side: int,
    n_linear: int = DEMO_N["linear"],
    n_kernel: int = DEMO_N["kernel"],
    random_state: int | None = 0,
) -> ImageGrid:
    """One digit: noisy, "classic method" (linear PCA), "kernel method" (kernel PCA).

    Parameters
    ----------
    model : DigitDenoiser
    clean : ndarray of shape (n_pixels,)
    noise : Noise
    side : int
    n_linear, n_kernel : int
        Components of each method (capped at what each has).
    random_state : int or None
        Seeds the noise.
    """
    clean = np.asarray(clean, dtype=float).reshape(1, -1)
    noisy = noise.apply(clean, random_state)
    linear = model.reconstruct_linear(noisy, n_linear)
    kernel, restarts = model.reconstruct_kernel(noisy, n_kernel)
    rows = np.stack([noisy, linear, kernel])  # (3, 1, n_pixels)
    return ImageGrid(
        images=rows.transpose(1, 0, 2),
        side=side,
        row_labels=("",),
        column_labels=("With noise", "Classic method", "Kernel method"),
        errors=squared_errors(rows[:, 0], np.repeat(clean, 3, axis=0))[np.newaxis],
        restarts=restarts,
    )


# ----------------------------------------------------------------- 2-D toy
TOY_SETS = {"half_circle": half_circle, "square": square}
"""The two data sets of Mika et al. Fig. 1."""


@dataclass(frozen=True)
class ToyDenoising:
    """Mika et al. Fig. 1 for one data set: noisy points and their de-noised versions.

    Attributes
    ----------
    name : str
    noisy : ndarray of shape (n, 2)
    kernel : ndarray of shape (n, 2)
        Kernel PCA with ``n_kernel`` components, fixed-point pre-images.
    linear : ndarray of shape (n, 2)
        Linear PCA with one component.
    n_kernel : int
    restarts : int
    """

    name: str
    noisy: np.ndarray
    kernel: np.ndarray
    linear: np.ndarray
    n_kernel: int
    restarts: int = 0


def toy_denoising(
    name: str,
    *,
    n_samples: int = 200,
    noise: float = 0.1,
    c: float = 0.5,
    n_components: int = 4,
    center: bool = True,
    random_state: int | None = 0,
) -> ToyDenoising:
    """De-noise a noisy half circle or square outline (Mika et al. Fig. 1).

    Both methods are fitted on the noisy points themselves, which are then
    projected and mapped back: kernel PCA (k = exp(−‖x − y‖² / (2c)), i.e.
    N = 2 in the paper's exp(−‖x − y‖² / (N c))) with ``n_components``
    components and fixed-point pre-images (eq. 10), linear PCA with one
    component (with two, the reconstruction is the data itself).

    Parameters
    ----------
    name : {"half_circle", "square"}
    n_samples : int
    noise : float
        Standard deviation of the Gaussian noise added to each coordinate.
    c : float
        Kernel width per dimension.
    n_components : int
    center : bool
    random_state : int or None
        Seeds the data and the restarts.
    """
    if name not in TOY_SETS:
        raise ValueError(f"name must be one of {sorted(TOY_SETS)}, got {name!r}")
    X, _ = TOY_SETS[name](n_samples, noise, random_state)
    kpca = KernelPCA(n_components, kernel="rbf", gamma=kernel_gamma(c, 2), center=center)
    kpca.fit(X)
    Z, info = kpca.preimage(X, random_state=random_state, return_info=True)
    pca = PCA(n_components=1).fit(X)
    return ToyDenoising(
        name=name,
        noisy=X,
        kernel=Z,
        linear=pca.inverse_transform(pca.transform(X)),
        n_kernel=int(kpca.n_components_),
        restarts=int(info["restarts"]),
    )
