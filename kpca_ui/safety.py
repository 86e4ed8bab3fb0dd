"""The safety net around each figure block: a friendly message instead of a broken page.

An unexpected exception in one block (a figure and its controls) is logged with its
traceback, and the block shows, after what it drew, a short message and a "Reset this
view" button; the rest of the page goes on working.  It hides no bugs: the random-walk
tests fail on any appearance of :data:`MESSAGE`.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import streamlit as st

from kpca_ui.settings import PREFIXES

LOGGER = logging.getLogger("kpca_ui")
MESSAGE = "Something went wrong while drawing"
"""The start of the safety net's message; the tests look for it."""


def reset_view(prefix: str) -> None:
    """Forget every setting of the view with this widget-key prefix, and its link's values.

    A button callback: the next run draws the view with its widgets' defaults.
    """
    for key in [key for key in st.session_state if str(key).startswith(f"{prefix}_")]:
        del st.session_state[key]
    for key in PREFIXES[prefix].entries if prefix in PREFIXES else ():
        st.query_params.pop(key, None)


@contextlib.contextmanager
def figure_block(prefix: str, what: str) -> Iterator[None]:
    """Run one figure block; an unexpected exception becomes a message in its place.

    Parameters
    ----------
    prefix : str
        The view's widget-key prefix (``"ct"``, ``"sp"``, ``"dn"``).
    what : str
        The block in plain words, e.g. ``"the contour grid"``; it also names the
        reset button's key, so it must be unique on the page.
    """
    # Not an st.empty(): a browser that drew its placeholder before the content arrived
    # unmounted the whole block (charts drawn anew, the canvas's undo history lost).
    holder = st.container()
    try:
        with holder:
            yield
    except Exception:  # Streamlit's stop and rerun are BaseExceptions: they pass
        LOGGER.exception("Unexpected error in %s (%s view)", what, prefix)
        with holder:  # after what the block drew before it failed
            st.warning(
                f"{MESSAGE} {what}. The rest of the page still works; a different setting "
                "may help, or start again from the view's defaults.",
                icon=":material/build:",
            )
            slug = "".join(ch if ch.isalnum() else "_" for ch in what)
            st.button(
                "Reset this view",
                key=f"{prefix}_reset_{slug}",
                on_click=reset_view,
                args=(prefix,),
                icon=":material/restart_alt:",
            )


guarded = figure_block
"""``@guarded(prefix, what)``: a function that draws one figure block, run in
:func:`figure_block` (a ``contextmanager`` is a decorator too; it returns None on failure)."""
