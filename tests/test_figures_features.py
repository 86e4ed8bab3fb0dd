"""Figures of the feature-extraction view: inspect the Figures the builders return."""

import numpy as np
import plotly.graph_objects as go
import pytest

from kpca_core import sigma_to_gamma
from kpca_core.datasets import moons, three_rings
from kpca_core.features import PAPER_TABLE2, TABLE2_DEGREES, TABLE2_N, toy_experiment, toy_features
from kpca_core.figures import layout, style
from kpca_core.figures.features import (
    LIVE_MARK,
    MISCLASSIFIED_GAP,
    REGION_TINT,
    TITLE_LINE_PX,
    canvas_regions,
    confusion_figure,
    misclassified_figure,
    region_pixels,
    table2_figure,
    toy_regions_figure,
)
from tests.conftest import png_pixels, white_blocks


@pytest.fixture(scope="module")
def rings():
    X, y = three_rings(150, random_state=0)
    features = toy_features(X, y, kernel="rbf", gamma=sigma_to_gamma(1.0), grid_size=40)
    return features, toy_experiment(features, 12)


def test_toy_figure_has_two_panels_of_regions_and_points(rings):
    features, result = rings
    fig = toy_regions_figure(features, result, kernel_label="Gaussian, σ = 1", class_names="ABC")
    go.Figure(fig.to_dict())  # built without validation: it must be valid
    assert len(fig.layout.images) == 2
    assert [img.xref for img in fig.layout.images] == ["x", "x2"]
    assert len(fig.data) == 6  # three classes in each panel
    assert [t.name for t in fig.data if t.showlegend] == ["A", "B", "C"]
    titles = [a.text for a in fig.layout.annotations]
    assert f"{100 * result.kernel_accuracy:.1f} % correct" in titles[0]
    assert "12 kernel components<br>(Gaussian, σ = 1)" in titles[0]
    assert f"{100 * result.raw_accuracy:.1f} % correct" in titles[1]
    assert fig.layout.yaxis.scaleanchor == "x" and fig.layout.yaxis2.scaleanchor == "x2"


@pytest.mark.parametrize("kernel_label", ["Gaussian, σ = 0.3", "polynomial, d = 3"])
def test_toy_titles_are_short_lines_unless_wide(rings, kernel_label):
    """Above a phone's two panels (~150 px each) the titles must not run into each other."""
    features, result = rings
    narrow = toy_regions_figure(features, result, kernel_label=kernel_label)
    wide = toy_regions_figure(features, result, kernel_label=kernel_label, wide=True)
    for short, long in zip(narrow.layout.annotations, wide.layout.annotations, strict=True):
        assert max(map(len, short.text.split("<br>"))) <= 24
        assert "<br>" not in long.text
        assert long.text == short.text.replace("<br>", " ")
    lines = max(a.text.count("<br>") + 1 for a in narrow.layout.annotations)
    assert narrow.layout.margin.t >= lines * TITLE_LINE_PX > wide.layout.margin.t


@pytest.mark.parametrize("width_px", [None, 600, 820])
def test_toy_panels_side_by_side_fill_the_figure_s_height(width_px):
    """Two moons, twice as wide as tall: the figure is as tall as its panels are on a
    desktop's page, not 460 px with empty bands above and below them (which put the
    panels' lower half below a 1280 × 720 screen)."""
    X, y = moons(200, random_state=0)
    features = toy_features(X, y, kernel="rbf", gamma=2.0, grid_size=30)
    result = toy_experiment(features, 10)
    fig = toy_regions_figure(features, result, width_px=width_px)
    margin = fig.layout.margin
    aspect = np.ptp(features.ys) / np.ptp(features.xs)
    panel_w = (layout.DESKTOP_PX - margin.l - margin.r) * 0.47
    assert fig.layout.height == pytest.approx(margin.t + margin.b + panel_w * aspect, abs=1)
    assert fig.layout.height < 360


