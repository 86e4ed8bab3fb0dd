"""Drive the app in Debian's Chromium: the views, their preset links, and redraw probes.

Shared by the end-to-end tests (``tests/e2e``) and ``bench/ui_latency.py``.
The browser is ``/usr/bin/chromium`` (never a download), started through
Playwright by :func:`launch_chromium`.

A redraw is timed inside the page, on the browser's own clock
(``performance.now()``), see :data:`ARM_REDRAW_JS`:

- ``keydown``: the key press on the slider, or the event that starts the change
  (a capture-phase listener; the drawing canvas: ``pointerup``, the click's release);
- ``sent``: the first websocket message the page sends after it (the slider's
  new value going to the server; the slider may wait a moment before sending);
- ``received``: the last websocket message from the server before the redraw;
- ``drawn``: the animation frame after the figure's content first changed in a
  graph div that can be seen (checked on each ``plotly_afterplot``,
  ``plotly_animated`` and ``plotly_relayout`` event of the graph div, the last two
  chart.js's changes in place, and on each DOM mutation, so a replaced graph div
  counts too), i.e.
  the frame that shows the new figure;
- ``settled``: the end of the last drawing of any figure on the page that can
  be seen, once the script run has ended and no figure has been drawn for
  :data:`QUIET_MS` (a change that redraws several figures has settled only
  when all of them are drawn).

Streamlit's chart element mounts anew for every changed figure and draws it
twice: first hidden (``visibility: hidden`` until it knows its width), then
again once its width and theme are set. Only the second drawing can be seen,
so the probe waits for it.
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlencode, urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page, Playwright

CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium; the browser tests are skipped without it."""
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
)
VIEWPORT = {"width": 1280, "height": 720}
"""A projector's resolution; the figures must read well at this size."""
IDLE = '[data-testid="stApp"][data-test-script-state="notRunning"]'
"""The app root once no script is running."""
QUIET_MS = 400
"""A page has settled when no figure has been drawn for this long after the run ended."""
EXCEPTION = '[data-testid="stException"]'
ERROR_ALERT = '[data-testid="stAlertContentError"]'


def launch_chromium(playwright: Playwright, **options: Any) -> Browser:
    """Headless Debian Chromium through Playwright, with a fresh temporary profile."""
    return playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=list(CHROMIUM_ARGS), headless=True, **options
    )


@dataclass(frozen=True)
class View:
    """One view of the app as the browser tests and benches drive it.

    Parameters
    ----------
    name : str
        Short name, used in file names and printed tables.
    path : str
        URL path of the page (``st.Page`` derives it from the file name).
    query : str
        Query string of the preset link (widgets are bound to the URL).
    slider : str
        Widget key of the slider that is moved.
    chart : str, optional
        Key of the main figure's ``st.plotly_chart`` (its element carries the
        class ``st-key-<chart>``); by default the first plotly figure on the page.
    tab : str, optional
        Label of the ``st.tabs`` tab to click before the figure can be seen.
    shows : str
        A text the page shows only when it took its settings from the link.
    what : str
        What the moved slider changes, for printed tables.

    Links carry what the widgets show: a select box's value in the URL is its
    label (``format_func``), not the option behind it.
    """

    name: str
    path: str
    query: str
    slider: str
    chart: str | None = None
    tab: str | None = None
    shows: str = ""
    what: str = ""

    def link(self, base_url: str) -> str:
        """The preset link, e.g. ``http://127.0.0.1:8765/contours?ct_n=300``."""
        return f"{base_url}/{self.path}?{self.query}" if self.query else f"{base_url}/{self.path}"

    @property
    def chart_selector(self) -> str:
        """CSS selector of the main figure's plotly graph div."""
        scope = f".st-key-{self.chart} " if self.chart else ""
        return f"{scope}.js-plotly-plot"

    def slider_thumb(self, page: Page) -> Locator:
        """The moved slider's thumb: the element with the ARIA role ``slider``."""
        return page.locator(f".st-key-{self.slider}").get_by_role("slider").first


