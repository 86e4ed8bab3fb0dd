"""axe-core (Deque's accessibility engine, shipped in the ``axe-playwright-python`` package, not
fetched from a CDN) over a loaded page and its frames: WCAG 2.1 A and AA rules.

:func:`axe_breaches` lists the serious and critical violations, one line each, for the browser
tests (``test_a11y_browser.py``) and the visual audit (``test_audit.py``).
"""

from __future__ import annotations

from pathlib import Path

import axe_playwright_python

AXE_JS = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")
"""axe-core's script, as the package ships it."""
RULES = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]}}
"""The rules run: WCAG 2.0 and 2.1, levels A and AA."""
SERIOUS = ("serious", "critical")
"""The impacts that fail a state."""
RUN_JS = """(options) => axe.run(document, options).then((results) => results.violations.map(
  (v) => ({id: v.id, impact: v.impact, help: v.help,
           targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')),
           count: v.nodes.length})))"""


def axe_violations(page) -> list[dict]:
    """axe-core's violations of :data:`RULES` in ``page`` and each of its frames (a lesson's
    slides), each with its frame's URL."""
    found = []
    for frame in page.frames:
        try:
            frame.evaluate(AXE_JS)
            violations = frame.evaluate(RUN_JS, RULES)
        except Exception:  # a frame that went away while checked
            continue
        found.extend({**v, "frame": frame.url} for v in violations)
    return found


def axe_breaches(page) -> list[str]:
    """The serious and critical violations in ``page``, one line each."""
    return [
        f"axe {v['impact']}: {v['id']} ({v['help']}) × {v['count']}: {', '.join(v['targets'])}"
        for v in axe_violations(page)
        if v["impact"] in SERIOUS
    ]
