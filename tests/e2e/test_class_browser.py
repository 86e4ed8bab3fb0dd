"""Class mode in a real browser: a lecturer's projector and three students' phones (390 px).

The lecturer starts a room; three phones open its join link, each taps points on
the canvas (in its own group); the projector shows every one of them, live.
"""

from __future__ import annotations

import re

import pytest
from browser import CANVAS, ERROR_ALERT, EXCEPTION, IDLE, VIEWPORT, canvas_xy

pytestmark = pytest.mark.e2e

PHONE = {"width": 390, "height": 844}
COUNTS = ".cl-counts"
TAPS = {
    1: [(-1.0, 1.0), (-0.5, 0.5), (0.0, 0.0)],
    2: [(1.0, -1.0), (0.5, -0.5), (1.5, 0.0)],
    3: [(-1.0, -1.2), (0.3, 1.4), (1.2, 1.2)],
}
"""The points each phone taps, in the plane (the canvas shows ±2); the key is its group."""


def counts(page) -> str:
    return page.locator(COUNTS).inner_text()


def start_room(browser, app_server) -> tuple:
    """A lecturer's browser context and its page, once "Start a room" has opened a room."""
    lecturer = browser.new_context(viewport=VIEWPORT)
    lecturer.set_default_timeout(90_000)
    projector = lecturer.new_page()
    projector.goto(f"{app_server.url}/class_room")
    projector.get_by_role("button", name="Start a room").click()
    projector.wait_for_selector(COUNTS)
    return lecturer, projector


def test_three_phones_points_appear_on_the_projector(browser, app_server, artifacts):
    lecturer, projector = start_room(browser, app_server)
    code = re.search(r"room=([A-Z0-9]{6})", projector.inner_text("body"))[1]
    assert "0 students, 0 points" in counts(projector)

    phones = []
    for group, taps in TAPS.items():
        context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
        context.set_default_timeout(90_000)
        phone = context.new_page()
        phone.js_errors = []
        phone.on("pageerror", lambda error, phone=phone: phone.js_errors.append(str(error)))
        phone.goto(f"{app_server.url}/class_room?room={code}")
        phone.wait_for_selector(CANVAS)
        phone.wait_for_selector(IDLE)
        phone.keyboard.press(str(group))  # the canvas's group picker: 1, 2, 3
        for n, (x, y) in enumerate(taps, start=1):
            phone.locator(CANVAS).focus()
            phone.keyboard.press(str(group))
            phone.mouse.click(*canvas_xy(phone, x, y))
            phone.wait_for_function(
                "(n) => document.body.innerText.includes(`your points: ${n} of`)", arg=n
            )
        phones.append((context, phone))

    projector.wait_for_function(
        "(sel) => document.querySelector(sel).innerText.includes('3 students, 9 points')",
        arg=COUNTS,
        timeout=30_000,
    )
    projector.wait_for_selector(".st-key-cl_points_chart .js-plotly-plot")
    projector.wait_for_timeout(1500)
    drawn = projector.evaluate(
        """() => {
          const graph = document.querySelector('.st-key-cl_points_chart .js-plotly-plot');
          const data = graph.data.find((t) => t.name === 'data');
          return Number(data.x._inputArray ? data.x._inputArray.shape : data.x.length);
        }"""
    )
    assert drawn == 9
    projector.screenshot(path=str(artifacts / "class_projector.png"))
    phones[0][1].screenshot(path=str(artifacts / "class_phone.png"), full_page=True)
    for context, phone in phones:
        assert phone.locator(EXCEPTION).count() == 0
        assert phone.locator(ERROR_ALERT).count() == 0
        assert phone.js_errors == []
        context.close()
    assert projector.locator(EXCEPTION).count() == 0
    lecturer.close()


def test_the_projected_address_carries_no_secret_and_reloads_keep_their_places(browser, app_server):
    """Issue #50, items 6 and 7: the key was in the projected address and gave control in
    any browser; a phone's reload made a new student.  Now the lecturer's browser keeps the
    token in a cookie, the projected address is the code alone, and a phone keeps its id."""
    lecturer, projector = start_room(browser, app_server)
    code = re.search(r"room=([A-Z0-9]{6})", projector.url)[1]
    assert projector.url.endswith(f"/class_room?room={code}")  # nothing else in the address
    alt = projector.locator("img[alt^='QR code of the join address']").get_attribute("alt")
    assert alt.endswith(f"class_room?room={code}")
    projector.wait_for_function(
        "(name) => document.cookie.includes(name)", arg=f"kpca_lecturer_{code}="
    )
    projector.reload()
    projector.wait_for_selector(COUNTS)
    assert projector.locator(".st-key-cl_controls").count() == 1

    stranger = browser.new_context(viewport=VIEWPORT)
    stranger.set_default_timeout(90_000)
    seen = stranger.new_page()
    seen.goto(projector.url)  # the address read off the wall
    seen.wait_for_selector(CANVAS)
    assert seen.locator(".st-key-cl_controls").count() == 0
    assert "You are student 1" in seen.inner_text("body")

    phone_context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    phone_context.set_default_timeout(90_000)
    phone = phone_context.new_page()
    phone.goto(f"{app_server.url}/class_room?room={code}")
    phone.wait_for_selector(CANVAS)
    phone.wait_for_selector(IDLE)
    phone.mouse.click(*canvas_xy(phone, 0.5, 0.5))
    phone.wait_for_function("() => document.body.innerText.includes('your points: 1 of')")
    phone.wait_for_function("() => document.cookie.includes('kpca_student_')")
    phone.reload()
    phone.wait_for_selector(CANVAS)
    phone.wait_for_function(
        "() => document.body.innerText.includes('You are student 2 · your points: 1 of')"
    )
    projector.wait_for_function(
        "(sel) => document.querySelector(sel).innerText.includes('2 students, 1 point')",
        arg=COUNTS,
        timeout=30_000,
    )
    for context in (lecturer, stranger, phone_context):
        context.close()
