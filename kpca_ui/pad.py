"""The handwriting pad: a digit written with the mouse, a pen or a finger.

A ``components.v2`` component (``pad.js`` and ``pad.css``).  At the end of each stroke
(and on "Clear") the pad sends all its strokes as the state value ``strokes`` with a
sequence token; :func:`take_strokes` applies what it has not seen, so the state logic
reads a plain value and a page test can pass one.  The writing is kept in the session
(:class:`kpca_core.handwriting.Handwriting`) and in the link (``<prefix>_pad``), as
the drawing canvas keeps its drawing (:mod:`kpca_ui.draw`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core.handwriting import (
    LEVELS,
    MAX_POINTS,
    MAX_STROKES,
    Handwriting,
    decode,
    encode,
    from_pad,
    max_link_length,
)
from kpca_ui.draw import linked_value, put_in_link
from kpca_ui.settings import Setting

PAD_PX = 300
"""The pad's largest side, in CSS pixels: a finger's digit on a phone, a mouse's on a screen."""
_HERE = Path(__file__).parent
_PAD = st.components.v2.component(
    "kpca_ui.pad",
    css=(_HERE / "pad.css").read_text(encoding="utf-8"),
    js=(_HERE / "pad.js").read_text(encoding="utf-8"),
)


def link_setting(prefix: str) -> Setting:
    """The pad's writing in the link: text a little longer than the longest writing
    (:func:`kpca_core.handwriting.decode` keeps what is valid of it and says so)."""
    return Setting(f"{prefix}_pad", "Written digit", "link", longest=2 * max_link_length())


def keys(prefix: str) -> dict[str, str]:
    """The session and link keys of the pad of the page with widget-key prefix ``prefix``."""
    return {
        "writing": f"{prefix}_writing",
        "link": f"{prefix}_pad",
        "notes": f"{prefix}_pad_notes",
        "seq": f"{prefix}_pad_seq",
        "rev": f"{prefix}_pad_rev",
        "pad": f"{prefix}_pad_widget",
        "noise": f"{prefix}_pad_noise",
    }


def current_writing(prefix: str) -> Handwriting:
    """The session's writing; the first time, the one in the link (with notes on it)."""
    return linked_value(keys(prefix), "writing", decode)


def take_strokes(prefix: str, value: object) -> bool:
    """Apply the pad's latest strokes to the session's writing, once; whether they were new.

    ``value`` is the pad's state, ``{"strokes": {"seq", "strokes"}}``; anything else is no
    change.
    """
    k = keys(prefix)
    current_writing(prefix)
    sent = value.get("strokes") if isinstance(value, Mapping) else None
    if not isinstance(sent, Mapping) or "seq" not in sent:
        return False
    if sent["seq"] == st.session_state.get(k["seq"]):
        return False
    st.session_state[k["seq"]] = sent["seq"]
    writing, notes = from_pad(sent.get("strokes"))
    st.session_state[k["writing"]] = writing
    st.session_state[k["notes"]] = notes
    return True


def sync_link(prefix: str, writing: Handwriting) -> None:
    """Put the writing in the link (nothing written: take it out)."""
    put_in_link(keys(prefix)["link"], encode(writing) if len(writing) else None)


def written(prefix: str) -> Handwriting:
    """The writing after the pad's latest strokes, also put in the link."""
    take_strokes(prefix, st.session_state.get(keys(prefix)["pad"]))
    writing = current_writing(prefix)
    sync_link(prefix, writing)
    return writing


def pad(prefix: str) -> None:
    """The pad with the session's writing, and notes on what could not be used."""
    k = keys(prefix)
    writing = current_writing(prefix)
    for note in st.session_state.get(k["notes"], []):
        st.warning(note, icon=":material/draw:")
    _PAD(
        key=k["pad"],
        data={
            "strokes": [[list(point) for point in stroke] for stroke in writing.strokes],
            "rev": st.session_state.get(k["rev"], 0),
            "levels": LEVELS,
            "maxPoints": MAX_POINTS,
            "maxStrokes": MAX_STROKES,
            "maxPx": PAD_PX,
        },
        default={"strokes": None},
        on_strokes_change=_changed,
    )


def noise_seed(prefix: str) -> int:
    """The seed of the noise on the written digit: a new one after each "Add noise again"."""
    return 1_000 + st.session_state.get(keys(prefix)["noise"], 0)


def noise_again(prefix: str) -> None:
    """The "Add noise again" button's callback: new noise on the same digit."""
    key = keys(prefix)["noise"]
    st.session_state[key] = st.session_state.get(key, 0) + 1


def _changed() -> None:
    """Declare the pad's state ``strokes`` (components v2 asks for a callback); it does
    nothing, as :func:`written` reads the strokes on the run it starts (a test's too)."""
