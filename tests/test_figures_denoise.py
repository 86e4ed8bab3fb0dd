"""Figure builders of the de-noising view: what each figure contains."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest

from kpca_core.denoise import ErrorCurve, ErrorSweep, ImageGrid, ToyDenoising
from kpca_core.figures import style
from kpca_core.figures.denoise import (
    demo_figure,
    error_curve_figure,
    fig4_figure,
    mosaic_figure,
    side_by_side_figure,
    tile,
    toy_figure,
)
from tests.conftest import white_blocks


def _grid(n_rows: int, n_cols: int, side: int, seed: int = 0) -> ImageGrid:
    rng = np.random.RandomState(seed)
    images = rng.uniform(-1, 1, (n_rows, n_cols, side * side))
    return ImageGrid(
        images=images,
        side=side,
        row_labels=tuple(f"row {r}" for r in range(n_rows)),
        column_labels=tuple(str(c) for c in range(n_cols)),
        errors=rng.uniform(0, 50, (n_rows, n_cols)),
    )


@pytest.mark.parametrize(("n_rows", "n_cols", "side", "gap"), [(12, 10, 16, 1), (4, 3, 8, 2)])
def test_tile_places_each_image_and_leaves_nan_gaps(n_rows, n_cols, side, gap):
    grid = _grid(n_rows, n_cols, side)
    mosaic = tile(grid.images, side, gap=gap)
    step = side + gap
    assert mosaic.dtype == np.float32
    assert mosaic.shape == (n_rows * step - gap, n_cols * step - gap)
    r, c = n_rows - 1, n_cols // 2
    block = mosaic[r * step : r * step + side, c * step : c * step + side]
    np.testing.assert_allclose(block, grid.images[r, c].reshape(side, side), rtol=1e-6)
    assert np.isnan(mosaic[side : side + gap]).all()  # the gap under the first row
    assert np.isfinite(mosaic).sum() == n_rows * n_cols * side * side


def test_tile_rejects_images_of_the_wrong_size():
    with pytest.raises(ValueError, match="16 × 16"):
        tile(np.zeros((1, 1, 64)), 16)


def test_fig4_is_one_grey_heatmap_with_row_labels():
    grid = _grid(12, 10, 16)
    fig = fig4_figure(grid, title="Fig. 4")
    assert isinstance(fig, go.Figure)
    assert len(fig.data) == 1 and isinstance(fig.data[0], go.Heatmap)
    heatmap = fig.data[0]
    assert heatmap.z.dtype == np.float32 and heatmap.z.shape == (12 * 17 - 1, 10 * 17 - 1)
    assert (heatmap.zmin, heatmap.zmax) == (-1.0, 1.0)
    assert heatmap.showscale is False
    assert heatmap.colorscale[0][1] == "rgb(255,255,255)"  # background −1 is white
    assert tuple(fig.layout.yaxis.ticktext) == grid.row_labels
    np.testing.assert_allclose(fig.layout.yaxis.tickvals, 7.5 + 17 * np.arange(12))
    assert tuple(fig.layout.xaxis.ticktext) == grid.column_labels
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis.autorange == "reversed"
    assert fig.layout.xaxis.showgrid is False and fig.layout.yaxis.zeroline is False
    assert fig.layout.title.text == "Fig. 4"
    # white only behind the digits (the colour scale's −1): around them the page's
    # background shows, and the text takes the theme's colour (light on the dark theme)
    assert fig.layout.paper_bgcolor == fig.layout.plot_bgcolor == "rgba(0, 0, 0, 0)"
    assert fig.layout.font.color is None and fig.layout.title.font.color is None
    assert fig.layout.xaxis.tickfont.color is None and fig.layout.yaxis.tickfont.color is None
    assert np.isnan(heatmap.z[16, :]).all()  # the gaps between digits are transparent too


def test_side_by_side_writes_each_error_under_its_image():
    grid = _grid(4, 3, 8)
    fig = side_by_side_figure(grid)
    assert len(fig.data) == 1
    texts = [a.text for a in fig.layout.annotations]
    expected = [f"{e:.1f}" for e in grid.errors[1:].ravel()]  # none under the originals
    assert texts == expected
    assert fig.layout.paper_bgcolor == "rgba(0, 0, 0, 0)"
    assert all(a.font.color is None for a in fig.layout.annotations)  # the theme's text colour


def test_demo_figure_has_big_titled_images():
    images = np.zeros((1, 3, 256))
    grid = ImageGrid(images, 16, ("",), ("With noise", "Classic method", "Kernel method"))
    fig = demo_figure(grid)
    assert len(fig.data) == 1
    assert tuple(fig.layout.xaxis.ticktext) == grid.column_labels
    assert fig.layout.height >= 350
    # no white block on the dark theme: the page shows around the digits, in its text colour
    assert fig.layout.paper_bgcolor == fig.layout.plot_bgcolor == "rgba(0, 0, 0, 0)"
    assert fig.layout.xaxis.tickfont.color is None and fig.layout.font.color is None


def _sweep(ridge: bool) -> ErrorSweep:
    n = np.array([1, 2, 4, 8, 16, 32, 64, 128, 256])
    linear = ErrorCurve("linear PCA", n, np.array([100, 90, 80, 60, 55, 50, 70, 120, 250.0]))
    kernel = ErrorCurve("kernel PCA", n, np.array([120, 100, 85, 60, 45, 40, 35, 31, 30.0]))
    learned = ErrorCurve("kernel PCA, learned pre-image", n, np.full(9, 70.0)) if ridge else None
    return ErrorSweep(linear, kernel, learned, baseline_mse=250.0)


@pytest.mark.parametrize("width_px", [358, 500])
def test_error_curve_title_is_broken_to_fit_a_phone(width_px):
    prefix = "USPS: Gaussian noise σ = 0.5 (on the 0–1 scale), 500 test digits"
    wide = error_curve_figure(_sweep(False), title_prefix=prefix)
    narrow = error_curve_figure(_sweep(False), title_prefix=prefix, width_px=width_px)
    lines = narrow.layout.title.text.split("<br>")
    assert len(lines) > 2
    size = narrow.layout.title.font.size
    for line in lines:  # each line within the width, a <sup> line at plotly's 70 %
        small = line.startswith("<sup>")
        text = line.removeprefix("<sup>").removesuffix("</sup>")
        assert len(text) * style.CHAR_EM * size * (0.7 if small else 1.0) <= width_px
    # the same words, and room above the plot for the further lines
    words = " ".join(lines).replace("<sup>", " ").replace("</sup>", " ").split()
    assert words == wide.layout.title.text.replace("<br><sup>", " ").replace("</sup>", "").split()
    more = narrow.layout.margin.t - wide.layout.margin.t
    assert more == 20 * (len(lines) - 2) and narrow.layout.height - wide.layout.height == more
    # every other power of 2 on the axis, so that "512" and "1024" stay apart
    assert list(narrow.layout.xaxis.tickvals) == [1, 4, 16, 64, 256]
    assert len(wide.layout.xaxis.tickvals) == 9
    same = error_curve_figure(_sweep(False), title_prefix=prefix, width_px=style.NARROW_PX)
    assert same.to_dict() == wide.to_dict()


@pytest.mark.parametrize("ridge", [False, True])
def test_error_curve_figure_has_lines_best_n_and_ratios(ridge):
    sweep = _sweep(ridge)
    fig = error_curve_figure(sweep, chosen_n=16, title_prefix="USPS")
    lines = [t for t in fig.data if t.mode == "lines+markers"]
    stars = [t for t in fig.data if t.marker.symbol == "star"]
    colours = [style.LINEAR, style.KERNEL] + ([style.RIDGE] if ridge else [])
    assert [t.line.color for t in lines] == colours
    assert [t.marker.color for t in stars] == colours
    np.testing.assert_array_equal(lines[0].x, sweep.linear.n)
    np.testing.assert_allclose(lines[1].y, sweep.kernel.mse)
    assert lines[1].y.dtype == np.float32
    assert (stars[0].x[0], stars[0].y[0]) == (32, 50)
    assert (stars[1].x[0], stars[1].y[0]) == (256, 30)
    assert fig.layout.xaxis.type == "log"
    title = fig.layout.title.text
    assert "1.67× better at the best n (linear n = 32, kernel n = 256)" in title
    assert "8.3× (n = 256)" in title
    assert any(shape.x0 == 16 for shape in fig.layout.shapes)  # the chosen n
    assert any(shape.y0 == 250.0 for shape in fig.layout.shapes)  # the noisy baseline
    # no white block on the dark theme: the page's background, the theme's grid lines
    assert white_blocks(fig) == []
    assert fig.layout.xaxis.gridcolor is None and fig.layout.yaxis.gridcolor is None
    # the best n's label above its star and never cut by the plot area's edges
    stars = [trace for trace in fig.data if trace.name.startswith("best n")]
    assert stars and all(t.textposition == "top center" and not t.cliponaxis for t in stars)


def test_toy_figure_joins_each_point_to_its_denoised_version():
    rng = np.random.RandomState(0)
    noisy = rng.normal(size=(20, 2))
    results = [
        ToyDenoising(name, noisy, noisy * 0.5, noisy * 0.0, n_kernel=4)
        for name in ("half_circle", "square")
    ]
    fig = toy_figure(results)
    assert len(fig.data) == 2 * 2 * 3  # rows × methods × (segments, noisy, de-noised)
    segments = fig.data[0]
    assert segments.mode == "lines"
    xy = np.column_stack([segments.x, segments.y]).reshape(20, 3, 2)
    np.testing.assert_allclose(xy[:, 0], noisy, rtol=1e-6)
    np.testing.assert_allclose(xy[:, 1], noisy * 0.5, rtol=1e-6)
    assert np.isnan(xy[:, 2]).all()
    assert fig.data[2].marker.color == style.KERNEL and fig.data[5].marker.color == style.LINEAR
    titles = [a.text for a in fig.layout.annotations]
    assert titles[:2] == ["kernel PCA<br>4 components", "linear PCA<br>1 component"]
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis4.scaleanchor == "x4"
    assert white_blocks(fig) == []  # the page's background on the dark theme too


def test_mosaic_figure_height_grows_with_rows():
    small = mosaic_figure(np.zeros((2, 3, 64)), side=8, row_labels="ab", column_labels="xyz")
    big = mosaic_figure(np.zeros((12, 3, 64)), side=8, row_labels="a" * 12, column_labels="xyz")
    assert big.layout.height > small.layout.height


def test_toy_figure_for_a_projector_puts_the_panels_in_one_row_with_the_legend_below():
    noisy = np.random.RandomState(0).normal(size=(20, 2))
    results = [
        ToyDenoising(name, noisy, noisy * 0.5, noisy * 0.0, n_kernel=4)
        for name in ("half_circle", "square")
    ]
    fig = toy_figure(results, one_row=True)
    domains = [fig.layout[f"yaxis{i if i > 1 else ''}"].domain for i in range(1, 5)]
    assert all(tuple(d) == tuple(domains[0]) for d in domains)  # one row of four panels
    assert [a.text for a in fig.layout.annotations][1::2] == [
        "half circle<br>linear PCA<br>1 component",
        "square<br>linear PCA<br>1 component",
    ]
    assert fig.layout.legend.y < 0  # below the panels, clear of their titles
    assert fig.layout.yaxis4.scaleanchor == "x4"  # equal units on both axes in each panel
    rows = toy_figure(results)
    assert rows.layout.yaxis3.domain[1] < rows.layout.yaxis.domain[0]  # a row per data set


@pytest.mark.parametrize("build", [fig4_figure, side_by_side_figure])
def test_a_mosaics_title_is_broken_to_fit_a_phone(build):
    title = "USPS: Gaussian noise σ = 0.5 (0–1 intensity scale), n = 64"
    wide = build(_grid(4, 6, 16), title=title)
    narrow = build(_grid(4, 6, 16), title=title, width_px=358)
    assert wide.layout.title.text == title
    lines = narrow.layout.title.text.split("<br>")
    assert len(lines) > 1 and " ".join(lines) == title
    assert max(map(len, lines)) * style.CHAR_EM * narrow.layout.title.font.size <= 358
    # the lines centred in the margin: room above and below each further line
    more = 2 * style.TITLE_LINE_PX * (len(lines) - 1)
    assert narrow.layout.margin.t - wide.layout.margin.t == more
    assert narrow.layout.height - wide.layout.height == more


def test_error_curve_axis_title_stands_off_its_tick_labels_more_in_a_larger_room():
    """The n axis's title sets its gap to the tick labels, which a projector's copy grows with
    the room (the theme's 20 px put "number of components n" on "32" at 3840 × 2160)."""
    fig = error_curve_figure(_sweep(False), title_prefix="USPS")
    assert fig.layout.xaxis.title.standoff == style.AXIS_STANDOFF_PX
    big = style.for_projector(fig, height=440, room=3.0)
    assert big.layout.xaxis.title.standoff == 3 * style.AXIS_STANDOFF_PX
