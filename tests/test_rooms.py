"""Class mode's rooms, in both stores: the in-process one and Redis (Debian's real server).

Every test runs against both (the ``store`` fixture); the Redis server is started
once for the module on a free port, without persistence, and emptied between tests.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

import numpy as np
import pytest
from conftest import ROOT

from kpca_ui.rooms import store as rooms
from kpca_ui.rooms.store import (
    CapReached,
    Frozen,
    Invalid,
    Limits,
    MemoryStore,
    NotAllowed,
    RateLimited,
    RoomGone,
    StoreUnavailable,
)

sys.path.insert(0, str(ROOT / "bench"))
from redisserver import RedisServer, redis_binary

LIMITS = Limits(points=4, digits=2, rate=5, window_s=10.0, students=5, rooms=3, idle_s=600.0)
DIGIT = np.linspace(-1, 1, 256).reshape(16, 16)


class Clock:
    """A clock the tests move on."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(scope="module")
def redis_server() -> Iterator[RedisServer]:
    if redis_binary() is None:
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
    with RedisServer() as server:
        yield server


def make(kind: str, request: pytest.FixtureRequest, clock: Clock, **kwargs) -> rooms.RoomStore:
    if kind == "memory":
        return MemoryStore(LIMITS, clock=clock, **kwargs)
    from kpca_ui.rooms.redis_store import RedisStore

    server = request.getfixturevalue("redis_server")
    made = RedisStore(server.url, LIMITS, clock=clock, **kwargs)
    made.redis.flushdb()
    return made


@pytest.fixture(params=["memory", "redis"])
def clock_and_store(request: pytest.FixtureRequest) -> tuple[Clock, rooms.RoomStore]:
    clock = Clock()
    return clock, make(request.param, request, clock)


@pytest.fixture
def store(clock_and_store) -> rooms.RoomStore:
    return clock_and_store[1]


def test_a_student_joins_and_contributes_points_and_digits(store):
    room = store.create()
    assert rooms.CODE_PATTERN.fullmatch(room.code)
    alice, bob = store.join(room.code), store.join(room.code)
    assert (alice.number, bob.number) == (1, 2)
    first = store.add_point(room.code, alice.student, 0.5, -1.0, 2)
    store.add_point(room.code, bob.student, -0.25, 1.5, 3)
    digit = store.add_digit(room.code, bob.student, DIGIT)
    seen = store.snapshot(room.code)
    assert seen.n_students == 2
    assert seen.point_ids.tolist() == [first, first + 1]
    np.testing.assert_allclose(seen.points, [[0.5, -1.0], [-0.25, 1.5]])
    assert seen.groups.tolist() == [2, 3]
    assert seen.point_students.tolist() == [1, 2]
    assert seen.digit_ids.tolist() == [digit]
    np.testing.assert_allclose(seen.digits[0], DIGIT, atol=1 / 127)
    assert seen.counts() == "2 students, 2 points, 1 digit"
    mine = store.mine(room.code, alice.student)
    assert mine.point_ids.tolist() == [first] and len(mine.digits) == 0


def test_every_change_moves_the_revision_on(store):
    room = store.create()
    before = store.revision(room.code)
    student = store.join(room.code).student
    store.add_point(room.code, student, 0, 0, 1)
    assert store.revision(room.code) > before
    assert store.snapshot(room.code).revision == store.revision(room.code)


@pytest.mark.parametrize(
    "point",
    [(float("nan"), 0, 1), (0, float("inf"), 1), (3.0, 0, 1), (0, 0, 4), (0, 0, True), ("x", 0, 1)],
)
def test_a_point_that_is_not_one_is_refused(store, point):
    room = store.create()
    student = store.join(room.code).student
    with pytest.raises(Invalid):
        store.add_point(room.code, student, *point)
    assert len(store.snapshot(room.code).points) == 0


@pytest.mark.parametrize("digit", [np.zeros((8, 8)), np.full((16, 16), 2.0), np.full(256, np.nan)])
def test_a_digit_that_is_not_one_is_refused(store, digit):
    room = store.create()
    student = store.join(room.code).student
    with pytest.raises(Invalid):
        store.add_digit(room.code, student, digit)


