"""Figure builders of the Spectrum view: what each figure draws, without a browser."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from conftest import path_points, png_pixels

from kpca_core import KernelPCA
from kpca_core.datasets import gaussian_clusters, parabola, three_rings
from kpca_core.figures import panels, style
from kpca_core.figures import spectrum as figures
from kpca_core.spectrum import CONSTANT, IDENTITY, WidthSweep, component_grid


@pytest.fixture(scope="module")
def rings_sweep() -> WidthSweep:
    return WidthSweep("rbf", n_widths=20).fit(three_rings(120, 0.25, 0)[0])


@pytest.fixture(scope="module")
def limits_sweep() -> WidthSweep:
    """Wide enough to reach both limits: identity on the left, constant on the right."""
    return WidthSweep("rbf", decades=(-8.0, 11.0), n_widths=39).fit(three_rings(90, 0.25, 0)[0])


def shapes_named(fig: go.Figure, name: str) -> list:
    return [shape for shape in fig.layout.shapes if shape.name == name]


def annotations_named(fig: go.Figure, name: str) -> list:
    return [note for note in fig.layout.annotations if note.name == name]


def trace(fig: go.Figure, name: str):
    (found,) = [t for t in fig.data if t.name == name]
    return found


# --------------------------------------------------------------- figure 1
@pytest.mark.parametrize("n_leading", [1, 6, 12])
def test_ratio_lines_draw_the_leading_components_and_the_share(
    rings_sweep: WidthSweep, n_leading: int
) -> None:
    fig = figures.ratio_lines_figure(rings_sweep, n_leading=n_leading, chosen=4)
    for k in range(n_leading):
        line = trace(fig, f"λ<sub>{k + 1}</sub>/Σλ")
        np.testing.assert_allclose(line.y, rings_sweep.ratios_[:, k], rtol=1e-6)
        assert line.y.dtype == np.float32
    share = trace(fig, "(λ<sub>1</sub>+λ<sub>2</sub>)/Σλ")
    np.testing.assert_allclose(share.y, rings_sweep.share(2), rtol=1e-6)
    assert share.line.color == style.KERNEL
    np.testing.assert_allclose(share.x, rings_sweep.widths_, rtol=1e-6)
    assert fig.layout.xaxis.type == "log"
    assert "Gaussian width σ" in fig.layout.xaxis.title.text


def test_ratio_lines_show_linear_pca_and_the_narrow_limit(rings_sweep: WidthSweep) -> None:
    fig = figures.ratio_lines_figure(rings_sweep)
    linear = [t for t in fig.data if t.legendgroup == "linear"]
    assert [t.y[0] for t in linear] == pytest.approx(rings_sweep.linear_ratios_, rel=1e-6)
    assert all(t.line.color == style.LINEAR for t in linear)
    narrow = trace(fig, "narrow limit 1/(M−1)")
    assert narrow.y[0] == pytest.approx(1 / 119, rel=1e-6)


def test_the_chosen_width_is_marked(rings_sweep: WidthSweep) -> None:
    value = rings_sweep.widths_[7]
    fig = figures.ratio_lines_figure(rings_sweep, chosen=7)
    (line,) = shapes_named(fig, "chosen")
    assert line.x0 == line.x1 == pytest.approx(value)
    (label,) = annotations_named(fig, "chosen")
    assert label.text == f"σ = {value:.3g}"
    # annotations on a log axis are placed by log10 of the value
    assert label.x == pytest.approx(np.log10(value))
    for build in (figures.spectrum_heatmap_figure, figures.effective_components_figure):
        (line,) = shapes_named(build(rings_sweep, chosen=7), "chosen")
        assert line.x0 == pytest.approx(value)
    assert not shapes_named(figures.ratio_lines_figure(rings_sweep), "chosen")


def test_marks_from_a_paper_are_drawn(rings_sweep: WidthSweep) -> None:
    fig = figures.ratio_lines_figure(rings_sweep, marks=[(5.42, "D&K c = 0.017")])
    (mark,) = shapes_named(fig, "mark")
    assert mark.x0 == 5.42
    assert annotations_named(fig, "mark")[0].text == "D&K c = 0.017"


def test_limit_regimes_are_shaded_and_labelled(limits_sweep: WidthSweep) -> None:
    runs = figures.regime_runs(limits_sweep)
    assert [regime for regime, _, _ in runs] == [IDENTITY, CONSTANT]
    identity_widths = limits_sweep.widths_[limits_sweep.regime_ == IDENTITY]
    assert runs[0][1] < identity_widths.min() and runs[0][2] > identity_widths.max()
    for build in (
        figures.ratio_lines_figure,
        figures.spectrum_heatmap_figure,
        figures.effective_components_figure,
    ):
        fig = build(limits_sweep)
        texts = [note.text for note in fig.layout.annotations]
        assert any("K ≈ I" in text for text in texts)
        assert any("K ≈ constant" in text for text in texts)
        assert {shape.name for shape in fig.layout.shapes} >= {IDENTITY, CONSTANT}


def test_no_regime_labels_inside_the_ordinary_range(rings_sweep: WidthSweep) -> None:
    fig = figures.ratio_lines_figure(rings_sweep)
    assert not figures.regime_runs(rings_sweep)
    assert not [note for note in fig.layout.annotations if "K ≈" in (note.text or "")]


# --------------------------------------------------------------- figure 2
def test_heatmap_is_the_whole_spectrum_in_log10(rings_sweep: WidthSweep) -> None:
    fig = figures.spectrum_heatmap_figure(rings_sweep, chosen=3)
    (heatmap,) = fig.data
    M, n = rings_sweep.n_samples_, rings_sweep.widths_.size
    assert heatmap.z.shape == (M, n) and heatmap.z.dtype == np.float32
    with np.errstate(divide="ignore"):
        expected = np.log10(rings_sweep.ratios_.T)
    zeros = rings_sweep.ratios_.T == 0
    assert np.all(np.isnan(heatmap.z[zeros]))  # clipped eigenvalues are blank
    np.testing.assert_allclose(heatmap.z[~zeros], expected[~zeros], rtol=1e-5)
    # brick edges: geometric midpoints between the log-spaced widths
    assert heatmap.x.size == n + 1
    np.testing.assert_allclose(
        heatmap.x[1:-1], np.sqrt(rings_sweep.widths_[1:] * rings_sweep.widths_[:-1]), rtol=1e-6
    )
    assert heatmap.colorscale == go.Heatmap(colorscale=style.SEQUENTIAL).colorscale
    assert fig.layout.yaxis.type == "log"


def test_heatmap_bins_the_tail_of_a_long_spectrum(rings_sweep: WidthSweep) -> None:
    fig = figures.spectrum_heatmap_figure(rings_sweep, max_rows=40)
    (heatmap,) = fig.data
    rows = heatmap.z.shape[0]
    assert rows < rings_sweep.n_samples_
    assert heatmap.y.size == rows + 1 and heatmap.y[-1] == rings_sweep.n_samples_ + 0.5
    with np.errstate(divide="ignore"):
        first = np.log10(rings_sweep.ratios_[:, 0])
    np.testing.assert_allclose(heatmap.z[0], first, rtol=1e-5)  # leading rows stay single


# --------------------------------------------------------------- figure 3
def test_effective_components_for_90_and_95_percent(rings_sweep: WidthSweep) -> None:
    fig = figures.effective_components_figure(rings_sweep)
    for fraction, name in ((0.90, "kernel PCA, 90 %"), (0.95, "kernel PCA, 95 %")):
        np.testing.assert_array_equal(
            trace(fig, name).y, rings_sweep.effective_components(fraction)
        )
    # linear PCA on three rings (round): 2 components for 90 %
    assert list(trace(fig, "linear PCA, 90 %").y) == [2, 2]
    assert fig.layout.yaxis.type == "log"


# -------------------------------------------------------------- figure 4a
@pytest.mark.parametrize("log", [False, True])
def test_bars_are_the_spectrum_at_the_chosen_width(rings_sweep: WidthSweep, log: bool) -> None:
    index = 12
    fig = figures.spectrum_bars_figure(rings_sweep, index, n_bars=15, log=log)
    bars = trace(fig, "kernel PCA λ<sub>k</sub>/Σλ")
    np.testing.assert_allclose(bars.y, rings_sweep.ratios_[index, :15], rtol=1e-6)
    cumulative = trace(fig, "cumulative share")
    np.testing.assert_allclose(cumulative.y, np.cumsum(rings_sweep.ratios_[index, :15]), rtol=1e-6)
    np.testing.assert_allclose(
        trace(fig, "linear PCA λ<sub>k</sub>/Σλ").y, rings_sweep.linear_ratios_, rtol=1e-6
    )
    assert fig.layout.yaxis.type == ("log" if log else "linear")
    value = rings_sweep.widths_[index]
    assert f"σ = {value:.3g}" in fig.layout.title.text


def test_linear_bars_have_a_round_top_that_each_frame_names(limits_sweep: WidthSweep) -> None:
    """The linear bars' y axis ends at a round top over the highest bar or linear PCA marker,
    and every scrubbed frame names its own: the browser moves the bars alone while it is the
    drawn one (kpca_ui/chart.js, glide)."""
    index = int(np.flatnonzero(~np.isnan(limits_sweep.ratios_[:, 0]))[0])
    frames = figures.spectrum_bars_frames(limits_sweep, index)
    assert frames
    tops = set()
    for at, frame in frames.items():
        fig = figures.spectrum_bars_figure(limits_sweep, at)
        low, top = fig.layout.yaxis.range
        assert frame["layout"]["yaxis"] == {"range": [low, top]} and low == 0
        high = max(
            np.max(trace(fig, name).y)
            for name in ("kernel PCA λ<sub>k</sub>/Σλ", "linear PCA λ<sub>k</sub>/Σλ")
        )
        assert 1.05 * high <= top * (1 + 1e-9) <= 1.05 * high * 4 / 3  # round, a little above
        tops.add(top)
    assert len(tops) < len(frames) / 2  # the same top over many widths
    log = figures.spectrum_bars_frames(limits_sweep, index, log=True)
    assert all("yaxis" not in frame["layout"] for frame in log.values())
    assert figures.spectrum_bars_figure(limits_sweep, index, log=True).layout.yaxis.range is None


def test_log_bars_leave_clipped_zeros_out() -> None:
    sweep = WidthSweep("poly", degree=2, n_widths=3).fit(parabola(60, 0.2, 0)[0])
    fig = figures.spectrum_bars_figure(sweep, 1, n_bars=10, log=True)
    bars = trace(fig, "kernel PCA λ<sub>k</sub>/Σλ")
    assert np.all(np.isfinite(bars.y[:5])) and np.all(np.isnan(bars.y[5:]))
    assert "c = " in fig.layout.title.text


def test_bars_at_a_noise_width_say_so() -> None:
    sweep = WidthSweep("rbf", n_widths=2).fit(three_rings(30, 0.25, 0)[0])
    sweep.ratios_[1] = np.nan  # as _summarise leaves a width at the rounding level
    fig = figures.spectrum_bars_figure(sweep, 1)
    assert not fig.data
    assert "zero up to rounding" in annotations_named(fig, CONSTANT)[0].text


def test_degree_sweep_has_a_linear_integer_axis() -> None:
    sweep = WidthSweep("poly", sweep="degree", max_degree=5).fit(parabola(60, 0.2, 0)[0])
    fig = figures.ratio_lines_figure(sweep, chosen=2)
    assert fig.layout.xaxis.type == "linear" and fig.layout.xaxis.dtick == 1
    assert annotations_named(fig, "chosen")[0].text == "d = 3"
    assert "degree d" in fig.layout.xaxis.title.text
    (heatmap,) = figures.spectrum_heatmap_figure(sweep).data
    np.testing.assert_allclose(heatmap.x, [0.5, 1.5, 2.5, 3.5, 4.5, 5.5])


# -------------------------------------------------------------- figure 4b
@pytest.fixture(scope="module")
def maps_input() -> tuple:
    X = three_rings(90, 0.25, 0)[0]
    model = KernelPCA(2, kernel="rbf", gamma=0.2).fit(X)
    xs, ys, values = component_grid(model, X, resolution=20)
    return xs, ys, values, X


def bilinear(xs: np.ndarray, ys: np.ndarray, values: np.ndarray, points: np.ndarray):
    """``values`` on the grid (xs, ys) interpolated bilinearly at ``points``."""
    i = np.clip(np.searchsorted(xs, points[:, 0]), 1, xs.size - 1)
    j = np.clip(np.searchsorted(ys, points[:, 1]), 1, ys.size - 1)
    tx = (points[:, 0] - xs[i - 1]) / (xs[i] - xs[i - 1])
    ty = (points[:, 1] - ys[j - 1]) / (ys[j] - ys[j - 1])
    bottom = values[j - 1, i - 1] * (1 - tx) + values[j - 1, i] * tx
    top = values[j, i - 1] * (1 - tx) + values[j, i] * tx
    return bottom * (1 - ty) + top * ty


def maps_images(fig: go.Figure) -> tuple[list, list]:
    """The colour images and the data's dot pictures of a maps figure."""
    images = list(fig.layout.images)
    return [i for i in images if i.name != "data"], [i for i in images if i.name == "data"]


