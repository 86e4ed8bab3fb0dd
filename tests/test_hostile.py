"""Hostile input, round two (issue #35): what a browser sends, checked at one boundary.

Each test reproduces one failure of the issue on the code before the fix: a link
value of −0, markdown or a bidi control through a drawing's link, an allowed upload
whose polynomial kernel overflows, a drawing's point at 1e308, a canvas state that
is not JSON or nested 100 000 deep, an oversized canvas state.
"""

from __future__ import annotations

import gzip
import inspect
import json
import pathlib
import tomllib
import tracemalloc
from types import SimpleNamespace

import numpy as np
import pytest
import streamlit as st
from conftest import ROOT, open_view
from streamlit.delta_generator import DeltaGenerator
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.testing.v1 import AppTest
from test_bad_links import LIVE_MARKDOWN, SMALL
from test_page_contours import FakeUpload
from test_page_drawing import six_link
from test_page_spectrum import open_page as open_spectrum

from kpca_core import budget, datasets, usps
from kpca_core.drawing import HALF_WIDTHS, MAX_POINTS, STEPS, decode, from_points
from kpca_core.figures import spectrum as spectrum_figures
from kpca_core.spectrum import WidthSweep
from kpca_ui import shell, workers
from kpca_ui.draw import DRAW
from kpca_ui.points import UPLOAD, PointSet
from kpca_ui.safety import MESSAGE
from kpca_ui.settings import literal
from kpca_ui.views import spectrum, spectrum_sweep

NEGATIVE_ZEROS = ["-0", "-0.0", "-1e-400"]


def safety_nets(at: AppTest) -> list[str]:
    return [w.value for w in at.warning if w.value.startswith(MESSAGE)]


@pytest.mark.parametrize("zero", NEGATIVE_ZEROS)
@pytest.mark.parametrize(
    ("page", "query"),
    [
        ("contours", {"ct_noise": None}),
        ("spectrum", {"sp_noise": None, "sp_n": "100", "sp_nw": "20"}),
        ("denoising", {**SMALL, "dn_sigma": None}),
    ],
    ids=["ct_noise", "sp_noise", "dn_sigma"],
)
def test_a_negative_zero_in_a_link_is_refused_not_crashing(page, query, zero):
    """Issue item 1: −0.0 equals 0, so the range check let it through to NumPy."""
    query = {key: zero if value is None else value for key, value in query.items()}
    at = open_view(page, query=query)  # asserts no exception
    assert not safety_nets(at), safety_nets(at)
    (key,) = [key for key, value in query.items() if value == zero]
    assert key not in at.query_params  # removed from the link, with a notice
    assert any(zero in toast.value.replace("\\", "") for toast in at.toast)


DRAWING_INJECTIONS = [
    "1.[Login](//x).EH_3_7_r_r_n_w",
    "1.:red[HACKED].EH_3_7_r_r_n_w",
    "1.**bold**.EH_3_7_r_r_n_w",
    "1.![i](//x/t).EH_3_7_r_r_n_w",
    "1.:smile:.EH_3_7_r_r_n_w",
    "1.\u202e2.EH_3_7_r_r_n_w",
]


@pytest.mark.parametrize("prefix", ["ct", "sp", "ft"])
@pytest.mark.parametrize("field", DRAWING_INJECTIONS, ids=range(len(DRAWING_INJECTIONS)))
def test_a_drawing_links_size_field_is_never_echoed_as_markdown(prefix, field):
    """Issue item 2: ``decode`` echoed the size field as it came."""
    page = {"ct": "contours", "sp": "spectrum", "ft": "features"}[prefix]
    at = open_view(page, query={f"{prefix}_data": DRAW, f"{prefix}_draw": field})
    warnings = [w.value for w in at.warning]
    assert any("unknown size" in w for w in warnings), warnings
    for warning in warnings:
        ours = warning.replace("[−2, 2]²", "")  # the square, in the note's own words
        assert not LIVE_MARKDOWN.search(ours), warning
        for token in ("Login", "HACKED", "bold", ":smile:", ":red", "\u202e"):
            assert token not in warning, warning


def test_a_numeric_size_field_is_echoed_as_the_number_it_is():
    _, notes = decode("1.3.EH_3_7_r_r_n_w")
    assert "unknown size (3)" in notes[0]


