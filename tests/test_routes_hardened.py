"""Every route of a real server against slow, aborted and nested bodies (issue #50, item 5).

uvicorn, which serves ``st.App``, waits for a request's body as long as its client
likes; a body whose client left raised ``ClientDisconnect`` through Streamlit's upload
route into a traceback (4.6 kB of log each).  A real server (``bench/appserver.py``)
and a real session (``bench/load_test.py``'s client, for the upload route's session
and XSRF token) are needed: the answers come from uvicorn and Streamlit's own routes.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from appserver import HOST, AppServer
from load_test import Record, Scenario, Session
from streamlit.web.server.starlette.starlette_app_utils import generate_xsrf_token_string
from websockets.asyncio.client import ClientConnection, connect

pytestmark = pytest.mark.stall
WAIT_S = 60.0
"""How long a test waits for an answer before it counts the connection as held open."""


def run(coroutine):
    """In a thread of its own: a browser test before may keep an event loop running here."""
    return ThreadPoolExecutor(1).submit(asyncio.run, coroutine).result()


@pytest.fixture(scope="module")
def server():
    with AppServer(env={"KPCA_WARMUP": "0", "KPCA_WORKERS": "0"}) as started:
        yield started


@pytest.fixture(scope="module")
def upload_headers(server) -> Iterator[tuple[str, str]]:
    """The path and headers of an upload of a session kept open (its id, an XSRF token)."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()

    async def open_session() -> tuple[ClientConnection, str]:
        url = server.url.replace("http://", "ws://") + "/_stcore/stream"
        ws = await connect(url, subprotocols=["streamlit"], ping_interval=None)
        session = Session(ws, Scenario("home", "home", ""), Record("uploader"))
        await session.run(timeout=120)
        return ws, session.session_id

    ws, session_id = asyncio.run_coroutine_threadsafe(open_session(), loop).result()
    token = generate_xsrf_token_string()
    yield (
        f"/_stcore/upload_file/{session_id}/f1",
        f"Cookie: _streamlit_xsrf={token}\r\nX-Xsrftoken: {token}\r\n"
        "Content-Type: multipart/form-data; boundary=B\r\n",
    )
    asyncio.run_coroutine_threadsafe(ws.close(), loop).result()
    loop.call_soon_threadsafe(loop.stop)
    thread.join()


async def send(port: int, head: str, body: bytes, *, leave: bool = False) -> bytes:
    """One request of ``head`` (method, path, headers) and ``body``, which may be shorter
    than its ``Content-Length`` (1000 then); its answer, or b"held open" after
    :data:`WAIT_S`, or b"" with ``leave`` (the connection closed before the body ends)."""
    reader, writer = await asyncio.open_connection(HOST, port)
    length = len(body) if len(body) > 100 else 1000
    writer.write(f"{head}Content-Length: {length}\r\nHost: {HOST}\r\n\r\n".encode() + body)
    await writer.drain()
    if leave:
        await asyncio.sleep(0.5)
        writer.close()
        return b""
    try:
        return await asyncio.wait_for(reader.read(), WAIT_S)  # until the server closes
    except TimeoutError:
        return b"held open"
    finally:
        writer.close()


def status(answer: bytes) -> bytes:
    return answer.split(b"\r\n", 1)[0]


def test_a_body_that_comes_too_slowly_is_answered_408_and_closed(server, upload_headers):
    """3,000 connections that sent ``Content-Length: 1000`` and one byte stayed open ≥ 30 s."""
    path, headers = upload_headers
    live = send(server.port, "POST /_kpca/live/abc HTTP/1.1\r\n", b"{")
    upload = send(server.port, f"PUT {path} HTTP/1.1\r\n{headers}", b"--B\r\n")

    async def both() -> list[bytes]:
        return await asyncio.gather(live, upload)

    answers = run(both())
    assert [status(answer) for answer in answers] == [b"HTTP/1.1 408 Request Timeout"] * 2
    assert all(b"connection: close" in answer.lower() for answer in answers)


def test_a_body_whose_client_leaves_is_one_log_line_not_a_traceback(server, upload_headers):
    path, headers = upload_headers

    async def three() -> None:
        head = f"PUT {path} HTTP/1.1\r\n{headers}"
        await asyncio.gather(*(send(server.port, head, b"--B\r\n", leave=True) for _ in range(3)))
        await asyncio.sleep(1.0)  # the server sees them leave

    before = server.log_path.read_text(errors="replace")
    run(three())
    logged = server.log_path.read_text(errors="replace")[len(before) :]
    assert "Traceback" not in logged, logged[-2000:]
    assert logged.count("left before sending its body") == 3


@pytest.mark.parametrize("depth", [1_000, 100_000])
@pytest.mark.parametrize(
    "path", ["/_kpca/live/" + "f" * 32, "/_stcore/agent/interact", "/_stcore/agent/mcp"]
)
def test_a_deeply_nested_body_is_refused_4xx_without_a_traceback(server, path, depth):
    body = ("[" * depth + "]" * depth).encode()
    head = f"POST {path} HTTP/1.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
    before = server.log_path.read_text(errors="replace")
    try:
        answer = run(send(server.port, head, body))
    except ConnectionResetError:  # refused before the whole body was read, as it should
        answer = b"HTTP/1.1 4xx (reset before the body was read)"
    logged = server.log_path.read_text(errors="replace")[len(before) :]
    assert status(answer).startswith(b"HTTP/1.1 4"), answer[:200]
    assert "Traceback" not in logged, logged[-2000:]
