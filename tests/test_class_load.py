"""``bench/class_load.py``: a class behind HAProxy, two replicas and Redis loses no point.

A smaller class than the bench's (20 students, 5 points each, in 20 s), each
student a real Streamlit session of the class page through the balancer, adding
points on its canvas as a phone does: every student joins, every point is
accepted, acknowledged, and on the projector at the end. Its timings are the
bench's to report (tests never assert wall time).
"""

from __future__ import annotations

import shutil
import sys

import pytest
from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(shutil.which("haproxy") is None, reason="haproxy is not installed"),
]


def test_every_accepted_point_reaches_the_projector_through_two_replicas():
    from class_load import measure
    from redisserver import redis_binary

    if redis_binary() is None:
        pytest.skip("redis-server is not installed")
    result = measure(20, 5, 20.0)
    assert result.joined == 20
    assert result.sent == result.accepted == 100
    assert result.missing == 0 and result.shown == 100
    assert not any(result.errors.values()), result.errors
    assert len(result.acks) == 100
