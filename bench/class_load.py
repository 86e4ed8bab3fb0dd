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
    python3 bench/class_load.py --flood               # 30 students and one hostile client

With ``--flood`` (issue #50): 30 students join within 10 s and add their points over
125 s; from 55 s on, one client scripts joins (a new session every 0.5 s) and points (each
joined session sends 10 more every 2 s) for 60 s; 20 s into the flood the lecturer clicks
"Lock, and remove everyone who joined in the last 60 s" in the projector's popover.  A
student's tap is on the projector when its coordinates are in the figure's points (a room
of more than 500 points is drawn from a sample: a tap sampled out is counted, not timed).
Its table is saved as ``class_flood`` (:func:`bench.results.save`).

The students' clients run in this process, one thread of asyncio, on the same
cores as the replicas, the projector and Redis: on this 2-core machine the
times include that share.  Timings on a shared, loaded machine are noisy: run
it when the machine is quiet.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
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

SEEN_JS = """
() => {
  window.__seenAt = {};
  const values = (a) => Array.from(a && a._inputArray ? a._inputArray : a || []);
  setInterval(() => {
    const graph = document.querySelector('[class*="st-key-cl_points_chart"] .js-plotly-plot');
    const data = graph && graph.data && graph.data.find((t) => t.name === 'data');
    if (!data) return;
    const xs = values(data.x), ys = values(data.y), now = Date.now() / 1000;
    for (let i = 0; i < xs.length; i++) {
      const key = `${Number(xs[i]).toFixed(3)},${Number(ys[i]).toFixed(3)}`;
      if (!(key in window.__seenAt)) window.__seenAt[key] = now;
    }
  }, 50);
}
"""
"""Record, in the projector's page, when each point's coordinates first appear in its figure."""
COUNTS_JS = "() => document.querySelector('.cl-counts').innerText"
FLOOD_JOIN_GAP_S = 0.5
"""The flooder opens a new session (a join) this often."""
FLOOD_EDIT_GAP_S = 2.0
"""Each joined flood session sends 10 more points this often."""
FLOOD_AT_S, FLOOD_S, ACT_AFTER_S, FLOOD_CLASS_S = 55.0, 60.0, 20.0, 125.0
"""The flood's start, length, the lecturer's click after its start, the class's length."""
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
            elif kind == "alert" and element.alert.format in (
                Alert.Format.WARNING,
                Alert.Format.INFO,
            ):
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
    xy: tuple[float, float] = (0.0, 0.0)


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


def stream(base: str, client: Client) -> connect:
    """A browser's websocket to the app at ``base``, with ``client``'s cookies."""
    return connect(
        base.replace("http://", "ws://") + "/_stcore/stream",
        subprotocols=["streamlit"],
        additional_headers=client.headers,
        max_size=None,
        open_timeout=TIMEOUT_S,
        ping_interval=None,  # browsers do not ping; the server pings them
    )


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
        async with stream(base, client) as ws:
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
                xy = (points[-1][0], points[-1][1])
                student.edits.append(Edit(sent, *answer, accepted, refusal, xy=xy))
            finished.add(i)
            while not over.is_set():  # a phone stays on the page until the class ends
                await session.wait(0.5)
    except (OSError, WebSocketException) as error:  # urllib's errors are OSErrors
        record.disconnects += 1
        record.messages.append(f"connection: {error!r}")
    finally:
        finished.add(i)
    return student


@dataclass
class Flood:
    """What the hostile client did and what the room let it do."""

    tried: int = 0
    """Sessions opened (each a join)."""
    joined: int = 0
    sent: int = 0
    """Points sent (edits of 10)."""
    accepted: int = 0
    refusals: Counter = field(default_factory=Counter)


async def flood_session(base: str, flood: Flood, code: str, ends_at: float) -> None:
    """One scripted join; once in, 10 more points every :data:`FLOOD_EDIT_GAP_S` until
    ``ends_at`` (``time.monotonic()``)."""
    rng = random.Random(flood.tried)
    client = Client(base, f"flood{flood.tried}")
    with contextlib.suppress(OSError, WebSocketException, TimeoutError):
        await client.get(f"/{PAGE}?room={code}", TIMEOUT_S)
        async with stream(base, client) as ws:
            session = StudentSession(ws, code, Record("flood", client.name))
            if await session.rerun() is None or session.number is None:
                flood.refusals[(session.warnings or ["no answer"])[-1][:60]] += 1
                return
            flood.joined += 1
            tag = uuid.uuid4().hex[:8]
            for k in itertools.count(1):
                if time.monotonic() >= ends_at:
                    return
                before = session.count or 0
                points = session.canvas_points + [new_point(rng) for _ in range(10)]
                edit = {"seq": f"{tag}:{k}", "half": HALF_WIDTH, "points": points}
                session.held[session.canvas_id] = ("json_value", json.dumps({"edit": edit}))
                if await session.rerun() is None:
                    return
                flood.sent += 10
                flood.accepted += max(0, (session.count or 0) - before)
                for warning in session.warnings:
                    flood.refusals[warning[:60]] += 1
                if session.count is None:  # removed: the page says so
                    return
                await session.wait(FLOOD_EDIT_GAP_S)


async def run_flooder(base: str, code: str, flood: Flood, starts_at: float) -> None:
    """From ``starts_at`` for :data:`FLOOD_S`: a new scripted session every
    :data:`FLOOD_JOIN_GAP_S` (none waits for another)."""
    await asyncio.sleep(max(0.0, starts_at - time.monotonic()))
    ends_at, tasks = starts_at + FLOOD_S, []
    while time.monotonic() < ends_at:
        flood.tried += 1
        tasks.append(asyncio.create_task(flood_session(base, flood, code, ends_at)))
        await asyncio.sleep(FLOOD_JOIN_GAP_S)
    await asyncio.gather(*tasks)


async def run_class(
    base: str,
    code: str,
    n_students: int,
    n_points: int,
    seconds: float,
    flood: Flood | None = None,
) -> list[Student]:
    """The students: they open their pages within the first sixth of ``seconds`` (with a
    ``flood``, 10 s), then each adds its points until ``seconds`` have passed; the flood
    begins :data:`FLOOD_AT_S` after the first page opened."""
    start, over, finished = time.monotonic(), asyncio.Event(), set()
    ramp = seconds / 6 if flood is None else 10.0
    flooding = None
    if flood is not None:
        flooding = asyncio.create_task(run_flooder(base, code, flood, start + FLOOD_AT_S))
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
    if flooding is not None:
        await flooding
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
    regained: float | None = None
    """With a flood: seconds from the lecturer's click to the projector's counts showing the
    class alone, locked."""
    locked: bool = False
    """Whether the room was locked at the end."""

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


def measure(n_students: int, n_points: int, seconds: float, flood: Flood | None = None) -> Result:
    """Run the class (see the module's docstring) and measure it; with a ``flood``, the
    hostile client too, and the lecturer's click (:attr:`Result.regained`)."""
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
            projector.evaluate(SEEN_JS)
            load_before = os.getloadavg()[0]
            print(
                f"room {code} on {balancer.url}; {n_students} students × {n_points} "
                f"points in {seconds:g} s, each a Streamlit session (load average "
                f"{load_before:.1f})",
                flush=True,
            )
            started, acted, regained = time.time(), None, None
            with ThreadPoolExecutor(1) as pool:
                future = pool.submit(
                    asyncio.run,
                    run_class(balancer.url, code, n_students, n_points, seconds, flood),
                )
                # keep the projector's page served while the students send
                while not future.done():
                    projector.wait_for_timeout(200)
                    now = time.time()
                    if flood is not None and acted is None:
                        if now > started + FLOOD_AT_S + ACT_AFTER_S:
                            acted = lecturer_acts(projector)
                    elif acted is not None and regained is None:
                        counts = projector.evaluate(COUNTS_JS)
                        if counts.startswith(f"{n_students} students") and "locked" in counts:
                            regained = now - acted
                students = future.result()
            seen_at = projector.evaluate("() => window.__seenAt")
            disagree = number_points(students, code, redis.url)
            from kpca_ui.rooms.redis_store import RedisStore

            locked = RedisStore(redis.url).snapshot(code).locked
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
        if flood is not None:  # the tap's coordinates on the figure (new ones only)
            seen = seen_at.get(f"{e.xy[0]:.3f},{e.xy[1]:.3f}")
            seen = seen if seen is not None and seen >= e.sent else None
        else:
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
        regained=regained,
        locked=locked,
    )


