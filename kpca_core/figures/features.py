"""Figures of the feature-extraction view (Schölkopf, Smola & Müller 1998, Sect. 6.3).

Pure functions: results of :mod:`kpca_core.features` in, ``go.Figure`` out.
The toy's decision regions are drawn as pictures (one PNG per panel,
:func:`kpca_core.figures.panels.png_data_uri`), which the browser draws far
faster than a heatmap trace of 10⁴ cells; digits are drawn by
:func:`kpca_core.figures.denoise.mosaic_figure`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import hex_to_rgb
from plotly.subplots import make_subplots

from ..features import (
    PAPER_TABLE2,
    TABLE2_DEGREES,
    TABLE2_N,
    ToyFeatures,
    ToyResult,
    table2_claims,
)
from . import layout as rule
from . import style
from .denoise import mosaic_figure
from .panels import colour_image, png_data_uri
from .words import Description, plain

REGION_TINT = 0.3
"""Opacity of a class's colour over its region: the page shows through the rest, so the
regions are light tints on the light theme and dark ones on the dark theme."""
POINT_SIZE = 6
TITLE_FONT_PX = 13
TITLE_LINE_PX = 17
LEGEND_BELOW_PX = 30
"""The toy's legend this far under its panels, below their tick labels."""
"""Height of a line of a toy panel's title (:data:`TITLE_FONT_PX` and plotly's line spacing)."""
ERROR_SCALE = "Viridis_r"
"""Test error: low (good) light, high (bad) dark."""
LIVE_MARK = "•"
"""Put after the value of a cell that was computed live in the app."""


def class_colours(n_classes: int) -> list[str]:
    """The classes' colours by default: ``style.GROUPS`` in turn."""
    return [style.GROUPS[k % len(style.GROUPS)] for k in range(n_classes)]


def region_pixels(
    regions: np.ndarray, classes: np.ndarray, colours: Sequence[str] | None = None
) -> np.ndarray:
    """RGBA picture of a grid of predicted classes, rows from the top (largest y) down.

    Each class's colour at opacity :data:`REGION_TINT`, over the page's own
    background: a white block on the dark theme otherwise.

    Parameters
    ----------
    regions : ndarray of shape (n_y, n_x)
        Predicted class at each grid point, y increasing with the row.
    classes : ndarray
        The class labels, sorted.
    colours : sequence of str, optional
        The classes' colours (``#rrggbb``), in the order of ``classes``;
        by default :func:`class_colours`.

    Returns
    -------
    ndarray of shape (n_y, n_x, 4), uint8
    """
    rgb = np.array([hex_to_rgb(c) for c in colours or class_colours(classes.size)])
    opacity = np.full((classes.size, 1), round(255 * REGION_TINT))
    tints = np.hstack([rgb, opacity]).astype(np.uint8)
    index = np.searchsorted(classes, regions[::-1])
    return tints[index]


def _region_image(
    features: ToyFeatures,
    regions: np.ndarray,
    classes: np.ndarray,
    colours: Sequence[str],
    axis: str,
) -> dict:
    """The regions as a layout image placed as the component maps are (one pixel per grid point)."""
    axes = {"xref": f"x{axis}", "yref": f"y{axis}"}
    placed = colour_image(features.xs, features.ys, np.zeros(regions.shape), axes)
    source = png_data_uri(region_pixels(regions, classes, colours))
    return {**placed, "source": source, "name": "decision regions"}


