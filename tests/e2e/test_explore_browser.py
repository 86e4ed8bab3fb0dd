"""Explore a figure without seeing it, by keyboard alone (issue 51; WCAG 2.1, 2.1.1 and 1.1.1).

A chart is a Tab stop whose arrow keys walk through its data, each step said in a polite live
region with the values read from the figure in the browser (``kpca_ui/chart.js``); the
drawing canvas's cursor says where it is and the component's value there
(``kpca_ui/draw_canvas.js``); the handwriting pad takes a digit from the keyboard
(``kpca_ui/pad.js``).  What is said is checked against the figure's own data, decoded here.
"""

from __future__ import annotations

import base64
import json
import re
from urllib.parse import parse_qs, urlsplit

import numpy as np
import pytest
from browser import CANVAS, IDLE, drawing_link
from pad_latency import PAD, RESULT, SHOWN_JS, open_demo

from kpca_core import contours as ct
from kpca_core import handwriting as hw
from kpca_core import sigma_to_gamma
from kpca_core.drawing import decode
from tests.e2e.audit import SCREENS
from tests.e2e.test_a11y_browser import tab_to
from tests.e2e.test_audit import load_state

pytestmark = pytest.mark.e2e

FIGURE_JS = """(key) => {
  const gd = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const plain = (k, v) => ArrayBuffer.isView(v) ? Array.from(v) : v;
  return JSON.stringify({data: gd.data, layout: gd.layout}, plain);
}"""
"""The figure the chart with widget key ``key`` was given (its arrays as Plotly's specs)."""
LIVE_JS = "(key) => document.querySelector(`.st-key-${key} [aria-live='polite']`).textContent"


def array(value) -> np.ndarray:
    """A trace's array: a list, or Plotly's typed-array spec ``{dtype, bdata, shape}``."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = value.get("shape")
        return flat.reshape([int(n) for n in str(shape).split(",")]) if shape else flat
    return np.asarray(value, dtype=float)


def number(v: float) -> str:
    """A value as the chart says it: three significant digits, a minus sign for negatives."""
    text = repr(float(f"{v:.3g}")).removesuffix(".0")
    return text.replace("-", "−")


def words(html: str) -> str:
    """A figure's text as said: tags dropped, a line break as a space."""
    return " ".join(re.sub(r"<[^>]*>", "", re.sub(r"<br\s*/?>", " ", html)).split())


def title(layout: dict, axis: str, fallback: str) -> str:
    return words(((layout.get(axis) or {}).get("title") or {}).get("text") or fallback)


def said_point(figure: dict, k: int, i: int) -> str:
    """What the chart says at point ``i`` of trace ``k`` (a line or scatter trace)."""
    trace = figure["data"][k]
    x, y = array(trace["x"]), array(trace["y"])
    return (
        f"{words(trace['name'])}, point {i + 1} of {len(x)}: "
        f"{title(figure['layout'], 'xaxis', 'x')} {number(x[i])}, "
        f"{title(figure['layout'], 'yaxis', 'y')} {number(y[i])}"
    )


def live(page, key: str) -> str:
    return page.evaluate(LIVE_JS, key)


def open_view(page, url: str, tmp_path) -> None:
    load_state(page, url, SCREENS[0], tmp_path)


@pytest.fixture
def keyboard_page(browser):
    context = browser.new_context(viewport=SCREENS[0].viewport)
    context.set_default_timeout(180_000)
    page = context.new_page()
    page.js_errors = []
    page.on("pageerror", lambda error: page.js_errors.append(str(error)))
    yield page
    context.close()


def test_contours_charts_say_their_data_point_by_point(keyboard_page, app_server, tmp_path):
    """Keyboard only: Tab reaches the Fig. 2 grid, whose right arrow says the first data
    point; Tab on reaches the projection, whose arrows, End and Home say its points with the
    axes' titles, each as the figure's data hold it; S turns the tones on."""
    page = keyboard_page
    open_view(page, f"{app_server.url}/contours", tmp_path)
    tab_to(page, ".st-key-ct_contours [role='application']")
    page.keyboard.press("ArrowRight")
    grid = json.loads(page.evaluate(FIGURE_JS, "ct_contours"))
    assert live(page, "ct_contours") == said_point(grid, 0, 0)

    tab_to(page, ".st-key-ct_projection [role='application']")
    projection = json.loads(page.evaluate(FIGURE_JS, "ct_projection"))
    n = len(array(projection["data"][0]["x"]))
    for key, i in (("ArrowRight", 0), ("ArrowRight", 1), ("End", n - 1), ("Home", 0)):
        page.keyboard.press(key)
        assert live(page, "ct_projection") == said_point(projection, 0, i), key
    page.keyboard.press("s")  # tones on: each step also sounds its value
    assert live(page, "ct_projection") == "Tones on."
    page.keyboard.press("ArrowRight")
    assert live(page, "ct_projection") == said_point(projection, 0, 1)
    assert page.js_errors == []


