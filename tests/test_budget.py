"""The cost model (kpca_core.budget): estimates, verdicts and advice (issue #14)."""

import numpy as np
import pytest

from kpca_core import budget
from kpca_core import contours as ct
from kpca_core.kernels import feature_space_dimension


def test_the_papers_figure_is_cheap_and_fits():
    cost, resolution = budget.contour_cost(300, ["poly"] * 4, 100)
    assert cost.fits and resolution == 100 and cost.seconds < 1


def test_a_grid_above_the_budget_at_every_resolution_is_refused_with_what_to_reduce():
    """Six sigmoid columns of 30 000 points: their fits alone exceed the budget."""
    cost, resolution = budget.contour_cost(30_000, ["sigmoid"] * 6, 200)
    assert not cost.fits and resolution == 200
    assert cost.seconds > budget.REQUEST_BUDGET_S
    points = int(cost.advice.split("at most ")[1].split(" points")[0])
    columns = int(cost.advice.split("at most ")[2].split(" column")[0])
    lowest = budget.MIN_RESOLUTION
    assert budget.contour_seconds(points, ["sigmoid"] * 6, lowest) <= budget.REQUEST_BUDGET_S
    assert budget.contour_seconds(30_000, ["sigmoid"] * columns, lowest) <= (
        budget.REQUEST_BUDGET_S
    )
    assert budget.contour_seconds(30_000, ["sigmoid"] * (columns + 1), lowest) > (
        budget.REQUEST_BUDGET_S
    )


def test_a_grid_just_above_the_budget_is_drawn_coarser():
    cost, resolution = budget.contour_cost(22_000, ["rbf"] * 6, 200)
    assert cost.fits and resolution == 100
    assert budget.contour_seconds(22_000, ["rbf"] * 6, 200) > budget.REQUEST_BUDGET_S


def test_the_laplacian_sweep_of_the_issue_is_refused():
    """2000 points × 200 widths of the Laplacian took 185 s."""
    cost = budget.sweep_cost(2000, 200, "laplacian")
    assert not cost.fits
    widths = int(cost.advice.split("at most ")[1].split(" widths")[0])
    assert budget.sweep_seconds(2000, widths, "laplacian") <= budget.REQUEST_BUDGET_S
    assert budget.sweep_seconds(2000, widths + 1, "laplacian") > budget.REQUEST_BUDGET_S


@pytest.mark.parametrize(
    ("points", "widths", "kernel"),
    [(2000, 60, "rbf"), (1000, 200, "laplacian"), (300, 200, "poly")],
)
def test_the_views_defaults_and_medium_sweeps_fit(points, widths, kernel):
    assert budget.sweep_cost(points, widths, kernel).fits


def test_the_papers_denoising_model_fits_and_a_larger_one_is_refused():
    assert budget.denoise_cost(10 * 300).fits
    refused = budget.denoise_cost(10 * 700)
    assert not refused.fits and "training digits" in refused.advice


@pytest.mark.parametrize("points", [20, 300, 1000, 2000])
def test_costs_grow_with_every_size(points):
    assert budget.contour_seconds(points, ["rbf"], 100) < budget.contour_seconds(
        points, ["rbf"], 200
    )
    assert budget.contour_seconds(points, ["rbf"], 100) < budget.contour_seconds(
        points + 10, ["rbf"], 100
    )
    assert budget.sweep_seconds(points, 10) < budget.sweep_seconds(points, 11)


def test_the_error_curve_fits_at_the_widest_settings_and_a_narrow_kernel_is_refused():
    """3000 training digits, 20 n, all 100 test digits per class: c = 0.5 fits, c = 0.05 not."""
    for_sweep = {"digits": "test digits per class", "per_class": 10}
    assert budget.preimage_cost(1000, 3000, 20, c=0.5, **for_sweep).fits
    refused = budget.preimage_cost(1000, 3000, 20, c=0.05, **for_sweep)
    assert not refused.fits and refused.seconds > budget.REQUEST_BUDGET_S
    per_class = int(refused.advice.split("use at most ")[1].split(" test")[0])
    assert budget.preimage_seconds(10 * per_class, 3000, 20, c=0.05) <= budget.REQUEST_BUDGET_S
    assert budget.preimage_seconds(10 * per_class + 10, 3000, 20, c=0.05) > (
        budget.REQUEST_BUDGET_S
    )
    assert "training digits per class" in refused.advice


def test_a_narrow_kernel_costs_more_and_is_refused_at_the_papers_protocol():
    costs = [budget.preimage_seconds(500, 3000, 20, c=c) for c in (0.05, 0.1, 0.2, 0.3, 5.0)]
    assert costs == sorted(costs, reverse=True) and costs[-1] == costs[-2]
    assert not budget.preimage_cost(1000, 3000, 20, c=0.05).fits


def test_leaving_out_the_learned_preimage_is_advised_only_where_it_helps():
    ridge = budget.preimage_cost(
        1000, 3000, 20, ("fixed-point", "ridge"), without_ridge="leave out the learned pre-image"
    )
    assert not ridge.fits and ridge.advice.endswith("leave out the learned pre-image")
    narrow = budget.preimage_cost(
        1000, 3000, 20, ("fixed-point", "ridge"), c=0.05, without_ridge="leave it out"
    )
    assert not narrow.fits and "leave it out" not in narrow.advice  # not enough alone
    fig4 = budget.preimage_cost(10, 3000, 5, ("ridge",), digits=None, without_ridge="fixed")
    assert fig4.fits  # the views' other requests fit at their largest settings
    assert budget.preimage_cost(10, 3000, 1, ("ridge",), digits="digits").fits
    assert budget.preimage_cost(100, 3000, 4, ("fixed-point", "fixed-point", "ridge")).fits


def test_fewer_digits_or_training_digits_are_never_advised_below_one_per_class():
    refused = budget.preimage_cost(1000, 3000, 20_000, per_class=10, digits="per class")
    assert not refused.fits and refused.advice == "use fewer digits"


@pytest.mark.parametrize("n_points", [12, 40, 300])
@pytest.mark.parametrize("coef0", [0.0, 1.0, -1.0])
@pytest.mark.parametrize("degree", [1, 2, 4, 10])
def test_a_polynomial_column_is_priced_by_the_features_the_engine_fits_it_through(
    degree, coef0, n_points
):
    """The engine's choice (eigen_solver_ "features") and the cost model's are one rule."""
    X = np.random.default_rng(degree).uniform(-1, 1, (n_points, 2))
    spec = ct.KernelSpec("poly", degree=degree, coef0=coef0)
    fit = ct.fit_column(X, spec, n_components=2)
    features = spec.explicit_features(n_points, n_components=2)
    assert (features is not None) == (fit.model.eigen_solver_ == "features")
    if features is not None:
        assert features == feature_space_dimension("poly", 2, degree=degree, coef0=coef0)
        assert budget.fit_seconds(n_points, "poly", features) < budget.fit_seconds(300, "poly")
