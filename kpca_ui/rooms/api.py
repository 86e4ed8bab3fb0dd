"""A small JSON endpoint for students' contributions, beside the Streamlit app.

A phone's page is a Streamlit session (``app_pages/class_room.py``); these
routes take the same contributions from a lighter client, without a session,
a websocket or a script run each: ``bench/class_load.py`` simulates a hall of
students with them. ``serve.py`` mounts them (``st.App(routes=...)``)::

    POST /api/class/join   {"room": "ABC234"}                              -> {"student", "number"}
    POST /api/class/point  {"room", "student", "x", "y", "group"}          -> {"id"}
    POST /api/class/undo   {"room", "student"}                             -> {"id"}

Every request is checked here, at one boundary, before the store sees it: a
body of at most :data:`MAX_BODY` bytes, a JSON object with exactly the keys of
its route, a room code (:func:`~kpca_ui.rooms.store.normal_code`); the values
are then checked by the store (:func:`~kpca_ui.rooms.store.point_item`).
A refusal is a 4xx answer ``{"error": <sentence>}`` (503 when the store cannot
be reached); nothing a request carries is echoed back.  The lecturer's actions
are not here: they need the lecturer's page.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from kpca_ui.rooms.store import (
    Full,
    Invalid,
    NotAllowed,
    RateLimited,
    RoomError,
    RoomGone,
    StoreUnavailable,
    normal_code,
    shared_store,
)

MAX_BODY = 1024
"""The longest request body (a point's request is about 100 bytes)."""
STATUS = {RoomGone: 404, NotAllowed: 403, RateLimited: 429, StoreUnavailable: 503, Full: 503}
"""HTTP status of each refusal; any other :class:`RoomError` (cap, freeze, invalid) is 409/422."""
FIELDS = {
    "join": {"room"},
    "point": {"room", "student", "x", "y", "group"},
    "undo": {"room", "student"},
}


def _refused(error: RoomError) -> JSONResponse:
    status = STATUS.get(type(error), 422 if isinstance(error, Invalid) else 409)
    return JSONResponse({"error": str(error)}, status_code=status)


async def _body(request: Request, route: str) -> dict:
    """The request's JSON object with exactly ``route``'s fields, its room code normalised."""
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > MAX_BODY:
            raise Invalid(f"A request is at most {MAX_BODY} bytes.")
    try:
        body = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise Invalid("The request is not JSON.") from None
    if not isinstance(body, dict) or set(body) != FIELDS[route]:
        raise Invalid(f"The request needs exactly: {', '.join(sorted(FIELDS[route]))}.")
    code = normal_code(body["room"])
    if code is None:
        raise RoomGone
    return {**body, "room": code}


def _route(name: str, act: Callable[[dict], dict]) -> Route:
    async def endpoint(request: Request) -> JSONResponse:
        try:
            body = await _body(request, name)
            # the store's calls block (Redis): in a thread, never in the server's event loop
            return JSONResponse(await run_in_threadpool(act, body))
        except RoomError as error:
            return _refused(error)

    endpoint.__name__ = f"class_{name}"
    handler: Callable[[Request], Awaitable[JSONResponse]] = endpoint
    return Route(f"/api/class/{name}", handler, methods=["POST"])


def _join(body: dict) -> dict:
    joined = shared_store().join(body["room"])
    return {"student": joined.student, "number": joined.number}


def _point(body: dict) -> dict:
    store = shared_store()
    return {
        "id": store.add_point(body["room"], body["student"], body["x"], body["y"], body["group"])
    }


def _undo(body: dict) -> dict:
    return {"id": shared_store().undo(body["room"], body["student"])}


def routes() -> list[Route]:
    """The endpoint's routes, for ``st.App(routes=...)``."""
    return [_route("join", _join), _route("point", _point), _route("undo", _undo)]