def toy_regions_figure(
    features: ToyFeatures,
    result: ToyResult,
    *,
    kernel_label: str = "kernel",
    class_names: Sequence[str] | None = None,
    colours: Sequence[str] | None = None,
    wide: bool = False,
    width_px: int | None = None,
) -> go.Figure:
    """Decision regions of the linear SVM: on n kernel components (left), on x, y (right).

    Each region is tinted with its class's colour (one picture per panel);
    the points are drawn in their class's colour.  Titles give the accuracy
    on the points, in short lines so that the two
    stay apart above panels of a phone's width, or on one line each if
    ``wide``.  Built from plain dictionaries without plotly's validation
    (~10× faster to build; the tests re-create it with validation).

    Parameters
    ----------
    features : ToyFeatures
    result : ToyResult
    kernel_label : str
        How to name the kernel in the left title (e.g. "Gaussian, σ = 0.3").
    class_names : sequence of str, optional
        Legend names of the classes, in sorted label order.
    colours : sequence of str, optional
        The classes' colours, in sorted label order (default: :func:`class_colours`).
    wide : bool
        Whether the figure is drawn wide enough for one-line titles (a projector's).
    width_px : int, optional
        The page's width: where the two panels side by side would have plot areas
        under :data:`layout.AREA_MIN_PX` (a phone's), one stands below the other.
    """
    classes = np.unique(features.labels)
    names = list(class_names) if class_names is not None else [f"class {c}" for c in classes]
    colours = list(colours) if colours is not None else class_colours(classes.size)
    if len(names) != classes.size or len(colours) != classes.size:
        raise ValueError(
            f"{classes.size} classes need as many names and colours, "
            f"got {len(names)} and {len(colours)}"
        )
    lines = (
        (
            f"on {result.n_components} kernel components",
            f"({kernel_label}):",
            f"{100 * result.kernel_accuracy:.1f} % correct",
        ),
        ("on x, y:", f"{100 * result.raw_accuracy:.1f} % correct"),
    )
    titles = [(" " if wide else "<br>").join(parts) for parts in lines]
    x_range = [float(features.xs[0]), float(features.xs[-1])]
    y_range = [float(features.ys[0]), float(features.ys[-1])]
    layout: dict = {
        "height": 460,
        "margin": {"l": 40, "r": 10, "t": 40 if wide else TITLE_LINE_PX * 3 + 10, "b": 40},
        "plot_bgcolor": style.TRANSPARENT,  # the page shows around and through the regions
        "legend": {"orientation": "h", "y": -0.08, "yanchor": "top"},
        "font": {"family": style.FONT_FAMILY},
        "images": [
            _region_image(features, result.kernel_regions, classes, colours, ""),
            _region_image(features, result.raw_regions, classes, colours, "2"),
        ],
        "annotations": [],
    }
    places = [([0.0, 0.47], [0.0, 1.0]), ([0.53, 1.0], [0.0, 1.0])]
    if width_px is not None:
        plot_w = width_px - layout["margin"]["l"] - layout["margin"]["r"]
        aspect = (y_range[1] - y_range[0]) / max(x_range[1] - x_range[0], 1e-300)
        least = rule.AREA_MIN_PX / min(1.0, aspect)
        if rule.plan_grid(2, 1, plot_w, least_px=least, gap_px=0.06 * plot_w).per_row == 1:
            # one below the other, the lower one's title between them
            panel_h = plot_w * aspect
            gap = TITLE_LINE_PX * 3 + 40
            plot_h = 2 * panel_h + gap
            layout["height"] = round(layout["margin"]["t"] + plot_h + 80)
            layout["margin"]["b"] = 80
            layout["legend"]["y"] = -40 / plot_h
            lower = panel_h / plot_h
            places = [([0.0, 1.0], [1.0 - lower, 1.0]), ([0.0, 1.0], [0.0, lower])]
    if not wide and places[0][0] != places[1][0]:
        # side by side on a page's width (at least a desktop's): as tall as the panels
        # are for that width, not 460 px with empty bands above and below them, which
        # pushed the panels below a 1280 × 720 screen
        page = max(width_px or 0, rule.DESKTOP_PX)
        panel_w = (page - layout["margin"]["l"] - layout["margin"]["r"]) * places[0][0][1]
        aspect = (y_range[1] - y_range[0]) / max(x_range[1] - x_range[0], 1e-300)
        plot_h = min(
            layout["height"] - layout["margin"]["t"] - layout["margin"]["b"], panel_w * aspect
        )
        layout["margin"]["b"] = LEGEND_BELOW_PX + rule.LEGEND_ROW_PX
        layout["legend"]["y"] = -LEGEND_BELOW_PX / plot_h  # under the tick labels
        layout["height"] = round(layout["margin"]["t"] + plot_h + layout["margin"]["b"])
    data = []
    for panel, (domain, y_domain) in enumerate(places):
        suffix = "" if panel == 0 else "2"
        axis = {"showgrid": False, "zeroline": False, "constrain": "domain"}
        layout[f"xaxis{suffix}"] = {**axis, "range": x_range, "domain": domain}
        layout[f"yaxis{suffix}"] = {
            **axis,
            "range": y_range,
            "anchor": f"x{suffix}",
            "scaleanchor": f"x{suffix}",
            "domain": y_domain,
        }
        layout[f"xaxis{suffix}"]["anchor"] = f"y{suffix}"
        title = style.panel_title(titles[panel], domain, size=TITLE_FONT_PX)
        layout["annotations"].append({**title, "y": y_domain[1]})
        for k, label in enumerate(classes):
            X = features.X[features.labels == label].astype(np.float32)
            data.append(
                {
                    "type": "scatter",
                    "x": X[:, 0],
                    "y": X[:, 1],
                    "xaxis": f"x{suffix}",
                    "yaxis": f"y{suffix}",
                    "mode": "markers",
                    "name": names[k],
                    "legendgroup": names[k],
                    "showlegend": panel == 0,
                    "marker": {
                        "size": POINT_SIZE,
                        "color": colours[k],
                        "line": {"width": 0.5, "color": "white"},
                    },
                    "hovertemplate": f"{names[k]}<br>x %{{x:.2f}}, y %{{y:.2f}}<extra></extra>",
                }
            )
    return go.Figure(data=data, layout=layout, _validate=False)


