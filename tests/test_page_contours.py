"""The Contours page through Streamlit's AppTest: widgets set by key, figures read back."""

from __future__ import annotations

import base64
import json
import re
import struct
import tomllib
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser_like import BrowserLike
from conftest import APP, chart, decode, figures, key_of, open_view, sent_payload
from streamlit.delta_generator import DeltaGenerator
from streamlit.testing.v1 import AppTest
from test_bad_links import LIVE_MARKDOWN
from test_links import unescape

from kpca_core import budget
from kpca_core import contours as ct
from kpca_core.datasets import parabola
from kpca_ui import live
from kpca_ui.points import UPLOAD, PointSet
from kpca_ui.presenter import KEY, NOTICE_CLASS
from kpca_ui.views import contours_grid, rings
from kpca_ui.views.contours_grid import HELD_RESOLUTION


def page(**state: object) -> AppTest:
    """The Contours page after one run with these session-state values."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("app_pages/contours.py")
    for key, value in state.items():
        at.session_state[key] = value
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == "Contours of kernel principal components"
    return at


def config(at: AppTest, key: str) -> dict:
    (found,) = [c.config for c in figures(at) if c.key == key]
    return found


def traces(spec: dict, kind: str) -> list[dict]:
    return [trace for trace in spec["data"] if trace["type"] == kind]


def panels(spec: dict) -> list[dict]:
    """The panels that show a component: one colour image each (layout images)."""
    return [image for image in spec["layout"].get("images", []) if image.get("name") != "data"]


def png_size(image: dict) -> tuple[int, int]:
    """Width and height of a panel's PNG (a ``data:image/png;base64`` URI)."""
    png = base64.b64decode(image["source"].split(",", 1)[1])
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def texts(spec: dict) -> list[str]:
    return [a["text"].replace("<br>", " ") for a in spec["layout"].get("annotations", [])]


def titles(spec: dict) -> list[str]:
    return [text for text in texts(spec) if "kPC" in text]


def shown(at: AppTest, element: str) -> str:
    return " ".join(item.value for item in getattr(at, element))


def test_the_page_opens_on_fig2():
    at = page()
    spec = chart(at, "ct_contours")
    assert len(titles(spec)) == 12
    assert len(panels(spec)) == 11
    assert "What to look at" in shown(at, "info")


def test_the_fig2_preset_gives_the_3_by_4_grid_of_the_paper():
    at = page(ct_kernel="rbf", ct_sweep="sigma", ct_values="0.5, 1", ct_k=5, ct_data="moons")
    assert len(titles(chart(at, "ct_contours"))) == 10
    at.button(key="ct_preset_fig2").click().run()
    assert not at.exception
    assert at.session_state["ct_kernel"] == "poly"
    assert at.session_state["ct_data"] == "parabola"
    spec = chart(at, "ct_contours")
    heads = titles(spec)
    assert len(heads) == 12
    expected = [f"degree {d} · kPC {r}" for r in (1, 2, 3) for d in (1, 2, 3, 4)]
    assert [head.split(" λ")[0].replace("<b>", "").replace("</b>", "") for head in heads] == [
        e if e != "degree 1 · kPC 3" else "degree 1 · kPC 3 —" for e in expected
    ]
    # the degree-1 column has no third component; every other panel is drawn
    assert len(panels(spec)) == 11
    assert any(
        "no 3rd component" in text and "only two non-zero eigenvalues" in text
        for text in texts(spec)
    )
    # titles carry the eigenvalues of the same computation outside the app
    X, _ = parabola(300, 0.2, 0)
    fit = ct.fit_column(X, ct.KernelSpec("poly", degree=2, gamma=1.0, coef0=0.0), n_components=3)
    assert f"λ = {fit.eigenvalues[2]:.3g} ({fit.shares[2]:.1%})" in heads[2 * 4 + 1]
    assert all(png_size(image) == (100, 100) for image in panels(spec))
    assert "What to look at" in shown(at, "info")
    assert "picks up the variance caused by the noise" in shown(at, "info")
    assert config(at, "ct_contours")["toImageButtonOptions"]["filename"] == (
        "contours_poly_degree-1-2-3-4_gamma1_c0_k3"
    )


