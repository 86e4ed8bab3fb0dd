"""The picture behind the drawing canvas, against scikit-learn's kernel PCA."""

import numpy as np
import pytest
from conftest import path_points, png_pixels
from sklearn.decomposition import KernelPCA as SkKernelPCA

from kpca_core import contours as ct
from kpca_core.figures import panels
from kpca_core.figures.drawing import canvas_background


@pytest.mark.parametrize(
    ("spec", "sk"),
    [
        (ct.KernelSpec("rbf", sigma=0.7), {"kernel": "rbf", "gamma": 1 / (2 * 0.7**2)}),
        (ct.KernelSpec("poly", degree=2), {"kernel": "poly", "degree": 2, "gamma": 1, "coef0": 0}),
    ],
)
@pytest.mark.parametrize("seed", [0, 1])
def test_the_colours_are_the_first_component_over_the_square(spec, sk, seed):
    X = np.random.default_rng(seed).uniform(-1.5, 1.5, size=(12, 2))
    half_width, resolution = 2.0, 24
    background = canvas_background(ct.fit_column(X, spec, n_components=2), half_width, resolution)

    axis = np.linspace(-half_width, half_width, resolution)
    gx, gy = np.meshgrid(axis, axis)
    reference = SkKernelPCA(1, **sk).fit(X)
    on_data = reference.transform(X)[:, 0]
    values = reference.transform(np.column_stack([gx.ravel(), gy.ravel()]))[:, 0]
    values = (values / np.max(np.abs(on_data))).reshape(resolution, resolution)
    pixels = png_pixels(background["image"]).astype(int)
    # up to sign, rows from the top (y = h) down; colours rounded to whole levels
    errors = [
        np.max(np.abs(pixels - panels.colours(sign * values[::-1]).astype(int))) for sign in (1, -1)
    ]
    assert min(errors) <= 2


def test_the_lines_lie_in_the_square():
    X = np.array([[0.0, 0.0], [1.0, 0.2], [-0.5, 0.8], [0.3, -0.9]])
    background = canvas_background(
        ct.fit_column(X, ct.KernelSpec("rbf", sigma=0.5), n_components=1), 1.0
    )
    points = path_points(background["lines"])
    assert len(points) > 10
    assert np.all(np.abs(points) <= 1.0 + 1e-9)


def test_a_failed_fit_gives_no_picture():
    X = np.zeros((4, 2))  # every point the same: no component
    assert canvas_background(ct.fit_column(X, ct.KernelSpec("rbf"), n_components=1), 2.0) is None
