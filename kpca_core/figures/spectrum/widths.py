"""Figures over the range of widths: every width of a fitted ``WidthSweep`` at once.

Figure 1, the normalised eigenvalues λ_k/Σλ of the leading components
(:func:`ratio_lines_figure`); figure 2, the whole spectrum as a heatmap
(:func:`spectrum_heatmap_figure`); figure 3, the effective number of
components (:func:`effective_components_figure`); and the spectrum at every
width as animation frames (:func:`spectrum_film_figure`).  The first three
share their width axis and marks (:func:`.marks.decoration`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from ...spectrum import WidthSweep
from .. import style
from ..words import Description, share, subscript
from .marks import (
    FONT,
    HEIGHT,
    LEGEND_BELOW,
    MARGIN,
    PANEL_PX,
    annotation_x,
    decoration,
    f32,
    figure,
    format_parameter,
    format_width,
    hover_x,
    is_log,
    parameter_label,
    symbol,
    vertical_line,
    width_edges,
)

SEQUENTIAL_SCALE = go.Heatmap(colorscale=style.SEQUENTIAL).to_plotly_json()["colorscale"]
"""The sequential colour scale as plotly writes it in a figure (validated once)."""


LINE_DASHES = ("solid", "dash", "longdash", "dashdot", "longdashdot", "10px,3px,2px,3px,2px,3px")
"""The dashes of the lines λ₁/Σλ, λ₂/Σλ, …: each told from the others by its dash as well as
its shade (WCAG 1.4.1), as the legend shows them (linear PCA's are dotted)."""


# ------------------------------------------------------------- figure 1
def ratio_lines_figure(
    sweep: WidthSweep,
    *,
    n_leading: int = 6,
    chosen: int | None = None,
    marks: Sequence[tuple[float, str]] = (),
    width_px: int = PANEL_PX,
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
    width_px : int
        The width the page gives the figure: its legend's rows under the axis.

    The share of the first two, (λ₁+λ₂)/Σλ, is its own thick line.  For
    reference: linear PCA's ratios (dotted, the wide limit of the Gaussian
    kernel) and, for the Gaussian and Laplacian, the narrow limit 1/(M − 1),
    the share of each component when K = I.
    """
    widths = f32(sweep.widths_)
    n_leading = max(1, min(int(n_leading), sweep.n_samples_))
    # Viridis from 0.15: its darkest purple would vanish on the dark theme
    # the middle of the scale: its dark and light ends fall below a contrast of 3 on the
    # dark and the light theme
    colours = sample_colorscale(style.SEQUENTIAL, list(np.linspace(0.34, 0.58, n_leading)))
    data = [
        _line(
            widths,
            sweep.ratios_[:, k],
            f"λ<sub>{k + 1}</sub>/Σλ",
            {"color": colours[k], "width": 1.8, "dash": LINE_DASHES[k % len(LINE_DASHES)]},
            f"{hover_x(sweep)}<br>λ<sub>{k + 1}</sub>/Σλ = %{{y:.4f}}<extra></extra>",
        )
        for k in range(n_leading)
    ]
    data.append(
        _line(
            widths,
            sweep.share(2),
            "(λ<sub>1</sub>+λ<sub>2</sub>)/Σλ",
            {"color": style.KERNEL, "width": 3.5},
            f"{hover_x(sweep)}<br>(λ₁+λ₂)/Σλ = %{{y:.4f}}<extra></extra>",
        )
    )
    ends = f32([widths[0], widths[-1]])
    linear = sweep.linear_ratios_
    for k in range(min(n_leading, linear.size)):
        data.append(
            {
                **_line(
                    ends,
                    [linear[k], linear[k]],
                    "linear PCA λ<sub>k</sub>/Σλ",
                    {"color": style.LINEAR, "width": 1.2, "dash": "dot"},
                    f"linear PCA: λ<sub>{k + 1}</sub>/Σλ = {linear[k]:.4f}<extra></extra>",
                ),
                "legendgroup": "linear",
                "showlegend": k == 0,
            }
        )
    if sweep.kernel in ("rbf", "laplacian"):
        narrow = 1.0 / (sweep.n_samples_ - 1)
        data.append(
            _line(
                ends,
                [narrow, narrow],
                "narrow limit 1/(M−1)",
                {"color": style.NEUTRAL, "width": 1.2, "dash": "dashdot"},
                f"K = I: each λ<sub>k</sub>/Σλ = 1/(M−1) = {narrow:.2e}<extra></extra>",
            )
        )
    shapes, annotations = _marks(sweep, marks)
    layout = decoration(
        sweep, chosen, data, shapes=shapes, annotations=annotations, width_px=width_px
    )
    # 0 above the x axis by more than half its tick label, whose height grows with the plot's
    # (a plot ~9.5 fonts tall at every room scale): at the corner it touched the first
    # width's ("10⁻³"), the gap between them fixed in pixels (at −0.04, 3840 × 2160's projector)
    layout["yaxis"] = {
        "title": {"text": "share of the variance λ<sub>k</sub>/Σλ"},
        "range": [-0.07, 1.02],
    }
    layout["title"] = {"text": "Normalised eigenvalues λ<sub>k</sub>/Σλ", "x": 0}
    return figure(data, layout)


def describe_ratio_lines(
    sweep: WidthSweep, *, n_leading: int = 6, chosen: int | None = None
) -> Description:
    """:func:`ratio_lines_figure` in words: how the shares λ_k/Σλ of the leading components
    and (λ₁+λ₂)/Σλ move from the narrowest width to the widest, where (λ₁+λ₂)/Σλ is largest,
    and where the ``chosen`` width sits; the table, every width's shares."""
    n_leading = max(1, min(int(n_leading), sweep.n_samples_))
    ratios, two = sweep.ratios_[:, :n_leading], sweep.share(2)

    at = partial(format_width, sweep)

    def state(i: int) -> str:
        return f"λ₁ holds {share(ratios[i, 0])} of the variance and λ₁+λ₂ {share(two[i])}"

    last = sweep.widths_.size - 1
    label = (
        f"Normalised eigenvalues λ₁ … λ{subscript(n_leading)} against the {parameter_label(sweep)}"
    )
    said = [
        f"{label}: {n_leading} lines λ_k/Σλ and a thick line (λ₁+λ₂)/Σλ over "
        f"{sweep.widths_.size} values from {at(0)} to {at(last)}.",
        f"At {at(0)} {state(0)}; at {at(last)} {state(last)}.",
    ]
    if np.isfinite(two).any():
        peak = int(np.nanargmax(two))
        said.append(f"(λ₁+λ₂)/Σλ is largest, {share(two[peak])}, at {at(peak)}.")
    if chosen is not None:
        said.append(f"The chosen value, the dashed line, is {at(chosen)}: there {state(chosen)}.")
    said.append(f"Linear PCA, dotted: λ₁ holds {share(sweep.linear_ratios_[0])}.")
    table = {parameter_label(sweep): sweep.widths_}
    table.update({f"λ{k + 1}/Σλ": ratios[:, k] for k in range(n_leading)})
    table["(λ1+λ2)/Σλ"] = two
    return Description(label, " ".join(said), pd.DataFrame(table))


def _line(x: np.ndarray, y: object, name: str, line: dict, hover: str) -> dict:
    """A scatter trace of lines, as plotly writes it (float32 arrays)."""
    return {
        "type": "scatter",
        "x": x,
        "y": f32(y),
        "mode": "lines",
        "name": name,
        "line": line,
        "hovertemplate": hover,
    }


def _marks(sweep: WidthSweep, marks: Sequence[tuple[float, str]]) -> tuple[list[dict], list[dict]]:
    """A dotted vertical line and a label at each (width, text) of ``marks``."""
    log = is_log(sweep)
    shapes, annotations = [], []
    for value, text in marks:
        shapes.append(
            vertical_line(value, {"color": style.NEUTRAL, "width": 1.2, "dash": "dot"}, "mark")
        )
        annotations.append(
            {
                "x": annotation_x(value, log),
                "y": 0.5,
                "yref": "paper",
                "text": text,
                "showarrow": False,
                "textangle": -90,
                "xanchor": "right",
                "font": {"size": 12},  # the theme's text colour: 4.5:1 on either theme
                "name": "mark",
            }
        )
    return shapes, annotations


def centring_share_figure(
    centred: WidthSweep,
    uncentred: np.ndarray,
    *,
    marks: Sequence[tuple[float, str]] = (),
) -> go.Figure:
    """(λ₁+λ₂)/Σλ against the width, centred (eq. 49) and not, on one axis.

    Parameters
    ----------
    centred : fitted WidthSweep
    uncentred : ndarray of shape (n_widths,)
        (λ₁+λ₂)/Σλ of the kernel matrix not centred, at the same widths
        (:func:`kpca_core.spectrum.leading_shares` with ``center=False``).
    marks : sequence of (width, text)
        Widths to mark, e.g. Deręgowski & Krzyśko's c.

    Both curves rise monotonically as the kernel widens on the three rings:
    a maximum at some width, claimed for one formulation, would show here in
    either.
    """
    data = [
        _line(
            f32(centred.widths_),
            share,
            name,
            {"color": colour, "width": 3, "dash": dash},
            f"{hover_x(centred)}<br>{name}: (λ₁+λ₂)/Σλ = %{{y:.4f}}<extra></extra>",
        )
        for share, name, colour, dash in (
            (centred.share(2), "centred in F (eq. 49)", style.KERNEL, "solid"),
            (uncentred, "not centred (K itself)", style.LINEAR, "dash"),
        )
    ]
    shapes, annotations = _marks(centred, marks)
    layout = decoration(centred, None, data, shapes=shapes, annotations=annotations)
    layout["yaxis"] = {"title": {"text": "(λ<sub>1</sub>+λ<sub>2</sub>)/Σλ"}, "range": [0, 1.02]}
    layout["title"] = {
        "text": "(λ<sub>1</sub>+λ<sub>2</sub>)/Σλ with and without centring",
        "x": 0,
    }
    return figure(data, layout)


def describe_centring(
    centred: WidthSweep, uncentred: np.ndarray, *, marks: Sequence[tuple[float, str]] = ()
) -> Description:
    """:func:`centring_share_figure` in words: each line's (λ₁+λ₂)/Σλ at the narrowest and
    the widest width, whether it rises monotonically, the width where centring (eq. 49)
    changes it most, and the ``marks``; the table, both lines at every width."""
    lines = {"Centred in F": centred.share(2), "Not centred": np.asarray(uncentred, float)}

    at = partial(format_width, centred)

    def course(y: np.ndarray) -> str:
        finite = y[np.isfinite(y)]
        if finite.size and np.all(np.diff(finite) >= -1e-12):
            return "rising monotonically"
        return f"largest, {np.nanmax(y):.3f}, at {at(int(np.nanargmax(y)))}"

    label = "(λ₁+λ₂)/Σλ with and without centring"
    said = [
        f"{label}: the share of the variance in the first two components against the "
        f"{parameter_label(centred)}, over {centred.widths_.size} values, with the kernel "
        "matrix centred in feature space (eq. 49, solid) and not centred (K itself, dashed).",
        *(
            f"{name}: from {y[0]:.3f} at {at(0)} to {y[-1]:.3f} at {at(-1)}, {course(y)}."
            for name, y in lines.items()
        ),
    ]
    gap = np.abs(lines["Centred in F"] - lines["Not centred"])
    if np.isfinite(gap).any():
        far = int(np.nanargmax(gap))
        centred_far, uncentred_far = (y[far] for y in lines.values())
        said.append(
            f"Centring changes it most, the lines most apart at {at(far)}: {centred_far:.3f} "
            f"centred, {uncentred_far:.3f} not."
        )
    said += [f"Marked: {text} at {format_parameter(centred, w)}." for w, text in marks]
    table = {parameter_label(centred): centred.widths_, **lines}
    return Description(label, " ".join(said), pd.DataFrame(table))


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
    log = is_log(sweep)
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
    data = [
        {
            "type": "heatmap",
            "x": f32(width_edges(sweep.widths_, log)),
            "y": f32(bins + 0.5),
            "z": f32(z.T),
            "colorscale": SEQUENTIAL_SCALE,
            "zmin": zmin,
            "zmax": 0.0,
            "colorbar": {"title": {"text": "log<sub>10</sub> λ<sub>k</sub>/Σλ", "side": "right"}},
            "hovertemplate": f"{symbol(sweep)} ≈ %{{x:.2g}}<br>k ≈ %{{y:.0f}}<br>"
            "log<sub>10</sub> λ<sub>k</sub>/Σλ = %{z:.2f}<extra></extra>",
            "hoverongaps": False,
            # the widths the columns stand for (their edges' geometric midpoints on a log
            # axis): what the chart's keyboard explorer says (kpca_ui/chart.js)
            "meta": {"x": sweep.widths_.tolist()},
        }
    ]
    layout = decoration(sweep, chosen, data, label_chosen=False)
    layout["yaxis"] = {
        "type": "log",
        "title": {"text": "component k (log scale)"},
        "range": [float(np.log10(0.5)), float(np.log10(M + 0.5))],
        "dtick": 1,
    }
    layout["title"] = {"text": "The whole spectrum (blank: zero up to rounding)", "x": 0}
    return figure(data, layout)


# ------------------------------------------------------------- figure 3
def effective_components_figure(
    sweep: WidthSweep,
    *,
    chosen: int | None = None,
    fractions: Sequence[float] = (0.90, 0.95),
) -> go.Figure:
    """How many leading components carry 90 % (95 %) of the variance, per width."""
    widths = f32(sweep.widths_)
    dashes = ("solid", "dash", "dot", "dashdot")
    cumulative_linear = np.cumsum(sweep.linear_ratios_)
    ends = f32([widths[0], widths[-1]])
    data = []
    for index, fraction in enumerate(fractions):
        percent = f"{100 * fraction:g} %"
        data.append(
            {
                "type": "scatter",
                "x": widths,
                "y": f32(sweep.effective_components(fraction)),
                "mode": "lines+markers",
                "marker": {"size": 4},
                "line": {"color": style.KERNEL, "dash": dashes[index % 4], "shape": "hv"},
                "name": f"kernel PCA, {percent}",
                "hovertemplate": f"{hover_x(sweep)}<br>%{{y:.0f}} components for {percent}"
                "<extra></extra>",
            }
        )
        linear = float(np.searchsorted(cumulative_linear, fraction - 1e-12) + 1)
        data.append(
            _line(
                ends,
                [linear, linear],
                f"linear PCA, {percent}",
                {"color": style.LINEAR, "dash": dashes[index % 4], "width": 1.2},
                f"linear PCA: {linear:.0f} components for {percent}<extra></extra>",
            )
        )
    layout = decoration(sweep, chosen, data, label_chosen=False)
    counts = [value for trace in data for value in trace["y"] if np.isfinite(value)]
    ticks = count_ticks(min(counts, default=1.0), max(counts, default=1.0))
    layout["yaxis"] = {
        "type": "log",
        "title": {"text": "components needed (log scale)"},
        "tickvals": ticks,
    }
    layout["title"] = {"text": "Effective number of components", "x": 0}
    return figure(data, layout)


def describe_effective_components(
    sweep: WidthSweep, *, chosen: int | None = None, fractions: Sequence[float] = (0.90, 0.95)
) -> Description:
    """:func:`effective_components_figure` in words: how many leading components carry each
    share of the variance at the narrowest and the widest width, and at the ``chosen`` one,
    beside linear PCA's count; the table, every width's counts."""
    counts = {f: sweep.effective_components(f) for f in fractions}
    cumulative = np.cumsum(sweep.linear_ratios_)

    def at(i: int) -> str:
        found = [f"{_count(counts[f][i])} for {f:.0%}" for f in fractions]
        return f"at {format_width(sweep, i)}: {', '.join(found)}"

    label = f"Effective number of components against the {parameter_label(sweep)}"
    linear = [int(np.searchsorted(cumulative, f - 1e-12) + 1) for f in fractions]
    said = [
        f"{label}: the leading components kernel PCA needs to carry a share of the variance, "
        f"over {sweep.widths_.size} values.",
        f"Kernel PCA needs {at(0)}; {at(sweep.widths_.size - 1)}.",
        f"The chosen value, the dashed line: {at(chosen)}." if chosen is not None else "",
        "Linear PCA, flat lines, needs "
        + ", ".join(f"{_count(n)} for {f:.0%}" for n, f in zip(linear, fractions, strict=True))
        + ".",
    ]
    table = {parameter_label(sweep): sweep.widths_}
    table.update({f"components for {f:.0%}": counts[f] for f in fractions})
    return Description(label, " ".join(s for s in said if s), pd.DataFrame(table))


def _count(n: float) -> str:
    if not np.isfinite(n):
        return "no count (no spectrum)"
    return f"{n:.0f} component" + ("" if n == 1 else "s")


def describe_spectrum_heatmap(sweep: WidthSweep, *, chosen: int | None = None) -> Description:
    """:func:`spectrum_heatmap_figure` in words: at the narrowest, the widest and the ``chosen``
    width, how many eigenvalues are non-zero and how far the smallest lies below the largest;
    the table, those numbers at every width."""
    nonzero = np.sum(sweep.ratios_ > 0, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log10(np.where(sweep.ratios_ > 0, sweep.ratios_, np.nan))
    smallest = np.array([np.nanmin(row) if np.isfinite(row).any() else np.nan for row in logs])

    def at(i: int) -> str:
        where = format_width(sweep, i)
        if nonzero[i] == 0:
            return f"at {where} no eigenvalue is non-zero (blank)"
        return (
            f"at {where}, {nonzero[i]} of {sweep.n_samples_} eigenvalues are non-zero, the "
            f"smallest 10^{smallest[i]:.1f} of the variance"
        )

    label = f"The whole spectrum against the {parameter_label(sweep)}"
    said = [
        f"{label}: the share λ_k/Σλ of every component k (log scale, rows) at each of "
        f"{sweep.widths_.size} values (columns), coloured by its logarithm; blank where it is "
        "zero up to rounding.",
        f"Narrowest: {at(0)}. Widest: {at(sweep.widths_.size - 1)}.",
        f"The chosen value, the dashed line: {at(chosen)}." if chosen is not None else "",
    ]
    table = {
        parameter_label(sweep): sweep.widths_,
        "non-zero eigenvalues": nonzero,
        "log10 of the smallest share": smallest,
        "λ1/Σλ": sweep.ratios_[:, 0],
    }
    return Description(label, " ".join(s for s in said if s), pd.DataFrame(table))


def count_ticks(low: float, high: float) -> list[int]:
    """Tick values of a log axis of counts from ``low`` to ``high``: 1, 2, 5, 10, 20, …

    At least two of them lie in the range, so the axis is never without labels (a log
    axis ticked by decades had none between 2 and 8 components). Between two ticks that
    would be the same count the smaller steps (1, 2, 3, 5) are used.
    """
    low, high = max(1.0, float(low)), max(1.0, float(high))
    for steps in ((1, 2, 5), (1, 2, 3, 5), (1, 2, 3, 4, 5, 6, 7, 8, 9)):
        ticks = [
            step * 10**decade
            for decade in range(int(np.log10(high)) + 2)
            for step in steps
            if low <= step * 10**decade <= high
        ]
        if len(ticks) >= 2:
            return ticks
    return [int(np.floor(low)), int(np.floor(low)) + 1]


# ------------------------------------------------------------ figure 4a
def spectrum_film_figure(sweep: WidthSweep, *, n_bars: int = 20, frame_ms: int = 150) -> go.Figure:
    """The spectrum at every width as animation frames, played in the browser.

    Bars λ_k/Σλ and the cumulative share, one frame per width, with a play
    button and a slider of plotly's own: scrubbing it needs no server round
    trip.  Linear PCA's ratios stay as a reference in every frame: each frame
    carries that trace too, unchanged, since plotly.js redraws a subplot's
    scatter traces from the frame's alone (left out, the diamonds vanished
    during playback while still in the legend, issue #13).
    """
    n_bars = max(1, min(int(n_bars), sweep.n_samples_))
    k = np.arange(1, n_bars + 1)
    linear = sweep.linear_ratios_[:n_bars]
    reference = go.Scatter(
        x=k[: linear.size],
        y=f32(linear),
        mode="markers",
        marker={"color": style.LINEAR, "symbol": "diamond", "size": 10},
        name="linear PCA λ<sub>k</sub>/Σλ",
    )

    def frame_data(index: int) -> list:
        ratios = sweep.ratios_[index, :n_bars]
        return [
            go.Bar(x=k, y=f32(ratios), marker_color=style.KERNEL, name="λ<sub>k</sub>/Σλ"),
            go.Scatter(
                x=k,
                y=f32(np.cumsum(ratios)),
                yaxis="y2",
                mode="lines+markers",
                marker={"size": 4},
                line={"color": style.NEUTRAL, "width": 1.5},
                name="cumulative share",
            ),
            reference,
        ]

    def frame_title(index: int) -> str:
        value = format_width(sweep, index)
        share = sweep.share(2)[index]
        if np.isnan(share):
            return f"{value}: zero up to rounding"
        return f"{value}: (λ₁+λ₂)/Σλ = {share:.3f}"

    fig = go.Figure(
        data=frame_data(0),
        frames=[
            go.Frame(
                data=frame_data(i),
                traces=[0, 1, 2],
                name=str(i),
                layout={"title": {"text": frame_title(i)}},
            )
            for i in range(sweep.widths_.size)
        ],
    )
    # No transitions: plotly's default of 500 ms outlasts a frame, and the title
    # (set by each frame) then lags behind the slider; the title alone states
    # the width, the slider's own label is hidden.
    step_args = {
        "mode": "immediate",
        "frame": {"duration": 0, "redraw": True},
        "transition": {"duration": 0},
    }
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
                "currentvalue": {"visible": False},
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
                            {
                                "frame": {"duration": frame_ms, "redraw": True},
                                "transition": {"duration": 0},
                                "fromcurrent": True,
                            },
                        ],
                    },
                    {"label": "❚❚ pause", "method": "animate", "args": [[None], step_args]},
                ],
            }
        ],
    )
    return fig


