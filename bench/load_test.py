"""Load test: one app server, many concurrent sessions moving sliders at random.

    python bench/load_test.py                    # 30 sessions for 60 s
    python bench/load_test.py --sessions 60 --duration 120
    python bench/load_test.py --heavy            # plus one session asking for the largest fit
    python bench/load_test.py --lecture          # 100 open the Fig. 2 link in 60 s, a third play

``--lecture`` is a lecture's pattern: ``--sessions`` (100) open the same link
(``--link``, default the Fig. 2 preset of the Contours view) within ``--ramp``
(60 s); every third then moves sliders with a think time of 2-5 s for
``--duration`` (120 s), the others stay connected.  It prints the time to the
first figure (the opening run's figures) besides the redraws, and the sizes of
the server's caches (``kpca_ui/memory.py``), which the server prints while it runs.

It starts the app the way the README does on a free port of 127.0.0.1
(``bench/appserver.py``), then opens ``--sessions`` sessions within
``--ramp`` seconds, spread over the views (contours, spectrum, denoising),
each from the view's preset link. Every session then, until ``--duration``
has passed, waits a random think time (``--think``, uniform), nudges one of
its page's sliders by one to three steps and waits for the new picture.
Then it stops the sessions and the server and prints:

- sessions served (opened their view without an error), changes made;
- errors shown: exceptions and ``st.error`` messages the server sent, runs
  that did not finish within ``--timeout``, lost connections;
- p50 / p95 / max time to redraw: from sending the change to receiving the
  last figure of that run, and to the end of the run;
- the server's peak memory: resident set of its process tree, sampled every
  0.2 s from ``/proc``;
- how long ``/_stcore/health`` took to answer, asked every 0.5 s: while a
  computation holds the GIL (e.g. ``scipy.linalg.eigh``, which does not release
  it), the server's event loop answers nobody, whatever session asked for it;
- CPU seconds of the server and of these clients, and the machine's load
  average (other processes share the cores).

Targets of the lecture issue on this 2-core machine: 30 sessions, zero
errors, p95 redraw <= 3 s, peak <= 3 GB.

The sessions are not browsers but clients speaking Streamlit's own websocket
protocol (``/_stcore/stream``) with the protobuf messages bundled in the
streamlit package: each sends what the browser sends (a ``BackMsg`` asking
for a rerun with the page, the query string and the slider's new value, for
the slider's fragment only if it lives in an ``st.fragment``) and reads the
``ForwardMsg`` replies. So the times are the server's share of a redraw
(script run, figure building, serialisation, transport), without the
browser's drawing, which happens on the students' own machines and is
measured by ``bench/ui_latency.py``. Thirty real browsers would instead share
this machine's two cores with the server and measure mostly themselves. The
clients keep the messages of the last run and report them, as browsers do, so
the server sends a short reference instead of an unchanged large element.

``--heavy`` adds one session that opens the denoising view with the largest
training set the page allows and keeps refitting (changing the number of
training digits per class); the printed table then also gives the other
sessions' p95 while a heavy run was in progress.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent))

from appserver import AppServer
from browser import FIG2_LINK, RINGS_LINK

CACHE_REPORT_ENV, CACHE_REPORT = "KPCA_CACHE_REPORT", "kpca cache sizes: "
"""How the server is asked to print its cache sizes, and how it does (kpca_ui/warmup.py)."""

FINISHED = {
    ForwardMsg.ScriptFinishedStatus.FINISHED_SUCCESSFULLY,
    ForwardMsg.ScriptFinishedStatus.FINISHED_FRAGMENT_RUN_SUCCESSFULLY,
}


@dataclass(frozen=True)
class Scenario:
    """What one kind of session opens and moves."""

    name: str
    path: str
    query: str
    sliders: tuple[str, ...] = ()
    """Keys of the sliders it moves (all sliders on the page when empty)."""
    tab: tuple[str, str] | None = None
    """(key of an ``st.tabs``, label) to open after the page, as a click would."""
    heavy: bool = False
    interactive: bool = True
    """Whether it moves sliders after opening (otherwise it only stays connected)."""


SCENARIOS = (
    Scenario("contours", "contours", FIG2_LINK),
    Scenario("spectrum", "spectrum", RINGS_LINK),
    Scenario(
        "denoising",
        "denoising",
        "",
        sliders=("dn_sigma", "dn_p", "dn_n", "dn_sbs_count"),
        tab=("dn_tab", "Side by side"),
    ),
)
"""The views' preset links. On the denoising view the sessions move what does not
refit the model (noise level, n, how many digits); refits are the heavy session's."""
HEAVY = Scenario("denoising (heavy)", "denoising", "", sliders=("dn_train",), heavy=True)
"""The largest fit the denoising view allows: training digits per class at the
maximum, then one step fewer each time (every change a new fit of ~M digits)."""


