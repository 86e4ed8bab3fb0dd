"""Kernel PCA Explorer's server: ``python3 -m streamlit run serve.py``.

Serves the app (``app.py``) and, from the moment the server starts, warms it up
in the background (:mod:`kpca_ui.warmup`): worker processes spawned, the
gallery's presets computed.  It prints one line when the app answers and one
when the warm-up has finished.
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import streamlit as st


@asynccontextmanager
async def warm_up(app: st.App) -> AsyncIterator[None]:
    """Start the warm-up once Streamlit's runtime runs; stop its watch at shutdown."""
    from kpca_ui import warmup  # after the runtime has started: its caches are the real ones

    stop = warmup.start()
    yield
    if stop is not None:
        stop.set()


app = st.App("app.py", lifespan=warm_up)
