"""Every gallery figure and every view's main figure fits the screen: viewport-fit checks.

Presenter mode at a projector's 1280 × 720, light and dark: the main figure's
bounding box lies inside the viewport, with the one-line "what to notice" and
the stepping control (where the view has one) on screen too, and its text at
least 16 px. At a phone's 390 × 844 every view draws without an error and its
figure is no wider than the screen. Screenshots go to the folder the run
prints; they are slow (a page load each), so marked ``slow`` too.
"""

from __future__ import annotations

import json

import pytest
from appserver import AppServer
from browser import FIGURE_JS, IDLE, VIEWPORT, WAIT_FOR_FIGURE_JS

from kpca_core.figures.style import MIN_FONT_PX
from kpca_ui.presenter import KEY, NOTICE_CLASS

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FIG2 = "contours?ct_n=300&ct_noise=0.2&ct_values=1,+2,+3,+4&ct_k=3"
SHOWN = [
    # (name, link, tab, main chart key, stepping control key or None)
    ("contours_fig2", FIG2, None, "ct_contours", "ct_k"),
    ("spectrum_rings", "spectrum?sp_data=Three+rings,+radii+1,+2,+4", None, "sp_fig_bars", "sp_at"),
    ("denoising_fig4", "denoising?dn_tab=Fig.+4+grid", None, "dn_fig4_chart", None),
    (
        "denoising_fig4_speckle",
        "denoising?dn_tab=Fig.+4+grid&dn_noise=Speckle+(salt+and+pepper)",
        None,
        "dn_fig4_chart",
        None,
    ),
    ("denoising_side_by_side", "denoising?dn_tab=Side+by+side", None, "dn_sbs_chart", "dn_n"),
    ("denoising_error", "denoising?dn_tab=Error+vs+n", None, "dn_error_chart", None),
    ("denoising_toy", "denoising?dn_tab=2-D+toy", None, "dn_toy_chart", "dn_toy_n"),
    ("demo", "demo", None, "dm_chart", None),
]
PHONE = {"width": 390, "height": 844}


def _open(page, url: str, chart: str) -> None:
    page.goto(url)
    page.wait_for_selector(IDLE, timeout=180_000)
    page.evaluate(WAIT_FOR_FIGURE_JS, [f".st-key-{chart} .js-plotly-plot", 180_000])
    page.wait_for_selector(IDLE, timeout=180_000)


def _inside(box: dict | None, viewport: dict) -> bool:
    return (
        box is not None
        and box["x"] >= 0
        and box["y"] >= 0
        and box["x"] + box["width"] <= viewport["width"] + 0.5
        and box["y"] + box["height"] <= viewport["height"] + 0.5
    )


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize(
    ("name", "link", "tab", "chart", "stepping"), SHOWN, ids=[s[0] for s in SHOWN]
)
def test_presenter_figure_fits_the_projector(
    browser, app_server: AppServer, artifacts, name, link, tab, chart, stepping, scheme
) -> None:
    context = browser.new_context(viewport=VIEWPORT, color_scheme=scheme)
    page = context.new_page()
    try:
        sep = "&" if "?" in link else "?"
        _open(page, f"{app_server.url}/{link}{sep}{KEY}=true", chart)
        page.screenshot(path=artifacts / f"fit_{name}_{scheme}.png")
        assert page.locator('[data-testid="stException"]').count() == 0
        graph = page.locator(f".st-key-{chart} .js-plotly-plot")
        assert _inside(graph.bounding_box(), VIEWPORT), f"{name}: the figure is off the screen"
        if name != "demo":
            notice = page.locator(f".{NOTICE_CLASS}").first
            assert _inside(notice.bounding_box(), VIEWPORT), f"{name}: no line of what to notice"
        if stepping is not None:
            control = page.locator(f".st-key-{stepping}").get_by_role("slider").first
            assert _inside(control.bounding_box(), VIEWPORT), f"{name}: the control is off screen"
        figure = json.loads(page.evaluate(FIGURE_JS, f".st-key-{chart} .js-plotly-plot"))
        assert figure["layout"]["font"]["size"] >= MIN_FONT_PX
    finally:
        context.close()


PAGES = ["", FIG2, "spectrum", "denoising?dn_tab=Side+by+side", "demo"]
CHARTS = [None, "ct_contours", "sp_fig_bars", "dn_sbs_chart", "dm_chart"]


@pytest.mark.parametrize(
    ("link", "chart"),
    zip(PAGES, CHARTS, strict=True),
    ids=["home", "contours", "spectrum", "denoising", "demo"],
)
def test_every_view_reads_on_a_phone(browser, app_server: AppServer, artifacts, link, chart):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        if chart is None:
            page.goto(f"{app_server.url}/{link}")
            page.wait_for_selector(IDLE, timeout=180_000)
        else:
            _open(page, f"{app_server.url}/{link}", chart)
            box = page.locator(f".st-key-{chart} .js-plotly-plot").bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        page.screenshot(
            path=artifacts / f"phone_{link.split('?')[0] or 'home'}.png", full_page=True
        )
        assert page.locator('[data-testid="stException"]').count() == 0
    finally:
        context.close()
