"""The visual audit: read every Plotly chart of a page as a person does, from what is drawn.

:data:`MEASURE_JS` runs in a page (and in each same-origin frame, a lesson's slide) and
returns, for every chart that can be seen, the boxes of its texts as drawn, their font
sizes, its plot areas, its pictures (layout images; digit mosaics), and the colours of
its marks with the background they are drawn on. :func:`breaches` holds them to the
layout rule (:mod:`kpca_core.figures.layout`):

- **text size**: no chart text below 12 px; on the presenter's screen the figure's title
  at least 20 px and every other chart text at least 14 px, on a larger presenter's screen
  that much larger (:attr:`Screen.room`: 30 and 21 px at 1920 × 1080);
- **text on text**: no two text boxes overlap (by more than a pixel each way);
- **text on data**: no annotation (a panel's title or note) lies over a picture or a
  marker of the data;
- **text cut**: no text runs past its chart's box or the screen's sides;
- **plot size**: a plot area with axes is at least :data:`AREA_MIN_PX` on its shorter
  side, a picture panel (a component's colours) at least :data:`PANEL_MIN_PX`, a
  handwritten digit at least :data:`DIGIT_MIN_PX` tall (48 on the projector); on a larger
  presenter's screen each that much larger; a mosaic of digits is judged by its digits
  (its tick labels name its rows and columns);
- **contrast**: every marker, line and bar has a WCAG contrast of at least 3 against
  the background it is drawn on (its outline counts, as WCAG's non-text contrast lets
  a mark's boundary carry it), and every text of a chart at least 4.5 (its menu buttons'
  on their boxes);
- **figure first**: the page's first figure (a lesson's: its slide's) starts within
  the upper :data:`FIRST_FIGURE_SHARE` of the first screen, not behind the controls,
  notices or text above it; a lesson's slide ends within the screen.

:func:`audit_page` measures one loaded page; :func:`contact_sheet` writes one PNG per
screen with every state as a thumbnail (red frame: breaches), for people to look at.
"""

from __future__ import annotations

import base64
import html
import io
import math
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kpca_core.figures.layout import (
    AREA_MIN_PX,
    DIGIT_MIN_PX,
    MIN_TEXT_PX,
    PANEL_MIN_PX,
    PRESENTER_DIGIT_MIN_PX,
    PRESENTER_TEXT_PX,
    PRESENTER_TITLE_PX,
)

MIN_CONTRAST = 3.0
"""WCAG 2.1's non-text contrast (1.4.11) for graphical objects."""
MIN_TEXT_CONTRAST = 4.5
"""WCAG 2.1's contrast (minimum) for text (1.4.3): a chart's titles, ticks, legends and notes
(not the text on a heatmap's cells, written on each cell's own colour)."""
OVERLAP_PX = 1.0
"""Two boxes overlap when they share more than this many pixels each way."""
CUT_PX = 1.0
"""A text runs past an edge by more than this many pixels."""
FIRST_FIGURE_SHARE = 2 / 3
"""The first figure's top lies within this share of the first screen's height, so that
at least the last third of the screen shows it as the page opens (1280 × 720: 480 px;
390 × 844: 563 px)."""


@dataclass(frozen=True)
class Screen:
    """One of the screens the audit reads the app on (:data:`SCREENS`)."""

    name: str
    width: int
    height: int
    presenter: bool = False
    dark: bool = False

    @property
    def room(self) -> float:
        """How much larger than 1280 × 720 a presenter's screen is (1 on the others): the
        sizes the rule asks for grow by as much (``kpca_ui.presenter.room_scale``)."""
        if not self.presenter:
            return 1.0
        return max(1.0, min(self.width / 1280, self.height / 720))

    @property
    def viewport(self) -> dict[str, int]:
        return {"width": self.width, "height": self.height}

    def link(self, url: str) -> str:
        """``url`` with presenter mode on, if this screen is the projector's."""
        if not self.presenter:
            return url
        return f"{url}{'&' if '?' in url else '?'}presenter=true"


SCREENS = (
    Screen("desktop", 1280, 720),
    Screen("presenter", 1280, 720, presenter=True),
    Screen("phone", 390, 844),
    Screen("dark", 1280, 720, dark=True),
    Screen("presenter-1080", 1920, 1080, presenter=True),
    Screen("presenter-2160", 3840, 2160, presenter=True),
)
"""The audit's screens: the first four, then a lecture hall's projectors, on which presenter
mode draws what it draws at 1280 × 720, larger."""


