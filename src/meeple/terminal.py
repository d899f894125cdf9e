"""Terminal play: one person plays one seat against bots (``meeple play``).

The person sees only their seat's view (drawn by the game's text renderer), a prompt with the
legal actions, the last round's log, and the table talk addressed to them. Bad input gets a
message and a new prompt, never a traceback; the state is untouched by a refused action.

Commands at the prompt: an action in the game's notation, or its number from ``list``;
``list`` (numbered legal actions), ``help``, ``say TEXT`` (public) or ``say -rg TEXT`` (to the
seats with those initials), ``quit``.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape

from meeple.bots import make_bot
from meeple.engine.episode import notify_talk
from meeple.engine.errors import ActionParseError, MeepleError
from meeple.engine.explain import legal_summary, nearest
from meeple.engine.game import Game
from meeple.engine.record import Record
from meeple.engine.state import State
from meeple.engine.talk import TalkLog, parse_recipients

HELP = """Type an action in the game's notation (see its rules page), or its number from 'list'.
Other commands: list | help (or ?) | {say}quit"""


def commands_help(talk_modes: Sequence[str]) -> str:
    """The prompt's command reminder for a game whose table talk allows ``talk_modes``: ``say``
    is advertised only where talk is on, ``say -rg`` only where private talk is."""
    say = "say TEXT | " if "public" in talk_modes else ""
    if "private" in talk_modes:
        say += "say -rg TEXT (private, to seats by initial) | "
    return HELP.format(say=say)


class QuitGame(Exception):
    """The person left the game: ``quit`` (``asked`` True) or the end of input."""

    def __init__(self, asked: bool = False) -> None:
        super().__init__("quit" if asked else "input ended")
        self.asked = asked


class TerminalSession:
    """One game of a person against bots.

    Args:
        game: the game spec.
        seat: the person's seat.
        bots: bot names for the other seats, cycled in seat order.
        seed: the game seed (bots derive theirs from it).
        console: where to print (rich console).
        read_line: ``read_line(prompt, timeout)`` returns the next input line; raises
            EOFError at end of input and TimeoutError when ``timeout`` seconds pass first.
        timer: seconds per decision (None: untimed). When it runs out, the game's
            ``timeout_action`` is submitted (Four Gods: ``pass``, B4G-17).
    """

    def __init__(self, game: Game, seat: int, bots: Sequence[str], seed: int,
                 console: Console, read_line: Callable[[str, float | None], str] = (
                     lambda prompt, timeout: input(prompt)),
                 timer: float | None = None) -> None:
        if not 0 <= seat < game.players:
            raise MeepleError(f"seat {seat} is not a seat of this {game.players}-seat game "
                              f"(0..{game.players - 1})")
        self.game, self.seat, self.seed = game, seat, seed
        self.console, self.read_line, self.timer = console, read_line, timer
        others = [s for s in range(game.players) if s != seat]
        names = [bots[i % len(bots)] for i in range(len(others))] if bots else []
        self.agents: list[Any] = [None] * game.players
        for s, name in zip(others, names, strict=True):
            self.agents[s] = make_bot(name, game, s, seed)
        self.talk = TalkLog(game.players, game.capabilities.talk_modes)
        self.commands = escape(commands_help(game.capabilities.talk_modes))
        self.seat_names = game.seat_names()
        self.renderer = game.text_renderer()
        self._shown_messages = 0
        self.quit = False  # the person typed 'quit' (a deliberate end, not lost input)
        self.interrupted = False  # the person pressed Ctrl-C (the caller exits with 130)
        self._event_tail: list[str] = []  # the view's event lines at the last look
        self._new_events: list[str] = []  # events since the person's last decision

    def run(self) -> tuple[State, Record, bool]:
        """Play to the end. Returns ``(state, record, finished)``; ``finished`` is False if
        the person quit, pressed Ctrl-C (``interrupted`` is then True) or input ended first."""
        game, me = self.game, self.seat
        state = game.new_initial_state(self.seed)
        record = Record(game.name, game.variant, game.players, dict(game.params), self.seed,
                        meta={"human_seat": me,
                              "bots": [a.name if a else "human" for a in self.agents]})
        self.console.print(f"[bold]{game.title}[/] - you play {self._name(me)}. "
                           f"{self.commands}")
        finished, announced = True, False
        try:
            while not state.is_terminal():
                if not announced and state.is_eliminated(me):
                    self._show(state)  # the round that put the person out
                    self.console.print("[yellow]you are out of the game; the bots play on[/]")
                    announced = True
                # Each submission is its own step, so a record of a game left mid-decision
                # (bots submitted, the person not yet) still replays exactly.
                for s in state.current_players():
                    if s != me:
                        action = self.agents[s].act(state.view(s), state.legal_actions(s))
                        state.apply_action(action, s)
                        record.steps.append({str(s): str(action)})
                        self._look(state)
                if me in state.current_players():
                    action = self._ask(state)
                    record.steps.append({str(me): str(action)})
                    self._look(state)
        except QuitGame as left:
            self.console.print("[yellow]you left the game[/]")
            self.quit = left.asked
            finished = False
        except KeyboardInterrupt:  # Ctrl-C: off the prompt's line, a word, no board again
            self.console.print()
            self.console.print("[yellow]left the game (Ctrl-C)[/]")
            self.interrupted, finished = True, False
        record.talk = [m.to_json() for m in self.talk.messages]
        record.finish(state)
        if not self.interrupted:
            self._show(state)
        return state, record, finished

    # ---------------------------------------------------------------------------------
    def _name(self, seat: int) -> str:
        return self.seat_names[seat]

    def _look(self, state: State) -> None:
        """Note the events the last action added to the person's view (called after every
        action, so none is missed however short the view's log is)."""
        lines = self.game.event_lines(state.view(self.seat))
        self._new_events.extend(lines[_overlap(self._event_tail, lines):])
        self._event_tail = lines

    def _show(self, state: State) -> None:
        view = state.view(self.seat)
        if self._new_events:
            # every event since the last decision, so the view's own short tail is left out
            view = {**view, "events": []}
        if self.renderer is not None:
            self.console.print(self.renderer(self.game, view))
        else:
            self.console.print(escape(str(view)))
        if self._new_events:
            n = len(self._new_events)
            self.console.print(f"[bold]since your last decision[/] "
                               f"({n} event{'' if n == 1 else 's'}):")
            for line in self._new_events:
                self.console.print(f"  {escape(line)}")
            self._new_events = []
        for message in self.talk.visible_to(self.seat)[self._shown_messages:]:
            to = ("all" if message.recipients is None
                  else ", ".join(self._name(s) for s in message.recipients))
            self.console.print(f"  [italic]{self._name(message.sender)} -> {to}:[/] "
                               f"{escape(message.text)}")
        self._shown_messages = len(self.talk.visible_to(self.seat))

    def _ask(self, state: State) -> Any:
        me = self.seat
        self._show(state)
        legal = state.legal_actions(me)
        examples = ", ".join(str(a) for a in legal[:4])
        deadline = None if self.timer is None else time.monotonic() + self.timer
        while True:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            clock = "" if remaining is None else f" {remaining:.0f}s left"
            try:
                line = self.read_line(
                    f"{self._name(me)} ({len(legal)} legal, e.g. {examples}){clock} > ",
                    remaining)
            except EOFError:
                self.console.print("[yellow]input ended; leaving the game[/]")
                raise QuitGame from None
            except TimeoutError:
                action = self.game.timeout_action(me, legal)
                self.console.print(f"[yellow]time is up: {escape(str(action))} submitted[/]")
                state.apply_action(action, me)
                return action
            text = line.strip()
            if not text:  # an accidental Enter is not a move; 'pass' is typed out
                continue
            word = text.split(" ", 1)[0].lower()
            if word in ("quit", "exit"):
                raise QuitGame(asked=True)
            if word in ("help", "?"):
                self._help(state, legal)
                continue
            if word in ("list", "ls"):
                for i, action in enumerate(legal):
                    self.console.print(f"  {i:>3}  {escape(str(action))}")
                continue
            if word == "say":
                self._say(state, text[3:].strip())
                continue
            try:
                action = legal[int(text)] if text.isdigit() else self.game.parse_action(text, me)
                state.apply_action(action, me)
                return action
            except IndexError:
                self.console.print(
                    f"[red]no action number {text}; 'list' shows 0..{len(legal) - 1}[/]"
                )
            except ActionParseError as exc:
                self.console.print(f"[red]{escape(unreadable(text, str(exc), legal))}[/]")
            except MeepleError as exc:
                self.console.print(f"[red]{escape(str(exc))}[/]")

    def _help(self, state: State, legal: Sequence[Any]) -> None:
        """``help``: the legal moves (grouped by kind when there are many, in the game's
        notation), what this decision is (from the rules page), then the commands."""
        self.console.print(f"[bold]{len(legal)} legal now[/] (type one, or its number from "
                           "'list'):")
        for line in legal_summary(legal):
            self.console.print(escape(line))
        about = self.game.decision_help(state, self.seat)
        if about:
            self.console.print(f"[bold]this decision:[/] {escape(about)}")
        self.console.print(self.commands)

    def _say(self, state: State, text: str) -> None:
        try:
            to, body = parse_recipients(text, self.seat_names)
            message = self.talk.post(self.seat, body, to, step=state.length())
        except MeepleError as exc:
            self.console.print(f"[red]{escape(str(exc))}[/]")
            return
        notify_talk(self.agents, message)
        self.console.print("  [italic]sent[/]")


