"""Live figures: a held slider's picture asked for by the chart itself, without a run of the page.

While a reader holds a slider that a chart follows (:func:`kpca_ui.chart.chart`'s
``live``: the view's settings declared ``live``), the chart asks this endpoint for
the figure at the value under the thumb, one request at a time, the newest value
winning, and draws the answer with ``Plotly.react``.  The slider sends its value
when it is released, as any widget does: that run draws the figure, the rest of
the page and the link.  The figure comes from the view's own figure function, the
page's other settings kept, so that it is the picture the release will draw.

A run of the page registers what a live figure is made of (:func:`register`)
under a token that names the session and those settings; the chart asks for
``GET <baseUrlPath>/_kpca/live/<token>?slider=<key>&value=<number>`` (:func:`route`);
a chart that follows a drawing canvas posts the drawing's points to the same
address after each edit (``{"points": [[x, y, group], …], "half": <half width>}``).
Every request is checked here before anything is computed: a token this server
registered, a slider of that token's and a value its setting takes (the view's
declaration, :meth:`kpca_ui.settings.Setting.from_link`), or a JSON body of at
most :data:`MAX_BODY` bytes with at least :data:`~kpca_ui.draw.MIN_POINTS` points.
A refusal is a 4xx answer ``{"error": <sentence>}``; the chart keeps its picture
until the page's own figure comes.

Work for a browser that has gone is not done: per token the newest request wins
(an older one still waiting is answered 409 and never computed), a request whose
browser has disconnected is dropped before it starts and cancelled while it
waits for a worker (its page's next request need not wait for it), and at most
:data:`WAITING` requests of all sessions wait at once (503 beyond).  Nothing here
calls Streamlit: it runs in the server's threads, outside any script run.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import threading
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from cachetools import LRUCache
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.drawing import Drawing, from_points
from kpca_ui.draw import MIN_POINTS
from kpca_ui.settings import Refused as Unusable
from kpca_ui.settings import Setting
from kpca_ui.workers import Cancelled, cancelled_by

PATH = "/_kpca/live/"
"""Where :func:`route` answers, under the server's ``baseUrlPath``, followed by a token."""
TOKENS = 512
"""Registered settings kept (the least recently used go first): a class's worth of pages."""
MAX_BODY = 32 * 1024
"""The longest drawing posted: 300 points (the canvas's most) as JSON are ~15 kB."""
WAITING = 8
"""Live requests of all sessions computing or waiting for a worker at once."""
POLL_S = 0.01
"""How often a request waiting for its turn or its figure checks that its browser is still there."""

_SECRET = secrets.token_bytes(16)
_LOCK = threading.Lock()
_SOURCES: LRUCache[str, Live] = LRUCache(TOKENS)
_NEWEST: dict[str, int] = {}
"""Per token, the number of its newest request: an older one waiting is dropped."""
_BUSY: set[str] = set()
"""The tokens with a request computing: one each."""
_WAITING = threading.BoundedSemaphore(WAITING)


@dataclass(frozen=True)
class Live:
    """What a chart's live figures are made of.

    Parameters
    ----------
    figure_json : callable
        ``figure_json(slider, value)``: the figure's JSON (as :func:`kpca_ui.chart.chart`
        sends it) with the setting ``slider`` at ``value``, or with the drawing
        ``value`` (a :class:`~kpca_core.drawing.Drawing`) when ``slider`` is
        ``"drawing"``.  It must not call Streamlit.
    sliders : tuple of Setting
        The settings followed, whose domains check the values asked for.
    settings : hashable
        Everything else the figures depend on.
    drawing : str, optional
        The widget-key prefix of a drawing canvas whose edits the figures follow.
    """

    figure_json: Callable[[str, Any], str]
    sliders: tuple[Setting, ...]
    settings: Hashable
    drawing: str | None = None

    @property
    def keys(self) -> list[str]:
        return [setting.key for setting in self.sliders]


def register(live: Live, session: str) -> str:
    """Keep ``live`` for the endpoint; the token that names it for ``session``."""
    named = repr((session, live.settings)).encode()
    token = hashlib.blake2b(named, key=_SECRET, digest_size=16).hexdigest()
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


