"""A lecturer's terminal: a fresh start and a short use print no warning, and say all is ready.

The server is started as the README says (``bench/appserver.py``), with the
level and logger name in every line of Streamlit's log, so that any warning
the server's own process logs reads ``WARNING``; the worker processes log in
Python's default format, which has it too.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from appserver import AppServer
from browser import IDLE, VIEWPORT

pytestmark = pytest.mark.e2e

READY = re.compile(
    r"^Kernel PCA Explorer ready on http://\S+; USPS digits: (real \(\d+\)|fallback \(.+\))$"
)
WARMED = re.compile(r"^Kernel PCA Explorer warm-up finished in \d+ s$")
FINISHED = re.compile(r"^Kernel PCA Explorer warm-up finished")
"""Its line with or without a failed warmer: waited for, then checked to be :data:`WARMED`."""
ALARMS = re.compile(r"WARNING|Warning|missing ScriptRunContext|No runtime found|Traceback")
PAGES = ("", "contours", "spectrum", "denoising", "demo")
"""Home, the three views of the gallery, and the Demo (the warmed default model)."""


def wait_for_line(log: Path, pattern: re.Pattern, timeout: float) -> list[str]:
    """The log's lines once one matches ``pattern`` (fails after ``timeout`` s)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        lines = log.read_text(errors="replace").splitlines()
        if any(pattern.match(line) for line in lines):
            return lines
        time.sleep(0.5)
    pytest.fail(f"no line like {pattern.pattern!r} within {timeout:g} s:\n" + "\n".join(lines))


@pytest.mark.parametrize("digits", ["as_set", "offline"])
def test_a_fresh_start_and_a_short_use_log_no_warning(browser, tmp_path, digits):
    """With the digits the environment gives (CI: the USPS files), and offline without
    them (``KPCA_USPS_DIR`` an empty folder: the 8 × 8 fallback, whose messages are
    drawn by other code than USPS's)."""
    env = {"STREAMLIT_LOGGER_MESSAGE_FORMAT": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    if digits == "offline":
        env["KPCA_USPS_DIR"] = str(tmp_path)
    with AppServer(env=env) as server:
        wait_for_line(server.log_path, READY, 120)
        context = browser.new_context(viewport=VIEWPORT)
        page = context.new_page()
        for path in PAGES:
            page.goto(f"{server.url}/{path}")
            page.wait_for_selector(".js-plotly-plot .main-svg", timeout=120_000)
            page.wait_for_selector(IDLE, timeout=120_000)
        context.close()
        lines = wait_for_line(server.log_path, FINISHED, 300)
    assert sum(bool(READY.match(line)) for line in lines) == 1
    assert sum(bool(WARMED.match(line)) for line in lines) == 1
    alarms = [line for line in lines if ALARMS.search(line)]
    assert alarms == [], "\n".join(lines)
