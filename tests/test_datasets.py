"""The toy data sets: shapes, seeds and the properties the papers state."""

import numpy as np
import pytest

from kpca_core import datasets

GENERATORS = sorted(datasets.TOY_2D)


@pytest.mark.parametrize("name", GENERATORS)
@pytest.mark.parametrize("n_samples", [30, 301])
def test_shape_labels_and_seed(name, n_samples):
    X, labels = datasets.TOY_2D[name](n_samples, datasets.default_noise(name), 7)
    assert X.shape == (n_samples, 2) and labels.shape == (n_samples,)
    assert np.all(np.isfinite(X))
    again, _ = datasets.TOY_2D[name](n_samples, datasets.default_noise(name), 7)
    np.testing.assert_array_equal(X, again)
    other, _ = datasets.TOY_2D[name](n_samples, datasets.default_noise(name), 8)
    assert not np.array_equal(X, other)


def test_parabola_is_fig2():
    X, _ = datasets.parabola(20000, noise=0.2, random_state=0)
    assert X[:, 0].min() >= -1 and X[:, 0].max() <= 1
    residual = X[:, 1] - X[:, 0] ** 2
    assert residual.mean() == pytest.approx(0, abs=0.01)
    assert residual.std() == pytest.approx(0.2, rel=0.03)


def test_three_rings_radii_and_noise():
    X, ring = datasets.three_rings(3000, noise=0.25, random_state=0)
    radius = np.hypot(X[:, 0], X[:, 1])
    np.testing.assert_allclose(radius[ring == 0], 1.0)
    for label, r in ((1, 2.0), (2, 4.0)):
        assert radius[ring == label].mean() == pytest.approx(r, abs=0.05)
    assert np.bincount(ring).tolist() == [1000, 1000, 1000]


def test_noiseless_outlines_lie_on_their_curves():
    X, _ = datasets.half_circle(500, noise=0.0, random_state=0)
    np.testing.assert_allclose(np.hypot(X[:, 0], X[:, 1]), 1.0)
    assert np.all(X[:, 1] >= -1e-12)
    S, side = datasets.square(500, noise=0.0, random_state=0)
    np.testing.assert_allclose(np.max(np.abs(S), axis=1), 1.0)
    assert set(side) == {0, 1, 2, 3}


def test_gaussian_clusters_are_table1():
    X, labels, centers = datasets.gaussian_clusters(
        1100, noise=0.1, random_state=0, return_centers=True
    )
    assert X.shape == (1100, 10) and centers.shape == (11, 10)
    assert np.all(np.abs(centers) <= 1)
    assert np.bincount(labels).tolist() == [100] * 11
    spread = (X - centers[labels]).std()
    assert spread == pytest.approx(0.1, rel=0.05)