def describe_regions(
    features: ToyFeatures,
    result: ToyResult,
    *,
    kernel_label: str = "kernel",
    class_names: Sequence[str] | None = None,
) -> Description:
    """:func:`toy_regions_figure` in words: the accuracies its titles give, and how much of
    the plane each panel gives each class (its regions' pixels); the table, per class."""
    classes = np.unique(features.labels)
    names = list(class_names) if class_names is not None else [f"class {c}" for c in classes]

    def plane(regions: np.ndarray) -> list[float]:
        return [float(np.mean(regions == c)) for c in classes]

    kernel, raw = plane(result.kernel_regions), plane(result.raw_regions)

    def shares(values: list[float]) -> str:
        return ", ".join(f"{name} {v:.0%}" for name, v in zip(names, values, strict=True))

    label = "Decision regions on kernel components and on x, y"
    text = (
        f"{label}: {len(features.labels)} points in {classes.size} classes. A linear classifier "
        f"on {result.n_components} kernel components ({kernel_label}) gets "
        f"{100 * result.kernel_accuracy:.1f} % correct, its regions: {shares(kernel)} of the "
        f"plane; on x, y it gets {100 * result.raw_accuracy:.1f} % correct, its regions: "
        f"{shares(raw)}."
    )
    table = pd.DataFrame(
        {
            "class": names,
            "points": [int(np.sum(features.labels == c)) for c in classes],
            "share of the plane, kernel components": kernel,
            "share of the plane, x and y": raw,
        }
    )
    return Description(label, text, table)


def canvas_regions(
    features: ToyFeatures, result: ToyResult, colours: Sequence[str] | None = None
) -> dict[str, str]:
    """The decision regions on the kernel components as the drawing canvas's background.

    For a fit whose grid is the canvas's square [−h, h]²
    (:func:`kpca_core.features.toy_features` with ``half_width``): the left
    panel's picture of :func:`toy_regions_figure`, in the form of
    :func:`kpca_core.figures.drawing.canvas_background` (rows from y = h
    down), without contour lines.
    """
    classes = np.unique(features.labels)
    pixels = region_pixels(result.kernel_regions, classes, colours)
    return {"image": png_data_uri(pixels), "lines": ""}


def _cell_text(values: np.ndarray, live: np.ndarray) -> list[list[str]]:
    return [
        [
            "" if np.isnan(v) else f"{v:.1f}{LIVE_MARK if flag else ''}"
            for v, flag in zip(row, live_row, strict=True)
        ]
        for row, live_row in zip(values, live, strict=True)
    ]


STACKED_PX = 820
"""Height of Table 2 on a phone, ours above the paper's."""


