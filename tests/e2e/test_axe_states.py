"""axe-core over every state of the visual audit, on the laptop's, the presenter's and the dark
screens: no serious or critical violation of WCAG 2.1 AA, and every chart named and described.

The states are the audit's (:data:`tests.e2e.test_audit.STATES`: every view's presets, tabs,
both ends of its sliders, a drawing, an upload, each lesson step); only axe and the charts'
words are read, so it takes a page load a state.  Not in
the default run (``-m axe``); CI runs it after the default suite (``.ci/run``).
"""

from __future__ import annotations

import pytest

from tests.e2e.accessibility import axe_breaches
from tests.e2e.audit import SCREENS
from tests.e2e.test_a11y_browser import UNNAMED_JS
from tests.e2e.test_audit import LOAD_TIMEOUT_MS, chosen_states, load_state

pytestmark = [pytest.mark.e2e, pytest.mark.axe]

AXE_SCREENS = [s for s in SCREENS if s.name != "phone"]
"""The issue's screens: the laptop's, the presenter's and the dark theme's."""


@pytest.mark.timeout(7200)
@pytest.mark.parametrize("screen", AXE_SCREENS, ids=[s.name for s in AXE_SCREENS])
def test_every_audit_state_has_no_serious_axe_violation(browser, app_server, tmp_path, screen):
    context = browser.new_context(
        viewport=screen.viewport, color_scheme="dark" if screen.dark else "light"
    )
    context.set_default_timeout(LOAD_TIMEOUT_MS)
    page = context.new_page()
    found = []
    try:
        for view, state, url in chosen_states():
            where = f"{view} · {state}"
            try:
                load_state(page, f"{app_server.url}/{url}", screen, tmp_path)
            except Exception as error:  # a state that did not load is a finding, not a skip
                found.append(f"{where}: did not load: {str(error).splitlines()[0][:100]}")
                continue
            found += [f"{where}: {line}" for line in axe_breaches(page)]
            unnamed = sum(frame.evaluate(UNNAMED_JS) for frame in page.frames)
            if unnamed:
                found.append(f"{where}: {unnamed} charts without words")
    finally:
        context.close()
    assert not found, "\n".join(found)
