"""Deręgowski & Krzyśko's Fig. 5, both readings side by side: centred and uncentred.

Pure: two :class:`kpca_core.rings.Reading` in, a ``go.Figure`` out.  Each
panel shows the data in two kernel principal components, coloured by ring,
and prints every component's |Spearman ρ| with the radius, so the panel
says which component carries it.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from ..rings import Reading
from . import style

FIG5_PAIRS = ((1, 3), (1, 2))
"""The components drawn: centred kPC 1 against kPC 3, uncentred kPC 1 against kPC 2."""


def reading_title(reading: Reading) -> str:
    """ "Centred in F" or "Not centred in F", and every component's |ρ| with the radius."""
    name = "Centred in F" if reading.center else "Not centred in F (the paper's eq. 3.7)"
    values = ", ".join(f"kPC {k} {rho:.2f}" for k, rho in enumerate(reading.correlations, start=1))
    return f"{name}<br><sub>|Spearman ρ| with the radius ‖x‖: {values}</sub>"


def fig5_figure(
    readings: Sequence[Reading],
    labels: np.ndarray | None,
    *,
    pairs: Sequence[tuple[int, int]] = FIG5_PAIRS,
    group_names: Sequence[str] | None = None,
    gamma: float | None = None,
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
    """
    fig = make_subplots(
        rows=1,
        cols=len(readings),
        subplot_titles=[reading_title(reading) for reading in readings],
        horizontal_spacing=0.1,
    )
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
                    marker={"size": 6, "color": style.GROUPS[g % len(style.GROUPS)]},
                    opacity=0.75,
                    hovertemplate=(
                        f"kPC {i} %{{x:.3g}}<br>kPC {j} %{{y:.3g}}<extra>{names[g]}</extra>"
                    ),
                ),
                row=1,
                col=panel,
            )
        for axis, k in (("x", i), ("y", j)):
            update = fig.update_xaxes if axis == "x" else fig.update_yaxes
            update(
                title_text=f"kPC {k} (|ρ| {reading.correlations[k - 1]:.2f})",
                zeroline=True,
                zerolinecolor=style.NEUTRAL,
                showgrid=False,
                row=1,
                col=panel,
            )
    title = "Deręgowski & Krzyśko, Fig. 5: the data in kernel principal components"
    if gamma is not None:
        title += f", k = exp(−{gamma:g}‖x − y‖²)"
    fig.update_layout(
        title={"text": title},
        height=480,
        margin={"l": 60, "r": 20, "t": 110, "b": 50},
        font={"family": style.FONT_FAMILY, "size": 12},
        plot_bgcolor=style.TRANSPARENT,  # the page's background, light or dark
        legend={"title": {"text": "ring"}},
    )
    return fig
