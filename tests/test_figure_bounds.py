"""Figures bounded in bytes, flat components reported flat, extreme data explained (#14).

A Gaussian of σ = 1000 on one column made a 10.1 MB figure (one contour path of
3.9 M characters traced through rounding noise); 48 panels at resolution 200
made 2.2 MB of pictures; data near 1e308 crashed the dots picture.
"""

import re

import numpy as np
import plotly.io as pio
import pytest

from kpca_core import contours as ct
from kpca_core.contours import fit as fitting
from kpca_core.datasets import parabola, three_rings
from kpca_core.figures import contours as figures
from kpca_core.figures import panels
from kpca_core.kernels import kernel_matrix

FIGURE_BYTES = 2_000_000


def _sweep(X, specs, parameter, n_components, resolution):
    return ct.contour_sweep(
        X, specs, n_components=n_components, parameter=parameter, resolution=resolution
    )


def test_a_very_wide_gaussian_reports_flat_components_and_stays_small():
    X, _ = parabola(300, 0.2, 0)
    sweep = _sweep(X, [ct.KernelSpec("rbf", sigma=1000.0)], "sigma", 8, 200)
    column = sweep.columns[0]
    assert column.fit.n_flat > 0 and column.n_components + column.fit.n_flat == 8
    assert any("flat" in note for note in column.notes)
    fig = figures.contour_figure(sweep)
    size = len(pio.to_json(fig))
    print(f"\nGaussian σ = 1000, 8 components, resolution 200: {size / 1e6:.2f} MB")
    assert size < FIGURE_BYTES
    texts = [annotation.text for annotation in fig.layout.annotations]
    assert any("kPC 8 is flat" in text for text in texts)


@pytest.mark.parametrize("sigma", [0.5, 1.0, 5.0])
def test_a_gaussian_of_ordinary_width_has_no_flat_component(sigma):
    X, _ = three_rings(200, 0.25, 0)
    column = _sweep(X, [ct.KernelSpec("rbf", sigma=sigma)], "sigma", 8, 30).columns[0]
    assert column.fit.n_flat == 0 and column.n_components == 8


def test_the_largest_grid_stays_within_the_byte_budget():
    """6 columns × 8 components at resolution 200: pictures made coarser, dots less sharp."""
    X, _ = three_rings(500, 0.25, 0)
    specs = ct.sweep_specs(ct.KernelSpec("rbf"), "sigma", (0.1, 0.2, 0.3, 0.5, 1.0, 2.0))
    fig = figures.contour_figure(_sweep(X, specs, "sigma", 8, 200))
    size = len(pio.to_json(fig))
    print(f"\n6 × 8 panels at resolution 200: {size / 1e6:.2f} MB")
    assert size < FIGURE_BYTES
    colour = [image for image in fig.layout.images if image.name != "data"]
    assert len(colour) == 48


def test_lines_of_rounding_noise_are_thinned_or_left_out():
    rng = np.random.default_rng(0)
    xs = ys = np.linspace(0, 1, 200)
    noise = rng.uniform(-1, 1, (200, 200))
    axes = {"xref": "x", "yref": "y"}
    free = panels.lines_shape(xs, ys, noise, 200.0, axes)
    bounded = panels.lines_shape(xs, ys, noise, 200.0, axes, max_chars=20_000)
    assert len(free["path"]) > 100_000
    assert len(bounded["path"]) <= 20_000
    assert bounded["path"] or bounded["name"] == panels.TANGLED


def test_a_smooth_panel_keeps_its_lines_under_a_budget():
    xs = ys = np.linspace(-1, 1, 100)
    values = np.add.outer(ys**2, xs)
    shape = panels.lines_shape(xs, ys, values, 150.0, {"xref": "x", "yref": "y"}, 50_000)
    assert 0 < len(shape["path"]) <= 50_000 and shape["name"] == "contour lines"


def test_dots_over_an_overflowing_range_are_an_error_not_a_nan_cast():
    X = np.array([[1e308, 1e308], [-1e308, 1e308], [0.0, 0.0]])
    with pytest.raises(ValueError, match="finite"):
        panels.dots_image(X, (-1e308, 1e308), (-1e308, 1e308), 1e-305, 2.0)


def test_the_overflow_message_of_a_polynomial_names_a_finite_power():
    """Data near 1e154: ‖x‖² overflows; the message said 'about 1einf'."""
    X = parabola(20, 0.2, 0)[0] * 1e154
    message = fitting._overflow_check(X, ct.KernelSpec("poly", degree=3, gamma=1.0, coef0=0.0))
    assert "inf" not in message and re.search(r"about 1e9\d\d,", message)


def test_the_kernel_bound_is_an_upper_bound():
    X, _ = parabola(50, 0.2, 0)
    for spec in (
        ct.KernelSpec("poly", degree=3, gamma=0.5, coef0=1.0),
        ct.KernelSpec("sigmoid", gamma=0.2, coef0=-1.0),
        ct.KernelSpec("linear"),
    ):
        K = kernel_matrix(
            X, kernel=spec.kernel, gamma=spec.engine_gamma, degree=spec.degree, coef0=spec.coef0
        )
        assert np.max(np.abs(K)) <= fitting._kernel_bound(X, spec) * (1 + 1e-12)
