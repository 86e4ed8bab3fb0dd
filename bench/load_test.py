"""Load test: one app server, many concurrent sessions moving sliders at random.

    python bench/load_test.py                    # 30 sessions for 60 s
    python bench/load_test.py --sessions 60 --duration 120
    python bench/load_test.py --heavy            # plus one session asking for the largest fit
    python bench/load_test.py --lecture          # 100 open the Fig. 2 link in 60 s, a third play
    python bench/load_test.py --lecture --replicas 2   # the same through HAProxy, one killed
    python bench/load_test.py --capacity         # the most storm sessions with p95 <= 2 s
    python bench/load_test.py --cold             # the storm opening as the server starts

``--lecture`` is a lecture's pattern: ``--sessions`` (100) open the same link
(``--link``, default the Fig. 2 preset of the Contours view) within ``--ramp``
(60 s); every third then moves sliders with a think time of 2-5 s for
``--duration`` (120 s), the others stay connected.  It prints the time to the
first figure (the opening run's figures) besides the redraws, and the sizes of
the server's caches (``kpca_ui/memory.py``), which the server prints while it runs
(only in this mode: walking them took ~7 % of the server's busy time in a storm).

It starts the app the way the README does on a free port of 127.0.0.1
(``bench/appserver.py``); for the slider storm it waits until the server has
warmed up (its log says "warm-up finished", ``kpca_ui/warmup.py``: a class
opens the app after the lecturer did, not in the server's first minute;
``--cold`` opens the sessions at once, while the warm-up runs, as before
26 November 2026), then opens ``--sessions`` sessions within
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
- CPU seconds of the server (its own process, where every session's script
  runs under one GIL, and its workers) and of these clients, and the machine's
  load average (other processes share the cores).

Targets on this 2-core machine, zero errors and peak <= 3 GB in both modes:
the slider storm's redraw p95 <= 2 s (issue #36); a lecture's time to first
figure p95 <= 3 s and redraw p95 <= 2 s (issue #20).

``--capacity`` runs the slider storm again and again, each time with a fresh
server, to find the most sessions one server holds with redraw p95 <= 2 s:
from ``--sessions`` (30) up in steps of 15 while the target holds, or, if it
does not hold at 30, down in steps of 5.  One line per run, then the answer.

``--replicas N`` starts N app servers (``app1`` …) and Debian's HAProxy in
front of them on 127.0.0.1 (``bench/balancer.py``: the repository's
``deploy/haproxy.cfg`` with one server line per replica; ``haproxy`` is
installed with apt-get if missing), and the sessions go through it as browsers
do: each loads the page (HAProxy sets the replica's cookie), opens the
websocket with that cookie, and downloads one of the page's CSV files through
the balancer after opening.  Half-way through the sliding (``--kill-after``;
``--no-kill`` for none) the first replica is killed (SIGKILL to its process
tree, as a crash); its sessions reconnect as browsers do (``/_stcore/health``,
then a new websocket with the state they hold, the same figures expected) and
download again.  The report adds, per replica, the sessions it had at first
and at the end, its requests (page, websocket, media) as HAProxy logged them,
its peak memory and CPU, and checks from HAProxy's log, against each session's
own cookie, that every session's requests went to one replica, except the
killed one's sessions, which all moved once, after the kill.

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
import urllib.error
import urllib.request
import uuid
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path

from streamlit.proto.Alert_pb2 import Alert
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))  # the app's kpca_ui

from appserver import AppServer, cpu_seconds
from balancer import COOKIE, SESSION_HEADER, HAProxy, Request, sticky
from browser import FIG2_LINK, RINGS_LINK
from results import save

from kpca_ui.shell import MOVED, REPLICA_ENV

MOVED_WORDS = MOVED.split("{")[0]
"""The start of the toast that tells a moved session so (``kpca_ui.shell.moved_notice``)."""

CACHE_REPORT_ENV, CACHE_REPORT = "KPCA_CACHE_REPORT", "kpca cache sizes: "
"""How the server is asked to print its cache sizes, and how it does (kpca_ui/warmup.py)."""

RECONNECT_ATTEMPTS, RECONNECT_WAIT_S = 10, 0.5
"""Behind the balancer, a lost connection is tried again this often, this long apart."""

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
    name: str = ""
    """``s<seed>``: how it names itself to the balancer (HAProxy's log)."""
    opened: float | None = None
    first_figure: float | None = None
    redraws: list[Redraw] = field(default_factory=list)
    exceptions: int = 0
    error_alerts: int = 0
    timeouts: int = 0
    disconnects: int = 0
    messages: list[str] = field(default_factory=list)
    replicas: list[str] = field(default_factory=list)
    """Behind the balancer: the replicas that served it, in turn (from its cookie)."""
    reconnects: list[float] = field(default_factory=list)
    """Behind the balancer: seconds from each lost connection to the run after reconnecting."""
    state_lost: int = 0
    """Reconnections after which the page did not show the figures it showed before."""
    downloads: int = 0
    download_failures: int = 0
    moved_notices: int = 0
    """Toasts telling the user that the session moved to another replica."""


HELD = {
    "selectbox": "string_value",
    "radio": "string_value",
    "checkbox": "bool_value",
    "number_input": "double_value",
}
"""The widgets whose values the client holds and sends back, and their state's field
(a number box of whole numbers sends ``int_value``)."""


CHART_COMPONENT = "kpca_ui.chart"
"""The app's chart component (``kpca_ui/chart.py``): its elements are figures too."""


def figure_id(element) -> str | None:
    """The element id of a figure (``st.plotly_chart`` or the app's chart), else ``None``."""
    kind = element.WhichOneof("type")
    if kind == "plotly_chart":
        return element.plotly_chart.id
    if kind == "bidi_component" and element.bidi_component.component_name == CHART_COMPONENT:
        return element.bidi_component.id
    return None


def held_value(kind: str, proto, holding: bool) -> tuple[str, str | bool | float] | None:
    """The value a browser holds for a widget the server just described, or ``None``
    to keep the one it holds.

    A widget holds its default until the server sets a value (``set_value``).
    """
    if not proto.set_value and holding:
        return None
    field = HELD[kind]
    if kind in ("selectbox", "radio"):
        if proto.set_value:
            return field, proto.raw_value
        if not proto.HasField("default") or not proto.options:
            return None
        return field, proto.options[proto.default]
    value = proto.value if proto.set_value else proto.default
    if kind == "number_input":
        if not proto.set_value and not proto.HasField("default"):
            return None
        if proto.data_type == proto.DataType.INT:  # as the browser sends a whole number
            return "int_value", int(value)
    return field, value


class Session:
    """One browser tab's worth of protocol: open a page, move sliders, read replies."""

    def __init__(self, ws: ClientConnection, scenario: Scenario, record: Record) -> None:
        self.ws = ws
        self.scenario = scenario
        self.record = record
        self.page_script_hash = ""
        self.query = scenario.query
        """The page's query string, as the browser's address bar holds it."""
        self.downloads: dict[str, str] = {}
        """Key of each download button -> its deferred file's id."""
        self.session_id = ""
        """The server's id of this session (a download names it)."""
        self.figures: set[str] = set()
        """Hashes of the figures of the last run (the same state draws the same figures)."""
        self.charts: dict[str, str] = {}
        """Hash of each figure seen -> its chart's key (or id), for reports."""
        self.sliders: dict[str, SliderState] = {}
        self.tabs: dict[str, str] = {}
        """Widget id of each keyed ``st.tabs`` -> the label to ask for."""
        self.held: dict[str, tuple[str, str | bool | float]] = {}
        """Widget id of each choice the client does not make (a select box, radio,
        check box, number box) -> its ``WidgetState`` field and the value it holds:
        a browser sends every widget's value with each rerun, so a session that
        reconnects to another replica keeps them (:func:`held_value`)."""
        self.cache: dict[str, ForwardMsg | None] = {}
        """Cacheable messages of the last run by hash (``None`` for a figure), as the
        browser keeps them: the server sends a reference instead of a message it has."""

    async def run(self, *, fragment_id: str = "", timeout: float) -> tuple[float, float] | None:
        """Ask for a rerun; return (seconds to the last figure, to the end of the run)."""
        message = BackMsg()
        state = message.rerun_script
        state.query_string = self.query
        state.page_name = self.scenario.path
        state.page_script_hash = self.page_script_hash
        state.fragment_id = fragment_id
        state.cached_message_hashes.extend(self.cache)
        cache, self.cache = self.cache, {}
        self.figures = set()
        for widget_id, label in self.tabs.items():
            widget = state.widget_states.widgets.add()
            widget.id = widget_id
            widget.string_value = label
        for widget_id, (kind, value) in self.held.items():
            widget = state.widget_states.widgets.add()
            widget.id = widget_id
            setattr(widget, kind, value)
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
                    self.figures.add(reply.ref_hash)
            elif kind == "delta":
                if self._read_delta(reply):
                    last_figure = time.perf_counter() - start
                    self.figures.add(reply.hash)
                    chart = figure_id(reply.delta.new_element)
                    self.charts[reply.hash] = chart.rsplit("-", 1)[-1]
                if reply.metadata.cacheable:
                    figure = figure_id(reply.delta.new_element) is not None
                    self.cache[reply.hash] = None if figure else reply
            elif kind == "navigation":
                self.page_script_hash = reply.navigation.page_script_hash
            elif kind == "page_info_changed":
                self.query = reply.page_info_changed.query_string
            elif kind == "new_session":
                self.session_id = reply.new_session.initialize.session_id
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
        elif kind == "download_button" and element.download_button.deferred_file_id:
            key = element.download_button.id.rsplit("-", 1)[-1]
            self.downloads[key] = element.download_button.deferred_file_id
        elif kind == "toast" and MOVED_WORDS in element.toast.body:
            self.record.moved_notices += 1
        elif kind == "alert" and element.alert.format == Alert.Format.ERROR:
            self.record.error_alerts += 1
            self.record.messages.append(f"error shown: {element.alert.body[:200]}")
        elif kind in HELD:
            proto = getattr(element, kind)
            held = held_value(kind, proto, proto.id in self.held)
            if held is not None:
                self.held[proto.id] = held
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
        return figure_id(element) is not None

    async def wait(self, seconds: float) -> None:
        """Wait, listening as a browser does: a lost connection raises at once."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(max(seconds, 0.0)):
                while True:
                    await self.ws.recv()

    async def file_url(self, file_id: str, timeout: float) -> str:
        """Ask for a deferred download's file, as a click does; its URL on the server."""
        message = BackMsg()
        request = message.backend_operation_request
        request.request_id = uuid.uuid4().hex
        request.session_id = self.session_id
        request.deferred_file.file_id = file_id
        await self.ws.send(message.SerializeToString())
        async with asyncio.timeout(timeout):
            while True:
                reply = ForwardMsg()
                reply.ParseFromString(await self.ws.recv())
                if reply.WhichOneof("type") != "backend_operation_response":
                    continue
                response = reply.backend_operation_response
                if response.request_id == request.request_id:
                    if response.error_msg:
                        raise RuntimeError(response.error_msg)
                    return response.deferred_file.url


class Client:
    """A browser's HTTP side behind the balancer: its cookies, and its session named in a header.

    The browser loads the page (where HAProxy sets the replica's cookie), then
    opens the websocket and fetches media files and downloads with that cookie;
    when the connection is lost it asks ``/_stcore/health`` until it answers,
    then opens a new websocket.
    """

    def __init__(self, base_url: str, name: str) -> None:
        self.base_url = base_url
        self.name = name
        self.cookies: dict[str, str] = {}

    @property
    def headers(self) -> dict[str, str]:
        """The cookie and the session's name, for every request."""
        cookie = "; ".join(f"{key}={value}" for key, value in self.cookies.items())
        return {SESSION_HEADER: self.name, **({"Cookie": cookie} if cookie else {})}

    def remember(self, set_cookies: list[str]) -> None:
        """Keep the cookies of ``Set-Cookie`` headers."""
        for header in set_cookies:
            jar = SimpleCookie()
            jar.load(header)
            self.cookies.update({key: morsel.value for key, morsel in jar.items()})

    def _get(self, path: str, timeout: float) -> bytes:
        request = urllib.request.Request(self.base_url + path, headers=self.headers)
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            self.remember(answer.headers.get_all("Set-Cookie") or [])
            return answer.read()

    async def get(self, path: str, timeout: float) -> bytes:
        """The body of ``GET path`` (an HTTP error raises), keeping the cookies it sets."""
        return await asyncio.to_thread(self._get, path, timeout)

    @property
    def replica(self) -> str:
        """The replica its cookie names (empty before the first answer)."""
        return self.cookies.get(COOKIE, "")


async def download(session: Session, client: Client, record: Record, timeout: float) -> None:
    """Download the page's first deferred file (a CSV) through the balancer, as a click would."""
    if not session.downloads:
        return
    key, file_id = next(iter(session.downloads.items()))
    try:
        url = await session.file_url(file_id, timeout)
        body = await client.get(url if url.startswith("/") else f"/{url}", timeout)
        if not body:
            raise RuntimeError("empty file")
    except (TimeoutError, RuntimeError, urllib.error.URLError) as error:
        record.download_failures += 1
        record.messages.append(f"download {key}: {error!r}")
    else:
        record.downloads += 1


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
    balanced: bool = False,
) -> None:
    """One session: wait ``delay``, open the view, nudge sliders until ``stop_at``.

    ``balanced`` (behind HAProxy): the session loads the page first, keeps the
    replica's cookie, downloads a CSV after opening, and reconnects like a
    browser when its connection is lost (rerunning with the state it holds).
    """
    rng = random.Random(seed)
    await asyncio.sleep(delay)
    client = Client(base_url, record.name)
    session: Session | None = None
    lost_at, attempts = 0.0, 0
    url = base_url.replace("http://", "ws://") + "/_stcore/stream"
    while True:
        try:
            if balanced:
                if session is None:
                    await client.get(f"/{scenario.path}?{scenario.query}", timeout)
                else:  # as the browser does before it reconnects
                    await client.get("/_stcore/health", timeout)
            async with connect(
                url,
                subprotocols=["streamlit"],
                additional_headers=client.headers if balanced else None,
                max_size=None,
                open_timeout=timeout,
                ping_interval=None,  # browsers do not ping; the server pings them
            ) as ws:
                if balanced:  # the handshake's answer pins the browser anew after a move
                    client.remember(ws.response.headers.get_all("Set-Cookie"))
                    record.replicas.append(client.replica)
                if session is None:
                    session = Session(ws, scenario, record)
                    if not await open_view(session, record, timeout):
                        return
                elif record.opened is None:  # lost while opening: open again
                    session.ws = ws
                    if not await open_view(session, record, timeout):
                        return
                    record.reconnects.append(time.monotonic() - lost_at)
                    lost_at, attempts = 0.0, 0
                else:  # the held widget values and URL, rerun: the same figures
                    session.ws = ws
                    before = session.figures
                    if await session.run(timeout=timeout) is None:
                        return
                    record.reconnects.append(time.monotonic() - lost_at)
                    lost_at, attempts = 0.0, 0
                    if not before <= session.figures:
                        record.state_lost += 1
                        differ = sorted(
                            session.charts.get(h, "?") for h in before - session.figures
                        )
                        record.messages.append(
                            f"after reconnecting, {len(differ)} figures differ: {', '.join(differ)}"
                        )
                if balanced:
                    await download(session, client, record, timeout)
                await interact(session, rng, stop_at, think, timeout)
                return
        except (OSError, WebSocketException) as error:  # urllib's errors are OSErrors
            attempts += 1
            if not balanced or session is None or attempts > RECONNECT_ATTEMPTS:
                record.disconnects += 1
                record.messages.append(f"connection: {error!r}")
                return
            lost_at = lost_at or time.monotonic()
            await asyncio.sleep(RECONNECT_WAIT_S)


