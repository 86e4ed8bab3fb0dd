"""A class's room: the model, its rules, and the store that keeps them.

A lecturer creates a room (:meth:`RoomStore.create`): its short code is for the students, its
secret token checks the lecturer's actions.  A student joins with the code and gets a secret
id, naming their own contributions, and a number, by which the lecturer can remove them all.
Contributions are data, never text: points of the plane and 16 × 16 digits from the pad.

The rules are written once, as Lua scripts (:data:`SCRIPTS`) that a Redis server runs
atomically, so that two replicas behind a balancer cannot pass a cap or a rate limit together:
:class:`kpca_ui.rooms.redis_store.RedisStore` runs them in a real server, :class:`MemoryStore`
in :mod:`fakeredis`'s server in this process (the same scripts, in lupa's Lua), so both keep
the same rules by construction.

Each room is six keys, ``kpca:room:<code>`` (a hash of its settings: token's hash, the
client that started it, last activity, frozen, locked, moderated, kernel, width, revision,
counters, the join bucket) and its ``:students`` (secret id -> number), ``:items``
(contribution number -> ``"<student>|<kind>|<data>"``), ``:counts`` (``"<student>:<kind>"`` ->
how many), ``:rate`` (student -> ``"<window>:<added>"``) and ``:joined`` (number -> when,
``x`` once removed); ``kpca:rooms`` is the set of open rooms, counted when one is created
(that script reads the rooms it names: one Redis, not a cluster).  Each change sets the keys
to expire after :attr:`Limits.idle_s`, and a script that finds the room idle by the store's
clock deletes it.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import math
import os
import re
import secrets
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import fakeredis
import numpy as np
import redis

REDIS_ENV = "KPCA_REDIS_URL"  # where the rooms live when set: redis://host:6379/0
PREFIX = "kpca:room:"
REGISTRY = "kpca:rooms"  # the set of open rooms' keys, counted against Limits.rooms
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
    """Anything a room refuses; ``str(error)``, a sentence for the page (:data:`REFUSALS`)."""


class RoomGone(RoomError):
    """No such room: a wrong code, or a room closed (by its lecturer or after inactivity)."""


class NotAllowed(RoomError):
    """Only the room's lecturer may do this (a wrong or missing token), or an unknown student."""


class Frozen(RoomError):
    """The lecturer froze the room."""


class CapReached(RoomError):
    """The student has as many points (or digits) as a student may have."""


class RateLimited(RoomError):
    """The student added too many contributions too fast, or too many joined the room at once."""


class Locked(RoomError):
    """The lecturer locked the room: nobody new may join."""


class Removed(RoomError):
    """The lecturer removed this student from the room."""


class Full(RoomError):
    """Too many rooms in this server, or too many students in the room."""


class Invalid(RoomError):
    """A contribution or setting that is not what a room takes."""


class StoreUnavailable(RoomError):
    """The store (Redis) cannot be reached."""


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


# --- validation and encoding ---


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
    """The SHA-256 of a lecturer's token as the room keeps it (of anything else: of ""); the
    script compares hashes, so the time a comparison takes tells nothing of the token."""
    text = token if isinstance(token, str) and len(token) <= 200 else ""
    return hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def wait_words(seconds: float) -> str:
    """A wait as a person says it: "40 s", "12 min", "2 h"."""
    seconds = max(1, math.ceil(seconds))
    if seconds < 120:
        return f"{seconds} s"
    return f"{math.ceil(seconds / 60)} min" if seconds < 2 * 3600 else f"{seconds / 3600:.0f} h"


