"""A short random walk in real Chromium on every view (the AppTest walks are tests/monkey.py).

Keys on sliders (arrows, Home, End), clicks on buttons, toggles and checkboxes,
chosen at random with a fixed seed; after each, the page settles with no
exception box, no error, no safety-net message and no JavaScript error.
"""

from __future__ import annotations

import random

import pytest
from appserver import AppServer
from browser import IDLE, VIEWS, open_view

from e2e.test_browser import assert_no_error_shown
from kpca_ui.safety import MESSAGE

pytestmark = pytest.mark.e2e
STEPS = 8
KEYS = ("ArrowRight", "ArrowLeft", "Home", "End", "PageUp")


def settle(page) -> None:
    page.wait_for_timeout(300)
    page.wait_for_selector(IDLE, timeout=120_000)


@pytest.mark.parametrize("view", VIEWS, ids=[view.name for view in VIEWS])
def test_a_short_random_walk_in_the_browser(page, app_server: AppServer, view) -> None:
    rng = random.Random(view.name)
    open_view(page, view, app_server.url)
    done = []
    for _ in range(STEPS):
        main = page.locator('[data-testid="stMain"]')
        sliders = main.locator('[role="slider"]:visible')
        toggles = main.locator('[data-testid="stCheckbox"]:visible label')
        buttons = main.locator('[data-testid="stButton"] button:visible')
        kind = rng.choice(["slider", "slider", "toggle", "button"])
        target = {"slider": sliders, "toggle": toggles, "button": buttons}[kind]
        if target.count() == 0:
            continue
        index = rng.randrange(target.count())
        element = target.nth(index)
        if kind == "slider":
            key = rng.choice(KEYS)
            element.focus()
            page.keyboard.press(key)
            done.append(f"slider {index}: {key}")
        else:
            element.click()
            done.append(f"{kind} {index}")
        settle(page)
        assert_no_error_shown(page)
        assert page.get_by_text(MESSAGE).count() == 0, done
