"""A class's room: the model, its rules, and the in-process store.

A lecturer creates a room (:meth:`RoomStore.create`): its short code is for the students, its
secret token checks the lecturer's actions.  A student joins with the code and gets a secret
id, naming their own contributions, and a number, by which the lecturer can remove them all.
Contributions are data, never text: points of the plane and 16 × 16 digits from the pad.
:class:`MemoryStore` and :class:`kpca_ui.rooms.redis_store.RedisStore` keep the same rules.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import math
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

REDIS_ENV = "KPCA_REDIS_URL"  # where the rooms live when set: redis://host:6379/0
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L, misread on a projector
CODE_LENGTH = 6
CODE_PATTERN = re.compile(f"[{CODE_ALPHABET}]{{{CODE_LENGTH}}}")
HALF_WIDTH = 2.0  # the room's plane is [−h, h]², the drawing canvas's default square
N_GROUPS = 3
DIGIT_SIDE = 16
# The kernels a lecturer may pick, with the range of their width σ or polynomial degree.
KERNELS = {"rbf": (0.05, 20.0), "laplacian": (0.05, 20.0), "poly": (1.0, 6.0)}
DEFAULT_KERNEL = ("rbf", 0.5)
POINT, DIGIT = "p", "d"
PENDING = "?"  # the start of a digit's data until the lecturer of a moderated room accepts it
STUDENT_CHARS = 64  # the longest student id (join makes them 22 characters long)


class RoomError(Exception):
    """Anything a room refuses; ``str(error)``, a sentence for the page (default: ``message``)."""

    message = ""

    def __init__(self, message: str = "") -> None:
        super().__init__(message or self.message)


class RoomGone(RoomError):
    """No such room: a wrong code, or a room closed (by its lecturer or after inactivity)."""

    message = "There is no open room with this code: it may be mistyped, or the room was closed."


class NotAllowed(RoomError):
    """Only the room's lecturer may do this (a wrong or missing token), or an unknown student."""


class Frozen(RoomError):
    """The lecturer froze the room."""

    message = "The lecturer has frozen the room: nothing can be added or undone now."


class CapReached(RoomError):
    """The student has as many points (or digits) as a student may have."""


class RateLimited(RoomError):
    """The student added too many contributions too fast, or too many joined the room at once."""


class Locked(RoomError):
    """The lecturer locked the room: nobody new may join."""

    message = "The lecturer has locked this room: nobody new can join it now."


class Removed(RoomError):
    """The lecturer removed this student from the room."""

    message = "The lecturer removed you from this room."


class Full(RoomError):
    """Too many rooms in this server, or too many students in the room."""


class Invalid(RoomError):
    """A contribution or setting that is not what a room takes."""


class StoreUnavailable(RoomError):
    """The store (Redis) cannot be reached."""

    message = (
        "The class's rooms cannot be reached right now (their store is not answering). "
        "The picture shown is the last one received; try again in a moment."
    )


@dataclass(frozen=True)
class Limits:
    """What a room allows; the defaults are the lecture's."""

    points: int = 20  # per student at a time
    digits: int = 3  # per student at a time
    rate: int = 10  # contributions a student may add per window
    window_s: float = 10.0
    students: int = 300  # per room (a student who reloads the page keeps their place)
    room_points: int = 2000  # per room, all students together
    # joins: a bucket of ``join_burst`` that refills at ``join_rate`` per second, per room
    # (100 students in 50 / 1.5 + 50 ≈ 34 s; a script needs 2.5 min for the room's 300)
    join_burst: int = 50
    join_rate: float = 1.5
    rooms: int = 50  # open rooms per store
    rooms_per_client: int = 3  # open rooms started from one client (address)
    idle_s: float = 2 * 3600.0  # a room nobody changed for this long is deleted
    recent_s: float = 60.0  # "remove everyone who joined in the last minute"


@dataclass(frozen=True)
class Created:
    """A new room: its code (shown to everyone) and its token (the lecturer's session only)."""

    code: str
    token: str = field(repr=False)


@dataclass(frozen=True)
class Joined:
    """A student in a room: their secret id and their public number."""

    student: str = field(repr=False)
    number: int


