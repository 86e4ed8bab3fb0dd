"""The safety net: an unexpected exception in one figure block is a message there, not a crash."""

from __future__ import annotations

import logging

import pytest
import streamlit as st
from conftest import chart, open_view

from kpca_core.figures import contours as contour_figures
from kpca_ui.safety import MESSAGE


def safety_messages(at) -> list[str]:
    return [w.value for w in at.warning if w.value.startswith(MESSAGE)]


def test_a_failing_figure_block_shows_a_message_and_the_rest_of_the_page_works(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
):
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug nobody foresaw")

    # only this patch is undone below: monkeypatch.undo() would also undo the autouse
    # fixture's KPCA_WARMUP=0, and the next run would start a real warm-up thread
    with monkeypatch.context() as patch, caplog.at_level(logging.ERROR, logger="kpca_ui"):
        patch.setattr(contour_figures, "projection_figure", broken)
        at = open_view("contours", query={"ct_k": "4"})
    assert not at.exception
    assert safety_messages(at) == [
        f"{MESSAGE} the projection. The rest of the page still works; a different setting "
        "may help, or start again from the view's defaults."
    ]
    assert "a bug nobody foresaw" in caplog.text and "Traceback" in caplog.text
    # the rest of the page: the contour grid, the downloads, the link
    assert chart(at, "ct_contours")["data"]
    assert any(p.key == "ct_numbers" for p in at.get("popover"))
    assert at.sidebar.get("popover") or at.get("popover")

    at.button(key="ct_reset_the_projection").click().run()
    assert not at.exception
    assert safety_messages(at) == []
    assert at.slider(key="ct_k").value == 3  # the view's default again
    assert "ct_k" not in at.query_params


def test_a_figure_block_is_not_drawn_into_a_placeholder(monkeypatch: pytest.MonkeyPatch):
    """A block inside ``st.empty()`` is sent as the placeholder first, then its content:
    when a busy server flushed between the two, the browser drew the placeholder and
    unmounted the block (the drawing canvas lost its undo history: the flaky Undo of
    tests/e2e/test_drawing_browser.py; charts were drawn anew)."""

    def no_placeholder() -> None:
        raise AssertionError("st.empty() called")

    with monkeypatch.context() as patch:
        patch.setattr(st, "empty", no_placeholder)
        at = open_view("contours", query={"ct_data": "Draw your own points"})
    assert not at.exception
    assert safety_messages(at) == []
