"""Class mode under a lecture hall's load: 100 students, 10 points each, within 60 s.

Starts one Redis (Debian's ``redis-server``, ``bench/redisserver.py``), two
replicas of the app sharing it (``KPCA_REDIS_URL``) and HAProxy in front of them
(``bench/balancer.py``, the repository's ``deploy/haproxy.cfg``: cookie stickiness).
Through the balancer, a lecturer's projector (headless Chromium at 1280 × 720)
starts a room; then ``--students`` simulated students each join and send
``--points`` points at random moments of ``--seconds`` seconds, through the
students' JSON endpoint (``kpca_ui/rooms/api.py``; each keeps the balancer's
cookie, as a phone would).  Driving a hundred Streamlit sessions' websockets
on two cores would measure the simulation more than the app: the students'
pages are Streamlit sessions, and the endpoint takes the same contributions
into the same store.

Measured:

- **acknowledgement**: from a student's request sent to its answer received;
- **projector refresh**: from a point's request sent to the moment the
  projector's figure holds it (the page's figure is read every 50 ms in the
  browser; contribution numbers grow by one per accepted point, so the
  figure's number of points n holds every point numbered ≤ n);
- **nothing lost**: every accepted point is on the projector at the end.

    python3 bench/class_load.py                       # 100 students × 10 points in 60 s
    python3 bench/class_load.py --students 20 --seconds 20   # a quick look

Timings on a shared, loaded machine are noisy: run it when the machine is quiet.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
import urllib.error
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

from appserver import AppServer
from balancer import COOKIE, HAProxy
from browser import VIEWPORT, launch_chromium
from redisserver import RedisServer

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from kpca_ui.rooms.store import REDIS_ENV
from kpca_ui.shell import REPLICA_ENV

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


@dataclass
class Sent:
    """One request of a simulated student."""

    sent: float
    answered: float
    status: int
    item: int | None = None

    @property
    def seconds(self) -> float:
        return self.answered - self.sent


@dataclass
class Student:
    """A simulated phone: its cookie (the balancer's pin) and its requests."""

    base: str
    cookie: str = ""
    requests: list[Sent] = field(default_factory=list)

    def post(self, route: str, body: dict) -> tuple[int, dict, Sent]:
        request = urllib.request.Request(
            f"{self.base}/api/class/{route}",
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json", "Cookie": self.cookie},
            method="POST",
        )
        start = time.time()
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, answer = response.status, json.loads(response.read())
                pinned = SimpleCookie(response.headers.get("Set-Cookie", ""))
                if COOKIE in pinned:
                    self.cookie = f"{COOKIE}={pinned[COOKIE].value}"
        except urllib.error.HTTPError as error:
            status, answer = error.code, json.loads(error.read() or b"{}")
        sent = Sent(start, time.time(), status, answer.get("id"))
        self.requests.append(sent)
        return status, answer, sent


def run_student(base: str, code: str, n_points: int, seconds: float, seed: int) -> Student:
    """Join, then send ``n_points`` points at random moments of ``seconds`` seconds."""
    rng = random.Random(seed)
    student = Student(base)
    start = time.time()
    status, joined, _ = student.post("join", {"room": code})
    if status != 200:
        return student
    for at in sorted(rng.uniform(0, seconds) for _ in range(n_points)):
        time.sleep(max(0.0, start + at - time.time()))
        x, y = rng.uniform(-1.8, 1.8), rng.uniform(-1.8, 1.8)
        group = 1 + (x > 0) + (y > 0)
        body = {"room": code, "student": joined["student"], "x": x, "y": y, "group": group}
        student.post("point", body)
    return student


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


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
    acks: list[float]
    refresh: list[float]
    redraws: int

    def report(self, limit: float) -> bool:
        """Print the numbers; whether they are within ``limit`` seconds (p95 and max)."""
        print(
            f"joined: {self.joined}; points sent {self.sent}, accepted {self.accepted}, "
            f"refused {self.refused}"
        )
        print(
            f"on the projector at the end: {self.shown} points; "
            f"accepted but never shown: {self.missing}"
        )
        print(
            f"acknowledgement: median {statistics.median(self.acks):.3f} s, "
            f"p95 {percentile(self.acks, 95):.3f} s, max {max(self.acks):.3f} s"
        )
        if self.refresh:
            print(
                f"projector refresh (sent → on the figure): "
                f"median {statistics.median(self.refresh):.2f} s, "
                f"p95 {percentile(self.refresh, 95):.2f} s, max {max(self.refresh):.2f} s "
                f"({self.redraws} redraws)"
            )
        return bool(
            self.missing == 0
            and self.accepted == self.sent
            and max(self.acks) <= limit
            and self.refresh
            and percentile(self.refresh, 95) <= limit
        )


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
            projector.goto(f"{balancer.url}/class_room")
            projector.get_by_role("button", name="Start a room").click()
            projector.wait_for_selector(".cl-counts")
            code = projector.evaluate(
                "() => document.body.innerText.match(/room=([A-Z0-9]{6})/)[1]"
            )
            projector.evaluate(POLL_JS)
            print(
                f"room {code} on {balancer.url}; {n_students} students × {n_points} "
                f"points in {seconds:g} s",
                flush=True,
            )
            with ThreadPoolExecutor(n_students) as pool:
                futures = [
                    pool.submit(run_student, balancer.url, code, n_points, seconds, i)
                    for i in range(n_students)
                ]
                # keep the projector's page served while the students send
                while not all(f.done() for f in futures):
                    projector.wait_for_timeout(200)
                students = [f.result() for f in futures]
            points = [r for s in students for r in s.requests[1:]]
            accepted = [r for r in points if r.status == 200 and r.item is not None]
            last = max((r.item for r in accepted), default=0)
            deadline = time.time() + 30
            shown: list = []
            while time.time() < deadline:
                shown = projector.evaluate("() => window.__shown")
                if shown and shown[-1][1] >= last:
                    break
                projector.wait_for_timeout(200)
            browser.close()

    joins = [s.requests[0] for s in students if s.requests]
    refresh = []
    for r in accepted:
        seen = next((t for t, n in shown if n >= r.item), None)
        if seen is not None:
            refresh.append(seen - r.sent)
    return Result(
        joined=sum(r.status == 200 for r in joins),
        sent=len(points),
        accepted=len(accepted),
        refused=dict(Counter(r.status for r in points if r.status != 200)),
        shown=shown[-1][1] if shown else 0,
        missing=len(accepted) - len(refresh),
        acks=[r.seconds for r in [*joins, *points]],
        refresh=refresh,
        redraws=len(shown),
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
