"""The Denoising side-by-side frames are made for the newest request only, once it settled."""

from __future__ import annotations

import threading
import time

from kpca_ui.views.denoising_cache import Newest


def test_a_waiting_request_is_dropped_for_a_newer_one_and_never_made():
    made: list[str] = []
    frames = Newest(settle_s=0.2)
    first = frames.submit(made.append, "first")
    second = frames.submit(made.append, "second")
    frames.drain()
    assert first.cancelled() and second.done() and not second.cancelled()
    assert made == ["second"]


def test_a_request_soon_after_another_is_made_once_it_has_waited_its_settling_time():
    frames = Newest(settle_s=0.3)
    frames.submit(time.monotonic)
    asked = time.monotonic()
    made = frames.submit(time.monotonic)
    assert made.result(timeout=5) - asked >= 0.3


def test_a_request_after_a_quiet_settling_time_is_made_at_once():
    """A reader who opens the digits, or changes them once, has their frames at once
    (a wait of the settling time would time out)."""
    frames = Newest(settle_s=1.5)
    assert frames.submit(lambda: "first").result(timeout=1.0) == "first"  # none before it
    time.sleep(1.5)  # quiet for the settling time
    assert frames.submit(lambda: "again").result(timeout=1.0) == "again"


def test_a_running_request_is_finished_and_the_newer_made_after_it():
    started, release = threading.Event(), threading.Event()

    def slow() -> str:
        started.set()
        release.wait(5)
        return "slow"

    frames = Newest(settle_s=0.0)
    running = frames.submit(slow)
    assert started.wait(5)
    newer = frames.submit(lambda: "newer")
    release.set()
    assert running.result(timeout=5) == "slow" and newer.result(timeout=5) == "newer"
