"""The shared style: the projector copy of a figure (presenter mode)."""

from __future__ import annotations

import json

import numpy as np
import plotly.graph_objects as go
import pytest

from kpca_core.figures import style


def figure() -> go.Figure:
    """A small figure with fonts, lines and markers set, and some left unset."""
    fig = go.Figure(
        [
            go.Scatter(
                x=[0, 1, 2],
                y=[1, 0, 1],
                mode="lines+markers",
                line={"width": 2, "color": style.KERNEL},
                marker={"size": [4, 8, 0], "line": {"width": 1}},
                textfont={"size": 10},
            ),
            go.Contour(z=np.eye(3), line={"width": 0.6}, coloraxis="coloraxis"),
            go.Bar(x=[1, 2], y=[3, 4], marker_color=style.LINEAR),
        ]
    )
    fig.update_layout(
        title={"text": "title", "font": {"size": 15}},
        height=400,
        margin={"l": 40, "r": 20, "t": 50, "b": 100},
        xaxis={"tickfont": {"size": 9}, "title": {"text": "x"}},
        legend={"orientation": "h", "y": -0.2, "font": {"size": 11}},
        annotations=[{"text": "note", "x": 0, "y": 0, "font": {"size": 12}}],
        shapes=[{"type": "line", "x0": 0, "x1": 1, "y0": 0, "y1": 1, "line": {"width": 1.5}}],
        coloraxis={"colorbar": {"tickfont": {"size": 10}}},
    )
    return fig


def test_fonts_grow_and_none_is_smaller_than_the_minimum():
    big = style.for_projector(figure()).layout
    assert big.font.size == pytest.approx(style.PLOTLY_FONT_PX * style.FONT_SCALE)
    assert big.title.font.size == pytest.approx(15 * style.FONT_SCALE)
    assert big.annotations[0].font.size == pytest.approx(12 * style.FONT_SCALE)
    assert big.legend.font.size == style.MIN_FONT_PX  # 11 × 1.4 < 16
    assert big.xaxis.tickfont.size == style.MIN_FONT_PX  # 9 × 1.4 < 16
    assert big.coloraxis.colorbar.tickfont.size == style.MIN_FONT_PX


def test_a_set_base_font_grows_too():
    fig = figure().update_layout(font={"size": 20, "family": style.FONT_FAMILY})
    big = style.for_projector(fig).layout.font
    assert big.size == pytest.approx(20 * style.FONT_SCALE)
    assert big.family == style.FONT_FAMILY


def test_lines_and_markers_grow_and_zero_stays_zero():
    scatter, contour, bar = style.for_projector(figure()).data
    assert scatter.line.width == pytest.approx(2 * style.LINE_SCALE)
    assert scatter.marker.line.width == pytest.approx(1 * style.LINE_SCALE)
    np.testing.assert_allclose(scatter.marker.size, [5.6, 11.2, 0.0])
    assert scatter.textfont.size == style.MIN_FONT_PX
    assert contour.line.width == pytest.approx(0.6 * style.LINE_SCALE, abs=0.05)
    shape = style.for_projector(figure()).layout.shapes[0]
    assert shape.line.width == pytest.approx(1.5 * style.LINE_SCALE, abs=0.05)
    assert bar.marker.color == style.LINEAR


def test_margins_grow_with_the_height_so_the_plot_keeps_its_size():
    big = style.for_projector(figure()).layout
    assert (big.margin.t, big.margin.b) == (70, 140)
    assert (big.margin.l, big.margin.r) == (40, 20)
    assert big.height == 400 + 20 + 40


def test_a_legend_below_the_plot_moves_to_the_bottom_of_the_figure():
    legend = style.for_projector(figure()).layout.legend
    assert (legend.yref, legend.y, legend.yanchor) == ("container", 0, "bottom")
    above = figure().update_layout(legend={"y": 1.05})
    assert style.for_projector(above).layout.legend.yref is None


