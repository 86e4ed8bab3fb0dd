"""The live figures' endpoint (``kpca_ui/live.py``), called as ASGI."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlencode

import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware

from kpca_ui import live
from kpca_ui.cache import memo
from kpca_ui.server import BodyDeadline
from kpca_ui.settings import number

BASE = "/lecture"
APP = Starlette(routes=[live.route(BASE)], middleware=[Middleware(BodyDeadline)])
"""The route as served: behind the deadline on bodies that every route has."""
asked: list[tuple[str, float]] = []
NOISE = (number("noise", "Noise", 0.0, 1.0, 0.2),)


@memo
def figure_json(slider: str, value: float) -> str:
    asked.append((slider, value))
    if value == 0.5:
        raise RuntimeError("an unforeseen failure")
    return json.dumps({"data": [], "layout": {"title": {"text": f"{slider} = {value:g}"}}})


def register(figure, settings: object, sliders=NOISE, session: str = "a", **kw) -> str:
    return live.register(live.Live(figure, sliders, settings, **kw), session)


def get(
    path: str,
    *,
    body: bytes | None = None,
    gone: bool = False,
    leaves: threading.Event | None = None,
    client: str = "127.0.0.1",
    **query: str,
) -> tuple[int, dict, dict]:
    """One GET (or with ``body``, a POST) through the ASGI app: its status, headers and
    JSON answer; ``gone``: its browser has left, ``leaves``: it leaves when that is set,
    ``client``: its address."""
    sent: list[dict] = []

    async def receive() -> dict:
        if gone or (leaves is not None and leaves.is_set()):
            return {"type": "http.disconnect"}
        return {"type": "http.request", "body": body or b"", "more_body": False}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "method": "GET" if body is None else "POST",
        "path": path,
        "raw_path": path.encode(),
        "query_string": urlencode(query).encode(),
        "headers": [] if body is None else [(b"content-length", b"%d" % len(body))],
        "client": (client, 50000),
    }
    # in a thread of its own: a browser test before may keep an event loop running here
    ThreadPoolExecutor(1).submit(asyncio.run, APP(scope, receive, send)).result()
    headers = {k.decode(): v.decode() for k, v in sent[0]["headers"]}
    return sent[0]["status"], headers, json.loads(b"".join(m.get("body", b"") for m in sent[1:]))


def test_a_held_value_is_answered_with_the_figure_of_the_shared_cache():
    token = register(figure_json, ("test", 1))
    url = live.url(BASE, token)
    assert url == f"{BASE}/_kpca/live/{token}"
    asked.clear()
    status, headers, figure = get(url, slider="noise", value="0.25")
    assert status == 200 and figure["layout"]["title"]["text"] == "noise = 0.25"
    assert headers["cache-control"] == "no-store"
    assert get(url, slider="noise", value="0.250")[2] == figure  # kept, not made again
    assert asked == [("noise", 0.25)]


def test_a_press_is_answered_with_its_figure_and_no_value():
    pressed: list[tuple[str, object]] = []

    def figure(slider: str, value: object) -> str:
        pressed.append((slider, value))
        return json.dumps({"data": [], "layout": {}})

    url = live.url(BASE, register(figure, ("test", 13), presses=("ct_preset_rings",)))
    assert get(url, slider="ct_preset_rings", value="")[0] == 200
    assert get(url, slider="ct_preset_dk5", value="")[0] == 422  # not one of its presses
    assert pressed == [("ct_preset_rings", None)]


def test_a_token_names_a_session_and_its_settings():
    first = register(figure_json, ("test", 2))
    assert first == register(figure_json, ("test", 2))
    assert first != register(figure_json, ("test", 3))
    assert first != register(figure_json, ("test", 2), session="another")


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
    token = register(figure_json, ("test", 4))
    got, _, answer = get(live.url(BASE, token), **query)
    assert got == status and set(answer) == {"error"}
    assert "<b>" not in answer["error"]  # nothing the request carries is echoed


def test_an_unknown_token_is_not_found():
    status, _, answer = get(live.url(BASE, "f" * 32), slider="noise", value="0.5")
    assert status == 404 and "release" in answer["error"]


def drawn(slider: str, value: object) -> str:
    return json.dumps({"data": [], "layout": {"title": {"text": f"{slider}: {len(value)}"}}})


def test_a_drawing_posted_is_answered_with_its_figure_and_checked_first():
    token = register(drawn, ("test", 5), sliders=(), drawing="ct")
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
    slider_only = register(drawn, ("test", 6))
    status, _, answer = get(live.url(BASE, slider_only), body=b'{"points": [], "half": 2}')
    assert status == 422 and "does not follow a drawing" in answer["error"]


computed: list[float] = []


def slow(slider: str, value: float) -> str:
    computed.append(value)
    time.sleep(0.3)
    return json.dumps({"data": [], "layout": {"title": {"text": f"{value:g}"}}})


def test_a_request_whose_browser_has_left_is_not_computed():
    """200 requests of a page closed at once made the next visitor wait 58.6 s (#49)."""
    computed.clear()
    url = live.url(BASE, register(slow, ("test", 7)))
    statuses = [get(url, gone=True, slider="noise", value=f"0.{k}")[0] for k in range(1, 9)]
    assert statuses == [409] * 8
    assert computed == []


def test_of_one_pages_requests_the_newest_wins_and_older_waiting_ones_are_never_computed():
    computed.clear()
    url = live.url(BASE, register(slow, ("test", 8)))
    answers: dict[str, int] = {}

    def ask(value: str) -> None:
        answers[value] = get(url, slider="noise", value=value)[0]

    first = threading.Thread(target=ask, args=("0.1",))
    first.start()
    time.sleep(0.1)  # the first computes; the next two wait behind it
    waiting = [threading.Thread(target=ask, args=(value,)) for value in ("0.2", "0.3")]
    for thread in waiting:
        thread.start()
        time.sleep(0.05)
    for thread in (first, *waiting):
        thread.join()
    assert answers == {"0.1": 200, "0.2": 409, "0.3": 200}
    assert computed == [0.1, 0.3]


def test_a_request_whose_browser_leaves_while_it_computes_frees_its_pages_turn_at_once():
    """Its figure, which nothing stops (a small grid in a worker), need not hold up the next."""
    held, left = threading.Event(), threading.Event()

    def stuck(slider: str, value: float) -> str:
        if value == 0.1:
            held.wait(10)
        return json.dumps({"data": [], "layout": {}})

    url = live.url(BASE, register(stuck, ("test", 9)))
    answers: dict[str, int] = {}
    first = threading.Thread(
        target=lambda: answers.setdefault(
            "0.1", get(url, leaves=left, slider="noise", value="0.1")[0]
        )
    )
    first.start()
    time.sleep(0.1)  # it computes
    left.set()
    first.join(timeout=5)
    try:
        assert answers == {"0.1": 409}  # answered while its figure is still being made
        assert get(url, slider="noise", value="0.2")[0] == 200
    finally:
        held.set()


def test_a_run_of_the_page_starts_once_its_sessions_figure_being_computed_is_drawn(monkeypatch):
    """A click on a slider's track asks for the figure and runs the page at once: the run
    waits (live.after) until the figure is answered and, DRAWN_S more, drawn, so that the
    figure the reader sees first shares neither the server nor the browser with it; another
    session's run does not wait."""
    monkeypatch.setattr(live, "DRAWN_S", 0.5)
    held, events = threading.Event(), []

    def stuck(slider: str, value: float) -> str:
        held.wait(10)
        events.append("answered")
        threading.Timer(0.2, events.append, ["drawn"]).start()  # the browser's drawing
        return json.dumps({"data": [], "layout": {}})

    url = live.url(BASE, register(stuck, ("test", 12), session="c"))
    asking = threading.Thread(target=get, args=(url,), kwargs={"slider": "noise", "value": "0.1"})
    asking.start()
    while "c" not in live._BUSY:  # it computes
        time.sleep(0.01)
    live.after("d")  # another session's run: at once
    run = threading.Thread(target=lambda: (live.after("c"), events.append("run")))
    run.start()
    time.sleep(0.1)
    events.append("released")
    held.set()
    for thread in (asking, run):
        thread.join(timeout=5)
    assert events == ["released", "answered", "drawn", "run"]


def test_of_one_sessions_charts_the_newest_wins():
    """Per session, not per chart: a session's tokens (one per settings) are as many
    requests at once (#50, item 4)."""
    computed.clear()
    first, second = (live.url(BASE, register(slow, ("test", k), session="b")) for k in (10, 11))
    answers: dict[str, int] = {}

    def ask(url: str, value: str) -> None:
        answers[value] = get(url, slider="noise", value=value)[0]

    threads = [
        threading.Thread(target=ask, args=(url, value))
        for url, value in ((first, "0.1"), (second, "0.2"), (first, "0.3"))
    ]
    for thread in threads:
        thread.start()
        time.sleep(0.1)  # the first computes; the next two wait behind it
    for thread in threads:
        thread.join()
    assert answers == {"0.1": 200, "0.2": 409, "0.3": 200}
    assert computed == [0.1, 0.3]


def test_a_session_asking_faster_than_its_rate_is_told_when_to_ask_again(monkeypatch):
    # a slow refill: the burst is spent however long this machine takes for the requests
    monkeypatch.setattr(live._BY_SESSION, "rate", 0.5)
    url = live.url(BASE, register(figure_json, ("test", 12), session="c"))
    statuses, waits = [], set()
    for _ in range(live.SESSION_BURST + 10):
        status, headers, _ = get(url, slider="noise", value="0.25")  # kept: answered at once
        statuses.append(status)
        if status == 429:
            waits.add(headers["retry-after"])
    assert set(statuses) == {200, 429} and statuses[0] == 200
    assert waits and all(wait.isdigit() and int(wait) >= 1 for wait in waits)
    other = live.url(BASE, register(figure_json, ("test", 12), session="d"))
    assert get(other, slider="noise", value="0.25")[0] == 200  # another session is not slowed


def test_one_address_cannot_take_more_than_its_share_of_the_computations():
    """Its sessions' requests in flight at once are bounded, so one client (a script of many
    sessions) cannot hold every place of :data:`~kpca_ui.live.WAITING`."""
    held = threading.Event()

    def stuck(slider: str, value: float) -> str:
        held.wait(10)
        return json.dumps({"data": [], "layout": {}})

    urls = [
        live.url(BASE, register(stuck, ("test", 13), session=f"e{k}"))
        for k in range(live.ADDRESS_IN_FLIGHT + 1)
    ]
    answers: dict[int, int] = {}

    def ask(k: int) -> None:
        answers[k] = get(urls[k], client="10.0.0.1", slider="noise", value="0.1")[0]

    threads = [threading.Thread(target=ask, args=(k,)) for k in range(len(urls))]
    try:
        for thread in threads[:-1]:
            thread.start()
        time.sleep(0.2)  # they compute
        threads[-1].start()
        threads[-1].join(timeout=5)
        assert answers == {live.ADDRESS_IN_FLIGHT: 429}
        elsewhere = live.url(BASE, register(figure_json, ("test", 14), session="f"))
        assert get(elsewhere, client="10.0.0.2", slider="noise", value="0.3")[0] == 200
    finally:
        held.set()
        for thread in threads:
            thread.join()
    assert list(answers.values()).count(200) == live.ADDRESS_IN_FLIGHT
