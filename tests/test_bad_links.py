"""The bad-link corpus (issue #14, items 4, 5, 7 and the smaller link items).

A link is data: every page opened from one of these renders without an exception
or a traceback, echoes link text only as literal, shortened text (never a live
link or image in a notice or an error), and keeps a slider's lowest value.
"""

from __future__ import annotations

import re

import pytest
from conftest import open_view
from streamlit.testing.v1 import AppTest
from test_links import notices

SMALL = {"dn_train": "10", "dn_test": "5"}
"""Few digits per class, so that each Denoising link fits in a fraction of a second."""
EVIL = "https://evil.example"
LIVE_MARKDOWN = re.compile(r"(?<!\\)[\[\]<>]|(?<!\\)!|https?(?<!\\):|(?<!\\)\*\*?[^*]")
"""A link, image, HTML tag, auto-linked address or emphasis that markdown would render."""


def shown_messages(at: AppTest) -> list[str]:
    """The markdown of every toast and error on the page (where link text is echoed)."""
    return [m.value for m in [*at.toast, *at.error]]


def assert_literal(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    for message in shown_messages(at):
        for line in message.split("\n\n"):
            echoed = re.sub(r"“[^”]*”|\*\*[^*]+\*\*", "", line)  # labels and bold names are ours
            assert not LIVE_MARKDOWN.search(echoed), line
            assert len(line) < 400, line


INJECTIONS = [
    ("contours", {"ct_k": f"[Session expired - log in again]({EVIL}/login)"}),
    ("contours", {"ct_n": f"![x]({EVIL}/track.png)"}),
    ("contours", {"ct_values": f"[Log_in_again]({EVIL}/x)"}),
    ("contours", {f"ct_[click]({EVIL})": "1"}),
    ("contours", {"ct_" + "x" * 100_000: "y"}),
    ("contours", {"ct_kernel": f"<img src={EVIL}/t.png>"}),
    ("spectrum", {"sp_at": f"**[bold]({EVIL})**", "sp_n": "100", "sp_nw": "20"}),
    ("denoising", {**SMALL, "dn_tab": f"[tab]({EVIL})"}),
    ("features", {"ft_data": f"[Two moons]({EVIL})"}),
    ("features", {"ft_tab": f"![x]({EVIL}/t.png)"}),
    ("features", {"ft_tab": "USPS: Table 2", "ft_n": f"<a href={EVIL}>2048</a>"}),
    ("lesson", {"step": f"[Log in again]({EVIL}/login)"}),
    ("lesson", {"ls_lesson": f"[x]({EVIL})"}),
]


@pytest.mark.parametrize(("page", "query"), INJECTIONS, ids=range(len(INJECTIONS)))
def test_link_text_is_echoed_as_literal_shortened_text(page, query):
    at = open_view(page, query=query)
    assert_literal(at)
    assert shown_messages(at), "the unusable value is reported"


INFINITIES = [
    ("contours", {"ct_seed": "inf"}, "ct_seed", 0),
    ("spectrum", {"sp_seed": "inf", "sp_n": "100", "sp_nw": "20"}, "sp_seed", 0),
    ("denoising", {**SMALL, "dn_seed": "-inf"}, "dn_seed", 0),
    ("denoising", {**SMALL, "dn_tab": "Side by side", "dn_sbs_draw": "inf"}, "dn_sbs_draw", 0),
    ("denoising", {**SMALL, "dn_tab": "2-D toy", "dn_toy_seed": "inf"}, "dn_toy_seed", 0),
    ("contours", {"ct_gamma": "nan"}, "ct_gamma", 1.0),
    ("contours", {"ct_noise": "1e999"}, "ct_noise", 0.2),
    ("contours", {"ct_k": "2.5"}, "ct_k", 3),
    ("denoising", {**SMALL, "dn_tab": "Fig. 3", "dn_fig3_digit": "inf"}, "dn_fig3_digit", 0),
    ("denoising", {**SMALL, "dn_tab": "Pre-images", "dn_pre_point": "inf"}, "dn_pre_point", 0),
    ("features", {"ft_seed": "inf"}, "ft_seed", 0),
    ("features", {"ft_seed": "-inf"}, "ft_seed", 0),
    ("features", {"ft_points": "nan"}, "ft_points", 300),
    ("features", {"ft_points": "1e999"}, "ft_points", 300),
    ("features", {"ft_k": "2.5"}, "ft_k", 10),
    ("features", {"ft_k": "51"}, "ft_k", 10),
    ("features", {"ft_kernel": "Polynomial (x·y + 1)^d", "ft_pdegree": "inf"}, "ft_pdegree", 2),
]


@pytest.mark.parametrize(
    ("page", "query", "key", "default"), INFINITIES, ids=range(len(INFINITIES))
)
def test_a_number_that_is_not_finite_or_whole_falls_back_with_a_notice(page, query, key, default):
    at = open_view(page, query=query)
    assert_literal(at)
    assert at.get("number_input") or at.get("slider")
    (widget,) = [w for kind in ("number_input", "slider") for w in at.get(kind) if w.key == key]
    assert widget.value == default
    assert any(query[key] in note for note in notices(at)), notices(at)


UNKNOWN_OPTIONS = [
    ("features", {"ft_sigma": "7"}, "select_slider", "ft_sigma", 0.5),
    ("features", {"ft_sigma": "nan"}, "select_slider", "ft_sigma", 0.5),
    ("features", {"ft_data": "Nonsense"}, "selectbox", "ft_data", "moons"),
    ("features", {"ft_kernel": "inf"}, "selectbox", "ft_kernel", "rbf"),
    ("features", {"ft_tab": "USPS: Table 2", "ft_degree": "8"}, "select_slider", "ft_degree", 4),
    ("features", {"ft_tab": "USPS: Table 2", "ft_n": "100"}, "select_slider", "ft_n", 2048),
    ("features", {"ft_tab": "USPS: Table 2", "ft_n": "-inf"}, "select_slider", "ft_n", 2048),
    ("lesson", {"ls_lesson": "no_such_lesson"}, "selectbox", "ls_lesson", "kernel_pca_10_steps"),
]


@pytest.mark.parametrize(
    ("page", "query", "kind", "key", "default"), UNKNOWN_OPTIONS, ids=range(len(UNKNOWN_OPTIONS))
)
def test_an_unknown_option_falls_back_to_the_default_with_a_notice(page, query, kind, key, default):
    at = open_view(page, query=query)
    assert_literal(at)
    (widget,) = [w for w in at.get(kind) if w.key == key]
    assert widget.value == default
    assert any(query[key] in note for note in notices(at)), notices(at)


@pytest.mark.parametrize("step", ["inf", "nan", "1e999", "-1", "2.5", "9" * 300, f"[x]({EVIL})"])
def test_a_lesson_step_that_is_no_step_opens_the_first_with_a_notice(step):
    at = open_view("lesson", query={"step": step})
    assert_literal(at)
    assert not any(LIVE_MARKDOWN.search(message) for message in shown_messages(at))
    assert at.title[0].value.startswith("1. ")
    assert at.query_params["step"] == "1"
    assert any("step" in note.lower() for note in notices(at)), notices(at)


def test_the_demo_takes_no_setting_from_a_link():
    at = open_view("demo", query={"dm_case": "inf", "dm_next": f"[x]({EVIL})"})
    assert_literal(at)
    assert not at.error


LOWEST = [
    {"dn_sigma": "0"},
    {"dn_noise": "Speckle (salt and pepper)", "dn_p": "0"},
    {"dn_train": "10"},
    {"dn_test": "5"},
    {"dn_c": "0.05"},
    {"dn_method": "Learned (kernel ridge regression)", "dn_ridge": "0.0001"},
]


@pytest.mark.parametrize("query", LOWEST, ids=[next(reversed(q)) for q in LOWEST])
def test_a_link_holds_a_sliders_lowest_value(query):
    at = open_view("denoising", query={**SMALL, **query})
    assert_literal(at)
    assert notices(at) == []
    for key, value in query.items():
        assert at.query_params[key] == value
        if key not in ("dn_noise", "dn_method"):
            shown = [
                w.value
                for kind in ("slider", "select_slider")
                for w in at.get(kind)
                if w.key == key
            ]
            assert shown == [float(value)] or shown == [int(value)], (key, shown)


def test_what_the_browser_leaves_out_of_a_link_is_what_a_link_without_it_opens():
    # The browser writes a widget's value into the URL unless it is the widget's own
    # default. The sliders' defaults were their lowest values while the page started
    # at the preset's, so σ = 0 left the URL and the link reopened σ = 0.5.
    at = open_view("denoising", query=SMALL)
    for widget in [*at.slider, *at.select_slider, *at.number_input]:
        if widget.key in SMALL:
            continue  # set by the link
        default = widget.proto.default
        default = list(default) if hasattr(default, "__len__") else [default]
        shown = widget.value
        if widget.type == "select_slider":
            shown = widget.options.index(widget.format_func(shown))
        assert default == [pytest.approx(shown)], widget.key


def test_a_repeated_parameter_is_reported_and_the_last_used():
    at = open_view("contours", query={"ct_k": ["2", "5"]})
    assert at.slider(key="ct_k").value == 5
    assert notices(at) == ["The link gives “Components” 2 times; the last (5) is used."]


@pytest.mark.parametrize("word", ["1", "yes", "on", "TRUE"])
def test_presenter_mode_accepts_the_usual_words_for_on(word):
    at = open_view("contours", query={"presenter": word})
    assert at.toggle(key="presenter").value is True


@pytest.mark.parametrize("page", ["home", "lesson", "features"])
def test_a_notice_is_shown_on_the_page_the_link_opened_and_only_there(page):
    # A page without settings of its own (Home) kept the notice, and the next
    # page the user went to showed it, about a link it was not opened with.
    at = open_view(page, query={"presenter": "maybe"})
    assert any("Presenter mode" in note for note in notices(at)), notices(at)
    at.switch_page("app_pages/contours.py").run()
    assert not at.exception
    assert notices(at) == []


def test_presenter_mode_reports_a_word_it_does_not_know():
    at = open_view("contours", query={"presenter": "[x](https://evil.example)"})
    assert at.toggle(key="presenter").value is False
    assert_literal(at)
    assert any("Presenter mode" in note for note in notices(at))


def test_the_notice_names_the_default_shown_not_the_sessions_earlier_value():
    # The notice was worded from the session's value before the link replaced it: a
    # student at 5 components who opened a link with "inf" read "showing the default 5"
    # under a slider at 3.
    at = open_view("home", state={"ct_k": 5})
    at.query_params["ct_k"] = "inf"
    at.switch_page("app_pages/contours.py").run()
    assert at.slider(key="ct_k").value == 3
    assert any(note.endswith("showing the default 3.") for note in notices(at)), notices(at)
