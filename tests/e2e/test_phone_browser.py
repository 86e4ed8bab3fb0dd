"""The app on a phone (390 × 844): nothing cut at the right, the main figure before the controls.

Before issue #31: Home's list of views and eq. (49) ran past the right edge, and
the Contours grid began ~1350 px down, below the kernel controls stacked in a column.
"""

from __future__ import annotations

import pytest
from browser import IDLE

pytestmark = [pytest.mark.e2e, pytest.mark.slow]  # ~40 s: two pages, each run twice

PHONE = {"width": 390, "height": 844}
SCROLLED = "document.querySelector('[data-testid=stMain]').scrollTop"


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(90_000)
    yield context.new_page()
    context.close()


def settled(page, url: str) -> None:
    """Open ``url`` and wait until the page has run, measured its width and run again."""
    page.goto(url)
    for _ in range(2):
        page.wait_for_selector(IDLE)
        page.wait_for_timeout(3000)
    page.wait_for_selector(IDLE)


def text_past_the_right_edge(page) -> list[str]:
    return page.evaluate(
        """() => [...document.querySelectorAll('[data-testid=stMain] *')]
          .filter(e => e.childElementCount === 0 && (e.innerText || '').trim())
          .filter(e => e.getBoundingClientRect().right > innerWidth + 1)
          .map(e => e.innerText.slice(0, 40))"""
    )


def test_home_is_not_cut_at_the_right(phone, app_server):
    settled(phone, app_server.url + "/")
    assert text_past_the_right_edge(phone) == []


def test_the_contours_grid_comes_before_the_kernel_controls(phone, app_server):
    settled(phone, app_server.url + "/contours")
    grid = phone.locator(".js-plotly-plot").first
    top = grid.evaluate(f"e => e.getBoundingClientRect().top + {SCROLLED}")
    assert top < PHONE["height"]  # on the first screen
    assert phone.get_by_text("Kernel and columns").count() == 1
    assert not phone.locator('[data-testid="stSelectbox"]:has-text("Columns sweep")').is_visible()
