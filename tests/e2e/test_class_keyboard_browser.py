"""A student joins a class and adds points with the keyboard alone (WCAG 2.1.1), on a phone.

The lecturer's projector is started as in ``test_class_browser.py``; the student never
touches the mouse: Tab to the room's code, type it, Enter; Tab to the canvas, move its
cursor with the arrow keys and place a point with Enter, three times.
"""

from __future__ import annotations

import re

import pytest
from browser import CANVAS, IDLE

from tests.e2e.test_a11y_browser import tab_to
from tests.e2e.test_class_browser import COUNTS, PHONE, counts, start_room

pytestmark = pytest.mark.e2e


def test_a_student_joins_and_adds_points_by_keyboard_alone(browser, app_server) -> None:
    lecturer, projector = start_room(browser, app_server)
    code = re.search(r"room=([A-Z0-9]{6})", projector.inner_text("body"))[1]
    student = browser.new_context(viewport=PHONE)
    student.set_default_timeout(90_000)
    phone = student.new_page()
    phone.goto(f"{app_server.url}/class_room")
    phone.wait_for_selector(IDLE)
    tab_to(phone, "input[aria-label*='join a room']")
    phone.keyboard.type(code.lower())  # as a student may type it
    phone.keyboard.press("Enter")
    phone.wait_for_selector(CANVAS)
    phone.wait_for_selector(IDLE)
    tab_to(phone, CANVAS)
    for n, moves in enumerate(("ArrowLeft", "ArrowUp", "ArrowRight"), start=1):
        for _ in range(10):
            phone.keyboard.press(moves)
        phone.keyboard.press("Enter")
        phone.wait_for_function(
            "(n) => document.body.innerText.includes(`your points: ${n} of`)", arg=n
        )
    projector.wait_for_function(
        "(sel) => document.querySelector(sel).innerText.includes('1 student, 3 points')",
        arg=COUNTS,
        timeout=30_000,
    )
    assert "1 student, 3 points" in counts(projector)
    student.close()
    lecturer.close()