@dataclass
class SliderState:
    """A slider as the server last described it, and the value the client holds."""

    widget_id: str
    key: str
    fragment_id: str
    minimum: float
    maximum: float
    step: float
    value: list[float]
    options: list[str]

    def nudged(self, rng: random.Random) -> list[float]:
        """The value with one end moved by one to three steps up or down, kept in range."""
        top = len(self.options) - 1 if self.options else self.maximum
        bottom = 0 if self.options else self.minimum
        step = 1 if self.options else self.step
        value = list(self.value)
        end = rng.randrange(len(value))
        low = value[end - 1] if end else bottom
        high = value[end + 1] if end + 1 < len(value) else top
        moves = rng.choice([-3, -2, -1, 1, 2, 3])
        for move in (moves, -moves):
            value[end] = round(min(max(self.value[end] + move * step, low), high), 10)
            if value[end] != self.value[end]:
                break
        return value


@dataclass(frozen=True)
class Redraw:
    """One change and how long the server took to answer it."""

    start: float
    """When the change was sent (``time.monotonic()``)."""
    figure: float
    """Seconds to the last figure of the run (to its end if it sent none)."""
    done: float
    """Seconds to the end of the run."""
    key: str
    """The slider that moved."""


@dataclass
class Record:
    """What one session measured."""

    scenario: str
    opened: float | None = None
    first_figure: float | None = None
    redraws: list[Redraw] = field(default_factory=list)
    exceptions: int = 0
    error_alerts: int = 0
    timeouts: int = 0
    disconnects: int = 0
    messages: list[str] = field(default_factory=list)


