"""Figures of the Contours view (Schölkopf, Smola & Müller 1998, Fig. 2).

Pure functions: a :class:`kpca_core.contours.ContourSweep` in, ``go.Figure`` out.

The grid figure is built as plain dictionaries (axis domains computed here
instead of by ``make_subplots``) and wrapped without plotly's per-property
validation: for 12 panels validation alone costs ~30 ms, half the 60 ms
budget from a moved slider to a ready figure (``bench/contours.py``).  The
tests validate every figure these functions build by re-creating it with
validation on.

Each panel is drawn with what the browser draws fastest, because the app's
browser redraws the whole grid twice for every change (``bench/ui_latency.py``):

- the colours: one PNG of the grid values (``layout.images``), coloured here
  through the diverging scale; the browser smooths it as plotly's heatmap does;
- the contour lines: computed here (``contourpy``), one SVG path per panel
  (``layout.shapes``) instead of plotly.js tracing 21 levels itself;
- the data points: small diamonds in :data:`POINT_LAYERS` filled SVG paths
  per panel instead of one SVG element per point; the data themselves stay
  in the figure's data as a trace that draws nothing.

A 3 × 4 grid then draws in ~80 ms instead of ~240 ms in headless Chromium.
The price: hovering a panel no longer shows the component's value (a heatmap
or contour trace for hover alone costs ~40 ms per drawing), and the dots, in
data units, grow when the user zooms in.

Colour: every panel is divided by the largest |value| of its component on
the data points, so one diverging scale from −1 to 1, centred on 0, fits all
panels (the raw values differ by orders of magnitude between kernels; each
panel's λ is in its title).  Beyond the data the colour saturates; contour
lines are drawn every :data:`LEVEL_STEP` up to ±:data:`LEVEL_MAX`.
"""

from __future__ import annotations

import base64
import struct
import textwrap
import zlib

import contourpy
import numpy as np
import plotly.graph_objects as go
from plotly.colors import get_colorscale, unlabel_rgb

from ..contours import ContourSweep, missing_reason
from . import style

LEVEL_STEP = 0.2
LEVEL_MAX = 2.0
LEVELS = np.round(np.arange(-LEVEL_MAX, LEVEL_MAX + LEVEL_STEP / 2, LEVEL_STEP), 10)
"""The values of the contour lines (0 included)."""
LINE = {"width": 0.6, "color": "rgba(0, 0, 0, 0.45)"}
LINE_STEP_PX = 3.0
"""Contour lines keep a vertex about every this many pixels (at :data:`FIGURE_PX`)."""
POINT_PX = 3.5
"""Diameter of the circle as large as a data point's dot, in pixels at :data:`FIGURE_PX`."""
POINT_LAYERS = 2
"""Dots in this many interleaved shapes: overlapping dots of two shapes darken, as markers do."""
POINT_COLOUR = "rgba(0, 0, 0, 0.55)"
FIGURE_PX = 820
"""Width the panel heights are planned for: the wide page at 1280 px, sidebar open."""
MARGIN = {"l": 40, "r": 20, "b": 90}
COLORBAR_PX = 60
"""Room below the panels for the horizontal colour bar."""
TITLE_PX = 50
GAP_X = 0.025
MAX_SVG_POINTS = 1000
"""Above this many points, points are drawn with WebGL (``scattergl``)."""
COLORBAR_TITLE = "component value ÷ its largest |value| on the data"
COLORSCALE = get_colorscale(style.DIVERGING)
"""The diverging scale as explicit stops: unvalidated figures get no name lookup."""
_STOPS = np.array([position for position, _ in COLORSCALE])
_STOP_RGB = np.array([unlabel_rgb(colour) for _, colour in COLORSCALE], dtype=float)


def _axis_suffix(index: int) -> str:
    return "" if index == 0 else str(index + 1)


def panel_title(sweep: ContourSweep, c: int, r: int) -> str:
    """Title of panel (row r, column c): heading, component, λ and share of variance."""
    column = sweep.columns[c]
    head = f"<b>{sweep.column_label(c)}</b> · kPC {r + 1}"
    if r >= column.n_components:
        return f"{head}<br>—"
    fit = column.fit
    return f"{head}<br>λ = {fit.eigenvalues[r]:.3g} ({fit.shares[r]:.1%})"


