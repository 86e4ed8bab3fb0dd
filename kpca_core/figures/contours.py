"""Figures of the Contours view (Schölkopf, Smola & Müller 1998, Fig. 2).

Pure functions: a :class:`kpca_core.contours.ContourSweep` in, ``go.Figure`` out.

The grid figure is built as plain dictionaries (axis domains computed here
instead of by ``make_subplots``) and wrapped without plotly's per-property
validation: for 12 panels validation alone costs ~30 ms, half the 60 ms
budget from a moved slider to a ready figure (``bench/contours.py``).  The
tests validate every figure these functions build by re-creating it with
validation on.

Each panel is drawn as pictures (:mod:`kpca_core.figures.panels`): the
colours and the data dots as PNG images, the contour lines as one SVG path.
With all panels on one pair of axes (see :func:`contour_figure`), a 3 × 4
grid draws in ~32 ms instead of ~240 ms in headless Chromium.
The price: hovering a panel no longer shows the component's value (a heatmap
or contour trace for hover alone costs ~40 ms per drawing), and the dots, a
picture, grow (and blur) when the user zooms in.

Colour: every panel is divided by the largest |value| of its component on
the data points, so one diverging scale from −1 to 1, centred on 0, fits all
panels (the raw values differ by orders of magnitude between kernels; each
panel's λ is in its title).
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from ..contours import ContourSweep, KernelSpec, contour_sweep, missing_reason
from ..contours.export import eigenvalues_table
from . import layout as rule
from . import panels, style
from .words import Description, plain

FIGURE_PX = 820
"""Width the panel heights are planned for: the wide page at 1280 px, sidebar open."""
MARGIN = {"l": 40, "r": 20, "b": 90}
COLORBAR_PX = 60
"""Room below the panels for the horizontal colour bar."""
GROUP_MARKER_PX = 9
"""Diameter of a point's marker when the points are coloured by group."""
TITLE_PX = 50
"""Room above each row of panels for their titles."""
FITTED_TITLE_PX = 28
"""Room above each row of a figure fitted to a height: one line of title."""
FITTED_LINE_PX = 22
"""A further line of a fitted figure's panel titles (12 px text, enlarged for a projector)."""
TITLE_EM = 1.4
"""plotly's size of a figure's title, in em of the figure's font."""
TITLE_FONT_PX = 12
"""Size of the panels' titles (enlarged on a projector by ``style.FONT_SCALE``)."""
FITTED_CHAR_PX = 0.56 * TITLE_FONT_PX * style.FONT_SCALE
"""Width of a character of a panel title on a projector, on average (0.56 em)."""
FITTED_MARGIN = {"l": 10, "r": 154, "t": 40, "b": 10}
"""Margins of a figure fitted to a height: the colour bar stands at the right. With its
title and ticks at the projector's size plotly widened a margin of 130 px to 155 px in
Chromium, which shrank planned 92 px panels to 88 px: planned for 154 px, the drawn
plot is at most a pixel narrower (and a lesson's 804 px slide keeps its titles'
columns 160 px wide)."""
GAP_X = 0.025
"""Gap between columns, as a fraction of the plot's width."""
PANEL_MAX_PX = 420
"""The tallest a panel gets, in pixels at :data:`FIGURE_PX`."""
PANEL_ASPECT = (0.4, 2.5)
"""A panel's height ÷ width is kept in this range: flatter or taller data get white margins."""
MAX_SVG_POINTS = 1000
"""Above this many points, points are drawn with WebGL (``scattergl``)."""
FITTED_COLORBAR = {"title": {"text": "value ÷<br>max |value|", "side": "top"}, "thickness": 14}
"""The vertical colour bar of a figure fitted to a height."""
EMPTY_FILL = "rgba(127, 127, 127, 0.15)"
"""A panel without a component: translucent grey, which reads on light and dark pages."""
EMPTY_FONT_PX = rule.MIN_TEXT_PX
"""Size of the text that says why a panel is empty (enlarged on a projector)."""
FITTED_EMPTY_PX = max(EMPTY_FONT_PX * style.FONT_SCALE, style.MIN_FONT_PX)
"""The same text on a projector, as :func:`kpca_core.figures.style.for_projector` draws it."""
COLORBAR_TITLE = "component value ÷ its largest |value| on the data"
MAX_IMAGE_BYTES = 1_000_000
"""Budget of the panels' colour pictures (base64 PNG) in one figure."""
MAX_LINE_BYTES = 500_000
"""Budget of the panels' contour lines (SVG paths) in one figure."""
MAX_DOTS_BYTES = 400_000
"""Budget of the data's dots, a picture repeated in every panel.  With the two
above, a figure stays below ~2 MB: 48 panels at resolution 200 made 1.2 MB of
colour pictures and 0.9 MB of dots, and one panel of rounding noise a 3.9 MB
path (issue #14)."""


