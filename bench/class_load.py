"""Class mode under a lecture hall's load: 100 students, 10 points each, within 60 s.

Starts one Redis (Debian's ``redis-server``, ``bench/redisserver.py``), two
replicas of the app sharing it (``KPCA_REDIS_URL``) and HAProxy in front of them
(``bench/balancer.py``, the repository's ``deploy/haproxy.cfg``: cookie stickiness).
Through the balancer, a lecturer's projector (headless Chromium at 1280 × 720)
starts a room; then ``--students`` students each open their phone's page,
``/class_room?room=<CODE>``, which joins the room, and add ``--points`` points
on its drawing canvas at random moments of ``--seconds`` seconds.

Every student is a real Streamlit session, as a phone's is: it loads the page
through the balancer (HAProxy sets the replica's cookie), opens the websocket
with that cookie and speaks Streamlit's own protocol with the clients of
``bench/load_test.py`` (:class:`load_test.Client`, :class:`load_test.Session`).
A point is what the canvas (``kpca_ui/draw_canvas.js``) sends for a tap: its
whole drawing, grown by one point, as the component's state ``edit``
(``{"seq", "half", "points"}``, a new ``seq`` each time) in a rerun request;
the page (``kpca_ui/views/class_room.py``, ``sync_points``) adds it to the
room.  The next point grows the drawing the page's canvas then shows (without a
refused point, as a phone's canvas does).  A student sends one edit at a time,
at least ``window / rate`` seconds after the previous one (the room's limit:
10 per 10 s); a refusal is counted and reported, not retried.  There is no JSON
endpoint any more: the phones' pages are the only way in.

Measured:

- **acknowledgement**: from a student's edit sent to the reply that shows its
  count ("your points: **k of 20**"), and to the end of that script run;
- **projector refresh**: from a point's edit sent to the moment the
  projector's figure holds it (the page's figure is read every 50 ms in the
  browser; contribution numbers grow by one per accepted point, so the
  figure's number of points n holds every point numbered ≤ n; each point's
  number is read from the room in Redis at the end: a student's points, in the
  order it sent them, are its numbers in ascending order);
- **nothing lost**: every accepted point is on the projector at the end.

    python3 bench/class_load.py                       # 100 students × 10 points in 60 s
    python3 bench/class_load.py --students 20 --seconds 20   # a quick look

The students' clients run in this process, one thread of asyncio, on the same
cores as the replicas, the projector and Redis: on this 2-core machine the
times include that share.  Timings on a shared, loaded machine are noisy: run
it when the machine is quiet.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import resource
import statistics
import sys
import time
import uuid
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from appserver import AppServer
from balancer import HAProxy
from browser import VIEWPORT, launch_chromium
from load_test import Client, Record, Scenario, Session, percentile
from redisserver import RedisServer
from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from kpca_core.drawing import STEPS
from kpca_ui.rooms.store import HALF_WIDTH, REDIS_ENV, Limits
from kpca_ui.shell import REPLICA_ENV

PAGE = "class_room"
CANVAS_KEY = "cl_canvas"
"""The class page's canvas: its element's id ends with this key."""
COUNT = re.compile(r"You are student (\d+) · your points: \*\*(\d+) of (\d+)\*\*")
"""The student page's line with the student's number and count (``student_view``)."""
LIMITS = Limits()
"""The room's limits (the app's defaults)."""
GAP_S = 1.05 * LIMITS.window_s / LIMITS.rate
"""A student's points at least this far apart: never more than the rate in a window."""
TIMEOUT_S = 60.0
"""The longest wait for one script run."""

POLL_JS = """
() => {
  window.__shown = [];
  let last = -1;
  setInterval(() => {
    const graph = document.querySelector('.st-key-cl_points_chart .js-plotly-plot');
    const data = graph && graph.data && graph.data.find((t) => t.name === 'data');
    if (!data) return;
    const n = Number(data.x._inputArray ? data.x._inputArray.shape : data.x.length);
    if (n !== last) { last = n; window.__shown.push([Date.now() / 1000, n]); }
  }, 50);
}
"""
"""Record, in the projector's page, each time its figure's number of points changes."""
ALERTS_JS = "() => [...document.querySelectorAll('[data-testid=stAlert]')].map((e) => e.innerText)"
"""The messages on the projector's page (an error instead of the figure)."""


