"""Numerics in worker processes: the same results, progress relayed, failures as raised."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from threadpoolctl import threadpool_info

from kpca_core import KernelPCA
from kpca_core import contours as ct
from kpca_core.datasets import parabola, three_rings
from kpca_core.figures import spectrum as spectrum_figures
from kpca_core.spectrum import WidthSweep
from kpca_ui import workers


@pytest.fixture
def in_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KPCA_WORKERS", "1")


def test_the_number_of_workers_comes_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("KPCA_WORKERS", "0")
    assert workers.n_workers() == 0
    monkeypatch.setenv("KPCA_WORKERS", "3")
    assert workers.n_workers() == 3
    monkeypatch.delenv("KPCA_WORKERS")
    assert workers.n_workers() == workers.WORKERS
    monkeypatch.setenv("KPCA_WORKERS", "many")
    assert workers.n_workers() == workers.WORKERS


def test_a_worker_computes_what_the_session_would(in_workers: None) -> None:
    X, _ = three_rings(90, 0.25, 0)
    model = KernelPCA(3, kernel="rbf", gamma=0.5)
    remote = workers.compute(model.fit_transform, X)
    np.testing.assert_allclose(remote, KernelPCA(3, kernel="rbf", gamma=0.5).fit_transform(X))
    assert workers.compute(os.getpid) != os.getpid()  # it really ran elsewhere


def test_progress_reaches_the_session(in_workers: None) -> None:
    X, _ = three_rings(60, 0.25, 0)
    reports: list[tuple[float, str]] = []
    sweep = workers.compute(
        WidthSweep("rbf", n_widths=8).fit, X, progress=lambda f, m: reports.append((f, m))
    )
    assert sweep.eigenvalues_.shape == (8, 60)
    fractions = [fraction for fraction, _ in reports]
    assert fractions[0] == 0.0 and fractions[-1] == 1.0 and fractions == sorted(fractions)


def test_an_exception_comes_back_as_raised(in_workers: None) -> None:
    with pytest.raises(ValueError, match="at least 3 points"):
        workers.compute(WidthSweep("rbf").fit, np.zeros((2, 2)))


def die_in_a_worker(session_pid: int) -> str:
    """Kill the process it runs in, unless that is the session's own."""
    if os.getpid() != session_pid:
        os._exit(1)
    return "computed in the session"


def test_a_dead_worker_is_replaced_and_the_call_made_here(in_workers: None) -> None:
    assert workers.compute(die_in_a_worker, os.getpid()) == "computed in the session"
    assert workers.compute(os.getpid) != os.getpid()  # a new worker


def test_a_figure_built_in_a_worker_is_the_builders_figure(in_workers: None) -> None:
    X, _ = three_rings(60, 0.25, 0)
    sweep = WidthSweep("rbf", n_widths=8).fit(X)
    remote = workers.build(spectrum_figures.ratio_lines_figure, sweep, n_leading=3, chosen=2)
    local = spectrum_figures.ratio_lines_figure(sweep, n_leading=3, chosen=2)
    assert remote.to_dict() == local.to_dict()


def test_every_blas_library_runs_one_thread_in_the_workers(in_workers: None) -> None:
    # numpy and scipy each load an OpenBLAS of their own: both are limited
    for info in (workers.compute(threadpool_info), workers.in_background(threadpool_info)):
        blas = [library for library in info if library["user_api"] == "blas"]
        assert len(blas) >= 2 and all(library["num_threads"] == 1 for library in blas), blas


def test_calls_made_concurrently_run_at_the_same_time_and_keep_their_order(
    in_workers: None,
) -> None:
    # each call waits for the other: made one after the other, both would time out
    barrier = threading.Barrier(2, timeout=10)

    def meet(value: str) -> str:
        barrier.wait()
        return value

    assert workers.concurrently(lambda: meet("a"), lambda: meet("b")) == ["a", "b"]


def test_an_exception_of_a_concurrent_call_is_raised_after_all_have_ended(
    in_workers: None,
) -> None:
    finished = threading.Event()

    def slow() -> None:
        finished.wait(0.2)
        finished.set()

    with pytest.raises(ZeroDivisionError):
        workers.concurrently(lambda: 1 / 0, slow)
    assert finished.is_set()


def test_without_workers_calls_are_made_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KPCA_WORKERS", "0")
    threads: list[str] = []
    calls = [lambda: threads.append(threading.current_thread().name)] * 2
    workers.concurrently(*calls)
    assert threads == [threading.current_thread().name] * 2


def test_background_work_runs_in_a_process_of_its_own_at_lower_priority(in_workers: None) -> None:
    assert workers.in_background(os.getpid) not in {os.getpid(), workers.compute(os.getpid)}
    assert workers.in_background(os.nice, 0) == min(19, os.nice(0) + workers.BACKGROUND_NICENESS)