def test_a_shared_url_opens_the_same_view():
    """Every setting is bound to the URL; a link with them reproduces the figure."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("app_pages/contours.py")
    url = {
        "ct_data": "three_rings",
        "ct_kernel": "Gaussian",
        "ct_sweep": "width σ",
        "ct_values": "0.5, 2",
        "ct_k": "2",
        "ct_pca": "true",
        "ct_center": "false",
        "ct_pcol": "σ = 2",
        "ct_img": "SVG",
    }
    for key, value in url.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception
    heads = titles(chart(at, "ct_contours"))
    assert [head.split(" λ")[0] for head in heads] == [
        f"<b>{label}</b> · kPC {r}" for r in (1, 2) for label in ("linear PCA", "σ = 0.5", "σ = 2")
    ]
    assert "**linear PCA**: always centres the data" in shown(at, "info")
    assert chart(at, "ct_projection")["layout"]["title"]["text"].startswith("σ = 2:")
    assert config(at, "ct_contours")["toImageButtonOptions"]["filename"].endswith("_uncentred")


def test_the_rings_preset_says_which_component_carries_the_radius():
    at = page()
    at.button(key="ct_preset_rings").click().run()
    assert not at.exception
    spec = chart(at, "ct_contours")
    assert titles(spec)[0].startswith("<b>linear PCA</b> · kPC 1")
    assert len(titles(spec)) == 4 * 3
    projection = chart(at, "ct_projection")
    assert [trace["name"] for trace in projection["data"]] == ["0", "1", "2"]
    assert projection["layout"]["title"]["text"] == "σ = 2: the data in kPC 1 and kPC 2"
    assert rings.RINGS_CAPTION in shown(at, "info")
    assert at.button(key="ct_preset_rings").help == rings.RINGS_HELP
    assert not [c for c in figures(at) if c.key == "ct_fig5"]
    # uncentred, the caption's numbers no longer describe the picture: it goes
    at.toggle(key="ct_center").set_value(False).run()
    assert "What to look at" not in shown(at, "info")


def notices(at: AppTest) -> list[str]:
    """Presenter mode's lines of what to notice."""
    return [m.value for m in at.markdown if NOTICE_CLASS in m.value]


def test_presenter_modes_line_describes_the_grid_shown():
    at = page()
    said = tomllib.loads((Path(live.__file__).parent / "texts.toml").read_text("utf-8"))["notices"]
    for preset, line in (
        ("fig2", said["ct_fig2"]),
        ("rings", said["ct_rings"]),
        ("dk5", said["ct_contours"]),
    ):
        at.toggle(key=KEY).set_value(False).run()  # presenter mode draws no preset buttons
        at.button(key=f"ct_preset_{preset}").click().run()
        at.toggle(key=KEY).set_value(True).run()
        assert line in notices(at)[0]


def test_the_dk_fig5_preset_shows_both_readings_side_by_side():
    at = page()
    at.button(key="ct_preset_dk5").click().run()
    assert not at.exception
    assert at.text_input(key="ct_values").value == "5.423"
    spec = chart(at, "ct_fig5")
    assert len(spec["data"]) == 6  # three rings in each of two panels
    assert spec["layout"]["yaxis"]["title"]["text"] == "kPC 3 (|ρ| 0.96)"
    assert spec["layout"]["xaxis2"]["title"]["text"] == "kPC 1 (|ρ| 0.96)"
    words = shown(at, "markdown")
    assert "**Centred in F**: the radius is kPC 3 (|Spearman ρ| with ‖x‖ 0.96" in words
    assert "**Not centred in F**: the radius is kPC 1" in words
    assert rings.WHY_CENTRING in shown(at, "info")
    assert config(at, "ct_fig5")["toImageButtonOptions"]["filename"].endswith("fig5")


def test_a_tiny_sigma_is_explained_on_the_page_and_in_the_panel():
    at = page(ct_kernel="rbf", ct_sweep="sigma", ct_values="0.001, 1")
    warning = shown(at, "warning")
    assert warning.startswith("**σ = 0.001**: σ is so small that every point is its own")
    assert "σ = 0.001" not in warning.removeprefix("**σ = 0.001**")  # said once
    spec = chart(at, "ct_contours")
    assert len(panels(spec)) == 3
    assert any("every point is its own component" in text for text in texts(spec))