class StudentSession(Session):
    """A phone's session of the class page: also reads its count, canvas and warnings."""

    def __init__(self, ws, code: str, record: Record) -> None:
        super().__init__(ws, Scenario("student", PAGE, f"room={code}"), record)
        self.canvas_id = ""
        self.canvas_points: list[list[float]] = []
        """The drawing the page's canvas shows, as the server last sent it."""
        self.number: int | None = None
        """The student's number in the room ("You are student 7")."""
        self.count: int | None = None
        """The student's points, as the last run's page said."""
        self.count_at = 0.0
        """When that line arrived (``time.perf_counter()``)."""
        self.warnings: list[str] = []
        """Warnings of the last run (a refusal is one)."""

    def _read_delta(self, reply: ForwardMsg) -> bool:
        delta = reply.delta
        if delta.WhichOneof("type") == "new_element":
            element = delta.new_element
            kind = element.WhichOneof("type")
            if kind == "markdown" and (said := COUNT.search(element.markdown.body)):
                self.number, self.count = int(said[1]), int(said[2])
                self.count_at = time.perf_counter()
            elif kind == "bidi_component" and element.bidi_component.id.endswith(CANVAS_KEY):
                self.canvas_id = element.bidi_component.id
                self.canvas_points = json.loads(element.bidi_component.json or "{}").get(
                    "points", []
                )
            elif kind == "alert" and element.alert.format == Alert.Format.WARNING:
                self.warnings.append(element.alert.body)
        return super()._read_delta(reply)

    async def rerun(self) -> tuple[float, float] | None:
        """A rerun as the page's last state asks; (seconds to the count's line, to the end)."""
        self.count, self.warnings = None, []
        start = time.perf_counter()
        times = await self.run(timeout=TIMEOUT_S)
        if times is None:
            return None
        return (self.count_at - start if self.count is not None else times[1]), times[1]


@dataclass
class Edit:
    """One point a student added: its edit and the page's answer."""

    sent: float
    """When the edit was sent (``time.time()``, the projector's clock)."""
    shown: float
    """Seconds to the reply that showed the student's count."""
    done: float
    """Seconds to the end of the run."""
    accepted: bool
    refusal: str = ""
    item: int | None = None
    """The point's contribution number in the room (read at the end)."""


@dataclass
class Student:
    """One phone: its record (load_test's), its place in the room and its edits."""

    record: Record
    number: int | None = None
    opened: float | None = None
    """Seconds to open the page (which joins the room)."""
    edits: list[Edit] = field(default_factory=list)


def schedule(rng: random.Random, n_points: int, span: float) -> list[float]:
    """``n_points`` random moments of ``span`` seconds, at least :data:`GAP_S` apart (evenly
    spread if they do not fit: then the room may refuse some)."""
    if n_points <= 1:
        return [rng.uniform(0, span) for _ in range(n_points)]
    free = span - GAP_S * (n_points - 1)
    if free < 0:
        return [span * k / (n_points - 1) for k in range(n_points)]
    return [
        at + GAP_S * k for k, at in enumerate(sorted(rng.uniform(0, free) for _ in range(n_points)))
    ]


def new_point(rng: random.Random) -> list[float]:
    """A tap in [−1.8, 1.8]², on the drawing's grid (what the room keeps), its group by quadrant."""
    step = 2 * HALF_WIDTH / STEPS
    x, y = (round(rng.uniform(-1.8, 1.8) / step) * step for _ in range(2))
    return [x, y, 1 + (x > 0) + (y > 0)]


async def run_student(
    base: str,
    code: str,
    i: int,
    n_points: int,
    *,
    opens_at: float,
    ends_at: float,
    over: asyncio.Event,
    finished: set[int],
) -> Student:
    """Open the page at ``opens_at`` (``time.monotonic()``), add the points until ``ends_at``,
    then say so (``finished``) and stay connected until the class is ``over``."""
    rng = random.Random(i)
    student = Student(Record("student", f"s{i}"))
    record = student.record
    client = Client(base, record.name)
    try:
        await asyncio.sleep(max(0.0, opens_at - time.monotonic()))
        await client.get(f"/{PAGE}?room={code}", TIMEOUT_S)
        async with connect(
            base.replace("http://", "ws://") + "/_stcore/stream",
            subprotocols=["streamlit"],
            additional_headers=client.headers,
            max_size=None,
            open_timeout=TIMEOUT_S,
            ping_interval=None,  # browsers do not ping; the server pings them
        ) as ws:
            client.remember(ws.response.headers.get_all("Set-Cookie"))
            record.replicas.append(client.replica)
            session = StudentSession(ws, code, record)
            opened = await session.rerun()
            if opened is None or session.number is None or not session.canvas_id:
                record.messages.append(f"the page did not join the room: {session.warnings}")
                return student
            student.opened, student.number = opened[1], session.number
            started = time.monotonic()
            tag = uuid.uuid4().hex[:8]  # the canvas's id in its edits' tokens
            for k, at in enumerate(schedule(rng, n_points, ends_at - started), 1):
                await session.wait(started + at - time.monotonic())
                points = [*session.canvas_points, new_point(rng)]
                edit = {"seq": f"{tag}:{k}", "half": HALF_WIDTH, "points": points}
                session.held[session.canvas_id] = ("json_value", json.dumps({"edit": edit}))
                sent = time.time()
                answer = await session.rerun()
                if answer is None:
                    break
                accepted = session.count == len(points)
                refusal = "" if accepted else (session.warnings or ["not added"])[-1]
                student.edits.append(Edit(sent, *answer, accepted, refusal))
            finished.add(i)
            while not over.is_set():  # a phone stays on the page until the class ends
                await session.wait(0.5)
    except (OSError, WebSocketException) as error:  # urllib's errors are OSErrors
        record.disconnects += 1
        record.messages.append(f"connection: {error!r}")
    finally:
        finished.add(i)
    return student


