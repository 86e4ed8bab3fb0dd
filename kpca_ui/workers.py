"""The numerics of every session in a few worker processes, not in the server's threads.

Streamlit runs each session's script in a thread of one server process, so all
sessions share one GIL.  Under a lecture's load most of those threads are busy
in pure Python (building figures, Streamlit's own bookkeeping).  numpy
releases the GIL around every operation on a large array and must then queue
to get it back, up to a switch interval each time, behind every busy thread:
a computation made of many numpy calls crawls (the "convoy" effect).
Measured beside three threads building figures: the fits and grids of the
Fig. 2 preset 30 ms alone, 6.3 s beside them; a 60-width spectrum sweep 85 ms
alone, 4.7 s beside them.  In a worker process the numerics have an
interpreter of their own.

At most :data:`WORKERS` computations run at once, one per core; the rest wait
in the queue, so one session's largest fit cannot take every core from the
others.  ``KPCA_WORKERS=0`` runs everything in the calling thread instead (the
page tests do, to watch the engine's calls).

Heavy requests (an estimated cost of :data:`HEAVY_S` seconds or more,
``kpca_core.budget``) take the heavy lane: at most ``WORKERS − 1`` of them
run at once, so one worker always stays free for the other sessions' redraws.

A computation is cancelled when its session stops waiting for it: while a
session waits, it checks for Streamlit's rerun or stop requests (a new
setting, the session closed, the server stopping), and then sets the
computation's cancel flag, which the engine's progress callbacks check in the
worker between steps (:class:`Cancelled`).  A computation gets that flag when
it reports progress or is estimated at :data:`CANCELLABLE_S` or more; a
lighter one is left to finish.  When the server's process exits,
its worker processes are ended first, so SIGTERM is not held up by a
computation still running.  However the server's process ends (SIGKILL, the
out-of-memory killer included), its workers and the progress manager end within
:data:`PARENT_POLL_S`: each watches its parent (:func:`_die_with`).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib
import multiprocessing
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
"""How often a waiting session passes on the progress a worker reported and checks
whether it should stop waiting."""
TICK_S = 1.0
"""While a worker reports nothing, its last report is passed on again this often, so that a
progress bar can show the time its step has taken (:func:`_await`)."""
REPORT_S = 0.01
"""A worker posts progress (and looks whether it is cancelled) at most this often
(:func:`_with_progress`), well below the :data:`POLL_S` at which the waiting session
looks: a step of 20 ms or more still looks after each step."""
HEAVY_S = 2.0
"""Estimated seconds of one core from which a computation takes the heavy lane."""
CONCURRENT_THREADS = 32
"""Threads of :func:`concurrently` shared by all sessions: each waits on a worker."""
CANCELLABLE_S = 0.5
"""Estimated seconds of one core from which a computation can be cancelled.

Its cancel flag and progress channel live in a manager process: measured,
a call that can be cancelled took 14 ms instead of 5 ms and each progress
report ~1 ms more, a few per cent of a computation of this size, and most
of a Fig. 2 column's (~10 ms), which is left to finish instead."""
PARENT_POLL_S = 1.0
"""How often a worker checks that the server's process that started it still runs."""
BACKGROUND_NICENESS = 10
"""How much lower the CPU priority of :func:`in_background` is (Unix nice value)."""
CELL_NICENESS = 15
"""The priority of the live Table 2 cells, below the denoising models' fits: their own
worker process (:func:`in_background`'s ``niceness``), so that cells asked for by many
tabs never queue ahead of a model fit (issue #35: a fit waited 72 s instead of 8)."""


class Cancelled(BaseException):
    """The session that asked for a computation no longer waits for it.

    A ``BaseException``, like Streamlit's own rerun and stop exceptions, so that
    the ``except Exception`` of a cached function never turns it into a
    cached result.
    """


_local = threading.local()
"""``_local.cancel``: in the threads of :func:`concurrently`, their session's flag."""


def n_workers() -> int:
    """Worker processes to use: ``KPCA_WORKERS`` if set (0: none), else :data:`WORKERS`."""
    value = os.environ.get(WORKERS_ENV, "").strip()
    return max(0, int(value)) if value.isdigit() else WORKERS


@functools.cache
def _pool(workers: int, niceness: int = 0) -> ProcessPoolExecutor:
    # "spawn": a fresh interpreter, never a fork of a server that runs threads
    pool = ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(niceness, os.getpid()),
    )
    _end_children_at_exit()
    return pool


def start_pool() -> int:
    """Start the worker processes now and wait until each has started; how many there are.

    Otherwise they start with the first computation a session asks for, which then
    waits for them (the warm-up, :mod:`kpca_ui.warmup`, calls this at server start).
    """
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
    """End the worker processes when the server exits, before anything waits for them.

    ``concurrent.futures`` waits at exit for the computations still running
    (SIGTERM took 15 s with a sweep running; issue #14).  Its wait is
    registered with ``threading._register_atexit``, whose functions run in
    reverse order, so this one, registered later, runs first.
    """
    threading._register_atexit(end_children)  # as concurrent.futures does