def test_a_huge_sigma_says_the_kernel_matrix_is_nearly_constant():
    at = page(ct_kernel="rbf", ct_sweep="sigma", ct_values="300, 1e4")
    assert "kernel matrix is nearly constant" in shown(at, "info")
    spec = chart(at, "ct_contours")
    # coloured panels (the figure refuses values that are not finite); at σ = 1e4
    # the third component's λ (~4e-18) is rounding noise: flat, not traced (#14)
    assert "**σ = 10000**: kPC 3 is flat" in shown(at, "info")
    assert len(panels(spec)) == 5
    assert all(png_size(image) == (100, 100) for image in panels(spec))


def test_the_sigma_slider_shows_gamma():
    at = page(ct_kernel="rbf", ct_sweep="none", ct_sigma=0.5)
    assert at.select_slider(key="ct_sigma").value == 0.5
    assert "γ = 2" in shown(at, "caption")
    assert len(titles(chart(at, "ct_contours"))) == 3


def test_an_indefinite_sigmoid_says_how_negative():
    at = page(ct_kernel="sigmoid", ct_sweep="c", ct_values="0, 1", ct_gamma=3.0)
    info = shown(at, "info")
    assert "is indefinite: its most negative eigenvalue is" in info
    assert "% of the largest" in info


def test_the_sigmoid_sweep_says_indefinite_once_for_all_its_columns():
    """Four near-identical boxes (one per c) pushed the grid to y ≈ 1100 (issue #31)."""
    at = page(ct_kernel="sigmoid")
    notices = [item.value for item in at.info if "indefinite" in item.value]
    assert len(notices) == 1
    (notice,) = notices
    assert notice.startswith("**c = 1, 2, 3, 4**: the kernel is indefinite")
    assert notice.count("%") == 5  # each column's share, then the shares' 100 %
    assert len(notice) < 300


def test_notices_never_repeat_their_columns_label():
    at = page(ct_kernel="rbf", ct_sweep="sigma", ct_values="0.01, 300")
    for notice in [*at.info, *at.warning]:
        label, _, rest = notice.value.partition("**: ")
        assert label.strip("*") not in rest, notice.value


def test_the_linear_kernel_has_one_column_and_explains_its_third_row():
    at = page(ct_kernel="linear", ct_sweep="none")
    spec = chart(at, "ct_contours")
    assert len(titles(spec)) == 3
    assert len(panels(spec)) == 2
    assert any("the linear kernel in 2-D has only two" in text for text in texts(spec))


def test_bad_values_are_reported_and_the_defaults_shown():
    at = page(ct_values="1, two")
    # the user's text is shown literally: markdown's backslash escapes resolved
    assert "'two' is not a number" in re.sub(r"\\(.)", r"\1", shown(at, "error"))
    assert "Showing 1, 2, 3, 4 instead" in shown(at, "error")
    assert len(titles(chart(at, "ct_contours"))) == 12


def test_more_components_add_rows_and_the_projection_explains_a_missing_one():
    at = page(ct_k=8, ct_pcol="degree 1", ct_pi=1, ct_pj=3)
    spec = chart(at, "ct_contours")
    assert len(titles(spec)) == 4 * 8
    projection = chart(at, "ct_projection")
    assert projection["data"] == []
    assert "no 3rd component" in texts(projection)[0]


def test_the_camera_button_can_save_svg_and_the_numbers_download_as_csv():
    at = page(ct_img="svg")
    assert config(at, "ct_contours")["toImageButtonOptions"]["format"] == "svg"
    assert config(at, "ct_projection")["toImageButtonOptions"]["format"] == "svg"
    assert not at.get("download_button")  # made when the numbers are asked for
    at.session_state["ct_numbers"] = True  # the popover opened
    at.run()
    labels = [button.proto.label for button in at.get("download_button")]
    assert labels == [
        "Eigenvalues (CSV)",
        "Points' components (CSV)",
        "Values on the grid (CSV)",
    ]


