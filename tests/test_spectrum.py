"""The width sweep: its limits, and agreement with independent full fits."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from scipy import linalg
from scipy.spatial.distance import pdist
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.metrics.pairwise import laplacian_kernel, rbf_kernel
from sklearn.preprocessing import KernelCenterer

from kpca_core import KernelPCA
from kpca_core.datasets import gaussian_clusters, moons, parabola, three_rings
from kpca_core.kernel_pca import center_kernel
from kpca_core.kernels import kernel_matrix, sigma_to_gamma, squared_distances
from kpca_core.spectrum import (
    CONSTANT,
    IDENTITY,
    ROUNDING_ERRORS,
    WidthSweep,
    component_grid,
    double_centre,
    leading_shares,
)


def rings(n: int = 150, seed: int = 0) -> np.ndarray:
    return three_rings(n, 0.25, seed)[0]


# ------------------------------------------------------------- centring
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_double_centre_is_eq_49(seed: int, dtype: type) -> None:
    X = np.random.default_rng(seed).normal(size=(40, 3))
    K = kernel_matrix(X, kernel="rbf", gamma=0.5)
    expected, _, _ = center_kernel(K)
    centred = double_centre(K.astype(dtype))
    assert centred.dtype == dtype
    np.testing.assert_allclose(centred, expected, atol=1e-6 if dtype == np.float32 else 1e-14)
    # centring in feature space: every row and column of K̃ sums to 0
    np.testing.assert_allclose(centred.sum(axis=0), 0, atol=1e-5 if dtype == np.float32 else 1e-12)


# ---------------------------------------------------------------- limits
@pytest.mark.parametrize("kernel", ["rbf", "laplacian"])
@pytest.mark.parametrize("seed", [0, 1])
def test_narrow_limit_is_the_identity(kernel: str, seed: int) -> None:
    """σ → 0: K = I, K̃ = I − 1_M, so λ_k = 1/M and λ_k/Σλ = 1/(M − 1) for M − 1 components."""
    X = rings(90, seed)
    M = len(X)
    sweep = WidthSweep(kernel, decades=(-8.0, -7.0), n_widths=3).fit(X)
    assert list(sweep.regime_) == [IDENTITY] * 3
    np.testing.assert_allclose(sweep.eigenvalues_[:, : M - 1], 1.0 / M, rtol=1e-12)
    np.testing.assert_allclose(sweep.ratios_[:, : M - 1], 1.0 / (M - 1), rtol=1e-12)
    # the constant direction of the centred matrix: exactly one zero
    np.testing.assert_array_equal(sweep.ratios_[:, M - 1], 0.0)
    np.testing.assert_array_equal(sweep.n_clipped_, 1)
    np.testing.assert_array_equal(sweep.effective_components(0.9), np.ceil(0.9 * (M - 1)))


def test_narrow_widths_approach_the_identity_limit() -> None:
    X = rings(120)
    sweep = WidthSweep("rbf", decades=(-6.0, 0.0), n_widths=25).fit(X)
    spread = sweep.ratios_[:, 0] - sweep.ratios_[:, len(X) - 2]
    assert spread[0] < 1e-12  # all equal at the narrow end
    assert np.all(np.diff(spread) >= -1e-12)  # and the spread grows with the width
    assert sweep.regime_[0] == IDENTITY and sweep.regime_[-1] == ""


def test_identity_needs_distinct_points() -> None:
    X = np.vstack([rings(60), rings(60)[:5]])  # five points twice
    sweep = WidthSweep("rbf", decades=(-8.0, -7.0), n_widths=2).fit(X)
    assert IDENTITY not in sweep.regime_
    # K has five 2 × 2 blocks of ones: eigenvalue 2 (four times, after centring)
    # against the trace of K̃, M − ΣK/M with ΣK = M + 10
    M = len(X)
    np.testing.assert_allclose(sweep.ratios_[:, :4], 2.0 / (M - (M + 10) / M), rtol=1e-9)


@pytest.mark.parametrize(
    "X",
    [rings(150), parabola(150, 0.2, 0)[0], moons(150, 0.05, 0)[0]],
    ids=["three_rings", "parabola", "moons"],
)
def test_wide_limit_is_linear_pca_on_2d_data(X: np.ndarray) -> None:
    """σ → ∞: K̃ ≈ X̃X̃ᵀ/σ², so (λ₁+λ₂)/Σλ → 1 and λ_k/Σλ → linear PCA's ratios."""
    sweep = WidthSweep("rbf", decades=(3.0, 4.0), n_widths=3).fit(X)
    assert sweep.regime_[-1] == ""
    assert np.all(sweep.share(2) > 1 - 1e-5)
    assert sweep.share(2)[-1] > 1 - 1e-7
    np.testing.assert_allclose(sweep.ratios_[-1, :2], sweep.linear_ratios_, atol=1e-7)


