"""The cost model (kpca_core.budget): estimates, verdicts and advice (issue #14)."""

import pytest

from kpca_core import budget


def test_the_papers_figure_is_cheap_and_fits():
    cost, resolution = budget.contour_cost(300, ["poly"] * 4, 100)
    assert cost.fits and resolution == 100 and cost.seconds < 1


def test_the_sigmoid_grid_of_the_issue_is_refused_with_what_to_reduce():
    """2000 points × resolution 200 × 6 offsets took 38 s and stalled another user 24.5 s."""
    cost, resolution = budget.contour_cost(2000, ["sigmoid"] * 6, 200)
    assert not cost.fits and resolution == 200
    assert cost.seconds > budget.REQUEST_BUDGET_S
    assert "at most 3 columns" in cost.advice and "points" in cost.advice
    points = int(cost.advice.split("at most ")[1].split(" points")[0])
    assert budget.contour_seconds(points, ["sigmoid"] * 6, budget.MIN_RESOLUTION) <= (
        budget.REQUEST_BUDGET_S
    )
    assert budget.contour_seconds(3, ["sigmoid"] * 3, budget.MIN_RESOLUTION) <= (
        budget.REQUEST_BUDGET_S
    )


def test_a_grid_just_above_the_budget_is_drawn_coarser():
    cost, resolution = budget.contour_cost(2000, ["rbf"] * 6, 200)
    assert cost.fits and resolution == 100
    assert budget.contour_seconds(2000, ["rbf"] * 6, 200) > budget.REQUEST_BUDGET_S


def test_the_laplacian_sweep_of_the_issue_is_refused():
    """2000 points × 200 widths of the Laplacian took 185 s."""
    cost = budget.sweep_cost(2000, 200, "laplacian")
    assert not cost.fits
    assert "at most 35 widths" in cost.advice
    assert budget.sweep_seconds(2000, 35, "laplacian") <= budget.REQUEST_BUDGET_S
    assert budget.sweep_seconds(2000, 36, "laplacian") > budget.REQUEST_BUDGET_S


@pytest.mark.parametrize(
    ("points", "widths", "kernel"),
    [(2000, 60, "rbf"), (1000, 200, "laplacian"), (300, 200, "poly")],
)
def test_the_views_defaults_and_medium_sweeps_fit(points, widths, kernel):
    assert budget.sweep_cost(points, widths, kernel).fits


def test_the_papers_denoising_model_fits_and_a_larger_one_is_refused():
    assert budget.denoise_cost(10 * 300).fits
    refused = budget.denoise_cost(10 * 500)
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
