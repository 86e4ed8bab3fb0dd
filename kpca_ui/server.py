"""The server around the pages: what ``app.py``'s ``st.App`` serves beside them.

- Plotly's script for the charts (:mod:`kpca_ui.plotly_js`), served once and kept
  by browsers, and the charts' live figures (:mod:`kpca_ui.live`);
- the page's HTML with the app's name before Streamlit's code has run, "Drawing
  the figures …" until the first is drawn, Plotly's script asked for at once
  (:mod:`kpca_ui.boot`) and the Lesson's view started from the first request;
- from the moment the server starts, the warm-up in the background
  (:mod:`kpca_ui.warmup`: worker processes spawned, the gallery's presets
  computed); it prints one line when the app answers and one when it has finished;
- around every route, Streamlit's too, a bound on how slowly a request's body may
  come (:class:`BodyDeadline`; uvicorn, which serves ``st.App``, waits for a body
  as long as its client likes) and one log line, not a traceback, for a body whose
  client left before sending it whole.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing.util
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import streamlit as st
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from kpca_ui.boot import FIRST_LOAD_HTML, BootScreen
from kpca_ui.plotly_js import plotly_route, preload_html


@asynccontextmanager
async def lifespan(app: Any) -> AsyncIterator[None]:
    """Start the warm-up once Streamlit's runtime runs; at shutdown, end the worker processes.

    They are ended here, not at the interpreter's exit: after a signal the server
    ends by that signal once it has shut down (uvicorn), so its exit functions
    never run and the workers would outlive it.
    """
    from kpca_ui import warmup, workers  # after the runtime has started

    stop = warmup.start()
    yield
    if stop is not None:
        stop.set()
    workers.end_children()
    # What multiprocessing does at a normal exit: release the queues' semaphores (the
    # resource tracker warned of "leaked semaphore objects" otherwise).
    multiprocessing.util._run_finalizers(0)


def _lesson_frame(path: str, query: str) -> str:
    """The Lesson's view, loaded from its page's HTML on (:mod:`kpca_ui.views.lesson`)."""
    from kpca_ui.views import lesson

    return lesson.early_frame_html(path, query)


def routes() -> list[Route]:
    """The routes beside the app's pages."""
    from kpca_ui import live

    base_url_path = st.get_option("server.baseUrlPath") or ""
    return [plotly_route(base_url_path), live.route(base_url_path)]


def middleware() -> list[Middleware]:
    """The first load's screen, Plotly's script in every page's head, the Lesson's frame."""
    head = preload_html(st.get_option("server.baseUrlPath") or "") + FIRST_LOAD_HTML
    return [Middleware(BodyDeadline), Middleware(BootScreen, head=head, body=_lesson_frame)]


LOGGER = logging.getLogger(__name__)
BODY_GRACE_S = 5.0
"""Seconds a request's body may take before it must keep up :data:`BODY_RATE`."""
BODY_RATE = 1024
"""The slowest a body may come after :data:`BODY_GRACE_S`, in bytes per second on average
(Kestrel's rule; its default is 240): a phone's upload on a poor link keeps up with it."""
TIMED_OUT = b'{"error": "The request\'s body came too slowly."}'


class BodyDeadline:
    """ASGI middleware: a request whose body comes too slowly is answered 408 and closed;
    one whose client leaves mid-body is logged in one line.

    From the request's start its body has :data:`BODY_GRACE_S` seconds and then
    ``1/BODY_RATE`` more per byte received: a client that sends ``Content-Length:
    1000`` and one byte is answered after 5 s, not held open for as long as it likes.
    Past that deadline the route is told that its client has gone (``http.disconnect``,
    so Starlette raises ``ClientDisconnect`` where the body is read), and whatever it
    answers becomes the 408.  Once the body is whole, ``receive`` is the server's own
    (a streamed answer listens on it for its client's leaving).
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started, received = time.monotonic(), 0
        whole = not _has_body(scope)
        late = answered = False

        async def within_deadline() -> Message:
            nonlocal received, whole, late
            if whole:
                return await receive()
            if late:
                return {"type": "http.disconnect"}
            deadline = started + BODY_GRACE_S + received / BODY_RATE
            try:  # at least a moment: a body already here is taken at once
                async with asyncio.timeout(max(deadline - time.monotonic(), 1.0)):
                    message = await receive()
            except TimeoutError:
                late = True
                return {"type": "http.disconnect"}
            received += len(message.get("body", b""))
            whole = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def or_timed_out(message: Message) -> None:
            nonlocal answered
            if late and not answered:
                answered = True
                await _timed_out(send)
            elif not late:
                answered = True
                await send(message)

        try:
            await self.app(scope, within_deadline, or_timed_out)
        except ClientDisconnect:
            if not late:  # a client that left: nothing to answer
                LOGGER.warning("%s %.80r: its client left before sending its body", *_named(scope))
                return
        if late and not answered:
            await _timed_out(send)
        if late:
            LOGGER.warning("%s %.80r: its body came too slowly, answered 408", *_named(scope))


def _has_body(scope: Scope) -> bool:
    """Whether the request's headers announce a body (a length above 0, or chunks)."""
    fields = dict(scope.get("headers", []))
    return b"transfer-encoding" in fields or fields.get(b"content-length", b"0").strip() != b"0"


def _named(scope: Scope) -> tuple[str, str]:
    return scope.get("method", ""), scope.get("path", "")


async def _timed_out(send: Send) -> None:
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", b"%d" % len(TIMED_OUT)),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 408, "headers": headers})
    await send({"type": "http.response.body", "body": TIMED_OUT})
