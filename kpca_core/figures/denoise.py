"""Figures of the de-noising view (Mika et al. 1999, Figs. 1 and 4).

Pure functions: results of :mod:`kpca_core.denoise` in, ``go.Figure`` out.
Digit grids are drawn as ONE heatmap of a tiled image (a mosaic), not as
many subplots: one trace of float32 values is fast to send and to draw.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..denoise import ErrorCurve, ErrorSweep, ImageGrid, ToyDenoising, distance_to_curve
from . import layout, style
from .words import Description, plain

GREY_RANGE = (-1.0, 1.0)
"""Grey values of the digits: −1 background (white), 1 full ink (black)."""
ROW_HEIGHT_PX = 46
TITLED_TOP_PX = 50
"""Above a mosaic with a title: the title's line (centred in the margin, plotly's) and the
column labels' (80 px left the digits of a projector's short figure under 48 px)."""
HALVES_TOP_PX = 50
"""Above :func:`fig4_figure`'s halves: the title's line at the top and the column labels'
(70 px on a projector)."""
HALVES_LEFT_PX = 72
"""Left of :func:`fig4_figure`'s halves: the row labels' column on a projector ("original"
at 16.8 px and plotly's 8 px beside it) with a few pixels to spare (plotly's own margin
for them, 64 px, cut "n = 256" at the chart's edge by a pixel)."""
TITLE_FONT = {"family": style.FONT_FAMILY, "size": 15}
SUP_EM = 0.7
"""The size of a title's ``<sup>`` line (plotly's), in em of the title's."""


def tile(images: np.ndarray, side: int, *, gap: int = 1) -> np.ndarray:
    """Lay out (n_rows, n_cols, side²) images as one float32 image, NaN between tiles.

    Parameters
    ----------
    images : ndarray of shape (n_rows, n_cols, side * side)
        Row-major images.
    side : int
    gap : int
        Pixels of NaN (drawn transparent) between neighbouring tiles.

    Returns
    -------
    ndarray of shape (n_rows (side + gap) − gap, n_cols (side + gap) − gap), float32
    """
    n_rows, n_cols, n_pixels = images.shape
    if n_pixels != side * side:
        raise ValueError(f"images of {n_pixels} pixels are not {side} × {side}")
    step = side + gap
    mosaic = np.full((n_rows * step - gap, n_cols * step - gap), np.nan, dtype=np.float32)
    for r in range(n_rows):
        for c in range(n_cols):
            mosaic[r * step : r * step + side, c * step : c * step + side] = images[r, c].reshape(
                side, side
            )
    return mosaic


def mosaic_figure(
    images: np.ndarray,
    *,
    side: int,
    row_labels: Sequence[str],
    column_labels: Sequence[str],
    title: str = "",
    gap: int = 1,
    row_height: int = ROW_HEIGHT_PX,
    width_px: int | None = None,
) -> go.Figure:
    """One grey heatmap of a grid of digits, rows labelled by y tick text.

    On a page narrower than :data:`style.NARROW_PX` (``width_px``) the title is
    broken into lines that fit it.

    Equal aspect, no grid or zero lines, column labels on top; values
    outside [−1, 1] (noise) are clipped to white or black by the colour
    scale. Hovering shows nothing (the pictures speak for themselves).

    The digits are pictures of white paper; around and between them the
    figure is transparent, with the theme's text colour, so that no white
    block stands on the dark theme.
    """
    n_rows, n_cols, _ = images.shape
    step = side + gap
    fig = go.Figure(
        go.Heatmap(
            z=tile(np.asarray(images), side, gap=gap),
            colorscale=style.GREYS,
            zmin=GREY_RANGE[0],
            zmax=GREY_RANGE[1],
            showscale=False,
            hoverinfo="skip",
        )
    )
    axis = {"showgrid": False, "zeroline": False, "showline": False, "ticks": ""}
    fig.update_xaxes(
        **axis,
        tickvals=[c * step + (side - 1) / 2 for c in range(n_cols)],
        ticktext=list(column_labels),
        side="top",
        constrain="domain",
    )
    fig.update_yaxes(
        **axis,
        tickvals=[r * step + (side - 1) / 2 for r in range(n_rows)],
        ticktext=list(row_labels),
        autorange="reversed",
        scaleanchor="x",
        scaleratio=1,
        constrain="domain",
    )
    lines = style.title_lines(title, width_px, TITLE_FONT["size"])
    # plotly centres the title's lines in the top margin: each further line takes a line
    # above and below it (one only: a phone's second line ran into the column labels)
    more_px = 2 * style.TITLE_LINE_PX * (len(lines) - 1)
    fig.update_layout(
        title={"text": "<br>".join(lines), "font": TITLE_FONT},
        height=max(220, 90 + row_height * n_rows) + more_px,
        margin={"l": 10, "r": 10, "t": (TITLED_TOP_PX if title else 40) + more_px, "b": 10},
        # around the digits: the page's own background, light or dark
        plot_bgcolor=style.TRANSPARENT,
        paper_bgcolor=style.TRANSPARENT,
        font={"family": style.FONT_FAMILY},
    )
    return fig


def fig4_figure(
    grid: ImageGrid, *, title: str = "", width_px: int | None = None, halves: bool = False
) -> go.Figure:
    """The grid of Mika et al. Fig. 4: original, noisy, linear and kernel rows.

    With ``halves`` (a projector's wide, short screen) linear PCA's rows stand left
    and kernel PCA's right, each below the original and noisy digits: half as many
    rows, so that a digit is at least 48 px tall at 1280 × 720
    (:data:`kpca_core.figures.layout.PRESENTER_DIGIT_MIN_PX`).
    """
    if not halves:
        return mosaic_figure(
            grid.images,
            side=grid.side,
            row_labels=grid.row_labels,
            column_labels=grid.column_labels,
            title=title,
            width_px=width_px,
        )
    images = np.asarray(grid.images)
    n_each = (len(images) - 2) // 2
    top, linear, kernel = images[:2], images[2 : 2 + n_each], images[2 + n_each :]
    blank = np.full((2 + n_each, 1, images.shape[2]), np.nan, dtype=images.dtype)
    left = np.concatenate([top, linear])
    right = np.concatenate([top, kernel])
    # "linear n = 256 (all 64)" as "n = 256", "(all 64)" under it: a narrow column of
    # labels leaves the digits the width (in one line, 8 × 8 digits were 46 px tall)
    labels = list(grid.row_labels[:2]) + [
        label.split(" ", 1)[1].replace(" (", "<br>(") if " n = " in label else label
        for label in grid.row_labels[2 : 2 + n_each]
    ]
    fig = mosaic_figure(
        np.concatenate([left, blank, right], axis=1),
        side=grid.side,
        row_labels=labels,
        column_labels=[*grid.column_labels, "", *grid.column_labels],
        title=f"{title} · left: linear PCA, right: kernel PCA" if title else "",
        width_px=width_px,
    )
    # the title at the figure's top, the column labels under it, nothing under the digits:
    # the digits get the height (a slide's 452 px left them 48 px with 60 and 10 px margins)
    fig.update_layout(
        margin={"t": HALVES_TOP_PX, "l": HALVES_LEFT_PX, "r": 0, "b": 0},
        title={"y": 1.0, "yref": "container", "yanchor": "top", "pad": {"t": 4}},
    )
    return fig


LABELS_PX = 80
"""Room left of a mosaic for its row labels ("kernel PCA" at 12 px), at least."""
LABEL_FONT_PX = 12
"""The size of a mosaic's row labels (Streamlit's tick labels)."""


def labels_px(labels: Sequence[str]) -> int:
    """Room left of a mosaic for its row ``labels``: their widest, or :data:`LABELS_PX`.

    plotly widens the left margin to hold them: planned for less ("kernel n = 1024 (all
    2999)"), a phone's digits came out 23 px tall instead of the 24 planned.
    """
    widest = max((len(label) for label in labels), default=0)
    return max(LABELS_PX, math.ceil(widest * style.CHAR_EM * LABEL_FONT_PX) + 16)


def numbered_mosaic(
    grid: ImageGrid,
    numbers: np.ndarray,
    *,
    title: str = "",
    fmt: str = ".1f",
    font_size: int = 12,
    width_px: int | None = None,
) -> go.Figure:
    """The grid's mosaic with ``numbers[r, c]`` written under the tile in row r, column c.

    Planned for ``width_px`` (a phone's, or a desktop's page), the columns wrap into
    blocks one below the other when their digits and numbers would not fit side by
    side (:func:`layout.plan_grid`: a digit at least :data:`layout.DIGIT_MIN_PX` with
    its number's line under it, as wide as tall); each block's column labels are
    written above it.

    Parameters
    ----------
    grid : ImageGrid
    numbers : ndarray of shape (n_rows, n_cols) or smaller
        Compared with the grid from its top left; NaN (or inf) leaves a tile
        without a number.
    title : str
    fmt : str
        Format spec of the numbers (e.g. ``".2f"``).
    font_size : int
    width_px : int, optional
        The width planned for: the blocks, and on a phone the title (:func:`mosaic_figure`).
    """
    gap = max(2, grid.side // 2)  # room for the number under each tile
    images = np.asarray(grid.images)
    n_rows, n_cols = images.shape[:2]
    values = np.full((n_rows, n_cols), np.nan)
    given = np.asarray(numbers, dtype=float)
    values[: given.shape[0], : given.shape[1]] = given[:n_rows, :n_cols]
    per_block = n_cols
    left_px = labels_px(grid.row_labels)
    if width_px is not None:
        per_block = layout.plan_grid(
            n_cols,
            n_rows,
            width_px - left_px,
            least_px=layout.DIGIT_MIN_PX + layout.lines_px(1, font_size) + 2,
            gap_px=4,
        ).per_row
    blocks = -(-n_cols // per_block)
    if blocks > 1:  # the gap under a tile holds its number's line at this scale
        unit_px = (width_px - left_px) / (per_block * (grid.side + gap))
        gap = max(gap, math.ceil(layout.lines_px(1, font_size) / unit_px))
    row_labels, column_labels = list(grid.row_labels), list(grid.column_labels)
    if blocks > 1:  # blocks of columns one below the other, a blank row between them
        missing = blocks * per_block - n_cols
        images = np.concatenate([images, np.full((n_rows, missing, images.shape[2]), np.nan)], 1)
        values = np.concatenate([values, np.full((n_rows, missing), np.nan)], 1)
        column_labels += [""] * missing
        blank = np.full((1, per_block, images.shape[2]), np.nan)
        parts, numbers_parts, row_labels = [], [], []
        for b in range(blocks):
            columns = slice(b * per_block, (b + 1) * per_block)
            if b:
                parts.append(blank)
                numbers_parts.append(np.full((1, per_block), np.nan))
                row_labels.append("")
            parts.append(images[:, columns])
            numbers_parts.append(values[:, columns])
            row_labels += list(grid.row_labels)
        images, values = np.concatenate(parts), np.concatenate(numbers_parts)
    fig = mosaic_figure(
        images,
        side=grid.side,
        row_labels=row_labels,
        column_labels=column_labels[:per_block],
        title=title,
        gap=gap,
        row_height=70,
        width_px=width_px,
    )
    step = grid.side + gap
    # added at once: plotly validates the whole list on each add_annotation (~1 ms each)
    notes = [
        {
            "x": c * step + (grid.side - 1) / 2,
            "y": r * step + grid.side - 0.5,
            "text": format(value, fmt),
            "showarrow": False,
            "yanchor": "top",
            "font": {"size": font_size},  # the theme's text colour: the paper is transparent
        }
        for r, row in enumerate(values)
        for c, value in enumerate(row)
        if np.isfinite(value)
    ]
    for b in range(1, blocks):  # the column labels of the blocks below the first
        top = b * (n_rows + 1) * step - 0.5
        notes += [
            {
                "x": c * step + (grid.side - 1) / 2,
                "y": top,
                "text": label,
                "showarrow": False,
                "yanchor": "bottom",
                "name": "column label",
            }
            for c, label in enumerate(column_labels[b * per_block : (b + 1) * per_block])
            if label  # not the last block's missing columns
        ]
    fig.update_layout(annotations=notes)
    # the last row's numbers under the mosaic, whose y range ends at the last row's digits:
    # in a bottom margin of a number's line (in 10 px they were cut at a desktop chart's
    # foot: the audit's side by side and Fig. 3)
    below_px = layout.lines_px(1, font_size)
    fig.update_layout(
        margin={"b": below_px}, height=fig.layout.height + below_px - fig.layout.margin.b
    )
    if blocks > 1:  # the tiles' height planned from the width: equal aspect
        tile_px = (width_px - left_px) / (per_block * step)
        mosaic_px = len(values) * step * tile_px
        fig.update_layout(height=round(fig.layout.margin.t + fig.layout.margin.b + 10 + mosaic_px))
    return fig


NOISY = ("noisy", "With noise")
"""The label of the noisy digits' row (Fig. 4, side by side) or column (the demo)."""


def describe_wall(images: np.ndarray, names: Sequence[str], *, of: int) -> Description:
    """The class's digit wall (:func:`mosaic_figure` of ``images``: per band of digits, a row
    as written, one cleaned by the classic method and one by the kernel method) in words:
    which digits, the latest ``names`` of ``of``, and how much each method changed each one
    (the mean squared change of its grey values, −1 … 1); the table, those numbers."""
    n, columns = len(names), images.shape[1]
    written, classic, kernel = (
        np.array([images[3 * (i // columns) + row, i % columns] for i in range(n)])
        for row in range(3)
    )
    changes = {
        "classic": np.mean((classic - written) ** 2, axis=1),
        "kernel": np.mean((kernel - written) ** 2, axis=1),
    }
    label = "The class's digits"
    said = [
        f"{label}: {n} digits, the latest of {of}: {', '.join(names)}. Each as written, "
        "cleaned by the classic method (linear PCA) and by the kernel method (kernel PCA), "
        "in three rows. How much each method changed each digit (mean squared change of its "
        "grey values, −1 … 1):",
        "; ".join(
            f"{name}: classic {changes['classic'][i]:.3f}, kernel {changes['kernel'][i]:.3f}"
            for i, name in enumerate(names)
        )
        + ".",
    ]
    table = pd.DataFrame({"digit": list(names), **{f"{k} change": v for k, v in changes.items()}})
    return Description(label, " ".join(said), table)


def describe_grid(grid: ImageGrid, *, title: str = "") -> Description:
    """A grid of digits (:func:`fig4_figure`, :func:`side_by_side_figure`,
    :func:`demo_figure`) in words: which digits, and how much of the noise each row (or the
    demo's each picture) removed: 1 − its mean squared error to the clean digits ÷ that of
    the noisy ones (``grid.errors``).  The table: every picture's squared error."""
    errors = np.asarray(grid.errors, dtype=float) if grid.errors is not None else None
    by_column = grid.row_labels[0] == ""  # the demo: one row, its pictures side by side
    labels = grid.column_labels if by_column else grid.row_labels
    label = plain(title) or "Digits de-noised"
    if by_column:
        said = [f"{label}: one digit {', '.join(labels).lower()}."]
    else:
        digits = ", ".join(grid.column_labels)
        said = [f"{label}: {len(grid.column_labels)} digits ({digits}), one per column, in rows "]
        said[0] += ", ".join(labels) + "."
    if errors is not None:
        means = errors[0] if by_column else np.nanmean(errors, axis=1)
        noisy = next((means[i] for i, name in enumerate(labels) if name in NOISY), np.nan)
        for name, mean in zip(labels, means, strict=True):
            if name in NOISY or name == "original" or not np.isfinite(noisy) or noisy <= 0:
                continue
            said.append(
                f"{name}: squared error {mean:.3g} against the noisy digits' {noisy:.3g}, "
                f"{1 - mean / noisy:.0%} of the noise removed."
            )
    table = pd.DataFrame(
        [
            {"row": row, "digit": column, "squared error to the clean digit": errors[r, c]}
            for r, row in enumerate(grid.row_labels)
            for c, column in enumerate(grid.column_labels)
        ]
        if errors is not None
        else []
    )
    return Description(label, " ".join(said), table)


def side_by_side_figure(
    grid: ImageGrid, *, title: str = "", width_px: int | None = None
) -> go.Figure:
    """Original / noisy / linear / kernel for a few digits, each with its squared error.

    The error ‖z − x‖² of each image to the clean original is written
    under it (none under the originals).
    """
    shape = grid.images.shape[:2]
    errors = np.full(shape, np.nan) if grid.errors is None else np.array(grid.errors, dtype=float)
    errors[0] = np.nan
    return numbered_mosaic(grid, errors, title=title, width_px=width_px)


DEMO_TITLE_PX = 18
"""The demos' picture titles (read by people who are not in the field, at arm's length)."""


def demo_figure(
    grid: ImageGrid, *, width_px: int | None = None, height_px: int | None = None
) -> go.Figure:
    """Big images side by side with a plain title above each, each framed (the demos).

    Planned for ``width_px`` (the page's, measured): the pictures stand side by side
    when each keeps :data:`layout.AREA_MIN_PX`, else they wrap into rows
    (:func:`layout.plan_grid`; a phone's page), each title above its picture, and
    the figure is as tall as they are for that width; ``height_px`` sets the height of
    a figure of one row instead.
    """
    n = grid.images.shape[1]
    gap = max(1, grid.side // 4)
    per_row = n
    if width_px is not None:
        per_row = layout.plan_grid(
            n, 1, width_px - 20, least_px=layout.AREA_MIN_PX, gap_px=layout.AREA_MIN_PX / 4
        ).per_row
    rows = -(-n // per_row)
    if rows > 1 and width_px is not None:  # the gap between rows holds the titles' lines
        unit_px = (width_px - 20) / (per_row * (grid.side + gap))
        lines = max(label.count("<br>") + 1 for label in grid.column_labels)
        gap = max(gap, math.ceil(layout.lines_px(lines, DEMO_TITLE_PX) / unit_px))
    images = np.asarray(grid.images)[0]
    if rows > 1:  # the missing pictures of the last row are blank (NaN: the page shows)
        images = np.concatenate([images, np.full((rows * per_row - n, images.shape[1]), np.nan)])
    fig = mosaic_figure(
        images.reshape(rows, per_row, -1),
        side=grid.side,
        row_labels=[""] * rows,
        column_labels=grid.column_labels if rows == 1 else [""] * per_row,
        gap=gap,
        row_height=320,
    )
    fig.update_xaxes(tickfont={"size": DEMO_TITLE_PX}, showticklabels=rows == 1)
    fig.update_yaxes(showticklabels=False)
    # A thin frame around each picture: a clean digit's blank columns are white on
    # a white page, and without it the picture looked narrower than the others.
    step = grid.side + gap
    for k, label in enumerate(grid.column_labels):
        r, c = divmod(k, per_row)
        fig.add_shape(
            type="rect",
            x0=c * step - 0.5,
            x1=c * step + grid.side - 0.5,
            y0=r * step - 0.5,
            y1=r * step + grid.side - 0.5,
            line={"color": "rgba(128, 128, 128, 0.6)", "width": 1},
        )
        if rows > 1:  # the title above its picture, in the gap between the rows
            fig.add_annotation(
                x=c * step + (grid.side - 1) / 2,
                y=r * step - 0.5,
                text=label,
                showarrow=False,
                yanchor="bottom",
                font={"size": DEMO_TITLE_PX},
            )
    fig.update_layout(margin={"t": 70})
    # as tall as the pictures are for the width (one row: unless height_px says; 410 px
    # left bands above and below them, and a desktop's Demo tab cut the original digit)
    if width_px is not None and (rows > 1 or height_px is None):
        tile_px = (width_px - 20) / (per_row * step - gap)
        fig.update_layout(height=round(70 + 10 + (rows * step - gap) * tile_px))
    elif height_px is not None:
        fig.update_layout(height=height_px)
    return fig


def demo_text(grid: ImageGrid, what: str) -> str:
    """The text alternative of :func:`demo_figure`: what its pictures show, and each
    picture by its title, in order.

    Parameters
    ----------
    grid : ImageGrid
        The figure's pictures (one row), titled.
    what : str
        The digit they show, e.g. ``"a handwritten 3, test digit #41 of 500"``.

    Returns
    -------
    str
        E.g. ``"A handwritten 3, test digit #41 of 500, in 4 pictures: written by hand,
        with noise, classic method, kernel method."``
    """
    titles = [" ".join(label.replace("<br>", " ").split()) for label in grid.column_labels]
    return f"{what[:1].upper()}{what[1:]}, in {len(titles)} pictures: {', '.join(titles).lower()}."


def _curve_trace(curve: ErrorCurve, colour: str, *, dash: str = "solid") -> go.Scatter:
    return go.Scatter(
        x=curve.n.astype(np.float32),
        y=curve.mse.astype(np.float32),
        mode="lines+markers",
        name=curve.method,
        line={"color": colour, "dash": dash, "width": 2},
        marker={"size": 6},
        hovertemplate="n = %{x}<br>MSE %{y:.2f}<extra>" + curve.method + "</extra>",
    )


def _best_trace(curve: ErrorCurve, colour: str) -> go.Scatter:
    return go.Scatter(
        x=np.array([curve.best_n], dtype=np.float32),
        y=np.array([curve.best_mse], dtype=np.float32),
        mode="markers+text",
        name=f"best n, {curve.method}",
        marker={"symbol": "star", "size": 16, "color": colour, "line": {"color": "black"}},
        text=[f"n = {curve.best_n}"],
        # above the star: the curve's lowest point may lie on the n axis, where a label
        # below it was cut; drawn past the plot area's edge, not cut, at the last n
        textposition="top center",
        cliponaxis=False,
        hovertemplate=f"best n = {curve.best_n}<br>MSE %{{y:.2f}}<extra></extra>",
    )


def error_curve_figure(
    sweep: ErrorSweep,
    *,
    chosen_n: int | None = None,
    title_prefix: str = "",
    width_px: int | None = None,
) -> go.Figure:
    """MSE against n: linear, kernel (and ridge) curves, best n starred, ratios in the title.

    Parameters
    ----------
    sweep : ErrorSweep
    chosen_n : int, optional
        Marked with a vertical dotted line.
    title_prefix : str
        Put before the ratios (e.g. the data set and the noise).
    width_px : int, optional
        The width the figure is drawn at, if narrower than :data:`style.NARROW_PX`
        (a phone's): the title is broken into lines that fit it.
    """
    fig = go.Figure()
    curves = [(sweep.linear, style.LINEAR), (sweep.kernel, style.KERNEL)]
    if sweep.ridge is not None and sweep.ridge.n.size:
        curves.append((sweep.ridge, style.RIDGE))
    for curve, colour in curves:
        dash = "dash" if colour == style.RIDGE else "solid"
        fig.add_trace(_curve_trace(curve, colour, dash=dash))
    for curve, colour in curves:
        fig.add_trace(_best_trace(curve, colour))
    if np.isfinite(sweep.baseline_mse):
        fig.add_hline(
            y=sweep.baseline_mse,
            line={"color": style.NEUTRAL, "dash": "dot"},
            annotation_text="noisy digits, not de-noised",
            annotation_position="top left",
        )
    if chosen_n is not None:
        fig.add_vline(x=chosen_n, line={"color": style.NEUTRAL, "dash": "dot", "width": 1})
    n_same, ratio_same = sweep.largest_same_n_ratio
    ratios = (
        f"kernel PCA {sweep.ratio_at_best:.2f}× better at the best n "
        f"(linear n = {sweep.linear.best_n}, kernel n = {sweep.kernel.best_n}); "
        f"largest same-n ratio {ratio_same:.1f}× (n = {n_same})"
    )
    title = f"{title_prefix}<br><sup>{ratios}</sup>"
    n_max = max(int(curve.n.max()) for curve, _ in curves)
    ticks = [2**k for k in range(int(np.log2(n_max)) + 1)]
    if style.is_narrow(width_px):
        ticks = ticks[::-2][::-1]  # every other power of 2, the largest kept: labels apart
        heading = style.title_lines(title_prefix, width_px, TITLE_FONT["size"])
        below = style.title_lines(ratios, width_px, SUP_EM * TITLE_FONT["size"])
        title = "<br>".join([*heading, *(f"<sup>{line}</sup>" for line in below)])
    more_px = style.TITLE_LINE_PX * (title.count("<br>") - 1)  # beyond the usual two lines
    fig.update_xaxes(
        type="log",
        title={"text": "number of components n", "standoff": style.AXIS_STANDOFF_PX},
        tickvals=ticks,
        ticktext=ticks,
    )
    fig.update_yaxes(title="mean squared error per digit", rangemode="tozero")
    fig.update_layout(
        title={"text": title, "font": TITLE_FONT},
        height=480 + more_px,
        legend={"orientation": "h", "yanchor": "top", "y": -0.18},
        margin={"t": 90 + more_px},
        font={"family": style.FONT_FAMILY},
        # the page's background and the theme's grid: no white block on the dark theme
        plot_bgcolor=style.TRANSPARENT,
    )
    fig.update_xaxes(showgrid=True)
    fig.update_yaxes(showgrid=True)
    return fig


def _segments(start: np.ndarray, end: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """x and y of line segments start→end, separated by NaN (one trace for all)."""
    xy = np.full((len(start), 3, 2), np.nan, dtype=np.float32)
    xy[:, 0], xy[:, 1] = start, end
    return xy[:, :, 0].ravel(), xy[:, :, 1].ravel()


def toy_figure(results: Sequence[ToyDenoising], *, one_row: bool = False) -> go.Figure:
    """Mika et al. Fig. 1: each data set in a row, kernel PCA left, linear PCA right.

    Small grey points: the noisy data; coloured points: their de-noised
    versions; thin lines join each point to its de-noised version.

    Parameters
    ----------
    results : sequence of ToyDenoising
    one_row : bool
        For a projector (a wide, low screen): every panel in one row, each
        titled with its data set, the legend below; else a row per data set.
    """
    titles = []
    for result in results:
        methods = [f"kernel PCA, {result.n_kernel} components", "linear PCA, 1 component"]
        name = result.name.replace("_", " ")
        # short lines above a half of the page, which may be a phone's, or above a
        # quarter of a projector's (one line of "kernel PCA, 4 components" there ran
        # into its neighbour's on a lesson's slide)
        halves = [method.replace(", ", "<br>") for method in methods]
        titles += [f"{name}<br>{half}" for half in halves] if one_row else halves
    shape = (1, 2 * len(results)) if one_row else (len(results), 2)
    fig = make_subplots(
        rows=shape[0],
        cols=shape[1],
        subplot_titles=titles,
        horizontal_spacing=0.04 if one_row else 0.06,
        vertical_spacing=0.12,  # a row's ticks clear of the two-line titles below them
    )
    for r, result in enumerate(results, start=1):
        for c, (denoised, colour, name) in enumerate(
            [(result.kernel, style.KERNEL, "kernel PCA"), (result.linear, style.LINEAR, "linear")],
            start=1,
        ):
            sx, sy = _segments(result.noisy, denoised)
            first = r == 1
            place = {"row": 1, "col": 2 * (r - 1) + c} if one_row else {"row": r, "col": c}
            fig.add_trace(
                go.Scatter(
                    x=sx,
                    y=sy,
                    mode="lines",
                    # thin, but in the method's full colour: at 0.45 opacity its
                    # contrast with the page was 1.8-2.0 (WCAG asks 3)
                    line={"color": colour, "width": 0.7},
                    hoverinfo="skip",
                    showlegend=False,
                ),
                **place,
            )
            fig.add_trace(
                go.Scatter(
                    x=result.noisy[:, 0].astype(np.float32),
                    y=result.noisy[:, 1].astype(np.float32),
                    mode="markers",
                    marker={"size": 4, "color": style.NEUTRAL},
                    name="noisy data",
                    legendgroup="noisy",
                    showlegend=first and c == 1,
                ),
                **place,
            )
            fig.add_trace(
                go.Scatter(
                    x=denoised[:, 0].astype(np.float32),
                    y=denoised[:, 1].astype(np.float32),
                    mode="markers",
                    marker={"size": 7, "color": colour},
                    name=f"de-noised, {name}",
                    legendgroup=name,
                    showlegend=first,
                ),
                **place,
            )
            axis_id = "" if (r, c) == (1, 1) else str(2 * (r - 1) + c)
            fig.update_yaxes(scaleanchor=f"x{axis_id}", scaleratio=1, **place)
    if one_row:
        # Below the panels, clear of their titles (a projector copy moves it to the bottom).
        legend, height, margin = {"yanchor": "top", "y": -0.12}, 430, {"t": 70, "b": 50}
    else:
        # above the first row's two-line titles
        legend, height, margin = {"yanchor": "bottom", "y": 1.07}, 430 * len(results), {"t": 100}
    fig.update_layout(
        height=height,
        legend={"orientation": "h", **legend},
        font={"family": style.FONT_FAMILY},
        plot_bgcolor=style.TRANSPARENT,  # the page's background and the theme's grid
        margin=margin,
    )
    fig.update_xaxes(showgrid=True, zeroline=False)
    fig.update_yaxes(showgrid=True, zeroline=False)
    return fig


def describe_toy(results: Sequence[ToyDenoising], *, noise: float) -> Description:
    """:func:`toy_figure` in words: per data set, how far from the clean curve
    (:func:`~kpca_core.denoise.distance_to_curve`) the noisy points lie on average, and how
    far their de-noised versions by kernel PCA and by linear PCA.  The table: those means."""
    label = "Mika et al. Fig. 1: de-noising points on a curve, kernel PCA and linear PCA"
    said = [
        f"{label}. Each data set in a row, kernel PCA left, linear PCA right: the noisy "
        f"points (Gaussian noise of standard deviation {noise:g} on each coordinate) in grey, "
        "each joined by a thin line to its de-noised version in colour."
    ]
    rows = []
    for result in results:
        name = result.name.replace("_", " ")
        means = {
            "noisy": distance_to_curve(result.name, result.noisy).mean(),
            f"kernel PCA, {result.n_kernel} components": distance_to_curve(
                result.name, result.kernel
            ).mean(),
            "linear PCA, 1 component": distance_to_curve(result.name, result.linear).mean(),
        }
        rows += [(name, what, mean) for what, mean in means.items()]
        kernel, linear = list(means.values())[1:]
        said.append(
            f"{name.capitalize()}, {len(result.noisy)} points: the mean distance to the curve "
            f"goes from {means['noisy']:.3g} (noisy) to {kernel:.3g} by kernel PCA with "
            f"{result.n_kernel} components and to {linear:.3g} by linear PCA (onto a line)."
        )
    table = pd.DataFrame(rows, columns=["data set", "points", "mean distance to the curve"])
    return Description(label, " ".join(said), table)


def describe_error_curve(
    sweep: ErrorSweep, *, chosen_n: int | None = None, title_prefix: str = ""
) -> Description:
    """:func:`error_curve_figure` in words: each method's best n and error beside the noisy
    digits' error, the ratio at the best n and the largest ratio at the same n (as the title
    writes them), and the errors at the ``chosen_n``.  The table: :meth:`ErrorSweep.to_frame`.
    """
    curves = [sweep.linear, sweep.kernel] + ([sweep.ridge] if sweep.ridge is not None else [])
    label = plain(title_prefix) or "Mean squared error against the number of components n"
    n_same, ratio_same = sweep.largest_same_n_ratio
    said = [
        f"{label}. The mean squared error of the de-noised test digits against n "
        f"(log scale), one line per method; the noisy digits' own error, dotted: "
        f"{sweep.baseline_mse:.3g}.",
        *(
            f"{curve.method}: lowest {curve.best_mse:.3g} at n = {curve.best_n}."
            for curve in curves
        ),
        f"Kernel PCA is {sweep.ratio_at_best:.2f}× better at the best n; the largest same-n "
        f"ratio is {ratio_same:.1f}× (n = {n_same}).",
    ]
    if chosen_n is not None:
        at = [
            f"{curve.method} {curve.mse[curve.n == chosen_n][0]:.3g}"
            for curve in curves
            if np.any(curve.n == chosen_n)
        ]
        said.append(f"At the chosen n = {chosen_n}, dotted: {', '.join(at) or 'no curve'}.")
    return Description(label, " ".join(said), sweep.to_frame())
