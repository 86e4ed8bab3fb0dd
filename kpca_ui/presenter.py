"""Presenter mode: the figures, large, and one control per view to step through them.

One toggle (:data:`APP`'s ``presenter``, in the link for a lecturer's bookmark) is drawn on every
page by :func:`presenter_toggle`.  In presenter mode a page draws, by Python branches, no sidebar,
explanations, downloads or control but each view's stepping one (the settings declared ``live``);
each figure is planned for a 1280 × 720 screen (:func:`page_px`, :func:`figure_px`), above one
line of what to notice (:func:`notice`), and drawn as much larger as the screen measured is
(:func:`room_scale`: the words by :func:`page_css`, the figures by :func:`presentable`).  The
settings not drawn keep their values, in the session and in the link.  A view embedded as a
lesson's slide (:func:`slide_mode`) shows even less: no navigation, toggle,
title, row of tabs or notice (the Lesson page says all that), and shorter figures.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping

import plotly.graph_objects as go
import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.figures.style import for_projector
from kpca_ui.settings import PRESENTING, Setting, Settings, flag

SCREEN = {"width": 1280, "height": 720}
"""The projector presenter mode is planned for."""
PAGE_PX = SCREEN["width"] - 48
"""Width of the page's content in presenter mode (1.5 rem padding each side)."""
FIGURE_PX = 440
"""Height of a figure in presenter mode: 720 px less the header and title (≈ 130), the stepping
control (≈ 80), the notice (≈ 40), and room for a row of tabs."""
SLIDE_MARGINS_PX = 16
"""A slide's 0.5 rem margins at the sides (:func:`page_css`)."""
SLIDE_PX = PAGE_PX - SLIDE_MARGINS_PX
"""Width of a view's content on a lesson's slide that is as wide as presenter mode's page."""
FRAME_PX = "slide_px"
"""Link parameter of a slide: its frame's width in CSS pixels (the Lesson page measures it)."""
FRAME_RANGE = (320, PAGE_PX)
"""The frame widths a slide's link may give."""
SLIDE_SHORTER_PX = 60
"""A slide's figures are this much shorter than presenter mode's: the step's words are above."""
PLAIN_FIGURE_PX = FIGURE_PX + 40
"""Presenter mode's height of a figure with no control above (Denoising's Figs. 3, 4, Table 1)."""
SLIDE_PLAIN_PX = 452
"""At most this tall on a slide: the lesson's frame (490 px) less the tab's padding above."""
NOTICE_CLASS = "kpca-notice"
ROOM = "presenter_room"
"""Key of the listener that measures the screen in presenter mode (:func:`room_scale`)."""
ROOM_MOST = 3.0
"""The largest :func:`room_scale`: a 3840 × 2160 screen."""

KEY = "presenter"
SLIDE = "slide"
"""Link parameter of a view embedded as a lesson's slide (:func:`slide_mode`)."""
BAR = "presenter_bar"
"""Key of the container that holds the toggle in presenter mode (fixed in the header)."""
APP = Settings(
    "",
    "",
    flag(
        KEY,
        "Presenter mode",
        stepping=True,
        help="Large figures for a projector, as large as its screen: the controls and "
        "explanations are hidden except one slider per view (click it, then step with the "
        "arrow keys). The link keeps presenter mode on, for a bookmark.",
    ),
    flag(SLIDE, "Slide", widget="checkbox"),  # never drawn: the Lesson's frames set it
    Setting(FRAME_PX, "Slide's width", "number", None, low=FRAME_RANGE[0], high=FRAME_RANGE[1]),
)
"""The app's own settings, on every page: presenter mode, and a lesson's slide."""

_VIEWPORT = st.components.v2.component(
    "kpca_ui.presenter_room",
    js="""
export default function ({ data, setStateValue }) {
  const measure = () => {
    const size = {width: window.innerWidth, height: window.innerHeight};
    const planned = window.__kpcaRoom;
    if (Math.abs(size.width - planned.width) + Math.abs(size.height - planned.height) > 8) {
      window.__kpcaRoom = size;
      setStateValue("viewport", size);
    }
  };
  window.__kpcaRoom = data.planned;
  measure();
  let timer = null;
  const resized = () => { clearTimeout(timer); timer = setTimeout(measure, 300); };
  window.addEventListener("resize", resized);
  return () => window.removeEventListener("resize", resized);
}
""",
)
"""Reports the window's size when it differs from the one planned for (a rerun)."""