async def run_class(
    base: str, code: str, n_students: int, n_points: int, seconds: float
) -> list[Student]:
    """The students: they open their pages within the first sixth of ``seconds`` (as the
    lecturer shows the code), then each adds its points until ``seconds`` have passed."""
    start, over, finished = time.monotonic(), asyncio.Event(), set()
    ramp = seconds / 6
    tasks = [
        asyncio.create_task(
            run_student(
                base,
                code,
                i,
                n_points,
                opens_at=start + ramp * i / n_students,
                ends_at=start + seconds,
                over=over,
                finished=finished,
            )
        )
        for i in range(n_students)
    ]
    while len(finished) < n_students:
        await asyncio.sleep(0.2)
    over.set()
    return list(await asyncio.gather(*tasks))


@dataclass
class Result:
    """What one run measured (seconds)."""

    joined: int
    sent: int
    accepted: int
    refused: dict
    shown: int
    """Points on the projector at the end."""
    missing: int
    """Accepted points never on the projector."""
    opens: list[float]
    acks: list[float]
    """Edit sent → the reply showing the student's new count."""
    runs: list[float]
    """Edit sent → the end of its script run."""
    refresh: list[float]
    redraws: int
    errors: dict = field(default_factory=dict)
    replicas: dict = field(default_factory=dict)
    last_ack: float = 0.0
    """Seconds from the class's start (the first page opening) to the last point acknowledged."""

    def report(self, limit: float) -> bool:
        """Print the numbers; whether they are within ``limit`` seconds (p95 and max)."""
        print(
            f"joined: {self.joined} (students per replica {self.replicas}); points sent "
            f"{self.sent}, accepted {self.accepted}, refused {sum(self.refused.values())}"
            + "".join(f"\n  refused {n}×: {why[:120]}" for why, n in self.refused.items())
        )
        print(
            f"on the projector at the end: {self.shown} points; "
            f"accepted but never shown: {self.missing}"
        )
        errors = ", ".join(f"{what} {n}" for what, n in self.errors.items())
        print(f"errors: {sum(self.errors.values())} ({errors})")
        for label, values in (
            ("open the page (join)", self.opens),
            ("acknowledgement (sent → count shown)", self.acks),
            ("acknowledgement (sent → run ended)", self.runs),
        ):
            if values:
                print(f"{label}: {stats(values, 3)}")
        print(f"last point acknowledged {self.last_ack:.1f} s after the class began")
        if self.refresh:
            print(
                f"projector refresh (sent → on the figure): {stats(self.refresh, 2)} "
                f"({self.redraws} redraws)"
            )
        return bool(
            self.missing == 0
            and self.joined
            and self.accepted == self.sent
            and not sum(self.errors.values())
            and self.acks
            and max(self.acks) <= limit
            and self.refresh
            and percentile(self.refresh, 95) <= limit
        )


def stats(values: list[float], digits: int) -> str:
    return (
        f"median {statistics.median(values):.{digits}f} s, "
        f"p95 {percentile(values, 95):.{digits}f} s, max {max(values):.{digits}f} s"
    )


def number_points(students: list[Student], code: str, redis_url: str) -> dict[str, int]:
    """Give each accepted point its contribution number, from the room in Redis: a student's
    accepted points, in the order it sent them, are its numbers in ascending order.

    Returns the discrepancies found (students whose page and room disagree), by kind.
    """
    from kpca_ui.rooms.redis_store import RedisStore

    room = RedisStore(redis_url).snapshot(code)
    found: Counter = Counter()
    for student in students:
        if student.number is None:
            continue
        items = sorted(room.point_ids[room.point_students == student.number].tolist())
        accepted = [e for e in student.edits if e.accepted]
        if len(items) != len(accepted):
            found["room and page disagree"] += 1
        for edit, item in zip(accepted, items, strict=False):
            edit.item = item
    return dict(found)


