"""The Features view in a real browser: the toy redraws as n moves, a drawing is classified,
Table 2 is drawn.

Kept apart from ``bench/browser.py``'s ``VIEWS`` so that the load test and the
latency bench keep their three views.
"""

from __future__ import annotations

import dataclasses
from urllib.parse import quote

import pytest
from appserver import AppServer
from browser import (
    CANVAS,
    DRAW_DATA,
    IDLE,
    View,
    canvas_xy,
    open_view,
    press_and_time,
    slider_value,
    url_params,
)

from e2e.test_browser import assert_drawn, assert_no_error_shown

pytestmark = pytest.mark.e2e

TOY = View(
    "features",
    "features",
    "ft_k=12",
    slider="ft_k",
    chart="ft_toy_chart",
    shows="Correct on 12 kernel components",
    what="kernel components n of the toy: two SVMs and the decision regions",
)


def test_features_toy_redraws_when_n_moves(page, app_server: AppServer, artifacts) -> None:
    open_view(page, TOY, app_server.url)
    assert_no_error_shown(page)
    # the scores under the figure: drawn by the run that ends once the page's width is
    # measured, which may come after the first figure (CI once read the page between them)
    page.get_by_text(TOY.shows).first.wait_for(timeout=30_000)
    before = assert_drawn(page, TOY)
    start = slider_value(page, TOY)
    times = press_and_time(page, TOY, "ArrowRight")
    assert times["drawn"] is not None, "the toy's figure did not change"
    assert slider_value(page, TOY) == start + 1
    assert assert_drawn(page, TOY)["layout"] != before["layout"]
    assert url_params(page)["ft_k"] == ["13"]
    assert_no_error_shown(page)
    page.screenshot(path=artifacts / "features-toy.png")


def test_features_toy_classifies_a_drawing_by_its_groups(
    page, app_server: AppServer, artifacts
) -> None:
    page.goto(f"{app_server.url}/features?ft_data={quote(DRAW_DATA)}")
    page.wait_for_selector(CANVAS, timeout=90_000)
    canvas = page.locator(CANVAS)

    def click(x: float, y: float, points: int) -> None:
        page.mouse.click(*canvas_xy(page, x, y))
        assert canvas.get_attribute("data-points") == str(points)
        page.wait_for_timeout(300)  # the edit's rerun starts
        page.wait_for_selector(IDLE, timeout=60_000)

    for n, (x, y) in enumerate([(-0.2, 0.0), (0.2, 0.1), (0.0, -0.2)], start=1):
        click(x, y, n)
    assert page.get_by_text("at least two groups").count() > 0
    assert canvas.get_attribute("data-background") == "no"
    page.locator("button[data-group='2']").click()
    for n, (x, y) in enumerate([(1.5, 0.0), (-1.5, 0.0), (0.0, 1.5), (0.0, -1.5)], start=4):
        click(x, y, n)
    page.wait_for_selector(".st-key-ft_toy_chart .js-plotly-plot", timeout=60_000)
    assert page.get_by_text("Correct on 6 kernel components").count() > 0
    assert canvas.get_attribute("data-background") == "yes"
    assert "ft_draw" in url_params(page)
    assert_no_error_shown(page)
    page.screenshot(path=artifacts / "features-drawing.png", full_page=True)


def test_features_table2_is_drawn(page, app_server: AppServer, artifacts) -> None:
    table = dataclasses.replace(TOY, query="ft_tab=USPS%3A%20Table%202", chart="ft_table_chart")
    open_view(page, table, app_server.url)
    assert_no_error_shown(page)
    figure = assert_drawn(page, table)
    assert [trace["type"] for trace in figure["data"]] == ["heatmap", "heatmap"]
    assert page.get_by_text("Claim ii").count() > 0
    page.screenshot(path=artifacts / "features-table2.png", full_page=True)