MAIN, BLOCK = '[data-testid="stMain"]', '[data-testid="stMainBlockContainer"]'
"""The page's main area and its content's box: the places the app styles without a class."""
PAGE_CSS = (
    # Streamlit's 6rem above a 2.75rem title (its header is 3.75rem): a view's first
    # figure started at the foot of a 1280 × 720 screen (tests/e2e/audit.py, first_figure)
    f"{MAIN} {BLOCK} {{ padding-top: 3.5rem; }} {MAIN} h1 {{ font-size: 2.25rem; }}"
    # a phone: the charts' tool bars covered the figures' titles, the page's title takes
    # one or two lines, not four, and an equation fits its column at the text's size (at
    # KaTeX's 1.21 em, Home's (49) was 2 px wider: a region scrolled, out of a keyboard's reach)
    "@media (max-width: 640px) { .js-plotly-plot .modebar-container { display: none; } "
    f"{MAIN} h1 {{ font-size: 1.75rem; }} .katex-display > .katex {{ font-size: 1em; }} }}"
)
"""The rules every page sends: a view's first figure within the first screen."""
_RING = "outline: 2px solid #000 !important; outline-offset: 2px; box-shadow: 0 0 0 2px #fff"
"""The focus ring: 2 px of black around 2 px of white, one of which has 21:1 against whatever
is beside it, on either theme."""
FOCUS_CSS = (
    # WCAG 2.4.7: every control shows the keyboard's focus as a ring, not only Streamlit's
    # change of background (1.11:1 on a navigation link, 1.16:1 on a checkbox)
    ":is(a, button, summary, input, textarea, [role=slider], [role=tab], [role=button], "
    f"[tabindex]):focus-visible {{ {_RING} !important; }}"
    # a checkbox, radio or toggle: its input is hidden, its label shows the ring
    f"label:has(> input:focus-visible) {{ {_RING}; border-radius: 0.25rem; }}"
    # a slider: its range input is hidden, its thumb shows the ring
    f'.stSlider div:has(> div > input[type="range"]:focus-visible) {{ {_RING}; }}'
    # a chart's tool bar shows while one of its buttons has the focus, not only on hover
    ".js-plotly-plot .modebar-container:focus-within .modebar { opacity: 1 !important; }"
    # the collapsed sidebar is off the screen: its controls take no Tab stop (WCAG 2.4.3)
    '.stSidebar[data-collapsed="true"], .stSidebar[data-collapsed="true"] * '
    "{ visibility: hidden !important; }"
    # a reader who asked for less motion: nothing slides or fades (WCAG 2.3.3)
    "@media (prefers-reduced-motion: reduce) { *, ::before, ::after { "
    "transition-duration: 0s !important; scroll-behavior: auto !important; } }"
)
"""The rules of the keyboard's focus, on every page and in presenter mode too."""


def presenter_mode() -> bool:
    """Whether this session is in presenter mode (before the app's settings are read, the
    navigation's place asks: then as the link says)."""
    return _app_value(KEY)


def slide_mode() -> bool:
    """Whether this page is embedded as a lesson's slide (in presenter mode only)."""
    return presenter_mode() and _app_value(SLIDE)


def _app_value(key: str) -> bool:
    if key in st.session_state:
        return bool(st.session_state[key])
    try:
        return bool(APP[key].from_link(st.query_params.get_all(key)))
    except ValueError:  # none, or no flag: the link's notice comes with the toggle
        return False


def viewport() -> dict[str, int]:
    """The browser window's size as measured (:data:`ROOM`), :data:`SCREEN` until then."""
    measured = st.session_state.get(ROOM)
    size = measured.get("viewport") if isinstance(measured, Mapping) else None
    return dict(size) if isinstance(size, Mapping) else SCREEN


def room_scale() -> float:
    """How much larger than :data:`SCREEN` presenter mode's screen is: the smaller of its
    measured width's and height's ratios to 1280 × 720, from 1 (a smaller screen is planned
    for as that one) to :data:`ROOM_MOST`; 1 off presenter mode and on a slide (the lesson's
    frame is its screen).  Every figure is planned for :data:`SCREEN` and drawn this much
    larger, its words, lines, marks and pictures alike: the one rule of the room's size."""
    if not presenter_mode() or slide_mode():
        return 1.0
    size = viewport()
    ratio = min(size["width"] / SCREEN["width"], size["height"] / SCREEN["height"])
    return round(min(max(ratio, 1.0), ROOM_MOST), 3)


def page_px() -> int:
    """Width of the content in presenter mode, which figures of a fixed width plan for:
    :data:`PAGE_PX`; on a slide its frame's width less its margins."""
    if not slide_mode():
        return PAGE_PX
    frame = APP.value(FRAME_PX)
    return round(frame) - SLIDE_MARGINS_PX if frame else SLIDE_PX


