"""The server's database: SQLAlchemy 2 models, the engine, and every read and write the server
makes (nothing else in the server issues SQL).

Nine tables, all keyed by the table's id:

* ``tables``: the game spec (name, variant, players, parameters: a file parameter as the
  content id the table was made with), the secret seed, the decision timer, the status
  (``open``, ``running``, ``finished``; ``broken``: its replay failed; ``expired``: nobody
  filled it in time; ``abandoned``: nobody attended it; ``left``: its people left it) and, once
  finished, the game's meeple record as JSON and the id of its rematch table.
* ``seats``: who sits where: an open seat, a person (display name and the SHA-256 of the seat's
  secret token, never the token) or a named bot.
* ``actions``: every accepted action in order (``seq`` 0, 1, ...), with the seat, the action's
  canonical text, its source (``person``, ``bot``, ``timeout``) and the state digest after it.
* ``messages``: table talk in order, with sender, recipients (``None``: public), the step it was
  sent at and how many actions had been accepted when it was sent (to interleave with actions).
* ``deadlines``: the running decision timer of a table (one row or none): the timer epoch it
  belongs to and when it expires (Unix seconds), so a restart re-arms it.
* ``action_times``: per action, how long its seat took to decide (seconds), for the human
  playtest statistics (``meeple report --people``).
* ``surveys``: each person's answers to the after-game survey.
* ``table_settings``: who takes a person's seat when they leave (a bot, or the timer).
* ``departures``: people who left a running game, when, and who plays their seat since.

Tables added in later versions are created on start; none of them changes an existing one, so
an older database needs no migration.

An action and the deadline it starts are written in one transaction, committed before anything
is broadcast. SQLite (the default, a file in the working directory) runs in WAL mode, durable
against a killed process; PostgreSQL is reached by a ``postgresql://`` URL through psycopg 3.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Float,
    ForeignKey,
    Integer,
    String,
    Text,
    create_engine,
    delete,
    event,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

DEFAULT_URL = "sqlite:///meeple.db"


class Base(DeclarativeBase):
    """Declarative base of the server's tables."""


class TableRow(Base):
    """One game table."""

    __tablename__ = "tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(64))
    variant: Mapped[str] = mapped_column(String(64))
    players: Mapped[int] = mapped_column(Integer)
    params: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    timer_seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="open", index=True)
    created_at: Mapped[float] = mapped_column(Float)
    record: Mapped[str | None] = mapped_column(Text, nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)


class SeatRow(Base):
    """One seat of a table: ``kind`` is ``open``, ``person`` or ``bot``."""

    __tablename__ = "seats"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(64), default="")
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """One accepted action."""

    __tablename__ = "actions"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)
    source: Mapped[str] = mapped_column(String(8))
    digest: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)


class MessageRow(Base):
    """One table-talk message."""

    __tablename__ = "messages"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    step: Mapped[int] = mapped_column(Integer)
    after_action: Mapped[int] = mapped_column(Integer)
    sender: Mapped[int] = mapped_column(Integer)
    recipients: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    text: Mapped[str] = mapped_column(Text)
    at: Mapped[float] = mapped_column(Float)


class ActionTimeRow(Base):
    """How long the acting seat took over one accepted action: seconds from the moment its
    decision opened (it became a seat to act, or its previous action was accepted) to the
    action. Its own table (not a column of ``actions``) so that databases made before it need
    no migration."""

    __tablename__ = "action_times"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    think: Mapped[float] = mapped_column(Float)


class SurveyRow(Base):
    """A person's answers to the after-game survey (``answers``: the fields of
    :class:`meeple.server.protocol.Survey`), one per seat, replaced when answered again."""

    __tablename__ = "surveys"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64), default="")
    answers: Mapped[dict[str, Any]] = mapped_column(JSON)
    at: Mapped[float] = mapped_column(Float)


