"""The server around the pages: what ``app.py``'s ``st.App`` serves beside them.

- Plotly's script for the charts (:mod:`kpca_ui.plotly_js`), served once and kept
  by browsers, and the charts' live figures (:mod:`kpca_ui.live`);
- the page's HTML with the app's name before Streamlit's code has run, "Drawing
  the figures …" until the first is drawn, Plotly's script asked for at once
  (:mod:`kpca_ui.boot`) and the Lesson's view started from the first request;
- from the moment the server starts, the warm-up in the background
  (:mod:`kpca_ui.warmup`: worker processes spawned, the gallery's presets
  computed); it prints one line when the app answers and one when it has finished.
"""

from __future__ import annotations

import multiprocessing.util
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import streamlit as st
from starlette.middleware import Middleware
from starlette.routing import Route

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
    return [Middleware(BootScreen, head=head, body=_lesson_frame)]
