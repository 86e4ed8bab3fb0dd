"""Timing shared by the benchmarks."""

import statistics
import time
from collections.abc import Callable


def median_time(work: Callable[[], object], repeats: int) -> float:
    """Median wall time of ``work()`` in seconds, after one warm-up call."""
    work()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return statistics.median(times)
