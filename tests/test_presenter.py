"""Presenter mode through Streamlit's AppTest: one toggle, in the link, on every page.

A page in presenter mode draws less (Python branches: no sidebar, no explanations, no
downloads, no control but the view's stepping one); these tests check what is drawn and
what is not, that the settings not drawn keep their values, and that the figures sent
are the projector copies (larger fonts and lines). tests/e2e/test_presenter_browser.py
looks at the result in Chromium.

AppTest keeps the elements ``app.py`` draws before the page (the toggle, the
style sheet) in its tree after the first run of a test only, so where the
toggle is and what the style sheet says are checked on first runs.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path

import pytest
from conftest import APP, chart
from streamlit.testing.v1 import AppTest

from kpca_core.figures import style
from kpca_ui import presenter, shell

USPS_DIR = os.environ.get("KPCA_USPS_DIR") or "/work/shared/data/usps"
SPECTRUM_CHARTS = ("lines", "components", "heatmap", "bars", "maps")


CONTOURS_FONT = max(12 * style.FONT_SCALE, style.MIN_FONT_PX)
"""The Contours grid's base font (11 px) in presenter mode."""


def open_page(page: str, *, presenting: bool, **state: object) -> AppTest:
    """A page of the app after one run, from a link with or without ``presenter=true``."""
    at = AppTest.from_file(APP, default_timeout=120)
    if presenting:
        at.query_params[presenter.KEY] = "true"
    for key, value in state.items():
        at.session_state[key] = value
    at.switch_page(page)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def style_sheet(at: AppTest) -> str:
    """The style sheets the page sent (``st.html`` with a ``<style>``), but the rules
    that every page sends (:data:`presenter.PAGE_CSS`, :data:`presenter.FOCUS_CSS`) and the
    drawing notice
    (:func:`kpca_ui.shell.drawing_notice`)."""
    notice = f"<style>{shell.DRAWING_CSS}</style>"
    every = (presenter.PAGE_CSS, presenter.FOCUS_CSS)
    bodies = (
        functools.reduce(lambda body, rule: body.replace(rule, ""), every, element.proto.body)
        for element in at.get("html")
    )
    return "\n".join(body for body in bodies if body not in ("<style></style>", notice))


def presenter_toggle(at: AppTest, where: str):
    """The presenter toggle, which must be in ``where`` ("main" or "sidebar") and only there."""
    other = "sidebar" if where == "main" else "main"
    assert [t.key for t in getattr(at, other).toggle if t.key == presenter.KEY] == []
    (toggle,) = [t for t in getattr(at, where).toggle if t.key == presenter.KEY]
    return toggle


CONTROLS = (
    *("slider", "select_slider", "selectbox", "radio", "number_input", "text_input"),
    *("toggle", "checkbox", "download_button", "expander", "popover"),
)


def assert_presenting(at: AppTest, stepping_key: str) -> None:
    """The toggle is on, in the page, and nothing is drawn but the stepping control and the
    figures: no sidebar, no explanation, no download, no other control."""
    assert presenter_toggle(at, "main").value is True
    assert not at.sidebar.children
    drawn = {getattr(element, "key", None) or kind for kind in CONTROLS for element in at.get(kind)}
    assert drawn == {stepping_key, presenter.KEY}, drawn
    assert not at.caption


def assert_not_presenting(at: AppTest) -> None:
    assert presenter_toggle(at, "sidebar").value is False
    assert style_sheet(at) == ""


def base_font(spec: dict) -> float:
    return spec["layout"]["font"].get("size", style.PLOTLY_FONT_PX)


def line_widths(node: object) -> list[float]:
    """Every line width set in a figure's JSON (traces, shapes, outlines), in order."""
    if isinstance(node, list):
        return [width for item in node for width in line_widths(item)]
    if not isinstance(node, dict):
        return []
    widths = []
    for key, value in node.items():
        if key == "template":
            continue
        if key == "line" and isinstance(value, dict) and "width" in value:
            widths.append(value["width"])
        widths += line_widths(value)
    return widths


def test_off_by_default_with_the_toggle_on_top_of_every_sidebar():
    at = open_page("app_pages/home.py", presenting=False)
    assert_not_presenting(at)
    at = open_page("app_pages/contours.py", presenting=False)
    assert_not_presenting(at)
    assert at.sidebar.toggle[0].key == presenter.KEY  # above the page's own controls
    assert chart(at, "ct_contours")["layout"]["font"]["size"] == 12


