"""Plotly's JavaScript for :mod:`kpca_ui.chart`, served by ``serve.py`` from the ``plotly`` package.

The installed ``plotly`` Python package ships ``plotly.min.js``; it is served
as it is (never copied into this repository, never from a CDN) at
:data:`PLOTLY_PATH`, whose name carries plotly's version, so that a browser
keeps it for a year and loads it once.  Nothing here needs Streamlit's runtime:
``serve.py`` builds the route before the runtime starts.
"""

from __future__ import annotations

from pathlib import Path

import plotly
from starlette.requests import Request
from starlette.responses import FileResponse
from starlette.routing import Route

PLOTLY_JS = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
"""Plotly's JavaScript as the installed ``plotly`` package ships it."""
PLOTLY_PATH = f"/_kpca/plotly-{plotly.__version__}.min.js"
"""Where ``serve.py`` serves :data:`PLOTLY_JS` (under the server's ``baseUrlPath``)."""
CACHE_SECONDS = 365 * 24 * 3600
"""How long a browser keeps it: its path changes with plotly's version."""


def _plotly_js(_request: Request) -> FileResponse:
    return FileResponse(
        PLOTLY_JS,
        media_type="text/javascript",
        headers={"Cache-Control": f"public, max-age={CACHE_SECONDS}, immutable"},
    )


def plotly_route(base_url_path: str = "") -> Route:
    """The route that serves :data:`PLOTLY_JS`, for ``st.App(routes=...)``."""
    base = base_url_path.strip("/")
    return Route(f"/{base}{PLOTLY_PATH}" if base else PLOTLY_PATH, _plotly_js)
