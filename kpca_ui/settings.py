"""Each view's settings, declared once: label, domain, default, link name, help, live, cost.

A view declares its settings in one :class:`Settings` table of :class:`Setting`
entries, the way scikit-learn declares ``_parameter_constraints``.  Everything
else derives from that table: the widgets (:meth:`Settings.draw`), the link's
parsing and writing, the notices for link values that cannot be used, the
presets (:meth:`Settings.apply`) and gallery links (:meth:`Settings.link`), the
lessons' steps (checked against it), the warm-up and class mode (which build a
view's state from a preset's values, as the page does from its widgets).

A setting's key is its widget's key and its name in the link.  The link is
data, never trusted: :meth:`Settings.start` reads it at the top of the page
(before any widget), checks each value against its setting's domain (type,
finite, range, allowed option) and puts what fits in the session, each widget's
own default where nothing fits, with a notice naming what was ignored.  Then the
link always holds the settings' values that are not their defaults (in their
link form: an option's label, a number's shortest text), written through
``st.query_params`` whenever a widget changes; a setting not drawn with the
current settings (or hidden in presenter mode) keeps its value in the session
(``persist_state="session"``) and in the link.

Text from a link is echoed only through :func:`literal`: shortened, and escaped
so that it shows as the characters it is and never as markdown.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlencode

import streamlit as st

Widget = Literal[
    "slider", "select_slider", "selectbox", "radio", "toggle", "checkbox", "number", "text",
    "range", "tabs", "link",
]  # fmt: skip
"""How a setting is drawn; ``"link"``: no widget, a value only the link carries (a drawing)."""
CALLS = {"range": "slider", "number": "number_input", "text": "text_input"}
"""The Streamlit function of a widget not named as it is (the others: ``st.<widget>``)."""
Cost = Literal["draw", "fit", "data"]
"""What a change of the setting computes again: the figures only, a fit, or new data and a fit."""

COST_HELP = {
    "draw": "",
    "fit": "Changing it fits kernel PCA again.",
    "data": "Changing it makes new data and fits kernel PCA again.",
}
ECHO_CHARS = 40
"""Link text echoed in a notice is cut to this many characters."""
NUMBER_CHARS = 64
"""The longest number a link may give (a float's 17 digits and an exponent, with room)."""
BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""Unicode's bidirectional controls: U+202E reverses the rest of a line it is echoed in."""
FLAG_WORDS = {"1": "true", "yes": "true", "on": "true", "0": "false", "no": "false", "off": "false"}
"""Other words a hand-written link may use for a toggle, and what they mean."""
ARRIVED = "_kpca_arrived"
"""Session key: whether this run is the first on its page (:func:`arrive`)."""
PAGE = "_kpca_page"
LINKED = "_kpca_linked"
"""Session key: the parameters of the link this page was arrived at with."""
PRESENTING = "_kpca_presenting"
"""Session key: whether this run is in presenter mode (set by :mod:`kpca_ui.presenter`)."""
DEFAULTS = "_kpca_defaults"
"""Session key: the defaults of the settings whose options the page settles."""
REPORTED = "_kpca_reported"
"""Session key: the link values already reported (each told once)."""
PREFIXES: dict[str, Settings] = {}
"""Every view's table by its prefix (a link parameter ``ct_…`` belongs to Contours)."""


class Refused(ValueError):
    """A link value a setting cannot take; the message says why, for the log."""


@dataclass(frozen=True)
class Setting:
    """One setting of a view: everything the app knows about it, in one place.

    Attributes
    ----------
    key : str
        The widget's key and the link parameter's name (``ct_k``).
    label : str
        The widget's label, and the setting's name in a notice.
    widget : Widget
        How it is drawn.
    default : object or callable
        Its value when neither the session nor the link gives one; a callable of the
        table gives one that depends on other settings (a data set's own noise).
    options : tuple
        The values a choice may take (a select box, a radio, a select slider).
    names : mapping, optional
        The label shown for each option, which the link holds too (default: ``str``).
    low, high, step : float, optional
        The range of a number or a slider, and its step.
    help : str, optional
        The widget's help; :data:`COST_HELP` for its ``cost`` is added.
    live : bool
        A chart follows it while it is held, without a run of the page (:mod:`kpca_ui.live`).
    stepping : bool
        The view's stepping control: presenter mode shows it, and no other.
    cost : Cost
        What a change computes again.
    former : mapping
        Labels older links carry, and the option each means today.
    longest : int
        The longest text a ``"text"`` or ``"link"`` setting takes from a link.
    format : str, optional
        A number box's format (``"%g"``).
    """

    key: str
    label: str
    widget: Widget
    default: Any = None
    options: tuple = ()
    names: Mapping[Any, str] | None = None
    low: float | None = None
    high: float | None = None
    step: float | None = None
    help: str | None = None
    live: bool = False
    stepping: bool = False
    cost: Cost = "draw"
    former: Mapping[str, str] = field(default_factory=dict)
    longest: int = 200
    format: str | None = None

    @property
    def choices(self) -> bool:
        return self.widget in ("select_slider", "selectbox", "radio", "tabs")

    def name(self, value: Any) -> str:
        """An option's label as shown (and written in the link)."""
        return self.names.get(value, str(value)) if self.names else _text(value)

    def to_link(self, value: Any) -> list[str]:
        """The link's strings for ``value``."""
        if self.widget == "range":
            return [_text(float(v)) for v in value]
        if self.widget in ("toggle", "checkbox"):
            return [str(bool(value)).lower()]
        if self.choices:
            return [self.name(value)]
        return [_text(value)]

    def from_link(self, strings: list[str]) -> Any:
        """The value the link's ``strings`` give; :class:`Refused` if none."""
        if self.widget == "range":
            low, high = (self._number(text) for text in strings)  # ValueError unless two
            return (low, high)
        (text,) = strings
        if self.widget in ("toggle", "checkbox"):
            word = FLAG_WORDS.get(text.lower(), text.lower())
            if word not in ("true", "false"):
                raise Refused("not true or false")
            return word == "true"
        # text, or the option of a choice whose options only the page knows (it settles them)
        if self.widget in ("text", "link") or (self.choices and not self.options):
            if len(text) > self.longest:
                raise Refused("too long")
            return text
        if self.choices:
            text = self.former.get(text, text)
            for option in self.options:
                if text == self.name(option) or _same_number(text, option):
                    return option
            raise Refused("none of its options")
        number = self._number(text)
        if isinstance(self.default, int):
            if not number.is_integer():
                raise Refused("not a whole number")
            return int(number)
        return number

    def _number(self, text: str) -> float:
        if len(text) > NUMBER_CHARS:
            raise Refused("too long")
        try:
            number = float(text)
        except ValueError:
            raise Refused("not a number") from None
        # −0.0 equals 0 but is no widget's value: NumPy refuses scale=−0.0, and ``-0``,
        # ``-0.0`` and ``-1e-400`` are all read as −0.0
        negative_zero = number == 0 and math.copysign(1.0, number) < 0
        if not math.isfinite(number) or negative_zero:
            raise Refused("not a finite number")
        if not (self.low is None or self.low <= number <= self.high):
            raise Refused(f"not between {self.low:g} and {self.high:g}")
        return number

    @property
    def arity(self) -> int:
        return 2 if self.widget == "range" else 1

    def draw(self, place: Any, default: Any, **changes: Any) -> Any:
        """The widget, in ``place`` (``st``, ``st.sidebar``, a column), starting at
        ``default``; its value.

        ``changes`` override what the widget is given (a label with a unit, the options
        that fit the other settings, ``disabled``, ``on_change``).
        """
        options = changes.pop("options", self.options)
        if self.widget == "tabs":  # the tabs, each rendered when chosen (``.open``)
            return place.tabs(options, default=default, key=self.key, on_change="rerun")
        given = {
            "label": self.label,
            "key": self.key,
            "help": " ".join(filter(None, (self.help, COST_HELP[self.cost]))) or None,
            "persist_state": "session",
            "value": tuple(default) if self.widget == "range" else default,
        }
        if self.widget in ("slider", "range", "number"):
            given |= {"min_value": self.low, "max_value": self.high, "step": self.step}
            given |= {"format": self.format} if self.widget == "number" else {}
        elif self.choices:
            given |= {"options": options, "format_func": self.name}
        if self.widget in ("selectbox", "radio"):  # an index, not a value
            del given["value"]
            given["index"] = list(options).index(default) if default in options else 0
        return getattr(place, CALLS.get(self.widget, self.widget))(**{**given, **changes})


def _text(value: Any) -> str:
    """A value as the link writes it: ``true``, ``3`` (not ``3.0``), ``0.25``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        return str(int(value))
    return str(value)


def _same_number(text: str, option: Any) -> bool:
    if not isinstance(option, int | float) or isinstance(option, bool) or len(text) > NUMBER_CHARS:
        return False
    try:
        return float(text) == option
    except ValueError:
        return False


class Settings:
    """A view's settings table: its prefix and its :class:`Setting` entries.

    Parameters
    ----------
    prefix : str
        The view's prefix (``"ct"``); every key but the app's own starts with it.
    page : str
        The view's page script in ``app_pages/`` without ``.py`` ("" for the app's).
    settings : Setting
        The entries, each key declared once.
    """

    def __init__(self, prefix: str, page: str, *settings: Setting) -> None:
        self.prefix, self.page = prefix, page
        self.entries = {setting.key: setting for setting in settings}
        assert len(self.entries) == len(settings), "a key declared twice"
        PREFIXES[prefix] = self

    def __getitem__(self, key: str) -> Setting:
        return self.entries[key]

    def __contains__(self, key: str) -> bool:
        return key in self.entries

    @property
    def defaults(self) -> dict[str, Any]:
        """Every setting's default (a link without parameters), whatever the session."""
        return self.complete({})

    def complete(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """``values`` (a preset's, a card's), every other setting at its default with them."""
        given = {k: s.default for k, s in self.entries.items() if not callable(s.default)}
        given.update(values)
        return {k: values[k] if k in values else self.default(k, given) for k in self.entries}

    def default(self, key: str, values: Mapping[str, Any] | None = None) -> Any:
        """Setting ``key``'s default, with the other settings at ``values`` (default: as
        they are in this session)."""
        default = self.entries[key].default
        if values is None and DEFAULTS in st.session_state:  # one the page settled
            default = st.session_state[DEFAULTS].get(key, default)
        if not callable(default):
            return default
        return default(values if values is not None else self.values())

    def value(self, key: str) -> Any:
        """A setting's value in this session, drawn or not."""
        if key in st.session_state:
            return st.session_state[key]
        default = self.entries[key].default
        return default(_Values(self)) if callable(default) else default

    def values(self) -> Mapping[str, Any]:
        """Every setting's value in this session (read when asked for)."""
        return _Values(self)

    def link(self, values: Mapping[str, Any]) -> dict[str, str]:
        """A link's parameters for ``values`` (a preset: unnamed settings take their defaults).

        A link without any parameter of the view means "as this session has it"
        (:meth:`start`): a link to the defaults names the first of ``values`` all the same.

        Raises
        ------
        KeyError, ValueError
            For a key that is not a setting, or a value its setting cannot take.
        """
        given = self.complete(values)
        query: dict[str, str | list[str]] = {}
        for key, value in values.items():
            strings = self.entries[key].to_link(value)
            if self.entries[key].from_link(strings) != value:
                raise ValueError(f"{key}={value!r} is not a value of its setting")
            if value != self.default(key, given):
                query[key] = strings[0] if len(strings) == 1 else strings
        if not query and values:
            first = next(iter(values))
            query[first] = self.entries[first].to_link(values[first])[0]
        return query

    # ------------------------------------------------------------------ the link

    def start(self) -> None:
        """Read the link into the session (before any widget); call first on the page.

        On arriving at the page (:func:`arrive`), a link with parameters of this table
        (one opened, a gallery card, the browser's Back to another page) sets every
        setting: from the link where it gives a value its setting can take, else to its
        default.  A link without any (a move to this page in the app) leaves the
        session's values.  What could not be used is told once, in a toast.  Then the
        link holds the session's values.
        """
        given = {
            key: st.query_params.get_all(key) for key in self.entries if key in st.query_params
        }
        notes = []
        if st.session_state.get(ARRIVED, True):
            notes = self._strangers() if self.prefix else []  # the app's: on every page
            linked: dict = st.session_state.setdefault(LINKED, {})
            linked.update(given)
            for key, setting in self.entries.items():
                if setting.widget == "link" or not given:
                    continue
                value, note = self._read(setting, given.get(key))
                if value is _DEFAULT:  # the widget's own default (it may depend on others)
                    st.session_state.pop(key, None)
                else:
                    st.session_state[key] = value
                notes += [note] if note else []
        for key, setting in self.entries.items():  # the link as the session now is
            if setting.widget != "link":
                self._sync(key, self.value(key))
        _toast(notes)

    def _read(self, setting: Setting, strings: list[str] | None) -> tuple[Any, str | None]:
        """A setting's value from the link's ``strings``, and a notice if they were not used."""
        if not strings:
            return _DEFAULT, None
        note = None
        if len(strings) > setting.arity:
            note = (
                f"The link gives “{setting.label}” {len(strings)} times; the last "
                f"({literal(' – '.join(strings[-setting.arity :]))}) is used."
            )
            strings = strings[-setting.arity :]
        try:
            return setting.from_link(strings), note
        except (Refused, ValueError):
            st.session_state.pop(setting.key, None)  # the default, not the session's value
            shown = " – ".join(setting.to_link(self.value(setting.key)))
            return _DEFAULT, (
                f"The link's value for “{setting.label}” ({literal(' – '.join(strings))}) is "
                f"not allowed here; showing the default {literal(shown)}."
            )

    def _strangers(self) -> list[str]:
        """Notices for parameters that look like a view's (``ct_…``) but are no setting here."""
        notes = []
        for key in st.query_params:
            owner = PREFIXES.get(key.split("_", 1)[0]) if "_" in key else None
            if owner is not None and key not in self.entries and _unreported((key,)):
                notes.append(
                    f"The link's parameter “{literal(key)}” is not a setting of this view; "
                    "it was ignored."
                )
        return notes

    def _sync(self, key: str, value: Any) -> None:
        """Put ``value`` of setting ``key`` in the link (its default: take it out)."""
        setting = self.entries[key]
        if setting.widget == "link":
            strings = [value] if value else []
        else:
            strings = setting.to_link(value) if value != self.default(key) else []
        if st.query_params.get_all(key) != strings:
            if strings:
                st.query_params[key] = strings if len(strings) > 1 else strings[0]
            else:
                st.query_params.pop(key, None)

    def draw(self, key: str, place: Any = st, **changes: Any) -> Any:
        """Setting ``key``'s widget in ``place`` (:meth:`Setting.draw`); its value, also put in
        the link.  In presenter mode only a stepping setting is drawn; another keeps its
        value, in the session and the link."""
        setting = self.entries[key]
        if st.session_state.get(PRESENTING) and not setting.stepping:
            return self.value(key)
        drawn = setting.draw(place, self.default(key), **changes)
        self._sync(key, self.value(key) if setting.widget == "tabs" else drawn)
        return drawn

    def keep(self, key: str, value: Any) -> None:
        """Set ``key`` to ``value`` in the session and the link (a value only the link
        carries, or one the view replaced); before its widget is drawn."""
        if self.entries[key].widget != "link":
            st.session_state[key] = value
        self._sync(key, value)

    def settle(self, key: str, options: Iterable[Any], default: Any) -> None:
        """Before the widget of a setting whose options depend on others (a column's label):
        a value that is none of ``options`` becomes ``default``, told once if the link
        gave it."""
        st.session_state.setdefault(DEFAULTS, {})[key] = default
        value, options = self.value(key), list(options)
        if value in options:
            return
        asked = st.session_state.get(LINKED, {}).pop(key, None)
        self.keep(key, default)
        if asked and _unreported((key, *asked)):
            setting = self.entries[key]
            _toast(
                [
                    f"The link's value for “{setting.label}” ({literal(' – '.join(asked))}) "
                    f"is not allowed here; showing {literal(setting.name(default))}."
                ]
            )

    def apply(self, values: Mapping[str, Any]) -> None:
        """Set these settings (a preset button's callback): the others keep their values."""
        for key, value in values.items():
            self.keep(key, value)

    def finish(self) -> None:
        """The "Link to this view" control in the sidebar (not in presenter mode, where the
        address bar has it); call last on the page."""
        if st.session_state.get(PRESENTING):
            return
        with st.sidebar:
            _share(self.page, f"{self.prefix}_share")


def arrive(page: str) -> None:
    """Note whether this full run is the first on ``page`` (``app.py`` calls it each run):
    only then do the tables read the link (:meth:`Settings.start`)."""
    arrived = st.session_state.get(PAGE) != page
    st.session_state[ARRIVED] = arrived
    st.session_state[PAGE] = page
    if arrived:
        st.session_state[LINKED] = {}


_DEFAULT = object()
"""A setting left at its widget's own default."""


class _Values(Mapping):
    """A table's settings as they are in this session, each read when asked for."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def __getitem__(self, key: str) -> Any:
        return self.settings.value(key)

    def __iter__(self) -> Any:
        return iter(self.settings.entries)

    def __len__(self) -> int:
        return len(self.settings.entries)


def _unreported(token: tuple) -> bool:
    """Whether this link value has not been told yet (and mark it told)."""
    reported: set = st.session_state.setdefault(REPORTED, set())
    if token in reported:
        return False
    reported.add(token)
    return True


def _toast(notes: list[str]) -> None:
    if notes:
        st.toast("\n\n".join(notes), icon=":material/link_off:", duration="long")


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


def choice(key: str, label: str, options: Mapping[Any, str] | Iterable[Any], **kw: Any) -> Setting:
    """A select box: ``options`` a mapping of value → label, or the values themselves."""
    names = dict(options) if isinstance(options, Mapping) else None
    values = tuple(options)
    kw.setdefault("default", values[0] if values else None)
    return Setting(key, label, kw.pop("widget", "selectbox"), options=values, names=names, **kw)


def number(key: str, label: str, low: float, high: float, default: float, **kw: Any) -> Setting:
    """A slider (``widget="number"``: a number box) from ``low`` to ``high``."""
    return Setting(key, label, kw.pop("widget", "slider"), default, low=low, high=high, **kw)


def flag(key: str, label: str, default: bool = False, **kw: Any) -> Setting:
    """A toggle (``widget="checkbox"``: a checkbox)."""
    return Setting(key, label, kw.pop("widget", "toggle"), default, **kw)
