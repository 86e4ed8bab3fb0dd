"""The de-noising experiment and the pre-images behind it (Mika et al. 1999).

Independent answers: scikit-learn's PCA and KernelPCA(fit_inverse_transform)
for the linear and learned reconstructions, the gradient of eq. (8) for the
fixed point, closed forms for the expansion weights, and hand-built weights
for the restarts. Small data throughout (scikit-learn's 8 × 8 digits).
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import cdist
from sklearn.datasets import load_digits
from sklearn.decomposition import PCA
from sklearn.decomposition import KernelPCA as SklearnKernelPCA

from kpca_core import KernelPCA
from kpca_core.denoise import (
    FIG4_N,
    PRESETS,
    DigitDenoiser,
    ErrorCurve,
    ErrorSweep,
    ImageGrid,
    Noise,
    demo_images,
    error_sweep,
    fig4_grid,
    first_of_each_class,
    kernel_gamma,
    mean_squared_distance,
    sample_digits,
    side_by_side,
    squared_errors,
    stratified_indices,
    toy_denoising,
)
from kpca_core.kernels import kernel_matrix
from kpca_core.preimage import MAX_RESTARTS, expansion_weights, fixed_point_preimage


@pytest.fixture(scope="module")
def digits() -> tuple[np.ndarray, np.ndarray]:
    data = load_digits()
    return data.data / 8.0 - 1.0, data.target


@pytest.fixture(scope="module")
def subsets(digits):
    X, y = digits
    half = len(X) // 2
    return sample_digits(
        (X[:half], y[:half]),
        (X[half:], y[half:]),
        20,
        5,
        side=8,
        source="scikit-learn 8×8 digits",
        random_state=0,
    )


@pytest.fixture(scope="module")
def model(subsets) -> DigitDenoiser:
    return DigitDenoiser(0.5, center=False).fit(subsets.X_train)


# ------------------------------------------------------------------ sampling
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_stratified_indices_draw_per_class_without_replacement(seed):
    labels = np.repeat(np.arange(4), [10, 7, 3, 12])
    idx = stratified_indices(labels, 5, seed)
    assert len(np.unique(idx)) == len(idx)
    np.testing.assert_array_equal(np.bincount(labels[idx]), [5, 5, 3, 5])
    np.testing.assert_array_equal(idx, stratified_indices(labels, 5, seed))


def test_stratified_indices_depend_on_the_seed_and_reject_bad_counts():
    labels = np.repeat(np.arange(3), 50)
    assert not np.array_equal(stratified_indices(labels, 10, 0), stratified_indices(labels, 10, 1))
    with pytest.raises(ValueError, match="positive integer"):
        stratified_indices(labels, 0)


def test_sample_digits_keeps_images_with_their_labels(digits, subsets):
    X, y = digits
    assert subsets.X_train.shape == (200, 64) and subsets.X_test.shape == (50, 64)
    assert subsets.n_train_per_class == 20 and subsets.n_test_per_class == 5
    rows = {tuple(row): label for row, label in zip(X, y, strict=True)}
    for row, label in zip(subsets.X_test, subsets.y_test, strict=True):
        assert rows[tuple(row)] == label


# --------------------------------------------------------------------- noise
@pytest.mark.parametrize("sigma", [0.1, 0.5])
def test_gaussian_noise_level_is_on_a_0_1_intensity_scale(sigma):
    clean = np.zeros((400, 256))
    noisy = Noise("gaussian", sigma).apply(clean, 0)
    # σ on [0, 1] is 2σ on the files' [−1, 1] scale.
    assert np.std(noisy - clean) == pytest.approx(2 * sigma, rel=0.02)


@pytest.mark.parametrize("p", [0.2, 0.4])
def test_speckle_noise_sets_a_fraction_p_to_black_or_white(p):
    clean = np.zeros((400, 256))
    noisy = Noise("speckle", p).apply(clean, 3)
    hit = noisy != 0
    assert hit.mean() == pytest.approx(p, abs=0.01)
    assert set(np.unique(noisy[hit])) == {-1.0, 1.0}
    assert (noisy[hit] == 1).mean() == pytest.approx(0.5, abs=0.02)


@pytest.mark.parametrize(
    ("kind", "level", "match"),
    [("salt", 0.1, "kind"), ("gaussian", -1.0, "≥ 0"), ("speckle", 1.5, "at most 1")],
)
def test_noise_rejects_bad_settings(kind, level, match):
    with pytest.raises(ValueError, match=match):
        Noise(kind, level)


def test_presets_are_the_papers_settings():
    gaussian, speckle = PRESETS.values()
    assert gaussian.noise == Noise("gaussian", 0.5) and speckle.noise == Noise("speckle", 0.4)
    for preset in PRESETS.values():
        assert (preset.c, preset.center) == (0.5, False)
        assert (preset.n_train_per_class, preset.n_test_per_class) == (300, 50)
        # exp(−‖x − y‖²/(256 · 0.5)) on 16 × 16 digits
        assert kernel_gamma(preset.c, 256) == pytest.approx(1 / 128)


def test_mean_squared_distance_is_the_mean_over_all_pairs():
    X = np.random.RandomState(0).normal(size=(30, 4))
    assert mean_squared_distance(X) == pytest.approx(np.mean(cdist(X, X, "sqeuclidean")))


# ------------------------------------------------------ linear reconstruction
@pytest.mark.parametrize("n", [1, 5, 20, 64])
def test_linear_reconstruction_equals_sklearn_inverse_transform(model, subsets, n):
    noisy = Noise("gaussian", 0.3).apply(subsets.X_test, 1)
    reference = PCA(n_components=n, svd_solver="full").fit(subsets.X_train)
    expected = reference.inverse_transform(reference.transform(noisy))
    np.testing.assert_allclose(model.reconstruct_linear(noisy, n), expected, atol=1e-10)


# ----------------------------------------------------------------- pre-images
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_weights_of_a_training_point_with_all_components_pick_that_point(center, seed):
    """P Φ(x_j) = Φ(x_j) when every non-zero component is kept, so γ = e_j."""
    X = np.random.RandomState(seed).normal(size=(40, 3))
    kpca = KernelPCA(kernel="rbf", gamma=0.5, center=center).fit(X)
    weights = expansion_weights(kpca.transform(X), kpca.alphas_, center=center)
    np.testing.assert_allclose(weights, np.eye(len(X)), atol=1e-6)


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_preimage_of_a_training_point_with_all_components_is_the_point(center, seed):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(40, 3))
    kpca = KernelPCA(kernel="rbf", gamma=0.5, center=center).fit(X)
    start = X[:10] + 0.2 * rng.normal(size=(10, 3))  # not at the answer
    beta = kpca.transform(X[:10])
    Z, info = fixed_point_preimage(
        beta, kpca.alphas_, X, gamma=0.5, center=center, start=start, random_state=0
    )
    np.testing.assert_allclose(Z, X[:10], atol=1e-5)
    assert info["restarts"] == 0 and info["converged"].all()


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_centring_correction_makes_the_weights_sum_to_one(seed):
    rng = np.random.RandomState(seed)
    X = rng.normal(size=(50, 4))
    Y = rng.normal(size=(8, 4))
    kpca = KernelPCA(kernel="rbf", gamma=0.01, center=True).fit(X)
    beta = kpca.transform(Y)[:, :5]
    corrected = expansion_weights(beta, kpca.alphas_[:, :5], center=True)
    uncorrected = expansion_weights(beta, kpca.alphas_[:, :5], center=False)
    np.testing.assert_allclose(corrected.sum(axis=1), 1.0, atol=1e-10)
    # The centred axes have Σ_i α_i^k = 0, so without the correction Σ γ_i = 0 …
    np.testing.assert_allclose(uncorrected.sum(axis=1), 0.0, atol=1e-10)
    # … and the denominator of eq. (10), Σ γ_i k(z, x_i), all but vanishes for a
    # wide kernel (k nearly constant), relative to the size of its terms.
    K = kernel_matrix(Y, X, gamma=0.01)

    def relative_denominator(w: np.ndarray) -> np.ndarray:
        return np.abs((w * K).sum(axis=1)) / (np.abs(w) * K).sum(axis=1)

    assert relative_denominator(uncorrected).max() < 0.15
    assert relative_denominator(corrected).min() > 0.3


def test_without_the_correction_the_iteration_does_not_settle():
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 5))
    Y = X[:10] + 0.3 * rng.normal(size=(10, 5))
    kpca = KernelPCA(kernel="rbf", gamma=0.001, center=True).fit(X)
    beta = kpca.transform(Y)[:, :5]
    kwargs = {"gamma": 0.001, "start": Y, "max_iter": 100, "random_state": 0}
    _, with_correction = fixed_point_preimage(beta, kpca.alphas_[:, :5], X, center=True, **kwargs)
    _, without = fixed_point_preimage(beta, kpca.alphas_[:, :5], X, center=False, **kwargs)
    assert with_correction["converged"].all()
    assert not without["converged"].any()


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("n", [2, 5, 10])
def test_fixed_point_is_a_stationary_point_of_eq_8(center, n):
    """∇_z Σ_i γ_i k(z, x_i) = 2γ Σ_i γ_i k(z, x_i)(x_i − z) vanishes at the answer."""
    rng = np.random.RandomState(n)
    X = rng.normal(size=(80, 3))
    Y = X[:12] + 0.3 * rng.normal(size=(12, 3))
    kpca = KernelPCA(kernel="rbf", gamma=0.3, center=center).fit(X)
    Z, info = kpca.preimage(Y, n, tol=1e-14, max_iter=3000, return_info=True)
    weights = expansion_weights(kpca.transform(Y)[:, :n], kpca.alphas_[:, :n], center=center)
    wk = weights * kernel_matrix(Z, X, gamma=0.3)
    gradient = wk @ X - wk.sum(axis=1, keepdims=True) * Z
    scale = np.abs(wk).sum(axis=1, keepdims=True) * np.abs(X).max()
    assert info["restarts"] == 0
    assert np.all(np.abs(gradient) <= 1e-6 * scale)


def test_negative_denominator_restarts_from_the_heaviest_training_point():
    """Weights +1 on a cluster at (5, 5), −1 on one at the origin; start at the origin."""
    rng = np.random.RandomState(0)
    A = rng.normal(scale=0.1, size=(10, 2)) + 5.0
    B = rng.normal(scale=0.1, size=(10, 2))
    X = np.vstack([A, B])
    weights = np.concatenate([np.full(10, 1.0), np.full(10, -1.0)])[np.newaxis]
    start = np.zeros((1, 2))
    Z, info = fixed_point_preimage(
        weights, np.eye(20), X, gamma=1.0, center=False, start=start, random_state=0
    )
    assert info["restarts"] == 1
    assert info["converged"].all()
    # Started from the heaviest x_i, the iteration settles next to cluster A.
    assert np.linalg.norm(Z[0] - A.mean(axis=0)) < 0.2


def test_rows_that_never_find_a_positive_denominator_give_up_finite():
    rng = np.random.RandomState(1)
    X = rng.normal(size=(15, 3))
    weights = -np.abs(rng.normal(size=(4, 15)))  # every denominator negative
    Z, info = fixed_point_preimage(
        weights, np.eye(15), X, gamma=0.5, center=False, start=X[:4], random_state=0
    )
    assert info["restarts"] == 4 * MAX_RESTARTS
    assert not info["converged"].any()
    assert np.all(np.isfinite(Z))
    np.testing.assert_array_equal(Z, X[np.argmax(weights, axis=1)])


@pytest.mark.parametrize("n", [3, 10, 40])
@pytest.mark.parametrize("alpha", [0.1, 1.0])
def test_ridge_preimage_equals_sklearn_fit_inverse_transform(digits, n, alpha):
    X, _ = digits
    train, test = X[:150], X[200:220]
    gamma = kernel_gamma(0.5, 64)
    ours = KernelPCA(kernel="rbf", gamma=gamma, center=True).fit(train)
    theirs = SklearnKernelPCA(
        n, kernel="rbf", gamma=gamma, fit_inverse_transform=True, alpha=alpha
    ).fit(train)
    expected = theirs.inverse_transform(theirs.transform(test))
    got = ours.preimage(test, n, method="ridge", ridge_alpha=alpha)
    np.testing.assert_allclose(got, expected, atol=1e-6)


def test_preimage_rejects_a_start_of_the_wrong_shape(model, subsets):
    with pytest.raises(ValueError, match="shape of Y"):
        model.kernel_.preimage(subsets.X_test[:3], 5, start=subsets.X_test[:2])


# --------------------------------------------------------------- the pipeline
def test_sweep_matches_direct_reconstructions(model, subsets):
    noisy = Noise("gaussian", 0.3).apply(subsets.X_test, 1)
    sweep = error_sweep(model, subsets.X_test, noisy, (1, 4, 16, 64, 128, 1024))
    # linear PCA has 64 components (pixels), kernel PCA 200 (training digits)
    np.testing.assert_array_equal(sweep.linear.n, [1, 4, 16, 64])
    np.testing.assert_array_equal(sweep.kernel.n, [1, 4, 16, 64, 128])
    assert model.n_linear_max_ == 64 and model.n_kernel_max_ == 200
    for n, mse in zip(sweep.kernel.n, sweep.kernel.mse, strict=True):
        Z = model.kernel_.preimage(noisy, int(n), random_state=0)
        assert mse == pytest.approx(np.mean(np.sum((Z - subsets.X_test) ** 2, axis=1)))
    # With every linear component nothing is removed: the noisy digits come back.
    assert sweep.linear.mse[-1] == pytest.approx(sweep.baseline_mse)
    assert sweep.kernel.best_mse < sweep.baseline_mse
    assert sweep.ridge is None


def test_sweep_ratios_and_progress(model, subsets):
    noisy = Noise("speckle", 0.3).apply(subsets.X_test, 2)
    calls = []
    sweep = error_sweep(
        model,
        subsets.X_test,
        noisy,
        (2, 8, 32),
        ridge=True,
        progress=lambda f, m: calls.append((f, m)),
    )
    assert [round(f, 6) for f, _ in calls] == [round(i / 9, 6) for i in range(1, 10)]
    assert "learned" in calls[-1][1]
    np.testing.assert_array_equal(sweep.ridge.n, [2, 8, 32])
    assert sweep.ratio_at_best == pytest.approx(sweep.linear.mse.min() / sweep.kernel.mse.min())
    n, ratio = sweep.largest_same_n_ratio
    assert ratio == pytest.approx(np.max(sweep.linear.mse / sweep.kernel.mse))
    assert n == sweep.linear.n[np.argmax(sweep.linear.mse / sweep.kernel.mse)]


def test_error_sweep_restricted_to_a_grid():
    sweep = ErrorSweep(
        linear=ErrorCurve("linear PCA", np.array([1, 2, 3, 4]), np.array([5.0, 3.0, 1.0, 2.0])),
        kernel=ErrorCurve("kernel PCA", np.array([1, 2, 3, 4]), np.array([4.0, 2.0, 2.0, 0.5])),
    )
    assert (sweep.linear.best_n, sweep.kernel.best_n, sweep.ratio_at_best) == (3, 4, 2.0)
    grid = sweep.on_grid([1, 2, 4])
    assert (grid.linear.best_n, grid.ratio_at_best) == (4, 4.0)
    assert grid.largest_same_n_ratio == (4, 4.0)


def test_kernel_pca_beats_linear_pca_on_noisy_digits(subsets):
    """The paper's finding, in miniature: at the best n, kernel PCA wins."""
    preset = PRESETS["Mika et al. 1999, Fig. 4 (Gaussian noise)"]
    model = DigitDenoiser(preset.c, center=preset.center).fit(subsets.X_train)
    noisy = preset.noise.apply(subsets.X_test, 1)
    sweep = error_sweep(model, subsets.X_test, noisy, (1, 2, 4, 8, 16, 32, 64, 128))
    assert sweep.ratio_at_best > 1.2
    assert sweep.restarts == 0