def test_linear_ratios_are_linear_pca() -> None:
    X = gaussian_clusters(220, 0.1, 0)[0]
    sweep = WidthSweep("rbf", n_widths=3).fit(X)
    covariance_eigenvalues = linalg.eigvalsh(np.cov(X.T))[::-1]
    np.testing.assert_allclose(
        sweep.linear_ratios_, covariance_eigenvalues / covariance_eigenvalues.sum(), rtol=1e-10
    )


def test_polynomial_wide_offset_is_linear_pca() -> None:
    X = parabola(120, 0.2, 1)[0]
    sweep = WidthSweep("poly", degree=3, decades=(6.0, 7.0), n_widths=2).fit(X)
    linear = np.tile(sweep.linear_ratios_, (2, 1))
    np.testing.assert_allclose(sweep.ratios_[:, :2], linear, atol=1e-5)


def test_numerically_constant_widths_are_labelled_and_exact() -> None:
    """Far out, every k(x, y) rounds to 1: K is numerically constant.  The sweep
    centres K − 1 = expm1(−γd) instead of K, so the spectrum is still the exact
    (linear PCA) limit there, not rounding noise."""
    X = rings(90)
    sweep = WidthSweep("rbf", decades=(9.5, 10.5), n_widths=3).fit(X)
    K = kernel_matrix(X, kernel="rbf", gamma=sigma_to_gamma(sweep.widths_[0]))
    assert np.all(K == 1.0)  # what a plain computation would centre
    assert list(sweep.regime_) == [CONSTANT] * 3
    np.testing.assert_allclose(sweep.share(2), 1.0, rtol=1e-12)
    np.testing.assert_allclose(sweep.ratios_[:, :2], np.tile(sweep.linear_ratios_, (3, 1)))


def test_spectra_at_the_rounding_level_are_blank() -> None:
    """Where even the largest eigenvalue is within NOISE_MARGIN times the rounding
    floor, the spectrum is noise: labelled constant, ratios NaN, not plotted."""
    X = rings(30)
    sweep = WidthSweep("rbf", n_widths=2).fit(X)
    eps = np.finfo(float).eps
    floor = ROUNDING_ERRORS * 30 * eps
    mu = np.vstack([np.linspace(1.0, 0.0, 30), np.linspace(10 * floor, -floor, 30)])
    entries = np.array([[1.0, 1.0, 1.0, 1.0], [1.0, 1.0, 1.0, 1.0]])
    sweep._summarise(mu, entries, eps, minimum=0.0)
    assert list(sweep.regime_) == ["", CONSTANT]
    assert np.all(np.isfinite(sweep.ratios_[0])) and np.all(np.isnan(sweep.ratios_[1]))
    assert sweep.negative_ratio_[1] == pytest.approx(0.1)


# ----------------------------------------------------- agreement with fits
SWEEPS = [
    ({"kernel": "rbf"}, "rbf"),
    ({"kernel": "laplacian"}, "laplacian"),
    ({"kernel": "poly", "degree": 2}, "poly-c"),
    ({"kernel": "poly", "sweep": "degree", "coef0": 0.5, "max_degree": 4}, "poly-degree"),
]


@pytest.mark.parametrize(("params", "name"), SWEEPS, ids=[name for _, name in SWEEPS])
@pytest.mark.parametrize("seed", [0, 3])
def test_agrees_with_full_kernel_pca_fits(params: dict, name: str, seed: int) -> None:
    X = three_rings(120, 0.25, seed)[0] / 2
    sweep = WidthSweep(n_widths=9, decades=(-1.5, 1.5), **params).fit(X)
    for index in range(0, sweep.widths_.size, 2):
        model = KernelPCA(eigen_solver="dense", **sweep.kernel_params(index)).fit(X)
        n = model.n_components_
        top = model.eigenvalues_[0]
        ours = sweep.eigenvalues_[index]
        np.testing.assert_allclose(ours[:n], model.eigenvalues_, rtol=1e-7, atol=1e-10 * top)
        assert np.all(ours[n:] <= 1e-10 * top)