# Put before every script. KEYS: room, students, items, counts, rate, joined, the registry.
# ARGV[1]: now, ARGV[2]: idle seconds.
_COMMON = """
local function drop()
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
  redis.call('SREM', KEYS[7], KEYS[1])
end
local function live()
  local active = redis.call('HGET', KEYS[1], 'active')
  if not active then return false end
  if tonumber(ARGV[1]) - tonumber(active) > tonumber(ARGV[2]) then
    drop()
    return false
  end
  return true
end
local function changed()
  redis.call('HSET', KEYS[1], 'active', ARGV[1])
  redis.call('HINCRBY', KEYS[1], 'rev', 1)
  local ms = math.floor(tonumber(ARGV[2]) * 1000)
  for i = 1, 6 do redis.call('PEXPIRE', KEYS[i], ms) end
end
local function remove(id)
  local item = redis.call('HGET', KEYS[3], id)
  if not item then return end
  local number, kind = string.match(item, '^(%d+)|(%a)|')
  redis.call('HDEL', KEYS[3], id)
  redis.call('HINCRBY', KEYS[4], number .. ':' .. kind, -1)
  if kind == 'p' then redis.call('HINCRBY', KEYS[1], 'n_points', -1) end
end
local function items_of(numbers)  -- {id, item, ...} of the students in the set (all: nil)
  local found = {}
  local all = redis.call('HGETALL', KEYS[3])
  for i = 1, #all, 2 do
    if not numbers or numbers[string.match(all[i + 1], '^(%d+)|')] then
      table.insert(found, all[i])
      table.insert(found, all[i + 1])
    end
  end
  return found
end
local function remove_students(numbers)  -- a set of numbers; marked 'x' in joined
  local n = 0
  for number in pairs(numbers) do
    redis.call('HSET', KEYS[6], number, 'x')
    n = n + 1
  end
  redis.call('HINCRBY', KEYS[1], 'n_students', -n)
  local theirs = items_of(numbers)
  for i = 1, #theirs, 2 do remove(theirs[i]) end
  return n
end
local function member()  -- ARGV[3]'s number, or a refusal
  local number = redis.call('HGET', KEYS[2], ARGV[3])
  if not number then return nil, 'stranger' end
  if redis.call('HGET', KEYS[6], number) == 'x' then return nil, 'removed' end
  return number
end
"""
# The start of a student's change (ARGV[3]: their id): ``number``, theirs, unless refused
_MEMBER = """
if not live() then return 'gone' end
local number, refusal = member()
if refusal then return refusal end
if redis.call('HGET', KEYS[1], 'frozen') == '1' then return 'frozen' end
"""

