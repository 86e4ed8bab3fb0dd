"""Presenter mode: the figures, large, and one control to step through them.

One toggle (key ``presenter``, bound to the URL, so that a lecturer's bookmark
opens in presenter mode) is drawn by :func:`presenter_toggle` on every page,
from ``app.py``: at the top of the sidebar, and in presenter mode at the top of
the page, where it is the way back. In presenter mode a style sheet hides the
sidebar, the explanations, the downloads and every control except each view's
stepping control (:data:`STEPPING_KEYS`: a slider, moved with the mouse or, once
clicked, with the arrow keys), and :func:`presentable` gives each figure larger
fonts, lines and markers (:func:`kpca_core.figures.style.for_projector`) and
fits it into a 1280 × 720 screen (:data:`FIGURE_PX` tall, the page's full
width), below the stepping control and above one line of what to notice
(:func:`notice`).

A view embedded as a lesson's slide (link parameter ``slide=true``, see
:func:`slide_mode`) shows even less: no navigation, no toggle, no page title,
no row of tabs, no line of what to notice (the Lesson page says all that
above it), and its figures are a little shorter (:func:`figure_px`), so that
the step's words and its view fit one screen.

Hidden controls are still drawn, only not shown, so that they keep their
values and the link keeps its parameters.
"""

from __future__ import annotations

import plotly.graph_objects as go
import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.figures.style import for_projector
from kpca_ui.links import flag, integer, keep_in_url, sanitise_link

SCREEN = {"width": 1280, "height": 720}
"""The projector presenter mode is planned for."""
PAGE_PX = SCREEN["width"] - 48
"""Width of the page's content in presenter mode (1.5 rem padding each side)."""
FIGURE_PX = 440
"""Height of a figure in presenter mode: the screen less the header and the page
title (≈ 130 px), the stepping control (≈ 80 px) and the line of what to notice
(≈ 40 px), with room to spare for a row of tabs."""
SLIDE_MARGINS_PX = 16
"""A slide's 0.5 rem margins at the sides (:func:`projector_css`)."""
SLIDE_PX = PAGE_PX - SLIDE_MARGINS_PX
"""Width of a view's content on a lesson's slide (:func:`slide_mode`) that is as wide as
presenter mode's page."""
FRAME_PX = "slide_px"
"""Link parameter of a slide: the width of the frame it is shown in, in CSS pixels (the
Lesson page measures it); without it the slide plans for presenter mode's page."""
FRAME_RANGE = (320, PAGE_PX)
"""The frame widths a slide's link may give."""
SLIDE_SHORTER_PX = 60
"""On a slide every figure is this much shorter than in presenter mode: the step's
title and words are above it, on the same screen."""
PLAIN_FIGURE_PX = FIGURE_PX + 40
"""Height in presenter mode of a figure with no stepping control above it (Denoising's
Fig. 3, Fig. 4 and Table 1)."""
SLIDE_TAB_PX = 32
"""Above a tab's figure on a slide: the hidden row of tabs' gap and the tab's padding
(measured in Chromium, Denoising's Fig. 4)."""
SLIDE_PLAIN_PX = 452
"""On a slide such a figure is at most this tall: the lesson's frame (490 px) holds
nothing else but :data:`SLIDE_TAB_PX` (460 px ran 2 px past the frame's foot)."""
NOTICE_CLASS = "kpca-notice"
KEPT_CLASS = "kpca-kept"
"""Class of a paragraph that stays shown in presenter mode (a lesson's words, a card's title)."""

KEY = "presenter"
SLIDE = "slide"
"""Link parameter of a view embedded as a lesson's slide (:func:`slide_mode`)."""
BAR = "presenter_bar"
"""Key of the container that holds the toggle in presenter mode (fixed in the header)."""
LABEL = "Presenter mode"
HELP = (
    "Large figures for a projector at 1280 × 720: the controls and explanations are "
    "hidden except one slider per view (click it, then step with the arrow keys). "
    "The link keeps presenter mode on, for a bookmark."
)
STEPPING_KEYS = (
    "ct_k",
    "sp_at",
    "dn_n",
    "dn_toy_n",
    "dn_demo_noise",
    "dn_pad_again",
    "dm_next",
    "dm_pad_again",
    "ls_prev",
    "ls_next",
    "ft_k",
    "ft_n",
)
"""The controls shown in presenter mode: the main parameter of each view (and tab).

Contours: the number of components (one row of panels each); Spectrum: the
chosen width; Denoising: the number of components n (side by side), the 2-D
toy's kernel components, the demo's amount of noise and the written digit's "Add noise
again"; Demo: "Show me another" and the written digit's "Add noise again";
Features: the toy's kernel components n and the n of Table 2's chosen cell;
Lesson: the previous and next step.
"""
WIDGETS = (
    "stSlider",
    "stSelectbox",
    "stMultiSelect",
    "stTextInput",
    "stNumberInput",
    "stCheckbox",
    "stRadio",
    "stButton",
    "stDownloadButton",
    "stFileUploader",
    "stColorPicker",
    "stDateInput",
    "stTimeInput",
)
"""``data-testid`` of the widgets hidden in presenter mode."""
SHOWN = (
    ".js-plotly-plot",  # a chart, drawn by kpca_ui.chart or st.plotly_chart
    '[data-testid="stMetric"]',
    '[data-testid="stHeading"]',
    '[data-testid="stAlertContentWarning"]',
    '[data-testid="stAlertContentError"]',
)
"""What keeps a row of columns shown in presenter mode even if it holds hidden controls."""


