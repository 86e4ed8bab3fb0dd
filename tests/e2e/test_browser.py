"""The app in a real browser: preset links, drawn figures, keyboard sliders, the URL.

Each view is opened from its preset link (the settings in the query string),
must draw its main figure without an error on screen, and must redraw it when
its slider moves by one step with the keyboard, with the new value in the URL;
that URL, opened again, must show the same figure.
Screenshots go to the folder the run prints at the end.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest
from appserver import AppServer
from browser import (
    ERROR_ALERT,
    EXCEPTION,
    IDLE,
    VIEWS,
    View,
    figure_json,
    open_view,
    press_and_time,
    slider_text,
    slider_value,
    url_params,
)
from conftest import decode

from kpca_ui.shell import NAVIGATION

pytestmark = pytest.mark.e2e

PAGE_TITLES = {"contours": "Contours", "spectrum": "Spectrum", "denoising": "Denoising"}
"""Titles the app's navigation (``app.py``) gives the views."""


def assert_no_error_shown(page) -> None:
    """No exception box, no ``st.error`` message, no uncaught JavaScript error."""
    exceptions = page.locator(EXCEPTION)
    assert exceptions.count() == 0, exceptions.first.inner_text()
    errors = page.locator(ERROR_ALERT)
    assert errors.count() == 0, errors.first.inner_text()
    assert page.js_errors == []


def plain(value):
    """Figure JSON with every typed array (``{"dtype", "bdata"}``) a list, numbers as float32.

    The browser keeps an array in the form it arrived in: typed when the page
    drew a frame it was sent beforehand (a scrubbed width), a list when it drew
    the server's figure. The same picture is the same numbers in either form.
    """
    if isinstance(value, dict):
        if "bdata" in value:
            return plain(decode(value).tolist())
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, list):
        return [plain(item) for item in value]
    if isinstance(value, float):  # NaN (a gap) as None: NaN is unequal to itself
        return None if np.isnan(value) else float(np.float32(value))
    return value


def figure_data(page, view: View) -> list:
    """The main figure's traces as drawn, in the :func:`plain` form."""
    return plain(json.loads(figure_json(page, view))["data"])


def assert_drawn(page, view: View) -> dict:
    """The main figure has data and drawn marks (SVG traces or a WebGL canvas)."""
    figure = plain(json.loads(figure_json(page, view)))
    assert figure["data"], f"{view.name}: the figure has no traces"
    graph = page.locator(view.chart_selector).first
    marks = graph.locator("g.trace, g.contour, g.hm image, .gl-container canvas").count()
    assert marks > 0, f"{view.name}: nothing is drawn in the figure"
    return figure


def same_value(url_text: str | None, shown: str) -> bool:
    """Whether a URL's value is the one the slider shows (as numbers when they are)."""
    if url_text is None:
        return False
    try:
        return float(url_text) == pytest.approx(float(shown))
    except ValueError:
        return url_text == shown


def url_value(page, key: str) -> str | None:
    """The value the page's URL carries for a widget key (``None`` when absent)."""
    values = url_params(page).get(key)
    return values[-1] if values else None


def test_home_links_every_view(page, app_server: AppServer, artifacts) -> None:
    page.goto(app_server.url)
    page.wait_for_selector(IDLE)
    assert page.locator("h1").first.inner_text() == "Kernel PCA Explorer"
    for view in VIEWS:
        link = page.locator(f'a[href$="/{view.path}"]')
        assert link.count() >= 1, f"no link to the {view.name} view on the home page"
    assert_no_error_shown(page)
    page.screenshot(path=artifacts / "home.png")


def drawn_data(page, view: View, expected: list, timeout_ms: float = 30_000) -> list:
    """The figure's data once it is ``expected`` (or at ``timeout_ms``): a scrubbed frame
    (Denoising's n: its greys quantised) is drawn at once, the server's figure when it
    comes, which on a busy machine can be after the page looked settled."""
    for _ in range(int(timeout_ms / 250)):
        data = figure_data(page, view)
        if data == expected:
            break
        page.wait_for_timeout(250)
    return data