def test_component_maps_colour_each_component_over_its_largest_value(maps_input) -> None:
    xs, ys, values, X = maps_input
    fig = figures.component_maps_figure(xs, ys, values, X, title="maps")
    colour, _ = maps_images(fig)
    assert [(image.xref, image.yref) for image in colour] == [("x", "y"), ("x2", "y2")]
    for k, image in enumerate(colour):
        # each component over its largest |value| on the grid: one scale for both
        expected = panels.colours(values[k] / np.abs(values[k]).max())
        np.testing.assert_allclose(png_pixels(image.source), expected[::-1], atol=2)
        assert image.layer == "below"
        # one pixel per grid point, centred on it, as a heatmap
        dx, dy = xs[1] - xs[0], ys[1] - ys[0]
        assert image.x == pytest.approx(xs[0] - dx / 2)
        assert image.y == pytest.approx(ys[-1] + dy / 2)
        assert image.sizex == pytest.approx(xs[-1] - xs[0] + dx)
        assert image.sizey == pytest.approx(ys[-1] - ys[0] + dy)


def test_component_maps_draw_each_components_contour_lines(maps_input) -> None:
    xs, ys, values, X = maps_input
    fig = figures.component_maps_figure(xs, ys, values, X)
    lines = [shape for shape in fig.layout.shapes if shape.name == "contour lines"]
    assert [(shape.xref, shape.yref) for shape in lines] == [("x", "y"), ("x2", "y2")]
    for k, shape in enumerate(lines):
        normalised = values[k] / np.abs(values[k]).max()
        points = path_points(shape.path)
        # every vertex lies on a level of its own component
        on_grid = bilinear(xs, ys, normalised, points)
        nearest = panels.LEVELS[np.abs(on_grid[:, None] - panels.LEVELS).argmin(axis=1)]
        np.testing.assert_allclose(on_grid, nearest, atol=2e-3)
        # every level between the component's extremes is drawn, none beyond them
        low, high = normalised.min(), normalised.max()
        levels, drawn = panels.LEVELS, set(np.round(nearest, 6))
        assert set(np.round(levels[(levels > low) & (levels < high)], 6)) <= drawn
        assert drawn <= set(np.round(levels[(levels >= low) & (levels <= high)], 6))
        assert shape.line.width == panels.LINE["width"]