def panel_title(sweep: ContourSweep, c: int, r: int) -> str:
    """Title of panel (row r, column c): heading, component, λ and share of variance."""
    column = sweep.columns[c]
    head = f"<b>{sweep.column_label(c)}</b> · kPC {r + 1}"
    if r >= column.n_components:
        return f"{head}<br>—"
    fit = column.fit
    return f"{head}<br>λ = {fit.eigenvalues[r]:.3g} ({fit.shares[r]:.1%})"


def _fitted_title(
    sweep: ContourSweep, c: int, r: int, *, split: bool = False, head: bool | None = None
) -> str:
    """A fitted figure's panel title: one line (two if ``split``: "kPC k", then λ), the
    column's heading only in the first row shown (``head``, by default row 0)."""
    lines = panel_title(sweep, c, r).split("<br>")
    lines[0] = lines[0].split(" · ")[1]  # "kPC k"
    line = ("<br>" if split else " · ").join(lines)
    head = r == 0 if head is None else head
    return f"<b>{sweep.column_label(c)}</b><br>{line}" if head else line


def shown_components(sweep: ContourSweep, width_px: int, height_px: int, side: int = 1) -> int:
    """How many rows (the first components) a figure fitted to ``height_px`` shows in each
    of ``side`` blocks of rows standing side by side.

    All of them if each panel is then at least :data:`kpca_core.figures.layout.PANEL_MIN_PX`
    on its shorter side, else as many as keep that size (at least one): the layout rule
    (:func:`kpca_core.figures.layout.plan_grid`) with the fitted figure's margins and titles.
    """
    n_cols, n_rows = len(sweep.columns) * side, -(-sweep.n_components // side)
    xs, ys = sweep.grid.xs, sweep.grid.ys
    w, h = float(np.ptp(xs)), float(np.ptp(ys))
    box_w = max(w, h / PANEL_ASPECT[1], 1e-300)
    box_h = max(h, w * PANEL_ASPECT[0], 1e-300)
    plot_w = width_px - FITTED_MARGIN["l"] - FITTED_MARGIN["r"]
    split = _split_titles(sweep, plot_w / n_cols)
    title_px = FITTED_TITLE_PX + split * FITTED_LINE_PX
    # the panel's shorter side, with 2 px to spare for the figure's rounding
    least = (rule.PANEL_MIN_PX + 2) / min(1.0, box_h / box_w)
    shown = n_rows
    # room for the rows: less the top (with a line that says what is shown if not all
    # rows are), the bottom and the first row's heading line
    for top_px in (20, FITTED_MARGIN["t"]):
        # (a planned height counts a top margin of 20 px, which a projector enlarges)
        grown = round((style.FONT_SCALE - 1) * (top_px - 20))
        rows_px = height_px - grown - top_px - FITTED_MARGIN["b"] - (TITLE_PX - title_px)
        plan = rule.plan_grid(
            1,
            n_rows,
            (plot_w / n_cols) * (1 - GAP_X),
            height_px=rows_px,
            aspect=box_h / box_w,
            title_px=title_px,
            least_px=min(least, (plot_w / n_cols) * (1 - GAP_X)),
        )
        shown = plan.shown_rows
        if shown == n_rows:
            break
    return shown


def fitted_blocks(sweep: ContourSweep, width_px: int, height_px: int) -> tuple[int, int]:
    """A figure fitted to ``width_px`` × ``height_px``: how many blocks of rows stand side by
    side, and how many rows (the first components) it shows in all.

    One block when every row fits the height; else the components wrap into blocks side
    by side (kPC 1–2 beside kPC 3–4) while the width holds them, so that a short, wide
    screen (a projector, a lesson's slide) shows them all, or as many as fit: of those
    that show the most, the one with the largest panels (three components of one column
    in a row rather than two rows and one).
    """
    n_cols, n_rows = len(sweep.columns), sweep.n_components
    shown = shown_components(sweep, width_px, height_px)
    if shown == n_rows:
        return 1, shown
    w, h = float(np.ptp(sweep.grid.xs)), float(np.ptp(sweep.grid.ys))
    box_w = max(w, h / PANEL_ASPECT[1], 1e-300)
    box_h = max(h, w * PANEL_ASPECT[0], 1e-300)
    plot_w = width_px - FITTED_MARGIN["l"] - FITTED_MARGIN["r"]
    # the least width of a column: its titles' widest line, "kPC k" and λ on two lines
    narrowest = FITTED_CHAR_PX * max(
        len(line)
        for c in range(n_cols)
        for r in range(n_rows)
        for line in _fitted_title(sweep, c, r, split=True, head=False).split("<br>")
    )

    def scale(side: int, shown: int) -> float:
        """Pixels a unit of the plane: ``shown`` rows in ``side`` blocks (as contour_figure)."""
        columns, rows = n_cols * side, -(-shown // side)
        # a gap of GAP_X of the plot between columns
        panel_w = (plot_w - GAP_X * plot_w * (columns - 1)) / columns
        split = _split_titles(sweep, plot_w / columns)
        title_px = FITTED_TITLE_PX + split * FITTED_LINE_PX
        rows_px = height_px - sum(FITTED_MARGIN[k] for k in "tb") - TITLE_PX - (rows - 1) * title_px
        return min(panel_w / box_w, (rows_px - split * FITTED_LINE_PX) / (rows * box_h))

    best = (shown, scale(1, shown), 1)
    for side in range(2, n_rows + 1):
        columns = n_cols * side
        # as contour_figure spaces them: a gap of GAP_X of the plot between columns
        panel_w = (plot_w - GAP_X * plot_w * (columns - 1)) / columns
        too_small = panel_w * min(1.0, box_h / box_w) < rule.PANEL_MIN_PX + 2
        if too_small or narrowest > plot_w / columns:
            break
        shown = min(n_rows, side * shown_components(sweep, width_px, height_px, side))
        best = max(best, (shown, scale(side, shown), side))
    return best[2], best[0]


def _split_titles(sweep: ContourSweep, column_px: float) -> bool:
    """Whether a fitted figure's one-line panel titles are wider than their columns."""
    widest = max(
        style.text_em(_fitted_title(sweep, c, r).rsplit("<br>", 1)[-1])
        for c in range(len(sweep.columns))
        for r in range(sweep.n_components)
    )
    return widest * TITLE_FONT_PX * style.FONT_SCALE > column_px


def columns_per_block(sweep: ContourSweep, width_px: int) -> int:
    """How many of the grid's columns stand side by side in a figure ``width_px`` wide.

    All of them at :data:`FIGURE_PX` or wider (the page's width at 1280 px);
    on a narrower page as many as fit, each at least as wide as its panels'
    two-line titles (0.56 em a character), in blocks of equal size (6 columns
    of which 4 fit: two blocks of 3).
    """
    n_cols = len(sweep.columns)
    if width_px >= FIGURE_PX:
        return n_cols
    plot_px = width_px - MARGIN["l"] - MARGIN["r"]
    widest = max(
        len(re.sub("<[^>]+>", "", line))
        for c in range(len(sweep.columns))
        for r in range(sweep.n_components)
        for line in panel_title(sweep, c, r).split("<br>")
    )
    # a panel's shorter side at least PANEL_MIN_PX, with 2 px to spare for the browser's
    # rounding: a flat panel (an upload twice as wide as tall) needs a wider column
    # (two such columns on a phone were drawn 84 px tall)
    w, h = float(np.ptp(sweep.grid.xs)), float(np.ptp(sweep.grid.ys))
    box_w, box_h = max(w, h / PANEL_ASPECT[1], 1e-300), max(h, w * PANEL_ASPECT[0], 1e-300)
    least = (rule.PANEL_MIN_PX + 2) / min(1.0, box_h / box_w)
    column_px = max(widest * 0.56 * TITLE_FONT_PX, least) + GAP_X * plot_px
    fit = max(1, int((plot_px + GAP_X * plot_px) // column_px))
    blocks = -(-n_cols // fit)
    return -(-n_cols // blocks)


def contour_figure(
    sweep: ContourSweep,
    *,
    title: str = "",
    width_px: int = FIGURE_PX,
    height_px: int | None = None,
    group_colours: tuple[str, ...] | None = None,
    panel_max_px: float = PANEL_MAX_PX,
) -> go.Figure:
    """The grid of Fig. 2 (:func:`contour_figure_data`) as a figure."""
    # Built from checked dictionaries; tests re-create it with validation on.
    return go.Figure(
        contour_figure_data(
            sweep,
            title=title,
            width_px=width_px,
            height_px=height_px,
            group_colours=group_colours,
            panel_max_px=panel_max_px,
        ),
        _validate=False,
    )


def contour_figure_data(
    sweep: ContourSweep,
    *,
    title: str = "",
    width_px: int = FIGURE_PX,
    height_px: int | None = None,
    group_colours: tuple[str, ...] | None = None,
    panel_max_px: float = PANEL_MAX_PX,
) -> dict:
    """The grid of Fig. 2: columns are kernels, rows are components 1 … k.

    Each panel: the component's value over the grid (filled, with contour
    lines), the data points on top, and λ with its share of variance in the
    title.  A component that does not exist (or a column that could not be
    computed) is an empty panel whose text says why.

    All panels lie side by side on one pair of axes (equal units, hidden),
    each shifted by a whole panel and a gap: a pair of axes per panel made
    the browser draw the grid in ~57 ms instead of ~32 ms, and Streamlit draws
    it twice per change.  So the panels have no tick labels; they all show
    the same part of the plane, and zooming moves them together.

    Parameters
    ----------
    sweep : ContourSweep
    title : str
        Figure title (e.g. the data set).
    width_px : int
        Width of the figure in pixels.
    height_px : int, optional
        The tallest the figure may be (a projector's screen): the panels shrink
        until every row fits, with one-line titles in :data:`FITTED_TITLE_PX`
        and the colour bar at the right (:data:`FITTED_MARGIN`).  Without it,
        on a width too narrow for every column's titles (a phone), the columns
        are wrapped into blocks of :func:`columns_per_block` columns, one block
        of all the components below the other (every panel's title names its
        column).
    group_colours : tuple of str, optional
        With it, each point is a marker of its group's colour, group g of
        ``sweep.labels`` (1, 2, … as the drawing canvas numbers them) in
        ``group_colours[g - 1]``, outlined for both themes, instead of a dark dot.
    panel_max_px : float
        The tallest a panel may be (a drawing's grid beside its canvas: two rows on the
        first screen).

    Returns
    -------
    dict
        The figure's ``{"data": [...], "layout": {...}}`` as plain data (no plotly
        objects: a worker sends it and its JSON without copying it through them):
        ``len(columns) × n_components`` panels sharing one colour axis.
    """
    n_cols, n_rows = len(sweep.columns), sweep.n_components
    if n_cols == 0:
        raise ValueError("a contour figure needs at least one column")
    fitted = height_px is not None
    # a fitted figure's rows in `side` blocks side by side, `block_rows` in each
    side, shown = fitted_blocks(sweep, width_px, height_px) if fitted else (1, n_rows)
    block_rows = -(-shown // side)
    xs, ys = sweep.grid.xs, sweep.grid.ys
    w, h = float(np.ptp(xs)), float(np.ptp(ys))
    # a panel is a box around the grid, of a height ÷ width within PANEL_ASPECT
    box_w = max(w, h / PANEL_ASPECT[1], 1e-300)
    box_h = max(h, w * PANEL_ASPECT[0], 1e-300)
    # columns side by side in a block (panel (r, c) in row (c // wrap) · n_rows + r of the
    # figure, column c % wrap); one block unless the width is too narrow for the titles
    wrap = n_cols * side if fitted else columns_per_block(sweep, width_px)
    n_blocks = 1 if fitted else -(-n_cols // wrap)
    margin = FITTED_MARGIN if fitted else MARGIN
    top_px = (margin["t"] if fitted else 60) if title or shown < n_rows else 20
    plot_w = width_px - margin["l"] - margin["r"]
    # a fitted figure's titles in two lines where its columns are too narrow for one
    split = fitted and _split_titles(sweep, plot_w / wrap)
    title_px = FITTED_TITLE_PX + split * FITTED_LINE_PX if fitted else TITLE_PX
    gap_px = GAP_X * plot_w
    panel_w = (plot_w - gap_px * (wrap - 1)) / wrap
    px_per_unit = min(panel_w / box_w, panel_max_px / box_h)
    # the first row's titles name the column too (two lines); in a fitted figure the
    # other rows' titles are one line
    first_px = TITLE_PX + split * FITTED_LINE_PX
    if fitted:
        if shown < n_rows:  # the line that says so: a top margin a projector enlarges
            height_px -= round((style.FONT_SCALE - 1) * (top_px - 20))
        rows_px = height_px - top_px - margin["b"] - first_px - (block_rows - 1) * title_px
        px_per_unit = min(px_per_unit, max(rows_px, block_rows) / (block_rows * box_h))
        # each panel centred in an equal share of the width, so that its title has room
        gap_px = plot_w / wrap - box_w * px_per_unit
    gap, title_h = gap_px / px_per_unit, title_px / px_per_unit
    pad = gap / 2 if fitted else 0.0
    # panel (0, 0) is the grid itself, centred in its box; the others are shifted copies
    left, top = float(xs[0]) - (box_w - w) / 2, float(ys[-1]) + (box_h - h) / 2
    x_range = [left - pad, left + wrap * box_w + (wrap - 1) * gap + pad]
    shown_rows = n_blocks * block_rows
    y_range = [top - shown_rows * box_h - (shown_rows - 1) * title_h, top + first_px / px_per_unit]
    plot_px = (y_range[1] - y_range[0]) * px_per_unit
    plane = ([float(xs[0]), float(xs[-1])], [float(ys[0]), float(ys[-1])])
    dots = panels.dots_layer(sweep.X, *plane, px_per_unit)
    if len(dots["source"]) * n_cols * n_rows > MAX_DOTS_BYTES:  # sharp only if affordable
        dots = panels.dots_layer(sweep.X, *plane, px_per_unit, oversampling=1)
    axis = {"showgrid": False, "zeroline": False, "visible": False, "constrain": "domain"}
    layout: dict = {
        # The planned width, not the column's: a chart whose width is known from the
        # start is drawn visibly at once (Streamlit first draws a chart of unknown
        # width hidden, then again at its width), so a change shows one drawing sooner.
        "width": width_px,
        "height": round(plot_px) + top_px + margin["b"],
        "margin": {**margin, "t": top_px},
        "font": {"family": style.FONT_FAMILY, "size": rule.MIN_TEXT_PX},
        "showlegend": False,
        # the page's background between the panels, so titles read on light and dark themes
        "plot_bgcolor": style.TRANSPARENT,
        "xaxis": {**axis, "range": x_range},
        "yaxis": {
            **axis,
            "range": y_range,
            "scaleanchor": "x",
            "constraintoward": "top",
        },
        "coloraxis": {
            "colorscale": panels.COLORSCALE,
            "cmin": -1.0,
            "cmax": 1.0,
            "colorbar": FITTED_COLORBAR
            if fitted
            else {
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
    if shown < n_rows:
        # fewer rows than asked fit the screen: the figure says which it shows and how
        # many it hides; short: one line at the projector's size beside a drawing canvas
        rows = f"kPC 1–{shown}" if shown > 1 else "kPC 1"
        title = f"{rows} of {n_rows} shown ({n_rows - shown} hidden: too small here)"
    if title:
        lines = style.title_lines(title, width_px, TITLE_EM * layout["font"]["size"])
        layout["title"] = {"text": "<br>".join(lines), "x": 0.0, "xanchor": "left"}
        layout["height"] += style.TITLE_LINE_PX * (len(lines) - 1)
        layout["margin"]["t"] += style.TITLE_LINE_PX * (len(lines) - 1)
    axes = {"xref": "x", "yref": "y"}
    annotations: list[dict] = []
    images: list[dict] = []
    shapes: list[dict] = []
    drawn: list[tuple[np.ndarray, float, float]] = []
    shifts: list[tuple[float, float]] = []  # the panels that show the data
    n_drawn = sum(min(column.n_components, n_rows) for column in sweep.columns)
    line_chars = MAX_LINE_BYTES // max(n_drawn, 1)
    note_px = FITTED_EMPTY_PX if fitted else EMPTY_FONT_PX
    for r in range(shown):  # the first rows that fit: kPC 1 first
        for c, column in enumerate(sweep.columns):
            if fitted:  # blocks of rows side by side
                x_at, y_at = (r // block_rows) * n_cols + c, r % block_rows
            else:  # blocks of columns one below the other
                x_at, y_at = c % wrap, (c // wrap) * block_rows + r
            dx = x_at * (box_w + gap)
            dy = -y_at * (box_h + title_h)
            centre = (left + dx + box_w / 2, top + dy - box_h / 2)
            annotations.append(
                {
                    "text": (
                        _fitted_title(sweep, c, r, split=split, head=y_at == 0)
                        if fitted
                        else panel_title(sweep, c, r)
                    ),
                    "x": centre[0],
                    "y": top + dy,
                    **axes,
                    "xanchor": "center",
                    "yanchor": "bottom",
                    "showarrow": False,
                    "font": {"size": TITLE_FONT_PX},
                }
            )
            if r < column.n_components:
                values = column.values[r]
                drawn.append((values, dx, dy))
                # the column's lines, traced with its values (a cached column's once)
                points, starts = column.lines[r]
                shifted = points + np.array([dx, dy])
                path = panels.lines_svg_path(shifted, starts, px_per_unit, line_chars)
                shapes.append(panels.path_shape(path, axes))
            else:
                reason = missing_reason(column, r)
                if column.error is not None:
                    head = reason.split(":")[0]
                    reason = f"{head}: see the note under the figure" if r == 0 else "no picture"
                # the reason, wrapped to its panel; its head only if the whole is too tall,
                # and "no picture" if that is too (the note below says why)
                room_w, room_h = box_w * px_per_unit - 8, box_h * px_per_unit - 8
                for text in (reason, reason.split(":")[0], "no picture"):
                    lines = rule.fit_lines(text, room_w, note_px)
                    if rule.lines_px(len(lines), note_px) <= room_h:
                        break
                # an empty panel is a faint grey on light and dark themes alike
                shapes.append(
                    {
                        "type": "rect",
                        **axes,
                        "x0": xs[0] + dx,
                        "x1": xs[-1] + dx,
                        "y0": ys[0] + dy,
                        "y1": ys[-1] + dy,
                        "fillcolor": EMPTY_FILL,
                        "line": {"width": 0},
                        "layer": "below",
                        "name": "empty panel",
                    }
                )
                annotations.append(
                    {
                        "text": "<br>".join(lines),  # within its panel, a phone's too
                        "x": centre[0],
                        "y": centre[1],
                        **axes,
                        "showarrow": False,
                        "font": {"size": EMPTY_FONT_PX},
                    }
                )
                continue  # an empty panel's reason is its content: no data under it
            images.append({**dots, **axes, "x": dots["x"] + dx, "y": dots["y"] + dy})
            shifts.append((dx, dy))
    layout["annotations"] = annotations
    layout["shapes"] = shapes
    data = [panels.data_trace(sweep.X), panels.colour_axis_trace()]
    if group_colours is not None and sweep.labels is not None:
        images = []  # the groups' markers instead of the dots
        data += _group_markers(sweep.X, sweep.labels, group_colours, shifts)
    layout["images"] = _colour_images(xs, ys, drawn, axes) + images
    return {"data": data, "layout": layout}


def _group_markers(
    X: np.ndarray, labels: np.ndarray, colours: tuple[str, ...], shifts: list[tuple[float, float]]
) -> list[dict]:
    """One marker trace per group, its points in every panel (shifted by ``shifts``)."""
    traces = []
    for group in np.unique(labels):
        mask = labels == group
        x = np.concatenate([X[mask, 0] + dx for dx, _ in shifts] or [[]])
        y = np.concatenate([X[mask, 1] + dy for _, dy in shifts] or [[]])
        colour = colours[(int(group) - 1) % len(colours)]
        symbol = style.SYMBOLS[(int(group) - 1) % len(style.SYMBOLS)]
        traces.append(
            {
                "type": "scatter",
                "x": x,
                "y": y,
                "mode": "markers",
                "name": f"group {group}",
                "marker": style.outlined(
                    {"size": GROUP_MARKER_PX, "color": colour, "symbol": symbol}
                ),
                "hoverinfo": "skip",
                "showlegend": False,
            }
        )
    return traces


def _colour_images(
    xs: np.ndarray, ys: np.ndarray, drawn: list[tuple[np.ndarray, float, float]], axes: dict
) -> list[dict]:
    """The panels' colour pictures, coarser where they would exceed :data:`MAX_IMAGE_BYTES`.

    A picture's size grows with its pixels, so a stride of ⌈√(size / budget)⌉
    brings the total within the budget (the browser smooths the picture).
    """
    stride = 1
    while True:
        images = [
            panels.colour_image(xs + dx, ys + dy, values, axes, stride) for values, dx, dy in drawn
        ]
        size = sum(len(image["source"]) for image in images)
        if size <= MAX_IMAGE_BYTES or stride >= xs.size // 2:
            return images
        stride = max(stride + 1, int(np.ceil(stride * np.sqrt(size / MAX_IMAGE_BYTES))))


def projection_figure(
    sweep: ContourSweep, column: int, i: int, j: int, *, width_px: int = FIGURE_PX
) -> go.Figure:
    """The data in the coordinates of kernel principal components i and j (1-based).

    Points are coloured by group (Okabe–Ito colours) when the data have more
    than one group.  A component that does not exist gives an empty figure
    whose text says why, wrapped to the figure's ``width_px`` (as is the title on a
    phone's page).
    """
    col = sweep.columns[column]
    title = f"{sweep.column_label(column)}: the data in kPC {i} and kPC {j}"
    lines = style.title_lines(title, width_px, TITLE_EM * 12)
    layout: dict = {
        "title": {"text": "<br>".join(lines)},
        "height": 460 + style.TITLE_LINE_PX * (len(lines) - 1),
        "margin": {"l": 60, "r": 20, "t": 50 + style.TITLE_LINE_PX * (len(lines) - 1), "b": 50},
        "font": {"family": style.FONT_FAMILY, "size": 12},
        "plot_bgcolor": style.TRANSPARENT,  # the page's background, light or dark
        "legend": {"title": {"text": "group"}},
        "showlegend": False,
    }
    missing = [k for k in (i, j) if k > col.n_components]
    if missing:
        layout["annotations"] = [
            {
                "text": "<br>".join(
                    rule.fit_lines(
                        missing_reason(col, missing[0] - 1), width_px - 100, rule.CHART_TEXT_PX
                    )
                ),
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
        colour = style.GROUPS[g % len(style.GROUPS)] if len(groups) > 1 else style.ONE_GROUP
        # as the chart's explorer reads the series: one group is "the data", not "0"
        name, hover = (str(group), f"group {group}") if len(groups) > 1 else ("the data",) * 2
        data.append(
            {
                "type": "scatter" if len(P) <= MAX_SVG_POINTS else "scattergl",
                "x": P[mask, i - 1],
                "y": P[mask, j - 1],
                "mode": "markers",
                "name": name,
                "marker": style.outlined(
                    {
                        "size": 6,
                        "color": colour,
                        "opacity": 0.85,
                        "symbol": style.SYMBOLS[g % len(style.SYMBOLS)],
                    }
                ),
                "hovertemplate": (
                    f"kPC {i} %{{x:.3g}}<br>kPC {j} %{{y:.3g}}<extra>{hover}</extra>"
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


def contour_figure_json(
    sweep: ContourSweep,
    *,
    projector_height: int | None = None,
    room: float = 1.0,
    **kwargs: Any,
) -> tuple[dict, str]:
    """The grid figure's data (:func:`contour_figure_data`, same arguments) and its JSON
    as the app's chart sends it (:func:`kpca_core.figures.style.figure_json`), without
    plotly's figure objects in between (they deep-copy it, twice): run in a worker.
    With ``projector_height``, the figure for a projector
    (:func:`kpca_core.figures.style.for_projector`), that many pixels tall on a
    1280 × 720 screen, ``room`` times as many on a larger one."""
    spec = contour_figure_data(sweep, **kwargs)
    if projector_height is not None:
        figure = go.Figure(spec, _validate=False)
        projected = style.for_projector(figure, height=projector_height, room=room)
        spec = projected.to_plotly_json()
    return style.figure_json(spec)


def sweep_and_figure_json(
    X: np.ndarray, specs: list[KernelSpec], sweep: dict[str, Any], **kwargs: Any
) -> tuple[ContourSweep, dict, str]:
    """The sweep of ``X`` and ``specs`` with the settings ``sweep``
    (:func:`kpca_core.contours.contour_sweep`) and its grid figure's data and JSON
    (:func:`contour_figure_json`, ``kwargs``): one worker call, for a grid whose columns
    cost less than a trip to a worker each, and the sweep sent to none again."""
    made = contour_sweep(X, specs, **sweep)
    return (made, *contour_figure_json(made, **kwargs))


STRAIGHT_R2 = 0.999
"""A panel's contour lines are called straight when a plane a + b·x + c·y explains at least
this share of its values' variance over the grid (linear PCA's and degree 1's are planes)."""


STRAIGHT_GRID = 25
""":func:`is_straight` reads the panel's grid thinned to at most about this many points a side."""


def is_straight(values: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> bool:
    """Whether a panel's ``values`` (shape ``(len(ys), len(xs))``) are a plane in (x, y), so
    that its contour lines are straight and parallel (:data:`STRAIGHT_R2`)."""
    step = max(1, len(xs) // STRAIGHT_GRID)
    values, xs, ys = np.asarray(values)[::step, ::step], xs[::step], ys[::step]
    gx, gy = np.meshgrid(xs, ys)
    basis = np.column_stack([np.ones(gx.size), gx.ravel(), gy.ravel()])
    v = np.asarray(values, dtype=float).ravel()
    kept = np.isfinite(v)
    basis, v = basis[kept], v[kept]
    spread = float(np.sum((v - v.mean()) ** 2))
    if spread == 0.0:
        return True
    coef, *_ = np.linalg.lstsq(basis, v, rcond=None)
    return 1.0 - float(np.sum((v - basis @ coef) ** 2)) / spread >= STRAIGHT_R2


def describe_contours(sweep: ContourSweep, *, title: str = "") -> Description:
    """The grid of :func:`contour_figure` in words: per panel its kernel, component, λ and
    share of the variance (as its title writes them, eq. 12) and whether its contour lines
    are straight or bend to follow the data (:func:`is_straight`); why a panel is empty.

    The table: :func:`kpca_core.contours.export.eigenvalues_table` with each drawn panel's
    lines ("straight" or "curved").
    """
    xs, ys = sweep.grid.xs, sweep.grid.ys
    straight = {
        (c, r): is_straight(column.values[r], xs, ys)
        for c, column in enumerate(sweep.columns)
        for r in range(min(column.n_components, sweep.n_components))
    }
    said = []
    for c, column in enumerate(sweep.columns):
        for r in range(sweep.n_components):
            head = f"{sweep.column_label(c)}, kPC {r + 1}"
            if (c, r) not in straight:
                said.append(f"{head}: {missing_reason(column, r)}.")
                continue
            fit = column.fit
            shape = (
                "straight parallel lines" if straight[c, r] else "curved lines that follow the data"
            )
            said.append(
                f"{head}: λ = {fit.eigenvalues[r]:.3g} ({fit.shares[r]:.1%} of the variance), "
                f"{shape}."
            )
    label = plain(title) or "Contours of kernel principal components"
    n_columns = len(sweep.columns)
    text = (
        f"{label}. A grid of {n_columns} kernel{'s' if n_columns > 1 else ''} (columns) by "
        f"{sweep.n_components} components (rows) over {len(sweep.X)} data points: each panel "
        "colours one component's value over the plane, red positive, blue negative. "
        + " ".join(said + _groups_on_kpc1(sweep))
    )
    table = eigenvalues_table(sweep)
    table["contour_lines"] = [
        "" if (c, r) not in straight else "straight" if straight[c, r] else "curved"
        for c, column in enumerate(sweep.columns)
        for r in range(column.fit.n_components)
    ]
    return Description(label, text, table)


def _between(values: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The share of each column of ``values``' variance that lies between the groups of
    ``labels`` (the correlation ratio η²): 1 when each group sits at one value, 0 when the
    groups' means coincide."""
    groups = np.unique(labels)
    centres = np.array([values[labels == g].mean(axis=0) for g in groups])
    sizes = np.array([np.sum(labels == g) for g in groups])
    between = (sizes[:, None] * (centres - values.mean(axis=0)) ** 2).sum(axis=0)
    total = ((values - values.mean(axis=0)) ** 2).sum(axis=0)
    return np.divide(between, total, out=np.zeros(values.shape[1]), where=total > 0)


def _groups_on_kpc1(sweep: ContourSweep) -> list[str]:
    """With groups: each group's points, and per kernel how much of kPC 1's variance on the
    data lies between the groups and each group's mean kPC 1."""
    labels = np.asarray(sweep.labels) if sweep.labels is not None else np.zeros(0)
    groups = np.unique(labels)
    if len(groups) < 2:
        return []
    counts = ", ".join(f"group {g}: {np.sum(labels == g)} points" for g in groups)
    said = [f"The data in {len(groups)} groups ({counts})."]
    for c, column in enumerate(sweep.columns):
        if column.n_components < 1:
            continue
        kpc1 = column.fit.projections[:, :1]
        means = ", ".join(f"{kpc1[labels == g, 0].mean():.3g}" for g in groups)
        said.append(
            f"{sweep.column_label(c)}: {_between(kpc1, labels)[0]:.0%} of kPC 1's variance on "
            f"the data lies between the groups, whose means on it are {means}."
        )
    return said


def describe_projection(sweep: ContourSweep, column: int, i: int, j: int) -> Description:
    """:func:`projection_figure` in words: the column, the two components' ranges over the
    data and, with groups, how much of each component's variance lies between the groups
    (the correlation ratio η²: 100 % when each group sits at one value, 0 % when the groups
    overlap entirely), with each group's centre.  The table: every point's group and values.
    """
    col = sweep.columns[column]
    label = f"{sweep.column_label(column)}: the data in kPC {i} and kPC {j}"
    missing = [k for k in (i, j) if k > col.n_components]
    if missing:
        return Description(label, f"{label}: {missing_reason(col, missing[0] - 1)}.")
    P = col.fit.projections[:, [i - 1, j - 1]]
    labels = np.zeros(len(P), dtype=int) if sweep.labels is None else np.asarray(sweep.labels)
    groups = np.unique(labels)
    said = [
        f"{label}: {len(P)} points.",
        f"kPC {i} runs from {P[:, 0].min():.3g} to {P[:, 0].max():.3g}, "
        f"kPC {j} from {P[:, 1].min():.3g} to {P[:, 1].max():.3g}.",
    ]
    if len(groups) > 1:
        centres = np.array([P[labels == g].mean(axis=0) for g in groups])
        sizes = np.array([np.sum(labels == g) for g in groups])
        eta = _between(P, labels)
        said.append(
            f"Between the {len(groups)} groups lies {eta[0]:.0%} of kPC {i}'s variance and "
            f"{eta[1]:.0%} of kPC {j}'s."
        )
        said += [
            f"Group {g} ({n} points) is centred at ({x:.3g}, {y:.3g})."
            for g, n, (x, y) in zip(groups, sizes, centres, strict=True)
        ]
    table = pd.DataFrame({"group": labels, f"kPC {i}": P[:, 0], f"kPC {j}": P[:, 1]})
    return Description(label, " ".join(said), table)