async def open_view(session: Session, record: Record, timeout: float) -> bool:
    """Open the view (and its tab); whether it finished in time."""
    opened = await session.run(timeout=timeout)
    if opened is None:
        return False
    if session.tabs:
        tab_opened = await session.run(timeout=timeout)
        if tab_opened is None:
            return False
        opened = (opened[0], opened[1] + tab_opened[1])
    record.opened = opened[1]
    record.first_figure = opened[0]
    return True


async def interact(
    session: Session,
    rng: random.Random,
    stop_at: float,
    think: tuple[float, float],
    timeout: float,
) -> None:
    """Nudge sliders until ``stop_at`` (the heavy session refits; a watcher only waits)."""
    record = session.record
    if session.scenario.heavy:
        await go_heavy(session, stop_at, timeout)
        return
    if not session.scenario.interactive:  # a student who only watches
        await session.wait(stop_at - time.monotonic())
        return
    while time.monotonic() < stop_at and session.sliders:
        await session.wait(rng.uniform(*think))
        if time.monotonic() >= stop_at:
            break
        slider = rng.choice(list(session.sliders.values()))
        slider.value = slider.nudged(rng)
        start = time.monotonic()
        times = await session.run(fragment_id=slider.fragment_id, timeout=timeout)
        if times is None:
            break
        record.redraws.append(Redraw(start, *times, slider.key))


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