def test_caps_per_student(clock_and_store):
    clock, store = clock_and_store
    room = store.create()
    student = store.join(room.code).student
    for i in range(LIMITS.points):
        store.add_point(room.code, student, 0.1 * i, 0, 1)
        clock.now += LIMITS.window_s  # never the rate limit
    with pytest.raises(CapReached, match="4 points"):
        store.add_point(room.code, student, 1, 1, 1)
    for _ in range(LIMITS.digits):
        store.add_digit(room.code, student, DIGIT)
    with pytest.raises(CapReached, match="2 digits"):
        store.add_digit(room.code, student, DIGIT)
    # another student has their own cap
    other = store.join(room.code).student
    store.add_point(room.code, other, 0, 0, 1)
    # an undo frees a place
    store.undo(room.code, student)
    store.undo(room.code, student, int(store.mine(room.code, student).point_ids[0]))
    store.add_point(room.code, student, 1, 1, 1)
    assert len(store.mine(room.code, student).points) == LIMITS.points


def test_rate_limit_per_student_and_window(clock_and_store):
    clock, store = clock_and_store
    big = Limits(points=50, rate=5, window_s=10.0)
    store.limits = big
    clock.now = 10_000_000.0  # the start of a window
    room = store.create()
    student = store.join(room.code).student
    for _ in range(big.rate):
        store.add_point(room.code, student, 0, 0, 1)
    with pytest.raises(RateLimited, match="at most 5"):
        store.add_point(room.code, student, 0, 0, 1)
    other = store.join(room.code).student
    store.add_point(room.code, other, 0, 0, 1)  # not theirs
    clock.now += big.window_s
    store.add_point(room.code, student, 0, 0, 1)
    assert len(store.mine(room.code, student).points) == big.rate + 1


def test_undo_removes_only_ones_own(store):
    room = store.create()
    alice, bob = store.join(room.code).student, store.join(room.code).student
    a1 = store.add_point(room.code, alice, 0, 0, 1)
    b1 = store.add_point(room.code, bob, 1, 1, 2)
    a2 = store.add_digit(room.code, alice, DIGIT)
    assert store.undo(room.code, alice) == a2  # the latest first
    assert store.undo(room.code, alice, b1) is None  # not hers
    assert store.undo(room.code, alice, a1) == a1
    assert store.undo(room.code, alice) is None  # nothing left
    seen = store.snapshot(room.code)
    assert seen.point_ids.tolist() == [b1] and len(seen.digits) == 0


def test_freeze_stops_contributions_and_undos_until_thawed(store):
    room = store.create()
    student = store.join(room.code).student
    store.add_point(room.code, student, 0, 0, 1)
    store.freeze(room.code, room.token)
    assert store.snapshot(room.code).frozen
    with pytest.raises(Frozen):
        store.add_point(room.code, student, 1, 0, 1)
    with pytest.raises(Frozen):
        store.undo(room.code, student)
    store.freeze(room.code, room.token, False)
    store.add_point(room.code, student, 1, 0, 1)
    assert len(store.snapshot(room.code).points) == 2


def test_clear_removes_everything_but_the_students(store):
    room = store.create()
    student = store.join(room.code).student
    store.add_point(room.code, student, 0, 0, 1)
    store.add_digit(room.code, student, DIGIT)
    store.clear(room.code, room.token)
    seen = store.snapshot(room.code)
    assert (len(seen.points), len(seen.digits), seen.n_students) == (0, 0, 1)
    store.add_point(room.code, student, 0, 0, 1)  # caps counted afresh
    assert len(store.mine(room.code, student).points) == 1


