"""Cold views on a warmed server: each view's first figure in a fresh browser, p95 over contexts.

A lecturer starts the server, and within a minute a class opens the views.
This starts the app as the README does (``bench/appserver.py``), waits until
its warm-up has finished (the server prints so; an older server that prints
nothing is woken by one visit and waited for until it is quiet), then opens
each target in a new browser context of Debian's Chromium at 1280 × 720, one
after the other, ``--contexts`` times: no cookie, no cache, no session.

Measured per target: from the navigation's start to the first plotly figure
drawn where it can be seen (in any frame: the Lesson shows its view in one),
on the bench's clock, whether a progress bar, a spinner or the pages' "Drawing
the figures …" showed before it (and how often a wait over 1 s showed none),
and when text (any: the app's name before Streamlit has drawn) and the page's
title showed ("cold");
then the same link opened again in the same context ("warm": the browser's
cache filled, a new session of the warm server).
Then, on the Denoising view, a change of the width c (each offered width in
turn, in one session): the time until the figure shows the new width, and
whether the old picture stayed on screen meanwhile and a progress bar showed.

    KPCA_USPS_DIR=/path/to/usps python bench/cold_start.py   # 10 contexts
    python bench/cold_start.py --contexts 3   # quicker, noisier
    python bench/cold_start.py --views Home Lesson --before /tmp/before

``--before DIR`` also serves the app of another checkout (e.g. ``git worktree add
/tmp/before <commit>``) on a second server, and opens each target there right
after this checkout's, so that both see the same load; a table for each.

Timings depend on the machine's load (2 shared cores here): say so with them.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import re
import time
from pathlib import Path
from urllib.parse import quote

from appserver import AppServer
from browser import IDLE, VIEWPORT, launch_chromium

from kpca_ui.views.denoising import DEFAULTS, TABS, WIDTHS

WARMED = re.compile(r"warm-up finished in")
DENOISING_TABS = TABS[: TABS.index("Write a digit")]
"""The tabs with a figure of their own (the pad's shows none until a digit is written)."""
TARGETS = (
    ("Home", ""),
    ("Contours", "contours"),
    ("Spectrum", "spectrum"),
    *((f"Denoising: {tab}", f"denoising?dn_tab={quote(tab)}") for tab in DENOISING_TABS),
    ("Features", "features"),
    ("Demo", "demo"),
    ("Lesson", "lesson"),
)
"""(name, path and query) of each view and tab, as a link opens it."""

FIGURE_SHOWN_JS = """
() => (!window.frameElement || window.frameElement.checkVisibility({visibilityProperty: true}))
  && [...document.querySelectorAll('.js-plotly-plot')].some(
  (graph) => graph.querySelector('.main-svg') && graph.checkVisibility({visibilityProperty: true}))
"""
"""A figure drawn where it can be seen: in a frame, a frame shown (the Lesson's view starts
loading in a hidden frame, :func:`kpca_ui.views.lesson.early_frame_html`)."""
PROGRESS_JS = """
() => !!document.querySelector('[data-testid="stProgress"], [data-testid="stSpinner"]') || (() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const notice = main && getComputedStyle(main, '::after');
  return !!notice && notice.content.includes('Drawing the figures') && Number(notice.opacity) > 0;
})()
"""
"""A progress bar, a spinner, or the pages' "Drawing the figures …" (``kpca_ui/shell.py``,
``kpca_ui/boot.py``)."""
SOMETHING_SHOWN_JS = """
() => !!document.body && document.body.innerText.trim().length > 0
"""
"""Any text on the page: the app's name before Streamlit has drawn (kpca_ui/boot.py), or
the page's own."""
TITLE_SHOWN_JS = """
() => [...document.querySelectorAll('h1')].some(
  (title) => title.innerText.trim() && title.checkVisibility({visibilityProperty: true}))
"""
POLL_S = 0.05


def _any_frame(page, script: str) -> bool:
    for frame in page.frames:
        try:
            if frame.evaluate(script):
                return True
        except Exception:  # a frame navigating or gone: look again at the next poll
            continue
    return False


def first_figure(page, url: str, timeout: float) -> tuple[float, bool, float, float]:
    """Open ``url``; seconds until a figure shows, whether progress showed before it, and
    seconds until something (any text) and the page's title showed."""
    start = time.monotonic()
    page.goto(url, wait_until="commit")
    progress, something, title = False, math.inf, math.inf
    while time.monotonic() - start < timeout:
        now = time.monotonic() - start
        if something == math.inf and page.evaluate(SOMETHING_SHOWN_JS):
            something = now
        if title == math.inf and _any_frame(page, TITLE_SHOWN_JS):
            title = now
        if _any_frame(page, FIGURE_SHOWN_JS):
            now = time.monotonic() - start
            return now, progress, min(something, now), min(title, now)
        progress = progress or _any_frame(page, PROGRESS_JS)
        time.sleep(POLL_S)
    return math.inf, progress, something, title


def p95(values: list[float]) -> float:
    """The 95th percentile (nearest rank): the largest of 10."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


def warm(server: AppServer, browser, started: float, timeout: float = 300.0) -> float:
    """Seconds from the server's start (``started``) until it is warm (module docstring)."""
    while time.monotonic() - started < 30:
        if "Kernel PCA Explorer ready" in server.log_path.read_text(errors="replace"):
            break
        time.sleep(0.2)
    else:  # an app that warms up on its first visit
        context = browser.new_context(viewport=VIEWPORT)
        context.new_page().goto(server.url)
        time.sleep(5)
        context.close()
        server.wait_quiet(timeout=timeout)
        return time.monotonic() - started
    while not WARMED.search(server.log_path.read_text(errors="replace")):
        if time.monotonic() - started > timeout:
            raise TimeoutError("no warm-up line")
        time.sleep(0.2)
    return time.monotonic() - started


RUNNING = '[data-testid="stApp"][data-test-script-state="running"]'


def width_changes(browser, base_url: str, timeout: float) -> list[tuple[str, float, bool, bool]]:
    """On the Denoising view, the width c one step up, back, and one step down (a model of
    3000 digits each, the default's cached); (width, seconds until the run ends, whether a
    figure stayed on screen all along, whether a progress bar showed)."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.goto(f"{base_url}/denoising")
    page.wait_for_selector(IDLE, timeout=timeout * 1000)
    page.wait_for_function(FIGURE_SHOWN_JS, timeout=timeout * 1000)
    thumb = page.locator(".st-key-dn_c").get_by_role("slider").first
    at = WIDTHS.index(DEFAULTS["dn_c"])
    results = []
    for key, step in (("ArrowRight", 1), ("ArrowLeft", -1), ("ArrowLeft", -1)):
        at += step
        thumb.focus()
        start = time.monotonic()
        thumb.press(key)
        page.wait_for_selector(RUNNING, timeout=timeout * 1000)
        kept, progress = True, False
        while page.locator(RUNNING).count() and time.monotonic() - start < timeout:
            kept = kept and page.evaluate(FIGURE_SHOWN_JS)
            progress = progress or page.evaluate(PROGRESS_JS)
            time.sleep(POLL_S)
        results.append((f"{WIDTHS[at]:g}", time.monotonic() - start, kept, progress))
    context.close()
    return results


def table(times: dict[str, list[float]], measures: dict[str, dict[str, list[float]]]) -> None:
    """Print the markdown table of one server's cold and warm times (module docstring)."""
    print(
        "| view | cold median (s) | cold p95 (s) | warm p95 (s) | text p95 (s) "
        "| title p95 (s) | progress shown | over 1 s without |\n"
        "|---|---|---|---|---|---|---|---|"
    )
    for name, values in times.items():
        n = len(values)
        print(
            f"| {name} | {sorted(values)[n // 2]:.2f} | {p95(values):.2f} "
            f"| {p95(measures['warm'][name]):.2f} | {p95(measures['text'][name]):.2f} "
            f"| {p95(measures['title'][name]):.2f} | {sum(measures['progress'][name]):.0f}/{n} "
            f"| {sum(measures['bare'][name]):.0f}/{n} |"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--contexts", type=int, default=10, help="fresh browser contexts")
    parser.add_argument("--timeout", type=float, default=90.0, help="seconds per figure")
    parser.add_argument(
        "--views",
        nargs="+",
        default=[name for name, _ in TARGETS],
        metavar="VIEW",
        help="only these targets (names as in the table, e.g. Home 'Denoising: Table 1')",
    )
    parser.add_argument(
        "--before", type=Path, help="also serve this checkout's app ('before'), alternating"
    )
    args = parser.parse_args()
    targets = [(name, path) for name, path in TARGETS if name in args.views]
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        servers = {"this checkout": stack.enter_context(AppServer())}
        if args.before:
            servers["before"] = stack.enter_context(AppServer(root=args.before))
        browser = launch_chromium(stack.enter_context(sync_playwright()))
        for label, server in servers.items():
            warm_s = warm(server, browser, started, timeout=900)
            print(f"{label}: server warm {warm_s:.0f} s after its start ({server.log_path})")
        times = {label: {name: [] for name, _ in targets} for label in servers}
        measures = {
            label: {
                what: {name: [] for name, _ in targets}
                for what in ("warm", "text", "title", "progress", "bare")
            }
            for label in servers
        }
        loads = [os.getloadavg()[0]]
        for round_ in range(args.contexts):
            for name, path in targets:
                for label, server in servers.items():
                    context = browser.new_context(viewport=VIEWPORT)
                    page = context.new_page()
                    url = f"{server.url}/{path}"
                    seconds, shown, something, title = first_figure(page, url, args.timeout)
                    again, *_ = first_figure(page, url, args.timeout)
                    context.close()
                    times[label][name].append(seconds)
                    measured = measures[label]
                    measured["warm"][name].append(again)
                    measured["title"][name].append(title)
                    measured["text"][name].append(something)
                    measured["progress"][name].append(shown)
                    measured["bare"][name].append(seconds > 1.0 and not shown)
            loads.append(os.getloadavg()[0])
            print(f"context {round_ + 1}/{args.contexts} done, load {loads[-1]:.1f}", flush=True)
        for label in servers:
            print(f"\n{label}" + (f" ({args.before})" if label == "before" else "") + ":\n")
            table(times[label], measures[label])
        print(
            f"\nload average (1 min) at the start and after each context: "
            f"{min(loads):.1f}-{max(loads):.1f}; {len(os.sched_getaffinity(0))} cores"
        )
        if "Denoising: Demo" not in args.views:
            return
        for label, server in servers.items():
            print(f"\n{label}: Denoising, the width c one step up, back, one step down:")
            for option, seconds, kept, shown in width_changes(browser, server.url, args.timeout):
                print(
                    f"  c = {option:6} {seconds:6.2f} s  old picture kept meanwhile: {kept}, "
                    f"progress shown: {shown}"
                )
        browser.close()


if __name__ == "__main__":
    main()
