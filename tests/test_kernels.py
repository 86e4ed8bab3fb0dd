"""The hand-written kernel formulas against scikit-learn, and the width conventions."""

import ast
import pathlib
import subprocess
import sys
import tracemalloc

import numpy as np
import pytest
from sklearn.metrics import pairwise

from kpca_core import kernels

RNG = np.random.RandomState(0)
X = RNG.randn(30, 3)
Y = RNG.randn(12, 3)


@pytest.mark.parametrize(
    "kernel,params,reference",
    [
        ("linear", {}, lambda A, B: pairwise.linear_kernel(A, B)),
        (
            "poly",
            {"degree": 3, "gamma": 0.7, "coef0": 1.5},
            lambda A, B: pairwise.polynomial_kernel(A, B, degree=3, gamma=0.7, coef0=1.5),
        ),
        (
            "poly",
            {"degree": 4, "gamma": 1.0, "coef0": 0.0},
            lambda A, B: pairwise.polynomial_kernel(A, B, degree=4, gamma=1.0, coef0=0.0),
        ),
        (
            "poly",
            {"degree": 2.5, "gamma": 0.1, "coef0": 3.0},
            lambda A, B: pairwise.polynomial_kernel(A, B, degree=2.5, gamma=0.1, coef0=3.0),
        ),
        ("rbf", {"gamma": 0.3}, lambda A, B: pairwise.rbf_kernel(A, B, gamma=0.3)),
        ("laplacian", {"gamma": 0.3}, lambda A, B: pairwise.laplacian_kernel(A, B, gamma=0.3)),
        ("cosine", {"gamma": 0.3}, lambda A, B: pairwise.cosine_similarity(A, B)),
        (
            "sigmoid",
            {"gamma": 0.2, "coef0": -0.5},
            lambda A, B: pairwise.sigmoid_kernel(A, B, gamma=0.2, coef0=-0.5),
        ),
    ],
)
@pytest.mark.parametrize("same", [True, False])
def test_kernel_matrix_matches_sklearn(kernel, params, reference, same):
    B = None if same else Y
    expected = reference(X, X if same else Y)
    np.testing.assert_allclose(
        kernels.kernel_matrix(X, B, kernel=kernel, **params), expected, rtol=1e-12, atol=1e-12
    )


@pytest.mark.parametrize("degree", range(1, 11))
def test_integer_power_is_power(degree):
    base = RNG.rand(5, 7) + 0.5
    np.testing.assert_allclose(kernels.integer_power(base.copy(), degree), base**degree)


@pytest.mark.parametrize("degree", [0, -1, 2.5])
def test_integer_power_refuses_non_positive_integers(degree):
    with pytest.raises(ValueError, match="degree"):
        kernels.integer_power(np.ones(3), degree)


@pytest.mark.parametrize("kernel", ["linear", "poly", "rbf", "laplacian", "sigmoid"])
def test_kernel_diagonal_is_the_diagonal(kernel):
    params = {"gamma": 0.4, "degree": 3, "coef0": 0.5}
    full = kernels.kernel_matrix(X, kernel=kernel, **params)
    np.testing.assert_allclose(kernels.kernel_diagonal(X, kernel=kernel, **params), np.diag(full))


@pytest.mark.parametrize("sigma", [0.1, 1.0, 7.5])
def test_width_conventions_round_trip(sigma):
    gamma = kernels.sigma_to_gamma(sigma)
    assert gamma == pytest.approx(1 / (2 * sigma**2))
    assert kernels.gamma_to_sigma(gamma) == pytest.approx(sigma)
    assert kernels.c_to_gamma(kernels.gamma_to_c(gamma)) == pytest.approx(gamma)
    # exp(−‖x−y‖²/(2σ²)) (eq. 62) equals exp(−‖x−y‖²/c) with c = 2σ² (Mika et al.)
    d2 = kernels.squared_distances(X, Y)
    np.testing.assert_allclose(
        np.exp(-d2 / (2 * sigma**2)), np.exp(-d2 / kernels.gamma_to_c(gamma))
    )