@dataclass
class Usage:
    """Peak memory and CPU time of the servers, sampled from ``/proc`` every 0.2 s."""

    servers: list[AppServer]
    peak: list[int] = field(default_factory=list)
    """Each server's largest resident set of its process tree (bytes)."""
    total: int = 0
    """The largest resident set of all servers together (bytes)."""
    cpu: list[float] = field(default_factory=list)
    """Each server's CPU seconds since the start, as last seen alive."""
    own_cpu: list[float] = field(default_factory=list)
    """The same of each server's own process (the sessions' scripts), without its workers."""

    def __post_init__(self) -> None:
        self.peak = [0] * len(self.servers)
        self.cpu_at_start = [server.tree_cpu() for server in self.servers]
        self.own_at_start = [cpu_seconds(server.process.pid) for server in self.servers]
        self.cpu = [0.0] * len(self.servers)
        self.own_cpu = [0.0] * len(self.servers)
        self.sample()

    def sample(self) -> None:
        """Read every server's resident set and CPU time once."""
        sizes = [server.tree_rss() for server in self.servers]
        self.peak = [max(peak, size) for peak, size in zip(self.peak, sizes, strict=True)]
        self.total = max(self.total, sum(sizes))
        for i, server in enumerate(self.servers):
            # never less: a tree read while it is being killed misses the dead
            self.cpu[i] = max(self.cpu[i], server.tree_cpu() - self.cpu_at_start[i])
            own = cpu_seconds(server.process.pid) - self.own_at_start[i]
            self.own_cpu[i] = max(self.own_cpu[i], own)

    def keep_sampling(self, stop: threading.Event) -> None:
        """Sample every 0.2 s until ``stop`` is set."""
        while not stop.wait(0.2):
            self.sample()


