"""Figures of kpca_core.figures.preimages, inspected trace by trace."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import load_digits

from kpca_core.denoise import DigitDenoiser
from kpca_core.figures import layout, style
from kpca_core.figures.preimages import (
    METHOD_COLOURS,
    PHONE_PLOT_MARGIN_PX,
    PLAY_BUTTONS_PX,
    comparison_figure,
    fig3_figure,
    fixed_point_animation,
    table1_figure,
)
from kpca_core.gaussians_table import GaussiansTable
from kpca_core.preimage_compare import (
    reconstruction_series,
    toy_comparison,
    toy_paths,
)
from kpca_core.preimage_methods import METHODS
from tests.conftest import white_blocks


def fake_table() -> GaussiansTable:
    ratios = np.array([[[2000.0, 2200.0], [9.0, 11.0]], [[1.0, 1.4], [2.0, 2.2]]])
    restarts = np.zeros((2, 2), dtype=int)
    zeros = np.zeros_like(ratios)
    return GaussiansTable(
        (0.05, 0.8),
        (1, 9),
        (0, 1),
        ratios,
        restarts,
        restarts,
        kernel_mse=zeros,
        wrong=zeros.astype(int),
        wrong_share=zeros,
        floor=np.zeros((2, 2)),
    )


def test_table1_shows_ours_with_the_range_and_the_papers_numbers():
    fig = table1_figure(fake_table())
    ours, paper = fig.data
    assert ours.type == paper.type == "heatmap"
    np.testing.assert_allclose(ours.z, np.log10([[2100.0, 10.0], [1.2, 2.1]]))
    assert ours.text[0][0] == "2100<br>2000–2200"
    assert ours.text[1][1] == "2.10<br>2.00–2.20"
    assert [list(row) for row in paper.text] == [["2058", "92.23"], ["1.23", "2.39"]]
    # one colour scale for both, centred on a ratio of 1, covering the largest ratio
    assert ours.zmid == paper.zmid == 0.0
    assert ours.zmax == paper.zmax == pytest.approx(np.log10(2100.0))
    assert paper.showscale is False
    assert "paper" in ours.hovertemplate
    assert white_blocks(fig) == []  # a tie's cell is white; around the cells, the page
    # on a projector only the means: two lines of larger text overlapped in a row
    projected = table1_figure(fake_table(), ranges=False)
    assert projected.data[0].text[0][0] == "2100"
    assert "customdata[1]" in projected.data[0].hovertemplate  # the range on hovering


@pytest.mark.parametrize("room", [1.0, 1.5, 3.0])
def test_table1_title_and_the_upper_tables_have_room_at_every_room_scale(room):
    """The figure's title, centred in the top margin, and the upper table's title at its foot
    (twice its line) fit in it on a projector of any size; plotly's 100 px, which a projector's
    copy did not grow, put one on the other at 3840 × 2160, and the title above the chart's
    edge.  The n axis's title keeps as much larger a gap to its tick labels."""
    big = style.for_projector(table1_figure(fake_table(), ranges=False), room=room).layout
    table_px = big.annotations[0].font.size
    assert big.margin.t >= layout.lines_px(1, big.title.font.size) + 2 * layout.lines_px(
        1, table_px
    )
    assert big.xaxis2.title.standoff == pytest.approx(style.AXIS_STANDOFF_PX * room)


def test_fig3_figure_writes_each_fraction_under_its_image():
    data = load_digits()
    X = data.data / 8.0 - 1.0
    model = DigitDenoiser(0.5).fit(X[:200])
    recon = reconstruction_series(model, X[250], side=8, n_values=(1, 2, 3))
    fig = fig3_figure(recon, title="Fig. 3")
    assert fig.data[0].type == "heatmap"
    texts = [a.text for a in fig.layout.annotations]
    assert len(texts) == 2 * 3
    assert texts[:3] == [f"{f:.2f}" for f in recon.fraction_linear]
    assert texts[3:] == [f"{f:.2f}" for f in recon.fraction_kernel]
    assert list(fig.layout.yaxis.ticktext) == ["linear PCA", "kernel PCA"]
    assert fig.layout.xaxis.ticktext[-1] == "original"


def test_comparison_figure_has_three_panels_per_method():
    comparison = toy_comparison("half_circle", (2, 4))
    fig = comparison_figure(comparison)
    assert len(fig.data) == 3 * len(METHODS) + 1  # and the noisy baseline's legend entry
    for k, method in enumerate(METHODS):
        mse, seconds, failures = fig.data[3 * k : 3 * k + 3]
        curve = comparison.curve(method)
        np.testing.assert_allclose(mse.y, curve.mse, rtol=1e-6)
        np.testing.assert_allclose(seconds.y, curve.seconds_per_point, rtol=1e-6)
        np.testing.assert_array_equal(failures.y, curve.failures)
        assert mse.line.color == seconds.line.color == METHOD_COLOURS[method]
        assert mse.showlegend is not False and seconds.showlegend is False
        assert mse.xaxis == "x" and seconds.xaxis == "x2" and failures.xaxis == "x3"
    assert fig.layout.yaxis2.type == "log"
    assert any(shape.y0 == pytest.approx(comparison.baseline_mse) for shape in fig.layout.shapes)
    # no white block on the dark theme: the page's background, the theme's grid lines
    assert white_blocks(fig) == []
    assert fig.layout.xaxis.gridcolor is None and fig.layout.yaxis.gridcolor is None


