"""Widget states from the browser read safely: an unreadable one is dropped, not raised.

Streamlit keeps each widget's state as the browser sent it and parses it when it is
first read, which happens before the page's script runs (callbacks, then the
compaction of the session's state).  A JSON state (the drawing canvas's, a chart's
selection) that is not JSON, or nested deeper than Python's parser goes, then raises
there on every later run of the session: the page shows "This app has encountered
an error" until it is reloaded, and nothing in the script can catch it.  A script
in the page can send either.  :func:`guard_widget_states` makes such a state read
as a cleared value (``None``, what a widget shows before any interaction), with a
line in the server's log.  Sizes are bounded before this, by
``server.maxWidgetStateSize`` in ``.streamlit/config.toml``.
"""

from __future__ import annotations

import functools
import logging
from typing import Any

from streamlit.runtime.state import session_state

LOGGER = logging.getLogger("kpca_ui")


def guard_widget_states() -> None:
    """Make Streamlit read an unparsable widget state as ``None``; idempotent.

    Not public API (``streamlit.runtime.state.session_state`` reads states with
    ``unpack_widget_state_value``); on a Streamlit without it, nothing changes.
    """
    unpack = getattr(session_state, "unpack_widget_state_value", None)
    if unpack is None or getattr(unpack, "guarded", False):
        return

    @functools.wraps(unpack)
    def guarded(widget_state: Any) -> Any:
        try:
            return unpack(widget_state)
        except (ValueError, RecursionError) as error:  # JSONDecodeError is a ValueError
            LOGGER.warning("Unreadable widget state dropped: %s", type(error).__name__)
            return None

    guarded.guarded = True  # type: ignore[attr-defined]
    session_state.unpack_widget_state_value = guarded
