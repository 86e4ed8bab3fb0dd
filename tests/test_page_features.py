"""The Features page, tab by tab, through Streamlit's AppTest (widgets by key).

The toy runs as served (one kernel PCA fit per setting, cached); a drawing
comes in through its link or as the canvas's value, set the way the browser
sends it. The USPS tab reads the shipped table; the live recomputation of a
cell is replaced by a fake of the same signature in most tests (the real one
takes a minute), run in a real worker process on the first digits in one, and
run for real on few fitted digits in one slow test.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest
from conftest import chart, decode, figures, open_view
from sklearn.metrics import confusion_matrix
from test_page_denoising import usps_dir  # noqa: F401  (the fixture)
from test_page_drawing import canvas_data

from kpca_core import features, usps
from kpca_core.drawing import MAX_POINTS, encode, from_points
from kpca_core.drawing import decode as decode_drawing
from kpca_core.figures import style
from kpca_core.figures.features import LIVE_MARK
from kpca_ui import workers
from kpca_ui.draw import DRAW
from kpca_ui.views import features as view

USPS_TAB = "USPS: Table 2"


@pytest.fixture(autouse=True)
def no_live_cells() -> None:
    """Every test starts with no cell computed live (the caches live in this process)."""
    view.live_cell.clear()
    view.usps_test_digits.clear()
    yield
    view.live_cell.clear()


def metrics(at) -> dict[str, str]:
    return {metric.label: metric.value for metric in at.metric}


def test_toy_moons_linear_on_kernel_components_beats_the_plane():
    at = open_view("features")
    assert at.title[0].value == "Kernel PCA as a feature extractor"
    shown = metrics(at)
    assert float(shown["Correct on 10 kernel components"].rstrip(" %")) >= 95
    assert float(shown["Correct on x, y"].rstrip(" %")) <= 90
    spec = chart(at, "ft_toy_chart")
    assert [image["name"] for image in spec["layout"]["images"]] == ["decision regions"] * 2
    assert spec["layout"]["annotations"][0]["text"].startswith("on 10 kernel components")


def test_toy_n_and_kernel_come_from_their_widgets():
    at = open_view("features", query={"ft_data": "Two circles", "ft_k": "3"})
    assert at.selectbox(key="ft_data").value == "circles"
    assert "Correct on 3 kernel components" in metrics(at)
    at.selectbox(key="ft_kernel").set_value("poly").run()
    at.slider(key="ft_pdegree").set_value(2).run()
    at.slider(key="ft_k").set_value(20).run()
    assert not at.exception
    # (x·y + 1)² on 2-D points: 5 non-zero centred components, said so
    assert "Correct on 5 kernel components" in metrics(at)
    assert any("only 5 non-zero components" in c.value for c in at.caption)
    title = chart(at, "ft_toy_chart")["layout"]["annotations"][0]["text"]
    assert "polynomial, d = 2" in title


def test_the_toy_regions_shown_are_the_toys():
    at = open_view("features", query={"ft_k": "4"})
    fit = view.toy_fit("moons", 300, 0, "rbf", 0.5)
    result = features.toy_experiment(fit, 4)
    spec = chart(at, "ft_toy_chart")
    points = decode(spec["data"][0]["x"])
    np.testing.assert_allclose(points, fit.X[fit.labels == 0, 0].astype(np.float32))
    assert metrics(at)["Correct on 4 kernel components"] == f"{100 * result.kernel_accuracy:.1f} %"


# A centre of group 1 inside a ring of group 2: no straight line separates them.
CENTRE = [[x, y, 1] for x, y in [(0.0, 0.0), (0.2, 0.1), (-0.1, 0.2), (0.1, -0.2)]]
RING = [[1.5 * np.cos(t), 1.5 * np.sin(t), 2] for t in np.linspace(0, 2 * np.pi, 9)[:-1]]


def drawn_page(points: list, **query: str):
    drawing, _ = from_points(points, 2.0)
    return open_view("features", query={"ft_data": DRAW, "ft_draw": encode(drawing), **query})


def edit(at, seq: str, points: list | None, **extra: object) -> None:
    """The canvas's state after an edit, as the browser would send it; then a rerun."""
    at.session_state["ft_canvas"] = {"edit": {"seq": seq, "half": 2.0, "points": points, **extra}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def legend(at) -> list[tuple[str, str]]:
    """The toy figure's classes: (name, colour)."""
    traces = chart(at, "ft_toy_chart")["data"]
    return [(t["name"], t["marker"]["color"]) for t in traces if t["showlegend"]]


def test_a_drawing_is_classified_by_its_groups_with_the_regions_behind_it():
    at = drawn_page(CENTRE + RING)
    assert at.selectbox(key="ft_data").value == view.DRAWN
    shown = metrics(at)
    assert shown["Correct on 10 kernel components"] == "100.0 %"
    assert float(shown["Correct on x, y"].rstrip(" %")) < 100  # no line separates them
    assert legend(at) == [("group 1", style.GROUPS[0]), ("group 2", style.GROUPS[1])]
    spec = chart(at, "ft_toy_chart")
    assert spec["layout"]["xaxis"]["range"] == [-2.0, 2.0]  # the canvas's square
    # behind the canvas's points: the left panel's decision regions
    data = canvas_data(at)
    assert len(data["points"]) == 12 and data["half"] == 2.0
    assert data["background"]["image"] == spec["layout"]["images"][0]["source"]
    assert data["copyLabel"] == "Copy in the data shown before"
    assert len(decode_drawing(at.query_params["ft_draw"])[0]) == 12
    assert not at.toast and not at.warning and not at.error  # the link was taken as it is


def test_an_edit_refits_and_goes_into_the_link():
    at = drawn_page(CENTRE + RING)
    third = [[x, y, 3] for x, y, _ in RING[:4]]
    edit(at, "tab:1", CENTRE + RING[4:] + third)
    assert legend(at) == [
        ("group 1", style.GROUPS[0]),
        ("group 2", style.GROUPS[1]),
        ("group 3", style.GROUPS[2]),
    ]
    drawing, notes = decode_drawing(at.query_params["ft_draw"])
    assert sorted(set(drawing.groups)) == [1, 2, 3] and notes == []
    assert canvas_data(at)["seq"] == "tab:1"
    shown = metrics(at)
    assert "Correct on 10 kernel components" in shown  # the kernel's n, refitted


@pytest.mark.parametrize(
    ("points", "notice"),
    [
        (CENTRE, "at least two groups"),  # one class
        ([[-1.0, 0.0, 1], [1.0, 0.0, 2]], "Click at least 3 places"),  # 2 points
        ([[0.5, 0.5, 1], [0.5, 0.5, 2], [0.5, 0.5, 2]], "nothing to work on"),  # one place
    ],
)
def test_a_drawing_with_nothing_to_classify_gets_a_notice_and_its_canvas(points, notice):
    at = drawn_page(points)
    assert [info.value for info in at.info if notice in info.value]
    assert not at.error and not at.warning
    assert "ft_toy_chart" not in [c.key for c in figures(at)]
    data = canvas_data(at)
    assert len(data["points"]) == len(points) and data["background"] is None
    # a second group's point, and the classifier is there
    edit(at, "tab:1", [*points, [-1.5, -1.5, 2], [1.5, -1.5, 1]])
    assert chart(at, "ft_toy_chart")
    assert canvas_data(at)["background"] is not None


def test_leaving_the_drawing_takes_it_out_of_the_link_and_back_keeps_it():
    at = drawn_page(CENTRE + RING)
    at.selectbox(key="ft_data").set_value("moons").run()
    assert "ft_draw" not in at.query_params
    assert not [e for e in at.get("bidi_component") if e.proto.id.endswith("_canvas")]
    assert "Correct on 10 kernel components" in metrics(at)
    at.selectbox(key="ft_data").set_value(view.DRAWN).run()
    assert len(canvas_data(at)["points"]) == 12
    assert "ft_draw" in at.query_params


def test_the_canvas_copies_in_the_toy_set_shown_before():
    at = open_view("features", query={"ft_data": "Two circles", "ft_points": "200"})
    at.selectbox(key="ft_data").set_value(view.DRAWN).run()
    assert not [s for s in at.slider if s.key == "ft_points"]  # a drawing has its own points
    edit(at, "tab:1", None, copy=True)
    points = canvas_data(at)["points"]
    assert len(points) == 200 <= MAX_POINTS
    assert sorted({group for _, _, group in points}) == [1, 2]
    assert [name for name, _ in legend(at)] == ["group 1", "group 2"]


def usps_page(**query: str):
    return open_view("features", query={"ft_tab": USPS_TAB, **query})


def test_table2_tab_shows_the_shipped_table_beside_the_papers():
    at = usps_page()
    spec = chart(at, "ft_table_chart")
    ours, paper = spec["data"]
    table = view.shipped_table()
    np.testing.assert_allclose(decode(ours["z"]), table.errors, equal_nan=True)
    np.testing.assert_allclose(decode(paper["z"]), features.PAPER_TABLE2, equal_nan=True)
    caption = " ".join(c.value for c in at.caption)
    assert "python bench/features_usps.py" in caption
    assert table.provenance["date"] in caption and table.provenance["commit"][:10] in caption
    protocol = " ".join(m.value for m in at.markdown)
    assert 'OneVsRestClassifier(SVC(kernel="precomputed"))' in protocol
    assert "never on the test" in protocol


@pytest.mark.parametrize(("width", "stacked"), [(358, True), (1200, False)])
def test_table2_is_stacked_for_the_width_the_browser_measured(width, stacked):
    measured = {view.TABLE_SCREEN: {"width": width}}
    at = open_view("features", query={"ft_tab": USPS_TAB}, state=measured)
    layout = chart(at, "ft_table_chart")["layout"]
    assert (layout["xaxis2"]["domain"] == [0.0, 1.0]) is stacked
    caption = " ".join(c.value for c in at.caption)
    assert caption.startswith("Above: computed by" if stacked else "Left: computed by")
    assert [e.proto.id for e in at.get("bidi_component") if e.proto.id.endswith("table_screen")]


def test_the_claims_are_checked_on_the_numbers_shown():
    at = usps_page()
    text = " ".join(m.value for m in at.markdown)
    first, second = features.table2_claims(view.shipped_table().errors)
    assert first.detail in text and second.detail in text
    assert features.differences_from_paper(view.shipped_table().errors) in text


def test_the_chosen_cell_is_outlined_and_its_numbers_shown():
    at = usps_page(ft_degree="3", ft_n="512")
    (shape,) = chart(at, "ft_table_chart")["layout"]["shapes"]
    assert (shape["x0"], shape["y0"]) == (2 - 0.5, 4 - 0.5)
    shown = metrics(at)
    assert shown["Test error, shipped table"] == f"{view.shipped_table().error(3, 512):.2f} %"
    assert shown["The paper's"] == "4.6 %"


def test_degree_one_beyond_256_components_says_why_there_is_no_cell():
    at = usps_page(ft_degree="1", ft_n="1024")
    assert any("only 256 components" in info.value for info in at.info)
    assert not at.exception


def test_the_grid_downloads_as_csv():
    at = usps_page()
    (button,) = at.get("download_button")
    text = view.grid_csv(view.shipped_table(), *view.shown_grid(view.shipped_table()))
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    assert lines[0] == "degree,n_components,test_error,paper_error,source"
    assert len(lines) == 1 + 46
    assert lines[-1].startswith("7,2048,5.48,4.4,shipped table")
    assert button.proto.label == "The grid (CSV)"


def fake_cell(degree, n, *, n_fit, progress=None):
    """A cell of the right shape: seven test digits taken for the next digit."""
    _, labels = usps.load_usps("test")
    predictions = labels.copy()
    predictions[:7] = (labels[:7] + 1) % 10
    progress(0.5, "halfway")
    wrong = np.flatnonzero(predictions != labels)
    return features.Table2Cell(
        degree=degree,
        n_components=n,
        C=10.0,
        validation_errors={10.0: 1.0},
        test_error=100 * wrong.size / labels.size,
        confusion=confusion_matrix(labels, predictions, labels=np.arange(10)),
        predictions=predictions,
        misclassified=wrong,
        seconds=0.1,
    )


@pytest.mark.usps
@pytest.mark.usefixtures("usps_dir")
def test_a_cell_recomputed_live_is_marked_and_detailed(monkeypatch):
    monkeypatch.setattr(features, "recompute_cell", fake_cell)
    at = usps_page(ft_degree="2", ft_n="64")
    assert "ft_confusion_chart" not in [c.key for c in figures(at)]
    at.button(key="ft_live").click().run()
    assert not at.exception, [e.value for e in at.exception]
    ours = chart(at, "ft_table_chart")["data"][0]
    i, j = features.TABLE2_N.index(64), features.TABLE2_DEGREES.index(2)
    assert ours["text"][i][j] == f"{700 / 2007:.1f}{LIVE_MARK}"
    assert sum(LIVE_MARK in text for row in ours["text"] for text in row) == 1
    confusion = decode(chart(at, "ft_confusion_chart")["data"][0]["z"])
    assert np.nansum(confusion) == 7
    labels = chart(at, "ft_wrong_chart")["layout"]["xaxis"]["ticktext"]
    _, test_labels = usps.load_usps("test")
    assert labels[0] == f"{test_labels[0]} → {(test_labels[0] + 1) % 10}"
    # it is this session's own: another session (the projector's) still shows the
    # shipped grid, unmarked, until it asks for the cell itself (issue #35)
    again = usps_page(ft_degree="2", ft_n="64")
    assert "ft_confusion_chart" not in [c.key for c in figures(again)]
    assert "0 so far" in " ".join(c.value for c in again.caption)
    theirs = chart(again, "ft_table_chart")["data"][0]
    assert not any(LIVE_MARK in text for row in theirs["text"] for text in row)


@pytest.mark.usps
@pytest.mark.usefixtures("usps_dir")
def test_a_cell_asked_while_another_session_recomputes_one_waits_its_turn(monkeypatch):
    """Two sessions could hold the cells' lane indefinitely; a third was told "try again in a
    minute" (#50, item 9).  Now it waits in line, told how many cells come before its own."""
    monkeypatch.setattr(features, "recompute_cell", fake_cell)
    told: list[str] = []
    shown = view.progress_bar

    holding, release = threading.Event(), threading.Event()

    def told_too(text):
        report, done = shown(text)

        def relay(fraction, message):
            told.append(message)
            if message.startswith("waiting for your turn"):
                release.set()  # the other session's cell ends once this one waits for it
            return report(fraction, message)

        return relay, done

    monkeypatch.setattr(view, "progress_bar", told_too)

    def another_session() -> None:
        with view.CELLS.turn("another session", print):
            holding.set()
            release.wait(10)

    other = threading.Thread(target=another_session)
    other.start()
    holding.wait(5)
    at = usps_page(ft_degree="2", ft_n="64")
    at.button(key="ft_live").click().run()
    other.join()
    assert not at.exception, [e.value for e in at.exception]
    assert not [e.value for e in at.error]
    assert "waiting for your turn, 1 cell before yours" in told
    assert "ft_confusion_chart" in [c.key for c in figures(at)]


@pytest.fixture
def background_worker(monkeypatch) -> None:
    """Live cells in a real worker process, as served, in a pool started for the test.

    Its worker is spawned with the test's environment (``KPCA_USPS_DIR``), and
    ended after the test.
    """
    monkeypatch.setenv("KPCA_WORKERS", "1")

    def end_pool() -> None:
        for niceness in (workers.BACKGROUND_NICENESS, workers.CELL_NICENESS):
            workers._pool(1, niceness).shutdown()
        workers._pool.cache_clear()

    end_pool()
    yield
    end_pool()


FIRST_DIGITS = {"n_train": 1000, "n_test": 300, "c_grid": (1.0, 10.0)}
"""A cell of the first digits, for a live cell of a few seconds."""


def not_here(*args, **kwargs):
    raise AssertionError("the live cell was computed in the session's thread, not in a worker")


@pytest.mark.usps
@pytest.mark.usefixtures("usps_dir", "background_worker")
def test_a_live_cell_runs_in_a_worker_and_equals_the_cell_computed_here(monkeypatch):
    monkeypatch.setenv("KPCA_FEATURES_FIT", "200")
    monkeypatch.setattr(workers, "_inline", not_here)  # no fallback to this thread
    calls, reports = [], []

    def on_first_digits(function, *args, progress, **kwargs):
        """The page's call, on the first digits; what reaches its progress bar is kept."""
        calls.append((function, args, kwargs))

        def relay(fraction: float, message: str) -> None:
            reports.append((fraction, message))
            progress(fraction, message)

        return workers.in_background(function, *args, progress=relay, **kwargs, **FIRST_DIGITS)

    monkeypatch.setattr(view, "in_background", on_first_digits)
    at = usps_page(ft_degree="2", ft_n="32")
    at.button(key="ft_live").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert calls == [
        (features.recompute_cell, (2, 32), {"n_fit": 200, "niceness": workers.CELL_NICENESS})
    ]
    cell = at.session_state[view.LIVE_CELLS][(2, 32)]
    here = features.recompute_cell(2, 32, n_fit=200, **FIRST_DIGITS)
    assert (cell.C, cell.validation_errors, cell.test_error) == (
        here.C,
        here.validation_errors,
        here.test_error,
    )
    np.testing.assert_array_equal(cell.predictions, here.predictions)
    np.testing.assert_array_equal(cell.confusion, here.confusion)
    fractions = [fraction for fraction, _ in reports]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0 and fractions == sorted(fractions)
    assert reports[-1][1] == "n = 32: done"
    assert "ft_confusion_chart" in [c.key for c in figures(at)]


def test_without_usps_the_page_says_so_in_one_line(monkeypatch, tmp_path):
    monkeypatch.setenv("KPCA_USPS_DIR", str(tmp_path))  # a folder without the files
    at = usps_page()
    (info,) = [i.value for i in at.info]
    assert info.startswith("USPS is not available") and "\n" not in info
    assert not [b for b in at.button if b.key == "ft_live"]
    assert chart(at, "ft_table_chart")  # the shipped table is shown all the same


@pytest.mark.slow
@pytest.mark.usps
@pytest.mark.usefixtures("usps_dir")
def test_a_live_cell_on_few_digits_equals_the_pipeline(monkeypatch):
    monkeypatch.setenv("KPCA_FEATURES_FIT", "300")
    at = usps_page(ft_degree="2", ft_n="32")
    at.button(key="ft_live").click().run()
    assert not at.exception
    cell = at.session_state[view.LIVE_CELLS][(2, 32)]
    data = features.load_table2_data()
    expected = features.table2_cell(features.decompose(data, 2, n_max=32, n_fit=300), 32)
    assert cell.test_error == expected.test_error and cell.C == expected.C


@pytest.mark.usps
@pytest.mark.usefixtures("usps_dir")
def test_a_live_cell_can_fit_kernel_pca_on_all_7291_digits(monkeypatch):
    asked = []

    def fake_all_digits(degree, n, *, n_fit, progress=None):
        asked.append(n_fit)
        cell = fake_cell(degree, n, n_fit=n_fit, progress=progress)
        return features.Table2Cell(**{**cell.__dict__, "n_fit": n_fit})

    monkeypatch.setattr(features, "recompute_cell", fake_all_digits)
    at = usps_page(ft_degree="3", ft_n="256")
    assert at.radio(key="ft_fit").value == features.KPCA_TRAIN  # the paper's, by default
    at.radio(key="ft_fit").set_value(features.ALL_TRAIN).run()
    assert "kernel PCA of 7291 digits" in " ".join(c.value for c in at.caption)
    at.button(key="ft_live").click().run()
    assert not at.exception, [e.value for e in at.exception]
    assert asked == [features.ALL_TRAIN]
    assert "ft_confusion_chart" in [c.key for c in figures(at)]
    # the paper's 3000 is another computation: offered again, not shown as this one
    at.radio(key="ft_fit").set_value(features.KPCA_TRAIN).run()
    assert "ft_confusion_chart" not in [c.key for c in figures(at)]
