"""Plotly's script as ``serve.py`` serves it (kpca_ui/plotly_js.py)."""

from __future__ import annotations

import asyncio
import gzip
from concurrent.futures import ThreadPoolExecutor

from kpca_ui.plotly_js import PLOTLY_JS, PLOTLY_PATH, plotly_route


def get(path: str, accept: str, base: str = "") -> tuple[dict[str, str], bytes]:
    """The route's answer to a GET of ``path`` (ASGI, in this process): headers, body."""
    sent: list[dict] = []
    scope = {
        "type": "http",
        "method": "GET",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"accept-encoding", accept.encode())],
        "http_version": "1.1",
        "scheme": "http",
        "server": ("test", 80),
        "root_path": "",
    }

    requested = []

    async def receive() -> dict:
        if requested:  # then the client waits, connected, until the answer has been sent
            await asyncio.sleep(60)
        requested.append(True)
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    # in a thread of its own: a browser test before may keep an event loop running here
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, plotly_route(base).handle(scope, receive, send)).result()
    headers = {k.decode().lower(): v.decode() for k, v in sent[0]["headers"]}
    return headers, b"".join(m.get("body", b"") for m in sent[1:])


def test_the_script_is_sent_compressed_once_compressed() -> None:
    """To a browser that accepts gzip the route itself sends the script compressed, the
    same bytes each time (compressed once per server): Streamlit's middleware compressed
    its 4.8 MB anew for each first visitor, 0.2 s of the event loop each."""
    answers = [get(PLOTLY_PATH, "gzip, deflate, br") for _ in range(2)]
    for headers, _ in answers:
        assert headers["content-encoding"] == "gzip"
        assert "immutable" in headers["cache-control"]
    assert answers[0][1] == answers[1][1]
    assert gzip.decompress(answers[0][1]) == PLOTLY_JS.read_bytes()
    # a client without gzip gets it as it is
    headers, body = get(f"/base{PLOTLY_PATH}", "identity", base="base")
    assert "content-encoding" not in headers
    assert body == PLOTLY_JS.read_bytes()