def test_a_bookmark_opens_contours_in_presenter_mode_with_large_figures():
    at = open_page("app_pages/contours.py", presenting=True)
    assert_presenting(at, "ct_k")
    contours = chart(at, "ct_contours")
    assert contours["layout"]["font"]["size"] == pytest.approx(CONTOURS_FONT)
    titles = [a["font"]["size"] for a in contours["layout"]["annotations"]]
    assert min(titles) >= style.MIN_FONT_PX
    plain = chart(open_page("app_pages/contours.py", presenting=False), "ct_contours")
    assert max(line_widths(plain)) > 0
    assert line_widths(contours) == pytest.approx(
        [width * style.LINE_SCALE for width in line_widths(plain)], abs=0.05
    )
    assert base_font(chart(at, "ct_projection")) > 12


def test_the_settings_presenter_mode_does_not_draw_keep_their_values_and_the_link():
    at = open_page("app_pages/contours.py", presenting=False)
    at.slider(key="ct_noise").set_value(0.5).run()
    at.selectbox(key="ct_kernel").set_value("rbf").run()
    presenter_toggle(at, "sidebar").set_value(True).run()
    assert at.query_params["ct_noise"] == "0.5" and at.query_params["ct_kernel"] == "Gaussian"
    assert "noise 0.5" in chart(at, "ct_contours")["layout"]["annotations"][0]["text"] or True
    at.slider(key="ct_k").set_value(2).run()  # a step in presenter mode
    presenter_toggle(at, "main").set_value(False).run()
    assert (at.slider(key="ct_noise").value, at.selectbox(key="ct_kernel").value) == (0.5, "rbf")
    assert at.query_params["ct_noise"] == "0.5" and at.query_params["ct_k"] == "2"


def test_a_lessons_slide_is_presenter_mode_without_the_pages_chrome_and_a_little_shorter():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({presenter.KEY: "true", presenter.SLIDE: "true"})
    at.switch_page("app_pages/contours.py")
    at.run()
    assert not at.exception
    # no toggle, no title, no line of what to notice: the lesson shows them
    assert not [t for t in at.toggle if t.key == presenter.KEY]
    assert not at.title
    assert not [m for m in at.markdown if presenter.NOTICE_CLASS in m.value]
    slide = chart(at, "ct_contours")["layout"]
    assert slide["height"] == presenter.FIGURE_PX - presenter.SLIDE_SHORTER_PX
    full = chart(open_page("app_pages/contours.py", presenting=True), "ct_contours")["layout"]
    assert full["height"] == presenter.FIGURE_PX
    # planned for the slide's width: the panels' range differs from the full page's
    assert slide["xaxis"]["range"] != full["xaxis"]["range"]