ROW_KEY = "row_"
"""Prefix of the key of a container whose row of buttons stays a row on a phone."""
LAST_KEY = "last_on_phone_"
"""Prefix of the key of a container a phone's page shows last, under the figures."""
PAGE_CSS = (
    # Streamlit's 6rem above a 2.75rem title (its header is 3.75rem): a view's first
    # figure started at the foot of a 1280 × 720 screen (tests/e2e/audit.py, first_figure)
    '[data-testid="stMain"] [data-testid="stMainBlockContainer"] { padding-top: 3.5rem; }'
    '[data-testid="stMain"] h1 { font-size: 2.25rem; }'
    "@media (max-width: 640px) { .js-plotly-plot .modebar-container, "
    '[data-testid="stElementToolbar"] { display: none !important; } '
    # a page's title in one or two lines, not four, above the phone's figure
    '[data-testid="stMain"] h1 { font-size: 1.75rem; } '
    # a row of buttons wraps as a row instead of standing one button a line
    f'[class*="st-key-{ROW_KEY}"] [data-testid="stHorizontalBlock"] '
    "{ flex-flow: row wrap; gap: 0.5rem; } "
    f'[class*="st-key-{ROW_KEY}"] [data-testid="stColumn"] '
    "{ flex: 0 1 auto !important; width: auto !important; min-width: 0 !important; } "
    # details that stood between the title and the figure go under everything
    f'[data-testid="stLayoutWrapper"]:has(> [class*="st-key-{LAST_KEY}"]) {{ order: 1; }} }}'
)
"""The rules every page sends. Less room above a smaller title, so that a view's first
figure starts within the first screen. On a phone's page: the charts' tool bars, which
covered the figures' titles, are hidden (a tap showed them over the title, and there is
no room above it for them); the page's title is smaller still; a row of buttons in a
container keyed :data:`ROW_KEY`… wraps as a row; a container keyed :data:`LAST_KEY`…
comes last."""


def presenter_mode() -> bool:
    """Whether this session is in presenter mode.

    Before the toggle's first run (a bookmark just opened) its value is still
    only in the URL, as ``true`` or ``false`` (any case).
    """
    if KEY in st.session_state:
        return bool(st.session_state[KEY])
    return st.query_params.get(KEY, "").lower() == "true"


def slide_mode() -> bool:
    """Whether this page is embedded as a lesson's slide: its link says ``slide=true``.

    Only in presenter mode (the Lesson page's frames are): the slide's own
    style sheet is part of presenter mode's, :func:`projector_css`.
    """
    return presenter_mode() and st.query_params.get(SLIDE, "").lower() == "true"


def page_px() -> int:
    """Width of the content in presenter mode, which figures of a fixed width plan for.

    :data:`PAGE_PX`; on a slide its frame's width (the link's :data:`FRAME_PX`,
    checked by :func:`presenter_toggle`) less its margins, by default :data:`SLIDE_PX`.
    """
    if not slide_mode():
        return PAGE_PX
    frame = st.query_params.get(FRAME_PX)
    return round(float(frame)) - SLIDE_MARGINS_PX if frame else SLIDE_PX


def figure_px(height: int = FIGURE_PX, *, control: bool = True) -> int:
    """A figure's height in presenter mode, ``height``: on a slide :data:`SLIDE_SHORTER_PX`
    less, or without a stepping ``control`` above it at most :data:`SLIDE_PLAIN_PX`."""
    if not slide_mode():
        return height
    return height - SLIDE_SHORTER_PX if control else min(height, SLIDE_PLAIN_PX)


def navigation_position() -> str:
    """Where ``app.py`` puts the navigation: sidebar; top in presenter mode; none on a slide."""
    if slide_mode():
        return "hidden"
    return "top" if presenter_mode() else "sidebar"


def presentable(fig: go.Figure, *, height: int = FIGURE_PX, control: bool = True) -> go.Figure:
    """``fig`` as drawn now: a projector copy in presenter mode, else ``fig`` itself.

    The projector copy is ``height`` pixels tall (less on a lesson's slide,
    :func:`figure_px`; ``control``: a stepping control above it) and as wide as its
    place on the page, so that it fits the screen with the stepping control above it.
    """
    if not presenter_mode():
        return fig
    return for_projector(fig, height=figure_px(height, control=control))


def notice(text: str) -> None:
    """One line of what to notice in the figure above, shown in presenter mode only.

    It is what a lecturer points at; the full explanations are under the
    figure outside presenter mode.
    """
    if presenter_mode():
        st.markdown(f'<p class="{NOTICE_CLASS}">{text}</p>', unsafe_allow_html=True)


