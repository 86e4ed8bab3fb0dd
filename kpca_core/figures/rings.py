"""Deręgowski & Krzyśko's Fig. 5, both readings side by side: centred and uncentred.

Pure: two :class:`kpca_core.rings.Reading` in, a ``go.Figure`` out.  Each
panel shows the data in two kernel principal components, coloured by ring,
and prints every component's |Spearman ρ| with the radius, so the panel
says which component carries it.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..rings import Reading
from . import layout as rule
from . import style
from .words import Description, plain

FIG5_PAIRS = ((1, 3), (1, 2))
"""The components drawn: centred kPC 1 against kPC 3, uncentred kPC 1 against kPC 2."""


FONT_PX = 12
"""The figure's text (titles and labels), at least the layout rule's 12 px."""
GAP_PX = 90
"""Between the panels: the right panel's tick labels and y title."""
WIDTH_PX = 820
"""The width planned for by default: the Contours page at 1280 px, sidebar open."""


def reading_title(reading: Reading) -> str:
    """ "Centred in F" or "Not centred in F", and every component's |ρ| with the radius."""
    name = "Centred in F" if reading.center else "Not centred in F (the paper's eq. 3.7)"
    values = ", ".join(f"kPC {k} {rho:.2f}" for k, rho in enumerate(reading.correlations, start=1))
    return f"<b>{name}</b><br>|Spearman ρ| with the radius ‖x‖: {values}"


def _fig5_title(gamma: float | None) -> str:
    title = "Deręgowski & Krzyśko, Fig. 5"
    return title if gamma is None else f"{title}: k = exp(−{gamma:g}‖x − y‖²)"


def fig5_figure(
    readings: Sequence[Reading],
    labels: np.ndarray | None,
    *,
    pairs: Sequence[tuple[int, int]] = FIG5_PAIRS,
    group_names: Sequence[str] | None = None,
    gamma: float | None = None,
    width_px: int = WIDTH_PX,
    text_scale: float = 1.0,
) -> go.Figure:
    """The data in two components of each reading, side by side, coloured by group.

    Parameters
    ----------
    readings : sequence of Reading
        One panel each, in order (:func:`kpca_core.rings.fig5_readings`).
    labels : ndarray of shape (n_samples,), optional
        The ring of each point; one colour per ring (Okabe–Ito).
    pairs : sequence of (int, int)
        Per panel, the components (1-based) on the horizontal and vertical axes.
    group_names : sequence of str, optional
        Legend names of the groups, in the order of ``np.unique(labels)``.
    gamma : float, optional
        The c of exp(−c‖x − y‖²), put in the figure's title.
    width_px : int
        The width the page gives the figure: the panels side by side, or on a phone's
        page (:func:`kpca_core.figures.style.is_narrow`) one above the other.
    text_scale : float
        How much larger the text is drawn (presenter mode's
        :data:`kpca_core.figures.style.FONT_SCALE`): the titles are broken into lines
        that fit their panels at that size (the layout rule, :mod:`.layout`).
    """
    stacked = style.is_narrow(width_px)
    margin = {"l": 60, "r": 20, "b": 80}
    plot_w = width_px - margin["l"] - margin["r"]
    n = len(readings)
    panel_w = plot_w if stacked else (plot_w - GAP_PX * (n - 1)) / n
    font = FONT_PX * text_scale
    titles = [rule.fit_lines(reading_title(reading), panel_w, font) for reading in readings]
    title_px = rule.lines_px(max(map(len, titles)), font) + 6
    # one line where it can be (a title of several lines anchored at the top was cut):
    # the section's heading says the rest
    head = rule.fit_lines(_fig5_title(gamma), plot_w, font * rule.TITLE_EM)
    head_px = rule.lines_px(len(head), font * rule.TITLE_EM) + 10
    panel_h = 360
    height = round((head_px + title_px) / text_scale + panel_h * (n if stacked else 1))
    gap_rows = title_px + 70  # the lower panel's title and the upper one's x ticks and title
    fig = make_subplots(
        rows=n if stacked else 1,
        cols=1 if stacked else n,
        subplot_titles=["<br>".join(lines) for lines in titles],
        horizontal_spacing=GAP_PX / plot_w,
        vertical_spacing=gap_rows / (panel_h * n + gap_rows) if stacked else 0.0,
    )
    if stacked:
        height += gap_rows * (n - 1)
    n_points = len(readings[0].components)
    labels = np.zeros(n_points, dtype=int) if labels is None else np.asarray(labels)
    groups = np.unique(labels)
    names = list(group_names) if group_names is not None else [f"group {g}" for g in groups]
    for panel, (reading, (i, j)) in enumerate(zip(readings, pairs, strict=True), start=1):
        P = reading.components.astype(np.float32)
        for g, group in enumerate(groups):
            mask = labels == group
            fig.add_trace(
                go.Scatter(
                    x=P[mask, i - 1],
                    y=P[mask, j - 1],
                    mode="markers",
                    name=names[g],
                    legendgroup=names[g],
                    showlegend=panel == 1 and len(groups) > 1,
                    marker=style.outlined(
                        {
                            "size": 6,
                            "color": style.GROUPS[g % len(style.GROUPS)],
                            "symbol": style.SYMBOLS[g % len(style.SYMBOLS)],
                        }
                    ),
                    opacity=0.9,  # the outline's contrast >= 3 on both themes
                    hovertemplate=(
                        f"kPC {i} %{{x:.3g}}<br>kPC {j} %{{y:.3g}}<extra>{names[g]}</extra>"
                    ),
                ),
                row=panel if stacked else 1,
                col=1 if stacked else panel,
            )
        for axis, k in (("x", i), ("y", j)):
            update = fig.update_xaxes if axis == "x" else fig.update_yaxes
            update(
                title_text=f"kPC {k} (|ρ| {reading.correlations[k - 1]:.2f})",
                zeroline=True,
                zerolinecolor=style.NEUTRAL,
                showgrid=False,
                row=panel if stacked else 1,
                col=1 if stacked else panel,
            )
    fig.update_annotations(font={"size": FONT_PX})
    fig.update_layout(
        # at the top, above the panels' titles (plotly centres it in the top margin)
        title={
            "text": "<br>".join(head),
            "x": 0.0,
            "xanchor": "left",
            "y": 0.98,  # a few pixels below the top: at 1.0 its first line was cut
            "yref": "container",
            "yanchor": "top",
        },
        width=width_px,
        height=height,
        margin={**margin, "t": round((head_px + title_px) / text_scale)},
        font={"family": style.FONT_FAMILY, "size": FONT_PX},
        plot_bgcolor=style.TRANSPARENT,  # the page's background, light or dark
        # below the panels, so that they keep the planned width
        legend={
            "title": {"text": "ring"},
            "orientation": "h",
            "x": 0.0,
            "y": 0.0,
            "yref": "container",
            "yanchor": "bottom",
        },
    )
    return fig