@dataclass(frozen=True)
class Snapshot:
    """What a room holds now: ``revision`` grows with every change; ``points`` (n, 2) with
    ``groups``, ``point_ids`` and ``point_students`` (n,); ``digits`` (m, 16, 16), grey
    values −1 … 1, with ``digit_ids``, ``digit_students`` and ``digit_pending`` (m,): not yet
    accepted by the lecturer (shown only if the room is not ``moderated``)."""

    code: str
    revision: int
    frozen: bool
    kernel: str
    width: float
    locked: bool
    moderated: bool
    n_students: int
    point_ids: np.ndarray
    points: np.ndarray
    groups: np.ndarray
    point_students: np.ndarray
    digit_ids: np.ndarray
    digits: np.ndarray
    digit_students: np.ndarray
    digit_pending: np.ndarray

    def shown_digits(self) -> np.ndarray:
        """Which digits the projector shows: all, or in a moderated room the accepted ones."""
        return ~self.digit_pending if self.moderated else np.ones(len(self.digits), bool)

    def counts(self) -> str:
        """ "41 students, 612 points, 80 digits"."""
        counted = {"student": self.n_students, "point": len(self.points), "digit": len(self.digits)}
        return ", ".join(f"{n} {word}{'' if n == 1 else 's'}" for word, n in counted.items())


# --- validation and encoding, shared by both stores ---


def normal_code(text: object) -> str | None:
    """A room code as typed (any case, spaces), or None if it cannot be one."""
    if not isinstance(text, str) or len(text) > 3 * CODE_LENGTH:
        return None
    code = re.sub(r"[\s-]", "", text).upper()
    return code if CODE_PATTERN.fullmatch(code) else None


def new_code() -> str:
    """A random room code."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def token_hash(token: object) -> str:
    """The SHA-256 of a lecturer's token as the room keeps it (of anything else: of "")."""
    text = token if isinstance(token, str) and len(token) <= 200 else ""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def same_token(token: object, kept: str | None) -> bool:
    """Whether ``token`` is the room's (``kept``, its hash), in constant time."""
    return kept is not None and secrets.compare_digest(token_hash(token), kept)


def point_item(x: object, y: object, group: object) -> str:
    """A point as the stores keep it, ``"x,y,group"``; :class:`Invalid` if it is not one."""
    try:
        values = [float(x), float(y)]  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise Invalid("A point needs two numbers.") from None
    if isinstance(x, bool) or isinstance(y, bool) or not all(map(math.isfinite, values)):
        raise Invalid("A point needs two finite numbers.")
    if max(abs(v) for v in values) > HALF_WIDTH:
        raise Invalid(f"A point must lie in the square [−{HALF_WIDTH:g}, {HALF_WIDTH:g}]².")
    if isinstance(group, bool) or group not in range(1, N_GROUPS + 1):
        raise Invalid(f"A point's group is 1 to {N_GROUPS}.")
    return f"{values[0]:.4f},{values[1]:.4f},{int(group)}"  # type: ignore[call-overload]


def digit_item(digit: object) -> str:
    """A 16 × 16 digit as the stores keep it: 256 grey levels in base64 (read by snapshot_of)."""
    try:
        array = np.asarray(digit, dtype=float)
    except (TypeError, ValueError):
        raise Invalid("A digit is 16 × 16 grey values.") from None
    if array.shape not in ((DIGIT_SIDE, DIGIT_SIDE), (DIGIT_SIDE * DIGIT_SIDE,)):
        raise Invalid("A digit is 16 × 16 grey values.")
    if not np.all(np.isfinite(array)) or np.abs(array).max(initial=0) > 1:
        raise Invalid("A digit's grey values lie between −1 and 1.")
    levels = np.round((array.ravel() + 1) * 127.5).astype(np.uint8)
    return base64.b64encode(levels.tobytes()).decode("ascii")


def check_kernel(kernel: object, width: object) -> tuple[str, float]:
    """A kernel and parameter a room takes (:data:`KERNELS`), or :class:`Invalid`."""
    if kernel not in KERNELS:
        raise Invalid("The room's kernel is Gaussian, Laplacian or polynomial.")
    low, high = KERNELS[kernel]  # type: ignore[index]
    try:
        value = float(width)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise Invalid("The kernel's parameter is a number.") from None
    if not low <= value <= high:
        raise Invalid(f"The kernel's parameter lies between {low:g} and {high:g}.")
    return str(kernel), round(value) if kernel == "poly" else value


