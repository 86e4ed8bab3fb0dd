"""Figures at one chosen width: its spectrum as bars, its first components.

Figure 4a, the spectrum at the chosen width (:func:`spectrum_bars_figure`);
figure 4b, the first two components of a kernel PCA fitted there: contour
maps over 2-D data (:func:`component_maps_figure`) or the data projected onto
them (:func:`projection_figure`), both behind :func:`components_at_figure`.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from ...kernel_pca import Progress
from ...spectrum import CONSTANT, WidthSweep, component_grid
from .. import panels, style
from .marks import FONT, HEIGHT, LEGEND_BELOW, MARGIN, WHITE, f32, format_parameter, white


def spectrum_bars_figure(
    sweep: WidthSweep,
    index: int,
    *,
    n_bars: int = 20,
    log: bool = False,
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
    """
    n_bars = max(1, min(int(n_bars), sweep.n_samples_))
    ratios = sweep.ratios_[index, :n_bars]
    k = np.arange(1, n_bars + 1)
    value = format_parameter(sweep, float(sweep.widths_[index]))
    fig = make_subplots(specs=[[{"secondary_y": True}]])
    if np.isnan(ratios[0]):
        fig.add_annotation(
            x=0.5,
            y=0.5,
            xref="paper",
            yref="paper",
            text=f"At {value} the centred kernel matrix is zero up to rounding:<br>"
            "there is no spectrum to show. Choose a narrower width.",
            showarrow=False,
            font={"size": 13, "color": style.NEUTRAL},
            name=CONSTANT,
        )
        title = f"Spectrum at {value}<br><sup>zero up to rounding</sup>"
    else:
        bars, cumulative, title = _bars_at(sweep, index, n_bars, log)
        fig.add_trace(
            go.Bar(
                x=k,
                y=bars,
                name="kernel PCA λ<sub>k</sub>/Σλ",
                marker_color=style.KERNEL,
                hovertemplate="k = %{x}<br>λ<sub>k</sub>/Σλ = %{y:.3g}<extra></extra>",
            ),
            secondary_y=False,
        )
        fig.add_trace(
            go.Scatter(
                x=k,
                y=cumulative,
                mode="lines+markers",
                name="cumulative share",
                line={"color": style.NEUTRAL, "width": 1.5},
                marker={"size": 4},
                hovertemplate="first %{x} components: %{y:.3f} of the variance<extra></extra>",
            ),
            secondary_y=True,
        )
        linear = sweep.linear_ratios_[:n_bars]
        fig.add_trace(
            go.Scatter(
                x=k[: linear.size],
                y=f32(linear),
                mode="markers",
                name="linear PCA λ<sub>k</sub>/Σλ",
                marker={"color": style.LINEAR, "symbol": "diamond", "size": 10},
                hovertemplate="linear PCA: λ<sub>%{x}</sub>/Σλ = %{y:.3g}<extra></extra>",
            ),
            secondary_y=False,
        )
    fig.update_xaxes(title="component k", tick0=0, dtick=1 if n_bars <= 10 else 5)
    fig.update_yaxes(
        title="λ<sub>k</sub>/Σλ" + ("  (log scale)" if log else ""),
        type="log" if log else "linear",
        exponentformat="power",
        secondary_y=False,
    )
    fig.update_yaxes(
        title="cumulative share",
        range=[0, 1.02],
        tickmode="linear",
        tick0=0,
        dtick=0.2,
        secondary_y=True,
        showgrid=False,
    )
    fig.update_layout(
        font=FONT,
        height=HEIGHT,
        title={"text": title, "x": 0},
        margin={**MARGIN, "r": 60},
        legend=LEGEND_BELOW,
        bargap=0.15,
    )
    return white(fig)


def _bars_at(
    sweep: WidthSweep, index: int, n_bars: int, log: bool
) -> tuple[np.ndarray, np.ndarray, str]:
    """The bars, the cumulative share and the title of the spectrum at ``index`` (not constant)."""
    ratios = sweep.ratios_[index, :n_bars]
    bars = np.where(ratios > 0, ratios, np.nan) if log else ratios
    value = format_parameter(sweep, float(sweep.widths_[index]))
    share = float(np.sum(sweep.ratios_[index, :2]))
    title = f"Spectrum at {value}<br><sup>(λ₁+λ₂)/Σλ = {share:.3f}</sup>"
    return f32(bars), f32(np.cumsum(ratios)), title


