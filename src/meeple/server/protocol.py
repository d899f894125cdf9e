"""The table protocol, version 1: every message a client and the server exchange over a table's
websocket, and the lobby's REST bodies, as pydantic models (docs/server.md describes them).

Every frame is one JSON object with a ``type``. Client messages are validated strictly
(unknown fields are refused, so a client cannot name a seat it does not hold); server messages
are built here too, so their JSON form has one definition (:func:`dump`), which the leak audit
reuses to build what a seat should have received from its views alone.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from meeple.lab.analysis.people import AGAIN_ANSWERS, LENGTH_ANSWERS

PROTOCOL_VERSION = 1
#: Largest client frame accepted, in bytes (a larger one is refused with ``too_large``).
MAX_FRAME_BYTES = 16_384
#: Longest chat message, in characters.
MAX_TALK_CHARS = 500
#: Longest action text, in characters.
MAX_ACTION_CHARS = 400


class ProtocolError(Exception):
    """A refused client message: ``code`` (machine-readable, listed in docs/server.md) and a
    human-readable ``message``; the server sends them back as an ``error`` message."""

    def __init__(self, code: str, message: str, ref: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.ref = ref


def _utf8(text: str) -> str:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise ValueError("text must be valid Unicode (it holds a lone surrogate)") from None
    return text


#: A client's text: any string that is valid Unicode (JSON's ``"\ud800"`` escape makes a lone
#: surrogate, which no UTF-8 reply, database or hash could carry).
Text = Annotated[str, AfterValidator(_utf8)]


def printable(text: str) -> str:
    """``text`` safe to send as UTF-8: a lone surrogate becomes its ``\\udXXX`` escape."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Ref = Annotated[int | str | None, Field(description="echoed in the reply", default=None)]


# ----------------------------------------------------------------- client -> server
class Hello(_Strict):
    """First message on a connection: ``token`` (a seat's secret from joining) takes that seat;
    no token watches as a spectator."""

    type: Literal["hello"]
    v: int = PROTOCOL_VERSION
    token: Annotated[Text, Field(max_length=128)] | None = None


class Act(_Strict):
    """Play (or, at a simultaneous decision, submit) ``action`` in the game's notation for the
    connection's own seat."""

    type: Literal["act"]
    action: Annotated[Text, Field(min_length=1, max_length=MAX_ACTION_CHARS)]
    id: Ref


class Say(_Strict):
    """Table talk: to everyone (``to`` absent and no ``-xy`` prefix), to the seats in ``to``, or
    to the seats whose initials follow a leading ``-`` (``-rg hello``), as ``meeple play``."""

    type: Literal["say"]
    text: Annotated[Text, Field(min_length=1, max_length=MAX_TALK_CHARS)]
    to: Annotated[list[int], Field(max_length=16)] | None = None
    id: Ref


class Sync(_Strict):
    """Ask for a fresh snapshot (``table``, ``state`` and ``history``)."""

    type: Literal["sync"]
    id: Ref


class Ping(_Strict):
    """Liveness probe; answered by ``pong`` after every message sent before it."""

    type: Literal["ping"]
    id: Ref


ClientMessage = Annotated[Hello | Act | Say | Sync | Ping, Field(discriminator="type")]
_client = TypeAdapter(ClientMessage)


def parse_client(text: str | bytes) -> Hello | Act | Say | Sync | Ping:
    """Read one client frame.

    Raises:
        ProtocolError: ``too_large`` (over :data:`MAX_FRAME_BYTES`), ``bad_json`` (not a JSON
            object), ``bad_message`` (unknown type, missing or extra fields, values out of
            bounds; the message says which) or ``unsupported_version``. Nesting too deep for
            Python's parser is ``bad_json`` too.
    """
    size = len(text.encode() if isinstance(text, str) else text)
    if size > MAX_FRAME_BYTES:
        raise ProtocolError("too_large", f"message of {size} bytes; the limit is "
                            f"{MAX_FRAME_BYTES}")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ProtocolError("bad_json", f"not JSON: {exc}") from None
    except RecursionError:
        raise ProtocolError("bad_json", "not JSON this server reads: nested too deeply") \
            from None
    if not isinstance(data, dict):
        raise ProtocolError("bad_json", "a message must be a JSON object")
    ref = data.get("id") if isinstance(data.get("id"), (int, str)) else None
    try:
        message = _client.validate_python(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'message'}: {e['msg']}"
                             for e in exc.errors()[:3])
        raise ProtocolError("bad_message", problems, ref) from None
    if isinstance(message, Hello) and message.v != PROTOCOL_VERSION:
        raise ProtocolError("unsupported_version",
                            f"protocol version {message.v}; this server speaks "
                            f"{PROTOCOL_VERSION}")
    return message


