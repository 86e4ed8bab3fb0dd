"""Explore a chart without seeing it: the app's explorer against MAIDR, on the same figures.

Issue 51 asks for charts a blind student can walk by keyboard and by ear, "MAIDR or your
own; measure both".  Three figures built by :mod:`kpca_core` (a :class:`WidthSweep` of the
Gaussian kernel on 120 points of three rings: the Spectrum's ratio lines and its heatmap;
the Contours projection on kPC 1 and kPC 2, σ = 1) are given to

- the app's explorer (``kpca_ui/chart.js``): this file, run by ``streamlit run``, draws them
  with :func:`kpca_ui.chart.chart`, each a Tab stop saying its steps in a live region;
- MAIDR (``py-maidr``, ``maidr.save_html(figure, use_cdn=False)``): its HTML opened from disk,
  every network request refused except Plotly's script, which its HTML takes from
  ``cdn.plot.ly`` even offline; it is answered with the same file from the plotly package
  (its integrity hash matches), and the bench says which requests were made.

Both are driven by the same keys in headless Chromium; at each step the text read out is
taken (the app: its live region; MAIDR: its text line ``#maidr-text-container``) and checked
against the figure's data; every oscillator started is recorded by an init script with its
frequency.  Run ``python bench/explore_compare.py`` (needs ``pip install maidr``).
"""

from __future__ import annotations

import itertools
import re
import sys
import tempfile
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import streamlit as st

ROOT = Path(__file__).resolve().parent.parent
KEYS = {
    "lines": ["ArrowRight"] * 3 + ["ArrowDown"] + ["ArrowRight"] * 2 + ["Control+ArrowRight"],
    "heatmap": ["ArrowRight", "ArrowRight", "ArrowUp", "ArrowUp", "ArrowRight"],
    "projection": ["ArrowRight"] * 3 + ["Control+ArrowRight", "ArrowLeft"],
}
"""The key sequence walked on each figure, the same in both tools (Ctrl+Right: the last point)."""
STEP_MS = 300
"""The wait after a key before its readout is taken."""
TOLERANCE = 0.01
"""A number said is the data's when within 1% of it (the app says three significant digits)."""
TONES_JS = """() => {
  window.__tones = [];
  const set = new WeakMap();
  const at = AudioParam.prototype.setValueAtTime;
  AudioParam.prototype.setValueAtTime = function (v, t) {
    set.set(this, v);
    return at.call(this, v, t);
  };
  const start = AudioScheduledSourceNode.prototype.start;
  AudioScheduledSourceNode.prototype.start = function (...args) {
    if (this instanceof OscillatorNode)
      window.__tones.push(set.has(this.frequency) ? set.get(this.frequency) : this.frequency.value);
    return start.apply(this, args);
  };
}"""
"""Record the frequency of every oscillator started (a tone), in the page before its scripts."""
LIVE_JS = """() => {
  window.__live = 0;
  const live = "[aria-live], [role=status], [role=alert], [role=log]";
  new MutationObserver((changes) => {
    for (const { target } of changes) {
      const element = target.nodeType === Node.TEXT_NODE ? target.parentElement : target;
      if (element?.closest?.(live)?.textContent.trim()) window.__live += 1;
    }
  }).observe(document, { subtree: true, childList: true, characterData: true });
}"""
"""Count the changes of text inside a live region (what a screen reader would announce)."""


def figures() -> dict[str, go.Figure]:
    """The three figures, built by kpca_core as the app's pages build them."""
    from kpca_core import contours as ct
    from kpca_core.datasets import three_rings
    from kpca_core.figures import contours as contour_figures
    from kpca_core.figures import spectrum as spectrum_figures
    from kpca_core.spectrum.sweep import WidthSweep

    X, labels = three_rings(120, 0.25, 0)
    sweep = WidthSweep("rbf", n_widths=20).fit(X)
    columns = ct.contour_sweep(X, [ct.KernelSpec("rbf", sigma=1.0)], n_components=2, labels=labels)
    return {
        "lines": spectrum_figures.ratio_lines_figure(sweep),
        "heatmap": spectrum_figures.spectrum_heatmap_figure(sweep),
        "projection": contour_figures.projection_figure(columns, 0, 1, 2),
    }


