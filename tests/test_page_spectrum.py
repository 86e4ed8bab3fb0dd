"""The Spectrum page, driven by widget keys: what it shows, and that scrubbing is cheap."""

from __future__ import annotations

import json

import numpy as np
import pytest
from browser_like import BrowserLike
from conftest import APP, decode
from conftest import figures as sent_figures
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest
from test_bad_links import LIVE_MARKDOWN
from test_links import unescape
from test_page_contours import FakeUpload

from kpca_core import budget
from kpca_core.datasets import three_rings
from kpca_core.spectrum import WidthSweep
from kpca_ui import chart as chart_module
from kpca_ui.points import UPLOAD
from kpca_ui.views import spectrum_sweep


def open_page(**widgets: object) -> AppTest:
    """The Spectrum page after setting the given widgets (by key), in order."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    at.switch_page("app_pages/spectrum.py")
    at.run()
    for key, value in widgets.items():
        _widget(at, key).set_value(value)
        at.run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Spectrum: eigenvalues as the kernel width varies"
    return at


def _widget(at: AppTest, key: str):
    for kind in ("selectbox", "slider", "select_slider", "toggle", "radio", "number_input"):
        found = [w for w in getattr(at, kind) if w.key == key]
        if found:
            return found[0]
    raise KeyError(key)


def figures(at: AppTest) -> dict[str, dict]:
    """The page's plotly figures by name (the part of the chart key after sp_fig_)."""
    found = {}
    for chart in sent_figures(at):
        name = chart.key.rsplit("sp_fig_", 1)[1]
        found[name] = dict(chart.spec)
        found[name]["config"] = chart.config
    return found


def chosen_x(figure: dict) -> float:
    (shape,) = [s for s in figure["layout"]["shapes"] if s.get("name") == "chosen"]
    return shape["x0"]


def texts(at: AppTest) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.caption]
    parts += [i.value for i in at.info] + [e.value for e in at.error]
    return "\n".join(parts)


def chosen_label(at: AppTest) -> str:
    return _widget(at, "sp_at").value


def choose_width(at: AppTest, position: int) -> AppTest:
    """Move the chosen-width slider to the width at this position of the sweep."""
    slider = _widget(at, "sp_at")
    slider.set_value(slider.options[position])
    return at.run()


def test_default_page_draws_the_sweep_and_marks_the_chosen_width() -> None:
    at = open_page()
    shown = figures(at)
    assert set(shown) == {"lines", "components", "heatmap", "bars", "maps"}
    label = chosen_label(at)
    for name in ("lines", "components", "heatmap"):
        assert f"{chosen_x(shown[name]):.3g}" == label
    lines = shown["lines"]
    assert any(a.get("text") == f"σ = {label}" for a in lines["layout"]["annotations"])
    assert lines["layout"]["xaxis"]["type"] == "log"
    assert len(decode(lines["data"][0]["x"])) == 60
    assert shown["bars"]["layout"]["title"]["text"].startswith(f"Spectrum at σ = {label}")
    assert "component 1" in json.dumps(shown["maps"]["layout"]["annotations"])
    filename = shown["lines"]["config"]["toImageButtonOptions"]["filename"]
    assert filename.startswith("spectrum-lines_parabola_300") and "rbf" in filename
    at.session_state["sp_numbers"] = True  # the numbers asked for
    at.run()
    assert at.get("download_button")[0].label == "Download the sweep (CSV)"


def test_the_sweep_plays_in_the_browser_on_request() -> None:
    assert "film" not in figures(open_page())
    at = open_page(sp_film=True)
    film = figures(at)["film"]
    slider = _widget(at, "sp_at")
    assert len(film["frames"]) == len(slider.options) == 60
    (plotly_slider,) = film["layout"]["sliders"]
    assert [step["label"] for step in plotly_slider["steps"]] == slider.options
    assert {step["method"] for step in plotly_slider["steps"]} == {"animate"}
    buttons = film["layout"]["updatemenus"][0]["buttons"]
    assert [button["label"] for button in buttons] == ["▶ play", "❚❚ pause"]


def test_the_limits_are_explained_in_plain_words() -> None:
    page = texts(open_page())
    assert "**Narrow σ**" in page and "identity" in page
    assert "**Wide σ**" in page and "linear PCA" in page
    assert "zero up to rounding" in page  # the clipping report


