"""KernelPCA as a scikit-learn estimator: the common checks, the ecosystem, inverse_transform."""

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import approx_fprime
from sklearn.base import clone
from sklearn.datasets import make_circles
from sklearn.decomposition import KernelPCA as SkKernelPCA
from sklearn.model_selection import GridSearchCV, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from kpca_core import KernelPCA
from kpca_core.preimage import expansion_weights


@parametrize_with_checks(
    [
        KernelPCA(),
        KernelPCA(3, kernel="poly", degree=2, eigen_solver="arpack"),
        KernelPCA(kernel="laplacian", center=False, inverse="ridge"),
        KernelPCA(kernel="precomputed"),
    ]
)
def test_sklearn_estimator_checks(estimator, check):
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
    model = KernelPCA(5, kernel="linear").fit(X)  # rank 2: 2 components
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