def page() -> None:
    """The Streamlit page: the figures drawn by the app's chart component."""
    from kpca_ui.chart import chart

    for name, figure in figures().items():
        chart(figure, key=f"ex_{name}")


# ---- reading what was said -------------------------------------------------------------


def close(said: float, value: float, decimals: int | None = None) -> bool:
    """Whether ``said`` is ``value``: within 1%, or (``decimals`` given) to the digits shown."""
    if decimals is not None:
        return abs(said - value) <= 0.5 * 10.0**-decimals * (1 + 1e-6)
    return abs(said - value) <= TOLERANCE * abs(value) or said == value


def said_numbers(text: str) -> list[tuple[float, int]]:
    """The numbers in a readout with their decimal places ("0.02": 2; "317": 0)."""
    found = re.findall(r"-?\d+(?:\.(\d+))?", text.replace("−", "-"))
    whole = re.findall(r"-?\d+(?:\.\d+)?", text.replace("−", "-"))
    return [(float(n), len(d)) for n, d in zip(whole, found, strict=True)]


def points(figure: go.Figure) -> list[tuple[float, ...]]:
    """What a correct readout names: each line's or scatter's (x, y); a heatmap's cells as
    (width, component k, value).  The Spectrum's heatmap is given the edges of its cells:
    on its log x axis, halfway in the logarithm between the sweep's widths (so a column's
    width is the geometric mean of its edges), and k ± 0.5 for the row of component k."""
    found: list[tuple[float, ...]] = []
    for trace in figure.data:
        x, y = np.asarray(trace.x, float), np.asarray(trace.y, float)
        if trace.type == "heatmap":
            z = np.asarray(trace.z, float)
            cx = np.sqrt(x[1:] * x[:-1]) if figure.layout.xaxis.type == "log" else x
            cy = (y[1:] + y[:-1]) / 2
            found += [(cx[i], cy[j], z[j, i]) for j in range(len(cy)) for i in range(len(cx))]
        else:
            found += list(zip(x, y, strict=True))
    return found


def correct(text: str, data: list[tuple[float, ...]], shown: bool = False) -> bool:
    """Whether the readout names a point of the data: each of its coordinates (a blank
    cell's: "no value") among the numbers said, within 1% or (``shown``) to the digits said."""
    said = said_numbers(text)
    for point in data:
        if all(
            ("no value" in text)
            if np.isnan(v)
            else any(close(s, v, d if shown else None) for s, d in said)
            for v in point
        ):
            return True
    return False


MARKUP = re.compile(r"<\s*/?\s*(sub|sup|br|b|i|span)\b", re.I)


# ---- driving the two tools -----------------------------------------------------------


def app_reader(page, name: str):
    """Focus the app's chart ``name`` (its Tab stop) and return a reader of its live region."""
    box = f".st-key-ex_{name}"
    page.focus(f"{box} [role='application']")
    return lambda: page.locator(f"{box} [aria-live='polite']").text_content() or ""


def maidr_reader(page, name: str):
    """Focus MAIDR's chart (the page's first Tab stop) and return a reader of its text line."""
    page.wait_for_selector("[id^='maidr-figure']", state="attached")
    page.wait_for_selector("[data-maidr-drawn]", state="attached")
    page.wait_for_timeout(2000)
    page.keyboard.press("Tab")
    return lambda: page.evaluate(
        "() => document.querySelector('#maidr-text-container')?.textContent || ''"
    )


def walk(page, read, keys: list[str], data) -> dict:
    """Press ``keys``, reading after each: the readouts, how many name a point of ``data``
    (within 1%, and to the digits said), hold raw markup, or changed a live region."""
    said, announced = [], 0
    for key in keys:
        page.evaluate("() => { window.__live = 0; }")
        page.keyboard.press(key)
        page.wait_for_timeout(STEP_MS)
        said.append(read().strip())
        announced += page.evaluate("() => window.__live") > 0
    return {
        "said": said,
        "correct": sum(correct(s, data) for s in said),
        "shown": sum(correct(s, data, shown=True) for s in said),
        "markup": sum(bool(MARKUP.search(s)) for s in said),
        "announced": announced,
    }


