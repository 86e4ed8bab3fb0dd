"""Images in rows and columns: Mika et al. Fig. 4, digits side by side, the one-digit demo."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .denoiser import DigitDenoiser, PreimageMethod, squared_errors
from .settings import Noise

FIG4_N: tuple[int, ...] = (1, 4, 16, 64, 256)
"""The numbers of components shown in the paper's Fig. 4."""
DEMO_N: dict[str, int] = {"linear": 32, "kernel": 512}
"""Components used by the demo: the paper's best n for Gaussian noise."""


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
