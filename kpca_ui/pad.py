"""The handwriting pad: a digit written with the mouse, a pen or a finger.

A ``components.v2`` component (``pad.js`` and ``pad.css``) with the drawing canvas's plumbing
(:mod:`kpca_ui.draw`); the writing (:class:`kpca_core.handwriting.Handwriting`) is kept in the
session and the link (``<prefix>_pad``).
"""

from __future__ import annotations

import streamlit as st

import kpca_core  # noqa: F401  (the package before a submodule: test_pages_import_order.py)
from kpca_core import handwriting as hw
from kpca_ui.draw import component, declared, linked_value, new_state, put_in_link, state_keys
from kpca_ui.settings import Setting

PAD_PX = 300
"""The pad's largest side, in CSS pixels: a finger's digit on a phone, a mouse's on a screen."""
_PAD = component("pad")


def link_setting(prefix: str) -> Setting:
    """The pad's writing in the link: text a little longer than the longest writing
    (:func:`kpca_core.handwriting.decode` keeps what is valid of it and says so)."""
    return Setting(f"{prefix}_pad", "Written digit", "link", longest=2 * hw.max_link_length())


def keys(prefix: str) -> dict[str, str]:
    """The session and link keys of the pad of the page with widget-key prefix ``prefix``."""
    return state_keys(prefix, "writing", "pad", "pad_widget")


def current_writing(prefix: str) -> hw.Handwriting:
    """The session's writing; the first time, the one in the link (with notes on it)."""
    return linked_value(keys(prefix), "writing", hw.decode)


def written(prefix: str) -> hw.Handwriting:
    """The writing after the pad's latest strokes (its state ``{"strokes": {"seq", "strokes"}}``,
    sent at each stroke's end and on "Clear", taken once), also put in the link (or taken out)."""
    k = keys(prefix)
    writing = current_writing(prefix)
    sent = new_state(k, st.session_state.get(k["widget"]), "strokes")
    if sent is not None:
        writing, notes = hw.from_pad(sent.get("strokes"))
        st.session_state[k["writing"]], st.session_state[k["notes"]] = writing, notes
    put_in_link(k["link"], hw.encode(writing) if len(writing) else None)
    return writing


def pad(prefix: str) -> None:
    """The pad with the session's writing, and notes on what could not be used."""
    k = keys(prefix)
    writing = current_writing(prefix)
    for note in st.session_state.get(k["notes"], []):
        st.warning(note, icon=":material/draw:")
    _PAD(
        key=k["widget"],
        data={
            "strokes": [[list(point) for point in stroke] for stroke in writing.strokes],
            "rev": st.session_state.get(k["rev"], 0),
            "levels": hw.LEVELS,
            "maxPoints": hw.MAX_POINTS,
            "maxStrokes": hw.MAX_STROKES,
            "maxPx": PAD_PX,
        },
        default={"strokes": None},
        on_strokes_change=declared,
    )


def noise_seed(prefix: str) -> int:
    """The seed of the noise on the written digit: a new one after each "Add noise again"."""
    return 1_000 + st.session_state.get(keys(prefix)["noise"], 0)


def noise_again(prefix: str) -> None:
    """The "Add noise again" button's callback: new noise on the same digit."""
    key = keys(prefix)["noise"]
    st.session_state[key] = st.session_state.get(key, 0) + 1
