"""Class mode's JSON endpoint for students (``kpca_ui/rooms/api.py``), called as ASGI."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest
from starlette.applications import Starlette

from kpca_ui.rooms import api
from kpca_ui.rooms import store as rooms


@pytest.fixture
def store(monkeypatch):
    monkeypatch.delenv(rooms.REDIS_ENV, raising=False)
    rooms.shared_store.cache_clear()
    yield rooms.shared_store()
    rooms.shared_store.cache_clear()


APP = Starlette(routes=api.routes())


def post(path: str, body: object, *, raw: bytes | None = None) -> tuple[int, dict]:
    """One POST through the ASGI app: its status and JSON answer."""
    data = raw if raw is not None else json.dumps(body).encode()
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": data, "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "POST",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "headers": [(b"content-type", b"application/json")],
    }
    # in a thread of its own: a browser test before may keep an event loop running here
    ThreadPoolExecutor(1).submit(asyncio.run, APP(scope, receive, send)).result()
    status = sent[0]["status"]
    return status, json.loads(b"".join(m.get("body", b"") for m in sent[1:]))


def test_a_student_joins_adds_a_point_and_undoes_it(store):
    room = store.create()
    status, joined = post("/api/class/join", {"room": room.code.lower()})
    assert status == 200 and joined["number"] == 1
    point = {"room": room.code, "student": joined["student"], "x": 0.5, "y": -0.5, "group": 2}
    status, added = post("/api/class/point", point)
    assert status == 200
    assert store.snapshot(room.code).point_ids.tolist() == [added["id"]]
    status, undone = post("/api/class/undo", {"room": room.code, "student": joined["student"]})
    assert (status, undone["id"]) == (200, added["id"])
    assert len(store.snapshot(room.code).points) == 0


@pytest.mark.parametrize(
    ("body", "raw", "status"),
    [
        ({"room": "ABCDEF"}, None, 404),  # no such room
        ({"room": "<b>x</b>"}, None, 404),
        ({"room": "ABCDEF", "extra": 1}, None, 422),
        (None, b"not json", 422),
        (None, b"[1, 2]", 422),
        (None, b'{"room": "' + b"A" * 2000 + b'"}', 422),  # too long a body
    ],
)
def test_a_bad_request_is_refused_and_nothing_is_echoed(store, body, raw, status):
    got, answer = post("/api/class/join", body, raw=raw)
    assert got == status
    assert "<b>" not in answer["error"] and "AAAA" not in answer["error"]


def test_refusals_have_their_status(store, monkeypatch):
    # one rate window for the whole test: the count starts again at each 10 s window's
    # start, and in a busy CI run the posts below straddled one (the last one accepted)
    now = store.clock()
    monkeypatch.setattr(store, "clock", lambda: now)
    room = store.create()
    _, joined = post("/api/class/join", {"room": room.code})
    point = {"room": room.code, "student": joined["student"], "x": 0, "y": 0, "group": 1}
    assert post("/api/class/point", {**point, "x": "nan"})[0] == 422
    assert post("/api/class/point", {**point, "student": "guess"})[0] == 403
    statuses = [post("/api/class/point", point)[0] for _ in range(store.limits.rate + 1)]
    assert statuses[-1] == 429 and set(statuses[:-1]) == {200}
    store.freeze(room.code, room.token)
    assert post("/api/class/point", point)[0] == 409


def test_the_lecturer_cannot_be_reached_from_here():
    assert {route.path for route in api.routes()} == {
        "/api/class/join",
        "/api/class/point",
        "/api/class/undo",
    }
