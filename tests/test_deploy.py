"""The replicated deployment's files: HAProxy's configuration is valid and sticky."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from conftest import ROOT

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
    assert [s[-2:] for s in servers] == [["cookie", "app1"], ["cookie", "app2"]]


def test_the_container_runs_as_a_user_and_is_health_checked():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "USER kpca" in dockerfile
    assert "/_stcore/health" in dockerfile.split("HEALTHCHECK", 1)[1]
    assert "python -m pip install ." in dockerfile
