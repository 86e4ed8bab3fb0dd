"""Shared marks of the Spectrum figures: labels, the width axis, the chosen width, copies.

The three sweep figures (:mod:`.widths`) share their width axis (logarithmic
for widths, linear for degrees), mark the chosen width with the same dashed
line, and shade the widths where the kernel matrix is numerically the
identity or constant instead of plotting noise there: :func:`decoration` does
all three.  The labels (:func:`symbol`, :func:`parameter_label`,
:func:`format_parameter`) and the layout constants serve every figure of the
view; :func:`figure` makes a figure of plain dicts on its template without
plotly validating it, and :func:`copy_figure` copies one the same way.

Plotly places shapes on a log axis by data value but annotations by the
log10 of it; the helpers below take care of that.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

from ...spectrum import CONSTANT, IDENTITY, SYMBOLS, WidthSweep
from .. import layout, style

KERNEL_NAMES = {"rbf": "Gaussian", "laplacian": "Laplacian", "poly": "polynomial"}
REGIME_TEXT = {
    IDENTITY: "K ≈ I: every point its own component",
    CONSTANT: "K ≈ constant: its entries round to one number",
}
REGIME_FILL = {IDENTITY: "rgba(0, 114, 178, 0.10)", CONSTANT: "rgba(127, 127, 127, 0.18)"}
CHOSEN_LINE = {"color": style.NEUTRAL, "width": 1.5, "dash": "dash"}
"""Grey, not black: it must show on the light and on the dark theme."""
FONT = {"family": style.FONT_FAMILY}
HEIGHT = 460
LEGEND_BELOW = {"orientation": "h", "yanchor": "top", "y": -0.2, "x": 0}
"""Legends sit under the x axis, clear of the title and the width labels."""
MARGIN = {"l": 60, "r": 20, "t": 80, "b": 120}
PANEL_PX = 420
"""The width a sweep figure is planned for when the page does not say: half of a
desktop's page (two figures side by side)."""
WHITE = pio.templates["plotly_white"].to_plotly_json()
"""plotly's "plotly_white" template as plain JSON, validated once."""


# ---------------------------------------------------------------- labels
def symbol(sweep: WidthSweep) -> str:
    """σ, ℓ, c or d: the swept parameter's symbol."""
    return SYMBOLS["degree" if sweep.sweep == "degree" else sweep.kernel]


def parameter_label(sweep: WidthSweep) -> str:
    """Axis title of the swept parameter, e.g. ``"Gaussian width σ"``."""
    kernel = KERNEL_NAMES[sweep.kernel]
    if sweep.sweep == "degree":
        return f"{kernel} degree d  (c = {sweep.coef0:g})"
    if sweep.kernel == "poly":
        return f"{kernel} offset c  (degree {sweep.degree})"
    return f"{kernel} width {symbol(sweep)}"


def format_parameter(sweep: WidthSweep, value: float) -> str:
    """``"σ = 0.542"`` or ``"d = 3"``."""
    if sweep.sweep == "degree":
        return f"d = {int(value)}"
    return f"{symbol(sweep)} = {value:.3g}"


def format_width(sweep: WidthSweep, index: int) -> str:
    """:func:`format_parameter` of the sweep's ``index``-th value (a width, an offset or a
    degree)."""
    return format_parameter(sweep, float(sweep.widths_[index]))


def is_log(sweep: WidthSweep) -> bool:
    return sweep.sweep == "width" and bool(np.all(sweep.widths_ > 0))


def width_edges(values: np.ndarray, log: bool) -> np.ndarray:
    """Brick edges around sorted values: geometric (log) or arithmetic midpoints."""
    values = np.asarray(values, dtype=float)
    if values.size == 1:
        return values * np.array([0.9, 1.1]) if log else values + np.array([-0.5, 0.5])
    if log:
        inner = np.sqrt(values[1:] * values[:-1])
        return np.concatenate([[values[0] ** 2 / inner[0]], inner, [values[-1] ** 2 / inner[-1]]])
    inner = (values[1:] + values[:-1]) / 2
    return np.concatenate([[2 * values[0] - inner[0]], inner, [2 * values[-1] - inner[-1]]])