class SettingsRow(Base):
    """A table's settings beyond its game spec: who takes a person's seat when they leave
    (``replace``: a bot's name or ``timer``). A table without a row (made by an older version)
    uses the default (:func:`meeple.server.tables.default_replacement`)."""

    __tablename__ = "table_settings"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    replace: Mapped[str] = mapped_column(String(64))


class DepartureRow(Base):
    """A person who left a running game: their ``seat`` and ``name``, how many actions had been
    accepted then (``after_action``), who plays the seat since (``replacement``), when (``at``,
    Unix seconds)."""

    __tablename__ = "departures"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    after_action: Mapped[int] = mapped_column(Integer)
    replacement: Mapped[str] = mapped_column(String(64))
    at: Mapped[float] = mapped_column(Float)


class DeadlineRow(Base):
    """The running decision timer of a table."""

    __tablename__ = "deadlines"
    table_id: Mapped[str] = mapped_column(ForeignKey("tables.id"), primary_key=True)
    epoch: Mapped[int] = mapped_column(Integer)
    expires_at: Mapped[float] = mapped_column(Float)


def hash_token(token: str) -> str:
    """The SHA-256 hex digest stored for a seat's secret ``token`` (tokens are 256-bit random,
    so a plain hash is enough; no salt is needed against guessing)."""
    return hashlib.sha256(token.encode()).hexdigest()


def normalise_url(url: str) -> str:
    """``url`` with the psycopg 3 driver named for a bare ``postgresql://`` URL.

    Raises:
        ValueError: for a URL that is neither SQLite nor PostgreSQL.
    """
    if url.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    if url.startswith(("sqlite:", "postgresql+")):
        return url
    raise ValueError(f"unsupported database URL {url!r}: use sqlite:///FILE or postgresql://...")


def make_engine(url: str = DEFAULT_URL, create_schema: bool = True) -> Engine:
    """A SQLAlchemy engine for ``url`` with the schema created (unless ``create_schema`` is
    False, for a reader) (SQLite: WAL mode, a 10 s busy timeout).

    Raises:
        ValueError: for an unsupported URL; SQLAlchemy's errors if the database is unreachable.
    """
    url = normalise_url(url)
    sqlite = url.startswith("sqlite")
    engine = create_engine(url, connect_args={"timeout": 10} if sqlite else {},
                           pool_pre_ping=not sqlite)
    if sqlite:
        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
    if create_schema:
        Base.metadata.create_all(engine)
    return engine


@dataclass
class StoredTable:
    """Everything stored about one table, as read back by :meth:`Store.load_table`."""

    row: dict[str, Any]
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    deadline: dict[str, Any] | None = None
    #: Decision times by action ``seq`` (seconds; missing for actions stored without one).
    think: dict[int, float] = field(default_factory=dict)
    #: The finished table this one is the rematch of, if any.
    rematch_of: str | None = None
    #: Who takes a leaving person's seat (None: not stored, the default).
    replace: str | None = None
    #: People who left the running game (``seat``, ``name``, ``after_action``,
    #: ``replacement``), in the order they left.
    departures: list[dict[str, Any]] = field(default_factory=list)


def _as_dict(obj: Base) -> dict[str, Any]:
    return {c.key: getattr(obj, c.key) for c in obj.__table__.columns}


def _departure(row: DepartureRow) -> dict[str, Any]:
    return {"seat": row.seat, "name": row.name, "after_action": row.after_action,
            "replacement": row.replacement}


