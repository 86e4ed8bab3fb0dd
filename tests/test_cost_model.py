"""The cost model (kpca_core.budget) within 2× of the measured time, on the machine running it.

Never an absolute time: each request is timed beside the reference computation
(``budget.reference_work``), and the model's estimate is rescaled by the reference's
time now against ``budget.REFERENCE_S``, its time when the constants were measured.
One BLAS thread, as in the app's workers, and CPU time (``time.process_time``).
``bench/cost_model.py`` prints the same ratios over a larger grid.
"""

import statistics
import time

import numpy as np
import pytest
from threadpoolctl import threadpool_limits

from kpca_core import KernelPCA, budget
from kpca_core import contours as ct
from kpca_core.datasets import parabola

pytestmark = pytest.mark.slow


def measured_over_predicted(work, predicted: float, repeats: int = 3) -> float:
    """Median seconds of ``work`` over the model's estimate rescaled to this machine now."""
    ratios = []
    with threadpool_limits(1, user_api="blas"):
        work()
        for _ in range(repeats):
            start = time.process_time()
            budget.reference_work()
            reference = time.process_time() - start
            start = time.process_time()
            work()
            seconds = time.process_time() - start
            ratios.append(seconds / (predicted * reference / budget.REFERENCE_S))
    return statistics.median(ratios)


@pytest.mark.parametrize("n_points", [300, 1000, 2000])
@pytest.mark.parametrize("kernel", ["rbf", "sigmoid", "laplacian", "linear", "poly"])
def test_a_contours_column_fit_costs_what_the_model_says(kernel, n_points):
    X = parabola(n_points, random_state=0)[0]
    spec = ct.KernelSpec(kernel, sigma=0.5, degree=3, coef0=1.0)
    predicted = budget.fit_seconds(n_points, kernel, spec.explicit_features(n_points))
    ratio = measured_over_predicted(lambda: ct.fit_column(X, spec, n_components=3), predicted)
    assert 0.5 <= ratio <= 2.0


@pytest.mark.parametrize("n_points", [300, 2000])
@pytest.mark.parametrize("resolution", [60, 100])
def test_a_contours_grid_costs_what_the_model_says(n_points, resolution):
    X = parabola(n_points, random_state=0)[0]
    fit = ct.fit_column(X, ct.KernelSpec("rbf", sigma=0.5), n_components=3)
    grid = ct.make_grid(X, resolution)
    predicted = budget.grid_seconds(n_points, resolution)
    ratio = measured_over_predicted(lambda: ct.evaluate_column(fit, grid), predicted)
    assert 0.5 <= ratio <= 2.0


@pytest.mark.parametrize(
    "kernel,n_points,n_inputs,k,degree",
    [
        ("rbf", 1000, 256, 64, 3),
        ("rbf", 2000, 64, 3, 3),
        ("poly", 2000, 256, 256, 1),  # the USPS case: through Φ
        ("poly", 2000, 30, 3, 2),  # 496 features for 3 components: the kernel matrix
        ("sigmoid", 1000, 64, 8, 3),
    ],
)
def test_an_engine_fit_costs_what_the_model_says(kernel, n_points, n_inputs, k, degree):
    X = np.random.RandomState(0).rand(n_points, n_inputs)
    predicted = budget.engine_fit_seconds(kernel, n_points, n_inputs, k, degree=degree)
    model = KernelPCA(k, kernel=kernel, degree=degree, random_state=0)
    assert 0.5 <= measured_over_predicted(lambda: model.fit(X), predicted) <= 2.0
