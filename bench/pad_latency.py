"""The Demo's handwriting pad: from a stroke's end to the cleaned-up pictures on screen.

Starts the app (``appserver.py``) and Debian's Chromium at 1280 × 720, opens
the Demo, and writes :data:`STROKES` digits with the mouse, one stroke each,
clearing the pad between them. For each, on the browser's own clock
(``performance.now()``): from the stroke's end (the pad sends its strokes on
``pointerup``) to the first animation frame where the written digit's four
pictures are drawn and visible and its verdict is shown. Prints every time and
the median (target: 300 ms on an idle server), and beside it the server's
numerics for the same strokes, timed in this process (strokes to a 16 × 16
digit, noise, linear and kernel PCA): the rest is Streamlit, the network and
the browser.

Run from the repository root, with the USPS digits at hand::

    KPCA_USPS_DIR=/path/to/usps python3 bench/pad_latency.py

The browser test ``tests/e2e/test_pad_browser.py`` uses the helpers below.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from appserver import AppServer  # noqa: E402
from browser import IDLE, VIEWPORT, launch_chromium  # noqa: E402

PAD = "canvas.pad"
"""The pad (in its component's open shadow root)."""
RESULT = ".st-key-dm_pad_result"
"""The Demo's pictures and verdict of the written digit."""
REPEATS = 15
SHOWN_JS = """
(result) => new Promise((resolve) => {
  const shown = () => {
    const box = document.querySelector(result);
    if (!box) return false;
    const graph = box.querySelector('.js-plotly-plot');
    if (!graph || !graph._fullLayout || !graph.checkVisibility({visibilityProperty: true}))
      return false;
    return /Kernel method: /.test(box.innerText);
  };
  const check = () => shown() ? resolve(performance.now()) : requestAnimationFrame(check);
  check();
})
"""
"""Resolves with the time of the first frame where the written digit's result is shown."""


def digit_strokes(k: int) -> list[list[tuple[float, float]]]:
    """The k-th test digit as one stroke, in shares of the pad's side (x right, y down)."""
    shift = 0.03 * (k % 3)
    kind = k % 5
    if kind == 0:  # a "1"
        return [[(0.5 + shift, 0.15), (0.5 + shift, 0.85)]]
    if kind == 1:  # a "7"
        return [[(0.25, 0.15 + shift), (0.75, 0.15 + shift), (0.4, 0.85)]]
    if kind == 2:  # a "0"
        a = np.linspace(0, 2 * np.pi, 24)
        return [list(zip(0.5 + 0.22 * np.cos(a), 0.5 + (0.33 - shift) * np.sin(a), strict=True))]
    if kind == 3:  # a "2"
        a = np.linspace(np.pi, 2.2 * np.pi, 12)
        top = list(zip(0.5 + 0.2 * np.cos(a), 0.32 + 0.17 * np.sin(a), strict=True))
        return [[*top, (0.28, 0.82), (0.75 + shift, 0.82)]]
    return [[(0.6, 0.12), (0.3, 0.6), (0.75, 0.6 + shift)]]  # a "4" without its stem


def write(page, strokes: list[list[tuple[float, float]]]) -> None:
    """Write ``strokes`` on the pad with the mouse (pressed along each stroke)."""
    pad = page.locator(PAD)
    pad.scroll_into_view_if_needed()
    box = pad.bounding_box()
    for stroke in strokes:
        points = [(box["x"] + x * box["width"], box["y"] + y * box["height"]) for x, y in stroke]
        page.mouse.move(*points[0])
        page.mouse.down()
        for point in points[1:]:
            page.mouse.move(*point, steps=4)
        page.mouse.up()


def clear(page) -> None:
    """Wipe the pad and wait until the page says it is empty."""
    if page.locator(PAD).get_attribute("data-strokes") != "0":
        page.locator(".kp button[data-act=clear]").click()
    page.wait_for_function(
        "(r) => !document.querySelector(r + ' .js-plotly-plot')", arg=RESULT, timeout=60_000
    )
    page.wait_for_selector(IDLE, timeout=60_000)


def stroke_to_pictures_ms(page, strokes) -> float:
    """Write ``strokes`` on an empty pad: ms from the last stroke's end to the pictures shown."""
    write(page, strokes)
    shown = page.evaluate(SHOWN_JS, RESULT)
    sent = float(page.locator(PAD).get_attribute("data-sent-at"))
    page.wait_for_selector(IDLE, timeout=60_000)
    return shown - sent


def open_demo(page, url: str) -> None:
    page.goto(f"{url}/demo")
    page.wait_for_selector(PAD, timeout=180_000)
    page.wait_for_selector(IDLE, timeout=180_000)


def server_numerics_ms(strokes_list) -> list[float]:
    """The server's work for each written digit, timed here: the Demo's model and noise."""
    from kpca_core.denoise import DigitDenoiser, Noise, demo_images, sample_digits
    from kpca_core.handwriting import LEVELS, from_pad, to_digit
    from kpca_core.usps import load_digit_pair

    train, test = load_digit_pair()
    subsets = sample_digits(
        (train.images, train.labels), (test.images, test.labels), 300, 50, side=16, source="USPS"
    )
    model = DigitDenoiser(0.5, center=False).fit(subsets.X_train)
    times = []
    for strokes in strokes_list:
        grid = [[[int(x * (LEVELS - 1)), int(y * (LEVELS - 1))] for x, y in s] for s in strokes]
        start = time.perf_counter()
        digit = to_digit(from_pad(grid)[0])
        demo_images(model, digit, Noise("gaussian", 0.2), side=16, random_state=1000)
        times.append((time.perf_counter() - start) * 1e3)
    return times


def main() -> None:
    from playwright.sync_api import sync_playwright

    if not os.environ.get("KPCA_USPS_DIR"):
        sys.exit("set KPCA_USPS_DIR to the folder of the USPS files")
    strokes_list = [digit_strokes(k) for k in range(REPEATS)]
    with AppServer() as server, sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        page = browser.new_context(viewport=VIEWPORT).new_page()
        open_demo(page, server.url)
        stroke_to_pictures_ms(page, digit_strokes(1))  # the first: caches and fonts warm
        times = []
        for strokes in strokes_list:
            clear(page)
            times.append(stroke_to_pictures_ms(page, strokes))
        browser.close()
    numerics = server_numerics_ms(strokes_list)
    print("stroke end -> pictures shown (ms):", " ".join(f"{t:.0f}" for t in times))
    print(f"median over {REPEATS} strokes: {statistics.median(times):.0f} ms (target <= 300 ms)")
    print(
        f"server numerics alone (strokes -> digit, noise, both methods), median: "
        f"{statistics.median(numerics):.0f} ms, "
        f"{statistics.median(numerics) / statistics.median(times):.0%} of the whole"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.1f} (the machine may be shared)")


if __name__ == "__main__":
    main()
