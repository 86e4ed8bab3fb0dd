"""The frame every page runs in: the navigation, the app-shell check, the export format.

Page scripts call :func:`require_app_shell` first; ``app.py`` builds its
navigation from :func:`app_pages`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping

import streamlit as st
from streamlit.delta_generator import DeltaGenerator
from streamlit.navigation.page import StreamlitPage

from kpca_ui.boot import NOT_DRAWN, NOTHING_DRAWN, NOTICE_STYLE
from kpca_ui.links import Domain, choice, remember_link, sanitise_link, show_pending
from kpca_ui.points import UPLOAD

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


def sidebar_state(page: StreamlitPage) -> str:
    """The sidebar's initial state on ``page`` (the page :func:`st.navigation` returned).

    Set once per run, by ``app.py``: the browser applies each state it is sent, so a
    page that changed the app's "auto" to "collapsed" in the same run had its sidebar
    open and close on every run, which changed the Lesson's frame width, which reran
    the page and loaded its embedded view again (5-10 s before the view settled).
    """
    return "collapsed" if page.url_path in SIDEBAR_CLOSED else "auto"


IMAGE_FORMATS = ["png", "svg"]


def require_app_shell(domains: Mapping[str, Domain] | None = None) -> None:
    """Make sure a page runs inside ``app.py``'s navigation; call it first in every page.

    The page scripts live in ``app_pages/``, not ``pages/``: a ``pages/`` folder
    beside ``app.py`` starts a new server in Streamlit's older multipage mode,
    which lists every script of the folder in the sidebar (and may run one
    without ``app.py``) until some session has called ``st.navigation``; on a
    fresh server that was the first ~4 s (issue #13).  Should a page script run
    on its own all the same, calling ``st.navigation`` here brings it back
    under ``app.py``, with the same URL and query parameters.

    It then keeps the link's parameters, before any widget reads them, for
    :func:`kpca_ui.links.link_tools`, and removes those that the page's widgets'
    ``domains`` (key -> :class:`kpca_ui.links.Domain`) do not accept; what cannot
    wait for the widgets (a repeated parameter, presenter mode) is told at once.
    """
    if not st.session_state.get(SHELL_FLAG):
        st.navigation(app_pages(), position="hidden")
        st.rerun()
    remember_link()
    sanitise_link(domains or {})
    show_pending()


DRAWING_CSS = f"""
{NOT_DRAWN} {{{NOTICE_STYLE}  animation: kpca-drawing 30s linear forwards;
}}
@keyframes kpca-drawing {{
  0%, 1.9% {{ opacity: 0; }} 2%, 99.9% {{ opacity: 1; }} 100% {{ opacity: 0; }}
}}
"""
"""The notice's style: in a corner of the page (taking no room), from 0.6 s after the page
has no figure drawn until one is, for at most 30 s."""


def drawing_notice() -> None:
    """ "Drawing the figures …" with a spinner, while the page's figures are not drawn yet.

    On a first visit the browser spends 1-2 s after the page's script has sent
    everything loading Streamlit's chart code and drawing (``bench/cold_start.py``):
    without a sign of work the page showed its text and blank space. Pure CSS: it
    appears only when no figure has been drawn 0.6 s after the page (or a rerun that
    replaced its figures) started, and goes as soon as one is. A page calls it when
    what it shows first has a figure. (A page's first load shows it earlier:
    :data:`kpca_ui.boot.FIRST_LOAD_HTML`.)
    """
    st.html(f"<style>{DRAWING_CSS}</style>")


def nothing_to_draw(message: str, say: Callable[[str], object] = st.info) -> None:
    """Say why the page draws no figure now (``say``: ``st.info``, or ``st.error`` for a
    refusal), so that its "Drawing the figures …" notice (:func:`drawing_notice`) does not
    say one is coming.  Once per run."""
    with st.container(key=NOTHING_DRAWN):
        say(message)


def camera_domain() -> Domain:
    """What :func:`camera_format` accepts from a link: its labels."""
    return choice(str.upper(name) for name in IMAGE_FORMATS)


def camera_format(container: DeltaGenerator, key: str) -> str:
    """A choice of what the camera button of the page's figures saves, PNG or SVG."""
    return container.radio(
        "Camera button saves",
        IMAGE_FORMATS,
        format_func=str.upper,
        horizontal=True,
        key=key,
        bind="query-params",
        help="Format of the camera button in each figure's toolbar.",
    )


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