FIG2_LINK = urlencode(
    {"ct_n": 300, "ct_noise": 0.2, "ct_seed": 0, "ct_values": "1, 2, 3, 4", "ct_k": 3}
)
"""Query string of Schölkopf et al. (1998), Fig. 2 in the Contours view.

The data set (the parabola), kernel (polynomial) and swept parameter (degree)
are the view's defaults, so the link leaves out their labels, which may change.
"""
RINGS_LINK = urlencode(
    {"sp_data": "Three rings, radii 1, 2, 4", "sp_n": 300, "sp_noise": 0.25, "sp_seed": 0}
)
"""Query string of the spectrum sweep on three rings."""

VIEWS = (
    View(
        "contours",
        "contours",
        FIG2_LINK,
        slider="ct_noise",
        chart="ct_contours",
        shows="What to look at",
        what="noise of the Fig. 2 parabola: new data, 4 fits, 3 x 4 contour grid",
    ),
    View(
        "spectrum",
        "spectrum",
        RINGS_LINK,
        slider="sp_at",
        chart="sp_fig_bars",
        shows="Three rings, radii 1, 2, 4: 300 points, noise 0.25",
        what="chosen width: the spectrum bars (and the marks on the other figures)",
    ),
    View(
        "denoising",
        "denoising",
        "",
        slider="dn_n",
        chart="dn_sbs_chart",
        tab="Side by side",
        shows="Squared error to the clean digit",
        what="number of components n: the side-by-side grid of digits",
    ),
)
"""The views in the order of the home page."""


WAIT_FOR_FIGURE_JS = """
([selector, timeoutMs]) => new Promise((resolve, reject) => {
  const ready = () => {
    const graph = document.querySelector(selector);
    return graph && graph.data && graph.querySelector('.main-svg');
  };
  if (ready()) { resolve(true); return; }
  const observer = new MutationObserver(() => {
    if (ready()) { observer.disconnect(); clearTimeout(timer); resolve(true); }
  });
  observer.observe(document.body, {childList: true, subtree: true});
  const timer = setTimeout(() => {
    observer.disconnect();
    reject(new Error('no plotly figure matching ' + selector));
  }, timeoutMs);
})
"""
"""Resolves once a drawn plotly graph (``.data`` set, SVG present) matches the selector."""

FIGURE_JS = """
(selector) => {
  const graph = document.querySelector(selector);
  if (!graph || !graph.data) return null;
  const plain = (key, value) => ArrayBuffer.isView(value) ? Array.from(value) : value;
  return JSON.stringify({data: graph.data, layout: graph.layout}, plain);
}
"""
"""The figure's data and layout as JSON (typed arrays as lists), or ``None`` if not drawn."""