def figure_px(height: int = FIGURE_PX, *, control: bool = True) -> int:
    """A figure's height in presenter mode, ``height``: on a slide :data:`SLIDE_SHORTER_PX`
    less, or without a stepping ``control`` above it at most :data:`SLIDE_PLAIN_PX`."""
    if not slide_mode():
        return height
    return height - SLIDE_SHORTER_PX if control else min(height, SLIDE_PLAIN_PX)


def navigation_position() -> str:
    """Where the navigation goes: sidebar; top in presenter mode; none on a slide."""
    return "hidden" if slide_mode() else "top" if presenter_mode() else "sidebar"


def presentable(fig: go.Figure, *, height: int = FIGURE_PX, control: bool = True) -> go.Figure:
    """``fig`` as drawn now: in presenter mode a projector copy, ``height`` pixels tall (on a
    slide, :func:`figure_px` of it and ``control``) on a 1280 × 720 screen, :func:`room_scale`
    times larger on the screen measured, and as wide as its place; else ``fig``."""
    if not presenter_mode():
        return fig
    return for_projector(fig, height=figure_px(height, control=control), room=room_scale())


def notice(text: str) -> None:
    """One line of what to notice in the figure above, in presenter mode only (not on a
    slide, whose lesson says it): what a lecturer points at."""
    if presenter_mode() and not slide_mode():
        st.markdown(f'<p class="{NOTICE_CLASS}">{text}</p>', unsafe_allow_html=True)


def prose() -> bool:
    """Whether the page shows its explanations, captions and controls: not in presenter mode."""
    return not presenter_mode()


def title(text: str) -> None:
    """The page's title; none on a slide, whose lesson shows the step's."""
    if not slide_mode():
        st.title(text)


def presenter_toggle() -> bool:
    """Read the app's settings from the link, draw the toggle and the page's style; return it.
    Call it on every run before the page.  The toggle is drawn at the top of the sidebar, or in
    presenter mode in the header (the way back), with the same key and label: the same widget."""
    APP.start()
    st.session_state[PRESENTING] = presenter_mode()
    bar = st.container(key=BAR) if presenter_mode() else st.sidebar
    on = slide_mode() or APP.draw(KEY, bar)
    if on and not slide_mode():  # the screen, measured where it takes no room
        with bar:
            _VIEWPORT(key=ROOM, data={"planned": viewport()}, on_viewport_change=lambda: None)
    st.html(f"<style>{page_css(presenting=on, slide=slide_mode(), room=room_scale())}</style>")
    return on


def page_css(*, presenting: bool, slide: bool, room: float = 1.0) -> str:
    """The page's style sheet: :data:`PAGE_CSS`, and in presenter mode larger words and the
    toggle fixed in the header, all ``room`` times larger (:func:`room_scale`: the page's
    sizes are in rem); a slide, its thin margins."""
    if not presenting:
        return PAGE_CSS + FOCUS_CSS
    padding = "0 0.5rem" if slide else "3.5rem 1.5rem 1rem"
    return FOCUS_CSS + (
        f"html {{ font-size: {16 * room:g}px; }}"
        f"{MAIN} {BLOCK} {{ padding: {padding}; max-width: none; }}"
        f"{MAIN} h1 {{ font-size: 1.5rem; padding: 0; }}"
        f".{NOTICE_CLASS} {{ font-size: 1.25rem; margin: 0; white-space: nowrap; "
        "overflow: hidden; text-overflow: ellipsis; }"
        # the stepping controls' labels and values, and the tabs, for the back of the hall
        "label p, [role=tab] p { font-size: 1.25rem; }"
        # the toggle sits in the header, beside the navigation, as the page scrolls
        f".st-key-{BAR} {{ position: fixed; top: 0.6rem; right: 3.5rem; width: auto; "
        "z-index: 1000000; }"
    )


class _Chosen(contextlib.nullcontext):
    """A slide's tab: its content drawn in place, when it is the chosen one (``.open``)."""

    def __init__(self, chosen: bool) -> None:
        super().__init__(self)
        self.open = chosen


def tabs(settings: Settings, key: str) -> list:
    """A view's tabs (setting ``key``, a ``"tabs"`` one), each with ``.open``; on a slide, whose
    lesson chose the tab, without their row: the chosen one's content alone."""
    if slide_mode():
        return [_Chosen(option == settings.value(key)) for option in settings[key].options]
    return settings.draw(key)
