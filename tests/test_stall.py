"""A heavy request does not stall the others, and the server stops promptly (issue #14).

A real server (``bench/appserver.py``, as the e2e tests) and two sessions
speaking Streamlit's websocket protocol (``bench/load_test.py``'s client):
one asks for the most expensive request the budget allows (a Laplacian sweep
of 35 widths on 2000 points, ~45 s of one core by ``kpca_core.budget``), the
other redraws the Fig. 2 preset meanwhile.  Then SIGTERM goes to the server
while the heavy sweep still runs.

Tests never assert wall time, except here: the issue asks for this bound, so
it is asserted, generously (:data:`REDRAW_LIMIT_S` for the median redraw,
stated in the issue), and every measurement is printed.  The machine may be
shared with other work, which slows both sessions alike.
"""

from __future__ import annotations

import asyncio
import os
import signal
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlencode

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from appserver import AppServer, tree_pids
from browser import FIG2_LINK
from load_test import Record, Scenario, Session
from websockets.asyncio.client import connect

pytestmark = pytest.mark.stall

HEAVY_LINK = urlencode(
    {
        "sp_data": "Three rings, radii 1, 2, 4",
        "sp_n": 2000,
        "sp_kernel": "Laplacian: width ℓ",
        "sp_nw": 35,
    }
)
REDRAW_LIMIT_S = 2.0
"""The issue's bound on a second session's redraw while the heavy request runs."""
STOP_LIMIT_S = 3.0
"""SIGTERM to exit, the issue's "promptly"."""
TIMEOUT_S = 120.0


async def _open(url: str, scenario: Scenario) -> tuple[Session, Record, object]:
    ws = await connect(
        url.replace("http://", "ws://") + "/_stcore/stream",
        subprotocols=["streamlit"],
        max_size=None,
        ping_interval=None,
    )
    record = Record(scenario.name)
    return Session(ws, scenario, record), record, ws


async def _scenario(url: str) -> dict:
    light, light_record, light_ws = await _open(
        url, Scenario("contours", "contours", FIG2_LINK, sliders=("ct_noise",))
    )
    assert await light.run(timeout=TIMEOUT_S) is not None
    slider = next(iter(light.sliders.values()))
    values = [0.21, 0.22, 0.23, 0.24, 0.25, 0.26, 0.27, 0.28]

    async def redraw(value: float) -> float:
        slider.value = [value]
        times = await light.run(fragment_id=slider.fragment_id, timeout=TIMEOUT_S)
        assert times is not None, light_record.messages
        return times[0]

    alone = [await redraw(value) for value in values[:3]]
    heavy, heavy_record, heavy_ws = await _open(url, Scenario("spectrum", "spectrum", HEAVY_LINK))
    started = time.monotonic()
    heavy_run = asyncio.create_task(heavy.run(timeout=TIMEOUT_S))
    await asyncio.sleep(3.0)  # the sweep is under way in a worker
    beside = [await redraw(value) for value in values[3:]]
    still_running = not heavy_run.done()
    heavy_run.cancel()
    return {
        "alone": alone,
        "beside": beside,
        "still_running": still_running,
        "heavy_s": time.monotonic() - started,
        "errors": light_record.messages + heavy_record.messages,
        "sockets": (light_ws, heavy_ws),
    }


def test_a_heavy_request_does_not_stall_another_session_and_sigterm_is_prompt() -> None:
    server = AppServer(env={"KPCA_WORKERS": "2"}).start()
    # The sessions' event loop runs in a thread of its own: the browser tests'
    # Playwright keeps a loop running in this one for the whole test session.
    loop = asyncio.new_event_loop()
    thread = ThreadPoolExecutor(1)
    try:
        result = thread.submit(loop.run_until_complete, _scenario(server.url)).result()
        children = tree_pids(server.process.pid)[1:]
        start = time.monotonic()
        os.kill(server.process.pid, signal.SIGTERM)  # the server only, as `kill <pid>` does
        server.process.wait(30)
        stop_s = time.monotonic() - start
        # the workers are ended by the server; multiprocessing's resource tracker
        # ends by itself once the server's end of its pipe closes
        while any(map(_running, children)) and time.monotonic() - start < stop_s + 5:
            time.sleep(0.05)
        children_s = time.monotonic() - start
        for ws in result["sockets"]:
            thread.submit(loop.run_until_complete, ws.close()).result()
        thread.submit(loop.close).result()
    finally:
        thread.shutdown()
        server.stop()
    alone, beside = result["alone"], result["beside"]
    print(
        f"\nredraw of the Fig. 2 preset alone: {', '.join(f'{t:.2f}' for t in alone)} s; "
        f"beside the heavy sweep: {', '.join(f'{t:.2f}' for t in beside)} s "
        f"(median {statistics.median(beside):.2f} s; the sweep was "
        f"{'still running' if result['still_running'] else 'done'} after "
        f"{result['heavy_s']:.1f} s); SIGTERM to exit: {stop_s:.2f} s, "
        f"to the end of its {len(children)} child processes: {children_s:.2f} s"
    )
    assert not result["errors"]
    assert result["still_running"], "the heavy sweep ended before the redraws: nothing shown"
    assert statistics.median(beside) <= REDRAW_LIMIT_S
    assert stop_s <= STOP_LIMIT_S
    assert not [pid for pid in children if _running(pid)]


def _running(pid: int) -> bool:
    """Whether a process exists and has not ended (a zombie awaits only its reaping)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"
