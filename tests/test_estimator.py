"""KernelPCA as a scikit-learn estimator: the common checks, the ecosystem, inverse_transform."""

import re

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import approx_fprime
from sklearn.base import clone
from sklearn.datasets import make_circles
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.exceptions import NotFittedError
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from kpca_core import KernelPCA
from kpca_core.preimage import expansion_weights

KERNELS = ["linear", "poly", "rbf", "laplacian", "sigmoid", "cosine", "precomputed"]
SOLVERS = ["auto", "dense", "subset", "arpack", "randomized"]


def estimator(kernel: str, center: bool, solver: str) -> KernelPCA:
    """KernelPCA with each kernel's defaults; 3 components for the partial solvers."""
    n_components = None if solver in ("auto", "dense") else 3
    return KernelPCA(
        n_components, kernel=kernel, center=center, eigen_solver=solver, random_state=0
    )


def expected_failures(model: KernelPCA) -> dict[str, str]:
    """Two checks hand a precomputed KernelPCA a matrix that is not a Gram matrix."""
    if model.kernel != "precomputed":
        return {}
    indefinite = (
        "is indefinite, and a precomputed kernel with significant negative eigenvalues among "
        "those asked for is refused, as by scikit-learn's KernelPCA"
    )
    return {
        "check_estimators_dtypes": f"the check's Gram matrix cast to int {indefinite} "
        "(scikit-learn's own KernelPCA fails this check too)",
        "check_positive_only_tag_during_fit": f"the check's Gram matrix minus its mean {indefinite}"
        " (with center=False; centring removes the constant)",
    }


# Every kernel, both centrings, every solver: the defaults, then one instance per
# kernel with the solvers and centrings taken in turn, then Nyström and the alias.
REPRESENTATIVE = [
    KernelPCA(),
    *(estimator(kernel, i % 2 == 0, SOLVERS[i % len(SOLVERS)]) for i, kernel in enumerate(KERNELS)),
    KernelPCA(3, kernel="rbf", n_landmarks=8, random_state=0),
    KernelPCA(kernel="poly", fit_inverse_transform=True),
]


@parametrize_with_checks(REPRESENTATIVE, expected_failed_checks=expected_failures)
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)


@pytest.mark.slow
@parametrize_with_checks(
    [
        estimator(kernel, center, solver)
        for kernel in KERNELS
        for center in (True, False)
        for solver in SOLVERS
    ],
    expected_failed_checks=expected_failures,
)
def test_sklearn_estimator_checks_every_kernel_centring_and_solver(estimator, check):
    check(estimator)


@pytest.fixture
def circles() -> tuple[np.ndarray, np.ndarray]:
    return make_circles(120, factor=0.3, noise=0.05, random_state=0)


def test_positional_n_components_and_clone():
    model = KernelPCA(3, kernel="poly", gamma=0.5)
    copy = clone(model)
    assert copy is not model and copy.get_params() == model.get_params()
    assert model.get_params()["n_components"] == 3
    assert copy.set_params(gamma=2.0).gamma == 2.0 and model.gamma == 0.5


def test_grid_search_over_gamma_in_a_pipeline(circles):
    # The rings are not linearly separable; with a Gaussian of the right width
    # the first components are (Schölkopf et al. Fig. 2's point).
    X, y = circles
    pipe = make_pipeline(KernelPCA(4, kernel="rbf"), LinearSVC())
    search = GridSearchCV(pipe, {"kernelpca__gamma": [0.01, 2.0, 10.0]}, cv=3).fit(X, y)
    assert search.best_params_["kernelpca__gamma"] != 0.01
    assert search.best_score_ > 0.95
    assert (
        cross_val_score(make_pipeline(KernelPCA(4, kernel="linear"), LinearSVC()), X, y).max() < 0.8
    )