def table2_figure(
    errors: np.ndarray,
    *,
    paper: np.ndarray = PAPER_TABLE2,
    live: np.ndarray | None = None,
    chosen: tuple[int, int] | None = None,
    title: str = "",
    width_px: int | None = None,
) -> go.Figure:
    """Table 2 as two heatmaps with one colour scale: our test error (left), the paper's (right).

    Narrower than :data:`style.NARROW_PX` (``width_px``, a phone's page), ours
    above the paper's instead, so that a cell stays wide enough for its number.

    Parameters
    ----------
    errors : ndarray of shape (len(TABLE2_N), len(TABLE2_DEGREES))
        Test error (%), rows n = 32 … 2048, columns degree 1–7; NaN: no cell.
    paper : ndarray of the same shape
        The paper's numbers (:data:`kpca_core.features.PAPER_TABLE2`).
    live : ndarray of bool of the same shape, optional
        Cells computed live in the app: marked with :data:`LIVE_MARK` and
        "computed live" on hover.
    chosen : (degree, n), optional
        A cell to outline (the one whose details are shown).
    title : str
    width_px : int, optional
        The width the figure is drawn at.
    """
    errors = np.asarray(errors, dtype=float)
    shape = (len(TABLE2_N), len(TABLE2_DEGREES))
    if errors.shape != shape or paper.shape != shape:
        raise ValueError(f"Table 2 grids have shape {shape}, got {errors.shape}, {paper.shape}")
    live = np.zeros(shape, bool) if live is None else np.asarray(live, bool)
    degrees = [str(d) for d in TABLE2_DEGREES]
    ns = [str(n) for n in TABLE2_N]
    finite = np.concatenate([errors[np.isfinite(errors)], paper[np.isfinite(paper)]])
    zmin, zmax = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
    source = np.where(live, "computed live", "shipped table")
    stacked = style.is_narrow(width_px)
    # a phone's bar, under the grids, on a colour axis of its own: drawn in place over the
    # desktop's figure (the width measured late), the vertical bar stayed over the cells
    axis = "coloraxis2" if stacked else "coloraxis"
    fig = make_subplots(
        rows=2 if stacked else 1,
        cols=1 if stacked else 2,
        # short lines, which stay apart above the narrow panels side by side on a phone
        subplot_titles=("ours", f"Schölkopf et al.{' ' if stacked else '<br>'}1998, Table 2"),
        horizontal_spacing=0.08,
        vertical_spacing=0.14,
        shared_yaxes=True,  # the right panel's n labels fell on the left panel's cells
    )
    for panel, values, custom, template in (
        (
            1,
            errors,
            np.dstack([paper, source]),
            "degree %{x}, n = %{y}<br>test error %{z:.2f} %<br>"
            "paper %{customdata[0]} %<br>%{customdata[1]}<extra></extra>",
        ),
        (
            2,
            paper,
            np.dstack([errors, source]),
            "degree %{x}, n = %{y}<br>paper %{z:.1f} %<br>ours %{customdata[0]} %<extra></extra>",
        ),
    ):
        text = _cell_text(values, live if panel == 1 else np.zeros(shape, bool))
        fig.add_trace(
            go.Heatmap(
                z=values,
                x=degrees,
                y=ns,
                text=text,
                texttemplate="%{text}",
                customdata=np.vectorize(_format_value)(custom),
                hovertemplate=template,
                coloraxis=axis,
                xgap=1,
                ygap=1,
            ),
            row=panel if stacked else 1,
            col=1 if stacked else panel,
        )
    if chosen is not None:
        degree, n = chosen
        i, j = TABLE2_DEGREES.index(degree), TABLE2_N.index(n)
        fig.add_shape(
            type="rect",
            x0=i - 0.5,
            x1=i + 0.5,
            y0=j - 0.5,
            y1=j + 0.5,
            xref="x",
            yref="y",
            line={"color": style.KERNEL, "width": 3},
            name="chosen cell",
        )
    fig.update_xaxes(title_text="degree d", type="category")
    fig.update_yaxes(type="category")
    fig.update_yaxes(title_text="number of components n", row=1, col=1)
    colorbar: dict = {"title": {"text": "test error (%)"}}
    if stacked:
        fig.update_xaxes(title_text=None, row=1, col=1)  # the lower grid's says it
        fig.update_yaxes(title_text="number of components n", row=2, col=1)
        # below the grids, where it takes no width from the cells
        colorbar.update(
            orientation="h", x=0.5, xanchor="center", y=-0.1, yanchor="top", len=0.9, thickness=14
        )
        colorbar["title"]["side"] = "top"
    fig.update_layout(
        title={"text": title},
        **{axis: {"colorscale": ERROR_SCALE, "cmin": zmin, "cmax": zmax, "colorbar": colorbar}},
        height=STACKED_PX if stacked else 420,
        margin={"l": 60, "r": 10, "t": 70 if title else 50, "b": 110 if stacked else 50},
        plot_bgcolor=style.TRANSPARENT,  # cells without a number: the page's background
        font={"family": style.FONT_FAMILY},
    )
    return fig