SCRIPTS = {
    # ARGV[3] token hash, [4] kernel, [5] width, [6] client, [7] rooms, [8] per client,
    # [9] join burst. Rooms past their idle time leave the registry; a full store answers
    # 'rooms:<seconds until the soonest idles out>', a client's 'client:<seconds>'.
    "create": """
if live() then return 0 end
local now, idle = tonumber(ARGV[1]), tonumber(ARGV[2])
local soonest, mine, mine_soonest, open = idle, 0, idle, 0
for _, key in ipairs(redis.call('SMEMBERS', KEYS[7])) do
  local found = redis.call('HMGET', key, 'active', 'client')
  local left = found[1] and idle - (now - tonumber(found[1]))
  if not left or left < 0 then
    redis.call('SREM', KEYS[7], key)
  else
    open = open + 1
    soonest = math.min(soonest, left)
    if found[2] == ARGV[6] then
      mine = mine + 1
      mine_soonest = math.min(mine_soonest, left)
    end
  end
end
if mine >= tonumber(ARGV[8]) then return 'client:' .. mine_soonest end
if open >= tonumber(ARGV[7]) then return 'rooms:' .. soonest end
drop()
redis.call('HSET', KEYS[1], 'token', ARGV[3], 'kernel', ARGV[4], 'width', ARGV[5],
  'client', ARGV[6], 'frozen', 0, 'locked', 0, 'moderated', 0, 'rev', 0, 'next_id', 0,
  'next_student', 0, 'n_students', 0, 'n_points', 0, 'join_tokens', ARGV[9],
  'join_at', ARGV[1], 'active', ARGV[1])
redis.call('SADD', KEYS[7], KEYS[1])
changed()
return 1
""",
    # ARGV[3] student id, [4] students, [5] join burst, [6] join rate; too many at once:
    # 'joins:<seconds until the bucket holds one>'
    "join": """
if not live() then return 'gone' end
local room = redis.call('HMGET', KEYS[1], 'locked', 'n_students', 'join_tokens', 'join_at')
if room[1] == '1' then return 'locked' end
if tonumber(room[2]) >= tonumber(ARGV[4]) then return 'full' end
local tokens = math.min(tonumber(ARGV[5]),
  tonumber(room[3]) + (tonumber(ARGV[1]) - tonumber(room[4])) * tonumber(ARGV[6]))
if tokens < 1 then return 'joins:' .. (1 - tokens) / tonumber(ARGV[6]) end
redis.call('HSET', KEYS[1], 'join_tokens', tostring(tokens - 1), 'join_at', ARGV[1])
local number = redis.call('HINCRBY', KEYS[1], 'next_student', 1)
redis.call('HINCRBY', KEYS[1], 'n_students', 1)
redis.call('HSET', KEYS[2], ARGV[3], number)
redis.call('HSET', KEYS[6], number, ARGV[1])
changed()
return number
""",
    # ARGV[3] student id, [4] kind, [5] data, [6] cap, [7] rate, [8] window, [9] room's points
    "add": _MEMBER
    + """
local count_key = number .. ':' .. ARGV[4]
if tonumber(redis.call('HGET', KEYS[4], count_key) or '0') >= tonumber(ARGV[6]) then
  return 'cap_' .. ARGV[4]
end
if ARGV[4] == 'p' and tonumber(redis.call('HGET', KEYS[1], 'n_points')) >= tonumber(ARGV[9]) then
  return 'room_points'
end
local window, n = string.match(redis.call('HGET', KEYS[5], number) or '', '^(%-?%d+):(%d+)$')
local used = window == ARGV[8] and tonumber(n) or 0
if used >= tonumber(ARGV[7]) then return 'rate' end
redis.call('HSET', KEYS[5], number, ARGV[8] .. ':' .. (used + 1))
local id = redis.call('HINCRBY', KEYS[1], 'next_id', 1)
local data = ARGV[5]
if ARGV[4] == 'd' and redis.call('HGET', KEYS[1], 'moderated') == '1' then
  data = '?' .. data
end
redis.call('HSET', KEYS[3], id, number .. '|' .. ARGV[4] .. '|' .. data)
redis.call('HINCRBY', KEYS[4], count_key, 1)
if ARGV[4] == 'p' then redis.call('HINCRBY', KEYS[1], 'n_points', 1) end
changed()
return id
""",
    # ARGV[3] student id, [4] contribution number or '' for the latest
    "withdraw": _MEMBER
    + """
local target = -1
local own = items_of({[number] = true})
for i = 1, #own, 2 do
  local id = tonumber(own[i])
  if (ARGV[4] == '' and id > target) or id == tonumber(ARGV[4]) then target = id end
end
if target < 0 then return 'none' end
remove(target)
changed()
return target
""",
    # ARGV[3] token hash, [4] action, [5], ... its arguments
    "lecturer": """
if not live() then return 'gone' end
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[3] then return 'denied' end
local action, answer = ARGV[4], 'ok'
if action == 'check' then
  return 'ok'
elseif action == 'close' then
  drop()
  return 'ok'
elseif action == 'set' then  -- ARGV[5], [6], ...: settings of the room and their values
  redis.call('HSET', KEYS[1], unpack(ARGV, 5))
elseif action == 'accept' then
  local item = redis.call('HGET', KEYS[3], ARGV[5])
  local head, data = string.match(item or '', '^(%d+|%a|)%?(.*)$')
  if head then redis.call('HSET', KEYS[3], ARGV[5], head .. data) end
elseif action == 'clear' then
  redis.call('DEL', KEYS[3], KEYS[4])
  redis.call('HSET', KEYS[1], 'n_points', 0)
elseif action == 'remove' then
  remove(ARGV[5])
elseif action == 'remove_student' then
  local seen = redis.call('HGET', KEYS[6], ARGV[5])
  if seen and seen ~= 'x' then remove_students({[ARGV[5]] = true}) end
elseif action == 'remove_recent' then
  local recent, joined = {}, redis.call('HGETALL', KEYS[6])
  for i = 1, #joined, 2 do
    if joined[i + 1] ~= 'x' and tonumber(joined[i + 1]) >= tonumber(ARGV[5]) then
      recent[joined[i]] = true
    end
  end
  answer = remove_students(recent)
end
changed()
return answer
""",
    # ARGV[3]: a student id to read only their contributions, or ''
    "snapshot": """
if not live() then return 'gone' end
local only = nil
if ARGV[3] ~= '' then
  local number, refusal = member()
  if refusal then return refusal end
  only = {[number] = true}
end
local meta = redis.call('HMGET', KEYS[1], 'rev', 'frozen', 'kernel', 'width', 'locked',
  'moderated')
return {meta, redis.call('HGET', KEYS[1], 'n_students'), items_of(only)}
""",
    "revision": """
if not live() then return 'gone' end
return redis.call('HGET', KEYS[1], 'rev')
""",
}

