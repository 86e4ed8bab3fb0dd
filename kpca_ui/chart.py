"""Figures updated in place: a chart component of our own instead of ``st.plotly_chart``.

Streamlit 1.67 gives every changed ``st.plotly_chart`` a new identity: the
browser mounts it anew and draws it twice (the second drawing applies the
theme), and the server validates the figure and serialises it again.  This
chart is a Streamlit ``components.v2`` component (its script and style in
``chart.js`` and ``chart.css`` beside this module) that mounts ONE Plotly graph
per key and, on later runs, updates it with ``Plotly.react``: no remount, one
drawing.

- The figure is sent as Plotly's own JSON without validation
  (``plotly.io.to_json(validate=False)``, numpy arrays as compact typed arrays),
  as the component's bytes.
- Plotly's JavaScript is plotly.js with the trace types the app draws, served
  by ``app.py``'s server with a long ``Cache-Control`` (:mod:`kpca_ui.plotly_js`) and
  loaded once per page.
- What ``st.plotly_chart`` gave is kept: the modebar and its image export
  (``config``), the width (``"stretch"``, or the figure's own, ``"content"``,
  never wider than its place), Streamlit's light and dark theme (the script
  reads the theme's colours from the component's CSS properties), and the
  graph's DOM (``.js-plotly-plot``, ``.main-svg``).
- Live: with ``live`` (:class:`kpca_ui.live.Live`), while a slider it follows is
  held, the browser asks for the figure at the value under the thumb
  (:mod:`kpca_ui.live`'s endpoint, no script run), the newest value winning; a
  slider reached by the keyboard has the figure one step along asked for ahead,
  drawn at once when an arrow key moves it there.
- Scrubbing: ``frames`` maps values of a Streamlit slider (by its widget key)
  to the data and layout changes of the figure at each value.  While the reader
  drags that slider, the browser shows the frame of the value under the thumb
  at once; the slider still sends its value when the drag ends, which updates
  the link and the rest of the page.

Page tests read what was sent with :func:`sent_figure`.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal

import plotly.graph_objects as go
import plotly.io as pio
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from kpca_ui.draw import edit_seq
from kpca_ui.live import Live, register
from kpca_ui.live import url as live_url
from kpca_ui.plotly_js import PLOTLY_PATH

SESSION = "_kpca_session"
"""Session key: this session's name for the live route (a token per session and settings)."""
NAME = "kpca_ui.chart"
"""The component's name (page tests find its elements by it)."""
ENGINE_VARIABLE = "KPCA_CHART"
"""Set to ``plotly`` in a server's environment, :func:`chart` draws with ``st.plotly_chart``
instead (``bench/ui_latency.py --compare`` measures both)."""
_HERE = Path(__file__).parent
_CHART = st.components.v2.component(
    NAME,
    css=(_HERE / "chart.css").read_text(encoding="utf-8"),
    js=(_HERE / "chart.js").read_text(encoding="utf-8"),
    # In the page's own DOM, not a shadow root: Plotly's style sheet (modebar, hover
    # labels) is global, and tests and benches find the graph by its class.
    isolate_styles=False,
)


def _plotly_url() -> str:
    """:data:`PLOTLY_PATH` under the server's ``baseUrlPath``."""
    base = (st.get_option("server.baseUrlPath") or "").strip("/")
    return f"/{base}{PLOTLY_PATH}" if base else PLOTLY_PATH


def json_of(value: object) -> str:
    """Plotly's JSON of a figure, part of one or a plain value: no validation, numpy compact.

    A figure made by :func:`figure_from_json`, or a value passed to :func:`kept_json`,
    is not serialised again: its JSON is kept.
    """
    kept = getattr(value, _KEPT_JSON, None)
    return kept if kept is not None else pio.to_json(value, validate=False, engine="orjson")


_KEPT_JSON = "_kpca_json"
"""The attribute of a figure that holds its JSON (:func:`figure_from_json`)."""


