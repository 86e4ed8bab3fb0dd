"""The width of the page's content as the browser draws it, for figures of a planned width.

The server does not know the screen, and a figure of a fixed width (the Contours grid)
is cut or squeezed on a phone.  :func:`width_listener` draws a small ``components.v2``
listener that reports the main column's width only when it differs from the planned
one (so a desktop page never pays a rerun for it), and again on resize; its report
reruns the fragment it is drawn in.  :func:`content_px` gives the width to plan for.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.figures.style import NARROW_PX, is_narrow
from kpca_ui.presenter import presenter_mode

LEAST_PX = 240
"""Narrower reports are ignored (a page being laid out, not a screen)."""
TOLERANCE_PX = 8
"""A measured width within this much of the planned one is not reported."""

_WIDTH = st.components.v2.component(
    "kpca_ui.content_width",
    js="""
export default function ({ data, setStateValue }) {
  const main = () => document.querySelector('[data-testid="stMainBlockContainer"]');
  const measure = () => {
    const column = main();
    if (!column) return;
    const style = getComputedStyle(column);
    const width = Math.round(
      column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight));
    const wanted = Math.min(width, data.full);
    if (width >= data.least && Math.abs(wanted - window.__kpcaPlanned[data.key]) > data.tolerance) {
      window.__kpcaPlanned[data.key] = wanted;
      setStateValue("width", width);
    }
  };
  (window.__kpcaPlanned ??= {})[data.key] = data.planned;
  requestAnimationFrame(measure);
  let timer = null;
  const observer = new ResizeObserver(() => {
    clearTimeout(timer);
    timer = setTimeout(measure, 300);
  });
  observer.observe(main() ?? document.body);
  return () => observer.disconnect();
}
""",
)


def content_px(key: str, full: int) -> int:
    """The width to plan a figure for: ``full``, or the main column's if the listener
    keyed ``key`` (:func:`width_listener`) measured it narrower."""
    measured = st.session_state.get(key)
    width = measured.get("width") if isinstance(measured, Mapping) else None
    narrower = isinstance(width, int | float) and LEAST_PX <= width < full
    return round(width) if narrower else full


def width_listener(key: str, planned: int, full: int) -> None:
    """Draw the listener that reports the main column's width when it differs from the
    ``planned`` one by more than :data:`TOLERANCE_PX` (up to ``full``).

    Draw it last in the figure's fragment, where it takes no room among the figures.
    """
    _WIDTH(
        key=key,
        data=dict(key=key, planned=planned, full=full, least=LEAST_PX, tolerance=TOLERANCE_PX),
        default={"width": None},
        on_width_change=lambda: None,  # declares the state (read by content_px on the rerun)
    )


def narrow_px(key: str) -> int:
    """The width to plan a figure for that changes its layout on a phone
    (:data:`kpca_core.figures.style.NARROW_PX`), measured by the listener keyed ``key``."""
    return content_px(key, NARROW_PX)


def narrow_listener(key: str, planned: int) -> None:
    """:func:`width_listener` for a figure planned by :func:`narrow_px`; none in presenter
    mode, whose screen is a projector's."""
    if not presenter_mode():
        width_listener(key, planned, NARROW_PX)


def on_phone(key: str) -> bool:
    """Whether the page, as the listener keyed ``key`` measured it (:func:`narrow_listener`),
    is a phone's; never in presenter mode."""
    return not presenter_mode() and is_narrow(narrow_px(key))


def controls_place(key: str, label: str) -> DeltaGenerator:
    """Where a view's long controls go: the page, or on a phone's page (:func:`on_phone`)
    an expander named ``label``, so that the figure under them is on the first screen."""
    return st.expander(label, icon=":material/tune:") if on_phone(key) else st.container()
