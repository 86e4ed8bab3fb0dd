"""Something on the page at once: the app's name in the page Streamlit sends, before its code runs.

A first visit shows Streamlit's page, an empty ``<div id="root">``, until the
browser has loaded and run ~2 MB of Streamlit's JavaScript (1-2 s; more on a
lecture hall's network): a blank page.  :class:`BootScreen`, a middleware of
``serve.py``'s app, puts :data:`BOOT_HTML` (the app's name and "Loading …", in
the system's font) inside that ``div``; Streamlit's first drawing replaces it.
Only a page's HTML is changed (uncompressed, 8 kB), never Streamlit's files or
other answers.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

ROOT = b'<div id="root"></div>'
BOOT_HTML = (
    '<div class="kpca-boot" style="font-family: system-ui, sans-serif; padding: 6rem 5rem; '
    'opacity: 0.75">'
    '<div style="font-size: 2.4rem; font-weight: 700">Kernel PCA Explorer</div>'
    '<p style="font-size: 1.1rem">Loading …</p></div>'
)
"""What the page shows until Streamlit has drawn (not a heading: the pages' titles are)."""
NOT_PAGES = ("/_stcore/", "/static/", "/media/", "/component/", "/app/static/")
"""Paths that are never one of the app's pages."""


def _a_page(scope: Scope) -> bool:
    path = scope.get("path", "")
    last = path.rsplit("/", 1)[-1]
    return (
        scope["type"] == "http"
        and scope.get("method") == "GET"
        and "." not in last
        and not any(part in f"{path}/" for part in NOT_PAGES)
    )


class BootScreen:
    """ASGI middleware: a page's HTML gets :data:`BOOT_HTML` in its root ``div``.

    It asks Streamlit for the page uncompressed (the request's ``Accept-Encoding``
    removed), so that it can read it; any other answer passes through untouched.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

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
            page = b"".join(body).replace(ROOT, ROOT[:-6] + BOOT_HTML.encode() + b"</div>", 1)
            fields = [(k, v) for k, v in start["headers"] if k.lower() != b"content-length"]
            await send({**start, "headers": [*fields, (b"content-length", b"%d" % len(page))]})
            await send({"type": "http.response.body", "body": page})

        await self.app({**scope, "headers": headers}, receive, rewrite)
