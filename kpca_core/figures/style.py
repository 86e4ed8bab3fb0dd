"""Colours and scales shared by every figure, so the views read alike.

The three method colours are from the Okabe–Ito palette, which stays
distinguishable under the common forms of colour blindness.
"""

from __future__ import annotations

import copy
import textwrap

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from _plotly_utils.utils import convert_to_base64

LINEAR = "#0072B2"
"""Linear PCA (blue)."""
KERNEL = "#D55E00"
"""Kernel PCA (vermillion)."""
RIDGE = "#009E73"
"""Learned pre-image by kernel ridge regression (bluish green)."""
NEUTRAL = "#7F7F7F"
"""Data points, guides and other marks that belong to no method."""
TRANSPARENT = "rgba(0, 0, 0, 0)"
"""Plot area and paper of a figure: the page's own background, light or dark, shows
through, and the theme's template gives text and grid lines their colours. Only a
picture of paper (a digit) is white."""
INK = "#31333F"
"""Text on a white box of its own, which must stay dark on the dark theme too."""

DIVERGING = "RdBu_r"
"""Component values: diverging, colour-blind safe, centred on 0 (set zmid=0)."""
SEQUENTIAL = "Viridis"
"""Spectra and other non-negative magnitudes."""
GREYS = "Greys"
"""Grey-value images: low values white, high values black."""

GROUPS = ("#E69F00", "#56B4E9", "#009E73", "#CC79A7", "#0072B2", "#D55E00", "#F0E442", "#000000")
"""Okabe–Ito colours for groups of points (rings, moons, clusters), in order."""

SYMBOLS = ("circle", "square", "diamond", "triangle-up", "cross", "x", "triangle-down", "star")
"""Marker shapes for groups of points, in the order of :data:`GROUPS`: a group is told by its
shape as well as its colour (WCAG 1.4.1; the palette's orange and yellow are ΔE 16.9 apart
under deuteranopia).  The drawing canvas draws groups 1-3 the same (``draw_canvas.js``)."""

OUTLINE = "#767676"
"""A mark's outline: a WCAG contrast of at least 3 against white (4.5) and Streamlit's
dark background (4.3), so that every marker reads on either theme whatever its fill
(the palette's orange and yellow alone fall below 3 on white)."""
ONE_GROUP = NEUTRAL
"""Points of data without groups: mid grey, which reads on light and dark pages alike."""


def outlined(marker: dict) -> dict:
    """``marker`` with a one-pixel :data:`OUTLINE`, for contrast on both themes."""
    return {**marker, "line": {"width": 1, "color": OUTLINE}}


FONT_FAMILY = "Arial, sans-serif"
"""One font everywhere, present in browsers and in exported images."""


def panel_title(text: str, domain: tuple[float, float] | list[float], *, size: int) -> dict:
    """A panel's title as a layout annotation, centred above the x ``domain`` of its axes."""
    return {
        "text": text,
        "x": (domain[0] + domain[1]) / 2,
        "y": 1.0,
        "xref": "paper",
        "yref": "paper",
        "xanchor": "center",
        "yanchor": "bottom",
        "showarrow": False,
        "font": {"size": size},
    }


def export_config(filename: str, *, image_format: str = "png", scale: float = 2.0) -> dict:
    """``config`` for ``st.plotly_chart``: the modebar camera saves ``filename``.

    PNG or SVG export happens in the browser (kaleido needs Chrome, which is
    not available where the app is served). Name files ``<view>_<params>``.
    """
    return {
        "displaylogo": False,
        "toImageButtonOptions": {"format": image_format, "filename": filename, "scale": scale},
    }