def describe_fig5(
    readings: Sequence[Reading],
    labels: np.ndarray,
    *,
    pairs: Sequence[tuple[int, int]] = FIG5_PAIRS,
    group_names: Sequence[str] | None = None,
    gamma: float | None = None,
) -> Description:
    """:func:`fig5_figure` in words: per panel, the component whose order follows the radius
    (largest |Spearman ρ|, as the panel's title writes them) and where each ring lies along
    kPC 1, apart or overlapping: whether kPC 1 separates the rings.  The table: each
    reading's components with λ_k/Σλ and |ρ|."""
    label = _fig5_title(gamma)
    labels = np.asarray(labels)
    groups = np.unique(labels)
    names = list(group_names) if group_names is not None else [f"group {g}" for g in groups]
    counts = ", ".join(f"{n}: {np.sum(labels == g)}" for n, g in zip(names, groups, strict=True))
    said = [f"{label}: the points of {len(groups)} rings ({counts} points) in two panels."]
    for reading, (i, j) in zip(readings, pairs, strict=True):
        k = reading.radius_component
        ranges = [reading.components[labels == g, 0] for g in groups]
        ordered = sorted((r.min(), r.max()) for r in ranges)
        apart = all(a[1] < b[0] for a, b in itertools.pairwise(ordered))
        where = ", ".join(
            f"{n} from {r.min():.3g} to {r.max():.3g}" for n, r in zip(names, ranges, strict=True)
        )
        said.append(
            f"{plain(reading_title(reading)).split(' |')[0]}, kPC {i} against kPC {j}: the "
            f"radius is kPC {k} (|Spearman ρ| {reading.correlations[k - 1]:.2f}). Along kPC 1, "
            f"the rings lie {'apart' if apart else 'overlapping'}: {where}."
        )
    table = pd.DataFrame(
        [
            {
                "centred in F": reading.center,
                "component k": k,
                "λk/Σλ": reading.explained[k - 1],
                "|Spearman ρ| with the radius": rho,
            }
            for reading in readings
            for k, rho in enumerate(reading.correlations, start=1)
        ]
    )
    return Description(label, " ".join(said), table)