def test_the_lecturer_removes_one_contribution_or_one_students(store):
    room = store.create()
    alice, bob = store.join(room.code), store.join(room.code)
    a1 = store.add_point(room.code, alice.student, 0, 0, 1)
    store.add_digit(room.code, alice.student, DIGIT)
    b1 = store.add_point(room.code, bob.student, 1, 1, 2)
    b2 = store.add_point(room.code, bob.student, 1, 0, 2)
    store.remove(room.code, room.token, b1)
    assert store.snapshot(room.code).point_ids.tolist() == [a1, b2]
    store.remove_student(room.code, room.token, alice.number)
    seen = store.snapshot(room.code)
    assert seen.point_ids.tolist() == [b2] and len(seen.digits) == 0
    # a removed contribution frees the place in the student's cap
    assert len(store.mine(room.code, bob.student).points) == 1


def test_the_lecturer_picks_the_kernel_and_width(store):
    room = store.create()
    store.set_kernel(room.code, room.token, "laplacian", 1.5)
    seen = store.snapshot(room.code)
    assert (seen.kernel, seen.width) == ("laplacian", 1.5)
    for kernel, width in [("sigmoid", 1.0), ("rbf", 0.0), ("rbf", float("nan")), ("poly", 9)]:
        with pytest.raises(Invalid):
            store.set_kernel(room.code, room.token, kernel, width)


def test_an_idle_room_closes_and_its_data_are_deleted(clock_and_store):
    clock, store = clock_and_store
    room = store.create()
    student = store.join(room.code).student
    store.add_point(room.code, student, 0, 0, 1)
    clock.now += LIMITS.idle_s - 1
    store.snapshot(room.code)  # looking does not keep it open
    store.add_point(room.code, student, 1, 1, 1)  # a change does
    clock.now += LIMITS.idle_s + 1
    with pytest.raises(RoomGone):
        store.snapshot(room.code)
    with pytest.raises(RoomGone):
        store.add_point(room.code, student, 0, 0, 1)
    with pytest.raises(RoomGone):
        store.join(room.code)
    assert store.redis.keys(f"*{room.code}*") == []  # the in-process store's too


def test_redis_forgets_an_idle_room_by_itself(request):
    """Nobody asks for the room again: Redis's own expiry deletes its keys."""
    from kpca_ui.rooms.redis_store import RedisStore

    server = request.getfixturevalue("redis_server")
    store = RedisStore(server.url, Limits(idle_s=600.0))
    store.redis.flushdb()
    room = store.create()
    store.add_point(room.code, store.join(room.code).student, 0, 0, 1)
    ttls = [store.redis.pttl(key) for key in RedisStore.keys(room.code)[:3]]
    assert all(0 < ttl <= 600_000 for ttl in ttls), ttls


def test_a_closed_room_is_gone(store):
    room = store.create()
    student = store.join(room.code).student
    store.add_point(room.code, student, 0, 0, 1)
    store.close(room.code, room.token)
    with pytest.raises(RoomGone):
        store.snapshot(room.code)


@pytest.mark.parametrize(
    "act",
    [
        lambda s, code, token: s.freeze(code, token),
        lambda s, code, token: s.clear(code, token),
        lambda s, code, token: s.remove(code, token, 1),
        lambda s, code, token: s.remove_student(code, token, 1),
        lambda s, code, token: s.set_kernel(code, token, "rbf", 1.0),
        lambda s, code, token: s.close(code, token),
        lambda s, code, token: s.check_lecturer(code, token),
        lambda s, code, token: s.lock(code, token),
        lambda s, code, token: s.moderate(code, token),
        lambda s, code, token: s.accept(code, token, 1),
        lambda s, code, token: s.remove_recent(code, token),
    ],
    ids=[
        "freeze",
        "clear",
        "remove",
        "remove_student",
        "kernel",
        "close",
        "check",
        "lock",
        "moderate",
        "accept",
        "remove_recent",
    ],
)
def test_a_student_cannot_act_as_the_lecturer(store, act):
    room = store.create()
    student = store.join(room.code)
    store.add_point(room.code, student.student, 0, 0, 1)
    other = store.create()
    forged = [
        student.student,  # their own id as the token
        "",  # no token
        None,
        room.token[:-1] + ("A" if room.token[-1] != "A" else "B"),  # a guessed token
        other.token,  # another room's token
        room.code,
        "x" * 10_000,
    ]
    for token in forged:
        with pytest.raises(NotAllowed, match="Only the lecturer"):
            act(store, room.code, token)
    seen = store.snapshot(room.code)
    assert len(seen.points) == 1 and not seen.frozen and seen.kernel == "rbf"
    assert not seen.locked and not seen.moderated and seen.n_students == 1