def test_an_overflowing_polynomial_on_uploaded_data_is_explained():
    """Degree 10 on coordinates of 1e16: the uploaded data come in as the last good set."""
    X = parabola(50, 0.2, 0)[0] * 1e16
    uploaded = PointSet(X, None, "huge.csv (50 points)", ("upload", "huge"))
    at = page(ct_data=UPLOAD, ct_last_good=uploaded, ct_values="2, 10")
    warning = shown(at, "warning")
    assert "(x·y)^10 overflows on these data" in warning
    assert "Lower the degree" in warning
    spec = chart(at, "ct_contours")
    assert len(panels(spec)) == 3  # degree 2 is fine
    assert any("overflows" in text for text in texts(spec))


@dataclass
class FakeUpload:
    """What ``st.file_uploader`` returns, for a file AppTest cannot upload."""

    name: str
    data: bytes

    def getvalue(self) -> bytes:
        return self.data


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"x,y\n1,2\n3,abc\n", "non-numeric"),
        (b"", "The file is empty"),
        (b"1\n2\n3\n", "only one column"),
        (b"\x00\x01\x02binary", "not a text file"),
        # issue #14, item 6: each of these raised inside the page
        (b"1" + b"0" * 400 + b",2\n3,4\n", "characters"),
        (b"1e308,1e308\n-1e308,1e308\n0,0\n5e307,-1e308\n", "Rescale"),
        (b"1e-300,2e-300\n3e-300,1e-300\n2e-300,2e-300\n", "Rescale"),
        (",".join(["1"] * 1_050_000).encode(), "1050000 columns"),
    ],
)
def test_a_bad_csv_shows_the_message_and_keeps_the_last_good_data(monkeypatch, data, message):
    at = page(ct_data="moons", ct_n=120)
    good = chart(at, "ct_contours")
    monkeypatch.setattr(
        DeltaGenerator, "file_uploader", lambda self, *args, **kwargs: FakeUpload("bad.csv", data)
    )
    at.session_state["ct_data"] = UPLOAD
    at.run()
    assert not at.exception
    error = shown(at, "error")
    assert "**bad.csv** cannot be used" in unescape(error) and message in unescape(error)
    spec = chart(at, "ct_contours")
    points = traces(spec, "scatter")[0]
    assert len(decode(points["x"])) == 120  # still the moons
    assert titles(spec) == titles(good)


EVIL_NAMES = ["[x](https://evil.example).csv", "![t](https://evil.example/t.png).csv"]
"""File names that markdown would turn into a link, or an image the browser fetches."""


def upload(monkeypatch: pytest.MonkeyPatch, name: str, data: bytes) -> None:
    monkeypatch.setattr(
        DeltaGenerator, "file_uploader", lambda self, *args, **kwargs: FakeUpload(name, data)
    )


@pytest.mark.parametrize("name", EVIL_NAMES)
def test_an_uploaded_files_name_is_echoed_as_literal_text(monkeypatch, name):
    upload(monkeypatch, name, b"x,y\n1,2\n3,abc\n")
    at = page(ct_data=UPLOAD)
    assert not at.exception
    error = shown(at, "error")
    assert unescape(error).startswith(f"**{name}** cannot be used")
    assert not LIVE_MARKDOWN.search(error.replace("**", "")), error  # the bold is ours
    upload(monkeypatch, name, "\n".join(f"{x},{y}" for x, y in parabola(40)[0]).encode())
    at.run()
    assert not at.exception and not shown(at, "error")
    title = chart(at, "ct_contours")["layout"]["title"]["text"]
    assert "(40 points)" in title and not re.search(r"[\[\]()<>!:/]", title.split(" (40")[0])


def test_a_good_csv_is_drawn_with_its_groups(monkeypatch):
    rows = "\n".join(f"{x:.4f},{y:.4f},{'ab'[i % 2]}" for i, (x, y) in enumerate(parabola(40)[0]))
    monkeypatch.setattr(
        DeltaGenerator,
        "file_uploader",
        lambda self, *args, **kwargs: FakeUpload("mine.csv", ("x,y,g\n" + rows).encode()),
    )
    at = page(ct_data=UPLOAD)
    assert not shown(at, "error")
    spec = chart(at, "ct_contours")
    assert len(decode(traces(spec, "scatter")[0]["x"])) == 40
    assert [trace["name"] for trace in chart(at, "ct_projection")["data"]] == ["a", "b"]