def test_component_maps_show_the_data_as_dots_and_keep_them_as_data(maps_input) -> None:
    xs, ys, values, X = maps_input
    fig = figures.component_maps_figure(xs, ys, values, X)
    _, dots = maps_images(fig)
    assert [(image.xref, image.yref) for image in dots] == [("x", "y"), ("x2", "y2")]
    assert dots[0].source == dots[1].source  # one picture, decoded once by the browser
    for image in dots:
        assert image.layer == "above"  # on top of the colours
        assert [image.x, image.x + image.sizex] == pytest.approx([xs[0], xs[-1]])
        assert [image.y - image.sizey, image.y] == pytest.approx([ys[0], ys[-1]])
    alpha = png_pixels(dots[0].source)[..., -1]
    height, width = alpha.shape
    # a dot at every data point (rows from the top), the picture mostly clear
    column = ((X[:, 0] - xs[0]) / (xs[-1] - xs[0]) * width).astype(int)
    row = ((ys[-1] - X[:, 1]) / (ys[-1] - ys[0]) * height).astype(int)
    assert np.all(alpha[np.clip(row, 0, height - 1), np.clip(column, 0, width - 1)] > 0)
    assert np.mean(alpha > 0) < 0.5
    # planned for a panel of the maps' width on the page: dots a few pixels wide
    on_screen = width / panels.DOTS_OVERSAMPLING
    assert 100 < on_screen < figures.MAPS_PX / 2
    (points,) = [t for t in fig.data if t.name == "data"]
    assert points.mode == "none"
    np.testing.assert_allclose(points.x, X[:, 0], rtol=1e-6)
    np.testing.assert_allclose(points.y, X[:, 1], rtol=1e-6)