ARM_REDRAW_JS = """
([selector, startEvent]) => {
  // Typed arrays by a checksum of their values: as telling, and fast on large figures.
  const digest = (array) => {
    let sum = array.length;
    for (let i = 0; i < array.length; i++) {
      const value = array[i];
      sum = (sum * 31 + (value === value ? value * (i + 1) : i)) % 1e15;
    }
    return sum;
  };
  const plain = (key, value) => ArrayBuffer.isView(value) ? ['typed', digest(value)] : value;
  const content = (graph) => JSON.stringify([graph.data, graph.layout.title,
                                             graph.layout.annotations, graph.layout.images,
                                             graph.layout.shapes], plain);
  // Style only, no layout: a probe that made the page lay itself out on every
  // drawing would add to the time it measures.
  const seen = (graph) => graph.checkVisibility({visibilityProperty: true});
  let graph = document.querySelector(selector);
  if (!graph || !graph.data) return false;
  let data = graph.data;
  const before = content(graph);
  const probe = {keydown: null, sent: null, received: null, drawn: null, changed: false,
                 settled: null};
  window.__kpcaProbe = probe;
  // Every figure drawn where it can be seen after the key press: the page's settling.
  const drawnAnywhere = (div) => {
    if (div.on && !div.__kpcaAnywhere) {
      div.__kpcaAnywhere = true;
      div.on('plotly_afterplot', () => {
        const current = window.__kpcaProbe;
        if (current.keydown !== null && seen(div)) current.settled = performance.now();
      });
    }
  };
  document.querySelectorAll('.js-plotly-plot').forEach(drawnAnywhere);
  probe.anywhere = new MutationObserver(
    () => document.querySelectorAll('.js-plotly-plot').forEach(drawnAnywhere));
  probe.anywhere.observe(document.body, {childList: true, subtree: true});
  document.addEventListener(startEvent, () => {
    if (probe.keydown === null) probe.keydown = performance.now();
  }, {capture: true, once: true});
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (message) {
    if (probe.keydown !== null && probe.sent === null) probe.sent = performance.now();
    if (!this.__kpcaListening) {
      this.__kpcaListening = true;
      this.addEventListener('message', () => {
        const current = window.__kpcaProbe;
        if (current.sent !== null && !current.changed) current.received = performance.now();
      });
    }
    return send.call(this, message);
  };
  let observer = null;
  probe.done = new Promise((resolve) => {
    const hook = (div) => {
      if (div.on && !div.__kpcaHooked) {
        div.__kpcaHooked = true;
        // the current probe's check: a graph outlives the probe that hooked it
        div.on('plotly_afterplot', () => window.__kpcaCheck(true));
        div.on('plotly_animated', () => window.__kpcaCheck(true)); // chart.js's glide
        div.on('plotly_relayout', () => window.__kpcaCheck(true)); // chart.js's swap
      }
    };
    let differs = false;
    window.__kpcaCheck = check;
    function check(drawn = false) {
      if (probe.changed) return;
      const now = document.querySelector(selector);
      if (!now || !now.data) return;
      if (now.data !== data || drawn) {
        // A new data object, or a drawing (Plotly.update changes the figure in place):
        // compare the content only now, not on every mutation.
        graph = now;
        data = now.data;
        differs = content(now) !== before;
      }
      if (!differs) return;
      if (!seen(now)) {
        requestAnimationFrame(() => check());  // drawn hidden: wait until it shows
        return;
      }
      probe.changed = true;
      observer.disconnect();
      WebSocket.prototype.send = send;
      requestAnimationFrame(() => { probe.drawn = performance.now(); resolve(); });
    }
    observer = new MutationObserver(() => {
      document.querySelectorAll(selector).forEach(hook);
      check();
    });
    observer.observe(document.body, {childList: true, subtree: true});
    document.querySelectorAll(selector).forEach(hook);
  });
  return true;
}
"""
"""Arms the redraw probe on the figure matching a selector, before a key press (or the
event named, e.g. ``pointerup``).

Sets ``window.__kpcaProbe`` with the times described in the module docstring
and a promise ``done`` that resolves at the redraw. The figure's content (its
data, title, annotations, images and shapes; typed arrays by a checksum) is
serialised before the key press and again only when a new data object shows
up or the graph was drawn (``Plotly.update`` changes it in place), so the
comparison adds little to the timed part. A changed figure counts
once its graph div can be seen (not ``visibility: hidden``, not
``display: none``).
"""

READ_PROBE_JS = """
async (timeoutMs) => {
  const probe = window.__kpcaProbe;
  await Promise.race([probe.done, new Promise((r) => setTimeout(r, timeoutMs))]);
  return {keydown: probe.keydown, sent: probe.sent, received: probe.received,
          drawn: probe.drawn};
}
"""
"""Waits for the armed probe (at most ``timeoutMs``) and returns its times."""

