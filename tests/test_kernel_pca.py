"""The engine against independent answers: scikit-learn, linear PCA, closed forms."""

import numpy as np
import pytest
from sklearn.decomposition import PCA
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.exceptions import NotFittedError
from sklearn.metrics.pairwise import laplacian_kernel, pairwise_kernels

from kpca_core import KernelPCA
from kpca_core.datasets import parabola

KERNELS = [
    {"kernel": "linear"},
    {"kernel": "poly", "degree": 3, "gamma": 0.5, "coef0": 1.0},
    {"kernel": "poly", "degree": 2, "gamma": 1.0, "coef0": 0.0},
    {"kernel": "poly", "degree": 4, "gamma": 1.0, "coef0": 0.0},
    {"kernel": "rbf", "gamma": 0.2},
    {"kernel": "sigmoid", "gamma": 0.05, "coef0": 0.1},
]
SOLVERS = ["dense", "subset", "arpack"]


def match_signs(ours: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """``ours`` with each column's sign chosen to agree with ``reference``."""
    signs = np.sign(np.sum(ours * reference, axis=0))
    signs[signs == 0] = 1
    return ours * signs


def assert_close_up_to_sign(ours: np.ndarray, reference: np.ndarray, rtol: float = 1e-8) -> None:
    assert ours.shape == reference.shape
    scale = np.max(np.abs(reference))
    np.testing.assert_allclose(match_signs(ours, reference), reference, atol=rtol * scale)


@pytest.fixture
def data() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.RandomState(0)
    return rng.randn(60, 4), rng.randn(25, 4)


@pytest.mark.parametrize("params", KERNELS, ids=lambda p: f"{p['kernel']}-{p.get('coef0')}")
@pytest.mark.parametrize("solver", SOLVERS)
def test_transform_and_eigenvalues_match_sklearn(data, params, solver):
    X, Y = data
    ours = KernelPCA(5, eigen_solver=solver, random_state=0, **params).fit(X)
    ref = SkKernelPCA(5, eigen_solver="dense", **params).fit(X)
    k = ours.n_components_
    assert_close_up_to_sign(ours.transform(Y), ref.transform(Y)[:, :k])
    # scikit-learn reports eig(K̃); ours the variances eig(K̃)/M (eq. 12).
    np.testing.assert_allclose(ours.eigenvalues_ * len(X), ref.eigenvalues_[:k], rtol=1e-8)


@pytest.mark.parametrize("gamma", [0.1, 1.0])
def test_laplacian_matches_sklearn_with_precomputed_kernel(data, gamma):
    X, Y = data
    ours = KernelPCA(6, kernel="laplacian", gamma=gamma).fit(X)
    ref = SkKernelPCA(6, kernel="precomputed").fit(laplacian_kernel(X, gamma=gamma))
    expected = ref.transform(laplacian_kernel(Y, X, gamma=gamma))
    assert_close_up_to_sign(ours.transform(Y), expected)
    np.testing.assert_allclose(ours.eigenvalues_ * len(X), ref.eigenvalues_, rtol=1e-8)


def test_precomputed_kernel_equals_the_kernel_itself(data):
    X, Y = data
    direct = KernelPCA(4, kernel="laplacian", gamma=0.3).fit(X)
    pre = KernelPCA(4, kernel="precomputed").fit(laplacian_kernel(X, gamma=0.3))
    np.testing.assert_allclose(
        pre.transform(laplacian_kernel(Y, X, gamma=0.3)), direct.transform(Y), atol=1e-10
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_linear_kernel_is_linear_pca(seed):
    rng = np.random.RandomState(seed)
    X = rng.randn(50, 3) @ rng.randn(3, 3)
    Y = rng.randn(10, 3)
    ours = KernelPCA(kernel="linear").fit(X)
    pca = PCA().fit(X)
    assert ours.n_components_ == 3
    assert_close_up_to_sign(ours.transform(Y), pca.transform(Y))
    # Linear PCA divides by M − 1, the feature-space covariance (eq. 2) by M.
    np.testing.assert_allclose(ours.eigenvalues_, pca.explained_variance_ * 49 / 50, rtol=1e-10)
    np.testing.assert_allclose(
        ours.explained_variance_ratio_, pca.explained_variance_ratio_, rtol=1e-10
    )


@pytest.mark.parametrize("kernel", ["rbf", "poly"])
def test_uncentred_matches_direct_eigendecomposition(data, kernel):
    X, Y = data
    model = KernelPCA(kernel=kernel, gamma=0.3, center=False, eigen_solver="dense").fit(X)
    K = model._kernel(X)
    mu, u = np.linalg.eigh(K)
    mu, u = mu[::-1][: model.n_components_], u[:, ::-1][:, : model.n_components_]
    np.testing.assert_allclose(model.eigenvalues_, mu / len(X), rtol=1e-9, atol=1e-12)
    expected = model._kernel(Y, X) @ (u / np.sqrt(mu))  # eqs. 12, 16, 17, no centring
    assert_close_up_to_sign(model.transform(Y), expected)


@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "rbf", "gamma": 0.5},
        {"kernel": "poly", "degree": 2, "gamma": 1.0, "coef0": 1.0},
        {"kernel": "laplacian", "gamma": 0.5},
    ],
    ids=lambda p: p["kernel"],
)
@pytest.mark.parametrize("center", [True, False])
def test_reconstruction_error_of_training_points_vanishes(data, params, center):
    X, _ = data
    model = KernelPCA(center=center, **params).fit(X)
    error = model.reconstruction_error(X)
    assert np.max(np.abs(error)) < 1e-8
    assert np.all(model.reconstruction_error(X, n_components=1) > -1e-10)