def test_the_lecturers_token_is_checked_without_changing_the_room(store):
    """A reloaded lecturer's page asks whether its link's token is the room's."""
    room = store.create()
    store.freeze(room.code, room.token)
    before = store.revision(room.code)
    store.check_lecturer(room.code, room.token)
    assert store.revision(room.code) == before
    store.close(room.code, room.token)
    with pytest.raises(RoomGone):
        store.check_lecturer(room.code, room.token)


def test_a_reused_room_code_is_a_new_room(store):
    """A room closed and opened again with the same code takes no old token or student."""
    codes = iter(["ABCDEF", "ABCDEF", "GHJKMN", "ABCDEF"])
    store.codes = lambda: next(codes)
    first = store.create()
    student = store.join(first.code).student
    store.add_point(first.code, student, 0, 0, 1)
    second = store.create()  # the code is taken: another one is drawn
    assert second.code == "GHJKMN"
    store.close(first.code, first.token)
    reused = store.create()
    assert reused.code == first.code and reused.token != first.token
    with pytest.raises(NotAllowed):
        store.clear(reused.code, first.token)
    with pytest.raises(NotAllowed):  # an old lecturer's link does not restore control
        store.check_lecturer(reused.code, first.token)
    with pytest.raises(NotAllowed):
        store.add_point(reused.code, student, 0, 0, 1)
    with pytest.raises(NotAllowed):
        store.undo(reused.code, student)
    assert len(store.snapshot(reused.code).points) == 0


def test_a_stranger_cannot_contribute_or_undo(store):
    room = store.create()
    store.join(room.code)
    for student in ["", "guess", room.token, None]:
        with pytest.raises(NotAllowed):
            store.add_point(room.code, student, 0, 0, 1)
        with pytest.raises(NotAllowed):
            store.mine(room.code, student)


def test_bounded_rooms_and_students(store):
    codes = [store.create(f"client {i}").code for i in range(LIMITS.rooms)]
    with pytest.raises(rooms.Full, match="as many open rooms"):
        store.create("another")
    for _ in range(LIMITS.students):
        store.join(codes[0])
    with pytest.raises(rooms.Full):
        store.join(codes[0])


def test_rooms_are_bounded_per_client_and_in_total_and_say_when_to_try_again(clock_and_store):
    """50 scripted "Start a room" clicks locked every lecturer out (issue #50, item 3); the
    Redis store had no cap at all."""
    clock, store = clock_and_store
    store.limits = Limits(rooms=5, rooms_per_client=2, idle_s=3600.0)
    first = store.create("script")
    clock.now += 600
    store.create("script")
    with pytest.raises(rooms.Full, match="You have 2 open rooms already") as refused:
        store.create("script")
    assert "within 50 min" in str(refused.value)  # the first idles out 3600 - 600 s later
    store.close(first.code, first.token)
    store.create("script")  # a closed room frees its place
    for lecturer in ("a", "b", "c"):
        store.create(lecturer)
    with pytest.raises(rooms.Full, match="as many open rooms as it can \\(5\\)") as refused:
        store.create("d")
    assert "within 60 min" in str(refused.value)  # all five opened at 600 s
    clock.now += 3600 + 1  # they idle out
    store.create("d")


