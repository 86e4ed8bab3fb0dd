"""The replicated deployment: HAProxy's configuration is valid, and sticky in practice.

Behind a real HAProxy (``bench/balancer.py``, configured from ``deploy/haproxy.cfg``)
two stand-in replicas answer with their names, so stickiness is checked in a
second or two; ``bench/load_test.py --replicas`` checks it with the app itself
(``tests/test_load_test.py``, marked slow).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import threading
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from http.cookies import SimpleCookie
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

from balancer import COOKIE, SESSION_HEADER, HAProxy, config, in_turn, sticky

from kpca_ui.shell import PINNED_HEADER

HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
def test_haproxy_accepts_the_configuration():
    result = subprocess.run(
        ["haproxy", "-c", "-f", str(HAPROXY_CFG)], capture_output=True, text=True, timeout=30
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_sessions_stick_to_a_replica_by_cookie_and_only_healthy_replicas_get_them():
    lines = [line.split("#")[0].strip() for line in HAPROXY_CFG.read_text().splitlines()]
    assert "cookie kpca_replica insert indirect nocache httponly" in lines
    assert "option httpchk GET /_stcore/health" in lines
    servers = [line.split() for line in lines if line.startswith("server ")]
    # the browser's pings (backend probes) unpinned, the rest pinned by cookie
    assert [s[3:] for s in servers] == [[], [], ["cookie", "app1"], ["cookie", "app2"]]
    assert "use_backend probes if { path /_stcore/health /_stcore/host-config }" in lines


def test_the_container_runs_as_a_user_and_is_health_checked():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "USER kpca" in dockerfile
    assert "/_stcore/health" in dockerfile.split("HEALTHCHECK", 1)[1]
    assert "python -m pip install ." in dockerfile


def test_everything_the_container_copies_is_in_the_repository():
    copied = [
        line.split()[1:-1]
        for line in (ROOT / "Dockerfile").read_text().splitlines()
        if line.startswith("COPY ")
    ]
    assert copied and all((ROOT / path).exists() for paths in copied for path in paths)


class Stub(ThreadingHTTPServer):
    """A replica stand-in: healthy, answers with its name, counts each session's requests."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.seen: Counter[str] = Counter()
        self.pinned: dict[str, list[str]] = {}
        """Session -> the pin HAProxy said it had (``X-Kpca-Pinned-To``), per request."""
        self.forwarded: set[str] = set()
        """The browsers' addresses HAProxy forwarded (``X-Forwarded-For``)."""
        super().__init__(("127.0.0.1", 0), StubHandler)
        threading.Thread(target=self.serve_forever, daemon=True).start()

    def kill(self) -> None:
        """Stop answering and close the port: a new connection is refused."""
        self.shutdown()
        self.server_close()


class StubHandler(BaseHTTPRequestHandler):
    server: Stub

    def do_GET(self) -> None:
        if self.path != "/_stcore/health":
            session = self.headers.get(SESSION_HEADER, "")
            self.server.seen[session] += 1
            pinned = self.headers.get(PINNED_HEADER, "")
            self.server.pinned.setdefault(session, []).append(pinned)
            self.server.forwarded.add(self.headers.get("X-Forwarded-For", ""))
        # HAProxy's check expects "ok" in the health answer
        body = f"{'ok ' if self.path == '/_stcore/health' else ''}{self.server.name}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        """Quiet."""


def visit(url: str, session: str, cookies: dict[str, str]) -> str:
    """GET ``url`` as a browser with ``cookies`` would (keeping new ones); which stub answered."""
    headers = {SESSION_HEADER: session}
    if cookies:
        headers["Cookie"] = "; ".join(f"{key}={value}" for key, value in cookies.items())
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=30) as answer:
        for header in answer.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie(header)
            cookies.update({key: morsel.value for key, morsel in jar.items()})
        return answer.read().decode().split()[-1]


@pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed")
def test_haproxy_keeps_each_session_on_its_replica_and_moves_only_the_killed_ones():
    stubs = {name: Stub(name) for name in ("app1", "app2")}
    sessions = [f"s{i}" for i in range(6)]
    cookies: dict[str, dict[str, str]] = {name: {} for name in sessions}
    answered: dict[str, list[str]] = {name: [] for name in sessions}

    def browse(name: str, path: str) -> None:
        answered[name].append(visit(balancer.url + path, name, cookies[name]))

    ports = {name: stub.server_port for name, stub in stubs.items()}
    # concurrent requests: HAProxy's leastconn spreads the sessions over both
    with HAProxy(ports) as balancer, ThreadPoolExecutor(len(sessions)) as pool:
        list(pool.map(browse, sessions, ["/contours?ct_n=300"] * len(sessions)))
        for path in ("/_stcore/stream", "/media/table.csv"):
            list(pool.map(browse, sessions, [path] * len(sessions)))
        killed_at = time.time()
        stubs["app1"].kill()
        for path in ("/_stcore/health", "/_stcore/stream", "/media/table.csv"):
            list(pool.map(browse, sessions, [path] * len(sessions)))
    stubs["app2"].kill()
    # the browser's address reaches the replicas (their per-address limits count browsers)
    assert stubs["app1"].forwarded == stubs["app2"].forwarded == {"127.0.0.1"}

    check = sticky(balancer.requests(), answered, ("app1", killed_at))
    assert check.ok, check.wrong
    on_app1 = sorted(name for name in sessions if answered[name][0] == "app1")
    assert sorted(check.on_dead) == sorted(check.moved) == on_app1
    assert sorted(check.stuck) == sorted(set(sessions) - set(on_app1))
    for name in sessions:
        assert check.paths[name] == in_turn(answered[name])
        assert cookies[name][COOKIE] == answered[name][-1]  # the cookie names the new replica
        # the replicas' own counts: three requests before the kill, two (or five) after
        assert stubs["app1"].seen[name] == (3 if name in on_app1 else 0)
        assert stubs["app2"].seen[name] == (2 if name in on_app1 else 5)
        # a moved session's ping did not pin it anew: its websocket tells app2 the dead pin
        if name in on_app1:
            assert stubs["app1"].pinned[name] == ["", "app1", "app1"]
            assert stubs["app2"].pinned[name] == ["app1", "app2"]
        else:
            assert stubs["app2"].pinned[name] == ["", "app2", "app2", "app2", "app2"]


def test_the_balancers_config_is_the_repositorys_with_one_server_per_replica():
    text = config({"app1": 9001, "app2": 9002, "app3": 9003})
    deploy = HAPROXY_CFG.read_text()
    servers = [line.split() for line in text.splitlines() if line.strip().startswith("server ")]
    assert servers == [["server", f"app{i}", f"127.0.0.1:900{i}"] for i in (1, 2, 3)] + [
        ["server", f"app{i}", f"127.0.0.1:900{i}", "cookie", f"app{i}"] for i in (1, 2, 3)
    ]
    for line in deploy.splitlines():  # everything else of deploy/haproxy.cfg is kept
        if not line.strip().startswith(("server ", "option httplog")):
            assert line in text.splitlines()