def test_reconstruction_error_decreases_with_components(data):
    X, Y = data
    model = KernelPCA(kernel="rbf", gamma=0.1).fit(X)
    errors = [model.reconstruction_error(Y, n).mean() for n in (1, 5, 20, None)]
    assert errors == sorted(errors, reverse=True)


def test_reconstruction_error_matches_explicit_feature_map():
    # Homogeneous degree 2 in 2-D: Φ(x) = (x₁², x₂², √2 x₁x₂) (eq. 20).
    X, _ = parabola(40, random_state=3)
    Y = np.random.RandomState(4).randn(7, 2)

    def phi(P):
        return np.column_stack([P[:, 0] ** 2, P[:, 1] ** 2, np.sqrt(2) * P[:, 0] * P[:, 1]])

    model = KernelPCA(kernel="poly", degree=2, gamma=1.0, coef0=0.0).fit(X)
    pca = PCA(n_components=2).fit(phi(X))
    residual = phi(Y) - pca.inverse_transform(pca.transform(phi(Y)))
    np.testing.assert_allclose(
        model.reconstruction_error(Y, n_components=2), np.sum(residual**2, axis=1), rtol=1e-8
    )


@pytest.mark.parametrize("degree", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("coef0", [0.0, 1.0])
@pytest.mark.parametrize("center", [True, False])
def test_polynomial_test_points_through_explicit_features(degree, coef0, center):
    # 2-D points: (γ x·y + c)^d has at most 21 features, fewer than a quarter of the
    # 200 points, so test points are projected through Φ (eqs. 20-22), not their kernel
    X, _ = parabola(200, random_state=1)
    Y = np.random.RandomState(2).randn(600, 2) * 1.5  # more than a block of the kernel's
    params = {"kernel": "poly", "degree": degree, "gamma": 0.8, "coef0": coef0}
    ours = KernelPCA(3, center=center, **params).fit(X)
    assert ours._explicit_features() is not None
    kernel_values = KernelPCA(3, center=center, **params).fit(X)
    kernel_values._explicit_features = lambda: None  # the same model, projected by k(x_i, y)
    assert_close_up_to_sign(ours.transform(Y), kernel_values.transform(Y), rtol=1e-12)
    # the residuals of k(y, y) (eq. 54 and after), to within its rounding
    k_yy = (0.8 * np.sum(Y**2, axis=1) + coef0) ** degree
    np.testing.assert_allclose(
        ours.reconstruction_error(Y),
        kernel_values.reconstruction_error(Y),
        rtol=1e-9,
        atol=1e-12 * k_yy.max(),
    )
    if center:
        ref = SkKernelPCA(3, eigen_solver="dense", **params).fit(X)
        assert_close_up_to_sign(ours.transform(Y), ref.transform(Y)[:, : ours.n_components_])


@pytest.mark.parametrize("degree", [1, 2, 3, 4, 5])
@pytest.mark.parametrize("coef0", [0.0, 1.0])
@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("n_components,remove_zero_eig", [(3, False), (8, False), (8, True)])
def test_polynomial_fit_through_explicit_features(
    degree, coef0, center, n_components, remove_zero_eig
):
    # the SVD of the centred Φ(X) (≤ 21 features) against the eigenproblem of K̃ (eq. 12):
    # the same eigenvalues, axes and components; 8 components are more than degree 1's
    # rank, whose null ones are kept as zeros or dropped as by the kernel route
    X, _ = parabola(200, random_state=1)
    Y = np.random.RandomState(2).randn(50, 2) * 1.5
    params = {"kernel": "poly", "degree": degree, "gamma": 0.8, "coef0": coef0}
    params |= {"remove_zero_eig": remove_zero_eig}
    ours = KernelPCA(n_components, center=center, **params).fit(X)
    assert ours.eigen_solver_ == "features"
    dense = KernelPCA(n_components, eigen_solver="dense", center=center, **params).fit(X)
    assert ours.n_components_ == dense.n_components_
    scale = dense.eigenvalues_.max()
    np.testing.assert_allclose(ours.eigenvalues_, dense.eigenvalues_, rtol=1e-9, atol=1e-12 * scale)
    np.testing.assert_allclose(
        ours.explained_variance_ratio_, dense.explained_variance_ratio_, rtol=1e-9, atol=1e-12
    )
    assert_close_up_to_sign(ours.transform(Y), dense.transform(Y), rtol=1e-8)
    assert_close_up_to_sign(ours.fit_transform(X), dense.fit_transform(X), rtol=1e-8)
    if center and not remove_zero_eig:
        ref = SkKernelPCA(n_components, eigen_solver="dense", **params).fit(X)
        kept = ours.n_components_
        assert_close_up_to_sign(ours.transform(Y), ref.transform(Y)[:, :kept], rtol=1e-8)


@pytest.mark.parametrize(
    "n_points,n_features,params",
    [
        (40, 2, {"degree": 4, "coef0": 1.0}),  # 15 features for 40 points: kernel values
        (300, 2, {"degree": 2, "coef0": -1.0}),  # c < 0: no real map
        (300, 256, {"degree": 2, "coef0": 0.0}),  # USPS-sized inputs: 32 896 features
    ],
)
def test_explicit_features_only_where_they_are_real_and_fewer(n_points, n_features, params):
    X = np.random.RandomState(0).randn(n_points, n_features)
    model = KernelPCA(2, kernel="poly", **{"gamma": 1.0, **params}).fit(X)
    assert model._explicit_features() is None


@pytest.mark.parametrize("rank", [1, 2, 5])
def test_rank_r_kernel_matrix_gives_r_components(rank):
    rng = np.random.RandomState(rank)
    X = rng.randn(40, rank) @ rng.randn(rank, 8)  # rank of the centred Gram matrix: rank
    model = KernelPCA(kernel="linear").fit(X)
    assert model.n_components_ == rank
    assert np.all(model.eigenvalues_ > 0)
    assert np.all(np.isfinite(model.alphas_))


@pytest.mark.parametrize("degree,expected", [(1, 2), (2, 3), (3, 4), (4, 5)])
def test_homogeneous_polynomial_rank_on_2d_data(degree, expected):
    # (x·y)^d on R² lives in the d + 1 monomials of degree d (eq. 19); the
    # parabola's centred Gram matrix has that rank (Fig. 2: linear has only two).
    X, _ = parabola(300, random_state=0)
    model = KernelPCA(kernel="poly", degree=degree, gamma=1.0, coef0=0.0).fit(X)
    assert model.n_components_ == expected


@pytest.mark.parametrize("solver", SOLVERS)
def test_indefinite_sigmoid_is_finite_and_reported(solver):
    X, _ = parabola(100, random_state=1)
    model = KernelPCA(
        kernel="sigmoid",
        gamma=2.0,
        coef0=-1.0,
        eigen_solver=solver,
        random_state=0,
        n_components=None if solver == "dense" else 10,
    ).fit(X)
    assert model.negative_eigenvalue_ratio_ > 1e-3
    assert np.all(np.isfinite(model.alphas_))
    assert np.all(np.isfinite(model.transform(X)))
    if solver == "dense":
        assert np.any(model.eigenvalues_ < 0)
        # Appendix B.2: normalised by 1/√|λ|, so |K̃-norm| of each α is 1.
        mu = model.eigenvalues_ * len(X)
        np.testing.assert_allclose(np.sum(model.alphas_**2, axis=0) * np.abs(mu), 1.0)


def test_positive_kernel_reports_no_negative_eigenvalues(data):
    X, _ = data
    assert KernelPCA(kernel="rbf", gamma=0.5).fit(X).negative_eigenvalue_ratio_ == 0.0


def test_eigenvalues_descending_and_normalisation(data):
    X, _ = data
    model = KernelPCA(kernel="rbf", gamma=0.3).fit(X)
    assert np.all(np.diff(model.eigenvalues_) <= 0)
    # eq. 50: (Mλ)(α·α) = 1
    np.testing.assert_allclose(
        np.sum(model.alphas_**2, axis=0) * model.eigenvalues_ * len(X), 1.0, rtol=1e-10
    )
    np.testing.assert_allclose(model.explained_variance_ratio_.sum(), 1.0)


@pytest.mark.parametrize("solver", SOLVERS)
def test_signs_are_deterministic(data, solver):
    X, Y = data
    first = KernelPCA(4, kernel="rbf", gamma=0.4, eigen_solver=solver, random_state=0).fit(X)
    again = KernelPCA(4, kernel="rbf", gamma=0.4, eigen_solver=solver, random_state=0).fit(X)
    np.testing.assert_array_equal(first.transform(Y), again.transform(Y))
    # the largest entry of each eigenvector is positive, whatever the solver
    u = first.alphas_
    assert np.all(u[np.argmax(np.abs(u), axis=0), np.arange(u.shape[1])] > 0)


@pytest.mark.parametrize("first", [1.0, -1.0])
def test_sign_ties_go_to_the_first_extreme_entry(first):
    # the column of μ = 1 has |max| = |min|: the earlier of the two becomes positive
    u = np.array([[-first, 1.0], [first, 1.0]]) / np.sqrt(2)
    model = KernelPCA(kernel="precomputed")
    model._normalise(np.array([1.0, 3.0]), u.copy(), 2, 1.0, 4.0, 1.0)
    np.testing.assert_allclose(model.alphas_[:, 1], np.array([1.0, -1.0]) / np.sqrt(2))
    np.testing.assert_allclose(model.alphas_[:, 0], np.array([1.0, 1.0]) / np.sqrt(6))


def test_fit_transform_equals_transform_of_training_points(data):
    X, _ = data
    model = KernelPCA(6, kernel="rbf", gamma=0.2)
    np.testing.assert_allclose(model.fit_transform(X), model.transform(X), atol=1e-10)


def test_solvers_agree(data):
    X, Y = data
    results = [
        KernelPCA(5, kernel="rbf", gamma=0.3, eigen_solver=s, random_state=0).fit(X).transform(Y)
        for s in SOLVERS
    ]
    for other in results[1:]:
        np.testing.assert_allclose(other, results[0], atol=1e-8)


@pytest.mark.parametrize(
    "M,k,n_features,kernel,expected",
    [
        (300, 3, 2, "poly", "features"),  # 3 explicit features: the SVD of Φ̃
        (300, 3, 256, "rbf", "arpack"),  # a near tie: 2.1 ms against subset's 2.2
        (1000, 3, 256, "rbf", "arpack"),
        (1000, 64, 256, "rbf", "subset"),
        (3000, 3, 256, "rbf", "arpack"),
        (300, None, 2, "rbf", "dense"),
        (300, 200, 2, "rbf", "dense"),
    ],
)
def test_auto_solver_choice(M, k, n_features, kernel, expected):
    X = np.random.RandomState(0).rand(M, n_features)
    model = KernelPCA(k, kernel=kernel, degree=2, coef0=0.0, gamma=1.0 / n_features).fit(X)
    assert model.eigen_solver_ == expected


def test_progress_callback_reports_each_step(data):
    X, _ = data
    calls = []
    KernelPCA(3).fit(X, progress=lambda fraction, message: calls.append((fraction, message)))
    fractions = [fraction for fraction, _ in calls]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert any("eq. 49" in message for _, message in calls)


@pytest.mark.parametrize(
    "X,match",
    [
        (np.array([[0.0, np.nan], [1.0, 2.0]]), "NaN"),
        (np.array([[0.0, np.inf], [1.0, 2.0]]), "infinite"),
        (np.array([1.0, 2.0]), "Expected 2D array"),  # scikit-learn's words, as below
        (np.empty((0, 2)), "0 sample"),
        (np.ones((1, 2)), "1 sample"),  # centring a single point leaves nothing
    ],
)
def test_bad_input_is_refused_clearly(X, match):
    with pytest.raises(ValueError, match=match):
        KernelPCA().fit(X)


@pytest.mark.parametrize(
    "params,match",
    [
        ({"kernel": "chi3"}, "kernel"),
        ({"n_components": 0}, "n_components"),
        ({"gamma": -1.0}, "gamma"),
        ({"eigen_solver": "lobpcg"}, "eigen_solver"),
    ],
)
def test_bad_parameters_name_the_parameter(data, params, match):
    with pytest.raises(ValueError, match=match):
        KernelPCA(**params).fit(data[0])


@pytest.mark.parametrize("kernel", ["rbf", "linear", "sigmoid"])
def test_identical_points_give_zero_columns_like_sklearn(kernel):
    # K̃ = 0: no component (n_components=None), or columns of zeros (given).
    X = np.ones((5, 2))
    assert KernelPCA(kernel=kernel).fit_transform(X).shape == (5, 0)
    model = KernelPCA(2, kernel=kernel).fit(X)
    np.testing.assert_array_equal(model.transform(X + 1.0), np.zeros((5, 2)))
    np.testing.assert_array_equal(model.eigenvalues_, [0.0, 0.0])
    theirs = SkKernelPCA(2, kernel=kernel).fit(X)
    np.testing.assert_array_equal(theirs.transform(X + 1.0), np.zeros((5, 2)))


def test_overflowing_kernel_is_explained():
    X = np.full((4, 2), 1e3) * np.arange(1, 5)[:, None]
    with pytest.raises(ValueError, match="too large"):
        KernelPCA(kernel="poly", degree=200, gamma=1.0).fit(X)


def test_transform_checks_feature_count(data):
    X, _ = data
    model = KernelPCA(2).fit(X)
    with pytest.raises(ValueError, match="features"):
        model.transform(np.ones((3, 2)))


def test_unfitted_model_says_so():
    with pytest.raises(NotFittedError, match="not fitted"):
        KernelPCA().transform(np.ones((2, 2)))


@pytest.mark.parametrize("solver", ["auto", "subset", "arpack"])
def test_flat_spectrum_of_a_very_narrow_kernel(solver):
    # σ → 0: K̃ = I − 1_M, one cluster of M − 1 equal eigenvalues, where LAPACK's
    # index-range driver returns nothing and ARPACK stalls.
    X, _ = parabola(300, random_state=0)
    model = KernelPCA(3, kernel="rbf", gamma=1e8, eigen_solver=solver, random_state=0).fit(X)
    np.testing.assert_allclose(model.eigenvalues_, 1 / 300)
    assert np.all(np.isfinite(model.transform(X)))


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("n_components", [2, 10, None])
def test_explained_variance_ratio_is_share_of_the_whole(data, solver, n_components):
    X, _ = data
    model = KernelPCA(n_components, kernel="rbf", gamma=0.3, eigen_solver=solver, random_state=0)
    model.fit(X)
    full = KernelPCA(kernel="rbf", gamma=0.3, eigen_solver="dense").fit(X)
    k = model.n_components_
    np.testing.assert_allclose(
        model.explained_variance_ratio_, full.explained_variance_ratio_[:k], rtol=1e-8
    )


def test_overflow_in_centring_is_explained():
    X = np.array([[1e51], [2e51], [2.3e51]])  # K is finite, its centring overflows
    with pytest.raises(ValueError, match="too large"), np.errstate(all="ignore"):
        # the kernel route: through its one feature x³ the fit never forms K and succeeds
        KernelPCA(kernel="poly", degree=3, gamma=1.0, coef0=0.0, eigen_solver="dense").fit(X)


def centred_spectrum(K: np.ndarray, center: bool) -> np.ndarray:
    """numpy's eigenvalues of K, centred in feature space (eq. 49) by projection if asked."""
    if center:
        P = np.eye(len(K)) - 1.0 / len(K)
        K = P @ K @ P
    return np.linalg.eigvalsh((K + K.T) / 2)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "sigmoid", "gamma": 2.0, "coef0": -1.0},
        {"kernel": "sigmoid", "gamma": 0.5, "coef0": 0.0},
        {"kernel": "poly", "degree": 3, "gamma": 1.0, "coef0": -0.5},
        {"kernel": "rbf", "gamma": 0.5},
    ],
    ids=lambda p: f"{p['kernel']}-{p.get('coef0')}",
)
@pytest.mark.parametrize("solver", ["auto", "dense", "subset", "arpack", "randomized"])
@pytest.mark.parametrize("center", [True, False])
def test_negative_eigenvalue_ratio_matches_numpy(seed, params, solver, center):
    X = np.random.RandomState(seed).randn(120, 5)
    model = KernelPCA(4, eigen_solver=solver, center=center, random_state=seed, **params).fit(X)
    K = pairwise_kernels(X, metric=params["kernel"], filter_params=True, **params)
    spectrum = centred_spectrum(K, center)
    lowest, largest = spectrum[0], spectrum[-1]
    expected = max(0.0, -lowest) / max(largest, -lowest)
    if expected <= len(X) * np.finfo(float).eps:
        assert model.negative_eigenvalue_ratio_ == 0.0
    else:
        assert model.negative_eigenvalue_ratio_ == pytest.approx(expected, rel=1e-3)


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("solver", ["dense", "subset", "arpack"])
def test_a_precomputed_indefinite_kernel_reports_its_negative_eigenvalue(seed, solver):
    rng = np.random.RandomState(seed)
    B, C = rng.randn(80, 6), rng.randn(80, 3)
    K = B @ B.T - 0.2 * C @ C.T  # its top eigenvalues positive, a few negative ones
    model = KernelPCA(3, kernel="precomputed", eigen_solver=solver, random_state=seed).fit(K)
    spectrum = centred_spectrum(K, True)
    expected = -spectrum[0] / max(spectrum[-1], -spectrum[0])
    assert expected > 1e-3
    assert model.negative_eigenvalue_ratio_ == pytest.approx(expected, rel=1e-3)


