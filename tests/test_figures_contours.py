"""The Contours figures: panels, ranges, titles, colours — checked on the figure itself."""

import re

import numpy as np
import plotly.graph_objects as go
import pytest

from kpca_core import contours as ct
from kpca_core.datasets import parabola, three_rings
from kpca_core.figures import contours as figures
from kpca_core.figures import style


def _fig2(resolution: int = 30, pca: bool = False) -> ct.ContourSweep:
    X, labels = parabola(300, 0.2, 0)
    specs = ct.sweep_specs(ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2, 3, 4))
    if pca:
        specs.insert(0, ct.KernelSpec("pca"))
    return ct.contour_sweep(
        X, specs, n_components=3, parameter="degree", labels=labels, resolution=resolution
    )


def _rings(sigmas=(0.5, 1.0, 2.0), n_components: int = 3) -> ct.ContourSweep:
    X, labels = three_rings(150, 0.25, 1)
    specs = ct.sweep_specs(ct.KernelSpec("rbf"), "sigma", sigmas)
    return ct.contour_sweep(
        X, specs, n_components=n_components, parameter="sigma", labels=labels, resolution=25
    )


def _contours(fig: go.Figure) -> list:
    return [trace for trace in fig.data if trace.type == "contour"]


def _panel_titles(fig: go.Figure) -> list[str]:
    return [a.text for a in fig.layout.annotations if "kPC" in a.text]


def test_the_figure_is_valid_plotly():
    """Built without validation for speed; plotly must accept every property."""
    for fig in (
        figures.contour_figure(_fig2(pca=True), title="Parabola"),
        figures.projection_figure(_rings(), 1, 1, 2),
        figures.projection_figure(_fig2(), 0, 1, 3),
    ):
        go.Figure(fig.to_dict())


@pytest.mark.parametrize("n_components", range(1, ct.MAX_COMPONENTS + 1))
@pytest.mark.parametrize("n_columns", [1, 3, ct.MAX_COLUMNS + 1])
def test_every_grid_shape_is_valid_plotly(n_components, n_columns):
    """Axis domains stay inside [0, 1] whatever the rounding, for every grid size."""
    X = parabola(30, 0.2, 0)[0]
    specs = [ct.KernelSpec("rbf", sigma=0.3 * (c + 1)) for c in range(n_columns)]
    sweep = ct.contour_sweep(X, specs, n_components=n_components, parameter="sigma", resolution=5)
    go.Figure(figures.contour_figure(sweep, title="t").to_dict())


@pytest.mark.parametrize(("pca", "n_cols"), [(False, 4), (True, 5)])
def test_fig2_has_one_panel_per_column_and_component(pca, n_cols):
    sweep = _fig2(pca=pca)
    fig = figures.contour_figure(sweep)
    n_panels = 3 * n_cols
    assert len(_panel_titles(fig)) == n_panels
    # degree 1 (and linear PCA) have no 3rd component: an explained empty panel
    empty = [a.text for a in fig.layout.annotations if "no 3rd component" in a.text]
    assert len(empty) == (2 if pca else 1)
    assert len(_contours(fig)) == n_panels - len(empty)
    # every panel has its own pair of axes and the data on top
    assert sum(1 for key in fig.layout.to_plotly_json() if key.startswith("xaxis")) == n_panels
    points = [trace for trace in fig.data if trace.type == "scatter"]
    assert len(points) == n_panels
    assert all(len(trace.x) == 300 for trace in points)


def test_axis_ranges_cover_the_data():
    sweep = _rings()
    fig = figures.contour_figure(sweep)
    layout = fig.layout.to_plotly_json()
    low, high = sweep.X.min(axis=0), sweep.X.max(axis=0)
    for key, axis in layout.items():
        if key.startswith(("xaxis", "yaxis")):
            d = 0 if key.startswith("x") else 1
            assert axis["range"][0] < low[d] and axis["range"][1] > high[d], key
    for trace in _contours(fig):
        assert trace.x[0] <= low[0] and trace.x[-1] >= high[0]
        assert trace.y[0] <= low[1] and trace.y[-1] >= high[1]