MEASURE_JS = r"""
() => {
  const parse = (colour) => {
    const m = /rgba?\(([^)]+)\)/.exec(colour || '');
    if (!m) return null;
    const p = m[1].split(',').map(parseFloat);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => {  // top (rgba) composited on an opaque colour
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + below[i] * (1 - a));
  };
  const pageBackground = (element) => {
    const layers = [];
    for (let e = element; e && e.nodeType === 1; e = e.parentElement) {
      const c = parse(getComputedStyle(e).backgroundColor);
      if (c && c[3] > 0) { layers.push(c); if (c[3] >= 1) break; }
    }
    let colour = [255, 255, 255];
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const box = (r, dx, dy) => ({left: r.left + dx, top: r.top + dy, right: r.right + dx,
                               bottom: r.bottom + dy});
  const category = (t) => {
    if (t.closest('.g-gtitle')) return 'title';
    if (t.closest('.annotation')) return 'annotation';
    if (t.closest('.xtick, .ytick, .x2tick')) return 'tick';
    if (t.closest('.g-xtitle, .g-ytitle') || /^[xy]\d*title$/.test(t.getAttribute('class') || ''))
      return 'axis title';
    if (t.closest('.legend')) return 'legend';
    if (t.closest('.colorbar')) return 'colour bar';
    // a trace's own labels (a heatmap's cell values): drawn on its marks, not the background
    if (t.closest('.textpoint, .slicetext, .heatmaplayer')) return 'trace text';
    const g = t.closest('[class]');
    if (g && /tick/.test(g.getAttribute('class'))) return 'tick';
    return 'other';
  };
  const charts = [];
  for (const graph of document.querySelectorAll('.js-plotly-plot')) {
    const fl = graph._fullLayout;
    if (!fl || !graph.checkVisibility({visibilityProperty: true, opacityProperty: true}))
      continue;
    const rect = graph.getBoundingClientRect();
    if (rect.width < 2 || rect.height < 2) continue;
    const keyed = graph.closest('[class*="st-key-"]');
    const key = keyed ? [...keyed.classList].find((c) => c.startsWith('st-key-')).slice(7) : '';
    const bg = pageBackground(graph);
    const texts = [];
    for (const t of graph.querySelectorAll('svg text')) {
      if (t.closest('.hoverlayer, .modebar')) continue;
      const content = (t.textContent || '').trim();
      if (!content) continue;
      const style = getComputedStyle(t);
      if (style.display === 'none' || style.visibility === 'hidden' || style.opacity === '0')
        continue;
      const r = t.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      // its colour, and what it is written on: a menu button's box, or the chart's background
      const button = t.closest('.updatemenu-button');
      const boxFill = button && parse(getComputedStyle(button.querySelector('rect')).fill);
      const under = boxFill && boxFill[3] > 0 ? over(boxFill, bg) : bg;
      const ink = parse(style.fill);
      const inkAlpha = ink && ink[3] * parseFloat(style.fillOpacity || '1')
        * parseFloat(style.opacity || '1');
      texts.push({text: content.slice(0, 60), kind: category(t),
                  size: parseFloat(style.fontSize), box: box(r, 0, 0),
                  ink: ink && over([ink[0], ink[1], ink[2], inkAlpha], under), bg: under});
    }
    // plot areas of visible axes
    const areas = [];
    for (const id of Object.keys(fl._plots || {})) {
      const plot = fl._plots[id];
      const xa = plot.xaxis, ya = plot.yaxis;
      if (!xa || !ya) continue;
      const left = rect.left + xa._offset, top = rect.top + ya._offset;
      // an area "with axes" shows tick labels: a picture's is judged as a picture
      const labelled = (a) => Boolean(a.visible && a.showticklabels);
      areas.push({id, axes: labelled(xa) || labelled(ya),
                  box: {left, top, right: left + xa._length, bottom: top + ya._length}});
    }
    const axisOf = (ref, letter) => {
      if (!ref || ref === 'paper') return null;
      const name = ref.replace(/ domain$/, '');
      return fl[letter + 'axis' + name.slice(1)];
    };
    const images = [];
    for (const im of fl.images || []) {
      if (im.visible === false) continue;
      const xa = axisOf(im.xref, 'x'), ya = axisOf(im.yref, 'y');
      const w = xa ? Math.abs(im.sizex * xa._m) : im.sizex * fl._size.w;
      const h = ya ? Math.abs(im.sizey * ya._m) : im.sizey * fl._size.h;
      let x = xa ? xa._offset + xa.r2p(im.x) : fl._size.l + im.x * fl._size.w;
      let y = ya ? ya._offset + ya.r2p(im.y) : fl._size.t + (1 - im.y) * fl._size.h;
      if (im.xanchor === 'center') x -= w / 2; else if (im.xanchor === 'right') x -= w;
      if (im.yanchor === 'middle') y -= h / 2; else if (im.yanchor === 'bottom') y -= h;
      images.push({name: im.name || '', box: {left: rect.left + x, top: rect.top + y,
                                              right: rect.left + x + w,
                                              bottom: rect.top + y + h}});
    }
    // heatmaps of handwritten digits: a mosaic of tiles of 8-32 rows between all-NaN
    // rows or columns (a heatmap without such gaps is a table, not digits)
    const digits = [];
    const none = (v) => v === null || Number.isNaN(v);
    for (const trace of graph._fullData || []) {
      if (trace.type !== 'heatmap' || !trace.visible || !Array.isArray(trace.z)) continue;
      const z = trace.z.map((row) => Array.from(row));
      const blank = z.map((row) => row.every(none));
      const columns = z.length ? z[0].length : 0;
      let blankColumns = 0;
      for (let c = 0; c < columns; c++) if (z.every((row) => none(row[c]))) blankColumns++;
      if (!blank.some(Boolean) && !blankColumns) continue;
      const runs = [];
      let run = 0;
      for (const b of blank) { if (b) { if (run) runs.push(run); run = 0; } else run++; }
      if (run) runs.push(run);
      const tile = Math.max(...runs);
      if (tile > 32 || tile < 8) continue;
      const ya = fl[trace.yaxis.replace('y', 'yaxis')];
      digits.push({height: tile * Math.abs(ya._m), tile,
                   plot: (trace.xaxis || 'x') + (trace.yaxis || 'y')});
    }
    // marks: svg points, lines and bars, by colour
    const marks = {};
    const plotBg = (el) => {
      const plot = el.closest('.subplot');
      const bgRect = plot && graph.querySelector(`.bglayer .${plot.classList[1]}bg`);
      const c = bgRect ? parse(getComputedStyle(bgRect).fill) : null;
      return c && c[3] > 0 ? over(c, bg) : bg;
    };
    const hasPicture = new Set();
    for (const trace of graph._fullData || [])
      if (['heatmap', 'contour', 'image'].includes(trace.type))
        hasPicture.add((trace.xaxis || 'x') + (trace.yaxis || 'y'));
    for (const im of fl.images || []) hasPicture.add((im.xref || '') + (im.yref || ''));
    const mark = (el, kind, colourProp, opacityProp) => {
      const style = getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden') return;
      const trace = el.closest('.trace');
      const traceOpacity = trace ? parseFloat(getComputedStyle(trace).opacity || '1') : 1;
      const c = parse(style[colourProp]);
      if (!c) return;
      const alpha = c[3] * parseFloat(style[opacityProp] || '1')
        * parseFloat(style.opacity || '1') * traceOpacity;
      const stroke = kind === 'marker' ? parse(style.stroke) : null;
      const strokeWidth = stroke ? parseFloat(style.strokeWidth || '0') : 0;
      const strokeAlpha = stroke ? stroke[3] * parseFloat(style.strokeOpacity || '1')
        * parseFloat(style.opacity || '1') * traceOpacity : 0;
      const plot = el.closest('.subplot');
      const sub = plot ? plot.classList[1] : 'xy';
      const under = plotBg(el);
      const entry = {kind, fill: over([c[0], c[1], c[2], alpha], under),
                     stroke: stroke && strokeWidth >= 1 && strokeAlpha > 0
                       ? over([stroke[0], stroke[1], stroke[2], strokeAlpha], under) : null,
                     bg: under, onPicture: hasPicture.has(sub.replace(/y/, 'y')) ||
                       [...hasPicture].some((s) => s.replace(/[^xy0-9]/g, '') === sub)};
      const name = (trace && trace.__data__ && trace.__data__[0] && trace.__data__[0].trace
                    && trace.__data__[0].trace.name) || '';
      const id = JSON.stringify([kind, name, entry.fill.map(Math.round),
                                 entry.stroke && entry.stroke.map(Math.round)]);
      if (!marks[id]) marks[id] = {...entry, name, count: 0};
      marks[id].count += 1;
    };
    const points = [];
    graph.querySelectorAll('.scatterlayer .points path.point').forEach((el) => {
      mark(el, 'marker', 'fill', 'fillOpacity');
      const r = el.getBoundingClientRect();
      if (points.length < 4000) points.push([(r.left + r.right) / 2, (r.top + r.bottom) / 2]);
    });
    graph.querySelectorAll('.scatterlayer .js-line').forEach((el) => {
      const w = parseFloat(getComputedStyle(el).strokeWidth || '0');
      if (w > 0) mark(el, 'line', 'stroke', 'strokeOpacity');
    });
    graph.querySelectorAll('.barlayer .point path').forEach(
      (el) => mark(el, 'bar', 'fill', 'fillOpacity'));
    // WebGL points (no svg): their trace's one colour
    for (const trace of graph._fullData || []) {
      if (trace.type !== 'scattergl' || !trace.visible || !(trace.mode || '').includes('markers'))
        continue;
      const c = parse(trace.marker.color) || (typeof trace.marker.color === 'string'
        ? parse(getComputedStyle(Object.assign(document.createElement('i'),
            {style: `color:${trace.marker.color}`})).color) : null);
      if (!c) continue;
      const alpha = (trace.marker.opacity ?? 1) * (trace.opacity ?? 1);
      marks['gl' + trace.uid] = {kind: 'marker', name: trace.name || '', count: 1,
                                 fill: over([c[0], c[1], c[2], alpha], bg), stroke: null,
                                 bg, onPicture: false};
    }
    // a mosaic's plot area is judged by its digits' size: its labels name rows and columns
    for (const area of areas) area.digits = digits.some((d) => d.plot === area.id);
    charts.push({key, box: box(rect, 0, 0), texts, areas, images, digits,
                 marks: Object.values(marks), points,
                 title: (fl.title && fl.title.text) || ''});
  }
  return {charts, width: window.innerWidth, height: window.innerHeight};
}
"""
"""Everything the audit reads from a page's charts, in the page's (or frame's) coordinates."""


