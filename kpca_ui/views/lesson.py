"""The Lesson view: a lecture as steps, each a view with its settings and what to say.

A lesson is a TOML file in ``assets/lessons/`` (format: the header of
``kernel_pca_10_steps.toml`` and ``docs/lecturers/lessons.md``), read by
:func:`parse_lesson`; the page shows one step (:func:`show_step`).
Link: ``/lesson?ls_lesson=<name>&step=3``.
"""

from __future__ import annotations

import html
import importlib
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode

import streamlit as st

from kpca_ui import presenter
from kpca_ui.cli import app_dir
from kpca_ui.presenter import APP, FRAME_PX, FRAME_RANGE, PAGE_PX, SCREEN, SLIDE, presenter_mode
from kpca_ui.presenter import KEY as PRESENTER
from kpca_ui.settings import PREFIXES, Refused, Setting, Settings, choice, flag, literal

ROOT = app_dir()
LESSONS = ROOT / "assets" / "lessons"  # each <name>.toml is a lesson
DEFAULT = "kernel_pca_10_steps"
PAGES = ROOT / "app_pages"
PREV, NEXT = "ls_prev", "ls_next"  # the on-screen buttons, which the arrow keys click
VIEW = "ls_view"  # container of the embedded view (hidden on a phone)
FRAME = "ls_frame"  # component that puts the step's view in its frame (_FRAME)
EARLY_ID = "kpca-lesson-frame"  # the frame a first visit's HTML starts (early_frame_html)
INTRO = "ls_intro"  # container of the lesson's title and intro
KEYS = "ls_keys"  # the arrow keys' listener, which also measures the view's width
STEP = "ls_step"  # session key of the shown step, from 1 as in the link
EMBED_PX = 490  # the view's height: what a 1280 × 720 screen has below the step's words
# outside presenter mode, sidebar closed: Streamlit's wide page less its 5 rem padding each side
PLAIN_FRAME_PX = SCREEN["width"] - 160
SETTLE_MS = 200  # the frame's width is read once the layout has been still this long
PHONE_PX = 640  # screens at most this wide (stacked columns) get no embedded view
ECHO_CHARS = 600  # the longest a lesson file's title, intro or step title is shown, or quoted
SETTINGS = Settings(
    "ls",
    "lesson",
    choice(
        "ls_lesson",
        "Lesson",
        (),  # the lesson files' names: settled by the page
        help="Each .toml file in assets/lessons/ is a lesson; copy one to write your own.",
    ),
    Setting("step", "Step", "link", longest=20),  # checked against the lesson's steps
    flag(
        "ls_embed",
        "Show the view here",
        True,
        help="The step's view below its words, in presenter mode; off: only the link to it.",
    ),
)
_STEP_FIELDS = {"title", "page", "say", "notice", "settings", "try_this"}
_LESSON_FIELDS = {"title", "intro", "step"}
# The step's view in a frame: the one the page's HTML started (early_frame_html) if it is
# for the same address, moved here loaded (moveBefore), else a new one; none on a phone.
# Zoomed by data.room (room_scale): on a projector's larger screen the slide, planned for
# 1280 × 720, grows as the page's words do, and its frame's page is as wide as planned.
_FRAME = st.components.v2.component(
    "kpca_ui.lesson_frame",
    js="""
export default function ({ parentElement, data }) {
  const src = new URL(data.src, location.href).href;
  const wide = matchMedia(`(min-width: ${data.phone + 1}px)`);
  const place = () => {
    const shown = parentElement.querySelector("iframe");
    let frame = shown;
    if (shown?.dataset.src !== src && wide.matches) {
      frame = document.getElementById(data.early);
      if (frame?.dataset.src === src && parentElement.moveBefore) {
        frame.removeAttribute("id");
        parentElement.moveBefore(frame, null);
      } else {
        frame?.remove();
        frame = document.createElement("iframe");
        frame.dataset.src = frame.src = src;
        parentElement.appendChild(frame);
      }
      shown?.remove();
    }
    if (!frame) return;
    frame.title = data.title;
    frame.style.cssText = `display: block; width: 100%; height: ${data.height}px; ` +
      `border: none; color-scheme: normal; zoom: ${data.room};`;
  };
  if (!parentElement.kpcaPlace) wide.addEventListener("change", () => parentElement.kpcaPlace());
  parentElement.kpcaPlace = place;
  place();
}
""",
    isolate_styles=False,
)
# Reports the view's frame width (its page's, unzoomed; once the layout is still for
# data.settle ms) when it differs from the planned and the last reported one, so the view
# reloads only for another width; one page-wide keydown listener clicks the lesson's
# buttons, not in fields.
_KEYS = st.components.v2.component(
    "kpca_ui.lesson_keys",
    js="""
export default function ({ data, setStateValue }) {
  if (!data.embed) document.getElementById(data.early)?.remove();
  const frame = window.__kpcaLessonFrame ??= { reported: null };
  Object.assign(frame, { planned: data.width, report: setStateValue });
  if (!data.measured) frame.reported = null;
  const measure = () => {
    const view = document.querySelector(`.st-key-${data.view}`);
    const width = Math.round((view?.getBoundingClientRect().width ?? 0) / data.room);
    const off = (other) => other === null || Math.abs(width - other) > data.tolerance;
    if (width >= data.least && off(frame.planned) && off(frame.reported)) {
      frame.reported = width;
      frame.report("width", width);
    }
  };
  frame.later = (delay) => {
    clearTimeout(frame.timer);
    frame.timer = setTimeout(measure, delay);
  };
  frame.later(data.settle);
  if (!frame.observer) {
    frame.observer = new ResizeObserver(() => frame.later(data.settle));
    frame.observer.observe(document.querySelector('[data-testid="stMain"]') ?? document.body);
  }
  if (window.__kpcaLessonKeys) return;
  window.__kpcaLessonKeys = true;
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    const key = { ArrowLeft: "ls_prev", ArrowRight: "ls_next" }[event.key];
    const field = "input, textarea, select, [role=slider], [contenteditable]";
    if (!key || event.target.closest?.(field)) return;
    const button = document.querySelector(`.st-key-${key} button`);
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });
}
""",
)