def spectrum_bars_frames(
    sweep: WidthSweep, index: int, *, n_bars: int = 20, log: bool = False
) -> dict[int, dict]:
    """What changes in :func:`spectrum_bars_figure` at ``index`` when the width changes.

    For every width with a spectrum (the kernel matrix not constant), its bars,
    cumulative share and title as changes of the figure at ``index``:
    ``{width index: {"data": [{"y"}, {"y"}], "layout": {"title"}}}``; none if
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
    return frames


# ------------------------------------------------------------ figure 4b
MAPS_PX = 820
"""Width the component maps are planned for: the page at 1280 px with the sidebar
open (two panels and the colour bar; presenter mode's 3/5 of its page is ~740 px)."""
MAPS_MARGIN = {"l": 40, "r": 20, "t": 70, "b": 40}
MAPS_GAP_X = 0.08
"""Paper fraction between two panels."""
MAPS_COLORBAR_PX = 86
"""Room the vertical colour bar takes right of the plot (plotly widens the right
margin by as much; measured in Chromium)."""
MAPS_COLORBAR_TITLE = "value /<br>max|value|"


def component_maps_figure(
    xs: np.ndarray,
    ys: np.ndarray,
    values: np.ndarray,
    X: np.ndarray,
    *,
    title: str = "",
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

    Returns
    -------
    go.Figure
        One panel per component, titled "component k", sharing one colour axis.
    """
    xs, ys = np.asarray(xs, dtype=float), np.asarray(ys, dtype=float)
    n = values.shape[0]
    width = (1.0 - MAPS_GAP_X * (n - 1)) / n
    margin = MAPS_MARGIN
    height = HEIGHT - 60
    # the scale the panels are planned for: equal aspect, so the tighter axis sets it
    plot_px = MAPS_PX - margin["l"] - margin["r"] - MAPS_COLORBAR_PX
    x_range = [float(xs[0]), float(xs[-1])]
    y_range = [float(ys[0]), float(ys[-1])]
    px_per_unit = min(
        plot_px * width / max(np.ptp(x_range), 1e-300),
        (height - margin["t"] - margin["b"]) / max(np.ptp(y_range), 1e-300),
    )
    dots = panels.dots_layer(X, x_range, y_range, px_per_unit)
    annotations: list[dict] = []
    images: list[dict] = []
    shapes: list[dict] = []
    layout: dict = {
        "template": WHITE,
        "font": FONT,
        "height": height,
        "margin": margin,
        "title": {"text": title, "x": 0},
        "showlegend": False,
        "coloraxis": {
            "colorscale": panels.COLORSCALE,
            "cmin": -1.0,
            "cmax": 1.0,
            "colorbar": {
                "title": {"text": MAPS_COLORBAR_TITLE},
                "thickness": 12,
                "tickvals": [-1, -0.5, 0, 0.5, 1],
            },
        },
    }
    for k in range(n):
        suffix = "" if k == 0 else str(k + 1)
        left = k * (width + MAPS_GAP_X)
        domain = [max(left, 0.0), min(left + width, 1.0)]
        layout[f"xaxis{suffix}"] = {
            "domain": domain,
            "range": x_range,
            "anchor": f"y{suffix}",
            "constrain": "domain",
            "showgrid": False,
            "zeroline": False,
        }
        layout[f"yaxis{suffix}"] = {
            "domain": [0.0, 1.0],
            "range": y_range,
            "anchor": f"x{suffix}",
            "scaleanchor": f"x{suffix}",
            "scaleratio": 1,
            "constrain": "domain",
            "showgrid": False,
            "zeroline": False,
        }
        annotations.append(style.panel_title(f"component {k + 1}", domain, size=16))
        bound = float(np.max(np.abs(values[k]))) or 1.0
        normalised = values[k] / bound
        axes = {"xref": f"x{suffix}", "yref": f"y{suffix}"}
        images.append(panels.colour_image(xs, ys, normalised, axes))
        shapes.append(panels.lines_shape(xs, ys, normalised, px_per_unit, axes))
        images.append({**dots, **axes})
    layout["annotations"] = annotations
    layout["images"] = images
    layout["shapes"] = shapes
    data = [panels.data_trace(X), panels.colour_axis_trace()]
    # Built from checked dictionaries; tests re-create it with validation on.
    return go.Figure(data=data, layout=layout, _validate=False)


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
) -> go.Figure:
    """The first two components at ``widths_[index]``, from a kernel PCA fitted there.

    2-D data: :func:`component_maps_figure` over a grid around the data;
    otherwise :func:`projection_figure` of the data.  One call, so that a
    page can build it in one trip to a worker process (fit, grid, figure).
    ``progress`` is passed to the fit (through which a worker cancels it).

    Raises
    ------
    ValueError
        If kernel PCA cannot be fitted at this width (see ``WidthSweep.fit_at``).
    """
    value = format_parameter(sweep, float(sweep.widths_[index]))
    model = sweep.fit_at(index, n_components=2, progress=progress)
    if sweep.n_features_in_ == 2:
        xs, ys, values = component_grid(model, sweep.X_fit_)
        title = f"The first two components at {value}"
        return component_maps_figure(xs, ys, values, sweep.X_fit_, title=title)
    title = f"The data on the first two components at {value}"
    return projection_figure(model.transform(sweep.X_fit_), labels, title=title)