def test_the_spectrum_lines_and_heatmap_by_keyboard(keyboard_page, app_server, tmp_path):
    """On the Spectrum's lines, Down goes to the next line at the same width; on the whole
    spectrum's heatmap, the arrows go from cell to cell, each said with the width its column
    stands for (the sweep's, not the linear midpoint of its edges on the log axis), its row's
    centre (the rows' edges 0.5, 1.5 read as the component k = 1) and its value."""
    page = keyboard_page
    open_view(page, f"{app_server.url}/spectrum", tmp_path)
    tab_to(page, ".st-key-sp_fig_lines [role='application']")
    lines = json.loads(page.evaluate(FIGURE_JS, "sp_fig_lines"))
    for key, (k, i) in (("ArrowRight", (0, 0)), ("ArrowRight", (0, 1)), ("ArrowDown", (1, 1))):
        page.keyboard.press(key)
        assert live(page, "sp_fig_lines") == said_point(lines, k, i), key

    tab_to(page, ".st-key-sp_fig_heatmap [role='application']")
    heatmap = json.loads(page.evaluate(FIGURE_JS, "sp_fig_heatmap"))
    trace = heatmap["data"][0]
    y, z = array(trace["y"]), array(trace["z"])
    for key in ("ArrowRight", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    rows, columns = z.shape
    value = "no value" if np.isnan(z[1, 1]) else number(z[1, 1])
    zt = words(trace["colorbar"]["title"]["text"])
    assert live(page, "sp_fig_heatmap") == (
        f"row 2 of {rows}, column 2 of {columns}: "
        f"{title(heatmap['layout'], 'xaxis', 'x')} {number(trace['meta']['x'][1])}, "
        f"{title(heatmap['layout'], 'yaxis', 'y')} {number((y[1] + y[2]) / 2)}, {zt} {value}"
    )
    assert page.js_errors == []


RBF = {"ct_kernel": "Gaussian", "ct_sweep": "width σ", "ct_values": "1"}
"""One Gaussian column, σ = 1: the canvas shows its kPC 1."""
DRAWN = [(-1.2, 1.2, 1), (-0.6, 0.3, 1), (0.0, -0.3, 2), (0.6, 0.4, 2), (1.2, 1.3, 1)]


def test_the_canvas_cursor_says_where_it_is_and_the_component_there(
    keyboard_page, app_server, tmp_path
):
    """Keyboard only: on the drawing canvas, each arrow key says the cursor's position, the
    value of kPC 1 there (read from the picture behind the points, as computed here from the
    drawing) and the nearest point."""
    page = keyboard_page
    open_view(page, f"{app_server.url}/contours?{drawing_link(DRAWN, **RBF)}", tmp_path)
    drawing, _ = decode(parse_qs(urlsplit(page.url).query)["ct_draw"][0])
    fit = ct.fit_column(drawing.X, ct.KernelSpec("rbf", gamma=sigma_to_gamma(1.0)), n_components=1)
    half = drawing.half_width
    axis = np.linspace(-half, half, 96)
    values = ct.evaluate_column(fit, ct.Grid(axis, axis)).values[0]
    tab_to(page, CANVAS)
    status = page.locator(".kd .where")
    page.keyboard.press("ArrowUp")  # off the row of grid points' midpoint, y = 0
    y = 2 * half * 0.02
    for presses in range(1, 4):
        page.keyboard.press("ArrowRight")
        x = presses * 2 * half * 0.02
        said = status.inner_text()
        assert f"cursor x {x:.2f}, y {y:.2f}" in said, said
        found = float(re.search(r"kPC 1 of [^:]*: (−?[\d.]+)", said)[1].replace("−", "-"))
        at = values[np.argmin(np.abs(axis - y)), np.argmin(np.abs(axis - x))]
        assert abs(found - np.clip(at, -1, 1)) <= 0.011, (said, at)
        near = np.argmin(np.hypot(drawing.X[:, 0] - x, drawing.X[:, 1] - y))
        assert f"nearest point {near + 1} (group {drawing.groups[near]})" in said, said
    assert page.js_errors == []


TICKS_JS = """(result) => JSON.stringify(document.querySelector(result + ' .js-plotly-plot')
  .layout.xaxis.ticktext)"""


def test_a_digit_typed_on_the_pad_is_the_digit_the_demo_shows(keyboard_page, app_server):
    """Keyboard only: Tab to the Demo's pad and type 7: the pad says so, holds a 7's strokes,
    the link holds them, and the Demo's first picture is that writing as the server draws it;
    Tab on, the pictures' arrow keys say their cells."""
    page = keyboard_page
    open_demo(page, app_server.url)
    tab_to(page, PAD)
    page.keyboard.press("7")
    page.wait_for_function(SHOWN_JS, arg=RESULT)
    page.wait_for_selector(IDLE)
    assert "7" in page.locator(".kp .status").inner_text()
    ticks = [t.replace("<br>", " ") for t in json.loads(page.evaluate(TICKS_JS, RESULT))]
    assert ticks[0] == "Written by you"
    writing, notes = hw.decode(parse_qs(urlsplit(page.url).query)["dm_pad"][0])
    assert notes == [] and len(writing.strokes) >= 1
    shown = json.loads(
        page.evaluate(
            "(r) => JSON.stringify(document.querySelector(r + ' .js-plotly-plot').data[0].z)",
            RESULT,
        )
    )
    first = array(shown)[:16, :16]
    assert np.allclose(first, hw.to_digit(writing).reshape(16, 16), atol=1e-5)
    # Tab on to the pictures: their cells, the digit's first row, then (y reversed) the next
    tab_to(page, f"{RESULT} [role='application']")
    z = array(shown)
    for key, row in (("ArrowRight", 0), ("ArrowDown", 1)):
        page.keyboard.press(key)
        assert page.evaluate(LIVE_JS, RESULT.removeprefix(".st-key-")) == (
            f"row {row + 1} of {z.shape[0]}, column 1 of {z.shape[1]}: "
            f"x 0, y {row}, value {number(z[row, 0])}"  # no axis titles: no Plotly placeholder
        ), key
    assert page.js_errors == []


def test_the_grids_pictures_say_their_title_and_the_component_there(
    keyboard_page, app_server, tmp_path
):
    """Keyboard only: on the Fig. 2 grid, Page Down steps from the data into the first
    panel's picture, whose arrows walk a coarse grid of it, each point said with the panel's
    title (kernel, kPC, λ) and the value of its picture there: kPC 1's value computed here
    from the drawing at that point, within one of the picture's 256 shades."""
    page = keyboard_page
    open_view(page, f"{app_server.url}/contours?{drawing_link(DRAWN, **RBF)}", tmp_path)
    drawing, _ = decode(parse_qs(urlsplit(page.url).query)["ct_draw"][0])
    fit = ct.fit_column(drawing.X, ct.KernelSpec("rbf", gamma=sigma_to_gamma(1.0)), n_components=1)
    picture = json.loads(page.evaluate(FIGURE_JS, "ct_contours"))["layout"]["images"][0]
    png = base64.b64decode(picture["source"].split(",", 1)[1])
    w, h = (int.from_bytes(png[at : at + 4], "big") for at in (16, 20))  # its IHDR
    tab_to(page, ".st-key-ct_contours [role='application']")
    for key in ("ArrowRight", "PageDown", "ArrowRight", "ArrowRight", "ArrowUp"):
        page.keyboard.press(key)
    said = live(page, "ct_contours")
    head = f"σ = 1 · kPC 1 λ = {fit.eigenvalues[0]:.3g} ({fit.shares[0]:.1%}), "
    assert said.startswith(f"{head}row 2 of 10, column 3 of 10: x "), said
    x, y, found = (
        float(v.replace("−", "-")) for v in re.search(r"x (\S+), y (\S+), .* (\S+)$", said).groups()
    )
    # the pixel whose centre is said: a point of the grid the picture was computed on
    column = round((x - picture["x"]) * w / picture["sizex"] - 0.5)
    row = round((picture["y"] - y) * h / picture["sizey"] - 0.5)
    at = (
        picture["x"] + (column + 0.5) * picture["sizex"] / w,
        picture["y"] - (row + 0.5) * picture["sizey"] / h,
    )
    step = (picture["sizex"] / w, picture["sizey"] / h)  # a grid of that point and the next
    grid = ct.Grid(*(np.array([v, v + dv]) for v, dv in zip(at, step, strict=True)))
    value = ct.evaluate_column(fit, grid).values[0][0, 0]
    assert abs(found - np.clip(value, -1, 1)) <= 2 / 255, (said, at, value)

    def kpc1(j: int, i: int) -> float:  # at the picture's point chart.js says in row j, column i
        c, r = ((k + 0.5) * n // 10 for k, n in ((i, w), (9 - j, h)))
        x, y = (picture["x"] + (c + 0.5) * step[0], picture["y"] - (r + 0.5) * step[1])
        cell = ct.Grid(np.array([x, x + step[0]]), np.array([y, y + step[1]]))
        return ct.evaluate_column(fit, cell).values[0][0, 0]

    # a shade at the colour scale's end stands for every value beyond it, and is said so
    values = {(j, i): kpc1(j, i) for j in range(10) for i in range(10)}
    (j, i), value = max(values.items(), key=lambda item: abs(item[1]))
    assert abs(value) > 1, values  # beyond the colour scale: the picture is clipped there
    for key, moves in (("ArrowUp", j - 1), ("ArrowDown", 1 - j), ("ArrowRight", i - 2)):
        for _ in range(max(moves, 0)):
            page.keyboard.press(key)
    for _ in range(max(2 - i, 0)):
        page.keyboard.press("ArrowLeft")
    said = live(page, "ct_contours")
    assert f"row {j + 1} of 10, column {i + 1} of 10" in said, (said, j, i)
    assert said.endswith("1 or more" if value > 0 else "−1 or less"), (said, value)
    assert page.js_errors == []