WARMED = "warm-up finished"
"""What the server's log says once it has warmed up (``kpca_ui/warmup.py``)."""
WARM_UP_TIMEOUT_S = 900.0
"""The longest wait for it (about a minute on a quiet 2-core machine, minutes on a busy one:
the warm-up runs at a lower priority)."""


def wait_for_warm_up(log_path: Path, timeout: float = WARM_UP_TIMEOUT_S) -> float:
    """Wait until the server's log at ``log_path`` says it has warmed up; the seconds waited.

    Raises ``TimeoutError`` after ``timeout`` seconds.
    """
    started = time.monotonic()
    while WARMED not in log_path.read_text(errors="replace"):
        if time.monotonic() - started > timeout:
            raise TimeoutError(f"the server's log did not say {WARMED!r} within {timeout:g} s")
        time.sleep(0.2)
    return time.monotonic() - started


def probe_health(server: AppServer, stop: threading.Event, delays: list[float]) -> None:
    """Time ``/_stcore/health`` every 0.5 s: how long the server's event loop makes
    everyone wait (a computation that holds the GIL stalls every session)."""
    while not stop.wait(0.5):
        if not server.alive():
            return
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


def errors_shown(records: list[Record]) -> int:
    """Every error the sessions met: exceptions, error boxes, timeouts, lost connections,
    failed downloads and states lost on reconnecting."""
    return sum(
        r.exceptions
        + r.error_alerts
        + r.timeouts
        + r.disconnects
        + r.download_failures
        + r.state_lost
        for r in records
    )


