"""The rooms in Redis, so that every replica behind the balancer sees the same room.

Each room is five keys, ``kpca:room:<code>`` (a hash of its settings: token's hash, last
activity, frozen, kernel, width, revision, counters) and its ``:students`` (secret id ->
number), ``:items`` (contribution number -> ``"<student>|<kind>|<data>"``), ``:counts``
(``"<student>:<kind>"`` -> how many) and ``:rate`` (student -> ``"<window>:<added>"``).
Every change is one Lua script, which Redis runs atomically, so that two replicas cannot
pass a cap or a rate limit together.  Each change sets the keys to expire after
:attr:`~kpca_ui.rooms.store.Limits.idle_s`, and a script that finds the room idle by the
store's clock deletes it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from kpca_ui.rooms.store import (
    DEFAULT_KERNEL,
    NOT_LECTURER,
    NOT_STUDENT,
    Frozen,
    Full,
    Limits,
    NotAllowed,
    RoomError,
    RoomGone,
    RoomStore,
    Snapshot,
    StoreUnavailable,
    same_token,
    snapshot_of,
)

PREFIX = "kpca:room:"
# A script's one-word answers that are refusals
REFUSALS: dict[str, Callable[[], RoomError]] = {
    "gone": RoomGone,
    "full": lambda: Full("This room is full."),
    "denied": lambda: NotAllowed(NOT_LECTURER),
    "stranger": lambda: NotAllowed(NOT_STUDENT),
    "frozen": Frozen,
}

# Put before every script. KEYS: room, students, items, counts, rate. ARGV[1]: now,
# ARGV[2]: idle seconds.
_COMMON = """
local function live()
  local active = redis.call('HGET', KEYS[1], 'active')
  if not active then return false end
  if tonumber(ARGV[1]) - tonumber(active) > tonumber(ARGV[2]) then
    redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
    return false
  end
  return true
end
local function changed()
  redis.call('HSET', KEYS[1], 'active', ARGV[1])
  redis.call('HINCRBY', KEYS[1], 'rev', 1)
  local ms = math.floor(tonumber(ARGV[2]) * 1000)
  for i = 1, 5 do redis.call('PEXPIRE', KEYS[i], ms) end
end
local function remove(id)
  local item = redis.call('HGET', KEYS[3], id)
  if not item then return end
  local number, kind = string.match(item, '^(%d+)|(%a)|')
  redis.call('HDEL', KEYS[3], id)
  redis.call('HINCRBY', KEYS[4], number .. ':' .. kind, -1)
end
local function items_of(number)  -- {id, item, id, item, ...} of the student numbered (all: nil)
  local found = {}
  local all = redis.call('HGETALL', KEYS[3])
  for i = 1, #all, 2 do
    if not number or string.match(all[i + 1], '^(%d+)|') == number then
      table.insert(found, all[i])
      table.insert(found, all[i + 1])
    end
  end
  return found
end
"""
# The start of a student's change (ARGV[3]: their id): ``number``, theirs, unless refused
_MEMBER = """
if not live() then return 'gone' end
local number = redis.call('HGET', KEYS[2], ARGV[3])
if not number then return 'stranger' end
if redis.call('HGET', KEYS[1], 'frozen') == '1' then return 'frozen' end
"""

_SCRIPTS = {
    "create": """
if live() then return 0 end
redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
redis.call('HSET', KEYS[1], 'token', ARGV[3], 'kernel', ARGV[4], 'width', ARGV[5],
  'frozen', 0, 'rev', 0, 'next_id', 0, 'next_student', 0, 'active', ARGV[1])
changed()
return 1
""",
    "join": """
if not live() then return 'gone' end
if redis.call('HLEN', KEYS[2]) >= tonumber(ARGV[4]) then return 'full' end
local number = redis.call('HINCRBY', KEYS[1], 'next_student', 1)
redis.call('HSET', KEYS[2], ARGV[3], number)
changed()
return number
""",
    # ARGV[3] student id, [4] kind, [5] data, [6] cap, [7] rate, [8] window
    "add": _MEMBER
    + """
local count_key = number .. ':' .. ARGV[4]
if tonumber(redis.call('HGET', KEYS[4], count_key) or '0') >= tonumber(ARGV[6]) then
  return 'cap'
end
local window, n = string.match(redis.call('HGET', KEYS[5], number) or '', '^(%-?%d+):(%d+)$')
local used = window == ARGV[8] and tonumber(n) or 0
if used >= tonumber(ARGV[7]) then return 'rate' end
redis.call('HSET', KEYS[5], number, ARGV[8] .. ':' .. (used + 1))
local id = redis.call('HINCRBY', KEYS[1], 'next_id', 1)
redis.call('HSET', KEYS[3], id, number .. '|' .. ARGV[4] .. '|' .. ARGV[5])
redis.call('HINCRBY', KEYS[4], count_key, 1)
changed()
return id
""",
    # ARGV[3] student id, [4] contribution number or '' for the latest
    "withdraw": _MEMBER
    + """