class Store:
    """The server's reads and writes, each its own transaction (blocking: the server calls
    them from a worker thread, never on the event loop).

    Args:
        engine: from :func:`make_engine`.
    """

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    @property
    def is_sqlite(self) -> bool:
        """Whether the database is SQLite (one writer at a time)."""
        return self.engine.dialect.name == "sqlite"

    def create_table(self, row: dict[str, Any], seats: Sequence[dict[str, Any]],
                     replace: str | None = None) -> None:
        """Insert a new table and its seats (``row``: the columns of ``tables``; ``seats``:
        ``seat``, ``kind``, ``name``, ``token_hash``), with who replaces a leaving person."""
        with Session(self.engine) as session, session.begin():
            session.add(TableRow(**row))
            session.flush()  # the table row first: the seats refer to it
            session.add_all(SeatRow(table_id=row["id"], **seat) for seat in seats)
            if replace is not None:
                session.add(SettingsRow(table_id=row["id"], replace=replace))

    def free_seat(self, table_id: str, seat: int) -> None:
        """Open a person's seat again (they left before the game started)."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(SeatRow).where(SeatRow.table_id == table_id,
                                                  SeatRow.seat == seat)
                            .values(kind="open", name="", token_hash=None))

    def leave_seat(self, table_id: str, departure: dict[str, Any]) -> None:
        """A person left a running game: their seat goes to ``departure["replacement"]`` (a
        bot, or ``timer``), their token stops working, and the departure is kept."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(SeatRow).where(SeatRow.table_id == table_id,
                                                  SeatRow.seat == departure["seat"])
                            .values(kind="bot", name=departure["replacement"],
                                    token_hash=None))
            session.add(DepartureRow(table_id=table_id, at=time.time(), **departure))

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                  start: bool) -> bool:
        """Give the open ``seat`` to a person; with ``start``, mark the table running.

        Returns:
            False if the seat was not open any more (nothing written).
        """
        with Session(self.engine) as session, session.begin():
            done = session.execute(
                update(SeatRow)
                .where(SeatRow.table_id == table_id, SeatRow.seat == seat, SeatRow.kind == "open")
                .values(kind="person", name=name, token_hash=token_hash))
            if done.rowcount != 1:
                return False
            if start:
                session.execute(update(TableRow).where(TableRow.id == table_id)
                                .values(status="running"))
            return True

    def add_action(self, table_id: str, action: dict[str, Any],
                   deadline: tuple[int, float] | None | bool,
                   finished_record: dict[str, Any] | None = None) -> None:
        """Append one accepted ``action`` (``seq``, ``seat``, ``text``, ``source``, ``digest``),
        and in the same transaction set the deadline (``(epoch, expires_at)``), clear it
        (``None``) or leave it (``False``), and with ``finished_record`` finish the table."""
        self._one(("add_action", (table_id, action, deadline, finished_record)))

    def set_deadline(self, table_id: str, deadline: tuple[int, float] | None) -> None:
        """Set (``(epoch, expires_at)``) or clear (``None``) a table's deadline."""
        self._one(("set_deadline", (table_id, deadline)))

    def add_message(self, table_id: str, message: dict[str, Any]) -> None:
        """Append one talk message (``seq``, ``step``, ``after_action``, ``sender``,
        ``recipients``, ``text``, ``at``)."""
        self._one(("add_message", (table_id, message)))

    #: The writes :meth:`write_batch` can group: ``add_action``, ``set_deadline``,
    #: ``add_message`` (the arguments of the methods of those names).
    BATCHABLE = ("add_action", "set_deadline", "add_message")

    def write_batch(self, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> list[BaseException | None]:
        """Run several writes (``(name, args)``, ``name`` in :data:`BATCHABLE`) in one
        transaction, each in its own savepoint: one commit for all (group commit), while a
        write that fails is rolled back alone.

        Returns:
            Per write, None or the exception it raised (then nothing of it was written).
        Raises:
            SQLAlchemy's errors if the commit itself fails (then nothing was written).
        """
        out: list[BaseException | None] = []
        with Session(self.engine) as session, session.begin():
            for name, args in ops:
                if name not in self.BATCHABLE:
                    raise ValueError(f"{name!r} is not a batchable write")
                try:
                    with session.begin_nested():
                        getattr(self, "_w_" + name)(session, *args)
                    out.append(None)
                except Exception as exc:  # that write alone is rolled back
                    out.append(exc)
        return out

    def _one(self, op: tuple[str, tuple[Any, ...]]) -> None:
        (error,) = self.write_batch([op])
        if error is not None:
            raise error

    @staticmethod
    def _w_add_action(session: Session, table_id: str, action: dict[str, Any],
                      deadline: tuple[int, float] | None | bool,
                      finished_record: dict[str, Any] | None) -> None:
        action = dict(action)
        think = action.pop("think", None)
        session.add(ActionRow(table_id=table_id, at=time.time(), **action))
        if think is not None:
            session.add(ActionTimeRow(table_id=table_id, seq=action["seq"], think=think))
        Store._w_set_deadline(session, table_id, deadline)
        if finished_record is not None:
            session.execute(update(TableRow).where(TableRow.id == table_id).values(
                status="finished", record=json.dumps(finished_record)))
        session.flush()

    @staticmethod
    def _w_set_deadline(session: Session, table_id: str,
                        deadline: tuple[int, float] | None | bool) -> None:
        if deadline is False:
            return
        session.execute(delete(DeadlineRow).where(DeadlineRow.table_id == table_id))
        if deadline is not None:
            epoch, expires_at = deadline  # type: ignore[misc]
            session.add(DeadlineRow(table_id=table_id, epoch=epoch, expires_at=expires_at))
        session.flush()

    @staticmethod
    def _w_add_message(session: Session, table_id: str, message: dict[str, Any]) -> None:
        session.add(MessageRow(table_id=table_id, **message))
        session.flush()

    def set_survey(self, table_id: str, seat: int, name: str, answers: dict[str, Any]) -> None:
        """Store (or replace) ``seat``'s survey answers for a table."""
        with Session(self.engine) as session, session.begin():
            session.merge(SurveyRow(table_id=table_id, seat=seat, name=name, answers=answers,
                                    at=time.time()))

    def surveys(self, table_id: str) -> list[dict[str, Any]]:
        """A table's survey answers, by seat: ``seat``, ``name``, ``answers``, ``at``."""
        with Session(self.engine) as session:
            rows = session.scalars(select(SurveyRow).where(SurveyRow.table_id == table_id)
                                   .order_by(SurveyRow.seat))
            return [_as_dict(r) for r in rows]

    def action_times(self, table_id: str) -> dict[int, float]:
        """A table's decision times: action ``seq`` -> seconds (actions stored before decision
        times were kept have none)."""
        with Session(self.engine) as session:
            rows = session.execute(select(ActionTimeRow.seq, ActionTimeRow.think)
                                   .where(ActionTimeRow.table_id == table_id))
            return {seq: think for seq, think in rows}

    def set_rematch(self, table_id: str, rematch_id: str) -> None:
        """Link a finished table to the table of its rematch."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id)
                            .values(rematch=rematch_id))

    def mark(self, table_id: str, status: str) -> None:
        """Set a table's status (e.g. ``broken`` when its replay fails)."""
        with Session(self.engine) as session, session.begin():
            session.execute(update(TableRow).where(TableRow.id == table_id)
                            .values(status=status))

    def table_ids(self, statuses: Sequence[str]) -> list[str]:
        """Ids of the tables in any of ``statuses``, oldest first."""
        with Session(self.engine) as session:
            return list(session.scalars(select(TableRow.id)
                                        .where(TableRow.status.in_(statuses))
                                        .order_by(TableRow.created_at, TableRow.id)))

    def load_tables(self, table_ids: Sequence[str]) -> list[StoredTable]:
        """Several tables as :meth:`load_table` reads one, in seven queries whatever their
        number (a restart rebuilds hundreds at a time); unknown ids are left out."""
        ids = list(table_ids)
        if not ids:
            return []
        with Session(self.engine) as session:
            rows = {r.id: _as_dict(r) for r in session.scalars(
                select(TableRow).where(TableRow.id.in_(ids)))}
            parts: dict[str, dict[str, Any]] = {
                i: {"seats": [], "actions": [], "messages": [], "think": {}} for i in rows}
            for kind, model, order in (("seats", SeatRow, SeatRow.seat),
                                       ("actions", ActionRow, ActionRow.seq),
                                       ("messages", MessageRow, MessageRow.seq)):
                for obj in session.scalars(select(model).where(model.table_id.in_(ids))
                                           .order_by(model.table_id, order)):
                    parts[obj.table_id][kind].append(_as_dict(obj))
            deadlines = {d.table_id: _as_dict(d) for d in session.scalars(
                select(DeadlineRow).where(DeadlineRow.table_id.in_(ids)))}
            for table_id, seq, think in session.execute(
                    select(ActionTimeRow.table_id, ActionTimeRow.seq, ActionTimeRow.think)
                    .where(ActionTimeRow.table_id.in_(ids))):
                parts[table_id]["think"][seq] = think
            rematches = dict(session.execute(
                select(TableRow.rematch, TableRow.id).where(TableRow.rematch.in_(ids))).all())
            replaces = dict(session.execute(
                select(SettingsRow.table_id, SettingsRow.replace)
                .where(SettingsRow.table_id.in_(ids))).all())
            left: dict[str, list[dict[str, Any]]] = {}
            for d in session.scalars(select(DepartureRow).where(DepartureRow.table_id.in_(ids))
                                     .order_by(DepartureRow.at)):
                left.setdefault(d.table_id, []).append(_departure(d))
        return [StoredTable(rows[i], parts[i]["seats"], parts[i]["actions"],
                            parts[i]["messages"], deadlines.get(i), parts[i]["think"],
                            rematches.get(i), replaces.get(i), left.get(i, []))
                for i in ids if i in rows]

    def load_table(self, table_id: str) -> StoredTable | None:
        """A table with its seats, actions, messages and deadline; None if unknown."""
        with Session(self.engine) as session:
            row = session.get(TableRow, table_id)
            if row is None:
                return None
            seats = session.scalars(select(SeatRow).where(SeatRow.table_id == table_id)
                                    .order_by(SeatRow.seat))
            actions = session.scalars(select(ActionRow).where(ActionRow.table_id == table_id)
                                      .order_by(ActionRow.seq))
            messages = session.scalars(select(MessageRow).where(MessageRow.table_id == table_id)
                                       .order_by(MessageRow.seq))
            deadline = session.get(DeadlineRow, table_id)
            think = {seq: secs for seq, secs in session.execute(
                select(ActionTimeRow.seq, ActionTimeRow.think)
                .where(ActionTimeRow.table_id == table_id))}
            rematch_of = session.scalar(select(TableRow.id).where(TableRow.rematch == table_id)
                                        .limit(1))
            settings = session.get(SettingsRow, table_id)
            left = [_departure(d) for d in session.scalars(
                select(DepartureRow).where(DepartureRow.table_id == table_id)
                .order_by(DepartureRow.at))]
            return StoredTable(_as_dict(row), [_as_dict(s) for s in seats],
                               [_as_dict(a) for a in actions], [_as_dict(m) for m in messages],
                               None if deadline is None else _as_dict(deadline), think,
                               rematch_of, None if settings is None else settings.replace, left)

    def record(self, table_id: str) -> dict[str, Any] | None:
        """The stored meeple record of a finished table, or None."""
        with Session(self.engine) as session:
            text = session.scalar(select(TableRow.record).where(TableRow.id == table_id))
        return None if text is None else json.loads(text)

    def finished_records(self) -> Iterator[tuple[str, dict[str, Any]]]:
        """Every finished table's meeple record, oldest table first (by ``created_at``, then
        id), read in batches.

        Yields:
            ``(table id, the record's JSON form)``.
        Raises:
            SQLAlchemy's errors (e.g. no ``tables`` table: not a meeple server database);
            ``json.JSONDecodeError`` for a stored record that is not JSON.
        """
        with Session(self.engine) as session:
            rows = session.execute(select(TableRow.id, TableRow.record)
                                   .where(TableRow.status == "finished",
                                          TableRow.record.is_not(None))
                                   .order_by(TableRow.created_at, TableRow.id)
                                   .execution_options(yield_per=200))
            for table_id, text in rows:
                yield table_id, json.loads(text)

    def dispose(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()