def annotation_x(value: float, log: bool) -> float:
    return float(np.log10(value)) if log else float(value)


def regime_runs(sweep: WidthSweep) -> list[tuple[str, float, float]]:
    """Contiguous runs of identity or constant widths, as (regime, x0, x1) edges."""
    edges = width_edges(sweep.widths_, is_log(sweep))
    runs: list[tuple[str, float, float]] = []
    for index, regime in enumerate(sweep.regime_):
        if not regime:
            continue
        if runs and runs[-1][0] == regime and runs[-1][2] == edges[index]:
            runs[-1] = (regime, runs[-1][1], float(edges[index + 1]))
        else:
            runs.append((regime, float(edges[index]), float(edges[index + 1])))
    return runs


def vertical_line(x: float, line: dict, name: str) -> dict:
    """A layout shape: a vertical line at ``x`` across the plot's height, named ``name``."""
    return {
        "type": "line",
        "x0": x,
        "x1": x,
        "y0": 0,
        "y1": 1,
        "yref": "paper",
        "line": line,
        "name": name,
    }


def chosen_marks(
    sweep: WidthSweep, index: int, *, label: bool = True
) -> tuple[list[dict], list[dict]]:
    """The dashed line at the chosen width, and its label, as layout dicts.

    Returns
    -------
    shapes, annotations : lists of dicts for ``layout.shapes`` and
        ``layout.annotations``, named ``"chosen"``.
    """
    value = float(sweep.widths_[index])
    shapes = [vertical_line(value, CHOSEN_LINE, "chosen")]
    annotations = []
    if label:
        annotations.append(
            {
                "x": annotation_x(value, is_log(sweep)),
                "y": 1.0,
                "yref": "paper",
                "yanchor": "bottom",
                "text": format_parameter(sweep, value),
                "showarrow": False,
                "font": {"size": 12},
                "name": "chosen",
            }
        )
    return shapes, annotations


def move_chosen(fig: go.Figure, sweep: WidthSweep, index: int) -> go.Figure:
    """Move the chosen-width marks of a sweep figure to ``widths_[index]``, in place.

    The figure must have been built with a chosen width.  Moving two layout
    items takes about a millisecond, where building the figure again takes
    tens (plotly validates every property), so a page can keep one copy of
    each sweep figure and re-mark it as the chosen width is scrubbed.

    Returns
    -------
    fig : the same figure
    """
    shapes, annotations = chosen_marks(sweep, index)
    new_shape, new_label = shapes[0], annotations[0]
    with fig.batch_update():
        for shape in fig.layout.shapes:
            if shape.name == "chosen":
                shape.x0 = shape.x1 = new_shape["x0"]
        for annotation in fig.layout.annotations:
            if annotation.name == "chosen":
                annotation.x, annotation.text = new_label["x"], new_label["text"]
    return fig


def chosen_frames(sweep: WidthSweep) -> dict[int, dict]:
    """The chosen-width marks at every width, as a scrubbing chart's frames.

    ``{width index: {"shapes": {"chosen": {"x0", "x1"}}, "annotations": {"chosen":
    {"x", "text"}}}}``: the changes :func:`move_chosen` makes, for the browser to
    make while the chosen width is dragged (:func:`kpca_ui.chart.chart`'s ``frames``
    move the layout items of these names).
    """
    frames = {}
    for index in range(sweep.widths_.size):
        shapes, annotations = chosen_marks(sweep, index)
        x, label = shapes[0]["x0"], annotations[0]
        frames[index] = {
            "shapes": {"chosen": {"x0": x, "x1": x}},
            "annotations": {"chosen": {"x": label["x"], "text": label["text"]}},
        }
    return frames


