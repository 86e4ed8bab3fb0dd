"""The Lesson page: its file format, and stepping through a lesson."""

from __future__ import annotations

import asyncio
import json
import re
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest
from conftest import open_view
from test_bad_links import LIVE_MARKDOWN
from test_links import unescape

from kpca_ui import presenter
from kpca_ui.boot import ROOT, BootScreen
from kpca_ui.views import lesson as view

PAGES = {"contours", "spectrum", "denoising", "demo", "home"}
GOOD = """
title = "Two steps"
[[step]]
title = "First"
page = "contours"
say = "Say this."
[step.settings]
ct_values = "1"
ct_k = 3
ct_center = true
ct_noise = 0.2
[[step]]
title = "Second"
page = "demo"
say = "Say that."
notice = "Look here."
"""


def test_a_good_file_gives_its_steps_in_order():
    lesson = view.parse_lesson(GOOD, PAGES)
    assert lesson.title == "Two steps" and lesson.intro == ""
    assert [step.title for step in lesson.steps] == ["First", "Second"]
    first, second = lesson.steps
    assert first.page == "contours" and first.notice == ""
    # Settings as they stand in a link.
    assert first.settings == {"ct_values": "1", "ct_k": "3", "ct_center": "true", "ct_noise": "0.2"}
    assert second.settings == {} and second.notice == "Look here."


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('title = "x"\n[[step]\n', "not valid TOML"),
        ('title = "x"\n', "no steps"),
        ('title = "x"\nstep = 3\n', "no steps"),
        ('[[step]]\ntitle = "a"\npage = "demo"\nsay = "b"\n', "“title” is missing"),
        ('title = ""\n[[step]]\ntitle = "a"\npage = "demo"\nsay = "b"\n', "non-empty text"),
        ('title = "x"\n[[step]]\ntitle = "a"\npage = "demo"\n', "step 1: “say” is missing"),
        ('title = "x"\n[[step]]\ntitle = "a"\npage = "nowhere"\nsay = "b"\n', "must be one of"),
        ('title = "x"\n[[step]]\ntitle = "a"\npage = "demo"\nsay = "b"\ncolour = 1\n', "colour"),
        ('title = "x"\n[[step]]\ntitle = "a"\npage = "demo"\nsay = "b"\nsettings = 2\n', "table"),
        (
            'title = "x"\n[[step]]\ntitle = "a"\npage = "demo"\nsay = "b"\n'
            "[step.settings]\nct_k = [1, 2]\n",
            "setting “ct_k” must be text",
        ),
        ('title = "x"\nauthor = "me"\n[[step]]\ntitle = "a"\npage = "demo"\nsay = "b"\n', "author"),
    ],
)
def test_a_malformed_file_gets_a_message_naming_the_problem(text, message):
    with pytest.raises(view.LessonError, match=message):
        view.parse_lesson(text, PAGES)


def test_the_shipped_lesson_is_valid_and_opens_the_ten_views():
    assert view.lesson_names()[0] == view.DEFAULT
    lesson = view.load_lesson(view.DEFAULT)
    assert lesson.title == "Kernel PCA in 10 steps" and len(lesson.steps) == 10
    assert [step.page for step in lesson.steps] == [
        *["contours"] * 4,
        "spectrum",
        *["contours"] * 2,
        "denoising",
        "denoising",
        "demo",
    ]
    assert lesson.steps[6].settings["ct_data"] == "Draw your own points"
    with pytest.raises(view.LessonError, match=re.escape("no lesson “../etc”")):
        view.load_lesson("../etc")


@pytest.mark.parametrize(
    ("asked", "number", "told"),
    [
        (None, 1, False),
        ("3", 3, False),
        ("10", 10, False),
        ("0", 1, True),
        ("11", 1, True),
        ("two", 1, True),
        ("", 1, True),
    ],
)
def test_a_step_in_a_link_is_validated(asked, number, told):
    shown, note = view.step_number(asked, 10)
    assert shown == number and (note is not None) == told


def shown_link(at) -> tuple[str, dict[str, str]]:
    """The page and parameters of the step's "Open this view" link."""
    (link,) = at.get("page_link")
    return link.proto.page, dict(parse_qsl(link.proto.query_string))


