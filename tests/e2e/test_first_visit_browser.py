"""A first visit in a real browser: what shows while the page loads, and what is loaded.

A fresh browser context at 1280 × 720 (no cache, no session), as a student
opening the lecturer's link. Timings are ``bench/cold_start.py``'s business;
these tests check behaviour only.
"""

from __future__ import annotations

import time

import pytest
from appserver import AppServer
from browser import IDLE, VIEWPORT

from kpca_ui.presenter import KEY, SLIDE
from kpca_ui.views import lesson

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}

FIGURE_IN_FRAME_JS = "() => !!document.querySelector('.js-plotly-plot .main-svg')"


@pytest.mark.parametrize(
    "query", ["", pytest.param(f"?{KEY}=true", marks=pytest.mark.slow)], ids=["plain", "presenter"]
)
def test_the_lessons_view_is_loaded_once(browser, app_server: AppServer, query) -> None:
    """The Lesson embeds the step's view (a whole app in a frame) once: not again for
    another width while the sidebar closes, nor in a loop of the sidebar opening and
    closing on every run (which loaded it 2-10 times before it settled). It is planned
    for the frame a 1280 × 720 screen has, so the width listener has nothing to report
    (waiting for its report kept the Lesson over 3 s cold), and its loading starts from
    the page's HTML, before the page's own session (its websocket) has started."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(90_000)
    page = context.new_page()
    loads = view_loads(page)
    try:
        page.goto(f"{app_server.url}/lesson{query}")
        page.wait_for_selector(f".st-key-{lesson.VIEW} iframe")
        frame = page.frame_locator(f".st-key-{lesson.VIEW} iframe")
        frame.locator(".js-plotly-plot .main-svg").first.wait_for()
        page.wait_for_selector(IDLE)
        time.sleep(3)  # a reload would start within the listener's settling time
        assert [what for what in loads if what != "websocket"] == ["view"], loads
        assert loads.index("view") < loads.index("websocket"), loads
        assert page.evaluate("() => window.__kpcaLessonFrame.reported") is None
    finally:
        context.close()


def view_loads(page) -> list[str]:
    """What ``page`` loads from now on, in order: "view" for each document of a lesson's
    view (a slide), "websocket" for each session started."""
    loads: list[str] = []
    page.on(
        "request",
        lambda request: (
            loads.append("view")
            if request.resource_type == "document" and f"{SLIDE}=true" in request.url
            else None
        ),
    )
    page.on("websocket", lambda _: loads.append("websocket"))
    return loads


def test_a_phone_loads_no_lesson_view(browser, app_server: AppServer) -> None:
    """A phone's Lesson shows the step's words and its "Open" link, not the view (a
    projector's slide): the view is not loaded either (it was, hidden: one more session
    on the server per phone), neither from the page's HTML nor by the page."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.set_default_timeout(90_000)
    page = context.new_page()
    loads = view_loads(page)
    try:
        page.goto(f"{app_server.url}/lesson?step=3")
        page.wait_for_selector(IDLE)
        page.get_by_role("heading", name="3. ").wait_for()
        time.sleep(3)  # the page's components have run
        assert "view" not in loads, loads
        assert page.locator("iframe").count() == 0
    finally:
        context.close()


NOTICE_JS = """
() => {
  const style = getComputedStyle(document.querySelector('[data-testid="stMain"]'), '::after');
  return style.content.includes('Drawing the figures') && Number(style.opacity) > 0;
}
"""
"""Whether the page shows its "Drawing the figures …" notice (kpca_ui/shell.py)."""


@pytest.mark.parametrize(
    "link,says",
    [
        ("spectrum?sp_range=2.5&sp_range=2.5", "The range of widths is empty"),
        ("spectrum?sp_kernel=Laplacian:+width+ℓ&sp_nw=200&sp_n=2000", "allows 45 s per request"),
    ],
)
def test_a_page_that_explains_why_it_draws_nothing_does_not_say_figures_are_coming(
    browser, app_server: AppServer, link: str, says: str
) -> None:
    """The Spectrum with its range's two ends on one value, or a sweep refused as too long,
    says so and draws nothing: no "Drawing the figures …" for the 30 s it would otherwise
    stay.  (A contour grid refused goes through the same shell.nothing_to_draw; no link
    reaches the budget since the cost model was measured (issue 53): the costliest grid,
    tests/test_page_contours.py's sigmoid one, is priced at a few seconds.)"""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    try:
        page.goto(f"{app_server.url}/{link}")
        page.wait_for_selector(IDLE)
        page.get_by_text(says).wait_for()
        page.wait_for_timeout(1500)  # the notice shows 0.6 s after a page without figures
        assert not page.evaluate(NOTICE_JS)
    finally:
        context.close()