NARROW_PX = 600
"""A page whose content is narrower than this is a phone's: figures whose layout
depends on the width (long titles, panels side by side) are planned for it (the
app measures it, ``kpca_ui/screen.py``)."""
TITLE_PAD_PX = 20
"""Room a title leaves at the figure's sides."""
TITLE_LINE_PX = 20
"""Room above the plot for each further line of a title broken for a phone."""
CHAR_EM = 0.56
"""The average width of a character of the figures' font, in em."""
_CHAR_EMS = {**dict.fromkeys(" .,:;·'|!()[]-ijlt", 0.3), **dict.fromkeys("%mwMW@", 0.9)}
"""Widths in em of the characters far from :data:`CHAR_EM` in Arial-like fonts (digits
0.556, most letters 0.5–0.67): narrow ones and wide ones."""
TEXT_EM_SPARE = 1.1
""":func:`text_em`'s spare: another sans-serif font (Open Sans) draws a little wider."""


def text_em(text: str) -> float:
    """The width of one line of ``text`` in em, from its characters' widths (spare included).

    For a line of mostly digits and punctuation ("kPC 1 · λ = 0.337 (70.2%)", measured
    192 px at 16.8 px) :data:`CHAR_EM` per character overestimated it by a fifth (235 px),
    which broke a title that fitted its column onto two lines.
    """
    return TEXT_EM_SPARE * sum(_CHAR_EMS.get(char, CHAR_EM) for char in text)


FONT_SCALE = 1.4
"""Presenter mode: every font this much larger (a projector at 1280 × 720)."""
PRESENTER_TITLE_PX = 20
"""Presenter mode: a figure's title at least this large (:mod:`.layout`'s rule)."""
MIN_FONT_PX = 16
"""Presenter mode: no text smaller than this (readable from the back of a room)."""
LINE_SCALE = 1.8
"""Presenter mode: every line (traces, contour lines, shapes, outlines) this much wider."""
MARKER_SCALE = 1.4
"""Presenter mode: every marker this much larger."""
PLOTLY_FONT_PX = 12
"""plotly's default font size, for a figure that sets none."""
AXIS_STANDOFF_PX = 20
"""Between an x axis's tick labels and its title: the theme's (``kpca_ui/chart.js``), set by a
figure itself so that :func:`for_projector` grows it with the room (the theme's stays 20 px:
at 3840 × 2160 the title's three times larger line reached up into the tick labels)."""
COLORBAR_PX = {"thickness": 30, "xpad": 10, "ypad": 10}
"""plotly's default sizes of a colour bar in pixels, for one that sets none."""
_FONT_KEYS = frozenset(
    {"font", "tickfont", "textfont", "insidetextfont", "outsidetextfont", "labelfont"}
)
_SKIPPED_KEYS = frozenset({"template", "frames"})


def for_projector(fig: go.Figure, *, height: int | None = None, room: float = 1.0) -> go.Figure:
    """A copy of ``fig`` for a projector: larger fonts, wider lines, larger markers.

    Every font size the figure sets (titles, ticks, annotations, legends,
    colour bars, text on traces) grows by :data:`FONT_SCALE`, to at least
    :data:`MIN_FONT_PX`, and so does the base font that unset sizes inherit;
    every line width (traces, contour lines, marker outlines, shapes) grows by
    :data:`LINE_SCALE`, and every marker size by :data:`MARKER_SCALE`. The
    top and bottom margins grow by :data:`FONT_SCALE` too, for the larger
    titles and axis labels, and a figure of fixed height grows by as much, so
    that its plots keep their size; a legend below the plot moves to the
    bottom of the figure, clear of the larger axis labels. ``fig`` is not
    changed, so a figure shared between sessions can be passed.

    Parameters
    ----------
    fig : go.Figure
    height : int, optional
        Fit the figure to the screen: this tall in pixels (its rows shrink to
        fit), as wide as its container (a fixed width is dropped). A builder
        that places text in data units plans for :func:`projector_plan_height`.
    room : float
        How much larger than 1280 × 720 the screen is (``kpca_ui.presenter.room_scale``):
        every size above, the four margins, colour bars, an axis title's ``standoff``, a
        fixed width and ``height`` grow by as much again, so that a figure planned for
        1280 × 720 (its builder's ``width_px``, ``height``) is drawn the same on a larger
        screen, larger.
    """
    spec = fig.to_dict()
    layout = spec.setdefault("layout", {})
    base = layout.setdefault("font", {})
    base["size"] = base.get("size", PLOTLY_FONT_PX)
    # A builder may use one dictionary in many places (a shared line style):
    # the copy shares it too, and it must grow only once.
    seen: set[int] = set()
    _enlarge(layout, seen, room)
    _pin_text_sizes(layout, base["size"], room)
    for trace in spec.get("data", []):
        _enlarge(trace, seen, room)
    margin = layout.get("margin", {})
    grown = 0
    for side in ("t", "b", "l", "r"):
        if side in margin:
            larger = round(margin[side] * FONT_SCALE) if side in "tb" else margin[side]
            grown += larger - margin[side]
            margin[side] = round(larger * room)
    if height is not None:
        layout["height"] = round(height * room)
        layout.pop("width", None)
    elif "height" in layout:
        layout["height"] = round((layout["height"] + grown) * room)
        if "width" in layout:
            layout["width"] = round(layout["width"] * room)
    legend = layout.get("legend", {})
    if legend.get("y", 1.0) < 0 and legend.get("yref", "paper") == "paper":
        legend.update(yref="container", y=0.0, yanchor="bottom")
    # Sizes of a valid figure, scaled: no need to validate the copy again.
    return go.Figure(spec, _validate=False)