@pytest.mark.parametrize("kernel", ["rbf", "laplacian"])
@pytest.mark.parametrize("seed", [0, 1])
def test_agrees_with_scikit_learn_eigenvalues(kernel: str, seed: int) -> None:
    """scikit-learn's eigenvalues_ are those of K̃ itself: ours are them / M (eq. 12).

    scikit-learn's KernelPCA has no Laplacian: it gets scikit-learn's
    ``laplacian_kernel`` as a precomputed matrix.
    """
    X = moons(100, 0.1, seed)[0]
    M = len(X)
    sweep = WidthSweep(kernel, n_widths=5, decades=(-1.0, 1.0)).fit(X)
    for index, width in enumerate(sweep.widths_):
        if kernel == "rbf":
            reference = SkKernelPCA(
                10, kernel="rbf", gamma=sigma_to_gamma(width), eigen_solver="dense"
            ).fit(X)
        else:
            K = laplacian_kernel(X, gamma=1.0 / width)
            reference = SkKernelPCA(10, kernel="precomputed", eigen_solver="dense").fit(K)
        expected = reference.eigenvalues_ / M
        np.testing.assert_allclose(
            sweep.eigenvalues_[index, :10], expected, rtol=1e-8, atol=1e-12 * expected[0]
        )


def test_eigenvectors_at_the_chosen_width_match_scikit_learn() -> None:
    X = rings(100)
    sweep = WidthSweep("rbf", n_widths=7).fit(X)
    model = sweep.fit_at(3, n_components=2)
    reference = SkKernelPCA(
        2, kernel="rbf", gamma=sigma_to_gamma(sweep.widths_[3]), eigen_solver="dense"
    ).fit(X)
    ours, theirs = model.fit_transform(X), reference.transform(X)
    signs = np.sign(np.sum(ours * theirs, axis=0))  # eigenvectors are defined up to sign
    np.testing.assert_allclose(ours * signs, theirs, atol=1e-8)


# ------------------------------------------------------------- uncentred
@pytest.mark.parametrize(("params", "name"), SWEEPS, ids=[name for _, name in SWEEPS])
@pytest.mark.parametrize("precision", ["double", "single"])
def test_uncentred_is_eigvalsh_of_k_itself(params: dict, name: str, precision: str) -> None:
    """center=False: the eigenvalues of K itself (no K − 1 trick), against a direct eigvalsh."""
    X = three_rings(120, 0.25, 1)[0] / 2
    sweep = WidthSweep(
        n_widths=9, decades=(-1.5, 1.5), center=False, precision=precision, **params
    ).fit(X)
    M = len(X)
    for index in range(sweep.widths_.size):
        kernel = sweep.kernel_params(index)
        K = kernel_matrix(X, **kernel)
        expected = linalg.eigvalsh(K)[::-1] / M
        # agreement to the rounding floor of the sweep's own precision (ε max|K|)
        tolerance = 10 * sweep.floor_[index] + 1e-12 * expected[0]
        assert np.all(np.abs(sweep.eigenvalues_[index] - expected) <= tolerance)


def test_uncentred_differs_from_centred_and_fit_at_is_uncentred() -> None:
    X = rings(100)
    sweep = WidthSweep("rbf", n_widths=5, center=False).fit(X)
    centred = WidthSweep("rbf", n_widths=5).fit(X)
    # wide kernels: uncentred, the constant direction takes nearly all (K → 1 1ᵀ)
    assert sweep.share(1)[-1] > 0.99 > 0.6 > centred.share(1)[-1]
    model = sweep.fit_at(2, n_components=3)
    assert model.center is False
    np.testing.assert_allclose(model.eigenvalues_, sweep.eigenvalues_[2, :3], rtol=1e-8)


