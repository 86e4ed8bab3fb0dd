"""Accessibility in Chromium: what the keyboard alone can do, and what a screen reader is told.

WCAG 2.1 AA: 2.1.1 (everything by keyboard), 2.4.7 (focus visible), 1.1.1 (a figure's text
alternative).  The app is served by ``tests/e2e/conftest.py``'s fixtures.
"""

from __future__ import annotations

import time

import pytest

from tests.e2e.audit import SCREENS
from tests.e2e.test_audit import load_state

pytestmark = pytest.mark.e2e

FILM = ".st-key-sp_fig_film"
"""The Spectrum's film (its chart's key)."""
FRAME_JS = f"() => document.querySelector('{FILM} .js-plotly-plot')._fullLayout.sliders[0].active"
"""The film's frame shown (its slider's step)."""


def tab_to(page, selector: str, most: int = 150) -> None:
    """Press Tab until the element matching ``selector`` has the focus (at most ``most``)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => document.activeElement.matches({selector!r})"):
            return
    raise AssertionError(f"{selector} was not reached in {most} Tab presses")


def test_the_spectrum_film_plays_and_pauses_by_keyboard(browser, app_server, tmp_path) -> None:
    """The film's ▶ play and ❚❚ pause are buttons that Tab reaches and Enter presses (they were
    SVG groups only a mouse could click): played, the frame moves on; paused, it stays."""
    context = browser.new_context(viewport=SCREENS[0].viewport)
    context.set_default_timeout(180_000)
    page = context.new_page()
    try:
        load_state(page, f"{app_server.url}/spectrum?sp_film=true", SCREENS[0], tmp_path)
        page.locator(FILM).scroll_into_view_if_needed()
        start = page.evaluate(FRAME_JS)
        tab_to(page, f'{FILM} [role="button"][aria-label="play"]')
        page.keyboard.press("Enter")
        time.sleep(2.0)
        played = page.evaluate(FRAME_JS)
        assert played != start, (start, played)
        page.keyboard.press("Tab")  # the next button: pause
        assert page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "pause"
        page.keyboard.press(" ")
        time.sleep(0.5)
        paused = page.evaluate(FRAME_JS)
        time.sleep(1.5)
        assert page.evaluate(FRAME_JS) == paused
        ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineWidth")
        assert float(ring.removesuffix("px")) >= 2, ring
        page.screenshot(path=str(tmp_path / "film_pause_focused.png"))
    finally:
        context.close()