def test_pandas_output_names_features_like_sklearn(circles):
    X, _ = circles
    frame = pd.DataFrame(X, columns=["x", "y"])
    model = KernelPCA(3, kernel="rbf", gamma=2.0).set_output(transform="pandas").fit(frame)
    out = model.transform(frame)
    assert list(out.columns) == ["kernelpca0", "kernelpca1", "kernelpca2"]
    assert list(model.get_feature_names_out()) == list(out.columns)
    assert model.n_features_in_ == 2 and list(model.feature_names_in_) == ["x", "y"]
    np.testing.assert_allclose(
        out.to_numpy(), KernelPCA(3, kernel="rbf", gamma=2.0).fit(X).transform(X)
    )
    with pytest.warns(UserWarning, match="feature names"):
        model.transform(X)  # scikit-learn's warning: fitted with names, given none


def test_dropped_components_shorten_the_feature_names():
    X = np.random.RandomState(0).randn(30, 2)
    model = KernelPCA(5, kernel="linear", remove_zero_eig=True).fit(X)  # rank 2
    assert list(model.get_feature_names_out()) == ["kernelpca0", "kernelpca1"]


def test_gamma_refuses_infinity_and_zero():
    X = np.random.RandomState(0).randn(10, 2)
    for gamma in (0.0, np.inf, np.nan):
        with pytest.raises(ValueError, match="gamma"):
            KernelPCA(gamma=gamma).fit(X)


# ------------------------------------------------------------ inverse_transform
@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "rbf", "gamma": 0.3},
        {"kernel": "poly", "degree": 2, "gamma": 0.5, "coef0": 1.0},
        {"kernel": "linear"},
        {"kernel": "sigmoid", "gamma": 0.05, "coef0": 0.1},
    ],
    ids=lambda p: p["kernel"],
)
@pytest.mark.parametrize("alpha", [0.1, 1.0])
def test_ridge_inverse_is_sklearns_learned_preimage(params, alpha):
    rng = np.random.RandomState(1)
    X, Y = rng.randn(60, 4), rng.randn(15, 4)
    ours = KernelPCA(5, inverse="ridge", alpha=alpha, **params).fit(X)
    theirs = SkKernelPCA(5, fit_inverse_transform=True, alpha=alpha, **params).fit(X)
    np.testing.assert_allclose(
        ours.inverse_transform(ours.transform(Y)),
        theirs.inverse_transform(theirs.transform(Y)),
        rtol=1e-6,
        atol=1e-8,
    )


def test_inverse_defaults_by_kernel():
    assert KernelPCA(kernel="rbf")._inverse_method() == "fixed-point"
    assert KernelPCA(kernel="poly")._inverse_method() == "ridge"
    X = np.random.RandomState(0).randn(20, 3)
    with pytest.raises(ValueError, match="Gaussian"):
        KernelPCA(kernel="poly", inverse="fixed-point").fit(X).inverse_transform(np.zeros((1, 2)))
    precomputed = KernelPCA(kernel="precomputed").fit(X @ X.T)
    assert not hasattr(precomputed, "inverse_transform")  # as meta-estimators expect
    with pytest.raises(AttributeError, match="inverse_transform") as error:
        precomputed.inverse_transform(np.zeros((1, 2)))
    assert "precomputed kernel has none" in str(error.value.__cause__)


@pytest.mark.parametrize("center", [True, False])
def test_fixed_point_inverse_of_training_points_with_all_components(center):
    # P Φ(x_j) = Φ(x_j) for every component kept: the pre-image is x_j.
    X = np.random.RandomState(2).randn(40, 3)
    model = KernelPCA(kernel="rbf", gamma=0.5, center=center).fit(X)
    np.testing.assert_allclose(model.inverse_transform(model.transform(X[:8])), X[:8], atol=1e-6)