def test_fig4_grid_layout(model, subsets):
    noisy = Noise("gaussian", 0.5).apply(subsets.X_test, 1)
    grid = fig4_grid(model, subsets.X_test, noisy, subsets.y_test, side=8, n_values=FIG4_N)
    assert grid.images.shape == (12, 10, 64)
    assert grid.row_labels[:3] == ("original", "noisy", "linear n = 1")
    assert grid.row_labels[6] == "linear n = 256 (all 64)"
    assert grid.row_labels[-1] == "kernel n = 256 (all 200)"
    assert grid.column_labels == tuple(str(d) for d in range(10))
    pick = first_of_each_class(subsets.y_test)
    np.testing.assert_array_equal(grid.images[0], subsets.X_test[pick])
    np.testing.assert_array_equal(grid.images[1], noisy[pick])
    np.testing.assert_allclose(grid.images[3], model.reconstruct_linear(noisy[pick], 4))
    np.testing.assert_allclose(grid.errors[1], squared_errors(noisy[pick], subsets.X_test[pick]))
    learned = fig4_grid(
        model, subsets.X_test, noisy, subsets.y_test, side=8, n_values=(4,), method="ridge"
    )
    assert learned.row_labels == ("original", "noisy", "linear n = 4", "kernel (learned) n = 4")
    expected = model.kernel_.preimage(noisy[pick], 4, method="ridge")
    np.testing.assert_allclose(learned.images[3], expected)