def test_toy_region_pictures_show_the_predicted_classes(rings):
    features, result = rings
    fig = toy_regions_figure(features, result)
    for image, regions in zip(
        fig.layout.images, (result.kernel_regions, result.raw_regions), strict=True
    ):
        pixels = png_pixels(image.source)
        assert pixels.shape == (*regions.shape, 4)
        np.testing.assert_array_equal(pixels, region_pixels(regions, np.arange(3)))
        # the top-left pixel is the grid's top-left point: largest y, smallest x
        assert tuple(pixels[0, 0]) == tuple(region_pixels(regions[-1:, :1], np.arange(3))[0, 0])


def test_regions_are_the_group_colours_over_the_page():
    pixels = region_pixels(np.array([[0, 1]]), np.array([0, 1]))
    first = np.array([int(style.GROUPS[0][i : i + 2], 16) for i in (1, 3, 5)])
    np.testing.assert_array_equal(pixels[0, 0, :3], first)
    # translucent: a light tint on the light theme, a dark one on the dark theme
    assert pixels[0, 0, 3] == round(255 * REGION_TINT)
    assert not np.array_equal(pixels[0, 0], pixels[0, 1])


def test_classes_may_take_other_colours_and_the_canvas_shows_the_left_regions():
    X, _ = three_rings(90, random_state=0)
    groups = np.where(np.hypot(*X.T) < 1.5, 1, 3)  # a drawing's groups 1 and 3
    features = toy_features(X, groups, gamma=sigma_to_gamma(1.0), grid_size=30, half_width=5.0)
    result = toy_experiment(features, 6)
    colours = [style.GROUPS[0], style.GROUPS[2]]
    fig = toy_regions_figure(features, result, class_names=["group 1", "group 3"], colours=colours)
    assert [t.marker.color for t in fig.data if t.showlegend] == colours
    background = canvas_regions(features, result, colours)
    assert background["image"] == fig.layout.images[0].source
    pixels = png_pixels(background["image"])
    expected = region_pixels(result.kernel_regions, np.array([1, 3]), colours)
    np.testing.assert_array_equal(pixels, expected)
    third = region_pixels(np.array([[3]]), np.array([1, 2, 3]))[0, 0]
    assert any(np.array_equal(pixel, third) for pixel in pixels.reshape(-1, 4))


def test_no_white_block_on_the_dark_theme(rings):
    """The page's own background shows around and through the figures (issue #19)."""
    features, result = rings
    errors = np.where(np.isnan(PAPER_TABLE2), np.nan, PAPER_TABLE2 + 1)
    confusion = np.array([[50, 2], [3, 45]])
    for fig in (
        toy_regions_figure(features, result),
        table2_figure(errors),
        confusion_figure(confusion),
        misclassified_figure(np.zeros((0, 256)), np.array([]), np.array([])),
    ):
        assert white_blocks(fig) == [], fig.layout.title.text


def test_toy_figure_rejects_wrong_class_names(rings):
    features, result = rings
    with pytest.raises(ValueError, match="3 classes"):
        toy_regions_figure(features, result, class_names=["a", "b"])


def ours_grid():
    errors = PAPER_TABLE2 + 0.5
    errors[0, 0] = 9.87
    return errors


def test_table2_figure_shows_ours_and_the_papers_on_one_scale():
    live = np.zeros(PAPER_TABLE2.shape, bool)
    live[2, 3] = True
    fig = table2_figure(ours_grid(), live=live, chosen=(4, 2048))
    ours, paper = fig.data
    np.testing.assert_array_equal(np.asarray(ours.z, float), ours_grid())
    np.testing.assert_array_equal(np.asarray(paper.z, float), PAPER_TABLE2)
    assert list(ours.x) == [str(d) for d in TABLE2_DEGREES]
    assert list(ours.y) == [str(n) for n in TABLE2_N]
    assert ours.coloraxis == paper.coloraxis == "coloraxis"
    assert fig.layout.coloraxis.cmax == pytest.approx(ours_grid()[np.isfinite(ours_grid())].max())
    assert ours.text[0][0] == "9.9"
    assert ours.text[2][3] == f"{ours_grid()[2, 3]:.1f}{LIVE_MARK}"
    assert ours.text[6][0] == ""  # degree 1 stops at 256
    assert ours.customdata[2][3][1] == "computed live"
    assert ours.customdata[0][0][1] == "shipped table"
    assert ours.customdata[0][0][0] == "9.60"  # the paper's number on hover
    assert paper.customdata[0][0][0] == "9.87"
    assert ours.customdata[6][0][0] == "n.a."
    (outline,) = fig.layout.shapes
    assert (outline.x0 + outline.x1) / 2 == TABLE2_DEGREES.index(4)
    assert (outline.y0 + outline.y1) / 2 == TABLE2_N.index(2048)