class Session:
    """One browser tab's worth of protocol: open a page, move sliders, read replies."""

    def __init__(self, ws: ClientConnection, scenario: Scenario, record: Record) -> None:
        self.ws = ws
        self.scenario = scenario
        self.record = record
        self.page_script_hash = ""
        self.sliders: dict[str, SliderState] = {}
        self.tabs: dict[str, str] = {}
        """Widget id of each keyed ``st.tabs`` -> the label to ask for."""
        self.cache: dict[str, ForwardMsg | None] = {}
        """Cacheable messages of the last run by hash (``None`` for a figure), as the
        browser keeps them: the server sends a reference instead of a message it has."""

    async def run(self, *, fragment_id: str = "", timeout: float) -> tuple[float, float] | None:
        """Ask for a rerun; return (seconds to the last figure, to the end of the run)."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.scenario.query
        state.page_name = self.scenario.path
        state.page_script_hash = self.page_script_hash
        state.fragment_id = fragment_id
        state.cached_message_hashes.extend(self.cache)
        cache, self.cache = self.cache, {}
        for widget_id, label in self.tabs.items():
            widget = state.widget_states.widgets.add()
            widget.id = widget_id
            widget.string_value = label
        for slider in self.sliders.values():
            widget = state.widget_states.widgets.add()
            widget.id = slider.widget_id
            if slider.options:
                last = len(slider.options) - 1
                widget.string_array_value.data.extend(
                    slider.options[min(int(i), last)] for i in slider.value
                )
            else:
                widget.double_array_value.data.extend(slider.value)
        start = time.perf_counter()
        await self.ws.send(message.SerializeToString())
        last_figure = None
        deadline = start + timeout
        while True:
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                self.record.timeouts += 1
                return None
            try:
                data = await asyncio.wait_for(self.ws.recv(), remaining)
            except TimeoutError:
                self.record.timeouts += 1
                return None
            reply = ForwardMsg()
            reply.ParseFromString(data)
            kind = reply.WhichOneof("type")
            if kind == "ref_hash" and reply.ref_hash in cache:
                cached = cache[reply.ref_hash]
                self.cache[reply.ref_hash] = cached
                if cached is None or self._read_delta(cached):
                    last_figure = time.perf_counter() - start
            elif kind == "delta":
                if self._read_delta(reply):
                    last_figure = time.perf_counter() - start
                if reply.metadata.cacheable:
                    figure = reply.delta.new_element.WhichOneof("type") == "plotly_chart"
                    self.cache[reply.hash] = None if figure else reply
            elif kind == "navigation":
                self.page_script_hash = reply.navigation.page_script_hash
            elif kind == "script_finished":
                status = reply.script_finished
                if status == ForwardMsg.ScriptFinishedStatus.FINISHED_EARLY_FOR_RERUN:
                    continue
                if status not in FINISHED:
                    self.record.exceptions += 1
                    self.record.messages.append(f"script ended with status {status}")
                done = time.perf_counter() - start
                return (last_figure if last_figure is not None else done), done
            elif kind == "page_not_found":
                self.record.exceptions += 1
                self.record.messages.append(f"page not found: {self.scenario.path}")

    def _read_delta(self, reply: ForwardMsg) -> bool:
        """Note sliders, exceptions and error messages; whether it is a figure."""
        delta = reply.delta
        if delta.WhichOneof("type") == "add_block" and self.scenario.tab:
            tabs = delta.add_block.tab_container
            key, label = self.scenario.tab
            if tabs.id.endswith(f"-{key}") and tabs.id not in self.tabs:
                self.tabs[tabs.id] = label
        if delta.WhichOneof("type") != "new_element":
            return False
        element = delta.new_element
        kind = element.WhichOneof("type")
        if kind == "exception":
            self.record.exceptions += 1
            self.record.messages.append(f"exception: {element.exception.message[:200]}")
        elif kind == "alert" and element.alert.format == Alert.Format.ERROR:
            self.record.error_alerts += 1
            self.record.messages.append(f"error shown: {element.alert.body[:200]}")
        elif kind == "slider" and not element.slider.disabled:
            proto = element.slider
            key = proto.id.rsplit("-", 1)[-1]
            if not self.scenario.sliders or key in self.scenario.sliders:
                # A select slider's values are indices into its (formatted) options,
                # a value set from session state comes as the option itself
                # (``raw_value``); a range slider has two values.
                options = list(proto.options)
                if proto.set_value and proto.raw_value:
                    value = [float(options.index(v)) for v in proto.raw_value if v in options]
                else:
                    value = list(proto.value if proto.set_value else proto.default)
                if not value:
                    return False
                previous = self.sliders.get(proto.id)
                self.sliders[proto.id] = SliderState(
                    proto.id,
                    key,
                    delta.fragment_id,
                    proto.min,
                    proto.max,
                    proto.step,
                    previous.value if previous else value,
                    options,
                )
        return kind == "plotly_chart"


async def drive(
    base_url: str,
    scenario: Scenario,
    record: Record,
    *,
    delay: float,
    stop_at: float,
    think: tuple[float, float],
    timeout: float,
    seed: int,
) -> None:
    """One session: wait ``delay``, open the view, nudge sliders until ``stop_at``."""
    rng = random.Random(seed)
    await asyncio.sleep(delay)
    url = base_url.replace("http://", "ws://") + "/_stcore/stream"
    try:
        async with connect(
            url,
            subprotocols=["streamlit"],
            max_size=None,
            open_timeout=timeout,
            ping_interval=None,  # browsers do not ping; the server pings them
        ) as ws:
            session = Session(ws, scenario, record)
            opened = await session.run(timeout=timeout)
            if opened is None:
                return
            if session.tabs:
                tab_opened = await session.run(timeout=timeout)
                if tab_opened is None:
                    return
                opened = (opened[0], opened[1] + tab_opened[1])
            record.opened = opened[1]
            record.first_figure = opened[0]
            if scenario.heavy:
                await go_heavy(session, stop_at, timeout)
                return
            if not scenario.interactive:  # a student who only watches
                await asyncio.sleep(max(stop_at - time.monotonic(), 0.0))
                return
            while time.monotonic() < stop_at and session.sliders:
                await asyncio.sleep(rng.uniform(*think))
                if time.monotonic() >= stop_at:
                    break
                slider = rng.choice(list(session.sliders.values()))
                slider.value = slider.nudged(rng)
                start = time.monotonic()
                times = await session.run(fragment_id=slider.fragment_id, timeout=timeout)
                if times is None:
                    break
                record.redraws.append(Redraw(start, *times, slider.key))
    except (OSError, WebSocketException) as error:
        record.disconnects += 1
        record.messages.append(f"connection: {error!r}")


async def go_heavy(session: Session, stop_at: float, timeout: float) -> None:
    """Ask for the largest fit, then one step smaller each time, until ``stop_at``."""
    # session.sliders is read afresh every time: each run replaces its entries
    for slider in session.sliders.values():
        slider.value = [float(len(slider.options) - 1) if slider.options else slider.maximum]
    while time.monotonic() < stop_at:
        start = time.monotonic()
        times = await session.run(timeout=timeout)
        if times is None:
            return
        keys = "+".join(s.key for s in session.sliders.values())
        session.record.redraws.append(Redraw(start, *times, keys))
        for slider in session.sliders.values():
            step = 1 if slider.options else slider.step
            slider.value = [max(slider.value[0] - step, 0 if slider.options else slider.minimum)]


def sample_memory(server: AppServer, stop: threading.Event, peak: list[int]) -> None:
    """Keep the largest resident set of the server's process tree in ``peak[0]``."""
    while not stop.wait(0.2):
        peak[0] = max(peak[0], server.tree_rss())