def asked(token: str, slider: str | None, value: str | None) -> tuple[Live, str, Any]:
    """The figure a request asks for: its token's settings, the slider and its value.

    Raises
    ------
    Refused
        404 for a token this server does not know, 422 for a slider it does not
        follow or a value that slider's setting does not take.
    """
    live = _source(token)
    setting = next((s for s in live.sliders if s.key == slider), None)
    if setting is None:
        raise Refused("This chart does not follow that slider.", 422)
    try:
        return live, setting.key, setting.from_link([value or ""])
    except Unusable as error:
        raise Refused(f"The value of “{setting.label}” is {error}.", 422) from None


def asked_drawing(token: str, body: bytes) -> tuple[Live, str, Drawing]:
    """The figure a drawing posted asks for (its JSON ``body``).

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
    except (ValueError, UnicodeDecodeError, RecursionError):
        posted = None
    if not isinstance(posted, dict) or set(posted) != {"points", "half"}:
        message = f"A drawing is a JSON object of points and half, at most {MAX_BODY} bytes."
        raise Refused(message, 422)
    drawing, _ = from_points(posted["points"], posted["half"])
    if len(drawing) < MIN_POINTS:
        raise Refused(f"A drawing needs at least {MIN_POINTS} points.", 422)
    return live, "drawing", drawing


def _source(token: str) -> Live:
    with _LOCK:
        live = _SOURCES.get(token)
    if live is None:
        raise Refused("These settings are not known here: the picture follows at the release.", 404)
    return live


def _ticket(token: str) -> int:
    """This request's number: the newest of its token's."""
    with _LOCK:
        _NEWEST[token] = _NEWEST.get(token, 0) + 1
        if len(_NEWEST) > 4 * TOKENS:  # forget the tokens no longer registered
            for gone in [t for t in _NEWEST if t not in _SOURCES and t != token]:
                del _NEWEST[gone]
        return _NEWEST[token]


def _superseded(token: str, ticket: int) -> bool:
    with _LOCK:
        return _NEWEST.get(token) != ticket


async def _body(request: Request) -> bytes:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            break  # refused unread beyond this
    return raw


async def _answer(
    request: Request, token: str, ticket: int, live: Live, slider: str, value: Any
) -> Response:
    """The figure for a checked request, computed unless a newer request of its token or its
    browser's leaving makes it moot."""
    while True:  # one computation per token at a time: wait for the one running
        with _LOCK:
            if token not in _BUSY:
                _BUSY.add(token)
                break
        if _superseded(token, ticket) or await request.is_disconnected():
            return _dropped()
        await asyncio.sleep(POLL_S)
    try:
        if _superseded(token, ticket) or await request.is_disconnected():
            return _dropped()
        if not _WAITING.acquire(blocking=False):
            return JSONResponse(
                {"error": "The server is busy: the picture follows at the release."},
                status_code=503,
            )
        cancel = threading.Event()
        task = asyncio.ensure_future(run_in_threadpool(_figure, live, slider, value, cancel))
        task.add_done_callback(_finished)  # its place is free when its thread is
        while not task.done():
            await asyncio.wait({task}, timeout=POLL_S)
            if not task.done() and await request.is_disconnected():
                cancel.set()  # a computation still queued is dropped, a long one stopped
                return _dropped()  # its page's turn free at once, not when the thread ends
        body = task.result()
    except Cancelled:
        return _dropped()
    finally:
        with _LOCK:
            _BUSY.discard(token)
    return Response(body, media_type="application/json", headers={"Cache-Control": "no-store"})


def _finished(task: asyncio.Future) -> None:
    _WAITING.release()
    if not task.cancelled():
        task.exception()  # retrieved: a moot computation's Cancelled is no error to log


def _figure(live: Live, slider: str, value: Any, cancel: threading.Event) -> bytes:
    with cancelled_by(cancel):
        return live.figure_json(slider, value).encode()


def _dropped() -> JSONResponse:
    return JSONResponse({"error": "A newer request, or none: not computed."}, status_code=409)


async def _live(request: Request) -> Response:
    token, query = request.path_params["token"], request.query_params
    try:
        if request.method == "POST":
            live, slider, value = asked_drawing(token, await _body(request))
        else:
            live, slider, value = asked(token, query.get("slider"), query.get("value"))
        return await _answer(request, token, _ticket(token), live, slider, value)
    except Refused as refused:
        return JSONResponse({"error": str(refused)}, status_code=refused.status)
    except Exception:  # an unforeseen failure: the chart keeps its picture
        return JSONResponse({"error": "The figure could not be made."}, status_code=500)


def route(base_url_path: str = "") -> Route:
    """The endpoint's route, for ``st.App(routes=...)``."""
    return Route(url(base_url_path, "{token}"), _live, methods=["GET", "POST"])
