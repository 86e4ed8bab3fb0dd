"""Figures updated in place: a chart component of our own instead of ``st.plotly_chart``.

``st.plotly_chart`` gives every changed figure a new identity: the browser mounts it anew and
draws it twice, and the server validates and serialises it again.  This ``components.v2``
component (``chart.js``, ``chart.css``) mounts one Plotly graph per key and updates it with
``Plotly.react``; the figure goes as Plotly's own JSON, unvalidated, numpy arrays as typed
arrays.  Kept from ``st.plotly_chart``: the modebar and its image export, the width,
Streamlit's light and dark theme, the graph's DOM (``.js-plotly-plot``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.figures.words import Description, describe_figure
from kpca_ui.draw import edit_seq
from kpca_ui.live import Live, register
from kpca_ui.live import url as live_url
from kpca_ui.plotly_js import plotly_url
from kpca_ui.presenter import prose

SESSION = "_kpca_session"
"""Session key: this session's name for the live route (a token per session and settings)."""
NAME = "kpca_ui.chart"
"""The component's name (page tests find its elements by it)."""
ENGINE_VARIABLE = "KPCA_CHART"
"""Set to ``plotly``, :func:`chart` draws with ``st.plotly_chart`` (``ui_latency.py --compare``)."""
_HERE = Path(__file__).parent
_CHART = st.components.v2.component(
    NAME,
    css=(_HERE / "chart.css").read_text(encoding="utf-8"),
    js=(_HERE / "chart.js").read_text(encoding="utf-8"),
    # In the page's own DOM, not a shadow root: Plotly's style sheet (modebar, hover
    # labels) is global, and tests and benches find the graph by its class.
    isolate_styles=False,
)


def json_of(value: object) -> str:
    """Plotly's JSON of a figure, part of one or a plain value, unvalidated; or its kept JSON."""
    kept = getattr(value, _KEPT_JSON, None)
    return kept if kept is not None else pio.to_json(value, validate=False, engine="orjson")


_KEPT_JSON = "_kpca_json"
"""The attribute of a figure that holds its JSON (:func:`figure_from_json`)."""


def figure_from_json(spec: dict, sent: str) -> go.Figure:
    """The figure of :func:`kpca_core.figures.style.figure_json`, which :func:`chart` sends as
    ``sent``: for a figure shared by many runs and never mutated (as :func:`kept_json`)."""
    figure = go.Figure(spec, _validate=False)
    setattr(figure, _KEPT_JSON, sent)
    return figure


class _KeptFrames(dict):
    """A frames mapping that carries its JSON (:func:`kept_json`)."""


def kept_json(value: go.Figure | Mapping[str, Any]) -> go.Figure | Mapping[str, Any]:
    """``value`` (a figure, or :func:`chart`'s ``frames``) serialised now, once: for a value
    shared by many runs and never mutated (a change to it would not be sent)."""
    kept = value if isinstance(value, go.Figure) else _KeptFrames(value)
    setattr(kept, _KEPT_JSON, json_of(value))
    return kept


def chart(
    figure: go.Figure,
    *,
    key: str,
    config: Mapping[str, Any] | None = None,
    width: Literal["stretch", "content"] = "stretch",
    frames: Mapping[str, Any] | None = None,
    place: DeltaGenerator | Any = None,
    live: Live | None = None,
    description: Description | None = None,
) -> None:
    """Draw ``figure`` in the chart with widget key ``key``, updated in place on later runs.

    Parameters
    ----------
    figure : plotly.graph_objects.Figure
        The figure, sent as it is (no validation: the figure builders make valid ones).
    key : str
        The chart's widget key: one graph per key, kept across runs.
    config : mapping, optional
        Plotly's ``config``: the modebar's image export
        (:func:`kpca_core.figures.style.export_config`).
    width : {"stretch", "content"}
        The width of the chart's place, or the figure's own ``layout.width`` (at most its place's).
    frames : mapping, optional
        Scrubbing: ``{"slider": <widget key>, "frames": {<slider's value as shown>:
        {"data": [<trace changes>, ...], "layout": {<layout changes>}}}}``.  While
        that slider is dragged, the frame of the value under its thumb is drawn in
        the browser (trace changes apply to the traces in order).
    place : DeltaGenerator, optional
        Where to draw it (a column); by default where the script is.
    live : Live, optional
        The sliders (and drawing canvas) the chart follows without a run of the page:
        while one is held, the browser asks :mod:`kpca_ui.live` for the figure at the
        value under the thumb and draws it; the release runs the page as any change.
    description : Description, optional
        The figure in words (its builder's ``describe_…``): the chart's accessible name and
        description, and, outside presenter mode, its words and the numbers behind it folded
        under it (:func:`words_and_numbers`).  By default what the figure holds
        (:func:`kpca_core.figures.words.describe_figure`), for assistive technology only.
    """
    if os.environ.get(ENGINE_VARIABLE) == "plotly":  # the bench's comparison
        (place or st).plotly_chart(figure, key=key, config=dict(config or {}), width=width)
        return
    said = description or describe_figure(figure)
    base = st.get_option("server.baseUrlPath") or ""
    sent = None  # what the browser needs of ``live``: its sliders, the endpoint's URL for them
    if live is not None:
        token = register(live, st.session_state.setdefault(SESSION, secrets.token_hex(8)))
        sent = {"sliders": live.keys, "url": live_url(base, token), "presses": live.presses}
        sent["drawing"] = live.drawing and {"prefix": live.drawing, "seq": edit_seq(live.drawing)}
    payload = (
        f'{{"figure":{json_of(figure)},"config":{json.dumps(dict(config or {}))},'
        f'"width":"{width}","plotly":{json.dumps(plotly_url(base))},'
        f'"frames":{json_of(frames) if frames else "null"},"live":{json.dumps(sent)},'
        f'"said":{json.dumps({"label": said.label, "text": said.text})}}}'
    )
    with place if isinstance(place, DeltaGenerator) else contextlib.nullcontext():
        _CHART(key=key, data=payload.encode())
        if description is not None and description.table is not None and prose():
            words_and_numbers(description)


def words_and_numbers(description: Description) -> None:
    """The figure's words and the numbers behind it, folded: for a reader who cannot see the
    figure, or wants its numbers (WCAG 1.1.1)."""
    with st.expander("This figure in words and numbers", icon=":material/table:"):
        # every ASCII punctuation escaped: the words as written (λ_k, |value|, $), no Markdown
        st.markdown(re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", description.text))
        st.dataframe(description.table, hide_index=True)
