"""The explanations beside the figures: "The maths" and "What am I looking at".

One entry per figure in ``explanations.toml`` (beside this module: content, not code),
drawn under it by :func:`explain`.  Equation numbers are those of Schölkopf, Smola &
Müller (1998) ("SSM") and of Mika et al. (1999) ("Mika"), as in the shared papers.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

import streamlit as st

from kpca_ui.presenter import notice, presenter_mode

MATHS = "The maths"
WORDS = "What am I looking at"


@dataclass(frozen=True)
class Explanation:
    """What one figure shows: whose equation numbers (``source``), each equation it shows
    as (LaTeX, one sentence on what it says), and the figure in plain language for a
    reader who does not program (``words``; None where the page already says it)."""

    source: str
    maths: tuple[tuple[str, str], ...]
    words: str | None = None


def _load() -> dict[str, Explanation]:
    texts = tomllib.loads((Path(__file__).parent / "explanations.toml").read_text("utf-8"))
    equations, groups, sources = texts["equations"], texts["groups"], texts["sources"]

    def listed(maths: str | list) -> tuple[tuple[str, str], ...]:
        entries = groups[maths] if isinstance(maths, str) else maths
        found = [equations[entry] if isinstance(entry, str) else entry for entry in entries]
        return tuple((equation["latex"], equation["says"]) for equation in found)

    return {
        name: Explanation(sources[entry["source"]], listed(entry["maths"]), entry.get("words"))
        for name, entry in texts["figures"].items()
    }


_TEXTS = tomllib.loads((Path(__file__).parent / "texts.toml").read_text("utf-8"))
EXPLANATIONS = _load()
SSM = EXPLANATIONS["ct_contours"].source
MIKA = EXPLANATIONS["dn_fig4"].source


def explain(name: str) -> None:
    """Draw the expanders "The maths" and "What am I looking at" of one figure ``name``
    (``ct_contours``); nothing in presenter mode, which hides explanations."""
    if presenter_mode():
        return
    entry = EXPLANATIONS[name]
    with st.expander(MATHS, icon=":material/functions:"):
        st.caption(entry.source)
        for equation, sentence in entry.maths:
            st.latex(equation)
            st.caption(sentence)
    if entry.words is not None:
        with st.expander(WORDS, icon=":material/visibility:"):
            st.markdown(entry.words)


def text(name: str, **fields: object) -> str:
    """The views' paragraphs ``name`` (``texts.toml``: content, not code) with ``fields`` filled
    in; a line break within a paragraph, but before a list's item, becomes a space."""
    joined = re.sub(r"(?<=\S)\n(?=[^\s\-\d])", " ", _TEXTS["texts"][name].strip())
    return joined.format(**fields)


def notice_of(key: str) -> None:
    """Presenter mode's line of what to notice under the figure of chart ``key``
    (``texts.toml``)."""
    if key in _TEXTS["notices"]:  # the pre-images' comparisons have none
        notice(_TEXTS["notices"][key])