@pytest.mark.parametrize("center", [True, False])
@pytest.mark.parametrize("n", [2, 5])
def test_fixed_point_inverse_is_a_stationary_point_of_eq_8(center, n):
    # Mika et al. eq. (8): z maximises ρ(z) = Σ_i γ_i k(z, x_i), whose gradient
    # 2γ Σ_i γ_i k(z, x_i)(x_i − z) = 2γ ρ(z)(z_next − z) vanishes at the fixed
    # point of eq. (10) (eq. 9): checked by finite differences, against the
    # iteration's stopping rule ‖z_next − z‖² ≤ tol · N (tol = 1e-6, N = 3).
    rng = np.random.RandomState(3)
    X, Y = rng.randn(80, 3), rng.randn(6, 3)
    gamma = 0.4
    model = KernelPCA(8, kernel="rbf", gamma=gamma, center=center).fit(X)
    beta = model.transform(Y)[:, :n]
    Z = model.inverse_transform(beta)
    weights = expansion_weights(beta, model.alphas_[:, :n], center=center)
    for z, w in zip(Z, weights, strict=True):

        def rho(p, w=w):
            return w @ np.exp(-gamma * np.sum((X - p) ** 2, axis=1))

        grad = approx_fprime(z, rho, 1e-7)
        assert rho(z) > 0
        assert np.linalg.norm(grad) <= 2 * gamma * rho(z) * np.sqrt(1e-6 * 3) + 1e-6


def test_inverse_of_fewer_components_and_of_too_many():
    X = np.random.RandomState(4).randn(30, 3)
    model = KernelPCA(6, kernel="poly", gamma=0.5).fit(X)
    assert model.inverse_transform(model.transform(X)[:, :2]).shape == (30, 3)
    with pytest.raises(ValueError, match="components"):
        model.inverse_transform(np.zeros((2, 7)))
    with pytest.raises(ValueError, match="NaN"):
        model.inverse_transform(np.full((2, 2), np.nan))


def test_inverse_transform_in_a_pipeline_rebuilds_the_input():
    X = np.random.RandomState(5).randn(50, 3)
    pipe = make_pipeline(StandardScaler(), KernelPCA(kernel="rbf", gamma=0.2)).fit(X)
    np.testing.assert_allclose(pipe.inverse_transform(pipe.transform(X[:5])), X[:5], atol=1e-5)


# ------------------------------------------- a drop-in for scikit-learn's KernelPCA
def test_every_sklearn_parameter_with_sklearns_default():
    ours, theirs = KernelPCA().get_params(), SkKernelPCA().get_params()
    assert {name: ours[name] for name in theirs} == theirs
    assert ours["kernel"] == "linear"


def test_default_kernel_gives_sklearns_numbers():
    rng = np.random.RandomState(0)
    X, Y = rng.randn(40, 5), rng.randn(7, 5)
    np.testing.assert_allclose(
        np.abs(KernelPCA(3).fit(X).transform(Y)),
        np.abs(SkKernelPCA(3).fit(X).transform(Y)),
        atol=1e-10,
    )


def test_training_points_are_copied():
    # The example: the model must not change when the caller's array does.
    rng = np.random.RandomState(0)
    X, Y = rng.rand(10, 3), rng.rand(2, 3)
    frame = pd.DataFrame(X.copy())
    for data in (X, frame):
        model = KernelPCA(n_components=2, kernel="rbf").fit(data)
        before = (
            model.transform(Y),
            model.inverse_transform(model.transform(Y)),
            model.preimage(Y),
            model.reconstruction_error(Y),
        )
        if isinstance(data, pd.DataFrame):
            data.iloc[:, 0] = 666.0
        else:
            data[:, 0] = 666.0
        after = (
            model.transform(Y),
            model.inverse_transform(model.transform(Y)),
            model.preimage(Y),
            model.reconstruction_error(Y),
        )
        assert model.X_fit_ is not data
        for old, new in zip(before, after, strict=True):
            np.testing.assert_array_equal(old, new)
    X = rng.rand(10, 3)
    assert KernelPCA(kernel="rbf", copy_X=False).fit(X).X_fit_ is X  # scikit-learn's copy_X