def test_literal_removes_bidirectional_controls():
    """U+202E reversed the rest of the notice's line; U+2066-2069 isolate, U+200E/F mark."""
    for control in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c":
        assert literal(f"ab{control}cd") == "abcd"


def test_an_allowed_upload_with_a_polynomial_kernel_is_told_not_crashing(monkeypatch):
    """Issue item 3: coordinates up to 3.9e99 (the limit is 1e100) made c^d overflow."""
    rng = np.random.default_rng(0)
    rows = "\n".join(f"{x:.3e},{y:.3e}" for x, y in rng.uniform(-3.9e99, 3.9e99, (60, 2)))
    monkeypatch.setattr(
        DeltaGenerator, "file_uploader", lambda self, *a, **k: FakeUpload("big.csv", rows.encode())
    )
    at = open_spectrum(sp_data=UPLOAD, sp_kernel="poly")
    assert any("overflowed" in e.value for e in at.error), [e.value for e in at.error]


@pytest.mark.parametrize("sweep", [{}, {"sweep": "degree", "coef0": 0.0}])
def test_a_polynomial_sweep_that_overflows_raises_a_value_error(sweep):
    X = np.random.default_rng(0).uniform(-3.9e99, 3.9e99, (30, 2))
    with pytest.raises(ValueError, match="overflowed"):
        WidthSweep("poly", n_widths=5, **sweep).fit(X)


