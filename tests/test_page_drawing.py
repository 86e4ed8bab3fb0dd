"""Pages with a drawn data set: the link, the canvas's edits injected as its value, notices."""

import base64
import json

import numpy as np
import pytest
from conftest import chart, figures, key_of, open_view, sent_payload
from streamlit.testing.v1 import AppTest
from test_links import unescape

from kpca_core import budget
from kpca_core import contours as ct
from kpca_core.drawing import MAX_POINTS, Drawing, decode, encode, from_points
from kpca_core.figures.drawing import canvas_background
from kpca_ui import live
from kpca_ui.draw import DRAW
from kpca_ui.points import PointSet
from kpca_ui.views import contours_grid as grid
from kpca_ui.views.contours import Columns

SIX = [
    [-1.0, 0.5, 1],
    [-0.5, -0.2, 1],
    [0.0, -0.4, 1],
    [0.5, -0.1, 2],
    [1.0, 0.6, 2],
    [0.2, 1.0, 3],
]


FIG2_KERNELS = {"ct_kernel": "poly", "ct_sweep": "degree", "ct_values": "1, 2, 3, 4", "ct_k": "3"}
"""Link parameters of Fig. 2's columns (degrees 1-4 of (x·y)^d, three components)."""


def six_link(prefix: str = "ct") -> dict[str, str]:
    drawing, _ = from_points(SIX, 2.0)
    return {f"{prefix}_data": DRAW, f"{prefix}_draw": encode(drawing)}


def canvas_data(at: AppTest) -> dict:
    """What the page sent the drawing canvas (its ``data``)."""
    (proto,) = [e.proto for e in at.get("bidi_component") if e.proto.id.endswith("_canvas")]
    return json.loads(proto.json if proto.WhichOneof("data") == "json" else proto.mixed.json)


def edit(at: AppTest, seq: str, points: list | None = None, **extra: object) -> None:
    """The canvas's state after an edit, as the browser would send it; then a rerun."""
    at.session_state["ct_canvas"] = {"edit": {"seq": seq, "half": 2.0, "points": points, **extra}}
    at.run()
    assert not at.exception, [e.value for e in at.exception]


def grid_title(at: AppTest) -> str:
    return chart(at, "ct_contours")["layout"]["title"]["text"]


def test_a_drawing_link_opens_its_points_over_the_first_component():
    at = open_view("contours", query=six_link())
    assert grid_title(at) == "Your drawing: 6 points"
    data = canvas_data(at)
    assert [row[2] for row in data["points"]] == [1, 1, 1, 2, 2, 3]
    assert data["points"][0][:2] == pytest.approx([-1.0, 0.5], abs=1e-3)
    assert data["max"] == MAX_POINTS and data["half"] == 2.0
    assert data["background"]["image"].startswith("data:image/png;base64,")
    assert data["background"]["lines"].startswith("M")
    assert not at.warning


def test_an_edit_refits_and_goes_into_the_link():
    at = open_view("contours", query=six_link())
    before = chart(at, "ct_contours")["layout"]["images"]
    edit(at, "tab:1", [*SIX[:4], [1.5, -1.0, 1]])
    assert grid_title(at) == "Your drawing: 5 points"
    assert chart(at, "ct_contours")["layout"]["images"] != before
    drawing, notes = decode(at.query_params["ct_draw"])
    assert len(drawing) == 5 and notes == []
    assert canvas_data(at)["seq"] == "tab:1"


def test_an_edit_is_taken_once():
    at = open_view("contours", query=six_link())
    edit(at, "tab:1", SIX[:4])
    edit(at, "tab:1", SIX)  # the same token: the canvas's stale value, not a new edit
    assert grid_title(at) == "Your drawing: 4 points"


def test_too_few_points_show_the_canvas_and_what_to_do():
    at = open_view("contours", query={"ct_data": DRAW})
    assert canvas_data(at)["points"] == []
    assert "Click at least 3 places" in at.info[0].value
    assert not [c for c in figures(at) if c.key == "ct_contours"]
    edit(at, "tab:1", SIX[:3])
    assert grid_title(at) == "Your drawing: 3 points"


def test_copy_takes_the_data_set_shown_before():
    at = open_view("contours")
    at.selectbox(key="ct_data").set_value(DRAW).run()
    assert canvas_data(at)["copyLabel"] == "Copy in the data shown before"
    edit(at, "tab:1", None, copy=True)
    assert grid_title(at) == "Your drawing: 300 points"
    data = canvas_data(at)
    assert len(data["points"]) == 300 and data["rev"] == 1


def test_leaving_the_drawing_takes_it_out_of_the_link_and_back_keeps_it():
    at = open_view("contours", query=six_link())
    at.selectbox(key="ct_data").set_value("moons").run()
    assert "ct_draw" not in at.query_params
    at.selectbox(key="ct_data").set_value(DRAW).run()
    assert grid_title(at) == "Your drawing: 6 points"
    assert "ct_draw" in at.query_params


@pytest.mark.parametrize(
    ("damage", "kept", "notice"),
    [
        (lambda text: text[:-3], 5, "damaged"),
        (lambda text: "nonsense", 0, "not in the form"),
        (lambda text: text.replace("1.2.", "1.3.", 1), 6, "unknown size"),
    ],
)
def test_a_damaged_drawing_link_opens_with_a_notice_and_what_is_valid(damage, kept, notice):
    query = six_link()
    query["ct_draw"] = damage(query["ct_draw"])
    at = open_view("contours", query=query)
    assert len(canvas_data(at)["points"]) == kept
    assert notice in at.warning[0].value
    assert not at.error