def _wrap(text: str, width: int = 30) -> str:
    return "<br>".join(textwrap.wrap(text, width))


def colours(values: np.ndarray) -> np.ndarray:
    """RGB of values through :data:`COLORSCALE` from −1 to 1, saturating beyond.

    Parameters
    ----------
    values : ndarray

    Returns
    -------
    ndarray of shape ``values.shape + (3,)``, uint8
        Interpolated linearly between the scale's stops, as plotly does.

    Raises
    ------
    ValueError
        If a value is not finite: a panel never shows a hole as a colour.
    """
    values = np.asarray(values, dtype=float)
    if not np.all(np.isfinite(values)):
        raise ValueError("component values must be finite to be coloured")
    t = np.clip((values + 1.0) / 2.0, 0.0, 1.0)
    rgb = np.stack([np.interp(t, _STOPS, _STOP_RGB[:, k]) for k in range(3)], axis=-1)
    return np.round(rgb).astype(np.uint8)


def png_data_uri(rgb: np.ndarray) -> str:
    """An RGB image as a ``data:image/png;base64`` URI (PNG written with zlib).

    Parameters
    ----------
    rgb : ndarray of shape (height, width, 3), uint8
        Rows from the top of the picture down.

    Returns
    -------
    str
    """
    height, width, _ = rgb.shape
    rows = np.concatenate([np.zeros((height, 1), np.uint8), rgb.reshape(height, 3 * width)], 1)

    def chunk(tag: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(tag + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", crc)

    png = b"".join(
        (
            b"\x89PNG\r\n\x1a\n",
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)),
            chunk(b"IDAT", zlib.compress(rows.tobytes(), 1)),
            chunk(b"IEND", b""),
        )
    )
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


def _colour_image(sweep: ContourSweep, values: np.ndarray, suffix: str) -> dict:
    """The panel's colours as a layout image, one pixel per grid point (as a heatmap)."""
    xs, ys = sweep.grid.xs, sweep.grid.ys
    dx = (xs[-1] - xs[0]) / max(xs.size - 1, 1)
    dy = (ys[-1] - ys[0]) / max(ys.size - 1, 1)
    return {
        "source": png_data_uri(colours(values[::-1])),
        "xref": f"x{suffix}",
        "yref": f"y{suffix}",
        "x": float(xs[0] - dx / 2),
        "y": float(ys[-1] + dy / 2),
        "sizex": float(xs[-1] - xs[0] + dx),
        "sizey": float(ys[-1] - ys[0] + dy),
        "sizing": "stretch",
        "xanchor": "left",
        "yanchor": "top",
        "layer": "below",
    }


def contour_lines(
    xs: np.ndarray, ys: np.ndarray, values: np.ndarray, levels: np.ndarray = LEVELS
) -> tuple[np.ndarray, np.ndarray]:
    """Lines of constant value of a grid (``contourpy``), every level one after the other.

    Parameters
    ----------
    xs, ys : ndarray
        Grid coordinates.
    values : ndarray of shape (len(ys), len(xs))
    levels : ndarray
        The values of the lines.

    Returns
    -------
    points : ndarray of shape (n, 2)
        The vertices of all lines, in data coordinates.
    starts : ndarray of shape (n,), bool
        Where a new line starts.
    """
    generator = contourpy.contour_generator(
        xs,
        ys,
        np.asarray(values, dtype=float),
        line_type=contourpy.LineType.ChunkCombinedOffset,
    )
    points, starts = [np.zeros((0, 2))], [np.zeros(0, bool)]
    for chunk_points, chunk_offsets in generator.multi_lines(levels):
        for vertices, offsets in zip(chunk_points, chunk_offsets, strict=True):
            if vertices is None:
                continue
            first = np.zeros(len(vertices), bool)
            first[offsets[:-1]] = True
            points.append(vertices)
            starts.append(first)
    return np.concatenate(points), np.concatenate(starts)