def _pin_text_sizes(layout: dict, size: float, room: float) -> None:
    """Give every axis, legend and annotation text without a size the base ``size``.

    Text without a size takes it from the theme's template first (Streamlit's
    sets 12 px ticks), not from the base font: so the projector's sizes are set
    explicitly, in place; a colour bar's sizes in pixels too (plotly's, × ``room``).
    """
    axes = [value for key, value in layout.items() if key.startswith(("xaxis", "yaxis"))]
    colorbars = [
        value["colorbar"]
        for key, value in layout.items()
        if key.startswith("coloraxis") and isinstance(value, dict) and "colorbar" in value
    ]
    for bar in colorbars:
        for name, px in COLORBAR_PX.items():
            bar.setdefault(name, round(px * room))
        # an upright bar's labels hang below their ticks: centred, the top one stood half
        # above the bar, into a title above it (plotly leaves 5 px at any font size)
        if bar.get("orientation", "v") == "v" and _title_side(bar) == "top":
            bar.setdefault("ticklabelposition", "outside bottom")
    for part in [*axes, *colorbars]:
        part.setdefault("tickfont", {}).setdefault("size", size)
        title = part.get("title")
        if isinstance(title, dict):
            title.setdefault("font", {}).setdefault("size", size)
    legend = layout.setdefault("legend", {})
    legend.setdefault("font", {}).setdefault("size", size)
    if isinstance(legend.get("title"), dict):
        legend["title"].setdefault("font", {}).setdefault("size", size)
    for note in layout.get("annotations", []):
        note.setdefault("font", {}).setdefault("size", size)
    # a figure's title at least PRESENTER_TITLE_PX (plotly draws it at the base size)
    title = layout.get("title")
    if isinstance(title, dict) and title.get("text"):
        font = title.setdefault("font", {})
        font["size"] = max(font.get("size", size), PRESENTER_TITLE_PX * room)


def _title_side(bar: dict) -> str:
    """The side of an upright colour ``bar``'s title (plotly's default: on top)."""
    title = bar.get("title")
    return (title.get("side") or "top") if isinstance(title, dict) else "top"


def projector_plan_height(height: int, margin: dict) -> int:
    """The height to build a figure at so that :func:`for_projector` fits it into ``height``.

    ``for_projector`` grows the top and bottom margins by :data:`FONT_SCALE`; a
    builder that sizes its panels from its height (equal units on both axes,
    text placed in data units) plans for what remains.
    """
    return height - round((FONT_SCALE - 1) * (margin.get("t", 0) + margin.get("b", 0)))


