"""Something on the page at once: the app's name in the page Streamlit sends, before its code runs.

Streamlit's page is an empty ``<div id="root">`` until the browser has run its ~2 MB of JavaScript.
:class:`BootScreen`, a middleware of ``app.py``'s server, puts :data:`BOOT_HTML` in that ``div``
(Streamlit's first drawing replaces it), adds ``head`` (Plotly's script,
:func:`kpca_ui.plotly_js.preload_html`) and :data:`FIRST_LOAD_HTML` to the ``<head>`` of a page that
draws charts, and a ``body`` hook's HTML after the root ``div`` (the Lesson's step view).  Only a
page's HTML is changed, never Streamlit's files or other answers.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.types import ASGIApp, Message, Receive, Scope, Send

ROOT = b'<div id="root"></div>'
HEAD_END = b"</head>"
BOOT_HTML = (
    '<div class="kpca-boot" style="font-family: system-ui, sans-serif; padding: 6rem 5rem; '
    'opacity: 0.75">'
    '<div style="font-size: 2.4rem; font-weight: 700">Kernel PCA Explorer</div>'
    '<p style="font-size: 1.1rem">Loading …</p></div>'
)
"""What the page shows until Streamlit has drawn (not a heading: the pages' titles are)."""
NOT_PAGES = ("/_stcore/", "/static/", "/media/", "/component/", "/app/static/")


def _a_page(scope: Scope) -> bool:
    path = scope.get("path", "")
    return (
        scope["type"] == "http"
        and scope.get("method") == "GET"
        and "." not in path.rsplit("/", 1)[-1]
        and not any(part in f"{path}/" for part in NOT_PAGES)
    )


_SPINNER = (
    "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 20 20'%3E"
    "%3Ccircle cx='10' cy='10' r='8' fill='none' stroke='%23888' stroke-width='3' "
    "stroke-dasharray='34 17'%3E%3CanimateTransform attributeName='transform' type='rotate' "
    "from='0 10 10' to='360 10 10' dur='0.9s' repeatCount='indefinite'/%3E%3C/circle%3E%3C/svg%3E"
)
DRAWING = "Drawing the figures …"
NOTICE_STYLE = f"""
  content: "{DRAWING}";
  position: fixed; right: 1.5rem; bottom: 1.25rem; z-index: 999990;
  padding: 0.45rem 0.9rem 0.45rem 2.3rem; border-radius: 0.5rem; font-size: 0.95rem;
  background: rgba(128, 128, 128, 0.18) url("{_SPINNER}") no-repeat 0.8rem center / 1.05rem;
  pointer-events: none;
"""
NOTHING_DRAWN = "kpca_nothing_drawn"
"""The key of the container where a page says why it draws no figure: no "Drawing" notice."""
NOT_DRAWN = (
    '[data-testid="stMain"]:not(:has(.js-plotly-plot .main-svg))'
    f":not(:has(.st-key-{NOTHING_DRAWN}))::after"
)
FIRST_LOAD = "kpca-first-load"
FIRST_LOAD_HTML = f"""<style>
html.{FIRST_LOAD} {NOT_DRAWN} {{{NOTICE_STYLE}  animation: none;
}}
</style><script>
(function () {{
  var root = document.documentElement;
  root.classList.add("{FIRST_LOAD}");
  var done = function () {{ root.classList.remove("{FIRST_LOAD}"); }};
  var watch = new MutationObserver(function () {{
    if (document.querySelector(".js-plotly-plot .main-svg")) {{ done(); watch.disconnect(); }}
  }});
  watch.observe(root, {{ subtree: true, childList: true }});
  setTimeout(function () {{ done(); watch.disconnect(); }}, 30000);
}})();
</script>"""
"""A first load's "Drawing the figures …", from Streamlit's first drawing until a figure is drawn
(at most 30 s), before the page's own notice (:func:`kpca_ui.shell.drawing_notice`) arrives."""


CLASS_PAGE = "class_room"
"""Class mode's page: only the projector's (its lecturer's cookie sent) draws figures."""
LECTURER_COOKIE = b"kpca_lecturer_"
"""The start of the name of the cookie that keeps a lecturer's room (``views/class_room.py``)."""
FRAME_PAGE = "lesson"
"""The Lesson: its figures are in the step's view, a page of its own in a frame."""


def _without_figures(scope: Scope) -> bool:
    """A page that draws no chart itself: class mode's but the projector, the Lesson."""
    page = scope.get("path", "").rstrip("/").rsplit("/", 1)[-1]
    cookies = b";".join(value for name, value in scope.get("headers", ()) if name == b"cookie")
    return page == FRAME_PAGE or (page == CLASS_PAGE and LECTURER_COOKIE not in cookies)


class BootScreen:
    """ASGI middleware: a page's HTML gets :data:`BOOT_HTML` in its root ``div``,
    ``head`` at the end of its ``<head>`` and ``body(path, query)`` after the root ``div``.

    It asks Streamlit for pages uncompressed (no ``Accept-Encoding``) so that it can
    rewrite them; any other answer passes through untouched.
    """

    def __init__(
        self, app: ASGIApp, head: str = "", body: Callable[[str, str], str] = lambda p, q: ""
    ) -> None:
        self.app = app
        self.head = head.encode()
        self.body = body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if not _a_page(scope):
            await self.app(scope, receive, send)
            return
        headers = [(k, v) for k, v in scope["headers"] if k.lower() != b"accept-encoding"]
        start: Message | None = None
        body: list[bytes] = []

        async def rewrite(message: Message) -> None:
            nonlocal start
            if message["type"] == "http.response.start":
                fields = {k.lower(): v for k, v in message.get("headers", [])}
                html = fields.get(b"content-type", b"").startswith(b"text/html")
                if html and b"content-encoding" not in fields:
                    start = message
                    return
            if start is None:
                await send(message)
                return
            body.append(message.get("body", b""))
            if message.get("more_body"):
                return
            query = scope.get("query_string", b"").decode("latin-1")
            extra = self.body(scope.get("path", ""), query).encode()
            boot = ROOT[:-6] + BOOT_HTML.encode() + b"</div>" + extra
            page = b"".join(body).replace(ROOT, boot, 1)
            if not _without_figures(scope):
                page = page.replace(HEAD_END, self.head + HEAD_END, 1)
            fields = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            await send({**start, "headers": [*fields, (b"content-length", b"%d" % len(page))]})
            await send({"type": "http.response.body", "body": page})

        await self.app({**scope, "headers": headers}, receive, rewrite)
