"""Figures at one chosen width: its spectrum as bars, its first components.

Figure 4a, the spectrum at the chosen width (:func:`spectrum_bars_figure`);
figure 4b, the first two components of a kernel PCA fitted there: contour
maps over 2-D data (:func:`component_maps_figure`) or the data projected onto
them (:func:`projection_figure`), both behind :func:`components_at_figure`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative

from ...kernel_pca import Progress
from ...spectrum import CONSTANT, WidthSweep, component_grid
from .. import layout, panels, style
from ..words import Description, plain, share, subscript
from .marks import (
    FONT,
    HEIGHT,
    LEGEND_BELOW,
    MARGIN,
    WHITE,
    f32,
    figure,
    format_width,
    white,
)


def spectrum_bars_figure(
    sweep: WidthSweep,
    index: int,
    *,
    n_bars: int = 20,
    log: bool = False,
    legend_right: bool = False,
) -> go.Figure:
    """The spectrum at one width: bars λ_k/Σλ, the cumulative share, linear PCA.

    Parameters
    ----------
    sweep : fitted WidthSweep
    index : int
        The chosen width.
    n_bars : int, default=20
        Leading components drawn.
    log : bool, default=False
        Logarithmic bars (zeros from rounding are then simply absent).
    legend_right : bool, default=False
        The legend right of the plot, not under it: a projector's short figure (on a
        lesson's slide a legend below left the plot 100 px tall).
    """
    n_bars = max(1, min(int(n_bars), sweep.n_samples_))
    ratios = sweep.ratios_[index, :n_bars]
    k = np.arange(1, n_bars + 1)
    value = format_width(sweep, index)
    data: list[dict] = []
    layout: dict = {}
    if np.isnan(ratios[0]):
        layout["annotations"] = [
            {
                "x": 0.5,
                "y": 0.5,
                "xref": "paper",
                "yref": "paper",
                "text": f"At {value} the centred kernel matrix is zero up to rounding:<br>"
                "there is no spectrum to show. Choose a narrower width.",
                "showarrow": False,
                "font": {"size": 13},  # the theme's text colour: 4.5:1 on either theme
                "name": CONSTANT,
            }
        ]
        title = f"Spectrum at {value}<br><sup>zero up to rounding</sup>"
    else:
        bars, cumulative, title = _bars_at(sweep, index, n_bars, log)
        linear = sweep.linear_ratios_[:n_bars]
        data = [
            {
                "type": "bar",
                "x": k,
                "y": bars,
                "name": "kernel PCA λ<sub>k</sub>/Σλ",
                "marker": {"color": style.KERNEL},
                "hovertemplate": "k = %{x}<br>λ<sub>k</sub>/Σλ = %{y:.3g}<extra></extra>",
                "xaxis": "x",
                "yaxis": "y",
            },
            {
                "type": "scatter",
                "x": k,
                "y": cumulative,
                "mode": "lines+markers",
                "name": "cumulative share",
                "line": {"color": style.NEUTRAL, "width": 1.5},
                "marker": {"size": 4},
                "hovertemplate": "first %{x} components: %{y:.3f} of the variance<extra></extra>",
                "xaxis": "x",
                "yaxis": "y2",
            },
            {
                "type": "scatter",
                "x": k[: linear.size],
                "y": f32(linear),
                "mode": "markers",
                "name": "linear PCA λ<sub>k</sub>/Σλ",
                "marker": {"color": style.LINEAR, "symbol": "diamond", "size": 10},
                "hovertemplate": "linear PCA: λ<sub>%{x}</sub>/Σλ = %{y:.3g}<extra></extra>",
                "xaxis": "x",
                "yaxis": "y",
            },
        ]
    # one plot with a second y axis on the right (what make_subplots' secondary_y makes)
    layout["xaxis"] = {
        "anchor": "y",
        "domain": [0.0, 0.94],
        "title": {"text": "component k"},
        "tick0": 0,
        "dtick": 1 if n_bars <= 10 else 5,
    }
    layout["yaxis"] = {
        "anchor": "x",
        "domain": [0.0, 1.0],
        "title": {"text": "λ<sub>k</sub>/Σλ" + ("  (log scale)" if log else "")},
        "type": "log" if log else "linear",
        "exponentformat": "power",
        # a log axis labels its decades only: Plotly's 2 and 5 between them, smaller than the
        # rest, ran into the decades' labels on a projector (issue 51's audit at 1920 × 1080)
        **({"dtick": 1} if log else {}),
    }
    if data and not log:
        layout["yaxis"]["range"] = _bars_range(sweep, index, n_bars)
    layout["yaxis2"] = {
        "anchor": "x",
        "overlaying": "y",
        "side": "right",
        "title": {"text": "cumulative share"},
        "range": [0, 1.02],
        "tickmode": "linear",
        "tick0": 0,
        "dtick": 0.2,
        "showgrid": False,
    }
    layout.update(
        font=FONT,
        height=HEIGHT,
        title={"text": title, "x": 0},
        margin={**MARGIN, "r": 60, **({"b": 60} if legend_right else {})},
        legend={"x": 1.3, "xanchor": "left", "y": 1.0} if legend_right else LEGEND_BELOW,
        bargap=0.15,
    )
    return figure(data, layout)


def describe_spectrum_bars(sweep: WidthSweep, index: int, *, n_bars: int = 20) -> Description:
    """:func:`spectrum_bars_figure` in words: at the chosen width, the leading shares
    λ_k/Σλ, how many components carry half and 90 % of the variance, and linear PCA's first
    share; the table, each bar's share, the cumulative share and linear PCA's."""
    n_bars = max(1, min(int(n_bars), sweep.n_samples_))
    ratios = sweep.ratios_[index, :n_bars]
    value = format_width(sweep, index)
    label = f"Spectrum at {value}"
    if np.isnan(ratios[0]):
        text = f"{label}: the centred kernel matrix is zero up to rounding, no spectrum."
        return Description(label, text)
    cumulative = np.cumsum(sweep.ratios_[index])
    leading = ", ".join(f"λ{subscript(k + 1)} {share(r)}" for k, r in enumerate(ratios[:5]))
    needed = [f"{int(np.searchsorted(cumulative, f - 1e-12) + 1)} for {f:.0%}" for f in (0.5, 0.9)]
    said = (
        f"{label}: bars λ_k/Σλ of the first {n_bars} components and their cumulative share. "
        f"{leading}. Components needed: {', '.join(needed)} of the variance. Linear PCA, "
        f"diamonds: λ₁ holds {share(sweep.linear_ratios_[0])}."
    )
    linear = np.full(n_bars, np.nan)
    linear[: min(n_bars, sweep.linear_ratios_.size)] = sweep.linear_ratios_[:n_bars]
    table = {
        "component k": np.arange(1, n_bars + 1),
        "λk/Σλ": ratios,
        "cumulative share": cumulative[:n_bars],
        "linear PCA λk/Σλ": linear,
    }
    return Description(label, said, pd.DataFrame(table))


BARS_TOPS = np.array([1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0])
"""The tops of the linear bars' axis in each decade: the first at least 5 % above the
highest bar or linear PCA marker (plotly's own autorange pads about as much)."""


def _bars_range(sweep: WidthSweep, index: int, n_bars: int) -> list[float]:
    """The linear bars' y range at ``index``: [0, a round top over the highest mark].

    A round top stays the same over many widths, so a scrubbed frame whose range is
    the one drawn moves the bars alone (``kpca_ui/chart.js``, ``glide``), without
    redrawing the axes.
    """
    high = 1.05 * float(
        np.nanmax(np.concatenate([sweep.ratios_[index, :n_bars], sweep.linear_ratios_[:n_bars]]))
    )
    decade = 10.0 ** np.floor(np.log10(high))
    top = decade * BARS_TOPS[np.searchsorted(BARS_TOPS, high / decade - 1e-12)]
    return [0.0, float(f"{top:.6g}")]


def _bars_at(
    sweep: WidthSweep, index: int, n_bars: int, log: bool
) -> tuple[np.ndarray, np.ndarray, str]:
    """The bars, the cumulative share and the title of the spectrum at ``index`` (not constant)."""
    ratios = sweep.ratios_[index, :n_bars]
    bars = np.where(ratios > 0, ratios, np.nan) if log else ratios
    value = format_width(sweep, index)
    share = float(np.sum(sweep.ratios_[index, :2]))
    title = f"Spectrum at {value}<br><sup>(λ₁+λ₂)/Σλ = {share:.3f}</sup>"
    return f32(bars), f32(np.cumsum(ratios)), title


def spectrum_bars_frames(
    sweep: WidthSweep, index: int, *, n_bars: int = 20, log: bool = False
) -> dict[int, dict]:
    """What changes in :func:`spectrum_bars_figure` at ``index`` when the width changes.

    For every width with a spectrum (the kernel matrix not constant), its bars,
    cumulative share, title and (linear bars) y range as changes of the figure at
    ``index``: ``{width index: {"data": [{"y"}, {"y"}], "layout": {"title", "yaxis":
    {"range"}}}}``; none if
    the figure at ``index`` has no spectrum (no traces to change).  A page sends
    them once and a slider moves through them in the browser.
    """
    n_bars = max(1, min(int(n_bars), sweep.n_samples_))
    if np.isnan(sweep.ratios_[index, 0]):
        return {}
    frames = {}
    for at in range(sweep.widths_.size):
        if np.isnan(sweep.ratios_[at, 0]):
            continue
        bars, cumulative, title = _bars_at(sweep, at, n_bars, log)
        frames[at] = {
            "data": [{"y": bars}, {"y": cumulative}],
            "layout": {"title": {"text": title, "x": 0}},
        }
        if not log:
            frames[at]["layout"]["yaxis"] = {"range": _bars_range(sweep, at, n_bars)}
    return frames


# ------------------------------------------------------------ figure 4b
MAPS_PX = 820
"""Width the component maps are planned for when the page does not say (the page at
1280 px with the sidebar open: two panels and the colour bar; presenter mode's 3/5 of
its page is ~740 px)."""
MAPS_MARGIN = {"l": 40, "r": 20, "t": 70, "b": 40}
MAPS_GAP_X = 0.08
"""Fraction of the plot's width between two panels side by side."""
MAPS_GAP_MIN_PX = 40
"""Between two panels side by side at least the right one's y tick labels ("−0.5" at
14 px)."""
MAPS_COLORBAR_PX = 86
"""Room the vertical colour bar takes right of the plot (plotly widens the right
margin by as much; measured in Chromium)."""
MAPS_COLORBAR_TITLE = "value /<br>max|value|"
MAPS_ROW_GAP_PX = 50
"""Between two rows of maps (a phone's): the upper row's tick labels and the lower
row's panel title."""
MAPS_BAR_BELOW_PX = 90
"""A phone's maps: the colour bar lies under them, with its ticks and title (the
page is too narrow to give it a column of its own)."""
MAPS_ROW_MAX_PX = 280
"""A row of maps below another is at most this tall (the page scrolls past it); a
single row is at most as tall as the figure's usual height lets it be."""
MAPS_TITLE_PX = 17
"""The figure title's size (plotly's default: 1.4 em of 12 px)."""


@dataclass(frozen=True)
class MapsPlan:
    """Where the maps go in a figure ``width_px`` wide (:func:`plan_maps`).

    Attributes
    ----------
    per_row : int
        Maps side by side (all of them, or one a row on a phone).
    panel_w, panel_h : float
        A map's box in pixels (equal aspect: the data's shape fits in it).
    height : int
        The figure's height.
    margin : dict
        The figure's margins.
    narrow : bool
        A phone's page: the colour bar lies under the maps.
    title_lines : list of str
        The figure's title broken to fit its width.
    """

    per_row: int
    panel_w: float
    panel_h: float
    height: int
    margin: dict
    narrow: bool
    title_lines: list[str]

    @property
    def plot_h(self) -> float:
        return self.height - self.margin["t"] - self.margin["b"]


def plan_maps(
    n: int, x_range: list[float], y_range: list[float], width_px: int, title: str = ""
) -> MapsPlan:
    """Plan ``n`` maps of equal aspect in ``width_px`` by the layout rule.

    Side by side when each keeps a plot area of :data:`layout.AREA_MIN_PX` (its axes
    have tick labels), else one below the other (:func:`layout.plan_grid`); on a page
    narrower than :data:`style.NARROW_PX` the colour bar goes under the maps.
    """
    narrow = style.is_narrow(width_px)
    lines = style.title_lines(title, width_px, MAPS_TITLE_PX) if title else [""]
    margin = {**MAPS_MARGIN, "t": MAPS_MARGIN["t"] + style.TITLE_LINE_PX * (len(lines) - 1)}
    if narrow:
        margin["b"] += MAPS_BAR_BELOW_PX
    plot_w = width_px - margin["l"] - margin["r"] - (0 if narrow else MAPS_COLORBAR_PX)
    aspect = max(np.ptp(y_range), 1e-300) / max(np.ptp(x_range), 1e-300)
    grid = layout.plan_grid(
        n,
        1,
        plot_w,
        aspect=aspect,
        least_px=layout.AREA_MIN_PX / min(1.0, aspect),
        gap_px=max(MAPS_GAP_X * plot_w, MAPS_GAP_MIN_PX),
    )
    rows = -(-n // grid.per_row)
    tallest = HEIGHT - 60 - margin["t"] - margin["b"] if rows == 1 else MAPS_ROW_MAX_PX
    panel_h = min(grid.panel_px * aspect, tallest)
    height = round(margin["t"] + margin["b"] + rows * panel_h + (rows - 1) * MAPS_ROW_GAP_PX)
    return MapsPlan(grid.per_row, grid.panel_px, panel_h, height, margin, narrow, lines)


def component_maps_figure(
    xs: np.ndarray,
    ys: np.ndarray,
    values: np.ndarray,
    X: np.ndarray,
    *,
    title: str = "",
    width_px: int = MAPS_PX,
) -> go.Figure:
    """Contour maps of the first nonlinear components over 2-D data.

    Each component is divided by its largest absolute value on the grid, so
    that both share one diverging colour scale centred on 0: the shape of the
    contours is what matters (a component's sign and scale are arbitrary).

    Each panel is drawn as pictures (:mod:`kpca_core.figures.panels`), as in
    the Contours grid: the colours as a PNG image, the contour lines (every
    :data:`panels.LEVEL_STEP`) as one SVG path, the data as a PNG of dots
    shared by the panels.  Built as plain dictionaries without plotly's
    validation (the tests re-create it with validation on).  Why: as plotly
    contour traces with a scatter of the data (300 points, an 80 × 80 grid),
    the figure took 50–60 ms per drawing in headless Chromium, and Streamlit
    draws every changed chart twice; as pictures it takes 16–20 ms, and
    ~6 ms instead of 16–22 ms to build.  The price: hovering a panel no
    longer shows the component's value, the colours are smooth instead of
    banded, and the dots, a picture, grow (and blur) when the user zooms in.

    Parameters
    ----------
    xs, ys : ndarray
        Grid coordinates.
    values : ndarray of shape (n, len(ys), len(xs))
        Component k + 1 at each grid point, from
        :func:`kpca_core.spectrum.component_grid`.
    X : ndarray of shape (n_samples, 2)
        The data, drawn on top.
    title : str
        Figure title.
    width_px : int
        The width the page gives the figure; the maps are laid out in it by
        :func:`plan_maps` (one below the other on a phone).

    Returns
    -------
    go.Figure
        One panel per component, titled "component k", sharing one colour axis.
    """
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    n = values.shape[0]
    x_range = [float(xs[0]), float(xs[-1])]
    y_range = [float(ys[0]), float(ys[-1])]
    plan = plan_maps(n, x_range, y_range, width_px, title)
    plot_w = width_px - plan.margin["l"] - plan.margin["r"]
    plot_w -= 0 if plan.narrow else MAPS_COLORBAR_PX
    gap = max(MAPS_GAP_X * plot_w, MAPS_GAP_MIN_PX)
    # the scale the panels are planned for: equal aspect, so the tighter axis sets it
    px_per_unit = min(
        plan.panel_w / max(np.ptp(x_range), 1e-300), plan.panel_h / max(np.ptp(y_range), 1e-300)
    )
    dots = panels.dots_layer(X, x_range, y_range, px_per_unit)
    colorbar: dict = {
        "title": {"text": MAPS_COLORBAR_TITLE},
        "thickness": 12,
        "tickvals": [-1, -0.5, 0, 0.5, 1],
    }
    if plan.narrow:  # under the maps, below the last row's tick labels
        colorbar.update(
            orientation="h",
            x=0.0,
            xanchor="left",
            y=-36 / plan.plot_h,
            yanchor="top",
            title={"text": MAPS_COLORBAR_TITLE.replace("<br>", " "), "side": "bottom"},
        )
    annotations: list[dict] = []
    images: list[dict] = []
    shapes: list[dict] = []
    axis = "coloraxis2" if plan.narrow else "coloraxis"
    layout_: dict = {
        "template": WHITE,
        "font": FONT,
        "height": plan.height,
        "margin": plan.margin,
        "title": {"text": "<br>".join(plan.title_lines), "x": 0},
        "showlegend": False,
        # A phone's horizontal bar on a colour axis of its own: drawn in place over the
        # maps planned for a desktop (the page's width measured late, under load), the
        # desktop's vertical bar left its ticks over the maps and pushed the bottom
        # margin by 434 px, and the maps shrank to 132 × 117 px (the phone audit's
        # Spectrum breaches); a new axis gets a new bar.
        axis: {
            "colorscale": panels.COLORSCALE,
            "cmin": -1.0,
            "cmax": 1.0,
            "colorbar": colorbar,
        },
    }
    for k in range(n):
        suffix = "" if k == 0 else str(k + 1)
        row, column = divmod(k, plan.per_row)
        left = column * (plan.panel_w + gap) / plot_w
        domain = [max(left, 0.0), min(left + plan.panel_w / plot_w, 1.0)]
        top = 1.0 - row * (plan.panel_h + MAPS_ROW_GAP_PX) / plan.plot_h
        y_domain = [max(top - plan.panel_h / plan.plot_h, 0.0), min(top, 1.0)]
        layout_[f"xaxis{suffix}"] = {
            "domain": domain,
            "range": x_range,
            "anchor": f"y{suffix}",
            "constrain": "domain",
            "showgrid": False,
            "zeroline": False,
        }
        layout_[f"yaxis{suffix}"] = {
            "domain": y_domain,
            "range": y_range,
            "anchor": f"x{suffix}",
            "scaleanchor": f"x{suffix}",
            "scaleratio": 1,
            "constrain": "domain",
            "showgrid": False,
            "zeroline": False,
        }
        annotations.append(
            {**style.panel_title(f"component {k + 1}", domain, size=16), "y": y_domain[1]}
        )
        bound = float(np.max(np.abs(values[k]))) or 1.0
        normalised = values[k] / bound
        axes = {"xref": f"x{suffix}", "yref": f"y{suffix}"}
        images.append(panels.colour_image(xs, ys, normalised, axes))
        shapes.append(panels.lines_shape(xs, ys, normalised, px_per_unit, axes))
        images.append({**dots, **axes})
    layout_["annotations"] = annotations
    layout_["images"] = images
    layout_["shapes"] = shapes
    data = [panels.data_trace(X), panels.colour_axis_trace(axis)]
    # Built from checked dictionaries; tests re-create it with validation on.
    return go.Figure(data=data, layout=layout_, _validate=False)


def projection_figure(
    projections: np.ndarray,
    labels: np.ndarray | None = None,
    *,
    title: str = "",
) -> go.Figure:
    """The data projected onto the first two nonlinear components, coloured by group.

    For data in more than two dimensions (the Gaussians in R^10), where a
    contour map over the input space cannot be drawn.
    """
    labels = np.zeros(len(projections), dtype=int) if labels is None else np.asarray(labels)
    fig = go.Figure()
    palette = qualitative.Safe
    for position, group in enumerate(np.unique(labels)):
        members = labels == group
        fig.add_trace(
            go.Scattergl(
                x=f32(projections[members, 0]),
                y=f32(projections[members, 1]),
                mode="markers",
                marker={"size": 5, "color": palette[position % len(palette)]},
                name=str(group) if labels.dtype.kind in "OUS" else f"group {group}",
                hovertemplate="component 1 %{x:.3g}<br>component 2 %{y:.3g}<extra></extra>",
            )
        )
    fig.update_xaxes(title="component 1")
    fig.update_yaxes(title="component 2")
    fig.update_layout(
        font=FONT,
        height=HEIGHT,
        title={"text": title, "x": 0},
        margin={"l": 60, "r": 20, "t": 60, "b": 50},
    )
    return white(fig)


def components_at_figure(
    sweep: WidthSweep,
    index: int,
    labels: np.ndarray | None = None,
    *,
    progress: Progress | None = None,
    width_px: int = MAPS_PX,
) -> go.Figure:
    """The first two components at ``widths_[index]``, from a kernel PCA fitted there.

    2-D data: :func:`component_maps_figure` over a grid around the data;
    otherwise :func:`projection_figure` of the data.  One call, so that a
    page can build it in one trip to a worker process (fit, grid, figure).
    ``progress`` is passed to the fit (through which a worker cancels it); the maps
    are planned for ``width_px`` (:func:`plan_maps`).

    Raises
    ------
    ValueError
        If kernel PCA cannot be fitted at this width (see ``WidthSweep.fit_at``), or
        finds no component there (a width so large that the kernel's values are all
        equal to rounding).
    """
    value = format_width(sweep, index)
    model = sweep.fit_at(index, n_components=2, progress=progress)
    if model.n_components_ == 0:
        raise ValueError(
            "every eigenvalue of the centred kernel matrix is 0 to rounding at this width, so "
            "the kernel sees no differences between the points; choose a narrower width"
        )
    scores = model.transform(sweep.X_fit_)
    if sweep.n_features_in_ == 2:
        xs, ys, values = component_grid(model, sweep.X_fit_)
        title = f"The first two components at {value}"
        fig = component_maps_figure(xs, ys, values, sweep.X_fit_, title=title, width_px=width_px)
        bounds = np.max(np.abs(values), axis=(1, 2))
        bounds[bounds == 0] = 1.0  # as the maps divide
        scores, planes = scores / bounds, values / bounds[:, None, None]
    else:
        title = f"The data on the first two components at {value}"
        fig = projection_figure(scores, labels, title=title)
        planes = [None] * scores.shape[1]
    # the numbers of the figure's words (describe_components_at), carried by the figure
    fig.layout.meta = {
        "components": [
            {
                "eigenvalue": float(model.eigenvalues_[k]),
                "share": float(sweep.ratios_[index, k]),
                "data": [float(scores[:, k].min()), float(scores[:, k].max())],
                **(
                    {}
                    if plane is None
                    else {
                        "positive": float(np.mean(plane > 0)),
                        "flat": float(np.mean(np.abs(plane) < MAPS_FLAT)),
                    }
                ),
            }
            for k, plane in enumerate(planes)
        ]
    }
    return fig


MAPS_FLAT = panels.LEVEL_STEP / 2
"""A map is "near 0" where its value is within this of 0 (of its largest |value|): short of
the first contour line's level."""


def describe_components_at(figure: go.Figure) -> Description:
    """:func:`components_at_figure` in words, from the numbers it carries (``layout.meta``):
    per component its λ and share λ_k/Σλ, its range over the data, and on the maps (2-D
    data) the shares of the plane where it is positive and where it is near 0
    (:data:`MAPS_FLAT`): a component that varies along the data, or one that is flat away
    from it.  The table: those numbers, a row per component."""
    label = plain(figure.layout.title.text)
    rows = figure.layout.meta["components"]
    maps = "positive" in rows[0]
    said = [
        f"{label}: a map over the plane around the data of each of the first {len(rows)} "
        "components, divided by its largest |value| on the map, coloured from blue "
        "(negative) through white (0) to red (positive), with contour lines every "
        f"{panels.LEVEL_STEP:g} and the data as dots."
        if maps
        else f"{label}: the data as points, at their values on the first {len(rows)} components."
    ]
    for k, row in enumerate(rows, start=1):
        low, high = row["data"]
        where = (
            f" positive on {row['positive']:.0%} of the map and near 0 (within "
            f"±{MAPS_FLAT:g}) on {row['flat']:.0%};"
            if maps
            else ""
        )
        said.append(
            f"Component {k}: λ = {row['eigenvalue']:.3g} ({share(row['share'])} of the "
            f"variance);{where} on the data from {low:.2f} to {high:.2f}."
        )
    table = pd.DataFrame(
        {
            "component k": np.arange(1, len(rows) + 1),
            "eigenvalue": [row["eigenvalue"] for row in rows],
            "λk/Σλ": [row["share"] for row in rows],
            "lowest on the data": [row["data"][0] for row in rows],
            "highest on the data": [row["data"][1] for row in rows],
            **(
                {
                    "share of the map positive": [row["positive"] for row in rows],
                    "share of the map near 0": [row["flat"] for row in rows],
                }
                if maps
                else {}
            ),
        }
    )
    return Description(label, " ".join(said), table)