local target = -1
local own = items_of(number)
for i = 1, #own, 2 do
  local id = tonumber(own[i])
  if (ARGV[4] == '' and id > target) or id == tonumber(ARGV[4]) then target = id end
end
if target < 0 then return 'none' end
remove(target)
changed()
return target
""",
    # ARGV[3] token hash, [4] action, [5], [6] its arguments
    "lecturer": """
if not live() then return 'gone' end
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[3] then return 'denied' end
local action = ARGV[4]
if action == 'check' then
  return 'ok'
elseif action == 'close' then
  redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5])
  return 'ok'
elseif action == 'freeze' then
  redis.call('HSET', KEYS[1], 'frozen', ARGV[5])
elseif action == 'clear' then
  redis.call('DEL', KEYS[3], KEYS[4])
elseif action == 'remove' then
  remove(ARGV[5])
elseif action == 'remove_student' then
  local theirs = items_of(ARGV[5])
  for i = 1, #theirs, 2 do remove(theirs[i]) end
elseif action == 'kernel' then
  redis.call('HSET', KEYS[1], 'kernel', ARGV[5], 'width', ARGV[6])
end
changed()
return 'ok'
""",
    # ARGV[3]: a student id to read only their contributions, or ''
    "snapshot": """
if not live() then return 'gone' end
local only = nil
if ARGV[3] ~= '' then
  only = redis.call('HGET', KEYS[2], ARGV[3])
  if not only then return 'stranger' end
end
local meta = redis.call('HMGET', KEYS[1], 'rev', 'frozen', 'kernel', 'width')
return {meta, redis.call('HLEN', KEYS[2]), items_of(only)}
""",
    # ARGV[3]: a field of the room's hash ('rev', 'token')
    "field": """
if not live() then return 'gone' end
return redis.call('HGET', KEYS[1], ARGV[3])
""",
}


class RedisStore(RoomStore):
    """Rooms in Redis at ``url`` (``redis://host:port/db``) with the rules of :class:`RoomStore`;
    after ``timeout_s`` without an answer the store is unavailable."""

    def __init__(
        self, url: str, limits: Limits | None = None, *, timeout_s: float = 2.0, **kwargs
    ) -> None:
        super().__init__(limits, **kwargs)
        self.redis = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
            # a lost connection is retried twice within half a second: the projector polls
            # twice a second and a student waits for their answer
            retry=Retry(ExponentialBackoff(cap=0.25, base=0.05), 2),
        )
        self._scripts = {
            name: self.redis.register_script(_COMMON + body) for name, body in _SCRIPTS.items()
        }

    @staticmethod
    def keys(code: str) -> list[str]:
        """The room's five keys."""
        base = f"{PREFIX}{code}"
        return [base, *(f"{base}:{part}" for part in ("students", "items", "counts", "rate"))]

    def _run(self, name: str, code: str, *args: object) -> Any:
        """The script's answer; its one-word refusals (:data:`REFUSALS`) raised, and a lost
        connection as :class:`StoreUnavailable`."""
        try:
            answer = self._scripts[name](
                keys=self.keys(code), args=[repr(self.clock()), self.limits.idle_s, *args]
            )
        except (redis.ConnectionError, redis.TimeoutError) as error:
            raise StoreUnavailable from error
        if isinstance(answer, str) and answer in REFUSALS:
            raise REFUSALS[answer]()
        return answer

    def _create(self, code: str, hashed: str) -> bool:
        return self._run("create", code, hashed, *DEFAULT_KERNEL) == 1

    def _lecturer(self, code: str, token: str, action: str, *args: str) -> None:
        kept = self._run("field", code, "token")
        if not same_token(token, kept):
            raise NotAllowed(NOT_LECTURER)
        # the script checks the hash again: the room may since have been closed and reopened
        self._run("lecturer", code, kept, action, *args)

    def _join(self, code: str, student: str) -> int:
        return int(self._run("join", code, student, self.limits.students))

    def _add(self, code: str, student: str, kind: str, data: str, cap: int) -> int:
        window = self._window(self.clock())
        answer = self._run("add", code, student, kind, data, cap, self.limits.rate, window)
        if answer in ("cap", "rate"):
            raise self._cap_error(kind) if answer == "cap" else self._rate_error()
        return int(answer)

    def _withdraw(self, code: str, student: str, item: int | None) -> int | None:
        answer = self._run("withdraw", code, student, "" if item is None else item)
        return None if answer == "none" else int(answer)

    def _read(self, code: str, student: str = "") -> Snapshot:
        meta, n_students, flat = self._run("snapshot", code, student)
        pairs = zip(flat[::2], (row.split("|", 2) for row in flat[1::2]), strict=True)
        items = [(int(i), int(n), kind, data) for i, (n, kind, data) in pairs]
        return snapshot_of(code, meta, int(n_students), items)

    _mine = snapshot = _read  # a student's own contributions, or the whole room

    def revision(self, code: str) -> int:
        return int(self._run("field", code, "rev"))
