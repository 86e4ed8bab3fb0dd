"""The reader's theme choice in a real browser: chosen on one page, held on every page.

Streamlit 1.67 keeps the choice per loaded path (``kpca_ui/theme.py``); before
the app copied it, choosing Dark on ``/`` and reloading ``/contours`` showed
the light theme.
"""

from __future__ import annotations

import pytest
from browser import IDLE

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # ~80 s: five pages run to their end

DARK_BACKGROUND = "rgb(23, 22, 20)"
"""The app's background in Streamlit 1.67's dark theme (its light one is white)."""


def background(page) -> str:
    return page.evaluate(
        "getComputedStyle(document.querySelector('[data-testid=stApp]')).backgroundColor"
    )


def open_page(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector('[data-testid="stMainMenu"]', timeout=90_000)
    page.wait_for_selector(IDLE, timeout=90_000)  # the page has run to its end


def choose(page, theme: str) -> None:
    """The reader's way: the main menu, then the theme's button."""
    item = page.locator(f'[data-testid="stMainMenuItem-theme-{theme}"]')
    for _ in range(10):  # the menu opens once the page's first run has settled
        page.locator('[data-testid="stMainMenu"]').first.click()
        if item.count():
            break
        page.wait_for_timeout(1000)
    item.click()
    page.keyboard.press("Escape")


def test_dark_chosen_on_home_holds_on_a_reloaded_page_and_a_link(page, app_server):
    open_page(page, app_server.url + "/")
    assert background(page) != DARK_BACKGROUND
    choose(page, "Dark")
    assert background(page) == DARK_BACKGROUND
    page.wait_for_timeout(2500)  # the copy looks once a second
    for path in ("/contours", "/features?fe_tab=USPS%3A+Table+2", "/"):
        open_page(page, app_server.url + path)
        assert background(page) == DARK_BACKGROUND, path
    page.reload()
    page.wait_for_selector('[data-testid="stMainMenu"]')
    assert background(page) == DARK_BACKGROUND
    # and back: Light chosen on /contours holds on /
    open_page(page, app_server.url + "/contours")
    choose(page, "Light")
    page.wait_for_timeout(2500)
    open_page(page, app_server.url + "/")
    assert background(page) != DARK_BACKGROUND
