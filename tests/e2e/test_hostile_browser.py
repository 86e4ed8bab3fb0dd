"""Hostile links in Chromium (issue #35, items 1 and 2): what a student would see.

A link with −0 in a noise or σ replaced the page with "This app has encountered an
error" (or the safety net); a drawing link's size field came out as a live link,
red text or a reversed line inside the app's own warning.
"""

from __future__ import annotations

from urllib.parse import quote

import pytest
from browser import CANVAS, DRAW_DATA, EXCEPTION, IDLE

from kpca_ui.safety import MESSAGE

pytestmark = pytest.mark.e2e

WARNING = '[data-testid="stAlertContentWarning"]'


def settle(page) -> None:
    page.wait_for_timeout(500)
    page.wait_for_selector(IDLE, timeout=120_000)


@pytest.mark.parametrize(
    ("name", "query"),
    [
        ("ct_noise", "ct_noise=-0"),
        ("sp_noise", "sp_noise=-0.0&sp_n=100&sp_nw=20"),
        ("dn_sigma", "dn_sigma=-1e-400&dn_train=10&dn_test=5"),
    ],
)
def test_a_negative_zero_link_opens_the_page(page, app_server, artifacts, name, query):
    path = {"ct": "contours", "sp": "spectrum", "dn": "denoising"}[name[:2]]
    page.goto(f"{app_server.url}/{path}?{query}")
    settle(page)
    page.wait_for_selector('[data-testid="stToast"]', timeout=60_000)
    page.screenshot(path=str(artifacts / f"hostile-negative-zero-{name}.png"))
    assert page.locator(EXCEPTION).count() == 0
    assert MESSAGE not in page.inner_text("body")
    assert "is not allowed here" in page.locator('[data-testid="stToast"]').first.inner_text()
    assert page.js_errors == []


@pytest.mark.parametrize(
    ("name", "size"),
    [("link", "[Login](//x)"), ("red", ":red[HACKED]"), ("bidi", "\u202e2")],
)
def test_a_drawing_links_size_field_shows_as_no_markup(page, app_server, artifacts, name, size):
    link = f"1.{size}.EH_3_7_r_r_n_w"
    page.goto(f"{app_server.url}/contours?ct_data={quote(DRAW_DATA)}&ct_draw={quote(link)}")
    page.wait_for_selector(CANVAS, timeout=120_000)
    settle(page)
    warning = page.locator(WARNING).filter(has_text="unknown size")
    page.screenshot(path=str(artifacts / f"hostile-drawing-size-{name}.png"))
    text = warning.first.inner_text()
    assert warning.first.locator("a").count() == 0  # no live link
    assert "Login" not in text and "HACKED" not in text and "\u202e" not in text
    assert warning.first.locator('[style*="color"]').count() == 0  # no :red[...] text
    assert page.locator(EXCEPTION).count() == 0
