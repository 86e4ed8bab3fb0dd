"""Every use of Streamlit beyond its public API, in one place.

The app calls Streamlit through its public API everywhere else.  What it cannot
do that way is here, each with why it is needed; ``tests/test_adapter.py`` pins
what each assumes and fails loudly on a Streamlit release that changes it, so
that an upgrade is a decision, not a silent break.

- :func:`in_script_run`: whether the calling thread runs a session's script.
  The warm-up and the live route call the views' figure functions outside any
  script run; a progress bar must then not be drawn (Streamlit logs "missing
  ScriptRunContext" for each element).
- :func:`interruption_point`: a session that waits for a worker process checks
  whether Streamlit asked its script to stop (a new setting, the browser gone,
  the server stopping), so that the computation it waits for is cancelled.
  Streamlit checks this itself at every element a script draws; a script that
  waits on a future draws none.
- :data:`THEME_KEY`: the browser's record of the reader's Light/Dark choice,
  which :mod:`kpca_ui.theme` copies to every page of the app (Streamlit keeps it
  per loaded path).
"""

from __future__ import annotations

from streamlit.runtime.scriptrunner import get_script_run_ctx

TESTED_WITH = ("1.67",)
"""The Streamlit releases (major.minor) whose internals this module was checked against."""

THEME_KEY = "stActiveTheme-{path}-v2"
"""Streamlit's ``localStorage`` key of the theme chosen on the page loaded at ``path``."""


def in_script_run() -> bool:
    """Whether the calling thread runs a session's script (so it may draw elements)."""
    return get_script_run_ctx(suppress_warning=True) is not None


def interruption_point() -> None:
    """Raise Streamlit's rerun or stop exception if the session's script should stop.

    Outside a script run (the warm-up, a thread of :func:`kpca_ui.workers.concurrently`)
    nothing happens.
    """
    context = get_script_run_ctx(suppress_warning=True)
    if context is not None:
        context.yield_check()