def lecturer_acts(projector) -> float:
    """The lecturer's one click in the projector's popover; when (``time.time()``)."""
    projector.locator(".st-key-cl_controls button").first.click()
    projector.get_by_role("button", name=re.compile("Lock, and remove everyone")).click()
    clicked = time.time()
    projector.keyboard.press("Escape")
    return clicked


def flood_report(result: Result, flood: Flood, limit: float, n_students: int) -> bool:
    """Print and save (``class_flood``) what the class and the flood did; whether the class's
    taps reached the projector within ``limit`` (p95) and the lecturer regained the room."""
    timed = len(result.refresh)
    rows: list[list[object]] = [
        ["students joined (of the class)", f"{result.joined} of {n_students}"],
        ["their taps sent / accepted", f"{result.sent} / {result.accepted}"],
        ["their taps timed on the projector", timed],
        [
            "  not timed (sampled out of the figure, or a place already shown)",
            result.accepted - timed,
        ],
    ]
    if result.refresh:
        rows += [
            ["tap → on the projector, median (s)", round(statistics.median(result.refresh), 2)],
            ["tap → on the projector, p95 (s)", round(percentile(result.refresh, 95), 2)],
            ["tap → on the projector, max (s)", round(max(result.refresh), 2)],
        ]
    if result.acks:
        rows.append(["tap → count on the phone, p95 (s)", round(percentile(result.acks, 95), 2)])
    rows += [
        ["flood: sessions opened (joins tried)", flood.tried],
        ["flood: sessions that joined", flood.joined],
        ["flood: points sent / accepted", f"{flood.sent} / {flood.accepted}"],
        *([f"flood refused {n}×", why] for why, n in flood.refusals.most_common(4)),
        [
            "lecturer's one click → the class alone, locked (s)",
            "not seen" if result.regained is None else round(result.regained, 1),
        ],
        ["room still locked at the end", "yes" if result.locked else "no"],
        ["errors in the class's sessions", sum(result.errors.values())],
    ]
    for label, value in rows:
        print(f"{label}: {value}")
    from results import save

    save(
        "class_flood",
        f"Class mode: {n_students} students and one hostile client (joins and points for "
        f"{FLOOD_S:g} s; the lecturer's one click {ACT_AFTER_S:g} s in)",
        ["measure", "value"],
        rows,
        note="A tap is on the projector when its coordinates are among the figure's points; "
        "through HAProxy, two replicas and Redis on this machine's 2 cores.",
    )
    return bool(
        result.refresh
        and percentile(result.refresh, 95) <= limit
        and result.regained is not None
        and result.locked
        and not sum(result.errors.values())
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--students", type=int, default=None, help="100 (--flood: 30)")
    parser.add_argument("--points", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=None, help="60 (--flood: 125)")
    parser.add_argument("--limit", type=float, default=2.0, help="seconds allowed (p95, max)")
    parser.add_argument("--flood", action="store_true", help="one hostile client as well")
    args = parser.parse_args()
    students = args.students or (30 if args.flood else 100)
    seconds = args.seconds or (FLOOD_CLASS_S if args.flood else 60.0)
    if args.flood:
        flood = Flood()
        result = measure(students, args.points, seconds, flood)
        ok = flood_report(result, flood, args.limit, students)
    else:
        ok = measure(students, args.points, seconds).report(args.limit)
    print("OK" if ok else "NOT OK")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