def decoration(
    sweep: WidthSweep,
    chosen: int | None,
    data: list[dict],
    *,
    shapes: Sequence[dict] = (),
    annotations: Sequence[dict] = (),
    label_regimes: bool = True,
    label_chosen: bool = True,
    width_px: int = PANEL_PX,
) -> dict:
    """The layout a sweep figure of traces ``data`` shares: regimes, chosen width, width axis.

    The limit regimes are shaded (and labelled), the chosen width marked, the width
    axis set; ``shapes`` and ``annotations`` (a figure's own marks) come first.  The
    legend goes under the width axis's title, the figure taller by the rows it
    takes in ``width_px`` (:func:`kpca_core.figures.layout.legend_below`).  Plain
    dicts, as plotly writes them: a figure of them needs no validation (:func:`figure`).
    """
    log = is_log(sweep)
    shapes, annotations = list(shapes), list(annotations)
    for regime, x0, x1 in regime_runs(sweep):
        shapes.append(
            {
                "type": "rect",
                "x0": x0,
                "x1": x1,
                "xref": "x",
                "y0": 0,
                "y1": 1,
                "yref": "y domain",
                "fillcolor": REGIME_FILL[regime],
                "line": {"width": 0},
                "layer": "below",
                "name": regime,
            }
        )
        if label_regimes:
            annotations.append(
                {
                    "x": annotation_x(np.sqrt(x0 * x1) if log else (x0 + x1) / 2, log),
                    "y": 1.0,
                    "yref": "paper",
                    "yanchor": "top",
                    "text": REGIME_TEXT[regime].replace(": ", ":<br>"),
                    "showarrow": False,
                    "font": {"size": 12},  # the theme's text colour: 4.5:1 on either theme
                    "name": regime,
                }
            )
    if chosen is not None:
        chosen_shapes, chosen_annotations = chosen_marks(sweep, chosen, label=label_chosen)
        shapes += chosen_shapes
        annotations += chosen_annotations
    edges = width_edges(sweep.widths_, log)
    span = np.log10(edges[[0, -1]]) if log else edges[[0, -1]]
    xaxis = {
        "type": "log" if log else "linear",
        "range": [float(x) for x in span],
        "title": {"text": parameter_label(sweep) + ("  (log scale)" if log else "")},
        "exponentformat": "power",
    }
    # decades only on a log axis of two or more: plotly's own steps between them
    # ("2", "5") are drawn in 9 px text
    dtick = (1 if np.ptp(span) >= 2 else None) if log else 1
    if dtick is not None:
        xaxis["dtick"] = dtick
    plot_px = HEIGHT - MARGIN["t"] - MARGIN["b"]
    names = [t["name"] for t in data if t.get("name") and t.get("showlegend") is not False]
    legend, bottom = layout.legend_below(names, width_px - MARGIN["l"], plot_px)
    items = {"shapes": shapes, "annotations": annotations}
    return {
        **{name: listed for name, listed in items.items() if listed},
        "xaxis": xaxis,
        "font": FONT,
        "height": MARGIN["t"] + plot_px + bottom,
        "margin": {**MARGIN, "b": bottom},
        "legend": legend,
    }


def figure(data: list[dict], layout: dict) -> go.Figure:
    """The figure of plain trace and layout dicts, on the "plotly_white" template (``WHITE``).

    Not validated: building a figure through plotly's objects (``add_trace``,
    ``update_layout``) validated every property, 10–20 ms a figure, most of the
    time the sweep's figures took; the dicts here are what plotly writes.
    """
    return go.Figure({"data": data, "layout": {**layout, "template": WHITE}}, _validate=False)


def copy_figure(fig: go.Figure, *, template: dict | None = None) -> go.Figure:
    """A copy of ``fig`` that plotly does not validate again (its arrays stay numpy).

    ``go.Figure(fig)`` validates every property of the copy, the layout's
    template among them: about 7 ms per figure, where this takes well under
    one.  ``template`` replaces the layout's template.
    """
    layout = fig.layout.to_plotly_json()
    if template is not None:
        layout["template"] = template
    spec = {"data": [trace.to_plotly_json() for trace in fig.data], "layout": layout}
    if fig.frames:
        spec["frames"] = [frame.to_plotly_json() for frame in fig.frames]
    return go.Figure(spec, _validate=False)


def white(fig: go.Figure) -> go.Figure:
    """``fig``, built through plotly's objects, on the "plotly_white" template (``WHITE``).

    Setting a template by name makes plotly validate and copy all of it.
    """
    return copy_figure(fig, template=WHITE)


def hover_x(sweep: WidthSweep) -> str:
    return f"{symbol(sweep)} = %{{x:.3g}}"


def f32(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.float32)