def snapshot_of(
    code: str, meta: Sequence, n_students: int, items: list[tuple[int, int, str, str]]
) -> Snapshot:
    """A :class:`Snapshot` of meta (rev, frozen, kernel, width, locked, moderated), items (id,
    student, kind, data); a digit's data begins with :data:`PENDING` until it is accepted."""
    items = sorted(items)
    numbers = np.array([item[:2] for item in items], dtype=int).reshape(-1, 2)
    point = np.array([kind == POINT for _, _, kind, _ in items], dtype=bool)
    xyg = np.array([d.split(",") for _, _, k, d in items if k == POINT], dtype=float).reshape(-1, 3)
    written = [d for _, _, k, d in items if k == DIGIT]
    digits = [np.frombuffer(base64.b64decode(d.lstrip(PENDING)), np.uint8) for d in written]
    rev, frozen, kernel, width, locked, moderated = meta
    return Snapshot(
        code=code,
        revision=int(rev),
        frozen=bool(int(frozen)),
        kernel=str(kernel),
        width=float(width),
        locked=bool(int(locked)),
        moderated=bool(int(moderated)),
        n_students=n_students,
        point_ids=numbers[point, 0],
        points=xyg[:, :2],
        groups=xyg[:, 2].astype(int),
        point_students=numbers[point, 1],
        digit_ids=numbers[~point, 0],
        digits=np.array(digits, dtype=float).reshape(-1, DIGIT_SIDE, DIGIT_SIDE) / 127.5 - 1,
        digit_students=numbers[~point, 1],
        digit_pending=np.array([d.startswith(PENDING) for d in written], dtype=bool),
    )


CAP_WORDS = {
    POINT: "You have placed {cap} points, as many as each student may: undo one to move it.",
    DIGIT: "You have sent {cap} digits, as many as each student may: undo one to send another.",
}
RATE_WORDS = "Slow down a little: at most {rate} contributions every {window:g} s."
ROOM_POINTS_WORDS = (
    "The room holds as many points as it can ({cap}): the lecturer may clear it or remove some."
)
JOINS_WORDS = "Many are joining this room at once: you join in {wait} s (this page tries again)."
ROOMS_WORDS = (
    "This server keeps as many open rooms as it can ({cap}); the first to close frees a place "
    "within {wait}. Try again then."
)
CLIENT_ROOMS_WORDS = (
    "You have {cap} open rooms already, as many as one device may start: close one (its "
    'lecturer\'s "Close the room"), or one frees a place within {wait} if nobody uses it.'
)


def wait_words(seconds: float) -> str:
    """A wait as a person says it: "40 s", "12 min", "2 h"."""
    seconds = max(1, math.ceil(seconds))
    if seconds < 120:
        return f"{seconds} s"
    return f"{math.ceil(seconds / 60)} min" if seconds < 2 * 3600 else f"{seconds / 3600:.0f} h"


NOT_LECTURER = "Only the lecturer who started this room can do that."
NOT_STUDENT = "This session is not in the room: open the room's link again to join."


# --- the interface ---


