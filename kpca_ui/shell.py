"""The frame every page runs in: the navigation, a page's start, the export format.

:func:`run` is the app's script (``app.py`` runs it for every session); each page
script starts with :func:`page_start`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import Any

import streamlit as st

from kpca_ui.boot import NOT_DRAWN, NOTHING_DRAWN, NOTICE_STYLE
from kpca_ui.presenter import navigation_position, presenter_mode, presenter_toggle
from kpca_ui.settings import Setting, Settings, arrive, choice, literal

SHELL_FLAG = "_via_app"
REPLICA_ENV = "KPCA_REPLICA"
"""This server's name among replicas, as the balancer's stickiness cookie names it
(``compose.yaml``; ``bench/load_test.py --replicas``)."""
PINNED_HEADER = "X-Kpca-Pinned-To"
"""The replica the browser was pinned to, which the balancer adds to each request
(``deploy/haproxy.cfg``)."""
MOVED_FLAG = "_moved_told"
MOVED = (
    "The server you were on ({pinned}) stopped, so you are now on {here}. Your settings "
    "and your link were kept; the figures are computed again."
)
MOVED_UPLOAD = (
    "The server you were on ({pinned}) stopped, so you are now on {here}. Your settings "
    "and your link were kept, but not the file you uploaded: only {pinned} had it. "
    "Upload it again to see your data."
)
"""The notice for a moved session whose data was an upload (a data set choice in its
link): the uploader still shows the file's name, which only the browser remembers."""
NOTEBOOK_VIEWS = ("contours", "spectrum", "denoising", "features", "demo")
"""The views whose state :func:`take_home` writes as a notebook (:mod:`kpca_ui.notebook`)."""
UPLOAD = "Your own data (CSV upload)"
"""The data pickers' option for an upload (:mod:`kpca_ui.points`)."""

NAVIGATION = (
    ("home", "Home", ":material/home:"),
    ("contours", "Contours", ":material/line_curve:"),
    ("spectrum", "Spectrum", ":material/bar_chart:"),
    ("denoising", "Denoising", ":material/blur_off:"),
    ("demo", "Demo", ":material/auto_fix_high:"),
    ("features", "Features", ":material/grid_on:"),
    ("lesson", "Lesson", ":material/school:"),
    ("class_room", "Class", ":material/groups:"),
)
"""The app's pages in the order of the navigation: script in ``app_pages/``, title, icon."""
SIDEBAR_CLOSED = frozenset({"lesson"})
"""Pages whose sidebar starts closed: the Lesson's step view gets a slide's space in either
mode (its two settings are a click away), not the 60-80 px panels beside an open sidebar."""


def app_pages() -> list[st.Page]:
    """The app's pages, in the order of the navigation (the first is the default)."""
    return [
        st.Page(f"app_pages/{name}.py", title=title, icon=icon, default=name == "home")
        for name, title, icon in NAVIGATION
    ]


def run() -> None:
    """The app's script: the navigation, the app's settings, the page chosen."""
    from kpca_ui.chart import SESSION
    from kpca_ui.live import after
    from kpca_ui.theme import hold_theme_choice
    from kpca_ui.workers import one_blas_thread

    after(st.session_state.get(SESSION, ""))  # a live figure asked for beside this run: first
    one_blas_thread()
    st.set_page_config(page_title="Kernel PCA Explorer", page_icon="🌀", layout="wide")
    st.session_state[SHELL_FLAG] = True
    moved_notice()  # behind the balancer: a session moved here from a replica that died
    pages = app_pages()
    page = st.navigation(pages, position=navigation_position())
    arrive(page.url_path)
    presenter_toggle()
    # Once per run, for the page shown: the browser applies each state it is sent, so a
    # page that changed it in the same run had its sidebar open and close on every run.
    # Presenter mode draws nothing in it: turned on, it closes, the room going to the figures.
    closed = page.url_path in SIDEBAR_CLOSED or presenter_mode()
    st.set_page_config(initial_sidebar_state="collapsed" if closed else "auto")
    page.run()
    hold_theme_choice(pages)  # the reader's Light/Dark choice, on every page


def page_start(settings: Settings | None = None) -> None:
    """Make sure a page runs inside ``app.py``'s navigation, then read its link; call it first.

    The page scripts live in ``app_pages/``, not ``pages/``: a ``pages/`` folder
    beside ``app.py`` starts a new server in Streamlit's older multipage mode.  Should
    a page script run on its own all the same, calling ``st.navigation`` here brings
    it back under ``app.py``, with the same URL and query parameters.
    """
    if not st.session_state.get(SHELL_FLAG):
        st.navigation(app_pages(), position="hidden")
        st.rerun()
    if settings is not None:
        settings.start()