@pytest.mark.parametrize("path", ["contours", "denoising?dn_tab=Pre-images"])
def test_a_figure_not_drawn_yet_shows_that_it_is_coming(
    browser, app_server: AppServer, artifacts, path: str
) -> None:
    """The browser's share of a first visit (loading the chart code, drawing) shows a sign
    of work; here the chart code never arrives, so the notice must show, then go once
    the figure is drawn."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(180_000)
    page = context.new_page()
    held: list = []
    page.route("**/*lotly*.js", lambda route: held.append(route))
    try:
        # (the page's load event waits for Plotly's script, which it asks for at once)
        page.goto(f"{app_server.url}/{path}", wait_until="commit")
        page.wait_for_selector(IDLE)
        page.wait_for_function(NOTICE_JS)
        page.screenshot(path=artifacts / f"drawing_notice_{path.split('?')[0]}.png")
        for route in held:  # the chart code arrives: the figures are drawn
            route.continue_()
        page.unroute("**/*lotly*.js")
        page.wait_for_selector(".js-plotly-plot .main-svg")
        page.wait_for_function(f"() => !({NOTICE_JS})()")
    finally:
        context.close()


def test_the_page_shows_the_apps_name_before_streamlits_code_has_run(
    browser, app_server: AppServer, artifacts
) -> None:
    """Streamlit's page is empty until its ~2 MB of JavaScript has run (1-2 s on a first
    visit): here that code never arrives, and the page still says what is coming."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.route("**/static/js/**", lambda route: route.abort())
    try:
        page.goto(f"{app_server.url}/contours?ct_k=2")
        shown = page.get_by_text("Kernel PCA Explorer", exact=True)
        assert shown.is_visible() and page.get_by_text("Loading …").is_visible()
        page.screenshot(path=artifacts / "boot_screen.png")
    finally:
        context.close()


def test_only_a_pages_html_is_changed(app_server: AppServer) -> None:
    """The name goes into a page's HTML (asked for compressed, as browsers do); Streamlit's
    own files and answers are passed on as they were."""
    import gzip
    import urllib.request

    def fetch(path: str, cookie: str = "") -> tuple:
        request = urllib.request.Request(
            f"{app_server.url}{path}", headers={"Accept-Encoding": "gzip", "Cookie": cookie}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            body = answer.read()
            if answer.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            return answer.headers, body

    for path in ("/", "/contours", "/lesson"):
        headers, body = fetch(path)
        assert b"Kernel PCA Explorer" in body and b'<div id="root">' in body, path
        assert headers.get("Content-Encoding") is None  # so: as many bytes as it says
        assert int(headers.get("Content-Length")) == len(body)
    assert fetch("/_stcore/health")[1] == b"ok"


def test_plotlys_script_is_asked_for_before_the_pages_script_has_run(
    browser, app_server: AppServer
) -> None:
    """Plotly's script (4.8 MB) is fetched and run while Streamlit's code loads and the
    page's script runs, not only once the first chart is mounted (which put its fetch
    and its run, 0.7-1.8 s, between the page's elements and its first figure)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    events: list[str] = []
    page.on("request", lambda r: events.append("plotly") if "plotly" in r.url else None)
    page.on("websocket", lambda ws: ws.on("framereceived", lambda _: events.append("run")))
    try:
        page.goto(f"{app_server.url}/contours")
        page.wait_for_selector(".js-plotly-plot .main-svg", timeout=90_000)
        assert "plotly" in events and "run" in events
        assert events.index("plotly") < events.index("run"), events[:5]
        assert events.count("plotly") == 1
    finally:
        context.close()


BODY_AT_SCRIPT_JS = """
window.__bodyAtPlotly = [];
const append = Node.prototype.appendChild;
Node.prototype.appendChild = function (node) {
  if (node.tagName === 'SCRIPT' && (node.src || '').includes('/_kpca/plotly')) {
    window.__bodyAtPlotly.push(!!document.body);
  }
  return append.call(this, node);
};
"""


def test_plotlys_script_runs_once_the_page_has_a_body(browser, app_server: AppServer) -> None:
    """Plotly's script is added (and so run) only once the page's ``<body>`` exists, even
    when it is in the browser's cache (a second visit): plotly.js reads the body as it
    runs, and run while the ``<head>`` was still being read it failed ("Cannot read
    properties of null (reading 'appendChild')"), leaving every chart of the page
    empty (the Pre-images tab's second visit, 1 in 3 under load)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(90_000)
    page = context.new_page()
    page.add_init_script(BODY_AT_SCRIPT_JS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        for _ in range(2):  # the second time from the browser's cache
            page.goto(f"{app_server.url}/contours")
            page.wait_for_selector(".js-plotly-plot .main-svg")
            assert page.evaluate("window.__bodyAtPlotly") == [True]
        assert errors == []
    finally:
        context.close()


FRAME_OF_DRAWING_JS = """
() => {
  window.__frame = 0;
  const tick = () => { window.__frame += 1; requestAnimationFrame(tick); };
  requestAnimationFrame(tick);
  window.__drawn = [];
  new MutationObserver(() => {
    const graphs = document.querySelectorAll('.js-plotly-plot .main-svg');
    const seen = new Set(window.__drawn.map((d) => d[0]));
    graphs.forEach((svg) => {
      const graph = svg.closest('.js-plotly-plot');
      if (!graph.id) graph.id = 'g' + Math.random().toString(36).slice(2);
      if (seen.has(graph.id)) return;
      seen.add(graph.id);
      window.__drawn.push([graph.id, window.__frame]);
    });
  }).observe(document, {subtree: true, childList: true});
}
"""


def test_a_pages_charts_are_drawn_one_per_frame(browser, app_server: AppServer) -> None:
    """The Spectrum's five charts are drawn one after the other, the first painted before
    the next is drawn, not all in one long task (1.5 s on a first visit under load,
    during which the page showed none of them)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(90_000)
    page = context.new_page()
    page.add_init_script(f"({FRAME_OF_DRAWING_JS})()")
    try:
        page.goto(f"{app_server.url}/spectrum")
        page.wait_for_function("() => window.__drawn && window.__drawn.length >= 3")
        frames = [frame for _, frame in page.evaluate("window.__drawn")]
        assert len(set(frames)) == len(frames), frames
    finally:
        context.close()


def test_plotly_is_preloaded_where_a_page_draws_charts(app_server: AppServer) -> None:
    """A page with charts asks for Plotly's script in its HTML; the Lesson (its charts are
    in its frame's page) and a student's phone in class mode do not."""
    import urllib.request

    from kpca_ui.plotly_js import PLOTLY_PATH

    def fetch(path: str, cookie: str = "") -> tuple:
        request = urllib.request.Request(
            f"{app_server.url}{path}", headers={"Accept-Encoding": "gzip", "Cookie": cookie}
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.headers, answer.read()

    for path, cookie, preloaded in (
        ("/", "", True),
        ("/contours?slide=true&embed=true", "", True),
        ("/class_room?room=ABCDEF", "kpca_lecturer_ABCDEF=secret", True),  # the projector
        ("/lesson", "", False),
        ("/class_room?room=ABCDEF", "", False),
        ("/class_room", "", False),
    ):
        assert (PLOTLY_PATH.encode() in fetch(path, cookie)[1]) is preloaded, path


NOTICE_AT_TITLE_JS = """
() => {
  window.__atTitle = null;
  new MutationObserver((_, watch) => {
    const main = document.querySelector('[data-testid="stMain"]');
    if (!main || !document.querySelector('h1')) return;
    const style = getComputedStyle(main, '::after');
    window.__atTitle = style.content.includes('Drawing the figures') && Number(style.opacity) > 0;
    watch.disconnect();
  }).observe(document, {subtree: true, childList: true});
}
"""


@pytest.mark.parametrize("path", ["spectrum", "denoising?dn_tab=Pre-images"])
def test_a_first_load_shows_that_figures_are_coming_with_its_first_text(
    browser, app_server: AppServer, path: str
) -> None:
    """From the moment Streamlit has drawn the page (the app's "Loading …" before), a
    first visit shows "Drawing the figures …" until a figure is drawn: not only 0.6 s after
    the style the page's script sends had come (which came 1-3 s after the title on a
    first visit, so a 3-5 s wait showed no sign of work in most fresh contexts)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(90_000)
    page = context.new_page()
    page.add_init_script(f"({NOTICE_AT_TITLE_JS})()")
    held: list = []
    page.route("**/*lotly*.js", lambda route: held.append(route))
    try:
        page.goto(f"{app_server.url}/{path}", wait_until="commit")
        page.wait_for_function("() => window.__atTitle !== null")
        assert page.evaluate("window.__atTitle")
        for route in held:
            route.continue_()
        page.unroute("**/*lotly*.js")
        page.wait_for_selector(".js-plotly-plot .main-svg")
        page.wait_for_function(f"() => !({NOTICE_JS})()")
    finally:
        context.close()
