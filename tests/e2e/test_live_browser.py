"""The picture follows the hand (issue #36): a slider's drag shows pictures before its release.

The Spectrum's chosen width has every width's spectrum in the sweep: the page
sends them once with the bars figure (``kpca_ui/chart.py``'s frames), and the
chosen-width marks at every width with the three sweep figures, and the
browser draws the ones under the thumb while it is dragged.  Denoising's n
likewise: the side-by-side grid at every n is made in the background and sent
once made.  The fixed point's steps play in the browser from the figure's
frames.  The Contours
noise is continuous: while its slider is held, the grid's chart asks for the grid
at the value under the thumb (``kpca_ui/live.py``, the newest value winning), and
while a drawn point is dragged, for the grid of the drawing; reached by the keyboard,
the grid one step along is asked for ahead, so that an arrow key draws it at once.  With
``st.plotly_chart`` (as before, or ``KPCA_CHART=plotly``) the figures changed
only after the release.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from urllib.parse import urlencode

import pytest
from browser import (
    IDLE,
    VIEWS,
    canvas_xy,
    drag_and_count,
    drawing_link,
    open_view,
    open_with_frames,
    slider_text,
    thumb_xy,
    url_params,
)

from kpca_ui.views.contours_grid import HELD_RESOLUTION

pytestmark = [pytest.mark.e2e]

SPECTRUM = next(view for view in VIEWS if view.name == "spectrum")
LINES = ".st-key-sp_fig_lines .js-plotly-plot"
"""The first sweep figure: its dashed line and label mark the chosen width."""


def bars_title(page) -> str:
    return page.evaluate(
        "() => document.querySelector('.st-key-sp_fig_bars .js-plotly-plot').layout.title.text"
    )


def test_dragging_the_chosen_width_shows_its_spectrum_before_the_release(page, app_server):
    open_view(page, SPECTRUM, app_server.url)
    started = slider_text(page, SPECTRUM)
    result = drag_and_count(page, SPECTRUM, seconds=2.0, moves=30, also=[LINES])
    assert result["before"] > 1, result  # pictures while the thumb was held
    assert result["also"][LINES] > 1, result  # the sweep figure's marks moved too
    page.wait_for_selector(IDLE)
    released = slider_text(page, SPECTRUM)
    assert released != started
    # the link and the figure are those of the released width, once the server has run
    assert url_params(page)["sp_at"] == [released]
    assert f"= {released}<br>" in bars_title(page)
    marked = page.evaluate(
        f"() => document.querySelector('{LINES}').layout.annotations"
        ".filter((a) => a.name === 'chosen').map((a) => a.text)"
    )
    assert len(marked) == 1 and marked[0].endswith(f"= {released}")
    assert page.locator(".st-key-sp_fig_bars .js-plotly-plot .main-svg").count() >= 1
    assert not page.js_errors


BARS = ".st-key-sp_fig_bars .js-plotly-plot"


def test_a_held_width_moves_the_bars_in_place_under_the_title_of_its_width(page, app_server):
    """While the thumb is held, the bars are moved without a whole redraw of the figure
    (no ``plotly_afterplot``: chart.js's glide), the drawn title names the held width and
    every trace stays drawn (plotly dropped the linear PCA markers a transition left out)."""
    open_view(page, SPECTRUM, app_server.url)
    drawn = (
        f"() => {{ const g = document.querySelector('{BARS}');"
        " return {title: g.querySelector('.gtitle').textContent,"
        " points: g.querySelectorAll('.scatterlayer .point').length,"
        " bars: Array.from(g.querySelectorAll('.barlayer .point path'), (e) => e.getAttribute('d'))"
        ".join(), redraws: window.__redraws}; }"
    )
    page.evaluate(
        f"() => document.querySelector('{BARS}').on('plotly_afterplot', () => {{"
        " window.__redraws = (window.__redraws || 0) + 1; })"
    )
    before = page.evaluate(drawn)
    _, (x, y) = thumb_xy(page, SPECTRUM)
    page.mouse.move(x, y)
    page.mouse.down()
    for step in range(1, 13):
        page.mouse.move(x - 15 * step, y)
        page.wait_for_timeout(50)
    page.wait_for_timeout(500)
    held = slider_text(page, SPECTRUM)
    during = page.evaluate(drawn)
    page.mouse.up()
    page.wait_for_selector(IDLE)
    assert during["redraws"] is None, during  # no whole redraw while held
    assert f"= {held}" in during["title"], (held, during["title"])
    assert during["bars"] != before["bars"], (before["title"], during["title"], held)
    assert during["points"] == before["points"] > 0  # the cumulative share's and linear PCA's
    assert not page.js_errors


CONTOURS = next(view for view in VIEWS if view.name == "contours")


def grid_title(page) -> str:
    return page.evaluate(
        "() => document.querySelector('.st-key-ct_contours .js-plotly-plot').layout.title.text"
    )


PROJECTION = ".st-key-ct_projection .js-plotly-plot"
"""The projection under the grid: it keeps its picture while the noise is dragged."""


def test_dragging_the_noise_redraws_the_contour_grid_before_the_release(page, app_server):
    open_view(page, CONTOURS, app_server.url)
    result = drag_and_count(page, CONTOURS, seconds=2.0, moves=30, also=[PROJECTION])
    assert result["before"] > 1, result  # grids refitted while the thumb was held
    assert result["also"][PROJECTION] == 0, result  # only the grid follows the hand
    page.wait_for_selector(IDLE)
    released = float(slider_text(page, CONTOURS))
    assert [float(value) for value in url_params(page)["ct_noise"]] == [released]
    assert f"noise {released:g}," in grid_title(page)
    assert not page.js_errors


GRID_DRAWS_JS = """() => {
  const graph = document.querySelector('.st-key-ct_contours .js-plotly-plot');
  window.__gridDraws = [];
  const drawn = () => {
    const image = graph.layout.images.find((i) => i.name !== 'data');
    const png = atob(image.source.split(',')[1].slice(0, 32));
    const width = [16, 17, 18, 19].reduce((w, i) => w * 256 + png.charCodeAt(i), 0);
    window.__gridDraws.push({title: graph.layout.title.text, pixels: width});
  };
  graph.on('plotly_afterplot', drawn);
  graph.on('plotly_relayout', drawn); // a held grid set in place (chart.js, swap)
}"""
"""Records each drawing of the grid: its title and its panels' resolution (the width of a
colour picture's PNG: the held grid's is 50, the page's 100)."""


def page_grid_drawn(page) -> list[dict]:
    """The grid's drawings recorded (:data:`GRID_DRAWS_JS`) until the page's run is over and
    its own grid, at the chosen resolution (100), drawn."""
    page.wait_for_selector(IDLE)
    page.wait_for_function("() => window.__gridDraws.some((d) => d.pixels === 100)")
    return page.evaluate("() => window.__gridDraws")


LIVE_ASKED_JS = """() => performance.getEntriesByType('resource')
  .filter((e) => e.name.includes('/_kpca/live/'))
  .map((e) => ({value: new URL(e.name).searchParams.get('value'), start: e.startTime}))"""


def test_a_key_press_on_the_noise_draws_the_grid_asked_for_ahead_at_once(page, app_server):
    """The noise slider reached by the keyboard: the grid one step either way is asked for
    ahead, so an arrow key's value is drawn at once (50 × 50) while the page's run makes
    the grid at the chosen resolution, which then replaces it; after the key, one step
    either way again, onward first (a key back, a lecturer's wiggle, is drawn at once too)."""
    open_view(page, CONTOURS, app_server.url)
    thumb = CONTOURS.slider_thumb(page)
    thumb.focus()
    # 0.19 and 0.21 (before this change: no request, a timeout here)
    page.wait_for_function(f"() => ({LIVE_ASKED_JS})().length >= 2", timeout=10_000)
    page.evaluate(GRID_DRAWS_JS)
    pressed = page.evaluate("() => performance.now()")
    thumb.press("ArrowRight")
    page.wait_for_selector(IDLE)
    # the next value that way, then the one back, asked for once the page's figure has come
    page.wait_for_function(
        f"() => ({LIVE_ASKED_JS})().some((a) => a.value === '0.2')", timeout=10_000
    )
    draws = page.evaluate("() => window.__gridDraws")
    assert slider_text(page, CONTOURS) == "0.21"
    assert draws[0] == {"title": draws[0]["title"], "pixels": HELD_RESOLUTION}, draws
    assert "noise 0.21," in draws[0]["title"], draws
    assert draws[-1]["pixels"] == 100 and "noise 0.21," in draws[-1]["title"], draws
    asked = page.evaluate(LIVE_ASKED_JS)
    assert [a for a in asked if a["value"] == "0.21" and a["start"] < pressed], asked
    assert [a["value"] for a in asked if a["start"] > pressed] == ["0.22", "0.2"], asked
    assert not page.js_errors


HELD_COPY_JS = """(selector) => { window.__kpcaHeld = new Promise((resolve) => {
  // At the grid's first held drawing (50 × 50 pictures): how Plotly told of it (a full plot
  // or a relayout) and a copy of the graph as it is drawn then, beside Plotly's own drawing of
  // the graph's figure then (both hidden, at the top left of the page).
  const graph = document.querySelector(selector);
  const seen = (how) => () => {
    const png = atob(graph.layout.images[0].source.split(',')[1].slice(0, 32));
    if ([16, 17, 18, 19].reduce((w, i) => w * 256 + png.charCodeAt(i), 0) !== 50) return;
    if (document.getElementById('kpca-held')) return;
    const box = (id) => {
      const div = document.body.appendChild(document.createElement('div'));
      div.id = id;
      div.className = 'js-plotly-plot'; // Plotly's style sheet: its layers stacked
      div.style.cssText = `position: fixed; left: 0; top: 0; z-index: 2147483647; display: none;
        background: white; width: ${graph.clientWidth}px`;
      return div;
    };
    box('kpca-held').appendChild(graph.querySelector('.plot-container').cloneNode(true));
    const figure = structuredClone({data: graph.data, layout: graph.layout});
    Plotly.newPlot(box('kpca-plotly'), figure.data, figure.layout, {displayModeBar: false})
      .then(() => resolve(how));
  };
  graph.on('plotly_afterplot', seen('plot'));
  graph.on('plotly_relayout', seen('relayout'));
}); }"""

DRAWN_JS = """(id) => {
  // what a copy of the grid draws: its texts, its pictures (where and what) and its lines
  const g = document.getElementById(id);
  const at = (e) => ['x', 'y', 'width', 'height'].map((k) => Number(e.getAttribute(k)));
  return {
    texts: Array.from(g.querySelectorAll('.gtitle, .annotation-text'), (e) => e.textContent),
    pictures: Array.from(g.querySelectorAll('image'),
                         (e) => [e.getAttribute('xlink:href') || e.getAttribute('href'), at(e)]),
    lines: Array.from(g.querySelectorAll('.shapelayer path'),
                      (e) => (e.getAttribute('d').match(/-?[\\d.]+(e-?\\d+)?/g) || []).map(Number)),
  };
}"""


def test_a_held_grid_is_set_in_place_and_looks_as_plotly_draws_it(page, app_server):
    """A key on the noise: the grid held (50 × 50) is the page's in all but its pictures, lines,
    words and points (its plane kept), so the chart sets those in the graph drawn, its pictures
    by one relayout, not a whole redraw; and it shows what Plotly draws of that figure: the
    same words, pictures and line vertices, and all but a few pixels the same."""
    import io

    import numpy as np
    from PIL import Image

    open_view(page, CONTOURS, app_server.url)
    thumb = CONTOURS.slider_thumb(page)
    thumb.focus()
    page.wait_for_function(f"() => ({LIVE_ASKED_JS})().length >= 2", timeout=10_000)
    page.evaluate(HELD_COPY_JS, CONTOURS.chart_selector)
    thumb.press("ArrowRight")
    how = page.evaluate(
        "() => Promise.race([window.__kpcaHeld, new Promise((r) => setTimeout(r, 10000, 'none'))])"
    )
    assert how == "relayout"  # before this change: "plot"
    page.wait_for_selector(IDLE)
    copy, plotly = (page.evaluate(DRAWN_JS, id) for id in ("kpca-held", "kpca-plotly"))
    assert "noise 0.21," in copy["texts"][0]
    assert copy["texts"] == plotly["texts"]
    assert len(copy["pictures"]) == len(plotly["pictures"]) > 0
    for (source, place), (expected, where) in zip(
        copy["pictures"], plotly["pictures"], strict=True
    ):
        assert source == expected
        np.testing.assert_allclose(place, where, atol=0.01)
    assert [len(d) for d in copy["lines"]] == [len(d) for d in plotly["lines"]]
    for d, expected in zip(copy["lines"], plotly["lines"], strict=True):
        np.testing.assert_allclose(d, expected, atol=0.01)  # pixels
    shots = []
    for id in ("kpca-held", "kpca-plotly"):
        box = page.locator(f"#{id}")
        box.evaluate("(div) => { div.style.display = 'block'; }")
        shots.append(np.asarray(Image.open(io.BytesIO(box.screenshot())).convert("L"), float))
        box.evaluate("(div) => { div.style.display = 'none'; }")
    assert shots[0].shape == shots[1].shape
    differing = np.mean(np.abs(shots[0] - shots[1]) > 32)
    assert differing < 0.005, differing  # antialiasing: a title a subpixel aside
    assert not page.js_errors


def test_a_click_on_the_noise_track_draws_the_grid_asked_for_while_the_mouse_rested_there(
    page, app_server
):
    """A mouse resting on the noise slider's track (a hand about to click): the grid at the
    value under it is asked for ahead, so the click there draws it at once (50 × 50), then
    the page's grid at the chosen resolution replaces it."""
    open_view(page, CONTOURS, app_server.url)
    box, (_, y) = thumb_xy(page, CONTOURS)
    x = box["x"] + 0.37 * box["width"]
    page.mouse.move(x, y)
    # (before this change: no request, a timeout here)
    page.wait_for_function(
        f"() => ({LIVE_ASKED_JS})().some((a) => a.value === '0.37')", timeout=10_000
    )
    page.evaluate(GRID_DRAWS_JS)
    pressed = page.evaluate("() => performance.now()")
    page.mouse.click(x, y)
    draws = page_grid_drawn(page)
    assert slider_text(page, CONTOURS) == "0.37"
    assert draws[0]["pixels"] == HELD_RESOLUTION and "noise 0.37," in draws[0]["title"], draws
    assert draws[-1]["pixels"] == 100 and "noise 0.37," in draws[-1]["title"], draws
    asked = [a for a in page.evaluate(LIVE_ASKED_JS) if a["value"] == "0.37"]
    assert len(asked) == 1 and asked[0]["start"] < pressed, asked  # not asked again
    assert not page.js_errors


def test_a_preset_and_a_kernel_asked_for_ahead_are_drawn_at_once_when_pressed(page, app_server):
    """The mouse resting on a preset button, the select box's list opened, the keyboard on a
    kernel in it: the grid of each is asked for ahead, so that pressing it draws that grid at
    once (50 × 50), before the page's run draws it at the chosen resolution."""
    open_view(page, CONTOURS, app_server.url)
    page.locator(".st-key-ct_preset_rings button").first.hover()
    # (before this change: no request, a timeout here)
    page.wait_for_function(f"() => ({ASKED_JS})('ct_preset_rings')", timeout=10_000)
    page.evaluate(GRID_DRAWS_JS)
    page.locator(".st-key-ct_preset_rings button").first.click()
    draws = page_grid_drawn(page)
    assert draws[0]["pixels"] == HELD_RESOLUTION and "Three rings" in draws[0]["title"], draws
    assert draws[-1]["pixels"] == 100 and draws[-1]["title"] == draws[0]["title"], draws
    combobox = page.locator(".st-key-ct_kernel input")
    combobox.click()  # the list opens: every other kernel asked for ahead
    for kernel in ("Polynomial", "Laplacian", "Sigmoid", "Linear"):
        page.wait_for_function(f"() => ({ASKED_JS})('ct_kernel={kernel}')", timeout=10_000)
    combobox.press("Escape")
    combobox.focus()
    combobox.press("ArrowDown")  # the list opens, the kernel after Gaussian active
    active = combobox.evaluate(
        "(box) => document.getElementById(box.getAttribute('aria-activedescendant')).textContent"
    )
    assert active != "Gaussian"
    page.wait_for_function(f"() => ({ASKED_JS})('ct_kernel={active}')", timeout=10_000)
    page.evaluate(GRID_DRAWS_JS)
    combobox.press("Enter")
    draws = page_grid_drawn(page)
    assert draws[0]["pixels"] == HELD_RESOLUTION, draws
    assert draws[-1]["pixels"] == 100 and draws[-1]["title"] == draws[0]["title"], draws
    assert combobox.input_value() == active
    assert not page.js_errors


ASKED_JS = """(press) => performance.getEntriesByType('resource')
  .some((e) => e.name.includes('/_kpca/live/')
               && new URL(e.name).searchParams.get('slider') === press)"""
"""Whether the chart has asked the live route for a press's grid."""


WIDTH = dataclasses.replace(
    CONTOURS,
    query=urlencode({"ct_kernel": "Gaussian", "ct_sweep": "nothing (one column)"}),
    slider="ct_sigma",
)
"""One Gaussian column of the parabola: its width σ is a kernel parameter slider."""


def test_dragging_the_kernel_width_redraws_the_contour_grid_before_the_release(page, app_server):
    open_view(page, WIDTH, app_server.url)
    result = drag_and_count(page, WIDTH, seconds=2.0, moves=30)
    assert result["before"] > 1, result  # grids at other widths while the thumb was held
    page.wait_for_selector(IDLE)
    released = slider_text(page, WIDTH)
    assert url_params(page)["ct_sigma"] == [released]
    first = page.evaluate(
        "() => document.querySelector('.st-key-ct_contours .js-plotly-plot').layout"
        ".annotations.find((a) => a.text.includes('kPC 1')).text"
    )
    assert f"(2·{released}²)" in first
    assert not page.js_errors


COMPONENTS = dataclasses.replace(CONTOURS, slider="ct_k")
"""Fig. 2's number of components (1-8): each count's grid, too large to send as frames."""


def test_dragging_the_components_redraws_the_contour_grid_before_the_release(page, app_server):
    open_view(page, COMPONENTS, app_server.url)
    result = drag_and_count(page, COMPONENTS, seconds=2.0, moves=30)
    assert result["before"] > 1, result  # grids of other counts while the thumb was held
    page.wait_for_selector(IDLE)
    released = int(slider_text(page, COMPONENTS))
    assert [int(value) for value in url_params(page)["ct_k"]] == [released]
    rows = page.evaluate(
        "() => document.querySelector('.st-key-ct_contours .js-plotly-plot').layout"
        ".annotations.filter((a) => a.text.includes('degree 2</b> · kPC')).length"
    )
    assert rows == released  # one row of panels per component
    assert not page.js_errors


DENOISING = next(view for view in VIEWS if view.name == "denoising")
SIDE_BY_SIDE = ".st-key-dn_sbs_chart"


def sbs_title(page) -> str:
    return page.evaluate(
        f"() => document.querySelector('{SIDE_BY_SIDE} .js-plotly-plot').layout.title.text"
    )


@pytest.mark.slow  # the grid at every n is made first (20 pre-images; ~1 min under load)
def test_dragging_n_moves_through_the_side_by_side_digits_before_the_release(page, app_server):
    # the grid at every n is made in the background: a later run of the page sends it
    assert open_with_frames(page, DENOISING, app_server.url), "the frames of every n never came"
    result = drag_and_count(page, DENOISING, seconds=2.0, moves=30)
    assert result["before"] > 1, result  # grids of other n while the thumb was held
    page.wait_for_selector(IDLE)
    released = slider_text(page, DENOISING)
    assert url_params(page)["dn_n"] == [released]
    assert sbs_title(page).endswith(f"n = {released}</b>")
    assert not page.js_errors


PREIMAGES = dataclasses.replace(DENOISING, tab="Pre-images", chart="dn_fixed_point_chart")


def test_the_fixed_point_plays_its_steps_in_the_browser(page, app_server):
    open_view(page, PREIMAGES, app_server.url)
    graph = f".st-key-{PREIMAGES.chart} .js-plotly-plot"
    page.locator(graph).scroll_into_view_if_needed()
    # each step Plotly animates to, from the frames the figure came with
    page.evaluate(
        f"""() => {{
          window.__kpcaSteps = [];
          document.querySelector("{graph}")
            .on('plotly_animatingframe', (e) => window.__kpcaSteps.push(e.name));
        }}"""
    )
    page.locator(f"{graph} .updatemenu-button").first.click()  # ▶ play
    page.wait_for_timeout(3000)
    steps = page.evaluate("() => window.__kpcaSteps")
    assert len(set(steps)) > 2, steps  # steps shown one after the other, no rerun asked
    assert page.locator(IDLE).count()  # the page did not run its script again
    assert url_params(page).get("dn_pre_n") is None
    assert not page.js_errors


DRAWN = [(-1.0, 0.5, 1), (-0.5, -0.5, 1), (0.0, 0.0, 1), (0.5, 1.0, 2), (1.0, -1.0, 2)]
"""Five points drawn on the canvas; the first is dragged."""


PICTURE_PX_JS = """(selector) => {
  // the width in pixels of the grid's first colour picture at each drawing: its resolution
  const graph = document.querySelector(selector);
  const px = () => {
    const png = atob(graph.layout.images[0].source.split(",")[1].slice(0, 40));
    return [16, 17, 18, 19].reduce((w, i) => w * 256 + png.charCodeAt(i), 0);
  };
  window.__kpcaPictures = [];
  const drawn = () => window.__kpcaPictures.push([performance.now(), px()]);
  graph.on("plotly_afterplot", drawn);
  graph.on("plotly_relayout", drawn); // a held grid set in place (chart.js, swap)
  return px();
}"""


def test_dragging_a_drawn_point_redraws_the_contour_grid_before_the_release(page, app_server):
    page.goto(f"{app_server.url}/contours?{drawing_link(DRAWN)}")
    page.wait_for_selector(CONTOURS.chart_selector, timeout=90_000)
    page.wait_for_selector(IDLE, timeout=60_000)
    assert page.evaluate(PICTURE_PX_JS, CONTOURS.chart_selector) == 100  # the page's grid
    (x0, y0), (x1, y1) = canvas_xy(page, -1.0, 0.5), canvas_xy(page, 0.2, -0.4)
    page.mouse.move(x0, y0)
    page.mouse.down()
    for k in range(1, 41):  # ~2 s at a hand's pace
        page.mouse.move(x0 + (x1 - x0) * k / 40, y0 + (y1 - y0) * k / 40)
        page.wait_for_timeout(50)
    up = page.evaluate("() => performance.now()")
    page.mouse.up()
    page.wait_for_timeout(1000)
    page.wait_for_selector(IDLE)
    pictures = page.evaluate("() => window.__kpcaPictures")
    # grids asked for at the dragged drawing (the held resolution) before the release; the
    # page's own runs of the canvas's edits every 0.3 s draw the chosen one
    held = [t for t, px in pictures if px == HELD_RESOLUTION and t <= up]
    assert len(held) > 3, pictures
    assert pictures[-1][1] == 100  # after the release: the page's own grid
    grid = page.evaluate(f"() => document.querySelector('{CONTOURS.chart_selector}').layout")
    assert grid["title"]["text"] == "<b>Your drawing: 5 points</b>"
    assert not page.js_errors


SENT_JS = """() => {
  // when the page next sends a message to the server (a widget's value: the canvas's edit)
  window.__kpcaSent = null;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (message) {
    if (window.__kpcaSent === null) window.__kpcaSent = performance.now();
    return send.call(this, message);
  };
}"""

CANVAS_JS = Path(__file__).resolve().parents[2] / "kpca_ui" / "draw_canvas.js"
HOLD_MS = float(re.search(r"const HOLD_MS = (\d+);", CANVAS_JS.read_text())[1])
"""How long the canvas holds a finished edit for the figures asked for (``draw_canvas.js``)."""

POSTED_JS = """() => performance.getEntriesByType('resource')
  .filter((e) => e.name.includes('/_kpca/live/') && e.initiatorType === 'fetch')
  .map((e) => ({start: e.startTime, answered: e.responseEnd}))"""
"""The chart's requests for the grid of a drawing (a slider's carry ``?slider=``)."""


def test_a_click_on_the_canvas_draws_its_grid_before_the_page_runs_the_edit(page, app_server):
    """A click adds a point: the chart asks for the grid of the new drawing at once (the
    held resolution), and the canvas sends the edit to the page's run once it is
    answered, so that the two do not share the server; that run's grid then replaces it."""
    page.goto(f"{app_server.url}/contours?{drawing_link(DRAWN)}")
    page.wait_for_selector(CONTOURS.chart_selector, timeout=90_000)
    page.wait_for_selector(IDLE, timeout=60_000)
    page.evaluate(PICTURE_PX_JS, CONTOURS.chart_selector)
    page.evaluate(SENT_JS)
    clicked = page.evaluate("() => performance.now()")
    page.mouse.click(*canvas_xy(page, 0.5, -0.5))
    page.wait_for_function(
        f"() => document.querySelector('{CONTOURS.chart_selector}').layout.title.text"
        ".includes('6 points') && window.__kpcaPictures.at(-1)[1] === 100",
        timeout=30_000,
    )
    page.wait_for_selector(IDLE)
    pictures = page.evaluate("() => window.__kpcaPictures")
    assert pictures[0][1] == HELD_RESOLUTION, pictures  # the grid asked for, drawn first
    posted = [p for p in page.evaluate(POSTED_JS) if p["start"] > clicked]
    assert len(posted) == 1, posted  # (before this change: none)
    sent = page.evaluate("() => window.__kpcaSent")
    # the edit went after the answer, or after HOLD_MS if the answer is late (a loaded server)
    waited = min(posted[0]["answered"], posted[0]["start"] + HOLD_MS)
    assert sent >= waited, (posted, sent)
    assert not page.js_errors


def test_a_click_on_the_noise_track_draws_the_grid_at_its_value_before_the_page_runs(
    page, app_server
):
    """A click on the slider's track moves the thumb there: the chart asks for the grid at
    that value at once (the held resolution) and draws it, then the page's run of the new
    value replaces it with the grid at the chosen resolution."""
    open_view(page, CONTOURS, app_server.url)
    page.evaluate(GRID_DRAWS_JS)
    box, (_, y) = thumb_xy(page, CONTOURS)
    clicked = page.evaluate("() => performance.now()")
    page.mouse.click(box["x"] + 0.7 * box["width"], y)
    page.wait_for_function(
        "() => window.__gridDraws.length && window.__gridDraws.at(-1).pixels === 100",
        timeout=30_000,
    )
    page.wait_for_selector(IDLE)
    value = float(slider_text(page, CONTOURS))
    draws = page.evaluate("() => window.__gridDraws")
    asked = [float(a["value"]) for a in page.evaluate(LIVE_ASKED_JS) if a["start"] > clicked]
    assert asked == [value], (value, asked)
    assert draws[0] == {"title": draws[0]["title"], "pixels": HELD_RESOLUTION}, draws
    assert f"noise {value:g}," in draws[0]["title"], (value, draws)
    assert f"noise {value:g}," in draws[-1]["title"], (value, draws)
    assert not page.js_errors