def camera(prefix: str) -> Setting:
    """A view's choice of what the camera button of its figures saves, PNG or SVG."""
    return choice(
        f"{prefix}_img",
        "Camera button saves",
        {"png": "PNG", "svg": "SVG"},
        widget="radio",
        help="Format of the camera button in each figure's toolbar.",
    )


DRAWING_CSS = f"""
{NOT_DRAWN} {{{NOTICE_STYLE}  animation: kpca-drawing 30s linear forwards;
}}
@keyframes kpca-drawing {{
  0%, 1.9% {{ opacity: 0; }} 2%, 99.9% {{ opacity: 1; }} 100% {{ opacity: 0; }}
}}
"""
"""The notice's style: in a corner of the page (taking no room), from 0.6 s after the page (or
a rerun that replaced its figures) started with no figure drawn until one is, at most 30 s."""


def drawing_notice() -> None:
    """ "Drawing the figures …" with a spinner (:data:`DRAWING_CSS`, pure CSS), while the page's
    figures are not drawn yet; for a page whose first sight has a figure.  (A first load shows
    it earlier: :data:`kpca_ui.boot.FIRST_LOAD_HTML`.)"""
    st.html(f"<style>{DRAWING_CSS}</style>")


def nothing_to_draw(message: str, say: Callable[[str], object] = st.info) -> None:
    """Say why the page draws no figure now (``say``: ``st.info``, or ``st.error`` for a
    refusal), so that its "Drawing the figures …" notice does not say one is coming."""
    with st.container(key=NOTHING_DRAWN):
        say(message)


def moved_notice() -> None:
    """Tell the user once, in a toast, that their session moved to this replica.

    Behind the balancer, a browser is pinned to a replica by a cookie; when that
    replica dies, the browser reconnects (with the widgets' values and the link
    it holds) and the balancer sends it to a live replica, telling it the pinned
    one in :data:`PINNED_HEADER`.  A session that only lived here is never told.
    """
    here = os.environ.get(REPLICA_ENV, "")
    pinned = st.context.headers.get(PINNED_HEADER, "")
    if here and pinned and pinned != here and not st.session_state.get(MOVED_FLAG):
        st.session_state[MOVED_FLAG] = True
        uploaded = any(
            key.endswith("_data") and UPLOAD in st.query_params.get_all(key)
            for key in st.query_params
        )
        notice = MOVED_UPLOAD if uploaded else MOVED
        st.toast(notice.format(pinned=pinned, here=here), icon=":material/sync_alt:")


@st.fragment
def csv_numbers(key: str, files: Iterable[tuple[str, str, str, Callable[[], str | bytes]]]) -> None:
    """CSV download buttons in a popover keyed ``<key>_numbers``, each (label, button key,
    file name, its content's maker): made when the popover is opened, not on every run (a
    grid's values are megabytes)."""
    popover = st.popover(
        "The numbers (CSV)", icon=":material/download:", key=f"{key}_numbers", on_change="rerun"
    )
    for label, button, name, made in files if popover.open else ():
        popover.download_button(
            label, made(), file_name=name, mime="text/csv", on_click="ignore", key=button
        )


def take_home(
    view: str, values: Mapping[str, Any], drawing: Any = None, exercise: str = ""
) -> None:
    """The sidebar's "Open as a notebook" (not in presenter mode): this view's state as a
    notebook and as a script (:func:`kpca_ui.notebook.notebook`), made when opened;
    ``exercise``, a lesson step's "try this", ends it."""
    if presenter_mode():
        return
    with st.sidebar:
        _take_home(view, dict(values), drawing, exercise)


@st.fragment
def _take_home(view: str, values: dict[str, Any], drawing: Any, exercise: str) -> None:
    popover = st.popover(
        "Open as a notebook", icon=":material/terminal:", key=f"{view}_notebook", on_change="rerun"
    )
    if not popover.open:
        return
    import nbformat  # 0.26 s to import: when a notebook is asked for

    from kpca_ui import notebook  # it imports this module

    try:
        made = notebook.notebook(view, values, drawing=drawing)
    except ValueError as error:  # a drawing of too few points, an empty pad: said, not raised
        popover.info(f"No notebook of this state: {literal(str(error), 200)}")
        return
    if exercise:
        made.cells.append(nbformat.v4.new_markdown_cell(f"**Try this.** {exercise}"))
    files = (
        ("Notebook (.ipynb)", "ipynb", nbformat.writes(made), "application/x-ipynb+json"),
        ("Python script (.py)", "py", notebook.script(made), "text/x-python"),
    )
    for label, suffix, text, mime in files:
        popover.download_button(
            label,
            text,
            file_name=f"kpca-{view}.{suffix}",
            mime=mime,
            on_click="ignore",
            key=f"{view}_notebook_{suffix}",
        )
    popover.caption(
        "It loads the same data, fits the same model and draws this figure, with the app's "
        "engine installed (`pip install .` in the project, or its wheel): change a setting in "
        "its first code cell and run it again."
    )