def test_moving_the_chosen_width_moves_the_marks_and_the_spectrum() -> None:
    at = open_page()
    before = figures(at)
    at = choose_width(open_page(), 10)
    after = figures(at)
    label = chosen_label(at)
    assert f"{chosen_x(after['lines']):.3g}" == label
    assert chosen_x(after["lines"]) < chosen_x(before["lines"])
    assert f"σ = {label}" in after["bars"]["layout"]["title"]["text"]
    assert after["maps"]["layout"]["title"]["text"].endswith(f"σ = {label}")
    # the sweep itself is the same figure data
    assert after["lines"]["data"][0]["y"] == before["lines"]["data"][0]["y"]
    assert decode(after["bars"]["data"][0]["y"])[0] != decode(before["bars"]["data"][0]["y"])[0]


def test_scrubbing_never_recomputes_the_sweep(monkeypatch: pytest.MonkeyPatch) -> None:
    fits = []
    original = WidthSweep.fit

    def counting_fit(self: WidthSweep, X: np.ndarray, *args: object, **kwargs: object):
        fits.append(self.n_widths)
        return original(self, X, *args, **kwargs)

    monkeypatch.setattr(WidthSweep, "fit", counting_fit)
    at = open_page(sp_nw=35)  # a sweep no other test has cached
    assert fits.count(35) == 1
    for position in (3, 20, 30):
        choose_width(at, position)
        assert chosen_label(at) in figures(at)["bars"]["layout"]["title"]["text"]
    _widget(at, "sp_logbars").set_value(True)
    at.run()
    assert figures(at)["bars"]["layout"]["yaxis"]["type"] == "log"
    assert fits.count(35) == 1


def test_a_new_sweep_sends_only_its_numerics_to_the_workers(monkeypatch: pytest.MonkeyPatch):
    """The sweep's own figures (plain dicts, 1-2.5 ms) are built in the server: each trip
    to a worker is a wait in the workers' queue, seconds long when a class slides at once
    (issue #36). The sweep, the maps' fit, the uncentred shares and the two shares at
    Deręgowski & Krzyśko's c go to the workers, and nothing else."""
    sent: list[str] = []
    compute, build = spectrum_sweep.compute, spectrum_sweep.build

    def recorded(send):
        def run(function, *args, **kwargs):
            sent.append(function.__name__)
            return send(function, *args, **kwargs)

        return run

    monkeypatch.setattr(spectrum_sweep, "compute", recorded(compute))
    monkeypatch.setattr(spectrum_sweep, "build", recorded(build))
    at = open_page(sp_data="Three rings, radii 1, 2, 4")
    sent.clear()
    _widget(at, "sp_noise").set_value(0.37)  # new data: a sweep no other test has cached
    at.run()
    assert not at.exception, at.exception
    assert sorted(sent) == ["components_at_figure", "fit", "fit", "fit", "leading_shares"]
    assert set(figures(at)) >= {"bars", "maps", "lines", "components", "heatmap", "centring"}


def test_a_new_sweep_asks_for_the_comparison_beside_the_sweep(monkeypatch: pytest.MonkeyPatch):
    """The uncentred shares and the shares at D&K's c need the widths, not the sweep: they are
    asked for with it (one wait in the workers' queue), before the maps at the chosen width,
    not after them (three waits in turn, seconds each in a class's storm; issue #36)."""
    calls: list[list[str]] = []
    concurrently = spectrum_sweep.concurrently
    compute, build = spectrum_sweep.compute, spectrum_sweep.build
    names: list[str] = []

    def batch(*functions):
        start = len(names)
        results = concurrently(*functions)
        calls.append(names[start:])
        return results

    def recorded(send):
        def run(function, *args, **kwargs):
            names.append(function.__name__)
            return send(function, *args, **kwargs)

        return run

    monkeypatch.setattr(spectrum_sweep, "concurrently", batch)
    monkeypatch.setattr(spectrum_sweep, "compute", recorded(compute))
    monkeypatch.setattr(spectrum_sweep, "build", recorded(build))
    at = open_page(sp_data="Three rings, radii 1, 2, 4")
    calls.clear()
    _widget(at, "sp_noise").set_value(0.41)  # new data: a sweep no other test has cached
    at.run()
    assert not at.exception, at.exception
    assert sorted(calls[0]) == ["fit", "fit", "fit", "leading_shares"]  # one batch
    assert "components_at_figure" in calls[1]
    assert all("leading_shares" not in batch for batch in calls[1:])
    assert set(figures(at)) >= {"bars", "maps", "lines", "components", "heatmap", "centring"}