def _kind_word(text: str) -> str:
    """The kind a move's text starts with, as typed: ``swap`` of ``swap 2 5``, ``atk`` of
    ``atk:BG def:O`` (lower case)."""
    return text.split(" ", 1)[0].split(":", 1)[0].lower()


def unreadable(text: str, message: str, legal: Sequence[Any]) -> str:
    """The answer to a line the game could not read: the game's ``message`` (its
    ActionParseError), then suggestions from the moves legal now only: when ``text`` starts with
    a kind legal now, the legal moves nearest to it; otherwise the kinds legal now, each with an
    example."""
    kinds: dict[str, Any] = {}
    for action in legal:
        kinds.setdefault(_kind_word(str(action)), action)
    if _kind_word(text) in kinds:
        return f"{message}; legal now: {nearest(legal, text)}"
    shown = ", ".join(f"{kind} (e.g. '{example}')" for kind, example in kinds.items())
    return f"{message}; moves now: {shown}"


def _overlap(old: Sequence[str], new: Sequence[str]) -> int:
    """How many of ``new``'s first lines are the last lines of ``old`` (the longest such
    run): ``new[k:]`` are the lines added since ``old``, both being the tail of one log."""
    for k in range(min(len(old), len(new)), 0, -1):
        if list(old[len(old) - k:]) == list(new[:k]):
            return k
    return 0