def probe_health(server: AppServer, stop: threading.Event, delays: list[float]) -> None:
    """Time ``/_stcore/health`` every 0.5 s: how long the server's event loop makes
    everyone wait (a computation that holds the GIL stalls every session)."""
    while not stop.wait(0.5):
        start = time.perf_counter()
        server.healthy(timeout=120)
        delays.append(time.perf_counter() - start)


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (0-100) of ``values``, by linear interpolation."""
    if len(values) == 1:
        return values[0]
    return statistics.quantiles(values, n=100, method="inclusive")[int(q) - 1]


def spread(values: list[float]) -> str:
    """p50, p95 and max of durations in seconds, as one aligned string."""
    return (
        f"p50 {statistics.median(values):6.2f} s   p95 {percentile(values, 95):6.2f} s   "
        f"max {max(values):6.2f} s"
    )


def summarise(records: list[Record], peak: int, args: argparse.Namespace) -> bool:
    """Print the table; whether every target was met."""
    normal = [r for r in records if r.scenario != HEAVY.name]
    heavy = [d for r in records if r.scenario == HEAVY.name for d in r.redraws]
    redraws = [d for r in normal for d in r.redraws]
    served = sum(r.opened is not None and not r.exceptions for r in normal)
    opened = [r.opened for r in normal if r.opened is not None]
    errors = sum(r.exceptions + r.error_alerts + r.timeouts + r.disconnects for r in records)
    print(f"\nsessions served      {served} of {len(normal)}" + (" (+1 heavy)" if heavy else ""))
    print(f"changes made         {len(redraws)}")
    print(
        "errors shown         "
        f"{errors} (exceptions {sum(r.exceptions for r in records)}, "
        f"st.error {sum(r.error_alerts for r in records)}, "
        f"timeouts {sum(r.timeouts for r in records)}, "
        f"lost connections {sum(r.disconnects for r in records)})"
    )
    if opened:
        print(f"open a view          {spread(opened)}")
        first = [r.first_figure for r in normal if r.first_figure is not None]
        print(f"time to first figure {spread(first)}")
    p95 = percentile([d.figure for d in redraws], 95) if redraws else float("inf")
    if redraws:
        print(f"redraw (last figure) {spread([d.figure for d in redraws])}")
        print(f"redraw (run ended)   {spread([d.done for d in redraws])}")
        print("by view and slider   (time to the last figure)")
        for name, key in sorted({(r.scenario, d.key) for r in normal for d in r.redraws}):
            mine = [
                d.figure for r in normal if r.scenario == name for d in r.redraws if d.key == key
            ]
            print(f"  {name:<10} {key:<13} {len(mine):4d} changes   {spread(mine)}")
    if heavy:
        during = [
            d.figure
            for d in redraws
            if any(h.start < d.start + d.figure and d.start < h.start + h.done for h in heavy)
        ]
        print(f"heavy fits           {len(heavy)}, {spread([h.done for h in heavy])}")
        if during:
            print(f"others during heavy  {len(during)} changes   {spread(during)}")
    print(f"server peak memory   {peak / 2**30:.2f} GB (resident, process tree)")
    for message in sorted({m for r in records for m in r.messages})[:20]:
        print(f"  ! {message}")
    ok = served == args.sessions and errors == 0 and p95 <= 3.0 and peak <= 3 * 2**30
    print(
        "targets              "
        + ("met" if ok else "NOT met")
        + f" (sessions {args.sessions}, 0 errors, p95 <= 3 s, peak <= 3 GB)"
    )
    return ok


async def main_async(args: argparse.Namespace, base_url: str) -> list[Record]:
    """Run all sessions to the end and return their records."""
    scenarios = [s for s in SCENARIOS if s.name in args.views]
    start = time.monotonic()
    stop_at = start + args.ramp + args.duration
    records, tasks = [], []
    sessions = [scenarios[i % len(scenarios)] for i in range(args.sessions)]
    if args.lecture:
        page, _, query = args.link.partition("?")
        sessions = [
            Scenario("lecture", page, query, interactive=i % 3 == 0) for i in range(args.sessions)
        ]
    if args.heavy:
        sessions.append(HEAVY)
    for i, scenario in enumerate(sessions):
        record = Record(scenario.name)
        records.append(record)
        delay = 0.0 if scenario.heavy else args.ramp * i / max(args.sessions, 1)
        tasks.append(
            drive(
                base_url,
                scenario,
                record,
                delay=delay,
                stop_at=stop_at,
                think=(args.think[0], args.think[1]),
                timeout=args.timeout,
                seed=args.seed + i,
            )
        )
    # Every run waits at most --timeout, so this bound is never the one that stops the test.
    limit = args.ramp + args.duration + 2 * args.timeout + 30
    await asyncio.wait_for(asyncio.gather(*tasks), limit)
    return records


STORM = {"sessions": 30, "duration": 60.0, "ramp": 10.0, "think": (0.5, 2.0)}
"""Today's mode: sessions over the three views moving sliders."""
LECTURE = {"sessions": 100, "duration": 120.0, "ramp": 60.0, "think": (2.0, 5.0)}
"""``--lecture``: the class opening the lecturer's link within a minute."""


