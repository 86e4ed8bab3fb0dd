"""The rooms in Redis, so that every replica behind the balancer sees the same room.

Each room is six keys, ``kpca:room:<code>`` (a hash of its settings: token's hash, the
client that started it, last activity, frozen, locked, moderated, kernel, width, revision,
counters, the join bucket) and its ``:students`` (secret id -> number), ``:items``
(contribution number -> ``"<student>|<kind>|<data>"``), ``:counts`` (``"<student>:<kind>"`` ->
how many), ``:rate`` (student -> ``"<window>:<added>"``) and ``:joined`` (number -> when,
``x`` once removed); ``kpca:rooms`` is the set of open rooms, counted when one is created
(that script reads the rooms it names: one Redis, not a cluster).  Every change is one Lua
script, which Redis runs atomically, so that two replicas cannot pass a cap or a rate limit
together.  Each change sets the keys to expire after :attr:`~kpca_ui.rooms.store.Limits.idle_s`,
and a script that finds the room idle by the store's clock deletes it.
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
    Locked,
    NotAllowed,
    Removed,
    RoomError,
    RoomGone,
    RoomStore,
    Snapshot,
    StoreUnavailable,
    same_token,
    snapshot_of,
)

PREFIX = "kpca:room:"
REGISTRY = "kpca:rooms"  # the set of open rooms' keys, counted against Limits.rooms
# A script's one-word answers that are refusals
REFUSALS: dict[str, Callable[[], RoomError]] = {
    "gone": RoomGone,
    "full": lambda: Full("This room is full."),
    "denied": lambda: NotAllowed(NOT_LECTURER),
    "stranger": lambda: NotAllowed(NOT_STUDENT),
    "removed": Removed,
    "locked": Locked,
    "frozen": Frozen,
}

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

_SCRIPTS = {
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
    # 'joins:<tokens in the bucket>'
    "join": """
if not live() then return 'gone' end
local room = redis.call('HMGET', KEYS[1], 'locked', 'n_students', 'join_tokens', 'join_at')
if room[1] == '1' then return 'locked' end
if tonumber(room[2]) >= tonumber(ARGV[4]) then return 'full' end
local tokens = math.min(tonumber(ARGV[5]),
  tonumber(room[3]) + (tonumber(ARGV[1]) - tonumber(room[4])) * tonumber(ARGV[6]))
if tokens < 1 then return 'joins:' .. tokens end
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
  return 'cap'
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
    # ARGV[3] token hash, [4] action, [5], [6] its arguments
    "lecturer": """
if not live() then return 'gone' end
if redis.call('HGET', KEYS[1], 'token') ~= ARGV[3] then return 'denied' end
local action, answer = ARGV[4], 'ok'
if action == 'check' then
  return 'ok'
elseif action == 'close' then
  drop()
  return 'ok'
elseif action == 'freeze' or action == 'lock' or action == 'moderate' then
  local names = {freeze = 'frozen', lock = 'locked', moderate = 'moderated'}
  redis.call('HSET', KEYS[1], names[action], ARGV[5])
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
elseif action == 'kernel' then
  redis.call('HSET', KEYS[1], 'kernel', ARGV[5], 'width', ARGV[6])
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
        """The room's six keys."""
        base = f"{PREFIX}{code}"
        parts = ("students", "items", "counts", "rate", "joined")
        return [base, *(f"{base}:{part}" for part in parts)]

    def _run(self, name: str, code: str, *args: object) -> Any:
        """The script's answer; its one-word refusals (:data:`REFUSALS`) raised, and a lost
        connection as :class:`StoreUnavailable`."""
        try:
            answer = self._scripts[name](
                keys=[*self.keys(code), REGISTRY],
                args=[repr(self.clock()), self.limits.idle_s, *args],
            )
        except (redis.ConnectionError, redis.TimeoutError) as error:
            raise StoreUnavailable from error
        if isinstance(answer, str) and answer in REFUSALS:
            raise REFUSALS[answer]()
        return answer

    def _create(self, code: str, hashed: str, client: str) -> bool:
        limits = self.limits
        answer = self._run(
            "create", code, hashed, *DEFAULT_KERNEL, client, limits.rooms,
            limits.rooms_per_client, limits.join_burst,
        )  # fmt: skip
        if isinstance(answer, str):  # 'client:<s>' or 'rooms:<s>'
            which, wait = answer.split(":")
            raise self._rooms_error(which == "client", float(wait))
        return answer == 1

    def _lecturer(self, code: str, token: str, action: str, *args: str) -> object:
        kept = self._run("field", code, "token")
        if not same_token(token, kept):
            raise NotAllowed(NOT_LECTURER)
        # the script checks the hash again: the room may since have been closed and reopened
        return self._run("lecturer", code, kept, action, *args)

    def _join(self, code: str, student: str) -> int:
        limits = self.limits
        answer = self._run(
            "join", code, student, limits.students, limits.join_burst, limits.join_rate
        )
        if isinstance(answer, str) and answer.startswith("joins:"):
            raise self._joins_error(float(answer.split(":")[1]))
        return int(answer)

    def _add(self, code: str, student: str, kind: str, data: str, cap: int) -> int:
        window = self._window(self.clock())
        answer = self._run(
            "add", code, student, kind, data, cap, self.limits.rate, window,
            self.limits.room_points,
        )  # fmt: skip
        if answer in ("cap", "rate", "room_points"):
            raise {
                "cap": lambda: self._cap_error(kind),
                "rate": self._rate_error,
                "room_points": self._room_points_error,
            }[answer]()
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
