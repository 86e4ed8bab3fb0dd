"""Debian's HAProxy on 127.0.0.1 in front of app replicas, configured from ``deploy/haproxy.cfg``.

Used by ``bench/load_test.py --replicas`` (and its smoke test)::

    with HAProxy({"app1": 8601, "app2": 8602}) as balancer:
        print(balancer.url)              # the app, through the balancer
    requests = balancer.requests()       # what it logged: which replica got what

The configuration is the repository's own (``deploy/haproxy.cfg``: cookie
stickiness, redispatch, health checks, the browser's pings to any replica),
with three changes: one ``server`` line per replica given in each backend,
the address it binds from ``KPCA_BIND`` (as the file expects), and a log line
per request that names the replica and the load test's session (the
``X-Kpca-Session`` header its clients send).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from appserver import HOST, ROOT, die_with_parent, free_port, stop_group

DEPLOY_CFG = ROOT / "deploy" / "haproxy.cfg"
SESSION_HEADER = "X-Kpca-Session"
"""The header by which the load test's clients name their session in HAProxy's log."""
COOKIE = "kpca_replica"
"""The stickiness cookie of ``deploy/haproxy.cfg``: the replica's name."""
LOG_TAG = "kpca-request"
LOG_FORMAT = f'log-format "{LOG_TAG} %Ts.%ms %s %ST %HM %HP session=%[capture.req.hdr(0)]"'
"""One line per request: accepted at (epoch seconds), replica, status, method, path, session."""


def haproxy_binary() -> str:
    """Debian's ``haproxy``, installed with apt-get if missing (as ``.ci/run`` does)."""
    found = shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/sbin")
    if found:
        return found
    if os.geteuid() != 0:
        raise RuntimeError("haproxy is not installed: sudo apt-get install haproxy")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
    subprocess.run(["apt-get", "install", "-y", "-qq", "haproxy"], check=True, env=env)
    return shutil.which("haproxy", path="/usr/sbin:/usr/bin:/sbin") or "haproxy"


def config(replicas: Mapping[str, int]) -> str:
    """``deploy/haproxy.cfg`` with one server line per replica (name -> port on 127.0.0.1).

    The bind address stays ``${KPCA_BIND}``, set in HAProxy's environment.
    """
    lines = DEPLOY_CFG.read_text().splitlines()
    servers = [i for i, line in enumerate(lines) if line.strip().startswith("server ")]
    if not servers or "    option httplog" not in lines:
        raise ValueError(f"{DEPLOY_CFG} has no server lines or no 'option httplog'")
    # each backend's run of server lines, from the last, so that earlier indices hold
    runs = [i for i in servers if i - 1 not in servers]
    for start in reversed(runs):
        end = start
        while end + 1 in servers:
            end += 1
        template = lines[start]
        indent = template[: len(template) - len(template.lstrip())]
        cookie = " cookie {name}" if " cookie " in template else ""
        lines[start : end + 1] = [
            f"{indent}server {name} {HOST}:{port}" + cookie.format(name=name)
            for name, port in replicas.items()
        ]
    lines[lines.index("    option httplog")] = f"    {LOG_FORMAT}"
    frontend = next(i for i, line in enumerate(lines) if line.startswith("frontend "))
    lines.insert(frontend + 1, f"    http-request capture req.hdr({SESSION_HEADER}) len 24")
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class Request:
    """One request as HAProxy logged it (when it ended: a websocket when it closed)."""

    accepted: float
    """When HAProxy accepted it (seconds since the epoch)."""
    replica: str
    """The server that answered (``<NOSRV>`` if none did)."""
    status: int
    method: str
    path: str
    session: str
    """The client's ``X-Kpca-Session`` header (empty without one)."""

    @property
    def kind(self) -> str:
        """``websocket``, ``media`` (downloads, images), ``health`` (the browser's pings,
        answered by any replica) or ``page``."""
        if self.path.startswith("/_stcore/stream"):
            return "websocket"
        if self.path.startswith("/media/"):
            return "media"
        if self.path.startswith(("/_stcore/health", "/_stcore/host-config")):
            return "health"
        return "page"


_LINE = re.compile(
    LOG_TAG + r" (?P<accepted>[\d.]+) (?P<replica>\S+) (?P<status>-?\d+) (?P<method>\S+) "
    r"(?P<path>\S+) session=(?P<session>\S*)"
)


def parse_log(text: str) -> list[Request]:
    """The requests of HAProxy's log lines (other lines are skipped)."""
    requests = []
    for match in _LINE.finditer(text):
        session = match["session"]
        requests.append(
            Request(
                float(match["accepted"]),
                match["replica"],
                int(match["status"]),
                match["method"],
                match["path"],
                "" if session == "-" else session,
            )
        )
    return sorted(requests, key=lambda request: request.accepted)