class RoomStore:
    """Rooms with their rules, stored by a subclass; ``clock`` gives seconds (tests move it on),
    ``codes`` new room codes (one in use is drawn again)."""

    def __init__(
        self,
        limits: Limits | None = None,
        *,
        clock: Callable[[], float] = time.time,
        codes: Callable[[], str] = new_code,
    ) -> None:
        self.limits = limits or Limits()
        self.clock = clock
        self.codes = codes

    # Lecturer
    def create(self, client: str = "") -> Created:
        """A new room with a fresh code and token, started from ``client`` (an address);
        :class:`Full`, saying when to try again, if the store or the client has as many
        rooms as it may."""
        token = secrets.token_urlsafe(24)
        for _ in range(8):
            code = self.codes()
            if CODE_PATTERN.fullmatch(code) and self._create(code, token_hash(token), client):
                return Created(code, token)
        raise Full("No new room could be opened now; try again in a moment.")

    def freeze(self, code: str, token: str, frozen: bool = True) -> None:
        """Stop (or allow again) every student's contributions and undos."""
        self._lecturer(code, token, "freeze", "1" if frozen else "0")

    def lock(self, code: str, token: str, locked: bool = True) -> None:
        """Let nobody new join (or let them again); the students in the room stay."""
        self._lecturer(code, token, "lock", "1" if locked else "0")

    def moderate(self, code: str, token: str, moderated: bool = True) -> None:
        """Show the students' digits only once the lecturer accepts them (or all again)."""
        self._lecturer(code, token, "moderate", "1" if moderated else "0")

    def accept(self, code: str, token: str, item: int) -> None:
        """Accept the digit numbered ``item``: a moderated room's projector shows it."""
        self._lecturer(code, token, "accept", str(_whole(item)))

    def clear(self, code: str, token: str) -> None:
        """Remove every contribution (the students stay in the room)."""
        self._lecturer(code, token, "clear")

    def remove(self, code: str, token: str, item: int) -> None:
        """Remove one contribution by its number."""
        self._lecturer(code, token, "remove", str(_whole(item)))

    def remove_student(self, code: str, token: str, number: int) -> None:
        """Remove the student with this number from the room, with all their contributions
        (their page says so; they cannot join again with the same identity)."""
        self._lecturer(code, token, "remove_student", str(_whole(number)))

    def remove_recent(self, code: str, token: str) -> int:
        """Remove every student who joined in the last :attr:`Limits.recent_s` seconds, with
        their contributions (a flood of scripted joins); how many."""
        since = self.clock() - self.limits.recent_s
        return int(self._lecturer(code, token, "remove_recent", repr(since)))

    def set_kernel(self, code: str, token: str, kernel: str, width: float) -> None:
        """The kernel and its parameter the room's projector shows (:data:`KERNELS`)."""
        kernel, width = check_kernel(kernel, width)
        self._lecturer(code, token, "kernel", kernel, repr(float(width)))

    def close(self, code: str, token: str) -> None:
        """Close the room and delete its data."""
        self._lecturer(code, token, "close")

    def check_lecturer(self, code: str, token: str) -> None:
        """:class:`NotAllowed` unless ``token`` is the room's; the room is left as it is."""
        self._lecturer(code, token, "check")

    # Students
    def join(self, code: str) -> Joined:
        """A new anonymous student in the room."""
        student = secrets.token_urlsafe(16)
        return Joined(student, self._join(code, student))

    def add_point(self, code: str, student: str, x: float, y: float, group: int) -> int:
        """Add a point of the plane in a group; its contribution number.  At most
        :attr:`Limits.points` per student and :attr:`Limits.room_points` in the room."""
        item = point_item(x, y, group)
        return self._add(code, _student(student), POINT, item, self.limits.points)

    def add_digit(self, code: str, student: str, digit: np.ndarray) -> int:
        """Add a 16 × 16 digit (in a moderated room, pending until accepted); its number."""
        item = digit_item(digit)
        return self._add(code, _student(student), DIGIT, item, self.limits.digits)

    def undo(self, code: str, student: str, item: int | None = None) -> int | None:
        """Remove the student's own contribution ``item`` (default: their latest); which one."""
        return self._withdraw(code, _student(student), None if item is None else _whole(item))

    def mine(self, code: str, student: str) -> Snapshot:
        """The room as the student's own: only their contributions (and the room's settings)."""
        return self._mine(code, _student(student))

    # Everyone (a subclass reads these)
    def snapshot(self, code: str) -> Snapshot:
        """Everything in the room now (:class:`RoomGone` if it is not open)."""

    def revision(self, code: str) -> int:
        """The room's revision (cheap: asked before the snapshot)."""

    # What a subclass stores (every one implements these)
    def _create(self, code: str, hashed: str, client: str) -> bool: ...
    def _lecturer(self, code: str, token: str, action: str, *args: str) -> object: ...
    def _join(self, code: str, student: str) -> int: ...
    def _add(self, code: str, student: str, kind: str, data: str, cap: int) -> int: ...
    def _withdraw(self, code: str, student: str, item: int | None) -> int | None: ...
    def _mine(self, code: str, student: str) -> Snapshot: ...

    def _cap_error(self, kind: str) -> CapReached:
        cap = self.limits.points if kind == POINT else self.limits.digits
        return CapReached(CAP_WORDS[kind].format(cap=cap))

    def _rate_error(self) -> RateLimited:
        return RateLimited(RATE_WORDS.format(rate=self.limits.rate, window=self.limits.window_s))

    def _room_points_error(self) -> Full:
        return Full(ROOM_POINTS_WORDS.format(cap=self.limits.room_points))

    def _joins_error(self, tokens: float) -> RateLimited:
        """Refused by the join bucket holding ``tokens`` (< 1): when one is there again."""
        wait = math.ceil((1 - tokens) / self.limits.join_rate)
        return RateLimited(JOINS_WORDS.format(wait=wait))

    def _rooms_error(self, mine: bool, wait_s: float) -> Full:
        cap = self.limits.rooms_per_client if mine else self.limits.rooms
        words = CLIENT_ROOMS_WORDS if mine else ROOMS_WORDS
        return Full(words.format(cap=cap, wait=wait_words(wait_s)))

    def _window(self, now: float) -> int:
        return int(now // self.limits.window_s)


def _student(student: object) -> str:
    """A student's id as a session may hold it (anything else is no student)."""
    if not isinstance(student, str) or not 0 < len(student) <= STUDENT_CHARS:
        raise NotAllowed(NOT_STUDENT)
    return student


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise Invalid("A contribution or student is named by a whole number.")
    return int(value)


# --- in the server's process ---


@dataclass
class _Room:
    hashed: str
    active: float
    client: str = ""
    kernel: str = DEFAULT_KERNEL[0]
    width: float = DEFAULT_KERNEL[1]
    frozen: bool = False
    locked: bool = False
    moderated: bool = False
    rev: int = 0
    next_id: int = 0
    join_tokens: float = 0.0
    join_at: float = 0.0
    # secret id -> number (removed students stay here, named in ``removed``)
    students: dict[str, int] = field(default_factory=dict)
    joined_at: dict[int, float] = field(default_factory=dict)  # number -> when
    removed: set[int] = field(default_factory=set)
    # contribution number -> (student number, kind, data)
    items: dict[int, tuple[int, str, str]] = field(default_factory=dict)
    rate: dict[int, tuple[int, int]] = field(default_factory=dict)  # student -> (window, added)

    def changed(self, now: float) -> None:
        self.rev += 1
        self.active = now

    def snapshot(self, code: str, only: int | None = None) -> Snapshot:
        items = [(i, *item) for i, item in self.items.items() if only in (None, item[0])]
        meta = (self.rev, self.frozen, self.kernel, self.width, self.locked, self.moderated)
        return snapshot_of(code, meta, len(self.students) - len(self.removed), items)

    def remove_students(self, numbers: set[int]) -> None:
        self.removed |= numbers & set(self.joined_at)
        self.items = {i: item for i, item in self.items.items() if item[0] not in numbers}


class MemoryStore(RoomStore):
    """Rooms in this process: at most :attr:`Limits.rooms`, one lock around them all; an idle
    room is deleted when next asked for, and all of them when a room is created."""

    def __init__(self, limits: Limits | None = None, **kwargs) -> None:
        super().__init__(limits, **kwargs)
        self._rooms: dict[str, _Room] = {}
        self._lock = threading.Lock()

    def _room(self, code: str, now: float) -> _Room:
        room = self._rooms.get(code)
        if room is None or now - room.active > self.limits.idle_s:
            self._rooms.pop(code, None)
            raise RoomGone
        return room

    def _member(self, code: str, student: str, now: float, change: bool) -> tuple[_Room, int]:
        """The room and the student's number (for a ``change`` of theirs: not while frozen)."""
        room = self._room(code, now)
        if student not in room.students:
            raise NotAllowed(NOT_STUDENT)
        if room.students[student] in room.removed:
            raise Removed
        if change and room.frozen:
            raise Frozen
        return room, room.students[student]

    def _create(self, code: str, hashed: str, client: str) -> bool:
        now = self.clock()
        with self._lock:
            for old in [c for c, r in self._rooms.items() if now - r.active > self.limits.idle_s]:
                del self._rooms[old]
            if code in self._rooms:
                return False
            for mine, cap in ((True, self.limits.rooms_per_client), (False, self.limits.rooms)):
                rooms = [r for r in self._rooms.values() if not mine or r.client == client]
                if len(rooms) >= cap:
                    soonest = min(r.active for r in rooms) + self.limits.idle_s - now
                    raise self._rooms_error(mine, soonest)
            self._rooms[code] = _Room(hashed, now, client, join_tokens=self.limits.join_burst)
            return True

    def _lecturer(self, code: str, token: str, action: str, *args: str) -> object:
        now = self.clock()
        with self._lock:
            room = self._room(code, now)
            if not same_token(token, room.hashed):
                raise NotAllowed(NOT_LECTURER)
            answer: object = None
            if action == "close":
                del self._rooms[code]
            elif action in ("freeze", "lock", "moderate"):
                setattr(
                    room,
                    {"freeze": "frozen", "lock": "locked"}.get(action, "moderated"),
                    args[0] == "1",
                )
            elif action == "accept" and (item := room.items.get(int(args[0]))):
                room.items[int(args[0])] = (item[0], item[1], item[2].lstrip(PENDING))
            elif action == "clear":
                room.items.clear()
            elif action == "remove":
                room.items.pop(int(args[0]), None)
            elif action == "remove_student":
                room.remove_students({int(args[0])})
            elif action == "remove_recent":
                since = float(args[0])
                recent = {n for n, t in room.joined_at.items() if t >= since} - room.removed
                room.remove_students(recent)
                answer = len(recent)
            elif action == "kernel":
                room.kernel, room.width = args[0], float(args[1])
            if action not in ("check", "close"):
                room.changed(now)
            return answer

    def _join(self, code: str, student: str) -> int:
        now = self.clock()
        with self._lock:
            room = self._room(code, now)
            if room.locked:
                raise Locked
            if len(room.students) - len(room.removed) >= self.limits.students:
                raise Full("This room is full.")
            tokens = min(
                self.limits.join_burst,
                room.join_tokens + (now - room.join_at) * self.limits.join_rate,
            )
            if tokens < 1:
                raise self._joins_error(tokens)
            room.join_tokens, room.join_at = tokens - 1, now
            number = room.students[student] = len(room.students) + 1
            room.joined_at[number] = now
            room.changed(now)
            return number

    def _add(self, code: str, student: str, kind: str, data: str, cap: int) -> int:
        now = self.clock()
        with self._lock:
            room, number = self._member(code, student, now, change=True)
            if sum(item[:2] == (number, kind) for item in room.items.values()) >= cap:
                raise self._cap_error(kind)
            if kind == POINT and sum(item[1] == POINT for item in room.items.values()) >= (
                self.limits.room_points
            ):
                raise self._room_points_error()
            window, used = room.rate.get(number, (None, 0))
            used = used if window == self._window(now) else 0
            if used >= self.limits.rate:
                raise self._rate_error()
            room.rate[number] = (self._window(now), used + 1)
            room.next_id += 1
            pending = PENDING if kind == DIGIT and room.moderated else ""
            room.items[room.next_id] = (number, kind, pending + data)
            room.changed(now)
            return room.next_id

    def _withdraw(self, code: str, student: str, item: int | None) -> int | None:
        now = self.clock()
        with self._lock:
            room, number = self._member(code, student, now, change=True)
            own = [i for i, (s, _, _) in room.items.items() if s == number]
            item = max(own, default=None) if item is None else item
            if item not in own:
                return None
            del room.items[item]
            room.changed(now)
            return item

    def _mine(self, code: str, student: str) -> Snapshot:
        with self._lock:
            room, number = self._member(code, student, self.clock(), change=False)
            return room.snapshot(code, number)

    def snapshot(self, code: str) -> Snapshot:
        with self._lock:
            return self._room(code, self.clock()).snapshot(code)

    def revision(self, code: str) -> int:
        with self._lock:
            return self._room(code, self.clock()).rev


def open_store(limits: Limits | None = None) -> RoomStore:
    """The store this server keeps rooms in: Redis at ``KPCA_REDIS_URL`` if set, else in-process."""
    if url := os.environ.get(REDIS_ENV):
        from kpca_ui.rooms.redis_store import RedisStore

        return RedisStore(url, limits)
    return MemoryStore(limits)


@functools.cache
def shared_store() -> RoomStore:
    """This server's one store (:func:`open_store`), shared by every session."""
    return open_store()
