"""The Contours figures: panels, ranges, titles, colours — checked on the figure itself."""

import itertools
import re

import contourpy
import numpy as np
import plotly.graph_objects as go
import pytest
from conftest import path_points, png_pixels, white_blocks

from kpca_core import contours as ct
from kpca_core.datasets import parabola, three_rings
from kpca_core.figures import contours as figures
from kpca_core.figures import panels, style


def plotly_rgb(colour: str) -> tuple[int, int, int]:
    """``"rgb(5,48,97)"`` as numbers."""
    return tuple(int(part) for part in colour[colour.index("(") + 1 : -1].split(","))


def _fig2(resolution: int = 30, pca: bool = False, n_components: int = 3) -> ct.ContourSweep:
    X, labels = parabola(300, 0.2, 0)
    specs = ct.sweep_specs(ct.KernelSpec("poly", gamma=1.0, coef0=0.0), "degree", (1, 2, 3, 4))
    if pca:
        specs.insert(0, ct.KernelSpec("pca"))
    return ct.contour_sweep(
        X,
        specs,
        n_components=n_components,
        parameter="degree",
        labels=labels,
        resolution=resolution,
    )


def _rings(sigmas=(0.5, 1.0, 2.0), n_components: int = 3) -> ct.ContourSweep:
    X, labels = three_rings(150, 0.25, 1)
    specs = ct.sweep_specs(ct.KernelSpec("rbf"), "sigma", sigmas)
    return ct.contour_sweep(
        X, specs, n_components=n_components, parameter="sigma", labels=labels, resolution=25
    )


def _panels(fig: go.Figure) -> list:
    """One colour image per panel that shows a component."""
    return [image for image in fig.layout.images if image.name != "data"]


def _dots(fig: go.Figure) -> list:
    """The data points' picture in every panel."""
    return [image for image in fig.layout.images if image.name == "data"]


def _shapes(fig: go.Figure, name: str) -> list:
    return [shape for shape in fig.layout.shapes if shape.name == name]


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
    notes = [a for a in fig.layout.annotations if "no 3rd component" in a.text]
    empty = [a.text for a in notes]
    assert len(empty) == (2 if pca else 1)
    # an empty panel is translucent grey with the theme's text colour (no white square on
    # the dark theme); between panels the page's own background
    assert len(_shapes(fig, "empty panel")) == len(empty)
    assert {shape.fillcolor for shape in _shapes(fig, "empty panel")} == {figures.EMPTY_FILL}
    assert {note.font.color for note in notes} == {None}
    assert {note.bgcolor for note in notes} == {None}
    assert fig.layout.plot_bgcolor == "rgba(0, 0, 0, 0)"
    assert len(_panels(fig)) == n_panels - len(empty)
    assert len(_shapes(fig, "contour lines")) == n_panels - len(empty)
    # the panels share one pair of hidden axes, each panel a shifted copy of the plane
    layout = fig.layout.to_plotly_json()
    assert sorted(key for key in layout if key.startswith(("xaxis", "yaxis"))) == [
        "xaxis",
        "yaxis",
    ]
    assert not layout["xaxis"]["visible"] and layout["yaxis"]["scaleanchor"] == "x"
    # the data on top of every panel with a component, one picture for all, where that
    # panel's colours are (an empty panel's reason is its content: no data under it)
    dots = _dots(fig)
    assert len(dots) == n_panels - len(empty) and len({image.source for image in dots}) == 1
    assert {image.layer for image in dots} == {"above"}
    shifts = {(round(image.x - dots[0].x, 9), round(image.y - dots[0].y, 9)) for image in dots}
    assert len(shifts) == n_panels - len(empty)
    colour = _panels(fig)
    assert {
        (round(image.x - colour[0].x, 9), round(image.y - colour[0].y, 9)) for image in colour
    } <= shifts
    # the data themselves are in the figure's data, in a trace that draws nothing
    (points,) = [trace for trace in fig.data if trace.name == "data"]
    assert points.mode == "none" and len(points.x) == 300