def test_component_maps_share_a_symmetric_colour_bar(maps_input) -> None:
    fig = figures.component_maps_figure(*maps_input)
    axis = fig.layout.coloraxis
    assert axis.cmin == -1 and axis.cmax == 1
    assert axis.colorscale == go.layout.Coloraxis(colorscale=panels.COLORSCALE).colorscale
    # the same colours as the named diverging scale (stops equal up to rounding)
    named = go.Heatmap(colorscale=style.DIVERGING).colorscale
    assert [colour for _, colour in axis.colorscale] == [colour for _, colour in named]
    np.testing.assert_allclose([t for t, _ in axis.colorscale], [t for t, _ in named])
    assert axis.colorbar.title.text == "value /<br>max|value|"
    assert list(axis.colorbar.tickvals) == [-1, -0.5, 0, 0.5, 1]
    # plotly draws a colour bar only for a trace on the colour axis
    assert [t for t in fig.data if t.marker.coloraxis == "coloraxis"]


def test_component_maps_layout(maps_input) -> None:
    fig = figures.component_maps_figure(*maps_input, title="maps")
    assert fig.layout.title.text == "maps"
    assert fig.layout.height == figures.HEIGHT - 60
    texts = [note.text for note in fig.layout.annotations]
    assert texts == ["component 1", "component 2"]
    assert fig.layout.template.layout.plot_bgcolor == "white"
    first, second = fig.layout.xaxis, fig.layout.xaxis2
    assert first.domain[1] < second.domain[0]  # side by side, apart
    # equal aspect: contours are not squashed
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis2.scaleanchor == "x2"
    # no grid lines over the colour pictures
    assert not first.showgrid and not fig.layout.yaxis2.showgrid