def test_a_script_cannot_fill_a_room_in_seconds_but_a_class_of_100_joins_within_a_minute(
    clock_and_store,
):
    """300 joins in 8 s from one client filled a room (issue #50, item 1)."""
    clock, store = clock_and_store
    store.limits = Limits()
    flooded = store.create("lecturer").code
    start, joined = clock.now, 0
    while clock.now < start + 8:
        try:
            store.join(flooded)
            joined += 1
        except RateLimited as refused:
            assert "you join in" in str(refused)
        clock.now += 0.02  # 50 a second, 400 tries
    assert joined < 70  # the burst and 8 s of refill, not 300
    # a real class: 100 students, each trying again 2 s after a refusal
    clock.now += 600
    room, start = store.create("lecturer").code, clock.now
    waiting, seated = list(range(100)), 0
    while waiting and clock.now < start + 60:
        for _ in range(len(waiting)):
            try:
                store.join(room)
                waiting.pop()
                seated += 1
            except RateLimited:
                break
        clock.now += 2
    assert seated == 100 and clock.now - start <= 60


def test_the_lecturer_locks_the_room(store):
    room = store.create()
    inside = store.join(room.code).student
    store.lock(room.code, room.token)
    assert store.snapshot(room.code).locked
    with pytest.raises(rooms.Locked, match="locked"):
        store.join(room.code)
    store.add_point(room.code, inside, 0, 0, 1)  # the students in the room carry on
    store.lock(room.code, room.token, False)
    store.join(room.code)
    assert store.snapshot(room.code).n_students == 2


def test_a_removed_student_leaves_the_room_with_all_their_points(store):
    room = store.create()
    alice, bob = store.join(room.code), store.join(room.code)
    for i in range(3):
        store.add_point(room.code, alice.student, 0.1 * i, 0, 1)
    store.add_point(room.code, bob.student, 1, 1, 2)
    store.remove_student(room.code, room.token, alice.number)
    seen = store.snapshot(room.code)
    assert seen.n_students == 1 and seen.point_students.tolist() == [bob.number]
    with pytest.raises(rooms.Removed, match="removed you"):
        store.add_point(room.code, alice.student, 0, 0, 1)
    with pytest.raises(rooms.Removed):
        store.mine(room.code, alice.student)
    store.remove_student(room.code, room.token, alice.number)  # twice: nothing more
    store.remove_student(room.code, room.token, 99)  # nobody
    assert store.snapshot(room.code).n_students == 1


def test_the_lecturer_removes_everyone_who_joined_in_the_last_minute(clock_and_store):
    clock, store = clock_and_store
    room = store.create()
    real = [store.join(room.code) for _ in range(2)]
    store.add_point(room.code, real[0].student, 0, 0, 1)
    clock.now += 300
    fakes = [store.join(room.code) for _ in range(3)]
    for fake in fakes:
        store.add_point(room.code, fake.student, 1, 1, 3)
    clock.now += 30
    assert store.remove_recent(room.code, room.token) == 3
    seen = store.snapshot(room.code)
    assert seen.n_students == 2 and seen.point_students.tolist() == [real[0].number]
    with pytest.raises(rooms.Removed):
        store.add_point(room.code, fakes[0].student, 0, 0, 1)
    store.add_point(room.code, real[1].student, 0.5, 0.5, 2)  # the class carries on
    store.join(room.code)  # and the places are free again


def test_a_rooms_points_are_capped(store):
    store.limits = Limits(points=3, room_points=7, rate=100, students=10)
    room = store.create()
    students = [store.join(room.code).student for _ in range(3)]
    for student in students:
        for i in range(3 if student != students[-1] else 1):
            store.add_point(room.code, student, 0.1 * i, 0, 1)
    with pytest.raises(rooms.Full, match="as many points as it can \\(7\\)"):
        store.add_point(room.code, students[-1], 1, 1, 1)
    store.add_digit(room.code, students[-1], DIGIT)  # digits are not points
    store.undo(room.code, students[0], int(store.mine(room.code, students[0]).point_ids[0]))
    store.add_point(room.code, students[-1], 1, 1, 1)  # a place freed
    store.clear(room.code, room.token)
    store.add_point(room.code, students[-1], 1, 1, 1)
    assert len(store.snapshot(room.code).points) == 1


