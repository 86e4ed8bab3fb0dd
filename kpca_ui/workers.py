"""The numerics of every session in a few worker processes, not in the server's threads.

All sessions' scripts share one process and its GIL; numpy, which releases the GIL
around each array operation, then queues behind every busy thread (the "convoy"
effect: Fig. 2's fits took 6.3 s beside three threads building figures, 30 ms
alone).  In a worker process the numerics have an interpreter of their own.

At most :data:`WORKERS` computations run at once, one per core (``KPCA_WORKERS=0``: in the
calling thread, as the page tests do); the heavy lane and cancellation: :func:`compute`.  The
workers end with the server, however it ends.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor, ThreadPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.managers import SyncManager
from typing import Any, TypeVar

import plotly.graph_objects as go
from threadpoolctl import threadpool_limits

from kpca_ui.adapter import interruption_point

Result = TypeVar("Result")
Progress = Callable[[float, str], None]

WORKERS_ENV = "KPCA_WORKERS"
WORKERS = 2
"""Worker processes: the machine's two cores."""
POLL_S = 0.05
"""How often a waiting session passes on a worker's progress and checks whether to stop."""
TICK_S = 1.0
"""A silent worker's last report is passed on again this often: a progress bar shows its time."""
REPORT_S = 0.01
"""A worker posts progress (and looks whether it is cancelled) at most this often."""
HEAVY_S = 2.0
"""Estimated seconds of one core from which a computation takes the heavy lane, which leaves
one worker free for the other sessions' redraws."""
CONCURRENT_THREADS = 32
"""Threads of :func:`concurrently` shared by all sessions: each waits on a worker."""
CANCELLABLE_S = 0.5
"""Estimated seconds of one core from which a computation can be cancelled (its flag, in
a manager process, costs ~9 ms a call: most of a small column's time)."""
BACKGROUND_NICENESS = 10
"""How much lower the CPU priority of :func:`in_background` is (Unix nice value)."""
CELL_NICENESS = 15
"""The live Table 2 cells' priority: below the denoising models' fits, in a worker of their own."""


class Cancelled(BaseException):
    """The session that asked for a computation no longer waits for it (a ``BaseException``,
    as Streamlit's rerun and stop are: no ``except Exception`` keeps it as a result)."""


_local = threading.local()
"""``_local.cancel``: in the threads of :func:`concurrently`, their session's flag."""


def n_workers() -> int:
    """Worker processes to use: ``KPCA_WORKERS`` if set (0: none), else :data:`WORKERS`."""
    value = os.environ.get(WORKERS_ENV, "").strip()
    return max(0, int(value)) if value.isdigit() else WORKERS


@functools.cache
def _pool(workers: int, niceness: int = 0) -> ProcessPoolExecutor:
    _end_children_at_exit()
    # "spawn": a fresh interpreter, never a fork of a server that runs threads
    return ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(niceness,),
    )


def start_pool() -> int:
    """Start the worker processes now and wait until each has started; how many there are
    (the warm-up's first step: else the first visitor waits for them)."""
    count = n_workers()
    if count:
        pool = _pool(count, 0)  # compute's pool: the same arguments, the same cache entry
        for future in [pool.submit(os.getpid) for _ in range(count)]:
            future.result()
    return count


def pool_broken() -> bool:
    """Whether the worker pool has lost a process (and so takes no more work)."""
    count = n_workers()
    return bool(count) and bool(getattr(_pool(count, 0), "_broken", False))


def restart_pool() -> int:
    """Drop the worker pools and start new worker processes; how many there are."""
    _pool.cache_clear()
    return start_pool()


@functools.cache
def _end_children_at_exit() -> None:
    """End the workers at exit before ``concurrent.futures`` waits for their computations
    (SIGTERM took 15 s with a sweep running): registered after its wait, so run before it."""
    threading._register_atexit(end_children)


def end_children() -> None:
    """End the worker processes and the progress manager; skip the final collection (2.5–3 s)."""
    gc.freeze()
    for child in multiprocessing.active_children():
        child.terminate()


@functools.cache
def one_blas_thread() -> None:
    """One BLAS thread in this process (idle ones spin on a core another session needs); the
    engine imported first, as threadpoolctl limits the libraries loaded (numpy's, scipy's)."""
    importlib.import_module("kpca_core")
    threadpool_limits(1, user_api="blas")


class LineFull(RuntimeError):
    """A :class:`Turns` that takes no more: its line is full, or the session has a place."""


