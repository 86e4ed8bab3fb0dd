"""The drawing canvas: points drawn by hand as a data set of the 2-D views.

"Draw your own points" in the data picker (:mod:`kpca_ui.points`) shows a canvas (a
``components.v2`` component, ``draw_canvas.js`` and ``draw_canvas.css``) with the first
component of the current fit behind the points: click adds, drag moves, groups 2 and 3,
delete, undo, clear, and a copy of the data set shown before.

The drawing is kept in the session (:class:`kpca_core.drawing.Drawing`) and in the link
(``<prefix>_draw``).  Every edit sends the whole drawing as the state value ``edit`` with
a sequence token; :func:`take_edit` applies an edit it has not seen, so the state logic
reads a plain value and can be tested with one passed in.  The handwriting pad
(:mod:`kpca_ui.pad`) keeps its state the same way (:func:`linked_value`, :func:`put_in_link`).
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
"""The canvas's colours: group g in ``GROUP_COLOURS[g - 1]``."""
SEQ_CHARS = 64
"""The longest edit token read from the canvas (it sends ``"<id>:<count>"``)."""
_HERE = Path(__file__).parent
_CANVAS = st.components.v2.component(
    "kpca_ui.draw_canvas",
    css=(_HERE / "draw_canvas.css").read_text(encoding="utf-8"),
    js=(_HERE / "draw_canvas.js").read_text(encoding="utf-8"),
)
HELP = (
    f"**Click** adds a point, **drag** moves one; **1 2 3** (or shift-click) choose the "
    "group of the next points, **Delete** (or alt-click) removes one, **Undo** and "
    "**Clear** do what they say. On the keyboard: the arrows move a cursor, Enter adds "
    "a point there (or picks up the point under it and puts it down again). Every edit "
    f"refits. At most {MAX_POINTS} points; the link to this view keeps them."
)


def _keys(prefix: str) -> dict[str, str]:
    return {
        "drawing": f"{prefix}_drawing",
        "link": f"{prefix}_draw",
        "notes": f"{prefix}_draw_notes",
        "seq": f"{prefix}_draw_seq",
        "rev": f"{prefix}_draw_rev",
        "canvas": f"{prefix}_canvas",
    }


def linked_value(keys: Mapping[str, str], name: str, read: Callable[[str | None], tuple]) -> Any:
    """A component's value ``keys[name]`` in the session; the first time, the link's
    (``keys["link"]``, parsed by ``read``), with its notes, at revision 0."""
    if keys[name] not in st.session_state:
        value, notes = read(st.query_params.get(keys["link"]))
        st.session_state[keys[name]] = value
        st.session_state[keys["notes"]] = notes
        st.session_state[keys["rev"]] = 0
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
    st.session_state[keys["drawing"]] = drawing
    st.session_state[keys["notes"]] = notes
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
    current = current_drawing(prefix)
    edit = value.get("edit") if isinstance(value, Mapping) else None
    if not isinstance(edit, Mapping) or not _is_token(edit.get("seq")):
        return False
    if edit["seq"] == st.session_state.get(keys["seq"]):
        return False
    st.session_state[keys["seq"]] = edit["seq"]
    if edit.get("copy"):
        if copy_source is not None:
            drawing, note = from_data(*copy_source)
            replace_drawing(prefix, drawing, [f"Copied in: {note}."] if note else [])
        return True
    half_width = edit.get("half", current.half_width)
    drawing, notes = from_points(edit.get("points"), half_width)
    st.session_state[keys["drawing"]] = drawing
    st.session_state[keys["notes"]] = notes
    return True


def _is_token(seq: object) -> bool:
    """Whether an edit's sequence token is one a canvas sends (``"<id>:<count>"``)."""
    return isinstance(seq, str) and 0 < len(seq) <= SEQ_CHARS


def sync_link(prefix: str, drawing: Drawing | None) -> None:
    """Put the drawing in the link (``None``, or no points: take it out)."""
    text = encode(drawing) if drawing is not None and len(drawing) else None
    put_in_link(_keys(prefix)["link"], text)


def title(drawing: Drawing) -> str:
    """The data set's title, with the number of points as for the other sets."""
    n = len(drawing)
    return f"Your drawing: {n} point{'' if n == 1 else 's'}"


def drawn_state(prefix: str, copy_source: tuple | None = None) -> Drawing:
    """The drawing after the canvas's latest edit, also put in the link."""
    take_edit(prefix, st.session_state.get(_keys(prefix)["canvas"]), copy_source)
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
) -> None:
    """The canvas with the session's drawing over ``background``, its notes and help.

    Parameters
    ----------
    prefix : str
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
    """
    keys = _keys(prefix)
    place = place or st.container()
    drawing = current_drawing(prefix)
    for note in st.session_state.get(keys["notes"], []):
        place.warning(note, icon=":material/draw:")
    with place:
        _CANVAS(
            key=keys["canvas"],
            data={
                "points": [
                    [float(x), float(y), int(g)]
                    for (x, y), g in zip(drawing.X.tolist(), drawing.groups.tolist(), strict=True)
                ],
                "half": drawing.half_width,
                "rev": st.session_state.get(keys["rev"], 0),
                "seq": st.session_state.get(keys["seq"]),
                "max": MAX_POINTS,
                "colours": list(GROUP_COLOURS),
                "background": dict(background) if background else None,
                "copyLabel": "Copy in the data shown before" if can_copy else "Nothing to copy",
                "maxPx": PRESENTER_PX if large else CANVAS_PX,  # or less: fit() in the JS
                "prefix": prefix,  # its edits' events name it (a live chart follows them)
            },
            default={"edit": None},
            on_edit_change=_edited,
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


def _edited() -> None:
    """Declare the canvas's state ``edit`` (components v2 asks for a callback); it does
    nothing, as :func:`drawn_state` reads the edit on the run it starts (a test's too)."""