class LessonError(ValueError):
    """A lesson file that cannot be used; the message names the problem."""


@dataclass(frozen=True)
class Step:
    """One step of a lesson: a view (``page``, a script of ``app_pages/`` without ``.py``)
    with its link's ``settings``, what to ``say``, what to ``notice`` and what to try in its
    notebook (``try_this``; "" for none)."""

    title: str
    page: str
    say: str
    notice: str = ""
    settings: dict[str, str] = field(default_factory=dict)
    try_this: str = ""


@dataclass(frozen=True)
class Lesson:
    """A titled, ordered sequence of :class:`Step`."""

    title: str
    intro: str
    steps: tuple[Step, ...]


def view_pages() -> set[str]:
    """The pages a step may open: the scripts in ``app_pages/`` but the lesson itself."""
    return {path.stem for path in PAGES.glob("*.py")} - {"lesson"}


def lesson_names() -> list[str]:
    """The lessons in :data:`LESSONS`, by file name without ``.toml``; the default first."""
    return sorted((path.stem for path in LESSONS.glob("*.toml")), key=lambda n: (n != DEFAULT, n))


def _text(table: dict, field: str, where: str, *, required: bool = True) -> str:
    value = table.get(field)
    if value is None and not required:
        return ""
    if not isinstance(value, str) or not value.strip():
        found = "is missing" if value is None else "must be non-empty text"
        raise LessonError(f"{where}: “{field}” {found}.")
    return " ".join(value.split())


def _unknown(table: dict, allowed: set[str], where: str) -> None:
    if extra := sorted(set(table) - allowed):
        raise LessonError(
            f"{where}: unknown field “{extra[0]}” (allowed: {', '.join(sorted(allowed))})."
        )