def test_zero_eigenvalues_are_kept_as_zero_columns_or_removed():
    X = np.random.RandomState(0).randn(30, 2)  # linear kernel of rank 2
    ours, theirs = KernelPCA(4).fit(X), SkKernelPCA(4).fit(X)
    assert ours.transform(X).shape == theirs.transform(X).shape == (30, 4)
    np.testing.assert_allclose(np.abs(ours.transform(X)), np.abs(theirs.transform(X)), atol=1e-10)
    np.testing.assert_array_equal(ours.eigenvalues_[2:], [0.0, 0.0])
    assert KernelPCA(4, remove_zero_eig=True).fit(X).n_components_ == 2
    assert KernelPCA().fit(X).n_components_ == 2


@pytest.mark.parametrize("kernel", ["rbf", "poly", "linear"])
def test_fit_inverse_transform_is_the_ridge_map(kernel):
    rng = np.random.RandomState(1)
    X, Y = rng.randn(40, 3), rng.randn(5, 3)
    alias = KernelPCA(4, kernel=kernel, fit_inverse_transform=True).fit(X)
    ridge = KernelPCA(4, kernel=kernel, inverse="ridge").fit(X)
    theirs = SkKernelPCA(4, kernel=kernel, fit_inverse_transform=True).fit(X)
    np.testing.assert_allclose(
        alias.inverse_transform(alias.transform(Y)), ridge.inverse_transform(ridge.transform(Y))
    )
    np.testing.assert_allclose(
        alias.inverse_transform(alias.transform(Y)),
        theirs.inverse_transform(theirs.transform(Y)),
        atol=1e-8,
    )
    with pytest.raises(ValueError, match="contradicts"):
        KernelPCA(kernel=kernel, fit_inverse_transform=True, inverse="fixed-point").fit(X)


@pytest.mark.parametrize(
    "params",
    [
        {"kernel": "linear"},
        {"kernel": "poly", "degree": 2, "gamma": 0.5},
        {"kernel": "rbf", "gamma": 0.5},
        {"kernel": "laplacian", "gamma": 0.5},
        {"kernel": "sigmoid", "gamma": 0.1, "coef0": 0.1},
        {"kernel": "cosine"},
    ],
    ids=lambda p: p["kernel"],
)
def test_sparse_input_gives_the_dense_answer(params):
    from scipy import sparse

    rng = np.random.RandomState(2)
    X, Y = rng.rand(30, 6), rng.rand(5, 6)
    X[X < 0.5], Y[Y < 0.5] = 0.0, 0.0
    dense = KernelPCA(4, **params).fit(X)
    model = KernelPCA(4, **params).fit(sparse.csr_matrix(X))
    assert sparse.issparse(model.X_fit_)
    Z = model.transform(sparse.csr_matrix(Y))
    np.testing.assert_allclose(Z, dense.transform(Y), atol=1e-10)
    np.testing.assert_allclose(model.reconstruction_error(Y), dense.reconstruction_error(Y))
    if params["kernel"] != "laplacian":  # not one of scikit-learn's KernelPCA kernels
        theirs = SkKernelPCA(4, **params).fit(sparse.csr_matrix(X))
        np.testing.assert_allclose(np.abs(Z), np.abs(theirs.transform(Y)), atol=1e-10)
    with pytest.raises(NotFittedError, match="sparse"):
        model.inverse_transform(model.transform(Y))


def test_callable_kernel_like_sklearn():
    def histogram(x, y, scale=1.0):
        return scale * np.minimum(x, y).sum()

    rng = np.random.RandomState(3)
    X, Y = rng.rand(12, 4), rng.rand(3, 4)
    params = {"kernel": histogram, "kernel_params": {"scale": 2.0}}
    ours = KernelPCA(3, **params).fit(X)
    theirs = SkKernelPCA(3, **params).fit(X)
    np.testing.assert_allclose(np.abs(ours.transform(Y)), np.abs(theirs.transform(Y)), atol=1e-10)
    np.testing.assert_allclose(ours.eigenvalues_ * 12, theirs.eigenvalues_, rtol=1e-10)


