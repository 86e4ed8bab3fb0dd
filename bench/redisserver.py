"""Debian's real ``redis-server`` on a free port of 127.0.0.1 (tests, ``bench/class_load.py``).

No persistence (``--save "" --appendonly no``) unless given a directory, where it keeps an
append-only file as ``compose.yaml``'s Redis does; the server runs in its own process group
and dies with the process that started it::

    with RedisServer() as server:
        print(server.url)        # redis://127.0.0.1:<port>/0
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

from appserver import HOST, die_with_parent, free_port, stop_group

REDIS_SERVER = "/usr/bin/redis-server"


def redis_binary() -> str | None:
    """Debian's ``redis-server`` (``.ci/run`` installs it), or None."""
    return REDIS_SERVER if Path(REDIS_SERVER).exists() else shutil.which("redis-server")


class RedisServer:
    """``redis-server`` on a free port as a context manager; :meth:`stop` ends it (SIGTERM:
    an append-only file is flushed), :meth:`start` starts it again on the same port; with
    ``directory``, its data persist there (``--appendonly yes``)."""

    def __init__(self, directory: Path | None = None) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def start(self) -> RedisServer:
        binary = redis_binary()
        if binary is None:
            raise RuntimeError("redis-server is not installed: sudo apt-get install redis-server")
        persist = ["--appendonly", "no"]
        if self.directory is not None:
            persist = ["--appendonly", "yes", "--dir", str(self.directory)]
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", HOST, "--save", "", *persist],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                with socket.create_connection((HOST, self.port), timeout=0.5) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return self
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("redis-server did not answer within 10 s")

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process, timeout=5)

    def __enter__(self) -> RedisServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
