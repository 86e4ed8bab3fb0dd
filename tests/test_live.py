"""The live figures' endpoint (``kpca_ui/live.py``), called as ASGI."""

from __future__ import annotations

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest
from starlette.applications import Starlette

from kpca_ui import live

BASE = "/lecture"
APP = Starlette(routes=[live.route(BASE)])
asked: list[tuple[str, float]] = []


def figure_json(slider: str, value: float) -> str:
    asked.append((slider, value))
    if value == 0.5:
        raise RuntimeError("an unforeseen failure")
    return json.dumps({"data": [], "layout": {"title": {"text": f"{slider} = {value:g}"}}})


def get(path: str, *, body: bytes | None = None, **query: str) -> tuple[int, dict, dict]:
    """One GET (or with ``body``, a POST) through the ASGI app: its status, headers and
    JSON answer."""
    sent: list[dict] = []

    async def receive() -> dict:
        return {"type": "http.request", "body": body or b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET" if body is None else "POST",
        "path": path,
        "raw_path": path.encode(),
        "query_string": urlencode(query).encode(),
        "headers": [],
    }
    # in a thread of its own: a browser test before may keep an event loop running here
    ThreadPoolExecutor(1).submit(asyncio.run, APP(scope, receive, send)).result()
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    return sent[0]["status"], headers, json.loads(b"".join(m.get("body", b"") for m in sent[1:]))


def test_a_held_value_is_answered_with_the_figure_and_kept():
    token = live.register(live.Live(figure_json, {"noise": (0.0, 1.0)}, ("test", 1)))
    url = live.url(BASE, token)
    assert url == f"{BASE}/_kpca/live/{token}"
    asked.clear()
    status, headers, figure = get(url, slider="noise", value="0.25")
    assert status == 200 and figure["layout"]["title"]["text"] == "noise = 0.25"
    assert headers["cache-control"] == "no-store"
    assert get(url, slider="noise", value="0.250")[2] == figure  # kept, not made again
    assert asked == [("noise", 0.25)]


def test_the_same_settings_are_named_by_the_same_token_and_others_by_another():
    first = live.register(live.Live(figure_json, {"noise": (0.0, 1.0)}, ("test", 2)))
    again = live.register(live.Live(figure_json, {"noise": (0.0, 1.0)}, ("test", 2)))
    other = live.register(live.Live(figure_json, {"noise": (0.0, 1.0)}, ("test", 3)))
    assert first == again != other


@pytest.mark.parametrize(
    ("query", "status"),
    [
        ({"slider": "noise", "value": "2"}, 422),  # out of the slider's range
        ({"slider": "noise", "value": "nan"}, 422),
        ({"slider": "noise", "value": "1e400"}, 422),
        ({"slider": "noise", "value": "<b>"}, 422),
        ({"slider": "noise"}, 422),
        ({"slider": "degree", "value": "0.5"}, 422),  # a slider the chart does not follow
        ({"value": "0.5"}, 422),
        ({"slider": "noise", "value": "0.5"}, 500),  # the figure could not be made
    ],
)
def test_a_request_that_cannot_be_answered_is_refused_with_a_sentence(query, status):
    token = live.register(live.Live(figure_json, {"noise": (0.0, 1.0)}, ("test", 4)))
    got, _, answer = get(live.url(BASE, token), **query)
    assert got == status and set(answer) == {"error"}
    assert "<b>" not in answer["error"]  # nothing the request carries is echoed


def test_an_unknown_token_is_not_found():
    status, _, answer = get(live.url(BASE, "f" * 32), slider="noise", value="0.5")
    assert status == 404 and "release" in answer["error"]


def drawn(slider: str, value: object) -> str:
    return json.dumps({"data": [], "layout": {"title": {"text": f"{slider}: {len(value)}"}}})


def test_a_drawing_posted_is_answered_with_its_figure_and_checked_first():
    token = live.register(live.Live(drawn, {}, ("test", 5), drawing="ct"))
    url = live.url(BASE, token)
    points = [[0.5, 0.5, 1], [-1, 1, 2], [1, -1, 3], ["x", 0, 1], [0, 0, 9]]
    status, _, figure = get(url, body=json.dumps({"points": points, "half": 2.0}).encode())
    assert status == 200 and figure["layout"]["title"]["text"] == "drawing: 3"  # 2 unreadable
    for body in (
        b"not json",
        b"[1, 2]",
        json.dumps({"points": points}).encode(),  # no half
        json.dumps({"points": points[:2], "half": 2.0}).encode(),  # fewer than 3 points
        json.dumps({"points": points * 1000, "half": 2.0}).encode(),  # longer than MAX_BODY
    ):
        status, _, answer = get(url, body=body)
        assert status == 422 and set(answer) == {"error"}, body[:40]
    slider_only = live.register(live.Live(drawn, {"noise": (0.0, 1.0)}, ("test", 6)))
    status, _, answer = get(live.url(BASE, slider_only), body=b'{"points": [], "half": 2}')
    assert status == 422 and "does not follow a drawing" in answer["error"]