SUMMARY_COLUMNS = [
    "sessions",
    "served",
    "changes",
    "errors",
    "first figure p50 (s)",
    "first figure p95 (s)",
    "redraw p50 (s)",
    "redraw p95 (s)",
    "peak memory (GB)",
    "targets",
]


def summary_row(outcome: Outcome, args: argparse.Namespace, ok: bool) -> list[object]:
    """One run as a row of :data:`SUMMARY_COLUMNS`, for the documentation's tables."""
    normal = [r for r in outcome.records if r.scenario != HEAVY.name]
    first = [r.first_figure for r in normal if r.first_figure is not None] or [float("nan")]
    redraws = [d.figure for r in normal for d in r.redraws] or [float("nan")]
    return [
        args.sessions,
        sum(r.opened is not None and not r.exceptions for r in normal),
        sum(len(r.redraws) for r in normal),
        errors_shown(outcome.records),
        statistics.median(first),
        percentile(first, 95),
        statistics.median(redraws),
        percentile(redraws, 95),
        outcome.usage.total / 2**30,
        "met" if ok else "not met",
    ]


def save_run(args: argparse.Namespace, row: list[object]) -> None:
    """Save one run's :func:`summary_row` under the name of its mode."""
    mode = "lecture" if args.lecture else "storm"
    replicas = f", {args.replicas} replicas behind HAProxy" if args.replicas else ""
    goals = (
        f"first figure p95 ≤ {LECTURE_FIRST_P95_S:g} s, redraw p95 ≤ {LECTURE_REDRAW_P95_S:g} s"
        if args.lecture
        else f"redraw p95 ≤ {STORM_REDRAW_P95_S:g} s"
    )
    save(
        f"load_{mode}" + ("_replicas" if args.replicas else ""),
        f"Load test: {'a lecture' if args.lecture else 'a storm'}{replicas}",
        SUMMARY_COLUMNS,
        [row],
        note=f"Targets: every session served, 0 errors, {goals}, peak memory ≤ 3 GB. Redraw: a "
        "slider's change until the last figure it changes has arrived; peak memory: the "
        "servers' processes, resident.",
    )


def summarise(records: list[Record], peak: int, args: argparse.Namespace) -> bool:
    """Print the table; whether every target was met."""
    normal = [r for r in records if r.scenario != HEAVY.name]
    heavy = [d for r in records if r.scenario == HEAVY.name for d in r.redraws]
    redraws = [d for r in normal for d in r.redraws]
    served = sum(r.opened is not None and not r.exceptions for r in normal)
    opened = [r.opened for r in normal if r.opened is not None]
    errors = errors_shown(records)
    print(f"\nsessions served      {served} of {len(normal)}" + (" (+1 heavy)" if heavy else ""))
    print(f"changes made         {len(redraws)}")
    print(
        "errors shown         "
        f"{errors} (exceptions {sum(r.exceptions for r in records)}, "
        f"st.error {sum(r.error_alerts for r in records)}, "
        f"timeouts {sum(r.timeouts for r in records)}, "
        f"lost connections {sum(r.disconnects for r in records)}"
        + (
            f", failed downloads {sum(r.download_failures for r in records)}, "
            f"state lost on reconnecting {sum(r.state_lost for r in records)})"
            if args.replicas
            else ")"
        )
    )
    first = [r.first_figure for r in normal if r.first_figure is not None]
    if opened:
        print(f"open a view          {spread(opened)}")
        print(f"time to first figure {spread(first)}")
    p95 = redraw_p95(records)
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
    servers = f"all {args.replicas} servers together" if args.replicas else "process tree"
    print(f"server peak memory   {peak / 2**30:.2f} GB (resident, {servers})")
    for message in sorted({m for r in records for m in r.messages})[:20]:
        print(f"  ! {message}")
    first_p95 = percentile(first, 95) if opened and first else float("inf")
    ok = served == args.sessions and errors == 0 and peak <= 3 * 2**30
    if args.lecture:
        ok = ok and first_p95 <= LECTURE_FIRST_P95_S and p95 <= LECTURE_REDRAW_P95_S
        goals = (
            f"first figure p95 <= {LECTURE_FIRST_P95_S:g} s, "
            f"redraw p95 <= {LECTURE_REDRAW_P95_S:g} s"
        )
    else:
        ok = ok and p95 <= STORM_REDRAW_P95_S
        goals = f"redraw p95 <= {STORM_REDRAW_P95_S:g} s"
    print(
        "targets              "
        + ("met" if ok else "NOT met")
        + f" (sessions {args.sessions}, 0 errors, {goals}, peak <= 3 GB)"
    )
    return ok


