"""The one layout rule of every figure: planned from the space it is given and its content.

A figure is given a width (the page's, as the browser measured it; presenter mode's
1280 × 720 screen; a phone's; a lesson's slide) and holds some panels with titles.
:func:`plan_grid` lays its panels out in that space so that

- no panel is smaller than :data:`PANEL_MIN_PX` (a plot area with axes:
  :data:`AREA_MIN_PX`): when they would be, the panels wrap into more rows, and
  when even then the rows do not fit the height, the figure shows fewer of them and
  the page says so (:attr:`GridPlan.shown_rows` < the rows asked for);
- every text is at least :data:`MIN_TEXT_PX` (presenter mode: titles
  :data:`PRESENTER_TITLE_PX`, other text :data:`PRESENTER_TEXT_PX`), and a panel's
  title is broken into lines that fit its panel's width (:func:`fit_lines`), never
  cut or laid over its neighbour's;
- an empty panel's reason is the panel's content: centred, wrapped to its width, in
  a panel with no data drawn under it.

The sizes are checked as drawn by the visual audit (``tests/e2e/audit.py``).
"""

from __future__ import annotations

import math
import re
import textwrap
from collections.abc import Iterable
from dataclasses import dataclass

from . import style

MIN_TEXT_PX = 12
"""No chart text smaller than this, anywhere."""
PRESENTER_TITLE_PX = style.PRESENTER_TITLE_PX
"""Presenter mode: a figure's title at least this large (set by
:func:`kpca_core.figures.style.for_projector`)."""
PRESENTER_TEXT_PX = 14
"""Presenter mode: every other chart text at least this large."""
DESKTOP_PX = 820
"""Width of a page's content on a 1280 × 720 screen with the sidebar open, which a figure
drawn at the page's width is as wide as there (a wider screen: as wide, Streamlit's
page being at most this much wider)."""
TAB_FIGURE_PX = 420
"""Height of a tab's first figure that is whole on a 1280 × 720 screen: the page's title,
its lines of introduction and its row of tabs end at y ≈ 285 px (Denoising's), 15 px
to spare."""
AREA_MIN_PX = 120
"""The shorter side of a plot area with axes: at least five 12 px tick labels with a
label's height between them (5 × 24 px), and a 6 px marker at most 5 % of the side."""
PANEL_MIN_PX = 90
"""The shorter side of a picture panel (a component's colours and contour lines, drawn
every 0.2 of the scale): its up to ten levels at least 9 px apart, and the data's 4 px
dots at most a twentieth of it (Fig. 2 on the projector, three rows: 97 px)."""
DIGIT_MIN_PX = 24
"""A handwritten digit (16 × 16 pixels) at least this tall: 1.5 screen pixels a pixel."""
PRESENTER_DIGIT_MIN_PX = 48
"""On the projector a digit at least this tall, read from the back of a room."""
TITLE_EM = 1.4
"""plotly's size of a figure's title, in em of the figure's font."""
LINE_EM = 1.3
"""Height of a line of text in em of its font."""
CHART_TEXT_PX = 14
"""The size Streamlit's chart theme draws tick labels, axis titles and legends at."""
AXIS_BELOW_PX = 58
"""Under a plot area: its tick labels and its axis title at :data:`CHART_TEXT_PX` (their
foot measured 53 px under the plot in Chromium)."""
LEGEND_ITEM_PX = 50
"""A legend entry's sample line and gaps beside its text (plotly's)."""
LEGEND_ROW_PX = 29
"""A row of a horizontal legend at :data:`CHART_TEXT_PX` (plotly's, in Chromium)."""


def text_px(*, presenter: bool, title: bool = False) -> int:
    """The least size of a chart text: a figure's ``title`` or any other."""
    if presenter:
        return PRESENTER_TITLE_PX if title else PRESENTER_TEXT_PX
    return MIN_TEXT_PX