def test_side_by_side_and_demo(model, subsets):
    noisy = Noise("speckle", 0.4).apply(subsets.X_test[:4], 1)
    grid = side_by_side(model, subsets.X_test[:4], noisy, subsets.y_test[:4], 16, side=8)
    assert grid.images.shape == (4, 4, 64)
    np.testing.assert_array_equal(grid.errors[0], 0.0)
    np.testing.assert_allclose(grid.errors[2], squared_errors(grid.images[2], grid.images[0]))
    Z, _ = model.reconstruct_kernel(noisy, 16)
    np.testing.assert_allclose(grid.images[3], Z)

    demo = demo_images(model, subsets.X_test[0], Noise("gaussian", 0.0), side=8)
    assert demo.images.shape == (1, 3, 64)
    assert demo.column_labels == ("With noise", "Classic method", "Kernel method")
    np.testing.assert_array_equal(demo.images[0, 0], subsets.X_test[0])  # no noise
    assert demo.errors[0, 0] == 0.0


def _distance_to_half_circle(P: np.ndarray) -> np.ndarray:
    return np.abs(np.linalg.norm(P, axis=1) - 1.0)


def _distance_to_square(P: np.ndarray) -> np.ndarray:
    return np.abs(np.abs(P).max(axis=1) - 1.0)


