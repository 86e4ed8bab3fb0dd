"""Property-based tests: on any finite data the engine gives finite output or a clear ValueError."""

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from kpca_core import KernelPCA

KERNEL_PARAMS = st.sampled_from(
    [
        {"kernel": "linear"},
        {"kernel": "poly", "degree": 2, "coef0": 0.0, "gamma": 1.0},
        {"kernel": "poly", "degree": 3, "coef0": 1.0},
        {"kernel": "rbf"},
        {"kernel": "rbf", "gamma": 1e-6},
        {"kernel": "rbf", "gamma": 1e6},
        {"kernel": "laplacian"},
        {"kernel": "sigmoid", "gamma": 0.5, "coef0": -1.0},
    ]
)
SCALES = st.sampled_from([1e-150, 1e-8, 1.0, 1e8, 1e150])


@st.composite
def point_sets(draw: st.DrawFn) -> np.ndarray:
    n = draw(st.integers(1, 25))
    d = draw(st.integers(1, 4))
    values = arrays(np.float64, (n, d), elements=st.floats(-10, 10, allow_nan=False, width=32))
    X = draw(values) * draw(SCALES)
    if draw(st.booleans()) and n > 1:  # duplicate points
        X[n // 2 :] = X[: n - n // 2]
    if draw(st.booleans()):  # a constant column
        X[:, 0] = draw(st.floats(-5, 5))
    return X


def allowed_error(error: ValueError) -> bool:
    """A refusal must say what is wrong: a parameter, or the property of the data."""
    message = str(error)
    return any(
        word in message
        for word in ("too large", "every point looks the same", "n_components", "gamma")
    )


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    database=None,
    derandomize=True,
)
@given(
    X=point_sets(),
    params=KERNEL_PARAMS,
    n_components=st.one_of(st.none(), st.integers(1, 60)),
    center=st.booleans(),
    solver=st.sampled_from(["auto", "dense", "subset", "arpack", "randomized"]),
)
@example(  # K = 0: ARPACK's starting vector vanishes
    X=np.zeros((3, 1)), params={"kernel": "linear"}, n_components=1, center=False, solver="auto"
)
def test_finite_output_or_clear_refusal(X, params, n_components, center, solver):
    model = KernelPCA(n_components, center=center, eigen_solver=solver, random_state=0, **params)
    try:
        Z = model.fit_transform(X)
    except ValueError as error:
        assert allowed_error(error), error
        return
    if n_components is None:  # the non-zero ones; zero columns otherwise (scikit-learn's rule)
        assert model.n_components_ <= len(X)
    else:
        assert model.n_components_ == min(len(X), n_components)
    assert np.all(np.isfinite(Z)) and np.all(np.isfinite(model.alphas_))
    assert np.all(np.isfinite(model.eigenvalues_))
    assert np.all(np.diff(model.eigenvalues_) <= 0)
    assert np.isfinite(model.negative_eigenvalue_ratio_)
    assert np.all(np.isfinite(model.transform(X[:3])))


@settings(max_examples=40, deadline=None, database=None, derandomize=True)
@given(X=point_sets(), bad=st.sampled_from([np.nan, np.inf, -np.inf]))
def test_nan_and_inf_are_refused_naming_the_problem(X, bad):
    X = X.copy()
    X.flat[0] = bad
    with pytest.raises(ValueError, match="NaN or infinite"):
        KernelPCA().fit(X)