@pytest.mark.parametrize("half", HALF_WIDTHS)
def test_a_point_at_1e308_goes_onto_the_squares_edge(half):
    """Issue item 6: (1e308 + h) / 2h · STEPS is no float; round() raised OverflowError."""
    drawing, _ = from_points([[1e308, -1e308, 1], [0.0, 0.0, 2]], half)
    assert drawing.cells == ((STEPS, 0, 1), (STEPS // 2, STEPS // 2, 2))


class Exploding(list):
    """A row that must never be read."""

    def __len__(self) -> int:
        raise AssertionError("a row beyond the cap was read")

    def __iter__(self):
        raise AssertionError("a row beyond the cap was read")


def test_an_oversized_drawing_is_not_walked_beyond_the_cap():
    """Issue item 5: every row of a 3-million-point state was read before capping."""
    rows = [[0.0, 0.0, 1]] * MAX_POINTS + [Exploding()] * 1000
    drawing, notes = from_points(rows, 2.0)
    assert len(drawing) == MAX_POINTS
    assert notes == [f"A drawing keeps at most {MAX_POINTS} points; the first are kept."]


def test_the_widget_state_limit_is_near_a_drawings_size():
    """Issue item 5: Streamlit's own limit (25 MB) let a 24 MB state through.

    A drawing's state is ~10 kB; 1 MB is the smallest limit the option takes (whole MB).
    """
    config = tomllib.loads(pathlib.Path(ROOT, ".streamlit", "config.toml").read_text())
    assert config["server"]["maxWidgetStateSize"] == 1


def canvas_id(at: AppTest, prefix: str = "ct") -> str:
    protos = [e.proto for e in at.get("bidi_component")]
    (proto,) = [p for p in protos if p.id.endswith(f"{prefix}_canvas")]
    return proto.id


def send_state(at: AppTest, widget_id: str, payload: str) -> None:
    """A run with this canvas state, as a script in the page could send it (raw JSON text)."""
    states = at._tree.get_widget_states()
    states.widgets.append(WidgetState(id=widget_id, json_value=payload))
    at._run(states)


UNREADABLE_STATES = {
    "nested 100 000 deep": "[" * 100_000 + "]" * 100_000,
    "not JSON": "{edit: not json",
}
"""States Streamlit itself cannot parse: it raises in its own code, before the page's, on
every run of the session that sent them (the app no longer patches Streamlit's parser)."""
HOSTILE_STATES = {
    "a point at 1e308": json.dumps(
        {"edit": {"seq": "x:1", "half": 100, "points": [[1e308, 0, 1]]}}
    ),
    "points not a list": json.dumps({"edit": {"seq": "x:2", "half": 2, "points": "abc"}}),
    "a nested token": json.dumps({"edit": {"seq": [[[[1]]]] * 1000, "half": 2, "points": []}}),
}


@pytest.mark.parametrize("payload", HOSTILE_STATES.values(), ids=HOSTILE_STATES.keys())
def test_a_hostile_canvas_state_never_breaks_the_session(payload):
    """Issue item 6: the session raised on every run until the page was reloaded."""
    at = open_view("contours", query=six_link())
    send_state(at, canvas_id(at), payload)
    assert not at.exception, [e.value[:200] for e in at.exception]
    at.run()  # and the next run, too
    assert not at.exception, [e.value[:200] for e in at.exception]
    assert not safety_nets(at)
    # the edit's points that could be read, or the drawing as before
    assert len(decode(at.query_params.get("ct_draw"))[0]) in (0, 1, 6)


@pytest.mark.parametrize("payload", UNREADABLE_STATES.values(), ids=UNREADABLE_STATES.keys())
def test_an_unreadable_canvas_state_breaks_no_other_session(payload):
    """A script in one's own page can break that page's session (Streamlit's parser raises
    on its state): never another's, and the same browser's next session works."""
    other = open_view("contours", query=six_link())
    hostile = open_view("contours", query=six_link())
    send_state(hostile, canvas_id(hostile), payload)
    other.run()
    assert not other.exception and not safety_nets(other)
    reloaded = open_view("contours", query=six_link())
    assert not reloaded.exception and len(decode(reloaded.query_params.get("ct_draw"))[0]) == 6


def test_a_gzip_bomb_in_the_usps_folder_is_refused_while_decompressing(tmp_path, monkeypatch):
    """Issue item 10: a bomb was decompressed whole (851 MB) before being refused."""
    bomb = gzip.compress(b" " * (4 * usps.max_bytes("test")), compresslevel=9)
    assert len(bomb) < usps.max_bytes("test")  # a small file: only its content is a bomb
    (tmp_path / "zip.test.gz").write_bytes(bomb)
    monkeypatch.setenv(usps.USPS_ENV_VAR, str(tmp_path))
    tracemalloc.start()
    try:
        with pytest.raises(usps.USPSError, match="decompresses to more than"):
            usps.load_usps("test")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 3 * usps.max_bytes("test"), peak / 1e6


def test_an_oversized_usps_file_is_refused_before_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "zip.test.gz"
    with path.open("wb") as file:  # sparse: no disk used
        file.truncate(usps.max_bytes("test") + 1)
    monkeypatch.setenv(usps.USPS_ENV_VAR, str(tmp_path))
    monkeypatch.setattr(pathlib.Path, "read_bytes", lambda self: pytest.fail("read"))
    with pytest.raises(usps.USPSError, match="more than any USPS file"):
        usps.load_usps("test")


def test_a_gzip_file_of_two_members_still_reads():
    text = b"1 " + b" ".join([b"0"] * 256) + b"\n"
    raw = gzip.compress(text) + gzip.compress(text)
    assert usps._gunzip(raw, 10_000, "x") == text + text


@pytest.mark.parametrize(("page", "prefix"), [("contours", "ct"), ("spectrum", "sp")])
def test_a_moved_session_that_had_an_upload_is_told_to_upload_it_again(monkeypatch, page, prefix):
    """Issue item 7: the toast said everything was kept while the figures showed the parabola."""
    monkeypatch.setenv(shell.REPLICA_ENV, "app2")
    headers = {shell.PINNED_HEADER: "app1"}
    monkeypatch.setattr(type(st.context), "headers", property(lambda self: headers))
    at = open_view(page, query={f"{prefix}_data": UPLOAD})
    told = [toast.value for toast in at.toast if "app1" in toast.value]
    assert told == [shell.MOVED_UPLOAD.format(pinned="app1", here="app2")]
    assert "Upload it again" in told[0]


# ---------------------------------------------------------------- every computation costed
RINGS_2000 = PointSet(np.zeros((2000, 2)), None, "rings", ("toy", "three_rings", 2000, 0.25, 0))


def recording(calls: list) -> object:
    def run(function, *args, cost: float = 0.0, **kwargs):
        calls.append((function, cost))
        return SimpleNamespace(share=lambda n: np.array([0.5]))

    return run


def test_the_uncentred_sweep_is_costed_and_takes_the_heavy_lane(monkeypatch):
    """Issue item 4: it ran at cost 0, so it took the worker the heavy lane leaves free."""
    calls: list = []
    monkeypatch.setattr(spectrum_sweep, "compute", recording(calls))
    chosen = spectrum.Choice("rbf", (-2.0, 1.0), 60, 3, 1.0, 10)  # kernel, range, widths, ...
    spectrum_sweep.uncentred.clear()
    spectrum_sweep.uncentred(RINGS_2000, chosen)
    ((_, cost),) = calls
    assert cost == budget.sweep_seconds(2000, 60, "rbf") >= workers.HEAVY_S


def test_the_share_at_dk_c_is_costed(monkeypatch):
    calls: list = []
    monkeypatch.setattr(spectrum_sweep, "compute", recording(calls))
    spectrum_sweep.dk_share.clear()
    spectrum_sweep.dk_share(RINGS_2000, True)
    ((_, cost),) = calls
    assert cost == budget.sweep_seconds(2000, 1, "rbf") > 0


def test_the_component_maps_are_costed_and_can_be_cancelled(monkeypatch):
    """A fit of 2000 points at each chosen width, at cost 0 before."""
    costs: list = []
    monkeypatch.setattr(
        spectrum_sweep, "build", lambda *args, cost=0.0, **kwargs: costs.append(cost)
    )
    made = SimpleNamespace(n_samples_=2000, kernel_params=lambda index: {"kernel": "rbf"})
    monkeypatch.setattr(spectrum_sweep, "sweep", lambda points, chosen: made)
    monkeypatch.setattr(spectrum_sweep, "kept_json", lambda figure: figure)
    chosen = spectrum.Choice("rbf", (-2.0, 1.0), 60, 3, 1.0, 10)
    spectrum_sweep.maps.clear()
    spectrum_sweep.maps(RINGS_2000, chosen, 3, spectrum_figures.MAPS_PX)
    assert costs == [budget.maps_seconds(2000, "rbf")] and costs[0] > 0
    # the builder takes the progress callback through which a worker cancels it
    assert "progress" in inspect.signature(spectrum_figures.components_at_figure).parameters


def test_the_comparison_over_the_budget_is_told_not_computed(monkeypatch):
    """60 widths on 2000 points: the sweep fits the budget, it and its uncentred twin not."""
    sweep_s = budget.sweep_seconds(2000, 60, "rbf")
    monkeypatch.setattr(budget, "REQUEST_BUDGET_S", 1.5 * sweep_s)
    monkeypatch.setattr(spectrum_sweep, "prose", lambda: True)
    monkeypatch.setattr(
        spectrum_sweep, "uncentred", lambda *a: pytest.fail("computed over the budget")
    )
    told: list[str] = []
    monkeypatch.setattr(spectrum_sweep.st, "info", told.append)
    made = SimpleNamespace(kernel="rbf", widths_=np.geomspace(0.01, 10, 60))
    monkeypatch.setattr(spectrum_sweep, "sweep", lambda points, chosen: made)
    chosen = spectrum.Choice("rbf", (-3.0, 2.0), 60, 3, 1.0, 10)
    spectrum_sweep.dk_note(RINGS_2000, chosen)
    (note,) = told
    assert "per request" in note and "not centred" in note


@pytest.mark.parametrize(
    ("page", "key", "query"),
    [
        ("contours", "ct_noise", {}),
        ("spectrum", "sp_noise", {"sp_n": "100", "sp_nw": "20"}),
        ("denoising", "dn_sigma", SMALL),
    ],
)
def test_a_widget_value_of_negative_zero_from_the_client_is_a_zero(page, key, query):
    """A slider's value comes from the client as sent: a script can send −0.0."""
    at = open_view(page, query=query)
    at.slider(key=key).set_value(-0.0).run()
    assert not at.exception, [e.value[:200] for e in at.exception]
    assert not safety_nets(at)


@pytest.mark.parametrize("name", sorted(datasets.TOY_2D))
def test_every_generator_takes_a_noise_of_negative_zero(name):
    X, _ = datasets.TOY_2D[name](20, -0.0, 0)
    np.testing.assert_array_equal(X, datasets.TOY_2D[name](20, 0.0, 0)[0])