def _format_value(value: object) -> str:
    """A cell's hover value: errors to 2 decimals, n.a. for NaN, words as they are."""
    try:
        number = float(value)
    except ValueError:
        return str(value)
    return "n.a." if np.isnan(number) else f"{number:.2f}"


def confusion_figure(confusion: np.ndarray, *, title: str = "") -> go.Figure:
    """A confusion matrix: counts in every cell, the colour of the errors only.

    The diagonal (correct digits) is left uncoloured, so that the few
    confusions are not drowned by ~200 correct digits per class.

    Parameters
    ----------
    confusion : ndarray of shape (k, k)
        Rows: true class; columns: predicted class.
    title : str
    """
    confusion = np.asarray(confusion)
    k = confusion.shape[0]
    errors = confusion.astype(float)
    np.fill_diagonal(errors, np.nan)
    labels = [str(c) for c in range(k)]
    fig = go.Figure(
        go.Heatmap(
            z=errors,
            x=labels,
            y=labels,
            text=confusion.astype(str),
            texttemplate="%{text}",
            colorscale="Reds",
            zmin=0,
            colorbar={"title": {"text": "errors"}},
            hovertemplate="true %{y}, predicted %{x}: %{text} digits<extra></extra>",
            xgap=1,
            ygap=1,
        )
    )
    fig.update_xaxes(title_text="predicted digit", type="category", side="top")
    fig.update_yaxes(title_text="true digit", type="category", autorange="reversed")
    fig.update_layout(
        title={"text": title},
        height=440,
        margin={"l": 60, "r": 10, "t": 90 if title else 60, "b": 10},
        plot_bgcolor=style.TRANSPARENT,  # the uncoloured diagonal: the page's background
        font={"family": style.FONT_FAMILY},
    )
    return fig


def describe_confusion(confusion: np.ndarray, *, title: str = "") -> Description:
    """:func:`confusion_figure` in words: how many test digits are right, and the confusions
    that occur most often (the darkest cells), with their counts; the table, every cell."""
    confusion = np.asarray(confusion)
    total, right = int(confusion.sum()), int(np.trace(confusion))
    errors = confusion - np.diag(np.diag(confusion))
    label = plain(title) or "Confusion matrix"
    said = [
        f"{label}: true digit (rows) against predicted digit (columns), the count in every "
        f"cell, the errors coloured. {right} of {total} test digits right "
        f"({right / max(total, 1):.1%}), {total - right} wrong."
    ]
    order = np.argsort(errors, axis=None, kind="stable")[::-1][:MOST_CONFUSED]
    pairs = [np.unravel_index(cell, errors.shape) for cell in order if errors.flat[cell] > 0]
    if pairs:
        (r, c), *more = pairs
        said.append(f"The errors are most often a true {r} read as {c}: {errors[r, c]} digits")
        said[-1] += "".join(f"; then {r} as {c}: {errors[r, c]}" for r, c in more) + "."
    true, predicted = np.indices(confusion.shape)
    table = pd.DataFrame(
        {"true": true.ravel(), "predicted": predicted.ravel(), "count": confusion.ravel()}
    )
    return Description(label, " ".join(said), table)


MOST_CONFUSED = 3
""":func:`describe_confusion` names at most this many confusions."""


MISCLASSIFIED_GAP = 8
"""Pixels (of a 16-pixel digit) between two misclassified digits."""