def embedded(at) -> list[str]:
    """The address of the view the page embeds (its frame component's data), if any."""
    return [
        json.loads(element.proto.json)["src"]
        for element in at.get("bidi_component")
        if element.proto.component_name.endswith("lesson_frame")
    ]


def test_the_buttons_step_through_the_lesson_and_the_link_follows():
    at = open_view("lesson", state={view.KEYS: {"width": presenter.PAGE_PX}})
    assert at.title[0].value == "1. Linear PCA on a parabola"
    assert at.button(key=view.PREV).disabled and not at.button(key=view.NEXT).disabled
    page, query = shown_link(at)
    assert page == "contours" and query == {"ct_values": "1", "ct_k": "3"}
    (frame,) = embedded(at)
    src = urlsplit(frame)
    assert src.path.endswith("/contours")
    # embedded as a slide: presenter mode without the page's chrome
    slide = {**query, "presenter": "true", "slide": "true", "embed": "true"}
    assert dict(parse_qsl(src.query)) == {**slide, "slide_px": str(presenter.PAGE_PX)}

    for _ in range(4):
        at.button(key=view.NEXT).click().run()
    assert not at.exception
    assert at.title[0].value == "5. The width decides"
    assert at.query_params["step"] == "5"
    assert shown_link(at)[0] == "spectrum"
    at.button(key=view.PREV).click().run()
    assert at.title[0].value.startswith("4. ")


def test_in_presenter_mode_the_steps_link_opens_its_view_in_presenter_mode():
    at = open_view(
        "lesson", query={"presenter": "true", "step": "9"}, state={view.KEYS: {"width": 1000}}
    )
    assert at.title[0].value.startswith("9. ")
    page, query = shown_link(at)
    assert page == "denoising" and query == {"dn_tab": "Fig. 4 grid", "presenter": "true"}
    (frame,) = embedded(at)
    assert dict(parse_qsl(urlsplit(frame).query))["slide"] == "true"


def test_a_step_is_a_link_and_a_bad_one_opens_the_first_step():
    at = open_view("lesson", query={"step": "10"})
    assert at.title[0].value == "10. Without the maths"
    assert at.button(key=view.NEXT).disabled
    assert shown_link(at)[0] == "demo"
    bad = open_view("lesson", query={"step": "42"})
    assert bad.title[0].value.startswith("1. ")
    assert "not a step of this lesson" in bad.toast[0].value


def test_a_malformed_lesson_file_is_reported_on_the_page(tmp_path, monkeypatch):
    (tmp_path / "broken.toml").write_text('title = "x"\n[[step]]\ntitle = "a"\n', "utf-8")
    monkeypatch.setattr(view, "LESSONS", tmp_path)
    at = open_view("lesson")
    assert at.error and "broken.toml: step 1: “page” is missing" in unescape(at.error[0].value)
    assert not embedded(at)


EVIL_LESSON = """
title = "[Log in again](https://evil.example/login)"
intro = "![t](https://evil.example/t.png) <b>bold</b> **loud**"
[[step]]
title = "[x](https://evil.example)"
page = "demo"
say = "b"
"""


def test_a_lesson_files_words_are_shown_as_written_never_as_markdown(tmp_path, monkeypatch):
    (tmp_path / "evil.toml").write_text(EVIL_LESSON, "utf-8")
    (tmp_path / "broken.toml").write_text(
        'title = "x"\n[[step]]\n"[y](https://evil.example)" = 1\n'
    )
    monkeypatch.setattr(view, "LESSONS", tmp_path)
    at = open_view("lesson", query={"ls_lesson": "evil", "step": "[z](https://evil.example)"})
    assert not at.exception, [e.value for e in at.exception]
    title, caption = at.title[0].value, at.caption[0].value
    assert unescape(title) == "1. [x](https://evil.example)"
    assert unescape(caption).startswith("[Log in again](https://evil.example/login). ![t]")
    assert "not a step of this lesson" in at.toast[0].value
    broken = open_view("lesson", query={"ls_lesson": "broken"})
    assert "unknown field" in broken.error[0].value
    for shown in (title, caption, at.toast[0].value, broken.error[0].value):
        assert not LIVE_MARKDOWN.search(shown), shown


