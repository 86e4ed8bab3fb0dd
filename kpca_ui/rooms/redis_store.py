"""The rooms in a Redis server, so that every replica behind the balancer sees the same room.

The rules are :mod:`kpca_ui.rooms.store`'s scripts; this module connects to the server.
"""

from __future__ import annotations

import redis
from redis.backoff import ExponentialBackoff
from redis.retry import Retry

from kpca_ui.rooms.store import Limits, RoomStore


class RedisStore(RoomStore):
    """Rooms in Redis at ``url`` (``redis://host:port/db``) with the rules of :class:`RoomStore`;
    after ``timeout_s`` without an answer the store is unavailable."""

    def __init__(
        self, url: str, limits: Limits | None = None, *, timeout_s: float = 2.0, **kwargs
    ) -> None:
        client = redis.Redis.from_url(
            url,
            decode_responses=True,
            socket_timeout=timeout_s,
            socket_connect_timeout=timeout_s,
            # a lost connection is retried twice within half a second: the projector polls
            # twice a second and a student waits for their answer
            retry=Retry(ExponentialBackoff(cap=0.25, base=0.05), 2),
        )
        super().__init__(client, limits, **kwargs)