def end_children() -> None:
    """End the worker processes (and the progress manager); skip the final collection.

    With a lecture's caches in memory the interpreter's last garbage
    collection at exit took 2.5–3 s of the 3.3–3.9 s from SIGTERM to exit
    (``tests/test_stall.py``); frozen objects are left to the operating system.
    """
    gc.freeze()
    for child in multiprocessing.active_children():
        child.terminate()


@functools.cache
def one_blas_thread() -> None:
    """One BLAS thread in this process, set once, the engine imported first.

    Many sessions share two cores: one BLAS thread in the server's process and
    in each worker, so that idle BLAS threads never spin on a core another
    session needs.  threadpoolctl limits the libraries loaded when it is
    called: numpy and scipy each bring their own OpenBLAS, and a worker that
    set the limit before importing them ran every BLAS call on two threads.
    """
    importlib.import_module("kpca_core")
    threadpool_limits(1, user_api="blas")


@functools.cache
def _heavy_lane(workers: int) -> threading.BoundedSemaphore:
    """At most ``workers − 1`` heavy computations at once (at least one)."""
    return threading.BoundedSemaphore(max(1, workers - 1))


def _start_worker(niceness: int, parent: int) -> None:
    """Prepare a new worker: the engine imported before the first task, one BLAS thread.

    A second BLAS thread would only compete with the other worker (and spin).
    A positive ``niceness`` lowers the worker's CPU priority for good.  The
    worker ends when the server's process ``parent`` has gone (:func:`_die_with`).
    """
    _start_child(parent)
    one_blas_thread()
    if niceness:
        os.nice(niceness)


def _start_child(parent: int) -> None:
    """In a worker or the progress manager: Ctrl+C left to the server, and an end with it."""
    _leave_interrupts_to_the_server()
    _die_with(parent)


def _leave_interrupts_to_the_server() -> None:
    """In a child process: ignore Ctrl+C, which the terminal sends to every process of the server.

    The server stops on it and then ends its children (:func:`end_children`); a
    child that took it itself printed a traceback of where it was waiting.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _die_with(parent: int) -> None:
    """In a child process: end it once its parent, the server's process ``parent``, has gone.

    A thread polls the parent's id every :data:`PARENT_POLL_S` s: a child whose
    parent died is given another, so ``os.getppid()`` changes.  SIGTERM and a
    normal exit end the workers already (:func:`end_children`); a SIGKILL of
    the server (or the out-of-memory killer) left them running, ~1 GB, for
    good.  Linux's ``PR_SET_PDEATHSIG`` would not do: its "parent" is the
    *thread* that started the child, here a session's script thread, which
    ends after every run of the page.
    """

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        os._exit(1)

    threading.Thread(target=watch, name="kpca-parent-watch", daemon=True).start()


@functools.cache
def _manager() -> SyncManager:
    """A process that carries progress reports from the workers back to the sessions."""
    manager = SyncManager(ctx=multiprocessing.get_context("spawn"))
    manager.start(_start_child, (os.getpid(),))
    return manager


def _with_progress(
    function: Callable[..., Result], reports: Any, cancel: Any, *args: Any, **kwargs: Any
) -> Result:
    """Run in a worker: ``function`` with a progress callback that posts to ``reports``.

    The callback raises :class:`Cancelled` once ``cancel`` is set: the engine's
    loops report progress between their steps, so they stop there.  Each post
    and each look at ``cancel`` is a round trip to the manager process, which
    on a busy machine waits for it to be scheduled: the callback makes them at
    most every :data:`REPORT_S`, besides the first report and the first that
    says the work is done (a sweep of 60 widths reported 60 times, twice each).
    """
    if cancel.is_set():
        raise Cancelled
    posted: list[float] = []  # when and how far the last report went, once there is one

    def report(fraction: float, message: str) -> None:
        now = time.monotonic()
        if posted:
            last_time, last_fraction = posted
            done_now = fraction >= 1.0 > last_fraction
            if now - last_time < REPORT_S and not done_now:
                return
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

    ``function`` and its arguments must pickle (a module-level function or a
    method of a picklable object).  With ``progress``, ``function`` is called
    with a ``progress=`` callback whose reports reach ``progress`` here, in the
    session's thread.  ``cost`` is the estimated seconds of one core
    (``kpca_core.budget``); from :data:`CANCELLABLE_S` on, ``function`` gets
    a ``progress=`` callback even without ``progress`` (so it must take one),
    through which it is cancelled, and from :data:`HEAVY_S` on the call takes
    the heavy lane.  Exceptions come back as they were raised.  A worker that
    died (e.g. out of memory) is replaced, and the call is made once more in
    the calling thread.

    Raises
    ------
    Cancelled, or Streamlit's rerun/stop exception
        When the session stops waiting; the computation is then cancelled:
        dropped if it had not started, stopped at its next progress report
        if it had (with ``progress`` or from :data:`CANCELLABLE_S` on; a
        lighter one is left to finish).
    """
    workers = n_workers()
    if workers == 0:
        return _inline(function, args, kwargs, progress)
    lane = _heavy_lane(workers) if cost >= HEAVY_S else None
    if lane is not None:
        while not lane.acquire(timeout=POLL_S):
            check_interrupt()
    try:
        cancellable = cost >= CANCELLABLE_S
        return _submit((workers, 0), function, args, kwargs, progress, cancellable=cancellable)
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
    """:func:`compute`, in a worker process of its own at low CPU priority.

    For long computations (a cell of Table 2: ~30 s and ~1 GB at its peak, a
    few kB to keep; a denoising model of 3000 digits: ~150 MB to keep): they
    neither wait for nor hold up the
    :data:`WORKERS` workers of the redraws, and the redraws get the cores first
    (nice +:data:`BACKGROUND_NICENESS`).  One runs at a time; others queue.  With
    ``progress`` it is cancelled as :func:`compute`'s heavy calls are.
    ``KPCA_WORKERS=0`` runs it in the calling thread, as :func:`compute` does.
    Each ``niceness`` has its own process and queue (:data:`CELL_NICENESS`).
    """
    if n_workers() == 0:
        return _inline(function, args, kwargs, progress)
    return _submit((1, niceness), function, args, kwargs, progress, cancellable=False)