def test_panels_cover_the_data_side_by_side_within_the_axes():
    sweep = _rings()
    fig = figures.contour_figure(sweep)
    x, y = fig.layout.xaxis.range, fig.layout.yaxis.range
    low, high = sweep.X.min(axis=0), sweep.X.max(axis=0)
    images = _panels(fig)
    # the first panel is the plane itself, around the data
    first = images[0]
    assert first.x <= low[0] and first.x + first.sizex >= high[0]
    assert first.y >= high[1] and first.y - first.sizey <= low[1]
    # the panels of a row follow one another to the right, rows go down, none overlap;
    # a colour picture reaches half a grid cell beyond its grid, as a heatmap does
    n_cols = len(sweep.columns)
    half_x = (sweep.grid.xs[1] - sweep.grid.xs[0]) / 2 + 1e-9
    half_y = (sweep.grid.ys[1] - sweep.grid.ys[0]) / 2 + 1e-9
    for k, image in enumerate(images):
        assert x[0] - half_x <= image.x and image.x + image.sizex <= x[1] + half_x
        assert y[0] - half_y <= image.y - image.sizey and image.y <= y[1] + half_y
        if k % n_cols:
            assert image.x >= images[k - 1].x + images[k - 1].sizex
            assert image.y == images[k - 1].y
        elif k:
            assert image.y <= images[k - n_cols].y - images[k - n_cols].sizey
        assert (image.sizing, image.xanchor, image.yanchor, image.layer) == (
            "stretch",
            "left",
            "top",
            "below",
        )


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


def test_values_are_normalised_on_the_data():
    sweep = _fig2()
    for column in sweep.columns:
        # the largest magnitude on the data points is 1 by construction; the grid,
        # which reaches beyond the data, has values of that order
        assert np.all(np.abs(column.values).max(axis=(1, 2)) >= 0.5)


def test_one_colour_scale_symmetric_about_zero_and_colour_blind_safe():
    sweep = _rings()
    fig = figures.contour_figure(sweep)
    axis = fig.layout.coloraxis
    assert axis.cmin == -axis.cmax == -1.0
    assert [list(stop) for stop in axis.colorscale] == [list(stop) for stop in panels.COLORSCALE]
    assert style.DIVERGING == "RdBu_r"
    # the colour bar: a trace on the colour axis
    assert [trace.marker.coloraxis for trace in fig.data if trace.marker.coloraxis] == ["coloraxis"]
    # each panel's pixels are its values through that scale (256 colours of it),
    # top row first
    values = sweep.columns[0].values[0]
    rgb = png_pixels(_panels(fig)[0].source)
    assert rgb.shape == (*values.shape, 3)
    np.testing.assert_allclose(rgb, panels.colours(values[::-1]), atol=2)