def fit_lines(text: str, width_px: float, font_px: float) -> list[str]:
    """``text`` (lines split at ``<br>``) broken at spaces into lines ``width_px`` wide.

    Widths are estimated at :data:`kpca_core.figures.style.CHAR_EM` per character; a
    word is never broken (a word longer than a line keeps a line of its own).
    """
    chars = max(1, int(width_px / (style.CHAR_EM * font_px)))
    lines: list[str] = []
    for line in text.split("<br>"):
        lines.extend(
            textwrap.wrap(line, chars, break_long_words=False, break_on_hyphens=False) or [""]
        )
    return lines


def legend_rows(names: Iterable[str], width_px: float, font_px: float = CHART_TEXT_PX) -> int:
    """Rows a horizontal legend of ``names`` (plotly's HTML) takes in ``width_px``."""
    rows, used = 1, 0.0
    for name in names:
        item = LEGEND_ITEM_PX + len(re.sub("<[^>]+>", "", name)) * style.CHAR_EM * font_px
        if used and used + item > width_px:
            rows, used = rows + 1, 0.0
        used += item
    return rows


def legend_below(
    names: Iterable[str], width_px: float, plot_px: float, font_px: float = CHART_TEXT_PX
) -> tuple[dict, int]:
    """A horizontal legend under the x axis's title, and the bottom margin holding both.

    Placed in pixels below the plot area ``plot_px`` tall (a fraction of the plot, as
    plotly takes it), with as many rows as ``names`` need in ``width_px``: plotly,
    given too small a margin, shrinks the plot and pulls the legend onto the axis title.
    """
    rows = legend_rows(names, width_px, font_px)
    legend = {"orientation": "h", "x": 0, "xanchor": "left", "yanchor": "top"}
    legend["y"] = -AXIS_BELOW_PX / plot_px
    return legend, AXIS_BELOW_PX + rows * LEGEND_ROW_PX + 4


def lines_px(n_lines: int, font_px: float) -> int:
    """The height of ``n_lines`` lines of ``font_px`` text."""
    return math.ceil(n_lines * LINE_EM * font_px)


@dataclass(frozen=True)
class GridPlan:
    """Where a grid of equal panels goes in the space it is given.

    Attributes
    ----------
    per_row : int
        Panels side by side in a row of the figure.
    panel_px : float
        The panels' side (width; the height follows from their aspect).
    shown_rows : int
        Rows of the content shown (fewer than asked when they do not fit a fixed height:
        the page pages through the rest and says so).
    """

    per_row: int
    panel_px: float
    shown_rows: int


def plan_grid(
    n_columns: int,
    n_rows: int,
    width_px: float,
    *,
    height_px: float | None = None,
    aspect: float = 1.0,
    title_px: float = 0.0,
    least_px: float = PANEL_MIN_PX,
    gap_px: float = 8.0,
) -> GridPlan:
    """Plan ``n_rows`` rows of ``n_columns`` panels in ``width_px`` (and ``height_px``).

    All columns side by side if each panel is then at least ``least_px`` wide, else in
    blocks of as many as fit (the blocks one below the other). With ``height_px`` the
    panels shrink to fit every row (each with ``title_px`` of titles above it), but never
    below ``least_px``: then only the rows that fit are shown (at least one).

    Parameters
    ----------
    aspect : float
        A panel's height ÷ width.
    """
    per_row = max(1, min(n_columns, int((width_px + gap_px) // (least_px + gap_px))))
    blocks = -(-n_columns // per_row)
    per_row = -(-n_columns // blocks)  # blocks of equal size
    panel = (width_px - gap_px * (per_row - 1)) / per_row
    shown = n_rows
    if height_px is not None:
        rows = blocks * n_rows
        fits = (height_px - rows * title_px) / (rows * aspect)
        panel = min(panel, fits)
        if panel < least_px:
            panel = least_px
            shown = max(1, int(height_px // (least_px * aspect + title_px)) // blocks)
    return GridPlan(per_row, panel, min(shown, n_rows))