def _step(table: object, number: int, pages: set[str]) -> Step:
    where = f"step {number}"
    if not isinstance(table, dict):
        raise LessonError(f"{where} must be a table ([[step]]).")
    _unknown(table, _STEP_FIELDS, where)
    page = _text(table, "page", where)
    if page not in pages:
        raise LessonError(
            f"{where}: “page” is “{page}”; it must be one of {', '.join(sorted(pages))}."
        )
    settings = table.get("settings", {})
    if not isinstance(settings, dict):
        raise LessonError(f"{where}: “settings” must be a table ([step.settings]).")
    linked: dict[str, str] = {}  # as they stand in a link
    for key, value in settings.items():
        if not isinstance(value, str | int | float):  # a bool is an int
            raise LessonError(f"{where}: setting “{key}” must be text, a number or true/false.")
        text = f"{value:g}" if isinstance(value, float) else str(value)
        linked[str(key)] = text.lower() if isinstance(value, bool) else text
    # each setting is the view's (kpca_ui.settings) or the app's, with a value it takes
    importlib.import_module(f"kpca_ui.views.{page}")  # declares its table, if it has one
    tables = [APP, *(entries for entries in PREFIXES.values() if entries.page == page)]
    for key, value in linked.items():
        setting = next((entries[key] for entries in tables if key in entries), None)
        if setting is None:
            raise LessonError(f"{where}: “{key}” is not a setting of the {page} view.")
        try:
            setting.from_link([value])
        except Refused as error:
            raise LessonError(f"{where}: setting “{key}” = “{value}” is {error}.") from None
    title, say = _text(table, "title", where), _text(table, "say", where)
    notice, try_this = (
        _text(table, field, where, required=False) for field in ("notice", "try_this")
    )
    return Step(title, page, say, notice, linked, try_this)


def step_values(step: Step) -> dict[str, object]:
    """The values of the settings of the view a step opens, as its link gives them (checked
    when the lesson was read)."""
    table = next(entries for entries in PREFIXES.values() if entries.page == step.page)
    linked = step.settings.items()
    return {key: table[key].from_link([value]) for key, value in linked if key in table}


def parse_lesson(text: str, pages: set[str] | None = None) -> Lesson:
    """A lesson from the text of its TOML file.

    Parameters
    ----------
    text : str
        The file's contents (format: the header of ``assets/lessons/*.toml``).
    pages : set of str, optional
        The pages a step may open (default: :func:`view_pages`).

    Raises
    ------
    LessonError
        Naming the first problem: the TOML error with its line, or the step and field
        that is missing, unknown or of the wrong kind.
    """
    pages = view_pages() if pages is None else pages
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise LessonError(f"not valid TOML: {error}.") from None
    _unknown(table, _LESSON_FIELDS, "the lesson")
    steps = table.get("step")
    if not isinstance(steps, list) or not steps:
        raise LessonError("the lesson has no steps: add at least one [[step]] table.")
    return Lesson(
        title=_text(table, "title", "the lesson"),
        intro=_text(table, "intro", "the lesson", required=False),
        steps=tuple(_step(step, number, pages) for number, step in enumerate(steps, start=1)),
    )


