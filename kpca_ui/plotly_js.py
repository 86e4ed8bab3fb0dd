"""Plotly's JavaScript for :mod:`kpca_ui.chart`, served beside the app (:mod:`kpca_ui.server`).

The app draws five trace types (``scatter``, ``scattergl``, ``heatmap``, ``contour``,
``bar``), so it serves :data:`BUNDLE`, a partial build of plotly.js (built by
``kpca_ui/vendor/build_plotly.sh``, MIT licence header kept) that a browser runs in a
fraction of the full script's time; never from a CDN.  A page asks for it as soon as its
HTML arrives (:func:`preload_html`, put in by :mod:`kpca_ui.boot`), overlapping with
Streamlit's own loading.  Nothing here needs Streamlit's runtime: :mod:`kpca_ui.server`
builds the route before the runtime starts.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
import re
from pathlib import Path

import anyio.to_thread
import plotly
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

PACKAGE_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
"""The full plotly.js, as the installed ``plotly`` package ships it."""
BUNDLE = Path(__file__).parent / "vendor" / "plotly.min.js.gz"
"""plotly.js with only the trace types the app draws, kept gzipped (level 9) as it is sent."""


@functools.cache
def script(path: Path) -> bytes:
    """The script at ``path``, unzipped if its name ends in ``.gz``."""
    data = path.read_bytes()
    return gzip.decompress(data) if path.suffix == ".gz" else data


def js_version(path: Path) -> str:
    """The plotly.js version in the licence header of the script at ``path``."""
    return re.search(r"plotly\.js[^\n]* v(\S+)", script(path)[:400].decode())[1]


PLOTLY_JS = BUNDLE if js_version(BUNDLE) == js_version(PACKAGE_JS) else PACKAGE_JS
"""The script served: :data:`BUNDLE`, or the full one should the versions differ (the figures'
JSON is made for the ``plotly`` package's)."""
PLOTLY_PATH = (
    f"/_kpca/plotly-{js_version(PLOTLY_JS)}"
    f"-{hashlib.sha256(script(PLOTLY_JS)).hexdigest()[:12]}.min.js"
)
"""Where the server serves :data:`PLOTLY_JS` (under ``baseUrlPath``): by version and digest."""
HEADERS = {"Cache-Control": "public, max-age=31536000, immutable", "Vary": "Accept-Encoding"}
"""A browser keeps it for a year (31,536,000 s): its path changes with its content."""


def plotly_url(base_url_path: str = "") -> str:
    """:data:`PLOTLY_PATH` under the server's ``baseUrlPath``."""
    base = base_url_path.strip("/")
    return f"/{base}{PLOTLY_PATH}" if base else PLOTLY_PATH


@functools.cache
def compressed() -> bytes:
    """:data:`PLOTLY_JS` gzipped: the bundle's file, or the full script compressed once."""
    if PLOTLY_JS.suffix == ".gz":
        return PLOTLY_JS.read_bytes()
    return gzip.compress(script(PLOTLY_JS), compresslevel=9, mtime=0)


async def _plotly_js(request: Request) -> Response:
    if "gzip" not in request.headers.get("accept-encoding", ""):
        return Response(script(PLOTLY_JS), media_type="text/javascript", headers=HEADERS)
    body = await anyio.to_thread.run_sync(compressed)  # the first time: off the event loop
    return Response(
        body, media_type="text/javascript", headers={**HEADERS, "Content-Encoding": "gzip"}
    )


def plotly_route(base_url_path: str = "") -> Route:
    """The route that serves :data:`PLOTLY_JS`, for ``st.App(routes=...)``."""
    return Route(plotly_url(base_url_path), _plotly_js)


def preload_html(base_url_path: str = "") -> str:
    """A page's ``<head>`` part that fetches Plotly's script at once and runs it as soon
    as the page has a ``<body>`` (plotly.js reads the body as it runs: a cached script run
    from ``<head>`` left every chart empty).  ``chart.js`` waits for the promise
    ``window.__kpcaPlotly``; should the script fail to load, the chart tries again."""
    url = json.dumps(plotly_url(base_url_path))
    return (
        f'<link rel="preload" as="script" href={url}>'
        "<script>window.__kpcaPlotly = new Promise(function (resolve, reject) {"
        "var add = function () {"
        'var s = document.createElement("script"); s.src = ' + url + "; s.async = true;"
        "s.onload = function () { resolve(window.Plotly); };"
        "s.onerror = function (e) { window.__kpcaPlotly = null; reject(e); };"
        "document.head.appendChild(s); };"
        "if (document.body) { add(); return; }"
        "var watch = new MutationObserver(function () {"
        "if (document.body) { watch.disconnect(); add(); } });"
        "watch.observe(document.documentElement, { childList: true }); });"
        "window.__kpcaPlotly.catch(function () {});</script>"
    )