def test_colours_follow_the_diverging_scale_and_saturate():
    rgb = panels.colours(np.array([-5.0, -1.0, 0.0, 1.0, 5.0]))
    first, middle, last = (
        np.array(plotly_rgb(panels.COLORSCALE[k][1])) for k in (0, len(panels.COLORSCALE) // 2, -1)
    )
    np.testing.assert_array_equal(rgb[[0, 1]], [first, first])
    np.testing.assert_array_equal(rgb[2], middle)
    np.testing.assert_array_equal(rgb[[3, 4]], [last, last])
    with pytest.raises(ValueError, match="finite"):
        panels.colours(np.array([0.0, np.nan]))


def _strays(points: np.ndarray, starts: np.ndarray, keep: np.ndarray) -> float:
    """How far the dropped vertices lie from the chords between the kept ones, at most."""
    worst = 0.0
    kept = np.flatnonzero(keep)
    for a, b in itertools.pairwise(kept):
        if starts[b]:
            continue  # b begins another line
        chord = points[b] - points[a]
        between = points[a + 1 : b] - points[a]
        cross = chord[0] * between[:, 1] - chord[1] * between[:, 0]
        worst = max(worst, *np.abs(cross) / np.hypot(*chord), 0.0)
    return worst


def test_contour_lines_lie_on_their_levels():
    xs = ys = np.linspace(-1.0, 1.0, 41)
    values = np.hypot(*np.meshgrid(xs, ys))  # circles of radius = value
    points, starts = panels.contour_lines(xs, ys, values, np.array([0.4, 0.8]))
    radii = np.hypot(points[:, 0], points[:, 1])
    assert starts.sum() == 2 and starts[0]
    np.testing.assert_allclose(radii[: np.flatnonzero(starts)[1]], 0.4, atol=2e-3)
    path = panels.lines_path(points, starts, 4)
    assert path.count("M") == 2 and path.startswith("M")
    np.testing.assert_allclose(path_points(path), points, atol=1e-4)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_contour_lines_are_contourpys_lines_level_by_level(seed):
    # levels beyond the values (skipped) and within them, a NaN hole in the grid
    rng = np.random.default_rng(seed)
    xs, ys = np.linspace(-1.0, 1.0, 30), np.linspace(0.0, 2.0, 25)
    values = rng.normal(size=(ys.size, xs.size)).cumsum(axis=1) / 4
    values[5, 7] = np.nan
    levels = np.linspace(-4.0, 4.0, 41)
    points, starts = panels.contour_lines(xs, ys, values, levels)
    expected = [
        line
        for level in levels
        for line in contourpy.contour_generator(xs, ys, values).lines(level)
        if len(line)
    ]
    lines = np.split(points, np.flatnonzero(starts)[1:])
    assert starts[0] and len(lines) == len(expected) > 10
    for line, reference in zip(lines, expected, strict=True):
        np.testing.assert_allclose(line, reference)


@pytest.mark.parametrize("tolerance", [1e-3, 4e-3])
@pytest.mark.parametrize("radius", [0.3, 0.8])
def test_thinned_lines_stray_within_the_tolerance_and_bends_keep_what_the_sagitta_needs(
    tolerance, radius
):
    xs = ys = np.linspace(-1.0, 1.0, 401)
    values = np.hypot(*np.meshgrid(xs, ys))
    points, starts = panels.contour_lines(xs, ys, values, np.array([radius]))
    keep = panels.thin(points, starts, tolerance)
    ends = np.append(np.flatnonzero(starts)[1:] - 1, len(points) - 1)
    assert keep[starts].all() and keep[ends].all()
    # a chord of length s across a circle of radius R strays by s² / 8R: a circle
    # needs 2πR / √(8 R tolerance) chords; kept: that many, up to 3 times (the
    # bends of a grid's polyline look sharper than the circle's)
    needed = 2 * np.pi * radius / np.sqrt(8 * radius * tolerance)
    assert needed <= keep.sum() <= 3 * needed < len(points)
    assert _strays(points, starts, keep) <= 2 * tolerance


def test_a_straight_line_keeps_a_vertex_every_longest_step():
    xs, ys = np.linspace(-1.0, 1.0, 201), np.linspace(0.0, 1.0, 101)
    values = np.broadcast_to(xs, (ys.size, xs.size))  # vertical lines x = value
    points, starts = panels.contour_lines(xs, ys, values, np.array([-0.5, 0.5]))
    assert starts.sum() == 2
    keep = panels.thin(points, starts, 1e-3, max_step=0.25)
    assert keep.sum() == 2 * (1 + 4)  # each line of length 1: its ends, 3 between
    assert _strays(points, starts, keep) < 1e-12


def test_the_lines_of_a_panel_are_its_contour_lines_every_level_step():
    sweep = _fig2()
    fig = figures.contour_figure(sweep)
    lines = _shapes(fig, "contour lines")
    assert lines[0].line.width == panels.LINE["width"]
    # degree 2, kPC 1: every vertex lies where the grid values cross a level
    first, second = _panels(fig)[:2]
    points = path_points(lines[1].path) - [second.x - first.x, second.y - first.y]
    values = sweep.columns[1].values[0]
    i = np.clip(np.searchsorted(sweep.grid.xs, points[:, 0]), 1, sweep.grid.xs.size - 1)
    j = np.clip(np.searchsorted(sweep.grid.ys, points[:, 1]), 1, sweep.grid.ys.size - 1)
    corners = np.stack([values[j, i], values[j - 1, i], values[j, i - 1], values[j - 1, i - 1]])
    low, high = corners.min(axis=0), corners.max(axis=0)
    levels = panels.LEVELS[None, :]
    crossed = (low[:, None] <= levels + 1e-6) & (levels - 1e-6 <= high[:, None])
    assert crossed.any(axis=1).all()
    assert panels.LEVELS[0] == -panels.LEVELS[-1] == -panels.LEVEL_MAX
    np.testing.assert_allclose(np.diff(panels.LEVELS), panels.LEVEL_STEP)


def test_dots_are_discs_whose_opacities_combine_like_layers_of_paint():
    X = np.array([[1.0, 1.0], [3.0, 2.0], [3.0, 2.0]])  # the last two on the same spot
    image = panels.dots_image(X, (0.0, 4.0), (0.0, 3.0), 10.0, 3.0, grey=10, opacity=0.5)
    assert image.shape == (30, 40, 2) and image.dtype == np.uint8
    assert np.all(image[..., 0] == 10)
    alpha = image[..., 1] / 255.0
    # centre pixels (rows from the top): one dot, then two stacked dots
    np.testing.assert_allclose(alpha[20, 10], 0.5, atol=1 / 255)
    np.testing.assert_allclose(alpha[10, 30], 1 - (1 - 0.5) ** 2, atol=1 / 255)
    # a disc of radius 3 px: its coverage adds up to its area
    single = alpha[14:27, 4:17]
    np.testing.assert_allclose(single.sum() / 0.5, np.pi * 3.0**2, rtol=0.05)
    assert alpha[:, :4].max() == 0 and alpha[0].max() == 0
    assert alpha[20, 10 + 4] == 0  # just beyond the edge


def test_png_pixels_round_trip():
    rng = np.random.default_rng(0)
    palette = rng.integers(0, 256, (256, 3), dtype=np.uint8)
    for channels in (1, 2, 3, 4):
        pixels = rng.integers(0, 256, (7, 5, channels), dtype=np.uint8)
        for sub_filter in (False, True):
            if channels == 1:  # indices into a palette, with and without opacities
                for colours in (palette, np.column_stack([palette, palette[:, 0]])):
                    uri = panels.png_data_uri(pixels, sub_filter=sub_filter, palette=colours)
                    np.testing.assert_array_equal(png_pixels(uri), colours[pixels[..., 0]])
            else:
                uri = panels.png_data_uri(pixels, sub_filter=sub_filter)
                np.testing.assert_array_equal(png_pixels(uri), pixels)


@pytest.mark.parametrize("seed", [0, 1])
def test_a_colour_picture_is_the_nearest_of_256_colours_of_the_scale(seed):
    values = np.random.default_rng(seed).uniform(-1.5, 1.5, (30, 40))
    rgb = png_pixels(panels.colour_png(values)).astype(int)
    assert rgb.shape == (30, 40, 3)
    np.testing.assert_allclose(rgb, panels.colours(values), atol=2)
    # the palette's colours are the scale's at 256 evenly spaced values
    levels = np.linspace(-1.0, 1.0, 256)
    np.testing.assert_array_equal(panels.PALETTE, panels.colours(levels))
    nearest = np.abs(np.clip(values, -1, 1)[..., None] - levels).argmin(axis=-1)
    np.testing.assert_array_equal(rgb, panels.PALETTE[nearest])
    with pytest.raises(ValueError, match="finite"):
        panels.colour_png(np.array([[0.0, np.inf]]))


def test_a_column_that_cannot_be_computed_is_an_explained_empty_column():
    sweep = _rings(sigmas=(0.0005, 1.0))
    fig = figures.contour_figure(sweep)
    assert len(_panels(fig)) == 3
    texts = [a.text.replace("<br>", " ") for a in fig.layout.annotations]
    assert any(
        "every point is its own component: see the note under the figure" in text for text in texts
    )
    assert sum(text == "no picture" for text in texts) == 2
    assert any(title.endswith("—") for title in _panel_titles(fig))


@pytest.mark.parametrize("width_px", [figures.FIGURE_PX, 500, 358])
def test_why_a_panel_is_empty_is_written_within_the_panel(width_px):
    """Degree 1 has no third component; its reason's lines fit its panel, on a phone too."""
    fig = figures.contour_figure(_fig2(), width_px=width_px)
    (empty,) = [s for s in fig.layout.shapes if s.name == "empty panel"]
    x_range = fig.layout.xaxis.range
    plot_px = width_px - fig.layout.margin.l - fig.layout.margin.r
    panel_px = (empty.x1 - empty.x0) / (x_range[1] - x_range[0]) * plot_px
    (reason,) = [a for a in fig.layout.annotations if "eigenvalues" in a.text]
    longest = max(len(line) for line in reason.text.split("<br>"))
    assert longest * style.CHAR_EM * reason.font.size <= panel_px


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
    assert white_blocks(fig) == []  # the page's background on the dark theme too


def test_projection_figure_with_one_group_has_no_legend():
    """One group: no legend, and the series is "the data" (read so by the chart's explorer)."""
    fig = figures.projection_figure(_fig2(), 2, 1, 3)
    assert len(fig.data) == 1 and not fig.layout.showlegend
    assert fig.data[0].name == "the data" and "the data" in fig.data[0].hovertemplate


def test_projection_figure_explains_a_missing_component():
    fig = figures.projection_figure(_fig2(), 0, 1, 3)
    assert len(fig.data) == 0
    (note,) = fig.layout.annotations
    assert "no 3rd component" in note.text.replace("<br>", " ")
    assert white_blocks(fig) == []  # an empty panel is no white square on the dark theme


def test_large_data_are_still_a_few_shapes_per_panel():
    X, labels = three_rings(1500, 0.25, 0)
    sweep = ct.contour_sweep(
        X, [ct.KernelSpec("linear")], n_components=1, labels=labels, resolution=10
    )
    fig = figures.contour_figure(sweep)
    assert {trace.type for trace in fig.data} == {"scatter"}
    assert all(
        trace.mode in ("none", "markers") and len(trace.x) in (1, 1500) for trace in fig.data
    )
    (dots,) = _dots(fig)
    alpha = png_pixels(dots.source)[..., -1]
    height, width = alpha.shape
    # every point shows: its pixel in the picture is painted
    columns = ((sweep.X[:, 0] - dots.x) / dots.sizex * width).astype(int)
    rows = ((dots.y - sweep.X[:, 1]) / dots.sizey * height).astype(int)
    assert np.all(alpha[rows.clip(0, height - 1), columns.clip(0, width - 1)] > 0)


def test_dots_are_small_markers_at_the_planned_width():
    sweep = _fig2()
    fig = figures.contour_figure(sweep)
    layout = fig.layout
    plot_w = figures.FIGURE_PX - layout.margin.l - layout.margin.r
    plot_h = layout.height - layout.margin.t - layout.margin.b
    # equal units on both axes: the scale is what fits the plot both ways
    px_per_unit = min(plot_w / np.ptp(layout.xaxis.range), plot_h / np.ptp(layout.yaxis.range))
    dots = _dots(fig)[0]
    # the picture spans the grid of the first panel, sharper than the screen
    np.testing.assert_allclose([dots.x, dots.x + dots.sizex], sweep.grid.xs[[0, -1]])
    np.testing.assert_allclose([dots.y - dots.sizey, dots.y], sweep.grid.ys[[0, -1]])
    height, width, _ = png_pixels(dots.source).shape
    scale = panels.DOTS_OVERSAMPLING * px_per_unit
    assert abs(width - dots.sizex * scale) <= 1 and abs(height - dots.sizey * scale) <= 1
    # painted: about 300 discs of diameter POINT_PX on screen, fewer where they overlap
    alpha = png_pixels(dots.source)[..., -1] / 255.0
    painted = alpha.sum() / panels.POINT_OPACITY / panels.DOTS_OVERSAMPLING**2
    disc = np.pi * (panels.POINT_PX / 2) ** 2
    assert 0.5 * 300 * disc < painted <= 1.01 * 300 * disc


@pytest.mark.parametrize("height", [440, 480, 600])
def test_a_height_limit_fits_every_row_and_keeps_the_titles_room(height):
    sweep = _fig2(pca=False)
    free = figures.contour_figure(sweep, title="parabola", width_px=1232)
    assert free.layout.height > height  # the limit binds
    fig = figures.contour_figure(sweep, title="parabola", width_px=1232, height_px=height)
    assert height - 3 <= fig.layout.height <= height
    assert fig.layout.width == 1232
    # the panels shrink, but the titles keep their room: the first row's name the column
    # (two lines, TITLE_PX), the others' are one line (FITTED_TITLE_PX)
    y0, y1 = fig.layout.yaxis.range
    plot_px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    px_per_unit = plot_px / (y1 - y0)
    rows = sorted({a.y for a in fig.layout.annotations if "kPC" in a.text}, reverse=True)
    assert (y1 - rows[0]) * px_per_unit == pytest.approx(figures.TITLE_PX, rel=0.02)
    titles = [a.text for a in fig.layout.annotations if "kPC" in a.text]
    assert sum("<br>" in text for text in titles) == 4  # one per column
    assert fig.layout.coloraxis.colorbar.orientation != "h"  # at the right, not below


@pytest.mark.parametrize("width", [804, 1232])
def test_a_fitted_figures_titles_fit_their_columns(width):
    """A lesson's slide beside the sidebar is ~800 px wide: "kPC k" and λ on two lines
    there, so that the enlarged titles of neighbouring columns do not overlap."""
    sweep = _fig2(pca=False)
    fig = figures.contour_figure(sweep, width_px=width, height_px=380)
    titles = [a.text for a in fig.layout.annotations if "kPC" in a.text]
    # four columns, or eight where the rows stand in two blocks side by side
    n_columns = len({round(a.x, 6) for a in fig.layout.annotations if "kPC" in a.text})
    column_px = (width - figures.FITTED_MARGIN["l"] - figures.FITTED_MARGIN["r"]) / n_columns
    lines = [line for text in titles for line in text.split("<br>")[-2:]]
    font_px = figures.TITLE_FONT_PX * style.FONT_SCALE
    assert max(map(style.text_em, lines)) * font_px <= column_px
    split = " · " not in titles[0]
    assert all((" · " in text) != split for text in titles)  # "kPC k · λ …" or two lines
    y0, y1 = fig.layout.yaxis.range
    plot_px = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    first = max(a.y for a in fig.layout.annotations if "kPC" in a.text)
    room = figures.TITLE_PX + split * figures.FITTED_LINE_PX
    assert (y1 - first) * plot_px / (y1 - y0) == pytest.approx(room, rel=0.02)


def test_a_desktop_slides_titles_stay_on_one_line_where_they_fit():
    """The lesson's Fig. 2 slide at 1280 x 720 without presenter mode (two components, a
    figure 1104 px wide): "kPC 1 · λ = 0.337 (70.2%)" is drawn ~192 px wide in a 235 px
    column. Estimated at 0.56 em a character (235.2 px) it was broken onto two lines,
    which took the panels a line's height."""
    fig = figures.contour_figure(_fig2(n_components=2), width_px=1104, height_px=380)
    titles = [a.text for a in fig.layout.annotations if "kPC" in a.text]
    assert len(titles) == 8
    assert all(" · " in text.split("<br>")[-1] for text in titles)


def _title_boxes(fig: go.Figure) -> list[tuple[float, float, float, float, str]]:
    """Each panel title's box in pixels (left, right, bottom, top), estimated as the
    figure builder does (0.56 em a character), from the figure's axes and size."""
    layout = fig.layout
    plot_w = layout.width - layout.margin.l - layout.margin.r
    x0, x1 = layout.xaxis.range
    per_unit = plot_w / (x1 - x0)
    boxes = []
    for a in layout.annotations:
        if "kPC" not in a.text:
            continue
        lines = [re.sub("<[^>]+>", "", line) for line in a.text.split("<br>")]
        half = max(map(len, lines)) * 0.56 * figures.TITLE_FONT_PX / 2
        x = layout.margin.l + (a.x - x0) * per_unit
        y = a.y * per_unit
        boxes.append((x - half, x + half, y, y + len(lines) * 1.2 * figures.TITLE_FONT_PX, a.text))
    return boxes


@pytest.mark.parametrize("width", [360, 500])
def test_on_a_phone_the_columns_wrap_into_blocks_whose_titles_fit(width):
    sweep = _fig2(pca=True)
    fig = figures.contour_figure(sweep, title="Parabola", width_px=width)
    go.Figure(fig.to_dict())  # valid plotly
    assert fig.layout.width == width
    wrap = figures.columns_per_block(sweep, width)
    assert 1 <= wrap < len(sweep.columns)
    boxes = _title_boxes(fig)
    assert len(boxes) == len(sweep.columns) * sweep.n_components
    assert len({round(box[0] + box[1], 3) for box in boxes}) == wrap  # side by side
    for left, right, _, _, text in boxes:
        assert left >= 0 and right <= width, text
    for k, one in enumerate(boxes):
        for other in boxes[k + 1 :]:
            apart = one[1] <= other[0] or other[1] <= one[0] or one[3] <= other[2]
            apart = apart or other[3] <= one[2]
            assert apart, (one[4], other[4])
    # every column's panels, all its components, in one block
    rows = {text.split("</b>")[0]: set() for *_, text in boxes}
    for _, _, bottom, _, text in boxes:
        rows[text.split("</b>")[0]].add(round(bottom, 3))
    assert all(len(shown) == sweep.n_components for shown in rows.values())


def test_at_the_page_width_every_column_stands_in_one_row():
    sweep = _fig2(pca=True)
    assert figures.columns_per_block(sweep, figures.FIGURE_PX) == len(sweep.columns)
    boxes = _title_boxes(figures.contour_figure(sweep))
    assert len({round(box[2], 3) for box in boxes}) == sweep.n_components


@pytest.mark.parametrize("width_px", [358, 500])
def test_the_title_is_broken_to_fit_a_phone(width_px):
    title = "Parabola y = x² + noise (Schölkopf et al. Fig. 2): 300 points, noise 0.2, seed 0"
    wide = figures.contour_figure(_fig2(), title=title)
    narrow = figures.contour_figure(_fig2(), title=title, width_px=width_px)
    assert wide.layout.title.text == title
    lines = narrow.layout.title.text.split("<br>")
    assert len(lines) > 1 and " ".join(lines) == title
    size = figures.TITLE_EM * narrow.layout.font.size
    assert max(map(len, lines)) * style.CHAR_EM * size <= width_px - style.TITLE_PAD_PX
    assert narrow.layout.margin.t == figures.contour_figure(
        _fig2(), title="short", width_px=width_px
    ).layout.margin.t + style.TITLE_LINE_PX * (len(lines) - 1)


def test_the_grid_draws_the_lines_its_columns_traced_and_traces_none_itself(monkeypatch):
    sweep = _fig2()
    column = sweep.columns[1]  # degree 2
    for (points, starts), values in zip(column.lines, column.values, strict=True):
        expected = panels.contour_lines(sweep.grid.xs, sweep.grid.ys, values)
        np.testing.assert_array_equal(points, expected[0])
        np.testing.assert_array_equal(starts, expected[1])

    def traced(*args: object, **kwargs: object) -> None:
        raise AssertionError("the figure traced contour lines itself")

    monkeypatch.setattr(contourpy, "contour_generator", traced)
    fig = figures.contour_figure(sweep)  # a cached column's lines are not traced again
    first, second = _panels(fig)[:2]
    drawn = path_points(_shapes(fig, "contour lines")[1].path)
    shift = [second.x - first.x, second.y - first.y]
    points, _ = column.lines[0]  # its vertices, shifted to its panel (some thinned out)
    np.testing.assert_allclose(drawn[0], points[0] + shift, atol=1e-2)