def test_a_moderated_rooms_digits_wait_for_the_lecturer(store):
    room = store.create()
    student = store.join(room.code).student
    shown = store.add_digit(room.code, student, DIGIT)
    store.moderate(room.code, room.token)
    waiting = store.add_digit(room.code, student, -DIGIT)
    seen = store.snapshot(room.code)
    assert seen.moderated and seen.digit_pending.tolist() == [False, True]
    assert seen.digit_ids[seen.shown_digits()].tolist() == [shown]
    np.testing.assert_allclose(seen.digits[1], -DIGIT, atol=1 / 127)
    store.accept(room.code, room.token, waiting)
    assert store.snapshot(room.code).shown_digits().all()
    store.moderate(room.code, room.token, False)
    assert not store.snapshot(room.code).moderated


def test_typed_room_codes():
    assert rooms.normal_code(" abc-def ") == "ABCDEF"
    for text in ["ABCDE0", "ABC", "ABCDEFG", None, "<b>ABCDEF</b>", "A" * 1000]:
        assert rooms.normal_code(text) is None


def test_a_lost_redis_connection_says_so():
    from kpca_ui.rooms.redis_store import RedisStore

    if redis_binary() is None:
        pytest.skip("redis-server is not installed")
    with RedisServer() as server:
        store = RedisStore(server.url, LIMITS, timeout_s=0.5)
        room = store.create()
        student = store.join(room.code).student
        store.add_point(room.code, student, 0, 0, 1)
        server.stop()
        for act in (
            lambda: store.snapshot(room.code),
            lambda: store.add_point(room.code, student, 0, 0, 1),
            lambda: store.clear(room.code, room.token),
            lambda: store.join(room.code),
        ):
            with pytest.raises(StoreUnavailable, match="cannot be reached"):
                act()


def test_two_clients_cannot_pass_a_cap_together(request):
    """Two replicas (two clients of one Redis) adding for one student at once: the cap holds."""
    from concurrent.futures import ThreadPoolExecutor

    from kpca_ui.rooms.redis_store import RedisStore

    server = request.getfixturevalue("redis_server")
    limits = Limits(points=20, rate=1000)
    replicas = [RedisStore(server.url, limits) for _ in range(2)]
    replicas[0].redis.flushdb()
    room = replicas[0].create()
    student = replicas[0].join(room.code).student

    def add(i: int) -> bool:
        try:
            replicas[i % 2].add_point(room.code, student, 0, 0, 1)
        except CapReached:
            return False
        return True

    with ThreadPoolExecutor(8) as pool:
        accepted = sum(pool.map(add, range(60)))
    assert accepted == 20
    assert len(replicas[1].snapshot(room.code).points) == 20


def test_open_store_follows_the_environment(monkeypatch, request):
    monkeypatch.delenv(rooms.REDIS_ENV, raising=False)
    assert isinstance(rooms.open_store(), MemoryStore)
    server = request.getfixturevalue("redis_server")
    monkeypatch.setenv(rooms.REDIS_ENV, server.url)
    from kpca_ui.rooms.redis_store import RedisStore

    assert isinstance(rooms.open_store(), RedisStore)


def test_a_restarted_redis_keeps_its_rooms_as_compose_runs_it(tmp_path):
    """``compose.yaml`` ran Redis without persistence: a restart lost every room (issue #50,
    item 8).  Now an append-only file on a volume; the same flags on Debian's server keep
    a room, its students and their points across a restart."""
    import yaml

    from kpca_ui.rooms.redis_store import RedisStore

    if redis_binary() is None:
        pytest.skip("redis-server is not installed")
    redis_service = yaml.safe_load((ROOT / "compose.yaml").read_text())["services"]["redis"]
    command = redis_service["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert any(volume.endswith(":/data") for volume in redis_service["volumes"])
    server = RedisServer(tmp_path)
    with server:
        store = RedisStore(server.url, LIMITS)
        room = store.create()
        student = store.join(room.code).student
        store.add_point(room.code, student, 0.5, 0.5, 2)
        server.stop()
        server.start()
        seen = store.snapshot(room.code)
        assert (seen.n_students, len(seen.points)) == (1, 1)
        store.add_point(room.code, student, 0, 0, 1)  # the student and the lecturer carry on
        store.freeze(room.code, room.token)