class Turns:
    """A lane of ``places`` computations at once, taken in turn: first come, first served, one
    place per session (held or waited for), at most ``longest`` sessions waiting.

    A session that asks again once served goes to the end of the line: two sessions cannot
    hold the lane between them while others wait (a live Table 2 cell, a minute each).
    """

    def __init__(self, places: int, longest: int) -> None:
        self.places, self.longest = places, longest
        self._lock = threading.Lock()
        self._line: list[str] = []
        """The sessions waiting, the first first."""
        self._holding: set[str] = set()

    @contextlib.contextmanager
    def turn(self, session: str, waiting: Callable[[int], None]) -> Iterator[None]:
        """Wait for ``session``'s turn, then hold a place for the block.

        While it waits, ``waiting(before)`` is told how many computations come before its own
        (held or waited for) when that changes, and every :data:`TICK_S` (a progress bar
        shows its time).

        Raises
        ------
        LineFull
            When ``session`` holds or waits for a place already, or ``longest`` wait.
        Streamlit's rerun or stop
            The session stops waiting (:func:`check_interrupt`): it leaves the line.
        """
        with self._lock:
            if session in self._holding or session in self._line:
                raise LineFull("this session is recomputing one already")
            if len(self._line) >= self.longest:
                raise LineFull(f"{len(self._line)} sessions are waiting already")
            self._line.append(session)
        told, told_at = None, 0.0
        try:
            while True:
                with self._lock:
                    ahead = self._line.index(session)
                    if ahead == 0 and len(self._holding) < self.places:
                        self._holding.add(self._line.pop(0))
                        break
                    before = ahead + len(self._holding)
                if before != told or time.monotonic() - told_at >= TICK_S:
                    waiting(before)
                    told, told_at = before, time.monotonic()
                time.sleep(POLL_S)
                check_interrupt()
        except BaseException:
            with self._lock:
                self._line.remove(session)
            raise
        try:
            yield
        finally:
            with self._lock:
                self._holding.discard(session)


@functools.cache
def _heavy_lane(workers: int) -> threading.BoundedSemaphore:
    """At most ``workers − 1`` heavy computations at once (at least one)."""
    return threading.BoundedSemaphore(max(1, workers - 1))


def _start_worker(niceness: int) -> None:
    """Prepare a new worker: :func:`_start_child`, one BLAS thread, priority ``niceness`` lower."""
    _start_child()
    one_blas_thread()
    os.nice(niceness)


def _start_child() -> None:
    """In a worker or the progress manager: Ctrl+C left to the server (which then ends its
    children), and an end once the server's process has gone (a thread waits for its sentinel:
    ``PR_SET_PDEATHSIG`` would follow the session's *thread* that started the child)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = multiprocessing.parent_process()

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(1)

    threading.Thread(target=watch, name="kpca-parent-watch", daemon=True).start()


@functools.cache
def _manager() -> SyncManager:
    """A process that carries progress reports from the workers back to the sessions."""
    manager = SyncManager(ctx=multiprocessing.get_context("spawn"))
    manager.start(_start_child)
    return manager


def _with_progress(
    function: Callable[..., Result], reports: Any, cancel: Any, *args: Any, **kwargs: Any
) -> Result:
    """Run in a worker: ``function`` with a progress callback that posts to ``reports`` (at
    most every :data:`REPORT_S`: each is a round trip to the manager process) and raises
    :class:`Cancelled` once ``cancel`` is set, so the engine stops between its steps."""
    if cancel.is_set():
        raise Cancelled
    posted = [float("-inf"), 0.0]  # when and how far the last report went

    def report(fraction: float, message: str) -> None:
        now = time.monotonic()
        if now - posted[0] < REPORT_S and not fraction >= 1.0 > posted[1]:
            return  # too soon, and not the report that it is done
        if cancel.is_set():
            raise Cancelled
        reports.put((fraction, message))
        posted[:] = [now, fraction]

    return function(*args, progress=report, **kwargs)


def compute(
    function: Callable[..., Result],
    /,
    *args: Any,
    progress: Progress | None = None,
    cost: float = 0.0,
    **kwargs: Any,
) -> Result:
    """``function(*args, **kwargs)`` in a worker process, and its result.

    ``function`` and its arguments must pickle (a module-level function or a method of a picklable
    object).  With ``progress``, ``function`` is called with a ``progress=`` callback whose reports
    reach ``progress`` here, in the session's thread.  ``cost`` is the estimated seconds of one core
    (``kpca_core.budget``); from :data:`CANCELLABLE_S` on, ``function`` gets a ``progress=``
    callback even without ``progress`` (so it must take one), through which it is cancelled, and
    from :data:`HEAVY_S` on the call takes the heavy lane.  Exceptions come back as they were
    raised.  A worker that died (e.g. out of memory) is replaced, and the call is made once more in
    the calling thread.

    Raises
    ------
    Cancelled, or Streamlit's rerun/stop exception
        When the session stops waiting; the computation is then cancelled: dropped if it had not
        started, stopped at its next progress report if it had (with ``progress`` or from
        :data:`CANCELLABLE_S` on; a lighter one is left to finish).
    """
    workers = n_workers()
    lane = _heavy_lane(workers) if workers and cost >= HEAVY_S else None
    while lane is not None and not lane.acquire(timeout=POLL_S):
        check_interrupt()
    try:
        return _submit((workers, 0), function, args, kwargs, progress, cost >= CANCELLABLE_S)
    finally:
        if lane is not None:
            lane.release()


def in_background(
    function: Callable[..., Result],
    /,
    *args: Any,
    progress: Progress | None = None,
    niceness: int = BACKGROUND_NICENESS,
    **kwargs: Any,
) -> Result:
    """:func:`compute` in a worker process of its own (one per ``niceness``) at low CPU priority,
    for long computations (a Table 2 cell) that must not hold up the redraws' workers.  With
    ``progress`` it is cancelled as :func:`compute`'s heavy calls are."""
    return _submit((1, niceness), function, args, kwargs, progress, False)


