"""Links into the views: a copyable link, and a notice for link values that cannot be used.

Every control is bound to the URL (``bind="query-params"``). Streamlit seeds a bound
widget from the link on the widget's first run, and drops a value it cannot use (an
unknown option, a number out of range, text where a number belongs) without a word:
the parameter leaves the URL and the widget shows its default. So :func:`remember_link`
keeps the parameters as a page starts (``require_app_shell`` calls it, before any widget),
and :func:`link_tools`, called last on the page, compares them with what the widgets show.

A link is data, never trusted: :func:`sanitise_link` checks every value against the
:class:`Domain` its widget declares (type, finite, range, allowed option) before any
widget reads it, and removes what does not fit, so that no widget ever parses it
(``inf`` in a whole-number box made Streamlit's own parser raise).  Text from a link is
echoed only through :func:`literal`: shortened, and escaped so that it shows as the
characters it is and never as markdown (no links or images injected into a notice).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import streamlit as st
from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

SNAPSHOT = "_link_snapshot"
REPORTED = "_link_reported"
PENDING = "_link_pending"
"""Notices found before the widgets ran (repeated parameters, values of no view's
widget), shown by :func:`show_pending` on the page the link opened."""
ECHO_CHARS = 40
"""Link text echoed in a notice is cut to this many characters."""
NUMBER_CHARS = 64
"""The longest number a link may give (a float's 17 digits and an exponent, with room)."""
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Unicode's bidirectional controls: U+202E reverses the rest of a line it is echoed in."""
# Widget-key prefix of each view -> its URL path.
PAGES = {"ct": "contours", "sp": "spectrum", "dn": "denoising", "ft": "features", "ls": "lesson"}
_POINTS = {
    "data": "Data set",
    "n": "Number of points",
    "noise": "Noise",
    "seed": "Seed",
    "draw": "Drawing",  # not a widget: kpca_ui/draw.py reads it and tells what it could not use
}
# The bound widgets of each view, by key without the prefix, with the labels the
# notices use. tests/test_links.py checks that every bound key of a page is here.
LABELS: dict[str, dict[str, str]] = {
    "ct": {
        **_POINTS,
        "kernel": "Kernel",
        "sweep": "Columns sweep",
        "values": "Values",
        "k": "Components",
        "center": "Centre in F",
        "pca": "Add linear PCA",
        "degree": "Degree d",
        "gamma": "Scale γ",
        "coef0": "Offset c",
        "sigma": "Width σ",
        "res": "Grid resolution",
        "pcol": "Column",
        "pi": "Horizontal: kPC",
        "pj": "Vertical: kPC",
        "img": "Camera button saves",
    },
    "sp": {
        **_POINTS,
        "kernel": "Kernel and swept parameter",
        "coef0": "Offset c",
        "dmax": "Largest degree",
        "degree": "Degree d",
        "range": "Range",
        "nw": "Number of widths",
        "k": "Leading components drawn",
        "img": "Camera button saves",
        "at": "Chosen width",
        "logbars": "Logarithmic bars",
        "film": "Play the sweep",
    },
    "dn": {
        "img": "Camera button saves",
        "train": "Training digits per class",
        "test": "Test digits per class",
        "seed": "Seed",
        "c": "Width c",
        "center": "Centre in feature space",
        "noise": "Noise type",
        "sigma": "Standard deviation σ",
        "p": "Probability p",
        "train_noisy": "Train on noisy digits too",
        "method": "Method",
        "ridge": "Ridge parameter α",
        "tab": "Tab",
        "n": "Number of components n",
        "sbs_count": "How many digits",
        "sbs_draw": "Draw",
        "sweep_ridge": "Add the learned pre-image",
        "toy_noise": "Noise (2-D toy)",
        "toy_c": "Width c (2-D toy)",
        "toy_n": "Kernel components (2-D toy)",
        "toy_seed": "Seed (2-D toy)",
        "demo_digit": "Which digit?",
        "demo_noise": "How much noise?",
        "fig3_digit": "Test digit (Fig. 3)",
        "fig3_start": "Start the iteration at (Fig. 3)",
        "pre_digits": "Noisy test digits compared",
        "pre_set": "Data set (pre-images)",
        "pre_n": "Kernel components (fixed point)",
        "pre_point": "Point whose ρ(z) is drawn",
        "pad": "Written digit",  # not a widget: kpca_ui/pad.py reads it, as "draw" above
    },
    "ft": {
        "img": "Camera button saves",
        "tab": "Tab",
        "data": "Data set",
        "draw": "Drawing",  # not a widget, as in _POINTS
        "points": "Number of points",
        "seed": "Seed",
        "kernel": "Kernel",
        "sigma": "Width σ",
        "pdegree": "Degree d",
        "k": "Kernel components n",
        "degree": "Degree d of the cell",
        "n": "Number of components n of the cell",
    },
    "ls": {"lesson": "Lesson"},
}


@dataclass(frozen=True)
class Domain:
    """The values a bound widget accepts from a link, as the URL's strings.

    ``kind`` is ``"int"``, ``"float"``, ``"pair"`` (two numbers, a range slider),
    ``"flag"`` (true or false), ``"choice"`` (one of ``options``, the widget's
    labels) or ``"text"`` (at most ``high`` characters; the view checks it).
    """

    kind: str
    low: float = -math.inf
    high: float = math.inf
    options: tuple[str, ...] = ()
    former: tuple[tuple[str, str], ...] = ()
    """(old, new) labels of a ``"choice"``: a link with an old label means the new one."""

    @property
    def arity(self) -> int:
        """How many values the parameter carries: 2 for a pair, else 1."""
        return 2 if self.kind == "pair" else 1

    def accepts(self, values: list[str]) -> bool:
        """Whether the link's strings are a value of this domain."""
        if len(values) != self.arity:
            return False
        if self.kind == "choice":
            return values[0] in self.options
        if self.kind == "flag":
            return values[0].lower() in ("true", "false")
        if self.kind == "text":
            return len(values[0]) <= self.high
        if any(len(value) > NUMBER_CHARS for value in values):
            return False
        numbers = [_number(value) for value in values]
        # −0.0 equals 0 but is no value of a widget: NumPy refuses scale=−0.0, and
        # ``-0``, ``-0.0`` and ``-1e-400`` are all read as −0.0
        if any(x is None or not self.low <= x <= self.high or _negative_zero(x) for x in numbers):
            return False
        return self.kind != "int" or float(numbers[0]).is_integer()


def _negative_zero(x: float) -> bool:
    return x == 0 and math.copysign(1.0, x) < 0


def integer(low: int, high: int) -> Domain:
    """A whole number from ``low`` to ``high`` (a number box or an integer slider)."""
    return Domain("int", low, high)


def number(low: float, high: float) -> Domain:
    """A finite number from ``low`` to ``high``."""
    return Domain("float", low, high)


def pair(low: float, high: float) -> Domain:
    """Two finite numbers from ``low`` to ``high`` (a range slider)."""
    return Domain("pair", low, high)


def flag() -> Domain:
    """``true`` or ``false`` (a toggle or a checkbox)."""
    return Domain("flag")


def choice(labels: Iterable[object], former: Mapping[str, str] | None = None) -> Domain:
    """One of these labels, as the widget shows them (and writes them into the URL);
    ``former`` maps labels older links carry to today's."""
    return Domain(
        "choice",
        options=tuple(str(label) for label in labels),
        former=tuple((former or {}).items()),
    )


def text(longest: int = 200) -> Domain:
    """Free text of at most ``longest`` characters, or options only the page knows."""
    return Domain("text", high=longest)


FLAG_WORDS = {"1": "true", "yes": "true", "on": "true", "0": "false", "no": "false", "off": "false"}
"""Other words a hand-written link may use for a toggle, and what they mean."""


def sanitise_link(domains: Mapping[str, Domain], labels: Mapping[str, str] | None = None) -> None:
    """Remove from the URL every value its widget's domain does not accept; call before widgets.

    A parameter given more times than its widget takes keeps its last values, with a
    notice; a toggle written ``1``/``yes``/``on`` (``0``/``no``/``off``) is read as
    ``true`` (``false``).  What is removed is reported: a view's own settings by
    :func:`link_tools`, from the snapshot :func:`remember_link` kept, with what the
    widget shows instead; any other (``presenter``) by :func:`show_pending`, named
    by ``labels``.
    """
    pending: list[str] = st.session_state.setdefault(PENDING, [])
    names = {key: label for prefix in LABELS for key, label in _labelled(prefix)}
    names.update(labels or {})
    for key, domain in domains.items():
        given = st.query_params.get_all(key)
        values = given
        if not values:
            continue
        if len(values) > domain.arity:
            values = values[-domain.arity :]
            pending.append(
                f"The link gives “{names.get(key, key)}” {len(given)} times; "
                f"the last ({literal(' – '.join(values))}) is used."
            )
        if domain.kind == "flag" and values[0].lower() in FLAG_WORDS:
            values = [FLAG_WORDS[values[0].lower()]]
        renamed = dict(domain.former).get(values[0])
        if renamed is not None:  # an older link's label: it asked for today's
            values = [renamed]
            snapshot = st.session_state.get(SNAPSHOT)
            if isinstance(snapshot, dict) and key in snapshot:
                snapshot[key] = values
        if not domain.accepts(values):
            values = []
            if key.split("_", 1)[0] not in PAGES:
                pending.append(
                    f"The link's value for “{names.get(key, key)}” "
                    f"({literal(' – '.join(given))}) is not allowed here; it was ignored."
                )
        if values != given:
            _replace_param(key, values)


def show_pending() -> None:
    """Show the notices :func:`sanitise_link` could give before any widget ran.

    Called on every page once its link is sanitised, so that a notice is told on
    the page the link opened, pages without settings of their own included.
    """
    notes = st.session_state.pop(PENDING, [])
    if notes:
        st.toast("\n\n".join(notes), icon=":material/link_off:", duration="long")


def _replace_param(key: str, values: list[str]) -> None:
    """Put ``values`` (none: remove it) in the URL and where widgets seed from it.

    A bound widget seeds from the query string as the page was opened, which
    Streamlit keeps apart from ``st.query_params``; not public API, so without it
    (another Streamlit version) only ``st.query_params`` changes.
    """
    state = getattr(get_script_run_ctx(), "session_state", None)
    params = getattr(getattr(state, "_state", None), "query_params", None)
    initial = getattr(params, "_initial_query_params", None)
    if isinstance(initial, dict):
        if values:
            initial[key] = values
        else:
            initial.pop(key, None)
    if params is not None and hasattr(params, "remove_param"):
        params.remove_param(key)
    else:
        st.query_params.pop(key, None)
    bound = getattr(params, "is_bound", lambda _: False)(key)
    if values and not bound:  # a bound widget writes its own value
        st.query_params[key] = values if len(values) > 1 else values[0]


def keep_in_url(key: str, value: str) -> None:
    """Put a bound widget's ``value`` back into the URL when it is not there.

    Streamlit writes a bound widget's value into the URL when the value changes;
    a change of page inside the app clears the URL, so a widget drawn on every
    page (the presenter toggle) would drop out of the link the lecturer copies.
    Not public API: without it (another Streamlit version) the URL is left as is.
    """
    params = _url_state()
    if st.query_params.get(key) != value and hasattr(params, "set_corrected_value"):
        params.set_corrected_value(key, value, "string_value")


def replace_with_default(key: str, default: object) -> None:
    """Before its widget is drawn: show ``default`` and take the widget's value out of the URL.

    For a value the view cannot use (a link's, or typed): the widget then shows
    what the view shows, and the link no longer carries what was replaced.
    """
    _replace_param(key, [])
    st.session_state[key] = default


def _url_state() -> Any:
    """Streamlit's record of the URL's query parameters (not public API), or None."""
    state = getattr(get_script_run_ctx(), "session_state", None)
    return getattr(getattr(state, "_state", None), "query_params", None)


def forget_link(prefix: str) -> None:
    """Remove every parameter of the view with this widget-key prefix from the link."""
    for key in [key for key in st.query_params if key.startswith(f"{prefix}_")]:
        _replace_param(key, [])
    st.session_state.pop(SNAPSHOT, None)


def _labelled(prefix: str) -> list[tuple[str, str]]:
    return [(f"{prefix}_{name}", label) for name, label in LABELS[prefix].items()]


def literal(value: str, limit: int = ECHO_CHARS) -> str:
    """Text from outside (a link, a file) as markdown that shows exactly these characters.

    Cut to ``limit`` characters (an ellipsis says so), on one line, without
    bidirectional controls (:data:`BIDI_CONTROLS`), and every ASCII punctuation
    character escaped with a backslash (CommonMark allows it for all of them), so
    that no link, image, emphasis, HTML, auto-linked address or icon shortcode can
    come out of it.
    """
    flat = " ".join(BIDI_CONTROLS.sub("", str(value)).split())
    short = flat if len(flat) <= limit else flat[: limit - 1] + "…"
    return re.sub(r"([!-/:-@\[-`{-~])", r"\\\1", short)


def remember_link() -> None:
    """Keep the link's query parameters; call first on a page, before any widget.

    Only those without a value in the session yet: a widget takes its value from the
    link on its first run only, and later runs (a preset button, say) may change it.
    """
    st.session_state[SNAPSHOT] = {
        key: st.query_params.get_all(key) for key in st.query_params if key not in st.session_state
    }


def link_tools(prefix: str) -> None:
    """The "Link to this view" control in the sidebar, and notices for unusable link values.

    Call it last on a page, after every widget.

    Parameters
    ----------
    prefix : str
        The page's widget-key prefix, a key of :data:`PAGES` (e.g. ``"ct"``).
    """
    with st.sidebar:
        _share(PAGES[prefix], f"{prefix}_share")
    notes = link_notices(prefix)
    if notes:
        st.toast("\n\n".join(notes), icon=":material/link_off:", duration="long")


def link_notices(prefix: str) -> list[str]:
    """What the page could not take from the link it was opened with; each told once.

    A parameter is reported when its widget shows something else than the link
    asked for, or when it looks like one of the app's (``ct_…``, ``sp_…``,
    ``dn_…``) but is no setting of this view, e.g. after a renaming.
    """
    snapshot: dict[str, list[str]] = st.session_state.get(SNAPSHOT, {})
    reported: set = st.session_state.setdefault(REPORTED, set())
    labels = LABELS.get(prefix, {})
    notes = []
    for key, asked in snapshot.items():
        if (key, tuple(asked)) in reported or key.split("_", 1)[0] not in PAGES:
            continue
        name = key.removeprefix(f"{prefix}_") if key.startswith(f"{prefix}_") else None
        if name in labels or key in st.session_state:
            note = _value_note(key, labels.get(name, key), asked)
        else:
            note = (
                f"The link's parameter “{literal(key)}” is not a setting of this view; "
                "it was ignored."
            )
        if note:
            reported.add((key, tuple(asked)))
            notes.append(note)
    return notes


def view_link(page: str) -> str:
    """The address of this view with its current settings."""
    query = urlencode(
        [(key, value) for key in st.query_params for value in st.query_params.get_all(key)]
    )
    base = st.context.url or f"/{page}"
    return f"{base}?{query}" if query else base


@st.fragment
def _share(page: str, key: str) -> None:
    # Its own fragment, built when opened: the URL is read at that moment.
    popover = st.popover("Link to this view", icon=":material/link:", key=key, on_change="rerun")
    if popover.open:
        popover.code(view_link(page), language=None, wrap_lines=True)
        popover.caption(
            "Copy it with the icon at the box's right (it is also the page's address): it "
            "reopens this view with exactly these settings."
        )


def _value_note(key: str, label: str, asked: list[str]) -> str | None:
    """The notice for a bound widget that shows something else than the link asked for."""
    if st.query_params.get_all(key) == asked or key not in st.session_state:
        return None  # kept as asked, or its widget is not drawn with these settings
    metadata = _metadata(key)
    if metadata is None:
        return None
    shown = _url_form(metadata.serializer(st.session_state[key]))
    if _same(asked[-1:] if len(shown) == 1 else asked, shown):  # one value: the last counts
        return None
    default = _url_form(metadata.serializer(metadata.deserializer(None)))
    if _same(asked[-1:] if len(default) == 1 else asked, default):
        # Streamlit leaves a widget's own default out of the URL, and the page
        # had chosen another starting value.
        verdict, instead = "could not be used", _join(shown)
    else:
        verdict = "is not allowed here"
        instead = f"the default {_join(shown)}" if shown == default else _join(shown)
    return (
        f"The link's value for “{label}” ({literal(_join(asked))}) {verdict}; "
        f"showing {literal(instead)}."
    )


def _metadata(key: str) -> Any:
    """Streamlit's record of the bound widget with this key (serializer, default), or None.

    Not public API: without it (another Streamlit version), no notice is shown.
    """
    ctx = get_script_run_ctx()
    try:
        state = ctx.session_state._state
        metadata = state.get_widget_metadata(state.get_widget_id_from_key(key))
    except (AttributeError, KeyError, TypeError):
        return None
    return metadata if getattr(metadata, "bind", None) == "query-params" else None


def _url_form(serialized: object) -> list[str]:
    """A widget's serialized value as the strings it takes in the URL."""
    items = serialized if isinstance(serialized, list | tuple) else [serialized]
    return [_text(item) for item in items]


def _text(item: object) -> str:
    if isinstance(item, bool):
        return str(item).lower()
    if isinstance(item, float) and math.isfinite(item) and item == int(item):
        return str(int(item))
    return str(item)


def _same(asked: list[str], shown: list[str]) -> bool:
    """Whether the link's strings mean the values shown (``3.0`` means ``3``, ``True`` ``true``)."""
    return len(asked) == len(shown) and all(
        a.lower() == b.lower() or (_number(a) is not None and _number(a) == _number(b))
        for a, b in zip(asked, shown, strict=True)
    )


def _number(text: str) -> float | None:
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _join(values: list[str]) -> str:
    return " – ".join(values) if values else "(empty)"