def test_animation_has_one_frame_per_step_and_moves_only_the_moving_traces():
    toy, paths = toy_paths("square", random_state=1)
    fig = fixed_point_animation(paths, toy.noisy, selected=7, grid_size=30)
    contour, data, starts, now, track, restarts = fig.data
    assert contour.type == "contour" and np.asarray(contour.z).shape == (30, 30)
    np.testing.assert_allclose(data.x, toy.noisy[:, 0], rtol=1e-6)
    np.testing.assert_allclose(starts.y, paths.positions[0, :, 1], rtol=1e-6)
    assert restarts.marker.symbol == "x"
    assert len(fig.frames) == paths.n_frames
    last = fig.frames[-1]
    assert list(last.traces) == [3, 4, 5]
    np.testing.assert_allclose(last.data[0].x, paths.positions[-1, :, 0], rtol=1e-6)
    np.testing.assert_allclose(last.data[1].x, paths.positions[:, 7, 0], rtol=1e-6)
    np.testing.assert_allclose(now.x, toy.noisy[:, 0], rtol=1e-6)
    assert len(track.x) == 1
    # played in the browser: a play button and a slider over the frames
    (menu,) = fig.layout.updatemenus
    assert menu.buttons[0].method == "animate"
    assert len(fig.layout.sliders[0].steps) == paths.n_frames
    assert white_blocks(fig) == []  # the page's background on the dark theme too


@pytest.mark.parametrize("width_px", [358, 820])
def test_the_animation_slider_starts_right_of_its_play_buttons(width_px):
    toy, paths = toy_paths("square", random_state=1)
    fig = fixed_point_animation(paths, toy.noisy, grid_size=20, width_px=width_px)
    (slider,) = fig.layout.sliders
    plot_px = width_px - PHONE_PLOT_MARGIN_PX  # at most the plot's width
    assert slider.x * plot_px >= PLAY_BUTTONS_PX  # on a phone 22 % of it was ~50 px
    assert slider.x + slider.len == pytest.approx(1)
    assert slider.x == pytest.approx(0.22) or width_px < 600  # a desktop's as before


def test_animation_marks_restarts_from_their_frame_on():
    toy, paths = toy_paths("half_circle")
    restarted = np.zeros_like(paths.restarted)
    restarted[1, [3, 5]] = True
    fake = type(paths)(paths.positions, restarted, paths.converged, paths.steps, paths.problem)
    fig = fixed_point_animation(fake, toy.noisy)
    assert len(fig.frames[0].data[2].x) == 0
    assert len(fig.frames[1].data[2].x) == 2
    assert len(fig.frames[-1].data[2].x) == 2


def test_animation_refuses_bad_input():
    toy, paths = toy_paths("half_circle", max_steps=2)
    with pytest.raises(ValueError, match="selected must be"):
        fixed_point_animation(paths, toy.noisy, selected=10_000)
    flat = type(paths)(
        np.zeros((2, 3, 5)), paths.restarted[:2, :3], paths.converged, paths.steps, paths.problem
    )
    with pytest.raises(ValueError, match="2-D points"):
        fixed_point_animation(flat, toy.noisy)


@pytest.mark.parametrize("width", [None, 820])
def test_methods_side_by_side_fit_under_a_tab_on_a_laptop(width):
    """Pre-images at 1280 × 720: the three panels started at y ≈ 450 and their n axes and
    legend were below the screen's foot; side by side the figure fits the room a tab's
    first figure has there (title, panels, n axis, legend)."""
    from kpca_core.figures import layout as rule

    comparison = toy_comparison("half_circle", (2, 4))
    kwargs = {} if width is None else {"width_px": width}
    fig = comparison_figure(comparison, **kwargs)
    assert fig.layout.height <= rule.TAB_FIGURE_PX
    plot_h = fig.layout.height - fig.layout.margin.t - fig.layout.margin.b
    assert plot_h >= rule.AREA_MIN_PX


@pytest.mark.parametrize("width", [358, 820])  # a phone's page, a laptop's
def test_the_animation_s_y_tick_labels_have_room_at_its_left(width):
    """At 1280 × 720 the chart's theme gave the animation no left margin, and its tick
    label "−0.2" ran past the chart's edge (the visual audit)."""
    from kpca_core.figures import layout as rule
    from kpca_core.figures.style import CHAR_EM

    toy, paths = toy_paths("half_circle", n_components=2, max_steps=5)
    fig = fixed_point_animation(paths, toy.noisy, grid_size=20, width_px=width)
    label = len("−0.2") * CHAR_EM * rule.CHART_TEXT_PX
    assert fig.layout.margin.l is not None and fig.layout.margin.l >= label + 6
