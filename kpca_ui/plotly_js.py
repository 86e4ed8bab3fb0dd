"""Plotly's JavaScript for :mod:`kpca_ui.chart`, served by ``serve.py`` from the ``plotly`` package.

The installed ``plotly`` Python package ships ``plotly.min.js``; it is served
as it is (never copied into this repository, never from a CDN) at
:data:`PLOTLY_PATH`, whose name carries plotly's version, so that a browser
keeps it for a year and loads it once.  It is compressed once per server
(:func:`compressed`), not on every request: Streamlit's middleware compressed
its 4.8 MB anew for every first visitor (0.2 s of the server's event loop each).

A page asks for it as soon as its HTML arrives (:func:`preload_html`, put in
by :mod:`kpca_ui.boot`), not when its first chart is mounted: fetching and
running it (0.7-1.8 s on a first visit, measured in Chromium under load) then
overlaps with loading Streamlit's code and the page's script run.  Nothing here
needs Streamlit's runtime: ``serve.py`` builds the route before the runtime starts.
"""

from __future__ import annotations

import functools
import gzip
import json
from pathlib import Path

import anyio.to_thread
import plotly
from starlette.requests import Request
from starlette.responses import FileResponse, Response
from starlette.routing import Route

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
"""Plotly's JavaScript as the installed ``plotly`` package ships it."""
PLOTLY_PATH = f"/_kpca/plotly-{plotly.__version__}.min.js"
"""Where ``serve.py`` serves :data:`PLOTLY_JS` (under the server's ``baseUrlPath``)."""
CACHE_SECONDS = 365 * 24 * 3600
"""How long a browser keeps it: its path changes with plotly's version."""
HEADERS = {
    "Cache-Control": f"public, max-age={CACHE_SECONDS}, immutable",
    "Vary": "Accept-Encoding",
}


def plotly_url(base_url_path: str = "") -> str:
    """:data:`PLOTLY_PATH` under the server's ``baseUrlPath``."""
    base = base_url_path.strip("/")
    return f"/{base}{PLOTLY_PATH}" if base else PLOTLY_PATH


@functools.cache
def compressed() -> bytes:
    """:data:`PLOTLY_JS` gzipped, once per process (1.5 MB; 0.3 s)."""
    return gzip.compress(PLOTLY_JS.read_bytes(), compresslevel=9, mtime=0)


async def _plotly_js(request: Request) -> Response:
    if "gzip" not in request.headers.get("accept-encoding", ""):
        return FileResponse(PLOTLY_JS, media_type="text/javascript", headers=HEADERS)
    body = await anyio.to_thread.run_sync(compressed)  # the first time: off the event loop
    return Response(
        body, media_type="text/javascript", headers={**HEADERS, "Content-Encoding": "gzip"}
    )


def plotly_route(base_url_path: str = "") -> Route:
    """The route that serves :data:`PLOTLY_JS`, for ``st.App(routes=...)``."""
    return Route(plotly_url(base_url_path), _plotly_js)


def preload_html(base_url_path: str = "") -> str:
    """A page's ``<head>`` part that fetches and runs Plotly's script at once.

    The chart (``chart.js``) waits for the promise ``window.__kpcaPlotly`` instead
    of adding the script itself; should the script fail to load, the promise is
    dropped and the chart tries again.
    """
    url = json.dumps(plotly_url(base_url_path))
    return (
        "<script>window.__kpcaPlotly = new Promise(function (resolve, reject) {"
        'var s = document.createElement("script"); s.src = ' + url + "; s.async = true;"
        "s.onload = function () { resolve(window.Plotly); };"
        "s.onerror = function (e) { window.__kpcaPlotly = null; reject(e); };"
        "document.head.appendChild(s); });"
        "window.__kpcaPlotly.catch(function () {});</script>"
    )
