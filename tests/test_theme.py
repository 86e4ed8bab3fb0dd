"""The theme script (kpca_ui/theme.py) outside a running app."""

from __future__ import annotations

from kpca_ui.theme import hold_theme_choice


class NoURL:
    """A page as a worker process spawned from ``app.py`` has it: no URL path."""

    @property
    def url_path(self) -> str:
        raise AttributeError("'Page' object has no attribute '_url_path'")


def test_a_bare_run_of_app_py_draws_nothing_and_reads_no_page():
    # a worker process spawned from app.py runs it bare: it crashed there once
    assert hold_theme_choice([NoURL()]) is None
