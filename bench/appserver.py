"""Start the app the way the README does, on a free port of 127.0.0.1, and stop it.

Shared by the end-to-end tests (``tests/e2e``), ``bench/ui_latency.py`` and
``bench/load_test.py``::

    with AppServer() as server:           # python3 -m streamlit run app.py ...
        print(server.url, server.tree_rss())

The server listens on 127.0.0.1 only and runs in its own process group, so
:meth:`AppServer.stop` ends it and every child it started.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parent.parent
"""The repository root, where ``app.py`` is."""
HOST = "127.0.0.1"


def die_with_parent() -> None:
    """In the child before ``exec``: get SIGTERM when the process that started it dies.

    So a killed test run or bench never leaves a server behind (Linux ``prctl``).
    """
    pr_set_pdeathsig = 1
    ctypes.CDLL(None).prctl(pr_set_pdeathsig, signal.SIGTERM)


def stop_group(process: subprocess.Popen, timeout: float = 10.0) -> None:
    """End ``process``'s process group: SIGTERM, then SIGKILL after ``timeout`` s."""
    if process.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout)


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def tree_pids(pid: int) -> list[int]:
    """``pid`` and all its descendants, by the parent of every process in ``/proc``.

    Not from ``/proc/<pid>/task/*/children``: that lists a child under the thread that
    started it, and a worker started by a session's script thread, which ends after its
    run, came and went from that listing between two readings (its whole CPU counted
    again each time it came back).
    """
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            parent = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            parents.setdefault(parent, []).append(int(stat.parent.name))
    pids, todo = [], [pid]
    while todo:
        current = todo.pop()
        pids.append(current)
        todo.extend(parents.get(current, ()))
    return pids


def rss_bytes(pid: int) -> int:
    """Resident set size of one process in bytes (0 once it has gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    for line in status.splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time one process has used, in seconds (0 once it has gone).

    With that of its children that have ended (and been waited for), so that the
    sum over a process tree does not drop when a child ends.
    """
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = stat.rsplit(")", 1)[1].split()
    return sum(int(ticks) for ticks in fields[11:15]) / os.sysconf("SC_CLK_TCK")


class AppServer:
    """``python3 -m streamlit run app.py`` on a free port of 127.0.0.1, as a context manager.

    Parameters
    ----------
    port : int, optional
        Port to listen on; a free one by default.
    env : mapping, optional
        Extra environment variables for the server (e.g. ``KPCA_USPS_DIR``).
    startup_timeout : float
        Seconds to wait for ``/_stcore/health`` to answer ``ok``.
    root : Path
        The checkout whose app is served (this one by default; ``bench/ui_latency.py
        --before`` serves an older one beside it).

    The server's output goes to :attr:`log_path`; :meth:`log_tail` shows its end
    when something goes wrong.
    """

    def __init__(
        self,
        *,
        port: int | None = None,
        env: dict[str, str] | None = None,
        startup_timeout: float = 60.0,
        root: Path = ROOT,
    ) -> None:
        self.port = port or free_port()
        self.root = root
        self.env = {**os.environ, **(env or {})}
        self.startup_timeout = startup_timeout
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = Path(tempfile.mkstemp(prefix="kpca-server-", suffix=".log")[1])
        self._log: IO[bytes] | None = None

    @property
    def url(self) -> str:
        """Base URL of the app, e.g. ``http://127.0.0.1:8765``."""
        return f"http://{HOST}:{self.port}"

    @property
    def command(self) -> list[str]:
        """The README's start command, with the port, headless mode and loopback address."""
        return [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.port",
            str(self.port),
            "--server.headless",
            "true",
            "--server.address",
            HOST,
        ]

    def start(self) -> AppServer:
        """Start the server and wait until ``/_stcore/health`` answers."""
        self._log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            self.command,
            cwd=self.root,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + self.startup_timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the app exited at start-up:\n{self.log_tail()}")
            if self.healthy():
                return self
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(
            f"the app did not answer /_stcore/health within {self.startup_timeout:g} s:\n"
            f"{self.log_tail()}"
        )

    def healthy(self, timeout: float = 2.0) -> bool:
        """Whether ``/_stcore/health`` answers ``ok`` within ``timeout`` seconds."""
        try:
            with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=timeout) as response:
                return response.status == 200 and response.read().strip() == b"ok"
        except (urllib.error.URLError, OSError):
            return False

    def alive(self) -> bool:
        """Whether the server's process is running."""
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """End the server and every child at once (SIGKILL to its process group), as a crash."""
        if self.alive():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(10)

    def tree_rss(self) -> int:
        """Resident memory of the server and all its children, in bytes."""
        if self.process is None or self.process.poll() is not None:
            return 0
        return sum(rss_bytes(pid) for pid in tree_pids(self.process.pid))

    def tree_cpu(self) -> float:
        """CPU seconds the server and its children have used so far."""
        if self.process is None or self.process.poll() is not None:
            return 0.0
        return sum(cpu_seconds(pid) for pid in tree_pids(self.process.pid))

    def wait_quiet(self, window: float = 2.0, share: float = 0.05, timeout: float = 180.0) -> float:
        """Wait until the server and its children use under ``share`` of a core; the wait in s.

        Measured over ``window`` seconds at a time.  The app warms its caches
        in the background after its first session (``kpca_ui/warmup.py``,
        ~20 s of both cores here); a lecture's server has finished that
        before the class arrives, so timings taken during it measure the
        warm-up, not the view.  Raises ``TimeoutError`` after ``timeout`` s.
        """
        start = time.monotonic()
        while time.monotonic() - start < timeout:
            used = self.tree_cpu()
            time.sleep(window)
            if self.tree_cpu() - used < share * window:
                return time.monotonic() - start
        raise TimeoutError(f"the server was still busy after {timeout:g} s")

    def log_tail(self, lines: int = 40) -> str:
        """The last lines the server printed."""
        text = self.log_path.read_text(errors="replace") if self.log_path.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server's process group: SIGTERM, then SIGKILL after ``timeout`` s."""
        if self.process is not None:
            stop_group(self.process, timeout)
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> AppServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()