def presenter_toggle() -> bool:
    """Draw the presenter-mode toggle and, when it is on, the projector style; return it.

    Call it on every run before the page (in ``app.py``). The toggle keeps its
    key and label wherever it is drawn, so it stays the same widget.
    """
    # A hand-written link may say presenter=1 or yes: read before the toggle is.
    sanitise_link(
        {KEY: flag(), SLIDE: flag(), FRAME_PX: integer(*FRAME_RANGE)},
        {KEY: LABEL, SLIDE: "Slide", FRAME_PX: "Slide's width"},
    )
    place = st.container(key=BAR) if presenter_mode() else st.sidebar
    on = place.toggle(LABEL, key=KEY, bind="query-params", help=HELP)
    if on:
        keep_in_url(KEY, "true")  # a change of page in the app cleared the URL
    css = PAGE_CSS + (projector_css(slide=slide_mode()) if on else "")
    st.html(f"<style>{css}</style>")
    return on


def projector_css(*, slide: bool = False) -> str:
    """The style sheet of presenter mode (page chrome only; figures are styled apart).

    A ``slide`` (:func:`slide_mode`) also hides the header with the toggle, the
    page's title, the row of tabs and the line of what to notice, and keeps only
    a thin margin.
    """
    main = '[data-testid="stMain"]'
    container = f'{main} [data-testid="stElementContainer"]'
    kept = [f".st-key-{key}" for key in (KEY, *STEPPING_KEYS)]
    keep = "".join(f":not({key})" for key in kept)
    widgets = ", ".join(f'[data-testid="{name}"]' for name in WIDGETS)
    shown = ", ".join([*kept, *SHOWN])
    kept_text = f".katex-display, .{NOTICE_CLASS}, .{KEPT_CLASS}"
    hidden = [
        # The sidebar and the buttons that open it: navigation moves to the top.
        '[data-testid="stSidebar"]',
        '[data-testid="stSidebarCollapsedControl"]',
        '[data-testid="stExpandSidebarButton"]',
        # Explanations: text and captions (but not equations, nor what is marked
        # to stay, such as a card's title), notes, expanders.
        f"{container}:has(> .stMarkdown):not(:has({kept_text}))",
        f'{container}:has([data-testid="stAlertContentInfo"])',
        f'{main} [data-testid="stExpander"]',
        # Every control but the stepping ones (downloads included).
        f"{container}{keep}:has({widgets})",
        # Rows of columns that held only such controls (and their wrappers: no gap left).
        f'{main} [data-testid="stHorizontalBlock"]:has({widgets}):not(:has({shown}))',
        f'{main} [data-testid="stLayoutWrapper"]:has(> [data-testid="stHorizontalBlock"])'
        f":has({widgets}):not(:has({shown}))",
        # A container that held only such a row: its empty box took a gap (16 px), which
        # put Contours' figure 14 px below a lesson's frame.
        f'{main} [data-testid="stLayoutWrapper"]:has(> [data-testid="stVerticalBlock"]'
        ' > [data-testid="stLayoutWrapper"]:only-child > [data-testid="stHorizontalBlock"])'
        f":has({widgets}):not(:has({shown}))",
    ]
    padding = "3.5rem 1.5rem 1rem"
    if slide:
        hidden += [
            '[data-testid="stHeader"]',
            f".st-key-{BAR}",
            f'{main} [data-testid="stLayoutWrapper"]:has(> .st-key-{BAR})',  # and its gap
            f"{container}:has(h1)",
            f"{container}:has(.{NOTICE_CLASS})",
            # The step chose the tab.
            f'{main} [data-testid="stTabs"] [role="tablist"]',
        ]
        padding = "0 0.5rem"
    # One rule per selector: a browser without :has() still hides the sidebar.
    return "\n".join(
        [
            *(f"{selector} {{ display: none !important; }}" for selector in hidden),
            f'{main} [data-testid="stMainBlockContainer"] '
            f"{{ padding: {padding}; max-width: none; }}",
            f"{main} h1 {{ font-size: 1.5rem; padding: 0; }}",
            f"{main} .{NOTICE_CLASS} {{ font-size: 1.25rem; margin: 0; white-space: nowrap; "
            "overflow: hidden; text-overflow: ellipsis; }",
            # Each stepping control first in its block, above the figures it moves
            # (the Spectrum's chosen width would otherwise be below the screen).
            f"{main} :is({', '.join(kept)}) {{ order: -1; }}",
            f'{main} [data-testid="stWidgetLabel"] p {{ font-size: 1.25rem; }}',
            f'{main} [data-testid="stSliderThumbValue"] {{ font-size: 1.1rem; }}',
            f'{main} [data-baseweb="tab"] p {{ font-size: 1.2rem; }}',
            # The toggle sits in the header, beside the navigation, as the page scrolls.
            f".st-key-{BAR} {{ position: fixed; top: 0.6rem; right: 3.5rem; "
            "width: auto; z-index: 1000000; }",
        ]
    )