def test_precomputed_kernel_refuses_what_it_cannot_do():
    rng = np.random.RandomState(4)
    X = rng.randn(8, 3)
    K = X @ X.T
    for params in ({"fit_inverse_transform": True}, {"inverse": "ridge"}):
        with pytest.raises(ValueError, match="Cannot fit_inverse_transform with a precomputed"):
            KernelPCA(kernel="precomputed", **params).fit(K)
    K[0, 1] += 1.0
    with pytest.raises(ValueError, match="must be symmetric"):
        KernelPCA(kernel="precomputed").fit(K)


def test_precomputed_negative_eigenvalues_as_sklearn():
    # eigenvalues 3, 1, -2 after no centring: asking for the negative one is an
    # error, as in scikit-learn; the sigmoid kernel keeps them (Appendix B.2).
    Q = np.linalg.qr(np.random.RandomState(5).randn(3, 3))[0]
    K = Q @ np.diag([3.0, 1.0, -2.0]) @ Q.T
    for cls in (KernelPCA, SkKernelPCA):
        with pytest.raises(ValueError, match="significant negative eigenvalues"):
            cls(3, kernel="precomputed", eigen_solver="dense").fit(K)
    kept = KernelPCA(2, kernel="precomputed", center=False).fit(K)
    np.testing.assert_allclose(kept.eigenvalues_ * 3, [3.0, 1.0])


@pytest.mark.parametrize("degree", [2.5, 0.5])
def test_fractional_degree_is_refused_by_name(degree):
    X = np.random.RandomState(6).randn(10, 2)
    with pytest.raises(ValueError, match="degree must be a whole number"):
        KernelPCA(kernel="poly", degree=degree).fit(X)
    assert KernelPCA(2, kernel="poly", degree=2.0).fit(X).n_components_ == 2


def test_sigmoid_constant_kernel_fits_like_sklearn():
    # tanh(γ x·y + c) saturates to 1 on the common checks' data: K̃ = 0.
    X = np.random.RandomState(7).rand(10, 3) * 100
    ours = KernelPCA(kernel="sigmoid", coef0=100.0).fit(X)
    assert (
        ours.transform(X).shape
        == SkKernelPCA(kernel="sigmoid", coef0=100.0).fit(X).transform(X).shape
    )


# --------------------------------------------------- past the dense eigensolver
def test_randomized_solver_agrees_with_dense_and_sklearn():
    rng = np.random.RandomState(8)
    X, Y = rng.randn(400, 6), rng.randn(20, 6)
    dense = KernelPCA(10, kernel="rbf", gamma=0.1, eigen_solver="dense").fit(X)
    ours = KernelPCA(10, kernel="rbf", gamma=0.1, eigen_solver="randomized", random_state=0)
    theirs = SkKernelPCA(10, kernel="rbf", gamma=0.1, eigen_solver="randomized", random_state=0)
    ours.fit(X)
    theirs.fit(X)
    # the leading eigenvalues to rounding, the last of the 10 to the power iterations' 1e-6
    np.testing.assert_allclose(ours.eigenvalues_[:5], dense.eigenvalues_[:5], rtol=1e-10)
    np.testing.assert_allclose(ours.eigenvalues_, dense.eigenvalues_, rtol=1e-5)
    np.testing.assert_allclose(ours.eigenvalues_ * 400, theirs.eigenvalues_, rtol=1e-8)
    np.testing.assert_allclose(np.abs(ours.transform(Y)), np.abs(theirs.transform(Y)), atol=1e-8)
    assert ours.eigen_solver_ == "randomized"