def _luminance(rgb: Iterable[float]) -> float:
    channels = []
    for value in rgb:
        c = value / 255
        channels.append(c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4)
    r, g, b = channels
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one: Iterable[float], other: Iterable[float]) -> float:
    """WCAG contrast ratio of two opaque colours (1 to 21)."""
    a, b = sorted((_luminance(one), _luminance(other)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def _overlap(a: dict, b: dict, tolerance: float = OVERLAP_PX) -> bool:
    return (
        min(a["right"], b["right"]) - max(a["left"], b["left"]) > tolerance
        and min(a["bottom"], b["bottom"]) - max(a["top"], b["top"]) > tolerance
    )


def _short(text: str) -> str:
    return repr(text[:40])


def breaches(
    measured: dict, screen: Screen, frame: dict | None = None, zoom: float = 1.0
) -> list[str]:
    """Every breach of the layout rule in one page's (or frame's) measured charts.

    ``frame``, the box of the frame the charts are drawn in (in the page's pixels), bounds
    the screen's sides for a lesson's slide; without it the window's sides do.  ``zoom``:
    how much larger the frame draws its page than the page's own pixels (a presenter's
    slide, ``zoom: room_scale``), so that the sizes the rule asks for are that much smaller
    in the frame's pixels.
    """
    found: list[str] = []
    left_edge = 0.0
    right_edge = float(measured["width"])
    if frame is not None:
        left_edge, right_edge = 0.0, (frame["right"] - frame["left"]) / zoom
    room = screen.room / zoom
    for chart in measured["charts"]:
        name = chart["key"] or "chart"
        here = []
        texts = chart["texts"]
        for text in texts:
            least = MIN_TEXT_PX
            if screen.presenter:
                least = PRESENTER_TITLE_PX if text["kind"] == "title" else PRESENTER_TEXT_PX
            least *= room
            if text["size"] < least - 0.05:
                here.append(
                    f"text {text['size']:g} px < {least} px ({text['kind']}): "
                    f"{_short(text['text'])}"
                )
        for text in texts:
            if text.get("ink") is None or text["kind"] == "trace text":
                continue
            ratio = contrast(text["ink"], text["bg"])
            if ratio < MIN_TEXT_CONTRAST - 0.005:
                here.append(
                    f"text contrast {ratio:.2f} < {MIN_TEXT_CONTRAST:g} ({text['kind']}): "
                    f"{_short(text['text'])}"
                )
        for k, one in enumerate(texts):
            for other in texts[k + 1 :]:
                if _overlap(one["box"], other["box"]):
                    here.append(f"text on text: {_short(one['text'])} / {_short(other['text'])}")
        edge = chart["box"]
        for text in texts:
            b = text["box"]
            if (
                b["left"] < edge["left"] - CUT_PX
                or b["right"] > edge["right"] + CUT_PX
                or b["top"] < edge["top"] - CUT_PX
                or b["bottom"] > edge["bottom"] + CUT_PX
            ):
                here.append(f"text cut at the chart's edge: {_short(text['text'])}")
            elif b["left"] < left_edge - CUT_PX or b["right"] > right_edge + CUT_PX:
                here.append(f"text cut at the screen's edge: {_short(text['text'])}")
        pictures = [image for image in chart["images"] if image["name"] != "decision regions"]
        for text in texts:
            if text["kind"] != "annotation":
                continue
            if any(_overlap(text["box"], image["box"], 2.0) for image in pictures):
                here.append(f"text on data (a picture): {_short(text['text'])}")
                continue
            b = text["box"]
            if any(
                b["left"] < x < b["right"] and b["top"] < y < b["bottom"]
                for x, y in chart["points"]
            ):
                here.append(f"text on data (markers): {_short(text['text'])}")
        for area in chart["areas"]:
            if not area["axes"] or area.get("digits"):
                continue
            b = area["box"]
            side = min(b["right"] - b["left"], b["bottom"] - b["top"])
            if side < AREA_MIN_PX * room:
                here.append(
                    f"plot area {b['right'] - b['left']:.0f} × {b['bottom'] - b['top']:.0f} px "
                    f"< {AREA_MIN_PX * room:g} px"
                )
        for image in pictures:
            b = image["box"]
            side = min(b["right"] - b["left"], b["bottom"] - b["top"])
            if 0 < side < PANEL_MIN_PX * room:
                here.append(f"picture panel {side:.0f} px < {PANEL_MIN_PX * room:g} px")
        least_digit = (PRESENTER_DIGIT_MIN_PX if screen.presenter else DIGIT_MIN_PX) * room
        for digit in chart["digits"]:
            if digit["height"] < least_digit - 0.5:
                here.append(f"digits {digit['height']:.0f} px tall < {least_digit} px")
        for mark in chart["marks"]:
            if mark["onPicture"]:
                continue
            ratio = contrast(mark["fill"], mark["bg"])
            if mark["stroke"] is not None:
                ratio = max(ratio, contrast(mark["stroke"], mark["bg"]))
            if ratio < MIN_CONTRAST:
                here.append(
                    f"{mark['kind']} contrast {ratio:.2f} < {MIN_CONTRAST:g} "
                    f"({mark['name'] or 'trace'})"
                )
        # one line per kind of breach and text: the same tick cut twice is one breach
        found.extend(f"{name}: {line}" for line in dict.fromkeys(here))
    return found


@dataclass
class StateResult:
    """One state of one view on one screen: what broke the rule, and its picture."""

    view: str
    state: str
    breaches: list[str] = field(default_factory=list)
    png: bytes = b""
    error: str = ""


CANVAS_TOPS_JS = """() => {
  const tops = [];
  const visit = (root) => {
    for (const c of root.querySelectorAll('canvas.plane'))
      if (c.checkVisibility()) tops.push(c.parentElement.getBoundingClientRect().top);
    for (const e of root.querySelectorAll('*')) if (e.shadowRoot) visit(e.shadowRoot);
  };
  visit(document);
  return tops;
}"""
"""The tops of the drawing canvases with their tool bars (``kpca_ui/draw_canvas.js``, in a
component's shadow root): a drawing's first figure."""


def first_figure(tops: list[float], height: float) -> list[str]:
    """A breach if the first of the figures whose tops (at the page's top, in its pixels)
    are ``tops`` starts below :data:`FIRST_FIGURE_SHARE` of the screen's ``height``."""
    if not tops or min(tops) <= FIRST_FIGURE_SHARE * height:
        return []
    return [
        f"first figure at y = {min(tops):.0f} px > {FIRST_FIGURE_SHARE * height:.0f} px "
        "(below the first screen's fold)"
    ]


def audit_page(page, screen: Screen) -> list[str]:
    """Every breach on the loaded ``page``: its own charts and those of its frames, and
    where its first figure starts (:func:`first_figure`)."""
    measured = page.evaluate(MEASURE_JS)
    found = breaches(measured, screen)
    tops = [chart["box"]["top"] for chart in measured["charts"]] + page.evaluate(CANVAS_TOPS_JS)
    for frame in page.frames[1:]:
        try:
            element = frame.frame_element()
            box = element.bounding_box()
            if box is None:
                continue
            inner = frame.evaluate(MEASURE_JS)
        except Exception:  # a frame that went away while measured
            continue
        edges = {"left": box["x"], "right": box["x"] + box["width"]}
        zoom = box["width"] / inner["width"] if inner["width"] else 1.0  # a zoomed slide
        found.extend(f"[slide] {line}" for line in breaches(inner, screen, edges, zoom))
        foot = box["y"] + box["height"]
        if foot > screen.height + CUT_PX:  # a slide fits the screen
            found.append(f"[slide] its foot at y = {foot:.0f} px, below the screen")
        tops.extend(box["y"] + chart["box"]["top"] * zoom for chart in inner["charts"])
    return found + first_figure(tops, screen.height)


def contact_sheet(results: list[StateResult], screen: Screen, path: Path, page) -> None:
    """One PNG of every state's thumbnail on ``screen``, drawn by the browser ``page``.

    A thumbnail is the state's screenshot; a red frame and the count mark breaches,
    whose first lines are printed under it.
    """
    columns = 4 if screen.width > 600 else 6
    thumb = 400 if screen.width > 600 else 200
    cells = []
    for result in results:
        colour = "#c00" if result.breaches or result.error else "#2a2"
        data = base64.b64encode(result.png).decode() if result.png else ""
        lines = ([result.error] if result.error else []) + result.breaches[:4]
        more = len(result.breaches) - 4
        notes = "".join(f"<li>{html.escape(line[:110])}</li>" for line in lines)
        if more > 0:
            notes += f"<li>… {more} more</li>"
        cells.append(
            f'<div class="cell" style="border-color:{colour}">'
            f"<b>{html.escape(result.view)} · {html.escape(result.state)}</b> "
            f"({len(result.breaches)})<br>"
            + (f'<img src="data:image/png;base64,{data}">' if data else "")
            + f"<ul>{notes}</ul></div>"
        )
    total = sum(len(r.breaches) for r in results)
    document = f"""<html><head><style>
      body {{ font: 11px Arial, sans-serif; margin: 8px; background: #fff; }}
      .grid {{ display: grid; grid-template-columns: repeat({columns}, {thumb + 12}px);
               gap: 6px; }}
      .cell {{ border: 3px solid; padding: 3px; }}
      img {{ width: {thumb}px; display: block; }}
      ul {{ margin: 2px 0 0 14px; padding: 0; color: #900; }}
    </style></head><body>
      <h3>Visual audit · {html.escape(screen.name)} ({screen.width} × {screen.height}):
      {len(results)} states, {total} breaches</h3>
      <div class="grid">{"".join(cells)}</div></body></html>"""
    page.set_viewport_size({"width": columns * (thumb + 18) + 20, "height": 400})
    page.set_content(document)
    page.screenshot(path=str(path), full_page=True)


def scaled_png(png: bytes, width: int) -> bytes:
    """``png`` scaled to ``width`` pixels wide (a thumbnail), with Pillow."""
    from PIL import Image

    image = Image.open(io.BytesIO(png))
    height = math.ceil(image.height * width / image.width)
    out = io.BytesIO()
    image.resize((width, height)).save(out, format="PNG", optimize=True)
    return out.getvalue()