def thin(points: np.ndarray, starts: np.ndarray, step: float) -> np.ndarray:
    """Which vertices to keep so that each line has one about every ``step`` along it.

    Contour lines of a grid have a vertex on every cell edge they cross, often
    a fraction of a pixel apart, and the browser converts every vertex of a
    shape.  A chord of length ≤ 2 × ``step`` strays from a curve of radius R
    by at most (2 step)² / 8R: a fifth of a pixel for a 3-pixel step and a
    20-pixel radius.  The ends of every line are kept.

    Parameters
    ----------
    points : ndarray of shape (n, 2)
    starts : ndarray of shape (n,), bool
        Where a new line starts, as from :func:`contour_lines`.
    step : float
        In data units.

    Returns
    -------
    ndarray of shape (n,), bool
    """
    if len(points) == 0:
        return np.zeros(0, bool)
    length = np.concatenate([[0.0], np.hypot(*np.diff(points, axis=0).T)])
    length[starts] = 0.0
    arc = np.cumsum(length)
    first = np.maximum.accumulate(np.where(starts, np.arange(len(points)), 0))
    section = np.floor((arc - arc[first]) / step)
    ends = np.append(starts[1:], True)
    return starts | ends | (section != np.roll(section, 1))


def lines_path(points: np.ndarray, starts: np.ndarray, decimals: int) -> str:
    """One SVG path of polylines, ``"M x,y L x,y …"`` per line, in data coordinates."""
    fmt = f"{{}}{{:.{decimals}f}},{{:.{decimals}f}}".format
    commands = np.where(starts, "M", "L").tolist()
    return "".join(map(fmt, commands, points[:, 0].tolist(), points[:, 1].tolist()))


def _lines_shape(
    sweep: ContourSweep, values: np.ndarray, step: float, decimals: int, suffix: str
) -> dict:
    points, starts = contour_lines(sweep.grid.xs, sweep.grid.ys, values)
    keep = thin(points, starts, step)
    return {
        "type": "path",
        "path": lines_path(points[keep], starts[keep], decimals),
        "xref": f"x{suffix}",
        "yref": f"y{suffix}",
        "line": LINE,
        "layer": "above",
        "name": "contour lines",
    }


def _points_trace(X: np.ndarray, axes: dict) -> dict:
    """The data in the first panel as a trace that draws nothing (the dots are shapes).

    Cheap to draw, and it keeps the data points among the figure's data.
    """
    X = np.asarray(X, dtype=np.float32)
    return {
        "type": "scatter",
        "x": X[:, 0],
        "y": X[:, 1],
        "mode": "none",
        "name": "data",
        "hoverinfo": "skip",
        "showlegend": False,
        **axes,
    }


def dots_path(X: np.ndarray, radius: float) -> str:
    """An SVG path of a small diamond around every point, for one filled shape.

    Parameters
    ----------
    X : ndarray of shape (n_samples, 2)
    radius : float
        Half the diagonal of a diamond, in data units.

    Returns
    -------
    str
        ``"M…L…L…L…Z"`` once per point, in data coordinates.
    """
    x, y = np.asarray(X[:, 0], float), np.asarray(X[:, 1], float)
    return "".join(
        f"M{x0:.6g},{y0:.6g}L{x1:.6g},{y1:.6g}L{x2:.6g},{y0:.6g}L{x1:.6g},{y2:.6g}Z"
        for x0, x1, x2, y0, y1, y2 in zip(
            x - radius, x, x + radius, y, y + radius, y - radius, strict=True
        )
    )


def _points_shape(X: np.ndarray, radius: float) -> dict:
    return {
        "type": "path",
        "path": dots_path(X, radius),
        "fillcolor": POINT_COLOUR,
        "fillrule": "nonzero",
        "line": {"width": 0},
        "layer": "above",
        "name": "data",
    }


def _colour_axis_trace() -> dict:
    """An empty trace on the colour axis, so that plotly draws its colour bar."""
    return {
        "type": "scatter",
        "x": [None],
        "y": [None],
        "mode": "markers",
        "marker": {"color": [0.0], "coloraxis": "coloraxis"},
        "hoverinfo": "skip",
        "showlegend": False,
    }


