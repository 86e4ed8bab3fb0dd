"""The drawing canvas: points drawn by hand as a data set of the 2-D views.

"Draw your own points" in the data picker (:mod:`kpca_ui.points`) shows a ``components.v2``
canvas (``draw_canvas.js``, ``draw_canvas.css``) with the first component of the current fit
behind the points.  The drawing (:class:`kpca_core.drawing.Drawing`) is kept in the session and
in the link (``<prefix>_draw``).  Every edit sends the whole drawing as the state value ``edit``
with a sequence token, which :func:`take_edit` applies once.  The handwriting pad
(:mod:`kpca_ui.pad`) shares this plumbing (:func:`component`, :func:`state_keys`, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core import contours as ct
from kpca_core.drawing import MAX_POINTS, N_GROUPS, Drawing, decode, encode, from_data, from_points
from kpca_core.figures import style
from kpca_core.figures.drawing import canvas_background
from kpca_ui.cache import memo
from kpca_ui.workers import compute

DRAW = "Draw your own points"
"""The data picker's option."""
MIN_POINTS = 3
"""Fewer points give no kernel principal component to show."""
CANVAS_PX = 480
"""The canvas's largest width in CSS pixels (presenter mode: :data:`PRESENTER_PX`); the browser
shrinks it to the room the screen's height leaves (``fit`` in ``draw_canvas.js``)."""
PRESENTER_PX = 620
GROUP_COLOURS = style.GROUPS[:N_GROUPS]
SEQ_CHARS = 64
"""The longest edit token read from the canvas (it sends ``"<id>:<count>"``)."""


def component(stem: str) -> Callable:
    """The ``components.v2`` component ``kpca_ui.<stem>`` of ``<stem>.css`` and ``<stem>.js``
    (after ``canvas.js``, what the canvases share)."""
    names = (f"{stem}.css", "canvas.js", f"{stem}.js")
    css, shared, js = ((Path(__file__).parent / name).read_text(encoding="utf-8") for name in names)
    return st.components.v2.component(f"kpca_ui.{stem}", css=css, js=shared + js)


_CANVAS = component("draw_canvas")
HELP = (
    f"**Click** adds a point, **drag** moves one; **1 2 3** (or shift-click) choose the "
    "group of the next points, **Delete** (or alt-click) removes one, **Undo** and "
    "**Clear** do what they say. On the keyboard: the arrows move a cursor, Enter adds "
    "a point there (or picks up the point under it and puts it down again). Every edit "
    f"refits. At most {MAX_POINTS} points; the link to this view keeps them."
)


def state_keys(prefix: str, value: str, link: str, widget: str) -> dict[str, str]:
    """The session keys of a canvas's ``value``, ``widget``, and notes, seq, rev and noise (named
    after its ``link``), and its link key: all ``<prefix>_`` and a suffix."""
    suffixes = {value: value, "widget": widget, "link": link}
    suffixes |= {name: f"{link}_{name}" for name in ("notes", "seq", "rev", "noise")}
    return {name: f"{prefix}_{suffix}" for name, suffix in suffixes.items()}


def _keys(prefix: str) -> dict[str, str]:
    return state_keys(prefix, "drawing", "draw", "canvas")


def linked_value(keys: Mapping[str, str], name: str, read: Callable[[str | None], tuple]) -> Any:
    """A component's value ``keys[name]`` in the session; the first time, the link's
    (``keys["link"]``, parsed by ``read``), with its notes, at revision 0."""
    if keys[name] not in st.session_state:
        value, notes = read(st.query_params.get(keys["link"]))
        st.session_state.update({keys[name]: value, keys["notes"]: notes, keys["rev"]: 0})
    return st.session_state[keys[name]]


def put_in_link(key: str, text: str | None) -> None:
    """Put ``text`` in the link under ``key`` (``None``: take it out)."""
    if text is None:
        st.query_params.pop(key, None)
    elif st.query_params.get(key) != text:
        st.query_params[key] = text


def current_drawing(prefix: str) -> Drawing:
    """The session's drawing; the first time, the one in the link (with notes on it)."""
    return linked_value(_keys(prefix), "drawing", decode)


def replace_drawing(prefix: str, drawing: Drawing, notes: list[str]) -> None:
    """A drawing that the canvas did not make: the canvas takes it (a new revision)."""
    keys = _keys(prefix)
    st.session_state[keys["drawing"]], st.session_state[keys["notes"]] = drawing, notes
    st.session_state[keys["rev"]] = st.session_state.get(keys["rev"], 0) + 1