def describe_spectrum_film(sweep: WidthSweep, *, n_bars: int = 20) -> Description:
    """:func:`spectrum_film_figure` in words: the widths its frames run over, and at the first
    and the last frame λ₁'s share, (λ₁+λ₂)/Σλ and the components that carry 90% of the
    variance; the table, those numbers at every width."""
    n_bars = max(1, min(int(n_bars), sweep.n_samples_))
    two, counts = sweep.share(2), sweep.effective_components(0.9)
    last = sweep.widths_.size - 1

    at = partial(format_width, sweep)

    def frame(end: str, i: int) -> str:
        if np.isnan(two[i]):
            return f"{end} frame, {at(i)}: the spectrum is zero up to rounding."
        beyond = f" (beyond the {n_bars} bars)" if counts[i] > n_bars else ""
        return (
            f"{end} frame, {at(i)}: λ₁ holds {share(sweep.ratios_[i, 0])} of the variance, "
            f"λ₁+λ₂ {share(two[i])}; {_count(counts[i])} for 90%{beyond}."
        )

    label = f"The spectrum at every {parameter_label(sweep)}, as a film"
    said = [
        f"{label}: an animation of {sweep.widths_.size} frames, one per value from {at(0)} to "
        f"{at(last)}, played by its play button: in each, the shares λ_k/Σλ of the first "
        f"{n_bars} components as bars, their cumulative share as a line, linear PCA's as "
        "diamonds.",
        frame("First", 0),
        frame("Last", last),
        f"Linear PCA: λ₁ holds {share(sweep.linear_ratios_[0])}.",
    ]
    table = {
        parameter_label(sweep): sweep.widths_,
        "λ1/Σλ": sweep.ratios_[:, 0],
        "(λ1+λ2)/Σλ": two,
        "components for 90%": counts,
    }
    return Description(label, " ".join(said), pd.DataFrame(table))
