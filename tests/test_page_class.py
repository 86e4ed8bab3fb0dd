"""The Class page (AppTest, widgets by key): a lecturer's room, students' phones, the projector."""

from __future__ import annotations

import sys
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from conftest import ROOT, chart, decode, figures, open_view

from kpca_ui.rooms import store as rooms
from kpca_ui.views import class_room as view


@pytest.fixture(autouse=True)
def fresh_store(monkeypatch):
    """Each test a new in-process store (the page shares one per server)."""
    monkeypatch.delenv(rooms.REDIS_ENV, raising=False)
    view.room_store.cache_clear()
    yield
    view.room_store.cache_clear()


def lecturer():
    at = open_view("class_room")
    at.button(key="cl_start").click().run()
    assert not at.exception, [e.value for e in at.exception]
    code, token = at.session_state[view.LECTURER]
    return at, code, token


def texts(at) -> str:
    return " ".join(m.value for m in at.markdown)


def test_a_lecturer_starts_a_room_with_code_link_and_qr():
    at, code, token = lecturer()
    assert rooms.CODE_PATTERN.fullmatch(code)
    assert code in texts(at) and f"room={code}" in texts(at)
    assert token not in texts(at)  # the token is never on the page
    assert len(at.get("image")) == 1  # the QR code
    assert "0 students, 0 points, 0 digits" in texts(at)


@pytest.fixture
def small_model(monkeypatch):
    """The Demo's model, fitted on 200 digits instead of 3000 (the wall's work is the same)."""
    from kpca_core.denoise import DigitDenoiser, DigitSubsets
    from kpca_ui.views import demo

    X = np.random.default_rng(0).uniform(-1, 1, (200, 256))
    subsets = DigitSubsets(X, np.zeros(200), X[:5], np.zeros(5), 16, "a test's 200 digits")
    model = DigitDenoiser().fit(X)
    monkeypatch.setattr(demo, "model_and_digits", lambda: (model, subsets))


def test_a_reloaded_lecturer_page_keeps_control_of_the_room():
    """The token is in the lecturer's own address (never the join link): a reload restores
    control, with the room's kernel and freeze as they were."""
    at, code, token = lecturer()
    assert at.query_params[view.ROOM] == code
    assert at.query_params[view.LECTURER_KEY] == token
    assert token not in view.join_link(code)
    store = view.room_store()
    student = store.join(code).student
    store.add_point(code, student, 0.5, 0.5, 2)
    store.set_kernel(code, token, "laplacian", 2.0)
    store.freeze(code, token)
    reloaded = open_view("class_room", query={view.ROOM: code, view.LECTURER_KEY: token})
    assert reloaded.session_state[view.LECTURER] == (code, token)
    assert reloaded.toggle(key="cl_freeze").value is True
    assert reloaded.selectbox(key="cl_kernel").value == "laplacian"
    assert reloaded.slider(key="cl_width_laplacian").value == 2.0
    assert "1 student, 1 point" in texts(reloaded) and token not in texts(reloaded)
    reloaded.button(key="cl_remove_student").click().run()  # student 1's
    seen = store.snapshot(code)
    assert len(seen.points) == 0
    assert seen.frozen and (seen.kernel, seen.width) == ("laplacian", 2.0)  # kept as they were


def test_a_wrong_lecturer_key_in_the_link_gives_no_control():
    at, code, token = lecturer()
    other = view.room_store().create()
    guessed = token[:-1] + ("A" if token[-1] != "A" else "B")
    for key in (guessed, other.token, code, "x" * 10_000):
        page = open_view(
            "class_room", query={view.ROOM: code, view.LECTURER_KEY: key}, state={"cl_freeze": True}
        )
        assert view.LECTURER not in page.session_state
        for widget in ("cl_freeze", "cl_clear", "cl_remove", "cl_kernel", "cl_close"):
            assert not [w for w in page.get("toggle") + page.get("button") if w.key == widget]
        if len(key) < 100:  # a key longer than any token is dropped from the link at once
            assert any("not this room's" in w.value for w in page.warning), key
        assert view.LECTURER_KEY not in page.query_params
        assert token not in repr(page.session_state)
    assert not view.room_store().snapshot(code).frozen
    # the lecturer's link of a closed room gives nothing either
    at.button(key="cl_close").click().run()
    closed = open_view("class_room", query={view.ROOM: code, view.LECTURER_KEY: token})
    assert view.LECTURER not in closed.session_state
    assert any("no open room" in w.value for w in closed.warning)