def _planned(at) -> str:
    (frame,) = embedded(at)
    return dict(parse_qsl(urlsplit(frame).query))[presenter.FRAME_PX]


@pytest.mark.parametrize(
    ("query", "planned"),
    [({}, view.PLAIN_FRAME_PX), ({presenter.KEY: "true"}, presenter.PAGE_PX)],
    ids=["plain", "presenter"],
)
def test_the_view_starts_loading_on_the_first_run_planned_for_a_1280_screen(query, planned):
    """The view is embedded on the page's first run, before the browser has measured the
    frame, planned for the frame a 1280 × 720 screen has in that mode (waiting for the
    measurement, a rerun, made the Lesson the one view over 3 s cold); a measured width
    replaces it (an iframe planned for another width is loaded again)."""
    at = open_view("lesson", query=query)
    assert _planned(at) == str(planned)
    at.session_state[view.KEYS] = {"width": 1000}
    at.run()
    assert _planned(at) == "1000"


@pytest.mark.parametrize(("measured", "planned"), [(820, 820), (4000, None), ("wide", None)])
def test_the_slide_plans_for_the_frames_measured_width(measured, planned):
    """The page's listener measures the frame (the sidebar open: narrower); odd values are
    not believed, and the slide plans for a 1280 × 720 screen's frame."""
    at = open_view("lesson", state={view.KEYS: {"width": measured}})
    assert _planned(at) == str(planned or view.PLAIN_FRAME_PX)


@pytest.mark.parametrize(
    "query",
    [
        {},
        {"step": "9", presenter.KEY: "true"},
        {"step": "5", presenter.KEY: "TRUE"},
        {"step": "42"},
        {"ls_lesson": "no such lesson", "step": "3"},
    ],
)
def test_a_first_visits_html_starts_loading_the_view_its_first_run_embeds(query):
    """The page's HTML starts loading the step's view (the view loaded only after the
    page's first run made the Lesson the one view over 3 s cold): the same address as
    the first run embeds, else the frame would be loaded twice."""
    src, width = view.planned_src("/lesson", urlencode(query))
    assert [src] == embedded(open_view("lesson", query=query))
    assert dict(parse_qsl(urlsplit(src).query))[presenter.FRAME_PX] == str(width)
    assert view.planned_src("/kpca/lesson/", urlencode(query))[0] == f"/kpca{src}"


def _served(path: str, query: bytes = b"") -> bytes:
    """The HTML page :class:`BootScreen` sends for ``path`` (its body hook the server's)."""
    sent: list[dict] = []

    async def app(scope, receive, send):
        headers = [(b"content-type", b"text/html")]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": b"<body>" + ROOT + b"</body>"})

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "method": "GET", "path": path, "query_string": query}
    scope["headers"] = []
    served = BootScreen(app, body=view.early_frame_html)(scope, None, send)
    # in a thread of its own: a browser test before it may leave this thread's loop running
    ThreadPoolExecutor(1).submit(asyncio.run, served).result()
    return sent[-1]["body"]


def _early_src(html: str) -> str:
    """The address the page's early frame loads (a JavaScript string in its script)."""
    return json.loads(re.search(r"new URL\((\".*?\"), location", html)[1])


def test_only_the_lessons_html_starts_loading_a_view():
    page = _served("/lesson", b"step=5").decode()
    src = view.planned_src("/lesson", "step=5")[0]
    assert view.EARLY_ID in page and _early_src(page) == src
    assert view.EARLY_ID not in _served("/contours").decode()
    assert view.early_frame_html("/contours", "") == ""


@pytest.mark.parametrize(
    "path", ["/x</script><script>alert(1)</script>/lesson", "//elsewhere.example/lesson"]
)
def test_a_hostile_path_starts_no_script_and_no_other_site(path):
    """The request's path is written into the page's script: it neither ends that script
    (a ``</script>`` in it started the sender's own HTML) nor names another host."""
    html = view.early_frame_html(path, "step=2")
    assert html.count("</script>") == 1 and html.endswith("</script>")
    src = _early_src(html)
    assert src.startswith("/") and not src.startswith("//")
