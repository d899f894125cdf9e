"""Every limit the server puts on what clients may ask of it, in one place (docs/server.md,
"Security model").

A network client is a stranger: whatever it sends, the server's memory, disk and CPU stay
bounded. :class:`Limits` holds the numbers (``meeple serve --limit NAME=VALUE`` and
``create_app(limits=...)`` override them); :class:`RateLimit` is the token bucket the
connections and the lobby use, and :class:`ClientBuckets` keeps one per client address.
"""

from __future__ import annotations

import dataclasses
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Limits:
    """The server's limits. Times in seconds, sizes in bytes, rates per second.

    Attributes:
        talk_rate, talk_burst: table-talk messages per second and burst, per connection.
        frame_rate, frame_burst: websocket frames per second and burst, per connection.
        create_rate, create_burst: tables a client address may create per second and burst.
        open_per_client: tables still waiting for people that one client address may hold.
        open_tables: tables waiting for people, over all clients (the lobby's size).
        live_tables: open and running tables the server holds in memory at once.
        open_table_seconds: an open table that nobody joins for this long is closed
            (status ``expired``).
        idle_table_seconds: a running table where no person is connected and nothing
            happened for this long is closed (status ``abandoned``).
        min_timer_seconds, max_timer_seconds: the decision timer a table may have.
        bot_seconds: the longest a bot seated from the web may think about one decision
            (a search's budget is capped to it, whatever its label asks).
        bot_iterations: the most iterations a search bot's label may ask for.
        bot_threads: threads searching bots think in (their decisions are shared fairly
            between tables); quick bots (random, the games' own) think in one more.
        body_bytes: the largest request body of a REST call (an upload excepted).
        upload_bytes: the largest content file a client may upload.
        uploads: content files the server keeps from uploads, over all clients.
        upload_rate, upload_burst: uploads a client address may make per second and burst.
        page_size: tables per page of ``GET /api/tables`` (a client may ask for fewer).
        lobby_streams: lobby update streams (server-sent events) open at once.
        clients_tracked: client addresses whose rate buckets are kept (oldest forgotten).
    """

    talk_rate: float = 1.0
    talk_burst: float = 5.0
    frame_rate: float = 30.0
    frame_burst: float = 60.0
    create_rate: float = 0.5
    create_burst: float = 20.0
    open_per_client: int = 20
    open_tables: int = 500
    live_tables: int = 2000
    open_table_seconds: float = 1800.0
    idle_table_seconds: float = 3600.0
    min_timer_seconds: float = 5.0
    max_timer_seconds: float = 86_400.0
    bot_seconds: float = 5.0
    bot_iterations: int = 20_000
    bot_threads: int = 2
    body_bytes: int = 65_536
    upload_bytes: int = 262_144
    uploads: int = 200
    upload_rate: float = 0.1
    upload_burst: float = 5.0
    page_size: int = 50
    lobby_streams: int = 500
    clients_tracked: int = 10_000

    @classmethod
    def of(cls, overrides: Limits | Mapping[str, Any] | None) -> Limits:
        """``overrides`` as limits: a :class:`Limits` as it is, a mapping of field names to
        values over the defaults (``{"min_timer_seconds": 1}``), or None for the defaults.

        Raises:
            ValueError: an unknown name, or a value that is not a positive number of the
                field's type.
        """
        if isinstance(overrides, Limits):
            return overrides
        fields = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for name, value in (overrides or {}).items():
            if name not in fields:
                raise ValueError(f"unknown limit {name!r}; limits: {', '.join(fields)}")
            kind = type(fields[name].default)
            try:
                number = kind(value)
            except (TypeError, ValueError):
                raise ValueError(f"limit {name} = {value!r} is not a number") from None
            if not number > 0 or number == float("inf"):
                raise ValueError(f"limit {name} = {value!r} must be a positive finite number")
            values[name] = number
        return cls(**values)

    @classmethod
    def parse(cls, texts: list[str]) -> Limits:
        """Limits from ``NAME=VALUE`` texts (``meeple serve --limit``).

        Raises:
            ValueError: a text without ``=``, an unknown name or a bad value.
        """
        pairs = {}
        for text in texts:
            name, sep, value = text.partition("=")
            if not sep:
                raise ValueError(f"--limit {text!r}: expected NAME=VALUE")
            pairs[name.strip()] = value.strip()
        return cls.of(pairs)


class RateLimit:
    """A token bucket: ``rate`` tokens per second, at most ``burst`` saved up."""

    def __init__(self, rate: float, burst: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.clock = rate, burst, clock
        self.tokens, self.at = burst, clock()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def wait(self) -> float:
        """Seconds until the next token (0 when one is there)."""
        now = self.clock()
        tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        return 0.0 if tokens >= 1 else (1 - tokens) / self.rate


class ClientBuckets:
    """One :class:`RateLimit` per client address, at most ``size`` of them (the least
    recently used is forgotten, so a flood of addresses cannot grow it)."""

    def __init__(self, rate: float, burst: float, size: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.burst, self.size, self.clock = rate, burst, size, clock
        self.buckets: OrderedDict[str, RateLimit] = OrderedDict()

    def get(self, client: str) -> RateLimit:
        """The bucket of ``client`` (made full on first sight)."""
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = RateLimit(self.rate, self.burst, self.clock)
            while len(self.buckets) > self.size:
                self.buckets.popitem(last=False)
        else:
            self.buckets.move_to_end(client)
        return bucket
