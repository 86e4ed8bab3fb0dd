"""An oversized drawing over the websocket: the server's memory and a bystander's redraws.

Issue #35, item 5: a script in the page sends a 24 MB canvas state (3 million
points; Streamlit's own limit is 25 MB).  This starts a server (KPCA_WORKERS=2),
opens a bystander session on the Fig. 2 preset and times its slider redraws
alone, then while ``--attackers`` connections each send one such state, and
prints the server process's RSS before, just after and ``--settle`` seconds
after::

    python3 bench/hostile_state.py                  # this checkout
    python3 bench/hostile_state.py --root /work/main   # another checkout, e.g. before

``--root`` runs another checkout's app with its own ``bench/appserver.py``.
Timings are noisy on a shared machine; memory is the server's own process.

Issue #50, item 10: with ``--pad`` each attacker sends the Demo page's handwriting
pad a state just under Streamlit's widget-state limit (``maxWidgetStateSize``, 1 MB)
instead, and its own run's seconds are printed: the pad's strokes were walked whole
before the caps applied (3-7 s a run)::

    python3 bench/hostile_state.py --pad --attackers 1
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from load_test import FIG2_LINK, Record, Scenario, Session  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

DRAW_LINK = "ct_data=Draw+your+own+points&ct_draw=1.2.AAAAAAAA"
TIMEOUT_S = 180.0
PAD_BYTES = 960_000
"""A pad state's size: the issue's 0.96 MB, under Streamlit's 1 MB limit."""


class Attacker(Session):
    """A session that remembers the widget id of its target, a component whose key ends with
    ``target`` (the drawing canvas, or the Demo's pad)."""

    canvas = ""
    target = "ct_canvas"

    def _read_delta(self, reply) -> bool:
        element = reply.delta.new_element
        if element.WhichOneof("type") == "bidi_component" and element.bidi_component.id.endswith(
            self.target
        ):
            self.canvas = element.bidi_component.id
        return super()._read_delta(reply)


def payload(points: int) -> str:
    """A canvas state of ``points`` points, as a script in the page could send it."""
    rows = ",".join(["[0.5,0.5,1]"] * points)
    return f'{{"edit":{{"seq":"x:1","half":2,"points":[{rows}]}}}}'


def pad_payload(size: int = PAD_BYTES) -> str:
    """A pad state of about ``size`` bytes: strokes of 1000 positions each."""
    stroke = "[" + ",".join(["[1,2]"] * 1000) + "]"
    strokes = ",".join([stroke] * (size // (len(stroke) + 1)))
    return f'{{"strokes":{{"seq":"x:1","strokes":[{strokes}]}}}}'


SMALL_PAD = '{"strokes":{"seq":"x:0","strokes":[[[10,8],[50,8],[28,60]]]}}'
"""A "7" as the pad sends it: the run of a small state, for comparison."""


async def pad_attack(url: str, state: str) -> tuple[float, float]:
    """Open the Demo page, send its pad a "7", then ``state``: the seconds of those two runs."""
    ws = await _connect(url)
    session = Attacker(ws, Scenario("attacker", "demo", ""), Record("attacker"))
    session.target = "dm_pad_widget"
    await session.run(timeout=TIMEOUT_S)
    seconds = []
    for sent in (SMALL_PAD, state):
        session.held[session.canvas] = ("json_value", sent)
        start = time.perf_counter()
        await session.run(timeout=TIMEOUT_S)
        seconds.append(time.perf_counter() - start)
    await ws.close()
    return seconds[0], seconds[1]


async def _connect(url: str):
    return await connect(
        url.replace("http://", "ws://") + "/_stcore/stream",
        subprotocols=["streamlit"],
        max_size=None,
        ping_interval=None,
    )


async def attack(url: str, state: str) -> str:
    """Open a drawing, send the state; what happened to the connection."""
    ws = await _connect(url)
    session = Attacker(ws, Scenario("attacker", "contours", DRAW_LINK), Record("attacker"))
    await session.run(timeout=TIMEOUT_S)
    session.held[session.canvas] = ("json_value", state)
    try:
        times = await session.run(timeout=TIMEOUT_S)
        outcome = "answered" if times else "no answer"
    except ConnectionClosed as closed:
        outcome = f"closed ({closed.rcvd.code if closed.rcvd else '?'})"
    with contextlib.suppress(Exception):
        await ws.close()
    return outcome


async def scenario(url: str, attackers: int, points: int, rss: Callable[[], int]) -> dict:
    ws = await _connect(url)
    record = Record("bystander")
    bystander = Session(ws, Scenario("contours", "contours", FIG2_LINK, ("ct_noise",)), record)
    await bystander.run(timeout=TIMEOUT_S)
    slider = next(iter(bystander.sliders.values()))
    values = iter([0.21 + 0.005 * i for i in range(200)])

    async def redraw() -> float:
        slider.value = [next(values)]
        times = await bystander.run(fragment_id=slider.fragment_id, timeout=TIMEOUT_S)
        return times[1] if times else TIMEOUT_S

    alone = [await redraw() for _ in range(5)]
    state = payload(points)
    before = rss()
    attacks = asyncio.gather(*(attack(url, state) for _ in range(attackers)))
    task = asyncio.ensure_future(attacks)
    beside = []
    while not task.done() or len(beside) < 5:
        beside.append(await redraw())
    outcomes = await task
    after = rss()
    await ws.close()
    return {
        "alone": alone,
        "beside": beside,
        "outcomes": outcomes,
        "bytes": len(state),
        "before": before,
        "after": after,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="checkout to serve")
    parser.add_argument("--attackers", type=int, default=3)
    parser.add_argument("--points", type=int, default=2_000_000, help="points per state")
    parser.add_argument("--settle", type=float, default=60.0, help="seconds before RSS again")
    parser.add_argument("--pad", action="store_true", help="a 0.96 MB pad state, its run timed")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root / "bench"))
    sys.modules.pop("appserver", None)
    from appserver import AppServer, rss_bytes

    with AppServer(env={"KPCA_WORKERS": "2"}) as server:
        pid = server.process.pid
        print(f"serving {args.root}: {server.url}")
        if args.pad:
            state = pad_payload()
            runs = [asyncio.run(pad_attack(server.url, state)) for _ in range(args.attackers)]
            print(
                "runs of a small pad state, then of one of "
                f"{len(state) / 1e6:.2f} MB (seconds): "
                + ", ".join(f"{small:.2f} then {large:.2f}" for small, large in runs)
            )
            return
        result = asyncio.run(
            scenario(server.url, args.attackers, args.points, lambda: rss_bytes(pid))
        )
        time.sleep(args.settle)
        settled = rss_bytes(pid)
        healthy = server.healthy()
    print(f"{args.attackers} states of {result['bytes'] / 1e6:.1f} MB: {result['outcomes']}")
    print(
        f"bystander redraw alone: median {statistics.median(result['alone']):.2f} s; "
        f"beside: median {statistics.median(result['beside']):.2f} s, "
        f"max {max(result['beside']):.2f} s ({len(result['beside'])} redraws)"
    )
    print(
        f"server RSS: {result['before'] / 1e6:.0f} MB before the states, "
        f"{result['after'] / 1e6:.0f} MB just after, "
        f"{settled / 1e6:.0f} MB {args.settle:g} s later; healthy: {healthy}"
    )


if __name__ == "__main__":
    main()