READ_SETTLED_JS = """
async (quietMs) => {
  const probe = window.__kpcaProbe;
  let last = probe.settled;
  for (;;) {
    await new Promise((r) => setTimeout(r, quietMs));
    if (probe.settled === last) break;
    last = probe.settled;
  }
  probe.anywhere.disconnect();
  return probe.settled;
}
"""
"""Once the run has ended: waits until no figure was drawn for ``quietMs``; the last drawing."""


def open_view(page: Page, view: View, base_url: str, timeout_ms: float = 90_000) -> None:
    """Open the view's preset link and wait until its main figure is drawn and the run ends."""
    page.goto(view.link(base_url))
    if view.tab is not None:
        page.wait_for_selector(IDLE, timeout=timeout_ms)
        page.get_by_role("tab", name=view.tab).click()
    page.evaluate(WAIT_FOR_FIGURE_JS, [view.chart_selector, timeout_ms])
    page.wait_for_selector(IDLE, timeout=timeout_ms)


def figure_json(page: Page, view: View) -> str | None:
    """The main figure's data and layout as JSON, as drawn in the browser."""
    return page.evaluate(FIGURE_JS, view.chart_selector)


def slider_value(page: Page, view: View) -> float:
    """The moved slider's position: its value, or the option's index for a select slider."""
    return float(view.slider_thumb(page).input_value())


def slider_text(page: Page, view: View) -> str:
    """The moved slider's value as shown to the user (``aria-valuetext``).

    For an ``st.select_slider`` this is the formatted option, which is also
    what the URL carries; its range input's value is the option's index.
    """
    return view.slider_thumb(page).get_attribute("aria-valuetext") or ""


def url_params(page: Page) -> dict[str, list[str]]:
    """The query parameters of the page's current URL."""
    return parse_qs(urlsplit(page.url).query)


def press_and_time(page: Page, view: View, key: str, timeout_ms: float = 30_000) -> dict:
    """Press ``key`` on the view's slider and time the redraw, in ms after the key press.

    Returns ``{"sent": ..., "received": ..., "drawn": ..., "settled": ...}``;
    ``drawn`` is ``None`` if the figure did not change within ``timeout_ms``.
    Waits for the script run to end and the page to settle too, so the next
    press starts from a quiet page.
    """
    thumb = view.slider_thumb(page)
    thumb.focus()
    return act_and_time(page, view.chart_selector, lambda: thumb.press(key), "keydown", timeout_ms)


def act_and_time(
    page: Page,
    selector: str,
    act: Callable[[], object],
    start_event: str,
    timeout_ms: float = 30_000,
) -> dict:
    """Do ``act`` and time the redraw of the figure at ``selector``, in ms after ``start_event``.

    As :func:`press_and_time`, for any action: e.g. a click on the drawing
    canvas, timed from the release of the button (``"pointerup"``).
    """
    if not page.evaluate(ARM_REDRAW_JS, [selector, start_event]):
        raise RuntimeError(f"no drawn figure matching {selector}")
    act()
    times = page.evaluate(READ_PROBE_JS, timeout_ms)
    page.wait_for_selector(IDLE, timeout=timeout_ms)
    times["settled"] = page.evaluate(READ_SETTLED_JS, QUIET_MS)
    start = times["keydown"]

    def since(t: float | None) -> float | None:
        return None if t is None or start is None else t - start

    return {name: since(times[name]) for name in ("sent", "received", "drawn", "settled")}


CANVAS = "canvas.plane"
"""The drawing canvas of "Draw your own points" (in its component's open shadow root)."""
DRAW_DATA = "Draw your own points"


def drawing_link(points: list[tuple[float, float, int]], **settings: object) -> str:
    """Query string of the Contours view with these points drawn, ``(x, y, group)`` in ±2."""
    root = str(Path(__file__).resolve().parent.parent)  # this checkout's kpca_core
    if root not in sys.path:
        sys.path.insert(0, root)
    from kpca_core.drawing import encode, from_points

    drawing, _ = from_points([list(point) for point in points], 2.0)
    return urlencode({**settings, "ct_data": DRAW_DATA, "ct_draw": encode(drawing)})


