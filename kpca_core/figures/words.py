"""A figure in words, for those who cannot see it (WCAG 2.1, 1.1.1 Non-text content).

Each view's builder has a ``describe_…`` beside it (:func:`.contours.describe_contours`,
:func:`.spectrum.describe_ratio_lines`, :func:`.denoise.describe_grid`,
:func:`.features.describe_regions`) that says what the figure shows from the same numbers
the figure draws, written as the figure writes them; :func:`describe_figure` says what any
figure holds, from the figure itself.  The app gives the words to the chart as its accessible
name and description (``kpca_ui/chart.js``) and the table under it.
"""

from __future__ import annotations

import base64
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
import plotly.graph_objects as go

MAX_MARKS = 12
""":func:`describe_figure` lists at most this many of a figure's notes (annotations)."""


@dataclass(frozen=True)
class Description:
    """What a figure shows, in words and in numbers.

    Attributes
    ----------
    label : str
        What the figure is: the chart's accessible name.
    text : str
        What it shows, in sentences, with its numbers as the figure writes them: the
        chart's accessible description.
    table : pandas.DataFrame or None
        The numbers behind it, for a table under the figure.
    """

    label: str
    text: str
    table: pd.DataFrame | None = None


_SUB = str.maketrans("0123456789+−-", "₀₁₂₃₄₅₆₇₈₉₊₋₋")


def plain(text: object) -> str:
    """A figure's text (plotly's HTML subset) as plain words: ``<sub>k</sub>`` as a
    subscript where it is a number, a line break as a space, other tags dropped."""
    text = str(text or "")
    text = re.sub(r"<sub>([^<]*)</sub>", lambda m: m[1].translate(_SUB), text)
    text = re.sub(r"<br\s*/?>", " ", text)
    text = re.sub(r"<[^>]*>", "", text)
    return re.sub(r"\s+", " ", text).strip()


def subscript(k: int) -> str:
    """``k`` in subscript digits: λ₁₂."""
    return str(k).translate(_SUB)


def share(value: float) -> str:
    """A share as the figures write it, ``"70.2%"``; ``"undefined"`` for NaN."""
    return f"{value:.1%}" if np.isfinite(value) else "undefined"


def _shape(values: object) -> tuple[int, ...]:
    """The shape of a trace's array, also as plotly's typed-array spec ``{dtype, bdata,
    shape}`` (a figure made from its JSON keeps them so)."""
    if isinstance(values, dict) and "bdata" in values:
        if "shape" in values:
            return tuple(int(n) for n in str(values["shape"]).split(","))
        size = len(base64.b64decode(values["bdata"])) // np.dtype(values["dtype"]).itemsize
        return (size,)
    return np.shape(values) if values is not None else ()


def _trace_words(trace: object) -> str:
    kind = getattr(trace, "type", None) or "scatter"
    name = plain(getattr(trace, "name", None))
    if kind in ("heatmap", "image", "contour"):
        shape = _shape(getattr(trace, "z", None))
        size = f" of {shape[0]} × {shape[1]} values" if len(shape) == 2 else ""
        return f"a {kind}{size}{f' ({name})' if name else ''}"
    if not name or getattr(trace, "showlegend", None) is False:
        return ""
    count = (_shape(getattr(trace, "y", None)) or (0,))[0]
    return f"{name} ({count} points)" if count else name


def describe_figure(figure: go.Figure) -> Description:
    """What any figure holds, read from the figure itself: its title, its axes' titles and
    ranges, its traces (their names and numbers of points) and its notes.

    For a figure whose builder has no ``describe_…`` of its own: it says what is drawn,
    not what it means.
    """
    layout = figure.layout
    label = plain(layout.title.text) or "Figure"
    axes = []
    for key in sorted(k for k in layout if re.fullmatch(r"[xy]axis\d*", k)):
        axis = layout[key]
        title = plain(axis.title.text)
        bounds = axis.range
        if title and bounds is not None and all(isinstance(b, int | float) for b in bounds):
            low, high = (10**b if axis.type == "log" else b for b in bounds)
            title += f" from {low:.3g} to {high:.3g}"
        if title:
            axes.append(f"{key[0]} axis: {title}")
    traces = [words for trace in figure.data if (words := _trace_words(trace))]
    pictures = len(layout.images)
    notes = [note for a in layout.annotations if (note := plain(a.text))][:MAX_MARKS]
    sentences = [
        f"{label}.",
        f"Axes: {'; '.join(axes)}." if axes else "",
        f"Drawn: {', '.join(traces)}." if traces else "",
        f"{pictures} pictures." if pictures else "",
        f"Labels: {'; '.join(notes)}." if notes else "",
    ]
    return Description(label, " ".join(s for s in sentences if s))