def contour_figure(sweep: ContourSweep, *, title: str = "") -> go.Figure:
    """The grid of Fig. 2: columns are kernels, rows are components 1 … k.

    Each panel: the component's value over the grid (filled, with contour
    lines), the data points on top, and λ with its share of variance in the
    title.  A component that does not exist (or a column that could not be
    computed) is an empty panel whose text says why.

    Parameters
    ----------
    sweep : ContourSweep
    title : str
        Figure title (e.g. the data set).

    Returns
    -------
    go.Figure
        ``len(columns) × n_components`` panels sharing one colour axis.
    """
    n_cols, n_rows = len(sweep.columns), sweep.n_components
    if n_cols == 0:
        raise ValueError("a contour figure needs at least one column")
    width = (1.0 - GAP_X * (n_cols - 1)) / n_cols
    # panels as tall as their width at equal aspect, so the rows leave no gaps
    panel_width = (FIGURE_PX - MARGIN["l"] - MARGIN["r"]) * width
    aspect = np.ptp(sweep.grid.ys) / max(np.ptp(sweep.grid.xs), 1e-300)
    panel_px = int(np.clip(panel_width * np.clip(aspect, 0.4, 2.5), 120, 420))
    row_px = panel_px + TITLE_PX
    plot_px = n_rows * row_px
    x_range = [float(sweep.grid.xs[0]), float(sweep.grid.xs[-1])]
    y_range = [float(sweep.grid.ys[0]), float(sweep.grid.ys[-1])]
    # dots of the same area as POINT_PX circles, at the scale the panels are planned for
    px_per_unit = min(
        panel_width / max(np.ptp(x_range), 1e-300), panel_px / max(np.ptp(y_range), 1e-300)
    )
    radius = np.sqrt(np.pi / 8) * POINT_PX / px_per_unit
    step = LINE_STEP_PX / px_per_unit
    # a hundredth of a pixel
    decimals = max(0, int(np.ceil(np.log10(100 * px_per_unit))))
    dots = [_points_shape(sweep.X[k::POINT_LAYERS], radius) for k in range(POINT_LAYERS)]
    data: list[dict] = []
    annotations: list[dict] = []
    images: list[dict] = []
    shapes: list[dict] = []
    layout: dict = {
        "height": plot_px + (60 if title else 20) + MARGIN["b"],
        "margin": {**MARGIN, "t": 60 if title else 20},
        "font": {"family": style.FONT_FAMILY, "size": 11},
        "showlegend": False,
        "plot_bgcolor": "white",
        "coloraxis": {
            "colorscale": COLORSCALE,
            "cmin": -1.0,
            "cmax": 1.0,
            "colorbar": {
                "title": {"text": COLORBAR_TITLE, "side": "top"},
                "orientation": "h",
                "x": 0.5,
                "xanchor": "center",
                "y": -COLORBAR_PX / plot_px,
                "yanchor": "top",
                "thickness": 12,
                "len": 0.5,
            },
        },
    }
    if title:
        layout["title"] = {"text": title, "x": 0.0, "xanchor": "left"}
    for r in range(n_rows):
        top = 1.0 - (r * row_px + TITLE_PX) / plot_px
        bottom = top - panel_px / plot_px
        for c, column in enumerate(sweep.columns):
            index = r * n_cols + c
            suffix = _axis_suffix(index)
            left = c * (width + GAP_X)
            layout[f"xaxis{suffix}"] = {
                "domain": [max(left, 0.0), min(left + width, 1.0)],
                "range": x_range,
                "anchor": f"y{suffix}",
                "constrain": "domain",
                "showgrid": False,
                "zeroline": False,
                "showticklabels": r == n_rows - 1,
                "tickfont": {"size": 9},
                "automargin": False,
            }
            layout[f"yaxis{suffix}"] = {
                "domain": [max(bottom, 0.0), min(top, 1.0)],
                "range": y_range,
                "anchor": f"x{suffix}",
                "scaleanchor": f"x{suffix}",
                "constrain": "domain",
                "constraintoward": "top",
                "showgrid": False,
                "zeroline": False,
                "showticklabels": c == 0,
                "tickfont": {"size": 9},
                "automargin": False,
            }
            axes = {"xaxis": f"x{suffix}", "yaxis": f"y{suffix}"}
            annotations.append(
                {
                    "text": panel_title(sweep, c, r),
                    "x": left + width / 2,
                    "y": top,
                    "xref": "paper",
                    "yref": "paper",
                    "xanchor": "center",
                    "yanchor": "bottom",
                    "showarrow": False,
                    "font": {"size": 12},
                }
            )
            if r < column.n_components:
                images.append(_colour_image(sweep, column.values[r], suffix))
                shapes.append(_lines_shape(sweep, column.values[r], step, decimals, suffix))
            else:
                reason = missing_reason(column, r)
                if column.error is not None:
                    head = reason.split(":")[0]
                    reason = f"{head}: see the note above the figure" if r == 0 else "no picture"
                annotations.append(
                    {
                        "text": _wrap(reason),
                        "x": left + width / 2,
                        "y": (top + bottom) / 2,
                        "xref": "paper",
                        "yref": "paper",
                        "showarrow": False,
                        "bgcolor": "rgba(255, 255, 255, 0.85)",
                        "bordercolor": style.NEUTRAL,
                        "font": {"size": 10},
                    }
                )
            shapes += [{**layer, "xref": f"x{suffix}", "yref": f"y{suffix}"} for layer in dots]
            if index == 0:
                data.append(_points_trace(sweep.X, axes))
    data.append(_colour_axis_trace())
    layout["annotations"] = annotations
    layout["images"] = images
    layout["shapes"] = shapes
    # Built from checked dictionaries; tests re-create it with validation on.
    return go.Figure(data=data, layout=layout, _validate=False)