@pytest.mark.parametrize(
    "kernel,n_features,degree,coef0,expected",
    [
        ("linear", 5, 3, 1.0, 5),
        ("poly", 2, 2, 0.0, 3),  # x₁², x₂², x₁x₂ (eq. 20)
        ("poly", 2, 2, 1.0, 6),  # 1, x₁, x₂, x₁², x₂², x₁x₂
        ("poly", 256, 5, 0.0, 9_525_431_552),  # "10^10" of section 3 for 16 × 16 images
        ("rbf", 2, 3, 1.0, None),
    ],
)
def test_feature_space_dimension(kernel, n_features, degree, coef0, expected):
    assert (
        kernels.feature_space_dimension(kernel, n_features, degree=degree, coef0=coef0) == expected
    )


@pytest.mark.parametrize("n_features", [1, 2, 3])
@pytest.mark.parametrize("degree", [1, 2, 3, 4, 6])
@pytest.mark.parametrize("gamma,coef0", [(1.0, 0.0), (0.7, 1.5), (2.0, 0.25)])
def test_polynomial_features_give_the_polynomial_kernel(n_features, degree, gamma, coef0):
    A, B = X[:, :n_features], Y[:, :n_features]
    F = kernels.polynomial_features(A, degree=degree, gamma=gamma, coef0=coef0)
    G = kernels.polynomial_features(B, degree=degree, gamma=gamma, coef0=coef0)
    reference = pairwise.polynomial_kernel(A, B, degree=degree, gamma=gamma, coef0=coef0)
    np.testing.assert_allclose(F @ G.T, reference, rtol=0, atol=1e-12 * np.abs(reference).max())
    # eq. 22 and after: one feature per monomial
    assert F.shape == (
        len(A),
        kernels.feature_space_dimension("poly", n_features, degree=degree, coef0=coef0),
    )


@pytest.mark.parametrize("gamma,coef0", [(1.0, -1.0), (-0.5, 1.0), (0.0, 1.0)])
def test_polynomial_features_need_a_real_map(gamma, coef0):
    with pytest.raises(ValueError, match="Φ needs γ > 0 and c ≥ 0"):
        kernels.polynomial_features(X, degree=2, gamma=gamma, coef0=coef0)


def test_kpca_core_never_imports_streamlit():
    package = pathlib.Path(kernels.__file__).parent
    for path in package.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            assert not any(name.split(".")[0] == "streamlit" for name in names), path


def test_importing_every_kpca_core_module_loads_no_streamlit():
    code = (
        "import importlib, pkgutil, sys, kpca_core\n"
        "for m in pkgutil.walk_packages(kpca_core.__path__, 'kpca_core.'):\n"
        "    importlib.import_module(m.name)\n"
        "sys.exit('streamlit' in sys.modules)\n"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize("n_features,degree", [(256, 1), (64, 1), (30, 2), (8, 3), (5, 4), (3, 6)])
@pytest.mark.parametrize("gamma,coef0", [(None, 1.0), (0.5, 0.0), (0.1, 2.5)])
def test_polynomial_features_of_wide_inputs_give_sklearns_kernel(
    seed, n_features, degree, gamma, coef0
):
    rng = np.random.RandomState(seed)
    A, B = rng.rand(40, n_features), rng.randn(25, n_features)
    gamma = 1.0 / n_features if gamma is None else gamma
    F = kernels.polynomial_features(A, degree=degree, gamma=gamma, coef0=coef0)
    G = kernels.polynomial_features(B, degree=degree, gamma=gamma, coef0=coef0)
    reference = pairwise.polynomial_kernel(A, B, degree=degree, gamma=gamma, coef0=coef0)
    np.testing.assert_allclose(F @ G.T, reference, rtol=0, atol=1e-12 * np.abs(reference).max())


def test_polynomial_features_form_nothing_larger_than_the_features():
    # USPS-sized inputs, degree 1: Φ is 500 × 257; an intermediate of (features × points ×
    # inputs) would be 257 times larger
    X = np.random.RandomState(0).rand(500, 256)
    tracemalloc.start()
    try:
        Phi = kernels.polynomial_features(X, degree=1, gamma=1.0 / 256, coef0=1.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak <= 3 * Phi.nbytes
