"""Accessibility in Chromium: what the keyboard alone can do, and what a screen reader is told.

WCAG 2.1 AA: 2.1.1 (everything by keyboard), 2.4.7 (focus visible), 1.1.1 (a figure's text
alternative).  The app is served by ``tests/e2e/conftest.py``'s fixtures.
"""

from __future__ import annotations

import re
import time

import pytest

from tests.e2e.accessibility import axe_breaches
from tests.e2e.audit import SCREENS
from tests.e2e.test_audit import SETTLE_S, load_state

pytestmark = pytest.mark.e2e

FILM = ".st-key-sp_fig_film"
"""The Spectrum's film (its chart's key)."""
FRAME_JS = f"() => document.querySelector('{FILM} .js-plotly-plot')._fullLayout.sliders[0].active"
"""The film's frame shown (its slider's step)."""


FOCUSED_JS = """(selector) => {
  let e = document.activeElement;  // inside a component's shadow root: its own active element
  while (e && e.shadowRoot && e.shadowRoot.activeElement) e = e.shadowRoot.activeElement;
  return Boolean(e && e.matches(selector));
}"""


def tab_to(page, selector: str, most: int = 200) -> None:
    """Press Tab until the element matching ``selector`` has the focus (at most ``most``)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_JS, selector):
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
        # its slider, which only a mouse could drag: the keys show a frame
        slider = f'{FILM} [role="slider"]'
        tab_to(page, slider)
        steps = page.evaluate(FRAME_JS.replace(".active", ".steps.length"))
        for key, frame in (("End", steps - 1), ("Home", 0), ("ArrowRight", 1), ("PageUp", 11)):
            page.keyboard.press(key)
            page.wait_for_function(f"() => ({FRAME_JS})() === {frame}")
        assert page.get_by_role("slider", name="frame").count() == 1  # not aria-hidden
        told = page.locator(slider).get_attribute("aria-valuetext")
        assert told.endswith(f"frame 12 of {steps}"), told
        page.screenshot(path=str(tmp_path / "film_slider_focused.png"))
    finally:
        context.close()


DESCRIBED_JS = """(key) => {
  const plot = document.querySelector(`.st-key-${key} .main-svg[role="img"]`);
  const said = plot && document.getElementById(plot.getAttribute('aria-describedby'));
  return plot && {name: plot.getAttribute('aria-label'), text: said ? said.textContent : ''};
}"""
"""The accessible name and description of the chart with widget key ``key``."""
FIRST = re.compile(r"kPC 1: λ = ([\d.e+-]+) \(([\d.]+)% of the variance\)")
"""The first component's λ and share in a panel's words."""


def test_home_to_contours_and_a_new_kernel_by_keyboard_alone(browser, app_server, tmp_path):
    """Keyboard only: from Home, Tab to the navigation's Contours and press Enter; Tab to
    the kernel, choose "Gaussian" by typing; the grid's chart then says, as its accessible
    description, the first component's λ and share under the new kernel, as its panel
    title shows them."""
    context = browser.new_context(viewport=SCREENS[0].viewport)
    context.set_default_timeout(180_000)
    page = context.new_page()
    try:
        load_state(page, app_server.url, SCREENS[0], tmp_path)
        tab_to(page, 'a[href$="/contours"]')
        page.keyboard.press("Enter")
        page.wait_for_url("**/contours")
        page.wait_for_selector(".st-key-ct_contours .main-svg[role='img']")
        time.sleep(SETTLE_S)
        before = page.evaluate(DESCRIBED_JS, "ct_contours")
        assert FIRST.search(before["text"]), before
        tab_to(page, '.st-key-ct_kernel input[role="combobox"]')
        page.keyboard.type("Gaussian")
        page.keyboard.press("Enter")
        page.wait_for_function(
            f"() => ({DESCRIBED_JS})('ct_contours')?.text.includes('σ')", timeout=120_000
        )
        after = page.evaluate(DESCRIBED_JS, "ct_contours")
        assert after["text"] != before["text"]
        number, share = FIRST.search(after["text"]).groups()
        titles = page.evaluate(
            """() => [...document.querySelectorAll('.st-key-ct_contours .annotation')]
                   .map((a) => a.textContent)"""
        )
        assert any(f"λ = {number} ({share}%)" in title for title in titles), (after, titles)
    finally:
        context.close()


KEY_STATES = ("", "contours", "spectrum", "denoising", "lesson?step=3")
"""Home, Contours' Fig. 2, the Spectrum, Denoising's Fig. 4 and a lesson's slide."""
UNNAMED_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].filter((graph) => {
  const plot = graph.querySelector('.main-svg');
  const said = plot && document.getElementById(plot.getAttribute('aria-describedby') || '');
  return !(plot && plot.getAttribute('role') === 'img' && plot.getAttribute('aria-label')
           && said && /[a-z]{3} [a-z]{3}/.test(said.textContent));
}).length"""
"""How many charts of a page are not one image with a name and a description in words (their
numbers: ``tests/test_figure_words.py``)."""


@pytest.mark.parametrize("screen", SCREENS[:4], ids=lambda s: s.name)
def test_key_states_have_no_serious_axe_violation(browser, app_server, tmp_path, screen):
    """axe-core over Home, Contours, Spectrum, Denoising and a lesson's slide on the laptop's,
    the presenter's, the phone's and the dark screens: no serious or critical violation of
    WCAG 2.1 AA (on a phone, Home's equation (49) overflowed its column by 2 px, a region
    scrolled without a keyboard's access), and every chart is an image named and described
    in words and numbers."""
    context = browser.new_context(
        viewport=screen.viewport, color_scheme="dark" if screen.dark else "light"
    )
    context.set_default_timeout(180_000)
    page = context.new_page()
    found = []
    try:
        for state in KEY_STATES:
            load_state(page, f"{app_server.url}/{state}", screen, tmp_path)
            found += [f"{state or 'home'}: {line}" for line in axe_breaches(page)]
            for frame in page.frames:
                unnamed = frame.evaluate(UNNAMED_JS)
                if unnamed:
                    found.append(f"{state or 'home'}: {unnamed} charts without words")
    finally:
        context.close()
    assert not found, "\n".join(found)


def test_the_collapsed_sidebar_takes_no_tab_stop(browser, app_server, tmp_path) -> None:
    """On the Lesson, whose sidebar starts collapsed, Tab never lands on a control off the
    screen (15 Tab stops were the hidden sidebar's, at x = −298 px), and every control it
    lands on shows a ring of at least 2 px."""
    context = browser.new_context(viewport=SCREENS[0].viewport)
    context.set_default_timeout(180_000)
    page = context.new_page()
    try:
        load_state(page, f"{app_server.url}/lesson?step=1", SCREENS[0], tmp_path)
        for _ in range(20):
            page.keyboard.press("Tab")
            focused = page.evaluate(
                """() => { const e = document.activeElement;
                  const target = e.closest('label') && e.matches('input') ? e.closest('label') : e;
                  return {x: e.getBoundingClientRect().right, tag: e.tagName,
                          ring: parseFloat(getComputedStyle(target).outlineWidth) || 0}; }"""
            )
            assert focused["x"] > 0, focused
            if focused["tag"] not in ("BODY", "IFRAME", "MAIN"):
                assert focused["ring"] >= 2, focused
    finally:
        context.close()