def projection_figure(sweep: ContourSweep, column: int, i: int, j: int) -> go.Figure:
    """The data in the coordinates of kernel principal components i and j (1-based).

    Points are coloured by group (Okabe–Ito colours) when the data have more
    than one group.  A component that does not exist gives an empty figure
    whose text says why.
    """
    col = sweep.columns[column]
    layout: dict = {
        "title": {"text": f"{sweep.column_label(column)}: the data in kPC {i} and kPC {j}"},
        "height": 460,
        "margin": {"l": 60, "r": 20, "t": 50, "b": 50},
        "font": {"family": style.FONT_FAMILY, "size": 12},
        "plot_bgcolor": "white",
        "legend": {"title": {"text": "group"}},
        "showlegend": False,
    }
    missing = [k for k in (i, j) if k > col.n_components]
    if missing:
        layout["annotations"] = [
            {
                "text": _wrap(missing_reason(col, missing[0] - 1), 60),
                "x": 0.5,
                "y": 0.5,
                "xref": "paper",
                "yref": "paper",
                "showarrow": False,
            }
        ]
        layout["xaxis"] = layout["yaxis"] = {"visible": False}
        return go.Figure(layout=layout)
    P = col.fit.projections.astype(np.float32)
    labels = np.zeros(len(P), dtype=int) if sweep.labels is None else np.asarray(sweep.labels)
    groups = np.unique(labels)
    data = []
    for g, group in enumerate(groups):
        mask = labels == group
        colour = style.GROUPS[g % len(style.GROUPS)] if len(groups) > 1 else "black"
        data.append(
            {
                "type": "scatter" if len(P) <= MAX_SVG_POINTS else "scattergl",
                "x": P[mask, i - 1],
                "y": P[mask, j - 1],
                "mode": "markers",
                "name": str(group),
                "marker": {"size": 6, "color": colour, "opacity": 0.75},
                "hovertemplate": (
                    f"kPC {i} %{{x:.3g}}<br>kPC {j} %{{y:.3g}}<extra>group {group}</extra>"
                ),
            }
        )
    layout["showlegend"] = len(groups) > 1
    for name, k in (("xaxis", i), ("yaxis", j)):
        layout[name] = {
            "title": {"text": f"kPC {k} (λ = {col.fit.eigenvalues[k - 1]:.3g})"},
            "zeroline": True,
            "zerolinecolor": style.NEUTRAL,
            "showgrid": False,
        }
    return go.Figure(data=data, layout=layout, _validate=False)
