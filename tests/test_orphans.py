"""Workers die with their server, however it dies (issue #35, item 8).

A real server (``bench/appserver.py``) and one session speaking Streamlit's
websocket protocol (``bench/load_test.py``'s client) open the Spectrum page,
which starts the worker processes and the progress manager.  Then the server's
process alone gets SIGKILL, as the out-of-memory killer would send it: before,
its worker processes ran on (~1 GB, 24 minutes later in the issue).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from appserver import AppServer, tree_pids
from load_test import Record, Scenario, Session
from test_stall import _running
from websockets.asyncio.client import connect

pytestmark = pytest.mark.stall
TIMEOUT_S = 120.0


async def _open_spectrum(url: str) -> None:
    async with connect(
        url.replace("http://", "ws://") + "/_stcore/stream",
        subprotocols=["streamlit"],
        max_size=None,
        ping_interval=None,
    ) as ws:
        record = Record("spectrum")
        session = Session(ws, Scenario("spectrum", "spectrum", ""), record)
        assert await session.run(timeout=TIMEOUT_S) is not None, record.messages


def test_the_workers_end_when_the_server_is_killed() -> None:
    server = AppServer(env={"KPCA_WORKERS": "2", "KPCA_WARMUP": "0"}).start()
    children: list[int] = []
    try:
        # two workers and the progress manager; the sessions' event loop in a thread of its
        # own, as in test_stall (the browser tests' Playwright keeps one running in this one)
        ThreadPoolExecutor(1).submit(asyncio.run, _open_spectrum(server.url)).result()
        children = tree_pids(server.process.pid)[1:]
        assert len(children) >= 3, children
        os.kill(server.process.pid, signal.SIGKILL)  # the server's process only
        server.process.wait(10)
        start = time.monotonic()
        while any(map(_running, children)) and time.monotonic() - start < 10:
            time.sleep(0.1)
        print(
            f"\n{len(children)} child processes of the killed server; all ended "
            f"{time.monotonic() - start:.1f} s after it"
        )
        assert not [pid for pid in children if _running(pid)]
    finally:
        for pid in children:  # what the test started, if the server left it behind
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        server.stop()