def test_an_upload_of_600_groups_is_drawn_as_the_largest_ten_and_others(monkeypatch):
    rows = "\n".join(f"{x:.6f},{y:.6f},g{i}" for i, (x, y) in enumerate(parabola(600)[0]))
    monkeypatch.setattr(
        DeltaGenerator,
        "file_uploader",
        lambda self, *args, **kwargs: FakeUpload("groups.csv", rows.encode()),
    )
    at = page(ct_data=UPLOAD, ct_res=40, ct_values="2", ct_k=2)
    assert not at.exception and not shown(at, "error")
    assert "600 groups" in shown(at, "info")
    names = [trace["name"] for trace in chart(at, "ct_projection")["data"]]
    assert len(names) == 11 and "others" in names


def test_changing_one_value_refits_only_that_column(monkeypatch):
    """Fits are cached per column: a new value costs one fit, a finer grid none
    (for fits estimated above ``ONE_CALL_S``; a cheaper fit is made with its grid)."""
    monkeypatch.setattr(contours_grid, "ONE_CALL_S", 0.0)
    calls = []
    fit_column = ct.fit_column

    def counting(X, spec, **kwargs):
        calls.append(spec)
        return fit_column(X, spec, **kwargs)

    monkeypatch.setattr(ct, "fit_column", counting)
    at = page(ct_seed=987_654)  # data no other test has fitted
    assert len(calls) == 4
    at.text_input(key="ct_values").set_value("1, 2, 3, 5").run()
    assert [spec.degree for spec in calls[4:]] == [5]
    at.select_slider(key="ct_res").set_value(60).run()
    assert len(calls) == 5
    spec = chart(at, "ct_contours")
    assert png_size(panels(spec)[0]) == (60, 60)