async def main_async(
    args: argparse.Namespace, base_url: str, kill: Callable[[], None] | None = None
) -> list[Record]:
    """Run all sessions to the end and return their records.

    ``kill`` is called (in a thread) ``args.kill_after`` seconds after the start.
    """
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
        record = Record(scenario.name, f"s{args.seed + i}")
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
                balanced=bool(args.replicas),
            )
        )
    if kill is not None:

        async def kill_later() -> None:
            await asyncio.sleep(args.kill_after)
            await asyncio.to_thread(kill)

        tasks.append(kill_later())
    # Every run waits at most --timeout, so this bound is never the one that stops the test.
    limit = args.ramp + args.duration + (RECONNECT_ATTEMPTS + 2) * args.timeout + 30
    await asyncio.wait_for(asyncio.gather(*tasks), limit)
    return records


def summarise_replicas(
    records: list[Record],
    requests: list[Request],
    names: list[str],
    usage: Usage,
    killed: tuple[str, float, float] | None,
) -> bool:
    """Print where the sessions went; whether each kept its replica, but for the killed one's.

    ``killed``: (replica, seconds after the start, ``time.time()``) of the kill.
    A session of the killed replica may move once, to a live one, after the
    kill; every other session keeps its replica for every request.
    """
    dead, after, at = killed if killed else ("", 0.0, 0.0)
    check = sticky(requests, {r.name: r.replicas for r in records}, (dead, at) if killed else None)
    kinds = Counter((request.replica, request.kind) for request in requests)
    print(f"\nreplicas             {len(names)} behind HAProxy (cookie {COOKIE})")
    for i, name in enumerate(names):
        first = sum(path[:1] == [name] for path in check.paths.values())
        last = sum(path[-1:] == [name] for path in check.paths.values())
        counts = ", ".join(f"{kind} {kinds[name, kind]}" for kind in ("page", "websocket", "media"))
        note = f"   killed at {after:.0f} s" if name == dead else ""
        print(
            f"  {name:<6} sessions {first:3d} at first, {last:3d} at the end; requests {counts}; "
            f"peak {usage.peak[i] / 2**30:.2f} GB, CPU {usage.cpu[i]:.0f} s{note}"
        )
    print(
        f"stickiness           {len(check.stuck)} of {len(records)} sessions had every request "
        f"(page, websocket, downloads) on one replica; {len(check.moved)} moved once, after the "
        f"kill, from {dead or '-'} to a live one; {len(check.wrong)} otherwise"
    )
    for name, what in list(check.wrong.items())[:10]:
        print(f"  ! {name}: {what}")
    reconnected = [r.name for r in records if r.reconnects]
    if killed:
        back = [t for r in records for t in r.reconnects]
        print(
            f"reconnects           {len(back)} by {len(reconnected)} sessions "
            f"({len(check.on_dead)} were on {dead}); state kept "
            f"{len(back) - sum(r.state_lost for r in records)} of {len(back)}"
            + (f"; back after {spread(back)}" if back else "")
        )
    print(
        f"downloads (CSV)      {sum(r.downloads for r in records)} through the balancer, "
        f"{sum(r.download_failures for r in records)} failed"
    )
    told = [r.name for r in records if r.moved_notices]
    print(
        f"notices              {sum(r.moved_notices for r in records)} toasts 'you are now on "
        f"another server' to {len(told)} sessions"
    )
    ok = (
        check.ok
        and set(reconnected) <= set(check.on_dead)
        and all(r.moved_notices == (r.name in check.moved) for r in records)
    )
    print(
        "replica targets      "
        + ("met" if ok else "NOT met")
        + " (every session on one replica; only the killed one's sessions move, all of them,"
        " each told once)"
    )
    return ok


STORM = {"sessions": 30, "duration": 60.0, "ramp": 10.0, "think": (0.5, 2.0)}
"""Today's mode: sessions over the three views moving sliders."""
LECTURE = {"sessions": 100, "duration": 120.0, "ramp": 60.0, "think": (2.0, 5.0)}
"""``--lecture``: the class opening the lecturer's link within a minute."""
LECTURE_FIRST_P95_S, LECTURE_REDRAW_P95_S = 3.0, 2.0
"""The lecture's targets on this 2-core machine (issue #20)."""
STORM_REDRAW_P95_S = 2.0
"""The slider storm's target (issue #36), and the bar of ``--capacity``."""
CAPACITY_STEPS = (15, 5)
"""``--capacity``'s steps up (while the target holds) and down (until it holds)."""