def test_switching_the_data_set_changes_the_figures() -> None:
    parabola = figures(open_page())
    at = open_page(sp_data="three_rings")
    rings = figures(at)
    assert rings["lines"]["data"][0]["y"] != parabola["lines"]["data"][0]["y"]
    assert rings["heatmap"]["data"][0]["z"] != parabola["heatmap"]["data"][0]["z"]
    assert "three_rings" in rings["lines"]["config"]["toImageButtonOptions"]["filename"]
    page = texts(at)
    assert "Three rings" in page
    # Deręgowski & Krzyśko's claimed maximum, and what the maths gives in both formulations
    assert "c = 0.017" in page
    assert "standard formulation the share rises monotonically" in page
    assert "as the paper solves it) it rises monotonically too" in page
    assert "0.822 centred and 0.897 not centred" in page
    marks = [a["text"] for a in rings["lines"]["layout"]["annotations"] if a.get("name") == "mark"]
    assert marks == ["D&K c = 0.017"]
    both = rings["centring"]
    centred, uncentred = (decode(trace["y"]) for trace in both["data"])
    assert np.all(np.diff(centred) >= -1e-6) and np.all(np.diff(uncentred) >= -1e-6)
    assert not np.allclose(centred, uncentred)
    assert "centring" not in parabola  # only on the three rings


def test_the_degree_sweep_has_its_own_axis_and_explanation() -> None:
    at = open_page(sp_kernel="degree")
    shown = figures(at)
    assert shown["lines"]["layout"]["xaxis"]["type"] == "linear"
    assert "degree d" in shown["lines"]["layout"]["xaxis"]["title"]["text"]
    assert _widget(at, "sp_at").options == [str(d) for d in range(1, 11)]
    assert "**Degree 1** is linear PCA" in texts(at)
    assert shown["bars"]["layout"]["title"]["text"].startswith("Spectrum at d = ")


def test_laplacian_explains_why_its_wide_limit_is_not_linear_pca() -> None:
    at = open_page(sp_kernel="laplacian")
    assert "Laplacian width ℓ" in figures(at)["lines"]["layout"]["xaxis"]["title"]["text"]
    assert "*not* linear PCA" in texts(at)
    assert "k(x, y) = exp(−‖x−y‖₁ / ℓ)" in texts(at)


def test_gaussians_in_r10_show_a_projection_instead_of_contours() -> None:
    at = open_page(sp_data="gaussian_clusters", sp_n=220)
    maps = figures(at)["maps"]
    assert maps["layout"]["title"]["text"].startswith("The data on the first two components")
    assert len(maps["data"]) == 11  # one colour per cluster
    assert all(trace["type"] == "scattergl" for trace in maps["data"])
    assert "Eleven Gaussians in R^10" in unescape(texts(at))  # the data's title, as shown


def test_a_wide_range_labels_the_identity_limit() -> None:
    at = open_page(sp_range=(-8.0, 2.0))
    lines = figures(at)["lines"]
    assert any("K ≈ I" in a.get("text", "") for a in lines["layout"]["annotations"])
    assert "numerically the identity" in texts(at)


def test_the_camera_button_can_save_svg() -> None:
    at = open_page(sp_img="svg")
    for figure in figures(at).values():
        assert figure["config"]["toImageButtonOptions"]["format"] == "svg"


def test_a_numerically_constant_kernel_explains_why_there_are_no_maps() -> None:
    at = open_page(sp_range=(9.5, 10.0), sp_nw=10)
    assert "K is numerically constant" in texts(at)
    choose_width(at, 9)
    assert not at.exception
    assert "rounds to the same number" in texts(at)
    assert "maps" not in figures(at)
    # the spectrum itself is exact there: linear PCA, (λ₁+λ₂)/Σλ = 1
    assert "(λ₁+λ₂)/Σλ = 1.000" in figures(at)["bars"]["layout"]["title"]["text"]


