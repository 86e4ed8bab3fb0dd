"""Statistics of the noise models (Mika et al. 1999, Sect. 4)."""

from __future__ import annotations

import numpy as np
import pytest

from kpca_core.noise import gaussian_noise, sigma_on_file_scale, speckle_noise

SHAPE = (400, 256)


def _images(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-0.9, 0.9, SHAPE)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("sigma", [0.0, 0.25, 1.0, 3.0])
def test_gaussian_noise_has_mean_zero_and_std_sigma(sigma: float, seed: int) -> None:
    X = _images(seed)
    noise = gaussian_noise(X, sigma, random_state=seed) - X
    n = noise.size
    # mean of n N(0, σ²) draws has std σ/√n; the sample std has std ≈ σ/√(2n).
    assert abs(noise.mean()) < 5 * sigma / np.sqrt(n) + 1e-12
    assert noise.std() == pytest.approx(sigma, abs=5 * sigma / np.sqrt(2 * n) + 1e-12)


@pytest.mark.parametrize("sigma", [0.3, 1.0])
def test_gaussian_noise_is_independent_per_pixel(sigma: float) -> None:
    noise = gaussian_noise(np.zeros(SHAPE), sigma, random_state=7)
    corr = np.corrcoef(noise[:, :2].T)[0, 1]
    assert abs(corr) < 5 / np.sqrt(SHAPE[0])
    assert noise.shape == SHAPE


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("p", [0.0, 0.1, 0.4, 1.0])
def test_speckle_replaces_a_fraction_p_half_low_half_high(p: float, seed: int) -> None:
    X = _images(seed)  # no clean pixel is ±1, so every hit shows
    noisy = speckle_noise(X, p, random_state=seed)
    changed = noisy != X
    n = X.size
    assert changed.mean() == pytest.approx(p, abs=5 * np.sqrt(p * (1 - p) / n) + 1e-12)
    assert set(np.unique(noisy[changed])) <= {-1.0, 1.0}
    n_changed = changed.sum()
    if n_changed:
        high = (noisy[changed] == 1.0).mean()
        assert high == pytest.approx(0.5, abs=5 * np.sqrt(0.25 / n_changed))
    np.testing.assert_array_equal(noisy[~changed], X[~changed])


@pytest.mark.parametrize(("low", "high"), [(0.0, 1.0), (-1.0, 1.0), (0.0, 255.0)])
def test_speckle_uses_the_given_black_and_white(low: float, high: float) -> None:
    X = np.full(SHAPE, (low + high) / 2)
    noisy = speckle_noise(X, 1.0, random_state=3, low=low, high=high)
    assert set(np.unique(noisy)) == {low, high}


@pytest.mark.parametrize(
    "noisify",
    [
        lambda X, seed: gaussian_noise(X, 0.5, random_state=seed),
        lambda X, seed: speckle_noise(X, 0.4, random_state=seed),
    ],
    ids=["gaussian", "speckle"],
)
def test_noise_is_seeded_and_pure(noisify) -> None:
    X = _images(0)
    before = X.copy()
    a, b, c = noisify(X, 11), noisify(X, 11), noisify(X, 12)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    np.testing.assert_array_equal(X, before)


@pytest.mark.parametrize("sigma", [-0.1, -1.0, np.nan, np.inf])
def test_gaussian_noise_rejects_bad_sigma(sigma: float) -> None:
    with pytest.raises(ValueError, match="sigma"):
        gaussian_noise(np.zeros((2, 2)), sigma)


@pytest.mark.parametrize("p", [-0.01, 1.01, 2.0, np.nan])
def test_speckle_noise_rejects_bad_p(p: float) -> None:
    with pytest.raises(ValueError, match="p must"):
        speckle_noise(np.zeros((2, 2)), p)


@pytest.mark.parametrize(("unit", "file"), [(0.5, 1.0), (0.0, 0.0), (0.1, 0.2)])
def test_sigma_on_file_scale_doubles(unit: float, file: float) -> None:
    assert sigma_on_file_scale(unit) == pytest.approx(file)
    # Same noise relative to the range: rescaling [0, 1] data to [−1, 1] doubles the noise.
    X01 = np.random.default_rng(0).uniform(0, 1, SHAPE)
    a = gaussian_noise(X01, unit, random_state=5)
    b = gaussian_noise(2 * X01 - 1, sigma_on_file_scale(unit), random_state=5)
    np.testing.assert_allclose(2 * a - 1, b)