def to_target(page, read, x: float, y: float, series: str, most: int = 60) -> int | None:
    """Keys from the chart's focus to the readout of the point (``x``, ``y``) of the line
    named ``series``: Right (onto the first line), Down until the readout names the line (Up
    once Down goes no further), then Right until it says that point; None if not reached
    in ``most`` keys."""

    def on_line() -> bool:
        return series in re.sub(r"<[^>]*>", "", read())

    def there() -> bool:
        said = [v for v, _ in said_numbers(read())]
        return on_line() and all(any(close(s, v) for s in said) for v in (x, y))

    def press(key: str) -> None:
        page.keyboard.press(key)
        page.wait_for_timeout(STEP_MS)

    press("ArrowRight")
    presses, key, before = 1, "ArrowDown", read()
    while not on_line() and presses < most:
        press(key)
        presses += 1
        if read() == before or "No more data" in read():  # the last line that way: back
            key = "ArrowUp"
        before = read()
    while presses < most:
        if there():
            return presses
        press("ArrowRight")
        presses += 1
    return None


def tones(page, values: np.ndarray, toggle: bool) -> dict:
    """Walk the first points of the first line with sound on (``toggle``: S pressed first),
    ``values`` being theirs: the tones started, and in how many steps the pitch of each
    step's first tone moved the way the value did."""
    if toggle:
        page.keyboard.press("s")
    pitch, heard = [], 0
    for _ in values:
        page.evaluate("() => { window.__tones = []; }")
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(1000)  # a tone may start a moment after the key
        step = page.evaluate("() => window.__tones")
        heard += len(step)
        pitch.append(step[0] if step else np.nan)
    moves = [
        np.sign(b - a) == np.sign(g - f)
        for (a, b), (f, g) in zip(
            itertools.pairwise(values), itertools.pairwise(pitch), strict=True
        )
        if a != b
    ]
    return {"tones": heard, "follows": f"{sum(moves)}/{len(moves)}", "hz": pitch}


SHOTS = Path(tempfile.gettempdir()) / "explore_compare"
"""Where the screenshots of both tools in use are left (not part of the result)."""


def plotly_script() -> bytes:
    """Plotly's script as the plotly package ships it: what MAIDR's HTML asks cdn.plot.ly for."""
    import plotly

    return (Path(plotly.__file__).parent / "package_data" / "plotly.min.js").read_bytes()


def measure(tool: str, open_page, data: dict, figs: dict, toggle: bool) -> dict:
    """Drive one tool on every figure: ``open_page(name)`` gives a fresh page focused on the
    chart ``name`` and its reader."""
    result: dict = {}
    for name, keys in KEYS.items():
        page, read = open_page(name)
        result[name] = walk(page, read, keys, data[name])
        print(tool, name, *result[name]["said"], sep="\n  ")
        page.screenshot(path=SHOTS / f"{tool}-{name}.png")
        page.close()
    lines = figs["lines"]
    by_name = {re.sub(r"<[^>]*>", "", t.name or ""): t for t in lines.data}
    for target, series in (("share", "(λ1+λ2)/Σλ"), ("λ1", "λ1/Σλ")):
        x, y = (np.asarray(v, float) for v in (by_name[series].x, by_name[series].y))
        page, read = open_page("lines")
        peak = int(np.nanargmax(y))
        result[target] = to_target(page, read, x[peak], y[peak], series)
        page.close()
    page, read = open_page("lines")
    first = np.asarray(lines.data[0].y, float)[:8]  # λ1's first 8 points: Right walks them
    result["tones"] = tones(page, first, toggle)
    page.close()
    return result