def _submit(
    pool_args: tuple[int, int],
    function: Callable[..., Result],
    args: tuple,
    kwargs: dict,
    progress: Progress | None,
    cancellable: bool,
) -> Result:
    """``function(*args, **kwargs)`` in a worker of ``_pool(*pool_args)``, or here if there are
    none; with ``progress`` or when ``cancellable``, through :func:`_with_progress`."""
    if n_workers() == 0:
        return _inline(function, args, kwargs, progress)
    pool = _pool(*pool_args)
    try:
        if progress is None and not cancellable:
            return _await(pool.submit(function, *args, **kwargs), None, None)
        reports, cancel = _manager().Queue(), _manager().Event()
        future = pool.submit(_with_progress, function, reports, cancel, *args, **kwargs)
        return _await(future, reports, progress or no_progress, cancel)
    except BrokenProcessPool:
        _pool.cache_clear()
        return _inline(function, args, kwargs, progress)


def no_progress(fraction: float, message: str) -> None:
    """A progress callback for a caller that does not show progress."""


def _spec(builder: Callable[..., go.Figure], /, *args: Any, **kwargs: Any) -> dict:
    """Run in a worker: a figure builder's figure as plain JSON-ready data."""
    return builder(*args, **kwargs).to_plotly_json()


def build(
    builder: Callable[..., go.Figure], /, *args: Any, cost: float = 0.0, **kwargs: Any
) -> go.Figure:
    """``builder(*args, **kwargs)``, a figure builder of ``kpca_core.figures``, in a worker
    (building a figure holds the GIL for every session), its data wrapped here unvalidated.
    A builder that computes (``cost`` from :data:`CANCELLABLE_S` on) takes ``progress=``."""
    return go.Figure(compute(_spec, builder, *args, cost=cost, **kwargs), _validate=False)


@functools.cache
def _threads() -> ThreadPoolExecutor:
    """The threads of :func:`concurrently`, shared (new ones per redraw cost ~10 ms of GIL)."""
    return ThreadPoolExecutor(CONCURRENT_THREADS, thread_name_prefix="kpca-concurrently")


def concurrently(*calls: Callable[[], Any]) -> list[Any]:
    """The results of ``calls``, made at the same time in shared threads: for pieces of one
    redraw that each wait on a worker (the Contours grid's columns).  The calls must not
    call Streamlit; the first exception raised is raised here, once all have ended."""
    if len(calls) < 2 or n_workers() == 0:
        return [call() for call in calls]
    cancel = threading.Event()

    def in_session(call: Callable[[], Any]) -> Any:
        with cancelled_by(cancel):
            return call()

    futures = [_threads().submit(in_session, call) for call in calls]
    try:
        while wait(futures, timeout=POLL_S).not_done:
            check_interrupt()
    except BaseException:
        cancel.set()  # the calls' waits raise Cancelled and their computations stop
        for future in futures:
            future.cancel()
        wait(futures)
        raise
    return [future.result() for future in futures]


def _await(future: Future, reports: Any, progress: Progress | None, cancel: Any = None) -> Any:
    """The result of ``future``; meanwhile its progress ``reports`` go to ``progress``.  If the
    session stops waiting, ``future`` is cancelled and ``cancel`` (an event) is set."""
    last, told = None, time.monotonic()
    try:
        while True:
            finished = wait([future], timeout=POLL_S).done
            if progress is not None:
                now, got = time.monotonic(), _relay(reports, progress)
                if got is not None:
                    last, told = got, now
                elif last is not None and now - told >= TICK_S:
                    progress(*last)  # a long step (an eigenproblem): its time goes on
                    told = now
            if finished:
                return future.result()
            check_interrupt()
    except BaseException:
        if not future.done():
            future.cancel()
            if cancel is not None:
                cancel.set()
        raise


@contextlib.contextmanager
def cancelled_by(event: threading.Event) -> Iterator[None]:
    """Within it, a computation this thread waits for is cancelled once ``event`` is set: a
    thread outside any script run (the live route's) stops waiting for a browser gone."""
    _local.cancel = event
    try:
        yield
    finally:
        _local.cancel = None


def check_interrupt() -> None:
    """Raise if the waiting session should stop waiting: Streamlit's rerun or stop in its
    script's thread, :class:`Cancelled` in a thread whose flag is set."""
    interruption_point()
    flag = getattr(_local, "cancel", None)
    if flag is not None and flag.is_set():
        raise Cancelled


def _inline(
    function: Callable[..., Result], args: tuple, kwargs: dict, progress: Progress | None
) -> Result:
    extra = {} if progress is None else {"progress": progress}
    return function(*args, **kwargs, **extra)


def _relay(reports: Any, progress: Progress) -> tuple[float, str] | None:
    """Pass the reports waiting in ``reports`` to ``progress``; the last one, if any."""
    last = None
    with contextlib.suppress(queue.Empty):
        while True:
            last = reports.get_nowait()
            progress(*last)
    return last