def last_cache_report(log_path: Path) -> dict[str, list[int]]:
    """The last cache sizes the server printed (``kpca_ui/warmup.py``), by function."""
    reports = [
        line.split(CACHE_REPORT, 1)[1]
        for line in log_path.read_text(errors="replace").splitlines()
        if CACHE_REPORT in line
    ]
    return json.loads(reports[-1]) if reports else {}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--lecture", action="store_true", help="a lecture: all open one link, a third play"
    )
    parser.add_argument(
        "--link", default=f"contours?{FIG2_LINK}", help="the lecture's link (Fig. 2 preset)"
    )
    parser.add_argument("--sessions", type=int, help="concurrent sessions (30; lecture 100)")
    parser.add_argument("--duration", type=float, help="seconds of sliding (60; lecture 120)")
    parser.add_argument("--ramp", type=float, help="seconds to open all (10; lecture 60)")
    parser.add_argument(
        "--think",
        type=float,
        nargs=2,
        metavar=("MIN", "MAX"),
        help="seconds between a redraw and the next change (0.5 2.0; lecture 2 5)",
    )
    parser.add_argument("--timeout", type=float, default=60.0, help="longest wait for a run")
    parser.add_argument("--heavy", action="store_true", help="add one largest-fit session")
    parser.add_argument(
        "--views",
        nargs="+",
        default=[s.name for s in SCENARIOS],
        choices=[s.name for s in SCENARIOS],
        help="views the sessions open (all)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the random moves")
    args = parser.parse_args()
    defaults = LECTURE if args.lecture else STORM
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)

    with AppServer(env={CACHE_REPORT_ENV: "1"}) as server:
        print(f"server {server.url} (pid {server.process.pid}), log {server.log_path}")
        print(
            f"{args.sessions} sessions over "
            f"{'the link ' + args.link if args.lecture else ', '.join(args.views)}"
            f"{' + 1 heavy' if args.heavy else ''}; open within {args.ramp:g} s, "
            f"then slide for {args.duration:g} s"
        )
        stop, peak, delays = threading.Event(), [server.tree_rss()], []
        samplers = [
            threading.Thread(target=sample_memory, args=(server, stop, peak), daemon=True),
            threading.Thread(target=probe_health, args=(server, stop, delays), daemon=True),
        ]
        for sampler in samplers:
            sampler.start()
        load_before, wall, server_cpu = os.getloadavg()[0], time.monotonic(), server.tree_cpu()
        try:
            records = asyncio.run(main_async(args, server.url))
        finally:
            stop.set()
            for sampler in samplers:
                sampler.join()
            with contextlib.suppress(Exception):
                peak[0] = max(peak[0], server.tree_rss())
        wall, server_cpu = time.monotonic() - wall, server.tree_cpu() - server_cpu
        caches = last_cache_report(server.log_path)
    ok = summarise(records, peak[0], args)
    if delays:
        print(
            f"health check         {spread(delays)}   (while it waits, the server "
            "answers no session)"
        )
    print("cache sizes          " + ("(none reported)" if not caches else ""))
    for name, (entries, size) in sorted(caches.items(), key=lambda item: -item[1][1]):
        print(f"  {name.rsplit('.', 1)[-1]:<22} {entries:4d} entries {size / 2**20:8.1f} MB")
    clients = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"CPU                  server {server_cpu:.0f} s, these clients "
        f"{clients.ru_utime + clients.ru_stime:.0f} s, in {wall:.0f} s on {os.cpu_count()} cores; "
        f"load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
