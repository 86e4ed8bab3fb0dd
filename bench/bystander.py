"""A bystander's redraws beside the heaviest allowed requests (issue #35, item 4).

Starts a server (KPCA_WORKERS=2) and, over Streamlit's websocket protocol
(``bench/load_test.py``'s client), ``--heavy`` sessions that each open the
Spectrum on the three rings with 2000 points and 60 Gaussian widths (43 s of a
core by ``kpca_core.budget``, within the 45 s budget; seeds 1, 2, …), while a bystander
redraws the Fig. 2 preset (a slider move) again and again until they are all
done.  Prints the bystander's median, p95 and largest redraw, alone and beside::

    python3 bench/bystander.py --heavy 2
    python3 bench/bystander.py --heavy 3 --root /work/main   # another checkout

Timings depend on what else the machine runs; say so with any figure quoted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from load_test import FIG2_LINK, Record, Scenario, Session  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

HEAVY_QUERY = {"sp_data": "Three rings, radii 1, 2, 4", "sp_n": 2000, "sp_nw": 60}
"""The heaviest allowed Spectrum request; each heavy session has its own seed, so that
none finds another's sweep in the shared caches."""
TIMEOUT_S = 600.0


async def _session(url: str, scenario: Scenario) -> tuple[Session, Record]:
    ws = await connect(
        url.replace("http://", "ws://") + "/_stcore/stream",
        subprotocols=["streamlit"],
        max_size=None,
        ping_interval=None,
    )
    record = Record(scenario.name)
    return Session(ws, scenario, record), record


def p95(values: list[float]) -> float:
    return sorted(values)[max(0, round(0.95 * len(values)) - 1)]


async def scenario(url: str, heavy: int) -> dict:
    bystander, record = await _session(url, Scenario("fig2", "contours", FIG2_LINK, ("ct_noise",)))
    await bystander.run(timeout=TIMEOUT_S)
    slider = next(iter(bystander.sliders.values()))
    values = iter([0.21 + 0.001 * (i % 500) for i in range(100_000)])

    async def redraw() -> float:
        slider.value = [next(values)]
        times = await bystander.run(fragment_id=slider.fragment_id, timeout=TIMEOUT_S)
        return times[1] if times else TIMEOUT_S

    alone = [await redraw() for _ in range(10)]
    scenarios = [
        Scenario(f"heavy{i}", "spectrum", urlencode({**HEAVY_QUERY, "sp_seed": i + 1}))
        for i in range(heavy)
    ]
    sessions = [await _session(url, scenario) for scenario in scenarios]
    started = time.monotonic()
    runs = [asyncio.ensure_future(s.run(timeout=TIMEOUT_S)) for s, _ in sessions]
    beside = []
    while not all(run.done() for run in runs):
        beside.append(await redraw())
    heavy_s = time.monotonic() - started
    errors = record.messages + [m for _, r in sessions for m in r.messages]
    return {"alone": alone, "beside": beside, "heavy_s": heavy_s, "errors": errors}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=HERE.parent, help="checkout to serve")
    parser.add_argument("--heavy", type=int, default=2, help="concurrent heaviest requests")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root / "bench"))
    sys.modules.pop("appserver", None)
    from appserver import AppServer

    with AppServer(env={"KPCA_WORKERS": "2"}) as server:
        result = asyncio.run(scenario(server.url, args.heavy))
    alone, beside = result["alone"], result["beside"]
    print(f"served {args.root}; {args.heavy} heaviest requests took {result['heavy_s']:.0f} s")
    print(
        f"bystander redraw alone: median {statistics.median(alone):.2f} s, p95 {p95(alone):.2f} s; "
        f"beside: median {statistics.median(beside):.2f} s, p95 {p95(beside):.2f} s, "
        f"max {max(beside):.2f} s ({len(beside)} redraws)"
    )
    if result["errors"]:
        print("errors:", result["errors"][:5])


if __name__ == "__main__":
    main()