RANDOMIZED_ACCURACY = re.compile(r"leading eigenvalues to about (\S+) .*? only to about (\S+),")
"""The docstring's sentence on the randomized solver's accuracy, its two magnitudes."""


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_randomized_solvers_accuracy_is_as_its_docstring_says(seed):
    """On a flat spectrum (an RBF kernel whose 21st eigenvalue is within 5 % of the 20th),
    the leading eigenvalues to the first magnitude, the last requested only to the second,
    ours and scikit-learn's alike (the same solver), against a dense eigh."""
    lead, tail = map(
        float, RANDOMIZED_ACCURACY.search(" ".join(KernelPCA.__doc__.split())).groups()
    )
    X = np.random.RandomState(seed).randn(400, 6)
    dense = KernelPCA(21, kernel="rbf", gamma=1.0, eigen_solver="dense").fit(X).eigenvalues_
    assert dense[20] / dense[19] > 0.95  # flat past the last requested
    options = {"kernel": "rbf", "gamma": 1.0, "eigen_solver": "randomized", "random_state": seed}
    ours = KernelPCA(20, **options).fit(X).eigenvalues_
    theirs = SkKernelPCA(20, **options).fit(X).eigenvalues_ / len(X)  # eig(K̃), not eig(K̃)/M
    for values in (ours, theirs):
        error = np.abs(values - dense[:20]) / dense[:20]
        assert error[:5].max() < 10 * lead
        assert tail / 10 < error[-3:].max() < 10 * tail
    arpack = KernelPCA(20, kernel="rbf", gamma=1.0, eigen_solver="arpack").fit(X).eigenvalues_
    np.testing.assert_allclose(arpack, dense[:20], rtol=1e-12)  # "arpack": all to rounding


def test_nystrom_is_exact_when_the_landmarks_span_the_feature_space():
    # Linear kernel on 3-D points: K = K_nm K_mm⁻¹ K_mn once 3 landmarks span R³.
    rng = np.random.RandomState(9)
    X, Y = rng.randn(200, 3) @ rng.randn(3, 3), rng.randn(5, 3)
    exact = KernelPCA(kernel="linear").fit(X)
    nystrom = KernelPCA(kernel="linear", n_landmarks=10, random_state=0).fit(X)
    assert nystrom.eigen_solver_ == "nystrom" and nystrom.X_fit_.shape == (10, 3)
    np.testing.assert_allclose(nystrom.eigenvalues_, exact.eigenvalues_, rtol=1e-8)
    np.testing.assert_allclose(
        np.abs(nystrom.transform(Y)), np.abs(exact.transform(Y)), rtol=1e-7, atol=1e-10
    )
    np.testing.assert_allclose(nystrom.fit_transform(X), nystrom.transform(X), atol=1e-10)


def test_nystrom_error_shrinks_with_more_landmarks():
    rng = np.random.RandomState(10)
    X = rng.randn(600, 4)
    exact = KernelPCA(5, kernel="rbf", gamma=0.2).fit(X).eigenvalues_
    errors = [
        np.max(
            np.abs(
                KernelPCA(5, kernel="rbf", gamma=0.2, n_landmarks=m, random_state=0)
                .fit(X)
                .eigenvalues_
                - exact
            )
            / exact
        )
        for m in (50, 200, 599)
    ]
    assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-2


def test_nystrom_model_says_what_it_cannot_do():
    X = np.random.RandomState(11).randn(50, 2)
    model = KernelPCA(3, kernel="rbf", n_landmarks=20, random_state=0).fit(X)
    for call in (
        lambda: model.preimage(X[:2]),
        lambda: model.reconstruction_error(X[:2]),
    ):
        with pytest.raises(ValueError, match="Nyström"):
            call()
    # no inverse_transform at all, so that scikit-learn's checks do not call it
    assert not hasattr(model, "inverse_transform")
    with pytest.raises(AttributeError, match="inverse_transform"):
        model.inverse_transform(np.zeros((1, 3)))
    assert KernelPCA(kernel="rbf", n_landmarks=50).fit(X).eigen_solver_ != "nystrom"