def test_students_points_and_digits_reach_the_projector(small_model):
    at, code, _ = lecturer()
    store = view.room_store()
    rng = np.random.default_rng(0)
    for _ in range(3):
        student = store.join(code).student
        for x, y in rng.uniform(-1.5, 1.5, (4, 2)):
            store.add_point(code, student, x, y, 1 + int(x > 0))
    store.add_digit(code, student, np.where(np.eye(16) > 0, 1.0, -1.0))
    at.run()
    assert not at.exception
    assert "3 students, 12 points, 1 digit" in texts(at)
    charts = {shown.key for shown in figures(at)}
    assert {"cl_points_chart", "cl_digits_chart"} <= charts
    (table,) = at.dataframe
    assert table.value["kind"].tolist() == ["point"] * 12 + ["digit"]
    assert table.value["student"].tolist()[-1] == 3


def test_the_projector_colours_each_point_by_the_group_its_student_chose():
    """The canvas's colours (group g in ``GROUPS[g - 1]``), outlined for both themes."""
    from kpca_core.figures.style import GROUPS, OUTLINE

    at, code, _ = lecturer()
    store = view.room_store()
    student = store.join(code).student
    placed = {1: [(-1.0, 0.5), (-0.5, 0.0)], 2: [(0.5, 0.5), (1.0, -0.5)], 3: [(0.0, -1.0)]}
    for group, xys in placed.items():
        for x, y in xys:
            store.add_point(code, student, x, y, group)
    at.run()
    assert not at.exception
    fig = chart(at, "cl_points_chart")
    markers = {t["name"]: t for t in fig["data"] if t.get("mode") == "markers" and "name" in t}
    assert set(markers) == {"group 1", "group 2", "group 3"}
    for group, xys in placed.items():
        trace = markers[f"group {group}"]
        assert trace["marker"]["color"] == GROUPS[group - 1]
        assert trace["marker"]["line"]["color"] == OUTLINE
        # every panel (kPC 1 and kPC 2) shows the group's points
        assert len(decode(trace["x"])) == view.N_COMPONENTS * len(xys)
    assert not [i for i in fig["layout"]["images"] if i.get("name") == "data"]  # no grey dots


def test_a_student_joins_from_the_link_and_adds_points_on_the_canvas():
    at, code, _ = lecturer()
    phone = open_view("class_room", query={"room": code.lower()})
    assert "student 1" in texts(phone)
    points = [[0.5, 0.5, 1], [-0.5, 0.25, 2], [1.0, -1.0, 3]]
    phone.session_state["cl_canvas"] = {"edit": {"seq": "a:1", "half": 2.0, "points": points}}
    phone.run()
    assert not phone.exception
    assert "your points: **3 of 20**" in texts(phone)
    seen = view.room_store().snapshot(code)
    np.testing.assert_allclose(seen.points, [p[:2] for p in points], atol=1e-3)
    assert seen.groups.tolist() == [1, 2, 3]
    # the canvas's own delete: the point leaves the room
    phone.session_state["cl_canvas"] = {"edit": {"seq": "a:2", "half": 2.0, "points": points[1:]}}
    phone.run()
    assert len(view.room_store().snapshot(code).points) == 2
    # and the projector shows it
    at.run()
    assert "1 student, 2 points, 0 digits" in texts(at)
    # "Undo my last" withdraws the latest, and the canvas shows what the room holds
    phone.button(key="cl_undo").click().run()
    assert len(view.room_store().snapshot(code).points) == 1
    assert len(phone.session_state["cl_drawing"]) == 1


def test_a_student_too_fast_is_told_and_the_canvas_shows_what_the_room_kept():
    _at, code, _ = lecturer()
    phone = open_view("class_room", query={"room": code})
    points = [[0.05 * i, 0.0, 1] for i in range(25)]
    phone.session_state["cl_canvas"] = {"edit": {"seq": "b:1", "half": 2.0, "points": points}}
    phone.run()
    assert any("Slow down" in w.value for w in phone.warning)
    assert len(phone.session_state["cl_drawing"]) == 10  # the rate limit: 10 in 10 s
    assert len(view.room_store().snapshot(code).points) == 10


