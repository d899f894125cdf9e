"""Table talk: a side channel beside the game tree (rules-questions X-7, B4G-15).

Talk is never among the legal actions and never changes the rules state. A message goes to
everyone (public) or to chosen seats (private); each seat sees only the messages it sent or
received, a spectator only public ones. The game instance says which modes are allowed
(``capabilities.talk_modes``); the episode runner keeps the log and writes it into the record.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from meeple.engine.errors import TalkError


@dataclass(frozen=True, slots=True)
class Message:
    """One table-talk message.

    Attributes:
        step: how many steps (joint actions) had been applied when it was sent.
        sender: the sending seat.
        recipients: the seats it was sent to; ``None`` for a public message.
        text: the message, as typed.
    """

    step: int
    sender: int
    recipients: tuple[int, ...] | None
    text: str

    def visible_to(self, seat: int | None) -> bool:
        """Whether ``seat`` (``None``: a spectator) may read this message."""
        if self.recipients is None:
            return True
        return seat is not None and (seat == self.sender or seat in self.recipients)

    def to_json(self) -> dict[str, Any]:
        """JSON-compatible form (the record's ``talk`` entries)."""
        out = asdict(self)
        out["recipients"] = None if self.recipients is None else list(self.recipients)
        return out

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Message:
        """Inverse of :meth:`to_json`."""
        rec = data.get("recipients")
        return cls(int(data["step"]), int(data["sender"]), None if rec is None else tuple(rec),
                   str(data["text"]))


class TalkLog:
    """The messages of one playthrough, with the game's talk policy enforced on ``post``.

    Args:
        players: seat count.
        modes: allowed modes, any of ``"public"`` and ``"private"``; empty means no talk.
    """

    def __init__(self, players: int, modes: Sequence[str]) -> None:
        self.players = players
        self.modes = tuple(modes)
        self.messages: list[Message] = []

    def post(
        self, sender: int, text: str, to: Sequence[int] | None = None, step: int = 0
    ) -> Message:
        """Send ``text`` from ``sender`` to everyone (``to=None``) or to the seats in ``to``.

        Raises:
            TalkError: talk is off, the mode is not allowed, a seat is unknown, the message is
                empty, or ``to`` names nobody but the sender.
        """
        if not self.modes:
            raise TalkError("table talk is off in this game")
        if not (0 <= sender < self.players):
            raise TalkError(f"sender {sender} is not a seat")
        if not text.strip():
            raise TalkError("empty message")
        recipients: tuple[int, ...] | None = None
        if to is not None:
            if "private" not in self.modes:
                raise TalkError("private messages are not allowed (parameter talk=public)")
            bad = [s for s in to if not (0 <= s < self.players)]
            if bad:
                raise TalkError(f"no such seat(s) {bad}")
            recipients = tuple(sorted(set(to) - {sender}))
            if not recipients:
                raise TalkError("a private message needs at least one recipient besides you")
        elif "public" not in self.modes:
            raise TalkError("public messages are not allowed")
        message = Message(step, sender, recipients, text.strip())
        self.messages.append(message)
        return message

    def visible_to(self, seat: int | None) -> list[Message]:
        """The messages ``seat`` may read, oldest first."""
        return [m for m in self.messages if m.visible_to(seat)]


def parse_recipients(text: str, seat_names: Sequence[str]) -> tuple[tuple[int, ...] | None, str]:
    """Split a chat line into recipients and body, as in the Four Gods online version.

    A line that starts with ``-``, then one or more seat initials, then a space and a message
    (``-rg hello``) goes to those seats; **any other line is public, as typed**: ``- I think
    blue is bluffing``, ``-3 for me``, ``-ok`` and ``-rx hi`` (no seat's initial is ``x``) are
    all sent to everyone unchanged. Initials are the first letters of ``seat_names``, in any
    case.

    Returns:
        ``(recipients or None, body)``: the body without the address.
    """
    text = text.strip()
    head, space, body = text.partition(" ")
    initials = {name[0].lower(): seat for seat, name in enumerate(seat_names) if name}
    letters = head[1:].lower()
    if not (text.startswith("-") and space and body.strip() and letters
            and all(ch in initials for ch in letters)):
        return None, text
    return tuple(dict.fromkeys(initials[ch] for ch in letters)), body