def test_data_colours_and_text_are_kept():
    fig = figure()
    big = style.for_projector(fig)
    for before, after in zip(fig.data, big.data, strict=True):
        assert after.type == before.type
    assert json.loads(big.to_json())["data"][1]["z"] == json.loads(fig.to_json())["data"][1]["z"]
    assert big.data[0].line.color == style.KERNEL
    assert big.layout.title.text == "title"
    assert big.layout.annotations[0].text == "note"


def test_the_figure_passed_is_not_changed():
    fig = figure()
    before = json.loads(fig.to_json())
    big = style.for_projector(fig)
    assert json.loads(fig.to_json()) == before
    assert big is not fig
    big.layout.title.font.size = 99
    assert fig.layout.title.font.size == 15


def test_projecting_a_figure_without_sizes_sets_the_base_font():
    big = style.for_projector(go.Figure(go.Scatter(x=[0, 1], y=[0, 1])))
    assert big.layout.font.size == pytest.approx(style.PLOTLY_FONT_PX * style.FONT_SCALE)
    assert big.layout.height is None


def test_a_style_dictionary_shared_by_many_parts_grows_once():
    line = {"width": 0.5, "color": "black"}
    font = {"size": 10}
    shapes = [{"type": "line", "x0": 0, "x1": 1, "y0": i, "y1": i, "line": line} for i in range(5)]
    annotations = [{"text": "a", "x": 0, "y": i, "font": font} for i in range(3)]
    fig = go.Figure(
        {
            "data": [{"type": "scatter", "x": [0], "y": [0], "line": line}],
            "layout": {"shapes": shapes, "annotations": annotations, "font": font},
        },
        _validate=False,
    )
    big = style.for_projector(fig).layout
    assert [shape.line.width for shape in big.shapes] == [0.9] * 5
    assert [annotation.font.size for annotation in big.annotations] == [style.MIN_FONT_PX] * 3
    assert big.font.size == style.MIN_FONT_PX
    assert line == {"width": 0.5, "color": "black"} and font == {"size": 10}


def test_a_fitted_copy_has_the_screens_height_and_its_containers_width():
    fig = figure().update_layout(width=820, height=900)
    big = style.for_projector(fig, height=440).layout
    assert big.height == 440
    assert big.width is None
    assert style.for_projector(fig).layout.height > 900  # unfitted: grows with the margins


def test_text_sized_by_the_theme_gets_the_projectors_size():
    """Streamlit's template sets 12 px ticks: unset sizes are pinned to the base font."""
    fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1])).update_layout(
        yaxis={"title": {"text": "y"}}, annotations=[{"text": "a", "x": 0, "y": 0}]
    )
    big = style.for_projector(fig).layout
    size = style.PLOTLY_FONT_PX * style.FONT_SCALE
    assert big.yaxis.tickfont.size == pytest.approx(size)
    assert big.yaxis.title.font.size == pytest.approx(size)
    assert big.legend.font.size == pytest.approx(size)
    assert big.annotations[0].font.size == pytest.approx(size)


def test_a_plan_height_leaves_room_for_the_grown_margins():
    margin = {"t": 40, "b": 10}
    planned = style.projector_plan_height(440, margin)
    assert planned + (style.FONT_SCALE - 1) * 50 == pytest.approx(440, abs=1)


@pytest.mark.parametrize("room", [1.0, 1.5, 3.0])
def test_an_axis_titles_standoff_grows_with_the_room(room):
    """The gap between an axis's tick labels and its title is in pixels: a 20 px one let the
    title's three times larger line reach up into the tick labels at 3840 × 2160."""
    fig = figure().update_xaxes(title={"text": "n", "standoff": style.AXIS_STANDOFF_PX})
    big = style.for_projector(fig, room=room).layout
    assert big.xaxis.title.standoff == pytest.approx(style.AXIS_STANDOFF_PX * room)