def test_titles_carry_the_eigenvalues_and_shares():
    sweep = _fig2()
    titles = _panel_titles(figures.contour_figure(sweep))
    for c, column in enumerate(sweep.columns):
        for r in range(column.n_components):
            title = titles[r * len(sweep.columns) + c]
            assert title.startswith(f"<b>degree {c + 1}</b> · kPC {r + 1}")
            eigenvalue = float(re.search(r"λ = ([-0-9.e+]+)", title).group(1))
            np.testing.assert_allclose(eigenvalue, column.fit.eigenvalues[r], rtol=5e-3)
            assert f"({column.fit.shares[r]:.1%})" in title


def test_values_are_finite_float32_and_normalised_on_the_data():
    sweep = _fig2()
    for trace in _contours(figures.contour_figure(sweep)):
        z = np.asarray(trace.z)
        assert z.dtype == np.float32
        assert np.all(np.isfinite(z))
    for column in sweep.columns:
        # the largest magnitude on the data points is 1 by construction; the grid,
        # which reaches beyond the data, has values of that order
        assert np.all(np.abs(column.values).max(axis=(1, 2)) >= 0.5)


def test_one_colour_scale_symmetric_about_zero_and_colour_blind_safe():
    fig = figures.contour_figure(_rings())
    axis = fig.layout.coloraxis
    assert axis.cmin == -axis.cmax == -1.0
    assert [list(stop) for stop in axis.colorscale] == [list(stop) for stop in figures.COLORSCALE]
    assert style.DIVERGING == "RdBu_r"
    for trace in _contours(fig):
        assert trace.coloraxis == "coloraxis"
        contours = trace.contours
        assert contours.start == -contours.end
        assert contours.showlines


def test_a_column_that_cannot_be_computed_is_an_explained_empty_column():
    sweep = _rings(sigmas=(0.0005, 1.0))
    fig = figures.contour_figure(sweep)
    assert len(_contours(fig)) == 3
    texts = [a.text.replace("<br>", " ") for a in fig.layout.annotations]
    assert any(
        "every point is its own component: see the note above the figure" in text for text in texts
    )
    assert sum(text == "no picture" for text in texts) == 2
    assert any(title.endswith("—") for title in _panel_titles(fig))


def test_linear_pca_column_is_titled_and_explained():
    fig = figures.contour_figure(_fig2(pca=True))
    titles = _panel_titles(fig)
    assert titles[0].startswith("<b>linear PCA</b> · kPC 1")
    texts = " ".join(a.text.replace("<br>", " ") for a in fig.layout.annotations)
    assert "linear PCA in 2-D has only two non-zero eigenvalues" in texts


def test_the_figure_grows_with_the_rows():
    small = figures.contour_figure(_rings(n_components=1))
    large = figures.contour_figure(_rings(n_components=4))
    assert large.layout.height > small.layout.height


def test_projection_figure_colours_each_group():
    sweep = _rings()
    fig = figures.projection_figure(sweep, 1, 1, 2)
    assert [trace.name for trace in fig.data] == ["0", "1", "2"]
    colours = [trace.marker.color for trace in fig.data]
    assert colours == list(style.GROUPS[:3])
    assert fig.layout.showlegend
    column = sweep.columns[1]
    for trace, group in zip(fig.data, range(3), strict=True):
        mask = sweep.labels == group
        np.testing.assert_allclose(trace.x, column.fit.projections[mask, 0], rtol=1e-6)
        np.testing.assert_allclose(trace.y, column.fit.projections[mask, 1], rtol=1e-6)
    assert "λ = " in fig.layout.xaxis.title.text
    assert fig.layout.title.text == "σ = 1: the data in kPC 1 and kPC 2"


def test_projection_figure_with_one_group_has_no_legend():
    fig = figures.projection_figure(_fig2(), 2, 1, 3)
    assert len(fig.data) == 1 and not fig.layout.showlegend


def test_projection_figure_explains_a_missing_component():
    fig = figures.projection_figure(_fig2(), 0, 1, 3)
    assert len(fig.data) == 0
    (note,) = fig.layout.annotations
    assert "no 3rd component" in note.text.replace("<br>", " ")


def test_large_data_are_drawn_with_webgl():
    X, labels = three_rings(1500, 0.25, 0)
    sweep = ct.contour_sweep(
        X, [ct.KernelSpec("linear")], n_components=1, labels=labels, resolution=10
    )
    fig = figures.contour_figure(sweep)
    assert {trace.type for trace in fig.data} == {"contour", "scattergl"}
