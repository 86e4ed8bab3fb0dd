"""Fixtures of the real-browser tests: one app server, one Chromium, a page per test.

The server and the browser helpers live in ``bench/`` (``appserver.py``,
``browser.py``), shared with ``bench/ui_latency.py`` and ``bench/load_test.py``.
Screenshots go to ``$KPCA_ARTIFACTS`` if set, else to a new temporary folder;
the run prints where, and where the server's log is (the app shows no
tracebacks, so an exception's details are only there).
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

from appserver import AppServer  # noqa: E402
from browser import CHROMIUM, VIEWPORT, launch_chromium  # noqa: E402

_artifacts: list[Path] = []
"""Folders and files the terminal summary points to."""


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Folder for screenshots: ``$KPCA_ARTIFACTS`` or a new temporary folder."""
    folder = os.environ.get("KPCA_ARTIFACTS")
    path = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="kpca-e2e-"))
    path.mkdir(parents=True, exist_ok=True)
    _artifacts.append(path)
    return path


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    """Debian's Chromium; the browser tests skip (and say why) when it is missing."""
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium to run the browser tests")
    return CHROMIUM


@pytest.fixture(scope="session")
def browser(chromium_path: Path) -> Iterator:
    """One headless Chromium for the whole run."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch_chromium(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def app_server(chromium_path: Path) -> Iterator[AppServer]:
    """The app, started as the README says, on a free port of 127.0.0.1."""
    with AppServer() as server:
        _artifacts.append(server.log_path)
        yield server


@pytest.fixture
def page(browser) -> Iterator:
    """A fresh browser context and page at 1280 × 720; JavaScript errors are collected.

    ``page.js_errors`` lists uncaught exceptions in the page.
    """
    context = browser.new_context(viewport=VIEWPORT)
    context.set_default_timeout(60_000)
    tab = context.new_page()
    tab.js_errors = []
    tab.on("pageerror", lambda error: tab.js_errors.append(str(error)))
    yield tab
    context.close()


def pytest_terminal_summary(terminalreporter) -> None:
    """Say where the screenshots and the server's log (with any traceback) are."""
    for path in _artifacts:
        kind = "screenshots" if path.is_dir() else "server log"
        terminalreporter.write_line(f"e2e {kind}: {path}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """With pytest-xdist's ``--dist loadgroup``, the browser tests share one worker (and its
    app server and Chromium), while the other tests run beside them."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.xdist_group("browser"))