@pytest.mark.parametrize("solver", ["auto", "subset", "arpack"])
def test_the_smallest_eigenvalue_is_found_when_read_not_by_fit(monkeypatch, solver):
    """fit and transform of an indefinite kernel ask for the top k only (as scikit-learn
    does); the smallest eigenvalue is found on the first read of the ratio, once."""
    from kpca_core import eigenproblem

    asked = []
    real = eigenproblem.eigsh
    monkeypatch.setattr(
        eigenproblem, "eigsh", lambda *a, **kw: asked.append(kw["which"]) or real(*a, **kw)
    )
    X = np.random.RandomState(0).randn(300, 64)
    model = KernelPCA(2, kernel="sigmoid", eigen_solver=solver, random_state=0)
    model.fit_transform(X)
    model.transform(X)
    assert "SA" not in asked
    first = model.negative_eigenvalue_ratio_
    assert asked.count("SA") == 1
    assert model.negative_eigenvalue_ratio_ == first and asked.count("SA") == 1


def test_cosine_normalises_each_point_once(monkeypatch):
    """The fitted points are normalised once per call, not again for every block of test points
    (and once in fit, not as both sides of K): the rows ‖x‖ is computed of."""
    from kpca_core import kernels

    rows = []
    real = kernels.row_norms
    monkeypatch.setattr(
        kernels, "row_norms", lambda X, **kw: rows.append(X.shape[0]) or real(X, **kw)
    )
    rng = np.random.RandomState(0)
    X, Y = rng.randn(300, 20), rng.randn(1000, 20)
    model = KernelPCA(3, kernel="cosine").fit(X)
    assert sum(rows) == 300
    rows.clear()
    beta = model.transform(Y)
    assert sum(rows) == 300 + 1000
    expected = SkKernelPCA(3, kernel="cosine").fit(X).transform(Y)
    assert_close_up_to_sign(beta, expected)


