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
until the page's own figure comes.  A run of the page waits for its session's figure
being computed (:func:`after`): a click on a slider's track asks for both at once.

Work for a browser that has gone is not done: per session the newest request wins
(an older one still waiting, of any of the session's charts, is answered 409 and
never computed), a request whose browser has disconnected is dropped before it
starts and cancelled while it waits for a worker (its page's next request need not
wait for it), and at most :data:`WAITING` requests of all sessions wait at once (503
beyond).  No client takes more than its share: a session asks at most
:data:`SESSION_RATE` a second on average (:data:`SESSION_BURST` at once), a client
address :data:`ADDRESS_RATE` (a class behind one campus address shares it) with at
most :data:`ADDRESS_IN_FLIGHT` requests waiting or computing; beyond, 429 with ``Retry-After``.
Nothing here calls Streamlit: it runs in the server's threads, outside any script run.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import math
import secrets
import threading
import time
from collections.abc import Callable, Hashable, Iterator
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
from kpca_ui.workers import Cancelled, cancelled_by, check_interrupt

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
FIRST_S = 1.0
"""The longest a page run waits for its session's live figure being computed (:func:`after`)."""
DRAWN_S = 0.08
"""How much longer a page run that waited for its session's live figure waits, while the
browser draws it (:func:`after`): Plotly redraws the Contours grid in ~40-60 ms after a click
on a slider's track, and the run's messages arriving meanwhile slowed that redraw
(``bench/ui_latency.py --order track`` measures it)."""
SESSION_RATE = 30.0
"""Requests a second a session's charts ask on average: a held slider asks one at a time."""
SESSION_BURST = 60
"""Requests a session may ask at once before :data:`SESSION_RATE` applies."""
ADDRESS_RATE = 4 * SESSION_RATE
"""Requests a second of all sessions behind one client address, on average."""
ADDRESS_BURST = 4 * SESSION_BURST
ADDRESS_IN_FLIGHT = WAITING // 2
"""Requests of one client address waiting or computing at once: half the server's places
(:data:`WAITING`), so that a script of many sessions cannot hold them all."""
CLIENTS = 4096
"""Sessions and addresses whose rates are kept (the least recently seen go first)."""

