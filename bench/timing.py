"""Timing shared by the benchmarks."""

import statistics
import time
from collections.abc import Callable


def median_time(
    work: Callable[[], object], repeats: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Median time of ``work()`` in seconds, after one warm-up call: wall time, or with
    ``clock=time.process_time`` this process's CPU (all its threads)."""
    work()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        times.append(clock() - start)
    return statistics.median(times)


def interleaved_medians(
    works: dict[str, Callable[[], object]],
    repeats: int,
    clock: Callable[[], float] = time.perf_counter,
) -> dict[str, float]:
    """Median wall times of several works run in turn, after one warm-up each (with
    ``clock=time.process_time``, this process's CPU time).

    Taking turns spreads the machine's slow spells (other tenants of the
    2 cores) over all of them, so their ratio stays fair.
    """
    for work in works.values():
        work()
    times: dict[str, list[float]] = {name: [] for name in works}
    for _ in range(repeats):
        for name, work in works.items():
            start = clock()
            work()
            times[name].append(clock() - start)
    return {name: statistics.median(t) for name, t in times.items()}