def test_a_noise_change_on_the_papers_grid_is_one_call_to_a_worker(monkeypatch):
    """A noise change on the Fig. 2 preset: its four polynomial columns, priced by their
    features (kpca_core.budget), and its figure in one trip to a worker, not one per
    column and one more for the figure (issue #36)."""
    calls = []
    compute = contours_grid.compute

    def counting(function, *args, **kwargs):
        calls.append(function.__name__)
        return compute(function, *args, **kwargs)

    monkeypatch.setattr(contours_grid, "compute", counting)
    at = page(ct_seed=55_555)  # data no other test has fitted
    at.slider(key="ct_noise").set_value(0.23).run()
    assert not at.exception
    assert calls[len(calls) // 2 :] == ["sweep_and_figure_json"]
    assert len(panels(chart(at, "ct_contours"))) == 11


def test_an_unforeseen_engine_failure_is_a_message_not_a_traceback(monkeypatch):
    def failing(X, spec, **kwargs):
        raise RuntimeError("ARPACK did not converge")

    monkeypatch.setattr(ct, "fit_column", failing)
    at = page(ct_seed=424_242)  # data no other test has fitted
    warning = shown(at, "warning")
    assert "the eigensolver failed (ARPACK did not converge)" in warning
    spec = chart(at, "ct_contours")
    assert panels(spec) == []
    assert len(titles(spec)) == 12


def test_the_sigmoid_grid_of_the_issue_is_refused_before_any_fit(monkeypatch):
    """Issue #14, item 8: 2000 points, resolution 200, 8 components, 6 offsets (38 s then,
    2.3 s of one core by issue 53's model): a budget that admits 3 of its columns."""
    calls = []
    monkeypatch.setattr(ct, "fit_column", lambda *args, **kwargs: calls.append(args))
    three, four = (
        budget.contour_seconds(2000, ["sigmoid"] * n, budget.MIN_RESOLUTION) for n in (3, 4)
    )
    monkeypatch.setattr(budget, "REQUEST_BUDGET_S", (three + four) / 2)
    at = page(
        ct_n=2000,
        ct_res=200,
        ct_k=8,
        ct_kernel="sigmoid",
        ct_sweep="c",
        ct_values="-1, -0.5, 0, 0.5, 1, 2",
    )
    error = shown(at, "error")
    assert "s per request" in error and "at most 3 columns" in error
    assert calls == [] and not figures(at)


def test_a_grid_above_the_budget_is_drawn_coarser_with_a_notice(monkeypatch):
    X = parabola(300, 0.2, 0)[0]  # Fig. 2's points
    columns = contours_grid.priced(ct.sweep_specs(ct.KernelSpec("poly"), "degree", (1, 2, 3, 4)), X)
    at_50, at_100 = (budget.contour_seconds(300, resolution=r, **columns) for r in (50, 100))
    monkeypatch.setattr(budget, "REQUEST_BUDGET_S", (at_50 + at_100) / 2)  # Fig. 2 fits at 50
    at = page(ct_seed=424_243)  # not the seed whose fits the failing-engine test cached
    assert "Drawn at grid resolution 50 instead of 100" in shown(at, "info")
    assert png_size(panels(chart(at, "ct_contours"))[0]) == (50, 50)


def projection_title(at: AppTest) -> str:
    return chart(at, "ct_projection")["layout"]["title"]["text"]


def assert_consistent(browser: BrowserLike) -> None:
    """No exception, and the Column box shows the column the scatter is drawn for."""
    at = browser.at
    assert not at.exception, [e.value for e in at.exception]
    assert browser.mismatches() == []
    shown = browser.shown[at.selectbox(key="ct_pcol").id]
    assert projection_title(at).startswith(f"{shown}:"), (shown, projection_title(at))


@pytest.mark.parametrize(
    "steps",
    [
        [("selectbox", "ct_kernel", "rbf"), ("slider", "ct_k", 4)],
        [("selectbox", "ct_kernel", "rbf"), ("slider", "ct_noise", 0.3)],
        [("selectbox", "ct_kernel", "rbf"), ("selectbox", "ct_kernel", "poly")],
        [("button", "ct_preset_rings", None), ("button", "ct_preset_fig2", None)],
        [("button", "ct_preset_rings", None), ("button", "ct_preset_rings", None)],
        [("button", "ct_preset_rings", None), ("checkbox", "ct_pca", False)],
    ],
    ids=[
        "gaussian-components",
        "gaussian-noise",
        "gaussian-poly",
        "rings-fig2",
        "rings-twice",
        "rings-no-pca",
    ],
)
def test_the_projection_column_follows_every_change_of_the_columns(steps):
    # Issue #13: the Column box kept the label of an old column ("degree 4") under
    # a new column list, and sent it back as a string on the next change.
    browser = BrowserLike(page())
    for kind, key, value in steps:
        widget = getattr(browser.at, kind)(key=key)
        widget.click() if kind == "button" else widget.set_value(value)
        browser.run()
        assert_consistent(browser)


@pytest.mark.parametrize(
    ("measured", "width"),
    [({"width": 358}, 358), ({"width": 1200}, 820), ({"width": 12}, 820), ("junk", 820)],
)
def test_the_grid_is_planned_for_the_width_the_browser_measured(measured, width):
    at = open_view("contours", state={contours_grid.SCREEN: measured})
    figure = chart(at, "ct_contours")
    assert figure["layout"]["width"] == width
    centres = {round(a["x"], 6) for a in figure["layout"]["annotations"] if "kPC" in a["text"]}
    assert len(centres) == (2 if width == 358 else 4)  # a phone: two columns side by side
    assert [e.proto.id for e in at.get("bidi_component") if e.proto.id.endswith("ct_screen")]
    # on a phone the kernel controls fold away, so that the figure comes first (issue #31)
    assert [e.label for e in at.expander if e.label == "Kernel and columns"] == (
        ["Kernel and columns"] if width == 358 else []
    )


def test_values_from_a_link_that_cannot_be_used_leave_the_url_for_the_default():
    at = open_view("contours", query={"ct_values": "0, -1, abc"})
    assert "Showing 1, 2, 3, 4 instead" in shown(at, "error")
    assert at.text_input(key="ct_values").value == "1, 2, 3, 4"
    assert "ct_values" not in at.query_params
    assert len(titles(chart(at, "ct_contours"))) == 12


def held(at: AppTest, value: object, slider: str = "ct_noise") -> dict:
    """The grid's figure the browser gets while ``slider`` is held at ``value`` (the live
    endpoint's answer, :mod:`kpca_ui.live`), for the page as ``at`` last drew it."""
    (element,) = [e for e in at.get("bidi_component") if key_of(e) == "ct_contours"]
    token = sent_payload(element)["live"]["url"].rsplit("/", 1)[-1]
    source, key, asked = live.asked(token, slider, str(value))
    return json.loads(source.figure_json(key, asked))


def test_a_held_noise_slider_draws_the_grid_at_the_value_under_its_thumb():
    at = open_view("contours")
    drawn = chart(at, "ct_contours")
    assert "noise 0.2," in drawn["layout"]["title"]["text"]
    assert "noise 0.6," in held(at, 0.6)["layout"]["title"]["text"]  # the picture follows
    assert "noise 0.6," in held(at, "0.6")["layout"]["title"]["text"]  # the same, kept
    at.run()  # no script ran meanwhile: the page, its slider and the link as they were
    assert chart(at, "ct_contours") == drawn
    assert at.slider(key="ct_noise").value == 0.2
    assert "ct_noise" not in at.query_params
    for wrong in (5.0, -1, "abc", "nan", "inf", ""):
        with pytest.raises(live.Refused, match="not") as refused:
            held(at, wrong)
        assert refused.value.status == 422, wrong
    with pytest.raises(live.Refused, match="does not follow"):
        held(at, 2, "ct_degree")  # the columns sweep the degree: no slider of it is followed
    with pytest.raises(live.Refused) as unknown:
        live.asked("0" * 32, "ct_noise", "0.5")
    assert unknown.value.status == 404


def picture_px(spec: dict) -> int:
    """The width in pixels of the grid's first colour picture: its grid's resolution."""
    source = spec["layout"]["images"][0]["source"]
    png = base64.b64decode(source.split(",", 1)[1])
    return int.from_bytes(png[16:20], "big")  # IHDR's width


def test_a_held_slider_draws_a_coarser_grid_of_the_same_plan():
    at = open_view("contours")
    released, during = chart(at, "ct_contours"), held(at, 0.2)  # at the slider's own value
    assert picture_px(released) == 100
    assert picture_px(during) == HELD_RESOLUTION < 100  # the picture keeps up with the thumb
    for key in ("width", "height", "margin"):
        assert during["layout"][key] == released["layout"][key], key
    assert len(during["layout"]["annotations"]) == len(released["layout"]["annotations"])


PLACE = ("x", "y", "sizex", "sizey")
"""A layout picture's place."""


def test_a_held_noise_draws_its_points_in_the_plane_of_the_grid_drawn():
    """New points held (the noise): fitted and drawn in the page's plane, so that the panels
    hold still under the hand (chart.js sets the figure in place); a preset's points come in
    their own plane."""
    at = open_view("contours")
    drawn, during = chart(at, "ct_contours"), held(at, 0.8)
    rings = held(at, None, "ct_preset_rings")
    for axis in ("xaxis", "yaxis"):
        assert during["layout"][axis]["range"] == drawn["layout"][axis]["range"], axis
        assert rings["layout"][axis]["range"] != drawn["layout"][axis]["range"], axis
    dots = [
        next(m for m in f["layout"]["images"] if m.get("name") == "data") for f in (drawn, during)
    ]
    assert [[m[key] for key in PLACE] for m in dots] == [[dots[0][key] for key in PLACE]] * 2
    assert dots[0]["source"] != dots[1]["source"]  # the points held
    assert "noise 0.8," in during["layout"]["title"]["text"]


def test_a_held_grid_in_presenter_mode_is_planned_for_the_projector():
    at = open_view("contours", query={KEY: "1"})
    released, during = chart(at, "ct_contours"), held(at, 0.2)
    assert during["layout"]["height"] == released["layout"]["height"]
    sizes = [a["font"]["size"] for a in released["layout"]["annotations"] if "font" in a]
    assert [a["font"]["size"] for a in during["layout"]["annotations"] if "font" in a] == sizes
    assert min(sizes) >= 14  # the projector's text


def test_a_held_value_is_drawn_from_one_call_to_a_worker(monkeypatch: pytest.MonkeyPatch):
    """The held grid and its figure: one trip to a worker, not one per column and another
    for the figure (the release still draws the columns cached one by one)."""
    at = open_view("contours")
    calls: list[str] = []
    real = contours_grid.compute

    def counted(function, *args, **kwargs):
        calls.append(function.__name__)
        return real(function, *args, **kwargs)

    monkeypatch.setattr(contours_grid, "compute", counted)
    held(at, 0.37)  # a value no other test holds: not among the answers kept
    assert calls == ["sweep_and_figure_json"]


def panel_titles(spec: dict) -> list[str]:
    return [a["text"] for a in spec["layout"]["annotations"] if "kPC" in a["text"]]


def test_a_held_kernel_width_slider_draws_the_grid_at_the_width_under_its_thumb():
    at = open_view("contours", query={"ct_kernel": "Gaussian", "ct_sweep": "nothing (one column)"})
    assert "(2·1²)" in panel_titles(chart(at, "ct_contours"))[0]
    # the width σ as its slider shows it, not its index
    assert "(2·0.5²)" in panel_titles(held(at, 0.5, "ct_sigma"))[0]
    with pytest.raises(live.Refused, match="none of its options"):
        held(at, 20_000.0, "ct_sigma")  # out of the slider's range


def test_a_held_components_slider_draws_the_grid_with_that_many_components():
    """The components (1-8) were not scrubbed: their frames, the grid at every count,
    would be 2.46 MB with every run.  Held, the grid follows them instead."""
    at = open_view("contours")
    assert max(int(t.rsplit("kPC ", 1)[1][0]) for t in panel_titles(chart(at, "ct_contours"))) == 3
    during = held(at, 5, "ct_k")
    assert max(int(t.rsplit("kPC ", 1)[1][0]) for t in panel_titles(during)) == 5
    assert at.slider(key="ct_k").value == 3  # the slider and the link: at the release
    with pytest.raises(live.Refused, match="not between"):
        held(at, 9, "ct_k")


@pytest.mark.parametrize("press", ["ct_preset_rings", "ct_preset_dk5", "ct_kernel=Gaussian"])
def test_a_press_asked_for_ahead_draws_the_grid_the_press_gives(press):
    """A preset button or another kernel (a mouse resting on it, the keyboard on it): the grid
    the chart draws at once when it is pressed has the titles of the page's grid after the
    press, at the held resolution."""
    at = open_view("contours")
    for unchanged in ("ct_preset_fig2", "ct_kernel=Polynomial"):  # Fig. 2's: nothing changes
        with pytest.raises(live.Refused, match="does not follow"):
            held(at, "", unchanged)
    ahead = held(at, "", press)
    if press.startswith("ct_preset"):
        at.button(key=press).click()
    else:
        at.selectbox(key="ct_kernel").set_value("rbf")
    at.run()
    pressed = chart(at, "ct_contours")
    assert ahead["layout"]["title"] == pressed["layout"]["title"]
    assert panel_titles(ahead) == panel_titles(pressed)
    assert picture_px(ahead) == HELD_RESOLUTION < picture_px(pressed)


def test_a_costly_grid_is_not_followed_while_held(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(contours_grid, "ONE_HELD_S", 0.0)
    at = open_view("contours")
    (element,) = [e for e in at.get("bidi_component") if key_of(e) == "ct_contours"]
    assert sent_payload(element)["live"] is None  # drawn at the release


def test_the_papers_grid_through_its_features_is_one_call_to_a_worker():
    """Fig. 2's four columns (300 points, 100 × 100) cost ~11 ms of one core through their
    features; priced as kernel matrices (0.3 s) they were four calls and a fifth for the
    figure."""
    specs = ct.sweep_specs(ct.KernelSpec("poly"), "degree", (1, 2, 3, 4))
    columns = contours_grid.priced(specs, parabola(300, 0.2, 0)[0])
    assert columns["features"] == [2, 3, 4, 5]
    assert budget.contour_seconds(300, resolution=100, **columns) < contours_grid.ONE_CALL_S
    assert budget.contour_cost(300, resolution=100, **columns)[0].fits