def measure(n_students: int, n_points: int, seconds: float) -> Result:
    """Run the class (see the module's docstring) and measure it."""
    from playwright.sync_api import sync_playwright

    with RedisServer() as redis:
        env = {REDIS_ENV: redis.url}
        usps = os.environ.get("KPCA_USPS_DIR")
        if usps:
            env["KPCA_USPS_DIR"] = usps
        with (
            AppServer(env={**env, REPLICA_ENV: "app1"}) as app1,
            AppServer(env={**env, REPLICA_ENV: "app2"}) as app2,
            HAProxy({"app1": app1.port, "app2": app2.port}) as balancer,
            sync_playwright() as playwright,
        ):
            for app in (app1, app2):  # a lecture's servers have warmed up before the class
                try:
                    app.wait_quiet()
                except TimeoutError as busy:
                    print(f"note: {busy}", flush=True)
            browser = launch_chromium(playwright)
            projector = browser.new_context(viewport=VIEWPORT).new_page()
            projector.set_default_timeout(120_000)
            projector.goto(f"{balancer.url}/{PAGE}")
            projector.get_by_role("button", name="Start a room").click()
            projector.wait_for_selector(".cl-counts")
            code = projector.evaluate(
                "() => document.body.innerText.match(/room=([A-Z0-9]{6})/)[1]"
            )
            projector.evaluate(POLL_JS)
            load_before = os.getloadavg()[0]
            print(
                f"room {code} on {balancer.url}; {n_students} students × {n_points} "
                f"points in {seconds:g} s, each a Streamlit session (load average "
                f"{load_before:.1f})",
                flush=True,
            )
            started = time.time()
            with ThreadPoolExecutor(1) as pool:
                future = pool.submit(
                    asyncio.run, run_class(balancer.url, code, n_students, n_points, seconds)
                )
                # keep the projector's page served while the students send
                while not future.done():
                    projector.wait_for_timeout(200)
                students = future.result()
            disagree = number_points(students, code, redis.url)
            accepted = [e for s in students for e in s.edits if e.accepted]
            last = max((e.item for e in accepted if e.item is not None), default=0)
            deadline = time.time() + 30
            shown: list = []
            while time.time() < deadline:
                shown = projector.evaluate("() => window.__shown")
                if shown and shown[-1][1] >= last:
                    break
                projector.wait_for_timeout(200)
            if not shown or shown[-1][1] < last:  # say what the projector shows instead
                for alert in projector.evaluate(ALERTS_JS):
                    print(f"  ! the projector says: {' '.join(alert.split())[:200]}")
            browser.close()

    edits = [e for s in students for e in s.edits]
    records = [s.record for s in students]
    refresh = []
    for e in accepted:
        seen = next((t for t, n in shown if e.item is not None and n >= e.item), None)
        if seen is not None:
            refresh.append(seen - e.sent)
    errors = {
        "exceptions": sum(r.exceptions for r in records),
        "st.error": sum(r.error_alerts for r in records),
        "timeouts": sum(r.timeouts for r in records),
        "lost connections": sum(r.disconnects for r in records),
        "not joined": sum(s.number is None for s in students),
        **disagree,
    }
    for message in sorted({m for r in records for m in r.messages})[:10]:
        print(f"  ! {message}")
    clients = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"these clients' CPU {clients.ru_utime + clients.ru_stime:.0f} s (students and "
        f"projector driver) on {os.cpu_count()} cores; load average {load_before:.1f} "
        f"before, {os.getloadavg()[0]:.1f} after"
    )
    return Result(
        joined=sum(s.number is not None for s in students),
        sent=len(edits),
        accepted=len(accepted),
        refused=dict(Counter(e.refusal for e in edits if not e.accepted)),
        shown=shown[-1][1] if shown else 0,
        missing=len(accepted) - len(refresh),
        opens=[s.opened for s in students if s.opened is not None],
        acks=[e.shown for e in edits],
        runs=[e.done for e in edits],
        refresh=refresh,
        redraws=len(shown),
        errors=errors,
        replicas=dict(sorted(Counter(r.replicas[0] for r in records if r.replicas).items())),
        last_ack=max((e.sent + e.done for e in edits), default=started) - started,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--students", type=int, default=100)
    parser.add_argument("--points", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--limit", type=float, default=2.0, help="seconds allowed (p95, max)")
    args = parser.parse_args()
    ok = measure(args.students, args.points, args.seconds).report(args.limit)
    print("OK" if ok else "NOT OK")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