def test_an_oversized_drawing_link_keeps_the_limit():
    cells = tuple((1000 + 5 * k, 2000 + 300 * (k % 3), 1 + k % 3) for k in range(MAX_POINTS + 20))
    at = open_view("contours", query={"ct_data": DRAW, "ct_draw": encode(Drawing(cells))})
    assert grid_title(at) == f"Your drawing: {MAX_POINTS} points"
    assert f"more than {MAX_POINTS} points" in at.warning[0].value


def test_the_spectrum_sweeps_the_drawing():
    at = open_view("spectrum", query=six_link("sp"))
    assert "Data: Your drawing: 6 points" in [unescape(c.value) for c in at.caption]
    assert chart(at, "sp_fig_bars")["data"]
    assert canvas_data(at)["background"] is not None


def test_the_canvas_shows_the_first_component_of_the_column_the_projection_shows():
    at = open_view("contours", query={**six_link(), **FIG2_KERNELS})
    last = canvas_data(at)["background"]  # by default the last column, degree 4
    at.selectbox(key="ct_pcol").set_value("degree 1").run()
    assert not at.exception, [e.value for e in at.exception]
    X = decode(six_link()["ct_draw"])[0].X  # the drawn points, as the link keeps them
    for degree, shown in ((1, canvas_data(at)["background"]), (4, last)):
        spec = ct.KernelSpec("poly", degree=degree, gamma=1.0, coef0=0.0)
        expected = canvas_background(ct.fit_column(X, spec, n_components=3), 2.0)
        assert shown == expected


@pytest.mark.parametrize("n_points", [6, 40])
def test_a_small_grid_in_one_call_is_the_grid_column_by_column(n_points, monkeypatch):
    """Below ONE_CALL_S the grid and its figure are one call; the same numbers."""
    rng = np.random.default_rng(n_points)
    X = rng.uniform(-1, 1, (n_points, 2))
    points = PointSet(X, None, f"{n_points} points", ("test", n_points))
    specs = ct.sweep_specs(ct.KernelSpec("rbf", sigma=0.5), "sigma", (0.3, 1.0))
    kernels = [spec.kernel for spec in specs]
    assert budget.contour_seconds(n_points, kernels, 40) < grid.ONE_CALL_S
    chosen = Columns(ct.KernelSpec("rbf"), "sigma", (0.3, 1.0), False, True, 2, 40)
    assert chosen.specs == tuple(specs)
    small, _ = grid.grid(points, chosen, grid.Space())
    monkeypatch.setattr(grid, "ONE_CALL_S", 0.0)
    grid.grid.clear()
    by_column, _ = grid.grid(points, chosen, grid.Space())
    for one, other in zip(small.columns, by_column.columns, strict=True):
        np.testing.assert_allclose(one.values, other.values, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(one.fit.eigenvalues, other.fit.eigenvalues, rtol=1e-10)


def test_the_canvas_and_its_grid_share_a_row_and_the_canvas_names_its_component():
    """At 1280 × 720 the canvas (in 2/5 of the row) and the grid it refits (3/5, planned
    for that width) are on one screen together; a caption names the component behind
    the points."""
    at = open_view("contours", query={**six_link(), **FIG2_KERNELS})
    figure = chart(at, "ct_contours")
    assert figure["layout"]["width"] == grid.grid_beside_canvas_px(820)
    captions = " ".join(c.value for c in at.caption)
    assert "Behind the points: the colours of **kPC 1 of degree 4**" in captions
    assert canvas_data(at)["maxPx"] <= 480


def test_on_a_phone_the_grid_under_the_canvas_has_the_page_s_width():
    """A phone stacks the canvas and the grid: the grid is planned for the page's width
    (planned for 3/5 of it, its colour bar's ticks ran together)."""
    assert grid.grid_beside_canvas_px(358) == 358
    assert grid.grid_beside_canvas_px(820) < 820 * 0.6


def picture_px(spec: dict) -> int:
    """The width in pixels of the grid's first colour picture: its grid's resolution."""
    png = base64.b64decode(spec["layout"]["images"][0]["source"].split(",", 1)[1])
    return int.from_bytes(png[16:20], "big")  # IHDR's width


def live_payload(at: AppTest) -> dict:
    (element,) = [e for e in at.get("bidi_component") if key_of(e) == "ct_contours"]
    return sent_payload(element)["live"]


def test_a_dragged_point_s_figure_is_the_page_s_of_that_drawing_held():
    """The grid follows a dragged point: the chart posts the drawing at each move to the
    live endpoint (kpca_ui/live.py), whose answer is the figure that the page's run of
    the edit (at the release) sends, at the held slider's resolution."""
    at = open_view("contours", query=six_link())
    sent = live_payload(at)
    assert sent["drawing"] == {"prefix": "ct", "seq": None}  # no edit taken yet
    token = sent["url"].rsplit("/", 1)[-1]
    points = [*SIX, [1.5, -1.0, 1]]
    source, key, drawing = live.asked_drawing(token, json.dumps({"points": points, "half": 2.0}))
    answered = json.loads(source.figure_json(key, drawing))
    assert answered["layout"]["title"]["text"] == "Your drawing: 7 points"
    edit(at, "tab:1", points)
    released = chart(at, "ct_contours")
    for key in ("title", "width", "height", "annotations"):
        assert answered["layout"][key] == released["layout"][key], key
    assert picture_px(answered) == grid.HELD_RESOLUTION < picture_px(released)
    assert live_payload(at)["drawing"] == {"prefix": "ct", "seq": "tab:1"}
    with pytest.raises(live.Refused, match="at least 3"):
        live.asked_drawing(token, json.dumps({"points": SIX[:2], "half": 2.0}).encode())


def test_a_toy_data_set_s_grid_follows_no_drawing():
    at = open_view("contours")
    assert live_payload(at)["drawing"] is None