NOT_STUDENT = "This session is not in the room: open the room's link again to join."
UNAVAILABLE = (
    "The class's rooms cannot be reached right now (their store is not answering). "
    "The picture shown is the last one received; try again in a moment."
)
# A script's answers that are refusals, "<word>" or "<word>:<seconds to wait>": the error and its
# words, filled in from the store's Limits and the wait
REFUSALS: dict[str, tuple[type[RoomError], str]] = {
    "gone": (
        RoomGone,
        "There is no open room with this code: it may be mistyped, or the room was closed.",
    ),
    "removed": (Removed, "The lecturer removed you from this room."),
    "locked": (Locked, "The lecturer has locked this room: nobody new can join it now."),
    "frozen": (Frozen, "The lecturer has frozen the room: nothing can be added or undone now."),
    "full": (Full, "This room is full."),
    "denied": (NotAllowed, "Only the lecturer who started this room can do that."),
    "stranger": (NotAllowed, NOT_STUDENT),
    "cap_p": (
        CapReached,
        "You have placed {points} points, as many as each student may: undo one to move it.",
    ),
    "cap_d": (
        CapReached,
        "You have sent {digits} digits, as many as each student may: undo one to send another.",
    ),
    "rate": (RateLimited, "Slow down a little: at most {rate} contributions every {window_s:g} s."),
    "room_points": (
        Full,
        "The room holds as many points as it can ({room_points}): the lecturer may clear it or "
        "remove some.",
    ),
    "joins": (
        RateLimited,
        "Many are joining this room at once: you join in {wait} (this page tries again).",
    ),
    "rooms": (
        Full,
        "This server keeps as many open rooms as it can ({rooms}); the first to close frees a "
        "place within {wait}. Try again then.",
    ),
    "client": (
        Full,
        "You have {rooms_per_client} open rooms already, as many as one device may start: close "
        'one (its lecturer\'s "Close the room"), or one frees a place within {wait} if nobody '
        "uses it.",
    ),
}