@pytest.mark.parametrize("n_components", [1, 2])
def test_component_maps_are_valid_plotly(maps_input, n_components: int) -> None:
    xs, ys, values, X = maps_input
    fig = figures.component_maps_figure(xs, ys, values[:n_components], X, title="maps")
    spec = fig.to_dict()
    checked = go.Figure(spec)  # validates every property
    assert len(checked.layout.images) == 2 * n_components
    assert len(checked.layout.shapes) == n_components
    assert len(checked.layout.annotations) == n_components


def test_projection_scatter_colours_each_group() -> None:
    X, labels = gaussian_clusters(110, 0.1, 0)
    Z = KernelPCA(2, kernel="rbf", gamma=0.5).fit_transform(X)
    fig = figures.projection_figure(Z, labels, title="projection")
    assert len(fig.data) == 11
    assert len({t.marker.color for t in fig.data}) == 11
    total = sum(t.x.size for t in fig.data)
    assert total == 110


def test_components_at_a_width_come_from_a_fit_at_that_width() -> None:
    X = three_rings(60, 0.25, 0)[0]
    sweep = WidthSweep("rbf", n_widths=5).fit(X)
    fig = figures.components_at_figure(sweep, 2)
    assert fig.layout.title.text == f"The first two components at σ = {sweep.widths_[2]:.3g}"
    xs, ys, values = component_grid(sweep.fit_at(2, n_components=2), sweep.X_fit_)
    same = figures.component_maps_figure(xs, ys, values, sweep.X_fit_, title=fig.layout.title.text)
    drawn = fig.to_dict()
    assert drawn["layout"].pop("meta")["components"][1]["eigenvalue"] > 0  # for its words
    assert drawn == same.to_dict()

    X, labels = gaussian_clusters(55, 0.1, 0)
    sweep = WidthSweep("rbf", n_widths=5).fit(X)
    fig = figures.components_at_figure(sweep, 3, labels)
    assert fig.layout.title.text.startswith("The data on the first two components at σ = ")
    Z = sweep.fit_at(3, n_components=2).transform(sweep.X_fit_)
    np.testing.assert_allclose(fig.data[0].x, Z[labels == 0, 0], rtol=1e-5, atol=1e-6)


def test_a_width_with_no_component_is_refused_with_a_reason() -> None:
    """σ = 10^7.9 on the parabola: the centred kernel matrix is 0 to rounding, yet not
    every entry of K rounds to one number (not the constant regime): no component to map
    (a random walk drew nothing there, from a division by zero)."""
    sweep = WidthSweep("rbf", widths=np.logspace(7.9, 10, 3)).fit(parabola(300, 0.2, 0)[0])
    assert sweep.regime_[0] != CONSTANT and sweep.fit_at(0).n_components_ == 0
    with pytest.raises(ValueError, match="choose a narrower width"):
        figures.components_at_figure(sweep, 0)


def test_labels_of_the_swept_parameter(rings_sweep: WidthSweep) -> None:
    assert figures.format_parameter(rings_sweep, 0.012345) == "σ = 0.0123"
    laplacian = WidthSweep("laplacian", n_widths=2).fit(three_rings(30, 0.25, 0)[0])
    assert figures.parameter_label(laplacian) == "Laplacian width ℓ"


