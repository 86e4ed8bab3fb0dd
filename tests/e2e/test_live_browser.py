"""The picture follows the hand (issue #36): a slider's drag shows pictures before its release.

The Spectrum's chosen width has every width's spectrum in the sweep: the page
sends them once with the bars figure (``kpca_ui/chart.py``'s frames) and the
browser draws the one under the thumb while it is dragged.  The Contours
noise is continuous: while its slider is held, the grid's chart sends the value
under the thumb and the server refits there (the newest value winning).  With
``st.plotly_chart`` (as before, or ``KPCA_CHART=plotly``) the figures changed
only after the release.
"""

from __future__ import annotations

import pytest
from browser import IDLE, VIEWS, drag_and_count, open_view, slider_text, url_params

pytestmark = [pytest.mark.e2e]

SPECTRUM = next(view for view in VIEWS if view.name == "spectrum")


def bars_title(page) -> str:
    return page.evaluate(
        "() => document.querySelector('.st-key-sp_fig_bars .js-plotly-plot').layout.title.text"
    )


def test_dragging_the_chosen_width_shows_its_spectrum_before_the_release(page, app_server):
    open_view(page, SPECTRUM, app_server.url)
    started = slider_text(page, SPECTRUM)
    result = drag_and_count(page, SPECTRUM, seconds=2.0, moves=30)
    assert result["before"] > 1, result  # pictures while the thumb was held
    page.wait_for_selector(IDLE)
    released = slider_text(page, SPECTRUM)
    assert released != started
    # the link and the figure are those of the released width, once the server has run
    assert url_params(page)["sp_at"] == [released]
    assert f"= {released}<br>" in bars_title(page)
    assert page.locator(".st-key-sp_fig_bars .js-plotly-plot .main-svg").count() >= 1
    assert not page.js_errors


CONTOURS = next(view for view in VIEWS if view.name == "contours")


def grid_title(page) -> str:
    return page.evaluate(
        "() => document.querySelector('.st-key-ct_contours .js-plotly-plot').layout.title.text"
    )


def test_dragging_the_noise_redraws_the_contour_grid_before_the_release(page, app_server):
    open_view(page, CONTOURS, app_server.url)
    result = drag_and_count(page, CONTOURS, seconds=2.0, moves=30)
    assert result["before"] > 1, result  # grids refitted while the thumb was held
    page.wait_for_selector(IDLE)
    released = float(slider_text(page, CONTOURS))
    assert [float(value) for value in url_params(page)["ct_noise"]] == [released]
    assert f"noise {released:g}," in grid_title(page)
    assert not page.js_errors