@pytest.mark.parametrize("view", VIEWS, ids=[view.name for view in VIEWS])
def test_view_redraws_when_its_slider_moves(
    page, app_server: AppServer, artifacts, view: View
) -> None:
    open_view(page, view, app_server.url)
    assert_no_error_shown(page)
    assert page.get_by_text(view.shows).count() > 0, f"the page ignored its link {page.url}"
    before = assert_drawn(page, view)
    start, start_text = slider_value(page, view), slider_text(page, view)

    times = press_and_time(page, view, "ArrowRight")
    assert times["drawn"] is not None, f"{view.name}: the figure did not change"
    moved = slider_value(page, view)
    assert moved > start
    after = assert_drawn(page, view)
    assert after["data"] != before["data"]
    settle_link(page, lambda: same_value(url_value(page, view.slider), slider_text(page, view)))
    assert same_value(url_value(page, view.slider), slider_text(page, view)), (
        f"the URL {page.url} does not carry {view.slider}={slider_text(page, view)}"
    )
    assert_no_error_shown(page)
    page.screenshot(path=artifacts / f"{view.name}.png")

    shared = page.context.new_page()
    open_view(shared, dataclasses.replace(view, query=urlsplit(page.url).query), app_server.url)
    assert figure_data(shared, view) == after["data"], (
        f"the link {page.url} does not reopen the same picture"
    )
    shared.close()

    press_and_time(page, view, "ArrowLeft")
    assert slider_value(page, view) == pytest.approx(start)
    assert drawn_data(page, view, before["data"]) == before["data"]
    # the figure is back from the look-ahead at once; the key's run writes the link after
    settle_link(page, lambda: url_value(page, view.slider) in (None, start_text))
    back = url_value(page, view.slider)
    assert back is None or same_value(back, start_text)
    assert_no_error_shown(page)


def settle_link(page, written, tries: int = 40) -> None:
    """Wait (up to ``tries`` quarter seconds after each run) until ``written()`` holds."""
    for _ in range(tries):
        page.wait_for_selector(IDLE)
        if written():
            return
        page.wait_for_timeout(250)


@pytest.mark.parametrize("view", VIEWS, ids=[view.name for view in VIEWS])
def test_bad_link_value_falls_back(page, app_server: AppServer, view: View) -> None:
    """A link with a nonsense slider value opens the view, drawn, without an error."""
    bad = dataclasses.replace(view, query=f"{view.slider}=not-a-number")
    open_view(page, bad, app_server.url)
    assert_no_error_shown(page)
    assert_drawn(page, bad)


def test_preset_link_on_a_fresh_server_runs_the_app(page) -> None:
    """The first visitor of a new server who follows a bookmark gets the app's pages.

    With the page scripts in a ``pages/`` folder, Streamlit started in its older
    multipage mode and listed the folder's scripts in the sidebar for the first
    seconds (issue #13): the navigation, watched from the first paint until the
    page is drawn, must only ever name the app's pages.
    """
    view = VIEWS[0]
    seen: set[str] = set()
    with AppServer() as fresh:
        page.goto(view.link(fresh.url))
        for _ in range(600):
            links = page.locator('[data-testid="stSidebarNav"] a')
            # the last line: an icon's name shows as text until its font is loaded
            seen.update(text.split()[-1] for text in links.all_inner_texts() if text.strip())
            if page.locator(view.chart_selector).count() and page.locator(IDLE).count():
                break
            page.wait_for_timeout(50)
        navigation = page.locator('[data-testid="stSidebarNav"]').inner_text()
    for title in PAGE_TITLES.values():
        assert title in navigation
    assert seen <= {title for _, title, _ in NAVIGATION}, seen


def test_a_csv_built_on_click_downloads(page, app_server: AppServer) -> None:
    """The Contours view's eigenvalues, built when their popover is opened, arrive whole."""
    open_view(page, VIEWS[0], app_server.url)
    page.get_by_role("button", name="The numbers (CSV)").click()
    with page.expect_download() as download:
        page.get_by_role("button", name="Eigenvalues (CSV)").click()
    assert download.value.suggested_filename.startswith("contours-eigenvalues_")
    lines = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
    assert len(lines) > 1 and "," in lines[0], lines[:3]
    assert_no_error_shown(page)