# ---------------------------------------------- three rings: monotone, finite
@pytest.mark.parametrize("center", [True, False], ids=["centred", "uncentred"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_three_rings_share_rises_monotonically(seed: int, center: bool) -> None:
    """Centred or not, (λ₁+λ₂)/Σλ rises monotonically as the kernel widens: no
    maximum at Deręgowski & Krzyśko's c = 0.017 in either formulation."""
    X = three_rings(300, 0.25, seed)[0]
    sweep = WidthSweep("rbf", center=center).fit(X)
    share = sweep.share(2)
    assert np.all(np.isfinite(sweep.ratios_)) and np.all(np.isfinite(sweep.eigenvalues_))
    assert np.all(np.diff(share) >= -1e-12)
    assert share[0] < 0.1 and share[-1] > 0.99
    for fraction in (0.9, 0.95):
        counts = sweep.effective_components(fraction)
        assert np.all(np.isfinite(counts))
        assert np.all(np.diff(counts) <= 0)
    np.testing.assert_allclose(sweep.ratios_.sum(axis=1), 1.0, rtol=1e-12)
    assert np.all(sweep.eigenvalues_ >= 0)
    assert np.all(np.diff(sweep.eigenvalues_, axis=1) <= 0)


# ------------------------------------------------------------ rounding
def test_rank_deficient_kernel_is_clipped_not_noise() -> None:
    """(x·y + c)² on 2-D data has 6 monomials: 5 directions after centring."""
    X = parabola(100, 0.2, 0)[0]
    sweep = WidthSweep("poly", degree=2, n_widths=6).fit(X)
    np.testing.assert_array_equal(sweep.n_clipped_, len(X) - 5)
    np.testing.assert_array_equal(sweep.ratios_[:, 5:], 0.0)
    assert np.all(sweep.ratios_[:, :5] > 0)
    assert np.all(sweep.negative_ratio_ < 1e-10)


def test_effective_components_by_definition() -> None:
    sweep = WidthSweep("rbf", n_widths=8).fit(rings(100))
    for fraction in (0.5, 0.9, 0.95, 1.0):
        counts = sweep.effective_components(fraction)
        for row, count in zip(sweep.ratios_, counts, strict=True):
            expected = next(n for n in range(1, row.size + 1) if row[:n].sum() >= fraction - 1e-12)
            assert count == expected


@pytest.mark.parametrize("seed", [0, 1])
def test_single_precision_is_accurate(seed: int) -> None:
    X = three_rings(660, 0.25, seed)[0]
    single = WidthSweep("rbf", n_widths=8).fit(X)
    double = WidthSweep("rbf", n_widths=8, precision="double").fit(X)
    assert single.precision_ == "single" and double.precision_ == "double"
    np.testing.assert_allclose(single.ratios_[:, :20], double.ratios_[:, :20], atol=1e-5)
    np.testing.assert_allclose(single.share(2), double.share(2), atol=1e-5)
    np.testing.assert_array_equal(
        single.effective_components(0.9), double.effective_components(0.9)
    )


def test_threads_give_the_same_answer() -> None:
    X = rings(150)
    one = WidthSweep("rbf", n_widths=10, n_jobs=1).fit(X)
    two = WidthSweep("rbf", n_widths=10, n_jobs=2).fit(X)
    # the same arithmetic, up to the BLAS thread count inside each eigensolver
    np.testing.assert_allclose(one.eigenvalues_, two.eigenvalues_, rtol=0, atol=1e-15)


def test_progress_reaches_one() -> None:
    calls: list[tuple[float, str]] = []
    WidthSweep("rbf", n_widths=6).fit(rings(60), progress=lambda f, m: calls.append((f, m)))
    fractions = [fraction for fraction, _ in calls]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0
    assert fractions == sorted(fractions) and len(calls) == 7


# ---------------------------------------------------------- the outputs
def test_widths_are_log_spaced_around_the_data_scale() -> None:
    X = rings(80)
    sweep = WidthSweep("rbf", decades=(-2.0, 1.0), n_widths=31).fit(X)
    assert sweep.scale_ == pytest.approx(np.median(pdist(X)))
    np.testing.assert_allclose(sweep.widths_, sweep.scale_ * np.logspace(-2, 1, 31))
    degrees = WidthSweep("poly", sweep="degree", max_degree=5).fit(X)
    np.testing.assert_array_equal(degrees.widths_, [1, 2, 3, 4, 5])


def test_csv_of_the_sweep() -> None:
    sweep = WidthSweep("rbf", n_widths=5).fit(rings(40))
    frame = pd.read_csv(io.StringIO(sweep.to_frame().to_csv(index=False)))
    assert frame.shape == (5, 7 + 40)
    np.testing.assert_allclose(frame["rbf_sigma"], sweep.widths_)
    np.testing.assert_allclose(frame["share_first_two"], sweep.share(2))
    np.testing.assert_allclose(frame.filter(like="ratio_").to_numpy(), sweep.ratios_)


def test_component_grid_is_transform_on_the_grid() -> None:
    X = rings(60)
    model = KernelPCA(2, kernel="rbf", gamma=0.3).fit(X)
    xs, ys, values = component_grid(model, X, resolution=7)
    assert values.shape == (2, 7, 7)
    assert xs.min() < X[:, 0].min() and ys.max() > X[:, 1].max()
    np.testing.assert_allclose(values[:, 4, 2], model.transform([[xs[2], ys[4]]])[0])
    with pytest.raises(ValueError, match="2-D data"):
        component_grid(model, np.ones((5, 3)))


@pytest.mark.parametrize(
    ("params", "X", "message"),
    [
        ({"kernel": "sigmoid"}, rings(20), "kernel must be"),
        ({"kernel": "rbf", "sweep": "degree"}, rings(20), "only the polynomial"),
        ({"decades": (2.0, 1.0)}, rings(20), "low < high"),
        ({"kernel": "poly", "coef0": -1.0, "sweep": "degree"}, rings(20), "coef0"),
        ({}, np.zeros((20, 2)), "coincide"),
        ({}, rings(20)[:2], "at least 3"),
        ({"widths": [1.0, -1.0]}, rings(20), "positive"),
        ({"center": "no"}, rings(20), "center must be"),
    ],
)
def test_bad_input_gets_a_clear_message(params: dict, X: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        WidthSweep(**params).fit(X)


def test_distances_once_and_eigenvalues_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """What does not depend on the width is computed once; no eigenvectors per width."""
    import kpca_core.spectrum.base as spectrum_base

    calls = {"distances": 0, "eigvalsh": 0}

    def counting_distances(*args: object, **kwargs: object) -> np.ndarray:
        calls["distances"] += 1
        return squared_distances(*args, **kwargs)

    original_eigvalsh = np.linalg.eigvalsh

    def counting_eigvalsh(a: np.ndarray, *args: object, **kwargs: object) -> np.ndarray:
        calls["eigvalsh"] += len(a) if a.ndim == 3 else 1  # a stack of widths, or one
        return original_eigvalsh(a, *args, **kwargs)

    original_eigh = np.linalg.eigh

    def no_eigenvectors(a: np.ndarray, *args: object, **kwargs: object) -> object:
        # linear PCA, the reference line, may diagonalise its 2 × 2 covariance
        assert a.shape[0] < 60, "the sweep computed eigenvectors of a kernel matrix"
        return original_eigh(a, *args, **kwargs)

    monkeypatch.setattr(spectrum_base, "squared_distances", counting_distances)
    monkeypatch.setattr(np.linalg, "eigvalsh", counting_eigvalsh)
    monkeypatch.setattr(np.linalg, "eigh", no_eigenvectors)
    WidthSweep("rbf", n_widths=12).fit(rings(60))
    assert calls == {"distances": 1, "eigvalsh": 12}


@pytest.mark.parametrize(
    ("kernel", "sweep", "low_rank"),
    [
        ("rbf", "width", True),
        ("poly", "width", True),
        ("poly", "degree", True),
        # exp(−‖x−y‖₁/ℓ) ≈ 1 − ‖x−y‖₁/ℓ: the L1 distance keeps the rank high
        ("laplacian", "width", False),
    ],
)
def test_low_rank_widths_give_the_full_eigenvalues(
    monkeypatch: pytest.MonkeyPatch, kernel: str, sweep: str, low_rank: bool
) -> None:
    """Pivoted Cholesky on low-rank widths agrees with the full eigenvalue problem."""
    import kpca_core.spectrum.low_rank as shortcut

    X = rings(120)
    calls = []
    original = shortcut.low_rank_eigenvalues

    def counting(*args: object) -> np.ndarray | None:
        result = original(*args)
        calls.append(result is not None)
        return result

    monkeypatch.setattr(shortcut, "low_rank_eigenvalues", counting)
    fast = WidthSweep(kernel, sweep=sweep, n_widths=30, max_degree=6).fit(X)
    assert any(calls) == low_rank
    monkeypatch.setattr(shortcut, "LOW_RANK_FRACTION", 0.0)
    full = WidthSweep(kernel, sweep=sweep, n_widths=30, max_degree=6).fit(X)
    scale = full.eigenvalues_[:, :1]
    assert np.all(
        np.abs(fast.eigenvalues_ - full.eigenvalues_) <= 10 * full.floor_[:, None] + 1e-12 * scale
    )
    np.testing.assert_array_equal(fast.regime_, full.regime_)


# ------------------------------------------------ the leading eigenvalues alone
def _reference_shares(
    X: np.ndarray, widths: np.ndarray, kernel: str, n: int, center: bool
) -> np.ndarray:
    """(λ₁+…+λ_n)/Σλ from scikit-learn's kernel matrix and scipy's full eigenvalue problem."""
    shares = []
    for width in widths:
        if kernel == "rbf":
            K = rbf_kernel(X, gamma=sigma_to_gamma(width))
        else:
            K = laplacian_kernel(X, gamma=1.0 / width)
        if center:
            K = KernelCenterer().fit_transform(K)
        mu = linalg.eigh(K, eigvals_only=True)[::-1]
        shares.append(mu[:n].sum() / mu.sum())
    return np.array(shares)


@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize(("kernel", "n_components"), [("rbf", 2), ("rbf", 1), ("laplacian", 3)])
@pytest.mark.parametrize(("n_points", "seed"), [(60, 0), (240, 1)])
def test_leading_shares_agree_with_a_full_eigenvalue_problem(
    center: bool, kernel: str, n_components: int, n_points: int, seed: int
) -> None:
    """The share of the leading eigenvalues, from them alone (Lanczos from 200 points
    on, the pivoted Cholesky factor at wide widths), equals the full spectrum's."""
    X, _ = three_rings(n_points, 0.25, seed)
    sweep = WidthSweep(kernel, n_widths=12, decades=(-2.0, 1.0), center=center).fit(X)
    shares = leading_shares(
        X, sweep.widths_, kernel=kernel, n_components=n_components, center=center
    )
    reference = _reference_shares(X, sweep.widths_, kernel, n_components, center)
    np.testing.assert_allclose(shares, reference, rtol=0, atol=1e-9)
    np.testing.assert_allclose(shares, sweep.share(n_components), rtol=0, atol=1e-12)


@pytest.mark.parametrize("center", [False, True])
def test_leading_shares_follow_the_sweep_into_both_limits(center: bool) -> None:
    """From K = I to numerically constant: the same shares and the same NaN widths
    (eigenvalues at the rounding level) as the sweep of the whole spectrum."""
    X, _ = three_rings(210, 0.25, 3)
    sweep = WidthSweep("rbf", n_widths=30, decades=(-8.0, 10.0), center=center).fit(X)
    shares = leading_shares(X, sweep.widths_, center=center)
    np.testing.assert_array_equal(np.isnan(shares), np.isnan(sweep.share(2)))
    np.testing.assert_allclose(shares, sweep.share(2), rtol=0, atol=1e-12)


@pytest.mark.parametrize("kernel", ["rbf", "laplacian"])
def test_a_sweeps_leading_shares_need_no_fit_and_match_its_widths(kernel: str) -> None:
    """``WidthSweep.leading_shares`` (which a worker runs beside the fit): the widths the fit
    sweeps, bit for bit, without fitting, and the same shares as at the fitted widths."""
    X, _ = three_rings(120, 0.25, 2)
    unfitted = WidthSweep(kernel, n_widths=15, decades=(-2.5, 1.5), center=False)
    fitted = WidthSweep(kernel, n_widths=15, decades=(-2.5, 1.5), center=False).fit(X)
    np.testing.assert_array_equal(unfitted.widths_for(X), fitted.widths_)
    assert not hasattr(unfitted, "widths_")
    np.testing.assert_array_equal(
        unfitted.leading_shares(X), leading_shares(X, fitted.widths_, kernel=kernel)
    )


def test_leading_shares_refuse_what_has_no_width() -> None:
    X, _ = three_rings(30, 0.25, 0)
    with pytest.raises(ValueError, match="positive"):
        leading_shares(X, [1.0, -1.0])
    with pytest.raises(ValueError, match="kernel"):
        leading_shares(X, [1.0], kernel="poly")