def canvas_xy(page: Page, x: float, y: float) -> tuple[float, float]:
    """Where on the page the plane's point (x, y) is drawn on the canvas (scrolled into view)."""
    canvas = page.locator(CANVAS)
    canvas.scroll_into_view_if_needed()
    half = float(canvas.evaluate("(c) => c.dataset.half"))
    box = canvas.bounding_box()
    return (
        box["x"] + (x + half) / (2 * half) * box["width"],
        box["y"] + (half - y) / (2 * half) * box["height"],
    )


DRAG_COUNT_JS = """
(selectors) => {
  // Each picture each graph shows, by a light digest of what a slider changes (titles,
  // annotations' texts, shapes' places, the traces' values up to 4000 numbers and a
  // checksum of a matrix's, marks moved in place), at each drawing or move.
  const graphs = selectors.map((selector) => document.querySelector(selector));
  if (graphs.some((graph) => !graph || !graph.on)) return false;
  const values = (v) => (v && (Array.isArray(v) || ArrayBuffer.isView(v)) && v.length <= 4000)
    ? Array.from(v, (x) => (typeof x === 'number' ? +x.toPrecision(6) : x)) : null;
  const checksum = (z) => {
    let sum = 0, k = 0;
    for (const row of (z && z.length !== undefined) ? z : []) {
      for (const x of (typeof row === 'number' ? [row] : row)) {
        k += 1;
        if (Number.isFinite(x)) sum += x * ((k % 97) + 1);
      }
    }
    return z ? +sum.toPrecision(8) : null;
  };
  const digest = (g) => JSON.stringify([
    g.layout.title, (g.layout.annotations || []).map((a) => [a.text, a.x]),
    (g.layout.shapes || []).map((s) => [s.x0, s.y0, s.path && s.path.length]),
    g.data.map((t, i) => [values(t.x), values(t.y),
                          checksum(t.z && (g._fullData[i] || {}).z)]),
    // marks the chart moves in place (kpca_ui/chart.js, moveMarks)
    Array.from(g.querySelectorAll('.shapelayer path[transform], .annotation[transform]'),
               (e) => [e.getAttribute('transform'), e.textContent])]);
  const probe = {pictures: selectors.map(() => []), down: null, up: null};
  window.__kpcaDrag = probe;
  graphs.forEach((graph, i) => {
    let last = digest(graph);
    let asked = false;
    const seen = () => {
      asked = false;
      const now = digest(graph);
      if (now !== last) {
        last = now;
        probe.pictures[i].push(performance.now());
      }
    };
    graph.on('plotly_afterplot', seen);
    graph.on('plotly_animated', seen); // traces moved without a redraw (chart.js, glide)
    graph.on('plotly_relayout', seen); // a held figure set in place (chart.js, swap)
    // a mark moved in place: looked at once per animation frame
    new MutationObserver(() => {
      if (!asked) {
        asked = true;
        requestAnimationFrame(seen);
      }
    }).observe(graph, {attributes: true, attributeFilter: ['transform'], subtree: true});
  });
  document.addEventListener('pointerdown', () => { probe.down ??= performance.now(); },
                            {capture: true});
  document.addEventListener('pointerup', () => { probe.up ??= performance.now(); },
                            {capture: true});
  return true;
}
"""
"""Arms a count of the distinct pictures each graph shows, and the times of the drag's ends."""


def open_with_frames(page: Page, view: View, base_url: str, timeout_s: float = 240.0) -> bool:
    """Open the view, again every 5 s until its figure can be scrubbed; whether it can.

    A figure whose frames the server makes in the background (Denoising's n) gets
    them on a run after they are made; the chart says how many it has in the
    ``data-frames`` attribute of its box.
    """
    scrubbed = f".st-key-{view.chart} .kc[data-frames]:not([data-frames='0'])"
    deadline = time.monotonic() + timeout_s
    open_view(page, view, base_url)
    while not page.locator(scrubbed).count():
        if time.monotonic() > deadline:
            return False
        time.sleep(5)
        open_view(page, view, base_url)
    return True