def main() -> None:
    import maidr
    from browser import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    from bench.appserver import AppServer
    from bench.results import save

    SHOTS.mkdir(exist_ok=True)
    figs = figures()
    data = {name: points(figure) for name, figure in figs.items()}
    folder = Path(tempfile.mkdtemp(prefix="maidr-"))
    for name, figure in figs.items():
        maidr.save_html(figure, str(folder / f"{name}.html"), use_cdn=False)
    asked: set[str] = set()
    script = plotly_script()

    def offline(route) -> None:
        url = route.request.url
        if url.startswith("file://"):
            return route.continue_()
        asked.add(url.split("/")[2])
        if url.startswith("https://cdn.plot.ly/"):
            return route.fulfill(body=script, content_type="text/javascript")
        return route.abort()

    class Bench(AppServer):
        @property
        def command(self) -> list[str]:
            # magic off: the page would show this file's bare strings
            return [
                *super().command[:4],
                __file__,
                *super().command[5:],
                "--runner.magicEnabled",
                "false",
            ]

    results = {}
    with sync_playwright() as playwright, Bench(env={"PYTHONPATH": str(ROOT)}) as server:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM),
            args=[*CHROMIUM_ARGS, "--autoplay-policy=no-user-gesture-required"],
            headless=True,
        )
        context = browser.new_context(viewport={"width": 1100, "height": 800})
        context.add_init_script(f"({TONES_JS})()")
        context.add_init_script(f"({LIVE_JS})()")
        context.set_default_timeout(120_000)

        def maidr_page(name: str):
            page = context.new_page()
            page.route("**/*", offline)
            page.goto((folder / f"{name}.html").as_uri())
            return page, maidr_reader(page, name)

        def app_page(name: str):
            page = context.new_page()
            page.goto(server.url)
            return page, app_reader(page, name)

        results["app"] = measure("app", app_page, data, figs, toggle=True)
        results["MAIDR"] = measure("MAIDR", maidr_page, data, figs, toggle=False)
        browser.close()
    rows = []
    for tool, r in results.items():
        said = sum(len(r[n]["said"]) for n in KEYS)
        rows.append(
            [
                tool,
                *(f"{r[n]['correct']}/{len(r[n]['said'])}" for n in KEYS),
                f"{sum(r[n]['shown'] for n in KEYS)}/{said}",
                f"{sum(r[n]['markup'] for n in KEYS)}/{said}",
                f"{sum(r[n]['announced'] for n in KEYS)}/{said}",
                "not reached" if r["share"] is None else r["share"],
                "not reached" if r["λ1"] is None else r["λ1"],
                r["tones"]["tones"],
                r["tones"]["follows"],
            ]
        )
        print(tool, "tones (Hz):", [f"{f:.0f}" for f in r["tones"]["hz"]])
    network = ", ".join(sorted(asked)) or "none"
    columns = [
        "tool",
        "lines: readouts within 1%",
        "heatmap: readouts within 1%",
        "projection: readouts within 1%",
        "all: right to the digits said",
        "readouts with raw markup",
        "steps said in a live region",
        "keys to max (λ1+λ2)/Σλ",
        "keys to λ1's peak",
        "tones in 8 steps (S: app on, MAIDR on by default)",
        "pitch moves with the value",
    ]
    print(" | ".join(columns))
    for row in rows:
        print(" | ".join(str(c) for c in row))
    print("MAIDR's HTML (use_cdn=False) asked the network for:", network)
    save(
        "explore_compare",
        "Exploring the same figures by keyboard and by ear: the app's explorer and MAIDR",
        columns,
        rows,
        note=(
            f"Keys: lines {' '.join(KEYS['lines'])}; heatmap {' '.join(KEYS['heatmap'])}; "
            f"projection {' '.join(KEYS['projection'])}. A readout is correct when it names a "
            "point of the figure (a heatmap: a column's width, the component k and the value), "
            "each number within 1% (or, in the next column, to the digits said). Keys to a "
            "target: Right, Down until the line is named (Up once Down goes no further), then "
            "Right until its point is said. "
            f"MAIDR's saved HTML (use_cdn=False) asked the network for {network}: Plotly's "
            "script, answered here from the plotly package."
        ),
    )


if __name__ == "__main__":
    if st.runtime.exists():
        page()
    else:
        sys.path.insert(0, str(ROOT / "bench"))
        sys.path.insert(0, str(ROOT))
        main()
elif __name__ != "__mp_main__":
    from kpca_ui.plotly_js import plotly_route

    app = st.App(__file__, routes=[plotly_route()])