_SECRET = secrets.token_bytes(16)
_LOCK = threading.Lock()
_SOURCES: LRUCache[str, tuple[Live, str]] = LRUCache(TOKENS)
"""Per token, what its figures are made of and its session."""
_NEWEST: dict[str, int] = {}
"""Per session, the number of its newest request: an older one waiting is dropped."""
_BUSY: set[str] = set()
"""The sessions with a request computing: one each."""
_WAITING = threading.BoundedSemaphore(WAITING)
_IN_FLIGHT: dict[str, int] = {}
"""Per client address, its requests being read, waiting or computing."""


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
    presses : tuple of str
        Buttons and select boxes' options (``key=label``) whose figures the chart asks for
        ahead and draws when pressed, ``figure_json(press, None)``.
    """

    figure_json: Callable[[str, Any], str]
    sliders: tuple[Setting, ...]
    settings: Hashable
    drawing: str | None = None
    presses: tuple[str, ...] = ()

    @property
    def keys(self) -> list[str]:
        return [setting.key for setting in self.sliders]


def register(live: Live, session: str) -> str:
    """Keep ``live`` for the endpoint; the token that names it for ``session``."""
    named = repr((session, live.settings)).encode()
    token = hashlib.blake2b(named, key=_SECRET, digest_size=16).hexdigest()
    with _LOCK:
        _SOURCES.setdefault(token, (live, session))  # a known token made the most recently used
    return token


class Buckets:
    """Token buckets by key (a session, an address): ``rate`` requests a second on average,
    ``burst`` at once, for the :data:`CLIENTS` keys seen last.  Not thread-safe: under a lock."""

    def __init__(self, rate: float, burst: int) -> None:
        self.rate, self.burst = rate, burst
        self._level: LRUCache[str, tuple[float, float]] = LRUCache(CLIENTS)

    def take(self, key: str, now: float) -> float:
        """0 if a request of ``key`` may go now (it takes a token), else the seconds until it
        may."""
        tokens, then = self._level.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        self._level[key] = (tokens - 1 if tokens >= 1 else tokens, now)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


_BY_SESSION = Buckets(SESSION_RATE, SESSION_BURST)
_BY_ADDRESS = Buckets(ADDRESS_RATE, ADDRESS_BURST)


def url(base_url_path: str, token: str) -> str:
    """The endpoint's URL for ``token`` under the server's ``baseUrlPath``."""
    base = base_url_path.strip("/")
    return f"/{base}{PATH}{token}" if base else f"{PATH}{token}"


class Refused(ValueError):
    """A request the endpoint does not answer; its message says why (and, for 429, when to ask
    again: ``retry_after`` seconds)."""

    def __init__(self, message: str, status: int, retry_after: float = 0.0) -> None:
        super().__init__(message)
        self.status = status
        self.retry_after = retry_after


def asked(token: str, slider: str | None, value: str | None) -> tuple[Live, str, Any]:
    """The figure a request asks for: its token's settings, the slider and its value (checked
    for the value alone: the token's session is :func:`session_of`'s), or a press (its value
    ``None``).

    Raises
    ------
    Refused
        404 for a token this server does not know, 422 for a slider it does not
        follow or a value that slider's setting does not take.
    """
    live = _source(token)[0]
    if slider in live.presses:
        return live, slider, None
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
    live = _source(token)[0]
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


def _source(token: str) -> tuple[Live, str]:
    with _LOCK:
        source = _SOURCES.get(token)
    if source is None:
        raise Refused("These settings are not known here: the picture follows at the release.", 404)
    return source


def session_of(token: str) -> str:
    """The session that registered ``token``.

    Raises
    ------
    Refused
        404 for a token this server does not know.
    """
    return _source(token)[1]


def after(session: str) -> None:
    """Return once ``session``'s live figure being computed, if any, is answered and drawn
    (:data:`DRAWN_S` later; at most :data:`FIRST_S` in all): called first by a run of the page,
    which a click on a slider's track starts beside the figure the chart asks for at once, so
    that the figure the reader sees first is not slowed by the run (the server's and the
    browser's share of it)."""
    end = time.monotonic() + FIRST_S
    if _waited(lambda: _computing(session), end):  # answered: the browser draws it
        _waited(lambda: True, min(end, time.monotonic() + DRAWN_S))


def _computing(session: str) -> bool:
    with _LOCK:
        return session in _BUSY


def _waited(condition: Callable[[], bool], end: float) -> bool:
    """Wait while ``condition()`` holds, until ``end`` at most (``time.monotonic``), the run
    stopped or rerun meanwhile; whether it waited."""
    waited = False
    while condition() and time.monotonic() < end:
        waited = True
        check_interrupt()
        time.sleep(POLL_S)
    return waited


def _admitted(buckets: Buckets, key: str) -> None:
    """Raise 429 if ``key`` asks faster than ``buckets`` allow."""
    with _LOCK:
        wait = buckets.take(key, time.monotonic())
    if wait > 0:
        raise Refused("Too many requests: the picture follows at the release.", 429, wait)


def _ticket(session: str) -> int:
    """This request's number: the newest of its session's."""
    with _LOCK:
        _NEWEST[session] = _NEWEST.get(session, 0) + 1
        if len(_NEWEST) > 4 * TOKENS:  # forget the sessions no longer registered
            known = {known for _, known in _SOURCES.values()}
            for gone in [s for s in _NEWEST if s not in known and s != session]:
                del _NEWEST[gone]
        return _NEWEST[session]


def _superseded(session: str, ticket: int) -> bool:
    with _LOCK:
        return _NEWEST.get(session) != ticket


async def _body(request: Request) -> bytes:
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            break  # refused unread beyond this
    return raw


async def _answer(
    request: Request, session: str, ticket: int, live: Live, slider: str, value: Any
) -> Response:
    """The figure for a checked request, computed unless a newer request of its session or its
    browser's leaving makes it moot."""
    while True:  # one computation per session at a time: wait for the one running
        with _LOCK:
            if session not in _BUSY:
                _BUSY.add(session)
                break
        if _superseded(session, ticket) or await request.is_disconnected():
            return _dropped()
        await asyncio.sleep(POLL_S)
    try:
        if _superseded(session, ticket) or await request.is_disconnected():
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
            _BUSY.discard(session)
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
    address = request.client.host if request.client else ""
    try:
        _admitted(_BY_ADDRESS, address)
        if request.method == "POST":  # a slow body: the server's deadline (kpca_ui.server)
            live, slider, value = asked_drawing(token, await _body(request))
        else:
            live, slider, value = asked(token, query.get("slider"), query.get("value"))
        session = session_of(token)
        with _in_flight(address):  # what this refuses is not counted in the session's rate
            _admitted(_BY_SESSION, session)
            return await _answer(request, session, _ticket(session), live, slider, value)
    except Refused as refused:
        wait = refused.retry_after
        headers = {"Retry-After": str(math.ceil(wait))} if wait else None
        return JSONResponse({"error": str(refused)}, status_code=refused.status, headers=headers)
    except Exception:  # an unforeseen failure: the chart keeps its picture
        return JSONResponse({"error": "The figure could not be made."}, status_code=500)


@contextlib.contextmanager
def _in_flight(address: str) -> Iterator[None]:
    """A request of ``address`` waiting or computing; 429 beyond :data:`ADDRESS_IN_FLIGHT`."""
    with _LOCK:
        if _IN_FLIGHT.get(address, 0) >= ADDRESS_IN_FLIGHT:
            raise Refused("Too many requests at once: the picture follows at the release.", 429, 1)
        _IN_FLIGHT[address] = _IN_FLIGHT.get(address, 0) + 1
    try:
        yield
    finally:
        with _LOCK:
            _IN_FLIGHT[address] -= 1
            if not _IN_FLIGHT[address]:
                del _IN_FLIGHT[address]


def route(base_url_path: str = "") -> Route:
    """The endpoint's route, for ``st.App(routes=...)``."""
    return Route(url(base_url_path, "{token}"), _live, methods=["GET", "POST"])