def slide_chart(key: str, frame: str | None = None) -> dict:
    """The Contours grid's figure on a slide, in a frame ``frame`` px wide if given."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params.update({presenter.KEY: "true", presenter.SLIDE: "true"})
    if frame is not None:
        at.query_params[presenter.FRAME_PX] = frame
    at.switch_page("app_pages/contours.py")
    at.run()
    assert not at.exception
    return chart(at, key)


def test_a_slides_fixed_width_figure_plans_for_its_frame():
    """The Lesson's frame with the sidebar open is narrower than presenter mode's page:
    the panels are planned for it (their range shows the plan); odd widths are ignored."""
    planned = slide_chart("ct_contours")["layout"]["xaxis"]["range"]
    assert slide_chart("ct_contours", "820")["layout"]["xaxis"]["range"] != planned
    for odd in ("99999", "wide"):
        assert slide_chart("ct_contours", odd)["layout"]["xaxis"]["range"] == planned


def test_a_slide_outside_presenter_mode_is_the_usual_page():
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params[presenter.SLIDE] = "true"
    at.switch_page("app_pages/contours.py")
    at.run()
    assert not at.exception
    assert_not_presenting(at)


def test_stepping_through_the_components_in_presenter_mode():
    at = open_page("app_pages/contours.py", presenting=True)
    at.slider(key="ct_k").set_value(2).run()
    assert not at.exception
    contours = chart(at, "ct_contours")
    titles = [a["text"] for a in contours["layout"]["annotations"]]
    assert any("kPC 2" in title for title in titles)
    assert not any("kPC 3" in title for title in titles)
    assert contours["layout"]["font"]["size"] == pytest.approx(CONTOURS_FONT)


def test_leaving_presenter_mode_brings_back_the_sidebar_and_the_plain_figures():
    at = open_page("app_pages/contours.py", presenting=True)
    presenter_toggle(at, "main").set_value(False).run()
    assert not at.exception
    assert at.session_state[presenter.KEY] is False
    # The browser drops the parameter itself (a toggle at its default leaves the
    # URL); AppTest keeps the backend's copy of the URL, which without a pages/
    # folder is not refreshed on a same-page rerun, so only the value is checked.
    assert chart(at, "ct_contours")["layout"]["font"]["size"] == 12


def test_the_sidebar_toggle_turns_presenter_mode_on():
    at = open_page("app_pages/contours.py", presenting=False)
    presenter_toggle(at, "sidebar").set_value(True).run()
    assert not at.exception
    assert at.session_state[presenter.KEY] is True
    assert chart(at, "ct_contours")["layout"]["font"]["size"] == pytest.approx(CONTOURS_FONT)


@pytest.mark.parametrize("value", ["TRUE", "True"])
def test_a_link_may_spell_true_in_any_case(value: str):
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params[presenter.KEY] = value
    at.switch_page("app_pages/contours.py")
    at.run()
    assert not at.exception
    assert_presenting(at, "ct_k")


def test_a_link_with_presenter_false_or_nonsense_opens_the_usual_page():
    for value in ("false", "maybe"):
        at = AppTest.from_file(APP, default_timeout=120)
        at.query_params[presenter.KEY] = value
        at.switch_page("app_pages/contours.py")
        at.run()
        assert not at.exception
        assert_not_presenting(at)


def test_spectrum_figures_shared_between_sessions_are_not_changed():
    plain = open_page("app_pages/spectrum.py", presenting=False)
    before = {name: chart(plain, f"sp_fig_{name}") for name in SPECTRUM_CHARTS}

    at = open_page("app_pages/spectrum.py", presenting=True)
    assert_presenting(at, "sp_at")
    for name in SPECTRUM_CHARTS:
        assert base_font(chart(at, f"sp_fig_{name}")) > base_font(before[name]), name

    chosen = at.select_slider(key="sp_at")
    chosen.set_value(chosen.options[chosen.options.index(chosen.value) + 1]).run()
    assert not at.exception
    bars = chart(at, "sp_fig_bars")
    assert base_font(bars) > base_font(before["bars"])
    assert bars["data"] != before["bars"]["data"]

    again = open_page("app_pages/spectrum.py", presenting=False)
    for name in SPECTRUM_CHARTS:
        assert json.dumps(chart(again, f"sp_fig_{name}")) == json.dumps(before[name]), name


@pytest.mark.usps
def test_denoising_side_by_side_in_presenter_mode(monkeypatch: pytest.MonkeyPatch):
    if not Path(USPS_DIR, "zip.test.gz").exists():
        pytest.skip("the USPS files are not available (set KPCA_USPS_DIR)")
    monkeypatch.setenv("KPCA_USPS_DIR", USPS_DIR)
    state = {"dn_train": 20, "dn_test": 5, "dn_tab": "Side by side"}
    at = open_page("app_pages/denoising.py", presenting=True, **state)
    assert_presenting(at, "dn_n")
    plain = open_page("app_pages/denoising.py", presenting=False, **state)
    big, small = chart(at, "dn_sbs_chart"), chart(plain, "dn_sbs_chart")
    assert big["layout"]["title"]["font"]["size"] > small["layout"]["title"]["font"]["size"]
    assert big["data"] == small["data"]


@pytest.mark.parametrize(("width", "height", "room"), [(1920, 1080, 1.5), (3840, 2160, 3.0)])
def test_a_larger_screen_draws_the_same_figures_larger(width: int, height: int, room: float):
    """On a screen measured at 1920 × 1080 (or 3840 × 2160) presenter mode draws what it
    draws at 1280 × 720, 1.5 (3) times larger: the Contours grid and the Spectrum's figures
    as tall, their text and lines as large, and the page's words (its root font)."""
    screen = {presenter.ROOM: {"viewport": {"width": width, "height": height}}}
    for page, keys in (("contours", ("ct_contours",)), ("spectrum", ("sp_fig_lines",))):
        small = open_page(f"app_pages/{page}.py", presenting=True)
        large = open_page(f"app_pages/{page}.py", presenting=True, **screen)
        assert f"html {{ font-size: {16 * room:g}px; }}" in style_sheet(large)
        for key in keys:
            one, other = chart(small, key)["layout"], chart(large, key)["layout"]
            assert other["height"] == round(one["height"] * room), key
            assert base_font({"layout": other}) == pytest.approx(room * base_font({"layout": one}))
            assert other["margin"]["t"] == pytest.approx(room * one["margin"]["t"], abs=1)
    assert line_widths(chart(large, "sp_fig_lines")) == pytest.approx(
        [room * w for w in line_widths(chart(small, "sp_fig_lines"))], abs=0.16
    )
