"""Figures of pre-images and of the rest of Mika et al. (1999): Table 1, Fig. 3, methods, paths.

Pure functions: results of :mod:`kpca_core.gaussians_table` and
:mod:`kpca_core.preimage_compare` in, ``go.Figure`` out.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..gaussians_table import GaussiansTable, format_ratio
from ..preimage_compare import (
    FixedPointPaths,
    MethodComparison,
    Reconstruction,
    fig3_findings,
    rho_landscape,
)
from . import layout, style
from .denoise import TITLE_FONT, numbered_mosaic
from .words import Description, plain

METHOD_COLOURS: dict[str, str] = {
    "fixed-point": style.KERNEL,
    "distance": style.GROUPS[3],
    "gradient": "#A87000",  # Okabe-Ito's orange, darker: a contrast >= 3 on both themes
    "ridge": style.RIDGE,
}
"""One Okabe–Ito colour per pre-image method (the fixed point in kernel PCA's colour)."""


def _layout(fig: go.Figure, *, title: str, height: int) -> go.Figure:
    fig.update_layout(
        title={"text": title, "font": TITLE_FONT},
        height=height,
        font={"family": style.FONT_FAMILY},
        plot_bgcolor=style.TRANSPARENT,  # the page's background and the theme's grid
    )
    return fig


# -------------------------------------------------------------------- Table 1
SUBPLOT_TITLE_PX = 16
"""The size of a table's title over it (``make_subplots``' own)."""
TABLE1_TOP_PX = (
    layout.lines_px(1, TITLE_FONT["size"]) + 2 * layout.lines_px(1, SUBPLOT_TITLE_PX) + 10
)
"""Above Table 1's upper table: the figure's title's line, centred in this margin (plotly's), and
below it the table's title, at the margin's foot (twice its line), with 10 px to spare.  A margin
of the figure's own, which a projector's copy grows with its fonts: plotly's 100 px did not, and
at 3840 × 2160 the title stood on the table's and above the chart's edge."""


def table1_figure(
    table: GaussiansTable, *, ranges: bool = True, width_px: int | None = None
) -> go.Figure:
    """Table 1 as two heatmaps, ours (mean over seeds) above the paper's, one colour scale.

    Colour: log10 of the ratio linear / kernel (1 = a tie, white; kernel
    PCA better in red). Our cells show the mean and, below, the range over
    the seeds unless not ``ranges`` (a projector's screen: two lines of larger
    text do not fit a row); hovering shows the paper's number beside ours.

    On a page narrower than :data:`style.NARROW_PX` (``width_px``, a phone's) the
    tables are transposed, n down and σ across: nine columns of numbers do not fit
    its width, five do (each cell's mean only; the range on hover).
    """
    narrow = style.is_narrow(width_px)
    ranges = ranges and not narrow
    paper = table.paper()
    mean = table.mean
    span = float(np.nanmax(np.abs(np.log10(np.concatenate([mean.ravel(), paper.ravel()])))))
    n_labels = [str(n) for n in table.n_values]
    sigma_labels = [f"σ = {s:g}" for s in table.sigmas]
    cell = "{}<br>{}–{}" if ranges else "{}"
    ours_text = [
        [cell.format(*table.formatted(i, j)[:3]) for j in range(mean.shape[1])]
        for i in range(mean.shape[0])
    ]
    below = ", below it the range over the seeds" if ranges else " (hover: the range)"
    if narrow:
        below = ""
    paper_text = [[format_ratio(value) for value in row] for row in paper]
    custom = np.dstack([table.low, table.high, paper])
    fig = make_subplots(
        rows=2,
        cols=1,
        subplot_titles=(
            f"ours: mean of {len(table.seeds)} seeds{below}",
            "Mika et al. 1999, Table 1",
        ),
        vertical_spacing=0.14,
        shared_xaxes=True,
    )
    if narrow:  # n down, σ across
        n_labels, sigma_labels = sigma_labels, n_labels
        ours_text = [list(row) for row in zip(*ours_text, strict=True)]
        paper_text = [list(row) for row in zip(*paper_text, strict=True)]
        custom = custom.transpose(1, 0, 2)
    turn = np.transpose if narrow else np.asarray
    common = {
        "x": n_labels,
        "y": sigma_labels,
        "colorscale": style.DIVERGING,
        "zmid": 0.0,
        "zmin": -span,
        "zmax": span,
        "texttemplate": "%{text}",
        "textfont": {"size": 12},
    }
    fig.add_trace(
        go.Heatmap(
            z=turn(np.log10(mean)),
            text=ours_text,
            customdata=custom,
            hovertemplate=(
                ("n = %{y}, %{x}" if narrow else "%{y}, n = %{x}")
                + "<br>ours (mean, range) %{text}"
                + ("" if ranges else " (%{customdata[0]:.3g}–%{customdata[1]:.3g})")
                + "<br>paper %{customdata[2]:.2f}<extra></extra>"
            ),
            colorbar={
                "title": "linear / kernel",
                "tickvals": list(range(-int(np.ceil(span)), int(np.ceil(span)) + 1)),
                "ticktext": [
                    f"{10.0**k:g}" for k in range(-int(np.ceil(span)), int(np.ceil(span)) + 1)
                ],
            },
            **common,
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Heatmap(
            z=turn(np.log10(paper)),
            text=paper_text,
            hovertemplate=("n = %{y}, %{x}" if narrow else "%{y}, n = %{x}")
            + "<br>paper %{text}<extra></extra>",
            showscale=False,
            **common,
        ),
        row=2,
        col=1,
    )
    title = "De-noising eleven Gaussians in R¹⁰: linear / kernel (> 1: kernel PCA better)"
    fig.update_yaxes(autorange="reversed")
    if not narrow:
        fig.update_xaxes(
            title={"text": "number of components n", "standoff": style.AXIS_STANDOFF_PX},
            row=2,
            col=1,
        )
        fig.update_layout(margin={"t": TABLE1_TOP_PX})
        return _layout(fig, title=title, height=640)
    # a phone's: n down each table; no colour bar (each cell shows its number): drawn in
    # place over the desktop's figure (the page's width is measured after the first
    # drawing), the heatmap's own bar kept the desktop's place, over the lower table
    lines = style.title_lines(title, width_px, TITLE_FONT["size"])
    fig.update_yaxes(title="n")
    fig.update_traces(showscale=False)
    fig.update_xaxes(showticklabels=True, row=1, col=1)  # σ above each table's columns
    top = 90 + style.TITLE_LINE_PX * (len(lines) - 1)
    fig.update_layout(margin={"l": 50, "r": 10, "t": top, "b": 40})
    return _layout(fig, title="<br>".join(lines), height=top + 760 + 40)


# --------------------------------------------------------------------- Fig. 3
def fig3_figure(
    recon: Reconstruction, *, title: str = "", width_px: int | None = None
) -> go.Figure:
    """Mika et al. Fig. 3: linear and kernel rows, n = 1 … 20, the original last.

    Under each reconstruction the fraction ‖z_n − x‖² / ‖x̄ − x‖² of the
    squared distance left (see :class:`~kpca_core.preimage_compare.Reconstruction`).
    On a phone's page (``width_px``) the columns wrap into blocks
    (:func:`~kpca_core.figures.denoise.numbered_mosaic`).
    """
    fractions = np.stack([recon.fraction_linear, recon.fraction_kernel])
    return numbered_mosaic(
        recon.grid, fractions, title=title, fmt=".2f", font_size=12, width_px=width_px
    )


def describe_fig3(recon: Reconstruction, *, title: str = "") -> Description:
    """:func:`fig3_figure` in words: per method the fraction ‖z_n − x‖² / ‖x̄ − x‖² left at
    the first and the last n and its lowest, as written under the digits, and what the
    digit shows of the paper's caption (:func:`~kpca_core.preimage_compare.fig3_findings`).
    The table: :meth:`~kpca_core.preimage_compare.Reconstruction.to_frame`."""
    label = plain(title) or "A digit rebuilt from n components, linear PCA and kernel PCA"
    n = recon.n_values
    original = recon.grid.column_labels[-1]

    def row(method: str, fractions: np.ndarray) -> str:
        low = int(np.argmin(fractions))
        return (
            f"{method}: {fractions[0]:.2f} at n = {n[0]}, {fractions[-1]:.2f} at n = {n[-1]}, "
            f"lowest {fractions[low]:.2f} at n = {n[low]}."
        )

    every = np.array_equal(n, np.arange(n[0], n[-1] + 1))
    said = [
        f"{label}. Two rows of digits rebuilt from n = "
        f"{f'{n[0]} … {n[-1]}' if every else ', '.join(map(str, n))} components, "
        f"linear PCA above kernel PCA, the {original} last; under each the fraction of its "
        "squared distance to the mean digit that is left, ‖z − x‖² / ‖x̄ − x‖² (0: the "
        "digit itself).",
        row("Linear PCA", recon.fraction_linear),
        row("Kernel PCA", recon.fraction_kernel),
        fig3_findings(recon, original.removeprefix("original ")).replace("**", ""),
    ]
    return Description(label, " ".join(said), recon.to_frame())


# ------------------------------------------------------- methods side by side
COMPARISON_PX = layout.DESKTOP_PX
"""The width the methods' comparison is planned for when the page does not say (the
main column at 1280 px with the sidebar open)."""
COMPARISON_MARGIN = {"l": 60, "r": 20}
COMPARISON_GAP_PX = 64
"""Between two panels side by side: the right one's y tick labels ("1e−3" at 14 px)."""
COMPARISON_ROW_PX = 220
"""A row of panels' plot height: side by side, with the title, the n axis and the legend,
the figure is :data:`kpca_core.figures.layout.TAB_FIGURE_PX` tall (whole on a laptop's
first screen)."""
COMPARISON_TOP_PX = 76
"""Above the panels: a line of title, and the panels' titles."""
COMPARISON_ROW_GAP_PX = 110
"""Between two rows of panels: the upper row's n axis (ticks, title) and the lower's title."""
N_TICK_PX = 36
"""Room for one n tick label ("1024" at 14 px) on the n axis."""


PANEL_TITLES = ("mean squared error", "time per point (s)", "failures")
LEGEND_LABELS = {
    "fixed-point": "fixed point (eq. 10)",
    "distance": "distance constraints / MDS",
    "gradient": "gradient descent (eq. 7)",
    "ridge": "kernel ridge map",
}
"""The methods' short names in the legend (two rows of it, not four, under a laptop's
panels): the hover, the caption and the table under the figure name their papers."""


def comparison_figure(
    comparison: MethodComparison, *, title: str = "", width_px: int = COMPARISON_PX
) -> go.Figure:
    """Three panels against n: MSE to the clean points, time per point, failures.

    A dotted line in the first panel marks the MSE of the noisy points.
    Failures count the points that missed the method's criterion (and, in
    the hover text, the restarts).  The panels stand side by side when each keeps
    a plot area of :data:`layout.AREA_MIN_PX` in ``width_px``, else one below the
    other (:func:`layout.plan_grid`, a phone's page); the title is broken to fit and
    the legend goes under the last n axis (:func:`layout.legend_below`).
    """
    plot_w = width_px - COMPARISON_MARGIN["l"] - COMPARISON_MARGIN["r"]
    grid = layout.plan_grid(
        len(PANEL_TITLES), 1, plot_w, least_px=layout.AREA_MIN_PX, gap_px=COMPARISON_GAP_PX
    )
    cols = grid.per_row
    rows = -(-len(PANEL_TITLES) // cols)
    plot_h = rows * COMPARISON_ROW_PX + (rows - 1) * COMPARISON_ROW_GAP_PX
    fig = make_subplots(
        rows=rows,
        cols=cols,
        subplot_titles=PANEL_TITLES,
        horizontal_spacing=COMPARISON_GAP_PX / plot_w if cols > 1 else 0.0,
        vertical_spacing=COMPARISON_ROW_GAP_PX / plot_h if rows > 1 else 0.0,
    )
    at = [{"row": 1 + k // cols, "col": 1 + k % cols} for k in range(len(PANEL_TITLES))]
    for curve in comparison.curves:
        colour = METHOD_COLOURS[curve.method]
        n = curve.n.astype(np.float32)
        common = {
            "x": n,
            "mode": "lines+markers",
            "line": {"color": colour, "width": 2},
            "marker": {"size": 6},
            "legendgroup": curve.method,
        }
        fig.add_trace(
            go.Scatter(
                y=curve.mse.astype(np.float32),
                name=LEGEND_LABELS[curve.method],
                hovertemplate="n = %{x}<br>MSE %{y:.4g}<extra>" + curve.label + "</extra>",
                **common,
            ),
            **at[0],
        )
        fig.add_trace(
            go.Scatter(
                y=curve.seconds_per_point.astype(np.float32),
                showlegend=False,
                hovertemplate="n = %{x}<br>%{y:.2e} s per point<extra>" + curve.label + "</extra>",
                **common,
            ),
            **at[1],
        )
        fig.add_trace(
            go.Scatter(
                y=curve.failures,
                customdata=curve.restarts,
                showlegend=False,
                hovertemplate=(
                    "n = %{x}<br>%{y} failures, %{customdata} restarts<extra>"
                    + curve.label
                    + "</extra>"
                ),
                **common,
            ),
            **at[2],
        )
    if np.isfinite(comparison.baseline_mse):
        baseline = {"color": style.NEUTRAL, "dash": "dot"}
        fig.add_hline(y=comparison.baseline_mse, line=baseline, **at[0])
        # named in the legend: written by the line, it lay over the curves' markers
        fig.add_trace(
            go.Scatter(
                x=[None], y=[None], mode="lines", line=baseline, name="noisy, not de-noised"
            ),
            **at[0],
        )
    # the n computed as the ticks, and decades on the time's log axis: plotly's own log
    # ticks label the steps between decades in 9 px text; on a narrow panel every other n
    ns = sorted({int(n) for curve in comparison.curves for n in curve.n})
    panel_w = (plot_w - (cols - 1) * COMPARISON_GAP_PX) / cols
    fit = max(1, int(panel_w // N_TICK_PX))
    ticks = ns[:: -(-len(ns) // fit)] if ns else ns
    fig.update_xaxes(
        type="log", title="n", showgrid=True, tickvals=ticks, ticktext=list(map(str, ticks))
    )
    fig.update_yaxes(showgrid=True)
    fig.update_yaxes(rangemode="tozero", **at[0])
    fig.update_yaxes(type="log", dtick=1, **at[1])
    fig.update_yaxes(rangemode="tozero", **at[2])
    lines = style.title_lines(
        title or f"Pre-image methods on the same {comparison.n_points} points",
        width_px,
        TITLE_FONT["size"],
    )
    top = COMPARISON_TOP_PX + style.TITLE_LINE_PX * (len(lines) - 1)
    names = [t.name for t in fig.data if t.name and t.showlegend is not False]
    legend, bottom = layout.legend_below(names, plot_w, plot_h)
    fig.update_layout(legend=legend, margin={**COMPARISON_MARGIN, "t": top, "b": bottom})
    return _layout(fig, title="<br>".join(lines), height=top + plot_h + bottom)


# ------------------------------------------------------------ the fixed point
PLAY_BUTTONS_PX = 100
"""The ▶ play / ❚❚ pause buttons' width, and a gap, left of the animation's slider."""
TICKS_LEFT_PX = 40
"""The animation's left margin: its y tick labels ("−0.2" at 14 px) and their gap."""
PHONE_PLOT_MARGIN_PX = 140
"""What a phone's page leaves of its width to the animation's plot (margins, colour bar)."""


def fixed_point_animation(
    paths: FixedPointPaths,
    data: np.ndarray,
    *,
    selected: int = 0,
    grid_size: int = 80,
    frame_ms: int = 400,
    width_px: int = COMPARISON_PX,
) -> go.Figure:
    """The fixed point of eq. (10) played in the browser, over ρ(z) for one point.

    Static: the contours of ρ(z) = ‖Φ(z) − P_n Φ(y)‖² for the selected point
    y (eq. 5; dark = small), the training points, and the start of every
    path. Animated (one Plotly frame per step, played without a rerun): where
    every point is now, the selected point's path so far, and restarts as
    crosses (a restart is a jump to a training point).

    Parameters
    ----------
    paths : FixedPointPaths
        Of 2-D points.
    data : ndarray of shape (M, 2)
        The training points.
    selected : int
        Row whose ρ is drawn and whose path is traced.
    grid_size : int
        Grid points per axis of the contours.
    frame_ms : int
        Duration of a frame when playing.
    width_px : int
        The width the page gives the figure: its title is broken to fit it, and the
        legend's rows above the plot get room under the title.
    """
    positions = paths.positions
    if positions.shape[2] != 2:
        raise ValueError(f"the animation needs 2-D points, got {positions.shape[2]}-D")
    if not 0 <= selected < positions.shape[1]:
        raise ValueError(
            f"selected must be a point index below {positions.shape[1]}, got {selected}"
        )
    everything = np.vstack([positions.reshape(-1, 2), data])
    low, high = everything.min(axis=0), everything.max(axis=0)
    pad = 0.1 * (high - low)
    xs = np.linspace(low[0] - pad[0], high[0] + pad[0], grid_size)
    ys = np.linspace(low[1] - pad[1], high[1] + pad[1], grid_size)
    rho = rho_landscape(paths.problem, selected, xs, ys)
    track = positions[:, selected].astype(np.float32)
    jumps = paths.restarted

    def moving(t: int) -> list[dict]:
        now = positions[t].astype(np.float32)
        jumped = np.flatnonzero(jumps[: t + 1].any(axis=0))
        where = positions[t, jumped].astype(np.float32)
        return [
            dict(
                type="scatter",
                x=now[:, 0],
                y=now[:, 1],
                mode="markers",
                marker={"size": 6, "color": style.KERNEL},
                name="z_t of every point",
            ),
            dict(
                type="scatter",
                x=track[: t + 1, 0],
                y=track[: t + 1, 1],
                mode="lines+markers",
                line={"color": "black", "width": 2},
                marker={"size": 7, "color": "black"},
                name=f"path of point {selected}",
            ),
            dict(
                type="scatter",
                x=where[:, 0],
                y=where[:, 1],
                mode="markers",
                marker={"symbol": "x", "size": 11, "color": style.GROUPS[3]},
                name="restarted (jumped to a training point)",
            ),
        ]

    static = [
        dict(
            type="contour",
            x=xs.astype(np.float32),
            y=ys.astype(np.float32),
            z=rho.astype(np.float32),
            colorscale=style.SEQUENTIAL,
            ncontours=20,
            contours={"coloring": "heatmap"},
            # a title object: unvalidated, plotly.js drops a bare string (no title was shown)
            colorbar={"title": {"text": "ρ(z)", "side": "top"}},
            opacity=0.75,
            hovertemplate="z = (%{x:.2f}, %{y:.2f})<br>ρ = %{z:.3f}<extra></extra>",
            name=f"ρ(z) of point {selected}",
        ),
        dict(
            type="scatter",
            x=data[:, 0].astype(np.float32),
            y=data[:, 1].astype(np.float32),
            mode="markers",
            marker={"size": 4, "color": style.NEUTRAL},
            name="training points",
        ),
        dict(
            type="scatter",
            x=positions[0, :, 0].astype(np.float32),
            y=positions[0, :, 1].astype(np.float32),
            mode="markers",
            marker={"size": 5, "color": style.LINEAR, "symbol": "circle-open"},
            name="z_0 (the noisy points)",
        ),
    ]
    n_static = len(static)
    moving_ids = list(range(n_static, n_static + 3))
    # Plain dictionaries of valid values, not validated: validating the frames
    # would take most of the build time.
    frames = [
        {"data": moving(t), "traces": moving_ids, "name": str(t)} for t in range(paths.n_frames)
    ]
    fig = go.Figure({"data": static + moving(0), "frames": frames}, _validate=False)
    # redraw: without it plotly.js drops the contour from the plot at the first
    # frame (seen in Chromium with plotly 7.1); a redraw of this small figure is cheap.
    play = {
        "frame": {"duration": frame_ms, "redraw": True},
        "transition": {"duration": 0},
        "fromcurrent": True,
        "mode": "immediate",
    }
    jump = {
        "frame": {"duration": 0, "redraw": True},
        "transition": {"duration": 0},
        "mode": "immediate",
    }
    # the slider starts right of the buttons (~90 px wide): on a phone's narrow plot
    # 22 % of it was less, and the buttons covered the slider's first steps
    start = max(0.22, PLAY_BUTTONS_PX / max(width_px - PHONE_PLOT_MARGIN_PX, 1))
    fig.update_layout(
        updatemenus=[
            {
                "type": "buttons",
                # one above the other, left of the slider, whose step is said at its
                # right end: the buttons side by side covered "step t = 0"
                "direction": "down",
                # no box of its own for the button pressed last: plotly's light one held
                # the dark theme's light text at 1.15:1
                "showactive": False,
                "x": 0.0,
                "y": -0.08,
                "xanchor": "left",
                "yanchor": "top",
                "buttons": [
                    {"label": "▶ play", "method": "animate", "args": [None, play]},
                    {
                        "label": "❚❚ pause",
                        "method": "animate",
                        "args": [[None], jump],
                    },
                ],
            }
        ],
        sliders=[
            {
                "active": 0,
                "x": start,
                "len": 1 - start,
                "y": -0.05,
                "currentvalue": {"prefix": "step t = ", "xanchor": "right"},
                "steps": [
                    {
                        "label": str(t),
                        "method": "animate",
                        "args": [[str(t)], jump],
                    }
                    for t in range(paths.n_frames)
                ],
            }
        ],
    )
    fig.update_xaxes(range=[xs[0], xs[-1]], showgrid=False, zeroline=False, constrain="domain")
    fig.update_yaxes(
        range=[ys[0], ys[-1]],
        scaleanchor="x",
        scaleratio=1,
        showgrid=False,
        zeroline=False,
        constrain="domain",
    )
    converged = int(paths.converged.sum())
    lines = style.title_lines(
        f"The fixed point of eq. (10), step by step: {converged} of {paths.converged.size} "
        f"points converged in {paths.n_frames - 1} steps",
        width_px,
        TITLE_FONT["size"],
    )
    names = [trace["name"] for trace in fig.data if trace["type"] == "scatter"]
    rows = layout.legend_rows(names, width_px - 80)
    top = 40 + style.TITLE_LINE_PX * (len(lines) - 1) + rows * layout.LEGEND_ROW_PX
    fig.update_layout(
        # the legend above the plot, under the title, as many rows as it takes
        legend={"orientation": "h", "yanchor": "bottom", "y": 1.02},
        title={"y": 1.0 - 18 / 620, "yref": "container", "yanchor": "top"},
        # the slider's step numbers under its rail; the y tick labels' room at the left
        # (the chart's theme gives none: "−0.2" was cut at the chart's edge); on a phone
        # a narrow right margin, which leaves a wide data set's plot AREA_MIN_PX tall
        margin={
            "b": 150,
            "t": top,
            "l": TICKS_LEFT_PX,
            **({"r": 10} if style.is_narrow(width_px) else {}),
        },
    )
    return _layout(fig, title="<br>".join(lines), height=620)


def describe_fixed_point(
    paths: FixedPointPaths, clean: np.ndarray, *, selected: int = 0
) -> Description:
    """:func:`fixed_point_animation` in words: its steps, how many points converged and
    restarted, the mean distance of every point to its clean point at the first step and
    the last, and the ``selected`` point's path: where it starts and ends, its distance to
    its clean point and ρ(z) (eq. 5) there.  The table: per step, the selected point and
    both distances."""
    positions, clean = paths.positions, np.asarray(clean, dtype=float)
    last = paths.n_frames - 1
    distance = np.linalg.norm(positions - clean[np.newaxis], axis=2)  # (frames, points)
    track = positions[:, selected]
    rho = paths.problem.objective_of(selected, track[[0, last]])
    label = f"The fixed point of eq. (10), step by step, for point {selected}"
    said = [
        f"{label}: an animation of {last} steps over the contours of ρ(z) for point "
        f"{selected} (eq. 5; dark where small), with every point's place z_t and point "
        f"{selected}'s path so far.",
        f"{int(paths.converged.sum())} of {paths.converged.size} points converged, "
        f"{int(paths.restarted.any(axis=0).sum())} restarted (jumped to a training point).",
        f"Every point's mean distance to its clean point: {distance[0].mean():.3g} at step 0, "
        f"{distance[last].mean():.3g} at step {last}.",
        f"Point {selected} goes from ({track[0, 0]:.2f}, {track[0, 1]:.2f}) to "
        f"({track[last, 0]:.2f}, {track[last, 1]:.2f}): its distance to its clean point "
        f"from {distance[0, selected]:.3g} to {distance[last, selected]:.3g}, ρ from "
        f"{rho[0]:.3g} to {rho[1]:.3g}.",
    ]
    table = {
        "step t": np.arange(paths.n_frames),
        f"x of point {selected}": track[:, 0],
        f"y of point {selected}": track[:, 1],
        f"distance of point {selected} to its clean point": distance[:, selected],
        "mean distance of every point to its clean point": distance.mean(axis=1),
    }
    return Description(label, " ".join(said), pd.DataFrame(table))


def describe_table1(table: GaussiansTable) -> Description:
    """:func:`table1_figure` in words: how many cells favour kernel PCA (a ratio linear /
    kernel above 1) here and in the paper, the largest ratio of each, and per σ the n where
    ours is largest.  The table: :meth:`GaussiansTable.to_frame`."""
    mean, paper, seeds = table.mean, table.paper(), table.ratios.shape[2]
    label = "Table 1: mean squared error of linear PCA over kernel PCA, de-noising Gaussians"

    def count(grid: np.ndarray) -> str:
        finite = grid[np.isfinite(grid)]
        i, j = np.unravel_index(np.nanargmax(grid), grid.shape)
        return (
            f"kernel PCA better in {np.sum(finite > 1)} of {finite.size} cells, the largest "
            f"ratio {format_ratio(grid[i, j])} at σ = {table.sigmas[i]:g}, n = {table.n_values[j]}"
        )

    said = [
        f"{label}: {len(table.sigmas)} cluster widths σ by {len(table.n_values)} numbers of "
        f"components n, ours (mean over {seeds} seed{'' if seeds == 1 else 's'}) above the "
        "paper's; red where kernel PCA is better, white at a tie.",
        f"Here: {count(mean)}.",
    ]
    if np.isfinite(paper).any():
        said.append(f"In the paper: {count(paper)}.")
    said += [
        f"σ = {sigma:g}: largest here at n = {table.n_values[int(np.nanargmax(row))]}, "
        f"{format_ratio(np.nanmax(row))}."
        for sigma, row in zip(table.sigmas, mean, strict=True)
        if np.isfinite(row).any()
    ]
    return Description(label, " ".join(said), table.to_frame())


def describe_comparison(comparison: MethodComparison, *, title: str = "") -> Description:
    """:func:`comparison_figure` in words: per method its lowest error and the n where it
    is reached, its time per point there, and its failures, beside the noisy points' error.
    The table: :meth:`MethodComparison.to_frame`."""
    label = plain(title) or "Four ways to the pre-image against the number of components n"
    said = [
        f"{label}. Three panels against n: the mean squared error to the clean points, the "
        f"time per point and the failures, one line per method; the noisy points' error, "
        f"dotted: {comparison.baseline_mse:.3g}."
    ]
    for curve in comparison.curves:
        best = int(np.argmin(curve.mse))
        said.append(
            f"{curve.label}: lowest error {curve.mse[best]:.3g} at n = {curve.n[best]}, "
            f"{curve.seconds_per_point[best] * 1e3:.3g} ms a point, "
            f"{int(np.sum(curve.failures))} failures over all n."
        )
    return Description(label, " ".join(said), comparison.to_frame())