# ----------------------------------------------------------------- server -> client
class SeatInfo(BaseModel):
    """One seat in a table summary: ``kind`` ``open``, ``person`` or ``bot``; ``name`` the
    person's display name or the bot's name; ``connected`` whether a person is online."""

    seat: int
    kind: Literal["open", "person", "bot"]
    name: str
    connected: bool = False


#: A table's status: ``open`` (waiting for people), ``running``, ``finished``; closed without a
#: result: ``broken`` (its stored history no longer replays), ``expired`` (nobody filled it in
#: time), ``abandoned`` (nobody attended it for a long time).
TableStatus = Literal["open", "running", "finished", "broken", "expired", "abandoned"]


class TableInfo(BaseModel):
    """A table's public summary (the lobby lists these; nothing secret: no seed, no tokens, no
    paths: a file parameter shows its content id)."""

    id: str
    game: str
    title: str
    variant: str
    players: int
    params: dict[str, Any]
    status: TableStatus
    timer_seconds: float | None
    talk_modes: list[str]
    seat_names: list[str]
    seats: list[SeatInfo]
    rematch: str | None = None
    #: The finished table this one is the rematch of.
    rematch_of: str | None = None
    #: Connections watching without a seat.
    spectators: int = 0
    #: When the table was made (Unix seconds).
    created_at: float | None = None
    #: Each seat's colour (a CSS colour name), the game's own where it has them.
    seat_colours: list[str] = Field(default_factory=list)
    #: Who takes a person's seat when they leave: a bot's name, or ``timer``.
    replace: str = "timer"


class TablePage(BaseModel):
    """``GET /api/tables``: one page of the open and running tables (open ones first, newest
    first), ``total`` of them in all, from ``offset``."""

    tables: list[TableInfo]
    total: int
    offset: int
    limit: int


class Timer(BaseModel):
    """The running decision timer: ``deadline`` and the server's ``now`` (Unix seconds; a
    client counts down ``deadline - now`` from when it received the message), ``seconds``
    per decision."""

    deadline: float
    now: float
    seconds: float


class Result(BaseModel):
    """The result of a finished game (the engine's ``returns``, ``winners``, ``scores``,
    ``outcome``, ``truncated``)."""

    returns: list[float]
    winners: list[int]
    scores: list[float]
    outcome: dict[str, Any]
    truncated: bool


class Welcome(BaseModel):
    """Reply to ``hello``: the protocol version, the table, and the connection's seat
    (``None``: a spectator)."""

    type: Literal["welcome"] = "welcome"
    protocol: int = PROTOCOL_VERSION
    table: TableInfo
    seat: int | None


class TableUpdate(BaseModel):
    """The table's summary changed (a seat was taken, a person connected or left)."""

    type: Literal["table"] = "table"
    table: TableInfo


class StateUpdate(BaseModel):
    """What the connection may know now: its ``view`` (``State.view(seat)``; ``view(None)`` for
    a spectator), its ``legal`` action texts (empty unless it is to act), the table ``status``,
    the ``timer`` (None when untimed or not running) and, once over, the ``result``. Sent on
    connect, on ``sync``, and whenever that view (or the timer) changes, never otherwise."""

    type: Literal["state"] = "state"
    status: str
    view: dict[str, Any]
    legal: list[str]
    timer: Timer | None = None
    result: Result | None = None


class TalkOut(BaseModel):
    """One talk message: ``sender`` seat, ``recipients`` (None: public), the game ``step``
    (``State.length()``) it was sent at, and the ``text`` exactly as typed (a client must show
    it as text, never as markup)."""

    sender: int
    recipients: list[int] | None
    step: int
    text: str


class Talk(BaseModel):
    """A new talk message this connection may read."""

    type: Literal["talk"] = "talk"
    message: TalkOut


class History(BaseModel):
    """Every talk message this connection may read, oldest first (on connect and ``sync``)."""

    type: Literal["history"] = "history"
    messages: list[TalkOut]


class LogEntry(BaseModel):
    """One line of the table's log (:mod:`meeple.server.narration`): ``kind`` (``event``: the
    game's narration; ``you``: your own choice; ``timeout``; ``seat``: someone left; ``end``),
    the ``seat`` it is about (None: the table), the game's length (``step``) when it happened,
    the game's own time of it where it has one (``when``: a round, turn or day), and ``text``,
    in words, where ``{seat:N}`` stands for seat N (a client shows its person and colour)."""

    kind: Literal["event", "you", "timeout", "seat", "end"]
    seat: int | None = None
    step: int
    when: int | None = None
    text: str