def test_table2_figure_side_by_side_keeps_short_lines():
    """Two panels side by side (the width not yet measured: ~100 px each on a phone):
    short title lines, the n labels only at the left."""
    fig = table2_figure(np.where(np.isnan(PAPER_TABLE2), np.nan, PAPER_TABLE2 + 1))
    lines = [line for a in fig.layout.annotations for line in a.text.split("<br>")]
    assert max(map(len, lines)) <= 16
    assert len(fig.layout.xaxis.title.text) <= 10 and len(fig.layout.xaxis2.title.text) <= 10
    assert fig.layout.yaxis2.matches == "y" and fig.layout.yaxis2.showticklabels is False


@pytest.mark.parametrize("width_px", [358, 500])
def test_table2_figure_on_a_phone_stacks_ours_above_the_papers(width_px):
    fig = table2_figure(ours_grid(), chosen=(4, 2048), width_px=width_px)
    assert fig.layout.xaxis.domain == fig.layout.xaxis2.domain == (0.0, 1.0)
    assert min(fig.layout.yaxis.domain) > max(fig.layout.yaxis2.domain)  # ours above
    ours, paper = fig.data
    assert (ours.xaxis, ours.yaxis, paper.xaxis, paper.yaxis) == ("x", "y", "x2", "y2")
    assert fig.layout.yaxis2.showticklabels is not False  # each grid has its n labels
    # below: no width taken; on a colour axis of its own (drawn in place over the
    # desktop's figure, the vertical bar stayed over the cells)
    assert fig.layout.coloraxis2.colorbar.orientation == "h"
    assert {t.coloraxis for t in fig.data if t.type == "heatmap"} == {"coloraxis2"}
    # a cell as wide as the plot's share of a column: room for "12.3" at 12 px
    plot_px = width_px - fig.layout.margin.l - fig.layout.margin.r
    assert plot_px / len(TABLE2_DEGREES) >= 4 * 0.56 * 12
    assert fig.layout.height > table2_figure(ours_grid()).layout.height


def test_table2_figure_at_a_wide_page_stays_side_by_side():
    wide = table2_figure(ours_grid(), width_px=style.NARROW_PX)
    assert wide.layout.xaxis.domain[1] < wide.layout.xaxis2.domain[0]
    assert wide.to_json() == table2_figure(ours_grid()).to_json()


def test_table2_figure_rejects_a_grid_of_the_wrong_shape():
    with pytest.raises(ValueError, match="shape"):
        table2_figure(np.zeros((3, 3)))


def test_confusion_figure_colours_only_the_errors():
    confusion = np.diag(np.full(10, 200))
    confusion[3, 5] = 7
    fig = confusion_figure(confusion, title="degree 4, n = 2048")
    (heatmap,) = fig.data
    z = np.asarray(heatmap.z, float)
    assert np.all(np.isnan(np.diag(z)))
    assert z[3, 5] == 7 and np.nansum(z) == 7
    assert heatmap.text[3][3] == "200" and heatmap.text[3][5] == "7"
    assert fig.layout.yaxis.autorange == "reversed"


def test_misclassified_figure_labels_each_digit_true_then_predicted():
    images = np.linspace(-1, 1, 3 * 256).reshape(3, 256)
    fig = misclassified_figure(images, np.array([4, 7, 9]), np.array([9, 1, 4]), max_digits=2)
    (heatmap,) = fig.data
    assert np.asarray(heatmap.z).shape == (16, 2 * 16 + MISCLASSIFIED_GAP)
    assert list(fig.layout.xaxis.ticktext) == ["4 → 9", "7 → 1"]
    np.testing.assert_allclose(np.asarray(heatmap.z)[:, :16].ravel(), images[0], rtol=1e-6)


def test_misclassified_figure_without_errors_says_so():
    fig = misclassified_figure(np.zeros((0, 256)), np.array([]), np.array([]))
    assert fig.layout.annotations[0].text == "no misclassified digits"