@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "linear"},
        {"kernel": "cosine"},
        {"kernel": "poly", "degree": 1, "coef0": 0.0},
        {"kernel": "poly", "degree": 1, "coef0": 1.0},
    ],
    ids=lambda p: f"{p['kernel']}-{p.get('coef0')}",
)
@pytest.mark.parametrize("center", [True, False])
def test_wide_test_points_of_a_degree_one_kernel_go_through_its_features(params, center):
    """x·y, x·y / (‖x‖‖y‖) and γ x·y + c are dot products of features as cheap as the
    inputs (the inputs, the unit rows, (√γ x, √c)): a test point costs its N inputs
    times the k axes, not M kernel values of N inputs, however many inputs it has."""
    rng = np.random.RandomState(0)
    X, Y = rng.randn(300, 100), rng.randn(700, 100)
    X[7] = 0.0  # a zero row: cosine's k is 0 there, as scikit-learn's
    ours = KernelPCA(3, center=center, **params).fit(X)
    assert ours._explicit_features() is not None
    kernel_values = KernelPCA(3, center=center, **params).fit(X)
    kernel_values._explicit_features = lambda: None  # the same model, projected by k(x_i, y)
    assert_close_up_to_sign(ours.transform(Y), kernel_values.transform(Y), rtol=1e-12)
    if center:
        ref = SkKernelPCA(3, eigen_solver="dense", **params).fit(X)
        assert_close_up_to_sign(ours.transform(Y), ref.transform(Y))