class RoomStore:
    """Rooms with their rules, kept by the scripts in the Redis server ``client`` answers for
    (``decode_responses=True``); ``clock`` gives seconds (tests move it on), ``codes`` new room
    codes (one in use is drawn again)."""

    def __init__(
        self,
        client: redis.Redis,
        limits: Limits | None = None,
        *,
        clock: Callable[[], float] = time.time,
        codes: Callable[[], str] = new_code,
    ) -> None:
        self.redis = client
        self.limits = limits or Limits()
        self.clock = clock
        self.codes = codes
        self._scripts = {
            name: client.register_script(_COMMON + body) for name, body in SCRIPTS.items()
        }

    @staticmethod
    def keys(code: str) -> list[str]:
        """The room's six keys."""
        base = f"{PREFIX}{code}"
        parts = ("students", "items", "counts", "rate", "joined")
        return [base, *(f"{base}:{part}" for part in parts)]

    def _run(self, name: str, code: str, *args: object) -> Any:
        """The script's answer; its refusals (:data:`REFUSALS`) raised, and a lost connection
        as :class:`StoreUnavailable`."""
        try:
            answer = self._scripts[name](
                keys=[*self.keys(code), REGISTRY],
                args=[repr(self.clock()), self.limits.idle_s, *args],
            )
        except (redis.ConnectionError, redis.TimeoutError) as error:
            raise StoreUnavailable(UNAVAILABLE) from error
        word, _, wait = answer.partition(":") if isinstance(answer, str) else ("", "", "")
        if word in REFUSALS:
            error, words = REFUSALS[word]
            raise error(words.format(**asdict(self.limits), wait=wait_words(float(wait or 0))))
        return answer

    # Lecturer
    def create(self, client: str = "") -> Created:
        """A new room with a fresh code and token, started from ``client`` (an address);
        :class:`Full`, saying when to try again, if the store or the client has as many
        rooms as it may."""
        token, limits = secrets.token_urlsafe(24), self.limits
        for _ in range(8):
            code = self.codes()
            if CODE_PATTERN.fullmatch(code) and self._run(
                "create", code, token_hash(token), *DEFAULT_KERNEL, client, limits.rooms,
                limits.rooms_per_client, limits.join_burst,
            ) == 1:  # fmt: skip
                return Created(code, token)
        raise Full("No new room could be opened now; try again in a moment.")

    def _lecturer(self, code: str, token: object, action: str, *args: object) -> Any:
        return self._run("lecturer", code, token_hash(token), action, *args)

    def freeze(self, code: str, token: str, frozen: bool = True) -> None:
        """Stop (or allow again) every student's contributions and undos."""
        self._lecturer(code, token, "set", "frozen", int(frozen))

    def lock(self, code: str, token: str, locked: bool = True) -> None:
        """Let nobody new join (or let them again); the students in the room stay."""
        self._lecturer(code, token, "set", "locked", int(locked))

    def moderate(self, code: str, token: str, moderated: bool = True) -> None:
        """Show the students' digits only once the lecturer accepts them (or all again)."""
        self._lecturer(code, token, "set", "moderated", int(moderated))

    def accept(self, code: str, token: str, item: int) -> None:
        """Accept the digit numbered ``item``: a moderated room's projector shows it."""
        self._lecturer(code, token, "accept", _whole(item))

    def clear(self, code: str, token: str) -> None:
        """Remove every contribution (the students stay in the room)."""
        self._lecturer(code, token, "clear")

    def remove(self, code: str, token: str, item: int) -> None:
        """Remove one contribution by its number."""
        self._lecturer(code, token, "remove", _whole(item))

    def remove_student(self, code: str, token: str, number: int) -> None:
        """Remove the student with this number from the room, with all their contributions
        (their page says so; they cannot join again with the same identity)."""
        self._lecturer(code, token, "remove_student", _whole(number))

    def remove_recent(self, code: str, token: str) -> int:
        """Remove every student who joined in the last :attr:`Limits.recent_s` seconds, with
        their contributions (a flood of scripted joins); how many."""
        since = self.clock() - self.limits.recent_s
        return int(self._lecturer(code, token, "remove_recent", repr(since)))

    def set_kernel(self, code: str, token: str, kernel: str, width: float) -> None:
        """The kernel and its parameter the room's projector shows (:data:`KERNELS`; anything
        else is :class:`Invalid`)."""
        if kernel not in KERNELS:
            raise Invalid("The room's kernel is Gaussian, Laplacian or polynomial.")
        low, high = KERNELS[kernel]
        try:
            value = float(width)
        except (TypeError, ValueError):
            raise Invalid("The kernel's parameter is a number.") from None
        if not low <= value <= high:
            raise Invalid(f"The kernel's parameter lies between {low:g} and {high:g}.")
        value = round(value) if kernel == "poly" else value
        self._lecturer(code, token, "set", "kernel", kernel, "width", repr(float(value)))

    def close(self, code: str, token: str) -> None:
        """Close the room and delete its data."""
        self._lecturer(code, token, "close")

    def check_lecturer(self, code: str, token: str) -> None:
        """:class:`NotAllowed` unless ``token`` is the room's; the room is left as it is."""
        self._lecturer(code, token, "check")

    # Students
    def join(self, code: str) -> Joined:
        """A new anonymous student in the room."""
        student, limits = secrets.token_urlsafe(16), self.limits
        args = (student, limits.students, limits.join_burst, limits.join_rate)
        return Joined(student, int(self._run("join", code, *args)))

    def add_point(self, code: str, student: str, x: float, y: float, group: int) -> int:
        """Add a point of the plane in a group; its contribution number.  At most
        :attr:`Limits.points` per student and :attr:`Limits.room_points` in the room; kept as
        ``"x,y,group"``, :class:`Invalid` if it is not a point of the room's square."""
        try:
            values = [float(x), float(y)]
        except (TypeError, ValueError):
            raise Invalid("A point needs two numbers.") from None
        if isinstance(x, bool) or isinstance(y, bool) or not all(map(math.isfinite, values)):
            raise Invalid("A point needs two finite numbers.")
        if max(abs(v) for v in values) > HALF_WIDTH:
            raise Invalid(f"A point must lie in the square [−{HALF_WIDTH:g}, {HALF_WIDTH:g}]².")
        if isinstance(group, bool) or group not in range(1, N_GROUPS + 1):
            raise Invalid(f"A point's group is 1 to {N_GROUPS}.")
        item = f"{values[0]:.4f},{values[1]:.4f},{int(group)}"
        return self._add(code, student, POINT, item, self.limits.points)

    def add_digit(self, code: str, student: str, digit: np.ndarray) -> int:
        """Add a 16 × 16 digit (in a moderated room, pending until accepted); its number.  Kept
        as 256 grey levels in base64; :class:`Invalid` unless its values lie in −1 … 1."""
        try:
            array = np.asarray(digit, dtype=float)
        except (TypeError, ValueError):
            raise Invalid("A digit is 16 × 16 grey values.") from None
        if array.shape not in ((DIGIT_SIDE, DIGIT_SIDE), (DIGIT_SIDE * DIGIT_SIDE,)):
            raise Invalid("A digit is 16 × 16 grey values.")
        if not np.all(np.isfinite(array)) or np.abs(array).max(initial=0) > 1:
            raise Invalid("A digit's grey values lie between −1 and 1.")
        levels = np.round((array.ravel() + 1) * 127.5).astype(np.uint8)
        item = base64.b64encode(levels.tobytes()).decode("ascii")
        return self._add(code, student, DIGIT, item, self.limits.digits)

    def _add(self, code: str, student: str, kind: str, data: str, cap: int) -> int:
        limits = self.limits
        window = int(self.clock() // limits.window_s)
        args = (kind, data, cap, limits.rate, window, limits.room_points)
        return int(self._run("add", code, _student(student), *args))

    def undo(self, code: str, student: str, item: int | None = None) -> int | None:
        """Remove the student's own contribution ``item`` (default: their latest); which one."""
        which = "" if item is None else _whole(item)
        answer = self._run("withdraw", code, _student(student), which)
        return None if answer == "none" else int(answer)

    def mine(self, code: str, student: str) -> Snapshot:
        """The room as the student's own: only their contributions (and the room's settings)."""
        return self._read(code, _student(student))

    # Everyone
    def snapshot(self, code: str) -> Snapshot:
        """Everything in the room now (:class:`RoomGone` if it is not open)."""
        return self._read(code, "")

    def revision(self, code: str) -> int:
        """The room's revision (cheap: asked before the snapshot)."""
        return int(self._run("revision", code))

    def _read(self, code: str, student: str) -> Snapshot:
        """The room, or only the contributions of ``student``; a digit's data begins with
        :data:`PENDING` until the lecturer accepts it."""
        meta, n_students, flat = self._run("snapshot", code, student)
        rev, frozen, kernel, width, locked, moderated = meta
        rows = zip(flat[::2], (row.split("|", 2) for row in flat[1::2]), strict=True)
        items = sorted((int(i), int(n), kind, data) for i, (n, kind, data) in rows)
        numbers = np.array([item[:2] for item in items], dtype=int).reshape(-1, 2)
        point = np.array([kind == POINT for _, _, kind, _ in items], dtype=bool)
        xyg = np.array([d.split(",") for *_, k, d in items if k == POINT], float).reshape(-1, 3)
        written = [d for *_, k, d in items if k == DIGIT]
        digits = [np.frombuffer(base64.b64decode(d.lstrip(PENDING)), np.uint8) for d in written]
        return Snapshot(
            code=code,
            revision=int(rev),
            frozen=frozen == "1",
            kernel=kernel,
            width=float(width),
            locked=locked == "1",
            moderated=moderated == "1",
            n_students=int(n_students),
            point_ids=numbers[point, 0],
            points=xyg[:, :2],
            groups=xyg[:, 2].astype(int),
            point_students=numbers[point, 1],
            digit_ids=numbers[~point, 0],
            digits=np.array(digits, dtype=float).reshape(-1, DIGIT_SIDE, DIGIT_SIDE) / 127.5 - 1,
            digit_students=numbers[~point, 1],
            digit_pending=np.array([d.startswith(PENDING) for d in written], dtype=bool),
        )


def _student(student: object) -> str:
    """A student's id as a session may hold it (anything else is no student)."""
    if not isinstance(student, str) or not 0 < len(student) <= STUDENT_CHARS:
        raise NotAllowed(NOT_STUDENT)
    return student


def _whole(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise Invalid("A contribution or student is named by a whole number.")
    return int(value)


class MemoryStore(RoomStore):
    """Rooms in this process: a :mod:`fakeredis` server of its own runs the scripts, one
    command or script at a time (its lock), and expires an idle room's keys as Redis does."""

    def __init__(self, limits: Limits | None = None, **kwargs) -> None:
        client = fakeredis.FakeRedis(server=fakeredis.FakeServer(), decode_responses=True)
        super().__init__(client, limits, **kwargs)


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
