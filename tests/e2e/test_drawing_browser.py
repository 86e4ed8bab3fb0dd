"""Draw your own points in a real browser: clicks, a drag, undo, the link, a damaged link."""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from browser import CANVAS, DRAW_DATA, ERROR_ALERT, EXCEPTION, IDLE, canvas_xy

pytestmark = pytest.mark.e2e

SIX = [(-1.2, 1.2), (-0.6, 0.3), (0.0, -0.3), (0.6, 0.4), (1.2, 1.3), (0.0, 1.6)]
"""Where the six clicks go, in the plane (the canvas shows ±2)."""

FIGURE_JS = """
(key) => {
  const graph = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  if (!graph || !graph.data) return null;
  const plain = (k, v) => ArrayBuffer.isView(v) ? Array.from(v) : v;
  return JSON.stringify({data: graph.data, title: graph.layout.title,
                         images: (graph.layout.images || []).map((i) => i.source)}, plain);
}
"""


def figure(page, key: str) -> dict:
    text = page.evaluate(FIGURE_JS, key)
    return json.loads(text) if text else {}


def settle(page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=60_000)


def wait_for_title(page, text: str) -> None:
    page.wait_for_function(
        """(text) => {
          const graph = document.querySelector('.st-key-ct_contours .js-plotly-plot');
          return graph && graph.layout && graph.layout.title
            && graph.layout.title.text.includes(text);
        }""",
        arg=text,
        timeout=60_000,
    )
    settle(page)


def canvas_points(page) -> int:
    return int(page.locator(CANVAS).get_attribute("data-points"))


def assert_no_error_shown(page) -> None:
    assert page.locator(EXCEPTION).count() == 0
    assert page.locator(ERROR_ALERT).count() == 0
    assert page.js_errors == []


def test_draw_six_points_drag_undo_and_reopen_the_link(page, app_server, browser):
    page.goto(f"{app_server.url}/contours?ct_data={quote(DRAW_DATA)}")
    page.wait_for_selector(CANVAS, timeout=90_000)
    settle(page)
    grids = []
    for n, (x, y) in enumerate(SIX, start=1):
        page.mouse.click(*canvas_xy(page, x, y))
        if n >= 3:
            wait_for_title(page, f"Your drawing: {n} points")
            grids.append(figure(page, "ct_contours")["images"])
        else:
            settle(page)
    assert canvas_points(page) == 6
    assert grids[-1] != grids[-2], "the grid did not change with the sixth point"
    link_of_six = page.url
    assert "ct_draw=" in link_of_six

    # drag the last point down: the projection changes
    projection = figure(page, "ct_projection")["data"]
    start = canvas_xy(page, *SIX[-1])
    end = canvas_xy(page, 0.0, 0.6)
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + end[0]) / 2, (start[1] + end[1]) / 2, steps=4)
    page.mouse.move(*end, steps=4)
    page.mouse.up()
    page.wait_for_function(
        "(before) => { const g = document.querySelector("
        "'.st-key-ct_projection .js-plotly-plot');"
        " return g && g.data && JSON.stringify(g.data, (k, v) => ArrayBuffer.isView(v) ?"
        " Array.from(v) : v) !== before; }",
        arg=json.dumps(projection),
        timeout=60_000,
    )
    settle(page)
    assert canvas_points(page) == 6
    assert page.url != link_of_six

    # undo puts the point back: the link is the six clicks' again
    page.locator("button[data-act=undo]").click()
    page.wait_for_function("(url) => location.href === url", arg=link_of_six, timeout=60_000)
    settle(page)
    assert canvas_points(page) == 6
    assert_no_error_shown(page)

    # the link in a fresh browser context shows the same six points
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    fresh = context.new_page()
    try:
        fresh.goto(link_of_six)
        fresh.wait_for_selector(CANVAS, timeout=90_000)
        wait_for_title(fresh, "Your drawing: 6 points")
        assert canvas_points(fresh) == 6
        assert fresh.locator(CANVAS).get_attribute("data-background") == "yes"
    finally:
        context.close()


def test_a_damaged_drawing_link_shows_a_notice(page, app_server):
    page.goto(f"{app_server.url}/contours?ct_data={quote(DRAW_DATA)}&ct_draw=1.2.AEzLMrMr%21%21")
    page.wait_for_selector(CANVAS, timeout=90_000)
    settle(page)
    notice = page.locator('[data-testid="stAlertContentWarning"]')
    assert "damaged" in notice.first.inner_text()
    assert canvas_points(page) == 1  # 6 bytes before the damage: groups, a point, a part
    assert_no_error_shown(page)
