"""The four pre-image methods of kpca_core.preimage_methods, each against an independent answer."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import optimize
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.metrics.pairwise import rbf_kernel

from kpca_core import KernelPCA
from kpca_core.preimage_methods import (
    METHODS,
    GaussianExpansion,
    PreimageProblem,
    distance_constraint,
    fixed_point,
    gradient_descent,
    learned_ridge,
    mds_point,
    preimages,
)

GAMMA = 0.5
# The tolerance of each method on "a training point is its own pre-image":
# eq. (10) and the distance method are exact there; gradient descent stops at
# ‖Δz‖²/N ≤ 1e-6 of a fixed-point-sized step; the ridge map is exact only as α → 0.
OWN_TOLERANCE = {"fixed-point": 1e-10, "distance": 1e-8, "gradient": 5e-3, "ridge": 1e-5}
OPTIONS = {"ridge": {"alpha": 1e-10}}


def fitted(seed: int, center: bool, n_features: int = 3) -> tuple[np.ndarray, KernelPCA]:
    X = np.random.RandomState(seed).normal(size=(40, n_features))
    return X, KernelPCA(kernel="rbf", gamma=GAMMA, center=center).fit(X)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("center", [False, True])
@pytest.mark.parametrize("seed", [0, 1])
def test_a_training_point_with_all_components_is_its_own_preimage(method, center, seed):
    X, model = fitted(seed, center)
    expansion = GaussianExpansion.of(model)
    rows = X[:6]
    start = rows + np.random.RandomState(seed).normal(0.0, 0.1, rows.shape)
    problem = expansion.problem(rows, model.n_components_, start=start)
    result = preimages(problem, method, **OPTIONS.get(method, {}))
    np.testing.assert_allclose(result.Z, rows, atol=OWN_TOLERANCE[method])
    assert result.failures == 0
    assert result.Z.shape == rows.shape
    assert result.restarts.shape == result.steps.shape == result.converged.shape == (6,)


@pytest.mark.parametrize("center", [False, True])
def test_projections_and_feature_space_dot_products_match_explicit_kernels(center):
    X, model = fitted(3, center)
    Y = np.random.RandomState(4).normal(size=(7, 3))
    problem = GaussianExpansion.of(model).problem(Y, 9)
    np.testing.assert_allclose(problem.beta, model.transform(Y)[:, :9], atol=1e-12)
    K = rbf_kernel(X, gamma=GAMMA)
    dots = problem.weights @ K
    np.testing.assert_allclose(problem.dot_train, dots, atol=1e-12)
    np.testing.assert_allclose(
        problem.target_sq_norm, np.einsum("ij,ij->i", dots, problem.weights), atol=1e-12
    )
    # ρ(z) = ‖Φ(z) − Ψ‖² written out with the explicit kernel
    Z = np.random.RandomState(5).normal(size=(7, 3))
    Kz = rbf_kernel(Z, X, gamma=GAMMA)
    rho = 1.0 - 2.0 * np.einsum("ij,ij->i", Kz, problem.weights) + problem.target_sq_norm
    np.testing.assert_allclose(problem.objective(Z), rho, atol=1e-12)
    assert np.all(problem.objective(Z) >= -1e-12)
    for r in range(7):
        assert problem.objective_of(r, Z[r : r + 1])[0] == pytest.approx(rho[r], abs=1e-12)
    with pytest.raises(ValueError, match="one row per point"):
        problem.objective(Z[:1])


def toy_problem(seed: int, n: int = 4) -> PreimageProblem:
    X, model = fitted(seed, True, n_features=2)
    Y = X[:8] + np.random.RandomState(seed + 10).normal(0.0, 0.3, (8, 2))
    return GaussianExpansion.of(model).problem(Y, n)


def numerical_gradient(problem: PreimageProblem, Z: np.ndarray) -> np.ndarray:
    return np.array(
        [
            optimize.approx_fprime(z, lambda v, r=r: problem.objective_of(r, v[None])[0], 1e-7)
            for r, z in enumerate(Z)
        ]
    )


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_the_fixed_point_is_a_stationary_point_of_rho(seed):
    problem = toy_problem(seed)
    result = fixed_point(problem, tol=1e-14, max_iter=2000)
    assert result.converged.all()
    np.testing.assert_allclose(numerical_gradient(problem, result.Z), 0.0, atol=1e-5)
    assert np.all(problem.objective(result.Z) <= problem.objective(problem.start) + 1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_gradient_descent_reaches_the_minimum_scipy_finds_from_the_same_start(seed):
    problem = toy_problem(seed)
    result = gradient_descent(problem, tol=1e-12, max_iter=5000)
    assert result.converged.all()
    rho = problem.objective(result.Z)
    for r, z0 in enumerate(problem.start):
        best = optimize.minimize(lambda v, r=r: problem.objective_of(r, v[None])[0], z0)
        assert rho[r] == pytest.approx(best.fun, abs=1e-8)
        np.testing.assert_allclose(result.Z[r], best.x, atol=1e-3)


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("n_features", [2, 5])
def test_mds_point_recovers_a_point_from_exact_distances(seed, n_features):
    rng = np.random.RandomState(seed)
    neighbours = rng.normal(size=(4, n_features + 3, n_features))
    z = rng.normal(size=(4, n_features))
    sq = np.sum((neighbours - z[:, None]) ** 2, axis=2)
    np.testing.assert_allclose(mds_point(neighbours, sq), z, atol=1e-9)


def test_distance_method_flags_rows_whose_feature_distances_have_no_input_distance():
    problem = toy_problem(0, n=1)
    result = distance_constraint(problem, n_neighbours=40)
    similarity = 1.0 - 0.5 * problem.train_distances()
    assert result.failures == int(np.count_nonzero(~np.all(similarity > 0, axis=1)))
    assert np.all(np.isfinite(result.Z))


@pytest.mark.parametrize("n", [2, 5, 12])
@pytest.mark.parametrize("alpha", [0.1, 1.0])
def test_learned_ridge_matches_sklearn_inverse_transform(n, alpha):
    rng = np.random.RandomState(n)
    X = rng.normal(size=(60, 3))
    Y = rng.normal(size=(9, 3))
    ours = learned_ridge(
        GaussianExpansion.of(KernelPCA(kernel="rbf", gamma=GAMMA).fit(X)).problem(Y, n),
        alpha=alpha,
    )
    sk = SklearnKernelPCA(
        n, kernel="rbf", gamma=GAMMA, fit_inverse_transform=True, alpha=alpha
    ).fit(X)
    np.testing.assert_allclose(ours.Z, sk.inverse_transform(sk.transform(Y)), atol=1e-8)


def test_preimages_rejects_unknown_methods_and_non_gaussian_models():
    problem = toy_problem(0)
    with pytest.raises(ValueError, match="method must be one of"):
        preimages(problem, "newton")
    X = np.random.RandomState(0).normal(size=(10, 2))
    with pytest.raises(ValueError, match="Gaussian"):
        GaussianExpansion.of(KernelPCA(kernel="poly").fit(X))
    with pytest.raises(ValueError, match="positive integer"):
        GaussianExpansion.of(KernelPCA(kernel="rbf").fit(X)).problem(X, 0)
