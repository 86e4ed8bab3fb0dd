"""Write a digit on the Demo's pad with the mouse in a real browser: pictures and a verdict."""

from __future__ import annotations

import json

import pytest
from browser import ERROR_ALERT, EXCEPTION
from pad_latency import PAD, RESULT, clear, digit_strokes, open_demo, stroke_to_pictures_ms

pytestmark = pytest.mark.e2e

SEVEN = digit_strokes(1)

TICKS_JS = """
(result) => {
  const graph = document.querySelector(result + ' .js-plotly-plot');
  return graph ? JSON.stringify(graph.layout.xaxis.ticktext) : null;
}
"""


def test_a_digit_written_with_the_mouse_is_cleaned_up_with_a_verdict(page, app_server):
    open_demo(page, app_server.url)
    assert "Nothing is written on the pad yet" in page.locator(RESULT).inner_text()
    stroke_to_pictures_ms(page, SEVEN)
    ticks = [t.replace("<br>", " ") for t in json.loads(page.evaluate(TICKS_JS, RESULT))]
    assert ticks == ["Written by you", "With noise", "Classic method", "Kernel method"]
    words = page.locator(RESULT).inner_text()
    assert "Kernel method: " in words and "Classic method: " in words
    assert page.locator(f"{RESULT} [data-testid='stProgress']").count() == 2  # a bar each
    assert page.locator(PAD).get_attribute("data-strokes") == "1"
    assert "dm_pad=1." in page.url  # the writing is in the link
    clear(page)
    assert "dm_pad" not in page.url
    assert page.locator(EXCEPTION).count() == 0 and page.locator(ERROR_ALERT).count() == 0
    assert page.js_errors == []