def misclassified_figure(
    images: np.ndarray,
    true_labels: np.ndarray,
    predicted: np.ndarray,
    *,
    side: int = 16,
    max_digits: int = 12,
    title: str = "",
) -> go.Figure:
    """The first ``max_digits`` misclassified digits in one row, each labelled "true → predicted".

    Parameters
    ----------
    images : ndarray of shape (n, side * side)
        The misclassified digits (grey values in [−1, 1]).
    true_labels, predicted : ndarray of shape (n,)
    side : int
    max_digits : int
    title : str
    """
    n = min(len(images), max_digits)
    if n == 0:
        fig = go.Figure()
        fig.add_annotation(text="no misclassified digits", showarrow=False, x=0.5, y=0.5)
        fig.update_xaxes(visible=False)
        fig.update_yaxes(visible=False)
        fig.update_layout(title={"text": title}, height=160, plot_bgcolor=style.TRANSPARENT)
        return fig
    tiles = np.asarray(images[:n], dtype=np.float32).reshape(1, n, side * side)
    labels = [f"{t} → {p}" for t, p in zip(true_labels[:n], predicted[:n], strict=True)]
    # half a digit between two: one pixel apart, neighbours read as one shape
    return mosaic_figure(
        tiles, side=side, row_labels=[""], column_labels=labels, title=title, gap=MISCLASSIFIED_GAP
    )


def describe_misclassified(
    true_labels: np.ndarray, predicted: np.ndarray, *, max_digits: int = 12, title: str = ""
) -> Description:
    """:func:`misclassified_figure` in words: how many digits are misclassified, and the
    ones shown, each "true → predicted" as its label; the table, every one of them."""
    n = min(len(true_labels), max_digits)
    label = plain(title) or "Misclassified digits"
    shown = ", ".join(f"{t} → {p}" for t, p in zip(true_labels[:n], predicted[:n], strict=True))
    text = (
        f"{label}: {len(true_labels)} test digits misclassified; the first {n} shown, each "
        f"labelled true → predicted: {shown}."
        if n
        else f"{label}: no misclassified digits."
    )
    table = pd.DataFrame({"true": true_labels, "predicted": predicted})
    return Description(label, text, table)


def describe_table2(
    errors: np.ndarray,
    *,
    paper: np.ndarray = PAPER_TABLE2,
    live: np.ndarray | None = None,
    chosen: tuple[int, int] | None = None,
) -> Description:
    """:func:`table2_figure` in words: the lowest test error here and in the paper, the
    chosen cell beside the paper's, and Sect. 6.3's two claims as they hold on our grid
    (:func:`kpca_core.features.table2_claims`).  The table: every cell, ours and the paper's.
    """
    errors = np.asarray(errors, dtype=float)
    live = np.zeros(errors.shape, bool) if live is None else np.asarray(live, bool)

    def best(grid: np.ndarray) -> str:
        if not np.isfinite(grid).any():
            return "no cell"
        r, c = np.unravel_index(np.nanargmin(grid), grid.shape)
        return f"{grid[r, c]:.1f} % at degree {TABLE2_DEGREES[c]}, n = {TABLE2_N[r]}"

    label = "Table 2: test error (%) of a linear SVM on n kernel components of degree d"
    said = [
        f"{label}, ours beside Schölkopf, Smola & Müller (1998), "
        f"{len(TABLE2_N)} values of n (rows) by {len(TABLE2_DEGREES)} degrees (columns), "
        "lighter for a lower error.",
        f"Lowest here: {best(errors)}; in the paper: {best(paper)}.",
    ]
    if chosen is not None:
        d, n = chosen
        r, c = TABLE2_N.index(n), TABLE2_DEGREES.index(d)
        said.append(
            f"The outlined cell, degree {d}, n = {n}: {errors[r, c]:.1f} % here, "
            f"{paper[r, c]:.1f} % in the paper."
        )
    for claim in table2_claims(errors):
        said.append(f"“{claim.statement}” {'holds' if claim.holds else 'holds only in part'} here.")
    rows, columns = np.meshgrid(TABLE2_N, TABLE2_DEGREES, indexing="ij")
    table = pd.DataFrame(
        {
            "n": rows.ravel(),
            "degree": columns.ravel(),
            "test error here (%)": errors.ravel(),
            "in the paper (%)": paper.ravel(),
            "computed live": live.ravel(),
        }
    )
    return Description(label, " ".join(said), table)