TOY_CURVES = [("half_circle", _distance_to_half_circle), ("square", _distance_to_square)]


@pytest.mark.parametrize(("name", "distance"), TOY_CURVES)
def test_toy_denoising_kernel_follows_the_curve_linear_cannot(name, distance):
    result = toy_denoising(name, n_samples=150, noise=0.1, random_state=0)
    assert result.noisy.shape == result.kernel.shape == result.linear.shape == (150, 2)
    assert result.n_kernel == 4
    # one linear component: the de-noised points lie on a line
    assert np.linalg.matrix_rank(result.linear - result.linear.mean(axis=0), tol=1e-8) == 1
    assert distance(result.kernel).mean() < 0.5 * distance(result.linear).mean()
    if name == "half_circle":
        assert distance(result.kernel).mean() < 0.5 * distance(result.noisy).mean()


def test_toy_rejects_unknown_sets():
    with pytest.raises(ValueError, match="half_circle"):
        toy_denoising("spiral")


def test_the_numbers_behind_the_figures_as_tables() -> None:
    curves = ErrorSweep(
        linear=ErrorCurve("linear PCA", np.array([1, 4]), np.array([9.0, 5.0])),
        kernel=ErrorCurve("kernel PCA", np.array([1, 4, 512]), np.array([8.0, 4.0, 2.0])),
        baseline_mse=12.0,
    )
    table = curves.to_frame()
    assert list(table.columns) == ["n", "mse_linear_pca", "mse_kernel_pca", "mse_noisy"]
    assert table["n"].tolist() == [1, 4, 512]
    assert np.isnan(table["mse_linear_pca"].iloc[2]) and table["mse_kernel_pca"].iloc[2] == 2.0
    images = np.arange(2 * 3 * 4, dtype=float).reshape(2, 3, 4)
    grid = ImageGrid(images, 2, ("a", "b"), ("x", "y", "z"), errors=np.ones((2, 3)))
    pixels = grid.to_frame()
    assert pixels[["row", "column"]].values.tolist()[:4] == [
        ["a", "x"],
        ["a", "y"],
        ["a", "z"],
        ["b", "x"],
    ]
    np.testing.assert_array_equal(pixels.filter(like="pixel_").to_numpy(), images.reshape(6, 4))
    assert (
        ImageGrid(images, 2, ("a", "b"), ("x", "y", "z")).to_frame()["squared_error"].isna().all()
    )


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("name", ["half_circle", "square"])
def test_distance_to_curve_is_the_nearest_of_a_dense_sampling_of_the_curve(name, seed):
    """Each point's distance to the clean toy curve against an independent answer: the
    nearest (a k-d tree) of 100,000 points spread along the curve, or along each side of
    the square, within their spacing."""
    from scipy.spatial import cKDTree

    from kpca_core.denoise import distance_to_curve

    u = np.linspace(-1.0, 1.0, 100_000)
    if name == "half_circle":
        angle = np.pi * (u + 1) / 2
        curve = np.column_stack([np.cos(angle), np.sin(angle)])
    else:  # the outline of [-1, 1]², its four sides
        one = np.ones_like(u)
        sides = ((u, -one), (u, one), (-one, u), (one, u))
        curve = np.concatenate([np.column_stack(side) for side in sides])
    X = np.random.default_rng(seed).uniform(-2.0, 2.0, size=(500, 2))
    expected, _ = cKDTree(curve).query(X)
    np.testing.assert_allclose(distance_to_curve(name, X), expected, atol=1e-4)
