"""A first visit in a real browser: what shows while the page loads, and what is loaded.

A fresh browser context at 1280 × 720 (no cache, no session), as a student
opening the lecturer's link. Timings are ``bench/cold_start.py``'s business;
these tests check behaviour only.
"""

from __future__ import annotations

import time

import pytest
from appserver import AppServer
from browser import IDLE, VIEWPORT

from kpca_ui.presenter import SLIDE
from kpca_ui.views import lesson

pytestmark = pytest.mark.e2e

FIGURE_IN_FRAME_JS = "() => !!document.querySelector('.js-plotly-plot .main-svg')"


def test_the_lessons_view_is_loaded_once(browser, app_server: AppServer) -> None:
    """The Lesson embeds the step's view (a whole app in a frame) once: not again for
    another width while the sidebar closes, nor in a loop of the sidebar opening and
    closing on every run (which loaded it 2-10 times before it settled)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(90_000)
    page = context.new_page()
    loads: list[str] = []
    page.on(
        "request",
        lambda request: (
            loads.append(request.url)
            if request.resource_type == "document" and f"{SLIDE}=true" in request.url
            else None
        ),
    )
    try:
        page.goto(f"{app_server.url}/lesson")
        page.wait_for_selector(f".st-key-{lesson.VIEW} iframe")
        frame = page.frame_locator(f".st-key-{lesson.VIEW} iframe")
        frame.locator(".js-plotly-plot .main-svg").first.wait_for()
        page.wait_for_selector(IDLE)
        time.sleep(3)  # a reload would start within the listener's settling time
        assert len(loads) == 1, loads
    finally:
        context.close()
