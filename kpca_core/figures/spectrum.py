"""Figures of the Spectrum view: how the kernel width shapes the eigenvalue spectrum.

Pure functions: a fitted :class:`kpca_core.spectrum.WidthSweep` (and, for the
maps, component values) in, ``go.Figure`` out.  The three sweep figures share
their width axis (logarithmic for widths, linear for degrees), mark the
chosen width with the same dashed line, and shade the widths where the kernel
matrix is numerically the identity or constant instead of plotting noise
there.

Plotly places shapes on a log axis by data value but annotations by the
log10 of it; the helpers below take care of that.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio
from plotly.colors import qualitative, sample_colorscale
from plotly.subplots import make_subplots

from ..spectrum import CONSTANT, IDENTITY, SYMBOLS, WidthSweep, component_grid
from . import panels, style

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


def _is_log(sweep: WidthSweep) -> bool:
    return sweep.sweep == "width" and bool(np.all(sweep.widths_ > 0))


def _edges(values: np.ndarray, log: bool) -> np.ndarray:
    """Brick edges around sorted values: geometric (log) or arithmetic midpoints."""
    values = np.asarray(values, dtype=float)
    if values.size == 1:
        return values * np.array([0.9, 1.1]) if log else values + np.array([-0.5, 0.5])
    if log:
        inner = np.sqrt(values[1:] * values[:-1])
        return np.concatenate([[values[0] ** 2 / inner[0]], inner, [values[-1] ** 2 / inner[-1]]])
    inner = (values[1:] + values[:-1]) / 2
    return np.concatenate([[2 * values[0] - inner[0]], inner, [2 * values[-1] - inner[-1]]])


def _annotation_x(value: float, log: bool) -> float:
    return float(np.log10(value)) if log else float(value)


def regime_runs(sweep: WidthSweep) -> list[tuple[str, float, float]]:
    """Contiguous runs of identity or constant widths, as (regime, x0, x1) edges."""
    edges = _edges(sweep.widths_, _is_log(sweep))
    runs: list[tuple[str, float, float]] = []
    for index, regime in enumerate(sweep.regime_):
        if not regime:
            continue
        if runs and runs[-1][0] == regime and runs[-1][2] == edges[index]:
            runs[-1] = (regime, runs[-1][1], float(edges[index + 1]))
        else:
            runs.append((regime, float(edges[index]), float(edges[index + 1])))
    return runs


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
    shapes = [
        {
            "type": "line",
            "x0": value,
            "x1": value,
            "y0": 0,
            "y1": 1,
            "yref": "paper",
            "line": CHOSEN_LINE,
            "name": "chosen",
        }
    ]
    annotations = []
    if label:
        annotations.append(
            {
                "x": _annotation_x(value, _is_log(sweep)),
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


def _decorate(
    fig: go.Figure,
    sweep: WidthSweep,
    chosen: int | None,
    *,
    label_regimes: bool = True,
    label_chosen: bool = True,
) -> None:
    """Shade the limit regimes, mark the chosen width, set the width axis."""
    log = _is_log(sweep)
    for regime, x0, x1 in regime_runs(sweep):
        fig.add_vrect(
            x0=x0, x1=x1, fillcolor=REGIME_FILL[regime], line_width=0, layer="below", name=regime
        )
        if label_regimes:
            fig.add_annotation(
                x=_annotation_x(np.sqrt(x0 * x1) if log else (x0 + x1) / 2, log),
                y=1.0,
                yref="paper",
                yanchor="top",
                text=REGIME_TEXT[regime].replace(": ", ":<br>"),
                showarrow=False,
                font={"size": 11, "color": style.NEUTRAL},
                name=regime,
            )
    if chosen is not None:
        shapes, annotations = chosen_marks(sweep, chosen, label=label_chosen)
        for shape in shapes:
            fig.add_shape(**shape)
        for annotation in annotations:
            fig.add_annotation(**annotation)
    edges = _edges(sweep.widths_, log)
    fig.update_xaxes(
        type="log" if log else "linear",
        range=list(np.log10(edges[[0, -1]]) if log else edges[[0, -1]]),
        title=parameter_label(sweep) + ("  (log scale)" if log else ""),
        dtick=None if log else 1,
        exponentformat="power",
    )
    fig.update_layout(
        font=FONT,
        height=HEIGHT,
        margin=MARGIN,
        legend=LEGEND_BELOW,
    )


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


def _white(fig: go.Figure) -> go.Figure:
    """``fig`` on the "plotly_white" template (``WHITE``, validated only once).

    Setting a template by name makes plotly validate and copy all of it, most
    of the time a figure takes to build; the page builds several whenever the
    sweep changes, for every session.
    """
    return copy_figure(fig, template=WHITE)


def _hover_x(sweep: WidthSweep) -> str:
    return f"{symbol(sweep)} = %{{x:.3g}}"


def _f32(values: np.ndarray) -> np.ndarray:
    return np.asarray(values, dtype=np.float32)


# ------------------------------------------------------------- figure 1
def ratio_lines_figure(
    sweep: WidthSweep,
    *,
    n_leading: int = 6,
    chosen: int | None = None,
    marks: Sequence[tuple[float, str]] = (),
) -> go.Figure:
    """Normalised eigenvalues λ_k/Σλ of the leading components against the width.

    Parameters
    ----------
    sweep : fitted WidthSweep
    n_leading : int, default=6
        The k leading components drawn, as lines of a sequential scale.
    chosen : int, optional
        Index of the chosen width, marked by a dashed line.
    marks : sequence of (width, text)
        Further widths to mark, e.g. a value from a paper.

    The share of the first two, (λ₁+λ₂)/Σλ, is its own thick line.  For
    reference: linear PCA's ratios (dotted, the wide limit of the Gaussian
    kernel) and, for the Gaussian and Laplacian, the narrow limit 1/(M − 1),
    the share of each component when K = I.
    """
    widths = _f32(sweep.widths_)
    n_leading = max(1, min(int(n_leading), sweep.n_samples_))
    fig = go.Figure()
    # Viridis from 0.15: its darkest purple would vanish on the dark theme
    colours = sample_colorscale(style.SEQUENTIAL, list(np.linspace(0.15, 0.9, n_leading)))
    for k in range(n_leading):
        fig.add_trace(
            go.Scatter(
                x=widths,
                y=_f32(sweep.ratios_[:, k]),
                mode="lines",
                name=f"λ<sub>{k + 1}</sub>/Σλ",
                line={"color": colours[k], "width": 1.8},
                hovertemplate=f"{_hover_x(sweep)}<br>λ<sub>{k + 1}</sub>/Σλ = %{{y:.4f}}"
                "<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=widths,
            y=_f32(sweep.share(2)),
            mode="lines",
            name="(λ<sub>1</sub>+λ<sub>2</sub>)/Σλ",
            line={"color": style.KERNEL, "width": 3.5},
            hovertemplate=f"{_hover_x(sweep)}<br>(λ₁+λ₂)/Σλ = %{{y:.4f}}<extra></extra>",
        )
    )
    ends = _f32([widths[0], widths[-1]])
    linear = sweep.linear_ratios_
    for k in range(min(n_leading, linear.size)):
        fig.add_trace(
            go.Scatter(
                x=ends,
                y=_f32([linear[k], linear[k]]),
                mode="lines",
                name="linear PCA λ<sub>k</sub>/Σλ",
                legendgroup="linear",
                showlegend=k == 0,
                line={"color": style.LINEAR, "width": 1.2, "dash": "dot"},
                hovertemplate=f"linear PCA: λ<sub>{k + 1}</sub>/Σλ = {linear[k]:.4f}"
                "<extra></extra>",
            )
        )
    if sweep.kernel in ("rbf", "laplacian"):
        narrow = 1.0 / (sweep.n_samples_ - 1)
        fig.add_trace(
            go.Scatter(
                x=ends,
                y=_f32([narrow, narrow]),
                mode="lines",
                name="narrow limit 1/(M−1)",
                line={"color": style.NEUTRAL, "width": 1.2, "dash": "dashdot"},
                hovertemplate=f"K = I: each λ<sub>k</sub>/Σλ = 1/(M−1) = {narrow:.2e}"
                "<extra></extra>",
            )
        )
    log = _is_log(sweep)
    for value, text in marks:
        fig.add_shape(
            type="line",
            x0=value,
            x1=value,
            y0=0,
            y1=1,
            yref="paper",
            line={"color": style.NEUTRAL, "width": 1.2, "dash": "dot"},
            name="mark",
        )
        fig.add_annotation(
            x=_annotation_x(value, log),
            y=0.5,
            yref="paper",
            text=text,
            showarrow=False,
            textangle=-90,
            xanchor="right",
            font={"size": 11, "color": style.NEUTRAL},
            name="mark",
        )
    _decorate(fig, sweep, chosen)
    fig.update_yaxes(title="share of the variance λ<sub>k</sub>/Σλ", range=[0, 1.02])
    fig.update_layout(title={"text": "Normalised eigenvalues λ<sub>k</sub>/Σλ", "x": 0})
    return _white(fig)


# ------------------------------------------------------------- figure 2
def _component_bins(n_samples: int, max_rows: int) -> np.ndarray:
    """Edges (0-based, into the component axis) of at most ``max_rows`` bins.

    One bin per component up to ``max_rows`` components; beyond that,
    log-spaced bins, so that the leading components keep a row each and the
    tail, a fraction of a pixel per component on a log axis, is averaged.
    """
    if n_samples <= max_rows:
        return np.arange(n_samples + 1)
    edges = np.unique(np.round(np.geomspace(1, n_samples + 1, max_rows + 1)).astype(int) - 1)
    return np.union1d(edges, [0, n_samples])


def spectrum_heatmap_figure(
    sweep: WidthSweep, *, chosen: int | None = None, max_rows: int = 400
) -> go.Figure:
    """The whole spectrum: width × component index, colour log10(λ_k/Σλ).

    Eigenvalues clipped to zero (rounding) and numerically constant widths
    are left blank, not drawn as noise.  The component axis is logarithmic
    so that the leading components, which carry the variance, get the room;
    beyond ``max_rows`` components the tail is averaged over log-spaced bins
    of components (the mean of log10 λ_k/Σλ over the non-zero ones).
    """
    log = _is_log(sweep)
    M = sweep.n_samples_
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.log10(sweep.ratios_)
    z[~np.isfinite(z)] = np.nan
    bins = _component_bins(M, max_rows)
    if bins.size - 1 < M:
        with np.errstate(invalid="ignore"):
            sums = np.add.reduceat(np.nan_to_num(z), bins[:-1], axis=1)
            counts = np.add.reduceat(np.isfinite(z), bins[:-1], axis=1)
            z = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    finite = z[np.isfinite(z)]
    zmin = max(float(finite.min()), -16.0) if finite.size else -16.0
    fig = go.Figure(
        go.Heatmap(
            x=_f32(_edges(sweep.widths_, log)),
            y=_f32(bins + 0.5),
            z=_f32(z.T),
            colorscale=style.SEQUENTIAL,
            zmin=zmin,
            zmax=0.0,
            colorbar={"title": {"text": "log<sub>10</sub> λ<sub>k</sub>/Σλ", "side": "right"}},
            hovertemplate=f"{symbol(sweep)} ≈ %{{x:.2g}}<br>k ≈ %{{y:.0f}}<br>"
            "log<sub>10</sub> λ<sub>k</sub>/Σλ = %{z:.2f}<extra></extra>",
            hoverongaps=False,
        )
    )
    _decorate(fig, sweep, chosen, label_chosen=False)
    fig.update_yaxes(
        type="log",
        title="component k (log scale)",
        range=[np.log10(0.5), np.log10(M + 0.5)],
        dtick=1,
    )
    fig.update_layout(title={"text": "The whole spectrum (blank: zero up to rounding)", "x": 0})
    return _white(fig)


# ------------------------------------------------------------- figure 3
def effective_components_figure(
    sweep: WidthSweep,
    *,
    chosen: int | None = None,
    fractions: Sequence[float] = (0.90, 0.95),
) -> go.Figure:
    """How many leading components carry 90 % (95 %) of the variance, per width."""
    widths = _f32(sweep.widths_)
    fig = go.Figure()
    dashes = ("solid", "dash", "dot", "dashdot")
    cumulative_linear = np.cumsum(sweep.linear_ratios_)
    ends = _f32([widths[0], widths[-1]])
    for index, fraction in enumerate(fractions):
        percent = f"{100 * fraction:g} %"
        fig.add_trace(
            go.Scatter(
                x=widths,
                y=_f32(sweep.effective_components(fraction)),
                mode="lines+markers",
                marker={"size": 4},
                line={"color": style.KERNEL, "dash": dashes[index % 4], "shape": "hv"},
                name=f"kernel PCA, {percent}",
                hovertemplate=f"{_hover_x(sweep)}<br>%{{y:.0f}} components for {percent}"
                "<extra></extra>",
            )
        )
        linear = float(np.searchsorted(cumulative_linear, fraction - 1e-12) + 1)
        fig.add_trace(
            go.Scatter(
                x=ends,
                y=_f32([linear, linear]),
                mode="lines",
                line={"color": style.LINEAR, "dash": dashes[index % 4], "width": 1.2},
                name=f"linear PCA, {percent}",
                hovertemplate=f"linear PCA: {linear:.0f} components for {percent}<extra></extra>",
            )
        )
    _decorate(fig, sweep, chosen, label_chosen=False)
    fig.update_yaxes(type="log", title="components needed (log scale)", dtick=1)
    fig.update_layout(title={"text": "Effective number of components", "x": 0})
    return _white(fig)


# ------------------------------------------------------------ figure 4a
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
        bars = np.where(ratios > 0, ratios, np.nan) if log else ratios
        fig.add_trace(
            go.Bar(
                x=k,
                y=_f32(bars),
                name="kernel PCA λ<sub>k</sub>/Σλ",
                marker_color=style.KERNEL,
                hovertemplate="k = %{x}<br>λ<sub>k</sub>/Σλ = %{y:.3g}<extra></extra>",
            ),
            secondary_y=False,
        )
        fig.add_trace(
            go.Scatter(
                x=k,
                y=_f32(np.cumsum(ratios)),
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
                y=_f32(linear),
                mode="markers",
                name="linear PCA λ<sub>k</sub>/Σλ",
                marker={"color": style.LINEAR, "symbol": "diamond", "size": 10},
                hovertemplate="linear PCA: λ<sub>%{x}</sub>/Σλ = %{y:.3g}<extra></extra>",
            ),
            secondary_y=False,
        )
        share = float(np.sum(sweep.ratios_[index, :2]))
        title = f"Spectrum at {value}<br><sup>(λ₁+λ₂)/Σλ = {share:.3f}</sup>"
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
    return _white(fig)


def spectrum_film_figure(sweep: WidthSweep, *, n_bars: int = 20, frame_ms: int = 150) -> go.Figure:
    """The spectrum at every width as animation frames, played in the browser.

    Bars λ_k/Σλ and the cumulative share, one frame per width, with a play
    button and a slider of plotly's own: scrubbing it needs no server round
    trip.  Linear PCA's ratios stay as a reference in every frame.
    """
    n_bars = max(1, min(int(n_bars), sweep.n_samples_))
    k = np.arange(1, n_bars + 1)

    def frame_data(index: int) -> list:
        ratios = sweep.ratios_[index, :n_bars]
        return [
            go.Bar(x=k, y=_f32(ratios), marker_color=style.KERNEL, name="λ<sub>k</sub>/Σλ"),
            go.Scatter(
                x=k,
                y=_f32(np.cumsum(ratios)),
                yaxis="y2",
                mode="lines+markers",
                marker={"size": 4},
                line={"color": style.NEUTRAL, "width": 1.5},
                name="cumulative share",
            ),
        ]

    def frame_title(index: int) -> str:
        value = format_parameter(sweep, float(sweep.widths_[index]))
        share = sweep.share(2)[index]
        if np.isnan(share):
            return f"{value}: zero up to rounding"
        return f"{value}: (λ₁+λ₂)/Σλ = {share:.3f}"

    linear = sweep.linear_ratios_[:n_bars]
    fig = go.Figure(
        data=[
            *frame_data(0),
            go.Scatter(
                x=k[: linear.size],
                y=_f32(linear),
                mode="markers",
                marker={"color": style.LINEAR, "symbol": "diamond", "size": 10},
                name="linear PCA λ<sub>k</sub>/Σλ",
            ),
        ],
        frames=[
            go.Frame(
                data=frame_data(i),
                traces=[0, 1],
                name=str(i),
                layout={"title": {"text": frame_title(i)}},
            )
            for i in range(sweep.widths_.size)
        ],
    )
    step_args = {"mode": "immediate", "frame": {"duration": 0, "redraw": True}}
    fig.update_layout(
        template="plotly_white",
        font=FONT,
        height=HEIGHT + 40,
        title={"text": frame_title(0), "x": 0},
        margin={**MARGIN, "r": 60, "b": 150},
        legend={**LEGEND_BELOW, "y": -0.45},
        xaxis={"title": "component k", "tick0": 0, "dtick": 1 if n_bars <= 10 else 5},
        yaxis={"title": "λ<sub>k</sub>/Σλ", "range": [0, 1.02]},
        yaxis2={
            "title": "cumulative share",
            "overlaying": "y",
            "side": "right",
            "range": [0, 1.02],
            "showgrid": False,
        },
        sliders=[
            {
                "active": 0,
                "currentvalue": {"prefix": f"{symbol(sweep)} = "},
                "pad": {"t": 40},
                "steps": [
                    {
                        "args": [[str(i)], step_args],
                        "label": f"{w:.3g}" if sweep.sweep == "width" else f"{int(w)}",
                        "method": "animate",
                    }
                    for i, w in enumerate(sweep.widths_)
                ],
            }
        ],
        updatemenus=[
            {
                "type": "buttons",
                "direction": "left",
                "x": 1.0,
                "y": 1.02,
                "xanchor": "right",
                "yanchor": "bottom",
                "showactive": False,
                "buttons": [
                    {
                        "label": "▶ play",
                        "method": "animate",
                        "args": [
                            None,
                            {"frame": {"duration": frame_ms, "redraw": True}, "fromcurrent": True},
                        ],
                    },
                    {"label": "❚❚ pause", "method": "animate", "args": [[None], step_args]},
                ],
            }
        ],
    )
    return fig


# ------------------------------------------------------------ figure 4b
MAPS_PX = 480
"""Width the component maps are planned for: the right 3/5 of the wide page at
1280 px with the sidebar open (two panels and the colour bar)."""
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
        annotations.append(
            {
                "text": f"component {k + 1}",
                "x": (domain[0] + domain[1]) / 2,
                "y": 1.0,
                "xref": "paper",
                "yref": "paper",
                "xanchor": "center",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 16},
            }
        )
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
                x=_f32(projections[members, 0]),
                y=_f32(projections[members, 1]),
                mode="markers",
                marker={"size": 5, "color": palette[position % len(palette)]},
                name=f"group {group}",
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
    return _white(fig)


def components_at_figure(
    sweep: WidthSweep, index: int, labels: np.ndarray | None = None
) -> go.Figure:
    """The first two components at ``widths_[index]``, from a kernel PCA fitted there.

    2-D data: :func:`component_maps_figure` over a grid around the data;
    otherwise :func:`projection_figure` of the data.  One call, so that a
    page can build it in one trip to a worker process (fit, grid, figure).

    Raises
    ------
    ValueError
        If kernel PCA cannot be fitted at this width (see ``WidthSweep.fit_at``).
    """
    value = format_parameter(sweep, float(sweep.widths_[index]))
    model = sweep.fit_at(index, n_components=2)
    if sweep.n_features_in_ == 2:
        xs, ys, values = component_grid(model, sweep.X_fit_)
        title = f"The first two components at {value}"
        return component_maps_figure(xs, ys, values, sweep.X_fit_, title=title)
    title = f"The data on the first two components at {value}"
    return projection_figure(model.transform(sweep.X_fit_), labels, title=title)