def thumb_xy(page: Page, view: View) -> tuple[dict, tuple[float, float]]:
    """The slider's track (its bounding box, scrolled into view) and its thumb's centre."""
    thumb = view.slider_thumb(page)
    track = page.locator(f".st-key-{view.slider} [role='group'] > [data-rac]").first
    track.scroll_into_view_if_needed()
    box = track.bounding_box()
    low, high = float(thumb.get_attribute("min")), float(thumb.get_attribute("max"))
    share = (float(thumb.input_value()) - low) / (high - low)
    return box, (box["x"] + share * box["width"], box["y"] + box["height"] / 2)


def drag_and_count(
    page: Page,
    view: View,
    seconds: float = 2.0,
    moves: int = 60,
    also: Sequence[str] = (),
    paced: bool = False,
) -> dict:
    """Drag the view's slider across its track for ``seconds``; the pictures seen before the
    release.

    The mouse presses the slider's thumb and moves, in ``moves`` steps over
    ``seconds``, to the farther end of the track, then to the other end, then back
    to halfway between where it started and the farther end, where it is released
    (about two tracks in all).  Playwright waits for the page to take each move
    (a frame at least), so a busy page stretches the drag.  ``paced``: a hand's
    drag instead (the bench's), whose place follows the clock: a move the page was
    slow to take is not made up for, the next goes where the hand is by then, so
    the drag lasts ``seconds`` however busy the page is.  Returns
    ``{"before": pictures drawn between the press and the release, "per_s": those
    per second of drag, "after": pictures drawn in the 3 s after the release, "moves": the
    moves made}`` for
    the view's figure, and ``"also"``: ``{selector: pictures before the release}`` for
    the graphs of ``also``.
    """
    box, (start, y) = thumb_xy(page, view)
    if not page.evaluate(DRAG_COUNT_JS, [view.chart_selector, *also]):
        raise RuntimeError(f"no drawn figure matching {[view.chart_selector, *also]}")
    left, right = box["x"] + 1, box["x"] + box["width"] - 1
    far, near = (left, right) if start - left > right - start else (right, left)
    stops = [start, far, near, (start + far) / 2]  # released elsewhere than it started
    legs = [abs(b - a) for a, b in itertools.pairwise(stops)]

    def place(t: float) -> float:
        """Where the hand is after ``t`` s (steady speed along the stops)."""
        along = min(t / seconds, 1.0) * sum(legs)
        for (a, b), leg in zip(itertools.pairwise(stops), legs, strict=True):
            if along <= leg and leg > 0:
                return a + (b - a) * along / leg
            along -= leg
        return stops[-1]

    page.mouse.move(start, y)
    page.mouse.down()
    t0 = time.monotonic()
    made = 0
    for k in range(1, moves + 1):
        wait = t0 + seconds * k / moves - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        elif paced and k < moves and t0 + seconds * (k + 1) / moves < time.monotonic():
            continue  # the hand is already past this move's time
        page.mouse.move(place(time.monotonic() - t0 if paced else seconds * k / moves), y)
        made += 1
    page.mouse.up()
    time.sleep(3.0)
    probe = page.evaluate(
        "() => { const p = window.__kpcaDrag; return {pictures: p.pictures, down: p.down,"
        " up: p.up}; }"
    )
    befores = [
        [t for t in pictures if probe["down"] <= t <= probe["up"]] for pictures in probe["pictures"]
    ]
    span = (probe["up"] - probe["down"]) / 1000
    return {
        "before": len(befores[0]),
        "per_s": len(befores[0]) / span if span > 0 else 0.0,
        "after": len([t for t in probe["pictures"][0] if t > probe["up"]]),
        "moves": made,
        "also": {selector: len(before) for selector, before in zip(also, befores[1:], strict=True)},
    }
