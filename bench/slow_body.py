"""Slow bodies: what connections that never finish their body cost the server and its users.

Issue #50, item 5: 3,000 connections that send ``Content-Length: 1000`` and one byte
stayed open 30 s and more (uvicorn, which serves ``st.App``, waits for a body as long as
its client likes).  ``kpca_ui/server.py``'s ``BodyDeadline`` now gives a body 5 s and
then 1 kB/s, and answers a late one 408.

For each checkout, the old one first (``--before DIR``; by default a worktree of
``--commit``) and then this one, one server at a time (``KPCA_WARMUP=0``): time a normal
user's requests at rest, open ``--slow`` (3000) connections that each send the live
route a POST's headers, ``Content-Length: 1000`` and one byte, then time the same
requests while they hang, and count the slow connections the server still holds
``--hold`` (30) s later.  The normal requests: ``GET /_stcore/health`` (the balancer's
probe), ``GET /`` (the page's HTML) and a live POST of a whole small body (read, then
refused 404: an unknown token), each ``--repeat`` (10) times, in turn.

Run from the repository root::

    .venv/bin/python bench/slow_body.py                    # 92f7806 vs this checkout
    .venv/bin/python bench/slow_body.py --before /tmp/before --slow 1000

Saves its table with ``bench.results.save("slow_body", ...)``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT))

from live_abandon import appserver_of, worktree  # noqa: E402

from bench.results import save  # noqa: E402

COMMIT = "92f7806"
"""The old code: no deadline on a request's body."""
LIVE = "/_kpca/live/" + "f" * 32
NORMAL = {"health": ("/_stcore/health", None), "page": ("/", None), "live POST": (LIVE, b"{}")}
"""A normal user's requests: path and body (None: a GET)."""


async def slow(host: str, port: int, hold: float) -> str:
    """One slow body: headers, ``Content-Length: 1000`` and one byte, then nothing; what the
    server did with it within ``hold`` seconds ("open": nothing)."""
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError as error:
        return f"not connected ({error.errno})"
    head = f"POST {LIVE} HTTP/1.1\r\nHost: {host}\r\nContent-Length: 1000\r\n\r\n{{"
    writer.write(head.encode())
    try:
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), hold)
        outcome = answer.split(b"\r\n", 1)[0].decode(errors="replace")[9:] or "closed"
    except TimeoutError:
        outcome = "open"
    except OSError:
        outcome = "reset"
    writer.close()
    return outcome


def timed(url: str, body: bytes | None) -> tuple[float, int]:
    """Seconds to one answer, and its status."""
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(url, data=body, timeout=300) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as error:
        error.read()
        status = error.code
    return time.perf_counter() - start, status


async def normal(url: str, repeat: int) -> tuple[dict[str, list[float]], dict[str, Counter]]:
    """Each normal request ``repeat`` times, in turn, in a thread (the slow ones on the loop):
    their seconds and statuses."""
    times: dict[str, list[float]] = {name: [] for name in NORMAL}
    statuses: dict[str, Counter] = {name: Counter() for name in NORMAL}
    for _ in range(repeat):
        for name, (path, body) in NORMAL.items():
            seconds, status = await asyncio.to_thread(timed, url + path, body)
            times[name].append(seconds)
            statuses[name][status] += 1
    return times, statuses


@dataclass
class Row:
    label: str
    idle: dict[str, list[float]] = field(default_factory=dict)
    hit: dict[str, list[float]] = field(default_factory=dict)
    hit_statuses: dict[str, Counter] = field(default_factory=dict)
    outcomes: Counter = field(default_factory=Counter)


async def measure_server(
    url: str, host: str, port: int, args: argparse.Namespace, row: Row
) -> None:
    row.idle, _ = await normal(url, args.repeat)
    attack = [asyncio.ensure_future(slow(host, port, args.hold)) for _ in range(args.slow)]
    await asyncio.sleep(2.0)  # all connected
    row.hit, row.hit_statuses = await normal(url, args.repeat)
    row.outcomes = Counter(await asyncio.gather(*attack))


def measure(label: str, root: Path, args: argparse.Namespace) -> Row:
    module = appserver_of(root)
    row = Row(label)
    with module.AppServer(env={"KPCA_WARMUP": "0"}, startup_timeout=120) as server:
        print(f"[{label}] {root}: {server.url}", flush=True)
        asyncio.run(measure_server(server.url, module.HOST, server.port, args, row))
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, metavar="DIR", help="the old checkout")
    parser.add_argument("--commit", default=COMMIT, help="without --before: its worktree")
    parser.add_argument("--slow", type=int, default=3000, help="slow connections")
    parser.add_argument("--hold", type=float, default=30.0, help="seconds they are watched")
    parser.add_argument("--repeat", type=int, default=10, help="each normal request, times")
    args = parser.parse_args()
    rows: list[Row] = []
    with contextlib.ExitStack() as stack:
        before = args.before or stack.enter_context(worktree(args.commit))
        for label, root in (("before", before), ("after", ROOT)):
            rows.append(measure(label, root.resolve(), args))
    columns = [
        "checkout",
        "request",
        "at rest: median (s)",
        "under slow bodies: median (s)",
        "max (s)",
        "its answers",
        f"slow connections open after {args.hold:g} s",
        "the slow ones answered",
    ]
    table = []
    for row in rows:
        answered = ", ".join(f"{k}: {v}" for k, v in sorted(row.outcomes.items()) if k != "open")
        for name in NORMAL:
            table.append(
                [
                    row.label,
                    name,
                    round(statistics.median(row.idle[name]), 3),
                    round(statistics.median(row.hit[name]), 3),
                    round(max(row.hit[name]), 3),
                    ", ".join(f"{k}: {v}" for k, v in sorted(row.hit_statuses[name].items())),
                    row.outcomes["open"],
                    answered or "-",
                ]
            )
    print(f"\n{args.slow} slow bodies on the live route (load average {os.getloadavg()[0]:.1f})")
    print(" | ".join(columns))
    for line in table:
        print(" | ".join(str(cell) for cell in line))
    save(
        "slow_body",
        f"{args.slow} connections that send Content-Length: 1000 and one byte, and a normal "
        "user's requests beside them",
        columns,
        table,
        note=f"each normal request {args.repeat} times at rest and while the slow bodies hang "
        "(its answers: statuses while they hang; the live POST's token is unknown, so 404 is "
        "its answer once read); open: slow connections the server still held "
        f"{args.hold:g} s after they were sent; the slow ones answered: the server's answers "
        "to the others",
    )


if __name__ == "__main__":
    main()