def _write_count(path: str, count: int) -> None:
    """Written whole, then renamed over the last count: a reader never sees it empty."""
    Path(f"{path}.new").write_text(str(count))
    os.replace(f"{path}.new", path)


def counted_steps(path: str, n: int, *, progress: workers.Progress) -> int:
    """Run in a worker: ``n`` steps of 20 ms, each written to ``path``, then a report."""
    for step in range(1, n + 1):
        time.sleep(0.02)
        _write_count(path, step)
        progress(step / n, f"step {step}")
    return n


def _steps(path) -> int:
    return int(path.read_text()) if path.exists() else 0


def test_a_background_computation_reports_progress_and_raises_as_it_did(
    in_workers: None, tmp_path
) -> None:
    # the denoising model's fit: its progress reaches the session's bar
    reports: list[tuple[float, str]] = []
    steps = str(tmp_path / "steps")
    result = workers.in_background(
        counted_steps, steps, 3, progress=lambda f, m: reports.append((f, m))
    )
    # (a report repeated each second while none comes: the test below)
    assert result == 3 and list(dict.fromkeys(reports)) == [(k / 3, f"step {k}") for k in (1, 2, 3)]
    with pytest.raises(ValueError, match="bad"):
        workers.in_background(int, "bad")


def one_long_step(seconds: float, *, progress: workers.Progress) -> str:
    """Run in a worker: one report, then a step of ``seconds`` without any (an eigenproblem)."""
    progress(0.5, "the long step")
    time.sleep(seconds)
    return "done"


def test_a_long_step_without_reports_still_reaches_the_bar_each_second(in_workers: None) -> None:
    """The session's bar is told again while the worker is silent, so it can show the time
    going on (the denoising fit's eigenproblem: 4-20 s on one report)."""
    reports: list[tuple[float, str]] = []
    result = workers.in_background(one_long_step, 3.0, progress=lambda f, m: reports.append((f, m)))
    assert result == "done"
    assert len(reports) >= 2 and set(reports) == {(0.5, "the long step")}


def _in_thread(target, *args, **kwargs) -> tuple[threading.Thread, dict, threading.Event]:
    """``target`` in a thread that waits as a thread of ``concurrently`` does, with its flag."""
    outcome: dict = {}
    cancel = threading.Event()

    def run() -> None:
        workers._local.cancel = cancel
        try:
            outcome["result"] = target(*args, **kwargs)
        except BaseException as error:  # what the waiting thread saw
            outcome["error"] = error

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome, cancel


def _wait_for(condition, limit_s: float = 60) -> None:
    deadline = time.monotonic() + limit_s
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        time.sleep(0.02)


def _cancel_after_three_steps(thread, outcome: dict, cancel, steps) -> int:
    """Cancel the call of ``_in_thread`` once it made 3 steps; the steps it stopped at.

    The wait raises Cancelled, the worker is free again, and no step follows.
    """
    _wait_for(lambda: _steps(steps) >= 3)
    cancel.set()
    thread.join(30)
    assert isinstance(outcome.get("error"), workers.Cancelled)
    _wait_for(lambda: workers.compute(os.getpid) > 0)  # the worker is free again
    stopped_at = _steps(steps)
    time.sleep(0.3)
    assert _steps(steps) == stopped_at
    return stopped_at


def test_a_cancelled_computation_stops_in_the_worker(in_workers: None, tmp_path) -> None:
    """The session stops waiting: its wait raises Cancelled and the worker stops at a step."""
    steps = tmp_path / "steps"
    thread, outcome, cancel = _in_thread(
        workers.compute, counted_steps, str(steps), 1000, progress=lambda f, m: None
    )
    assert _cancel_after_three_steps(thread, outcome, cancel, steps) < 1000


def test_heavy_computations_leave_a_worker_free(monkeypatch, tmp_path) -> None:
    """With two workers, a second heavy call waits; a light one runs meanwhile."""
    monkeypatch.setenv("KPCA_WORKERS", "2")
    first, second = tmp_path / "first", tmp_path / "second"
    heavy = {"progress": lambda f, m: None, "cost": workers.HEAVY_S}
    one, outcome_one, cancel_one = _in_thread(
        workers.compute, counted_steps, str(first), 1000, **heavy
    )
    _wait_for(lambda: _steps(first) >= 1)
    two, outcome_two, _ = _in_thread(workers.compute, counted_steps, str(second), 3, **heavy)
    assert workers.compute(os.getpid) != os.getpid()  # a light call is served meanwhile
    time.sleep(0.5)  # time enough for the second call to make steps, were it running
    assert _steps(second) == 0  # it waits for the lane
    cancel_one.set()
    one.join(30)
    two.join(60)
    assert isinstance(outcome_one.get("error"), workers.Cancelled)
    assert outcome_two == {"result": 3}