@pytest.mark.parametrize("end", [-8.0, 2.5, 10.0])
def test_a_range_whose_ends_meet_is_explained_not_an_error(end: float) -> None:
    # both ends of the range slider dragged onto one value (the load test's storm did)
    at = open_page(sp_range=(end, end))
    assert not at.error, [e.value for e in at.error]
    assert f"it goes from 10^{end:g} to 10^{end:g}. Drag its two ends apart" in texts(at)
    assert not figures(at)
    _widget(at, "sp_range").set_value((end - 0.5, end) if end > -8 else (end, end + 0.5))
    at.run()
    assert not at.error and "bars" in figures(at)


def test_the_size_limits_are_stated() -> None:
    at = open_page()
    assert "At most 200 widths and 2000 points" in texts(at)
    points = _widget(at, "sp_n")
    assert points.max == 2000 and "At most 2000 points" in points.help


def test_the_laplacian_sweep_of_the_issue_is_refused_with_what_to_reduce():
    """Issue #14, item 8: 2000 points × 200 Laplacian widths took 185 s."""
    at = open_page(sp_kernel="laplacian", sp_nw=200, sp_n=2000)
    error = " ".join(e.value for e in at.error)
    advised = budget.sweep_cost(2000, 200, "laplacian").advice  # 86 widths by issue 53's model
    assert "allows 45 s per request" in error and advised in error
    assert not figures(at)


@pytest.mark.parametrize(
    "key, value",
    [("sp_data", "three_rings"), ("sp_kernel", "laplacian"), ("sp_data", "gaussian_clusters")],
)
def test_the_chosen_width_slider_shows_the_width_the_figures_use_after_a_new_sweep(key, value):
    # Issue #13: after a new data set or kernel the slider sat at its narrowest end
    # (the old sweep's label) while the figures used the width nearest the data
    # scale, and the URL kept the old sp_at.
    browser = BrowserLike(open_page(sp_n=100, sp_nw=20))
    _widget(browser.at, key).set_value(value)
    at = browser.run()
    assert not at.exception, [e.value for e in at.exception]
    assert browser.mismatches() == []
    (shown,) = browser.shown[_widget(at, "sp_at").id]
    assert figures(at)["bars"]["layout"]["title"]["text"].startswith("Spectrum at ")
    assert f"= {shown}" in figures(at)["bars"]["layout"]["title"]["text"]
    assert at.query_params.get("sp_at", shown) == shown
    options = _widget(at, "sp_at").options
    # the width nearest the data's scale, never the degenerate narrow end
    assert 0 < options.index(shown) < len(options) - 1


@pytest.mark.parametrize(
    "name", ["[x](https://evil.example).csv", "![t](https://evil.example/t.png).csv"]
)
def test_an_uploaded_files_name_is_shown_as_literal_text(monkeypatch, name):
    rows = "\n".join(f"{x:.4f},{y:.4f}" for x, y in three_rings(60, 0.1, 0)[0])
    monkeypatch.setattr(
        DeltaGenerator,
        "file_uploader",
        lambda self, *args, **kwargs: FakeUpload(name, rows.encode()),
    )
    at = open_page(sp_data=UPLOAD)
    (caption,) = [c.value for c in at.caption if c.value.startswith("Data: ")]
    assert unescape(caption).endswith(".csv (60 points)")
    assert not LIVE_MARKDOWN.search(caption), caption


def test_a_rerun_sends_the_shared_figures_without_serialising_them_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sweep's figures, re-marked copies, maps and frames are shared by every session and
    never mutated: each is serialised once (issue #36, the server's CPU in a class's storm),
    and a later run sends the same figures."""
    at = choose_width(open_page(sp_data="Three rings, radii 1, 2, 4", sp_nw=45), 12)
    first = {chart.key: chart.spec for chart in sent_figures(at)}
    serialised: list[object] = []
    to_json = chart_module.pio.to_json

    def counted(value, *args, **kwargs):
        serialised.append(value)
        return to_json(value, *args, **kwargs)

    monkeypatch.setattr(chart_module.pio, "to_json", counted)
    at.run()  # the whole script again, nothing changed
    assert not at.exception, at.exception
    assert serialised == []
    # the same figures, and the chosen width's copies marked there (serialised after marking)
    assert {chart.key: chart.spec for chart in sent_figures(at)} == first
    assert f"{chosen_x(figures(at)['lines']):.3g}" == chosen_label(at)
