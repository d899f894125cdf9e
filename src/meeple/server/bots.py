"""The bots a server seats: which names a client may ask for, and where they think.

A client names a table's bots, so a bot name is hostile input like any other:

* :func:`check_bot_name` accepts ``random``, the game's own bots (``heuristic``), scripted
  policies (``script-...``) and ISMCTS labels whose budget stays under the server's
  ``bot_iterations`` and ``bot_seconds`` (rollouts by ``random`` or the game's own bots); it
  refuses a trained model (``rl:PATH`` would load a file from the server's disk) and any budget
  over the limits, naming them.
* :func:`seat_bot` builds the bot and caps a search's decision at ``bot_seconds`` whatever its
  label (``ISMCTSBot.time_cap``), tables rebuilt from older databases included.
* :class:`BotPool` runs decisions off the event loop: searches in ``bot_threads`` threads,
  shared fairly (each table at most one running search, tables served in turn), and every other
  bot in a thread of its own, so a quick bot never waits behind a search.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from meeple.bots import family_of, make_bot
from meeple.bots.ismcts import ISMCTSBot, label_options
from meeple.bots.scripted import SCRIPT_PREFIX
from meeple.engine.action import Action
from meeple.engine.agent import Bot
from meeple.engine.errors import ParameterError
from meeple.engine.game import Game
from meeple.server.limits import Limits


def check_bot_name(name: str, game: Game, limits: Limits) -> None:
    """Refuse a bot name a client may not ask for (see the module docstring).

    Raises:
        ParameterError: naming what is refused and what is allowed.
    """
    base = name.split("@", 1)[0]
    own = set(game.bot_factories())
    family = family_of(base)
    if base in own or base in ("random", TimeoutBot.name) or family == SCRIPT_PREFIX:
        return
    if family != "ismcts":
        raise ParameterError(
            f"bot {name!r} cannot be seated from the web; bots: random, "
            f"{', '.join(sorted(own))}, ismcts with a budget (ismcts-400, ismcts-2s) "
            "or scripted policies (script-...)" + (
                "; a trained model (rl:PATH) is a file on the server, which only its "
                "operator may load" if family == "rl" else ""))
    options = label_options(base)
    if options.get("iterations", 0) > limits.bot_iterations:
        raise ParameterError(f"bot {name!r}: at most {limits.bot_iterations} iterations a "
                             "decision on this server")
    if options.get("seconds", 0) > limits.bot_seconds:
        raise ParameterError(f"bot {name!r}: at most {limits.bot_seconds:g} s a decision on "
                             "this server")
    if options.get("rollout", "random") not in own | {"random"}:
        raise ParameterError(f"bot {name!r}: a search's rollouts are played by "
                             f"{', '.join(sorted(own | {'random'}))}")


class TimeoutBot(Bot):
    """The seat of a person who left, when the table's creator chose the timer to take it:
    every decision is what the decision timer would play (``Game.timeout_action``), at once."""

    name = "timer"

    def act(self, view: Mapping[str, Any], legal_actions: Sequence[Action]) -> Action:
        return self.game.timeout_action(self.seat, legal_actions)


def seat_bot(name: str, game: Game, seat: int, seed: int, limits: Limits) -> Any:
    """Bot ``name`` for ``seat`` (:func:`meeple.bots.make_bot`; ``timer``:
    :class:`TimeoutBot`), a search's decisions capped at ``limits.bot_seconds``.

    Raises:
        ParameterError: as ``make_bot``.
    """
    if name == TimeoutBot.name:
        return TimeoutBot(game, seat, seed)
    bot = make_bot(name, game, seat, seed)
    if isinstance(bot, ISMCTSBot):
        bot.time_cap = limits.bot_seconds
    return bot


class BotPool:
    """Where the seated bots think (see the module docstring).

    Args:
        search_threads: threads for searching bots (>= 1).
    """

    def __init__(self, search_threads: int) -> None:
        self.searches = ThreadPoolExecutor(search_threads, thread_name_prefix="meeple-search")
        self.quick = ThreadPoolExecutor(1, thread_name_prefix="meeple-bot")
        self.free = search_threads
        #: table id -> its searches waiting, tables in the order they are served
        self.waiting: OrderedDict[str, deque[tuple[Callable[..., Any], tuple, asyncio.Future]]]
        self.waiting = OrderedDict()
        self.running: set[str] = set()

    def think(self, table: str, bot: Any, *args: Any) -> asyncio.Future:
        """``bot.act(*args)`` in a thread; a future of its result, on the running loop."""
        loop = asyncio.get_running_loop()
        if not isinstance(bot, ISMCTSBot):
            return loop.run_in_executor(self.quick, bot.act, *args)
        future: asyncio.Future = loop.create_future()
        self.waiting.setdefault(table, deque()).append((bot.act, args, future))
        self._dispatch(loop)
        return future

    def _dispatch(self, loop: asyncio.AbstractEventLoop) -> None:
        while self.free > 0:
            table = next((t for t, jobs in self.waiting.items()
                          if jobs and t not in self.running), None)
            if table is None:
                return
            jobs = self.waiting[table]
            fn, args, future = jobs.popleft()
            if not jobs:
                del self.waiting[table]
            else:
                self.waiting.move_to_end(table)  # the next search of this table waits its turn
            if future.cancelled():
                continue
            self.running.add(table)
            self.free -= 1
            work = loop.run_in_executor(self.searches, fn, *args)
            work.add_done_callback(lambda done, t=table, f=future: self._done(loop, t, f, done))

    def _done(self, loop: asyncio.AbstractEventLoop, table: str, future: asyncio.Future,
              work: asyncio.Future) -> None:
        self.running.discard(table)
        self.free += 1
        if not future.done():
            if work.cancelled():
                future.cancel()
            elif work.exception() is not None:
                future.set_exception(work.exception())  # type: ignore[arg-type]
            else:
                future.set_result(work.result())
        self._dispatch(loop)

    def forget(self, table: str) -> None:
        """Drop ``table``'s waiting searches (it ended); a running one finishes unheard."""
        for _, _, future in self.waiting.pop(table, ()):
            future.cancel()

    def shutdown(self) -> None:
        """Stop the threads, dropping what waits."""
        for table in list(self.waiting):
            self.forget(table)
        self.searches.shutdown(wait=True, cancel_futures=True)
        self.quick.shutdown(wait=True, cancel_futures=True)