def last_cache_report(log_path: Path) -> dict[str, list[int]]:
    """The last cache sizes the server printed (``kpca_ui/warmup.py``), by function."""
    reports = [
        line.split(CACHE_REPORT, 1)[1]
        for line in log_path.read_text(errors="replace").splitlines()
        if CACHE_REPORT in line
    ]
    return json.loads(reports[-1]) if reports else {}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line, with each mode's defaults filled in."""
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
    parser.add_argument(
        "--replicas",
        type=int,
        default=0,
        help="this many app servers behind HAProxy (deploy/haproxy.cfg); 0: one, directly",
    )
    parser.add_argument(
        "--kill-after",
        type=float,
        help="with --replicas 2 or more: kill the first replica this many seconds after the "
        "start (half-way through the sliding)",
    )
    parser.add_argument("--no-kill", action="store_true", help="with --replicas: kill none of them")
    parser.add_argument(
        "--cold",
        action="store_true",
        help="the storm's sessions open at once, while the server warms up (by default they "
        "wait until its log says the warm-up has finished)",
    )
    parser.add_argument(
        "--capacity",
        action="store_true",
        help="the most storm sessions one server holds with redraw p95 <= 2 s: from "
        "--sessions up by 15, or down by 5",
    )
    args = parser.parse_args(argv)
    if args.capacity and (args.lecture or args.replicas):
        parser.error("--capacity steps the slider storm on one server")
    # the storm on a warm server; the lecture's and the replicas' runs as they were measured
    args.warm = not (args.cold or args.lecture or args.replicas)
    defaults = LECTURE if args.lecture else STORM
    for name, value in defaults.items():
        if getattr(args, name) is None:
            setattr(args, name, value)
    if args.replicas < 2 or args.no_kill:
        args.kill_after = None
    elif args.kill_after is None:
        args.kill_after = args.ramp + args.duration / 2
    return args


@dataclass
class Outcome:
    """What one load test saw (:func:`run`), for :func:`report`."""

    records: list[Record]
    names: list[str]
    """The replicas' names (``app1`` …), one without ``--replicas``."""
    usage: Usage
    delays: list[float]
    """Seconds ``/_stcore/health`` took to answer, every 0.5 s, on every server."""
    caches: dict[str, dict[str, list[int]]]
    """Each server's last cache sizes (:func:`last_cache_report`)."""
    requests: list[Request] | None
    """HAProxy's log (``None`` without ``--replicas``)."""
    killed: tuple[str, float, float] | None
    """(replica, seconds after the start, ``time.time()``) of the kill, if one was killed."""
    wall: float
    load_before: float


def run(args: argparse.Namespace, env: dict[str, str] | None = None) -> Outcome:
    """Start the server(s) (and HAProxy), run the sessions, stop everything; what was seen.

    ``env``: extra environment variables of the app servers.
    """
    names = [f"app{i + 1}" for i in range(max(args.replicas, 1))]
    servers = [
        AppServer(
            env={
                # the sizes are walked every 5 s: ~7 % of the server's busy time in a storm
                CACHE_REPORT_ENV: "1" if args.lecture else "0",
                REPLICA_ENV: name if args.replicas else "",
                **(env or {}),
            }
        )
        for name in names
    ]
    balancer = None
    killed: list[tuple[str, float, float]] = []
    with contextlib.ExitStack() as stack:
        for name, server in zip(names, servers, strict=True):
            stack.enter_context(server)
            label = f"server {name}" if args.replicas else "server"
            print(f"{label} {server.url} (pid {server.process.pid}), log {server.log_path}")
        base_url = servers[0].url
        if args.warm and (env or {}).get("KPCA_WARMUP", os.environ.get("KPCA_WARMUP")) != "0":
            for server in servers:
                waited = wait_for_warm_up(server.log_path)
                print(f"warmed up after {waited:.0f} s more", flush=True)
        if args.replicas:
            balancer = stack.enter_context(
                HAProxy({name: server.port for name, server in zip(names, servers, strict=True)})
            )
            base_url = balancer.url
            print(
                f"{balancer.version()}\n  {base_url}, config {balancer.config_path} "
                f"(from deploy/haproxy.cfg), log {balancer.log_path}"
            )
        print(
            f"{args.sessions} sessions over "
            f"{'the link ' + args.link if args.lecture else ', '.join(args.views)}"
            f"{' + 1 heavy' if args.heavy else ''}; open within {args.ramp:g} s, "
            f"then slide for {args.duration:g} s"
            + (f"; {names[0]} killed after {args.kill_after:g} s" if args.kill_after else ""),
            flush=True,
        )
        stop, usage, delays = threading.Event(), Usage(servers), []
        samplers = [threading.Thread(target=usage.keep_sampling, args=(stop,), daemon=True)]
        samplers += [
            threading.Thread(target=probe_health, args=(server, stop, delays), daemon=True)
            for server in servers
        ]
        for sampler in samplers:
            sampler.start()
        load_before, started = os.getloadavg()[0], time.monotonic()

        def kill() -> None:
            usage.sample()
            killed.append((names[0], time.monotonic() - started, time.time()))
            servers[0].kill()

        try:
            records = asyncio.run(
                main_async(args, base_url, kill if args.kill_after is not None else None)
            )
        finally:
            stop.set()
            for sampler in samplers:
                sampler.join()
            with contextlib.suppress(Exception):
                usage.sample()
        wall = time.monotonic() - started
    return Outcome(
        records,
        names,
        usage,
        delays,
        {name: last_cache_report(s.log_path) for name, s in zip(names, servers, strict=True)},
        None if balancer is None else balancer.requests(),
        killed[0] if killed else None,
        wall,
        load_before,
    )


