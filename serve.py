"""Kernel PCA Explorer's server: ``python3 -m streamlit run serve.py``.

Serves the app (``app.py``) and, from the moment the server starts, warms it up
in the background (:mod:`kpca_ui.warmup`): worker processes spawned, the
gallery's presets computed.  It prints one line when the app answers and one
when the warm-up has finished.  Until Streamlit's code has run in the browser, a
page shows the app's name (:mod:`kpca_ui.boot`).
"""

import multiprocessing.util
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import streamlit as st
from starlette.middleware import Middleware

from kpca_ui.boot import FIRST_LOAD_HTML, BootScreen
from kpca_ui.plotly_js import plotly_route, preload_html


@asynccontextmanager
async def warm_up(app: st.App) -> AsyncIterator[None]:
    """Start the warm-up once Streamlit's runtime runs; at shutdown, end the worker processes.

    They are ended here, not at the interpreter's exit: after a signal the server
    ends by that signal once it has shut down (uvicorn), so its exit functions
    never run and the workers would outlive it.
    """
    from kpca_ui import warmup, workers  # after the runtime has started: the real caches

    stop = warmup.start()
    yield
    if stop is not None:
        stop.set()
    workers.end_children()
    # What multiprocessing does at a normal exit: release the queues' semaphores (the
    # resource tracker warned of "leaked semaphore objects" otherwise).
    multiprocessing.util._run_finalizers(0)


def lesson_frame(path: str, query: str) -> str:
    """The Lesson's view, loaded from its page's HTML on (:mod:`kpca_ui.views.lesson`)."""
    from kpca_ui.views import lesson  # a page's module: imported once the runtime runs

    return lesson.early_frame_html(path, query)


def routes() -> list:
    """Routes beside the app's: Plotly's script for the charts (:mod:`kpca_ui.chart`),
    served once and kept by browsers, the charts' live figures (:mod:`kpca_ui.live`)
    and class mode's JSON endpoint (:mod:`kpca_ui.rooms.api`)."""
    from kpca_ui import live
    from kpca_ui.rooms import api

    return [plotly_route(BASE_URL_PATH), live.route(BASE_URL_PATH), *api.routes()]


BASE_URL_PATH = st.get_option("server.baseUrlPath") or ""
# The app's name on the page before Streamlit's code has run, then "Drawing the figures …"
# until the first is drawn, and Plotly's script asked for at once (kpca_ui/boot.py).
app = st.App(
    "app.py",
    lifespan=warm_up,
    routes=routes(),
    middleware=[
        Middleware(
            BootScreen, head=preload_html(BASE_URL_PATH) + FIRST_LOAD_HTML, body=lesson_frame
        )
    ],
)