class SteppedModel:
    """A fitted column's model whose ``transform`` takes 20 ms and counts its calls in ``path``."""

    def __init__(self, path: str) -> None:
        self.path, self.calls = path, 0

    def transform(self, X: np.ndarray) -> np.ndarray:
        time.sleep(0.02)
        self.calls += 1
        _write_count(self.path, self.calls)
        return np.zeros((len(X), 1))


def test_column_fits_and_grids_run_in_a_worker_as_here(in_workers: None) -> None:
    """Heavy enough to be cancellable, they take the worker's progress callback."""
    X = parabola(120, 0.2, 0)[0]
    spec = ct.KernelSpec("sigmoid", gamma=0.5, coef0=-1.0)
    fit = workers.compute(ct.fit_column, X, spec, n_components=3, cost=workers.HEAVY_S)
    here = ct.fit_column(X, spec, n_components=3)
    np.testing.assert_allclose(fit.projections, here.projections)
    grid = ct.make_grid(X, 40)
    column = workers.compute(ct.evaluate_column, fit, grid, cost=workers.CANCELLABLE_S)
    np.testing.assert_allclose(column.values, ct.evaluate_column(here, grid).values, atol=1e-6)


def test_a_grid_evaluation_estimated_to_take_a_while_is_cancelled_in_the_worker(
    in_workers: None, tmp_path
) -> None:
    """No progress shown, but its cost makes it cancellable: it stops between grid blocks."""
    steps = tmp_path / "steps"
    M = ct.evaluate.GRID_BLOCK_VALUES // 256  # the smallest blocks: 256 grid points
    fit = ct.ColumnFit(
        ct.KernelSpec("rbf", sigma=1.0),
        True,
        1,
        SteppedModel(str(steps)),
        np.ones((M, 1)),
        np.ones(1),
        np.ones(1),
    )
    grid = ct.make_grid(np.array([[0.0, 0.0], [1.0, 1.0]]), 200)  # 157 blocks
    thread, outcome, cancel = _in_thread(
        workers.compute, ct.evaluate_column, fit, grid, cost=workers.CANCELLABLE_S
    )
    assert _cancel_after_three_steps(thread, outcome, cancel, steps) < 157


class _Counted:
    """A manager's queue and event as a worker sees them: every call a round trip."""

    def __init__(self) -> None:
        self.calls = 0
        self.posted: list[tuple[float, str]] = []

    def put(self, item: tuple[float, str]) -> None:
        self.calls += 1
        self.posted.append(item)

    def is_set(self) -> bool:
        self.calls += 1
        return False


def _sixty_widths(progress) -> str:
    for done in range(1, 61):
        progress(done / 60, f"width {done} of 60")
    return "done"


def test_a_worker_reports_progress_at_most_every_report_interval() -> None:
    """60 quick steps made 121 round trips to the manager (a post and a look at the
    cancel flag each); now the first report and the one that says it is done."""
    reports, cancel = _Counted(), _Counted()
    assert workers._with_progress(_sixty_widths, reports, cancel) == "done"
    assert reports.posted == [(1 / 60, "width 1 of 60"), (1.0, "width 60 of 60")]
    assert reports.calls + cancel.calls == 5


def test_turns_are_taken_in_the_order_asked_one_place_per_session() -> None:
    """A shared lane (the live Table 2 cells) served first come, first served: a session that
    asks again goes to the end of the line, so two sessions cannot hold it (#50, item 9)."""
    turns = workers.Turns(places=1, longest=2)
    served: list[str] = []
    told: dict[str, list[int]] = {}
    release = {who: threading.Event() for who in "abcd"}

    def ask(who: str) -> None:
        with turns.turn(who, lambda before: told.setdefault(who, []).append(before)):
            served.append(who)
            release[who].wait(5)

    first = threading.Thread(target=ask, args=("a",))
    first.start()
    time.sleep(0.1)  # a holds the place
    with pytest.raises(workers.LineFull, match="already"), turns.turn("a", print):
        pass  # one place per session
    waiting = []
    for who in "bc":
        waiting.append(threading.Thread(target=ask, args=(who,)))
        waiting[-1].start()
        time.sleep(0.1)
    with pytest.raises(workers.LineFull, match="waiting"), turns.turn("d", print):
        pass  # b and c wait: the line is full
    release["a"].set()
    first.join()
    time.sleep(0.2)  # b's turn
    again = threading.Thread(target=ask, args=("a",))  # a asks again: behind c
    again.start()
    for who in "bca":
        release[who].set()
    for thread in (*waiting, again):
        thread.join()
    assert served == ["a", "b", "c", "a"]
    assert told["b"][0] == 1 and told["c"][0] == 2  # the cells before theirs, as they waited
    assert told["c"][-1] == 1