def _submit(
    pool_args: tuple[int, int],
    function: Callable[..., Result],
    args: tuple,
    kwargs: dict,
    progress: Progress | None,
    *,
    cancellable: bool,
) -> Result:
    """``function(*args, **kwargs)`` in a worker of ``_pool(*pool_args)``, progress relayed.

    With progress, or when ``cancellable``, the worker gets a progress callback
    that stops the computation once the session no longer waits.
    """
    pool = _pool(*pool_args)
    try:
        if progress is None and not cancellable:
            return _await(pool.submit(function, *args, **kwargs), None, None)
        manager = _manager()
        reports, cancel = manager.Queue(), manager.Event()
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
    """``builder(*args, **kwargs)``, a figure builder of ``kpca_core.figures``, in a worker.

    Building a figure is pure Python, which holds the server's GIL for every
    session while it runs (~25 ms for the contour grid); the worker sends back
    its data, which is wrapped here without plotly validating it again.  A
    builder that computes (``cost`` as :func:`compute` takes it, from
    :data:`CANCELLABLE_S` on) must take a ``progress=`` callback.
    """
    return go.Figure(compute(_spec, builder, *args, cost=cost, **kwargs), _validate=False)


@functools.cache
def _threads() -> ThreadPoolExecutor:
    """The threads of :func:`concurrently`, shared by every session (starting
    threads anew for each redraw cost ~10 ms of the server's GIL)."""
    return ThreadPoolExecutor(CONCURRENT_THREADS, thread_name_prefix="kpca-concurrently")


def concurrently(*calls: Callable[[], Any]) -> list[Any]:
    """The results of ``calls``, made at the same time in threads of this session.

    For independent pieces of one redraw that each wait on a worker (e.g. the
    four columns of the Contours grid): with two workers they take the time
    of the slowest pair instead of the sum.  The calls must not call Streamlit
    (they run outside the session's script).  The first exception raised by a
    call is raised here, after all calls have ended.
    """
    if len(calls) < 2 or n_workers() == 0:
        return [call() for call in calls]
    cancel = threading.Event()

    def in_session(call: Callable[[], Any]) -> Any:
        _local.cancel = cancel
        try:
            return call()
        finally:
            _local.cancel = None

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
    """The result of ``future``; meanwhile its progress ``reports`` go to ``progress``.

    If the session stops waiting (:func:`check_interrupt` raises), the
    future is cancelled and ``cancel`` (a thread or a manager's event) is set.
    """
    last, told = None, time.monotonic()
    try:
        while True:
            finished = wait([future], timeout=POLL_S).done
            if progress is not None:
                now = time.monotonic()
                got = _relay(reports, progress)
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
    """Within it, a computation this thread waits for is cancelled once ``event`` is set
    (:func:`check_interrupt` raises :class:`Cancelled`): a thread outside any script run
    (the live route's) stops waiting for a browser that has gone."""
    _local.cancel = event
    try:
        yield
    finally:
        _local.cancel = None


def check_interrupt() -> None:
    """Raise if the waiting session should stop waiting.

    In the session's script thread, Streamlit's own check raises its rerun or
    stop exception when a rerun (a new setting) or a stop (the session closed,
    the server stopping) is pending; in a thread of :func:`concurrently`, the
    session's flag raises :class:`Cancelled`.
    """
    interruption_point()
    flag = getattr(_local, "cancel", None)
    if flag is not None and flag.is_set():
        raise Cancelled


def _inline(
    function: Callable[..., Result], args: tuple, kwargs: dict, progress: Progress | None
) -> Result:
    if progress is None:
        return function(*args, **kwargs)
    return function(*args, progress=progress, **kwargs)


def _relay(reports: Any, progress: Progress) -> tuple[float, str] | None:
    """Pass the reports waiting in ``reports`` to ``progress``; the last one, if any."""
    last = None
    while True:
        try:
            last = reports.get_nowait()
        except queue.Empty:
            return last
        progress(*last)