class Log(BaseModel):
    """New log entries this connection may read, oldest first; with ``reset`` (on connect and
    ``sync``) the whole log so far, to replace what the client shows."""

    type: Literal["log"] = "log"
    entries: list[LogEntry]
    reset: bool = False


class Left(BaseModel):
    """This connection's person left its seat (``POST /api/tables/{id}/leave``): from now on
    it watches, as a spectator; ``table`` is the summary with the seat's new player."""

    type: Literal["left"] = "left"
    table: TableInfo


class Rematch(BaseModel):
    """The finished game's rematch table exists (same game, settings and bots; the people's
    seats open): join it through the lobby."""

    type: Literal["rematch"] = "rematch"
    table: TableInfo


class Accepted(BaseModel):
    """The connection's ``act`` was applied (committed) as ``action`` (canonical text)."""

    type: Literal["accepted"] = "accepted"
    id: int | str | None = None
    action: str


class Said(BaseModel):
    """The connection's ``say`` was stored and delivered."""

    type: Literal["said"] = "said"
    id: int | str | None = None


class Error(BaseModel):
    """A refused request, sent to the requesting connection only; nothing changed."""

    type: Literal["error"] = "error"
    id: int | str | None = None
    code: str
    message: Annotated[str, AfterValidator(printable)]


class Pong(BaseModel):
    """Reply to ``ping``."""

    type: Literal["pong"] = "pong"
    id: int | str | None = None


def dump(message: BaseModel) -> str:
    """The JSON text of a server message (compact; the one encoding every connection gets)."""
    return message.model_dump_json()


# ----------------------------------------------------------------- REST bodies
class SeatRequest(_Strict):
    """A seat in a new table: ``bot`` names a bot for it (e.g. ``heuristic``, ``ismcts-200``);
    no bot leaves it open for a person."""

    bot: Annotated[Text, Field(max_length=64)] | None = None


class CreateTable(_Strict):
    """``POST /api/tables``: the game, variant, seat count, parameters (a file parameter names
    a content id the server offers, never a path), the seats (one entry per seat, or fewer:
    the rest open), the decision timer in seconds (None: untimed; the server's limits say
    how short and long, :class:`meeple.server.limits.Limits`) and who takes a person's seat
    if they leave (``replace``: a bot a client may seat, or ``timer``, whose every decision
    times out at once; None: the game's ``heuristic`` bot where it has one, else ``random``)."""

    game: Annotated[Text, Field(max_length=64)]
    variant: Annotated[Text, Field(max_length=64)] | None = None
    players: int | None = None
    params: Annotated[dict[str, Any], Field(max_length=64)] = Field(default_factory=dict)
    seats: list[SeatRequest] = Field(default_factory=list, max_length=16)
    timer_seconds: Annotated[float, Field(gt=0, allow_inf_nan=False)] | None = None
    replace: Annotated[Text, Field(max_length=64)] | None = None


class JoinTable(_Strict):
    """``POST /api/tables/{id}/join``: a display ``name`` and optionally which ``seat`` (else
    the first open one)."""

    name: Annotated[Text, Field(min_length=1, max_length=40)]
    seat: int | None = None


class Joined(BaseModel):
    """Reply to a join: the seat and its secret ``token`` (shown once; keep it to reconnect)."""

    table: TableInfo
    seat: int
    token: str



class Survey(_Strict):
    """``POST /api/tables/{id}/survey`` (a finished game, the seat's token as ``Authorization:
    Bearer TOKEN``): the person's answers, every one optional. ``fun`` 1 (dull) .. 5 (great);
    ``length`` one of :data:`LENGTH_ANSWERS`; ``confusing`` what was confusing; ``again``
    one of :data:`AGAIN_ANSWERS`; ``comment`` anything else. Answering again replaces them."""

    fun: Annotated[int, Field(ge=1, le=5)] | None = None
    length: Literal[LENGTH_ANSWERS] | None = None  # type: ignore[valid-type]
    confusing: Annotated[Text, Field(max_length=MAX_TALK_CHARS)] | None = None
    again: Literal[AGAIN_ANSWERS] | None = None  # type: ignore[valid-type]
    comment: Annotated[Text, Field(max_length=2000)] | None = None