def report(outcome: Outcome, args: argparse.Namespace) -> bool:
    """Print the report; whether every target was met."""
    ok = summarise(outcome.records, outcome.usage.total, args)
    if outcome.requests is not None:
        ok = (
            summarise_replicas(
                outcome.records, outcome.requests, outcome.names, outcome.usage, outcome.killed
            )
            and ok
        )
    if outcome.delays:
        print(
            f"health check         {spread(outcome.delays)}   (while it waits, the server "
            "answers no session)"
        )
    for name, sizes in outcome.caches.items():
        print(
            f"cache sizes{' of ' + name if args.replicas else ''}".ljust(21)
            + ("(none reported)" if not sizes else "")
        )
        for function, (entries, size) in sorted(sizes.items(), key=lambda item: -item[1][1]):
            print(
                f"  {function.rsplit('.', 1)[-1]:<22} {entries:4d} entries {size / 2**20:8.1f} MB"
            )
    clients = resource.getrusage(resource.RUSAGE_SELF)
    print(
        f"CPU                  server{'s' if args.replicas else ''} "
        f"{sum(outcome.usage.cpu):.0f} s (its process {sum(outcome.usage.own_cpu):.0f} s, "
        f"workers {sum(outcome.usage.cpu) - sum(outcome.usage.own_cpu):.0f} s), these clients "
        f"{clients.ru_utime + clients.ru_stime:.0f} s, in {outcome.wall:.0f} s on "
        f"{os.cpu_count()} cores; load average {outcome.load_before:.1f} before, "
        f"{os.getloadavg()[0]:.1f} after"
    )
    return ok


def redraw_p95(records: list[Record]) -> float:
    """The p95 of the sessions' redraws (to the last figure), in seconds."""
    redraws = [d.figure for r in records if r.scenario != HEAVY.name for d in r.redraws]
    return percentile(redraws, 95) if redraws else float("inf")


def capacity(args: argparse.Namespace) -> bool:
    """Step the storm's sessions (:data:`STORM_REDRAW_P95_S`); whether any number held."""
    held: dict[int, float] = {}
    failed: dict[int, float] = {}
    n, step = args.sessions, None
    while n >= CAPACITY_STEPS[1]:
        args.sessions = n
        outcome = run(args)
        ok = report(outcome, args)
        (held if ok else failed)[n] = redraw_p95(outcome.records)
        print(
            f"capacity step        {n} sessions: redraw p95 {(held | failed)[n]:.2f} s, "
            f"{'held' if ok else 'did not hold'}\n",
            flush=True,
        )
        if step is None:
            step = CAPACITY_STEPS[0] if ok else -CAPACITY_STEPS[1]
        elif (step > 0) != ok:
            break
        n += step
    steps = ", ".join(
        f"{k}: {v:.2f} s{'' if k in held else ' (no)'}" for k, v in sorted((held | failed).items())
    )
    print(
        f"capacity             {max(held) if held else 'fewer than ' + str(min(failed))} "
        f"sessions keep redraw p95 <= {STORM_REDRAW_P95_S:g} s with 0 errors ({steps})"
    )
    save(
        "load_capacity",
        "Capacity: storm sessions on one server, stepped until the target breaks",
        ["sessions", "redraw p95 (s)", "held"],
        [[k, v, "yes" if k in held else "no"] for k, v in sorted((held | failed).items())],
        note=f"Held: every session served, 0 errors, redraw p95 ≤ {STORM_REDRAW_P95_S:g} s and "
        "peak memory ≤ 3 GB. A storm session changes a slider as soon as its last change is "
        "drawn; each step is a fresh server.",
    )
    return bool(held)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.capacity:
        return 0 if capacity(args) else 1
    outcome = run(args)
    ok = report(outcome, args)
    save_run(args, summary_row(outcome, args, ok))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
