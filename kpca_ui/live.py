"""Live figures: a held slider's picture asked for by the chart itself, without a script run.

While a reader holds a slider that a chart follows (:func:`kpca_ui.chart.chart`'s
``live``), the chart asks this endpoint for the figure at the value under the
thumb, one request at a time, the newest value winning, and draws the answer
with ``Plotly.react``.  The page's script does not run: before, each held value
reran the chart's fragment, and the browser's page spent about twice the CPU
per picture, most of the difference in Streamlit's own re-rendering (Chromium's
CPU profile of a noise drag).  The slider sends its value when it is released, as any widget does:
that run draws the figure, the rest of the page and the link.

A script run registers what a live figure is made of (:func:`register`: a
function of the slider and its value, and each slider's range) under a token
that names those settings; the chart's page asks for
``GET <baseUrlPath>/_kpca/live/<token>?slider=<key>&value=<number>``
(:func:`route`); a chart that follows a drawing canvas posts the drawing's
points to the same address after each edit (``{"points": [[x, y, group], …],
"half": <the square's half width>}``, read as the canvas's own edits are,
:func:`kpca_core.drawing.from_points`).  Every request is checked here before
anything is computed: a token this server registered, a slider of that token's
and a finite number within its range, or a JSON body of at most
:data:`MAX_BODY` bytes with at least :data:`~kpca_ui.draw.MIN_POINTS` points.
A refusal is a 4xx answer ``{"error": <sentence>}``; the chart keeps its picture
until the page's own figure comes.  Tokens are keyed digests (a secret of this
process): a page cannot name another's settings (a drawing).  Behind the
balancer the page's requests carry its cookie, so they reach the replica that
registered the token; one that did not (restarted) answers 404.

Nothing here calls Streamlit: it runs in the server's threads, outside any
script run.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import threading
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass

from cachetools import LRUCache
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.drawing import Drawing, encode, from_points
from kpca_ui.draw import MIN_POINTS
from kpca_ui.memory import MB

PATH = "/_kpca/live/"
"""Where :func:`route` answers, under the server's ``baseUrlPath``, followed by a token."""
TOKENS = 512
"""Registered settings kept (the least recently used go first): a class's worth of pages."""
FIGURES_MAX_BYTES = 64 * MB
"""Answers kept, by size (a held Contours grid is ~335 kB): a drag back over values."""
MAX_BODY = 32 * 1024
"""The longest drawing posted: 300 points (the canvas's most) as JSON are ~15 kB."""

_SECRET = secrets.token_bytes(16)
_LOCK = threading.Lock()
_SOURCES: LRUCache[str, Live] = LRUCache(TOKENS)
_FIGURES: LRUCache[tuple[str, str, float | str], bytes] = LRUCache(FIGURES_MAX_BYTES, getsizeof=len)


@dataclass(frozen=True)
class Live:
    """What a chart's live figures are made of.

    Parameters
    ----------
    figure_json : callable
        ``figure_json(slider, value)``: the figure's JSON (as :func:`kpca_ui.chart.chart`
        sends it) with the slider ``slider`` at ``value``, or with the drawing
        ``value`` (a :class:`~kpca_core.drawing.Drawing`) when ``slider`` is
        ``drawing``.  It must not call Streamlit.
    ranges : mapping
        ``{slider key: (low, high)}``: the sliders followed and the values they can take.
    settings : hashable
        Everything else the figures depend on: the same settings, the same figures.
    drawing : str, optional
        The widget-key prefix of a drawing canvas whose edits the figures follow.
    """

    figure_json: Callable[[str, float | Drawing], str]
    ranges: Mapping[str, tuple[float, float]]
    settings: Hashable
    drawing: str | None = None


def register(live: Live) -> str:
    """Keep ``live`` for the endpoint; the token that names its settings."""
    token = hashlib.blake2b(repr(live.settings).encode(), key=_SECRET, digest_size=16).hexdigest()
    with _LOCK:
        _SOURCES.setdefault(token, live)  # a known token made the most recently used
    return token


def url(base_url_path: str, token: str) -> str:
    """The endpoint's URL for ``token`` under the server's ``baseUrlPath``."""
    base = base_url_path.strip("/")
    return f"/{base}{PATH}{token}" if base else f"{PATH}{token}"


class Refused(ValueError):
    """A request the endpoint does not answer; its message says why."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


def answer(token: str, slider: str | None, value: str | None) -> bytes:
    """The figure's JSON for a request's token, slider and value (as text).

    Raises
    ------
    Refused
        404 for a token this server does not know, 422 for a slider it does not
        follow or a value that is not a finite number within the slider's range.
    """
    live = _source(token)
    if slider not in live.ranges:
        raise Refused("This chart does not follow that slider.", 422)
    try:
        number = float(value or "")
    except ValueError:
        raise Refused("The value is not a number.", 422) from None
    low, high = live.ranges[slider]
    if not (math.isfinite(number) and low <= number <= high):
        raise Refused(f"The value is not between {low:g} and {high:g}.", 422)
    return _kept(token, live, slider, number)


def answer_drawing(token: str, body: bytes) -> bytes:
    """The figure's JSON for a drawing posted with a request's token (its JSON ``body``).

    Raises
    ------
    Refused
        404 for a token this server does not know, 422 for a chart that follows no
        drawing, a body that is not such a JSON object or a drawing of fewer than
        :data:`~kpca_ui.draw.MIN_POINTS` points.
    """
    live = _source(token)
    if live.drawing is None:
        raise Refused("This chart does not follow a drawing.", 422)
    try:
        posted = json.loads(body) if len(body) <= MAX_BODY else None
    except (ValueError, UnicodeDecodeError):
        posted = None
    if not isinstance(posted, dict) or set(posted) != {"points", "half"}:
        message = f"A drawing is a JSON object of points and half, at most {MAX_BODY} bytes."
        raise Refused(message, 422)
    drawing, _ = from_points(posted["points"], posted["half"])
    if len(drawing) < MIN_POINTS:
        raise Refused(f"A drawing needs at least {MIN_POINTS} points.", 422)
    return _kept(token, live, "drawing", drawing)


def _source(token: str) -> Live:
    with _LOCK:
        live = _SOURCES.get(token)
    if live is None:
        raise Refused("These settings are not known here: the picture follows at the release.", 404)
    return live


def _kept(token: str, live: Live, slider: str, value: float | Drawing) -> bytes:
    """``live``'s figure at ``value``, from the answers kept or made now."""
    key = (token, slider, encode(value) if isinstance(value, Drawing) else value)
    with _LOCK:
        kept = _FIGURES.get(key)
    if kept is None:
        kept = live.figure_json(slider, value).encode()
        with _LOCK:
            _FIGURES[key] = kept
    return kept


async def _live(request: Request) -> Response:
    token, query = request.path_params["token"], request.query_params
    try:
        if request.method == "POST":
            raw = b""
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_BODY:
                    break  # refused unread beyond this
            # the figure is computed in a worker process: wait for it off the event loop
            body = await run_in_threadpool(answer_drawing, token, raw)
        else:
            body = await run_in_threadpool(answer, token, query.get("slider"), query.get("value"))
    except Refused as refused:
        return JSONResponse({"error": str(refused)}, status_code=refused.status)
    except Exception:  # an unforeseen failure: the chart keeps its picture
        return JSONResponse({"error": "The figure could not be made."}, status_code=500)
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})


def route(base_url_path: str = "") -> Route:
    """The endpoint's route, for ``st.App(routes=...)``."""
    return Route(url(base_url_path, "{token}"), _live, methods=["GET", "POST"])