def _enlarge(node: dict, seen: set[int], room: float) -> None:
    """Scale the font sizes, line widths and marker sizes in one figure part, in place
    (and a colour bar's sizes in pixels, by ``room`` alone).

    ``seen`` holds the ids of the dictionaries already done, which are skipped.
    """
    if id(node) in seen:
        return
    seen.add(id(node))
    for key, value in node.items():
        if key in _SKIPPED_KEYS:
            continue
        if isinstance(value, dict):
            if id(value) in seen:
                continue
            if key in _FONT_KEYS and "size" in value:
                value["size"] = _scaled(value["size"], FONT_SCALE * room, MIN_FONT_PX * room)
            elif key == "line" and "width" in value:
                value["width"] = _scaled(value["width"], LINE_SCALE * room)
            elif key == "marker" and "size" in value:
                value["size"] = _scaled(value["size"], MARKER_SCALE * room)
            elif key == "colorbar":
                value.update({k: _scaled(value[k], room) for k in COLORBAR_PX if k in value})
            elif key == "pad":  # a title's or a margin's, in pixels
                value.update({k: _scaled(v, room) for k, v in value.items()})
            elif key == "title" and "standoff" in value:  # an axis title's gap, in pixels
                value["standoff"] = _scaled(value["standoff"], room)
            _enlarge(value, seen, room)
        elif isinstance(value, list | tuple):
            for item in value:
                if isinstance(item, dict):
                    _enlarge(item, seen, room)


def _scaled(size: object, factor: float, minimum: float = 0.0) -> object:
    """``size`` × ``factor`` (at least ``minimum``, but 0 stays 0), for a number or an array."""
    if isinstance(size, bool) or size is None:
        return size
    if isinstance(size, int | float):
        return round(max(size * factor, minimum), 1) if size > 0 else size
    array = np.asarray(size, dtype=float)
    return np.where(array > 0, np.maximum(array * factor, minimum), array).round(1)


def wrap_lines(text: str, width_px: float, font_px: float) -> list[str]:
    """``text`` broken at spaces into lines that fit ``width_px`` at ``font_px``.

    Widths are estimated at :data:`CHAR_EM` per character; a word longer than a
    line keeps a line of its own.
    """
    return textwrap.wrap(text, max(1, int(width_px / (CHAR_EM * font_px)))) or [""]


def is_narrow(width_px: int | None) -> bool:
    """Whether a figure drawn ``width_px`` wide is on a phone's page (:data:`NARROW_PX`)."""
    return width_px is not None and width_px < NARROW_PX


def title_lines(text: str, width_px: int | None, font_px: float) -> list[str]:
    """A figure's title as lines: one, or on a page narrower than :data:`NARROW_PX`
    (``width_px``, a phone's) as many as fit it (plotly does not break titles)."""
    if not is_narrow(width_px):
        return [text]
    return wrap_lines(text, width_px - TITLE_PAD_PX, font_px)


def figure_json(spec: dict) -> tuple[dict, str]:
    """A figure's plain data (``{"data", "layout"}``, numpy arrays in its traces) and the
    JSON the app's chart sends of it, the same as of ``go.Figure(spec)``: made where the
    figure is built (a worker process), without plotly's figure objects, which deep-copy
    it.  :func:`kpca_ui.chart.figure_from_json` makes the figure of both."""
    # numpy arrays as plotly's typed arrays, as Figure.to_dict() writes them (in copies
    # of the traces: ``spec`` keeps its arrays)
    sent = {**spec, "data": [copy.deepcopy(trace) for trace in spec.get("data", [])]}
    convert_to_base64(sent["data"])
    layout = spec.get("layout", {})
    if layout.get("template") is None and pio.templates.default is not None:
        # the default template, which a Figure adds (Streamlit's theme is applied over it)
        default = pio.templates.default
        template = default if isinstance(default, go.layout.Template) else pio.templates[default]
        sent["layout"] = {**layout, "template": template.to_plotly_json()}
    return spec, pio.to_json(sent, validate=False, engine="orjson")