@pytest.mark.parametrize(
    "build",
    [
        figures.ratio_lines_figure,
        figures.spectrum_heatmap_figure,
        figures.effective_components_figure,
    ],
)
def test_moving_the_chosen_width_equals_building_it_there(rings_sweep: WidthSweep, build) -> None:
    moved = figures.move_chosen(build(rings_sweep, chosen=2), rings_sweep, 15)
    built = build(rings_sweep, chosen=15)
    assert moved.layout.shapes == built.layout.shapes
    assert moved.layout.annotations == built.layout.annotations
    assert shapes_named(moved, "chosen")[0].x0 == pytest.approx(rings_sweep.widths_[15])


def test_the_film_has_one_frame_per_width(rings_sweep: WidthSweep) -> None:
    fig = figures.spectrum_film_figure(rings_sweep, n_bars=8)
    assert len(fig.frames) == rings_sweep.widths_.size
    for index in (0, 11):
        bars, cumulative, _ = fig.frames[index].data
        np.testing.assert_allclose(bars.y, rings_sweep.ratios_[index, :8], rtol=1e-6)
        np.testing.assert_allclose(
            cumulative.y, np.cumsum(rings_sweep.ratios_[index, :8]), rtol=1e-6
        )
        share = rings_sweep.share(2)[index]
        assert fig.frames[index].layout.title.text.endswith(f"{share:.3f}")
    steps = fig.layout.sliders[0].steps
    assert [list(step.args[0]) for step in steps] == [[str(i)] for i in range(len(steps))]


def test_every_frame_of_the_film_carries_every_trace(rings_sweep: WidthSweep) -> None:
    # Issue #13: during playback the linear-PCA diamonds vanished while still in
    # the legend. Their trace was left out of the frames, and plotly.js redraws a
    # subplot's scatter traces from the frame's alone (checked in Chromium).
    fig = figures.spectrum_film_figure(rings_sweep, n_bars=8)
    kinds = [(trace.type, trace.name) for trace in fig.data]
    assert ("scatter", "linear PCA λ<sub>k</sub>/Σλ") in kinds
    linear = fig.data[kinds.index(("scatter", "linear PCA λ<sub>k</sub>/Σλ"))]
    for frame in fig.frames:
        assert frame.traces in (None, tuple(range(len(fig.data))))
        assert [(trace.type, trace.name) for trace in frame.data] == kinds
        reference = frame.data[kinds.index(("scatter", "linear PCA λ<sub>k</sub>/Σλ"))]
        np.testing.assert_array_equal(reference.x, linear.x)
        np.testing.assert_array_equal(reference.y, linear.y)
        assert reference.marker.symbol == "diamond"


def test_centring_share_figure_draws_both_curves(rings_sweep: WidthSweep) -> None:
    X = rings_sweep.X_fit_
    uncentred = WidthSweep("rbf", widths=rings_sweep.widths_, center=False).fit(X).share(2)
    fig = figures.centring_share_figure(rings_sweep, uncentred, marks=[(5.42, "D&K")])
    centred_line = trace(fig, "centred in F (eq. 49)")
    uncentred_line = trace(fig, "not centred (K itself)")
    np.testing.assert_allclose(centred_line.y, rings_sweep.share(2), rtol=1e-6)
    np.testing.assert_allclose(uncentred_line.y, uncentred, rtol=1e-6)
    assert not np.allclose(centred_line.y, uncentred_line.y)
    assert shapes_named(fig, "mark")[0].x0 == 5.42
    assert fig.layout.xaxis.type == "log"


def test_the_film_states_its_width_in_one_place_that_moves_with_each_frame(
    rings_sweep: WidthSweep,
) -> None:
    # Issue #13: during playback the title (σ = 0.714) and the slider's own
    # label (σ = 0.868) disagreed: each frame's 500 ms default transition
    # outlasted its 150 ms, so the title lagged behind the slider.
    fig = figures.spectrum_film_figure(rings_sweep, n_bars=8)
    (slider,) = fig.layout.sliders
    assert slider.currentvalue.visible is False  # the title says the width
    play = fig.layout.updatemenus[0].buttons[0].args[1]
    assert play["transition"]["duration"] == 0
    for step in slider.steps:
        assert step.args[1]["transition"]["duration"] == 0
        (name,) = step.args[0]
        (frame,) = [f for f in fig.frames if f.name == name]
        assert frame.layout.title.text.startswith(f"σ = {step.label}:")