def test_a_student_sends_a_digit_and_undoes_it():
    _at, code, _ = lecturer()
    phone = open_view("class_room", query={"room": code})
    strokes = [[[20, 10], [30, 30], [40, 50]], [[20, 50], [44, 12]]]
    phone.session_state["cl_pad_widget"] = {"strokes": {"seq": "p:1", "strokes": strokes}}
    phone.run()
    phone.button(key="cl_send").click().run()
    assert not phone.exception
    assert len(view.room_store().snapshot(code).digits) == 1
    assert len(phone.session_state["cl_writing"]) == 0  # a clean pad for the next
    phone.button(key="cl_undo").click().run()
    assert len(view.room_store().snapshot(code).digits) == 0


def test_the_lecturer_freezes_clears_and_removes():
    at, code, _ = lecturer()
    store = view.room_store()
    alice, bob = store.join(code), store.join(code)
    store.add_point(code, alice.student, 0, 0, 1)
    first_bob = store.add_point(code, bob.student, 1, 1, 2)
    store.add_point(code, bob.student, 1, 0, 2)
    at.run()
    at.toggle(key="cl_freeze").set_value(True).run()
    assert store.snapshot(code).frozen
    with pytest.raises(rooms.Frozen):
        store.add_point(code, alice.student, 0.5, 0, 1)
    at.number_input(key="cl_item").set_value(first_bob).run()
    at.button(key="cl_remove").click().run()
    assert len(store.snapshot(code).points) == 2
    at.number_input(key="cl_student").set_value(alice.number).run()
    at.button(key="cl_remove_student").click().run()
    assert store.snapshot(code).point_students.tolist() == [bob.number]
    at.selectbox(key="cl_kernel").set_value("laplacian").run()
    assert store.snapshot(code).kernel == "laplacian"
    at.button(key="cl_clear").click().run()
    assert len(store.snapshot(code).points) == 0
    assert not at.exception


def test_a_student_page_has_no_lecturer_controls_and_cannot_forge_them():
    _at, code, token = lecturer()
    phone = open_view("class_room", query={"room": code}, state={"cl_freeze": True})
    for key in ("cl_freeze", "cl_clear", "cl_remove", "cl_kernel", "cl_close"):
        assert not [w for w in phone.get("toggle") + phone.get("button") if w.key == key]
    assert not view.room_store().snapshot(code).frozen
    assert token not in repr(phone.session_state)


def test_open_in_contours_carries_the_points():
    at, code, _ = lecturer()
    store = view.room_store()
    student = store.join(code).student
    for x in (-1.0, 0.0, 1.0):
        store.add_point(code, student, x, x / 2, 2)
    at.run()
    link = view.points_link(store.snapshot(code), "contours", "ct")
    assert link.startswith("/contours?")
    contours = open_view("contours", query=dict(parse_qsl(urlsplit(link).query)))
    drawing = contours.session_state["ct_drawing"]
    np.testing.assert_allclose(drawing.X, [[-1, -0.5], [0, 0], [1, 0.5]], atol=1e-3)


def test_a_lost_redis_keeps_the_projectors_last_picture(monkeypatch):
    """The rooms in Debian's real redis-server, which stops while the projector shows them."""
    sys.path.insert(0, str(ROOT / "bench"))
    from redisserver import RedisServer, redis_binary

    if redis_binary() is None:
        pytest.skip("redis-server is not installed")
    with RedisServer() as server:
        monkeypatch.setenv(rooms.REDIS_ENV, server.url)
        view.room_store.cache_clear()
        at, code, _ = lecturer()
        store = view.room_store()
        student = store.join(code).student
        for x in (-1.0, 0.0, 1.0):
            store.add_point(code, student, x, x * x, 1)
        at.run()
        assert "1 student, 3 points" in texts(at)
    at.run()  # Redis has stopped
    assert not at.exception
    assert any("cannot be reached" in w.value for w in at.warning)
    assert "1 student, 3 points" in texts(at)
    assert "cl_points_chart" in {shown.key for shown in figures(at)}


def test_a_wrong_room_code_is_told_plainly():
    phone = open_view("class_room", query={"room": "ABCDEF"})
    assert any("no open room" in w.value for w in phone.warning)
    bad = open_view("class_room", query={"room": "<script>"})
    assert not bad.exception and "<script>" not in texts(bad)
