"""A seeded fuzz of the link boundary over every page's domains (issue #35).

Two layers: :meth:`Setting.from_link` on any text, against what each kind of
setting means (fast, many examples); and each page opened from links of hostile
values for its own parameters (a few seeded examples per page, so that the
default suite stays quick): no exception, no safety net, every echo literal, and
what stays in the link is a value of its domain.
"""

from __future__ import annotations

import math

import pytest
from conftest import open_view
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_bad_links import SMALL, assert_literal
from test_hostile import safety_nets

from kpca_ui.settings import NUMBER_CHARS, Refused, Setting
from kpca_ui.views import contours, denoising, features, lesson, spectrum

PAGES = {
    module.SETTINGS.page: module.SETTINGS.entries
    for module in (contours, spectrum, denoising, features, lesson)
}
ALL_DOMAINS = [domain for domains in PAGES.values() for domain in domains.values()]
TRICKY = [
    "-0", "-0.0", "-1e-400", "+0", "1e-400", "nan", "-inf", "1e308", "-1e308", "1e999", "",
    " ", "0x10", "1_0", "５", "٣", "\u202e1", "1\u200f", "[x](//evil)", "**b**", ":red[x]",
    "9" * 80, "1e1", ".5", "5.", "true", "None", "\x00", "a" * 300,
]  # fmt: skip
"""Texts that every kind of domain has to judge: signs of zero, magnitudes, spellings of
numbers, bidirectional controls, markdown, lengths."""


def accepts(setting: Setting, values: list[str]) -> bool:
    try:
        setting.from_link(values)
    except (Refused, ValueError):
        return False
    return True


def tricky(setting: Setting) -> st.SearchStrategy[str]:
    """Hostile texts for this setting, beside its edges and just beyond them."""
    near = []
    if setting.low is not None:
        low, high = setting.low, setting.high
        near = [repr(low), repr(high), repr(low - 1), repr(high + 1), f"{-abs(low) or -0.0!r}"]
    names = [setting.name(option) for option in setting.options[:3]]
    options = [*names, *(f"{name}\u202e" for name in names[:2])]
    return st.sampled_from([*TRICKY, *near, *options]) | st.text(max_size=12)


@settings(max_examples=600, deadline=None, database=None, derandomize=True)
@given(data=st.data())
def test_a_setting_takes_only_its_values(data):
    setting = data.draw(st.sampled_from(ALL_DOMAINS))
    values = [data.draw(tricky(setting)) for _ in range(setting.arity)]
    if not accepts(setting, values):
        return
    value = setting.from_link(values)
    if setting.options:
        assert value in setting.options
        assert values[0] in (setting.name(value), *setting.former) or float(values[0]) == value
    elif setting.widget in ("toggle", "checkbox"):
        assert values[0].lower() in ("true", "false", "1", "0", "yes", "no", "on", "off")
    elif setting.low is None:
        assert len(values[0]) <= setting.longest
    else:
        for text in values:
            assert len(text) <= NUMBER_CHARS
            x = float(text)
            assert math.isfinite(x) and setting.low <= x <= setting.high
            assert math.copysign(1.0, x) > 0 or x != 0  # never −0.0
        if isinstance(setting.default, int):
            assert float(values[0]).is_integer()


BASE = {"denoising": SMALL}
"""Parameters every fuzzed link of a page carries: few digits, so a fit takes little time."""
CHEAP = {"dn_train", "dn_test", "ct_n", "sp_n", "sp_nw", "ft_points"}
"""Sizes whose valid values may be costly: fuzzed with hostile texts only."""


@pytest.mark.parametrize("page", PAGES)
def test_a_page_opened_from_hostile_links_keeps_working(page):
    domains = PAGES[page]

    @settings(
        max_examples=8,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=list(HealthCheck),
    )
    @given(data=st.data())
    def opened(data):
        keys = data.draw(st.lists(st.sampled_from(sorted(domains)), min_size=1, max_size=4))
        query = dict(BASE.get(page, {}))
        for key in keys:
            texts = st.sampled_from(TRICKY) if key in CHEAP else tricky(domains[key])
            values = [data.draw(texts) for _ in range(domains[key].arity)]
            query[key] = values if len(values) > 1 else values[0]
        at = open_view(page, query=query)
        assert_literal(at)
        assert not safety_nets(at), (query, safety_nets(at))
        for key in keys:
            kept = at.query_params.get_all(key) if hasattr(at.query_params, "get_all") else None
            kept = kept if kept is not None else _values(at.query_params.get(key))
            assert not kept or accepts(domains[key], kept), (key, kept)

    opened()


def _values(value: object) -> list[str]:
    if value is None:
        return []
    return [str(v) for v in value] if isinstance(value, list) else [str(value)]