def take_edit(prefix: str, value: object, copy_source: tuple | None = None) -> bool:
    """Apply the canvas's latest edit to the session's drawing, once; whether it was new.

    Parameters
    ----------
    prefix : str
        Widget-key prefix of the page (``"ct"``, ``"sp"``).
    value : object
        The canvas's state, ``{"edit": {"seq", "half", "points"}}`` (or with ``"copy": True``
        to start from the data set shown before); anything else is no edit.
    copy_source : (X, labels) or None
        The data set a copy takes; None: nothing to copy.
    """
    keys = _keys(prefix)
    half_width = current_drawing(prefix).half_width
    edit = new_state(keys, value, "edit")
    if edit is not None and not edit.get("copy"):
        made = from_points(edit.get("points"), edit.get("half", half_width))
        st.session_state[keys["drawing"]], st.session_state[keys["notes"]] = made
    elif edit is not None and copy_source is not None:
        drawing, note = from_data(*copy_source)
        replace_drawing(prefix, drawing, [f"Copied in: {note}."] if note else [])
    return edit is not None


def new_state(keys: Mapping[str, str], value: object, name: str) -> Mapping | None:
    """A component's state value ``name`` (in its state ``value``) if it has a token as a canvas
    sends (``"<id>:<count>"``) other than ``keys["seq"]``, then the last taken; else None."""
    sent = value.get(name) if isinstance(value, Mapping) else None
    seq = sent.get("seq") if isinstance(sent, Mapping) else None
    token = isinstance(seq, str) and 0 < len(seq) <= SEQ_CHARS
    if not token or seq == st.session_state.get(keys["seq"]):
        return None
    st.session_state[keys["seq"]] = seq
    return sent


def sync_link(prefix: str, drawing: Drawing | None) -> None:
    """Put the drawing in the link (``None``, or no points: take it out)."""
    text = encode(drawing) if drawing is not None and len(drawing) else None
    put_in_link(_keys(prefix)["link"], text)


def drawn_state(prefix: str, copy_source: tuple | None = None) -> Drawing:
    """The drawing after the canvas's latest edit, also put in the link."""
    take_edit(prefix, st.session_state.get(_keys(prefix)["widget"]), copy_source)
    drawing = current_drawing(prefix)
    sync_link(prefix, drawing)
    return drawing


def canvas(
    prefix: str,
    background: Mapping[str, str] | None,
    *,
    can_copy: bool = True,
    place: DeltaGenerator | None = None,
    large: bool = False,
    behind: str | None = None,
    hint: str = HELP,
    counted: bool = True,
) -> None:
    """The canvas with the session's drawing over ``background``, its notes and help.

    Parameters
    ----------
    background : mapping or None
        From :func:`kpca_core.figures.drawing.canvas_background`.
    can_copy : bool
        Whether there is a 2-D data set, shown before the drawing, to copy in.
    place : DeltaGenerator, optional
        Where to draw it (default: the main area).
    large : bool
        Presenter mode: a larger canvas.
    behind : str, optional
        What the background shows ("kPC 1 of degree 2"), said under the canvas.
    hint : str
        The help under it (:data:`HELP`; a class room's phone says less).
    counted : bool
        Whether the canvas counts its points (a class room's phone counts the room's).
    """
    keys = _keys(prefix)
    place = place or st.container()
    drawing = current_drawing(prefix)
    points = zip(drawing.X.tolist(), drawing.groups.tolist(), strict=True)
    for note in st.session_state.get(keys["notes"], []):
        place.warning(note, icon=":material/draw:")
    with place:
        _CANVAS(
            key=keys["widget"],
            data={
                "points": [[x, y, g] for (x, y), g in points],
                "half": drawing.half_width,
                "rev": st.session_state.get(keys["rev"], 0),
                "seq": st.session_state.get(keys["seq"]),
                "max": MAX_POINTS,
                "colours": list(GROUP_COLOURS),
                "background": dict(background) if background else None,
                "copyLabel": "Copy in the data shown before" if can_copy else None,
                "counted": counted,
                "maxPx": PRESENTER_PX if large else CANVAS_PX,  # or less: fit() in the JS
                "prefix": prefix,  # its edits' events name it (a live chart follows them)
                "behind": behind,  # its cursor says the value of the colours under it
            },
            default={"edit": None},
            on_edit_change=declared,
        )
    if len(drawing) < MIN_POINTS:
        place.info(
            f"Click at least {MIN_POINTS} places on the canvas: with fewer points there is "
            "no kernel principal component to show."
        )
    # under the canvas, so that it and the figure beside it fit the first screen
    if behind:
        place.caption(f"Behind the points: the colours of **{behind}** (red +, blue −).")
    place.caption(hint)


@memo
def background(
    _X: object, data: tuple, spec: ct.KernelSpec, center: bool, half_width: float
) -> dict | None:
    """The picture behind a canvas: kPC 1 of kernel ``spec`` on the points ``_X`` (named by
    ``data``, their key) over the canvas's square."""
    fit = compute(ct.fit_column, _X, spec, n_components=1, center=center)
    return compute(canvas_background, fit, half_width)


def edit_seq(prefix: str) -> str | None:
    """The token of the canvas's last edit applied to the session's drawing."""
    return st.session_state.get(_keys(prefix)["seq"])


def declared() -> None:
    """Declare a canvas's state value (components v2 asks for a callback); the page reads it."""
