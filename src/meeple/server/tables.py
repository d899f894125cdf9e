"""Tables: one game instance each, played by people and bots, persisted action by action.

A :class:`Table` holds the true state (only here: connections receive views), its seats, the
talk log, the decision timer and the bots. Every change happens under the table's lock, in this
order: check (``parse_action``/``apply_action`` refuse bad input with the state untouched),
commit to the database, then deliver to the listeners (connections). A listener for seat ``i``
gets a ``state`` message only when what ``i`` may know changed: its ``view(i)``, its legal
actions, the status, the deadline; so the number and timing of messages carry nothing hidden.

The decision timer: a new deadline starts when a decision resolves and the public view
(``view(None)``) differs from the one at the start of the previous timed decision; sub-steps
that change nothing public share one deadline, so its resets tell nothing a spectator could not
see. When it expires, the table submits ``game.timeout_action`` for each seat still to act.

:class:`~meeple.server.seating.Seating` (a base of :class:`Table`) joins, leaves, opens and
closes; :mod:`meeple.server.narration` writes the table's log;
:class:`meeple.server.manager.TableManager` creates, lists and rebuilds tables.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from meeple.engine.errors import (
    ActionParseError,
    GameOverError,
    MeepleError,
    NotYourTurnError,
    ParameterError,
    TalkError,
)
from meeple.engine.game import Game
from meeple.engine.record import Record
from meeple.engine.talk import Message, TalkLog, parse_recipients
from meeple.server import protocol as p
from meeple.server.bots import seat_bot
from meeple.server.db import StoredTable
from meeple.server.narration import TableLog, departure_entry, step_entries
from meeple.server.seating import Listener, Seating, TableError, clean_text

if TYPE_CHECKING:
    from meeple.server.manager import TableManager

log = logging.getLogger("meeple.server")

#: Timeout actions submitted for one expired deadline before a fresh one is set (a guard for a
#: game whose timed-out sub-steps change nothing public for a long time).
MAX_TIMEOUT_STEPS = 1000


def default_replacement(game: Game) -> str:
    """Who takes a leaving person's seat when the table's creator did not say: the game's own
    ``heuristic`` bot where it has one, else ``random``."""
    return "heuristic" if "heuristic" in game.bot_factories() else "random"


def _public_key(view: dict[str, Any]) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


class Table(Seating):
    """One table. Built by :class:`TableManager` (``create``, or ``rebuild`` from the DB).

    Args:
        manager: the owning manager (database runner, executors, clock, limits, content).
        stored: the table's stored rows (actions and messages are replayed).
        creator: the address of the client that made it (None: unknown, e.g. rebuilt).
    Raises:
        MeepleError: if the stored game spec cannot be loaded (its content id no longer
            offered included) or an action does not replay.
        RuntimeError: if the replay does not reach the stored digest.
    """

    def __init__(self, manager: TableManager, stored: StoredTable,
                 creator: str | None = None) -> None:
        row = stored.row
        self.manager = manager
        limits = manager.limits
        self.id: str = row["id"]
        self.seed: int = row["seed"]
        timer = row["timer_seconds"]
        #: Seconds per decision (None: untimed); a timer stored below today's minimum (an
        #: older server's) runs at the minimum.
        self.timer_seconds: float | None = None if timer is None else \
            max(float(timer), limits.min_timer_seconds)
        self.status: str = row["status"]
        self.rematch: str | None = row.get("rematch")
        self.rematch_of: str | None = stored.rematch_of
        self.creator = creator
        self.created_at: float = row["created_at"]
        #: When something last happened here (manager clock): a join, an action, a message,
        #: a connection (:meth:`touch`); a rebuilt table starts afresh.
        self.last_activity: float = manager.clock()
        #: The parameters as stored and shown: a file parameter is a content id, never a
        #: path (meeple.server.content); ``self.game.params`` holds the path.
        self.params: dict[str, Any] = dict(row["params"])
        self.game: Game = manager.spec(row["game"], row["variant"], row["players"],
                                       self.params)
        self.seats = [dict(kind=s["kind"], name=s["name"], token_hash=s["token_hash"])
                      for s in stored.seats]
        #: Who takes a person's seat when they leave: a bot's name, or ``timer``.
        self.replace: str = stored.replace or default_replacement(self.game)
        #: People who left the running game: ``seat``, ``name``, ``after_action``.
        self.departures: list[dict[str, Any]] = list(stored.departures)
        self.state = self.game.new_initial_state(self.seed)
        self.log = TableLog()
        self._events = self.state.view(None).get("events")
        self.talk = TalkLog(self.game.players, self.game.capabilities.talk_modes)
        self.seat_names = list(self.game.seat_names())
        self.steps: list[tuple[int, str, str]] = []   # (seat, text, source)
        #: When the first action was accepted (Unix seconds; the stored first action's time
        #: for a rebuilt table), None before it: the finished record's ``meta.started_at``.
        self.started_at: float | None = stored.actions[0]["at"] if stored.actions else None
        self.resolved = 0                               # decisions resolved so far
        self.epoch = 0                                  # timer epoch (deadline resets)
        self.deadline: float | None = None
        self.lock = asyncio.Lock()
        self.listeners: set[Listener] = set()
        self.bots = {i: seat_bot(s["name"], self.game, i, self.seed, limits)
                     for i, s in enumerate(self.seats) if s["kind"] == "bot"}
        self.thinking: set[int] = set()
        self._texts: dict[int, tuple[Any, list[str]]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._public = _public_key(self.state.view(None)) if self.timer_seconds else ""
        #: Per step, the seconds its seat took to decide (None where unknown) and, per seat to
        #: act now, when its decision opened (manager clock): see :meth:`_decided`.
        self.think: list[float | None] = []
        self.opened: dict[int, float] = {}
        left = sorted(self.departures, key=lambda d: d["after_action"])
        for action in stored.actions:
            while left and left[0]["after_action"] <= len(self.steps):
                self._log_departure(left.pop(0))
            self._replay(action["seat"], action["text"], action["source"])
            self.think.append(stored.think.get(action["seq"]))
        for departure in left:
            self._log_departure(departure)
        if self.status == "running":  # rebuilt: decisions open again from the last action
            since = stored.actions[-1]["at"] if stored.actions else self.manager.clock()
            self.opened = {s: since for s in self.state.current_players()}
        if stored.actions and self.state.digest() != stored.actions[-1]["digest"]:
            raise RuntimeError(f"table {self.id}: replay reaches digest "
                               f"{self.state.digest()[:12]}, stored "
                               f"{stored.actions[-1]['digest'][:12]}")
        for m in stored.messages:
            self.talk.messages.append(Message(m["step"], m["sender"],
                                              None if m["recipients"] is None
                                              else tuple(m["recipients"]), m["text"]))
        if stored.deadline is not None:
            self.epoch = stored.deadline["epoch"]
            self.deadline = stored.deadline["expires_at"]

    # ------------------------------------------------------------------ summaries
    def info(self) -> p.TableInfo:
        """The public summary (no seed, no tokens, no paths)."""
        online = {listener.seat for listener in self.listeners}
        return p.TableInfo(
            id=self.id, game=self.game.name, title=self.game.title, variant=self.game.variant,
            players=self.game.players, params=dict(self.params), status=self.status,
            timer_seconds=self.timer_seconds,
            talk_modes=list(self.game.capabilities.talk_modes), seat_names=self.seat_names,
            seats=[p.SeatInfo(seat=i, kind=s["kind"], name=s["name"],
                              connected=s["kind"] == "person" and i in online)
                   for i, s in enumerate(self.seats)], rematch=self.rematch,
            rematch_of=self.rematch_of,
            spectators=sum(listener.seat is None for listener in self.listeners),
            created_at=self.created_at, seat_colours=list(self.game.seat_colours()),
            replace=self.replace)

    def state_message(self, seat: int | None) -> tuple[Any, p.StateUpdate]:
        """``(key, message)``: the ``state`` message for ``seat`` and the key that decides
        whether it changed (everything but the server's clock)."""
        state = self.state
        view = state.view(seat)
        running = self.status == "running"
        legal = self._legal_texts(seat) if running and seat is not None else []
        result = None
        if state.is_terminal():
            result = p.Result(returns=list(state.returns()), winners=list(state.winners()),
                              scores=list(state.scores()), outcome=state.outcome(),
                              truncated=state.is_truncated())
        timer = None
        if running and self.deadline is not None and self.timer_seconds:
            timer = p.Timer(deadline=self.deadline, now=self.manager.clock(),
                            seconds=self.timer_seconds)
        message = p.StateUpdate(status=self.status, view=view, legal=legal, timer=timer,
                                result=result)
        key = (view, legal, self.status, self.deadline)  # fresh values, compared by ==
        return key, message

    def _legal_texts(self, seat: int) -> list[str]:
        """``seat``'s legal actions as texts, memoised per decision (the state returns the same
        sequence object until the decision changes)."""
        actions = self.state.legal_actions(seat)
        cached = self._texts.get(seat)
        if cached is None or cached[0] is not actions:
            cached = self._texts[seat] = (actions, [str(a) for a in actions])
        return cached[1]

    def talk_out(self, message: Message) -> p.TalkOut:
        """A talk message as the protocol sends it."""
        return p.TalkOut(sender=message.sender, recipients=None if message.recipients is None
                         else list(message.recipients), step=message.step, text=message.text)

    # ------------------------------------------------------------------ listeners
    def snapshot(self, listener: Listener, with_table: bool = True) -> None:
        """Send ``listener`` the table (unless ``with_table`` is False), its state and its talk
        history (on connect, after ``welcome``, and on ``sync``)."""
        key, message = self.state_message(listener.seat)
        listener.last_key = key
        if with_table:
            listener.send(p.dump(p.TableUpdate(table=self.info())))
        listener.send(p.dump(message))
        listener.send(p.dump(p.History(messages=[self.talk_out(m) for m in
                                                 self.talk.visible_to(listener.seat)])))
        listener.send(p.dump(p.Log(entries=self.log.visible_to(listener.seat), reset=True)))

    def attach(self, listener: Listener) -> None:
        """Add a connection; others learn the seat is connected (the lobby too, which also
        counts spectators)."""
        was_online = self._online(listener.seat)
        self.listeners.add(listener)
        self.touch()
        if listener.seat is not None and not was_online:
            self._broadcast_table(exclude=listener)
        self.manager.lobby_changed()

    def detach(self, listener: Listener) -> None:
        """Remove a connection (no error if absent)."""
        if listener not in self.listeners:
            return
        self.listeners.discard(listener)
        self.touch()
        if listener.seat is not None and not self._online(listener.seat):
            self._broadcast_table()
        self.manager.lobby_changed()

    def _online(self, seat: int | None) -> bool:
        return any(listener.seat == seat for listener in self.listeners)

    def _broadcast_table(self, exclude: Listener | None = None) -> None:
        text = p.dump(p.TableUpdate(table=self.info()))
        for listener in list(self.listeners):
            if listener is not exclude:
                listener.send(text)

    def _broadcast_log(self, entries: list[tuple[int | None, p.LogEntry]]) -> None:
        """Add ``entries`` to the log and send each connection those it may read."""
        start = len(self.log.entries)
        for to, entry in entries:
            self.log.add(entry, to)
        texts: dict[int | None, str | None] = {}
        for listener in list(self.listeners):
            if listener.seat not in texts:
                mine = self.log.visible_to(listener.seat, start)
                texts[listener.seat] = p.dump(p.Log(entries=mine)) if mine else None
            text = texts[listener.seat]
            if text is not None:
                listener.send(text)

    def _broadcast_state(self) -> None:
        cache: dict[int | None, list[Any]] = {}   # seat -> [key, message, text or None]
        for listener in list(self.listeners):
            entry = cache.get(listener.seat)
            if entry is None:
                entry = cache[listener.seat] = [*self.state_message(listener.seat), None]
            if entry[0] != listener.last_key:
                if entry[2] is None:  # encoded once per seat, only when someone needs it
                    entry[2] = p.dump(entry[1])
                listener.last_key = entry[0]
                listener.send(entry[2])

    def resume(self) -> None:
        """Arm the timer and set the bots thinking (after a start, an action, a rebuild)."""
        self._arm_timer()
        self._schedule_bots()

    # ------------------------------------------------------------------ actions
    async def act(self, seat: int, text: str, source: str = "person") -> str:
        """Apply ``text`` (the game's notation) for ``seat``, commit it, then broadcast.

        Returns:
            The action's canonical text.
        Raises:
            TableError: ``not_running``; ``parse_error``, ``not_your_turn``, ``game_over``,
                ``illegal_action`` (the engine's reason as the message; the state untouched);
                ``storage`` (the database refused; the state is rolled back).
        """
        async with self.lock:
            return await self._act(seat, text, source)

    async def _act(self, seat: int, text: str, source: str) -> str:
        if self.status != "running":
            raise TableError("not_running", f"table {self.id} is {self.status}")
        game, state = self.game, self.state
        try:
            action = game.parse_action(text, seat)
        except ActionParseError as exc:
            raise TableError("parse_error", str(exc)) from None
        before = state.current_players()
        snapshot = state.clone()
        try:
            state.apply_action(action, seat)
        except GameOverError as exc:
            raise TableError("game_over", str(exc)) from None
        except NotYourTurnError as exc:
            raise TableError("not_your_turn", str(exc)) from None
        except MeepleError as exc:
            raise TableError("illegal_action", str(exc)) from None
        canonical = str(action)
        resolved = before == (seat,)
        epoch, deadline, public = self.epoch, self.deadline, self._public
        change: tuple[int, float] | None | bool = False
        public_view = state.view(None)
        events = public_view.get("events")
        entries = step_entries(game, snapshot.length(), seat, canonical, source,
                               len(before) > 1, self._events, events, state.is_terminal())
        if state.is_terminal():
            deadline, change = None, None
        elif resolved and self.timer_seconds:
            now_public = _public_key(public_view)
            if now_public != public:
                epoch, deadline, public = epoch + 1, self.manager.clock() + self.timer_seconds, \
                    now_public
                change = (epoch, deadline)
        record = None
        now = self.manager.clock()
        think = round(max(0.0, now - self.opened.get(seat, now)), 3)
        if state.is_terminal():
            record = self._record(extra=(seat, canonical, source, think),
                                  finished_at=now).to_json()
        row = dict(seq=len(self.steps), seat=seat, text=canonical, source=source,
                   digest=state.digest(), think=think)
        try:
            await self.manager.write("add_action", self.id, row, change, record)
        except Exception as exc:  # the database refused: undo in memory, tell the client
            self.state = snapshot
            log.exception("table %s: storing an action failed", self.id)
            raise TableError("storage", f"the action could not be stored: {exc}") from None
        self.steps.append((seat, canonical, source))
        self.think.append(think)
        if source != "timeout":
            self.touch()
        self._decided(seat, before, now)
        if self.started_at is None:
            self.started_at = now
        self.resolved += resolved
        self.epoch, self.deadline, self._public = epoch, deadline, public
        self._events = events
        if record is not None:
            self.status = "finished"
            self.manager.finished(self, record)
        self._broadcast_log(entries)
        self._broadcast_state()
        self.resume()
        return canonical

    def _decided(self, seat: int, before: tuple[int, ...], now: float) -> None:
        """Restart the decision clocks after ``seat``'s accepted action: a seat that is to act
        now and was not (or the seat that just acted: its next decision) opens at ``now``; a
        seat no longer to act has none. (A decision time is how long a seat had its decision
        open, whatever it did meanwhile, e.g. talk.)"""
        current = self.state.current_players() if self.status == "running" else ()
        self.opened = {s: (now if s == seat or s not in before else self.opened.get(s, now))
                       for s in current}

    def _record(self, extra: tuple[int, str, str, float] | None = None,
                finished_at: float | None = None) -> Record:
        """The game's record so far (with ``extra``, the step being committed, appended):
        ``meta`` holds ``server_table``, each step's ``sources`` and ``think_seconds`` (how
        long its seat took to decide; None where unknown), the ``seats`` (``kind``,
        ``name``: a seat whose person left shows who plays it since), the ``departures``
        (``seat``, ``name``, ``after_action``, ``replacement``; only if someone left) and,
        for a finished game, ``started_at`` (the first action's time) and ``finished_at``
        (the last one's), Unix seconds by the manager's clock."""
        steps = self.steps + ([extra[:3]] if extra else [])
        think = self.think + ([extra[3]] if extra else [])
        game = self.game
        meta: dict[str, Any] = {"server_table": self.id,
                                "sources": [src for _, _, src in steps],
                                "think_seconds": think,
                                "seats": [{"kind": s["kind"], "name": s["name"]}
                                          for s in self.seats]}
        if self.departures:
            meta["departures"] = [dict(d) for d in self.departures]
        if finished_at is not None:
            meta["started_at"] = finished_at if self.started_at is None else self.started_at
            meta["finished_at"] = finished_at
        record = Record(game.name, game.variant, game.players, dict(game.params), self.seed,
                        steps=[{str(s): t} for s, t, _ in steps],
                        talk=[m.to_json() for m in self.talk.messages], meta=meta)
        record.finish(self.state)
        return record

    # ------------------------------------------------------------------ talk
    async def say(self, seat: int, text: str, to: list[int] | None = None) -> Message:
        """Post table talk from ``seat``: to ``to``, or by a ``-xy`` initials prefix, or public;
        stored, then delivered to the seats that may read it (bots through ``Bot.hear``).

        Raises:
            TableError: ``talk_error`` (talk off, a mode not allowed, bad recipients, empty).
        """
        text = clean_text(text)
        async with self.lock:
            try:
                if to is None:
                    to_seats, text = parse_recipients(text, self.seat_names)
                else:
                    to_seats = tuple(to)
                probe = TalkLog(self.game.players, self.talk.modes)
                message = probe.post(seat, clean_text(text), to_seats, step=self.state.length())
            except (TalkError, ParameterError) as exc:
                raise TableError("talk_error", str(exc)) from None
            row = dict(seq=len(self.talk.messages), step=message.step,
                       after_action=len(self.steps), sender=seat,
                       recipients=None if message.recipients is None
                       else list(message.recipients),
                       text=message.text, at=self.manager.clock())
            await self.manager.write("add_message", self.id, row)
            self.talk.messages.append(message)
            self.touch()
            text_out = p.dump(p.Talk(message=self.talk_out(message)))
            for listener in list(self.listeners):
                if message.visible_to(listener.seat):
                    listener.send(text_out)
            for bot_seat, bot in self.bots.items():
                if bot_seat != seat and message.visible_to(bot_seat):
                    try:
                        bot.hear(message)
                    except Exception:
                        log.exception("table %s: bot %s failed to hear", self.id, bot_seat)
            return message

    # ------------------------------------------------------------------ timer
    def _arm_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.status != "running" or self.deadline is None:
            return
        loop = asyncio.get_running_loop()
        delay = max(0.0, self.deadline - self.manager.clock())
        epoch = self.epoch
        self._timer = loop.call_later(delay, lambda: self.manager.spawn(self.expire(epoch)))

    async def expire(self, epoch: int) -> int:
        """The deadline of timer ``epoch`` passed: submit ``timeout_action`` for every seat still
        to act until a new deadline starts. Returns the actions submitted (0 if stale)."""
        done = 0
        async with self.lock:
            if self.epoch != epoch or self.status != "running" or self.deadline is None:
                return 0
            if self.deadline > self.manager.clock():
                # the loop's monotonic timer fired before the wall clock reached the deadline
                # (clock resolution, or a clock step): wait again, or the table would stall
                self._arm_timer()
                return 0
            while self.epoch == epoch and self.status == "running" and done < MAX_TIMEOUT_STEPS:
                seat = self.state.current_players()[0]
                action = self.game.timeout_action(seat, self.state.legal_actions(seat))
                await self._act(seat, str(action), "timeout")
                done += 1
            if self.epoch == epoch and self.status == "running":
                self.epoch += 1
                self.deadline = self.manager.clock() + (self.timer_seconds or 0)
                await self.manager.write("set_deadline", self.id,
                                      (self.epoch, self.deadline))
                self._broadcast_state()
                self.resume()
        return done

    # ------------------------------------------------------------------ bots
    def _schedule_bots(self) -> None:
        if self.status != "running":
            return
        for seat in self.state.current_players():
            bot = self.bots.get(seat)
            if bot is None or seat in self.thinking:
                continue
            self.thinking.add(seat)
            view, legal = self.state.view(seat), self.state.legal_actions(seat)
            future = self.manager.bots.think(self.id, bot, view, legal)
            resolved = self.resolved
            future.add_done_callback(
                lambda f, s=seat, r=resolved: self.manager.spawn(self._bot_done(s, r, f)))

    async def _bot_done(self, seat: int, resolved: int, future: asyncio.Future) -> None:
        async with self.lock:
            self.thinking.discard(seat)
            if future.cancelled():  # the table ended meanwhile
                return
            if self.status != "running" or self.resolved != resolved \
                    or seat not in self.state.current_players():
                self._schedule_bots()
                return
            try:
                text = str(future.result())
            except Exception:
                log.exception("table %s: bot in seat %s failed; it times out", self.id, seat)
                text = str(self.game.timeout_action(seat, self.state.legal_actions(seat)))
            try:
                await self._act(seat, text, "bot")
            except TableError as exc:
                log.error("table %s: bot in seat %s: %s", self.id, seat, exc.message)
                fallback = self.game.timeout_action(seat, self.state.legal_actions(seat))
                await self._act(seat, str(fallback), "timeout")

    # ------------------------------------------------------------------ replay
    def _replay(self, seat: int, text: str, source: str) -> None:
        state = self.state
        before = state.current_players()
        length = state.length()
        state.apply_action(self.game.parse_action(text, seat), seat)
        self.steps.append((seat, text, source))
        public_view = state.view(None)
        events = public_view.get("events")
        for to, entry in step_entries(self.game, length, seat, text, source, len(before) > 1,
                                      self._events, events, state.is_terminal()):
            self.log.add(entry, to)
        self._events = events
        if before == (seat,):
            self.resolved += 1
            if self.timer_seconds:
                self._public = _public_key(public_view)

    def _log_departure(self, departure: dict[str, Any]) -> p.LogEntry:
        entry = departure_entry(self.state.length(), departure["seat"], departure["name"],
                                departure["replacement"])
        self.log.add(entry)
        return entry

    def stop(self) -> None:
        """Cancel the timer (the manager is shutting down)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