def load_lesson(name: str) -> Lesson:
    """The lesson ``assets/lessons/<name>.toml``; :class:`LessonError` names its problem."""
    if name not in lesson_names():
        raise LessonError(f"there is no lesson “{name}” in assets/lessons/.")
    path = LESSONS / f"{name}.toml"
    try:
        return parse_lesson(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as error:
        raise LessonError(f"{path.name} cannot be read: {error}.") from None
    except LessonError as error:
        raise LessonError(f"{path.name}: {error}") from None


def step_number(asked: str | None, count: int) -> tuple[int, str | None]:
    """The step a link asks for (1 … ``count``) and a notice if it could not be used."""
    if asked is None:
        return 1, None
    try:
        number = int(asked)
    except ValueError:
        number = 0
    if 1 <= number <= count:
        return number, None
    return 1, (
        f"The link's step “{literal(asked)}” is not a step of this lesson (1 to {count}); "
        "showing 1."
    )


def current_step(count: int) -> int:
    """The step shown: the session's, or on the first run the link's (with a toast if unusable)."""
    if STEP not in st.session_state:
        number, note = step_number(st.query_params.get("step"), count)
        st.session_state[STEP] = number
        if note:
            st.toast(note, icon=":material/link_off:")
    number = min(max(int(st.session_state[STEP]), 1), count)
    st.session_state[STEP] = number
    st.query_params["step"] = str(number)
    return number


def _move(by: int, count: int) -> None:
    st.session_state[STEP] = min(max(st.session_state.get(STEP, 1) + by, 1), count)


def step_query(step: Step, *, presenting: bool = True) -> dict[str, str]:
    """The step's link parameters, in presenter mode if ``presenting``."""
    return {**step.settings, PRESENTER: "true"} if presenting else dict(step.settings)


def measured_px() -> int | None:
    """The embedded view's width as the browser measured it (:data:`_KEYS`), if possible."""
    measured = st.session_state.get(KEYS)
    width = measured.get("width") if isinstance(measured, Mapping) else None
    low, high = FRAME_RANGE
    return round(width) if isinstance(width, int | float) and low <= width <= high else None


def slide_path(step: Step, width: int) -> str:
    """The step's view as a slide ``width`` px wide (:func:`kpca_ui.presenter.slide_mode`), as
    a path and query from the app's base; ``embed=true`` leaves out Streamlit's toolbar."""
    query = urlencode({**step_query(step), SLIDE: "true", FRAME_PX: str(width), "embed": "true"})
    return f"{step.page}?{query}"


def planned_src(path: str, query: str) -> tuple[str, int] | None:
    """The view the Lesson's first run embeds at ``path?query`` (the link's lesson, else the
    first; its step) and its width; ``None`` for another page, no lesson or one unusable."""
    base, _, page = path.rstrip("/").rpartition("/")
    # a path, never a host: "//elsewhere/lesson" would make "//elsewhere/contours?…"
    base = "/" + base.strip("/") if base.strip("/") else ""
    names = lesson_names()
    if page != "lesson" or not names:
        return None
    params = dict(parse_qsl(query))
    name = params.get("ls_lesson", names[0])
    try:
        lesson = load_lesson(name if name in names else names[0])
    except LessonError:
        return None
    step = lesson.steps[step_number(params.get("step"), len(lesson.steps))[0] - 1]
    width = PAGE_PX if params.get(PRESENTER, "").lower() == "true" else PLAIN_FRAME_PX
    return f"{base}/{slide_path(step, width)}", width


def early_frame_html(path: str, query: str) -> str:
    """A script for a first visit's Lesson page (put in by :class:`kpca_ui.boot.BootScreen`)
    that loads :func:`planned_src`'s view in a hidden frame beside the Lesson's first run,
    then moves it, loaded (``moveBefore``), into :data:`VIEW`'s box; "" for another page."""
    planned = planned_src(path, query)
    if planned is None:
        return ""
    src, width = planned
    # a JavaScript string in a <script>, where "</script>" must not appear
    src = json.dumps(src).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return (
        "<script>(function () {if (!Element.prototype.moveBefore || "
        f'!matchMedia("(min-width: {PHONE_PX + 1}px)").matches) return;'
        f'var frame = document.createElement("iframe");frame.id = "{EARLY_ID}";'
        f"frame.dataset.src = frame.src = new URL({src}, location.href).href;"
        "frame.style.cssText = 'position: fixed; left: 0; top: 0; visibility: hidden; "
        f"z-index: -1; border: none; width: {width}px; height: {EMBED_PX}px;';"
        "document.body.appendChild(frame);var watch = new MutationObserver(function () {"
        f'var box = document.querySelector(".st-key-{VIEW}");'
        "if (frame.parentElement !== document.body) { watch.disconnect(); return; }"
        "if (!box) return;watch.disconnect(); box.moveBefore(frame, null);"
        "frame.style.cssText = 'display: block; width: 100%; "
        f"height: {EMBED_PX}px; border: none; color-scheme: normal;';}});"
        "watch.observe(document.body, { childList: true, subtree: true });"
        "setTimeout(function () { watch.disconnect(); }, 30000);})();</script>"
    )


def navigation(step: Step, number: int, count: int) -> None:
    """The ← / → buttons, the place in the lesson and the link to the step's view, in a row."""
    back, place, forward, link = st.columns(4, vertical_alignment="center")

    def move(
        column: Any, label: str, *, key: str, by: int, arrow: str, last: int, told: str
    ) -> None:
        column.button(
            label,
            key=key,
            icon=f":material/arrow_{arrow}:",
            on_click=_move,
            args=(by, count),
            disabled=number == last,
            width="stretch",
            help=told,
        )

    move(back, "Back", key=PREV, by=-1, arrow="back", last=1, told="Previous step (← key)")
    move(forward, "Next", key=NEXT, by=1, arrow="forward", last=count, told="Next step (→ key)")
    place.markdown(f'<p class="kpca-lesson-place">{number} of {count}</p>', unsafe_allow_html=True)
    link.page_link(
        f"app_pages/{step.page}.py",
        label="Open",
        icon=":material/open_in_new:",
        query_params=step_query(step, presenting=presenter_mode()),
        help=f"This view ({step.page}) on its own page, with the step's settings",
    )


def show_step(lesson: Lesson, number: int, *, embed: bool) -> None:
    """Step ``number`` of ``lesson`` as a slide, within a 1280 × 720 screen in presenter mode:
    the buttons beside the title (below it, they pushed the slide's foot off the screen), the
    arrow keys' listener last, so that it takes no room; on a larger screen, the slide
    planned for that one and :func:`~kpca_ui.presenter.room_scale` times larger."""
    step = lesson.steps[number - 1]
    title, buttons = st.columns((2, 1), vertical_alignment="center")
    # the lesson file's words are shown as written, never as markdown
    title.title(f"{number}. {literal(step.title, ECHO_CHARS)}")
    with buttons:
        navigation(step, number, len(lesson.steps))
    if not presenter_mode():
        st.container(key=INTRO).caption(literal(f"{lesson.title}. {lesson.intro}", ECHO_CHARS))
    say = f'<p class="kpca-lesson-say">{html.escape(step.say)}</p>'
    if step.notice:
        say += f'<p class="kpca-lesson-notice"><b>Notice:</b> {html.escape(step.notice)}</p>'
    st.markdown(say, unsafe_allow_html=True)
    # as measured, else a 1280 × 720 screen's, as early_frame_html planned it
    width = measured_px() or (PAGE_PX if presenter_mode() else PLAIN_FRAME_PX)
    room = presenter.room_scale()
    if embed:
        base = (st.context.url or "").split("?")[0].rsplit("/", 1)[0]
        with st.container(key=VIEW):
            _FRAME(
                key=FRAME,
                data={
                    "src": f"{base}/{slide_path(step, width)}",
                    "height": EMBED_PX,
                    "room": room,
                    "phone": PHONE_PX,
                    "early": EARLY_ID,
                    "title": f"The view of step {number}",
                },
            )
    _KEYS(
        key=KEYS,
        data={
            "embed": embed,
            "early": EARLY_ID,
            "view": VIEW,
            "width": width,
            "room": room,
            "measured": measured_px() is not None,
            "least": FRAME_RANGE[0],
            "tolerance": 4,
            "settle": SETTLE_MS,
        },
        default={"width": None},
        on_width_change=lambda: None,  # declares the state "width" (components v2 asks)
    )


def lesson_style() -> None:
    """Large presenter-style text for the lesson; outside presenter mode a smaller, tighter
    one, so that the view starts within a 1280 × 720 screen; no embedded view on a phone."""
    size, title = ("1.2rem", "") if presenter_mode() else ("1.1rem", "2rem")
    title_rule = f"[data-testid='stMain'] h1 {{ font-size: {title}; padding: 0; }}" if title else ""
    st.html(
        "<style>"
        "[data-testid='stMarkdownContainer'] p:is(.kpca-lesson-say, .kpca-lesson-notice) "
        f"{{ font-size: {size}; margin: 0 0 0.25rem; }}"
        f".st-key-{INTRO} {{ margin: -0.5rem 0; }}"  # no 1rem gaps around the lesson's line
        "[data-testid='stMarkdownContainer'] p.kpca-lesson-place "
        "{ font-size: 1.2rem; text-align: center; margin: 0; }"
        f"{title_rule}"
        f"@media (max-width: {PHONE_PX}px) {{ .st-key-{VIEW} {{ display: none; }} }}"
        "</style>"
    )


def restart() -> None:
    """Another lesson chosen: start it at step 1."""
    st.session_state[STEP] = 1
