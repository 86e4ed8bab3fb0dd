"""Methods side by side, Fig. 3 and the fixed point's paths (kpca_core.preimage_compare)."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest
from sklearn.datasets import load_digits

from kpca_core import KernelPCA
from kpca_core.denoise import DigitDenoiser, squared_errors
from kpca_core.preimage_compare import (
    FIG3_N,
    Reconstruction,
    compare_methods,
    fig3_findings,
    fixed_point_paths,
    reconstruction_series,
    rho_landscape,
    toy_comparison,
    toy_data,
    toy_paths,
)
from kpca_core.preimage_methods import METHODS, GaussianExpansion, preimages

USPS_DIR = os.environ.get("KPCA_USPS_DIR")


@pytest.fixture(scope="module")
def digits_model() -> tuple[DigitDenoiser, np.ndarray, np.ndarray]:
    data = load_digits()
    X = data.data / 8.0 - 1.0
    rng = np.random.RandomState(0)
    clean = X[300:330]
    noisy = clean + rng.normal(0.0, 0.5, clean.shape)
    return DigitDenoiser(0.5).fit(X[:300]), clean, noisy


@pytest.mark.parametrize("seed", [0, 1])
def test_compare_methods_agrees_with_each_method_run_alone(digits_model, seed):
    model, clean, noisy = digits_model
    comparison = compare_methods(model, clean, noisy, (2, 8, 10_000))
    n_max = model.n_kernel_max_
    assert comparison.n_points == 30
    assert comparison.baseline_mse == pytest.approx(squared_errors(noisy, clean).mean())
    expansion = GaussianExpansion.of(model.kernel_)
    for curve in comparison.curves:
        np.testing.assert_array_equal(curve.n, [2, 8, n_max])
        alone = preimages(expansion.problem(noisy, 8), curve.method)
        assert curve.mse[1] == pytest.approx(squared_errors(alone.Z, clean).mean(), rel=1e-9)
        assert curve.failures[1] == alone.failures
        assert np.all(curve.seconds_per_point > 0)
    assert [curve.method for curve in comparison.curves] == list(METHODS)
    frame = comparison.to_frame()
    assert len(frame) == 3 * len(METHODS)
    assert set(frame.columns) == {"method", "n", "mse", "seconds_per_point", "failures", "restarts"}


def test_fixed_point_in_the_comparison_is_the_engines_preimage(digits_model):
    model, clean, noisy = digits_model
    comparison = compare_methods(model, clean, noisy, (4,), methods=("fixed-point",))
    Z, _ = model.reconstruct_kernel(noisy, 4)
    assert comparison.curve("fixed-point").mse[0] == pytest.approx(
        squared_errors(Z, clean).mean(), rel=1e-9
    )
    with pytest.raises(KeyError):
        comparison.curve("ridge")


def test_toy_comparison_with_the_papers_four_components_beats_the_noise():
    # on the half circle; on the square the points also slide along the outline
    # (towards the corners), which the distance to the clean point counts as error
    comparison = toy_comparison("half_circle", (4,))
    for curve in comparison.curves:
        assert np.all(curve.mse < comparison.baseline_mse), curve.method
        assert curve.failures[0] == 0


def test_toy_data_clean_points_are_the_noisy_ones_without_noise():
    toy = toy_data("half_circle", noise=0.1, random_state=3)
    np.testing.assert_allclose(np.linalg.norm(toy.clean, axis=1), 1.0)
    assert 0.05 < np.std(toy.noisy - toy.clean) < 0.15
    with pytest.raises(ValueError, match="name must be one of"):
        toy_data("spiral")


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_paths_end_where_the_fixed_point_ends_and_start_at_the_noisy_points(seed):
    toy, paths = toy_paths("square", random_state=seed, max_steps=300)
    problem = paths.problem
    np.testing.assert_array_equal(paths.positions[0], toy.noisy)
    final = preimages(problem, "fixed-point", random_state=seed)
    np.testing.assert_allclose(paths.positions[-1], final.Z, atol=1e-12)
    np.testing.assert_array_equal(paths.converged, final.converged)
    assert paths.n_frames == paths.steps.max() + 1
    # a point that stopped stays put in the later frames
    first = int(np.argmin(paths.steps))
    stop = paths.steps[first]
    assert np.all(paths.positions[stop:, first] == paths.positions[stop, first])


def test_paths_mark_a_restart_as_a_jump_to_a_training_point():
    # two clusters, centred, one component: y in the right cluster gives the left
    # cluster negative weights γ_i, so from a start there the denominator of
    # eq. (10) is negative and the iteration restarts
    rng = np.random.RandomState(0)
    X = np.vstack([rng.normal(-3, 0.1, (20, 2)), rng.normal(3, 0.1, (20, 2))])
    model = KernelPCA(kernel="rbf", gamma=2.0, center=True).fit(X)
    start = np.array([[-3.0, -3.0], [3.0, 3.0], [-3.1, -2.9]])
    problem = GaussianExpansion.of(model).problem(np.array([[3.0, 3.0]] * 3), 1, start=start)
    paths = fixed_point_paths(problem, max_steps=20)
    frames, rows = np.nonzero(paths.restarted)
    assert rows.size > 0
    assert set(rows) == {0, 2}
    for t, r in zip(frames, rows, strict=True):
        assert np.any(np.all(np.isclose(X, paths.positions[t, r]), axis=1))
    assert np.all(paths.positions[-1] > 2.5)


def test_paths_stop_at_max_steps():
    _, paths = toy_paths("half_circle", max_steps=2)
    assert paths.n_frames <= 3


def test_rho_landscape_is_smallest_near_the_preimage():
    _, paths = toy_paths("half_circle")
    xs, ys = np.linspace(-1.5, 1.5, 61), np.linspace(-0.5, 1.5, 41)
    rho = rho_landscape(paths.problem, 0, xs, ys)
    assert rho.shape == (41, 61)
    iy, ix = np.unravel_index(np.argmin(rho), rho.shape)
    end = paths.positions[-1, 0]
    assert abs(xs[ix] - end[0]) <= 0.06 and abs(ys[iy] - end[1]) <= 0.06
    assert np.all(rho >= -1e-12)


@pytest.mark.parametrize("start", ["mean", "digit"])
def test_reconstruction_series_matches_one_reconstruction_per_n(digits_model, start):
    model, clean, _ = digits_model
    recon = reconstruction_series(model, clean[0], side=8, n_values=(1, 3, 20), start=start)
    assert recon.grid.images.shape == (2, 4, 64)
    assert recon.grid.column_labels[-1] == "original"
    np.testing.assert_array_equal(recon.grid.images[:, -1], [clean[0], clean[0]])
    for j, n in enumerate((1, 3, 20)):
        np.testing.assert_allclose(
            recon.grid.images[0, j], model.reconstruct_linear(clean[:1], n)[0], atol=1e-12
        )
        origin = model.linear_.mean_[None] if start == "mean" else clean[:1]
        Z = model.kernel_.preimage(clean[:1], n, start=origin, random_state=0)
        np.testing.assert_allclose(recon.grid.images[1, j], Z[0], atol=1e-4)
    reference = np.sum((model.linear_.mean_ - clean[0]) ** 2)
    np.testing.assert_allclose(recon.fraction_linear, recon.grid.errors[0, :-1] / reference)
    # linear PCA gets closer to the digit as n grows (nested projections)
    assert np.all(np.diff(recon.fraction_linear) <= 1e-12)


@pytest.mark.usps
def test_fig3_on_usps_linear_pca_is_more_exact_with_many_components():
    if not USPS_DIR or not Path(USPS_DIR, "zip.test.gz").exists():
        pytest.skip("the USPS files are not available (set KPCA_USPS_DIR)")
    from kpca_core.denoise import sample_digits
    from kpca_core.usps import load_usps

    subsets = sample_digits(
        load_usps("train"), load_usps("test"), 60, 5, side=16, source="USPS", random_state=0
    )
    model = DigitDenoiser(0.5).fit(subsets.X_train)
    test_X, _ = load_usps("test")
    recon = reconstruction_series(model, test_X[0], side=16)
    assert recon.n_values.tolist() == list(FIG3_N)
    # the paper's point: for more components linear PCA reconstructs more exactly
    assert recon.fraction_linear[-1] < recon.fraction_kernel[-1]


def _fractions(linear, kernel) -> Reconstruction:
    n = np.arange(1, len(linear) + 1)
    return Reconstruction(None, np.asarray(linear), np.asarray(kernel), n)


def test_fig3_text_says_much_the_same_only_where_the_numbers_are():
    # the digit the tab opens with: kernel PCA leaves far more at n = 1-4 (issue #31)
    opening = _fractions([0.62, 0.61, 0.53, 0.53, 0.4, 0.1], [1.26, 0.85, 0.76, 0.72, 0.5, 0.3])
    text = fig3_findings(opening, "7")
    assert "much the same" not in text
    assert "on this digit they do not: linear PCA leaves less" in text
    assert "linear PCA 0.62/0.61/0.53/0.53, kernel PCA 1.26/0.85/0.76/0.72" in text
    assert "kernel PCA draws a more prototypical 7** (n = 6: linear PCA 0.10" in text
    alike = fig3_findings(_fractions([0.6, 0.5, 0.45, 0.4, 0.3], [0.65, 0.5, 0.4, 0.4, 0.2]))
    assert alike.startswith("With few components both rebuild much the same, as in the paper")
    assert "At n = 5 linear PCA is not the closer here" in alike