def figure_from_json(spec: dict, sent: str) -> go.Figure:
    """The figure of :func:`kpca_core.figures.style.figure_json`, which :func:`chart`
    sends as ``sent`` without serialising it again.  For a figure shared by many runs and
    never mutated (a cached one): a change to it would not be sent."""
    figure = go.Figure(spec, _validate=False)
    setattr(figure, _KEPT_JSON, sent)
    return figure


class _KeptFrames(dict):
    """A frames mapping that carries its JSON (:func:`kept_json`)."""


def kept_json(value: go.Figure | Mapping[str, Any]) -> go.Figure | Mapping[str, Any]:
    """``value`` (a figure, or :func:`chart`'s ``frames``) serialised now, once.

    For a value shared by many runs and never mutated afterwards (a cached
    figure): :func:`chart` sends the kept JSON instead of serialising it on every
    run; a change to it would not be sent.  A copy (``go.Figure(spec)``, the
    projector's) is serialised as usual.
    """
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
        The width of the chart's place, or the figure's own ``layout.width`` (at most
        its place's).
    frames : mapping, optional
        Scrubbing: ``{"slider": <widget key>, "frames": {<slider's value as shown>:
        {"data": [<trace changes>, ...], "layout": {<layout changes>}}}}``.  While
        that slider is dragged, the frame of the value under its thumb is drawn in
        the browser (trace changes apply to the traces in order).
    place : DeltaGenerator, optional
        Where to draw it (a column); by default (or ``st`` itself) where the script is.
    live : Live, optional
        Live dragging: the sliders the chart follows and its figure at their values.
        While one is held, the browser asks :mod:`kpca_ui.live`'s endpoint for the
        figure at the value under the thumb (the newest, one request at a time) and
        draws it; the page's script does not run.  The slider's release runs it as
        any change does, with the slider's own value.  With ``live.drawing``, the same
        for each edit of that drawing canvas (:mod:`kpca_ui.draw`), until the page's
        run of that edit sends its own figure.
    """
    if os.environ.get(ENGINE_VARIABLE) == "plotly":  # the bench's comparison
        (place or st).plotly_chart(figure, key=key, config=dict(config or {}), width=width)
        return
    payload = (
        f'{{"figure":{json_of(figure)},"config":{json.dumps(dict(config or {}))},'
        f'"width":"{width}","plotly":{json.dumps(_plotly_url())},'
        f'"frames":{json_of(frames) if frames else "null"},"live":{json.dumps(_live_json(live))}}}'
    )
    with place if isinstance(place, DeltaGenerator) else contextlib.nullcontext():
        _CHART(key=key, data=payload.encode())


def _live_json(live: Live | None) -> dict | None:
    """What the browser needs of ``live``: the sliders and the endpoint's URL for its settings."""
    if live is None:
        return None
    base = st.get_option("server.baseUrlPath") or ""
    session = st.session_state.setdefault(SESSION, secrets.token_hex(8))
    sent = {"sliders": live.keys, "url": live_url(base, register(live, session)), "drawing": None}
    if live.drawing is not None:  # the canvas's last edit this run drew
        sent["drawing"] = {"prefix": live.drawing, "seq": edit_seq(live.drawing)}
    return sent


def sent_figure(element: Any) -> dict | None:
    """The figure a chart element sent (a page test's ``at.get("bidi_component")`` element).

    Returns ``None`` for an element of another component.
    """
    proto = element.proto
    if proto.component_name != NAME:
        return None
    return json.loads(proto.bytes)["figure"]


def sent_payload(element: Any) -> dict | None:
    """All a chart element sent: ``figure``, ``config``, ``width``, ``frames``."""
    proto = element.proto
    return json.loads(proto.bytes) if proto.component_name == NAME else None


def key_of(element: Any) -> str:
    """The widget key of a component element (its id ends with ``-<key>``)."""
    return element.proto.id.split("-", 2)[-1]