def in_turn(names: list[str]) -> list[str]:
    """``names`` without repeats in a row: the replicas a session had, in turn."""
    return [name for i, name in enumerate(names) if names[i - 1 : i] != [name]]


@dataclass
class Stickiness:
    """Which sessions kept their replica, by HAProxy's log (see :func:`sticky`)."""

    paths: dict[str, list[str]]
    """Session -> the replicas that answered its requests, in turn."""
    stuck: list[str] = field(default_factory=list)
    """Sessions whose every request went to one replica."""
    moved: list[str] = field(default_factory=list)
    """Sessions of the killed replica that moved once, to another, after the kill."""
    wrong: dict[str, str] = field(default_factory=dict)
    """Any other session -> what went wrong."""
    on_dead: list[str] = field(default_factory=list)
    """Sessions that started on the killed replica."""

    @property
    def ok(self) -> bool:
        """Every session kept its replica, but the killed one's, which all moved once."""
        return not self.wrong and self.moved == self.on_dead


def sticky(
    requests: list[Request],
    cookies: Mapping[str, list[str]],
    killed: tuple[str, float] | None = None,
) -> Stickiness:
    """Check that every session kept its replica (the killed one's may move once, after the kill).

    The browser's pings (:attr:`Request.kind` ``health``) are answered by any replica
    and left out.

    Parameters
    ----------
    requests : list of Request
        HAProxy's log (:meth:`HAProxy.requests`).
    cookies : mapping
        Session -> the replicas its cookie named, in the order the session saw them.
    killed : (str, float), optional
        The replica killed and when (``time.time()``).
    """
    dead, at = killed or ("", float("inf"))
    pinned = [r for r in requests if r.kind != "health"]  # pings go to any replica
    check = Stickiness(
        {name: in_turn([r.replica for r in pinned if r.session == name]) for name in cookies}
    )
    for name, seen in cookies.items():
        path = check.paths[name]
        if path[:1] == [dead]:
            check.on_dead.append(name)
        if path != in_turn(seen):
            check.wrong[name] = f"replicas {path} in HAProxy's log, {seen} by its cookie"
        elif len(path) == 1:
            check.stuck.append(name)
        elif len(path) == 2 and path[0] == dead:
            arrived = min(r.accepted for r in pinned if r.session == name and r.replica == path[1])
            if arrived >= at:
                check.moved.append(name)
            else:
                check.wrong[name] = f"on {path[1]} before {dead} was killed"
        else:
            check.wrong[name] = f"replicas {path}"
    return check


class HAProxy:
    """``haproxy -db`` on a free port of 127.0.0.1 in front of ``replicas``, as a context manager.

    Parameters
    ----------
    replicas : mapping
        Replica name (its cookie value) -> port on 127.0.0.1.
    startup_timeout : float
        Seconds to wait until the app's ``/_stcore/health`` answers through it.
    """

    def __init__(self, replicas: Mapping[str, int], *, startup_timeout: float = 30.0) -> None:
        self.replicas = dict(replicas)
        self.port = free_port()
        self.startup_timeout = startup_timeout
        self.binary = haproxy_binary()
        workdir = Path(tempfile.mkdtemp(prefix="kpca-haproxy-"))
        self.config_path = workdir / "haproxy.cfg"
        self.config_path.write_text(config(self.replicas))
        self.log_path = workdir / "haproxy.log"
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        """Base URL of the app through the balancer."""
        return f"http://{HOST}:{self.port}"

    def version(self) -> str:
        """HAProxy's version line."""
        result = subprocess.run([self.binary, "-v"], capture_output=True, text=True, check=False)
        return result.stdout.splitlines()[0] if result.stdout else "HAProxy (version unknown)"

    def start(self) -> HAProxy:
        """Check the configuration, start HAProxy and wait until the app answers through it."""
        env = {**os.environ, "KPCA_BIND": f"{HOST}:{self.port}"}
        check = subprocess.run(
            [self.binary, "-c", "-q", "-f", str(self.config_path)],
            capture_output=True,
            text=True,
            env=env,
            check=False,
        )
        if check.returncode:
            raise RuntimeError(f"haproxy -c rejected {self.config_path}:\n{check.stderr}")
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            [self.binary, "-db", "-f", str(self.config_path)],
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"haproxy exited at start-up:\n{self.log_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"no answer through haproxy within {self.startup_timeout:g} s")

    def log_text(self) -> str:
        """Everything HAProxy printed so far."""
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def requests(self) -> list[Request]:
        """The requests it has logged, in the order it accepted them."""
        return parse_log(self.log_text())

    def stop(self, timeout: float = 10.0) -> None:
        """Stop HAProxy (its log lines of open connections are written as they close)."""
        if self.process is not None:
            stop_group(self.process, timeout)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> HAProxy:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
